"""The scratch copy hands back the state's own spaces where an action left them alone
(it compares each field of all spaces at once, then the spaces that differ): the same
state, value for value, as one made of new spaces throughout."""

from __future__ import annotations

from typing import Any

import pytest

from companion.bot import RandomBot
from companion.games import get_rules
from companion.games.island.mechanics import Work
from companion.games.island.model import IslandState, SpaceState


def _new_spaces(work: Work[Any]) -> tuple[SpaceState, ...]:
    """Every space made anew, as ``finish`` did before it kept unchanged ones."""
    return tuple(
        SpaceState(
            tile=work.tiles[i],
            acolytes=tuple(work.acolytes[i]),
            banner=work.banners[i],
            water=work.water[i],
            cubes=work.cubes[i],
        )
        for i in range(len(work.tiles))
    )


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_unchanged_spaces_are_kept_and_the_state_is_the_same(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = get_rules(game)
    state = rules.setup(["Ann", "Bob", "Cy"], rules.parse_options({}), 11)
    bot = RandomBot(5)
    kept = 0
    for _ in range(150):
        action = bot.choose(rules, state)
        if action is None:
            break
        new, events = rules.apply(state, action)
        with monkeypatch.context() as patched:
            patched.setattr(Work, "_spaces", _new_spaces)
            fresh, fresh_events = rules.apply(state, action)
        assert new == fresh and events == fresh_events
        assert rules.dump_position(new) == rules.dump_position(fresh)
        assert isinstance(state, IslandState) and isinstance(new, IslandState)
        for before, after in zip(state.spaces, new.spaces, strict=True):
            if before == after:
                assert after is before
                kept += 1
        state = new
    assert kept > 0
