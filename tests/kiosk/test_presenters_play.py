"""Play presenter: header, refusals, dice entry, undo/redo, log, board focus, fix steps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import JsonValue

from companion.bot import RandomBot
from companion.dice import Roll
from companion.events import DiceRolled, TableChanges
from companion.games.builders.model import BuildersState
from companion.games.colossus_solo.model import ColossusSoloState
from companion.games.kolossus.model import KolossusState
from companion.highlights import Highlight, Role, TableChange
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.render import render
from kiosk.presenters.board import cell_looks
from kiosk.presenters.devices import DeviceStatus
from kiosk.presenters.payloads import path_trie, same_outside
from kiosk.presenters.play import PlayPresenter
from tests.helpers.presenters import state_as
from tests.kiosk.helpers import assert_imports_without_kivy
from tests.toy_game import Hold, PigRules, PigState


def test_play_presenter_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.play", "tests.kiosk.test_presenters_play")


def pig(players: tuple[str, ...] = ("Ann", "Bob"), journal: Journal | None = None) -> PlayPresenter:
    return PlayPresenter(Session.new("toy_pig", players, seed=5, journal=journal))


def test_header_shows_whose_turn_and_status() -> None:
    view = pig().view()
    assert view.player == "Ann" and view.player_seat == 0
    assert view.status == "Ann to play, turn total 0"
    assert not view.can_undo and not view.can_redo


def test_refusal_is_a_banner_with_ruling_and_changes_nothing() -> None:
    presenter = pig()
    before = presenter.state
    assert presenter.submit({"type": "hold"}) is False
    banner = presenter.view().banner
    assert banner is not None
    assert banner.ruling == "TOY-R2" and "Roll at least once" in banner.message
    assert "[TOY-R2]" in banner.text
    assert presenter.state == before and not presenter.session.actions
    presenter.dismiss_banner()
    assert presenter.view().banner is None


def test_malformed_action_is_a_banner_too() -> None:
    presenter = pig()
    assert presenter.submit({"type": "teleport"}) is False
    banner = presenter.view().banner
    assert banner is not None and banner.code == "invalid_action"


def test_dice_panel_tap_to_enter_faces() -> None:
    presenter = pig()
    dice = presenter.view().dice
    assert dice is not None
    assert (dice.count, dice.sides, dice.faces) == (1, 6, (1, 2, 3, 4, 5, 6))
    assert dice.player == "Ann" and not dice.waiting_for_device
    assert presenter.dice.tap_face(4) is True
    [events] = presenter.session.events
    assert isinstance(events[0], DiceRolled)
    assert events[0].values == (4,) and events[0].source == "manual"
    assert presenter.view().log[0].text == "rolled 4"


def test_a_face_off_the_die_is_refused_with_its_ruling() -> None:
    presenter = pig()
    presenter.dice.tap_face(7)
    banner = presenter.view().banner
    assert banner is not None and banner.ruling == "TOY-R1"
    assert presenter.view().dice is not None and presenter.view().dice.entered == ()  # type: ignore[union-attr]


def test_roll_in_software_uses_the_state_generator() -> None:
    a, b = pig(), pig()
    a.dice.roll_in_software()
    b.dice.roll_in_software()
    assert a.state == b.state  # same seed, same software roll
    [events] = a.session.events
    assert isinstance(events[0], DiceRolled) and events[0].source == "software"


def test_undo_redo_and_notice() -> None:
    presenter = pig()
    presenter.dice.tap_face(3)
    assert presenter.view().can_undo
    presenter.undo()
    view = presenter.view()
    assert view.notice.startswith("Took back: Roll") and view.can_redo and not view.can_undo
    presenter.redo()
    assert presenter.view().log[0].text == "rolled 3"
    presenter.redo()  # nothing left to redo: a banner, not a crash
    assert presenter.view().banner is not None


def test_action_menu_lists_non_roll_actions_and_choose_submits() -> None:
    presenter = pig()
    assert presenter.view().actions == ()  # only rolls are legal; the dice panel has them
    presenter.dice.tap_face(5)
    view = presenter.view()
    # A group of one action is that action: its button plays it, no list repeats it.
    assert [(g.button_text, g.plays) for g in view.groups] == [("Hold", True)]
    assert view.actions == () and view.group is None
    assert presenter.action_menu.choose_group("hold") is True
    assert presenter.view().player == "Bob"
    assert presenter.action_menu.choose(9) is False


def test_electronic_die_waits_and_submits() -> None:
    presenter = pig()
    presenter.dice.set_devices((DeviceStatus(device="dice", state="connected", battery=50),))
    view = presenter.view()
    assert view.dice is not None and view.dice.waiting_for_device
    assert "waiting for the electronic die" in view.dice.prompt
    assert view.devices == ("Dice on 50%",)
    assert presenter.dice.electronic_roll(Roll(values=(2,), source="electronic", device="tray-1"))
    events = presenter.session.events[-1]
    assert isinstance(events[0], DiceRolled) and events[0].source == "electronic"


def test_electronic_roll_without_request_is_refused() -> None:
    presenter = PlayPresenter(Session.new("toy_pig", ["Cy"], {"target": 5}, seed=1))
    presenter.dice.tap_face(6)
    presenter.action_menu.choose_group("hold")
    assert presenter.view().outcome == "Cy wins"
    assert presenter.view().dice is None and presenter.view().actions == ()
    assert presenter.dice.electronic_roll(Roll(values=(3,), source="electronic")) is False
    assert presenter.view().banner is not None


def test_every_accepted_action_is_journaled_and_resumes(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    presenter = pig(journal=journal)
    presenter.dice.tap_face(4)
    presenter.dice.tap_face(2)
    presenter.action_menu.choose_group("hold")
    game_id = presenter.session.game_id
    assert game_id is not None
    journal.close()  # as if the power went: nothing held in memory matters
    again = Journal(tmp_path / "journal.sqlite3")
    resumed, damage = Session.resume(again, game_id)
    assert damage is None and resumed.state == presenter.state
    assert PlayPresenter(resumed).view().log == presenter.view().log


class BoardPig(PigRules):
    """The toy game with a board: highlights depend on the focus; holding moves a piece."""

    name = "toy_board_pig"

    def highlights(self, state: PigState, focus: str | None = None) -> tuple[Highlight, ...]:
        if focus == "1,1":
            return (
                Highlight(cell="1,1", role=Role.SELECTED),
                Highlight(cell="1,2", role=Role.REACHABLE),
            )
        return (Highlight(cell="1,1", role=Role.SELECTABLE),)

    def apply(self, state: PigState, action: Any) -> Any:
        new, events = super().apply(state, action)
        if isinstance(action, Hold):
            change = TableChanges(
                text="Move the pawn",
                changes=(
                    TableChange(step=1, cell="1,1", instruction="Lift the pawn"),
                    TableChange(step=2, cell="1,2", instruction="Put it here"),
                ),
            )
            events = (*events, change)
        return new, events


def test_board_focus_changes_highlights_and_menu() -> None:
    presenter = PlayPresenter(Session.new(BoardPig(), ["Ann", "Bob"], seed=2))
    assert presenter.highlights() == (Highlight(cell="1,1", role=Role.SELECTABLE),)
    presenter.board_input.tap_cell("1,1")
    assert presenter.view().focus == "1,1"
    assert {h.role for h in presenter.highlights()} == {Role.SELECTED, Role.REACHABLE}
    presenter.board_input.tap_cell("1,1")  # tapping it again clears the selection
    assert presenter.board_input.focus is None


def test_fix_the_table_walk_through() -> None:
    presenter = PlayPresenter(Session.new(BoardPig(), ["Ann", "Bob"], seed=2))
    presenter.dice.tap_face(5)
    presenter.action_menu.choose_group("hold")  # the table changes
    view = presenter.view()
    assert view.fix is not None and (view.fix.number, view.fix.total) == (1, 2)
    assert view.fix.instruction == "Lift the pawn" and presenter.fix.step == 1
    assert {h.role for h in presenter.highlights()} == {Role.FIX}
    assert presenter.highlights() == (Highlight(cell="1,1", role=Role.FIX, step=1),)
    presenter.fix.next()
    assert presenter.highlights() == (Highlight(cell="1,2", role=Role.FIX, step=2),)
    presenter.fix.next()
    assert presenter.view().fix is None and presenter.fix.step is None
    assert presenter.highlights() == (Highlight(cell="1,1", role=Role.SELECTABLE),)


class QuakePig(BoardPig):
    """Holding changes the table in two steps, step 1 on two cells, listed out of order."""

    name = "toy_quake_pig"

    def apply(self, state: PigState, action: Any) -> Any:
        new, events = PigRules.apply(self, state, action)
        if isinstance(action, Hold):
            change = TableChanges(
                text="Shift the tiles",
                changes=(
                    TableChange(step=2, cell="0,0", instruction="Put the tile here"),
                    TableChange(step=1, cell="5,5", instruction="Lift this tile"),
                    TableChange(step=1, cell="5,6", instruction="And this one"),
                ),
            )
            events = (*events, change)
        return new, events


def test_the_presenter_owns_the_fix_step_and_hands_only_it_to_the_leds_and_the_board() -> None:
    """One owner per fact: the strip and the board render what the presenter hands them,
    and during a walk-through that is the current step's FIX highlights alone (the
    game's own highlights wait). The strip shows step 2 after next_fix_step."""
    layout = kolossus_layout()

    def strip() -> set[int]:
        frame = render(presenter.highlights(), layout, presenter.board_input.palette)
        return {i for i, pixel in enumerate(frame) if pixel != (0, 0, 0)}

    def board() -> set[str]:
        return set(cell_looks(presenter.highlights(), presenter.board_input.palette))

    presenter = PlayPresenter(Session.new(QuakePig(), ["Ann", "Bob"], seed=2))
    assert presenter.fix.step is None  # no table changes, no walk-through
    assert presenter.highlights() == (Highlight(cell="1,1", role=Role.SELECTABLE),)
    presenter.dice.tap_face(5)
    presenter.action_menu.choose_group("hold")  # the table changes
    steps: list[int] = []
    while presenter.fix.step is not None:
        steps.append(presenter.fix.step)
        assert {h.role for h in presenter.highlights()} == {Role.FIX}
        assert {h.step for h in presenter.highlights()} == {presenter.fix.step}
        if presenter.fix.step == 1:  # the first step: both its cells, nothing else
            assert board() == {"5,5", "5,6"}
            assert strip() == {layout.cells["5,5"][0], layout.cells["5,6"][0]}
        else:
            assert board() == {"0,0"}
            assert strip() == {layout.cells["0,0"][0]}
        presenter.fix.next()
    assert steps == [1, 2]  # in step order, whatever order the rules listed them in
    assert presenter.view().fix is None
    assert presenter.highlights() == (Highlight(cell="1,1", role=Role.SELECTABLE),)
    assert board() == {"1,1"}


def test_a_tap_asks_the_rules_what_starts_on_the_cell() -> None:
    """The presenter no longer scans payloads for cell-like strings;
    the actions a tap is about are the rules' ``legal_actions_at(origin=cell)``."""
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=3))
    rules, bot = presenter.rules, RandomBot(1)
    origins: set[str] = set()
    for _ in range(400):
        state = presenter.state
        origins = {
            origin
            for a in rules.legal_actions(state)
            if (origin := rules.action_cells(state, a).origin) is not None
        }
        if origins:
            break
        assert presenter.submit(bot.choose(rules, state))
    assert origins, "no move in 400 random actions"
    for cell in sorted(origins):
        expected = [rules.dump_action(a) for a in rules.legal_actions_at(state, origin=cell)]
        assert [payload for payload, _ in presenter.queries.actions_at(cell)] == expected


def test_builders_random_taps_reach_the_end() -> None:
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob", "Cy"], seed=9))
    bot = RandomBot(4)
    for _ in range(3000):
        if presenter.view().outcome is not None:
            break
        action = bot.choose(presenter.rules, presenter.state)
        assert action is not None
        assert presenter.submit(action), presenter.view().banner
    view = presenter.view()
    assert view.outcome is not None and view.winners
    assert view.actions == () and view.dice is None


def test_BC_R10_builders_panel_counts_and_zero_rune_check() -> None:
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=9))
    panel = presenter.view().panel
    assert [r.label for r in panel.rows] == ["Runes", "Hand", "Built"]
    assert panel.rows[0].values == ("10", "10") and panel.rows[1].values == ("10", "10")
    assert "Colossi built: 0/10" in panel.facts
    bot = RandomBot(2)
    for _ in range(400):
        state = state_as(presenter, BuildersState)
        if any(due is not None for due in state.zero_checks) or state.result is not None:
            break
        presenter.submit(bot.choose(presenter.rules, state))
    state = state_as(presenter, BuildersState)
    due = [(s, d) for s, d in enumerate(state.zero_checks) if d is not None]
    assert due, "this seeded game reaches a zero-Rune check within a few moves"
    seat, turn = due[0]
    expected = f"{state.players[seat]} at 0 Runes: wins on turn {turn} if still at 0"
    assert expected in presenter.view().panel.facts
    assert presenter.view().panel.rows[0].values == tuple(str(r) for r in state.runes)
    assert f"Colossi built: {state.built}/10" in presenter.view().panel.facts


def test_colossus_solo_panel_shows_trackers_and_deck() -> None:
    presenter = PlayPresenter(Session.new("colossus_solo", ["Mara"], seed=2))
    rows = {r.label: r.values[0] for r in presenter.view().panel.rows}
    state = state_as(presenter, ColossusSoloState)
    assert rows["Weakness"] == str(state.weakness) and rows["Grip"] == str(state.grip)
    assert rows["Card"] == "1/11" and rows["Deck"] == str(state.action_deck)


def test_a_form_is_offered_only_when_listed_actions_differ_in_amounts_alone() -> None:
    """Island moves differ in their spaces, which a form cannot edit: no "Enter amounts"
    button (it would keep the first move's origin and be refused), the list and the
    board choose instead."""
    presenter = PlayPresenter(Session.new("beast_master", ("Ann", "Bob"), seed=1))
    bot = RandomBot(1)
    for _ in range(200):
        view = presenter.view()
        if view.group == "move" or any(g.key == "move" for g in view.groups):
            presenter.action_menu.choose_group("move")
            view = presenter.view()
            origins = {a.payload.get("origin") for a in view.actions}
            if len(origins) > 1:
                assert not view.formable
                return
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    raise AssertionError("no turn with moves from two spaces in 200 actions")


class _CountingRules:
    """A game's rules that count the calls to ``legal_actions`` and ``highlights``."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.calls: dict[str, int] = {"legal_actions": 0, "highlights": 0}

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.rules, name)
        if name not in self.calls:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return counted


def test_one_submit_enumerates_the_legal_actions_once_for_every_reader() -> None:
    """The readers the kiosk has after a submit: the LED feed (highlights), the screen
    (its view and the board's highlights), a table button (End turn's legal actions)."""
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=3))
    bot = RandomBot(8)
    for _ in range(200):
        while presenter.fix.step is not None:
            presenter.fix.next()
        if state_as(presenter, KolossusState).phase == "move":
            break
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    payload = presenter.view().actions[0].payload  # read before counting: another state
    rules = _CountingRules(presenter.session.rules)
    presenter.session.rules = rules  # type: ignore[assignment]

    def screen() -> None:
        presenter.view()
        presenter.highlights()
        presenter.queries.legal_payloads()

    def led_feed() -> None:  # the LED strip's feed
        presenter.highlights()

    presenter.subscribe(led_feed)
    presenter.subscribe(screen)
    assert presenter.submit(payload)
    assert rules.calls == {"legal_actions": 1, "highlights": int(presenter.fix.step is None)}
    presenter.view()
    assert rules.calls["legal_actions"] == 1  # the same state: nothing new


class _CallCounter:
    """A game's rules that count every call of the methods named, whatever their result."""

    def __init__(self, rules: Any, *names: str) -> None:
        self.rules = rules
        self.calls: dict[str, int] = dict.fromkeys(names, 0)
        self.order: list[str] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.rules, name)
        if name not in self.calls:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            self.order.append(name)
            return found(*args, **kwargs)

        return counted


def _kolossus_in(phase: str, seed: int = 3) -> PlayPresenter:
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=seed))
    bot = RandomBot(8)
    for _ in range(400):
        while presenter.fix.step is not None:
            presenter.fix.next()
        state = state_as(presenter, KolossusState)
        if state.phase == phase and state.dice is None:
            return presenter
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    raise AssertionError(f"no {phase} phase in 400 random actions")


def test_a_view_asked_again_of_the_same_state_asks_the_rules_nothing_new() -> None:
    """The screen reads ``view()`` several times per tap (the tapped row, the tap's
    handler, the redraw): the menu, its labels, the status and the form are made once."""
    presenter = _kolossus_in("move")
    rules = _CallCounter(
        presenter.session.rules,
        "legal_actions",
        "legal_actions_at",
        "action_cells",
        "status",
        "current_player",
        "corrections",
        "panel",
    )
    presenter.session.rules = rules  # type: ignore[assignment]
    presenter = PlayPresenter(presenter.session)  # a cold cache: as after a change
    first = presenter.view()
    counted = dict(rules.calls)
    assert counted["legal_actions"] == 1 and counted["status"] == 1
    second = presenter.view()
    assert rules.calls == counted
    assert second == first
    assert second.actions is first.actions  # the same menu, not a copy made again
    presenter.action_menu.choose_group(first.groups[-1].key)  # another group: a menu of its own
    presenter.view()
    assert rules.calls["legal_actions"] == 1


def test_a_tap_on_a_piece_narrows_the_menu_without_asking_where_each_action_happens() -> None:
    """A tap on a cell where moves start needs only ``legal_actions_at(origin=cell)``:
    the narrowed menu and the highlights ask no ``action_cells``; a second tap (the
    move) asks them once for that piece's moves."""
    presenter = _kolossus_in("move")
    selectable = [h.cell for h in presenter.highlights() if h.role is Role.SELECTABLE]
    assert selectable
    rules = _CallCounter(presenter.session.rules, "legal_actions_at", "action_cells")
    presenter.session.rules = rules  # type: ignore[assignment]
    origin = selectable[0]
    presenter.board_input.tap_cell(origin)
    view = presenter.view()
    assert presenter.board_input.focus == origin and view.actions
    assert rules.calls == {"legal_actions_at": 1, "action_cells": 0}
    moves = presenter.queries.actions_at(origin)
    assert [p for p, _ in moves] == list(presenter.queries.payloads_at(origin))
    assert all(c.origin == origin for _, c in moves)
    asked = rules.calls["action_cells"]
    assert asked == len(moves)
    presenter.queries.actions_at(origin)
    assert rules.calls["action_cells"] == asked  # once per state and cell


def test_the_leds_get_their_highlights_before_the_legal_actions_are_enumerated() -> None:
    """After a submit the first listener (the LED feed) reads the highlights; the
    legal actions (the entry form's check, the menu) wait for the screen."""
    presenter = _kolossus_in("turn")
    rules = _CallCounter(presenter.session.rules, "legal_actions", "highlights")
    presenter.session.rules = rules  # type: ignore[assignment]
    seen: list[dict[str, int]] = []

    def leds() -> None:
        presenter.highlights()
        seen.append(dict(rules.calls))

    def screen() -> None:
        presenter.view()

    presenter.subscribe(leds)
    presenter.subscribe(screen)
    payload = next(p for p in presenter.queries.legal_payloads() if p["type"] == "choose_class")
    rules.calls = dict.fromkeys(rules.calls, 0)
    assert presenter.submit(payload)
    assert seen == [{"legal_actions": 0, "highlights": 1}]
    assert rules.calls["legal_actions"] == 1  # then the screen's view, once


def test_the_entry_form_still_opens_by_itself() -> None:
    """The entry form is looked for when first asked, for the state it belongs to."""
    presenter = PlayPresenter(Session.new("colossus_solo", ["Mara"], seed=2))
    bot = RandomBot(3)
    for _ in range(300):
        payloads = presenter.queries.legal_payloads()
        kinds = {str(p["type"]) for p in payloads}
        if len(kinds) == 1 and next(iter(kinds)).startswith("enter_"):
            break
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    else:
        raise AssertionError("no entry form in 300 random actions")
    form = presenter.forms.form
    assert form is not None and form.type == next(iter(kinds))
    assert presenter.view().form == form.view()
    presenter.forms.cancel()
    assert presenter.forms.form is None and presenter.view().form is None


def test_the_board_view_is_made_once_per_state_focus_and_highlights() -> None:
    presenter = _kolossus_in("move")
    board = presenter.board_view()
    assert board is not None and presenter.board_view() is board
    cell = next(h.cell for h in presenter.highlights() if h.role is Role.SELECTABLE)
    presenter.board_input.tap_cell(cell)
    focused = presenter.board_view()
    assert focused is not board and focused is not None and focused.focus == cell
    assert presenter.board_view() is focused


def test_the_dice_of_one_roll_drained_together_redraw_the_screen_once() -> None:
    """A partial roll's note waits for the end of the drain: the dice of one roll that
    arrive together reach the LEDs (and the screen) with the roll, once."""
    from firmware_bridge.dice.messages import DieResult
    from kiosk.hardware import HardwareHub
    from tests.helpers.toy_rules import TwoDicePig

    hub = HardwareHub()
    presenter = PlayPresenter(Session.new(TwoDicePig(), ["Ann", "Bob"], seed=3))
    changes: list[int] = []
    presenter.subscribe(lambda: changes.append(len(presenter.session.actions)))
    hub.post(DieResult(device="d", die_id=1, face=5, faces=6, seq=1))
    hub.post(DieResult(device="d", die_id=2, face=2, faces=6, seq=2))
    hub.pump(presenter.dice)
    assert changes == [1]  # the roll's change only: no redraw for "1 of 2 dice in"
    assert presenter.notice == ""
    hub.post(DieResult(device="d", die_id=1, face=3, faces=6, seq=3))
    hub.pump(presenter.dice)  # alone in its drain: the note is shown at its end
    assert changes == [1, 1] and "1 of 2 dice in" in presenter.view().notice


def test_a_partial_roll_s_note_waits_a_moment_for_the_rest_of_the_roll() -> None:
    """In the app the hub draws "1 of 2 dice in" NOTE_AFTER_S after its drain: the
    dice of one roll come a millisecond apart, often in two drains, and the note drawn
    in between was a screen redraw on the roll's way to the LEDs. A die rolled alone
    shows its note then, once."""
    from firmware_bridge.dice.messages import DieResult
    from kiosk.hardware import NOTE_AFTER_S, HardwareHub, HubHandlers
    from kiosk.pace import Deadline
    from tests.helpers.toy_rules import TwoDicePig

    due: list[tuple[float, Callable[[], None]]] = []

    def later(delay: float, then: Callable[[], None]) -> Deadline:
        due.append((delay, then))
        return Deadline(delay, then)

    hub = HardwareHub(handlers=HubHandlers(later=later))
    presenter = PlayPresenter(Session.new(TwoDicePig(), ["Ann", "Bob"], seed=3))
    changes: list[int] = []
    presenter.subscribe(lambda: changes.append(len(presenter.session.actions)))
    hub.post(DieResult(device="d", die_id=1, face=5, faces=6, seq=1))
    hub.pump(presenter.dice)
    assert changes == [] and [delay for delay, _ in due] == [NOTE_AFTER_S]
    hub.post(DieResult(device="d", die_id=2, face=2, faces=6, seq=2))
    hub.pump(presenter.dice)  # the second die, in a drain of its own: the roll
    assert changes == [1]
    due.pop()[1]()  # the moment passes: the roll already showed what became of the note
    assert changes == [1]
    hub.post(DieResult(device="d", die_id=1, face=3, faces=6, seq=3))  # a die alone
    hub.pump(presenter.dice)
    hub.pump(presenter.dice)  # an empty drain schedules nothing more
    assert len(due) == 1 and changes == [1]
    due.pop()[1]()
    assert changes == [1, 1] and "1 of 2 dice in" in presenter.view().notice


def _blanked_copy(payload: JsonValue, paths: set[tuple[str | int, ...]]) -> JsonValue:
    """The payload with None at ``paths``."""

    def walk(node: JsonValue, at: tuple[str | int, ...]) -> JsonValue:
        if at in paths:
            return None
        if isinstance(node, dict):
            return {k: walk(v, (*at, k)) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, (*at, i)) for i, v in enumerate(node)]
        return node

    return walk(payload, ())


_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["a", "b"]))
_PAYLOADS = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3),
    ),
    max_leaves=8,
)
_PATHS = st.sets(
    st.lists(st.one_of(st.sampled_from(["x", "y", "z"]), st.integers(0, 2)), max_size=3).map(tuple),
    max_size=4,
)


@given(a=_PAYLOADS, b=_PAYLOADS, paths=_PATHS)
@settings(max_examples=500, deadline=None)
def test_payloads_are_compared_outside_the_form_fields_as_blanked_copies(
    a: JsonValue, b: JsonValue, paths: set[tuple[str | int, ...]]
) -> None:
    """What ``_formable`` asks of every listed action without copying it: equal once
    what a form can change is blanked."""
    trie = path_trie(paths)
    assert same_outside(a, b, trie) == (_blanked_copy(a, paths) == _blanked_copy(b, paths))
    assert same_outside(a, a, trie)


def test_a_form_is_offered_for_amounts_alone_in_every_card_game_menu() -> None:
    """The Colossus cards differ in their numbers only: one form enters them all."""
    presenter = PlayPresenter(Session.new("colossus_solo", ["Mara"], seed=2))
    view = presenter.view()
    assert view.group == "enter_colossus_card" and len(view.actions) > 1 and view.formable


def test_listeners_hear_a_change_in_the_order_they_subscribed() -> None:
    """A change reaches its listeners in the order they subscribed, each once; one that
    unsubscribed hears no more (the kiosk's change pipeline is one listener that runs
    the lesson's check, the LEDs and the screen in its own order)."""
    presenter = pig()
    heard: list[str] = []

    def screen() -> None:
        heard.append("screen")

    def leds() -> None:
        heard.append("leds")

    presenter.subscribe(leds)
    presenter.subscribe(screen)
    presenter.changed()
    presenter.unsubscribe(leds)
    presenter.changed()
    assert heard == ["leds", "screen", "screen"]


@pytest.mark.parametrize(
    "game", ["kolossus", "beast_master", "colossi", "colossus_solo", "builders"]
)
def test_what_a_form_can_change_is_kept_per_shape_and_answers_as_made_afresh(game: str) -> None:
    """The form fields of a menu's first action are kept per group and payload shape:
    whether a form is offered is what a presenter with nothing kept says, every time."""
    players = ["Mara"] if game == "colossus_solo" else ["Ann", "Bob"]
    presenter = PlayPresenter(Session.new(game, players, seed=4))
    bot = RandomBot(6)
    offered = False
    for _ in range(120):
        if presenter.queries.outcome is not None:
            break
        view = presenter.view()
        for group in [g.key for g in view.groups]:
            presenter.board_input.show_group(group)
            kept = presenter.view()
            fresh = PlayPresenter(presenter.session)
            fresh.board_input.show_group(group)
            fresh.board_input.select(presenter.board_input.focus)
            assert kept.formable == fresh.view().formable
            offered = offered or kept.formable
        presenter.board_input.show_group(None)
        while presenter.fix.step is not None:
            presenter.fix.next()
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    assert offered  # some group offered a form: its fields were kept
