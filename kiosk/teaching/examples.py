"""Executable examples: what keeps the teaching material from drifting from the referee.

Every teaching text (``[texts."K-R13"]``), every guided-setup step (``[[setup]]``) and
every lesson step (``[[steps]]``) carries at least one example: a position and a
question with the answer the referee must give. The examples are data beside the words
they back, in the same files:

- a **position** is a game set up (``players``, ``options``, ``seed``) and the actions
  played from there (``actions``: payloads as the protocol writes them, a roll as
  ``{ type = "roll", values = [4] }``, corrections to put pieces where the example needs
  them), or a dump (``dump``, :meth:`Rules.dump_position`). A teaching file names its
  positions (``[positions.guardian_blocked]``) and may build one on another
  (``base = "battle"``); ``"start"`` is the game's own start with its default options,
  and in a lesson ``"lesson"`` is the lesson's own game. A position may end with a
  ``patch``: fields of the state set directly (``{ round = 12, turn = 3 }``; a table is
  merged into the field's table, anything else replaces it), for what would take a
  long game to reach — checked like any loaded position (:meth:`Rules.load_position`);
- an example picks a position, may play a few more ``actions``, and asks one question:

  - ``act``: an action, answered ``"legal"`` or ``"refused K-R13"`` (the ruling the
    refusal names; ``"refused"`` when it names none);
  - ``count``: part of an action (``{ type = "quake_move" }``), answered with how many
    legal actions hold it;
  - ``cells``: a board selector (``"terrain:woods"``, ``"piece:warrior"``, ``"all"``,
    ``"control:0"``), answered with how many cells of the referee's board match;
  - ``fact``: a facts-panel row (answered with ``seat``'s value) or the start of one of
    its facts (answered with the whole fact);
  - ``lit``: what the board lights on ``cell`` while the player has selected ``focus``
    (``{ focus = "r2c3", cell = "r1c3" }``), answered with the roles, "+"-joined
    ("reachable"; "" when the cell stays dark);
  - ``dice = true``: the roll the game waits for, answered with its label ("" none);
  - ``turn = true``: whose turn it is, answered with the player's name ("" nobody's);
  - ``outcome = true``: how the game ended, "<reason>: <winners>" ("" while it goes on).

:func:`answer` asks the real referee; the test in ``tests/kiosk/test_teaching_examples.py``
runs every example and fails on a text or a step without one. No I/O, no Kivy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from companion.errors import RefereeError
from companion.games import get_rules
from companion.rules import AnyRules, GameState
from companion.views import BoardView

#: The name of a game's own start (default options), known without being declared.
START = "start"
#: In a lesson file: the lesson's own game (its players, options and seed).
LESSON = "lesson"
#: The answers an ``act`` question may expect.
LEGAL = "legal"
REFUSED = "refused"


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Position(_Strict):
    """A game set up and played to where an example needs it."""

    base: str | None = None
    players: tuple[Annotated[str, StringConstraints(min_length=1)], ...] = ()
    options: dict[str, object] = {}
    seed: int = Field(default=1, ge=0)
    actions: tuple[dict[str, object], ...] = ()
    dump: dict[str, object] | None = None
    patch: dict[str, object] = {}


class Lit(_Strict):
    """A question about the board's lights: ``cell``'s roles with ``focus`` selected."""

    focus: str
    cell: str


class Example(_Strict):
    """One question to the referee about one position, with the answer expected."""

    #: The game asked (the file's own game; needed in ``common.toml``, every game's).
    game: str | None = None
    position: str = START
    actions: tuple[dict[str, object], ...] = ()
    act: dict[str, object] | None = None
    count: dict[str, object] | None = None
    cells: str | None = None
    fact: str | None = None
    lit: Lit | None = None
    dice: bool = False
    turn: bool = False
    outcome: bool = False
    seat: int = Field(default=0, ge=0)
    expect: str | int

    @model_validator(mode="after")
    def _one_question(self) -> Example:
        questions = (self.act, self.count, self.cells, self.fact, self.lit)
        asked = [q for q in questions if q is not None]
        if len(asked) + self.dice + self.turn + self.outcome != 1:
            raise ValueError("ask exactly one of act, count, cells, fact, lit, dice, turn, outcome")
        if self.act is not None and not str(self.expect).startswith((LEGAL, REFUSED)):
            raise ValueError(f"an act expects {LEGAL!r} or {REFUSED!r} <ruling>")
        return self


class ExampleError(ValueError):
    """An example whose position cannot be reached (names the action refused)."""


def default_players(rules: AnyRules) -> tuple[str, ...]:
    """Two players (one for a solo game): the table an example assumes unless it says."""
    count = max(rules.min_players, min(2, rules.max_players))
    return ("Ann", "Bob", "Cleo", "Dov")[:count]


def reach(
    game: str,
    name: str,
    positions: Mapping[str, Position],
    built: dict[str, GameState] | None = None,
) -> GameState:
    """The state of position ``name`` of ``game`` (``built`` caches states by name)."""
    cache = {} if built is None else built
    if name in cache:
        return cache[name]
    rules = get_rules(game)
    if name == START and name not in positions:
        state = rules.setup(default_players(rules), rules.parse_options({}), 1)
    elif name not in positions:
        raise ExampleError(f"no position {name!r}")
    else:
        position = positions[name]
        if position.dump is not None:
            state = rules.load_position(position.dump)
        elif position.base is not None:
            state = reach(game, position.base, positions, cache)
        else:
            players = position.players or default_players(rules)
            state = rules.setup(players, rules.parse_options(position.options), position.seed)
        state = play(rules, state, position.actions, where=f"position {name}")
        if position.patch:
            state = patched(rules, state, position.patch, where=f"position {name}")
    cache[name] = state
    return state


def play(
    rules: AnyRules, state: GameState, actions: Iterable[Mapping[str, object]], where: str
) -> GameState:
    """``state`` after ``actions``; an :class:`ExampleError` naming the one refused."""
    for number, payload in enumerate(actions, start=1):
        try:
            state, _events = rules.apply(state, rules.parse_action(payload))
        except RefereeError as exc:
            raise ExampleError(f"{where}: action {number} {payload} refused: {exc}") from None
    return state


def patched(
    rules: AnyRules, state: GameState, patch: Mapping[str, object], where: str
) -> GameState:
    """``state`` with the fields of ``patch`` set (a table merged into the field's
    table); an :class:`ExampleError` when the result is no position the game allows."""
    try:
        return rules.load_position(merged(rules.dump_position(state), patch))
    except RefereeError as exc:
        raise ExampleError(f"{where}: the patch {dict(patch)} makes no position: {exc}") from None


def merged(data: Mapping[str, object], patch: Mapping[str, object]) -> dict[str, object]:
    """``data`` with ``patch``'s keys: tables merged key by key, other values replaced."""
    out = dict(data)
    for key, value in patch.items():
        old = out.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            out[key] = merged(old, value)
        else:
            out[key] = value
    return out


def answer(rules: AnyRules, state: GameState, example: Example) -> str | int:
    """What the referee answers to ``example``'s question in ``state``."""
    if example.act is not None:
        try:
            rules.apply(state, rules.parse_action(example.act))
        except RefereeError as exc:
            return f"{REFUSED} {exc.ruling}" if exc.ruling else REFUSED
        return LEGAL
    if example.count is not None:
        part = example.count
        return sum(
            1 for action in rules.legal_actions(state) if holds(rules.dump_action(action), part)
        )
    if example.cells is not None:
        return count_cells(rules.board(state), example.cells)
    if example.lit is not None:
        lit = example.lit
        roles = {h.role.value for h in rules.highlights(state, lit.focus) if h.cell == lit.cell}
        return "+".join(sorted(roles))
    if example.dice:
        request = rules.dice_request(state)
        return "" if request is None else request.label
    if example.turn:
        seat = rules.current_player(state)
        return "" if seat is None else str(state.players[seat])
    if example.outcome:
        result = rules.outcome(state)
        return "" if result is None else f"{result.reason}: {_names(state, result.winners)}"
    return _fact(rules, state, str(example.fact), example.seat)


def holds(payload: Mapping[str, object], part: Mapping[str, object]) -> bool:
    """True when ``payload`` has every key of ``part`` with the same value (a list and a
    tuple of the same items are the same)."""
    return all(_same(payload.get(key), value) for key, value in part.items())


def _same(left: object, right: object) -> bool:
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(map(_same, left, right))
    return bool(left == right)


def cell_matches(selector: str, terrain: str, kinds: Iterable[str]) -> bool:
    """True when a cell (its terrain, the kinds of piece on it) is one ``selector``
    names: ``"all"``, ``"terrain:woods"``, ``"piece:warrior"``."""
    if selector == "all":
        return True
    what, _, value = selector.partition(":")
    return terrain == value if what == "terrain" else value in kinds


def count_cells(board: BoardView | None, selector: str) -> int:
    """How many cells of ``board`` ``selector`` names (0 for a game without a board);
    besides :func:`cell_matches`'s, ``"control:1"`` names the cells seat 1 controls."""
    if board is None:
        return 0
    what, _, value = selector.partition(":")
    if what == "control":
        return sum(1 for cell in board.cells if str(cell.control) == value)
    return sum(
        1
        for cell in board.cells
        if cell_matches(selector, cell.terrain, [piece.kind for piece in cell.pieces])
    )


def _names(state: GameState, seats: Iterable[int]) -> str:
    """The winners' names, "and"-joined ("" for a draw or a lost solo game)."""
    return " and ".join(state.players[seat] for seat in seats)


def _fact(rules: AnyRules, state: GameState, label: str, seat: int) -> str:
    panel = rules.panel(state)
    for row in panel.rows:
        if row.label == label:
            return row.values[seat] if seat < len(row.values) else ""
    return next((fact for fact in panel.facts if fact.startswith(label)), "")


def check(
    game: str,
    example: Example,
    positions: Mapping[str, Position],
    built: dict[str, GameState] | None = None,
) -> str | None:
    """None when the referee gives ``example``'s expected answer, else what it gave."""
    rules = get_rules(game)
    try:
        state = reach(game, example.position, positions, built)
        state = play(rules, state, example.actions, where="the example's actions")
    except ExampleError as exc:
        return str(exc)
    got = answer(rules, state, example)
    return (
        None if got == example.expect else f"expected {example.expect!r}, the referee says {got!r}"
    )


__all__ = [
    "LEGAL",
    "LESSON",
    "REFUSED",
    "START",
    "Example",
    "ExampleError",
    "Lit",
    "Position",
    "answer",
    "cell_matches",
    "check",
    "count_cells",
    "default_players",
    "holds",
    "merged",
    "patched",
    "play",
    "reach",
]
