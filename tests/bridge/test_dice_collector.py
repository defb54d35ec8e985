"""DiceCollector: single-die results -> the Roll that answers the pending DiceRequest."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.dice import DiceRequest, Roll, resolve_roll
from companion.errors import RuleViolation
from companion.rng import Rng
from firmware_bridge.dice.collector import DiceCollector
from firmware_bridge.dice.messages import DieResult

GUARDIAN = DiceRequest(purpose="movement", label="Colossus movement", count=3, sides=4)
DESTINY = DiceRequest(purpose="destiny", label="Die of Destiny", count=1, sides=4)


def d4(face: int, seq: int = 1, device: str = "tray-1", die_id: int = 1) -> DieResult:
    return DieResult(device=device, die_id=die_id, face=face, faces=4, seq=seq)


def test_three_d4_results_make_one_electronic_roll() -> None:
    collector = DiceCollector()
    collector.expect(GUARDIAN)
    assert collector.add(d4(3, 1, die_id=1)).roll is None
    step = collector.add(d4(1, 2, die_id=2))
    assert step.accepted and step.roll is None and "2 of 3" in step.note
    step = collector.add(d4(4, 3, die_id=3))
    assert step.roll == Roll(values=(3, 1, 4), source="electronic", device="tray-1")
    assert collector.request is None, "a finished request is not answered twice"


def test_K_R07_electronic_faces_reach_the_referee_unchanged() -> None:
    collector = DiceCollector()
    collector.expect(GUARDIAN)
    roll = None
    for seq, face in enumerate((1, 4, 2), start=1):
        roll = collector.add(d4(face, seq)).roll
    assert roll is not None
    values, rng = resolve_roll(GUARDIAN, roll, Rng(seed=1))
    assert values == (1, 4, 2)  # no 5 - x inversion, no re-roll
    assert rng == Rng(seed=1), "the state's generator is not consumed by e-dice"


def test_a_die_of_the_wrong_kind_is_ignored_with_a_clear_message() -> None:
    collector = DiceCollector()
    collector.expect(GUARDIAN)
    step = collector.add(DieResult("tray-2", 1, 6, faces=6, seq=1))
    assert not step.accepted and step.roll is None
    assert step.note == "Ignored a d6 from tray-2: Colossus movement needs d4 dice."
    assert collector.faces == ()


def test_results_with_nothing_pending_are_ignored() -> None:
    step = DiceCollector().add(d4(2))
    assert not step.accepted and "no dice are wanted" in step.note


def test_a_new_request_drops_partial_results_but_the_same_one_keeps_them() -> None:
    collector = DiceCollector()
    collector.expect(GUARDIAN)
    collector.add(d4(2))
    collector.expect(GUARDIAN)
    assert collector.faces == (2,)
    collector.expect(DESTINY)
    assert not collector.faces
    assert collector.add(d4(4)).roll == Roll(values=(4,), source="electronic", device="tray-1")


def test_dice_from_two_devices_name_both() -> None:
    collector = DiceCollector()
    collector.expect(DiceRequest(purpose="m", label="Guardian movement", count=2, sides=4))
    collector.add(d4(1, device="tray-1"))
    roll = collector.add(d4(2, device="gpio-die")).roll
    assert roll is not None and roll.device == "tray-1+gpio-die"


@given(
    st.integers(1, 12),
    st.sampled_from([4, 6, 8]),
    st.lists(st.tuples(st.sampled_from([4, 6, 8, 20]), st.integers(1, 20)), max_size=40),
)
def test_a_finished_roll_always_satisfies_its_request(
    count: int, sides: int, throws: list[tuple[int, int]]
) -> None:
    request = DiceRequest(purpose="p", label="Test roll", count=count, sides=sides)
    collector = DiceCollector()
    collector.expect(request)
    for seq, (faces, face) in enumerate(throws):
        step = collector.add(DieResult("t", 1, face, faces, seq))
        if step.roll is not None:
            values, _ = resolve_roll(request, step.roll, Rng(seed=0))
            assert values == step.roll.values
            collector.expect(request)
        elif step.accepted:
            assert faces == sides and 1 <= face <= faces
    assert len(collector.faces) < count


def test_resolve_roll_refuses_a_wrong_count_so_the_collector_must_not_send_one() -> None:
    with pytest.raises(RuleViolation):
        resolve_roll(GUARDIAN, Roll(values=(1, 2), source="electronic"), Rng(seed=0))
