"""Fix steps as hands make them: each step lifts one thing from where it stands (lit red
on the board and the LEDs) and puts it where it goes (lit green), in an order hands can
follow, with cells in the board's own words; a move the players entered by touch needs
no extra "Done".

Each step is checked as players meet it: its text, the cells the presenter lights, and
the LED frame the real renderer makes of those lights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from companion.dice import Roll
from companion.events import TableChanges
from companion.highlights import Highlight, Role, TableChange
from companion.session import Session
from companion.table_steps import HandStep, hand_steps
from companion.views import ActionCells, BoardView, CellView, Piece, PieceKind, Terrain
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.palette import GREEN, KOLOSSUS_PALETTE, RED
from firmware_bridge.leds.render import render
from kiosk.presenters.fix_walk import FixWalk
from kiosk.presenters.play import PlayPresenter

LAYOUT = kolossus_layout()

Spot = tuple[Terrain, tuple[Piece, ...]]


def _grid(spots: Mapping[str, Spot]) -> BoardView:
    cells = []
    for row in range(11):
        for col in range(11):
            key = f"{row},{col}"
            terrain, pieces = spots.get(key, ("bare", ()))
            cells.append(CellView(cell=key, x=col, y=row, terrain=terrain, pieces=pieces))
    return BoardView(kind="grid", cells=tuple(cells))


def _mini(kind: PieceKind, colour: str) -> Piece:
    return Piece(kind=kind, label=kind[0].upper(), player=0, colour=colour)


def _words(cell: str) -> str:
    """A test's own coordinate words, so the steps are seen to use the ones handed in."""
    return "(" + cell.replace(",", ", ") + ")"


def _walk(before: BoardView, after: BoardView, *, entered: bool = False) -> FixWalk:
    """The walk of a game whose own steps name a square the hand movements touch twice
    (as a capture names the beaten piece's square, then the winner's)."""
    walk = FixWalk()
    cell = hand_steps(before, after, _words)[0].cells[0]
    steps = tuple(TableChange(step=n, cell=cell, instruction="x") for n in (1, 2))
    walk.start([TableChanges(text="x", changes=steps)], (before, after), _words, ("Ann", "Bob"))
    return walk


def _lit(highlights: Sequence[Highlight]) -> dict[str, set[str]]:
    """The LED frame the real renderer makes, read back: the cells lit red and green."""
    frame = render(highlights, LAYOUT, KOLOSSUS_PALETTE, still=True)
    colours = {"red": RED, "green": GREEN}
    found: dict[str, set[str]] = {"red": set(), "green": set()}
    for cell, leds in LAYOUT.cells.items():
        for name, colour in colours.items():
            if all(frame[i] != (0, 0, 0) and _hue(frame[i]) == _hue(colour) for i in leds):
                found[name].add(cell)
    return found


def _hue(rgb: tuple[int, int, int]) -> tuple[bool, bool, bool]:
    return (rgb[0] > 0, rgb[1] > 0, rgb[2] > 0)


def _steps(walk: FixWalk) -> list[tuple[str, set[str], set[str]]]:
    """Each step as players meet it: its text, the cells lit red and green on the LEDs
    (the board's lights are the same highlights), then "Done"."""
    seen = []
    while walk.step is not None:
        view = walk.view()
        assert view is not None
        lights = walk.highlights()
        lit = _lit(lights)
        assert lit["red"] == set(view.lift) and lit["green"] == set(view.put)
        seen.append((view.instruction, lit["red"], lit["green"]))
        walk.next()
    return seen


def test_a_capture_lifts_the_beaten_miniature_before_the_winner_moves_onto_its_square() -> None:
    before = _grid(
        {
            "3,3": ("bare", (_mini("colossus", "blue"),)),
            "3,5": ("woods", (_mini("warrior", "red"),)),
        }
    )
    after = _grid({"3,5": ("woods", (_mini("colossus", "blue"),))})
    assert _steps(_walk(before, after)) == [
        ("Take the red Warrior off (3, 5).", {"3,5"}, set()),
        ("Move the blue Colossus from (3, 3) to (3, 5).", {"3,3"}, {"3,5"}),
    ]


def test_a_swap_is_two_hand_moves() -> None:
    colossus, guardian = _mini("colossus", "blue"), _mini("guardian", "blue")
    before = _grid({"0,0": ("bare", (colossus,)), "0,1": ("bare", (guardian,))})
    after = _grid({"0,0": ("bare", (guardian,)), "0,1": ("bare", (colossus,))})
    assert _steps(_walk(before, after)) == [
        (
            "Lift the blue Guardian off (0, 1) and keep it in your hand."
            " Move the blue Colossus from (0, 0) to (0, 1).",
            {"0,0"},
            {"0,1"},
        ),
        ("Put the blue Guardian from your hand on (0, 0).", set(), {"0,0"}),
    ]


def _never_two_on_one_square(before: BoardView, steps: Sequence[HandStep]) -> None:
    """Replays the steps on the table as it stands: each lifts something that stands on
    its red square, and no square ever holds two miniatures or two landscapes."""
    minis = Counter(c.cell for c in before.cells for p in c.pieces if p.sensed)
    lands = Counter(c.cell for c in before.cells if c.terrain not in ("bare", "land", "water"))
    for step in steps:
        for cell in step.lift:
            assert minis[cell] + lands[cell] > 0, f"{step.text}: nothing stands on {cell}"
        for cell in step.seen:
            want_mini, want_land = cell in step.minis, cell in step.lands
            minis[cell], lands[cell] = int(want_mini), int(want_land)
        assert max(minis.values(), default=0) <= 1 and max(lands.values(), default=0) <= 1


def test_a_quake_line_shift_moves_pieces_in_an_order_that_never_needs_two_on_one_square() -> None:
    """The east end of row 5 shifted one square east: what stands on the edge falls off
    first, then the line follows from the square just cleared, each landscape with the
    miniature on it, every move onto a square already cleared of its kind."""
    red, blue, green = (_mini("warrior", c) for c in ("red", "blue", "green"))
    line: dict[str, Spot] = {
        "5,7": ("hills", (red,)),
        "5,8": ("woods", ()),
        "5,9": ("bare", (blue,)),
        "5,10": ("mountains", (green,)),
    }
    shifted: dict[str, Spot] = {
        "5,8": ("hills", (red,)),
        "5,9": ("woods", ()),
        "5,10": ("bare", (blue,)),
    }
    before, after = _grid(line), _grid(shifted)
    walk = _walk(before, after)
    _never_two_on_one_square(before, walk.steps)
    assert walk.steps[-1].minis == {"5,8", "5,10"} and walk.steps[-1].lands == {"5,8", "5,9"}
    assert _steps(walk) == [
        ("Take the Mountains with the green Warrior off (5, 10).", {"5,10"}, set()),
        ("Move the blue Warrior from (5, 9) to (5, 10).", {"5,9"}, {"5,10"}),
        ("Move the Woods from (5, 8) to (5, 9).", {"5,8"}, {"5,9"}),
        ("Move the Hills with the red Warrior from (5, 7) to (5, 8).", {"5,7"}, {"5,8"}),
    ]
    # Nothing falls off: the far end still moves first, onto the free square.
    blue = _mini("warrior", "blue")
    before = _grid({"2,7": ("bare", (blue,)), "2,8": ("bare", (red,))})
    after = _grid({"2,8": ("bare", (blue,)), "2,9": ("bare", (red,))})
    _never_two_on_one_square(before, _walk(before, after).steps)
    assert [text for text, _, _ in _steps(_walk(before, after))] == [
        "Move the red Warrior from (2, 8) to (2, 9).",
        "Move the blue Warrior from (2, 7) to (2, 8).",
    ]


def test_a_real_quake_from_the_screen_lights_where_each_tile_stands_and_goes() -> None:
    """The Great Quake of the Invasion entered by touch: every step lifts a landscape
    that stands on its red square on the table as it still is, puts it on its green one,
    in the board's words; no square ever holds two landscapes."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    play.submit({"type": "ready"})
    play.submit(Roll(values=(1,)))
    state = play.state
    before = play.rules.board(state)
    assert before is not None
    quake = next(p for p in play.queries.legal_payloads() if p["type"] == "quake_move")
    assert play.submit(quake)
    steps = play.fix.steps
    assert steps, "a quake changes the table"
    _never_two_on_one_square(before, steps)
    for number, step in enumerate(steps, start=1):
        assert play.fix.step == number
        lit = _lit(play.highlights())
        assert lit == {"red": set(step.lift), "green": set(step.put)}
        for cell in (*step.lift, *step.put):
            assert play.rules.cell_words(state, cell) in step.text
        play.fix.next()
    assert play.fix.step is None


def test_an_island_move_names_the_spaces_and_keeps_the_games_words_for_acolytes() -> None:
    """A Colossus moved onto a space whose Acolytes die: the Acolytes go back first
    (the game's own words: to whom), then the Colossus moves; spaces by their labels."""

    def space(key: str, x: float, pieces: tuple[Piece, ...] = ()) -> CellView:
        return CellView(cell=key, x=x, y=0, terrain="land", pieces=pieces, label=key.upper())

    colossus = Piece(kind="colossus", label="A", player=0)
    acolytes = Piece(kind="acolyte", label="2", player=1, count=2)
    before = BoardView("island", (space("r1c1", 0, (colossus,)), space("r1c2", 1, (acolytes,))))
    after = BoardView("island", (space("r1c1", 0), space("r1c2", 1, (colossus,))))
    labels = {c.cell: c.label for c in before.cells}
    walk = FixWalk()
    said = "Give 2 of Bob's Acolytes there back to them."
    walk.start(
        [TableChanges(text="x", changes=(TableChange(step=1, cell="r1c2", instruction=said),))],
        (before, after),
        labels.__getitem__,
        ("Ann", "Bob"),
    )
    seen = [(s.text, s.lift, s.put) for s in walk.steps]
    assert seen == [
        (said, ("r1c2",), ()),
        ("Move Ann's Colossus from R1C1 to R1C2.", ("r1c1",), ("r1c2",)),
    ]
    assert [h.role for h in walk.highlights()] == [Role.REMOVE]


def test_crystals_taken_keep_the_games_words_for_where_they_go() -> None:
    """A Colossus moves onto the Citadel and takes its crystals: they come off first, in
    the game's words (to whom), though the game names the square twice."""
    blue = _mini("colossus", "blue")
    crystals = Piece(kind="crystal", label="×2", count=2)
    before = _grid({"5,4": ("bare", (blue,)), "5,5": ("citadel", (crystals,))})
    after = _grid({"5,5": ("citadel", (blue,))})
    given = "Give the crystals on (5, 5) to Blue"
    changes = (
        TableChange(step=1, cell="5,5", instruction="Move Blue's Colossus to (5, 5)"),
        TableChange(step=1, cell="5,5", instruction=given),
    )
    walk = FixWalk()
    walk.start([TableChanges(text="x", changes=changes)], (before, after), _words)
    assert _steps(walk) == [
        (given, {"5,5"}, set()),
        ("Move the blue Colossus from (5, 4) to (5, 5).", {"5,4"}, {"5,5"}),
    ]


def test_hand_steps_without_a_board_are_none() -> None:
    assert hand_steps(None, None, str) == ()


def test_a_walk_that_only_repeats_the_entered_move_is_skipped_but_a_capture_is_not() -> None:
    """The walk of a move entered by touch is skipped when it would only repeat it (the
    app's own path, a Kolossus turn tapped on the screen with no "Done", is counted in
    tests/kiosk/test_tap_counts.py); a capture still asks to lift the beaten piece."""
    blue, red = _mini("colossus", "blue"), _mini("warrior", "red")
    plain = (_grid({"3,3": ("bare", (blue,))}), _grid({"3,4": ("bare", (blue,))}))
    capture = (
        _grid({"3,3": ("bare", (blue,)), "3,4": ("bare", (red,))}),
        _grid({"3,4": ("bare", (blue,))}),
    )
    change = TableChanges(
        text="x", changes=tuple(TableChange(step=n, cell="3,4", instruction="x") for n in (1, 2))
    )
    entered = ActionCells.move("3,3", "3,4")
    walk = FixWalk()
    walk.start([change], plain, _words, (), entered)
    assert walk.step is None
    walk.start([change], plain, _words, (), None)
    assert walk.step == 1, "a move not entered by touch (redone) keeps its walk"
    walk.start([change], capture, _words, (), entered)
    assert [s.text for s in walk.steps] == [
        "Take the red Warrior off (3, 4).",
        "Move the blue Colossus from (3, 3) to (3, 4).",
    ]


def test_done_and_all_done_redraw_through_the_presenters_listeners() -> None:
    """The walk's "Done" and "All done" (``play.fix.next`` / ``finish``, called by the
    screen and the table's confirm button) redraw what listens to the presenter: the
    screen and the LEDs show the next step, or the game again, at once."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    play.submit({"type": "ready"})
    play.submit(Roll(values=(1,)))
    assert play.submit(next(p for p in play.queries.legal_payloads() if p["type"] == "quake_move"))
    assert len(play.fix.steps) > 1
    shown: list[int | None] = []
    play.subscribe(lambda: shown.append(play.fix.step))
    play.fix.next()
    play.fix.finish()
    assert shown == [2, None]
