"""The scripted first games on the real screens, offscreen at 800×480: "Learn it in 10
minutes" on Home and "Learn <game> in 10 minutes" on the shop's demo start a lesson with
teach mode on; the lesson panel's buttons play, show, skip and end; every step's text is
on screen when the step begins, whatever opened below the panel (a form the step opened
by itself, a teach pause, the dice, the table's fix); a lesson resumes at its step after
the kiosk is closed. Saves screen-play-lesson-*.png to look at."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from kivy.core.window import Window

from kiosk.app import Kiosk
from kiosk.presenters.lesson import LessonPresenter
from kiosk.screens.home import LEARN
from kiosk.shop_demo import LEARN_TEXT
from kiosk.ui_map import MIN_SHOWN_PX
from tests.helpers.kiosk_shop import Shop
from tests.helpers.kiosk_widgets import cut_texts, shoot
from tests.kiosk.ui import buttons, close_kiosk, find_button, frames, laid_out, open_kiosk, tap

GAMES = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=12)
    yield k
    close_kiosk(k)


def _learn_buttons(kiosk: Kiosk) -> list[object]:
    return [b for b in buttons(kiosk) if b.text == LEARN]


def _panel_button(kiosk: Kiosk, text: str) -> object:
    panel = kiosk.play_screen.lesson.panel
    found = [b for b in panel.row.children if b.text == text]
    assert found, f"no {text!r} on the lesson panel: {[b.text for b in panel.row.children]}"
    return found[0]


def _set_up(kiosk: Kiosk) -> None:
    """Guided setup, which comes before a lesson's play: every step "Done" by touch."""
    frames(2)
    while kiosk.manager.current == "guided_setup":
        tap(find_button(kiosk, "Done"))  # "Done", and "Done: start playing" at the last
    assert kiosk.manager.current == "play"


def _lesson(kiosk: Kiosk) -> LessonPresenter:
    assert kiosk.lesson is not None
    return kiosk.lesson


def _column_overflow(kiosk: Kiosk, where: str) -> list[str]:
    """With the lesson panel in it, the right column's parts that stick out of it (the
    panel pushed above the column onto the header, or the last part below the screen).
    Without the panel (while the dice are asked for) the column is as it was before."""
    laid_out(2)
    act = kiosk.play_screen.ids.act
    parts = list(act.children)
    if kiosk.play_screen.lesson.panel.box not in parts:
        return []
    top = max(child.top for child in parts)
    bottom = min(child.y for child in parts)
    if top <= act.top + 1 and bottom >= act.y - 1:
        return []
    heights = [(type(child).__name__, round(child.height)) for child in reversed(parts)]
    return [
        f"{where}: the column spans {bottom:.0f}..{top:.0f}, "
        f"not {act.y:.0f}..{act.top:.0f}: {heights}"
    ]


def _span(widget: object) -> tuple[float, float]:
    """``widget``'s bottom and top in window coordinates."""
    bottom = widget.to_window(widget.x, widget.y)[1]  # type: ignore[attr-defined]
    return bottom, bottom + widget.height  # type: ignore[attr-defined]


def _step_text_hidden(kiosk: Kiosk, where: str) -> list[str]:
    """Why the lesson step's text is not on screen (none when it is): the panel must be
    in the right column, and at least :data:`MIN_SHOWN_PX` of the text must show inside
    the panel's scrolled body, the column and the window, with no other part of the
    column over it."""
    lesson = _lesson(kiosk)
    view = lesson.view()
    column = kiosk.play_screen.lesson
    panel = column.panel
    if view is None or view.finished:
        return []
    if panel.box.parent is None:
        return [f"{where}: the lesson panel is not on screen"]
    if panel.text.get_root_window() is None or panel.text.text != view.text:
        return [f"{where}: the panel does not show the step's text {view.text[:40]!r}"]
    act = kiosk.play_screen.ids.act
    low, high = _span(panel.text)
    for box in (panel.body, act):
        bottom, top = _span(box)
        low, high = max(low, bottom), min(high, top)
    low, high = max(low, 0.0), min(high, float(Window.height))
    if high - low < MIN_SHOWN_PX:
        return [f"{where}: {max(0, high - low):.0f} px of the step's text show"]
    covering = [
        type(child).__name__
        for child in act.children
        if child is not panel.box and _span(child)[0] < high and _span(child)[1] > low
    ]
    return [f"{where}: {covering} over the step's text"] if covering else []


def _next_tap(kiosk: Kiosk) -> None:
    """What a newcomer taps next: "Got it" on a pause, else the panel's first button."""
    play = kiosk.play
    assert play is not None
    if play.teacher.pause() is not None:
        tap(
            next(
                b
                for b in kiosk.play_screen.column.teach_panel.actions.children
                if b.text == "Got it"
            )
        )
        return
    if play.fix.step is not None:  # the table's fix, alone: its own "Done"
        tap(kiosk.play_screen.column.fix_done)
        return
    if play.queries.dice_request() is not None:  # the dice panel, alone
        tap(kiosk.play_screen.column.dice.roll)
        return
    tap(kiosk.play_screen.lesson.panel.row.children[-1])


def test_home_offers_a_lesson_per_game_and_it_starts_with_teach_mode_on(kiosk: Kiosk) -> None:
    learn = _learn_buttons(kiosk)
    assert len(learn) == len(GAMES)  # screen-home.png: test_widgets_screens.py
    assert not cut_texts(kiosk, "home")
    tap(learn[0])
    assert kiosk.manager.current == "guided_setup"  # the table set up first
    _set_up(kiosk)
    lesson = _lesson(kiosk)
    assert (
        kiosk.play is not None
        and kiosk.play.teacher.progress is not None
        and kiosk.play.teacher.progress.on
    )
    assert kiosk.play.session.seed == lesson.lesson.seed
    panel = kiosk.play_screen.lesson.panel
    assert panel.box.parent is kiosk.play_screen.ids.act.__self__
    step = lesson.lesson.steps[0]
    assert panel.heading.text == (
        f"Lesson · step 1 of {len(lesson.lesson.steps)} · Watch: {step.goal}"
    )
    assert panel.title.text == step.title  # no ruling ID in a title: "Why?" has it
    shoot(kiosk, "play-lesson-teach")
    assert not cut_texts(kiosk, "lesson with a pause")


@pytest.mark.parametrize("game", GAMES)
def test_the_lesson_plays_to_its_end_by_touch_on_the_screen(kiosk: Kiosk, game: str) -> None:
    assert kiosk.start_lesson(game)
    _set_up(kiosk)
    lesson = _lesson(kiosk)
    problems: list[str] = []
    taps = 0
    shot = False
    begun = -1  # the last step whose text was checked
    while not lesson.finished:
        where = f"{game} lesson step {lesson.place.step + 1} after {taps} taps"
        if lesson.place.step != begun:
            laid_out(2)
            # The step's text shows as it begins. Only where a roll or the table's fix
            # leaves no room above them for a line of it does it wait until they are done.
            waits = kiosk.play_screen.lesson.panel.box.parent is None
            play = kiosk.play
            assert play is not None
            if not waits or (play.queries.dice_request() is None and play.fix.step is None):
                problems += _step_text_hidden(kiosk, where)
                begun = lesson.place.step
                if game == "colossus_solo" and begun == 0:  # the form the step opens
                    shoot(kiosk, "play-lesson-form")
        _next_tap(kiosk)
        taps += 1
        assert taps < 200, lesson.view()
        where = f"{game} lesson step {lesson.place.step + 1} after {taps} taps"
        problems += _column_overflow(kiosk, where)  # the texts: test_text_fits.py
        view = lesson.view()
        play = kiosk.play
        assert play is not None
        calm = play.teacher.pause() is None and play.fix.step is None and play.forms.form is None
        watch = view is not None and view.kind == "Watch" and view.can_play
        lit = bool(lesson.marks()) or kiosk.play_screen.board is None  # a card game: none
        if not shot and watch and lit and calm:
            time.sleep(0.05)  # Kivy keeps a tapped button down for min_state_time (35 ms)
            shoot(kiosk, f"play-lesson-{game}")
            shot = True
    for _ in range(10):  # the panel waits aside while the table's fix or a roll is due
        if kiosk.play_screen.lesson.panel.box.parent is not None:
            break
        _next_tap(kiosk)
    frames(2)
    assert _panel_button(kiosk, "Keep playing") is not None
    problems += cut_texts(kiosk, f"{game} lesson done") + _column_overflow(kiosk, "done")
    assert not problems, "\n".join(problems[:20])
    if game == "kolossus":
        shoot(kiosk, "play-lesson-done")
    tap(_panel_button(kiosk, "Keep playing"))
    assert kiosk.play_screen.lesson.panel.box.parent is None
    assert kiosk.manager.current == "play"


def test_show_me_lights_the_goal_and_a_wrong_move_is_taken_back(kiosk: Kiosk) -> None:
    kiosk.start_lesson("builders")
    _set_up(kiosk)
    lesson = _lesson(kiosk)
    play = kiosk.play
    assert play is not None
    while play.teacher.pause() is not None:
        _next_tap(kiosk)
    before = play.state
    draw = next(p for p in play.queries.legal_payloads() if p["type"] == "draw")
    play.submit(draw)  # the first step asks for a build
    frames(2)
    assert play.state == before
    banner = kiosk.play_screen.ids.banner
    assert "build a Colossus" in banner.text and "[BC-R03]" in banner.text
    assert kiosk.play_screen.ids.banner_why.opacity == 1  # "Why?" explains the rule
    shoot(kiosk, "play-lesson-taken-back")
    while lesson.view() is not None and not lesson.view().can_show:  # type: ignore[union-attr]
        _next_tap(kiosk)
    tap(_panel_button(kiosk, "Show me"))
    assert _panel_button(kiosk, "Play it") is not None
    tap(_panel_button(kiosk, "Skip\nstep"))
    assert lesson.feedback == "Step skipped."
    tap(_panel_button(kiosk, "End\nlesson"))
    assert kiosk.play_screen.lesson.panel.box.parent is None


def test_a_lesson_resumes_at_its_step_after_the_kiosk_closes(tmp_path: Path) -> None:
    kiosk = open_kiosk(tmp_path, seed=3)
    kiosk.start_lesson("colossi")
    _set_up(kiosk)
    lesson = _lesson(kiosk)
    while lesson.place.step < 2:
        _next_tap(kiosk)
    place = lesson.place
    assert kiosk.play is not None
    game_id = kiosk.play.session.game_id
    assert game_id is not None
    close_kiosk(kiosk)  # the power cut
    kiosk = open_kiosk(tmp_path, seed=3)
    try:
        assert kiosk.resume(game_id)
        assert _lesson(kiosk).place == place
        heading = kiosk.play_screen.lesson.panel.heading.text
        assert f"step {place.step + 1} of {len(lesson.lesson.steps)}" in heading
    finally:
        close_kiosk(kiosk)


def test_the_shop_demo_offers_its_game_s_lesson(
    make_shop: Callable[..., Shop],
) -> None:
    shop = make_shop(idle_timeout_s=60, demo_step_s=1.0, demo_games=["beast_master"])
    kiosk = shop.kiosk
    kiosk.shop.arm()
    shop.advance(60)
    shop.advance(8)
    assert shop.current == "play"
    learn = kiosk.shop.overlay.learn_button
    assert learn.get_root_window() is not None
    assert learn.text == LEARN_TEXT.format(title="Beast Master")
    shoot(kiosk, "shop-demo-learn")
    assert not cut_texts(kiosk, "demo")
    shop.touch(*learn.to_window(*learn.center))
    assert shop.current == "guided_setup" and not kiosk.shop.attract.active
    assert kiosk.lesson is not None and kiosk.lesson.lesson.game == "beast_master"
    assert learn.parent is None
    _set_up(kiosk)
    find_button(kiosk, "Skip\nstep")


def test_the_suggestion_reaches_the_leds_and_the_board(kiosk: Kiosk) -> None:
    """0.2.5: the LEDs and the on-screen board show one thing — in a watch step, the
    suggested move (its piece selected, its destination reachable)."""
    shown: list[tuple[object, ...]] = []
    kiosk.on_highlights = shown.append  # the LED strip's feed
    kiosk.start_lesson("colossi")
    _set_up(kiosk)
    lesson = _lesson(kiosk)
    play = kiosk.play
    assert play is not None
    while not (lesson.step is not None and lesson.step.types == ("move",) and lesson.marks()):
        _next_tap(kiosk)
    marks = lesson.marks()
    assert {h.role.value for h in marks} == {"selected", "reachable"}
    assert shown[-1] == marks
    board = kiosk.board_view()
    assert board is not None
    assert {cell: look.role for cell, look in board.looks.items()} == {
        h.cell: h.role for h in marks
    }
