"""Board-game flows played by touch on the offscreen 800×480 window.

Kolossus's Great Quake and a capture, a Beast Master Rest, a Colossi Harvest: every
step is a touch a player makes — the game on Home, "Start game", die faces or "Roll in
software", squares of the board widget, group tabs, action buttons, form +/−, "Submit"
and "Done". A seeded bot decides *what* to press; the seeds were found offline by
playing the rules directly with the same policy, so each flow is reached in a few dozen
moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.dice import Roll
from companion.games.island.beast_master.model import BeastMasterState
from companion.games.island.colossi.model import ColossiState
from companion.games.kolossus.model import KolossusState
from companion.highlights import Role
from companion.rng import Rng
from kiosk.app import Kiosk
from kiosk.presenters.play import PlayPresenter
from tests.helpers.kiosk_widgets import play_by_touch, start, tap_action, tap_cell
from tests.helpers.presenters import state_as
from tests.kiosk.ui import close_kiosk, find_button, open_kiosk, tap_button

# Seeds found offline (rules + RandomBot, the policy below): Kolossus with bot 1 and die
# faces from Rng(1) reaches a capture in round 1 after 12 moves (Blue's Colossus on 0,0
# can beat the enemy on 0,8); Beast Master game 1 / bot 1 reaches a Rest with a Banner
# on a paying Loot token after 17 moves; Colossi game 1 / bot 24 reaches the Harvest
# Phase after 51 moves, where a space that pays gold may be harvested.
KOLOSSUS_GAME_SEED = 1
KOLOSSUS_BOT_SEED = 1
BEAST_MASTER_GAME_SEED = 1
BEAST_MASTER_BOT_SEED = 1
COLOSSI_GAME_SEED = 1
COLOSSI_BOT_SEED = 24


def _presenter(kiosk: Kiosk) -> PlayPresenter:
    play = kiosk.play
    assert play is not None
    return play


def fix_the_table_by_touch(kiosk: Kiosk) -> list[str]:
    """Tap "Done" through the walk-through; the instructions shown, in order."""
    play = _presenter(kiosk)
    shown: list[str] = []
    for _ in range(64):
        fix = play.view().fix
        if fix is None:
            return shown
        shown.append(fix.instruction)
        tap_button(kiosk, "Done", exact=True)
    pytest.fail("the fix-the-table walk-through never ended")


def roll_faces_by_touch(kiosk: Kiosk, values: tuple[int, ...]) -> None:
    """Tap the die face buttons one by one, as read off the table."""
    play = _presenter(kiosk)
    before = len(play.session.actions)
    for value in values:
        assert play.view().dice is not None
        tap_button(kiosk, str(value), exact=True)
    assert len(play.session.actions) == before + 1, play.view().banner


def roll_in_software_by_touch(kiosk: Kiosk) -> None:
    play = _presenter(kiosk)
    before = len(play.session.actions)
    tap_button(kiosk, "Roll in software", exact=True)
    assert len(play.session.actions) == before + 1, play.view().banner


def bot_move_by_touch(kiosk: Kiosk, bot: RandomBot) -> None:
    """The bot's choice, pressed on the screen; a rolled die is answered in software."""
    play = _presenter(kiosk)
    fix_the_table_by_touch(kiosk)
    if play.queries.dice_request() is not None:
        roll_in_software_by_touch(kiosk)
        return
    action = bot.choose(play.rules, play.state)
    assert action is not None
    before = len(play.session.actions)
    payload = play.rules.dump_action(action)
    if payload["type"] == "move" and "origin" in payload:
        island_move_by_touch(kiosk, payload)
    else:
        play_by_touch(kiosk, payload)
    assert len(play.session.actions) == before + 1, (payload, play.view().banner)


def island_move_by_touch(kiosk: Kiosk, payload: dict[str, Any]) -> None:
    """Tap the piece's space, then the destination; if both a Colossus and Acolytes
    could go there, the menu narrows to those moves and the right one is tapped. A
    Road chain back to its own space is chosen from the menu the selection narrowed
    (a second tap on the selected space deselects it)."""
    play = _presenter(kiosk)
    before = len(play.session.actions)
    tap_cell(kiosk, payload["origin"])
    assert play.board_input.focus == payload["origin"]
    if payload["to"] != payload["origin"]:
        tap_cell(kiosk, payload["to"])
    if len(play.session.actions) == before + 1:
        assert play.rules.dump_action(play.session.actions[-1]) == payload
        return
    label = play.names().text(play.queries.kept.label(play.state, payload))
    shown = play.view().actions
    tap_action(kiosk, label, next(i for i, a in enumerate(shown) if a.payload == payload))


# --- Kolossus ---------------------------------------------------------------------------


def capture_on_board(play: PlayPresenter) -> tuple[str, str] | None:
    """(miniature, enemy square) when a selectable miniature can beat an enemy now."""
    if state_as(play, KolossusState).phase != "move":
        return None
    for piece in play.rules.highlights(play.state, None):
        if piece.role is Role.SELECTABLE:
            for lit in play.rules.highlights(play.state, piece.cell):
                if lit.role is Role.CAPTURABLE:
                    return piece.cell, lit.cell
    return None


def kolossus_move_by_touch(kiosk: Kiosk, payload: dict[str, Any]) -> None:
    """A move: tap the miniature, then its destination on the board."""
    play = _presenter(kiosk)
    before = len(play.session.actions)
    tap_cell(kiosk, payload["from"])
    assert play.board_input.focus == payload["from"]
    tap_cell(kiosk, payload["to"])
    assert len(play.session.actions) == before + 1, play.view().banner


def test_kolossus_great_quake_and_a_round_with_a_capture_by_touch(tmp_path: Path) -> None:
    kiosk = open_kiosk(tmp_path, seed=KOLOSSUS_GAME_SEED)
    try:
        start(kiosk, "Kolossus")
        play = _presenter(kiosk)
        bot = RandomBot(KOLOSSUS_BOT_SEED)
        faces = Rng(seed=KOLOSSUS_BOT_SEED)
        quake_faces: list[int] = []
        capture: tuple[str, str] | None = None
        for _ in range(120):
            fix_the_table_by_touch(kiosk)
            request = play.queries.dice_request()
            if request is not None:
                values: list[int] = []
                for _die in range(request.count):
                    value, faces = faces.randint(1, request.sides)
                    values.append(value)
                if state_as(play, KolossusState).phase == "quake":
                    quake_faces.extend(values)
                roll_faces_by_touch(kiosk, tuple(values))
                continue
            capture = capture_on_board(play)
            if capture is not None:
                break
            action = bot.choose(play.rules, play.state)
            assert action is not None
            payload = play.rules.dump_action(action)
            if payload["type"] == "move":
                kolossus_move_by_touch(kiosk, payload)
            else:
                before = len(play.session.actions)
                play_by_touch(kiosk, payload)
                assert len(play.session.actions) == before + 1, play.view().banner
        assert capture is not None, "no capture became legal"

        # The Great Quake: four d4 entered by tapping faces, four regions moved.
        texts = [e.text for events in play.session.events for e in events]
        assert "The Invasion begins: the Great Quake." in texts
        assert "The Invasion is over. Round 1 begins." in texts
        assert len(quake_faces) == 4
        quake_rolls = [
            a for a in play.session.actions if isinstance(a, Roll) and a.source == "manual"
        ][:4]
        assert [a.values for a in quake_rolls] == [(v,) for v in quake_faces]
        assert (
            sum(play.rules.dump_action(a)["type"] == "quake_move" for a in play.session.actions)
            == 4
        )
        assert state_as(play, KolossusState).round == 1

        # The capture: tap the miniature, then the enemy's square.
        attacker, enemy_square = capture
        victim = state_as(play, KolossusState).minis.index(_square(enemy_square))
        before = len(play.session.actions)
        tap_cell(kiosk, attacker)
        assert play.board_input.focus == attacker
        drawn = kiosk.play_screen.board.view  # type: ignore[union-attr]
        assert drawn is not None and drawn.looks[enemy_square].role is Role.CAPTURABLE
        tap_cell(kiosk, enemy_square)
        assert len(play.session.actions) == before + 1, play.view().banner
        move = play.rules.dump_action(play.session.actions[-1])
        assert (move["type"], move["from"], move["to"]) == ("move", attacker, enemy_square)
        logged = [e.text for e in play.session.events[-1]]
        assert any("beating 1" in text for text in logged), logged
        assert (
            state_as(play, KolossusState).minis[victim] == -1
        )  # the beaten miniature left the board
        assert state_as(play, KolossusState).beats[-1].piece == victim
        assert state_as(play, KolossusState).minis.index(_square(enemy_square)) != victim

        # The walk-through asks to lift the beaten miniature off (red on its square),
        # then to move the attacker there (red where it stands, green where it goes).
        steps = play.fix.steps
        assert [(s.lift, s.put) for s in steps] == [
            ((enemy_square,), ()),
            ((attacker,), (enemy_square,)),
        ]
        shown = fix_the_table_by_touch(kiosk)
        assert shown == [s.text for s in steps]
        named = play.rules.cell_words(play.state, enemy_square)  # the board's own words
        assert shown[0].startswith("Take") and named in shown[0]
        assert play.view().fix is None
    finally:
        close_kiosk(kiosk)


def _square(cell: str) -> int:
    row, col = (int(v) for v in cell.split(","))
    return 11 * row + col


# --- Beast Master -----------------------------------------------------------------------


def _rest_worth_taking(play: PlayPresenter) -> bool:
    """Rest is offered and the current player has a Banner on a Loot token that pays."""
    state = state_as(play, BeastMasterState)
    seat = play.rules.current_player(state)
    if state.pending or seat is None or play.view().fix is not None:
        return False
    if not any(p["type"] == "rest" for p in play.queries.legal_payloads()):
        return False
    return any(
        s.banner == seat and s.tile is not None and s.tile.kind == "loot" and s.tile.gold > 0
        for s in state.spaces
    )


def test_BM_R09_rest_collects_the_banners_rewards_and_nothing_else_by_touch(
    tmp_path: Path,
) -> None:
    kiosk = open_kiosk(tmp_path, seed=BEAST_MASTER_GAME_SEED)
    try:
        start(kiosk, "Beast Master")
        play = _presenter(kiosk)
        bot = RandomBot(BEAST_MASTER_BOT_SEED)
        for _ in range(200):
            fix_the_table_by_touch(kiosk)
            if _rest_worth_taking(play):
                break
            bot_move_by_touch(kiosk, bot)
        else:
            pytest.fail("no Rest with a paying Banner was reached")
        before = state_as(play, BeastMasterState)
        seat = play.rules.current_player(before)
        assert seat is not None
        banners = [s for s in before.spaces if s.banner == seat]
        expected_gold = sum(s.tile.gold for s in banners if s.tile and s.tile.kind == "loot")
        expected_cards = sum(s.tile.cards for s in banners if s.tile and s.tile.kind == "loot")
        assert expected_gold > 0

        play_by_touch(kiosk, {"type": "rest"})  # the "Rest" tab, then its button
        for _ in range(len(banners)):
            fix_the_table_by_touch(kiosk)
            listed = [p for p in play.queries.legal_payloads() if p["type"] == "collect_reward"]
            assert listed and all(
                p["type"] == "collect_reward" for p in play.queries.legal_payloads()
            )
            default = next(p for p in listed if "gold" not in p or p.get("gold") is None)
            play_by_touch(kiosk, default)  # the Banner's own reward, as printed
        fix_the_table_by_touch(kiosk)

        after = state_as(play, BeastMasterState)
        assert after.gold[seat] - before.gold[seat] == expected_gold
        paid = after.ledger[len(before.ledger) :]
        assert {e.player for e in paid} == {seat} and sum(e.amount for e in paid) == expected_gold
        # BM-R09: Rest collects rewards and returns Banners — no draw, no card, no Movement.
        assert after.cards_in_hand[seat] == before.cards_in_hand[seat] + expected_cards
        assert after.banners_in_hand[seat] == before.banners_in_hand[seat] + len(banners)
        assert all(s.banner != seat for s in after.spaces)
        assert after.turns_taken[seat] == before.turns_taken[seat] + 1
        assert play.rules.current_player(after) != seat
        texts = [e.text for events in play.session.events[-len(banners) - 1 :] for e in events]
        assert any("rest" in t.lower() for t in texts), texts
    finally:
        close_kiosk(kiosk)


# --- Colossi ----------------------------------------------------------------------------


def test_CA_R07_harvest_pays_once_per_age_by_touch(tmp_path: Path) -> None:
    kiosk = open_kiosk(tmp_path, seed=COLOSSI_GAME_SEED)
    try:
        start(kiosk, "Colossi")
        play = _presenter(kiosk)
        bot = RandomBot(COLOSSI_BOT_SEED)
        for _ in range(300):
            fix_the_table_by_touch(kiosk)
            state = state_as(play, ColossiState)
            waiting = state.pending or play.queries.dice_request() is not None
            if state.phase == "harvest" and not waiting and _can_harvest(play):
                break
            bot_move_by_touch(kiosk, bot)
        else:
            pytest.fail("the Harvest Phase was never reached")

        before = state_as(play, ColossiState)
        seat = play.rules.current_player(before)
        assert seat is not None
        lit = [h.cell for h in play.highlights() if h.role is Role.HARVESTABLE]
        listed = [p["space"] for p in play.queries.legal_payloads() if p["type"] == "harvest"]
        assert lit and set(lit) == set(listed)
        space = _richest(before, lit)
        index = [s.id for s in before.board.spaces].index(space)
        spot = before.spaces[index]
        grass_gold = (
            spot.tile is not None and spot.tile.kind == "grass" and spot.tile.loot == "gold"
        )
        expected = spot.cubes + (1 if grass_gold else 0)
        assert expected > 0  # the seed was chosen so the harvest pays

        count = len(play.session.actions)
        tap_cell(kiosk, space)  # the space's one harvest: a single touch plays it
        assert len(play.session.actions) == count + 1, play.view().banner
        harvest = play.rules.dump_action(play.session.actions[-1])
        assert harvest["type"] == "harvest" and harvest["space"] == space
        assert not harvest.get("effects")

        after = state_as(play, ColossiState)
        assert space in after.harvested[seat]
        assert after.gold[seat] - before.gold[seat] == expected
        paid = after.ledger[len(before.ledger) :]
        assert all(e.source == "harvest" and e.player == seat for e in paid)
        assert sum(e.amount for e in paid) == expected
        assert after.spaces[index].cubes == 0
        assert after.spaces[index].acolytes[seat] == 0
        # CA-R07: at most once per Age — the space is no longer harvestable for this seat.
        colossi: Any = play.rules  # the Colossi referee's own question
        assert space not in colossi.harvestable(after, seat)

        # Everybody passes by touch; the Harvest Phase ends.
        for _ in range(20):
            fix_the_table_by_touch(kiosk)
            if (
                state_as(play, ColossiState).phase != "harvest"
                or state_as(play, ColossiState).pending
                or play.queries.dice_request()
            ):
                break
            if not any(p["type"] == "pass_harvest" for p in play.queries.legal_payloads()):
                break
            play_by_touch(kiosk, {"type": "pass_harvest"})
        assert (
            state_as(play, ColossiState).phase != "harvest" or state_as(play, ColossiState).pending
        )
        assert find_button(kiosk, "Undo").disabled is False
    finally:
        close_kiosk(kiosk)


def _can_harvest(play: PlayPresenter) -> bool:
    return any(p["type"] == "harvest" for p in play.queries.legal_payloads())


def _richest(state: Any, cells: list[str]) -> str:
    """The harvestable space that pays the most gold (cubes, then Grass gold Loot)."""

    def pays(cell: str) -> int:
        spot = state.spaces[[s.id for s in state.board.spaces].index(cell)]
        grass = spot.tile is not None and spot.tile.kind == "grass" and spot.tile.loot == "gold"
        return int(spot.cubes + (1 if grass else 0))

    return max(cells, key=pays)
