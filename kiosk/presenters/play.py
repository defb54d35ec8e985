"""The play screen: header, dice panel, action menu, game log, undo/redo, refusals.

The presenter owns the :class:`~companion.session.Session` while a game is on screen.
Every intent (a tap on an action, a die face, undo, a board square) goes through
:meth:`PlayPresenter.submit` or a sibling, which catches every
:class:`~companion.errors.RefereeError` and turns it into a :class:`Banner` with the
message and ruling ID. Electronic dice arrive through :meth:`electronic_roll`, called on
the main thread by the hardware hub, so the touch path and the dice path are one path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from itertools import islice
from typing import Any

from companion import views
from companion.dice import DiceRequest, Roll
from companion.errors import RefereeError
from companion.events import Event, TableChanges
from companion.highlights import Highlight, TableChange
from companion.outcome import Outcome
from companion.session import Session
from companion.views import NO_CELLS, ActionCells, CellNames, PanelView, cell_names
from firmware_bridge.leds.palette import palette_for_board
from firmware_bridge.leds.render import highlights_from_table_changes
from kiosk.presenters import cards
from kiosk.presenters.board import BoardGeometry, BoardView, board_view, geometry_of
from kiosk.presenters.common import RGB, Banner, Observable, describe_action
from kiosk.presenters.devices import DeviceStatus, badges, electronic_dice_ready
from kiosk.presenters.forms import ActionForm
from kiosk.presenters.history import History
from kiosk.presenters.island import dressing
from kiosk.presenters.looks import look_for, named_colour
from kiosk.presenters.menus import CORRECTIONS_GROUP as CORRECTIONS_GROUP  # re-exported
from kiosk.presenters.menus import CORRECTIONS_LABEL as CORRECTIONS_LABEL
from kiosk.presenters.menus import NO_MENU, Menu, action_menu
from kiosk.presenters.naming import named_view
from kiosk.presenters.payloads import KeptActions, Trie, path_trie, payload_shape, same_outside
from kiosk.presenters.play_view import (
    ActionChoice,
    DicePanel,
    FixStep,
    LogLine,
    PlayView,
)
from kiosk.presenters.regions import (
    Arrows,
    Preview,
    arrow_decorations,
    edge_arrows,
    is_region_move,
    region_preview,
)
from kiosk.presenters.rolls import describe_roll, just_read, roll_cue
from kiosk.presenters.why import (
    Position,
    WhyView,
    can_explain,
    explain_count,
    explain_refusal,
    explain_table,
    first_time,
)
from kiosk.teaching import Teaching, load_teaching
from kiosk.teaching.progress import TeachProgress

MAX_LISTED_ACTIONS = 600  # how many legal actions the menu looks at (Kolossus has many)
MAX_TAPPABLE_FACES = 20  # dice with more sides are entered with a stepper instead
MAX_KEPT_SHAPES = 256  # payload shapes whose form fields are kept (see PlayPresenter._editable)


_UNKNOWN: Any = object()


class AtCell:
    """The legal actions a tap on one cell is about (:meth:`PlayPresenter.actions_at`):
    their payloads at once, where each happens (``Rules.action_cells``) only when a
    tap needs it — narrowing the menu to a cell needs no cells."""

    __slots__ = ("actions", "cells", "payloads")

    def __init__(
        self,
        actions: tuple[Any, ...],
        payloads: tuple[dict[str, Any], ...],
        cells: tuple[ActionCells, ...] | None = None,
    ) -> None:
        self.actions = actions
        self.payloads = payloads
        self.cells = cells


class Derived:
    """What the presenter reads off one state, computed at most once each.

    A state is an immutable value, so its legal actions, corrections, dice request,
    outcome, highlights and card tiles (per focus), views, status, log and action menus
    (per focus and group) never change. One submit then enumerates the legal actions
    once however many readers ask after it: the entry-form check, the action menu, a
    board tap, the table's "End turn" button — and computes the highlights once for the
    LED strip and the on-screen board together; the screen's repeated ``view()`` of one
    state (a tap on a menu row reads it, the tap's handler and the redraw after it too)
    labels the menu and lays out the tiles once. The state is held, not its ``id``: a new
    state is a new object, so identity is the key.
    """

    def __init__(self, state: Any) -> None:
        self.state = state
        self.actions: tuple[Any, ...] | None = None
        self.payloads: tuple[dict[str, Any], ...] | None = None
        self.cells: tuple[ActionCells, ...] | None = None
        self.corrections: tuple[Any, ...] | None = None
        self.correction_payloads: tuple[dict[str, Any], ...] | None = None
        self.correction_cells: tuple[ActionCells, ...] | None = None
        self.at_cell: dict[str, AtCell] = {}
        self.menus: dict[tuple[str | None, str | None], Menu] = {}
        self.highlights: dict[str | None, tuple[Highlight, ...]] = {}
        self.dice_request: Any = _UNKNOWN
        self.outcome: Any = _UNKNOWN
        self.seat: Any = _UNKNOWN
        self.status: str | None = None
        self.panel: PanelView | None = None
        self.board: Any = _UNKNOWN
        self.dressing: Any = _UNKNOWN
        #: The last board view made: (focus, the highlights it shows, the view).
        self.board_view: tuple[str | None, tuple[Highlight, ...], BoardView] | None = None
        self.log: tuple[LogLine, ...] | None = None
        self.arrows: Arrows | None = None
        self.last_roll: str | None = None
        self.tiles: dict[str | None, tuple[cards.Tile, ...]] = {}  # per focus


class PlayPresenter(Observable):
    """A game on screen. ``view()`` is cheap enough to call after every change."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.banner: Banner | None = None
        self.notice = ""
        self.entered: tuple[int, ...] = ()
        self.group: str | None = None
        self.focus: str | None = None
        self.devices: tuple[DeviceStatus, ...] = ()
        self.fix_changes: tuple[TableChange, ...] = ()
        self.fix_index = 0
        #: The "Why?" panel while it is open (closed by the next change of state).
        self.why: WhyView | None = None
        #: Teach mode's progress (None: the game was started without teach mode).
        self.teach: TeachProgress | None = None
        #: Called with the new progress after each teach-mode tap (the kiosk keeps it).
        self.on_teach: Callable[[TeachProgress], None] | None = None
        #: The last pause worked out: (state, focus, progress, pause) — once per change.
        self._pause: tuple[Any, str | None, TeachProgress, WhyView | None] | None = None
        #: A region move shown on the board before it is played (see ``regions``).
        self.preview: Preview | None = None
        self._form: ActionForm | None = None
        #: The entry form of the current state is still to be looked for (see ``form``).
        self._entry_form_due = True
        self._models = session.rules.action_models()
        self._derived: Derived | None = None
        self._look = look_for(session.rules.name)
        #: A card game drawn as tiles to touch (``kiosk/presenters/cards.py``).
        self.tiled = bool(session.rules.cards(session.state))
        #: The LED palette of the game's board: the on-screen board uses the same.
        self.palette = palette_for_board(session.rules.board_kind)
        self._geometry: BoardGeometry | object | None = _UNKNOWN
        self._names: CellNames | None = None  # the board's cell names: fixed for a game
        self._editables: dict[tuple[str, Any], Trie | None] = {}
        self._kept = KeptActions(session.rules.dump_action)
        self._menu_by = (self._kept, self._formable)  # what describes a menu (``menus``)
        self._history = History()  # the log and the last roll, read on from move to move
        #: What a sensing board adds (``kiosk/presenters/sensing.py``, the only writer):
        #: squares that differ from the game (red / green), or the moves that fit it.
        self.board_overlay: tuple[Highlight, ...] = ()
        self.board_choices: tuple[dict[str, Any], ...] | None = None
        self.board_notice = ""
        #: A lesson's suggestion, lit instead of the game's highlights while nothing is
        #: selected (``kiosk/presenters/lesson.py``; empty: the game's own).
        self.guide: Callable[[], tuple[Highlight, ...]] | None = None
        #: A lesson took the last action back: Redo would play it again, so it is off
        #: until the next action or Undo.
        self.redo_off = False

    @property
    def form(self) -> ActionForm | None:
        """The form on screen. When the game only waits for numbers read off the table
        (its only legal actions are one ``enter_…`` with amounts) that form opens by
        itself: looked for when first asked after a change, not in the change itself,
        so the LEDs get their highlights before the legal actions are enumerated."""
        if self._entry_form_due:
            self._entry_form_due = False
            self._form = self._entry_form()
        return self._form

    @form.setter
    def form(self, form: ActionForm | None) -> None:
        self._entry_form_due = False
        self._form = form

    # --- reading ----------------------------------------------------------------------

    @property
    def rules(self) -> Any:
        return self.session.rules

    @property
    def state(self) -> Any:
        return self.session.state

    def derived(self) -> Derived:
        """The cache of what the current state yields (see :class:`Derived`)."""
        state = self.session.state
        derived = self._derived
        if derived is None or derived.state is not state:
            derived = self._derived = Derived(state)
        return derived

    @property
    def outcome(self) -> Outcome | None:
        derived = self.derived()
        if derived.outcome is _UNKNOWN:
            derived.outcome = self.rules.outcome(derived.state)
        outcome: Outcome | None = derived.outcome
        return outcome

    def dice_request(self) -> DiceRequest | None:
        derived = self.derived()
        if derived.dice_request is _UNKNOWN:
            derived.dice_request = self.rules.dice_request(derived.state)
        request: DiceRequest | None = derived.dice_request
        return request

    def legal_payloads(self) -> list[dict[str, Any]]:
        """The listed legal actions (dumped), without rolls: the dice panel does those.

        Enumerated once per state; callers get their own list (the payloads are shared:
        read them, or copy before changing one, as forms do).
        """
        derived = self.derived()
        if derived.payloads is None:
            actions: list[Any] = []
            out: list[dict[str, Any]] = []
            if self.outcome is None:
                for action in islice(self.rules.legal_actions(derived.state), MAX_LISTED_ACTIONS):
                    payload = self._kept.payload(action)
                    if payload.get("type") != "roll":
                        actions.append(action)
                        out.append(payload)
            derived.actions, derived.payloads = tuple(actions), tuple(out)
        return list(derived.payloads)

    def _listed_cells(self) -> tuple[ActionCells, ...]:
        """Where each listed action happens (``Rules.action_cells``), in menu order."""
        self.legal_payloads()
        derived = self.derived()
        if derived.cells is None:
            state, rules = derived.state, self.rules
            derived.cells = tuple(rules.action_cells(state, a) for a in derived.actions or ())
        return derived.cells

    def cells_of(self, payload: Mapping[str, Any]) -> ActionCells:
        """Where a listed action happens (``Rules.action_cells``; none for one not listed)."""
        for listed, cells in zip(self.legal_payloads(), self._listed_cells(), strict=True):
            if listed == payload:
                return cells
        return NO_CELLS

    def _at(self, cell: str) -> AtCell:
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
                found = AtCell(starting, tuple(rules.dump_action(a) for a in starting))
            else:
                payloads, listed = self.legal_payloads(), self._listed_cells()
                hits = [i for i, c in enumerate(listed) if cell in c.touched]
                found = AtCell(
                    tuple(derived.actions[i] for i in hits) if derived.actions else (),
                    tuple(payloads[i] for i in hits),
                    tuple(listed[i] for i in hits),
                )
            derived.at_cell[cell] = found
        return found

    def payloads_at(self, cell: str) -> tuple[dict[str, Any], ...]:
        """The payloads of :meth:`actions_at` without their cells (the narrowed menu)."""
        return self._at(cell).payloads

    def actions_at(self, cell: str) -> tuple[tuple[dict[str, Any], ActionCells], ...]:
        """The legal actions a tap on ``cell`` is about, with their cells: the ones that
        start there (asked of the rules, which generate only those, so none is lost to
        the menu's cap), else every listed one that touches it. The cells of the ones
        that start there are asked of the rules only here, once per state and cell."""
        found = self._at(cell)
        if found.cells is None:
            state, rules = self.derived().state, self.rules
            found.cells = tuple(rules.action_cells(state, a) for a in found.actions)
        return tuple(zip(found.payloads, found.cells, strict=True))

    def _corrections(self) -> tuple[Any, ...]:
        """The game's correction templates (the menu counts them: dumped only when shown)."""
        derived = self.derived()
        if derived.corrections is None:
            fixes = () if self.outcome is not None else tuple(self.rules.corrections(derived.state))
            derived.corrections = fixes
        return derived.corrections

    def correction_payloads(self) -> list[dict[str, Any]]:
        """The game's correction templates (dumped), prefilled with the current values."""
        derived = self.derived()
        if derived.correction_payloads is None:
            dump = self.rules.dump_action
            derived.correction_payloads = tuple(dump(a) for a in self._corrections())
        return list(derived.correction_payloads)

    def _corrections_at(self, cell: str) -> list[dict[str, Any]]:
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

    def highlights(self) -> tuple[Highlight, ...]:
        """Exactly what the LEDs and the board show: during a fix-the-table walk-through
        only the FIX highlight(s) of the current step, else the game's highlights for
        the current focus.

        The presenter is the one owner of the walk-through's step: the strip and the
        board render what they are handed. Computed once per state and focus.
        """
        step = self.fix_step
        if step is not None:
            return highlights_from_table_changes(c for c in self.fix_changes if c.step == step)
        if self.preview is not None:
            return self.preview.highlights
        if self.board_overlay:
            return self.board_overlay
        marks = () if self.guide is None or self.focus is not None else self.guide()
        if marks:
            return marks
        return self._game_highlights()

    def _game_highlights(self) -> tuple[Highlight, ...]:
        """What the game itself lights for the current focus (with the roll's cue), under
        any lesson, preview or sensing overlay: what teach mode explains."""
        derived = self.derived()
        found = derived.highlights.get(self.focus)
        if found is None:
            found = tuple(self.rules.highlights(derived.state, self.focus))
            request = self.dice_request() or just_read(self.session)
            if request is not None:  # whose die it is (kiosk/presenters/rolls.py)
                found += roll_cue(self._board(), request, self._panel().turn_colour)
            derived.highlights[self.focus] = found
        return found

    @property
    def fix_step(self) -> int | None:
        """The walk-through step shown now (None when the table needs no fixing);
        :meth:`highlights` hands only this step to the board and the LEDs."""
        if self.fix_index >= len(self.fix_changes):
            return None
        return self.fix_changes[self.fix_index].step

    def _fix_step(self) -> FixStep | None:
        if self.fix_index >= len(self.fix_changes):
            return None
        change = self.fix_changes[self.fix_index]
        return FixStep(
            step=change.step,
            number=self.fix_index + 1,
            total=len(self.fix_changes),
            cell=change.cell,
            instruction=change.instruction,
        )

    def _dice_panel(self) -> DicePanel | None:
        request = self.dice_request()
        if request is None:
            return None
        players = self.state.players
        player = (
            players[request.player]
            if request.player is not None and 0 <= request.player < len(players)
            else None
        )
        faces = tuple(range(1, request.sides + 1)) if request.sides <= MAX_TAPPABLE_FACES else ()
        return DicePanel(
            label=request.label,
            count=request.count,
            sides=request.sides,
            player=player,
            entered=self.entered,
            waiting_for_device=electronic_dice_ready(self.devices),
            faces=faces,
        )

    def _log(self) -> tuple[LogLine, ...]:
        derived = self.derived()
        if derived.log is None:
            self._history.read(self.session.events)
            derived.log = self._history.log
        return derived.log

    def _menu(self) -> Menu:
        """The action menu of the current focus and group (made once per state for each,
        and kept across states for the same listed payload objects)."""
        derived = self.derived()
        key = (self.focus, self.group)
        menu = derived.menus.get(key)
        if menu is None:
            self.legal_payloads()
            payloads = derived.payloads or ()
            if self.board_choices is not None:
                payloads = tuple(self.board_choices)  # the moves that fit the sensing board
            elif self.focus is not None:
                payloads = self.payloads_at(self.focus) or payloads
            fixes, players = len(self._corrections()), tuple(self.state.players)
            if fixes and self.group == CORRECTIONS_GROUP:  # made anew with each state
                focused = [] if self.focus is None else self._corrections_at(self.focus)
                shown = focused or self.correction_payloads()
                menu = action_menu(payloads, self.group, fixes, shown, players, *self._menu_by)
            else:
                menu = self._kept.made(
                    ("menu", self.group, fixes, players),
                    payloads,
                    lambda: action_menu(payloads, self.group, fixes, None, players, *self._menu_by),
                )
            derived.menus[key] = menu
        return menu

    def _panel(self) -> PanelView:
        derived = self.derived()
        if derived.panel is None:
            derived.panel = self.rules.panel(derived.state)
        return derived.panel

    def _turn_colour(self, panel: PanelView) -> RGB | None:
        """The header swatch: the colour the game names for the side to move (a
        Kolossus warband), else the seat's colour; None once nobody is to move."""
        if panel.turn_colour is not None:
            return named_colour(panel.turn_colour)
        colours = self._look.seat_colours
        return None if panel.turn is None or not colours else colours[panel.turn % len(colours)]

    # --- the board --------------------------------------------------------------------

    def _board(self) -> views.BoardView | None:
        derived = self.derived()
        if derived.board is _UNKNOWN:
            derived.board = self.rules.board(derived.state)
        board: views.BoardView | None = derived.board
        return board

    def board_geometry(self) -> BoardGeometry | None:
        """Where the board's cells are drawn (None for card games); fixed for a game."""
        if self._geometry is _UNKNOWN:
            board = self._board()
            self._geometry = None if board is None else geometry_of(board)
        geometry: BoardGeometry | None = self._geometry  # type: ignore[assignment]
        return geometry

    def board_view(self) -> BoardView | None:
        """The on-screen board: the rules' board view dressed, lit like the LEDs (made
        again only when the state, the focus or the highlights changed)."""
        board, geometry = self._board(), self.board_geometry()
        if board is None or geometry is None:
            return None
        derived = self.derived()
        highlights, focus = self.highlights(), self.focus
        last = derived.board_view
        if last is not None and last[0] == focus and last[1] is highlights:
            return last[2]
        if self.preview is not None:  # the line as the previewed move leaves it
            base, decorations = dressing(
                self.preview.board, self._look.seat_colours, self.state.players
            )
            decorations += arrow_decorations(self.arrows())
        else:
            if derived.dressing is _UNKNOWN:
                base, decorations = dressing(board, self._look.seat_colours, self.state.players)
                derived.dressing = (base, decorations + arrow_decorations(self.arrows()))
            base, decorations = derived.dressing
        shown = board_view(
            self.palette,
            geometry,
            highlights,
            focus=focus,
            base=base,
            decorations=decorations,
        )
        arrows = self.arrows()
        if arrows:  # every arrow is a place to touch, lit or not
            shown = replace(shown, targets=shown.targets | frozenset(arrows))
        derived.board_view = (focus, highlights, shown)
        return shown

    def arrows(self) -> Arrows:
        """The region moves by the edge cell whose arrow plays them (made once per
        state; nothing is asked of the rules' cells unless a region move is listed)."""
        derived = self.derived()
        if derived.arrows is None:
            payloads, geometry = self.legal_payloads(), self.board_geometry()
            derived.arrows = (
                edge_arrows(payloads, self._listed_cells(), geometry)
                if geometry is not None and any(is_region_move(p) for p in payloads)
                else {}
            )
        return derived.arrows

    def _last_roll(self) -> str:
        """The last roll in words; said briefly while the next roll is asked for (the
        dice panel's prompt names its purpose, and both share the column beside the
        board)."""
        derived = self.derived()
        if derived.last_roll is None:
            self._history.read(self.session.events)
            players, brief = tuple(self.state.players), self.dice_request() is not None
            derived.last_roll = describe_roll(self._history.last_roll, players, brief=brief)
        return derived.last_roll

    def _seat(self) -> int | None:
        derived = self.derived()
        if derived.seat is _UNKNOWN:
            derived.seat = self.rules.current_player(derived.state)
        seat: int | None = derived.seat
        return seat

    def _status(self) -> str:
        derived = self.derived()
        if derived.status is None:
            derived.status = self.rules.status(derived.state)
        return derived.status

    def view(self, *, menu: bool = True) -> PlayView:
        """What the play screen shows; without ``menu`` the action menu is left empty
        (not enumerated nor described): the screen shows a change's header, board and
        cards first and asks for the menu a frame later (``PlayScreen.changed``)."""
        state = self.state
        seat = self._seat()
        outcome = self.outcome
        listed = self._menu() if menu else NO_MENU
        players = tuple(state.players)
        panel = self._panel()
        # A form that opens by itself is looked for with the menu (it enumerates the
        # legal actions, and shows in the menu's column).
        form = self.form if menu else self._form
        view = PlayView(
            game=self.rules.name,
            title=self.rules.title,
            player="" if seat is None else players[seat],
            player_seat=seat,
            status=self._status(),
            can_undo=self.session.can_undo,
            can_redo=self.session.can_redo and not self.redo_off,
            banner=self.banner,
            notice=self.notice or self.board_notice,
            dice=self._dice_panel(),
            groups=listed.groups,
            group=listed.group,
            actions=listed.actions,
            more_actions=listed.more_actions,
            log=self._log(),
            panel=panel,
            turn_colour=None if outcome is not None else self._turn_colour(panel),
            fix=self._fix_step(),
            outcome=None if outcome is None else outcome.text,
            winners=() if outcome is None else tuple(players[w] for w in outcome.winners),
            devices=tuple(b.text for b in badges(self.devices)),
            focus=self.focus,
            form=None if form is None else form.view(),
            formable=listed.formable,
            why=self.why,
            # The texts are read at the first refusal (or "Why?"), not for every game.
            can_explain=self.banner is not None and can_explain(self.teaching, self.banner),
            teach=self.teach_pause(),
            can_teach=outcome is None and (self.teach is None or not self.teach.on),
            last_roll=self._last_roll(),
            preview="" if self.preview is None else self.preview.text,
            tiles=self.card_tiles(),
        )
        return named_view(view, self.names())

    def names(self) -> CellNames:
        """The names people read for the board's cells in every text (an island's space
        labels; none for a grid or a card game, the same for the whole game): see
        kiosk/presenters/naming.py."""
        if self._names is None:
            self._names = cell_names(self._board())
        return self._names

    def card_tiles(self) -> tuple[cards.Tile, ...]:
        """A card game's cards as tiles to touch (none for board games)."""
        if not self.tiled:
            return ()
        derived = self.derived()
        found = derived.tiles.get(self.focus)
        if found is None:
            listed = self.legal_payloads()
            found = cards.tiles(
                self.rules.cards(derived.state), listed, self._listed_cells(), self.focus
            )
            derived.tiles[self.focus] = found
        return found

    def _formable(self, group: str | None, actions: tuple[ActionChoice, ...]) -> bool:
        """True when the group's action has amounts a form can edit — and the listed
        actions differ only in those amounts. Island moves differ in their spaces, which
        a form cannot edit: a form would silently keep the first move's origin, so those
        are chosen from the list or on the board instead."""
        model = self._models.get(group or "")
        if model is None or not actions:
            return False
        first = actions[0].payload

        def judge() -> bool:
            trie = self._editable(str(group), model, first)
            return trie is not None and all(
                same_outside(a.payload, first, trie) for a in actions[1:]
            )

        return self._kept.verdict(str(group), tuple(a.payload for a in actions), judge)

    def _editable(self, group: str, model: Any, example: dict[str, Any]) -> Trie | None:
        """The paths a form of ``model`` can change in ``example`` (None: no field), kept
        per group and shape of the example: the same menus come back turn after turn."""
        shape = payload_shape(example)
        key = (group, shape)
        if shape is not None and key in self._editables:
            return self._editables[key]
        fields = ActionForm(model, example, tuple(self.state.players)).view().fields
        trie = path_trie({field.path for field in fields}) if fields else None
        if shape is not None:
            if len(self._editables) >= MAX_KEPT_SHAPES:
                self._editables.clear()
            self._editables[key] = trie
        return trie

    # --- intents ----------------------------------------------------------------------

    def _after(self, events: tuple[Event, ...], notice: str = "") -> None:
        self.banner = None
        self.why = None
        self.notice = notice
        self.entered = ()
        self.focus = None
        self.form = None
        changes: list[TableChange] = []
        for event in events:
            if isinstance(event, TableChanges):
                changes.extend(event.changes)
        self.fix_changes = tuple(sorted(changes, key=lambda c: c.step))
        self.fix_index = 0
        self.preview = None
        self._entry_form_due = True  # looked for when first asked (``form``)
        self.show_board((), None)  # a new position: the sensing board's driver looks again

    def _entry_form(self) -> ActionForm | None:
        """When the game only waits for numbers read off the table, the form to show at once."""
        payloads = self.legal_payloads()
        types = {p.get("type") for p in payloads}
        if len(types) == 1:
            key = str(next(iter(types)))
            if key.startswith("enter_") and key in self._models:
                example = next(p for p in payloads if p.get("type") == key)
                model, players = self._models[key], tuple(self.state.players)
                first = self._kept.made(  # the same example comes back turn after turn
                    ("form", key, players),
                    (example,),
                    lambda: ActionForm(model, example, players).view(),
                )
                if first.fields:
                    return ActionForm(model, example, players, first)
        return None

    def _refused(self, exc: RefereeError) -> None:
        self.banner = Banner.from_error(exc)
        self.notice = ""
        self.why = None
        self._teach_refusal(self.banner)

    def _teach_refusal(self, banner: Banner) -> None:
        """Teach mode: a refusal resting on a rule not shown yet in this game opens its
        "Why?" at once (a refusal is a moment the rule matters), and counts as shown."""
        progress = self.teach
        ruling = banner.ruling
        if progress is None or not progress.on or ruling is None or ruling in progress.seen:
            return
        why = explain_refusal(self.teaching, self.rules.name, banner, self._position())
        if why is not None:
            self.why = why
            self.teach = TeachProgress(on=True, seen=progress.seen | {ruling})
            if self.on_teach is not None:
                self.on_teach(self.teach)

    def submit(self, action: object) -> bool:
        """Submit an action (dict or model). False, with the banner set, if refused."""
        self.redo_off = False
        try:
            events = self.session.submit(action)
        except RefereeError as exc:
            self._refused(exc)
            self.changed()
            return False
        self._after(events)
        self.changed()
        return True

    def choose(self, index: int) -> bool:
        """Tap on the ``index``-th action button of the current view.

        In the "Correct the table" group the tap opens the correction's form instead
        (True when it opened): a correction is entered, never sent unchanged.
        """
        menu = self._menu()
        actions = menu.actions
        if not 0 <= index < len(actions):
            return False
        payload = actions[index].payload
        if menu.group == CORRECTIONS_GROUP:
            model = self._models.get(str(payload.get("type")))
            if model is None:
                return False
            self.form = ActionForm(model, payload, tuple(self.state.players))
            self.changed()
            return True
        return self.submit(payload)

    def choose_group(self, key: str) -> bool:
        """Show ``key``'s actions, or play it when the group is one action (True when
        played); a second tap on "Correct the table" closes that list."""
        group = next((g for g in self._menu().groups if g.key == key), None)
        if group is not None and group.payload is not None:
            return self.submit(group.payload)
        self.group = None if key == CORRECTIONS_GROUP and self.group == key else key
        self.changed()
        return False

    def undo(self) -> None:
        self.redo_off = False
        try:
            action = self.session.undo()
        except RefereeError as exc:
            self._refused(exc)
        else:
            label = describe_action(self.rules.dump_action(action), tuple(self.state.players))
            self._after((), notice=f"Took back: {label}")
        self.changed()

    def redo(self) -> None:
        if self.redo_off:  # the lesson took the undone action back: nothing to redo
            return
        try:
            events = self.session.redo()
        except RefereeError as exc:
            self._refused(exc)
        else:
            self._after(events, notice="Redone.")
        self.changed()

    def dismiss_banner(self) -> None:
        self.banner = None
        self.notice = ""
        self.changed()

    # --- "Why?" -----------------------------------------------------------------------

    @property
    def teaching(self) -> Teaching:
        """The teaching texts (read once per process, on first use)."""
        return load_teaching()

    def _position(self, *, game_only: bool = False) -> Position:
        """What a worked example reads off the current state (all computed once per
        state); ``game_only``: the game's own lights, without a lesson's suggestion."""
        log = self._log()
        last = " ".join(line.text for line in log if line.number == log[0].number) if log else ""
        return Position(
            status=self._status(),
            panel=self._panel(),
            highlights=self._game_highlights() if game_only else self.highlights(),
            focus=self.focus,
            last=last,
            dice=self.dice_request(),
        )

    def explain_refusal(self) -> bool:
        """ "Why?" on the refusal banner: the rule it rests on (False: no text for it)."""
        if self.banner is None:
            return False
        why = explain_refusal(self.teaching, self.rules.name, self.banner, self._position())
        if why is None:
            return False
        self.why = why
        self.changed()
        return True

    def explain_table(self) -> None:
        """ "Why?" beside the board and the facts: the rules behind what is lit and counted."""
        self.why = explain_table(self.teaching, self.rules.name, self._position())
        self.changed()

    def explain_count(self, count: str) -> None:
        """A tap on a count of the facts panel (a row's label or a fact): its rules
        (nothing happens for a line no ruling stands behind)."""
        why = explain_count(self.teaching, self.rules.name, count, self._position())
        if why is not None:
            self.why = why
            self.changed()

    def close_why(self) -> None:
        self.why = None
        self.changed()

    # --- teach mode ---------------------------------------------------------------------

    def teach_pause(self) -> WhyView | None:
        """Teach mode's pause: the first rule that matters now and was not shown in this
        game yet (None when teach mode is off, the game is over or the table is being
        fixed). Worked out once per state, focus and progress."""
        progress = self.teach
        if progress is None or not progress.on or self.outcome is not None:
            return None
        if self.fix_step is not None:
            return None
        state = self.derived().state
        last = self._pause
        if last is not None and last[0] is state and last[1] == self.focus and last[2] == progress:
            return last[3]
        # The rules that matter are the game's: a lesson's suggestion is no rule.
        position = self._position(game_only=True)
        pause = first_time(self.teaching, self.rules.name, position, progress.seen)
        self._pause = (state, self.focus, progress, pause)
        return pause

    def _set_teach(self, progress: TeachProgress) -> None:
        self.teach = progress
        if self.on_teach is not None:
            self.on_teach(progress)
        self.changed()

    def teach_next(self) -> None:
        """The pause's "Got it": this rule was shown; the next one that matters now, if any."""
        pause = self.teach_pause()
        if self.teach is not None and pause is not None:
            shown = {entry.ruling for entry in pause.entries}
            self._set_teach(TeachProgress(on=True, seen=self.teach.seen | shown))

    def teach_skip(self) -> None:
        """The pause's "Skip teaching": no more pauses in this game (never holds up an expert)."""
        if self.teach is not None:
            self._set_teach(TeachProgress(on=False, seen=self.teach.seen))

    def teach_again(self) -> None:
        """The pause's "Show all again" (and "Teach me the rules from here" in the "Why?"
        panel): every rule pauses again the next time it matters."""
        self.why = None
        self._set_teach(TeachProgress(on=True, seen=frozenset()))

    # --- forms -----------------------------------------------------------------------

    def open_form(self, key: str | None = None) -> bool:
        """Edit the amounts of an action of group ``key``, starting from a listed one."""
        key = key or self._menu().group
        model = self._models.get(key or "")
        example = next((p for p in self.legal_payloads() if p.get("type") == key), None)
        if model is None or example is None:
            return False
        self.form = ActionForm(model, example, tuple(self.state.players))
        self.changed()
        return True

    def form_step(self, key: str, delta: int) -> None:
        if self.form is not None:
            self.form.step(key, delta)
            self.changed()

    def form_toggle(self, key: str) -> None:
        if self.form is not None:
            self.form.toggle(key)
            self.changed()

    def form_choose(self, key: str, value: object) -> None:
        if self.form is not None:
            self.form.choose(key, value)
            self.changed()

    def form_submit(self) -> bool:
        """Submit the form; on a refusal the form stays open under the banner."""
        if self.form is None:
            return False
        return self.submit(self.form.payload())

    def form_cancel(self) -> None:
        self.form = None
        self.changed()

    # --- dice -------------------------------------------------------------------------

    def roll_in_software(self) -> bool:
        self.entered = ()
        return self.submit(Roll(source="software"))

    def tap_face(self, face: int) -> bool:
        """Add one die face read off the table; submits once enough faces are in."""
        request = self.dice_request()
        if request is None:
            return False
        self.entered = (*self.entered, face)
        if len(self.entered) < request.count:
            self.changed()
            return True
        values, self.entered = self.entered, ()
        return self.submit(Roll(values=values, source="manual"))

    def clear_faces(self) -> None:
        self.entered = ()
        self.changed()

    def electronic_roll(self, roll: Roll) -> bool:
        """A roll from electronic dice, as the hub's collector made it (posted by a device
        thread, drained on the main loop): submitted as it is."""
        if self.dice_request() is None:
            self.banner = Banner("A die was rolled, but no dice are wanted right now.")
            self.changed()
            return False
        return self.submit(roll)

    def set_devices(self, statuses: tuple[DeviceStatus, ...]) -> None:
        self.devices = statuses
        self.changed()

    # --- board ------------------------------------------------------------------------

    def tap_cell(self, cell: str) -> bool:
        """A tap on the board: pick a piece, or play the one legal move to that square.

        With a piece selected, a tap on a square that exactly one legal action of that
        piece names plays it; several candidates narrow the action menu instead. Any
        other tap selects the tapped cell (its legal squares light up) or clears it.
        An edge arrow previews its region move; the same arrow again plays it.
        """
        arrows = self.arrows()
        if cell in arrows:
            return self._tap_arrow(cell, arrows[cell])
        self.preview = None
        if self.focus is None:
            placed = self._placed_at(cell)
            if placed is not None:
                return self.submit(placed)
        if self.focus is not None and cell != self.focus:
            at_focus = self.actions_at(self.focus)
            candidates = [p for p, c in at_focus if c.origin == self.focus and c.target == cell]
            if not candidates:  # an action naming both cells another way (a Hammer's targets)
                candidates = [p for p, c in at_focus if cell in c.touched]
            if len(candidates) == 1:
                return self.submit(candidates[0])
            if candidates:
                self.group = str(candidates[0].get("type"))
                self.changed()
                return False
        self.focus = None if cell == self.focus else cell
        self.changed()
        return False

    def tap_tile(self, key: str) -> bool:
        """A touch on a card game's tile: see :func:`kiosk.presenters.cards.tap_tile`."""
        return cards.tap_tile(self, key)

    def show_board(
        self,
        overlay: tuple[Highlight, ...],
        choices: tuple[dict[str, Any], ...] | None,
        notice: str = "",
    ) -> None:
        """What the sensing board's driver wants shown: lit squares that replace the
        game's highlights, the candidate moves the action menu narrows to, a notice.
        The caller redraws (``changed``)."""
        if choices != self.board_choices and self._derived is not None:
            self._derived.menus.clear()
        self.board_overlay = overlay
        self.board_choices = choices
        self.board_notice = notice

    def board_taps(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """The cells to touch to play the listed action ``payload`` on the board, in
        order (empty when the board cannot choose it): a piece's square, then its
        destination, when no other action of that piece ends there; the cell a piece
        is put on, when nothing else happens there; a region move's
        arrow twice (preview, play) when it is the arrow's only move."""
        for cell, moves in self.arrows().items():
            if payload in moves:
                return (cell, cell) if len(moves) == 1 else ()
        payloads = self.legal_payloads()
        if payload not in payloads:
            return ()
        cells = self._listed_cells()[payloads.index(payload)]
        origin, target = cells.origin, cells.target
        if origin is None and target is not None and self._placed_at(target) == payload:
            return (target,)
        if origin is None or target is None or origin == target:
            return ()
        ending = [
            p for p, c in self.actions_at(origin) if c.origin == origin and c.target == target
        ]
        return (origin, target) if ending == [payload] else ()

    def _placed_at(self, cell: str) -> dict[str, Any] | None:
        """The one legal action a single touch on ``cell`` plays: one that puts something
        there without moving it from elsewhere (a Lair, a spawn, a Rebirth), when no
        other action starts or ends on the cell."""
        found = self._at(cell)  # the cells are known unless actions start there
        if found.cells is None or len(found.actions) != 1:
            return None
        cells = found.cells[0]
        return found.payloads[0] if cells.origin is None and cells.target == cell else None

    def _tap_arrow(self, cell: str, moves: tuple[dict[str, Any], ...]) -> bool:
        """Preview the arrow's first move; the same arrow again plays the one previewed
        (an arrow holding several distances previews the next, the menu lists them)."""
        shown = self.preview
        if shown is not None and shown.arrow == cell:
            index = moves.index(shown.payload) if shown.payload in moves else -1
            if len(moves) == 1:
                return self.submit(moves[0])
            chosen = moves[(index + 1) % len(moves)]
        else:
            chosen = moves[0]
        payloads = self.legal_payloads()
        line = self._listed_cells()[payloads.index(chosen)]
        players = tuple(self.state.players)
        self.preview = region_preview(self.rules, self.state, cell, chosen, line, players)
        self.focus = cell
        self.group = str(chosen.get("type"))
        self.changed()
        return False

    def finish_fix(self) -> None:
        """The players changed the table as every remaining step says ("All done"): the
        walk-through guides, it checks nothing, so one tap may end it."""
        self.fix_index = len(self.fix_changes)
        self.changed()

    def next_fix_step(self) -> None:
        """The players changed the table as step N says: show step N + 1."""
        if self.fix_index < len(self.fix_changes):
            self.fix_index += 1
        self.changed()
