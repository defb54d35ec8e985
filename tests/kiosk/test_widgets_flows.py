"""Whole games played by touch on the offscreen 800×480 window.

Every move is a UnitTestTouch on the button a player would press: the game button on
Home, "Start game", a group tab, an action, the +/− of a form, "Submit", undo, redo.
A seeded bot decides *what* to press, so the games reach their end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.games.colossus_solo.model import ColossusSoloState
from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import field_buttons as _field_buttons
from tests.helpers.kiosk_widgets import play_by_touch, start
from tests.helpers.presenters import state_as
from tests.kiosk.ui import close_kiosk, find_button, open_kiosk, tap, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path)
    yield k
    close_kiosk(k)


def test_builders_game_to_its_end_by_touch(kiosk: Kiosk) -> None:
    start(kiosk, "Builders of the Colossus")
    play = kiosk.play
    assert play is not None and play.session.game_id is not None
    assert find_button(kiosk, "Undo").disabled
    bot = RandomBot(21)
    for _ in range(600):
        if play.view().outcome is not None:
            break
        action = bot.choose(play.rules, play.state)
        assert action is not None
        before = len(play.session.actions)
        play_by_touch(kiosk, play.rules.dump_action(action))
        assert len(play.session.actions) == before + 1, play.view().banner
    view = play.view()
    assert view.outcome is not None
    assert "Game over" in view.status
    tap_button(kiosk, "Scores and export")
    assert kiosk.manager.current == "scores"
    tap_button(kiosk, "Export", exact=True)
    exports = list((kiosk.data_dir / "exports").glob("builders-*.json"))
    assert len(exports) == 1
    tap_button(kiosk, "Home", exact=True)
    assert kiosk.manager.current == "home"
    assert find_button(kiosk, "Builders of the Colossus")  # a new game can start


def test_BC_R09_curse_refusal_shows_in_the_banner_by_touch(kiosk: Kiosk) -> None:
    """A Curse that keeps 2 Runes for the curser is refused with BC-R09 on screen."""
    start(kiosk, "Builders of the Colossus")
    play = kiosk.play
    assert play is not None
    tap_button(kiosk, "Curse (")
    tap_button(kiosk, "Curse: set the amounts yourself")
    form = play.view().form
    assert form is not None
    me = form.fields[0]
    while form.fields[0].value in (0, 1):  # the Runes stepped up to 2
        tap(_field_buttons(kiosk, me.label)["+"])
        form = play.view().form
        assert form is not None and form.fields[0].key == me.key
    tap_button(kiosk, "Submit", exact=True)
    banner = kiosk.play_screen.ids.banner
    assert banner.opacity == 1 and "[BC-R09]" in banner.text
    assert not play.session.actions
    tap(banner)
    assert banner.opacity == 0


def test_undo_and_redo_are_one_tap(kiosk: Kiosk) -> None:
    start(kiosk, "Builders of the Colossus")
    play = kiosk.play
    assert play is not None
    tap(find_button(kiosk, "Draw", exact=True), patient=True)  # a group of one: its button
    assert len(play.session.actions) == 1
    tap_button(kiosk, "Undo", exact=True)
    assert not play.session.actions
    assert kiosk.play_screen.ids.banner.text.startswith("Took back: Draw")
    tap_button(kiosk, "Redo", exact=True)
    assert len(play.session.actions) == 1


def test_colossus_solo_to_the_final_blow_by_touch(kiosk: Kiosk) -> None:
    start(kiosk, "Colossus")
    play = kiosk.play
    assert play is not None
    assert play.view().form is not None  # the first Colossus card's values
    bot = RandomBot(5)
    reached_final_blow = False
    for _ in range(400):
        if play.view().outcome is not None:
            break
        reached_final_blow |= "Final Blow" in play.view().status
        action = bot.choose(play.rules, play.state)
        assert action is not None
        before = len(play.session.actions)
        play_by_touch(kiosk, play.rules.dump_action(action))
        assert len(play.session.actions) == before + 1, play.view().banner
    outcome = play.view().outcome
    assert outcome is not None
    assert reached_final_blow, outcome
    assert state_as(play, ColossusSoloState).result in ("final_blow", "final_blow_failed")
    assert kiosk.play_screen.ids.player.text == "Game over"


def test_0_2_1_correct_the_table_is_one_tap_away_while_a_die_is_awaited(kiosk: Kiosk) -> None:
    """A Kolossus Great Quake waits for a d4: the only group is the corrections one."""
    start(kiosk, "Kolossus")
    play = kiosk.play
    assert play is not None
    bot = RandomBot(3)
    while play.queries.dice_request() is None or play.view().actions:
        while play.fix.step is not None:
            play.fix.next()
        play.submit(bot.choose(play.rules, play.state))
    tap_button(kiosk, "Correct the table")
    view = play.view()
    assert view.actions and all(str(a.payload["type"]).startswith("correct_") for a in view.actions)
    tap(find_button(kiosk, view.actions[0].label, exact=True))
    assert play.view().form is not None  # the prefilled form, nothing sent yet


def test_a_forms_number_shows_each_tap_of_plus_and_minus(kiosk: Kiosk) -> None:
    """The row is updated in place (not rebuilt): its label must follow the presenter."""
    start(kiosk, "Builders of the Colossus")
    play = kiosk.play
    assert play is not None
    tap_button(kiosk, "Trade")
    tap_button(kiosk, "Trade: set the amounts yourself")
    field = next(f for f in play.view().form.fields if f.kind == "stepper")  # type: ignore[union-attr]
    row = _field_buttons(kiosk, field.label)
    shown = [w for w in row["+"].parent.children if w not in row.values() and w.text != field.label]
    assert [w.text for w in shown] == [field.value_text]
    tap(row["+"])
    after = next(f for f in play.view().form.fields if f.key == field.key)  # type: ignore[union-attr]
    assert after.value_text != field.value_text
    assert shown[0].text == after.value_text and not row["−"].disabled
    tap(row["−"])
    assert shown[0].text == field.value_text
