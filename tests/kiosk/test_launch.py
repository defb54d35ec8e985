"""Launch shows Home only: what Home does not need is loaded when first used.

The launch target (first frame ≤ 1.0 s on the development machine,
``bench/bench_kiosk.py``) depends on the kiosk not loading the game screens, the play
presenter, the shop's demo and admin page, the games' modules or the fleet before Home
is on screen. A fresh interpreter builds the kiosk as the app does and lists what it
loaded; then it opens a game, which must load them (so the check cannot pass by
listing modules that never load at all).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.kiosk.helpers import ROOT

#: Loaded with the first game, the first demo, the admin page or a configured device.
NOT_AT_LAUNCH = (
    "companion.bot",
    "companion.games.kolossus",
    "companion.rules",
    "companion.session",
    "kiosk.admin",
    "kiosk.board_sensing",
    "kiosk.fleet",
    "kiosk.presenters.admin",
    "kiosk.presenters.demo",
    "kiosk.presenters.guided_setup",
    "kiosk.presenters.lesson",
    "kiosk.presenters.play",
    "kiosk.presenters.scores",
    "kiosk.presenters.setup",
    "kiosk.screens.admin",
    "kiosk.screens.guided_setup",
    "kiosk.screens.play",
    "kiosk.screens.scores",
    "kiosk.screens.setup",
    "kiosk.teaching",
    "kiosk.widgets.board",
    "kiosk.widgets.chart",
    "kiosk.widgets.qr",
    "kivy.uix.textinput",
)
#: Never needed by the kiosk's own screens (test and bench tools, image libraries).
NEVER = ("hypothesis", "numpy", "PIL", "paho")
#: Of :data:`NOT_AT_LAUNCH`, what opening and starting a Kolossus game must load.
LOADED_BY_A_GAME = (
    "companion.games.kolossus",
    "companion.session",
    "kiosk.presenters.play",
    "kiosk.presenters.setup",
    "kiosk.screens.play",
    "kiosk.screens.setup",
    "kiosk.teaching",
    "kiosk.widgets.board",
)

CHILD = r"""
import json, sys
from pathlib import Path
from kiosk.app import Kiosk

def loaded(names):
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in sys.modules))

kiosk = Kiosk(Path(sys.argv[1]))
home = {"screens": list(kiosk.manager.screen_names), "loaded": loaded(sys.argv[2].split(","))}
kiosk.seed = lambda: 8
kiosk.open_setup("kolossus")
kiosk.start_game()
game = {"screens": list(kiosk.manager.screen_names), "loaded": loaded(sys.argv[2].split(","))}
kiosk.close()
print("LAUNCH " + json.dumps({"home": home, "game": game}))
"""


def run_child(tmp_path: Path) -> dict[str, dict[str, list[str]]]:
    env = dict(os.environ)
    env["KIVY_HOME"] = str(tmp_path / "kivy")  # its own Kivy config, beside the tests'
    (tmp_path / "kivy").mkdir()
    watched = ",".join((*NOT_AT_LAUNCH, *NEVER))
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "data"), watched],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("LAUNCH ")]
    assert result.returncode == 0 and lines, result.stderr[-3000:]
    found: dict[str, dict[str, list[str]]] = json.loads(lines[-1].removeprefix("LAUNCH "))
    return found


def test_home_at_launch_loads_no_game_screen_presenter_demo_or_fleet(tmp_path: Path) -> None:
    found = run_child(tmp_path)
    assert found["home"]["screens"] == ["home"]
    assert found["home"]["loaded"] == []
    # A game on screen loads its screens and modules when first shown, and nothing
    # here ever loads an image library, numpy or the test tools.
    assert {"setup", "play"} <= set(found["game"]["screens"])
    assert set(LOADED_BY_A_GAME) <= set(found["game"]["loaded"])
    assert not set(NEVER) & set(found["game"]["loaded"])
