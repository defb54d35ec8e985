"""Give freed memory back to the operating system once the window is still.

Dropped widgets and finished frames free memory, but two things keep it: Kivy widgets
hold reference cycles (bindings, ids), which only Python's full collection frees, and
that runs rarely once the heap is large; and glibc's allocator keeps freed pages for
reuse. So a second after the last frame the kiosk collects and then calls
``malloc_trim(0)`` (after the setup screen and a game's start: ≈15–30 MB; see
docs/kiosk.md). The objects made at start-up (modules, kv rules, rule tables) live for
the whole run: :func:`freeze_startup` moves them out of the collector's way. And Kivy
keeps the last text field it adjusted (:func:`forget_dropped_text_field`).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import sys
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


def forget_dropped_text_field() -> None:
    """Let the last text field Kivy adjusted be freed once it has left the window.

    Kivy 2.3's ``TextInput._adjust_viewport`` is a ``@triggered`` function: the
    arguments of its last call (the field whose cursor last moved, then its position)
    stay in the trigger for the whole run, and with the field everything it reaches —
    its screen's widgets, and after ``Kiosk.close`` the whole kiosk. A field still on
    the window keeps them (its adjustment may be pending); one off it has its pending
    adjustment cancelled and is forgotten. Nothing is done where no field was ever made
    (Kivy's text input module is not loaded) or the trigger is not shaped so.
    """
    textinput = sys.modules.get("kivy.uix.textinput")
    trigger = getattr(getattr(textinput, "TextInput", None), "_adjust_viewport", None)
    if trigger is None:
        return
    for cell in getattr(trigger, "__closure__", None) or ():
        held = cell.cell_contents
        field = held[0] if isinstance(held, list) and held else None
        root_window = getattr(field, "get_root_window", None)
        if root_window is not None and root_window() is None:
            trigger.cancel()
            held.clear()


def free_dropped_widgets() -> None:
    """Free the widgets just dropped now (their reference cycles need a collection), so
    that what is made next reuses their memory instead of growing the heap beside it."""
    forget_dropped_text_field()
    gc.collect()


def release_freed_memory() -> bool:
    """Free unreachable cycles and return free heap pages to the OS.

    False where the C library cannot trim (the collection still ran).
    """
    forget_dropped_text_field()
    gc.collect()
    trim = _malloc_trim()
    return trim is not None and trim(0) >= 0
