"""The benches' own tools: each bench answers ``--help``, and ``--pi-profile`` degrades
to what the machine allows (no root, no cgroup, no cpu controller) without failing.

Nothing here measures or asserts a time; the cgroup file systems are folders in a
temporary directory, never the machine's own /sys/fs/cgroup.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import instructions  # noqa: E402
import pi_profile  # noqa: E402
from instructions import ThreadCounter, thread_counter  # noqa: E402
from pi_profile import PiProfile, Quota, make_quota, remove_quota  # noqa: E402


@pytest.mark.parametrize("script", ["bench_interactions.py", "bench_kiosk.py", "bench_referee.py"])
def test_each_bench_answers_help_and_offers_the_pi_profile(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / script), "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "--pi-profile" in done.stdout and "--pi-slowdown" in done.stdout


def test_interactions_bench_refuses_an_unknown_game() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "bench_interactions.py"), "--games", "chess"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "unknown game(s): chess" in done.stderr


def _sections(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``bench_interactions.py --sections`` run as a person runs it; its output."""
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "bench_interactions.py"),
            *args,
            "--dir",
            str(tmp_path),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


BOARD_TOUCH = "kiosk.widgets.board:BoardWidget.on_touch_down"
TOUCH_SECTIONS = (
    *("--profile", "touch", "--game", "beast_master", "--touches", "2", "--sections"),
    f"{BOARD_TOUCH},kivy.uix.label:Label.texture_update@",
)


def _board_touch_row(out: str) -> list[str]:
    """The board's touch handler's row, split: in all, before the first frame, calls."""
    lines = out.splitlines()
    touched = [line for line in lines if BOARD_TOUCH in line]
    assert len(touched) == 1 and " 1.0 calls " in touched[0], out
    assert any("kivy.uix.label:Label.texture_update " in line for line in lines), out
    return touched[0].split()


def test_sections_count_the_named_functions_in_each_touch(tmp_path: Path) -> None:
    """``--sections`` wraps the named functions in the real app (offscreen, mock GL) and
    prints each one's calls per touch: a board tap runs the board's touch handler once,
    all of it before the first frame drawn (the next column). Its instructions are
    printed where this machine has a counter (where not, the next test's run is this
    machine's: the same app started again would check the same)."""
    if thread_counter() is None:
        pytest.skip("no instruction counter on this machine: the run without one is the next test")
    out = _sections(tmp_path, *TOUCH_SECTIONS)
    row = _board_touch_row(out)
    in_all, before_first_frame = row[0:3:2]
    assert float(in_all) > 0 and before_first_frame == in_all, out


def test_sections_without_an_instruction_counter_still_count_the_calls(tmp_path: Path) -> None:
    """A machine whose kernel refuses ``perf_event_open`` (a virtual machine without a
    hardware counter, a strict ``perf_event_paranoid``), taken here on any machine by
    ``BENCH_INSTRUCTION_COUNTER=off``: the calls are counted, the instructions are said
    to be missing rather than printed as zeros."""
    env = {**os.environ, instructions.SWITCH: "off"}
    out = _sections(tmp_path, *TOUCH_SECTIONS, env=env)
    row = _board_touch_row(out)
    assert "no instruction counter on this machine" in out, out
    assert row[0] == "—" and row[1] == "—" and "0.000" not in out, out


def test_the_switch_turns_the_counter_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(instructions.SWITCH, "off")
    assert thread_counter() is None


def test_a_counter_reads_the_kernels_eight_byte_count() -> None:
    """The counting logic on a fake counter: the kernel's read of a counter's file is
    one unsigned 64-bit count, which is all ``ThreadCounter`` reads (a pipe stands in)."""
    read_end, write_end = os.pipe()
    counter = ThreadCounter(read_end)
    try:
        os.write(write_end, struct.pack("Q", 1_234_567) + struct.pack("Q", 2**40 + 3))
        assert counter.read() == 1_234_567
        assert counter.read() == 2**40 + 3
    finally:
        counter.close()
        os.close(write_end)


def test_screen_changes_can_be_profiled_by_sections(tmp_path: Path) -> None:
    """``--profile screens`` covers every screen change: the setup opened twice (the
    game's start and the round's) among the round's seven changes."""
    out = _sections(
        tmp_path,
        *("--profile", "screens", "--game", "builders", "--rounds", "1"),
        *("--sections", "kiosk.app:Kiosk.open_setup"),
    )
    assert "(7 screen changes;" in out, out
    opened = [line for line in out.splitlines() if "kiosk.app:Kiosk.open_setup" in line]
    assert len(opened) == 1 and " 0.3 calls " in opened[0], out


def test_a_touch_is_shown_as_its_highlight_frame_and_as_settled() -> None:
    """The target is the frame that shows the highlight; the middle column a frame later
    is in the settled row, with its own frames and GL draw."""
    import bench_interactions as bench

    touches = [
        {
            "first_frame_cpu_ms": 2.0 + i,
            "cpu_ms": 3.0 + i,
            "draw_ms": 1.0,
            "frames": 2,
            "wall_first_ms": 4.0,
            "wall_last_ms": 40.0,
        }
        for i in range(3)
    ]
    rows = bench.rows_of({"touch_target": "a selectable space", "samples": {"touch": touches}})
    highlight, settled = rows[0], rows[1]
    assert highlight.label == "touch → highlight" and settled.label == "touch → settled"
    assert highlight.cpu is not None and highlight.cpu.median == 3.5  # the first kept apart
    assert settled.cpu is not None and settled.cpu.median == 4.5
    assert highlight.draw is None and settled.frames is not None


def test_a_touch_settled_over_two_frames_is_judged_by_its_largest_frame(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The budget is a frame's: a touch whose column follows a frame later may sum to
    more than it, but no one frame of it may."""
    import bench_interactions as bench

    def touches(largest: float) -> list[dict[str, float]]:
        return [
            {"first_frame_cpu_ms": 2.0, "cpu_ms": 4.0, "largest_frame_cpu_ms": largest}
            for _ in range(4)
        ]

    for largest, expected in ((2.0, "met"), (3.5, "NOT met")):
        bench.print_targets({"builders": {"mock": {"samples": {"touch": touches(largest)}}}})
        line = capsys.readouterr().out.splitlines()[-1]
        assert f"settled 4.00 / 4.00 ms, its largest frame {largest:.2f}" in line, line
        assert line.endswith(f"ms: {expected}"), line


def _cgroup2(root: Path, controllers: str, subtree: str = "") -> Path:
    root.mkdir(parents=True)
    (root / "cgroup.controllers").write_text(controllers)
    (root / "cgroup.subtree_control").write_text(subtree)
    return root


def test_without_root_there_is_no_quota_and_the_reason_is_given() -> None:
    quota, notes = make_quota(5.0, mounts="", is_root=False)
    assert quota is None and "needs root" in notes[0]


def test_without_a_cpu_controller_anywhere_it_goes_on_pinned_only(tmp_path: Path) -> None:
    v2 = _cgroup2(tmp_path / "unified", "memory io")
    quota, notes = make_quota(5.0, mounts=f"cgroup2 {v2} cgroup2 rw 0 0\n", is_root=True)
    assert quota is None
    assert "pinned only" in notes[0] and "no cpu controller" in notes[0]
    assert sorted(p.name for p in v2.iterdir()) == ["cgroup.controllers", "cgroup.subtree_control"]
    nothing, why = make_quota(5.0, mounts="proc /proc proc rw 0 0\n", is_root=True)
    assert nothing is None and "no cgroup file system" in why[0]


def test_a_cgroup_that_cannot_be_written_is_a_note_not_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "not-mounted"
    quota, notes = make_quota(
        10.0, mounts=f"cgroup {missing} cgroup rw,cpu,cpuacct 0 0\n", is_root=True
    )
    assert quota is None and str(missing) in notes[0]


def test_a_v2_quota_is_written_as_cpu_max_and_removed_after(tmp_path: Path) -> None:
    v2 = _cgroup2(tmp_path / "cgroup", "cpuset cpu io memory")
    quota, _notes = make_quota(5.0, mounts=f"cgroup2 {v2} cgroup2 rw 0 0\n", is_root=True)
    assert quota is not None and quota.version == 2
    assert quota.path.parent == v2 and quota.path.name.startswith("companion-pi-profile-")
    assert (quota.path / "cpu.max").read_text() == "2000 10000"  # 2 ms per 10 ms: 5×
    assert (v2 / "cgroup.subtree_control").read_text() == "+cpu"  # it had to enable cpu
    remove_quota(quota, own="0::/\n")  # a real cgroup folder would go; this one holds files
    assert (v2 / "cgroup.subtree_control").read_text() == "-cpu"


def test_a_v1_cpu_hierarchy_is_used_when_v2_has_no_cpu(tmp_path: Path) -> None:
    v2 = _cgroup2(tmp_path / "unified", "")
    v1 = tmp_path / "cpu"
    v1.mkdir()
    mounts = f"cgroup2 {v2} cgroup2 rw 0 0\ncgroup {v1} cgroup rw,relatime,cpu 0 0\n"
    quota, notes = make_quota(10.0, mounts=mounts, is_root=True)
    assert quota is not None and quota.version == 1
    assert (quota.path / "cpu.cfs_period_us").read_text() == "10000"
    assert (quota.path / "cpu.cfs_quota_us").read_text() == "1000"
    assert any("no cpu controller" in note for note in notes)
    (quota.path / "cpu.stat").write_text("nr_periods 40\nnr_throttled 30\nthrottled_time 5000000\n")
    profile = PiProfile(10.0, 0, quota)
    assert "throttled in 30 of 40 periods" in profile.report()
    assert "1 ms per 10 ms" in profile.describe()


def test_a_quota_nobody_joined_is_reported_as_never_applied(tmp_path: Path) -> None:
    group = tmp_path / "g"
    group.mkdir()
    profile = PiProfile(5.0, None, Quota(2, group, 2000, 10000))
    assert "never applied" in profile.report()
    assert profile.describe().startswith("not pinned")


def test_the_pinned_child_runs_on_one_core_even_without_a_quota() -> None:
    with pi_profile.pi_profile(environ={"COMPANION_PI_PROFILE_NO_QUOTA": "1"}) as profile:
        assert profile.quota is None
        assert any("COMPANION_PI_PROFILE_NO_QUOTA" in note for note in profile.notes)
        done = subprocess.run(
            [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
            preexec_fn=profile.preexec,
        )
    assert done.stdout.strip() == str([profile.cpu])
    assert profile.cpu == max(os.sched_getaffinity(0))
