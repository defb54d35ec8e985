"""Choices on the board, the last roll in view, squares in the rule book's notation, and
one button per one-action group, at presenter level (no Kivy)."""

from __future__ import annotations

from companion.dice import Roll
from companion.games.island.colossi.model import PlaceLair
from companion.games.kolossus.model import QuakeMove, Ready
from companion.highlights import Role
from companion.session import Session
from kiosk.presenters.payloads import Payload
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.regions import ARROW_COLOUR
from tests.helpers.presenters import colossi_age_revealed as _colossi_age_revealed
from tests.kiosk.helpers import assert_imports_without_kivy


def test_the_new_presenter_modules_do_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.regions", "kiosk.presenters.rolls")


def _said(presenter: PlayPresenter, payload: Payload) -> str:
    """What the game says of ``payload`` now (``Rules.describe``): the preview's start."""
    rules = presenter.rules
    return rules.describe(presenter.state, rules.parse_action(payload))


def _previewed(presenter: PlayPresenter) -> str:
    preview = presenter.board_input.preview
    assert preview is not None
    return _said(presenter, preview.payload)


def _quake_due(seed: int = 3) -> PlayPresenter:
    """Kolossus with the first Great Quake's die read off the electronic tray (a 3)."""
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=seed))
    assert presenter.action_menu.choose_group("ready")
    assert presenter.dice.electronic_roll(Roll(values=(3,), source="electronic"))
    return presenter


def test_every_quake_move_has_one_arrow_on_the_edge_it_pushes_towards() -> None:
    """K-R03/K-R04: the ten central lines, both ways — twenty arrows, each on the end of
    its line in its direction, drawn in the accent colour."""
    presenter = _quake_due()
    arrows = presenter.board_input.arrows()
    moves = [p for p in presenter.queries.legal_payloads() if p["type"] == "quake_move"]
    assert sorted(f"{m['region']}{m['direction']}" for ms in arrows.values() for m in ms) == (
        sorted(f"{m['region']}{m['direction']}" for m in moves)
    )
    assert arrows["3,10"][0]["region"] == "row3" and arrows["3,10"][0]["direction"] == "east"
    assert arrows["0,5"][0]["direction"] == "north" and arrows["10,5"][0]["direction"] == "south"
    board = presenter.board_view()
    assert board is not None
    drawn = {d.cell: d.text for d in board.decorations if d.colour == ARROW_COLOUR}
    assert drawn["3,10"] == "→" and drawn["3,0"] == "←" and drawn["0,7"] == "↑"


def test_an_arrow_previews_its_quake_and_the_same_arrow_again_plays_it() -> None:
    presenter = _quake_due()
    before = presenter.board_view()
    assert presenter.board_input.tap_cell("3,10") is False  # the preview, nothing played
    view = presenter.view()
    assert not isinstance(presenter.session.actions[-1], QuakeMove)
    assert view.preview.startswith(f"{_previewed(presenter)}; leaves the board: Woods")
    assert view.preview.endswith("Touch → again to play it.")
    lit = {(h.cell, h.role) for h in presenter.highlights()}  # the LEDs show it too
    assert ("3,10", Role.SELECTED) in lit
    assert {f"3,{c}" for c in range(11)} <= {c for c, r in lit if r is Role.QUAKE_REGION}
    shown = presenter.board_view()
    assert shown is not None and before is not None and shown.base != before.base  # shifted
    presenter.board_input.tap_cell("3,10")
    played = presenter.session.actions[-1]
    assert isinstance(played, QuakeMove) and (played.region, played.direction) == ("row3", "east")
    assert presenter.board_input.preview is None and presenter.view().preview == ""


def test_a_preview_names_the_citadels_new_square() -> None:
    presenter = _quake_due()
    presenter.board_input.tap_cell("5,10")  # row 5 holds the Citadel (5, 5)
    square = presenter.rules.cell_words(presenter.state, "5,8")  # as the board numbers it
    assert f"the Citadel goes to {square}" in presenter.view().preview


def test_another_arrow_previews_another_move_and_a_square_clears_the_preview() -> None:
    presenter = _quake_due()
    presenter.board_input.tap_cell("3,10")
    presenter.board_input.tap_cell("0,4")
    assert presenter.board_input.preview is not None
    assert presenter.board_input.preview.payload["region"] == "col4"
    assert presenter.view().preview.startswith(_previewed(presenter))
    count = len(presenter.session.actions)
    presenter.board_input.tap_cell("5,5")  # not an arrow: the preview goes, nothing is played
    assert presenter.board_input.preview is None and len(presenter.session.actions) == count


def test_the_last_roll_stays_in_view_with_value_purpose_player_and_source() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=3))
    assert presenter.view().last_roll == ""
    presenter.action_menu.choose_group("ready")
    presenter.dice.electronic_roll(Roll(values=(3,), source="electronic"))
    text = "Rolled 3 · Great Quake: Tua'tha rolls 1d4 · Ann · electronic die"
    assert presenter.view().last_roll == text
    presenter.board_input.tap_cell("3,10")
    presenter.board_input.tap_cell(
        "3,10"
    )  # the quake: the roll is still the last one, said briefly
    # while the next warband's die is asked for (the prompt beside it names the purpose)
    brief = "Rolled 3 · Ann · electronic die"
    assert presenter.queries.dice_request() is not None and presenter.view().last_roll == brief
    presenter.fix.finish()
    presenter.dice.tap_face(2)  # the next warband's quake die, typed in
    assert presenter.view().last_roll == "Rolled 2 · Great Quake: Krell rolls 1d4 · Bob · typed in"
    presenter.undo()  # Krell's die is asked for again: the last roll is said briefly,
    # the dice panel's prompt beside it names the purpose (one column beside the board)
    assert presenter.queries.dice_request() is not None
    assert presenter.view().last_roll == brief


def test_a_roll_of_several_dice_shows_each_face_and_the_sum() -> None:
    presenter = _colossi_age_revealed()
    presenter.dice.roll_in_software()
    assert presenter.view().last_roll.startswith("Rolled ")
    assert " = " in presenter.view().last_roll
    assert presenter.view().last_roll.endswith(" · rolled by the companion")


def test_a_group_of_one_action_is_a_button_that_plays_it() -> None:
    """The Invasion showed a "Ready (1)" tab and a "Ready" row doing different things."""
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=3))
    view = presenter.view()
    ready = next(g for g in view.groups if g.key == "ready")
    assert ready.plays and ready.button_text == "Ready"
    assert view.group == "swap" and all(a.payload["type"] == "swap" for a in view.actions)
    swaps = next(g for g in view.groups if g.key == "swap")
    assert not swaps.plays and swaps.button_text == f"{swaps.label} ({swaps.count})"
    assert swaps.label == presenter.rules.family_title("swap")
    assert presenter.action_menu.choose_group("ready") is True
    assert isinstance(presenter.session.actions[-1], Ready)


def test_a_single_touch_places_a_lair_on_its_space() -> None:
    presenter = _colossi_age_revealed()
    while presenter.queries.dice_request() is not None:
        presenter.dice.roll_in_software()
    while presenter.fix.step is not None:
        presenter.fix.finish()
    space = next(
        str(p["space"]) for p in presenter.queries.legal_payloads() if p["type"] == "place_lair"
    )
    assert presenter.board_input.tap_cell(space) is True
    assert isinstance(presenter.session.actions[-1], PlaceLair)


def test_all_done_ends_the_walk_through_in_one_tap() -> None:
    presenter = _quake_due()
    presenter.board_input.tap_cell("3,10")
    presenter.board_input.tap_cell("3,10")
    assert presenter.fix.step == 1 and presenter.view().fix is not None
    presenter.fix.finish()
    assert presenter.fix.step is None and presenter.view().fix is None


def test_an_arrow_of_several_distances_previews_each_in_turn() -> None:
    """K-R05 with ``quake_distance = up_to_roll``: an arrow holds a move per distance;
    each touch previews the next, and the menu narrowed to the line lists them all."""
    session = Session.new("kolossus", ("Ann", "Bob"), {"quake_distance": "up_to_roll"}, seed=3)
    presenter = PlayPresenter(session)
    presenter.action_menu.choose_group("ready")
    presenter.dice.electronic_roll(Roll(values=(3,), source="electronic"))
    moves = presenter.board_input.arrows()["3,10"]
    assert [m["distance"] for m in moves] == [1, 2, 3]
    presenter.board_input.tap_cell("3,10")
    assert presenter.view().preview.startswith(f"{_said(presenter, moves[0])};")
    presenter.board_input.tap_cell("3,10")
    assert presenter.view().preview.startswith(f"{_said(presenter, moves[1])};")
    assert isinstance(presenter.session.actions[-1], Roll)  # nothing played by the arrow
    assert presenter.board_input.board_taps(moves[1]) == ()  # chosen from the narrowed menu instead
    labels = [a.label for a in presenter.view().actions]
    listed = presenter.view().actions
    chosen = next(i for i, a in enumerate(listed) if a.payload == moves[1])
    assert labels[chosen] == _said(presenter, moves[1])
    presenter.action_menu.choose(chosen)
    played = presenter.session.actions[-1]
    assert isinstance(played, QuakeMove) and (played.region, played.distance) == ("row3", 2)
