"""The environment Kivy and the GL driver read when they first load: one place for it.

The app (:mod:`kiosk.app`), the kiosk tests and the benches all start Kivy with these
settings, so what the tests and benches measure is what players get. Each is a default:
a value already in the environment wins. Nothing here imports Kivy.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

#: Why each setting (figures from ``bench/bench_kiosk.py``, docs/kiosk.md):
APP_ENVIRONMENT: Final[dict[str, str]] = {
    # ``companion`` parses its own options; logs go through Python's logging.
    "KIVY_NO_ARGS": "1",
    "KIVY_LOG_MODE": "PYTHON",
    # The official 7" panel.
    "KCFG_GRAPHICS_WIDTH": "800",
    "KCFG_GRAPHICS_HEIGHT": "480",
    # At most 30 frames a second: plenty for a board-game screen, and it halves the main
    # loop's idle wake-ups (3.5 % → 2.4 % of a core idle, same touch latency).
    "KCFG_GRAPHICS_MAXFPS": "30",
    # No multisampled window: round shapes are drawn with Kivy's anti-aliased Smooth*
    # instructions instead. Under a software renderer MSAA costs ≈30 MB (its buffers and
    # the extra shader code it compiles) and CPU on every frame.
    "KCFG_GRAPHICS_MULTISAMPLES": "0",
    # Image loading through SDL2 only (PNG/JPEG are all the kiosk shows): Kivy's other
    # providers (PIL, imageio) cost memory for nothing.
    "KIVY_IMAGE": "sdl2,tex,dds",
    # Mesa's software renderer (llvmpipe: a machine without a GPU, Xvfb, offscreen) then
    # rasterises on the main thread. Its worker threads each keep scene buffers (50–130 MB
    # for this UI) and buy little at 800×480 and 30 fps: idle CPU 3.0 % → 2.1–2.95 %, a
    # touch shows ≈25 ms later (median 56 ms). GPU drivers (the Pi's V3D) ignore it.
    "LP_NUM_THREADS": "0",
}

#: For tests and benches: no console or file logs, so their output stays readable.
QUIET_ENVIRONMENT: Final[dict[str, str]] = {
    "KIVY_NO_CONSOLELOG": "1",
    "KIVY_NO_FILELOG": "1",
}


def kivy_environment(
    environ: Mapping[str, str],
    *,
    quiet: bool = False,
    kivy_home: Path | None = None,
    headless: bool = False,
) -> dict[str, str]:
    """The kiosk's Kivy settings that ``environ`` does not set yet: ``environ.update`` them.

    ``quiet`` silences Kivy's logs, ``kivy_home`` keeps Kivy's config and logs out of
    the user's home, ``headless`` renders offscreen when there is no ``DISPLAY``. Values
    already in ``environ`` win.
    """
    wanted = dict(APP_ENVIRONMENT)
    if quiet:
        wanted.update(QUIET_ENVIRONMENT)
    if kivy_home is not None:
        wanted["KIVY_HOME"] = str(kivy_home)
    if headless and not environ.get("DISPLAY"):
        wanted["SDL_VIDEODRIVER"] = "offscreen"
    return {key: value for key, value in wanted.items() if key not in environ}
