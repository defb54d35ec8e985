"""The play view's texts name an island's spaces by their labels, and the parts made once
per state (the log, the facts panel, the menu) are named once, never left stale."""

from __future__ import annotations

from companion.session import Session
from kiosk.presenters.play import PlayPresenter


def test_the_log_and_panel_are_named_once_per_state_and_follow_each_change() -> None:
    play = PlayPresenter(Session.new("beast_master", ["Ann", "Bob"], seed=1))
    names = play.names()
    assert names.pattern is not None, "an island names its spaces"
    first, again = play.view(menu=False), play.view()
    assert again.log is first.log and again.panel is first.panel  # named once
    assert play.submit(play.queries.legal_payloads()[0])
    after = play.view()
    assert after.log != first.log, "a new state's log, not the last one's named copy"
    raw = play.queries.log()
    assert [line.text for line in after.log] == [names.text(line.text) for line in raw]
    assert after.panel.facts == tuple(names.text(fact) for fact in play.queries.panel().facts)
    assert [a.label for a in after.actions] == [
        names.text(a.label) for a in play.action_menu.menu().actions
    ]
