"""Guided setup without a display: every game's steps (from its teaching file), the cells
they light read off the referee's initial board (so they match it and the rulings),
Back / Done / Skip, and the step journaled so a power cut resumes at the same step."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_rules
from companion.highlights import Role
from companion.journal import Journal
from companion.session import Session
from companion.views import BoardView
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE, palette_for_board
from firmware_bridge.leds.render import render
from kiosk.presenters.guided_setup import GuidedSetupPresenter, SetupStep
from kiosk.teaching import TeachingFileError, load_teaching, parse_teaching
from kiosk.teaching.progress import ProgressStore, SetupProgress
from tests.helpers.teaching import GAMES, GOOD
from tests.kiosk.helpers import assert_imports_without_kivy

NAMES = ("Ann", "Bob", "Cleo", "Dev")

#: RULINGS 1.3 / K-R02: each corner's 8 start squares (the 3×3 block minus its inner one).
START_ZONES = {
    "NW": {"0,0", "0,1", "0,2", "1,0", "1,1", "1,2", "2,0", "2,1"},
    "NE": {"0,8", "0,9", "0,10", "1,8", "1,9", "1,10", "2,9", "2,10"},
    "SE": {"8,9", "8,10", "9,8", "9,9", "9,10", "10,8", "10,9", "10,10"},
    "SW": {"8,0", "8,1", "9,0", "9,1", "9,2", "10,0", "10,1", "10,2"},
}


def _guided(game: str, players: int, seed: int = 3, **options: object) -> GuidedSetupPresenter:
    return GuidedSetupPresenter(_session(game, players, seed, **options), load_teaching())


def _session(game: str, players: int, seed: int = 3, **options: object) -> Session:
    return Session.new(game, list(NAMES[:players]), options or None, seed=seed)


def _board(game: str, players: int) -> BoardView | None:
    """The board of the game being set up, as its rules draw it (the same seed)."""
    session = _session(game, players)
    return session.rules.board(session.state)


def _seat_counts(game: str) -> list[int]:
    rules = get_rules(game)
    return list(range(rules.min_players, rules.max_players + 1))


def _cells(step: SetupStep) -> set[str]:
    return {light.cell for light in step.highlights}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_setup_steps_in_plain_words_each_on_a_ruling_0_2_1(game: str) -> None:
    teaching = load_teaching()
    for players in _seat_counts(game):
        guided = _guided(game, players)
        assert len(guided.steps) >= 5
        for step in guided.steps:
            assert step.title and len(step.text) >= 20
            assert "{" not in step.title + step.text, "a field was left unfilled"
            assert not step.ruling or teaching.text(step.ruling) is not None, step.ruling
            assert all(light.role is Role.SETUP for light in step.highlights)


@pytest.mark.parametrize("game", GAMES)
def test_every_lit_cell_is_a_cell_of_the_board_and_its_leds_0_2_5(game: str) -> None:
    for players in _seat_counts(game):
        guided = _guided(game, players)
        session_board = _board(game, players)
        if session_board is None:  # a card game: nothing under it to light
            assert all(not step.highlights for step in guided.steps)
            assert guided.board_view() is None
            continue
        cells = {cell.cell for cell in session_board.cells}
        if game == "kolossus":
            cells &= set(kolossus_layout().cells)  # the strip under the board
        for step in guided.steps:
            assert _cells(step) <= cells, step.title
        assert any(step.highlights for step in guided.steps)


def test_kolossus_landscapes_citadel_and_crystal_match_the_board_k_r01_k_r15() -> None:
    guided = _guided("kolossus", 4)
    by_title = {step.title: step for step in guided.steps}
    assert len(by_title["Woods: the outer ring"].highlights) == 24
    assert len(by_title["Hills: the middle ring"].highlights) == 16
    assert len(by_title["Mountains: the inner ring"].highlights) == 8
    assert _cells(by_title["The Citadel of Time"]) == {"5,5"}
    assert _cells(by_title["A crystal on the Citadel"]) == {"5,5"}  # K-R15: round 1's crystal


def test_kolossus_warbands_light_their_start_zones_in_their_colour_k_r02() -> None:
    guided = _guided("kolossus", 4)
    warbands = [step for step in guided.steps if "warband" in step.title]
    assert [step.title for step in warbands] == [
        "Blue warband: Ann",
        "Yellow warband: Bob",
        "Green warband: Cleo",
        "Red warband: Dev",
    ]
    corners = ["NW", "NE", "SE", "SW"]  # the default colours, corner by corner
    for index, (step, corner) in enumerate(zip(warbands, corners, strict=True)):
        assert _cells(step) == START_ZONES[corner]
        assert {light.player for light in step.highlights} == {index}
    # On the strip: every square of the blue step in the Tua'tha blue, nothing else lit.
    layout = kolossus_layout()
    frame = render(warbands[0].highlights, layout, KOLOSSUS_PALETTE)
    lit = {i for i, pixel in enumerate(frame) if pixel != (0, 0, 0)}
    assert lit == {i for cell in START_ZONES["NW"] for i in layout.cells[cell]}
    assert all(frame[i][2] > frame[i][0] for i in lit)  # blue, not red


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=4),
    colours=st.permutations(["blue", "yellow", "green", "red"]),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_kolossus_warband_steps_follow_the_referee_whatever_the_colours_k_r02_k_r21(
    players: int, colours: list[str], seed: int
) -> None:
    """Each warband's step lights exactly the squares the referee put its miniatures on,
    names the seat that plays it, and together they light every miniature once."""
    session = Session.new("kolossus", list(NAMES[:players]), {"colours": colours}, seed=seed)
    guided = GuidedSetupPresenter(session, load_teaching())
    board = session.rules.board(session.state)
    assert board is not None
    warbands = [step for step in guided.steps if "warband" in step.title]
    assert len(warbands) == 4
    seen: set[str] = set()
    for step in warbands:
        colour = step.title.split()[0].lower()
        owned = {c.cell for c in board.cells if any(p.colour == colour for p in c.pieces)}
        assert _cells(step) == owned and len(owned) == 8
        seat = next(p.player for c in board.cells for p in c.pieces if p.colour == colour)
        assert step.title.endswith(NAMES[seat if seat is not None else 0])
        assert not seen & owned
        seen |= owned


def test_kolossus_chapters_add_their_setup_steps_k_r25_k_r26() -> None:
    def rulings(chapter: int) -> list[str]:
        return [step.ruling for step in _guided("kolossus", 2, chapter=chapter).steps]

    assert "K-R25" not in rulings(1) and "K-R26" not in rulings(1)
    assert "K-R25" in rulings(2) and "K-R26" not in rulings(2)
    assert "K-R25" in rulings(3) and "K-R26" in rulings(3)


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_island_colossi_start_on_the_centre_in_their_seat_colour_bm_r03_ca_r01(game: str) -> None:
    guided = _guided(game, 3)
    board = _board(game, 3)
    assert board is not None
    holding = {c.cell for c in board.cells if any(p.kind == "colossus" for p in c.pieces)}
    colossi = [step for step in guided.steps if step.title.endswith("'s Colossus")]
    assert [step.title for step in colossi] == [
        "Ann's Colossus",
        "Bob's Colossus",
        "Cleo's Colossus",
    ]
    for seat, step in enumerate(colossi):
        assert _cells(step) == holding == {"r3c3"}  # the placeholder island's centre
        assert [light.player for light in step.highlights] == [seat]
    island = guided.steps[0]
    assert len(island.highlights) == 27 and {h.player for h in island.highlights} == {None}
    palette = palette_for_board("island")
    assert palette.colour(Role.SETUP, 1) == palette.players[1]  # the seat's own colour


def test_beast_master_hands_count_what_the_referee_counts_bm_r02_bm_r04() -> None:
    three = [s.text for s in _guided("beast_master", 3).steps if s.title.endswith("'s hand")]
    two = [s.text for s in _guided("beast_master", 2).steps if s.title.endswith("'s hand")]
    assert len(three) == 3 and all("takes 12 Acolytes" in text for text in three)
    assert len(two) == 2 and all("takes 10 Acolytes" in text for text in two)
    assert all("dealt 3 Colossus cards" in text for text in two)


def test_card_games_take_their_numbers_from_the_referee_bc_r06_cs_r01() -> None:
    builders = _guided("builders", 3)
    assert builders.highlights() == () and builders.board_view() is None
    hands = [s.text for s in builders.steps if s.ruling == "BC-R06"]
    assert hands == [
        f"{name} takes 10 Runes as a pile and 10 Parts cards as a hidden hand."
        for name in NAMES[:3]
    ]
    solo = _guided("colossus_solo", 1)
    trackers = next(s for s in solo.steps if s.title == "The trackers")
    assert trackers.text.startswith("Set the Weakness tracker to 1 and the Grip tracker to 8.")


# --- one tap per step: Done, Back, Skip ----------------------------------------------------


def test_done_back_and_skip_one_tap_each_0_2_1() -> None:
    saved: list[SetupProgress] = []
    guided = _guided("beast_master", 2)
    guided.on_step = saved.append
    count = len(guided.steps)
    view = guided.view()
    assert view.progress == f"Step 1 of {count}" and not view.can_back
    assert view.ruling == "BM-R01 · The island's map" and view.lit == 27
    assert view.next == "Next: Tiles and Loot"
    assert guided.highlights() == guided.steps[0].highlights
    guided.done()
    assert guided.view().progress == f"Step 2 of {count}" and guided.view().can_back
    guided.back()
    assert guided.view().progress == f"Step 1 of {count}"
    guided.back()  # nothing before the first step
    assert saved == [SetupProgress(step=1), SetupProgress(step=0)]
    for _ in range(count - 1):
        guided.done()
    assert guided.view().done_label == "Done: start playing"
    assert guided.view().next == "Next: play"
    guided.done()
    assert guided.finished and guided.highlights() == ()
    assert saved[-1] == SetupProgress(step=count - 1, finished=True)
    guided.done()  # a second tap changes nothing
    assert len(saved) == 2 + count  # Done, Back, then Done on every step


def test_skip_setup_goes_to_play_from_any_step_0_2_1() -> None:
    saved: list[SetupProgress] = []
    guided = _guided("kolossus", 2)
    guided.on_step = saved.append
    guided.done()
    guided.skip()
    assert guided.finished and saved[-1] == SetupProgress(step=1, finished=True)


def test_a_step_beyond_the_last_resumes_at_the_last_0_2_1() -> None:
    session = Session.new("builders", ["Ann", "Bob"], seed=1)
    guided = GuidedSetupPresenter(session, load_teaching(), SetupProgress(step=99))
    assert guided.view().progress == f"Step {len(guided.steps)} of {len(guided.steps)}"


# --- journaled: a power cut resumes at the same step ---------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_power_cut_resumes_guided_setup_at_the_same_step_0_2_1(game: str, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    store = ProgressStore(journal)
    players = list(NAMES[: max(get_rules(game).min_players, 2 if game != "colossus_solo" else 1)])
    session = Session.new(game, players, seed=5, journal=journal)
    game_id = session.game_id
    assert game_id is not None
    assert store.load_setup(game_id) is None  # started without guided setup
    store.save_setup(game_id, SetupProgress())
    guided = GuidedSetupPresenter(
        session,
        load_teaching(),
        store.load_setup(game_id) or SetupProgress(),
        on_step=lambda progress: store.save_setup(game_id, progress),
    )
    for _ in range(3):
        guided.done()
    guided.back()
    before = guided.view()
    lit = guided.highlights()
    journal.close()  # the power goes: only what is on disk counts

    again = Journal(path)
    resumed, _ = Session.resume(again, game_id)
    progress = ProgressStore(again).load_setup(game_id)
    assert progress == SetupProgress(step=2)
    after = GuidedSetupPresenter(resumed, load_teaching(), progress)
    assert after.view() == before and after.highlights() == lit
    again.close()


def test_a_damaged_or_unwritable_setup_note_never_stops_the_game(
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    store = ProgressStore(journal)
    game_id = Session.new("kolossus", ["Ann", "Bob"], seed=2, journal=journal).game_id
    assert game_id is not None
    store.save_setup(game_id, SetupProgress(step=4))
    assert store.load_setup(game_id) == SetupProgress(step=4)
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:  # a flipped byte on the card
        db.execute(
            "UPDATE game_notes SET value = '{\"step\": -1}' WHERE game_id = ? AND key = ?",
            (game_id, "guided_setup"),
        )
    assert store.load_setup(game_id) == SetupProgress(finished=True)
    journal.delete_game(game_id)
    assert store.load_setup(game_id) is None
    journal.close()  # every later write fails with a JournalError:
    store.save_setup(game_id, SetupProgress(step=1))  # logged, the setup goes on


# --- the [[setup]] tables are validated like the rest --------------------------------------

STEP = '\n[[setup]]\ntitle = "The board"\ntext = "Lay the board in the middle of the table."\n'


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (STEP + 'ruling = "K-R09"\n', "kolossus.toml: setup.0.ruling: no text for K-R09"),
        (STEP + 'ruling = "K-R01"\nlight = ["piece:dragon"]\n', "kolossus.toml: setup.0.light.0"),
        (STEP + 'ruling = "K-R01"\neach = "table"\n', "kolossus.toml: setup.0.each"),
        (
            STEP.replace("the table.", "the table {0}.") + 'ruling = "K-R01"\n',
            "kolossus.toml: setup.0.text: Value error, {0} is not a plain name",
        ),
    ],
)
def test_a_broken_setup_step_is_refused_with_file_and_key(step: str, message: str) -> None:
    good = dict(GOOD)
    assert parse_teaching({**good, "kolossus": good["kolossus"] + STEP + 'ruling = "K-R01"\n'})
    with pytest.raises(TeachingFileError) as refused:
        parse_teaching({**good, "kolossus": good["kolossus"] + step})
    assert str(refused.value).startswith(message), str(refused.value)


def test_guided_setup_needs_no_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.guided_setup")
