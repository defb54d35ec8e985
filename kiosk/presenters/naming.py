"""Cells named as the board draws them in every text the play screen shows.

The rules, the protocol and the journal name an island space by its ID (``r3c3``); people
read the label its board file gives it (``C3``, :class:`companion.views.CellNames`).
:func:`named_view` is the one place the play screen's texts get the labels: the status
line, the menus, the log, banners and notices, the dice prompt, the facts panel, fix
steps, "Why?" and teach pauses, forms' titles. Payloads keep the IDs (they go to the
rules). A game whose cells are their own names (a grid) gets its view back unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Generic, TypeVar

from companion.views import CellNames, PanelView
from kiosk.presenters.common import Banner
from kiosk.presenters.play_view import ActionChoice, ActionGroup, LogLine, PlayView
from kiosk.presenters.why import WhyEntry, WhyView

T = TypeVar("T")


class _Last(Generic[T]):
    """One part of the view (the log, the facts panel, the menu's groups or actions) as
    last named. Those parts are made once per state (the menu once per state and
    selection), and the screen asks for the view twice a change (without and with the
    menu) and again on every tap that keeps the state: the same object comes back and
    is named once. The object is held, so the same object is the one named."""

    def __init__(self) -> None:
        self._held: tuple[T, CellNames, T] | None = None

    def __call__(self, names: CellNames, value: T, make: Callable[[], T]) -> T:
        held = self._held
        if held is not None and held[0] is value and held[1] is names:
            return held[2]
        named = make()
        self._held = (value, names, named)
        return named


_GROUPS: _Last[tuple[ActionGroup, ...]] = _Last()
_ACTIONS: _Last[tuple[ActionChoice, ...]] = _Last()
_LOG: _Last[tuple[LogLine, ...]] = _Last()
_PANEL: _Last[PanelView] = _Last()


@lru_cache(maxsize=8192)
def _named(names: CellNames, text: str) -> str:
    """``text`` with its cells named (the same texts come back view after view)."""
    return names.text(text)


def _texts(names: CellNames, texts: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_named(names, t) for t in texts)


def _why(names: CellNames, why: WhyView | None) -> WhyView | None:
    if why is None:
        return None

    def name(text: str) -> str:
        return _named(names, text)

    return WhyView(
        heading=name(why.heading),
        situation=_texts(names, why.situation),
        entries=tuple(
            WhyEntry(e.ruling, name(e.title), name(e.text), _texts(names, e.here))
            for e in why.entries
        ),
    )


def named_panel(names: CellNames, panel: PanelView) -> PanelView:
    """The facts panel with its cells named."""
    return replace(
        panel,
        rows=tuple(replace(row, values=_texts(names, row.values)) for row in panel.rows),
        facts=_texts(names, panel.facts),
        phase=_named(names, panel.phase),
    )


def named_view(view: PlayView, names: CellNames) -> PlayView:
    """``view`` with every cell its texts name written as people read it."""
    if names.pattern is None:
        return view

    def name(text: str) -> str:
        return _named(names, text)

    banner = view.banner
    return replace(
        view,
        status=name(view.status),
        banner=None if banner is None else Banner(name(banner.message), banner.ruling, banner.code),
        notice=name(view.notice),
        dice=None if view.dice is None else replace(view.dice, label=name(view.dice.label)),
        groups=_GROUPS(
            names,
            view.groups,
            lambda: tuple(
                ActionGroup(g.key, name(g.label), g.count, g.plays, g.payload) for g in view.groups
            ),
        ),
        actions=_ACTIONS(
            names,
            view.actions,
            lambda: tuple(ActionChoice(name(a.label), a.payload) for a in view.actions),
        ),
        log=_LOG(
            names,
            view.log,
            lambda: tuple(LogLine(line.number, name(line.text)) for line in view.log),
        ),
        panel=_PANEL(names, view.panel, lambda: named_panel(names, view.panel)),
        fix=None if view.fix is None else replace(view.fix, instruction=name(view.fix.instruction)),
        outcome=None if view.outcome is None else name(view.outcome),
        form=None if view.form is None else replace(view.form, title=name(view.form.title)),
        why=_why(names, view.why),
        teach=_why(names, view.teach),
        last_roll=name(view.last_roll),
        preview=name(view.preview),
    )
