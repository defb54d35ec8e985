"""Kolossus's model reads a character board slot by slot (SKILL_SLOTS order: Warrior,
Guardian, Colossus; Attack before Defence) and counts a warband's 20 mana (K-R25)."""

from __future__ import annotations

from companion.games.kolossus.model import Allocate, CorrectMana, WarbandState


def band(**update: object) -> WarbandState:
    return WarbandState(corner="NW", colour="blue", player=0, zone=(0,)).model_copy(update=update)


def test_K_R25_every_mana_token_is_counted_once() -> None:
    full = band(supply=1, skills=(1, 2, 3, 4, 5, 6), pool=100, charges=(0, 2, 0, 40), income=7)
    assert full.mana_total() == 1 + 21 + 100 + 42 + 7
    assert band().mana_total() == 0


def test_each_class_reads_its_own_attack_and_defence_slot() -> None:
    skilled = band(skills=(1, 2, 3, 4, 5, 6))
    assert [skilled.attack(c) for c in ("W", "G", "C")] == [1, 3, 5]
    assert [skilled.defence(c) for c in ("W", "G", "C")] == [2, 4, 6]


def test_an_allocation_and_a_mana_correction_list_the_skills_in_slot_order() -> None:
    values = {
        "warrior_attack": 1,
        "warrior_defence": 2,
        "guardian_attack": 3,
        "guardian_defence": 4,
        "colossus_attack": 5,
        "colossus_defence": 6,
    }
    assert Allocate(**values).skills() == (1, 2, 3, 4, 5, 6)
    correction = CorrectMana(warband="red", supply=0, **values)
    assert correction.skills() == (1, 2, 3, 4, 5, 6)
    assert CorrectMana(warband="red", supply=0, whip=True, hammer=True).charged() == (
        False,
        True,
        False,
        True,
    )
    assert CorrectMana(warband="red", supply=0, sword=True, spear=True).charged() == (
        True,
        False,
        True,
        False,
    )
