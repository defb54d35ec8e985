"""The setup screen: players (names, seats, colours) and the game's options.

Options are rendered generically from the game's pydantic options model: a ``bool``
becomes a switch, a ``Literal`` a row of choices, an ``int`` a stepper within the
field's bounds; anything else is shown read-only. Every text is the one the option
declares (companion/games/options.py): its label, its value and choices in players'
words (seats as the players' names), its one-line description on demand with the rule as
printed and the ruling it follows. Options come in their groups; the house rules (other
readings of the rule book) are folded under "More rules", which says whether the rules
are as printed and can set them back.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic.fields import FieldInfo

from companion.errors import RefereeError
from companion.games.options import GROUP_TITLES, OptionGroup, OptionText, option_text
from companion.journal import Journal
from companion.rules import MAX_NAME_LENGTH, AnyRules, clean_player_name
from companion.session import Session
from kiosk.presenters.common import RGB, Banner, humanize, int_bounds
from kiosk.presenters.companion_seats import LEVEL_WORDS, LEVELS, CompanionSeats, plays
from kiosk.presenters.looks import look_for

if TYPE_CHECKING:
    from companion.bots.core import Level

OptionKind = Literal["switch", "choice", "stepper", "list", "fixed"]


@dataclass(frozen=True)
class ElementView:
    """One entry of a tuple option (a corner's colour, a corner's player)."""

    index: int
    label: str
    value: object
    choices: tuple[object, ...]
    choice_labels: tuple[str, ...]


@dataclass(frozen=True)
class OptionView:
    name: str
    label: str
    kind: OptionKind
    value: object  # the option's value: a switch's bool, a choice, a number, a tuple …
    value_text: str
    choices: tuple[object, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    ruling: str | None = None
    description: str = ""
    changed: bool = False  # differs from the ruling's default
    elements: tuple[ElementView, ...] = ()  # kind "list": one choice per entry
    automatic: bool = False  # kind "list" with None allowed: the game decides (the default)
    optional: bool = False  # kind "list": None (automatic) is allowed
    choice_labels: tuple[str, ...] = ()  # kind "choice": each choice in players' words
    group: OptionGroup | None = None
    house_rule: bool = False  # another reading of the rule book: under "More rules"
    about: str = ""  # the description, the rule as printed (a house rule) and the ruling
    about_open: bool = False  # the player asked to read ``about``

    @property
    def can_decrease(self) -> bool:
        """A stepper's − is on: no minimum, or the value above it."""
        low, value = self.minimum, self.value
        return low is None or (isinstance(value, int) and value > low)

    @property
    def can_increase(self) -> bool:
        """A stepper's + is on: no maximum, or the value below it."""
        high, value = self.maximum, self.value
        return high is None or (isinstance(value, int) and value < high)


@dataclass(frozen=True)
class OptionGroupView:
    """Options of one group (movement, mana …) under its heading."""

    key: str
    title: str
    options: tuple[OptionView, ...]


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    colour: RGB
    can_remove: bool
    #: "Person", or "Companion: Hard" for a seat the companion plays (its button's text).
    seat_text: str = "Person"
    #: The companion may take this seat (the game is one it plays).
    can_companion: bool = False


@dataclass(frozen=True)
class SetupView:
    game: str
    title: str
    players: tuple[PlayerRow, ...]
    can_add_player: bool
    options: tuple[OptionView, ...]  # every option, in the model's order
    banner: Banner | None
    player_hint: str
    groups: tuple[OptionGroupView, ...] = ()  # the first screen: the table's choices
    more: tuple[OptionGroupView, ...] = ()  # the house rules, shown when ``more_open``
    more_open: bool = False
    more_text: str = ""  # "More rules: as printed" or how many are changed
    house_rules_changed: int = 0
    teach: bool = False  # teach mode: a pause at each rule the first time it matters
    guided: bool = False  # guided setup: the physical setup step by step before play


def _literal_choices(annotation: object) -> tuple[object, ...] | None:
    if typing.get_origin(annotation) is Literal:
        return tuple(typing.get_args(annotation))
    return None


def _kind(annotation: object) -> OptionKind:
    if annotation is bool:
        return "switch"
    if _literal_choices(annotation) is not None:
        return "choice"
    if annotation is int:
        return "stepper"
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):  # Optional[...] etc. cannot be edited here
        return "fixed"
    return "fixed"


def _list_shape(annotation: object) -> tuple[tuple[object, ...] | None, int, bool] | None:
    """For ``tuple[Literal[...], ...]`` or ``tuple[int, ...]`` (fixed length, maybe
    Optional): (element choices or None for seats, length, optional)."""
    optional = False
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            return None
        annotation, optional = args[0], True
    if typing.get_origin(annotation) is not tuple:
        return None
    items = typing.get_args(annotation)
    if not items or Ellipsis in items:
        return None
    if all(a is int for a in items):
        return None, len(items), optional
    choices = [_literal_choices(a) for a in items]
    if all(c is not None and c == choices[0] for c in choices):
        return choices[0], len(items), optional
    return None


def _joined(items: list[str]) -> str:
    """``["3", "2", "1", "0"]`` → ``"3, 2, 1 and 0"``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def value_words(text: OptionText, value: object, names: tuple[str, ...]) -> str:
    """An option's value (or one of its choices) as players say it: the words the option
    declares, a seat as the player's name, a list as a sentence; never a stored value."""
    if isinstance(value, tuple):
        if not value:
            return "None chosen"
        return _joined([value_words(text, item, names) for item in value])
    if text.seats and isinstance(value, int) and not isinstance(value, bool):
        return names[value] if 0 <= value < len(names) else f"Seat {value + 1}"
    if value is None or isinstance(value, str | int | bool):
        said = text.word(value)
        if said is not None:
            return said
    if isinstance(value, bool):
        return "On" if value else "Off"
    if value is None:
        return "Automatic"
    if isinstance(value, str):
        return humanize(value)
    if isinstance(value, int):
        return str(value)
    return "Custom, from a file"


def _about(text: OptionText, default: object, names: tuple[str, ...]) -> str:
    """The description, the rule as printed (a house rule's default), the ruling."""
    parts = [text.description.rstrip(".") + "."] if text.description else []
    if text.house_rule:
        parts.append(f"As printed: {value_words(text, default, names)}.")
    if text.ruling:
        parts.append(f"Ruling {text.ruling}.")
    return " ".join(parts)


def _grouped(options: Iterable[OptionView]) -> tuple[OptionGroupView, ...]:
    """Options under their groups' headings, the groups in their declared order (an
    option of no group, a test game's, under "Options" at the end)."""
    by_group: dict[OptionGroup | None, list[OptionView]] = {}
    for option in options:
        by_group.setdefault(option.group, []).append(option)
    order: list[OptionGroup | None] = [*GROUP_TITLES, None]
    return tuple(
        OptionGroupView(
            key=key or "options",
            title=GROUP_TITLES[key] if key else "Options",
            options=tuple(by_group[key]),
        )
        for key in order
        if key in by_group
    )


def seat_colours(game: str) -> tuple[RGB, ...]:
    return look_for(game).seat_colours


class SetupPresenter:
    """Collects players and options, then starts a journaled :class:`Session`."""

    def __init__(self, rules: AnyRules, names: tuple[str, ...] = ()) -> None:
        self.rules = rules
        count = max(rules.min_players, min(2, rules.max_players))
        default = tuple(f"Player {i + 1}" for i in range(count))
        self.names: list[str] = list(names or default)
        #: Each seat's player: None a person, else the companion at that level.
        self.levels: list[Level | None] = [None] * len(self.names)
        self.values: dict[str, object] = {}
        self.banner: Banner | None = None
        #: Teach mode: pause at each rule the first time it matters (not a rules option).
        self.teach = False
        #: Guided setup: the table's setup step by step, on screen and on the LEDs,
        #: before play (kiosk/presenters/guided_setup.py). Off unless chosen.
        self.guided = False
        #: "More rules" opened: the house rules shown.
        self.more_open = False
        #: Options whose description the player opened.
        self.about: set[str] = set()

    # --- players ----------------------------------------------------------------------

    def add_player(self) -> None:
        self._seat_levels()
        if len(self.names) < self.rules.max_players:
            taken = set(self.names)
            number = len(self.names) + 1
            while f"Player {number}" in taken:
                number += 1
            self.names.append(f"Player {number}")
            self.levels.append(None)

    def _seat_levels(self) -> list[Level | None]:
        """``levels`` as long as ``names`` (a caller may set the names whole: the new
        seats are people's)."""
        count = len(self.names)
        self.levels[:] = [*self.levels[:count], *[None] * (count - len(self.levels))]
        return self.levels

    def remove_player(self, seat: int) -> None:
        self._seat_levels()
        if len(self.names) > self.rules.min_players and 0 <= seat < len(self.names):
            del self.names[seat]
            del self.levels[seat]

    def rename(self, seat: int, name: str) -> None:
        if 0 <= seat < len(self.names):
            self.names[seat] = clean_player_name(name)[:MAX_NAME_LENGTH]

    def move_up(self, seat: int) -> None:
        """Swap a player with the seat before: seat order is turn order (and colour)."""
        self._seat_levels()
        if 0 < seat < len(self.names):
            self.names[seat - 1], self.names[seat] = self.names[seat], self.names[seat - 1]
            self.levels[seat - 1], self.levels[seat] = self.levels[seat], self.levels[seat - 1]

    def cycle_seat(self, seat: int) -> None:
        """A seat's player, one tap at a time: a person, then the companion at Easy,
        Medium, Hard, then a person again. A seat with the name Setup gave it ("Player
        2") is renamed "Companion" (numbered when there are several) and back."""
        if not plays(self.rules.name) or not 0 <= seat < len(self.names):
            return
        level = self._seat_levels()[seat]
        following = (None, *LEVELS)
        self.levels[seat] = following[(following.index(level) + 1) % len(following)]
        self._default_name(seat, "Player" if self.levels[seat] is None else "Companion")

    def _default_name(self, seat: int, kind: str) -> None:
        """Rename ``seat`` to the first free default name of ``kind`` ("Companion",
        "Companion 2"; "Player 3") if its name is the other kind's default."""
        words = self.names[seat].split(" ")
        was = "Player" if kind == "Companion" else "Companion"
        if words[0] != was or len(words) > 2 or not all(w.isdigit() for w in words[1:]):
            return  # a name someone typed stays
        taken = set(self.names[:seat] + self.names[seat + 1 :])
        first = [kind] if kind == "Companion" else [f"{kind} {seat + 1}"]
        candidates = [*first, *(f"{kind} {n}" for n in range(2, len(self.names) + 3))]
        self.names[seat] = next(c for c in candidates if c not in taken)

    def companion_seats(self) -> CompanionSeats:
        """The seats the companion plays, as the game journals them."""
        return CompanionSeats.of(
            {seat: level for seat, level in enumerate(self._seat_levels()) if level is not None}
        )

    # --- options ----------------------------------------------------------------------

    def _fields(self) -> dict[str, FieldInfo]:
        fields: dict[str, FieldInfo] = self.rules.options_model.model_fields
        return fields

    def value(self, name: str) -> object:
        if name in self.values:
            return self.values[name]
        default: object = self._fields()[name].get_default(call_default_factory=True)
        return default

    def toggle(self, name: str) -> None:
        """A switch flips; an optional list option flips between automatic and by hand."""
        info = self._fields()[name]
        if _kind(info.annotation) == "switch":
            self.values[name] = not bool(self.value(name))
            return
        shape = _list_shape(info.annotation)
        if shape is not None and shape[2]:
            if self.value(name) is None:
                choices, length, _ = shape
                start = tuple(
                    (i % len(self.names)) if choices is None else choices[i % len(choices)]
                    for i in range(length)
                )
                self.values[name] = start
            else:
                self.values[name] = None

    def choose_element(self, name: str, index: int, choice: object) -> None:
        """Set one entry of a tuple option (a corner's colour or player)."""
        shape = _list_shape(self._fields()[name].annotation)
        current = self.value(name)
        if shape is None or not isinstance(current, tuple) or not 0 <= index < len(current):
            return
        choices, _, _ = shape
        allowed = tuple(range(len(self.names))) if choices is None else choices
        if choice in allowed:
            updated = list(current)
            updated[index] = choice
            self.values[name] = tuple(updated)

    def _text(self, name: str) -> OptionText:
        return option_text(name, self._fields()[name])

    def _list_view(self, name: str, info: FieldInfo, value: object) -> tuple[ElementView, ...]:
        shape = _list_shape(info.annotation)
        if shape is None or not isinstance(value, tuple):
            return ()
        choices, length, _ = shape
        text = self._text(name)
        names = tuple(self.names)
        if choices is None:
            if not text.seats:
                return ()
            choices = tuple(range(len(self.names)))
        labels = tuple(value_words(text, c, names) for c in choices)
        entries = look_for(self.rules.name).element_labels.get(name) or tuple(
            f"#{i + 1}" for i in range(length)
        )
        return tuple(
            ElementView(index=i, label=entries[i], value=v, choices=choices, choice_labels=labels)
            for i, v in enumerate(value)
        )

    def _bounds(self, name: str) -> tuple[int | None, int | None]:
        """A stepper's bounds: the field's, and a seat's the seats there are."""
        low, high = int_bounds(self._fields()[name])
        if self._text(name).seats:
            last = len(self.names) - 1
            high = last if high is None else min(high, last)
        return low, high

    def choose(self, name: str, choice: object) -> None:
        choices = _literal_choices(self._fields()[name].annotation)
        if choices is not None and choice in choices:
            self.values[name] = choice

    def step(self, name: str, delta: int) -> None:
        info = self._fields()[name]
        if _kind(info.annotation) != "stepper":
            return
        low, high = self._bounds(name)
        current = self.value(name)
        if not isinstance(current, int):
            return
        new = current + delta
        if (low is None or new >= low) and (high is None or new <= high):
            self.values[name] = new

    def options_dict(self) -> dict[str, object]:
        return dict(self.values)

    def toggle_more(self) -> None:
        """Show or fold the house rules ("More rules")."""
        self.more_open = not self.more_open

    def toggle_about(self, name: str) -> None:
        """Show or hide an option's description."""
        self.about ^= {name}

    def as_printed(self) -> None:
        """Every house rule back to the rules as printed (the rulings' defaults); the
        table's choices (chapter, colours, seats …) stay."""
        for name, info in self._fields().items():
            if option_text(name, info).house_rule:
                self.values.pop(name, None)

    # --- view and start ---------------------------------------------------------------

    def view(self) -> SetupView:
        colours = seat_colours(self.rules.name)
        players = tuple(
            PlayerRow(
                seat=i,
                name=name,
                colour=colours[i % len(colours)],
                can_remove=len(self.names) > self.rules.min_players,
                seat_text="Person" if level is None else f"Companion: {LEVEL_WORDS[level]}",
                can_companion=plays(self.rules.name),
            )
            for i, (name, level) in enumerate(zip(self.names, self._seat_levels(), strict=True))
        )
        options = tuple(self._option_view(name, info) for name, info in self._fields().items())
        changed = sum(1 for o in options if o.house_rule and o.changed)
        more_text = "More rules: " + (
            f"{changed} changed from the rules as printed" if changed else "as printed"
        )
        low, high = self.rules.min_players, self.rules.max_players
        hint = f"{low} player" if low == high == 1 else f"{low}–{high} players"
        if low == high and low != 1:
            hint = f"{low} players"
        return SetupView(
            game=self.rules.name,
            title=self.rules.title,
            players=players,
            can_add_player=len(self.names) < high,
            options=options,
            banner=self.banner,
            player_hint=f"{hint}; seat order is turn order",
            groups=_grouped(o for o in options if not o.house_rule),
            more=_grouped(o for o in options if o.house_rule),
            more_open=self.more_open,
            more_text=more_text,
            house_rules_changed=changed,
            teach=self.teach,
            guided=self.guided,
        )

    def _option_view(self, name: str, info: FieldInfo) -> OptionView:
        text = option_text(name, info)
        names = tuple(self.names)
        kind = _kind(info.annotation)
        low, high = self._bounds(name)
        value = self.value(name)
        default = info.get_default(call_default_factory=True)
        shape = _list_shape(info.annotation)
        elements: tuple[ElementView, ...] = ()
        if shape is not None and (shape[0] is not None or text.seats):
            kind = "list"
            elements = self._list_view(name, info, value)
        choices = _literal_choices(info.annotation) or ()
        return OptionView(
            name=name,
            label=text.label if text.label != name else humanize(name),
            kind=kind,
            value=value,
            value_text=value_words(text, value, names),
            choices=choices,
            minimum=low,
            maximum=high,
            ruling=text.ruling,
            description=text.description,
            changed=value != default,
            elements=elements,
            automatic=kind == "list" and value is None,
            optional=kind == "list" and shape is not None and shape[2],
            choice_labels=tuple(value_words(text, c, names) for c in choices),
            group=text.group,
            house_rule=text.house_rule,
            about=_about(text, default, names),
            about_open=name in self.about,
        )

    def toggle_teach(self) -> None:
        self.teach = not self.teach

    def toggle_guided(self) -> None:
        self.guided = not self.guided

    def start(self, seed: int, journal: Journal | None) -> Session | None:
        """A new game with these players and options, or None with the refusal shown."""
        try:
            session = Session.new(
                self.rules,
                self.names,
                self.options_dict(),
                seed=seed,
                journal=journal,
                notes=self.companion_seats().notes(),
            )
        except RefereeError as exc:
            self.banner = Banner.from_error(exc)
            return None
        self.banner = None
        return session
