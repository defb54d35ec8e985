"""What the Kolossus handlers share: the game-log event, refusals, the status line,
the dice the rules ask for and the small state updates every handler makes.

The handlers (``invasion.py``, ``turns.py``, ``battle.py``, ``powers.py``, ``quake.py``,
``corrections.py``) are functions ``(state, action) -> (state, events)``; ``rules.py``
dispatches to them.
"""

from __future__ import annotations

from typing import Literal

from companion.dice import DiceRequest
from companion.events import Event
from companion.games.kolossus.content import CLASS_NAME, parse_cell
from companion.games.kolossus.model import ROUNDS, KolossusState, WarbandState
from companion.games.kolossus.position import current_warband, warband_name
from companion.rules import refuse
from companion.words import count

Handled = tuple[KolossusState, tuple[Event, ...]]
"""What a handler returns: the new state and the events of the log."""


class KolossusEvent(Event):
    """A game-log line about Kolossus (quake, beat, capture, mana, powers)."""

    type: Literal["kolossus"] = "kolossus"


def cell_arg(text: str, what: str) -> int:
    sq = parse_cell(text)
    if sq is None:
        raise refuse(f"{what} {text!r} is not a square of the 11×11 board.", "K-R01")
    return sq


def status_text(state: KolossusState) -> str:
    """The status line: round, warband and player, and what the table is asked now."""
    if state.result is not None:
        return f"Game over: {state.result.text}"
    wb = current_warband(state)
    who = f"{warband_name(state, wb)} ({state.players[state.warbands[wb].player]})"
    stage = "Invasion" if state.round == 0 else f"Round {state.round}/{ROUNDS}"
    asks = {
        "placement": "arrange the miniatures, then ready",
        "skills": "put 4 mana on the skills",
        "quake": "roll for the Great Quake" if state.dice else "move a region",
        "quake_allocate": f"allocate {state.warbands[wb].income} mana",
        "destiny": "roll the Die of Destiny",
        # Short enough for two lines at 800×480 with 16-letter names (tests/kiosk).
        "turn": f"{count(state.ap, 'activation point')}: class, power or end of turn",
        "move_roll": f"roll the {CLASS_NAME[state.active_class or 'W']} movement dice",
        "move": f"move a {CLASS_NAME[state.active_class or 'W']} "
        f"({count(state.mp, 'movement point')})",
        "after_move": f"Spear or Hammer ({count(state.mp, 'movement point')}) or finish",
        "allocate": f"allocate {state.warbands[wb].income} mana",
    }.get(state.phase, "")
    return f"{stage} · {who} · {asks} · crystals on the Citadel: {state.crystals}"


def need_phase(state: KolossusState, *phases: str, what: str) -> None:
    if state.phase not in phases:
        raise refuse(f"{what} is not possible now ({status_text(state)}).")


def d4_request(state: KolossusState, purpose: str, what: str, count: int) -> DiceRequest:
    """Ask the current warband's player to roll ``count`` four-sided dice for ``what``."""
    wb = current_warband(state)
    return DiceRequest(
        purpose=purpose,
        label=f"{what}: {warband_name(state, wb)} rolls {count}d4",
        count=count,
        sides=4,
        player=state.warbands[wb].player,
    )


def set_band(state: KolossusState, wb: int, band: WarbandState) -> KolossusState:
    bands = list(state.warbands)
    bands[wb] = band
    return state.evolve({"warbands": (bands[0], bands[1], bands[2], bands[3])})


# What ends with an activation: no chosen class, no waiting Colossus, no movement points.
NO_ACTIVATION: dict[str, object] = {
    "active_class": None,
    "active_piece": None,
    "mp": 0,
    "whip_active": False,
    "entered": False,
}
