"""A person's Trade with a seat the companion plays (Builders, BC-R07: a Trade is a deal
both conclude). The companion answers as it chooses its own deals, on its seat's view: a
deal that leaves it worse off is refused with a banner naming the seat, and a refused
Trade is not the person's action — the game and the journal are unchanged and the form
stays open to offer another. A deal it would conclude, and a Trade with a person, are
played as entered."""

from __future__ import annotations

from companion.bots.deals import declines, partner_of
from companion.games.builders.model import BuildersState, Draw, Trade
from kiosk.presenters.companion import CompanionTurn
from kiosk.presenters.companion_seats import CompanionSeats
from kiosk.presenters.play import PlayPresenter
from tests.helpers.companion_table import started, turn_for

SAYS_NO = (
    "Companion (Medium) says no: this Trade would leave it worse off. Offer another, or"
    " choose another action."
)


def _offering(levels: dict[int, str]) -> tuple[PlayPresenter, CompanionTurn]:
    """Builders with ``levels``' seats the companion's and the person at seat 0 to move,
    the Trade form open (partner: seat 1; one card received, none given)."""
    seats = CompanionSeats.of(levels)  # type: ignore[arg-type]
    play = PlayPresenter(started("builders", dict(seats.levels)))
    turn, _runner = turn_for(play, seats)
    assert play.queries.seat() == 0 and turn.holds() is None
    assert play.forms.open("trade")
    return play, turn


def test_bc_r07_a_card_for_nothing_is_refused_by_the_companion_and_changes_nothing() -> None:
    play, _turn = _offering({1: "medium"})
    form = play.forms.form
    assert form is not None and form.payload()["partner"] == 1
    state, actions = play.state, len(play.session.actions)
    assert not play.forms.submit()
    assert play.banner is not None and play.banner.message == SAYS_NO
    assert play.banner.ruling == "BC-R07" and play.banner.code == "illegal_action"
    assert play.view().banner == play.banner
    assert play.state is state and len(play.session.actions) == actions
    assert play.forms.form is form  # offer another from here


def test_bc_r07_a_deal_the_companion_would_conclude_is_played() -> None:
    play, _turn = _offering({1: "medium"})
    play.forms.step("cards_given", 1)  # a card for a card: it is no worse off
    assert play.forms.submit(), play.banner
    assert play.session.actions[-1] == Trade(partner=1, cards_received=1, cards_given=1)


def test_bc_r07_a_trade_with_a_person_is_theirs_to_refuse_at_the_table() -> None:
    play, _turn = _offering({2: "medium"})  # seat 1 is a person's
    assert play.forms.submit(), play.banner
    assert play.session.actions[-1] == Trade(partner=1, cards_received=1)


def test_once_the_companion_leaves_the_game_its_answer_goes_with_it() -> None:
    play, turn = _offering({1: "medium"})
    turn.close()
    assert play.deal_answer is None
    assert play.forms.submit(), play.banner


def test_bc_r07_the_companions_answer_is_its_bots_own_judgement_of_the_deal() -> None:
    play, _turn = _offering({1: "medium"})
    state = play.state
    assert isinstance(state, BuildersState)
    assert partner_of(Draw()) is None and partner_of(Trade(partner=1, cards_received=1)) == 1
    assert declines(play.rules, state, Draw()) is None
    assert declines(play.rules, state, Trade(partner=1, cards_received=1)) == 1
    assert declines(play.rules, state, Trade(partner=1, cards_received=1, cards_given=1)) is None
