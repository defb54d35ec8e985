"""The "Why?" panel through the play presenter (no Kivy): a refusal's rule with the
refusal and its counts, the rules behind what is lit and counted, each with the current
position."""

from __future__ import annotations

from companion.bot import RandomBot
from companion.highlights import Role
from companion.session import Session
from kiosk.presenters.common import Banner
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.why import ROLE_WORDS, WhyView


def _advance(presenter: PlayPresenter, bot: RandomBot, done: object) -> None:
    """Random legal moves until ``done(presenter)`` holds (the fix-the-table steps done)."""
    for _ in range(400):
        if done(presenter):  # type: ignore[operator]
            return
        presenter.submit(bot.choose(presenter.rules, presenter.state))
        while presenter.fix.step is not None:
            presenter.fix.next()
    raise AssertionError("the position was not reached")


def _entry(why: WhyView | None, ruling: str) -> tuple[str, ...]:
    assert why is not None
    found = [entry for entry in why.entries if entry.ruling == ruling]
    assert found, f"{ruling} not in {[e.ruling for e in why.entries]}"
    return found[0].here


def test_why_from_a_refusal_shows_its_rule_the_refusal_and_the_counts_now() -> None:
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob", "Cleo"], seed=4))
    assert presenter.submit({"type": "curse", "runes": [2, 2, 0]}) is False
    assert presenter.banner is not None and presenter.banner.ruling == "BC-R09"
    assert presenter.view().can_explain
    assert presenter.teacher.explain_refusal(presenter.banner)
    why = presenter.view().why
    assert why is not None and why.heading == "Why was that refused?"
    assert [e.ruling for e in why.entries] == ["BC-R09"]
    entry = why.entries[0]
    assert entry.title == "How a Curse is shared" and "at most one yourself" in entry.text
    assert entry.here[0] == f"Refused: {presenter.banner.message}"
    assert "Runes now: Ann 10, Bob 10, Cleo 10" in entry.here  # the worked example
    assert why.situation[0].startswith("Now: ")
    assert presenter.banner is not None  # the refusal stays under the panel


def test_the_panel_closes_and_the_next_move_closes_it_too() -> None:
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=4))
    presenter.teacher.explain_table()
    assert presenter.view().why is not None
    presenter.teacher.close_why()
    assert presenter.view().why is None
    presenter.teacher.explain_table()
    presenter.submit({"type": "draw"})
    assert presenter.view().why is None  # explained a position that is gone


def test_a_banner_without_a_ruling_offers_no_why() -> None:
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=4))
    presenter.banner = Banner("The journal could not be written.", code="journal_error")
    assert not presenter.view().can_explain
    assert (
        presenter.teacher.explain_refusal(presenter.banner) is False
        and presenter.teacher.why is None
    )


def test_why_during_the_great_quake_names_the_lit_region_and_the_roll() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    _advance(
        presenter,
        RandomBot(2),
        lambda p: p.view().panel.phase == "Great Quake" and p.queries.dice_request() is None,
    )
    presenter.teacher.explain_table()
    why = presenter.view().why
    assert why is not None
    rulings = [e.ruling for e in why.entries]
    assert rulings.index("K-R03") < rulings.index("K-R15")  # what may quake before the Citadel
    assert _entry(why, "K-R05")[0].startswith("Lit as what may quake (")
    assert any("rolls 1d4: " in line for line in why.situation)  # the rolled distance
    assert "Now: Crystals on the Citadel: 1 (supply 11)" in _entry(why, "K-R15")


def test_why_for_a_picked_piece_explains_where_it_may_go() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    _advance(presenter, RandomBot(2), lambda p: p.view().panel.phase == "Movement")
    picked = next(h.cell for h in presenter.highlights() if h.role is Role.SELECTABLE)
    presenter.board_input.tap_cell(picked)
    reach = [h.cell for h in presenter.highlights() if h.role is Role.REACHABLE]
    presenter.teacher.explain_table()
    why = presenter.view().why
    assert why is not None and why.entries[0].ruling == "1.6.2"
    named = presenter.rules.cell_words(presenter.state, picked)  # the board's own words
    assert named.startswith("(") and f"Picked: {named}" in why.situation
    line = next(x for x in _entry(why, "K-R10") if x.startswith("Lit as where it may go"))
    first = presenter.rules.cell_words(presenter.state, reach[0])
    assert line.startswith(f"Lit as where it may go ({len(reach)}): {first}")


def test_every_count_of_the_panel_is_explained_with_its_value() -> None:
    presenter = PlayPresenter(Session.new("colossus_solo", ["Mara"], seed=5))
    presenter.teacher.explain_table()
    why = presenter.view().why
    assert "Weakness now: 1" in _entry(why, "CS-R01")
    assert "Grip now: 8" in _entry(why, "CS-R01")
    assert any(line.startswith("Deck now: ") for line in _entry(why, "CS-R03"))


def test_every_role_has_words() -> None:
    assert set(ROLE_WORDS) == set(Role)


def test_why_while_a_die_is_awaited_explains_that_roll() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    _advance(presenter, RandomBot(2), lambda p: p.view().panel.phase == "Destiny roll")
    presenter.teacher.explain_table()
    why = presenter.view().why
    assert why is not None and why.entries[0].ruling == "K-R08"  # what the AP buy
    request = presenter.queries.dice_request()
    assert request is not None
    assert _entry(why, "K-R08")[0] == f"Waiting for: {request.label}"


def test_a_tapped_count_explains_that_count_alone() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    presenter.teacher.explain_count("Crystals on the Citadel: 1 (supply 11)")
    why = presenter.view().why
    assert why is not None and why.heading == "Why? Crystals on the Citadel"
    assert [e.ruling for e in why.entries] == ["K-R15", "K-R16"]
    assert why.entries[0].here == ("Now: Crystals on the Citadel: 1 (supply 11)",)
    presenter.teacher.explain_count("Pieces")
    why = presenter.view().why
    assert why is not None and why.entries[0].here == ("Pieces now: Ann 16, Bob 16",)
    presenter.teacher.close_why()
    presenter.teacher.explain_count("Step: Placement")  # no ruling behind the step's name
    assert presenter.view().why is None
