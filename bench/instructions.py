"""Instructions retired by one thread, from the CPU's own counter (Linux perf events).

Thread CPU time on a shared machine moves with everything else running on it: caches
and the other hyperthread are shared, and two runs of the same interaction can differ
by a factor of two. The number of instructions the thread executed in user space does
not: it is a property of the work, the same under load (within a fraction of a per
cent). The benches print it beside the CPU time, so a change can be compared before and
after on a busy machine. It is not a time: a Pi's core retires fewer instructions per
second, and the interpreter's instruction mix differs between x86-64 and ARM.

Where the kernel refuses (no hardware counter in a virtual machine, or
``/proc/sys/kernel/perf_event_paranoid`` too strict), :func:`thread_counter` returns
None and the benches leave the column out. ``BENCH_INSTRUCTION_COUNTER=off`` in the
environment takes that path on any machine, as a refused ``perf_event_open`` does: the
tests use it to run the benches as a machine without a counter runs them.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct

_SYSCALL = {"x86_64": 298, "aarch64": 241, "armv7l": 364}  # perf_event_open
_PERF_TYPE_HARDWARE = 0
_PERF_COUNT_HW_INSTRUCTIONS = 1
_EXCLUDE_KERNEL = 1 << 5
_EXCLUDE_HV = 1 << 6
#: ``off``: behave as where the kernel refuses the counter (see the module's docstring).
SWITCH = "BENCH_INSTRUCTION_COUNTER"


class _Attr(ctypes.Structure):
    """``struct perf_event_attr`` in its first published size (PERF_ATTR_SIZE_VER0)."""

    _fields_ = (
        ("type", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
        ("config", ctypes.c_uint64),
        ("sample_period", ctypes.c_uint64),
        ("sample_type", ctypes.c_uint64),
        ("read_format", ctypes.c_uint64),
        ("flags", ctypes.c_uint64),
        ("wakeup_events", ctypes.c_uint32),
        ("bp_type", ctypes.c_uint32),
        ("config1", ctypes.c_uint64),
    )


class ThreadCounter:
    """User-space instructions of the thread that opened it (``read`` from that thread
    or any other: the count is the opening thread's)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def read(self) -> int:
        value: int = struct.unpack("Q", os.read(self._fd, 8))[0]
        return value

    def close(self) -> None:
        os.close(self._fd)


def thread_counter() -> ThreadCounter | None:
    """A counter of the calling thread's instructions, or None where there is none."""
    number = _SYSCALL.get(platform.machine())
    if number is None or os.environ.get(SWITCH, "").lower() == "off":
        return None
    attr = _Attr(
        type=_PERF_TYPE_HARDWARE,
        size=ctypes.sizeof(_Attr),
        config=_PERF_COUNT_HW_INSTRUCTIONS,
        flags=_EXCLUDE_KERNEL | _EXCLUDE_HV,
    )
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.syscall(number, ctypes.byref(attr), 0, -1, -1, 0)  # this thread, any CPU
    if fd < 0:
        return None
    counter = ThreadCounter(fd)
    try:
        counter.read()
    except OSError:
        counter.close()
        return None
    return counter
