"""The pure LED renderer: mapping, priorities, gamma, brightness, power limit, animations."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.highlights import Highlight, Role, TableChange
from companion.table_steps import walk_steps
from firmware_bridge.layout import Corner, Wiring, kolossus_layout
from firmware_bridge.leds.palette import (
    ISLAND_PALETTE,
    KOLOSSUS_PALETTE,
    KOLOSSUS_WARBAND_COLOURS,
    Palette,
)
from firmware_bridge.leds.render import (
    DEFAULT_GAMMA_TABLE,
    PowerBudget,
    estimate_current_ma,
    flash,
    gamma_table,
    limit_power,
    pulse,
    render,
    sweep,
)

LAYOUT = kolossus_layout()
NO_LIMIT = PowerBudget(budget_ma=None)


def lit(frame: tuple[tuple[int, int, int], ...]) -> set[int]:
    return {index for index, pixel in enumerate(frame) if pixel != (0, 0, 0)}


def test_empty_highlights_give_a_dark_frame_of_the_layout_length() -> None:
    frame = render((), LAYOUT)
    assert len(frame) == 121
    assert lit(frame) == set()


def test_a_highlight_lights_exactly_the_leds_of_its_square_serpentine() -> None:
    # Row 1 runs backwards on a serpentine strip: square (1,0) is LED 21, (1,10) is LED 11.
    frame = render([Highlight(cell="1,0", role=Role.REACHABLE)], LAYOUT, power_budget=NO_LIMIT)
    assert lit(frame) == {21}
    assert frame[21] == (0, 255, 0)
    frame = render([Highlight(cell="1,10", role=Role.REACHABLE)], LAYOUT)
    assert lit(frame) == {11}


def test_row_major_layout_maps_squares_in_reading_order() -> None:
    layout = kolossus_layout(wiring=Wiring.ROW_MAJOR)
    frame = render([Highlight(cell="1,0", role=Role.REACHABLE)], layout)
    assert lit(frame) == {11}


def test_several_leds_per_square_all_light() -> None:
    layout = kolossus_layout(leds_per_cell=2, start_corner=Corner.BOTTOM_LEFT)
    frame = render([Highlight(cell="10,0", role=Role.TARGET)], layout)
    assert lit(frame) == {0, 1}
    assert len(frame) == 242


def test_cells_the_layout_does_not_know_are_skipped() -> None:
    frame = render([Highlight(cell="space-17", role=Role.CONTROL, player=0)], LAYOUT)
    assert lit(frame) == set()


def test_priority_picks_one_role_per_cell_whatever_the_order() -> None:
    both = [
        Highlight(cell="3,3", role=Role.QUAKE_REGION),
        Highlight(cell="3,3", role=Role.CAPTURABLE),
    ]
    for order in (both, both[::-1]):
        frame = render(order, LAYOUT, t=0.0, power_budget=NO_LIMIT)  # flash is on at t=0
        assert frame[LAYOUT.cells["3,3"][0]] == (255, 0, 0)


def test_control_and_banner_use_the_players_colour() -> None:
    for seat, colour in enumerate(KOLOSSUS_WARBAND_COLOURS):
        frame = render(
            [Highlight(cell="0,0", role=Role.BANNER, player=seat)],
            LAYOUT,
            gamma=gamma_table(1.0),
            power_budget=NO_LIMIT,
        )
        assert frame[0] == colour
    control = render(
        [Highlight(cell="0,0", role=Role.CONTROL, player=3)], LAYOUT, gamma=gamma_table(1.0)
    )
    assert control[0][0] > 0 and control[0][1:] == (0, 0)  # red, dimmed
    assert control[0][0] < 255


def test_kolossus_warband_colours_follow_the_rules() -> None:
    blue, yellow, green, red = KOLOSSUS_WARBAND_COLOURS
    assert blue[2] == 255 and blue[0] == 0  # Tua'tha
    assert yellow[0] > 200 and yellow[1] > 150 and yellow[2] == 0  # Krell
    assert green[1] == 255 and green[0] == 0  # Ishtari
    assert red == (255, 0, 0)  # Firbolg
    assert len(ISLAND_PALETTE.players) >= 5


def test_palette_refuses_a_missing_role() -> None:
    with pytest.raises(ValueError, match="no colour"):
        Palette(roles={Role.FIX: (1, 2, 3)})


def test_gamma_table_is_monotone_and_keeps_the_ends() -> None:
    table = gamma_table(2.6)
    assert table[0] == 0 and table[255] == 255
    assert all(a <= b for a, b in itertools.pairwise(table))
    assert table[128] < 64  # half perceived ≈ a sixth of the duty


def test_brightness_is_applied_before_gamma() -> None:
    frame = render(
        [Highlight(cell="0,0", role=Role.SELECTED)], LAYOUT, brightness=0.5, power_budget=NO_LIMIT
    )
    assert frame[0] == (DEFAULT_GAMMA_TABLE[128],) * 3
    with pytest.raises(ValueError, match="between 0 and 1"):
        render((), LAYOUT, brightness=1.5)


def test_estimated_current_follows_wled_model() -> None:
    power = PowerBudget(budget_ma=None, ma_per_led=55.0, idle_ma_per_led=1.0)
    assert estimate_current_ma(((0, 0, 0),) * 10, power) == pytest.approx(10.0)
    assert estimate_current_ma(((255, 255, 255),), power) == pytest.approx(56.0)
    assert estimate_current_ma(((255, 0, 0),), power) == pytest.approx(1 + 55 / 3)


def test_full_white_board_is_scaled_down_to_the_budget() -> None:
    every = [Highlight(cell=cell, role=Role.SELECTED) for cell in LAYOUT.cells]
    power = PowerBudget(budget_ma=850)
    frame = render(every, LAYOUT, power_budget=power)
    assert estimate_current_ma(frame, power) <= 850
    assert estimate_current_ma(frame, power) > 800  # scaled, not blacked out
    assert len({pixel for pixel in frame}) == 1  # the whole frame scaled evenly


def test_budget_below_idle_current_gives_a_dark_frame() -> None:
    frame = limit_power(((255, 255, 255),) * 121, PowerBudget(budget_ma=100))
    assert lit(frame) == set()


pixels = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


@settings(max_examples=100, deadline=None)
@given(
    frame=st.lists(pixels, min_size=1, max_size=300).map(tuple),
    budget=st.integers(0, 20_000),
    ma_per_led=st.floats(5.0, 120.0),
    idle=st.floats(0.0, 3.0),
)
def test_power_limit_is_never_exceeded(
    frame: tuple[tuple[int, int, int], ...], budget: int, ma_per_led: float, idle: float
) -> None:
    power = PowerBudget(budget_ma=budget, ma_per_led=ma_per_led, idle_ma_per_led=idle)
    limited = limit_power(frame, power)
    assert len(limited) == len(frame)
    if power.idle_ma(len(frame)) <= budget:
        assert estimate_current_ma(limited, power) <= budget
    else:
        assert lit(limited) == set()
    # Never brighter than asked, and untouched when it already fits.
    assert all(
        a <= b for p, q in zip(limited, frame, strict=True) for a, b in zip(p, q, strict=True)
    )
    if estimate_current_ma(frame, power) <= budget:
        assert limited == frame


@settings(max_examples=80, deadline=None)
@given(
    cells=st.lists(st.sampled_from(sorted(LAYOUT.cells)), min_size=1, max_size=121),
    roles=st.lists(st.sampled_from(list(Role)), min_size=1, max_size=5),
    t=st.floats(0, 100),
    brightness=st.floats(0, 1),
    budget=st.integers(200, 8000),
)
def test_rendered_frames_respect_the_budget(
    cells: list[str], roles: list[Role], t: float, brightness: float, budget: int
) -> None:
    highlights = [
        Highlight(cell=cell, role=roles[i % len(roles)], player=i % 4, step=i % 3)
        for i, cell in enumerate(cells)
    ]
    power = PowerBudget(budget_ma=budget)
    frame = render(highlights, LAYOUT, KOLOSSUS_PALETTE, brightness, power, t)
    assert estimate_current_ma(frame, power) <= budget
    assert all(0 <= channel <= 255 for pixel in frame for channel in pixel)


def test_pulse_breathes_between_its_floor_and_full() -> None:
    values = [pulse(t / 100) for t in range(0, 320)]
    assert min(values) == pytest.approx(0.25, abs=0.01)
    assert max(values) == pytest.approx(1.0, abs=0.01)


def test_selectable_pieces_pulse_over_time() -> None:
    cell = [Highlight(cell="9,9", role=Role.SELECTABLE)]
    index = LAYOUT.cells["9,9"][0]
    levels = {render(cell, LAYOUT, t=t / 10)[index] for t in range(0, 16)}
    assert len(levels) > 4


def test_citadel_pulses_while_crystals_lie_on_it() -> None:
    # RULINGS §1.10: the Citadel pulses while crystals are present.
    cell = [Highlight(cell="5,5", role=Role.CITADEL)]
    index = LAYOUT.cells["5,5"][0]
    levels = [sum(render(cell, LAYOUT, t=t / 10)[index]) for t in range(0, 24)]
    assert max(levels) > 2 * min(levels) > 0


def test_sweep_travels_along_a_quake_row() -> None:
    row = [Highlight(cell=f"4,{c}", role=Role.QUAKE_REGION) for c in range(11)]

    def brightest_column(t: float) -> int:
        frame = render(row, LAYOUT, t=t, power_budget=NO_LIMIT)
        return max(range(11), key=lambda c: sum(frame[LAYOUT.cells[f"4,{c}"][0]]))

    positions = [brightest_column(t / 20) for t in range(0, 12)]
    assert len(set(positions)) > 3  # the bright band moves
    assert sweep(0.0, 0.0, 0.0) != sweep(0.3, 0.0, 0.0)


def test_capturable_flashes_on_and_off() -> None:
    assert flash(0.0) == 1.0
    assert flash(0.25) < 0.5
    cell = [Highlight(cell="2,2", role=Role.CAPTURABLE)]
    index = LAYOUT.cells["2,2"][0]
    assert render(cell, LAYOUT, t=0.0)[index] != render(cell, LAYOUT, t=0.25)[index]


def test_render_is_pure() -> None:
    highlights = [Highlight(cell="4,4", role=Role.QUAKE_REGION)]
    assert render(highlights, LAYOUT, t=1.234) == render(highlights, LAYOUT, t=1.234)


FIX = [
    Highlight(cell="0,0", role=Role.FIX, step=2),
    Highlight(cell="5,5", role=Role.FIX, step=1),
    Highlight(cell="5,6", role=Role.FIX, step=1),
    Highlight(cell="7,7", role=Role.REACHABLE),
]


def test_render_lights_exactly_what_it_is_given_fix_steps_included() -> None:
    """The renderer knows no walk-through: the play presenter owns the current step and
    hands only its FIX highlights (tests/kiosk/test_presenters_play.py), so whatever
    arrives is lit, one priority pick per cell."""
    frame = render(FIX, LAYOUT)
    assert lit(frame) == {LAYOUT.cells[c][0] for c in ("0,0", "5,5", "5,6", "7,7")}
    assert lit(render(FIX[1:3], LAYOUT)) == {LAYOUT.cells["5,5"][0], LAYOUT.cells["5,6"][0]}
    assert lit(render(FIX[:1], LAYOUT)) == {LAYOUT.cells["0,0"][0]}


def test_a_games_own_table_steps_become_fix_steps() -> None:
    """Steps no board view shows (a card game's, a tile turned) light as FIX, one step
    at a time."""
    changes = [
        TableChange(step=1, cell="3,4", instruction="Lift the Hills tile."),
        TableChange(step=2, cell="3,5", instruction="Put it here."),
    ]
    steps = walk_steps((), changes)
    highlights = [h for n, step in enumerate(steps, start=1) for h in step.highlights(n)]
    assert [h.role for h in highlights] == [Role.FIX, Role.FIX]
    assert [(h.cell, h.step) for h in highlights] == [("3,4", 1), ("3,5", 2)]
    assert lit(render(steps[1].highlights(2), LAYOUT)) == {LAYOUT.cells["3,5"][0]}
