"""The play screen: header, dice panel, action menu, game log, undo/redo, refusals.

The presenter owns the :class:`~companion.session.Session` while a game is on screen.
Every intent (a tap on an action, a die face, undo, a board square) ends in
:meth:`PlayPresenter.submit`, :meth:`~PlayPresenter.undo` or :meth:`~PlayPresenter.redo`,
which catch every :class:`~companion.errors.RefereeError` and turn it into a
:class:`Banner` with the message and ruling ID. Electronic dice arrive through the dice
panel (``play.dice.electronic_roll``, called on the main thread by the hardware hub), so
the touch path and the dice path are one path.

This module is the core — submit, undo, redo, the highlights and the view — and each
concept around it is a collaborator that owns its state, written only through its own
methods; callers reach a collaborator by its attribute (``play.action_menu.choose(i)``,
``play.fix.next()``), never through the core: :attr:`~PlayPresenter.queries` (what the
state yields, once per state), :attr:`~PlayPresenter.board_input` (the selection, board
and tile taps, the region move's preview), :attr:`~PlayPresenter.action_menu` (the
action menu and its taps), :attr:`~PlayPresenter.forms`, :attr:`~PlayPresenter.teacher`
(teach mode and "Why?"), :attr:`~PlayPresenter.fix` (the fix-the-table walk-through),
:attr:`~PlayPresenter.overlay` (what a sensing board adds) and
:attr:`~PlayPresenter.dice` (the dice panel; the hub's roll target).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.errors import RefereeError, RuleViolation
from companion.events import Event
from companion.highlights import Highlight
from companion.rules import AnyRules, GameState
from companion.session import Session
from companion.views import CellNames, cell_names
from firmware_bridge.leds.palette import palette_for_board
from kiosk.presenters import cards
from kiosk.presenters.board import BoardView
from kiosk.presenters.board_input import BoardInput
from kiosk.presenters.common import Banner, Observable
from kiosk.presenters.devices import badges
from kiosk.presenters.dice_pad import DicePad
from kiosk.presenters.fix_walk import FixWalk
from kiosk.presenters.form_desk import FormDesk
from kiosk.presenters.looks import look_for
from kiosk.presenters.menu_desk import MenuDesk
from kiosk.presenters.menus import CORRECTIONS_GROUP as CORRECTIONS_GROUP  # re-exported
from kiosk.presenters.menus import CORRECTIONS_LABEL as CORRECTIONS_LABEL
from kiosk.presenters.menus import NO_MENU
from kiosk.presenters.naming import named_view
from kiosk.presenters.overlay import SensingOverlay
from kiosk.presenters.payloads import KeptActions
from kiosk.presenters.play_view import PlayView
from kiosk.presenters.queries import MAX_LISTED_ACTIONS as MAX_LISTED_ACTIONS  # re-exported
from kiosk.presenters.queries import StateQueries
from kiosk.presenters.teach import Teacher


class PlayPresenter(Observable):
    """A game on screen. ``view()`` is cheap enough to call after every change."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.banner: Banner | None = None
        self.notice = ""
        #: A lesson's suggestion, lit instead of the game's highlights while nothing is
        #: selected (``kiosk/presenters/lesson.py``; None: the game's own).
        self._guide: Callable[[], tuple[Highlight, ...]] | None = None
        #: A lesson took the last action back: Redo would play it again, so it is off
        #: until the next action or Undo.
        self._redo_off = False
        rules = session.rules
        self._look = look_for(rules.name)
        kept = KeptActions(rules)
        self.queries = StateQueries(session, kept, tiled=bool(rules.cards(session.state)))

        #: Who holds the turn now that is not at the screen (the companion to move): the
        #: words refusing a person's tap, or None (``kiosk/presenters/companion.py``).
        self._turn_holder: Callable[[], str | None] | None = None
        #: Who answers a person's deal that is not at the screen (a companion seat, BC-R07):
        #: its no to an action, or None (``kiosk/presenters/companion.py``).
        self._deal_answer: Callable[[object], RuleViolation | None] | None = None

        # Looked up at each call: a test may replace them.
        def submit(action: object) -> bool:  # a person's: the menu, a form, the board, dice
            if self.refused_while_held() or self.refused_by_partner(action):
                return False
            return self.submit(action)

        def changed() -> None:
            self.changed()

        held = self.refused_while_held  # a person's tap that must wait is refused
        palette = palette_for_board(rules.board_kind)
        self.board_input = BoardInput(
            self.queries, submit, changed, palette, self._look.seat_colours, held=held
        )
        self.overlay = SensingOverlay(self.queries.forget_menus)
        self.fix = FixWalk(changed)
        self.forms = FormDesk(self.queries, submit, changed)
        self.dice = DicePad(self.queries, submit, changed, self.show_banner, self.note, held=held)
        self.action_menu = MenuDesk(
            self.queries, self.board_input, self.overlay, self.forms, submit, changed, held=held
        )

        def shown() -> tuple[Highlight, ...]:
            return self.highlights()

        self.teacher = Teacher(self.queries, self.board_input, self.fix, shown, changed)
        self._names: CellNames | None = None  # the board's cell names: fixed for a game

    # --- reading ----------------------------------------------------------------------

    @property
    def rules(self) -> AnyRules:
        return self.session.rules

    @property
    def state(self) -> GameState:
        """The position on screen, typed as every game's: a game's own fields are read
        by its rules (a caller that knows the game narrows it)."""
        return self.session.state

    @property
    def guide(self) -> Callable[[], tuple[Highlight, ...]] | None:
        return self._guide

    def highlights(self) -> tuple[Highlight, ...]:
        """Exactly what the LEDs and the board show: during a fix-the-table walk-through
        only the FIX highlight(s) of the current step, else a region move's preview, a
        sensing board's overlay, a lesson's suggestion (nothing selected), or the game's
        highlights for the current focus. Computed once per state and focus."""
        if self.fix.step is not None:
            return self.fix.highlights()
        preview = self.board_input.preview
        if preview is not None:
            return preview.highlights
        if self.overlay.highlights:
            return self.overlay.highlights
        focus = self.board_input.focus
        marks = () if self._guide is None or focus is not None else self._guide()
        if marks:
            return marks
        return self.queries.game_highlights(focus)

    def board_view(self) -> BoardView | None:
        """The on-screen board, lit like the LEDs (``BoardInput.view``)."""
        return self.board_input.view(self.highlights())

    def view(self, *, menu: bool = True) -> PlayView:
        """What the play screen shows; without ``menu`` the action menu is left empty
        (not enumerated nor described): the screen shows a change's header, board and
        cards first and asks for the menu a frame later (``PlayScreen.changed``)."""
        queries = self.queries
        seat, outcome = queries.seat(), queries.outcome
        listed = self.action_menu.menu() if menu else NO_MENU
        players = queries.players
        # A form that opens by itself is looked for with the menu (it enumerates the
        # legal actions, and shows in the menu's column).
        form = self.forms.form if menu else self.forms.shown
        teach = self.teacher.progress
        preview = self.board_input.preview
        tiles = self.board_input.card_tiles()  # lit as the board would be (card games)
        view = PlayView(
            game=self.rules.name,
            title=self.rules.title,
            player="" if seat is None else players[seat],
            player_seat=seat,
            status=queries.status(),
            can_undo=self.session.can_undo,
            can_redo=self.session.can_redo and not self._redo_off,
            banner=self.banner,
            notice=self.notice or self.overlay.notice,
            dice=self.dice.panel(),
            groups=listed.groups,
            group=listed.group,
            actions=listed.actions,
            more_actions=listed.more_actions,
            log=queries.log(),
            panel=queries.panel(),
            turn_colour=None if outcome is not None else queries.turn_colour(self._look),
            fix=self.fix.view(),
            outcome=None if outcome is None else outcome.text,
            winners=() if outcome is None else tuple(players[w] for w in outcome.winners),
            devices=tuple(b.text for b in badges(self.dice.devices)),
            focus=self.board_input.focus,
            form=None if form is None else form.view(),
            formable=listed.formable,
            why=self.teacher.why,
            can_explain=self.teacher.can_explain(self.banner),
            teach=self.teacher.pause(),
            can_teach=outcome is None and (teach is None or not teach.on),
            last_roll=queries.last_roll(),
            preview="" if preview is None else preview.text,
            tiles=cards.lit_by(tiles, self.highlights()) if tiles else (),
        )
        return named_view(view, self.names())

    def names(self) -> CellNames:
        """The names people read for the board's cells in every text (an island's space
        labels; none for a grid or a card game, the same for the whole game): see
        kiosk/presenters/naming.py."""
        if self._names is None:
            self._names = cell_names(self.queries.board())
        return self._names

    # --- intents ----------------------------------------------------------------------

    def _after(
        self,
        events: tuple[Event, ...],
        notice: str = "",
        before: GameState | None = None,
        entered: bool = False,
    ) -> None:
        """A new position: every collaborator starts it afresh. ``before``: the state the
        table still shows; ``entered``: the players entered the action themselves (a
        walk that would only repeat their move is skipped)."""
        self.banner = None
        self.teacher.close()
        self.notice = notice
        self.dice.clear()
        self.board_input.clear()
        if before is None:
            self.fix.start(events)
        else:
            actions = self.session.actions
            played = actions[-1] if entered and actions else None
            self.fix.start_from(events, self.rules, before, self.state, played)
        self.forms.reset()  # the entry form is looked for when first asked
        self.overlay.show((), None)  # a new position: the sensing board's driver looks again

    def _refused(self, exc: RefereeError) -> None:
        self.banner = Banner.from_error(exc)
        self.notice = ""
        self.teacher.refused(self.banner)

    def submit(self, action: object) -> bool:
        """Submit an action (dict or model). False, with the banner set, if refused."""
        self._redo_off = False
        before = self.state
        try:
            events = self.session.submit(action)
        except RefereeError as exc:
            self._refused(exc)
            self.changed()
            return False
        self._after(events, before=before, entered=True)
        self.changed()
        return True

    def undo(self) -> None:
        self._redo_off = False
        try:
            action = self.session.undo()
        except RefereeError as exc:
            self._refused(exc)
        else:
            # Said in the position it was played from: the one the table is back in.
            label = self.rules.describe(self.session.state, action)
            self._after((), notice=f"Took back: {label}")
        self.changed()

    def redo(self) -> None:
        if self._redo_off:  # the lesson took the undone action back: nothing to redo
            return
        before = self.state
        try:
            events = self.session.redo()
        except RefereeError as exc:
            self._refused(exc)
        else:
            self._after(events, notice="Redone.", before=before)
        self.changed()

    def confirm(self) -> None:
        """The table's "confirm" button: "Done" of the fix-the-table step, else the open
        form's "Submit", else a note that there is nothing to confirm."""
        if self.fix.step is not None:
            self.fix.next()
        elif self.forms.form is not None:
            self.forms.submit()
        else:
            self.notice = "Nothing to confirm: choose an action on the screen."
            self.changed()

    def end_turn(self) -> bool:
        """The table's "End turn" button: the game's own end-of-turn action if one is
        legal (``ActionRole.END_TURN``, else ``END_PHASE``); else a banner says why not."""
        found = self.queries.turn_end()
        if found is not None:
            self.submit(found)
            return True
        self.banner = Banner("The turn cannot end right now.")
        self.changed()
        return False

    # --- what other parts of the kiosk set, each by name -----------------------------------

    def note(self, text: str) -> None:
        """A note in the header (a partial roll's "1 of 2 dice in"), drawn by the
        caller's next ``changed``."""
        self.notice = text

    def show_banner(self, banner: Banner) -> None:
        """A banner from outside the game (a damaged journal, the simulated tray); the
        caller redraws."""
        self.banner = banner

    def dismiss_banner(self) -> None:
        self.banner = None
        self.notice = ""
        self.changed()

    def refused_while_held(self) -> bool:
        """True, with the banner saying whose turn it is and nothing else changed, when
        a person's tap comes while the turn is :attr:`held` (Undo and leaving stay)."""
        words = None if self._turn_holder is None else self._turn_holder()
        if words is None:
            return False
        self.banner = Banner(words, code="turn_held")
        self.notice = ""
        self.changed()
        return True

    def refused_by_partner(self, action: object) -> bool:
        """True, with the banner giving the partner's no and nothing else changed, when a
        person offers a deal to a seat that answers for itself and would refuse it: a deal
        not concluded is not the person's action (BC-R07)."""
        refusal = None if self._deal_answer is None else self._deal_answer(action)
        if refusal is None:
            return False
        self._refused(refusal)
        self.changed()
        return True

    @property
    def held(self) -> Callable[[], str | None] | None:
        return self._turn_holder

    def hold_turn(self, held: Callable[[], str | None] | None) -> None:
        """Who holds the turn (the words refusing a person's tap; None: nobody)."""
        self._turn_holder = held

    @property
    def deal_answer(self) -> Callable[[object], RuleViolation | None] | None:
        return self._deal_answer

    def answer_deals(self, answer: Callable[[object], RuleViolation | None] | None) -> None:
        """Who answers a person's deals away from the screen (its no; None: every partner
        is at the table and says yes or no there)."""
        self._deal_answer = answer

    def follow_guide(self, guide: Callable[[], tuple[Highlight, ...]] | None) -> None:
        """A lesson's suggestion to light while nothing is selected (None: none)."""
        self._guide = guide

    def took_back(self, banner: Banner) -> None:
        """A lesson took the last action back inside this change (the session's undo):
        Redo is off until the next action or Undo, the walk-through, the selection and
        the form are gone, and ``banner`` says why. The change's listeners redraw."""
        self._redo_off = True
        self.fix.clear()
        self.board_input.clear()
        self.forms.close()
        self.banner = banner
        self.notice = ""
