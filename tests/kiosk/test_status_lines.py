"""The status broken between its parts before Kivy lays it out (kiosk/fonts/lines.py):
the same words, lines that fit, never more lines than the label has — else the text as
it was, for Kivy to wrap (one measure per line instead of every run of words).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.app import Kiosk
from kiosk.fonts.lines import SLACK, broken_lines, fitted_lines
from tests.helpers.kiosk_widgets import started_kiosk as _start
from tests.kiosk.ui import close_kiosk, frames

SEP = " · "


def _measure(text: str) -> tuple[int, int]:
    """A stand-in font: 7 px a character."""
    return 7 * len(text), 20


PARTS = st.lists(
    st.text(alphabet="abcdefgh 0123456789/'", min_size=1, max_size=40).filter(
        lambda part: SEP not in part
    ),
    min_size=1,
    max_size=8,
)


@given(parts=PARTS, width=st.integers(0, 700), max_lines=st.integers(1, 3))
def test_the_status_keeps_its_words_and_breaks_only_into_lines_that_fit(
    parts: list[str], width: int, max_lines: int
) -> None:
    text = SEP.join(parts)
    shown = broken_lines(text, width, _measure, max_lines, SEP)
    if shown == text:
        return
    lines = shown.split("\n")
    # The same parts, in order; the part that starts a line after the first, capitalised.
    shown_parts = [line.split(SEP) for line in lines]
    starts = {sum(len(line) for line in shown_parts[:i]) for i in range(1, len(lines))}
    assert [part for line in shown_parts for part in line] == [
        part[:1].upper() + part[1:] if i in starts else part for i, part in enumerate(parts)
    ]
    assert 2 <= len(lines) <= max_lines
    for line in lines:
        assert _measure(line)[0] <= width - SLACK


@given(parts=PARTS, width=st.integers(0, 700), max_lines=st.integers(1, 3))
def test_fitted_lines_are_the_broken_ones_when_each_fits_whole(
    parts: list[str], width: int, max_lines: int
) -> None:
    """The lines a label shows unwrapped: :func:`broken_lines`'s, each no wider than the
    label, no more than it has; None (Kivy wraps the text) otherwise."""
    text = SEP.join(parts)
    fitted = fitted_lines(text, width, _measure, max_lines, SEP)
    if fitted is None:
        shown = broken_lines(text, width, _measure, max_lines, SEP).split("\n")
        assert len(shown) > max_lines or any(_measure(line)[0] > width for line in shown)
        return
    assert fitted == broken_lines(text, width, _measure, max_lines, SEP)
    lines = fitted.split("\n")
    assert len(lines) <= max_lines and all(_measure(line)[0] <= width for line in lines)


def test_a_status_that_fits_no_lines_it_has_is_left_to_kivy() -> None:
    text = SEP.join(["Round 1", "Colossus card 1/11", "Weakness 5 · Grip 5", "x" * 90])
    assert broken_lines(text, 480, _measure, 2, SEP) == text  # a part wider than the label
    assert broken_lines(text, 60, _measure, 2, SEP) == text  # more lines than it has
    assert broken_lines("Turn 3", 480, _measure, 2, SEP) == "Turn 3"
    assert fitted_lines(text, 480, _measure, 2, SEP) is None
    assert fitted_lines("Turn 3", 480, _measure, 2, SEP) == "Turn 3"


@pytest.fixture
def solo(tmp_path: Path) -> Iterator[Kiosk]:
    kiosk = _start(tmp_path, "colossus_solo", ["Ann"])
    yield kiosk
    close_kiosk(kiosk)


def test_the_solo_status_shows_its_trackers_then_what_to_do_cs_r04(solo: Kiosk) -> None:
    """At 800×480 the solo game's status ("Round 1 · Colossus card 1/11 · Weakness … · Grip …"
    then what to do, CS-R04's trackers first) takes two lines, broken between its parts,
    each line as wide as the label at most, move after move."""
    play, label = solo.play, solo.play_screen.ids.status
    assert play is not None
    for _ in range(6):
        frames(2)
        status = play.view().status
        lines = label.text.split("\n")
        trackers, to_do = status.rsplit(SEP, 1)
        assert lines == [trackers, to_do[:1].upper() + to_do[1:]]  # "Use …", a sentence
        label.texture_update()
        assert label.texture_size[0] <= label.width and label.texture_size[1] <= label.height
        # Laid out line by line, unwrapped, drawn from the label's left edge.
        assert tuple(label.text_size) == (None, None)
        assert label.canvas.children[-1].pos[0] == int(label.x)
        if play.forms.form is not None:  # the card's values, then the stats
            play.forms.submit()
        else:  # the power or the card, destroy rights
            assert play.action_menu.choose(0) or play.action_menu.choose_group(
                play.view().groups[0].key
            )


def test_a_status_whose_parts_do_not_fit_is_wrapped_at_the_labels_width_cs_r04(
    solo: Kiosk,
) -> None:
    """A part wider than the label: Kivy wraps the status at the label's width (drawn
    from its left edge as before); the next status that fits is laid out whole again."""
    screen = solo.play_screen
    label = screen.ids.status
    frames(2)
    shown = label.text
    assert solo.play is not None
    long = "Round 1 · " + "a very long part without a break " * 3
    screen.show(replace(solo.play.view(), status=long), solo.board_view())
    frames(1)
    assert tuple(label.text_size) == (label.width, None)
    assert label.texture_size[0] == label.width
    assert label.canvas.children[-1].pos[0] == int(label.x)
    screen.refresh()
    frames(1)
    assert label.text == shown and tuple(label.text_size) == (None, None)
