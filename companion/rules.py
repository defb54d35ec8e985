"""The one contract every game implements (after python-chess's Board and OpenSpiel).

A game is data plus pure functions: :meth:`Rules.setup` makes the first state,
:meth:`Rules.apply` turns a state and an action into a new state and events or refuses
with a :class:`~companion.errors.RuleViolation` that names the ruling, and
:meth:`Rules.outcome` says when and how it ended. Everything that reaches the referee
from outside (protocol lines, journal rows, position files) is parsed here, in strict
JSON mode, so a wrong type is refused rather than coerced.
"""

from __future__ import annotations

import json
import types
import typing
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Generic

from pydantic import BaseModel, TypeAdapter, ValidationError
from typing_extensions import TypeVar

from companion.dice import DiceRequest, Roll
from companion.errors import InvalidAction, InvalidOptions, InvalidPosition, RuleViolation
from companion.events import Event
from companion.highlights import Highlight
from companion.model import Frozen
from companion.outcome import Outcome, ScoreSheet
from companion.rng import Rng
from companion.views import (
    NO_CELLS,
    ActionCells,
    BoardKind,
    BoardView,
    CardView,
    Cell,
    PanelView,
    Space,
    Square,
)


class ActionRole(StrEnum):
    """What an action is to the table's controls, whatever game it belongs to: the
    kiosk finds the "End turn" button's action, the dice panel's, the board's edge
    arrows and the forms that open by themselves by role, never by a game's names."""

    END_TURN = "end_turn"  # the table's "End turn" button plays it when legal
    END_PHASE = "end_phase"  # ... and this one when no END_TURN action is legal
    ROLL = "roll"  # answered by the dice panel, not listed in the menu
    REGION_MOVE = "region_move"  # shifts a line (``region`` and ``direction``): an edge arrow
    ENTRY = "entry"  # numbers read off the table: its form opens when it is all that is legal
    CORRECTION = "correction"  # a manual correction (RULINGS 0.2.1), listed by ``corrections``
    PLACE = "place"  # puts a new piece of the acting player's on the board


class GameState(Frozen):
    """Fields every game's state has: the players in seat order and the random stream."""

    players: tuple[str, ...]
    rng: Rng


# Each defaults to what every game's has, so ``Rules`` and ``Session`` alone name a game
# not known before it runs (one chosen by name): see :data:`AnyRules`.
StateT = TypeVar("StateT", bound=GameState, default=GameState)
ActionT = TypeVar("ActionT", bound=Frozen, default=Frozen)
OptionsT = TypeVar("OptionsT", bound=Frozen, default=Frozen)


def describe_validation_error(exc: ValidationError) -> str:
    """A short sentence from pydantic's error list: where it was wrong and why."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        message = err["msg"]
        if err["type"] == "union_tag_invalid":  # not pydantic's list of every action type
            message = f"no action is of type {err.get('ctx', {}).get('tag')!r}"
        parts.append(f"{where}: {message}")
    more = exc.error_count() - 3
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


MAX_NAME_LENGTH = 16
"""Characters in a player's name: what the kiosk's seat labels and score rows can show."""

_ZERO_WIDTH_JOINER = "\u200d"  # keeps emoji sequences such as 👩‍👩‍👧 whole, and only those
#: Letters that draw nothing: Hangul fillers, the Braille blank, Mongolian vowel separator.
#: Code points, not a string: no text of the app shows them (tests/kiosk/test_fonts.py).
_BLANK_LETTERS = frozenset(map(chr, (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E)))
#: Categories that draw nothing by themselves: marks, format characters, separators.
_INVISIBLE_CATEGORIES = ("Mn", "Me", "Cf", "Zs", "Zl", "Zp")


def _pictographic(ch: str) -> bool:
    """A character an emoji sequence joins: a symbol, or a modifier on one."""
    return unicodedata.category(ch) in ("So", "Sk") or 0x1F3FB <= ord(ch) <= 0x1F3FF  # skin tones


def _visible(ch: str) -> bool:
    return ch not in _BLANK_LETTERS and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES


def clean_player_name(name: str) -> str:
    """A name as it is stored, compared and shown: NFC, one space between words, without
    control or format characters (NUL, bidi overrides, zero-width spaces and joiners) that
    could hide or reorder text or make "Ann" and "Ann" + an invisible joiner two players.
    A zero-width joiner stays only inside an emoji sequence (between two pictographs,
    variation selectors allowed), where it draws one emoji from several."""
    text = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    for index, ch in enumerate(text):
        if ch == _ZERO_WIDTH_JOINER:
            before = next((c for c in reversed(kept) if c not in "\ufe0e\ufe0f"), "")
            after = next((c for c in text[index + 1 :] if c not in "\ufe0e\ufe0f"), "")
            if before and after and _pictographic(before) and _pictographic(after):
                kept.append(ch)
            continue
        if unicodedata.category(ch) not in ("Cc", "Cf", "Cs") or ch in "\t\n":
            kept.append(ch)
    return " ".join("".join(kept).split())


def looks_empty(name: str) -> bool:
    """True when a name draws nothing a player could read (only marks, blanks, fillers)."""
    return not any(_visible(ch) for ch in name)


def _as_json(data: object) -> str | bytes:
    if isinstance(data, str | bytes):
        return data
    if isinstance(data, BaseModel):
        return data.model_dump_json()
    return json.dumps(data)


class Rules(ABC, Generic[StateT, ActionT, OptionsT]):
    """The referee of one game. Stateless: every method is a pure function of its arguments."""

    name: ClassVar[str]  # registry key, e.g. "builders"
    title: ClassVar[str]  # what players call it
    seed_document: ClassVar[str]  # which rules document it follows, e.g. "004"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[int] = 1
    """Raised with every change that makes an old journal replay differently (a rules
    fix, a new field in the state). Each game records the version it started under; a
    resume under another version continues from the last saved position when the old
    actions no longer replay (docs/architecture.md, "Versioned replay")."""

    board_kind: ClassVar[BoardKind | None] = None
    """The kind of board the game is played on (None for card games): decides how a
    board is drawn and lit, so nothing outside the game asks which game it is."""

    options_model: type[OptionsT]
    state_model: type[StateT]
    action_type: ClassVar[Any]
    """The game's actions: an ``Annotated`` union of models told apart by ``type``."""
    action_adapter: TypeAdapter[ActionT]  # made from ``action_type`` for each game

    #: ``type`` tag → action model, read from ``action_type`` once for each game: menus
    #: and forms ask for a family's title on every touch.
    _action_models: ClassVar[dict[str, type[BaseModel]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "action_type" in cls.__dict__:
            cls.action_adapter = TypeAdapter(cls.action_type)
            cls._action_models = tagged_models(cls.action_type)

    def action_models(self) -> dict[str, type[BaseModel]]:
        """``type`` tag → action model (what forms are built from), read from the union
        (a copy: the caller may change it)."""
        return dict(self._action_models)

    # --- the game itself -------------------------------------------------------------

    @abstractmethod
    def setup(self, players: Sequence[str], options: OptionsT, seed: int) -> StateT:
        """The state before the first action. Raise InvalidOptions for a bad player count."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Iterable[ActionT]:
        """Every legal action now (lazily where the space is large).

        Actions whose parameters are open amounts (a trade's size, a value read off a
        card) are listed up to a bound the game documents; :meth:`apply` accepts the
        whole legal range. Empty once the game is over.
        """

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> tuple[StateT, tuple[Event, ...]]:
        """The new state and what happened, or a RuleViolation naming the ruling."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def current_player(self, state: StateT) -> int | None:
        """The seat whose decision the game waits for (None once over)."""

    @abstractmethod
    def status(self, state: StateT) -> str:
        """One line for the header: round or turn, whose turn, what is asked."""

    @abstractmethod
    def scores(self, state: StateT) -> ScoreSheet:
        """The score history so far (per round, turn or Age)."""

    def dice_request(self, state: StateT) -> DiceRequest | None:
        """The dice the game waits for, if any. Card games without dice keep the default."""
        return None

    def highlights(self, state: StateT, focus: str | None = None) -> tuple[Highlight, ...]:
        """What the board should show now; ``focus`` is a cell the player selected."""
        return ()

    # --- views: what a screen, a strip or a sensing board reads (companion.views) -------

    def panel(self, state: StateT) -> PanelView:
        """The facts panel: per-player rows, shared facts, whose turn, the phase.

        The default shows the players and the status line; every game says more.
        """
        return PanelView(
            columns=tuple(state.players),
            turn=self.current_player(state),
            phase=self.status(state),
        )

    def board(self, state: StateT) -> BoardView | None:
        """Every cell with its terrain, level, pieces and controller (None: no board)."""
        return None

    def cards(self, state: StateT) -> tuple[CardView, ...]:
        """The cards, piles and trackers a card game lays out, to touch on a screen
        (none for board games: their board is what is touched)."""
        return ()

    def parse_cell(self, state: StateT, key: str) -> Cell | None:
        """The cell ``key`` names on this game's board now — a :class:`Square` of the
        grid, a :class:`Space` of the island — or None when it names none (and always
        for card games). Read off :meth:`board`, so a cell exists exactly when the board
        view shows it."""
        board = self.board(state)
        if board is None or board.cell(key) is None:
            return None
        if board.kind == "grid":
            side = 1 + int(max(max(c.x, c.y) for c in board.cells))
            return Square.parse(key, side)
        return Space(key)

    def action_cells(self, state: StateT, action: ActionT) -> ActionCells:
        """The cells ``action`` starts on, ends on and touches (none for actions off the
        board; a card game's cells are the keys of its :meth:`cards`). The one place a
        game says where its actions happen: the kiosk's taps and tiles, the highlights'
        agreement test and a sensing board all read it."""
        return NO_CELLS

    def legal_actions_at(
        self,
        state: StateT,
        *,
        origin: str | None = None,
        target: str | None = None,
        touching: str | None = None,
    ) -> Iterator[ActionT]:
        """The legal actions that start on ``origin``, end on ``target`` and touch
        ``touching`` (each None = any), in :meth:`legal_actions` order.

        After python-chess's ``generate_legal_moves(from_mask, to_mask)``. The default
        filters :meth:`legal_actions` through :meth:`action_cells`; a game with many
        actions generates only the ones asked for, and a contract test checks that both
        ways agree.
        """
        for action in self.legal_actions(state):
            if origin is None and target is None and touching is None:
                yield action
                continue
            cells = self.action_cells(state, action)
            if origin is not None and cells.origin != origin:
                continue
            if target is not None and cells.target != target:
                continue
            if touching is not None and touching not in cells.touched:
                continue
            yield action

    def interest(self, state: StateT, action: ActionT) -> int:
        """How interesting ``action`` is for a bot (weight >= 1): captures, quakes, builds.

        Random play (property tests, the shop demo) picks actions with these weights, so
        a game can make sure random play reaches its end.
        """
        return 1

    def corrections(self, state: StateT) -> tuple[ActionT, ...]:
        """Templates of the manual corrections possible now (RULINGS 0.2.1).

        One per thing the table may overrule (a player's Runes, a tracker, a miniature),
        prefilled with the current values for a form to edit. Corrections are actions
        of the union that ``legal_actions`` never lists, so random play never picks one;
        :meth:`apply` validates them like any action. See ``companion.games.corrections``.
        Empty once the game is over, and for games without corrections.
        """
        return ()

    def check_position(self, state: StateT) -> None:
        """Raise InvalidPosition if a loaded state breaks an invariant the models cannot."""

    # --- parsing and dumping (shared by the protocol, the journal and the kiosk) -------

    def parse_action(self, data: object) -> ActionT:
        """An action from a dict, JSON text or an action value; InvalidAction if malformed."""
        try:
            return self.action_adapter.validate_json(_as_json(data), strict=True)
        except ValidationError as exc:
            raise InvalidAction(
                f"Not a {self.title} action: {describe_validation_error(exc)}"
            ) from None
        except (TypeError, ValueError) as exc:
            raise InvalidAction(f"Not a {self.title} action: {exc}") from None

    def dump_action(self, action: ActionT) -> dict[str, Any]:
        result: dict[str, Any] = self.action_adapter.dump_python(action, mode="json")
        return result

    def parse_options(self, data: Mapping[str, Any] | None) -> OptionsT:
        try:
            return self.options_model.model_validate_json(_as_json(dict(data or {})), strict=True)
        except ValidationError as exc:
            raise InvalidOptions(
                f"Bad {self.title} options: {describe_validation_error(exc)}"
            ) from None

    def dump_position(self, state: StateT) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_position(self, data: object) -> StateT:
        """A state from a dump; validated by the model and by :meth:`check_position`."""
        try:
            state = self.state_model.model_validate_json(_as_json(data), strict=True)
        except ValidationError as exc:
            raise InvalidPosition(
                f"Not a {self.title} position: {describe_validation_error(exc)}"
            ) from None
        except (TypeError, ValueError) as exc:
            raise InvalidPosition(f"Not a {self.title} position: {exc}") from None
        self.check_position(state)
        return state

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        """Names in seat order, checked against the player count; InvalidOptions otherwise."""
        names = tuple(clean_player_name(str(p)) for p in players)
        if not self.min_players <= len(names) <= self.max_players:
            span = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players}–{self.max_players}"
            )
            noun = "player" if self.max_players == 1 else "players"
            raise InvalidOptions(f"{self.title} is for {span} {noun}, not {len(names)}.")
        for seat, name in enumerate(names, start=1):
            if looks_empty(name):
                raise InvalidOptions(
                    f"Player {seat} needs a name: invisible characters alone are no name."
                    if name
                    else "Every player needs a name."
                )
        for seat, name in enumerate(names, start=1):
            if len(name) > MAX_NAME_LENGTH:
                raise InvalidOptions(
                    f"Player {seat}'s name has {len(name)} characters; "
                    f"at most {MAX_NAME_LENGTH} fit the table's screen."
                )
        if len(set(names)) != len(names):
            raise InvalidOptions("Two players have the same name.")
        return names

    def is_legal(self, state: StateT, action: ActionT) -> bool:
        try:
            self.apply(state, action)
        except RuleViolation:
            return False
        return True

    # --- words: what players read of an action (each game's phrasebook) ---------------

    def describe(self, state: StateT, action: ActionT) -> str:
        """``action`` in the players' words, the one text every place that shows it uses
        (menus, form titles, the log, fix steps, lessons, "Why?", the referee's ``legal``
        text, exports): a verb, its objects, cells as :meth:`cell_words` says them, counts
        spelled by :func:`companion.words.count`. Each game writes its phrasebook; this
        default says the family's title alone."""
        return self.family_title(str(getattr(action, "type", "")))

    def family_title(self, action_type: str) -> str:
        """The verb of a family of actions ("Move", "Swap two miniatures"): a menu's
        heading and a form's title. Read from the action model's ``title`` (its
        ``model_config``), so the words sit where the game declares the action."""
        model = self._action_models.get(action_type)
        title = model.model_config.get("title") if model is not None else None
        return title or action_type.replace("_", " ").strip().capitalize()

    def field_words(self, action_type: str, field: str) -> str:
        """What players call one field of a family's form ("Class", "Runes"): the field's
        ``title`` in its action model (pydantic ``Field(title=...)``)."""
        model = self._action_models.get(action_type)
        info = model.model_fields.get(field) if model is not None else None
        title = info.title if info is not None else None
        return title or field.replace("_", " ").strip().capitalize()

    def value_words(self, state: StateT, action_type: str, field: str, value: object) -> str:
        """One field's value as players say it: a class letter's name, a cell in the
        board's words, a seat as its player's name. The default says it as it is."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def cell_words(self, state: StateT, cell: str) -> str:
        """A cell key in the board's own coordinate words, the one style of its board
        (a square as numbered on the grid, an island space by its short label)."""
        return cell

    def stays(self, state: StateT, action: ActionT) -> bool:
        """True for a move that leaves everything where it stands (stopping early,
        RULINGS 1.5): menus list it last and say "Stay on …"."""
        return False

    # --- roles: what the table's controls make of an action ---------------------------

    def action_role(self, action_type: str) -> ActionRole | None:
        """The role of the actions of ``action_type`` (None: an ordinary action). The
        roll is every game's; each game names its others."""
        return ActionRole.ROLL if action_type == ROLL_TYPE else None


def tagged_models(annotation: Any) -> dict[str, type[BaseModel]]:
    """The models of a union (``Annotated`` or not, nested unions flattened) by the
    default of their ``type`` field."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return tagged_models(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        found: dict[str, type[BaseModel]] = {}
        for member in typing.get_args(annotation):
            found.update(tagged_models(member))
        return found
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        field = annotation.model_fields.get("type")
        if field is not None and isinstance(field.default, str):
            return {field.default: annotation}
    return {}


def refuse(message: str, ruling: str | None = None) -> RuleViolation:
    """Shorthand for games: ``raise refuse("...", "BC-R09")``."""
    return RuleViolation(message, ruling=ruling)


#: The ``type`` of :class:`~companion.dice.Roll`, the one action every game with dice has.
ROLL_TYPE: str = Roll.model_fields["type"].default

AnyRules = Rules[GameState, Frozen, Frozen]
"""The rules of a game known only when the program runs (chosen by name, read from the
journal): its state, actions and options typed as what every game's are. The state a
session of it holds comes from these same rules, so handing it back to them is sound."""

__all__ = [
    "MAX_NAME_LENGTH",
    "ROLL_TYPE",
    "ActionRole",
    "ActionT",
    "AnyRules",
    "GameState",
    "OptionsT",
    "Rules",
    "StateT",
    "clean_player_name",
    "describe_validation_error",
    "looks_empty",
    "refuse",
    "tagged_models",
]
