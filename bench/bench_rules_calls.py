"""How often one touch asks the rules for a state's legal actions and its highlights.

    .venv/bin/python bench/bench_rules_calls.py [--seed N]

A state is an immutable value, so its legal actions and its highlights are computed at
most once each, however many parts of the kiosk ask for them after a change: the
entry-form check, the action menu, the board, the table buttons and the LED strip's
feed. Enumerating a Kolossus position's legal actions is most of a touch's CPU on a Pi
(bench_kolossus.py), so a second enumeration would double it.

The real kiosk runs in this process (offscreen, Kivy's mock GL backend: the widgets are
made and laid out, nothing is drawn) on a Kolossus game, with the LED strip's feed
attached as a rig attaches it. For each interaction the bench counts the calls made
through the game's rules from the touch to the frames it draws:

* an action button (the menu row's release: the action played),
* a miniature selected on the board (a touch at its square),
* a move on the board (a touch at a lit destination),
* an electronic roll through the hardware hub (the pending request's dice).

It prints each count beside its budget (``legal_actions`` ≤ 1 and ``highlights`` ≤ 1
per interaction; a selection enumerates nothing new: 0 ``legal_actions``) and exits
with status 1 when one is over.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.kivy_env import kivy_environment

COUNTED = ("legal_actions", "highlights")
#: The most calls of each counted kind one interaction may make.
BUDGETS: dict[str, dict[str, int]] = {
    "action button": {"legal_actions": 1, "highlights": 1},
    "select a miniature": {"legal_actions": 0, "highlights": 1},
    "move on the board": {"legal_actions": 1, "highlights": 1},
    "electronic roll": {"legal_actions": 1, "highlights": 1},
}


class CountingRules:
    """The game's rules, counting the calls to :data:`COUNTED` made through it."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.rules, name)
        if name not in COUNTED:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=8, help="the random players' seed")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="bench-rules-calls-"))
    os.environ["KIVY_GL_BACKEND"] = "mock"
    os.environ["KCFG_GRAPHICS_MAXFPS"] = "0"
    os.environ.update(kivy_environment(os.environ, quiet=True, kivy_home=home, headless=True))

    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from companion.bot import RandomBot
    from companion.highlights import Role
    from firmware_bridge.dice.messages import DieResult
    from kiosk.app import Kiosk

    def frames(count: int = 2) -> None:
        for _ in range(count):
            EventLoop.idle()

    EventLoop.ensure_window()
    kiosk = Kiosk(home / "data", seed=lambda: 3)
    Window.add_widget(kiosk.manager)
    frames()
    kiosk.open_setup("kolossus")
    assert kiosk.setup is not None
    kiosk.setup.names[:] = ["Ann", "Bob"]
    kiosk.start_game()
    kiosk.on_highlights = lambda highlights: None  # the LED strip's feed
    play = kiosk.play
    assert play is not None
    bot = RandomBot(args.seed)

    def playing_until(done: Callable[[], bool]) -> None:
        for _ in range(300):
            while play.fix.step is not None:
                play.fix.next()
            if done():
                return
            play.submit(bot.choose(play.rules, play.state))
        raise SystemExit("the game never reached the state the bench needs")

    def counted(touch: Callable[[], object]) -> Counter[str]:
        frames(2)
        rules = CountingRules(play.session.rules)
        play.session.rules = rules  # type: ignore[assignment]
        try:
            touch()
            frames(2)
        finally:
            play.session.rules = rules.rules
        return rules.calls

    def tap_cell(cell: str) -> None:
        board = kiosk.play_screen.board
        assert board is not None
        touch = UnitTestTouch(*board.cell_centre(cell))
        touch.touch_down()
        touch.touch_up()

    found: dict[str, Counter[str]] = {}
    playing_until(lambda: getattr(play.state, "phase", None) == "move")
    found["action button"] = counted(lambda: play.submit(play.view().actions[0].payload))
    playing_until(lambda: getattr(play.state, "phase", None) == "move")
    selectable = [h.cell for h in play.highlights() if h.role is Role.SELECTABLE]
    found["select a miniature"] = counted(lambda: tap_cell(selectable[0]))
    reachable = [h.cell for h in play.highlights() if h.role is Role.REACHABLE]
    found["move on the board"] = counted(lambda: tap_cell(reachable[0]))
    playing_until(lambda: play.queries.dice_request() is not None)
    request = play.queries.dice_request()
    assert request is not None

    def roll() -> None:
        for seq in range(request.count):
            kiosk.hub.post(DieResult(device="d", die_id=seq, face=1, faces=request.sides, seq=seq))
        kiosk.pump()

    found["electronic roll"] = counted(roll)
    Window.remove_widget(kiosk.manager)
    kiosk.close()

    over = 0
    print(f"{'interaction':<22} {'kind':<14} {'calls':>5} {'budget':>6}")
    for interaction, calls in found.items():
        for kind in COUNTED:
            budget = BUDGETS[interaction][kind]
            mark = "" if calls[kind] <= budget else "  OVER"
            over += bool(mark)
            print(f"{interaction:<22} {kind:<14} {calls[kind]:>5} {budget:>6}{mark}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
