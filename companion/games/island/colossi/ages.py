"""Colossi's Age cycle: the Age card, the transition into an Age and the Harvest Phase.

An Age starts with its Age card (CA-R19: entered, named from the content file or drawn
from it), whose Setup floods spaces (CA-R18) and whose Beasts need Lairs: in Age I the
centre's (CA-R01) and a roll-off for the others, later the least-Gold player's
(CA-R05, CA-R16) while the Beasts the card no longer names retire (CA-R11). Once every
Lair stands the Action Phase begins with the Mantle holder. After it come the Age card's
scoring and the Harvest (3.7, CA-R06, CA-R07); then the leader takes the Mantle
(a roll-off on a tie) and the next Age card is revealed.

Functions of an action's working copy (:class:`.mechanics.Work`); the referee
(:mod:`.colossi`) hands them its actions and decides when the game ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion import words
from companion.games.island.colossi.content import ACTIONS, AGE_NAMES
from companion.games.island.colossi.model import (
    AgeScoring,
    ColossiState,
    Harvest,
    RevealAge,
    age_label,
    config,
)
from companion.games.island.content import Content
from companion.games.island.mechanics import Work, control_map
from companion.games.island.model import (
    BeastPos,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PendingTrait,
    Tile,
    TurnChanged,
)
from companion.games.island.phrases import capital
from companion.games.island.referee import leaders
from companion.games.island.turns import gold_row, run_effects
from companion.rules import refuse
from companion.words import and_list


def current(work: Work[ColossiState], field: str) -> Any:
    """A state field as the action has left it so far."""
    return work.update.get(field, getattr(work.state, field))


# --- the Age card ----------------------------------------------------------------------


def reveal_age(work: Work[ColossiState], action: RevealAge) -> None:
    """The Age card: its Beasts get their Lairs, its Setup floods spaces (CA-R18)."""
    state = work.state
    name, beasts, rounds, water = _age_card(work, action)
    if not beasts or len(set(beasts)) != len(beasts):
        raise refuse("An Age card names at least one Beast, each once.", "CA-R11")
    for space in water:
        if not state.board.has(space):
            raise refuse(f"There is no space {space!r} on this island.", "BM-R01")
    work.label = age_label(state.age)
    work.update.update(
        age_name=name,
        age_beasts=beasts,
        rounds=rounds or state.options.rounds_per_age,  # CA-R04
        phase="transition",
    )
    named = f" ({name})" if name and name != age_label(state.age) else ""
    work.note(f"{age_label(state.age)}{named}: {and_list(list(beasts))}.")
    if state.age == 1:
        _first_lairs(work, beasts)
    else:
        _new_lairs(work, beasts)
    for space in water:  # the Age card's Setup (CA-R18)
        work.set_water(space, True)
    maybe_finish_transition(work)


def _age_card(
    work: Work[ColossiState], action: RevealAge
) -> tuple[str, tuple[str, ...], int | None, tuple[str, ...]]:
    """The card's name, Beasts, rounds and Water: as entered, or from the content file
    (named by ``card``, or drawn when nothing is entered, CA-R19)."""
    state = work.state
    content = state.options.content
    card_id: str | None = action.card
    if card_id is None and not action.beasts and content and content.ages:
        card_id = _draw_age_card(work, content)
    if card_id is None:
        return action.name, action.beasts, action.rounds, action.water
    card = content.age(card_id) if content else None
    if card is None:
        raise refuse(f"The content file has no Age card {card_id!r}.", "CA-R19")
    work.update["used_age_cards"] = (*state.used_age_cards, card.id)
    return card.name or card.id, card.beasts, card.rounds, card.water


def _draw_age_card(work: Work[ColossiState], content: Content) -> str:
    """An unused Age card of this Age's sub-deck (CA-R19), or of all if none is marked."""
    state = work.state
    marked = any(a.age for a in content.ages)
    pool = [
        a.id
        for a in content.ages
        if a.id not in state.used_age_cards and (not marked or a.age == AGE_NAMES[state.age - 1])
    ]
    if not pool:
        raise refuse("The content file has no unused Age card for this Age.", "CA-R19")
    card_id, rng = state.rng.choice(pool)
    work.update["rng"] = rng
    return card_id


def _first_lairs(work: Work[ColossiState], beasts: tuple[str, ...]) -> None:
    """Age I: the first Lair in the centre, or a tile there (CA-R01); a roll-off
    decides who places the others (CA-R05)."""
    state = work.state
    first, *others = beasts
    centre = state.board.centre
    if state.options.centre_setup == "age1_lair":  # CA-R01
        put_lair(work, first, centre)
        placed_later = others
    else:
        work.pending.append(PendingExplore(space=centre, player=state.mantle, entered=False))
        placed_later = list(beasts)
    work.update["retiring_beasts"] = ()
    if placed_later:
        work.pending.append(
            PendingRollOff(purpose="age1_lairs", contenders=tuple(range(len(state.players))))
        )


def _new_lairs(work: Work[ColossiState], beasts: tuple[str, ...]) -> None:
    """Ages II and III: the previous Age card's Beasts that the new card does not name
    retire; any other Beast (one whose Lair was explored from the deck) stays (CA-R11).
    The player with the least Gold places the new Lairs, a roll-off among several
    (CA-R05, CA-R16)."""
    on_board = {b.name for b in work.beasts}
    previous = set(work.state.age_beasts)  # CA-R11: only "Beasts of the previous Age"
    retiring = tuple(b.name for b in work.beasts if b.name in previous and b.name not in beasts)
    work.update["retiring_beasts"] = retiring
    missing = [b for b in beasts if b not in on_board]
    if missing:
        low = min(work.gold)
        poorest = tuple(p for p, g in enumerate(work.gold) if g == low)
        if len(poorest) == 1:
            for beast in missing:
                work.pending.append(PendingLair(player=poorest[0], beast=beast))
        else:
            work.pending.append(PendingRollOff(purpose="least_gold", contenders=poorest))


# --- Lairs and Beasts ------------------------------------------------------------------


def add_beast(work: Work[ColossiState], beast: str, space: str) -> None:
    work.beasts.append(BeastPos(name=beast, space=space))
    work.note(f"{capital(beast)} appears on {work.at(space)}.")
    if work.cfg.beast_kills:  # CA-R08 option: Beast Master's kill rule
        idx = work.i(space)
        for seat in work.seats_from(work.active):
            work.kill(seat, space, work.acolytes[idx][seat], beast)


def put_lair(work: Work[ColossiState], beast: str, space: str) -> None:
    idx = work.i(space)
    if work.tiles[idx] is not None:
        work.note(f"The tile on {work.at(space)} is discarded for the Lair (CA-R11).")
    work.tiles[idx] = Tile(kind="lair", name=f"Lair of {beast}", beast=beast)
    work.fix(space, f"Put the Lair of {beast} here, with {beast} on it.")
    add_beast(work, beast, space)


def missing_lairs(work: Work[ColossiState]) -> list[str]:
    """The Age's Beasts with no Lair on the island and none waiting to be placed."""
    beasts: tuple[str, ...] = tuple(current(work, "age_beasts"))
    on_board = {b.name for b in work.beasts}
    pending = {p.beast for p in work.pending if isinstance(p, PendingLair)}
    return [b for b in beasts if b not in on_board and b not in pending]


# --- the transition between Ages -------------------------------------------------------


def roll_off_won(work: Work[ColossiState], purpose: str, seat: int) -> None:
    """The winner of a roll-off takes the Mantle, or places the new Lair(s) (CA-R05)."""
    state = work.state
    if purpose == "mantle":
        work.note(f"{state.players[seat]} takes the Mantle (CA-R05).")
        work.update["mantle"] = seat
        begin_transition(work)
    else:
        missing = missing_lairs(work)
        if not missing:  # their Lairs came out of the explore deck first
            work.note(
                f"{state.players[seat]} wins the roll-off: every new Lair is on the island"
                " already (CA-R05)."
            )
            maybe_finish_transition(work)
            return
        lairs = "the new Lair" if len(missing) == 1 else "the new Lairs"
        work.note(f"{state.players[seat]} places {lairs} (CA-R05).")
        for pos, beast in enumerate(missing):
            work.pending.insert(pos, PendingLair(player=seat, beast=beast))


def award_mantle(work: Work[ColossiState]) -> None:
    """After an Age (not the last): the leader takes the Mantle, a roll-off on a tie."""
    state = work.state
    work.update["phase"] = "transition"
    first = leaders(work.gold)
    if len(first) == 1:
        work.update["mantle"] = first[0]
        work.note(f"{state.players[first[0]]} is in first place and takes the Mantle.")
        begin_transition(work)
    else:
        work.pending.append(PendingRollOff(purpose="mantle", contenders=first))


def begin_transition(work: Work[ColossiState]) -> None:
    """Stand Colossi up, pass the Mantle if the option says so, reveal the next Age."""
    state = work.state
    for seat, tipped in enumerate(work.tipped):
        where = work.colossi[seat]
        if tipped and where is not None:
            work.fix(where, f"Stand {state.players[seat]}'s Colossus up again.")
    work.tipped = [False] * len(state.players)
    mantle = int(current(work, "mantle"))
    if state.options.mantle_pass_left_after_award:  # CA-R03 option
        mantle = (mantle + 1) % len(state.players)
    work.update.update(mantle=mantle, active=mantle, phase="age_reveal", age=state.age + 1)


def maybe_finish_transition(work: Work[ColossiState]) -> None:
    """Once every new Lair is placed: retire old Beasts (CA-R11), start the Action Phase."""
    if current(work, "phase") != "transition":
        return
    if any(isinstance(p, PendingLair | PendingRollOff) for p in work.pending):
        return
    state = work.state
    _retire_beasts(work, tuple(current(work, "retiring_beasts")))
    age: int = int(current(work, "age"))
    mantle: int = int(current(work, "mantle"))
    if age == 1 and state.options.use_traits:
        for seat in work.seats_from(mantle):  # CA-R12
            work.pending.append(PendingTrait(player=seat))
    work.movements_left = ACTIONS
    work.update.update(
        phase="actions",
        retiring_beasts=(),
        active=mantle,  # the Mantle holder plays first, then clockwise (CA-R12)
        age_turns=0,
        harvested=((),) * len(state.players),
        passed=(False,) * len(state.players),
    )
    work.events.append(TurnChanged(player=mantle, text=f"{state.players[mantle]} starts the Age."))


def _retire_beasts(work: Work[ColossiState], retiring: Sequence[str]) -> None:
    """Retiring Beasts leave with their Lairs; an occupied space is explored anew (CA-R11)."""
    for beast in retiring:
        pos = next((k for k, b in enumerate(work.beasts) if b.name == beast), None)
        if pos is None:
            continue
        space = work.beasts.pop(pos).space
        idx = work.i(space)
        tile = work.tiles[idx]
        if tile is not None and tile.kind == "lair" and tile.beast == beast:
            occupied = sum(work.acolytes[idx]) > 0 or space in work.colossi
            work.tiles[idx] = None
            work.note(f"{beast} and its Lair leave the island (CA-R11).")
            work.fix(space, f"Remove {beast} and its Lair.")
            if occupied:
                work.pending.append(
                    PendingExplore(space=space, player=work.state.mantle, entered=False)
                )


# --- the Harvest Phase -----------------------------------------------------------------


def start_harvest(work: Work[ColossiState]) -> None:
    work.movements_left = 0
    work.update.update(phase="age_scoring", active=work.state.mantle)
    work.note(f"{age_label(work.state.age)}'s Harvest Phase: first the Age card's scoring.")


def score_age(work: Work[ColossiState], action: AgeScoring) -> None:
    """The Age card's scoring as entered; then the Harvest, Mantle holder first (3.7)."""
    state = work.state
    if len(action.gold) != len(state.players):
        raise refuse("Give one gold amount per player, in seat order.")
    work.label = f"{age_label(state.age)} scoring"
    for p, amount in enumerate(action.gold):
        work.add_gold(p, amount, "age_scoring")
    work.update.update(
        phase="harvest",
        active=state.mantle,
        history=gold_row(state, work.gold, f"{age_label(state.age)} scoring"),
    )
    work.note("The Harvest Phase begins with the Mantle holder.")


def harvestable(state: ColossiState, seat: int) -> set[str]:
    """Spaces ``seat`` controls now and has not harvested this Age (CA-R07)."""
    done = set(state.harvested[seat])
    return {
        space
        for space, who in control_map(state, config(state)).items()
        if who == seat and space not in done
    }


def harvest(work: Work[ColossiState], seat: int, action: Harvest) -> None:
    """Acolytes home, Colossus tipped, then cubes → Grass Loot → Environment (3.7)."""
    state = work.state
    if not state.board.has(action.space):
        raise refuse(f"There is no space {action.space!r} on this island.", "BM-R01")
    if action.space in state.harvested[seat]:
        raise refuse(f"You already harvested {work.at(action.space)} this Age.", "CA-R07")
    if action.space not in harvestable(state, seat):
        raise refuse(f"You do not control {work.at(action.space)} now.", "CA-R06")
    idx = work.i(action.space)
    work.label = f"{age_label(state.age)} harvest"
    _gather(work, seat, action.space, idx)
    _reap(work, seat, idx, action)
    harvested = [list(h) for h in state.harvested]
    harvested[seat].append(action.space)
    work.update["harvested"] = tuple(tuple(h) for h in harvested)


def _gather(work: Work[ColossiState], seat: int, space: str, idx: int) -> None:
    """The harvester's Acolytes there return to hand; a Colossus there is laid down."""
    name = work.name(seat)
    back = work.acolytes[idx][seat]
    work.acolytes[idx][seat] = 0
    work.in_hand[seat] += back
    if back:
        work.fix(space, f"{name} takes back {words.count(back, 'Acolyte')}.")
    if work.colossi[seat] == space:
        work.tipped[seat] = True
        work.fix(space, f"Lay {name}'s Colossus on its side.")
    returns = "returns" if back == 1 else "return"
    work.note(
        f"{name} harvests {work.at(space)}"
        + (f"; {words.count(back, 'Acolyte')} {returns} to hand" if back else "")
        + ("; the Colossus is laid on its side" if work.colossi[seat] == space else "")
        + "."
    )


def _reap(work: Work[ColossiState], seat: int, idx: int, action: Harvest) -> None:
    """What the space gives: its Gold cubes, a Grass tile's Loot, an Environment's effects."""
    state = work.state
    cubes = work.cubes[idx]
    if cubes:
        work.cubes[idx] = 0
        work.add_gold(seat, cubes, "harvest")
    tile = work.tiles[idx]
    if tile is not None and tile.kind == "grass":
        if tile.loot == "gold":
            work.add_gold(seat, 1, "harvest")
        elif tile.loot == "cards":
            work.change_cards(seat, 1)
        elif tile.loot == "trait":
            if state.options.use_traits:
                work.pending.append(PendingTrait(player=seat))
            else:
                work.note("Without Traits, Trait Loot gives nothing (CA-R13).")
    effects = action.effects
    if tile is not None and tile.kind in ("environment", "lair") and not effects:
        known = state.options.content.environment(tile.name) if state.options.content else None
        effects = known.effects if known else ()
    elif effects and (tile is None or tile.kind not in ("environment", "lair")):
        raise refuse(f"{work.at(action.space)} is not an Environment: it has no effect text.")
    if effects:
        run_effects(work, seat, None, effects, colossi_rules=True, gold_source="harvest")


def pass_harvest(work: Work[ColossiState], seat: int) -> None:
    passed = list(work.state.passed)
    passed[seat] = True
    work.update["passed"] = tuple(passed)
    work.note(f"{work.name(seat)} passes for this Harvest.")


def next_harvester(work: Work[ColossiState]) -> bool:
    """Pass the Harvest to the next player who has not passed; False if all have."""
    state = work.state
    passed: tuple[bool, ...] = tuple(current(work, "passed"))
    n = len(state.players)
    for k in range(1, n + 1):
        seat = (state.active + k) % n
        if not passed[seat]:
            work.update["active"] = seat
            return True
    return False


__all__ = [
    "add_beast",
    "award_mantle",
    "begin_transition",
    "current",
    "harvest",
    "harvestable",
    "maybe_finish_transition",
    "missing_lairs",
    "next_harvester",
    "pass_harvest",
    "put_lair",
    "reveal_age",
    "roll_off_won",
    "score_age",
    "start_harvest",
]
