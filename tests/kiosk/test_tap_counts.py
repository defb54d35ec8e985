"""Taps per standard turn, per game (docs/kiosk.md, "Taps per turn").

Each test plays one ordinary turn through the play presenter the cheapest way the
screen offers (:class:`tests.kiosk.taps.TapCounter`: dice read off the electronic
tray, the board where it can choose, the menu otherwise) and checks the count the
docs publish. A change that adds a tap to a turn fails here.
"""

from __future__ import annotations

from companion.bot import RandomBot
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from tests.kiosk.taps import TapCounter, of_type


def _presenter(game: str, players: tuple[str, ...], seed: int = 3) -> PlayPresenter:
    return PlayPresenter(Session.new(game, players, seed=seed))


def test_kolossus_invasion_turn_ready_die_quake() -> None:
    """Ready, the Great Quake's die read off the tray, the region moved by its edge
    arrow (a touch to preview, a touch to play), the table fixed with "All done".
    Before: 2 taps (the quake from a 20-row list) and 7 "Done"."""
    counter = TapCounter(_presenter("kolossus", ("Ann", "Bob")))
    counter.act(of_type("ready"))
    counter.act(of_type("quake_move"))
    assert counter.ways[:3] == ["menu", "die", "board"]
    assert (counter.taps, counter.done_taps) == (3, 1)


def test_kolossus_round_turn_destiny_class_move_end() -> None:
    """The Die of Destiny read, a class chosen, its movement die read, a miniature moved
    (select, destination), the turn ended by its own button. Before: 5 (the turn ended
    from a list of one). The move made by touch needs no "Done" (before: 1): its walk
    would only repeat it."""
    p = _presenter("kolossus", ("Ann", "Bob"))
    bot = RandomBot(8)
    while not p.rules.status(p.state).startswith("Round"):
        while p.fix.step is not None:
            p.fix.next()
        p.submit(bot.choose(p.rules, p.state))
    counter = TapCounter(p)
    counter.settle()
    counter.done_taps = 0
    counter.act(of_type("choose_class"))
    counter.act(lambda a: a.get("type") == "move" and a.get("from") != a.get("to"))
    counter.act(of_type("end_turn"))
    assert counter.ways[:5] == ["die", "menu", "die", "board", "menu"]
    assert (counter.taps, counter.done_taps) == (4, 0)


def test_beast_master_turn_actions_move_end() -> None:
    """Take Actions, one island move (its space, then the destination), end the Actions.
    Before: 5."""
    p = _presenter("beast_master", ("Ann", "Bob", "Cy"))
    counter = TapCounter(p)
    counter.act(of_type("take_actions"))
    counter.act(lambda a: a.get("type") == "move" and a.get("piece") == "colossus")
    assert "board" in counter.ways
    counter.act(of_type("end_actions"))
    assert counter.taps == 4


def test_colossi_first_turn_age_lair_trait() -> None:
    """The Age card revealed, the Lair roll-off read off the tray, the Lair placed on
    its space (one touch; before: a row of a 26-row list), a Trait taken."""
    counter = TapCounter(_presenter("colossi", ("Ann", "Bob", "Cy")))
    counter.act(lambda a: a.get("type") == "reveal_age" and len(a.get("beasts", ())) == 2)
    counter.act(of_type("place_lair"))
    counter.act(of_type("take_trait"))
    assert counter.ways[4] == "board"
    assert (counter.taps, counter.done_taps) == (3, 2)


def test_colossus_solo_round_card_stats_resolve() -> None:
    """The Colossus card's values entered (prefilled form), the stats entered, resolved."""
    counter = TapCounter(_presenter("colossus_solo", ("Ann",)))
    counter.act(of_type("enter_colossus_card"))
    counter.act(of_type("enter_stats"))
    counter.act(of_type("resolve_card"))
    assert counter.taps == 3


def test_builders_turn_draw_end() -> None:
    """Draw (a touch on the Parts deck), then end the turn by its own button. Before: 4
    (a tab, then a list of one, twice); 2 since "Draw" became a button, and 2 with the
    deck's tile."""
    counter = TapCounter(_presenter("builders", ("Ann", "Bob", "Cy")))
    counter.act(of_type("draw"))
    counter.act(of_type("end_turn"))
    assert counter.ways == ["tile", "menu"]
    assert counter.taps == 2


def _trade_with_bob(payload: dict[str, object]) -> bool:
    return (
        payload.get("type") == "trade"
        and payload.get("partner") == 1
        and (
            payload.get("cards_given"),
            payload.get("runes_given"),
        )
        == (1, 0)
    )


def _builders_trade_build_turn(tiles: bool) -> TapCounter:
    counter = TapCounter(_presenter("builders", ("Ann", "Bob", "Cy")), tiles=tiles)
    counter.act(of_type("draw"))
    counter.act(_trade_with_bob)
    counter.act(lambda a: a.get("type") == "build" and a.get("slot") == 2)
    counter.act(of_type("end_turn"))
    return counter


def test_builders_turn_draw_trade_build_end_on_the_cards_bc_r01() -> None:
    """Draw, a card for a card with Bob, a Blueprint completed (BC-R01), end: 5 taps
    before the cards and 5 with them — the rules' minimum, a touch for what and one for
    how much — but the Build is now a row of Blueprint 2's 12, not of all 36 (the tile
    narrows the menu to its builds, on their group)."""
    before, after = _builders_trade_build_turn(False), _builders_trade_build_turn(True)
    assert before.ways == ["menu"] * 4
    assert after.ways == ["tile", "menu", "tile", "menu"]
    assert before.taps == after.taps == 5


def test_colossus_solo_round_with_the_power_paid_on_its_tracker_cs_r04() -> None:
    """The card's values and the stats (their forms), Netophah's power paid with Grip
    by touching the Grip tracker (CS-R04): 3 taps, as from the menu's row before."""
    for tiles, way in ((False, "menu"), (True, "tile")):
        counter = TapCounter(_presenter("colossus_solo", ("Ann",)), tiles=tiles)
        counter.act(of_type("enter_colossus_card"))
        counter.act(of_type("enter_stats"))
        counter.act(lambda a: a.get("type") == "use_power" and a.get("pay") == "grip")
        assert counter.ways == ["form", "form", way]
        assert counter.taps == 3
