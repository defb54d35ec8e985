"""The sensing board through the real reader: the simulated board on a pty, the codec,
the occupancy tracker; lost, duplicated and out-of-order changes, noise, reconnects."""

from __future__ import annotations

import queue
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.board.messages import BoardOccupancy
from firmware_bridge.board.tracker import OccupancyTracker
from firmware_bridge.dice.messages import DiceMessage, TrayState
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_board import SimSensingBoard
from firmware_bridge.frames import Occupancy, OccupancyChange, encode_frame
from tests.helpers.dice_serial import Seen, drain_until, fast_settings, has_state, start_reader

START = ("0,0", "0,1", "10,10")


@pytest.fixture
def board_path(tmp_path: Path) -> Path:
    return tmp_path / "sensing-board"


@pytest.fixture
def board(board_path: Path) -> Iterator[SimSensingBoard]:
    device = SimSensingBoard(str(board_path), occupied=START, boot_id=0x55)
    yield device
    device.stop()


def occupancies(seen: Seen) -> list[frozenset[str] | None]:
    return [m.occupied for m in seen if isinstance(m, BoardOccupancy)]


def sensed(wanted: frozenset[str] | set[str] | None) -> Callable[[Seen], bool]:
    """Done once the last occupancy posted is ``wanted``."""
    target = None if wanted is None else frozenset(wanted)
    return lambda seen: bool(occupancies(seen)) and occupancies(seen)[-1] == target


def connect(
    board: SimSensingBoard,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    seen: Seen,
    path: Path,
) -> SerialDiceTray:
    board.start()
    reader = start_reader(readers, inbox, fast_settings(path), name="sensing-board")
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
    assert drain_until(inbox, sensed(set(START)), seen)
    return reader


def test_connect_sends_the_whole_bitmap_then_each_change(
    board: SimSensingBoard,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    board_path: Path,
) -> None:
    seen: Seen = []
    connect(board, readers, inbox, seen, board_path)
    first = next(m for m in seen if isinstance(m, BoardOccupancy))
    assert first.resync and first.device == "sim-board"
    board.lift("0,0")
    board.place("5,5")
    assert drain_until(inbox, sensed({"0,1", "5,5", "10,10"}), seen)
    assert occupancies(seen)[-2:] == [
        frozenset({"0,1", "10,10"}),
        frozenset({"0,1", "5,5", "10,10"}),
    ]


def test_a_duplicated_change_and_line_noise_change_nothing(
    board: SimSensingBoard,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    board_path: Path,
) -> None:
    seen: Seen = []
    connect(board, readers, inbox, seen, board_path)
    board.place("3,3")
    board.repeat_last_change()
    board.send_raw(b"\x07\x01\xff\x00garbage\x00" + encode_frame(OccupancyChange(1, 9, True)))
    board.lift("0,1")
    assert drain_until(inbox, sensed({"0,0", "3,3", "10,10"}), seen)
    assert occupancies(seen)[-2:] == [
        frozenset({"0,0", "0,1", "3,3", "10,10"}),
        frozenset({"0,0", "3,3", "10,10"}),
    ]


def test_a_lost_change_makes_the_board_unknown_until_the_whole_bitmap_comes(
    board: SimSensingBoard,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    board_path: Path,
) -> None:
    seen: Seen = []
    connect(board, readers, inbox, seen, board_path)
    bitmaps = board.bitmaps_sent
    board.lose_changes = 1
    board.lift("0,0")  # lost on the wire
    board.place("4,4")  # arrives after a gap
    assert drain_until(inbox, sensed({"0,1", "4,4", "10,10"}), seen)
    assert None in occupancies(seen), "unknown while waiting: never a guess"
    assert frozenset({"0,0", "0,1", "4,4", "10,10"}) not in occupancies(seen)
    assert board.bitmaps_sent == bitmaps + 1


def test_unplugged_mid_move_then_replugged_resynchronises(
    board: SimSensingBoard,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    board_path: Path,
) -> None:
    seen: Seen = []
    connect(board, readers, inbox, seen, board_path)
    board.lift("0,0")  # the miniature is in the hand ...
    assert drain_until(inbox, sensed({"0,1", "10,10"}), seen)
    board.unplug()
    assert drain_until(inbox, sensed(None), seen)
    board.place("2,2")  # ... and put down while the cable is out
    board.replug()
    assert drain_until(inbox, sensed({"0,1", "2,2", "10,10"}), seen)
    assert drain_until(inbox, has_state(TrayState.CONNECTED, times=2), seen)


# ---------------------------------------------------------------- the tracker, fuzzed


Step = tuple[str, int]
steps = st.lists(
    st.tuples(
        st.sampled_from(["toggle", "toggle", "toggle", "lose", "repeat", "reorder", "reconnect"]),
        st.integers(0, 15),
    ),
    max_size=60,
)


@given(steps)
@settings(max_examples=300)
def test_the_tracker_only_ever_posts_a_position_the_board_really_had(plan: list[Step]) -> None:
    """Noise on the numbering (lost, repeated, swapped changes, reconnects): every known
    occupancy the tracker answers is one the board went through, in order, and the
    whole bitmap always brings it back to the board's present."""
    rows, cols = 4, 4
    truth: set[int] = set()
    history = [frozenset[int]()]  # the board's occupancy after each change
    seq = 0
    tracker = OccupancyTracker()
    tracker.on_bitmap(Occupancy(rows, cols, 0, frozenset()))
    posted: list[int] = []  # index into history of each known answer
    wire: list[OccupancyChange] = []

    def deliver(change: OccupancyChange) -> None:
        answer = tracker.on_change(change)
        if answer is not None:
            rows_cols = (key.split(",") for key in answer)
            assert frozenset(int(r) * cols + int(c) for r, c in rows_cols) == history[change.seq]
            posted.append(change.seq)
        if tracker.wants_bitmap:
            resync()

    def resync() -> None:
        answer = tracker.on_bitmap(Occupancy(rows, cols, seq, frozenset(truth)))
        assert len(answer) == len(truth)
        posted.append(seq)

    for action, cell in plan:
        if action == "toggle":
            seq += 1
            truth.symmetric_difference_update({cell})
            history.append(frozenset(truth))
            wire.append(OccupancyChange(seq, cell, cell in truth))
        elif action == "lose" and wire:
            wire.pop()
        elif action == "repeat" and wire:
            wire.append(wire[-1])
        elif action == "reorder" and len(wire) >= 2:
            wire[-1], wire[-2] = wire[-2], wire[-1]
        elif action == "reconnect":
            for change in wire:
                deliver(change)
            wire.clear()
            tracker = OccupancyTracker()
            resync()
    for change in wire:
        deliver(change)
    if tracker.wants_bitmap or tracker.seq != seq:
        resync()
    assert posted == sorted(posted), "never back in time"
    assert tracker.snapshot() == frozenset(f"{i // cols},{i % cols}" for i in truth)


def test_the_pty_path_survives_a_random_mix_of_faults(
    board: SimSensingBoard,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    board_path: Path,
) -> None:
    """Random lifts and places with lost frames, repeats and noise: the last occupancy
    posted is the board's, and every known one was a real position of the board."""
    rng = random.Random(15)
    seen: Seen = []
    connect(board, readers, inbox, seen, board_path)
    positions = {board.occupied}
    for _ in range(120):
        roll = rng.random()
        cell = f"{rng.randrange(11)},{rng.randrange(11)}"
        if roll < 0.08:
            board.lose_changes = 1
        elif roll < 0.14:
            board.repeat_last_change()
        elif roll < 0.18:
            board.send_raw(rng.randbytes(rng.randint(1, 30)))
        if cell in board.occupied:
            board.lift(cell)
        else:
            board.place(cell)
        positions.add(board.occupied)
    board.place("5,5")
    board.lift("5,5")  # a last change after the faults, so a lost one shows as a gap
    positions.add(board.occupied)
    assert drain_until(inbox, sensed(board.occupied), seen)
    known = [o for o in occupancies(seen) if o is not None]
    assert set(known) <= positions


def test_a_board_that_senses_landscapes_reports_them_apart(
    tmp_path: Path,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
) -> None:
    path = tmp_path / "landscape-board"
    board = SimSensingBoard(str(path), occupied={"0,0"}, landscapes={"5,5", "5,6"})
    board.start()
    try:
        start_reader(readers, inbox, fast_settings(path), name="sensing-board")
        seen: Seen = []

        def landscapes(wanted: set[str]) -> Callable[[Seen], bool]:
            return lambda seen: any(
                isinstance(m, BoardOccupancy) and m.landscapes == frozenset(wanted) for m in seen
            )

        assert drain_until(inbox, landscapes({"5,5", "5,6"}), seen)
        board.lift("5,6", layer=1)
        board.place("5,7", layer=1)
        assert drain_until(inbox, landscapes({"5,5", "5,7"}), seen)
        last = [m for m in seen if isinstance(m, BoardOccupancy)][-1]
        assert last.occupied == frozenset({"0,0"}), "the miniatures' layer apart"
        assert board.landscapes == frozenset({"5,5", "5,7"})
    finally:
        board.stop()
