"""Versioned replay: a rules update never turns a game in progress into "damage".

Each game records the rules version it is played under, and every 25th entry carries
the position after it. The toy game's version 2 refuses a typed-in six that version 1
accepted, so a version 1 journal with a six no longer replays: the game goes on from its
last saved position, the resume says the rules changed (not that the file is damaged),
and no acknowledged move is dropped without being named.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.toy_game as toy
from companion.dice import Roll
from companion.events import Event
from companion.journal import Journal, entry_crc
from companion.protocol import Referee
from companion.rules import refuse
from companion.session import SNAPSHOT_EVERY, Session
from kiosk.cli import serve_referee
from tests.helpers.journal_file import tamper


class PigRulesV2(toy.PigRules):
    """The toy game after a "rules fix": a typed-in six must be rolled again."""

    rules_version = 2

    def apply(
        self, state: toy.PigState, action: toy.PigAction
    ) -> tuple[toy.PigState, tuple[Event, ...]]:
        if isinstance(action, Roll) and action.values == (6,):
            raise refuse("A six must be rolled again (version 2).", "TOY-R3")
        return super().apply(state, action)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite3") as opened:
        yield opened


def played(journal: Journal, faces: list[int]) -> Session:
    """A version 1 game: these typed-in faces, no hold (the turn total just grows)."""
    session = Session.new("toy_pig", ["Ann"], {"target": 100}, seed=3, journal=journal)
    for face in faces:
        session.submit({"type": "roll", "values": [face], "source": "manual"})
    return session


def pig(state: object) -> toy.PigState:
    """A session's state, known to be the toy game's."""
    assert isinstance(state, toy.PigState)
    return state


def update_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toy, "RULES", PigRulesV2())


def test_a_game_records_its_rules_version_and_saves_positions(journal: Journal) -> None:
    session = played(journal, [2] * (2 * SNAPSHOT_EVERY + 3))
    game_id = session.game_id or 0
    assert journal.game(game_id).rules_version == 1
    saved = journal.snapshot(game_id)
    assert saved is not None and saved.seq == 2 * SNAPSHOT_EVERY
    assert journal.snapshot(game_id, at=SNAPSHOT_EVERY) is not None
    assert journal.snapshot(game_id, at=SNAPSHOT_EVERY + 1) is None


def test_an_update_whose_rules_still_replay_the_game_only_moves_it_on(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = played(journal, [2, 3, 4])
    update_rules(monkeypatch)
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is None and resumed.state == session.state
    assert journal.game(session.game_id or 0).rules_version == 2


def test_old_moves_that_no_longer_replay_go_on_from_the_last_saved_position(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    faces = [2, 3, 4, 6] + [2] * 26  # the six is entry 4; a position is saved after 25
    session = played(journal, faces)
    game_id = session.game_id or 0
    update_rules(monkeypatch)
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.kind == "rules_changed"
    assert damage.seq == SNAPSHOT_EVERY
    assert "no longer replay under rules version 2; the game started under 1" in damage.reason
    assert "the rules changed" in damage.describe()
    assert resumed.state == session.state  # nothing acknowledged is lost
    assert len(resumed.actions) == len(faces) - SNAPSHOT_EVERY and not journal.damaged(game_id)
    info = journal.game(game_id)
    assert (info.base_seq, info.rules_version, info.entries) == (SNAPSHOT_EVERY, 2, len(faces))
    resumed.submit({"type": "roll", "values": [5], "source": "manual"})  # play goes on
    again, nothing = Session.resume(journal, game_id)
    assert nothing is None and again.state == resumed.state
    record = again.export()
    assert record["start_position"] is not None and len(record["actions"]) == 6


def test_without_a_saved_position_the_unreplayable_rest_is_set_aside_and_named(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = played(journal, [2, 3, 6, 4, 5])
    game_id = session.game_id or 0
    update_rules(monkeypatch)
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.kind == "rules_changed" and damage.seq == 3
    assert "entry 3 no longer replays under rules version 2" in damage.reason
    assert len(resumed.actions) == 2
    assert [d.seq for d in journal.damaged(game_id)] == [3, 4, 5]  # kept on record


def test_a_move_after_the_saved_position_that_no_longer_replays_is_set_aside(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    faces = [6] + [2] * (SNAPSHOT_EVERY - 1) + [3, 6, 4]
    session = played(journal, faces)
    game_id = session.game_id or 0
    update_rules(monkeypatch)
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.kind == "rules_changed" and damage.seq == SNAPSHOT_EVERY
    assert f"entries from {SNAPSHOT_EVERY + 2} on are set aside" in damage.reason
    assert len(resumed.actions) == 1
    assert [d.seq for d in journal.damaged(game_id)] == [SNAPSHOT_EVERY + 2, SNAPSHOT_EVERY + 3]


def test_damage_under_the_same_rules_is_still_damage(journal: Journal) -> None:
    session = played(journal, [2, 3, 4])
    fly = '{"type":"fly"}'
    tamper(
        journal,
        "UPDATE entries SET payload = ?, crc = ? WHERE seq = 2",
        (fly, entry_crc("act", fly)),
    )
    _, damage = Session.resume(journal, session.game_id or 0)
    assert damage is not None and damage.kind == "damage" and "cannot replay" in damage.reason


def test_the_referee_reports_the_kind(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    session = played(journal, [2, 6, 3])
    update_rules(monkeypatch)
    referee = Referee(journal, lambda: 1)
    reply = referee.handle_obj(f'{{"cmd":"resume","game_id":{session.game_id}}}')
    assert reply["ok"] and reply["damage"]["kind"] == "rules_changed"


def test_a_damaged_row_is_still_set_aside_when_the_rules_changed(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    faces = [2, 6] + [2] * (SNAPSHOT_EVERY - 2) + [3, 4]
    session = played(journal, faces)
    game_id = session.game_id or 0
    tamper(
        journal,
        "UPDATE entries SET payload = 'garbled' WHERE game_id = ? AND seq = ?",
        (game_id, len(faces)),
    )
    update_rules(monkeypatch)
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.kind == "rules_changed"
    assert len(resumed.actions) == 1  # entry 26 replays; 27 was damaged
    assert [d.seq for d in journal.damaged(game_id)] == [len(faces)]


def test_a_due_snapshot_waits_off_the_moves_commit_and_is_saved_when_asked(
    journal: Journal,
) -> None:
    """The 25th entry's commit does not dump the
    position; save_snapshot writes it on its own commit, once, and it resumes the game."""
    session = played(journal, [2] * SNAPSHOT_EVERY)
    game_id = session.game_id or 0
    assert journal.snapshot(game_id) is None  # the move was acknowledged without it
    assert session.save_snapshot()
    saved = journal.snapshot(game_id)
    assert saved is not None and saved.seq == SNAPSHOT_EVERY
    assert saved.position == toy.RULES.dump_position(pig(session.state))
    assert not session.save_snapshot()  # nothing due any more


def test_a_snapshot_nobody_saved_goes_with_the_next_entry(journal: Journal) -> None:
    """The position after entry 25 rides along with entry 26's commit, not 26's own."""
    session = played(journal, [2] * SNAPSHOT_EVERY)
    after_25 = toy.RULES.dump_position(pig(session.state))
    session.submit({"type": "roll", "values": [3], "source": "manual"})
    saved = journal.snapshot(session.game_id or 0)
    assert saved is not None and (saved.seq, saved.position) == (SNAPSHOT_EVERY, after_25)
    assert not session.save_snapshot()


def test_the_referee_saves_a_due_snapshot_after_its_answer(tmp_path: Path) -> None:
    """The JSON-lines referee answers the 25th move first, then writes the position."""
    lines = [json.dumps({"cmd": "new", "game": "toy_pig", "players": ["Ann"], "seed": 3})]
    lines += [
        json.dumps({"cmd": "act", "action": {"type": "roll", "values": [2], "source": "manual"}})
    ] * SNAPSHOT_EVERY
    with Journal(tmp_path / "journal.sqlite3") as journal:
        referee = Referee(journal, lambda: 1)
        out = io.BytesIO()
        serve_referee(referee, io.BytesIO("\n".join(lines).encode() + b"\n"), out)
        answers = [json.loads(line) for line in out.getvalue().splitlines()]
        assert all(answer["ok"] for answer in answers)
        game_id = referee.session.game_id if referee.session else 0
        saved = journal.snapshot(game_id or 0)
        assert saved is not None and saved.seq == SNAPSHOT_EVERY


# --- a rules change that refuses nothing but changes counts ----------------------------


class PigRulesCountsTwice(toy.PigRules):
    """An update that refuses no move but counts a rolled two as four (no new number:
    a change shipped without raising the rules version is found all the same)."""

    def apply(
        self, state: toy.PigState, action: toy.PigAction
    ) -> tuple[toy.PigState, tuple[Event, ...]]:
        if isinstance(action, Roll) and action.values == (2,):
            action = Roll(values=(4,), source=action.source)
        return super().apply(state, action)


def test_a_replay_that_changes_a_count_is_a_rules_change_and_keeps_the_tables_counts(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each saved position is compared with the replay's: a count that differs is a
    rules change even though no move was refused and the rules version is the same."""
    session = played(journal, [3, 2, 5])
    assert session.save_position()  # the game was left: its position is the latest
    game_id = session.game_id or 0
    monkeypatch.setattr(toy, "RULES", PigRulesCountsTwice())
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.kind == "rules_changed" and damage.seq == 3
    assert damage.changes, damage
    assert any("on the table" in change and "by these rules" in change for change in damage.changes)
    assert "other counts than the table's" in damage.reason
    assert resumed.state == session.state  # the table's counts, not the recomputed ones
    assert journal.game(game_id).base_seq == 3
    again, nothing = Session.resume(journal, game_id)
    assert nothing is None and again.state == session.state  # reported once


def test_the_referee_names_what_changed(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    referee = Referee(journal, lambda: 1)
    referee.handle_obj('{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":3}')
    for face in (2, 3):
        act = {"cmd": "act", "action": {"type": "roll", "values": [face], "source": "manual"}}
        assert referee.handle_obj(json.dumps(act))["ok"]
    game_id = referee.session.game_id if referee.session else 0
    referee.leave_game()
    monkeypatch.setattr(toy, "RULES", PigRulesCountsTwice())
    reply = Referee(journal, lambda: 1).handle_obj(f'{{"cmd":"resume","game_id":{game_id}}}')
    assert reply["ok"] and reply["damage"]["kind"] == "rules_changed", reply
    assert reply["damage"]["changes"], reply


def test_the_referee_saves_the_position_when_its_game_is_left(journal: Journal) -> None:
    """A new game (or the end of input: kiosk.cli calls leave_game) saves the position
    of the game left, so it is the journal's latest."""
    referee = Referee(journal, lambda: 1)
    referee.handle_obj('{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":3}')
    act = {"cmd": "act", "action": {"type": "roll", "values": [4], "source": "manual"}}
    referee.handle_obj(json.dumps(act))
    first = referee.session.game_id if referee.session else 0
    assert journal.snapshot(first or 0) is None
    referee.handle_obj('{"cmd":"new","game":"toy_pig","players":["Bo"],"seed":4}')
    saved = journal.snapshot(first or 0)
    assert saved is not None and saved.seq == 1


def test_the_position_is_saved_once_per_change(journal: Journal, tmp_path: Path) -> None:
    session = played(journal, [2, 3])
    assert session.save_position() and not session.save_position()
    session.undo()
    assert session.save_position()
    saved = journal.snapshot(session.game_id or 0)
    assert saved is not None and saved.seq == 3
    assert saved.position == toy.RULES.dump_position(pig(session.state))
    session.redo()
    Session.new("toy_pig", ["Bo"], seed=4, journal=journal)  # the journal plays another game
    assert not session.save_position()  # the game left is not claimed again to be saved
    outside = Session.new("toy_pig", ["Ann"], seed=3)  # a game outside the journal
    outside.submit({"type": "roll", "values": [2], "source": "manual"})
    assert not outside.save_position()


def test_a_kolossus_chapter_3_game_whose_income_changed_keeps_the_tables_mana(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update raises every non-zero income by one (K-R22's table) without refusing a
    move: 120 bot actions replay under it, yet every count it changes is reported and the
    game goes on with the mana on the table."""
    from companion.bot import RandomBot
    from companion.games.kolossus import mana
    from companion.games.kolossus.model import KolossusOptions, KolossusState
    from companion.games.kolossus.rules import KolossusRules

    session = Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=5, journal=journal)
    bot = RandomBot(5)
    for _ in range(120):
        action = bot.choose(session.rules, session.state)
        assert action is not None
        session.submit(action)
        session.save_snapshot()
    session.save_position()
    assert isinstance(session.state, KolossusState)
    table = [(band.supply, band.income, band.skills) for band in session.state.warbands]
    game_id = session.game_id or 0

    def richer(options: KolossusOptions, ap: int, supply: int) -> int:
        base = options.mana_table[ap - 1] if options.chapter >= 2 else 0
        return max(0, min(base + 1 if base > 0 else 0, supply))

    monkeypatch.setattr(mana, "income_for", richer)
    monkeypatch.setattr(KolossusRules, "rules_version", KolossusRules.rules_version + 1)
    fresh = Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=5)
    for action in session.actions:  # the update refuses none of the moves...
        fresh.submit(action)
    assert fresh.state != session.state  # ...but it reaches other counts
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.kind == "rules_changed", damage
    assert damage.seq == 120
    assert any("supply" in change or "income" in change for change in damage.changes), damage
    assert isinstance(resumed.state, KolossusState)
    assert [(b.supply, b.income, b.skills) for b in resumed.state.warbands] == table
    assert resumed.state == session.state
