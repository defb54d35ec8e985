"""Property tests: random games on random connected islands (both games).

Random legal play (weighted by ``interest``) never crashes and ends after the right
number of turns/Ages; Acolytes and Banners are conserved; gold always equals the sum of
its recorded sources; replaying the actions reproduces the game; positions survive
dump and load; a refused action changes nothing.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bot import RandomBot
from companion.errors import RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.board import IslandBoard
from companion.games.island.mechanics import ledger_totals
from tests.games.random_play import Played, random_game, replay

from .helpers import connected_board_from

NAMES = ["Ann", "Bob", "Cleo", "Dov"]


@st.composite
def boards(draw: st.DrawFn) -> IslandBoard:
    n = draw(st.integers(3, 30), label="spaces")
    parents = draw(st.lists(st.integers(0, 1000), min_size=n - 1, max_size=n - 1))
    extra = draw(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=2 * n))
    centre = draw(st.integers(0, n - 1))
    return connected_board_from(n, parents, extra, centre)


def play_to_end(rules: Any, first: Any, bot_seed: int, limit: int) -> Played:
    """Random play that must end within ``limit`` actions, checking every position
    (Acolytes, Banners, gold = ledger)."""
    played = random_game(rules, first, bot_seed, limit, rules.check_position)
    final = played.final
    assert rules.outcome(final) is not None, f"no outcome after {limit}: {rules.status(final)}"
    return played


def check_record(rules: Any, played: Played, players: int) -> None:
    """What both games keep: gold equals its ledger, replay and dump/load reproduce it."""
    final = played.final
    assert ledger_totals(final.ledger, players) == final.gold
    assert replay(rules, played.states[0], played.actions) == final
    assert rules.load_position(rules.dump_position(final)) == final


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(),
    players=st.integers(2, 4),
    turns=st.integers(1, 4),
    seed=st.integers(0, 2**40),
    bot_seed=st.integers(0, 2**31),
    options=st.fixed_dictionaries(
        {
            "spawn_safe_first_step": st.booleans(),
            "hand_limit_check": st.sampled_from(["immediate", "end_of_turn"]),
            "centre_starts_with_loot": st.booleans(),
            "loot_tokens": st.none() | st.integers(0, 5),
            "environment_tiles": st.none() | st.integers(0, 5),
        }
    ).filter(lambda o: not (o["centre_starts_with_loot"] and o["loot_tokens"] == 0)),  # BM-R06
)
def test_beast_master_random_games(
    board: IslandBoard, players: int, turns: int, seed: int, bot_seed: int, options: dict[str, Any]
) -> None:
    rules = bm.RULES
    opts = bm.BeastMasterOptions(board=board, turns_per_player=turns, **options)
    played = play_to_end(rules, rules.setup(NAMES[:players], opts, seed), bot_seed, 4000)
    check_record(rules, played, players)
    final = played.final
    assert final.turns_taken == (turns,) * players  # BM-R16
    assert final.turns_played == turns * players
    assert len(rules.scores(final).rows) == turns * players
    assert sum(final.banners_in_hand) + sum(1 for sp in final.spaces if sp.banner is not None) == (
        5 * players
    )
    assert list(rules.legal_actions(final)) == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(),
    players=st.integers(2, 4),
    rounds=st.integers(1, 2),
    seed=st.integers(0, 2**40),
    bot_seed=st.integers(0, 2**31),
    options=st.fixed_dictionaries(
        {
            "use_traits": st.booleans(),
            "centre_setup": st.sampled_from(["age1_lair", "random_tile"]),
            "tipped_colossus_controls": st.booleans(),
            "beast_master_beast_rules": st.booleans(),
            "mantle_pass_left_after_award": st.booleans(),
            "spare_environments": st.integers(0, 2),
        }
    ),
)
def test_colossi_random_games(
    board: IslandBoard, players: int, rounds: int, seed: int, bot_seed: int, options: dict[str, Any]
) -> None:
    rules = ca.RULES
    opts = ca.ColossiOptions(board=board, rounds_per_age=rounds, **options)
    played = play_to_end(rules, rules.setup(NAMES[:players], opts, seed), bot_seed, 6000)
    check_record(rules, played, players)
    final = played.final
    assert final.age == 3
    labels = [row.label for row in rules.scores(final).rows]
    assert [x for x in labels if x.startswith("End of")] == [
        "End of Age I",
        "End of Age II",
        "End of Age III",
    ]
    assert all(g >= 0 for g in final.gold)  # CA-R17
    assert all(len(t) <= 2 for t in final.traits)  # CA-R13


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["bm", "ca"]),
    seed=st.integers(0, 2**40),
    bot_seed=st.integers(0, 2**31),
    steps=st.integers(0, 200),
)
def test_mid_game_positions_round_trip_and_refusals_change_nothing(
    game: str, seed: int, bot_seed: int, steps: int
) -> None:
    rules: Any = bm.RULES if game == "bm" else ca.RULES
    state = rules.setup(NAMES[:3], rules.options_model(), seed)
    bot = RandomBot(bot_seed)
    seen: list[Any] = []
    for _ in range(steps):
        if rules.outcome(state) is not None:
            break
        listed = list(rules.legal_actions(state))
        seen.extend(listed[::7])
        state, _ = rules.apply(state, bot.choose(rules, state))
    assert rules.load_position(rules.dump_position(state)) == state
    dumped = rules.dump_position(state)
    for stale in seen[-30:]:
        try:
            rules.apply(state, stale)
        except RuleViolation as exc:
            assert exc.message
        assert rules.dump_position(state) == dumped
    rules.status(state)
    rules.highlights(state)
    for cell in state.board.ids[:5]:
        rules.highlights(state, focus=cell)


def test_full_length_games_with_default_options() -> None:
    """15 turns each (Beast Master) and 3 Ages of 5 rounds (Colossi) on the placeholder."""
    for seed in range(3):
        players = 2 + seed
        first = bm.RULES.setup(NAMES[:players], bm.BeastMasterOptions(), seed)
        final = play_to_end(bm.RULES, first, seed, 6000).final
        assert final.turns_taken == (15,) * players
        first_ca = ca.RULES.setup(NAMES[:players], ca.ColossiOptions(), seed)
        final_ca = play_to_end(ca.RULES, first_ca, seed, 8000).final
        rows = [r.label for r in ca.RULES.scores(final_ca).rows]
        for age in ("Age I ", "Age II ", "Age III "):
            turns = sum(1 for r in rows if r.startswith(age + "round "))
            # 5 rounds (CA-R04) unless the sampled Age card says 3
            assert turns in (5 * players, 3 * players), (age, turns)
