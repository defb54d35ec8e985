"""Chapter 2 and 3 mana in exact figures and words: income (K-R22, K-R24), the starting
skills (K-R25), the allocation's refusals (K-R24, K-R27, K-R36) and the allocations a
bot is offered."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from companion.errors import RuleViolation
from companion.games.kolossus.mana import (
    apply_allocation,
    apply_initial_skills,
    chargeable,
    compositions,
    income_for,
    listed_allocations,
    new_income,
)
from companion.games.kolossus.model import (
    POOL_LIMIT,
    SKILL_SLOTS,
    WEAPON_CHARGE,
    WEAPONS,
    Allocate,
    KolossusOptions,
    WarbandState,
)
from tests.games.kolossus.helpers import NW, new_game


def band(chapter: int = 3, **update: Any) -> tuple[KolossusOptions, WarbandState]:
    state = new_game(chapter=chapter, **update.pop("options", {}))
    return state.options, state.warbands[NW].model_copy(update=update)


def allocation(**fields: Any) -> Allocate:
    return Allocate.model_validate(fields)


def refusal(options: KolossusOptions, wb: WarbandState, alloc: Allocate) -> tuple[str, str | None]:
    with pytest.raises(RuleViolation) as refused:
        apply_allocation(options, wb, alloc)
    return refused.value.message, refused.value.ruling


def test_K_R22_K_R24_income_is_the_table_capped_by_the_supply() -> None:
    options, _ = band(chapter=2)
    assert [income_for(options, ap, 20) for ap in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert income_for(options, 1, 2) == 2  # capped by the supply
    assert income_for(options, 1, 0) == 0
    chapter_one, _ = band(chapter=1)
    assert income_for(chapter_one, 1, 20) == 0
    _, wb = band(chapter=2, supply=15, income=2)
    rolled = new_income(options, wb, 2)  # the unallocated 2 go back first
    assert (rolled.income, rolled.supply) == (2, 15)
    rolled = new_income(options, wb, 1)
    assert (rolled.income, rolled.supply) == (3, 14)


def test_K_R27_only_an_uncharged_weapon_can_be_charged() -> None:
    options, wb = band(options={"weapons": ("whip", "spear", "sword", "hammer")})
    assert chargeable(options, wb) == ("whip",)
    assert chargeable(options, wb.model_copy(update={"charges": (0, 2, 0, 0)})) == ()
    four, wb4 = band(options={"titan_weapons": "all_four"})
    assert chargeable(four, wb4.model_copy(update={"charges": (0, 2, 0, 0)})) == (
        "sword",
        "spear",
        "hammer",
    )
    two, wb2 = band(chapter=2)
    assert chargeable(two, wb2) == ()


def test_K_R25_the_starting_skills_take_exactly_four_from_the_supply() -> None:
    _, wb = band()
    after = apply_initial_skills(wb, allocation(warrior_attack=3, colossus_defence=1))
    assert after.skills == (3, 0, 0, 0, 0, 1) and after.supply == 16
    for fields, total in (({"warrior_attack": 5}, 5), ({"guardian_defence": 3}, 3)):
        with pytest.raises(RuleViolation) as refused:
            apply_initial_skills(wb, allocation(**fields))
        assert refused.value.message == (
            f"Put exactly 4 mana on your skills at the start, not {total}."
        )
        assert refused.value.ruling == "K-R25"
    for extra in ({"pool": 1}, {"charge": "sword"}, {"charge_from_pool": 1}):
        with pytest.raises(RuleViolation) as refused:
            apply_initial_skills(wb, allocation(warrior_attack=4, **extra))
        assert refused.value.message == (
            "At the start, mana goes on the skills only (no pool, no weapon)."
        )
        assert refused.value.ruling == "K-R25"


def test_K_R24_K_R36_an_allocation_spends_this_turns_income_the_rest_goes_back() -> None:
    options, wb = band(supply=14, income=3, pool=3)
    after = apply_allocation(options, wb, allocation(guardian_attack=1, pool=1))
    assert after.skills == (0, 0, 1, 0, 0, 0)
    assert (after.pool, after.income, after.supply) == (4, 0, 15)
    assert refusal(options, wb, allocation(warrior_attack=2, pool=2)) == (
        "You have 3 mana to allocate, not 4.",
        "K-R24",
    )
    assert refusal(options, wb, allocation(pool=3)) == ("The mana pool holds at most 5.", "K-R36")
    full = apply_allocation(options, wb, allocation(pool=2))
    assert full.pool == 5
    chapter_two, wb2 = band(chapter=2, supply=17, income=3)
    for extra in ({"pool": 1}, {"charge": "sword"}):
        assert refusal(chapter_two, wb2, allocation(**extra)) == (
            "There is no mana pool and no Titan Weapon before Chapter 3.",
            "K-R24",
        )


def test_K_R27_K_R36_charging_takes_two_of_this_turns_income() -> None:
    options, wb = band(
        supply=17, income=3, options={"weapons": ("sword", "spear", "whip", "hammer")}
    )
    charged = apply_allocation(options, wb, allocation(charge="sword", warrior_attack=1))
    assert charged.charges == (2, 0, 0, 0) and charged.supply == 17 and charged.income == 0
    assert refusal(options, wb, allocation(charge="whip")) == (
        "You can only charge your own uncharged Titan Weapon.",
        "K-R27",
    )
    assert refusal(options, wb, allocation(charge_from_pool=1)) == (
        "Pool mana can only go to a weapon you charge.",
        "K-R36",
    )
    assert refusal(options, wb, allocation(charge="sword", charge_from_pool=1)) == (
        "The Titan Weapon is charged from this turn's income only.",
        "K-R27",
    )
    pooled, wbp = band(
        supply=16,
        income=1,
        pool=3,
        options={"weapons": ("sword", "spear", "whip", "hammer"), "charge_from_pool": True},
    )
    after = apply_allocation(pooled, wbp, allocation(charge="sword", charge_from_pool=1))
    assert (after.charges, after.pool, after.supply, after.income) == ((2, 0, 0, 0), 2, 16, 0)
    poor = wbp.model_copy(update={"pool": 1, "supply": 18})
    assert refusal(pooled, poor, allocation(charge="sword", charge_from_pool=2)) == (
        "Your pool holds only 1 mana.",
        "K-R27",
    )


def test_compositions_are_every_split_of_the_tokens() -> None:
    assert list(compositions(2, 2)) == [(2, 0), (1, 1), (0, 2)]
    assert list(compositions(3, 1)) == [(3,)]
    assert len(list(compositions(4, 6))) == 126


def test_a_bot_is_offered_nothing_or_the_whole_income_placed() -> None:
    two, wb2 = band(chapter=2, supply=18, income=2)
    offered = list(listed_allocations(two, wb2))
    assert offered[0] == Allocate()
    assert len(offered) == 1 + 21  # keep nothing, or 2 over 6 skills
    assert all(sum(a.skills()) == 2 and a.pool == 0 for a in offered[1:])
    options, wb = band(
        supply=15, income=2, pool=3, options={"weapons": ("sword", "spear", "whip", "hammer")}
    )
    offered = list(listed_allocations(options, wb))
    charged = [a for a in offered if a.charge == "sword"]
    assert charged == [Allocate(charge="sword")]  # the whole income on the weapon
    assert len(offered) == 1 + 28 + 1  # nothing; 2 over 6 skills and the pool; the charge
    full = wb.model_copy(update={"pool": 5, "supply": 13})
    assert all(a.pool == 0 for a in listed_allocations(options, full))
    assert len(list(listed_allocations(options, full))) == 1 + 21 + 1
    nothing = wb.model_copy(update={"income": 0, "supply": 17})
    assert list(listed_allocations(options, nothing)) == [Allocate()]


def test_K_R27_a_bot_may_charge_from_the_pool_where_the_option_allows() -> None:
    options, wb = band(
        supply=16,
        income=1,
        pool=3,
        options={"weapons": ("sword", "spear", "whip", "hammer"), "charge_from_pool": True},
    )
    charged = [a for a in listed_allocations(options, wb) if a.charge == "sword"]
    assert charged == [Allocate(charge="sword", charge_from_pool=1)]
    short = wb.model_copy(update={"pool": 0, "supply": 19})
    assert [a for a in listed_allocations(options, short) if a.charge] == []
    plain, wbp = band(
        supply=16, income=1, pool=3, options={"weapons": ("sword", "spear", "whip", "hammer")}
    )
    assert [a for a in listed_allocations(plain, wbp) if a.charge] == []


def whole_income_placements(options: KolossusOptions, wb: WarbandState) -> list[Allocate]:
    """What the listing promises, found by trying every allocation on the referee: keep
    nothing, or spend the whole income on skills, the pool and a weapon, taking from the
    pool only what the income lacks for the charge (K-R27)."""
    found = [Allocate()]
    skill_splits = [s for s in product(range(wb.income + 1), repeat=6) if sum(s) <= wb.income]
    shortfall = max(0, WEAPON_CHARGE - wb.income)
    for skills, pool, charge in product(skill_splits, range(wb.income + 1), (None, *WEAPONS)):
        from_pool = shortfall if charge is not None else 0
        spent = sum(skills) + pool + (WEAPON_CHARGE - from_pool if charge is not None else 0)
        if spent != wb.income or (spent == 0 and charge is None):
            continue
        fields = dict(zip(SKILL_SLOTS, skills, strict=True))
        alloc = Allocate.model_validate(
            {**fields, "pool": pool, "charge": charge, "charge_from_pool": from_pool}
        )
        try:
            apply_allocation(options, wb, alloc)
        except RuleViolation:
            continue
        found.append(alloc)
    return found


@pytest.mark.parametrize("charge_from_pool", [False, True])
@pytest.mark.parametrize("titan_weapons", ["one_per_warband", "all_four"])
def test_K_R24_K_R27_K_R36_the_listing_is_every_whole_income_placement_the_referee_takes(
    titan_weapons: str, charge_from_pool: bool
) -> None:
    """For every income and every pool from empty to full (with one weapon charged and
    none), the listing holds each legal placement of the whole income once."""
    options, _ = band(
        options={
            "weapons": ("sword", "spear", "whip", "hammer"),
            "titan_weapons": titan_weapons,
            "charge_from_pool": charge_from_pool,
        }
    )
    for income, pool, charged in product(range(4), range(POOL_LIMIT + 1), (False, True)):
        _, wb = band(
            income=income,
            pool=pool,
            supply=20 - income - pool - (WEAPON_CHARGE if charged else 0),
            charges=(WEAPON_CHARGE if charged else 0, 0, 0, 0),
            weapon="sword",
        )
        listed = list(listed_allocations(options, wb))
        assert len(set(listed)) == len(listed), (income, pool, charged)
        expected = whole_income_placements(options, wb)
        assert set(listed) == set(expected), (income, pool, charged)
