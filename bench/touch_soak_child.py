"""The child of ``bench/bench_touch_soak.py``: the real app under random touches.

    python bench/touch_soak_child.py CONFIG TOUCHES SEED PROGRESS

Runs :func:`kiosk.app.run_app` (the ``companion app`` path: the exception guard, the
docked keyboard, shop mode as CONFIG sets it) and, from a clock callback every frame,
queues random input into Kivy's input queue, as a visitor's fingers would reach it:

* taps (down and up in one frame, or up a frame later), a third of them where the
  docked keyboard appears;
* drags (down, moves over a few frames, up);
* multi-finger batches: 2 to 5 fingers landing in the same frame (the case that ended
  the app through the keyboard), lifted together or a frame apart;
* now and then a pause longer than the idle timeout, so the demo starts and the next
  touch ends it.

Kivy makes the docked keyboard once per process and keeps it; only a fresh one was
exposed to the frame-it-appears race. Here the kept keyboard is dropped whenever it is
hidden, so each time a name field brings it up it is fresh, as after a restart.

Every 100 touches the count so far goes to PROGRESS (the parent reads it if this
process ends early). At the end the figures are printed (``BENCH {json}``) and the app
stops normally.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

config_path, wanted, seed, progress = (
    Path(sys.argv[1]),
    int(sys.argv[2]),
    int(sys.argv[3]),
    Path(sys.argv[4]),
)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.config import Config  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from kiosk.app import run_app  # noqa: E402
from kiosk.settings import load_config  # noqa: E402

KEYBOARD_BAND = 230  # px from the bottom: where the docked keyboard appears
PAUSE_EVERY = 900  # touches between two pauses that let the demo start
rng = random.Random(seed)
figures: dict[str, Any] = {
    "touches": 0,
    "taps": 0,
    "drags": 0,
    "batches": 0,
    "batch_touches": 0,
    "pauses": 0,
    "frames": 0,
}
screens: Counter[str] = Counter()
pending: list[Any] = []  # (frames to wait, callable)
state = {"pause_until": 0.0, "next_pause": PAUSE_EVERY, "started": time.monotonic()}


def point(keyboard_bias: float = 0.33) -> tuple[float, float]:
    width, height = Window.width, Window.height
    y = (
        rng.uniform(1, KEYBOARD_BAND)
        if rng.random() < keyboard_bias
        else rng.uniform(1, height - 1)
    )
    return rng.uniform(1, width - 1), y


def later(frames: int, action: Any) -> None:
    pending.append([frames, action])


def count(touches: int) -> None:
    before = figures["touches"]
    figures["touches"] += touches
    if figures["touches"] // 100 != before // 100:
        progress.write_text(str(figures["touches"]), encoding="utf-8")


def tap() -> None:
    finger = UnitTestTouch(*point())
    finger.touch_down()
    if rng.random() < 0.5:
        finger.touch_up()
    else:
        later(1, finger.touch_up)
    figures["taps"] += 1
    count(1)


def drag() -> None:
    x, y = point(0.2)
    finger = UnitTestTouch(x, y)
    finger.touch_down()
    steps = rng.randint(2, 6)
    for step in range(1, steps + 1):
        nx = min(Window.width - 1, max(1, x + rng.uniform(-200, 200) * step / steps))
        ny = min(Window.height - 1, max(1, y + rng.uniform(-150, 150) * step / steps))
        later(step, lambda nx=nx, ny=ny: finger.touch_move(nx, ny))
    later(steps + 1, finger.touch_up)
    figures["drags"] += 1
    count(1)


def batch() -> None:
    fingers = [UnitTestTouch(*point(0.5)) for _ in range(rng.randint(2, 5))]
    for finger in fingers:
        finger.touch_down()
    lift_later = rng.random() < 0.5
    for finger in fingers:
        if lift_later:
            later(rng.randint(1, 2), finger.touch_up)
        else:
            finger.touch_up()
    figures["batches"] += 1
    figures["batch_touches"] += len(fingers)
    count(len(fingers))


def step(_dt: float) -> None:
    figures["frames"] += 1
    app = App.get_running_app()
    if app is None or app.kiosk is None:
        return
    screens[str(app.kiosk.manager.current)] += 1
    kept = Window._keyboards.get("single")
    if kept is not None and kept.widget is not None and kept.widget.parent is None:
        del Window._keyboards["single"]  # the next one is made afresh (see above)
        figures["fresh_keyboards"] = figures.get("fresh_keyboards", 0) + 1
    for item in list(pending):
        item[0] -= 1
        if item[0] <= 0:
            pending.remove(item)
            item[1]()
    now = time.monotonic()
    if now < state["pause_until"]:
        return
    if figures["touches"] >= wanted:
        if not pending:
            finish(app)
        return
    if figures["touches"] >= state["next_pause"]:
        state["next_pause"] += PAUSE_EVERY
        idle = app.kiosk.shop.config.idle_timeout_s
        state["pause_until"] = now + idle + 1.5
        figures["pauses"] += 1
        return
    roll = rng.random()
    if roll < 0.55:
        tap()
    elif roll < 0.75:
        drag()
    else:
        batch()


def finish(app: Any) -> None:
    figures["seconds"] = round(time.monotonic() - state["started"], 1)
    figures["screens"] = dict(screens)
    guard = getattr(app, "guard", None)
    figures["recovered_exceptions"] = 0 if guard is None else guard.recovered
    figures["demo_active_at_end"] = bool(app.kiosk.shop.attract.active)
    progress.write_text(str(figures["touches"]), encoding="utf-8")
    print("BENCH " + json.dumps(figures), flush=True)
    Clock.unschedule(step)
    app.stop()


# The Pi's docked keyboard (its config.ini: deploy/kivy_config.py); this child's Kivy
# home is a fresh one, so the setting is made here and the window told.
Config.set("kivy", "keyboard_mode", "systemanddock")
Window: Any = None


def start(_dt: float) -> None:
    global Window
    from kivy.core.window import Window as window

    Window = window
    Window.configure_keyboards()
    Clock.schedule_interval(step, 0)


Clock.schedule_once(start, 0)
sys.exit(run_app(load_config(config_path)))
