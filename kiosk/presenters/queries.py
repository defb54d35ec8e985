"""What the play presenter reads off the position on screen, each at most once per state.

A state is an immutable value, so its legal actions, corrections, dice request,
outcome, highlights, views, status, log and action menus never change. One submit then
enumerates the legal actions once however many readers ask after it: the entry-form
check, the action menu, a board tap, the table's "End turn" button — and computes the
highlights once for the LED strip and the on-screen board together. :class:`Derived`
holds them for the current state (held, not its ``id``: a new state is a new object,
so identity is the key); :class:`StateQueries` answers from it, and is the only writer.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from typing import Protocol

from companion.dice import DiceRequest
from companion.highlights import Highlight
from companion.model import Frozen
from companion.outcome import Outcome
from companion.rules import ActionRole, AnyRules, GameState
from companion.session import Session
from companion.views import NO_CELLS, ActionCells, BoardView, CardView, PanelView
from kiosk.presenters.board import BoardView as ScreenBoard
from kiosk.presenters.board import Decoration
from kiosk.presenters.cards import Tile
from kiosk.presenters.common import RGB
from kiosk.presenters.history import History
from kiosk.presenters.looks import GameLook, named_colour
from kiosk.presenters.menus import CORRECTIONS_GROUP, Menu, action_menu
from kiosk.presenters.payloads import KeptActions
from kiosk.presenters.payloads import Payload as Payload  # the companion's seats read it here
from kiosk.presenters.play_view import ActionChoice, LogLine
from kiosk.presenters.regions import Arrows
from kiosk.presenters.rolls import describe_roll, just_read, roll_cue

MAX_LISTED_ACTIONS = 600  # how many legal actions the menu looks at (Kolossus has many)


class AtCell:
    """The legal actions a tap on one cell is about (:meth:`StateQueries.actions_at`):
    their payloads at once, where each happens (``Rules.action_cells``) only when a
    tap needs it — narrowing the menu to a cell needs no cells."""

    __slots__ = ("actions", "cells", "payloads")

    def __init__(
        self,
        actions: tuple[Frozen, ...],
        payloads: tuple[Payload, ...],
        cells: tuple[ActionCells, ...] | None = None,
    ) -> None:
        self.actions = actions
        self.payloads = payloads
        self.cells = cells


class NotAsked:
    """Not asked yet (None is an answer: no dice wanted, no outcome, no board)."""


NOT_ASKED = NotAsked()


class Derived:
    """What the presenter reads off one state, computed at most once each (see the
    module): per focus the highlights and card tiles, per focus and group the menus."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.actions: tuple[Frozen, ...] | None = None
        self.payloads: tuple[Payload, ...] | None = None
        self.cells: tuple[ActionCells, ...] | None = None
        self.corrections: tuple[Frozen, ...] | None = None
        self.correction_payloads: tuple[Payload, ...] | None = None
        self.correction_cells: tuple[ActionCells, ...] | None = None
        self.at_cell: dict[str, AtCell] = {}
        self.menus: dict[tuple[str | None, str | None], Menu] = {}
        self.highlights: dict[str | None, tuple[Highlight, ...]] = {}
        self.dice_request: DiceRequest | NotAsked | None = NOT_ASKED
        self.outcome: Outcome | NotAsked | None = NOT_ASKED
        self.seat: int | NotAsked | None = NOT_ASKED
        self.status: str | None = None
        self.panel: PanelView | None = None
        self.board: BoardView | NotAsked | None = NOT_ASKED
        #: The board's unlit colours and texts (kiosk/presenters/board_input.py).
        self.dressing: tuple[dict[str, RGB], tuple[Decoration, ...]] | NotAsked = NOT_ASKED
        #: The last board view made: (focus, the highlights it shows, the view).
        self.board_view: tuple[str | None, tuple[Highlight, ...], ScreenBoard] | None = None
        self.log: tuple[LogLine, ...] | None = None
        self.arrows: Arrows | None = None
        self.last_roll: str | None = None
        self.tiles: dict[str | None, tuple[Tile, ...]] = {}  # per focus
        self.cards: tuple[CardView, ...] | None = None


class Formable(Protocol):
    """Which menu groups a form can stand for (``FormDesk.formable``)."""

    def formable(self, group: str | None, actions: tuple[ActionChoice, ...]) -> bool: ...


class StateQueries:
    """The position's answers for the play presenter and its collaborators."""

    def __init__(self, session: Session, kept: KeptActions, *, tiled: bool) -> None:
        self.session = session
        self.kept = kept
        #: A card game drawn as tiles to touch: a tap on a tile starts no action.
        self.tiled = tiled
        self._derived: Derived | None = None
        self._roles: dict[object, ActionRole | None] = {}  # the rules' role of each type
        self._history = History()  # the log and the last roll, read on from move to move

    @property
    def rules(self) -> AnyRules:
        return self.session.rules

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.session.state.players)

    def derived(self) -> Derived:
        """The cache of what the current state yields (see :class:`Derived`)."""
        state = self.session.state
        derived = self._derived
        if derived is None or derived.state is not state:
            derived = self._derived = Derived(state)
        return derived

    def forget_menus(self) -> None:
        """The menus of this state are made again (the sensing board's choices changed)."""
        if self._derived is not None:
            self._derived.menus.clear()

    def role(self, payload: Mapping[str, object]) -> ActionRole | None:
        """The rules' role of a payload's action type (``Rules.action_role``, asked once
        per type: every listed action is asked)."""
        kind = payload.get("type")
        try:
            return self._roles[kind]
        except KeyError:
            role = self._roles[kind] = self.rules.action_role(str(kind))
            return role

    @property
    def outcome(self) -> Outcome | None:
        derived = self.derived()
        if isinstance(derived.outcome, NotAsked):
            derived.outcome = self.rules.outcome(derived.state)
        return derived.outcome

    def cards(self) -> tuple[CardView, ...]:
        """A card game's cards, piles and trackers in this state (``Rules.cards``): the
        tiles and the companion's hidden hands both read them, on every view."""
        derived = self.derived()
        if derived.cards is None:
            derived.cards = self.rules.cards(derived.state)
        return derived.cards

    def dice_request(self) -> DiceRequest | None:
        derived = self.derived()
        if isinstance(derived.dice_request, NotAsked):
            derived.dice_request = self.rules.dice_request(derived.state)
        return derived.dice_request

    def legal_payloads(self) -> list[Payload]:
        """The listed legal actions (dumped), without rolls: the dice panel does those.

        Enumerated once per state; callers get their own list (the payloads are shared:
        read them, or copy before changing one, as forms do).
        """
        derived = self.derived()
        if derived.payloads is None:
            actions: list[Frozen] = []
            out: list[Payload] = []
            if self.outcome is None:
                for action in islice(self.rules.legal_actions(derived.state), MAX_LISTED_ACTIONS):
                    payload = self.kept.payload(action)
                    if self.role(payload) is not ActionRole.ROLL:
                        actions.append(action)
                        out.append(payload)
            derived.actions, derived.payloads = tuple(actions), tuple(out)
        return list(derived.payloads)

    def listed_cells(self) -> tuple[ActionCells, ...]:
        """Where each listed action happens (``Rules.action_cells``), in menu order."""
        self.legal_payloads()
        derived = self.derived()
        if derived.cells is None:
            state, rules = derived.state, self.rules
            derived.cells = tuple(rules.action_cells(state, a) for a in derived.actions or ())
        return derived.cells

    def cells_of(self, payload: Mapping[str, object]) -> ActionCells:
        """Where a listed action happens (``Rules.action_cells``; none for one not listed)."""
        for listed, cells in zip(self.legal_payloads(), self.listed_cells(), strict=True):
            if listed == payload:
                return cells
        return NO_CELLS

    def at(self, cell: str) -> AtCell:
        """The legal actions a tap on ``cell`` is about (see :meth:`actions_at`)."""
        derived = self.derived()
        found = derived.at_cell.get(cell)
        if found is None:
            rules, state = self.rules, derived.state
            starting = (
                ()
                if self.outcome is not None or self.tiled
                else tuple(islice(rules.legal_actions_at(state, origin=cell), MAX_LISTED_ACTIONS))
            )
            if starting:
                found = AtCell(starting, tuple(self.kept.payload(a) for a in starting))
            else:
                payloads, listed = self.legal_payloads(), self.listed_cells()
                hits = [i for i, c in enumerate(listed) if cell in c.touched]
                found = AtCell(
                    tuple(derived.actions[i] for i in hits) if derived.actions else (),
                    tuple(payloads[i] for i in hits),
                    tuple(listed[i] for i in hits),
                )
            derived.at_cell[cell] = found
        return found

    def payloads_at(self, cell: str) -> tuple[Payload, ...]:
        """The payloads of :meth:`actions_at` without their cells (the narrowed menu)."""
        return self.at(cell).payloads

    def actions_at(self, cell: str) -> tuple[tuple[Payload, ActionCells], ...]:
        """The legal actions a tap on ``cell`` is about, with their cells: the ones that
        start there (asked of the rules, which generate only those, so none is lost to
        the menu's cap), else every listed one that touches it. The cells of the ones
        that start there are asked of the rules only here, once per state and cell."""
        found = self.at(cell)
        if found.cells is None:
            state, rules = self.derived().state, self.rules
            found.cells = tuple(rules.action_cells(state, a) for a in found.actions)
        return tuple(zip(found.payloads, found.cells, strict=True))

    def placed_at(self, cell: str) -> Payload | None:
        """The one legal action a single touch on ``cell`` plays: one that puts something
        there without moving it from elsewhere (a Lair, a spawn, a Rebirth), when no
        other action starts or ends on the cell."""
        found = self.at(cell)  # the cells are known unless actions start there
        if found.cells is None or len(found.actions) != 1:
            return None
        cells = found.cells[0]
        return found.payloads[0] if cells.origin is None and cells.target == cell else None

    def turn_end(self) -> Payload | None:
        """The table's "End turn" button's action: the game's own end-of-turn action if
        one is legal (``ActionRole.END_TURN``, else ``END_PHASE``)."""
        payloads, role = self.legal_payloads(), self.role
        for wanted in (ActionRole.END_TURN, ActionRole.END_PHASE):
            found = next((p for p in payloads if role(p) is wanted), None)
            if found is not None:
                return found
        return None

    def turn_colour(self, look: GameLook) -> RGB | None:
        """The header swatch: the colour the game names for the side to move (a
        Kolossus warband), else the seat's colour in ``look``; None once nobody is to move."""
        panel = self.panel()
        if panel.turn_colour is not None:
            return named_colour(panel.turn_colour)
        colours = look.seat_colours
        return None if panel.turn is None or not colours else colours[panel.turn % len(colours)]

    def corrections(self) -> tuple[Frozen, ...]:
        """The game's correction templates (the menu counts them: dumped only when shown)."""
        derived = self.derived()
        if derived.corrections is None:
            fixes = () if self.outcome is not None else tuple(self.rules.corrections(derived.state))
            derived.corrections = fixes
        return derived.corrections

    def correction_payloads(self) -> list[Payload]:
        """The game's correction templates (dumped), prefilled with the current values."""
        derived = self.derived()
        if derived.correction_payloads is None:
            dump = self.kept.payload
            derived.correction_payloads = tuple(dump(a) for a in self.corrections())
        return list(derived.correction_payloads)

    def corrections_at(self, cell: str) -> list[Payload]:
        """The correction templates about ``cell`` (a miniature standing there)."""
        payloads = self.correction_payloads()
        derived = self.derived()
        if derived.correction_cells is None:
            state, rules = derived.state, self.rules
            derived.correction_cells = tuple(
                rules.action_cells(state, a) for a in derived.corrections or ()
            )
        return [
            p for p, c in zip(payloads, derived.correction_cells, strict=True) if cell in c.touched
        ]

    def game_highlights(self, focus: str | None) -> tuple[Highlight, ...]:
        """What the game itself lights for ``focus`` (with the roll's cue), under any
        lesson, preview or sensing overlay: what teach mode explains."""
        derived = self.derived()
        found = derived.highlights.get(focus)
        if found is None:
            found = tuple(self.rules.highlights(derived.state, focus))
            request = self.dice_request() or just_read(self.session)
            if request is not None:  # whose die it is (kiosk/presenters/rolls.py)
                found += roll_cue(self.board(), request, self.panel().turn_colour)
            derived.highlights[focus] = found
        return found

    def board(self) -> BoardView | None:
        derived = self.derived()
        if isinstance(derived.board, NotAsked):
            derived.board = self.rules.board(derived.state)
        return derived.board

    def panel(self) -> PanelView:
        derived = self.derived()
        if derived.panel is None:
            derived.panel = self.rules.panel(derived.state)
        return derived.panel

    def seat(self) -> int | None:
        derived = self.derived()
        if isinstance(derived.seat, NotAsked):
            derived.seat = self.rules.current_player(derived.state)
        return derived.seat

    def status(self) -> str:
        derived = self.derived()
        if derived.status is None:
            derived.status = self.rules.status(derived.state)
        return derived.status

    def log(self) -> tuple[LogLine, ...]:
        derived = self.derived()
        if derived.log is None:
            self._history.read(self.session.events)
            derived.log = self._history.log
        return derived.log

    def last_roll(self) -> str:
        """The last roll in words; said briefly while the next roll is asked for (the
        dice panel's prompt names its purpose, and both share the column beside the
        board)."""
        derived = self.derived()
        if derived.last_roll is None:
            self._history.read(self.session.events)
            brief = self.dice_request() is not None
            derived.last_roll = describe_roll(self._history.last_roll, self.players, brief=brief)
        return derived.last_roll

    def menu(
        self,
        focus: str | None,
        group: str | None,
        choices: tuple[Payload, ...] | None,
        forms: Formable,
    ) -> Menu:
        """The action menu for ``focus`` and ``group`` — of ``choices`` when a sensing
        board narrowed the moves to them (made once per state for each focus and group:
        its words are said of the state)."""
        derived = self.derived()
        menu = derived.menus.get((focus, group))
        if menu is None:
            self.legal_payloads()
            payloads = derived.payloads or ()
            if choices is not None:
                payloads = tuple(choices)  # the moves that fit the sensing board
            elif focus is not None:
                payloads = self.payloads_at(focus) or payloads
            fixes, kept = len(self.corrections()), self.kept
            rules, state = self.rules, derived.state
            shown = None
            if fixes and group == CORRECTIONS_GROUP:
                focused = [] if focus is None else self.corrections_at(focus)
                shown = focused or self.correction_payloads()
            # Said of this state (what stands where, who holds what): made once per
            # state for each focus and group.
            menu = action_menu(rules, state, payloads, group, fixes, shown, kept, forms.formable)
            derived.menus[(focus, group)] = menu
        return menu
