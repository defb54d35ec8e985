"""Chapter 2 and 3 rulings: mana (K-R22..K-R25, K-R36), Titan Weapons (K-R26..K-R32,
K-R42) and Titan Powers (K-R33..K-R35)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import InvalidOptions, RuleViolation
from companion.events import TableChanges
from companion.games.kolossus import RULES
from companion.games.kolossus.content import cell
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.position import all_destinations
from companion.games.kolossus.turns import start_turn
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    listed,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    set_skills,
    sq,
    with_band,
)


def destiny(state: KolossusState, warband: int, value: int) -> KolossusState:
    """Roll the Die of Destiny for ``warband`` (round 1) with ``value``."""
    turn = (warband - state.first) % 4
    state = state.model_copy(update={"round": 1, "turn": turn})
    state = start_turn(state)  # a test shortcut into round 1
    return roll(state, value)


def mana_ok(state: KolossusState) -> None:
    for band in state.warbands:
        assert band.mana_total() == 20


# --- Chapter 2 ------------------------------------------------------------------------


def test_K_R22_income_is_four_minus_the_destiny_roll() -> None:
    for value, income in ((1, 3), (2, 2), (3, 1), (4, 0)):
        state = destiny(new_game(chapter=2), NW, value)
        assert state.ap == value and state.warbands[NW].income == income
        assert state.warbands[NW].supply == 20 - income
        mana_ok(state)
    alt = destiny(new_game(chapter=2, mana_table=(3, 3, 1, 0)), NW, 2)
    assert alt.warbands[NW].income == 3
    assert destiny(new_game(chapter=1), NW, 1).warbands[NW].income == 0
    with pytest.raises(InvalidOptions, match="K-R22"):
        new_game(chapter=2, mana_table=(9, 2, 1, 0))


def test_K_R23_the_invasion_roll_grants_income_allocated_at_once() -> None:
    state = act(new_game(chapter=2), {"type": "ready"})[0]
    assert state.phase == "skills"
    for _ in range(4):
        state = act(state, {"type": "allocate", "warrior_attack": 4})[0]
    state = roll(state, 1)
    assert state.warbands[NW].income == 3
    state = act(state, {"type": "quake_move", "region": "row4", "direction": "east"})[0]
    assert state.phase == "quake_allocate"
    state = act(state, {"type": "allocate", "guardian_defence": 3})[0]
    assert state.warbands[NW].skills == (4, 0, 0, 3, 0, 0) and state.warbands[NW].supply == 13
    assert state.phase == "quake" and RULES.current_player(state) == 1
    off = act(new_game(chapter=2, invasion_grants_mana=False), {"type": "ready"})[0]
    for _ in range(4):
        off = act(off, {"type": "allocate", "warrior_attack": 4})[0]
    off = roll(off, 1)
    off = act(off, {"type": "quake_move", "region": "row4", "direction": "east"})[0]
    assert off.phase == "quake" and off.warbands[NW].supply == 16


def test_K_R24_income_is_capped_by_supply_and_unallocated_income_returns() -> None:
    state = with_band(new_game(chapter=2), NW, supply=1, skills=(19, 0, 0, 0, 0, 0))
    state = destiny(state, NW, 1)
    assert state.warbands[NW].income == 1 and state.warbands[NW].supply == 0
    full = destiny(new_game(chapter=2), NW, 1)
    ended = act(full, {"type": "end_turn"})[0]
    assert ended.phase == "allocate"
    kept = act(ended, {"type": "allocate", "warrior_attack": 1})[0]
    assert kept.warbands[NW].skills[0] == 1 and kept.warbands[NW].supply == 19
    assert kept.warbands[NW].income == 0
    mana_ok(kept)
    with pytest.raises(RuleViolation, match="K-R24"):
        act(ended, {"type": "allocate", "pool": 1})  # no pool in Chapter 2
    with pytest.raises(RuleViolation, match="K-R24"):
        act(ended, {"type": "allocate", "warrior_attack": 4})  # more than the income


def test_K_R25_exactly_four_starting_mana_on_the_skills() -> None:
    state = act(new_game(chapter=2), {"type": "ready"})[0]
    with pytest.raises(RuleViolation, match="K-R25"):
        act(state, {"type": "allocate", "warrior_attack": 3})
    with pytest.raises(RuleViolation, match="K-R25"):
        act(state, {"type": "allocate", "warrior_attack": 3, "pool": 1})
    state = act(state, {"type": "allocate", "colossus_defence": 4})[0]
    assert state.warbands[NW].skills == (0, 0, 0, 0, 0, 4)
    assert state.warbands[NW].supply == 16
    listed = list(RULES.legal_actions(state))
    assert len(listed) == 126  # every split of 4 over 6 slots


def test_K_R36_pool_holds_five_and_never_pays_for_skills() -> None:
    state = with_band(destiny(new_game(chapter=3), NW, 1), NW, pool=4, supply=13)
    ended = act(state, {"type": "end_turn"})[0]
    with pytest.raises(RuleViolation, match="K-R36"):
        act(ended, {"type": "allocate", "pool": 2})
    with pytest.raises(RuleViolation, match="K-R24"):
        act(ended, {"type": "allocate", "warrior_attack": 4})  # income 3; pool cannot help
    ok = act(ended, {"type": "allocate", "pool": 1, "warrior_attack": 2})[0]
    assert ok.warbands[NW].pool == 5
    mana_ok(ok)
    ch2 = act(destiny(new_game(chapter=2), NW, 1), {"type": "end_turn"})[0]
    with pytest.raises(RuleViolation):
        act(ch2, {"type": "allocate", "pool": 1})


# --- Chapter 3: weapons -------------------------------------------------------------------


def test_K_R26_one_distinct_weapon_per_warband_or_all_four() -> None:
    state = new_game(chapter=3)
    assert [b.weapon for b in state.warbands] == ["sword", "whip", "spear", "hammer"]
    chosen = new_game(chapter=3, weapons=("hammer", "spear", "whip", "sword"))
    assert chosen.warbands[NW].weapon == "hammer"
    with pytest.raises(InvalidOptions, match="K-R26"):
        new_game(chapter=3, weapons=("sword", "sword", "spear", "hammer"))
    # one_per_warband: NW (Sword) cannot charge the Hammer
    ended = act(destiny(new_game(chapter=3), NW, 1), {"type": "end_turn"})[0]
    with pytest.raises(RuleViolation, match="K-R27"):
        act(ended, {"type": "allocate", "charge": "hammer"})
    every = act(
        destiny(new_game(chapter=3, titan_weapons="all_four"), NW, 1), {"type": "end_turn"}
    )[0]
    charged = act(every, {"type": "allocate", "charge": "hammer"})[0]
    assert charged.warbands[NW].charges == (0, 0, 0, 2)


def test_K_R27_charge_with_exactly_two_of_this_turns_income() -> None:
    ended = act(destiny(new_game(chapter=3), NW, 1), {"type": "end_turn"})[0]
    charged = act(ended, {"type": "allocate", "charge": "sword", "warrior_attack": 1})[0]
    band = charged.warbands[NW]
    assert band.charges == (2, 0, 0, 0) and band.skills[0] == 1 and band.supply == 17
    mana_ok(charged)
    poor = act(destiny(new_game(chapter=3), NW, 3), {"type": "end_turn"})[0]  # income 1
    with pytest.raises(RuleViolation, match="K-R24"):
        act(poor, {"type": "allocate", "charge": "sword"})
    again = act(destiny(charge(new_game(chapter=3), NW, "sword"), NW, 1), {"type": "end_turn"})[0]
    with pytest.raises(RuleViolation, match="K-R27"):
        act(again, {"type": "allocate", "charge": "sword"})
    pooled = with_band(destiny(new_game(chapter=3), NW, 3), NW, pool=2, supply=17)
    pooled_end = act(pooled, {"type": "end_turn"})[0]
    with pytest.raises(RuleViolation, match="K-R27"):
        act(pooled_end, {"type": "allocate", "charge": "sword", "charge_from_pool": 1})
    opt = pooled.model_copy(
        update={"options": pooled.options.model_copy(update={"charge_from_pool": True})}
    )
    done = act(
        act(opt, {"type": "end_turn"})[0],
        {"type": "allocate", "charge": "sword", "charge_from_pool": 1},
    )[0]
    assert done.warbands[NW].charges[0] == 2 and done.warbands[NW].pool == 1
    mana_ok(done)


def colossus_at(
    weapon: str, at: str, mp: int, enemies: dict[int, str], **skills: int
) -> KolossusState:
    """NW's Colossus on ``at`` with ``weapon`` charged (all_four), ready to move ``mp``."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): at, **enemies})
    if skills:
        state = set_skills(state, NE, **skills)
    state = charge(state, NW, weapon)
    return ready_to_move(state, NW, "C", mp)


def test_K_R28_spear_and_hammer_act_after_the_move_even_after_a_beat() -> None:
    state = colossus_at("spear", "5,0", 4, {pid(NE, "W"): "4,0", pid(NE, "W2"): "4,3"})
    after = move(state, "5,0", "4,0")  # beats the Warrior, 3 MP left
    assert after.phase == "after_move" and after.mp == 3
    assert {a["target"] for a in listed(after, "spear")} == {"4,3"}
    done = act(after, {"type": "spear", "target": "4,3"})[0]
    assert done.minis[pid(NE, "W2")] == -1 and done.phase == "turn"
    assert done.warbands[NW].charges[2] == 0  # used once per charge
    mana_ok(done)


def test_K_R29_spear_line_must_be_free_of_any_miniature_levels_ignored() -> None:
    state = colossus_at(
        "spear", "5,0", 9, {pid(NE, "W"): "5,5", pid(NE, "W2"): "2,0", pid(NW, "W"): "3,0"}
    )
    after = move(state, "5,0", "5,0")
    targets = {a["target"] for a in listed(after, "spear")}
    assert "5,5" in targets  # over the pyramid, levels ignored
    assert "2,0" not in targets  # behind NW's own Warrior on 3,0
    with pytest.raises(RuleViolation, match="K-R29"):
        act(after, {"type": "spear", "target": "2,0"})


def test_K_R30_hammer_beats_a_chosen_affordable_subset() -> None:
    enemies = {pid(NE, "W"): "4,0", pid(NE, "G"): "6,0", pid(NE, "W2"): "5,1"}
    state = colossus_at("hammer", "5,0", 3, enemies, guardian_defence=2)
    after = move(state, "5,0", "5,0")
    subsets = {tuple(a["targets"]) for a in listed(after, "hammer")}
    assert ("4,0", "5,1") in subsets and ("6,0",) in subsets
    assert ("4,0", "5,1", "6,0") not in subsets  # 1 + 3 + 1 = 5 > 3
    with pytest.raises(RuleViolation, match="K-R30"):
        act(after, {"type": "hammer", "targets": ["4,0", "6,0"]})  # 1 + 3
    done = act(after, {"type": "hammer", "targets": ["4,0", "5,1"]})[0]
    assert done.minis[pid(NE, "W")] == -1 and done.minis[pid(NE, "W2")] == -1
    assert done.minis[pid(NE, "G")] == sq("6,0")


def test_K_R30_a_hammer_target_that_is_no_adjacent_enemy_is_refused() -> None:
    state = colossus_at("hammer", "5,0", 4, {pid(NE, "W"): "4,0", pid(NE, "W2"): "3,0"})
    after = move(state, "5,0", "5,0")
    for targets in (["3,0"], ["4,0", "3,0"], ["5,1"]):  # too far, too far, empty
        with pytest.raises(RuleViolation, match=r"holds no enemy next to your Colossus.*K-R30"):
            act(after, {"type": "hammer", "targets": targets})
    own = place(after, {pid(NW, "W"): "6,0"})
    with pytest.raises(RuleViolation, match="K-R30"):
        act(own, {"type": "hammer", "targets": ["6,0"]})  # a miniature of its own warband


def test_K_R31_sword_continues_after_a_beat_with_the_turn_still_free() -> None:
    state = colossus_at("sword", "5,0", 4, {pid(NE, "W"): "4,0", pid(NE, "W2"): "3,0"})
    reach = {cell(s) for s in all_destinations(state, pid(NW, "C"), 4)}
    assert {"4,0", "3,0", "2,1"} <= reach or {"4,0", "3,0", "3,1"} <= reach
    both = move(state, "5,0", "3,1", path=["4,0", "3,0", "3,1"])
    assert both.minis[pid(NE, "W")] == -1 and both.minis[pid(NE, "W2")] == -1
    assert both.warbands[NW].charges[0] == 0
    # beating with exactly 0 MP left is fine when Defence is 0
    exact = colossus_at("sword", "5,0", 2, {pid(NE, "W"): "4,0", pid(NE, "W2"): "3,0"})
    end = move(exact, "5,0", "3,0", path=["4,0", "3,0"])
    assert end.minis[pid(NE, "W2")] == -1
    no_sword = colossus_at("whip", "5,0", 4, {pid(NE, "W"): "4,0"})
    with pytest.raises(RuleViolation, match="K-R31"):
        move(no_sword, "5,0", "3,0", path=["4,0", "3,0"])


def test_K_R32_whip_ignores_defence_for_every_beat_of_the_activation() -> None:
    state = colossus_at("whip", "5,0", 1, {pid(NE, "C"): "4,0"}, colossus_defence=3)
    assert sq("4,0") in all_destinations(state, pid(NW, "C"), 1)
    beaten = move(state, "5,0", "4,0")
    assert beaten.minis[pid(NE, "C")] == -1 and beaten.warbands[NW].charges[1] == 0
    with pytest.raises(RuleViolation, match="K-R13"):
        move(state, "5,0", "4,0", whip=False)
    # with all_four: the Whip also covers the later Spear of the same activation
    combo = colossus_at(
        "whip",
        "5,0",
        4,
        {pid(NE, "C"): "4,0", pid(NE, "G"): "4,3"},
        colossus_defence=3,
        guardian_defence=3,
    )
    combo = charge(combo, NW, "spear")
    after = move(combo, "5,0", "4,0", whip=True)
    assert after.whip_active and after.mp == 3
    done = act(after, {"type": "spear", "target": "4,3"})[0]  # distance 3 + Defence 0
    assert done.minis[pid(NE, "G")] == -1


def test_K_R42_a_charge_is_spent_only_when_its_effect_applies() -> None:
    state = colossus_at("sword", "5,0", 4, {pid(NE, "W"): "4,0"})
    plain = move(state, "5,0", "4,0")  # a beat that ends the move: no continuation
    assert plain.warbands[NW].charges[0] == 2
    spear = colossus_at("spear", "5,0", 1, {})
    after = move(spear, "5,0", "5,1")
    assert after.phase == "turn" and after.warbands[NW].charges[2] == 2  # no target
    whip = colossus_at("whip", "5,0", 4, {pid(NE, "W"): "4,0"})
    kept = move(whip, "5,0", "4,0")  # Defence 0: the Whip was not needed
    assert kept.warbands[NW].charges[1] == 2
    used = move(whip, "5,0", "4,0", whip=True)
    assert used.warbands[NW].charges[1] == 0
    hammer = colossus_at("hammer", "5,0", 4, {pid(NE, "W"): "4,0"})
    waiting = move(hammer, "5,0", "5,0")
    finished = act(waiting, {"type": "finish"})[0]
    assert finished.warbands[NW].charges[3] == 2


def test_K_R42_a_sword_move_without_the_sword_charged_is_refused() -> None:
    state = colossus_at("whip", "5,0", 4, {})  # all four weapons, only the Whip charged
    with pytest.raises(RuleViolation, match=r"Sword of Storm is not charged.*K-R42"):
        move(state, "5,0", "5,1", sword=True)
    with pytest.raises(RuleViolation, match=r"Sword of Storm is not charged.*K-R42"):
        move(state, "5,0", "5,0", sword=True)


# --- Chapter 3: powers ---------------------------------------------------------------------


def test_K_R33_initiative_adds_one_ap_per_pool_mana_up_to_four() -> None:
    state = with_band(destiny(new_game(chapter=3), NW, 2), NW, pool=3, supply=15)
    assert state.warbands[NW].income == 2
    one = act(state, {"type": "initiative"})[0]
    assert one.ap == 3 and one.warbands[NW].pool == 2 and one.warbands[NW].income == 1
    two = act(one, {"type": "initiative"})[0]
    assert two.ap == 4 and two.warbands[NW].income == 0
    mana_ok(two)
    with pytest.raises(RuleViolation, match="K-R33"):
        act(two, {"type": "initiative"})
    once = state.model_copy(
        update={"options": state.options.model_copy(update={"initiative_once_per_turn": True})}
    )
    with pytest.raises(RuleViolation, match="K-R33"):
        act(act(once, {"type": "initiative"})[0], {"type": "initiative"})
    started = act(state, {"type": "choose_class", "cls": "W"})[0]
    started = roll(started, 1)
    warrior = cell(started.minis[pid(NW, "W")])
    started = move(started, warrior, warrior)
    with pytest.raises(RuleViolation, match="K-R33"):
        act(started, {"type": "initiative"})


def test_K_R34_earthquake_moves_any_region_with_its_miniatures() -> None:
    state = new_game(chapter=3)
    state = place(state, {pid(NE, "G"): "0,3", pid(NW, "W"): "0,4"})
    state = set_skills(state, NE, guardian_defence=5)
    state = with_band(in_turn(state, NW), NW, pool=3, supply=17)
    shaken, events = act(state, {"type": "earthquake", "region": "col3", "direction": "north"})
    assert shaken.minis[pid(NE, "G")] == -1  # beaten regardless of Defence
    assert shaken.beats[-1].cause == "earthquake"
    assert shaken.terrain[1][3] == "W" and shaken.terrain[8][3] == "."
    assert shaken.warbands[NW].pool == 0 and shaken.warbands[NW].supply == 20
    assert isinstance(events[0], TableChanges)
    row = act(state, {"type": "earthquake", "region": "row0", "direction": "east"})[0]
    assert row.minis[pid(NW, "W")] == sq("0,5")  # a miniature on a bare square moves too
    citadel = with_band(in_turn(new_game(chapter=3), NW), NW, pool=3, supply=17)
    citadel = citadel.model_copy(
        update={
            "terrain": tuple(r if i != 5 else "..........C" for i, r in enumerate(citadel.terrain))
        }
    )
    with pytest.raises(RuleViolation, match="K-R34"):
        act(citadel, {"type": "earthquake", "region": "row5", "direction": "east"})
    mid_move = ready_to_move(with_band(state, NW, pool=3, supply=17), NW, "W", 2)
    with pytest.raises(RuleViolation):
        act(mid_move, {"type": "earthquake", "region": "row0", "direction": "east"})
    poor = with_band(state, NW, pool=2, supply=18)
    with pytest.raises(RuleViolation, match="K-R34"):
        act(poor, {"type": "earthquake", "region": "row0", "direction": "east"})


def test_K_R35_rebirth_onto_a_free_start_square_then_activate() -> None:
    state = new_game(chapter=3)
    state = place(state, {pid(NW, "G"): None, pid(NW, "W"): "5,0"})
    state = with_band(in_turn(state, NW, ap=2), NW, pool=2, supply=18)
    free = cell(new_game().minis[pid(NW, "W")])
    occupied = cell(state.minis[pid(NW, "C")])
    with pytest.raises(RuleViolation, match="K-R35"):
        act(state, {"type": "rebirth", "cls": "G", "to": occupied})
    with pytest.raises(RuleViolation, match="K-R35"):
        act(state, {"type": "rebirth", "cls": "G", "to": "5,5"})
    with pytest.raises(RuleViolation, match="K-R35"):
        act(state, {"type": "rebirth", "cls": "C", "to": free})  # not beaten
    reborn, events = act(state, {"type": "rebirth", "cls": "G", "to": free})
    assert reborn.minis[pid(NW, "G")] == sq(free) and reborn.warbands[NW].pool == 0
    assert isinstance(events[0], TableChanges) and "reborn" in events[0].changes[0].instruction
    activated = roll(act(reborn, {"type": "choose_class", "cls": "G"})[0], 1, 1)
    moved = move(activated, free, free)
    assert pid(NW, "G") in moved.activated
    mana_ok(moved)


def test_K_R14_a_beaten_colossus_is_reborn_for_three() -> None:
    state = place(new_game(chapter=3), {pid(SW, "C"): None})
    state = with_band(in_turn(state, SW), SW, pool=3, supply=17)
    free = cell(new_game().minis[pid(SW, "C")])
    reborn = act(state, {"type": "rebirth", "cls": "C", "to": free})[0]
    assert reborn.minis[pid(SW, "C")] == sq(free) and reborn.warbands[SW].pool == 0
    _ = SE


Strike = tuple[dict[int, str], int, dict[str, int], list[dict[str, Any]], str]
"""The enemies placed, the MP rolled, NE's skills, the actions and the beat's cause."""

COLOSSUS_STRIKES: dict[str, Strike] = {
    "spear": (
        {pid(NE, "C"): "5,3"},
        4,
        {},
        [{"type": "move", "from": "5,0", "to": "5,0"}, {"type": "spear", "target": "5,3"}],
        "spear",
    ),
    "hammer": (
        {pid(NE, "C"): "4,0"},
        1,
        {},
        [{"type": "move", "from": "5,0", "to": "5,0"}, {"type": "hammer", "targets": ["4,0"]}],
        "hammer",
    ),
    "sword": (
        {pid(NE, "W"): "4,0", pid(NE, "C"): "3,0"},
        2,
        {},
        [{"type": "move", "from": "5,0", "to": "3,0", "path": ["4,0", "3,0"]}],
        "sword",
    ),
    "whip": (
        {pid(NE, "C"): "4,0"},
        1,
        {"colossus_defence": 3},
        [{"type": "move", "from": "5,0", "to": "4,0", "whip": True}],
        "move",
    ),
}


@pytest.mark.parametrize("weapon", sorted(COLOSSUS_STRIKES))
def test_K_R14_an_enemy_colossus_falls_to_every_titan_weapon(weapon: str) -> None:
    """K-R14: the Colossus is no more immortal than any miniature: the Spear, the Hammer,
    the Sword's continuation and the Whip beat an enemy Colossus, and each strike is
    offered among the legal actions before it is made."""
    enemies, mp, skills, actions, cause = COLOSSUS_STRIKES[weapon]
    state = colossus_at(weapon, "5,0", mp, enemies, **skills)
    for action in actions:
        offered = listed(state, action["type"])
        if action["type"] == "move":  # listed moves take the canonical way: no path, no flags
            assert action["to"] in {a["to"] for a in offered if a["from"] == action["from"]}
        else:
            assert action in offered
        state = act(state, action)[0]
    assert state.minis[pid(NE, "C")] == -1 and state.phase == "turn"
    beat = state.beats[-1]
    assert (beat.piece, beat.by, beat.cause) == (pid(NE, "C"), NW, cause)
    assert RULES.outcome(state) is None  # NE still has miniatures on the board
    mana_ok(state)


def test_K_R14_an_earthquake_throws_a_colossus_off_the_board() -> None:
    """K-R14: an Earthquake that pushes the region holding an enemy Colossus over the
    edge beats it like any miniature, whatever its Defence."""
    state = new_game(chapter=3)
    state = set_skills(place(state, {pid(NE, "C"): "0,3"}), NE, colossus_defence=4)
    state = with_band(in_turn(state, NW), NW, pool=3, supply=17)
    quake = {"type": "earthquake", "region": "col3", "direction": "north"}
    assert quake in listed(state, "earthquake")
    shaken, events = act(state, quake)
    assert shaken.minis[pid(NE, "C")] == -1
    beat = shaken.beats[-1]
    assert (beat.piece, beat.by, beat.cause) == (pid(NE, "C"), NW, "earthquake")
    assert isinstance(events[0], TableChanges)
    assert "Remove Krell's Colossus from (0, 3) (beaten)" in [
        c.instruction for c in events[0].changes
    ]
    mana_ok(shaken)


def test_K_R14_rebirth_of_a_colossus_is_refused_for_less_than_three_pool_mana() -> None:
    """K-R14: Rebirth has a Colossus price, 3 pool mana. With 2 in the pool only a
    Warrior or Guardian could come back: the Colossus is not offered and asking for it is
    refused (K-R35), leaving the position as it was. With 3 it is offered on every free
    square of the start zone, and the reborn Colossus may still be activated."""
    state = place(new_game(chapter=3), {pid(SW, "C"): None, pid(SW, "W"): None})
    free = cell(new_game().minis[pid(SW, "C")])
    poor = with_band(in_turn(state, SW), SW, pool=2, supply=18)
    assert {a["cls"] for a in listed(poor, "rebirth")} == {"W"}
    before = poor.model_dump()
    with pytest.raises(RuleViolation, match="K-R35") as info:
        act(poor, {"type": "rebirth", "cls": "C", "to": free})
    assert "costs 3 pool mana" in info.value.message
    assert poor.model_dump() == before and poor.minis[pid(SW, "C")] == -1
    rich = with_band(in_turn(state, SW), SW, pool=3, supply=17)
    zone = {cell(s) for s in rich.warbands[SW].zone if s not in rich.minis}
    assert {a["to"] for a in listed(rich, "rebirth") if a["cls"] == "C"} == zone
    reborn = act(rich, {"type": "rebirth", "cls": "C", "to": free})[0]
    assert reborn.minis[pid(SW, "C")] == sq(free) and reborn.warbands[SW].pool == 0
    assert {"type": "choose_class", "cls": "C"} in listed(reborn, "choose_class")
    mana_ok(reborn)
