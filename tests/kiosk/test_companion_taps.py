"""A person's taps while a companion seat is to move (RULINGS 1.4: the companion plays
its seat's turn): a menu row, a group tab or a form, a board square, a card game's tile
and a die entered (typed, rolled in software, from the electronic dice) are refused
with a banner naming the companion's seat — "It is Companion (Easy)'s turn: …, or tap
Undo." — and nothing else changes: the game, the selection, the lights. Undo stays,
and after it (the companion paused) the person's taps play again; the companion's own
dice are the table's, entered as for a person."""

from __future__ import annotations

from functools import cache

from companion.dice import Roll
from companion.highlights import Highlight
from companion.session import Session
from kiosk.presenters.companion import CompanionTurn
from kiosk.presenters.companion_seats import CompanionSeats
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.queries import Payload
from kiosk.presenters.sensing import miniatures
from tests.helpers.companion_table import (
    HeldRunner,
    started,
    turn_for,
    until_a_miniature_moves,
    until_thinking,
)

MADE = "It is Companion (Easy)'s turn: make its move on the table and tap Done, or tap Undo."
THINKING = "It is Companion (Easy)'s turn: wait for its move, or tap Undo."


@cache
def _to_its_first_move() -> tuple[tuple[str, ...], tuple[Payload, ...]]:
    """Kolossus, Chapter 3, both players the companion's (Easy): the players and the
    actions up to its first move of a miniature (made once for the file)."""
    players = started("kolossus", {0: "easy", 1: "easy"}).state.players
    play = PlayPresenter(Session.new("kolossus", players, {"chapter": 3}, seed=1))
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy", 1: "easy"}))
    until_a_miniature_moves(turn, runner)
    return players, tuple(play.rules.dump_action(a) for a in play.session.actions)


def _kolossus(*, shown: bool) -> tuple[CompanionTurn, HeldRunner]:
    """That game at the companion's first move of a miniature, shown and not made
    (``shown``), or made and its next decision under way."""
    players, actions = _to_its_first_move()
    play = PlayPresenter(Session.new("kolossus", players, {"chapter": 3}, seed=1))
    for action in actions:
        assert play.submit(action), play.banner
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy", 1: "easy"}))
    runner.finish()
    assert turn.proposal is not None and turn.proposal.payload["type"] == "move"
    if not shown:
        assert turn.confirm()  # the move made: it thinks about the next action
        until_thinking(turn, runner)
    return turn, runner


def _unchanged(play: PlayPresenter, words: str, before: tuple[object, ...]) -> None:
    """The tap was refused with ``words`` and changed nothing else."""
    assert play.banner is not None and play.banner.message == words
    assert play.view().banner == play.banner
    assert _looks(play) == before


def _looks(play: PlayPresenter) -> tuple[object, ...]:
    """What a person's tap could change: the game, the selection, the menu, the lights."""
    highlights: tuple[Highlight, ...] = play.highlights()
    return (
        play.state,
        len(play.session.actions),
        play.board_input.focus,
        play.board_input.group,
        play.forms.form,
        highlights,
    )


def test_a_menu_row_a_group_tab_or_a_form_is_refused_while_the_companions_move_waits() -> None:
    turn, _runner = _kolossus(shown=True)
    play = turn.play
    assert turn.proposal is not None and play.highlights() == turn.proposal.marks
    view = play.view()
    assert view.actions and view.groups  # the rows and tabs a person could tap
    before = _looks(play)
    assert not play.action_menu.choose(0)
    _unchanged(play, MADE, before)
    for group in view.groups:
        assert not play.action_menu.choose_group(group.key)
        _unchanged(play, MADE, before)
    assert not play.action_menu.open_form()
    _unchanged(play, MADE, before)
    assert turn.confirm()  # its own Done still plays
    assert len(play.session.actions) == before[1] + 1  # type: ignore[operator]


def test_a_board_square_is_refused_while_the_companion_waits_or_thinks() -> None:
    turn, runner = _kolossus(shown=True)
    play = turn.play
    proposal = turn.proposal
    assert proposal is not None and proposal.cells.origin is not None
    before = _looks(play)
    for cell in (proposal.cells.origin, proposal.cells.target):  # its miniature, its square
        assert cell is not None and not play.board_input.tap_cell(cell)
        _unchanged(play, MADE, before)
    assert turn.confirm()
    until_thinking(turn, runner)
    before = _looks(play)
    squares = sorted(miniatures(play.rules.board(play.state)))
    for cell in squares[:4]:
        assert not play.board_input.tap_cell(cell)
        _unchanged(play, THINKING, before)


def test_dice_entered_while_the_companion_thinks_are_refused() -> None:
    turn, _runner = _kolossus(shown=False)
    play = turn.play
    assert turn.thinking is not None and play.queries.dice_request() is None
    before = _looks(play)
    assert not play.dice.roll_in_software()  # on the screen, or the table's roll button
    _unchanged(play, THINKING, before)
    assert not play.dice.electronic_roll(Roll(values=(3,), source="electronic", device="tray"))
    _unchanged(play, THINKING, before)


def test_the_companions_own_dice_are_the_tables_entered_as_for_a_person() -> None:
    players = started("kolossus", {0: "easy", 1: "easy"}).state.players
    play = PlayPresenter(Session.new("kolossus", players, {"chapter": 3}, seed=1))
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy", 1: "easy"}))
    for _ in range(40):  # its actions confirmed up to its first dice (the Great Quake's)
        if play.queries.dice_request() is not None:
            break
        if play.fix.step is not None:
            play.fix.finish()
        else:
            runner.finish()
            assert turn.confirm()
    request = play.queries.dice_request()
    assert request is not None and turn.seats.level(play.queries.seat()) == "easy"
    assert turn.holds() is None  # the table rolls for it
    count = len(play.session.actions)
    roll = Roll(values=(1,) * request.count, source="electronic", device="tray")
    assert play.dice.electronic_roll(roll), play.banner
    assert len(play.session.actions) == count + 1


def test_undo_stays_and_after_it_a_persons_taps_play_again() -> None:
    turn, _runner = _kolossus(shown=True)
    play = turn.play
    count = len(play.session.actions)
    play.undo()  # never refused
    assert len(play.session.actions) == count - 1 and turn.paused
    assert turn.holds() is None  # paused: a person may make the companion's move
    assert play.action_menu.choose_group(play.view().groups[0].key) or play.banner is None
    assert play.banner is None


def test_builders_a_tile_is_refused_while_the_companion_is_to_move() -> None:
    session = started("builders", {0: "easy"})
    play = PlayPresenter(session)
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy"}))
    until_thinking(turn, runner)
    tiles = [tile.key for tile in play.view().tiles]
    assert tiles
    before = _looks(play)
    for key in tiles:
        assert not play.board_input.tap_tile(key)
        _unchanged(play, THINKING, before)
    runner.finish()
    proposal = turn.proposal
    assert proposal is not None
    before = _looks(play)
    made = MADE if proposal.marks else MADE.replace("make its move on the table and ", "")
    assert not play.board_input.tap_tile(tiles[0])
    _unchanged(play, made, before)
