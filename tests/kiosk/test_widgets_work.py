"""How much work one touch costs on the screens (the Pi's CPU is slow).

Screens relabel the widgets they have instead of making new ones: the action menu and
the log are RecycleViews, setup and Home update their rows in place. (How often a touch
asks the rules for a state's legal actions and highlights, at most once each, is
bench/bench_rules_calls.py's budget.)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch

from companion.bot import RandomBot
from kiosk.app import Kiosk
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.play_view import PlayView
from kiosk.presenters.setup import SetupPresenter
from kiosk.screens.setup import FIRST_FRAME_OPTIONS
from kiosk.ui_map import UiMap
from kiosk.widgets.basic import KLabel, KToggle
from kiosk.widgets.keyboard import NameInput
from kiosk.widgets.lists import ActionRow, PanelView, TextRow
from tests.helpers.kiosk_widgets import advance_to
from tests.helpers.kiosk_widgets import started_kiosk as _start
from tests.kiosk.ui import (
    buttons,
    close_kiosk,
    frames,
    open_kiosk,
    setup_built,
    tap,
    tap_button,
)


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=3)
    k.open_setup("kolossus")
    assert k.setup is not None
    k.setup.names[:] = ["Ann", "Bob"]
    k.start_game()
    # The LED strip's feed, as a rig attaches it: highlights after every change.
    k.on_highlights = lambda highlights: None
    yield k
    close_kiosk(k)


def _presenter(kiosk: Kiosk) -> PlayPresenter:
    play = kiosk.play
    assert play is not None
    return play


# --- widgets made once ------------------------------------------------------------------


def _rows_fit_and_do_not_overlap(rows: list[Any]) -> None:
    """Each row as high as its text (a recycled row keeps no stale height), none over
    another."""
    for row in rows:
        if isinstance(row, TextRow):
            assert row.height == row.texture_size[1] + 4, row.text
        if isinstance(row, PanelView):
            assert row.height == row.minimum_height
    ordered = sorted(rows, key=lambda row: row.y)
    for lower, upper in itertools.pairwise(ordered):
        assert lower.top <= upper.y + 1, (getattr(lower, "text", ""), getattr(upper, "text", ""))


def test_moves_relabel_the_menu_and_log_rows_instead_of_making_new_ones(kiosk: Kiosk) -> None:
    play = _presenter(kiosk)
    screen = kiosk.play_screen
    while screen.mode != "info":
        screen.next_mode()  # the facts panel and the log
    menu = screen.actions
    seen: dict[int, Any] = {}
    bot = RandomBot(8)
    for _ in range(40):
        while play.fix.step is not None:
            play.fix.next()
        action = bot.choose(play.rules, play.state)
        assert action is not None
        play.submit(action)
        frames(2)
        for row in menu.layout_manager.children:
            seen[id(row)] = row
        _rows_fit_and_do_not_overlap(list(screen.log.layout_manager.children))
        _rows_fit_and_do_not_overlap(list(menu.layout_manager.children))
    assert screen.actions is menu and screen.ids.info.children == [screen.log]
    # The rows a screenful needs, give or take the ones scrolled half in: not 48 a move.
    assert len(seen) <= 2 * (menu.height // 56 + 2), len(seen)


def test_a_move_renders_each_new_row_text_once_and_no_kept_one_again(
    kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kivy's RecycleView handed row widgets back shuffled whenever the data or
    a row's height changed, so a move re-rendered every log line and menu row up to
    three times. Kept by their text (kiosk.widgets.lists.RowKeepingAdapter), a line that
    moved down keeps its texture and a new text is rendered once, on one widget."""
    from kivy.core.text import LabelBase

    play = _presenter(kiosk)
    screen = kiosk.play_screen
    while screen.mode != "info":
        screen.next_mode()  # the facts panel and the log
    lists = (screen.log, screen.actions)
    rendered: list[tuple[int, str]] = []
    refresh = LabelBase.refresh

    def counted(label: Any) -> None:
        rendered.append((id(label), str(label.text)))
        refresh(label)

    monkeypatch.setattr(LabelBase, "refresh", counted)
    bot = RandomBot(8)
    moved_down = 0
    for _ in range(25):
        while play.fix.step is not None:
            play.fix.next()
        before = {id(row._label): (row.text, row.width) for rv in lists for row in _rows(rv)}
        rendered.clear()
        action = bot.choose(play.rules, play.state)
        assert action is not None
        play.submit(action)
        frames(3)
        # A row that gets another width (made in this move, or its list shown again)
        # renders again at its new width; rows that kept theirs render a new text once.
        widths = {id(row._label): row.width for rv in lists for row in _rows(rv)}
        steady = {label for label, (_t, width) in before.items() if widths.get(label) == width}
        # A text several rows say (a game without its phrasebook titles every move
        # alike) is rendered once per row: rows are kept by their text.
        row_texts = [row.text for rv in lists for row in _rows(rv)]
        texts = [text for label, text in rendered if label in steady]
        twice = sorted(t for t in set(texts) if texts.count(t) > max(1, row_texts.count(t)))
        assert not twice, f"row texts rendered twice in one move: {twice}"
        shown = {row.text for rv in lists for row in _rows(rv)}
        kept = {text for text, _width in before.values()} & shown
        again = {t for t in kept if row_texts.count(t) == 1} & {t for _label, t in rendered}
        assert not again, f"rows whose text was on screen rendered again: {again}"
        moved_down += len(kept)
    assert moved_down > 0  # lines and actions did survive moves, and were not rendered


def test_a_move_detaches_only_the_rows_no_longer_shown(
    kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kivy's RecycleLayout detached every row when its data changed and
    attached the ones shown again a frame part later (a remove and an add each, about
    0.6 M instructions a touch). kiosk.widgets.lists.RowKeepingLayout leaves a row that
    shows again where it is and detaches only the rest; the rows on screen are exactly
    the layout's children."""
    from kivy.uix.widget import Widget

    play = _presenter(kiosk)
    screen = kiosk.play_screen
    while screen.mode != "info":
        screen.next_mode()  # the facts panel and the log
    lists = (screen.log, screen.actions)
    layouts = {id(rv.layout_manager) for rv in lists}
    removed: list[Any] = []
    remove = Widget.remove_widget

    def noted(layout: Any, widget: Any) -> None:
        if id(layout) in layouts:
            removed.append(widget)
        remove(layout, widget)

    monkeypatch.setattr(Widget, "remove_widget", noted)
    bot = RandomBot(8)
    stayed = 0
    for _ in range(25):
        while play.fix.step is not None:
            play.fix.next()
        before = {row for rv in lists for row in rv.layout_manager.children}
        removed.clear()
        action = bot.choose(play.rules, play.state)
        assert action is not None
        play.submit(action)
        frames(3)
        for rv in lists:
            shown = set(rv.view_adapter.views.values())
            assert set(rv.layout_manager.children) == shown
        after = {row for rv in lists for row in rv.layout_manager.children}
        assert not after & set(removed), "a row shown again was detached and attached"
        stayed += len(before & after)
    assert stayed > 0  # rows did show again across moves


def _rows(rv: Any) -> list[Any]:
    return [row for row in rv.layout_manager.children if hasattr(row, "_label")]


def test_setup_makes_its_first_options_in_the_tap_s_frame_and_the_rest_in_the_next(
    kiosk: Kiosk,
) -> None:
    """Kolossus's 21 options are ≈190 widgets, which made at once held the tap on its
    title for 1–2.5 s of a Pi's CPU: Setup makes FIRST_FRAME_OPTIONS of them in the tap's
    frame (the screen shows no more) and the rest in the next; a tap in between loses
    nothing, and in the end every option of the first screen (the house rules wait under
    "More rules") is shown once, in the presenter's order."""
    kiosk.go_home()
    kiosk.open_setup("kolossus")  # what the title's tap calls, in one frame
    screen, setup = kiosk.setup_screen, kiosk.setup
    assert setup is not None
    options = [option for group in setup.view().groups for option in group.options]
    labels = tuple(option.label for option in options)

    def titles() -> list[str]:
        """The options' titles Setup shows, top to bottom."""
        return [
            widget.text
            for widget in screen.ids.body.walk(restrict=True)
            if isinstance(widget, KLabel) and widget.bold and widget.text.startswith(labels)
        ]

    assert len(titles()) == FIRST_FRAME_OPTIONS < len(options)
    assert screen.building
    players = len(setup.view().players)
    screen.do(SetupPresenter.add_player)  # a tap before the rest came
    assert len(setup.view().players) == players + 1
    frames(1)
    assert not screen.building
    shown = titles()
    assert len(shown) == len(options)
    for title, option in zip(shown, options, strict=True):
        assert title.startswith(option.label)


def test_a_setup_tap_keeps_the_rows_it_has(kiosk: Kiosk) -> None:
    kiosk.go_home()
    tap_button(kiosk, "Kolossus")
    setup_built(kiosk)
    body = kiosk.setup_screen.ids.body
    before = list(body.children)
    tap_button(kiosk, "+ Add player")
    assert len(body.children) == len(before) + 1
    assert all(widget in body.children for widget in before), "setup made its rows again"
    kept = list(body.children)

    def names() -> list[str]:
        """The first three players' names, as the rows show them from the top."""
        fields = [w for w in body.walk(restrict=True) if isinstance(w, NameInput)]
        return [field.text for field in fields[:3]]

    before_names = names()
    tap(next(b for b in buttons(kiosk) if b.text == "Move up" and not b.disabled))
    assert body.children == kept
    moved = names()
    assert moved == [before_names[1], before_names[0], before_names[2]]


def test_home_relabels_its_buttons(kiosk: Kiosk) -> None:
    kiosk.go_home()
    games = list(kiosk.home_screen.ids.games.children)
    resumable = list(kiosk.home_screen.ids.resumable.children)
    assert any("Kolossus" in b.text for b in resumable)  # the game the fixture started
    kiosk.go_home()
    assert kiosk.home_screen.ids.games.children == games
    assert kiosk.home_screen.ids.resumable.children == resumable


def _column_texts(kiosk: Kiosk) -> list[str]:
    """The texts of the middle column's buttons and menu rows."""
    screen = kiosk.play_screen
    tabs = [w.text for w in screen.ids.act.walk(restrict=True) if isinstance(w, KToggle)]
    return tabs + [row["text"] for row in screen.actions.data]


def status_shown(kiosk: Kiosk) -> str:
    """The play screen's status line, as one line (it breaks between parts to fit)."""
    return str(kiosk.play_screen.ids.status.text).replace("\n", " · ")


def _view_texts(view: PlayView) -> list[str]:
    return [g.button_text for g in view.groups] + [a.label for a in view.actions]


def test_a_move_shows_its_header_in_its_frame_and_the_middle_column_in_the_next(
    kiosk: Kiosk,
) -> None:
    """The change a touch makes is drawn in the touch's frame: the header and the board
    (or the cards); the middle column — the menu, whose rows each render their text
    again — a frame later. The view shown in between lists no action, so a row of the
    old menu does nothing; the presenter's menu is not even made for it."""
    advance_to(kiosk, "move")
    play, screen = _presenter(kiosk), kiosk.play_screen
    frames(2)
    old_column = _column_texts(kiosk)
    old_label = play.view().actions[0].label
    before = len(play.session.actions)
    play.submit(play.view().actions[0].payload)  # what the row's release calls
    assert play.queries.derived().menus == {}  # the new state's menu: not made yet
    assert len(play.session.actions) == before + 1
    assert screen.column_pending
    assert status_shown(kiosk) == play.view().status  # the header is the new state's
    assert _column_texts(kiosk) == old_column != _view_texts(play.view())  # the old menu
    old_row = next(
        row
        for row in screen.actions.layout_manager.children
        if isinstance(row, ActionRow) and row.text == old_label
    )
    old_row.dispatch("on_release")  # a row of the old menu released now: nothing played
    assert len(play.session.actions) == before + 1
    frames(1)
    assert not screen.column_pending
    assert _column_texts(kiosk) == _view_texts(play.view())


def test_a_touch_before_the_column_came_finds_it_up_to_date(kiosk: Kiosk) -> None:
    """A second tap in the frame after a move (or a tap in the frame of a die's
    change) reaches the new column: it is shown before the touch is handled."""
    advance_to(kiosk, "move")
    play, screen = _presenter(kiosk), kiosk.play_screen
    frames(2)
    play.submit(play.view().actions[0].payload)
    assert screen.column_pending
    touch = UnitTestTouch(*screen.ids.act.to_window(*screen.ids.act.center))
    touch.touch_down()
    try:
        assert not screen.column_pending
        assert _column_texts(kiosk) == _view_texts(play.view())
    finally:
        touch.touch_up()
    frames(1)
    assert _column_texts(kiosk) == _view_texts(play.view())


def test_the_ui_map_waits_for_a_change_s_column(kiosk: Kiosk, tmp_path: Path) -> None:
    """The end-to-end tests click by the map: between a change and its column the
    screen is not whole, so the map is not written then."""
    advance_to(kiosk, "move")
    play = _presenter(kiosk)
    frames(2)
    written = tmp_path / "ui.json"
    ui_map = UiMap(kiosk, written)
    play.submit(play.view().actions[0].payload)
    ui_map.write()
    assert not written.exists()
    frames(1)
    ui_map.write()
    texts = {b["text"] for b in json.loads(written.read_text())["buttons"]}
    assert {group.button_text for group in play.view().groups} <= texts


def top_action_row(screen: Any) -> Any:
    """The listed action at the top of the menu (not the row that opens a form)."""
    rows = [
        w
        for w in screen.actions.walk(restrict=True)
        if isinstance(w, ActionRow) and w.text and w.index >= 0
    ]
    return max(rows, key=lambda w: w.to_window(*w.center)[1])


def test_the_first_fix_step_renders_its_text_once_at_the_column_s_width(
    tmp_path: Path,
) -> None:
    """A fault found once: the fix-the-table text of a game's first step was set while
    its label and section were still unplaced, so Kivy wrapped it at its default 100 px
    (many lines, ≈1 M instructions) and again at the column's width."""
    kiosk = _start(tmp_path, "builders", ["Ann", "Bob", "Cy"])
    try:
        play, screen = _presenter(kiosk), kiosk.play_screen
        label = screen.column.fix_text
        rendered: list[tuple[str, Any]] = []
        texture_update = label.texture_update

        def counted(*args: Any) -> None:
            if label.text:
                rendered.append((label.text, tuple(label.text_size)))
            texture_update(*args)

        counted.__name__ = texture_update.__name__  # Kivy's triggers call it by name
        label.texture_update = counted
        for _ in range(30):  # the top row of the menu, released in a frame's clock tick
            frames(2)
            if play.fix.step is not None:
                break
            row = top_action_row(screen)
            Clock.schedule_once(lambda _dt, row=row: row.dispatch("on_release"), 0)
            frames(2)
        assert play.fix.step is not None, "no fix-the-table step in 30 moves"
        frames(2)
        assert label.get_root_window() is not None
        assert rendered == [(label.text, (screen.ids.act.width, None))]
    finally:
        close_kiosk(kiosk)


def test_a_touch_in_the_column_s_frame_reaches_the_relabelled_rows(tmp_path: Path) -> None:
    """The list relabels its rows before its frame is drawn, after that frame's
    touches: a touch then has the rows relabelled first, and reaches what the menu
    lists."""
    kiosk = _start(tmp_path, "builders", ["Ann", "Bob", "Cy"])
    try:
        play, screen = _presenter(kiosk), kiosk.play_screen
        rows = screen.actions

        def row_texts() -> list[str]:
            views = rows.view_adapter.views
            return [views[i].text for i in sorted(views)]

        def listed() -> list[str]:
            return [row["text"] for row in rows.data][: len(row_texts())]

        for _ in range(30):
            frames(2)
            play.submit(play.view().actions[0].payload)
            Clock.tick()  # the next frame's clock (the column shown), before its touches
            if play.fix.step is None and row_texts() and row_texts() != listed():
                break
            while play.fix.step is not None:
                play.fix.next()
        else:
            pytest.fail("no move changed the menu's rows in 30 moves")
        touch = UnitTestTouch(*rows.to_window(*rows.center))
        touch.touch_down()
        try:
            assert row_texts() == listed()
        finally:
            touch.touch_up()
    finally:
        close_kiosk(kiosk)
