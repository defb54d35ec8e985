"""The roll's cue on the board and the LED strip (kiosk/presenters/rolls.py): while a
roll is awaited, and just after it was read, the roller's pieces are lit as ROLL — the
same highlights reach the strip (through the real renderer) and the on-screen board
(the die in view). RULINGS 0.2.3: a roll is the table's, whoever reads it."""

from __future__ import annotations

from companion.bot import RandomBot
from companion.dice import Roll
from companion.highlights import Role, winning_highlights
from companion.session import Session
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE
from firmware_bridge.leds.render import render
from kiosk.presenters.board import cell_looks
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.why import ROLE_WORDS
from tests.helpers.presenters import colossi_age_revealed as _colossi_age_revealed


def _awaiting(presenter: PlayPresenter, purpose: str, seed: int = 8) -> PlayPresenter:
    """Play on (fixing the table at once) until a roll for ``purpose`` is awaited."""
    bot = RandomBot(seed)
    for _ in range(2000):
        request = presenter.queries.dice_request()
        if request is not None and request.purpose == purpose and presenter.fix.step is None:
            return presenter
        presenter.fix.finish()
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    raise AssertionError(f"no {purpose} roll reached")


def _roller_cells(presenter: PlayPresenter) -> set[str]:
    board = presenter.rules.board(presenter.state)
    assert board is not None
    side = presenter.rules.panel(presenter.state).turn_colour
    return {c.cell for c in board.cells if any(p.colour == side for p in c.pieces)}


def test_the_die_of_destiny_lights_the_rolling_warband_on_strip_and_board_0_2_3() -> None:
    """Awaiting the Die of Destiny: the rolling warband's miniatures breathe in the roll
    colour, on the strip (the real renderer) and on the screen's board alike; read off
    the tray, the cue stays for the position the roll made, and goes with the next move."""
    presenter = _awaiting(PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=3)), "destiny")
    cells = _roller_cells(presenter)
    assert len(cells) == 8  # one warband: its Colossus, Guardians and Warriors
    lights = presenter.highlights()
    assert {h.cell for h in lights if h.role is Role.ROLL} == cells
    layout = kolossus_layout()
    frame = render(lights, layout, presenter.board_input.palette, still=True)
    rose = render(
        [h for h in lights if h.role is Role.ROLL][:1], layout, KOLOSSUS_PALETTE, still=True
    )
    colour = next(p for p in rose if p != (0, 0, 0))
    shown = winning_highlights(lights, presenter.board_input.palette)
    for cell in cells:
        if shown[cell].role is Role.ROLL:
            assert {frame[i] for i in layout.leds_of(cell)} == {colour}
    looks = cell_looks(lights, presenter.board_input.palette)
    assert {c for c, look in looks.items() if look.role is Role.ROLL} == {
        c for c, h in shown.items() if h.role is Role.ROLL
    }
    board = presenter.board_view()
    assert board is not None and all(board.looks[c].role is shown[c].role for c in cells)

    assert presenter.dice.electronic_roll(Roll(values=(2,), source="electronic"))
    request = presenter.queries.dice_request()
    assert request is None or request.purpose != "destiny"
    after = {h.cell for h in presenter.highlights() if h.role is Role.ROLL}
    assert after == cells  # just read: whose roll it was, until the next move
    choice = next(p for p in presenter.queries.legal_payloads() if p["type"] == "choose_class")
    presenter.submit(choice)
    if presenter.queries.dice_request() is None:
        assert not [h for h in presenter.highlights() if h.role is Role.ROLL]


def test_the_great_quakes_regions_win_over_the_cue_k_r03() -> None:
    """Awaiting the Great Quake's die the game already lights what may quake (K-R03):
    those cells stay the quake's; the cue shows on the roller's start corner, which no
    region crosses."""
    presenter = PlayPresenter(Session.new("kolossus", ("Ann", "Bob"), seed=3))
    presenter.submit({"type": "ready"})
    assert presenter.queries.dice_request() is not None
    lights = presenter.highlights()
    cued = {h.cell for h in lights if h.role is Role.ROLL}
    assert cued == _roller_cells(presenter)
    quake = {h.cell for h in lights if h.role is Role.QUAKE_REGION}
    shown = winning_highlights(lights, presenter.board_input.palette)
    assert all(shown[c].role is Role.QUAKE_REGION for c in quake)  # what may quake, unchanged
    assert cued - quake and all(shown[c].role is Role.ROLL for c in cued - quake)


def test_an_island_explore_roll_lights_the_explorers_pieces() -> None:
    presenter = _awaiting(
        PlayPresenter(Session.new("beast_master", ("Ann", "Bob", "Cy"), seed=3)), "explore"
    )
    request = presenter.queries.dice_request()
    assert request is not None and request.player is not None
    board = presenter.rules.board(presenter.state)
    assert board is not None
    mine = {c.cell for c in board.cells if any(p.player == request.player for p in c.pieces)}
    assert mine and {h.cell for h in presenter.highlights() if h.role is Role.ROLL} == mine


def test_a_roll_off_has_no_one_roller_and_no_cue() -> None:
    """The Lair roll-off is every contender's die at once: nothing is lit for it."""
    presenter = _colossi_age_revealed()
    request = presenter.queries.dice_request()
    assert request is not None and request.player is None
    assert not [h for h in presenter.highlights() if h.role is Role.ROLL]


def test_card_games_light_no_cue_and_the_role_has_its_why_words() -> None:
    presenter = PlayPresenter(Session.new("builders", ("Ann", "Bob"), seed=3))
    assert presenter.highlights() == ()
    assert ROLE_WORDS[Role.ROLL] == "whose die is awaited or was just read"
