"""The play screen's menus and forms in the players' words, photographed per game.

A few moves into a seeded game of each kind, the group listing the most actions is
opened (its heading the family's title, each button the action as the game says it)
and, where the group's amounts are entered in a form, the form (its title, field
labels and choices the game's words): saved as ``screen-play-words-<game>-menu.png``
and ``…-form.png`` (Kolossus: ``…-stay.png``, a piece selected and its list scrolled
to the end, where the move that stays on its square is listed) to be looked at
(docs/images with ``COMPANION_SCREENSHOTS=docs``), with the layout checks of every
screenshot.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import REAL_GAMES, play_randomly, shoot, started_kiosk
from tests.kiosk.ui import close_kiosk, frames

NAMES = ["Alexandra-Marie", "Bea", "Cy"]
#: Moves played first: past the opening's one-button steps to a menu of choices.
MOVES = {"kolossus": 30, "beast_master": 6, "colossi": 4, "colossus_solo": 3, "builders": 6}


@pytest.fixture(params=REAL_GAMES)
def kiosk(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Kiosk]]:
    game: str = request.param
    from companion.games import get_rules

    rules = get_rules(game)
    count = max(rules.min_players, min(rules.max_players, len(NAMES)))
    k = started_kiosk(tmp_path, game, NAMES[:count], seed=3)
    yield game, k
    close_kiosk(k)


def test_the_menu_and_form_of_each_game_in_its_words(kiosk: tuple[str, Kiosk]) -> None:
    game, k = kiosk
    play = k.play
    assert play is not None
    play_randomly(k, MOVES.get(game, 5), seed=3)
    for extra in range(40):  # on to a menu of choices (not a roll awaited)
        lists = [g for g in play.view().groups if not g.plays]
        if play.queries.dice_request() is None and play.fix.step is None and lists:
            break
        play_randomly(k, 1, seed=extra)
    view = play.view()
    lists = [g for g in view.groups if not g.plays]
    if lists:
        widest = max(lists, key=lambda g: g.count)
        if view.group != widest.key:
            play.action_menu.choose_group(widest.key)
    assert play.view().groups, f"{game}: no menu to photograph"
    shoot(k, f"play-words-{game}-menu")
    formable = [g for g in play.view().groups if not g.plays]
    for group in formable:
        play.action_menu.choose_group(group.key)
        if play.view().formable and play.action_menu.open_form(group.key):
            shoot(k, f"play-words-{game}-form")
            play.forms.cancel()
            break
    stays = [
        p for p in play.queries.legal_payloads() if p.get("from") and p.get("from") == p.get("to")
    ]
    if stays:  # a piece selected: its moves, the one that stays where it is listed last
        play.board_input.tap_cell(str(stays[0]["from"]))
        if play.view().group != stays[0]["type"]:
            play.action_menu.choose_group(str(stays[0]["type"]))
        frames(2)
        k.play_screen.actions.scroll_y = 0
        shoot(k, f"play-words-{game}-stay")
