"""Kolossus positions the benches measure and the tests check: the move generator's
worst case, and the sensing board's round 1. Plain code (no pytest): the benches in
bench/ import it too."""

from __future__ import annotations

import random
from typing import Any

from companion.dice import Roll
from companion.games.kolossus import RULES
from companion.games.kolossus.content import SQUARES, square
from companion.games.kolossus.model import KolossusState


def worst_case(seed: int) -> tuple[KolossusState, int]:
    """A Chapter 3 position: our Colossus mid-board, 18 MP, Sword + Whip charged."""
    options = RULES.parse_options({"chapter": 3, "titan_weapons": "all_four"})
    state = RULES.setup(["Ann", "Bob"], options, seed)
    rnd = random.Random(seed)
    squares = list(range(SQUARES))
    rnd.shuffle(squares)
    minis = list(squares[:32])
    colossus = 0  # NW's Colossus
    minis[colossus] = square(5, 5)
    if square(5, 5) in minis[1:]:
        minis[minis.index(square(5, 5), 1)] = squares[40]
    bands = list(state.warbands)
    bands[0] = bands[0].model_copy(
        update={"skills": (0, 0, 0, 0, 6, 0), "charges": (2, 2, 0, 0), "supply": 10}
    )
    for i in (1, 3):
        bands[i] = bands[i].model_copy(update={"skills": (0, 1, 0, 2, 0, 1), "supply": 16})
    state = state.model_copy(
        update={
            "warbands": tuple(bands),
            "minis": tuple(minis),
            "phase": "move",
            "active_class": "C",
            "mp": 12 + 6,
            "round": 1,
        }
    )
    return state, colossus


#: The Invasion's skills (K-R25: exactly 4 mana).
SKILLS = {"type": "allocate", "warrior_attack": 2, "warrior_defence": 1, "guardian_defence": 1}


def round_one_script() -> list[Any]:
    """The Invasion, then round 1: an Earthquake and a Colossus with 3d4 = 12 MP."""
    steps: list[Any] = [{"type": "ready"}, SKILLS, SKILLS, SKILLS, SKILLS]
    for region in ("row3", "row4", "row5", "row6"):
        steps += [
            Roll(values=(1,), source="manual"),
            {"type": "quake_move", "region": region, "direction": "east"},
            {"type": "allocate", "pool": 3},
        ]
    steps += [
        Roll(values=(4,), source="manual"),
        {"type": "earthquake", "region": "col0", "direction": "south"},
        {"type": "choose_class", "cls": "C"},
        Roll(values=(4, 4, 4), source="manual"),
    ]
    return steps


def round_one_dump() -> Any:
    """Round 1, Tua'tha's Colossus to move with 12 MP, Firbolg's Warriors in reach."""
    state = RULES.setup(["Ann", "Bob"], RULES.parse_options({"chapter": 3}), 1)
    for action in round_one_script():
        state, _ = RULES.apply(state, RULES.parse_action(action))
    return RULES.dump_position(state)


START = round_one_dump()
