"""A status line broken between its parts before Kivy lays it out: one measure per line.

Kivy wraps a label's line that is wider than the label by measuring ever longer runs of
its words (each a call into SDL_ttf, once per new string): a status whose first words
change every move ("Round 3 · Colossus card 2/11 · Weakness 5 · Grip 4 · …") measured some thirty
new strings, 1.5 M instructions a move. A line that fits is measured once. So the
screen breaks such a text between its parts (``" · "``), each part measured once per
string through :mod:`kiosk.fonts.extents`'s cache, and hands Kivy lines that fit; a text
whose parts do not fit in the lines the label has is left to Kivy as it was.
"""

from __future__ import annotations

from collections.abc import Callable

#: Room kept at the end of each line: the parts are measured apart, the line as a whole
#: (kerning and rounding may differ by a pixel or two).
SLACK = 6


def broken_lines(
    text: str, width: float, measure: Callable[[str], tuple[int, int]], max_lines: int, sep: str
) -> str:
    """``text`` with a line break in place of the ``sep`` before each part that would
    not fit on the line (that part's first letter capitalised), when every line then
    fits ``width`` and there are at most ``max_lines``; otherwise ``text`` unchanged
    (Kivy wraps it word by word). :data:`SLACK` covers a capital's extra width."""
    parts = text.split(sep)
    room = width - SLACK
    if len(parts) < 2 or room <= 0:
        return text
    joint = measure(sep)[0]
    lines: list[list[str]] = []
    used = 0.0
    for part in parts:
        size = measure(part)[0]
        if size > room:
            return text
        if lines and used + joint + size <= room:
            lines[-1].append(part)
            used += joint + size
        else:
            lines.append([part])
            used = size
    if len(lines) > max_lines:
        return text
    shown = [sep.join(line) for line in lines]
    # A line that starts a part starts as a sentence does ("… · Grip 8" / "Use the power").
    return "\n".join([shown[0], *(line[:1].upper() + line[1:] for line in shown[1:])])


def fitted_lines(
    text: str, width: float, measure: Callable[[str], tuple[int, int]], max_lines: int, sep: str
) -> str | None:
    """``text`` as :func:`broken_lines` breaks it when each of its lines, measured whole,
    fits ``width`` (a label then shows them without wrapping: one measure a line); None
    when they do not fit in ``max_lines`` such lines (Kivy has to wrap the text)."""
    shown = broken_lines(text, width, measure, max_lines, sep)
    lines = shown.split("\n")
    if len(lines) > max_lines or any(measure(line)[0] > width for line in lines):
        return None
    return shown


__all__ = ["SLACK", "broken_lines", "fitted_lines"]
