"""Builders for hand-made Kolossus positions used by the tests."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import Roll
from companion.errors import RuleViolation
from companion.events import Event
from companion.games.kolossus import RULES
from companion.games.kolossus.content import square
from companion.games.kolossus.model import SKILL_SLOTS, WEAPONS, KolossusState, Move

NW, NE, SE, SW = 0, 1, 2, 3
SLOT = {"C": 0, "G": 1, "G2": 2, "W": 3, "W2": 4, "W3": 5, "W4": 6, "W5": 7}


def pid(warband: int, slot: str) -> int:
    """Piece id: warband*8 + slot (C, G, G2, W, W2.. W5)."""
    return warband * 8 + SLOT[slot]


def sq(text: str) -> int:
    r, c = (int(x) for x in text.split(","))
    return square(r, c)


def new_game(players: int = 4, seed: int = 1, **options: Any) -> KolossusState:
    return RULES.setup(["Ann", "Bob", "Cleo", "Dov"][:players], RULES.parse_options(options), seed)


def act(state: KolossusState, action: dict[str, Any]) -> tuple[KolossusState, tuple[Event, ...]]:
    return RULES.apply(state, RULES.parse_action(action))


def refusal(state: KolossusState, action: dict[str, Any]) -> tuple[str, str | None]:
    """The exact words and ruling ``action`` is refused with."""
    with pytest.raises(RuleViolation) as refused:
        act(state, action)
    return refused.value.message, refused.value.ruling


def mv(frm: str, to: str, **extra: object) -> Move:
    """A move action as the referee lists it (``extra``: path, sword, whip)."""
    return Move.model_validate({"from": frm, "to": to, **extra})


def move(state: KolossusState, frm: str, to: str, **extra: Any) -> KolossusState:
    """Move the miniature on ``frm`` to ``to`` (``extra``: path, sword, whip)."""
    return act(state, {"type": "move", "from": frm, "to": to, **extra})[0]


def roll(state: KolossusState, *values: int) -> KolossusState:
    return RULES.apply(state, Roll(values=tuple(values), source="manual"))[0]


def place(state: KolossusState, where: dict[int, str | None]) -> KolossusState:
    """Put pieces on squares (None = beaten); a piece already there is beaten."""
    minis = list(state.minis)
    for piece, text in where.items():
        target = -1 if text is None else sq(text)
        if target >= 0:
            for other, at in enumerate(minis):
                if at == target and other != piece:
                    minis[other] = -1
        minis[piece] = target
    return state.model_copy(update={"minis": tuple(minis)})


def with_band(state: KolossusState, warband: int, **update: Any) -> KolossusState:
    bands = list(state.warbands)
    bands[warband] = bands[warband].model_copy(update=update)
    return state.model_copy(update={"warbands": tuple(bands)})


def set_skills(state: KolossusState, warband: int, **skills: int) -> KolossusState:
    """Set skill values, keeping the 20-mana total by taking from the supply."""
    band = state.warbands[warband]
    values = tuple(skills.get(n, band.skills[i]) for i, n in enumerate(SKILL_SLOTS))
    supply = band.supply - (sum(values) - sum(band.skills))
    return with_band(state, warband, skills=values, supply=supply)


def charge(state: KolossusState, warband: int, weapon: str) -> KolossusState:
    band = state.warbands[warband]
    charges = list(band.charges)
    charges[WEAPONS.index(weapon)] = 2
    return with_band(state, warband, charges=tuple(charges), supply=band.supply - 2)


def in_turn(state: KolossusState, warband: int, ap: int = 4, round_: int = 1) -> KolossusState:
    """The position in ``warband``'s turn after a Destiny roll of ``ap`` (no income)."""
    turn = (warband - state.first) % 4
    return state.model_copy(
        update={
            "phase": "turn",
            "round": round_,
            "turn": turn,
            "dice": None,
            "ap": ap,
            "initiative_open": True,
            "activated": (),
        }
    )


def ready_to_move(
    state: KolossusState, warband: int, cls: str, mp: int, round_: int = 1
) -> KolossusState:
    """The position where ``warband`` has activated ``cls`` and rolled ``mp`` in total."""
    state = in_turn(state, warband, 4, round_)
    return state.model_copy(
        update={
            "phase": "move",
            "active_class": cls,
            "mp": mp,
            "ap": 4 - {"W": 1, "G": 2, "C": 3}[cls],
        }
    )


def listed(state: KolossusState, action_type: str) -> list[dict[str, Any]]:
    """The listed legal actions of one type, as the JSON dicts players send."""
    return [RULES.dump_action(a) for a in RULES.legal_actions(state) if a.type == action_type]
