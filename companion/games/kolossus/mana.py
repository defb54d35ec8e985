"""Chapter 2/3 mana: income, allocation checks and the allocations a bot may list.

Conservation (per warband, Ch.2+): supply + skills + pool + weapon charges + income = 20.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.kolossus.model import (
    INITIAL_SKILL_MANA,
    POOL_LIMIT,
    SKILL_SLOTS,
    WEAPON_CHARGE,
    WEAPONS,
    Allocate,
    KolossusOptions,
    WarbandState,
    Weapon,
)
from companion.rules import refuse


def income_for(options: KolossusOptions, ap: int, supply: int) -> int:
    """Mana for a Die of Destiny (or Quake) result, capped by the supply (K-R22, K-R24)."""
    if options.chapter < 2:
        return 0
    return max(0, min(options.mana_table[ap - 1], supply))


def new_income(options: KolossusOptions, band: WarbandState, rolled: int) -> WarbandState:
    """A roll's mana income, taken from the supply. Income still unallocated (one a
    correction set before the roll) goes back to the supply first, so the
    warband's 20 mana always add up (K-R24)."""
    supply = band.supply + band.income
    income = income_for(options, rolled, supply)
    return band.evolve({"income": income, "supply": supply - income})


def chargeable(options: KolossusOptions, wb: WarbandState) -> tuple[Weapon, ...]:
    """Weapons this warband could charge now (uncharged; its own with one_per_warband)."""
    if options.chapter < 3:
        return ()
    mine = WEAPONS if options.titan_weapons == "all_four" else (wb.weapon,)
    return tuple(w for w in mine if w is not None and wb.charges[WEAPONS.index(w)] == 0)


def apply_initial_skills(wb: WarbandState, alloc: Allocate) -> WarbandState:
    """Setup (Ch.2+): exactly 4 mana on the six skills, any distribution (K-R25)."""
    skills = alloc.skills()
    if sum(skills) != INITIAL_SKILL_MANA:
        raise refuse(
            f"Put exactly {INITIAL_SKILL_MANA} mana on your skills at the start, "
            f"not {sum(skills)}.",
            ruling="K-R25",
        )
    if alloc.pool or alloc.charge is not None or alloc.charge_from_pool:
        raise refuse(
            "At the start, mana goes on the skills only (no pool, no weapon).",
            ruling="K-R25",
        )
    new_skills = tuple(a + b for a, b in zip(wb.skills, skills, strict=True))
    return wb.evolve({"skills": new_skills, "supply": wb.supply - INITIAL_SKILL_MANA})


def apply_allocation(options: KolossusOptions, wb: WarbandState, alloc: Allocate) -> WarbandState:
    """End of turn (or after the Quake): spend this turn's income; the rest goes back."""
    skills = alloc.skills()
    if options.chapter < 3 and (alloc.pool or alloc.charge is not None):
        raise refuse("There is no mana pool and no Titan Weapon before Chapter 3.", ruling="K-R24")
    from_pool = alloc.charge_from_pool
    if from_pool and alloc.charge is None:
        raise refuse("Pool mana can only go to a weapon you charge.", ruling="K-R36")
    if from_pool and not options.charge_from_pool:
        raise refuse("The Titan Weapon is charged from this turn's income only.", ruling="K-R27")
    if from_pool > wb.pool:
        raise refuse(f"Your pool holds only {wb.pool} mana.", ruling="K-R27")
    charges = list(wb.charges)
    if alloc.charge is not None:
        if alloc.charge not in chargeable(options, wb):
            raise refuse("You can only charge your own uncharged Titan Weapon.", ruling="K-R27")
        charges[WEAPONS.index(alloc.charge)] = WEAPON_CHARGE
    from_income = (
        sum(skills) + alloc.pool + (WEAPON_CHARGE - from_pool if alloc.charge is not None else 0)
    )
    if from_income > wb.income:
        raise refuse(f"You have {wb.income} mana to allocate, not {from_income}.", ruling="K-R24")
    pool = wb.pool - from_pool + alloc.pool
    if pool > POOL_LIMIT:
        raise refuse(f"The mana pool holds at most {POOL_LIMIT}.", ruling="K-R36")
    new_skills = tuple(a + b for a, b in zip(wb.skills, skills, strict=True))
    return wb.evolve(
        {
            "skills": new_skills,
            "pool": pool,
            "charges": tuple(charges),
            "supply": wb.supply + wb.income - from_income,
            "income": 0,
        }
    )


def compositions(total: int, bins: int) -> Iterator[tuple[int, ...]]:
    """Every way to put ``total`` identical tokens into ``bins`` ordered bins."""
    if bins == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in compositions(total - first, bins - 1):
            yield (first, *rest)


def _make(skills: tuple[int, ...], pool: int, charge: Weapon | None, from_pool: int) -> Allocate:
    values = dict(zip(SKILL_SLOTS, skills, strict=True))
    return Allocate.model_validate(
        {**values, "pool": pool, "charge": charge, "charge_from_pool": from_pool}
    )


def initial_allocations() -> Iterator[Allocate]:
    """All 126 ways to put the starting 4 mana on the six skills."""
    for skills in compositions(INITIAL_SKILL_MANA, len(SKILL_SLOTS)):
        yield _make(skills, 0, None, 0)


def listed_allocations(options: KolossusOptions, wb: WarbandState) -> Iterator[Allocate]:
    """A bounded representative list: keep nothing, or place all of the income.

    ``apply_allocation`` accepts every legal split; the list covers each way to place
    the whole income over skills (and pool), with and without charging the weapon.
    """
    yield _make((0,) * 6, 0, None, 0)
    income = wb.income
    room = POOL_LIMIT - wb.pool if options.chapter >= 3 else 0
    charge_choices: list[tuple[Weapon | None, int]] = [(None, 0)]
    for weapon in chargeable(options, wb):
        if income >= WEAPON_CHARGE:
            charge_choices.append((weapon, 0))
        elif options.charge_from_pool and wb.pool >= WEAPON_CHARGE - income:
            charge_choices.append((weapon, WEAPON_CHARGE - income))
    for charge, from_pool in charge_choices:
        rest = income - (WEAPON_CHARGE - from_pool if charge is not None else 0)
        if rest == 0 and charge is None:
            continue
        bins = 7 if room > 0 else 6
        for split in compositions(rest, bins):
            pool = split[6] if bins == 7 else 0
            if pool > room + from_pool:
                continue
            yield _make(split[:6], pool, charge, from_pool)
