"""Card games chosen on their cards (kiosk/presenters/cards.py), without a display: every
listed action names tiles the table lays out, a tile with one action plays it in one
touch, a tile with several narrows the menu to exactly them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bot import RandomBot
from companion.session import Session
from kiosk.presenters.cards import tile_taps
from kiosk.presenters.play import PlayPresenter
from tests.helpers.builders import TABLE
from tests.helpers.cards import GAMES
from tests.helpers.cards import played as _played
from tests.kiosk.helpers import assert_imports_without_kivy


def test_the_cards_presenter_imports_without_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.cards")


@settings(max_examples=25, deadline=None)
@given(
    game=st.integers(0, len(GAMES) - 1),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 40),
)
def test_every_tile_plays_its_one_action_or_narrows_to_exactly_its_actions(
    game: int, seed: int, steps: int
) -> None:
    """Each listed action names only tiles the table shows; a tile's count is the number
    of listed actions naming it; touching a tile of one action plays exactly that one,
    touching a tile of several narrows the menu to exactly those (and a second touch
    widens it again)."""
    presenter = _played(game, seed, steps)
    tiles = {t.key: t for t in presenter.view().tiles}
    listed = presenter.queries.legal_payloads()
    for payload in listed:
        assert presenter.queries.cells_of(payload).touched <= tiles.keys(), payload
    for key, tile in tiles.items():
        named = [p for p in listed if key in presenter.queries.cells_of(p).touched]
        assert tile.actions == len(named), key
    several = next((t for t in tiles.values() if t.actions > 1), None)
    if several is not None:
        assert presenter.board_input.tap_tile(several.key) is False
        view = presenter.view()
        assert presenter.board_input.focus == several.key
        assert view.group == presenter.queries.payloads_at(several.key)[0]["type"]
        shown = [a.payload for a in view.actions]
        assert shown and all(p in presenter.queries.payloads_at(several.key) for p in shown)
        assert next(t for t in view.tiles if t.key == several.key).selected
        presenter.board_input.tap_tile(several.key)
        assert presenter.board_input.focus is None
    single = next((t for t in tiles.values() if t.plays), None)
    if single is not None:
        (payload,) = presenter.queries.payloads_at(single.key)
        assert tile_taps(presenter.queries, payload) == (single.key,)
        before = len(presenter.session.actions)
        assert presenter.board_input.tap_tile(single.key)
        assert len(presenter.session.actions) == before + 1
        assert presenter.rules.dump_action(presenter.session.actions[-1]) == payload


def test_builders_blueprint_tile_with_a_table_names_its_card_bc_r15() -> None:
    """With a Blueprint table (BC-R15) each slot's tile shows its card's name, cost and
    Parts, and narrows the menu to the layouts that complete that card."""
    presenter = PlayPresenter(
        Session.new("builders", ("Ann", "Bob"), {"blueprints": TABLE}, seed=3)
    )
    presenter.submit({"type": "draw"})
    slot = next(t for t in presenter.view().tiles if t.key == "slot:1")
    name, cost, parts = slot.text.split("\n")
    assert name.startswith("Blueprint ") and cost.endswith(" Runes") and "Leg" in parts
    presenter.board_input.tap_tile("slot:1")
    builds = [a.payload for a in presenter.view().actions]
    assert builds and {(b["type"], b["slot"]) for b in builds} == {("build", 1)}


def test_a_tile_with_nothing_to_do_clears_the_narrowing() -> None:
    presenter = PlayPresenter(Session.new("builders", ("Ann", "Bob", "Cy"), seed=3))
    presenter.board_input.tap_tile("seat:1")
    assert presenter.board_input.focus == "seat:1"
    own = next(t for t in presenter.view().tiles if t.key == "seat:0")
    assert own.actions == 0 and not presenter.board_input.tap_tile("seat:0")
    assert presenter.board_input.focus is None


def test_board_games_have_no_tiles() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=3))
    assert presenter.view().tiles == ()


def test_the_tiles_are_made_once_per_state_and_focus() -> None:
    """The screen reads ``view()`` several times per touch: the tiles of one state and
    focus are the same object each time, a new focus or a new state makes them again."""
    presenter = _played(0, 4, 8)  # Builders: several tiles with several actions
    tiles = presenter.view().tiles
    assert presenter.view().tiles is tiles
    busy = next(tile for tile in tiles if tile.actions > 1)
    presenter.board_input.select(busy.key)
    focused = presenter.view().tiles
    assert focused is not tiles and [t.key for t in focused if t.selected] == [busy.key]
    presenter.board_input.select(None)
    assert presenter.view().tiles is tiles
    action = RandomBot(4).choose(presenter.rules, presenter.state)
    assert action is not None and presenter.submit(action)
    assert presenter.view().tiles is not tiles
