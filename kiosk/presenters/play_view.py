"""What the play screen shows: the view models the play presenter builds."""

from __future__ import annotations

from dataclasses import dataclass

from companion.views import PanelView
from kiosk.presenters.cards import Tile
from kiosk.presenters.common import RGB, Banner
from kiosk.presenters.forms import FormView
from kiosk.presenters.payloads import Payload
from kiosk.presenters.why import WhyView


@dataclass(frozen=True)
class DicePanel:
    label: str
    count: int
    sides: int
    player: str | None
    entered: tuple[int, ...]
    waiting_for_device: bool  # an electronic die is connected: it will answer
    faces: tuple[int, ...]  # the face buttons to tap

    @property
    def prompt(self) -> str:
        dice = "die" if self.count == 1 else "dice"
        who = f"{self.player}: " if self.player else ""
        if self.waiting_for_device:
            return f"{who}{self.label} — waiting for the electronic {dice}…"
        roll = f"roll {self.count}d{self.sides} and tap the faces"
        return f"{who}{self.label} — {roll}"


@dataclass(frozen=True)
class ActionGroup:
    key: str
    label: str
    count: int
    plays: bool = False  # one action: its button plays it (``label`` is the action's)
    payload: Payload | None = None  # the action it plays

    @property
    def button_text(self) -> str:
        """What the group's button says: the action it plays, or the list it opens."""
        return self.label if self.plays else f"{self.label} ({self.count})"


@dataclass(frozen=True)
class ActionChoice:
    label: str
    payload: Payload


@dataclass(frozen=True)
class LogLine:
    number: int
    text: str


@dataclass(frozen=True)
class FixStep:
    step: int  # the step number the LEDs show
    number: int  # 1-based position in the walk-through
    total: int
    lift: tuple[str, ...]  # where to lift from: lit red
    put: tuple[str, ...]  # where it goes: lit green
    instruction: str


@dataclass(frozen=True)
class PlayView:
    game: str
    title: str
    player: str  # whose turn ("" when over)
    player_seat: int | None
    status: str
    can_undo: bool
    can_redo: bool
    banner: Banner | None
    notice: str  # neutral feedback ("Took back: …")
    dice: DicePanel | None
    groups: tuple[ActionGroup, ...]
    group: str | None
    actions: tuple[ActionChoice, ...]
    more_actions: int  # listed actions not shown as buttons
    log: tuple[LogLine, ...]
    panel: PanelView
    turn_colour: RGB | None  # the header swatch: the side to move's colour
    fix: FixStep | None
    outcome: str | None
    winners: tuple[str, ...]
    devices: tuple[str, ...]
    focus: str | None
    form: FormView | None
    formable: bool  # the current group's amounts can be entered in a form
    why: WhyView | None = None  # the "Why?" panel, while open
    can_explain: bool = False  # the banner's ruling has a teaching text: "Why?" is offered
    teach: WhyView | None = None  # teach mode's pause: a rule the first time it matters
    can_teach: bool = False  # teach mode is off in a game still on: "Why?" offers it
    last_roll: str = ""  # the last dice read: value, who, purpose, source ("" before any)
    preview: str = ""  # a region move previewed on the board, in words
    tiles: tuple[Tile, ...] = ()  # a card game's cards, to touch (kiosk/presenters/cards.py)

    @property
    def form_label(self) -> str:
        """The menu row that opens the shown group's form: its family's title (the
        group's heading, ``Rules.family_title``), never its key, and what the form is for
        (amounts other than the listed ones)."""
        title = next((g.label for g in self.groups if g.key == self.group), "")
        return f"{title}: set the amounts yourself" if title else "Set the amounts yourself"
