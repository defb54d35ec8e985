"""Nothing cut off: every text on every screen fits its widget at 800×480.

Walks the screens the touch-target test walks (home, setup of every game, play of every
game in each of its views, groups, forms, dice, fix-the-table, banner, outcome, scores,
the lesson panel of every game's scripted first game)
with long player names, and checks every visible label and button: laid out at its
width, its whole text (never "…"-shortened, never beyond its lines) fits the height it
has, and a label outside a scrolling list lies inside the window.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.session import Session
from kiosk import theme
from kiosk.app import Kiosk
from kiosk.presenters.common import Banner
from tests.helpers.kiosk_widgets import REAL_GAMES, cut_texts, shoot
from tests.helpers.kiosk_widgets import play_views as _play_views
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, play_modes, setup_built

#: Long names players give themselves (MAX_NAME_LENGTH, 16 characters).
LONG_NAMES = (
    "Maximiliane-Jose",
    "Bartholomew Higg",
    "Wenceslas Wiggam",
    "Annabel-Lucinda",
    "Bo",
    "Cy",
)


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=21)
    yield k
    close_kiosk(k)


def test_the_check_catches_a_shortened_and_an_overflowing_text(kiosk: Kiosk) -> None:
    from kiosk.widgets.basic import KButton

    games = kiosk.home_screen.ids.games
    cut = KButton(text="Correct the table and everything else", size_hint_x=None, width=120)
    games.add_widget(cut)
    problems = cut_texts(kiosk, "home")
    assert any("Correct the table" in p for p in problems), problems
    games.remove_widget(cut)


def test_home_setup_and_scores_texts_fit(kiosk: Kiosk) -> None:
    problems: list[str] = []
    finished = Session.new("builders", list(LONG_NAMES[:3]), seed=4, journal=kiosk.journal)
    bot = RandomBot(1)
    while finished.outcome is None:
        finished.submit(bot.choose(finished.rules, finished.state))
    Session.new("colossus_solo", [LONG_NAMES[0]], seed=5, journal=kiosk.journal)
    kiosk.go_home()
    problems += cut_texts(kiosk, "home")
    for game in REAL_GAMES:
        kiosk.open_setup(game)
        assert kiosk.setup is not None
        setup_built(kiosk)
        for scroll_y in (1.0, 0.0):
            kiosk.setup_screen.ids.scroll.scroll_y = scroll_y
            problems += cut_texts(kiosk, f"setup {game} at {scroll_y}")
    assert finished.game_id is not None
    kiosk.resume(finished.game_id)
    problems += cut_texts(kiosk, "play outcome")
    kiosk.open_scores()
    problems += cut_texts(kiosk, "scores")
    kiosk.export_game()
    problems += cut_texts(kiosk, "scores after export")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_play_screen_texts_fit(kiosk: Kiosk, game: str) -> None:
    kiosk.open_setup(game)
    assert kiosk.setup is not None
    rules = kiosk.setup.rules
    count = max(rules.min_players, min(rules.max_players, 4))
    kiosk.setup.names[:] = list(LONG_NAMES[:count])
    kiosk.start_game()
    assert kiosk.play is not None
    screen = kiosk.play_screen
    modes = play_modes(kiosk)
    if not rules.board_kind:  # a card game opens on its cards: walked in every view below
        assert modes[0] == "cards"
    problems: list[str] = []
    for index, where in enumerate(_play_views(kiosk, game, moves=64)):
        for _ in modes if index < 3 else modes[:1]:
            problems += cut_texts(kiosk, f"{where} ({screen.mode})")
            screen.next_mode()
        if len(problems) > 30:
            break
    assert not problems, "\n".join(dict.fromkeys(problems[:30]))


@pytest.mark.parametrize("game", REAL_GAMES)
def test_guided_setup_texts_fit(kiosk: Kiosk, game: str) -> None:
    """Every step of guided setup, with the longest names, the most seats and the
    chapter with the most steps."""
    kiosk.open_setup(game)
    setup = kiosk.setup
    assert setup is not None
    count = max(setup.rules.min_players, min(setup.rules.max_players, 4))
    setup.names[:] = list(LONG_NAMES[:count])
    if game == "kolossus":
        setup.values["chapter"] = 3  # K-R25, K-R26: the chapter with every step
    setup.guided = True
    kiosk.start_game()
    guided = kiosk.guided
    assert guided is not None
    problems: list[str] = []
    for step in guided.steps:
        problems += cut_texts(kiosk, f"guided setup {game}: {step.title}")
        kiosk.guide("done")
    assert kiosk.manager.current == "play"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_lesson_panel_texts_fit(kiosk: Kiosk, game: str) -> None:
    """The lesson panel ("Learn <game> in 10 minutes") at every step of the game's
    scripted first game — beside a teach pause, the dice, a form — in each view."""
    assert kiosk.start_lesson(game)
    kiosk.guide("skip")  # guided setup first (its texts: test_guided_setup_texts_fit)
    lesson, play, screen = kiosk.lesson, kiosk.play, kiosk.play_screen
    assert lesson is not None and play is not None
    modes = play_modes(kiosk)
    problems: list[str] = []
    seen: set[tuple[int, bool, bool]] = set()
    for _ in range(200):
        if lesson.finished:
            break
        key = (
            lesson.place.step,
            play.teacher.pause() is not None,
            play.queries.dice_request() is not None,
        )
        if key not in seen:
            seen.add(key)
            for _mode in modes:
                problems += cut_texts(kiosk, f"{game} lesson {key} ({screen.mode})")
                screen.next_mode()
        view = lesson.view()
        if play.teacher.pause() is not None:
            play.teacher.next()
        elif view is not None and view.can_show:
            lesson.show_me()
        else:
            lesson.play_suggestion()
    assert lesson.finished
    problems += cut_texts(kiosk, f"{game} lesson done")
    assert not problems, "\n".join(dict.fromkeys(problems[:30]))


@pytest.mark.parametrize("game", ("kolossus", "beast_master"))
def test_the_dice_column_fits_under_the_last_roll(kiosk: Kiosk, game: str) -> None:
    """Beside the board, a roll awaited after an earlier one shows the last roll, the
    prompt, the faces and the buttons in one column: all of it fits (a d6's two rows of
    faces once pushed the last roll over the header)."""
    kiosk.open_setup(game)
    assert kiosk.setup is not None
    kiosk.setup.names[:] = list(LONG_NAMES[:3])
    kiosk.start_game()
    play = kiosk.play
    assert play is not None
    bot, checked, problems = RandomBot(3), 0, []
    for _ in range(300):
        while play.fix.step is not None:
            play.fix.next()
        if play.queries.outcome is not None or checked >= 4:
            break
        if play.queries.dice_request() is not None:
            if play.view().last_roll:
                problems += cut_texts(kiosk, f"{game}: {play.view().status}")
                checked += 1
            play.dice.roll_in_software()
            continue
        action = bot.choose(play.rules, play.state)
        assert action is not None and play.submit(action)
    assert checked, "no roll came after another"
    assert not problems, "\n".join(problems)


#: Moves into a game after which its reached states are looked at (once: cheap).
REACHED_AFTER = 12


@pytest.mark.parametrize("game", REAL_GAMES)
def test_the_texts_of_reached_states_fit(kiosk: Kiosk, game: str) -> None:
    """States people reach a few moves into a played game, with 16-letter names: a
    piece or card selected (the menu narrowed to its actions, in the game's words) with
    "Why?" beside the board (naming cells in the board's words), the undo notice
    ("Took back: " and the action as the game says it), a correction's form."""
    from kiosk.presenters.menus import CORRECTIONS_GROUP

    kiosk.open_setup(game)
    assert kiosk.setup is not None
    rules = kiosk.setup.rules
    count = max(rules.min_players, min(rules.max_players, 4))
    kiosk.setup.names[:] = list(LONG_NAMES[:count])
    kiosk.start_game()
    play, screen = kiosk.play, kiosk.play_screen
    assert play is not None
    bot, problems, checked = RandomBot(13), [], []

    def check(where: str) -> None:
        screen.refresh()
        checked.append(where)
        problems.extend(cut_texts(kiosk, f"{game} move {move}: {where}"))

    play.unsubscribe(screen.refresh)  # moves are played headless, checked when drawn
    for move in range(REACHED_AFTER + 40):
        while play.fix.step is not None:
            play.fix.next()
        if play.queries.outcome is not None:
            break
        if move >= REACHED_AFTER and play.queries.dice_request() is None:
            origins = [c.origin for c in play.queries.listed_cells() if c.origin]
            if origins:
                play.board_input.tap_cell(origins[-1])
            play.teacher.explain_table()
            check('a selection and "Why?"')
            play.teacher.close()
            listed = play.view().actions
            if listed and play.submit(listed[-1].payload):
                play.undo()
                check("after an undo")
            if any(g.key == CORRECTIONS_GROUP for g in play.view().groups):
                play.action_menu.choose_group(CORRECTIONS_GROUP)
                if play.action_menu.choose(0):
                    check("a correction's form")
                    play.forms.cancel()
            break
        action = bot.choose(play.rules, play.state)
        if action is None:
            break
        play.submit(action)
    play.subscribe(screen.refresh)
    assert checked, f"{game}: no reached state was looked at"
    assert not problems, "\n".join(dict.fromkeys(problems[:30]))


def test_a_long_refusal_fits_the_banner_and_leaves_every_button_a_fingers_size(
    kiosk: Kiosk,
) -> None:
    """A refusal that takes three lines at the body size (long names in it) is set in
    the small size: at the body size it pushed Undo and Redo under a finger's size and
    Undo up under the banner."""
    names = LONG_NAMES[:2]
    kiosk.open_setup("builders")
    assert kiosk.setup is not None
    kiosk.setup.names[:] = list(names)
    kiosk.start_game()
    play = kiosk.play
    assert play is not None
    frames(2)
    words = (
        f"{names[0]} says no: this Trade would leave it worse off. Offer another, or choose"
        f" another action; {names[1]} may also take the Trade back before it is concluded."
    )
    play.show_banner(Banner(words, ruling="BC-R07"))
    screen = kiosk.play_screen
    screen.refresh()
    shoot(kiosk, "play-long-banner")  # every button at least a finger's size
    ids = screen.ids
    assert ids.banner.font_size == theme.FONT_SMALL
    assert ids.undo.top <= ids.banner_row.y  # nothing under the banner
    assert not cut_texts(kiosk, "long banner")
    play.dismiss_banner()
    play.show_banner(Banner("The game is over.", ruling="BC-R07"))
    screen.refresh()
    frames(2)
    assert ids.banner.font_size == theme.FONT_BODY  # a short one keeps the body size
