"""Give freed memory back to the operating system once the window is still.

Dropped widgets and finished frames free memory, but two things keep it: Kivy widgets
hold reference cycles (bindings, ids), which only Python's full collection frees, and
that runs rarely once the heap is large; and glibc's allocator keeps freed pages for
reuse. So a second after the last frame the kiosk collects and then calls
``malloc_trim(0)`` (after the setup screen and a game's start: ≈15–30 MB; see
docs/kiosk.md). The objects made at start-up (modules, kv rules, rule tables) live for
the whole run: :func:`freeze_startup` moves them out of the collector's way.
"""

from __future__ import annotations

import ctypes
import functools
import gc
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    result: Callable[[int], int] = trim
    return result


def freeze_startup() -> None:
    """Collect the young generations, then exempt everything alive now from later
    collections. What start-up leaves unreachable is young; a full collection found
    nothing more and cost ≈23 M instructions of the launch (≈70,000 objects walked)."""
    gc.collect(1)
    gc.freeze()


def free_dropped_widgets() -> None:
    """Free the widgets just dropped now (their reference cycles need a collection), so
    that what is made next reuses their memory instead of growing the heap beside it."""
    gc.collect()


def release_freed_memory() -> bool:
    """Free unreachable cycles and return free heap pages to the OS.

    False where the C library cannot trim (the collection still ran).
    """
    gc.collect()
    trim = _malloc_trim()
    return trim is not None and trim(0) >= 0
