"""Guided setup: the game's physical setup, one step at a time, on screen and on the LEDs.

The steps are data (``[[setup]]`` in ``kiosk/teaching/<game>.toml``); what each step
lights is read off the referee's own initial board (:meth:`Rules.board`) and the counts
it names off the referee's facts panel, so the lit cells and the numbers can never
disagree with the game the companion then referees. Each step rests on a ruling; one
tap on "Done" confirms it, "Back" returns to the one before, "Skip setup" goes straight
to play. Where the player is (:class:`SetupProgress`) is journaled by the kiosk as a
game note after every tap (:class:`kiosk.teaching.progress.ProgressStore`).

No Kivy: the guided-setup screen shows a :class:`GuidedSetupView`, the tests read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pydantic import BaseModel

from companion.dice import DiceRequest, Roll
from companion.highlights import Highlight, Role
from companion.session import Session
from companion.views import BoardView as RulesBoard
from companion.views import PanelView
from firmware_bridge.leds.palette import KOLOSSUS_COLOUR_NAMES, palette_for_board
from kiosk.presenters.board import BoardView, board_view, geometry_of
from kiosk.presenters.devices import DeviceStatus, unused_roll
from kiosk.presenters.island import dressing
from kiosk.presenters.looks import look_for
from kiosk.teaching import SetupStepText, Teaching
from kiosk.teaching.examples import cell_matches
from kiosk.teaching.progress import SETUP_START, SetupProgress


@dataclass(frozen=True)
class SetupStep:
    """One step as the table sees it: words filled in, the cells to light."""

    title: str
    text: str
    ruling: str
    highlights: tuple[Highlight, ...] = ()


@dataclass(frozen=True)
class GuidedSetupView:
    """The guided-setup screen: where in the setup, what to do, the rule behind it."""

    heading: str
    progress: str  # "Step 3 of 9"
    title: str
    text: str
    ruling: str  # "K-R02 · Where your warband starts"
    next: str  # "Next: Bob's Colossus" ("" on the last step)
    can_back: bool
    done_label: str
    lit: int  # how many cells the LEDs and the board light for this step
    notice: str = ""  # why a die read during the setup was not used


def _owner_colour(name: str | None) -> int | None:
    """The LED palette's index of a warband colour name (the Kolossus palette's order)."""
    return KOLOSSUS_COLOUR_NAMES.index(name) if name in KOLOSSUS_COLOUR_NAMES else None


def _lit(
    board: RulesBoard | None,
    light: tuple[str, ...],
    *,
    seat: int | None = None,
    colour: str | None = None,
) -> tuple[Highlight, ...]:
    """The cells ``light`` names on the initial board, in their owner's colour: only the
    pieces of ``seat`` or of the warband ``colour`` when the step is theirs."""
    if board is None or not light:
        return ()
    player = seat if colour is None else _owner_colour(colour)
    out: list[Highlight] = []
    for cell in board.cells:
        pieces = [
            p
            for p in cell.pieces
            if (seat is None or p.player == seat) and (colour is None or p.colour == colour)
        ]
        owned = seat is not None or colour is not None
        kinds = [p.kind for p in pieces] if owned else [p.kind for p in cell.pieces]
        selectors = [s for s in light if not (owned and not s.startswith("piece:"))]
        if any(cell_matches(s, cell.terrain, kinds) for s in selectors):
            out.append(Highlight(cell=cell.cell, role=Role.SETUP, player=player))
    return tuple(out)


def _seat_fields(panel: PanelView, seat: int) -> dict[str, str]:
    """``{name}`` and every facts-panel row of ``seat`` (``{Acolytes}``, ``{Runes}``)."""
    fields = {row.label: row.values[seat] for row in panel.rows if seat < len(row.values)}
    fields["name"] = panel.columns[seat] if seat < len(panel.columns) else ""
    return fields


def _colours(board: RulesBoard | None, light: tuple[str, ...]) -> list[tuple[str, int | None]]:
    """(warband colour, its seat) of the pieces ``light`` names, in the palette's order."""
    found: dict[str, int | None] = {}
    kinds = {s.partition(":")[2] for s in light if s.startswith("piece:")}
    for cell in board.cells if board is not None else ():
        for piece in cell.pieces:
            if piece.colour is not None and piece.kind in kinds:
                found.setdefault(piece.colour, piece.player)
    return sorted(found.items(), key=lambda item: _owner_colour(item[0]) or 0)


def _kept(step: SetupStepText, options: Mapping[str, object]) -> bool:
    """True when the game's options keep the step (``when = { chapter = [2, 3] }``)."""
    return all(options.get(name) in values for name, values in step.when.items())


def setup_steps(
    teaching: Teaching,
    game: str,
    panel: PanelView,
    board: RulesBoard | None,
    options: BaseModel | Mapping[str, object],
) -> tuple[SetupStep, ...]:
    """The game's setup steps for this table: its seats, its options, its initial board."""
    file = teaching.files.get(game)
    if file is None:
        return ()
    chosen = options.model_dump() if isinstance(options, BaseModel) else dict(options)
    first_seat = panel.turn if panel.turn is not None else 0
    shared = {**_seat_fields(panel, first_seat), "first": panel.columns[first_seat]}
    steps: list[SetupStep] = []
    for step in file.setup:
        if not _kept(step, chosen):
            continue
        if step.each == "seat":
            for seat in range(len(panel.columns)):
                fields = {**shared, **_seat_fields(panel, seat)}
                lit = _lit(board, step.light, seat=seat)
                steps.append(_filled(step, fields, lit))
        elif step.each == "colour":
            for colour, owner in _colours(board, step.light):
                seat_fields = _seat_fields(panel, owner) if owner is not None else {}
                fields = {**shared, **seat_fields, "colour": colour.capitalize()}
                steps.append(_filled(step, fields, _lit(board, step.light, colour=colour)))
        else:
            steps.append(_filled(step, shared, _lit(board, step.light)))
    return tuple(steps)


def _filled(
    step: SetupStepText, fields: Mapping[str, str], lit: tuple[Highlight, ...]
) -> SetupStep:
    return SetupStep(
        title=step.title.format_map(fields),
        text=step.text.format_map(fields),
        ruling=step.ruling or "",
        highlights=lit,
    )


class GuidedSetupPresenter:
    """One game's guided setup: the current step, Back, Done and Skip.

    ``on_step`` is told the new :class:`SetupProgress` after every tap, so the kiosk can
    journal it before the screen changes (a power cut resumes at the same step).
    """

    def __init__(
        self,
        session: Session,
        teaching: Teaching,
        progress: SetupProgress = SETUP_START,
        on_step: Callable[[SetupProgress], None] | None = None,
    ) -> None:
        rules, state = session.rules, session.state
        self.game = rules.name
        self.title = rules.title
        self.teaching = teaching
        self._board = rules.board(state)
        self.steps = setup_steps(
            teaching, rules.name, rules.panel(state), self._board, session.options
        )
        self.palette = palette_for_board(rules.board_kind)
        self._geometry = None if self._board is None else geometry_of(self._board)
        self._dressing = (
            None
            if self._board is None
            else dressing(self._board, look_for(rules.name).seat_colours, state.players)
        )
        last = max(0, len(self.steps) - 1)
        self.progress = SetupProgress(step=min(progress.step, last), finished=progress.finished)
        self.on_step = on_step
        #: The table's devices reach the setup, not the game behind it (a die rolled
        #: while the pieces are being placed is not a move: see ``electronic_roll``).
        self.notice = ""
        self.devices: tuple[DeviceStatus, ...] = ()
        #: Called after a change the hardware made (the screen redraws).
        self.on_change: Callable[[], None] | None = None

    @property
    def finished(self) -> bool:
        return self.progress.finished or not self.steps

    def current(self) -> SetupStep | None:
        return None if self.finished else self.steps[self.progress.step]

    def highlights(self) -> tuple[Highlight, ...]:
        """What the LEDs light now: the current step's cells (nothing once finished)."""
        step = self.current()
        return () if step is None else step.highlights

    def view(self) -> GuidedSetupView:
        step = (self.current() or self.steps[-1]) if self.steps else None
        if step is None:
            return GuidedSetupView(
                self._heading(), "", "Nothing to set up", "", "", "", False, "", 0
            )
        text = self.teaching.text(step.ruling)
        number, count = self.progress.step + 1, len(self.steps)
        return GuidedSetupView(
            heading=self._heading(),
            progress=f"Step {number} of {count}",
            title=step.title,
            text=step.text,
            ruling=f"{step.ruling} · {text.title}" if text is not None else step.ruling,
            next=f"Next: {self.steps[number].title}" if number < count else "Next: play",
            can_back=self.progress.step > 0,
            done_label="Done: start playing" if number == count else "Done",
            lit=len(step.highlights),
            notice=self.notice,
        )

    def _heading(self) -> str:
        return f"Setting up {self.title}"

    def board_view(self) -> BoardView | None:
        """The on-screen board, lit like the LEDs (None for a card game)."""
        if self._geometry is None or self._dressing is None:
            return None
        base, decorations = self._dressing
        return board_view(
            self.palette, self._geometry, self.highlights(), decorations=decorations, base=base
        )

    # --- intents: one tap each --------------------------------------------------------

    def done(self) -> None:
        """The current step is on the table: the next one, or play after the last."""
        if self.finished:
            return
        step = self.progress.step + 1
        if step >= len(self.steps):
            self._move(SetupProgress(step=self.progress.step, finished=True))
        else:
            self._move(SetupProgress(step=step))

    def back(self) -> None:
        if not self.finished and self.progress.step > 0:
            self._move(SetupProgress(step=self.progress.step - 1))

    def skip(self) -> None:
        """Players who know the setup go straight to play."""
        if not self.finished:
            self._move(SetupProgress(step=self.progress.step, finished=True))

    def _move(self, progress: SetupProgress) -> None:
        self.notice = ""
        self.progress = progress
        if self.on_step is not None:
            self.on_step(progress)

    # --- the table's devices while the setup is on screen (kiosk.hardware.RollTarget) ---

    def dice_request(self) -> DiceRequest | None:
        """No roll is asked for while the table is being set up."""
        return None

    def electronic_roll(self, roll: Roll) -> bool:
        """A die read during the setup is not played: the game asks for its dice once
        play starts, and a roll played now could not be seen on the screen."""
        self.notice = unused_roll(roll, "The game asks for dice when play starts.")
        self.changed()
        return False

    def set_devices(self, statuses: tuple[DeviceStatus, ...]) -> None:
        self.devices = statuses

    def note(self, text: str) -> None:
        """A partial roll's note (never: no dice are wanted during the setup)."""
        self.notice = text

    def changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
