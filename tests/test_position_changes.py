"""What a rules change did to a position, in plain words (versioned replay's report)."""

from __future__ import annotations

from companion.journal import Damage
from companion.position_changes import as_saved, position_changes
from kiosk.presenters.common import RESUME_CHANGES_SHOWN, resume_banner


def test_each_differing_count_is_named_with_both_values() -> None:
    table = {"warbands": [{"supply": 11, "income": 0}, {"supply": 5, "income": 2}], "round": 3}
    rules = {"warbands": [{"supply": 17, "income": 0}, {"supply": 5, "income": 1}], "round": 3}
    assert position_changes(table, rules) == (
        "warband 1 supply: 11 on the table, 17 by these rules",
        "warband 2 income: 2 on the table, 1 by these rules",
    )


def test_same_positions_have_no_changes_and_a_dump_compares_as_saved() -> None:
    dumped = {"cells": (1, 2), "crystals": {"red": 3}}
    assert position_changes(as_saved(dumped), as_saved(dict(dumped))) == ()
    assert as_saved(dumped) == {"cells": [1, 2], "crystals": {"red": 3}}


def test_lists_of_other_lengths_missing_keys_and_plain_values() -> None:
    table = {"pieces": [1, 2, 3], "weapon": None, "finished": False, "class": "W"}
    rules = {"pieces": [1, 2], "weapon": "spear", "finished": True}
    assert position_changes(table, rules) == (
        "class: W on the table, none by these rules",
        "finished: no on the table, yes by these rules",
        "pieces: 3 on the table, 2 by these rules",
        "weapon: none on the table, spear by these rules",
    )


def test_many_changes_are_counted_beyond_the_shown_ones() -> None:
    changes = position_changes(list(range(20)), list(range(1, 21)), shown=3)
    assert changes[:3] == ("1: 0 on the table, 1 by these rules", *changes[1:3])
    assert changes[3] == "and 17 more differences"


def test_the_kiosk_banner_names_the_changes_and_keeps_the_table() -> None:
    many = tuple(f"warband {i} supply: {i} on the table, {i + 1} by these rules" for i in range(6))
    damage = Damage(game_id=4, seq=40, reason="…", kind="rules_changed", changes=many)
    banner = resume_banner(damage)
    assert banner.code == "rules_changed"
    assert many[0] in banner.text and many[RESUME_CHANGES_SHOWN - 1] in banner.text
    assert many[RESUME_CHANGES_SHOWN] not in banner.text and "and 2 more" in banner.text
    assert "keeps the counts on the table" in banner.text and "move 40" in banner.text
    refused = resume_banner(Damage(game_id=4, seq=25, reason="…", kind="rules_changed"))
    assert "position saved after move 25" in refused.text
    damaged = resume_banner(Damage(game_id=4, seq=7, reason="checksum"))
    assert damaged.code == "journal_error" and "damaged at move 7" in damaged.text
    rebuilt = resume_banner(Damage(game_id=4, seq=0, reason="the header was damaged …"))
    assert "rebuilt from the game's moves" in rebuilt.text and "move 0" not in rebuilt.text
