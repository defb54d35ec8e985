"""The companion's moves at the table (through the presenters, no Kivy): every action
it plays waits for one "Done" — even one that moves nothing — unless a sensing board
reads the move off the table; a different move made on the sensing board for it is
refused and lit red and green as any wrong placement, its own move said, and its move
then plays itself; in Builders its hand is shown face down and its plays lit on the
tiles, and nothing of what it may not see reaches the screen."""

from __future__ import annotations

from companion.games import get_rules
from companion.games.builders.model import BuildersState
from companion.highlights import Role
from companion.rng import Rng
from companion.session import Session
from kiosk.presenters.companion import CompanionTurn, HiddenHand
from kiosk.presenters.companion_seats import CompanionSeats
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import Agree, Differ, Verdict
from tests.helpers.companion_table import (
    BLUEPRINTS,
    HeldRunner,
    SettledBoard,
    turn_for,
    until_a_miniature_moves,
    until_thinking,
)
from tests.helpers.presenters import state_as


def _kolossus_move_shown() -> tuple[CompanionTurn, HeldRunner, SettledBoard]:
    """Kolossus, Chapter 3, both seats the companion's, at its first move of a
    miniature (shown, not made), a sensing board reading the table as it stands."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1))
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy", 1: "easy"}))
    until_a_miniature_moves(turn, runner)
    board = SettledBoard(play)
    assert board.settle(board.shows()) == Agree()
    return turn, runner, board


def _lit(play: PlayPresenter) -> dict[Role, set[str]]:
    found: dict[Role, set[str]] = {}
    for mark in play.highlights():
        found.setdefault(mark.role, set()).add(mark.cell)
    return found


def _refused(turn: CompanionTurn, verdict: Verdict | None, moved: tuple[str, str]) -> None:
    """The move ``moved`` (from, to) made on the board was refused as a wrong placement
    is: nothing played, its square to clear red and its square to fill green, the
    companion's own move said."""
    play = turn.play
    proposal = turn.proposal
    assert proposal is not None
    origin, target = moved
    assert isinstance(verdict, Differ), verdict
    assert (verdict.remove, verdict.place) == (frozenset({target}), frozenset({origin}))
    assert _lit(play) == {Role.REMOVE: {target}, Role.PLACE: {origin}}
    notice = play.view().notice
    assert notice.startswith(f"{turn.who(proposal.seat)} plays: {proposal.words}. ")
    assert "red" in notice and "green" in notice


def test_a_different_move_made_for_the_companion_is_refused_then_its_own_plays_itself() -> None:
    turn, _runner, board = _kolossus_move_shown()
    play = turn.play
    proposal = turn.proposal
    assert proposal is not None
    origin, target = proposal.cells.origin, proposal.cells.target
    assert origin is not None and target is not None
    occupied = board.shows()
    count = len(play.session.actions)
    others = [
        cells
        for payload in play.queries.legal_payloads()
        if payload["type"] == "move"
        and (cells := play.queries.cells_of(payload)).origin is not None
        and cells.target is not None
        and cells.target not in occupied
        and (cells.origin, cells.target) != (origin, target)
    ]
    another_square = next(c for c in others if c.origin == origin)  # the same miniature
    another_piece = next(c for c in others if c.origin != origin)
    for wrong in (another_square, another_piece):
        assert wrong.origin is not None and wrong.target is not None
        moved = (wrong.origin, wrong.target)
        verdict = board.settle((occupied - {wrong.origin}) | {wrong.target})
        _refused(turn, verdict, moved)
        assert len(play.session.actions) == count, "a legal move, but not the companion's"
        assert board.settle(occupied) == Agree()  # put back: the companion's move lit again
        assert play.highlights() == proposal.marks and play.view().notice == ""
    board.settle((occupied - {origin}) | {target})  # its move: no "Done"
    assert len(play.session.actions) == count + 1
    assert play.rules.dump_action(play.session.actions[-1]) == proposal.payload


def test_every_companion_action_waits_for_one_done_even_one_that_moves_nothing() -> None:
    """Kolossus, Chapter 3, four companion seats, up to its first capture: each action
    shown (an activation, the end of a turn, a move) is played by one "Done" and not
    before; after a move its lights showed, no fix-the-table step repeats it (the
    beaten miniature was taken off with the move), while steps elsewhere are walked."""
    play = PlayPresenter(
        Session.new("kolossus", ["Ann", "Bob", "Cy", "Di"], {"chapter": 3}, seed=1)
    )
    turn, runner = turn_for(play, CompanionSeats.of(dict.fromkeys(range(4), "easy")))
    kinds: set[str] = set()
    for _ in range(200):
        if play.fix.step is not None:
            play.fix.finish()  # what the table must still do (a crystal on the Citadel)
            continue
        if play.queries.dice_request() is not None:
            assert play.dice.roll_in_software()
            continue
        count = len(play.session.actions)
        runner.finish()
        proposal = turn.proposal
        assert proposal is not None
        turn.check()
        view = turn.view()
        assert view is not None and view.can_confirm, view
        assert len(play.session.actions) == count, "played before its Done"
        kinds.add(str(proposal.payload["type"]))
        assert turn.confirm()
        assert len(play.session.actions) == count + 1
        assert play.rules.dump_action(play.session.actions[-1]) == proposal.payload
        lit = {mark.cell for mark in proposal.marks}
        step = play.view().fix
        if lit and step is not None:
            assert not {*step.lift, *step.put} <= lit, (proposal.words, step)
        if "beating" in proposal.words:
            assert step is None, step
            break
    else:
        raise AssertionError("the companion beat no miniature")
    assert {"end_turn", "choose_class", "move"} <= kinds, kinds


def test_the_tables_confirm_button_is_the_companions_done_and_end_turn_is_its_own() -> None:
    play = PlayPresenter(Session.new("builders", ["Companion", "Bob"], seed=3))
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy"}))
    assert not turn.press("confirm")  # thinking: nothing to confirm yet
    assert turn.press("end_turn") and play.banner is not None
    assert play.banner.text == "Companion (Easy) is thinking. The companion ends its own turn."
    runner.finish()
    proposal = turn.proposal
    assert proposal is not None
    assert turn.press("end_turn") and not play.session.actions
    assert turn.press("confirm")
    assert [play.rules.dump_action(a) for a in play.session.actions] == [proposal.payload]


def test_a_move_made_on_the_board_while_the_companion_thinks_is_refused() -> None:
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1))
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy", 1: "easy"}))
    board = SettledBoard(play)
    for _ in range(80):  # to a position where it thinks and a miniature may move
        until_thinking(turn, runner)
        occupied = board.shows()
        moves = [
            c
            for payload in play.queries.legal_payloads()
            if (c := play.queries.cells_of(payload)).origin is not None
            and c.target is not None
            and c.target not in occupied
        ]
        if moves:
            break
        runner.finish()
        assert turn.confirm()
    else:
        raise AssertionError("no miniature could move in 80 actions")
    assert turn.thinking is not None and turn.proposal is None
    assert board.settle(occupied) == Agree()
    origin, target = moves[0].origin, moves[0].target
    assert origin is not None and target is not None
    count = len(play.session.actions)
    verdict = board.settle((occupied - {origin}) | {target})
    assert isinstance(verdict, Differ) and len(play.session.actions) == count
    seat = play.queries.seat()
    assert seat is not None and verdict.wanted == f"{turn.who(seat)} is thinking"
    assert _lit(play) == {Role.REMOVE: {target}, Role.PLACE: {origin}}


def _builders_screen(position: object) -> tuple[PlayPresenter, CompanionTurn, str]:
    """Builders from ``position``, its first seat the companion's (Hard), its move shown;
    and every text of the screen (the play view and the companion's panel)."""
    options = {"blueprints": BLUEPRINTS}
    play = PlayPresenter(Session.from_position("builders", position, options=options))
    turn, runner = turn_for(play, CompanionSeats.of({0: "hard"}))
    runner.finish()
    return play, turn, repr((play.view(), turn.view()))


def test_builders_the_companions_hand_is_face_down_its_play_said_and_lit_on_the_tiles() -> None:
    rules = get_rules("builders")
    state = Session.new("builders", ["Companion", "Ann"], {"blueprints": BLUEPRINTS}, seed=5).state
    play, turn, _texts = _builders_screen(rules.dump_position(state))
    view, proposal = turn.view(), turn.proposal
    assert view is not None and proposal is not None
    hands = state_as(play, BuildersState).hands
    assert view.hands == (HiddenHand("Companion (Hard)", hands[0]),)
    assert view.hands[0].text == f"Companion (Hard)'s hand: {hands[0]} cards, face down"
    said = rules.describe(play.state, rules.parse_action(proposal.payload))
    assert view.text.startswith(f"Companion (Hard) plays: {said}. ")
    lit = {tile.key for tile in play.view().tiles if tile.lit}
    assert lit and lit == {mark.cell for mark in proposal.marks}, proposal.words
    assert turn.confirm()
    assert not any(tile.lit for tile in play.view().tiles)  # its move made: nothing lit


def test_builders_the_hidden_cards_never_reach_the_screen() -> None:
    """The Blueprint deck's order is what no seat sees (a hand's faces the referee never
    knows): shuffled, every text on screen — the companion's hand and move included —
    stays the same."""
    rules = get_rules("builders")
    state = Session.new("builders", ["Companion", "Ann"], {"blueprints": BLUEPRINTS}, seed=5).state
    assert isinstance(state, BuildersState)
    _play, _turn, texts = _builders_screen(rules.dump_position(state))
    rng = Rng(seed=99)
    for _ in range(3):
        deck, rng = rng.shuffle(state.blueprint_deck)
        assert deck != state.blueprint_deck
        shuffled = rules.dump_position(state.evolve({"blueprint_deck": deck}))
        assert _builders_screen(shuffled)[2] == texts
