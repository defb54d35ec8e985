"""The game-facts panel: a per-player table plus shared facts, for any game.

Each game can register a function that turns its state into a :class:`GamePanel`
(runes and hand sizes in Builders, trackers in Colossus solo …). Games without one get
a generic table built from the state's per-player tuples, so every game is playable and
readable from the first day its module exists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from companion.rules import AnyRules
from kiosk.presenters.common import RGB, humanize


@dataclass(frozen=True)
class PanelRow:
    label: str
    values: tuple[str, ...]  # one per player


@dataclass(frozen=True)
class GamePanel:
    columns: tuple[str, ...]  # player names
    rows: tuple[PanelRow, ...] = ()
    facts: tuple[str, ...] = ()  # shared lines: "Deck: 23 cards left", "Round 3 of 10"
    highlight_column: int | None = None  # the player whose turn it is
    turn_colour: RGB | None = None  # the header swatch, when the game knows better than seats
    extra: dict[str, Any] = field(default_factory=dict)  # game-specific data for a widget


PanelBuilder = Callable[[AnyRules, Any], GamePanel]

_BUILDERS: dict[str, PanelBuilder] = {}

_SKIP_FIELDS = {"players", "rng", "history", "options"}


def register_panel(game: str) -> Callable[[PanelBuilder], PanelBuilder]:
    def wrap(builder: PanelBuilder) -> PanelBuilder:
        _BUILDERS[game] = builder
        return builder

    return wrap


def cell_text(value: Any) -> str:
    """A compact cell: numbers as is, collections by their size, models by a count."""
    if isinstance(value, bool):
        return "yes" if value else "—"
    if isinstance(value, int | float | str):
        return str(value)
    if value is None:
        return "—"
    if isinstance(value, tuple | list | set | frozenset | dict):
        return f"{len(value)}"
    if isinstance(value, BaseModel):
        numbers = [v for v in value.__dict__.values() if isinstance(v, int)]
        return "/".join(str(n) for n in numbers[:3]) or "•"
    return str(value)


def generic_panel(rules: AnyRules, state: Any) -> GamePanel:
    """Rows from every state field that is a tuple with one entry per player."""
    players: tuple[str, ...] = tuple(state.players)
    rows: list[PanelRow] = []
    facts: list[str] = []
    for name, value in state.__dict__.items():
        if name in _SKIP_FIELDS or name.startswith("_"):
            continue
        if isinstance(value, tuple) and len(value) == len(players) and len(players) > 1:
            rows.append(PanelRow(label=humanize(name), values=tuple(cell_text(v) for v in value)))
        elif isinstance(value, int | str) and not isinstance(value, bool) and len(facts) < 6:
            facts.append(f"{humanize(name)}: {value}")
        elif isinstance(value, tuple) and len(facts) < 6 and len(players) == 1 and value:
            facts.append(f"{humanize(name)}: {cell_text(value)}")
    return GamePanel(
        columns=players,
        rows=tuple(rows[:8]),
        facts=tuple(facts),
        highlight_column=rules.current_player(state),
    )


def game_panel(rules: AnyRules, state: Any) -> GamePanel:
    builder = _BUILDERS.get(rules.name)
    if builder is None:
        return generic_panel(rules, state)
    return builder(rules, state)
