"""Play against the companion by touch on the offscreen window: a seat made the
companion's in Setup, its decision made on a thread of its own (the UI thread answers
taps meanwhile) and shown when the window's clock delivers it, its move made by the
"Done" tap; and the thread seam itself."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.bots import Decision
from companion.games.builders.model import BuildersState
from firmware_bridge.buttons import ButtonPressed
from kiosk.app import Kiosk
from kiosk.shop_demo import AGAINST_TEXT
from kiosk.thinker import ThreadRunner
from tests.helpers.kiosk_shop import Shop
from tests.helpers.kiosk_widgets import cut_texts, shoot
from tests.helpers.presenters import state_as
from tests.kiosk.ui import buttons, close_kiosk, find_button, frames, open_kiosk, tap, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path)
    yield k
    close_kiosk(k)


def _answered(runner: ThreadRunner) -> None:
    """The decisions' threads end; the window's next frame hands their answers over."""
    for thread in runner.threads:
        thread.join()
    frames(2)


def test_the_thread_runner_thinks_off_the_ui_thread_and_answers_on_it() -> None:
    runner = ThreadRunner()
    seen: list[tuple[str, object]] = []
    decision = Decision(action=None, reason="takes 2 crystals", level="easy")

    def think() -> Decision:
        seen.append(("think", threading.current_thread()))
        return decision

    def fail() -> Decision:
        raise ValueError("no legal action")

    runner.start(think, lambda result: seen.append(("done", result)))
    runner.start(fail, lambda result: seen.append(("failed", result)))
    for thread in runner.threads:
        thread.join()
    assert ("done", decision) not in seen  # not on the thinking thread
    frames(2)
    assert ("think", threading.main_thread()) not in seen
    assert ("done", decision) in seen
    failed = [r for what, r in seen if what == "failed"]
    assert len(failed) == 1 and isinstance(failed[0], ValueError)


def test_a_companion_seat_by_touch_thinks_and_its_move_is_made_with_one_tap(
    kiosk: Kiosk,
) -> None:
    tap_button(kiosk, "Builders of the Colossus")
    tap(find_button(kiosk, "Person", exact=True))  # the first seat: the companion
    assert find_button(kiosk, "Companion: Easy", exact=True)
    tap_button(kiosk, "Start game")
    assert kiosk.manager.current == "play"
    turn = kiosk.companion
    assert turn is not None and isinstance(turn.runner, ThreadRunner)
    _answered(turn.runner)
    proposal = turn.proposal
    assert proposal is not None
    screen = kiosk.play_screen
    assert screen.ids.player.text == "Companion (Easy) to play"
    assert proposal.words in screen.column.companion_panel.text.text
    play = kiosk.play
    assert play is not None
    (hand,) = screen.column.companion_panel.hands  # its hand face down: backs and their number
    cards = state_as(play, BuildersState).hands[0]
    assert hand.backs.count == cards and hand.row.get_root_window() is not None
    assert hand.words.text == f"Companion (Easy)'s hand: {cards} cards, face down"
    lit = {mark.cell for mark in proposal.marks}  # its play's places lit on the tiles
    assert lit, proposal.words
    assert screen.tiles is not None
    tiles = [w for w in screen.tiles.pool.widgets if w.get_root_window() is not None]
    assert lit == {w.key for w in tiles if w.role == "accent"}
    tap(find_button(kiosk, "Why this move?", exact=True))
    assert screen.column.companion_panel.why.text == proposal.reason
    shoot(kiosk, "play-companion")  # docs/kiosk.md; the layout checked
    assert not cut_texts(kiosk, "companion")
    assert not play.session.actions
    tap(find_button(kiosk, "Done", exact=True))
    assert [play.rules.dump_action(a) for a in play.session.actions] == [proposal.payload]
    tap_button(kiosk, "Home", exact=True)
    assert kiosk.companion is None
    tap_button(kiosk, "Builders of the Colossus — Companion (Easy), Player 2")  # resumed
    turn = kiosk.companion
    assert turn is not None and turn.seats.level(0) == "easy"
    assert isinstance(turn.runner, ThreadRunner)
    _answered(turn.runner)  # it thinks again, and the table's confirm button is its Done
    again = turn.proposal
    assert again is not None and kiosk.play is not None
    kiosk.on_button(ButtonPressed(button="confirm", action="confirm"))
    assert kiosk.play.rules.dump_action(kiosk.play.session.actions[-1]) == again.payload
    assert len(kiosk.play.session.actions) == 2


def test_the_shop_demo_offers_kolossus_against_the_companion(
    make_shop: Callable[..., Shop],
) -> None:
    shop = make_shop(idle_timeout_s=60, demo_step_s=1.0, demo_games=["kolossus"])
    kiosk = shop.kiosk
    kiosk.shop.arm()
    shop.advance(60)
    shop.advance(8)
    assert shop.current == "play"
    against = kiosk.shop.overlay.against_button
    assert against.get_root_window() is not None
    assert against.text == AGAINST_TEXT.format(title="Kolossus")
    assert not cut_texts(kiosk, "demo")
    shop.touch(*against.to_window(*against.center))
    assert shop.current == "play" and not kiosk.shop.attract.active, kiosk.problems
    play, turn = kiosk.play, kiosk.companion
    assert play is not None and turn is not None and against.parent is None
    assert tuple(play.state.players) == ("You", "Companion")
    assert turn.seats.level(1) == "easy" and turn.seats.level(0) is None


def test_bc_r07_a_trade_the_companion_refuses_is_said_on_screen_and_changes_nothing(
    kiosk: Kiosk,
) -> None:
    tap_button(kiosk, "Builders of the Colossus")
    seats = [b for b in buttons(kiosk) if b.text == "Person"]
    tap(seats[1])  # the second seat: the companion
    tap_button(kiosk, "Start game")
    play = kiosk.play
    assert play is not None and play.queries.seat() == 0
    tap_button(kiosk, "Trade (")
    state = play.state
    tap_button(kiosk, "Trade with Companion: get 1 Parts card, give nothing", exact=True)
    frames(1)
    banner = play.banner
    assert banner is not None and banner.message.startswith("Companion (Easy) says no: this Trade")
    assert play.state is state and not play.session.actions
    shown = [w.text for w in kiosk.play_screen.walk(restrict=True) if hasattr(w, "text")]
    assert any(text.startswith(banner.text) for text in shown), shown
    shoot(kiosk, "play-companion-says-no")
    assert not cut_texts(kiosk, "companion says no")
