"""What a loaded (or hand-made) Kolossus position must satisfy: ``check_position``."""

from __future__ import annotations

from companion.dice import DiceRequest
from companion.errors import InvalidPosition
from companion.games.kolossus.common import d4_request
from companion.games.kolossus.content import (
    CLASS_DICE,
    CLASS_NAME,
    LANDSCAPE_TOTALS,
    PIECE_COUNT,
    SQUARES,
)
from companion.games.kolossus.corrections import CRYSTALS
from companion.games.kolossus.model import MANA_PER_WARBAND, ROUNDS, KolossusState
from companion.games.kolossus.position import piece_name


def check_position(state: KolossusState) -> None:
    if len(state.minis) != PIECE_COUNT or any(not -1 <= s < SQUARES for s in state.minis):
        raise InvalidPosition("The position needs 32 miniatures on squares 0..120 or -1.")
    placed = [s for s in state.minis if s >= 0]
    if len(set(placed)) != len(placed):
        raise InvalidPosition("Two miniatures stand on one square.")
    if len(state.terrain) != 11 or any(
        len(row) != 11 or set(row) - set(".WHMC") for row in state.terrain
    ):
        raise InvalidPosition("The landscape map needs 11 rows of 11 of . W H M C.")
    if "".join(state.terrain).count("C") != 1:
        raise InvalidPosition("The Citadel must stand on the board exactly once.", ruling="K-R41")
    if state.options.chapter >= 2:
        for wb in state.warbands:
            if wb.mana_total() != MANA_PER_WARBAND:
                raise InvalidPosition(f"{wb.colour} mana does not add up to 20.")
    _check_loaded_counts(state)
    _check_pending_dice(state)


def _check_loaded_counts(state: KolossusState) -> None:
    """What the table can never show: crystals that do not add up to 12 (K-R15),
    more landscapes than the box holds, a beaten miniature nobody beat."""
    captured = sum(c.count for c in state.captures)
    if state.crystals + state.crystal_supply + captured != CRYSTALS:
        raise InvalidPosition(
            f"crystals ({state.crystals} on the Citadel, {state.crystal_supply} in the"
            f" supply, {captured} captured) do not add up to {CRYSTALS}.",
            ruling="K-R15",
        )
    flat = "".join(state.terrain)
    for ch, total in LANDSCAPE_TOTALS.items():
        if flat.count(ch) > total:
            raise InvalidPosition(f"terrain has {flat.count(ch)} {ch!r}; the box holds {total}.")
    recorded = {record.piece for record in state.beats}
    for piece, square_ in enumerate(state.minis):
        if square_ < 0 and piece not in recorded:
            raise InvalidPosition(
                f"minis[{piece}] ({piece_name(state, piece)}) is off the board, but beats"
                " has no record of it being beaten."
            )
    if not 0 <= state.round <= ROUNDS:
        raise InvalidPosition(f"round {state.round} is not 0..{ROUNDS}.", ruling="K-R37")


def _check_pending_dice(state: KolossusState) -> None:
    """A pending dice request must be the one the rules would ask now: same purpose,
    dice, player and label (a hand-made one could let the wrong player roll)."""
    if state.dice is None:
        return
    purpose = state.dice.purpose
    expected: DiceRequest
    if purpose == "movement":
        if state.active_class is None:
            raise InvalidPosition("dice asks for movement, but no class is chosen.")
        cls = state.active_class
        expected = d4_request(state, "movement", f"{CLASS_NAME[cls]} movement", CLASS_DICE[cls])
    elif purpose in ("quake", "destiny"):
        what = "Great Quake" if purpose == "quake" else "Die of Destiny"
        expected = d4_request(state, purpose, what, 1)
    else:
        raise InvalidPosition(f"dice.purpose {purpose!r} is not quake, destiny or movement.")
    for name in ("count", "sides", "player", "label"):
        if getattr(state.dice, name) != getattr(expected, name):
            raise InvalidPosition(
                f"dice.{name} is {getattr(state.dice, name)!r}; the rules ask for"
                f" {getattr(expected, name)!r} here."
            )
