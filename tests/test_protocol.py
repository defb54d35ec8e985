"""The JSON-lines referee: scripted sessions, and every kind of bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.journal import Journal
from companion.protocol import MAX_LINE_BYTES, Referee, protocol_schema
from kiosk.cli import serve_referee


def _referee(journal: Journal | None = None) -> Referee:
    return Referee(journal if journal is not None else Journal(":memory:"), lambda: 1234)


def run_script(lines: list[str | bytes], referee: Referee | None = None) -> list[dict[str, Any]]:
    """Feed lines through the real stdin/stdout loop; return the parsed responses."""
    data = b"".join((ln.encode() if isinstance(ln, str) else ln) + b"\n" for ln in lines)
    out = io.BytesIO()
    serve_referee(referee or _referee(), io.BytesIO(data), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_scripted_game() -> None:
    responses = run_script(
        [
            '{"cmd":"hello","id":1}',
            '{"cmd":"new","game":"toy_pig","players":["Ann","Bob"],"options":{"target":5},'
            '"seed":3,"id":2}',
            '{"cmd":"act","action":{"type":"roll","values":[6],"source":"electronic"},"id":3}',
            '{"cmd":"legal","id":4}',
            '{"cmd":"act","action":{"type":"hold"},"id":5}',
            '{"cmd":"outcome","id":6}',
            '{"cmd":"undo","id":7}',
            '{"cmd":"redo","id":8}',
            '{"cmd":"export","id":9}',
        ]
    )
    assert [r["id"] for r in responses] == list(range(1, 10))
    assert all(r["ok"] for r in responses), responses
    hello, new, roll, legal, hold, outcome, undo, redo, export = responses
    assert hello["protocol"] == 1 and "toy_pig" in hello["games"]
    assert new["dice"]["sides"] == 6 and new["current_player"] == 0
    assert roll["events"][0]["values"] == [6]
    assert {"type": "hold"} in legal["actions"] and legal["more"] is False
    assert hold["outcome"]["winners"] == [0]
    assert outcome["outcome"]["reason"] == "target"
    assert undo["undone"] == {"type": "hold"} and undo["outcome"] is None
    assert redo["outcome"]["winners"] == [0]
    assert export["record"]["actions"][1] == {"type": "hold"}


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"garbage", "bad_json"),
        (b"\xff\xfe\x00", "bad_json"),
        (b"[1, 2, 3]", "bad_request"),
        (b'"just a string"', "bad_request"),
        (b'{"id": 5}', "bad_request"),
        (b'{"cmd": "fly"}', "unknown_command"),
        (b'{"cmd": 42}', "unknown_command"),
        (b'{"cmd": "new", "game": "toy_pig"}', "bad_request"),
        (b'{"cmd": "new", "game": "toy_pig", "players": "Ann"}', "bad_request"),
        (b'{"cmd": "new", "game": "toy_pig", "players": ["Ann"], "seed": "12"}', "bad_request"),
        (b'{"cmd": "new", "game": "chess", "players": ["Ann"]}', "invalid_options"),
        (b'{"cmd": "new", "game": "toy_pig", "players": []}', "invalid_options"),
        (
            b'{"cmd":"new","game":"toy_pig","players":["A"],"options":{"target":"x"}}',
            "invalid_options",
        ),
        (
            b'{"cmd":"new","game":"toy_pig","players":["A"],"options":{"colour":1}}',
            "invalid_options",
        ),
        (b'{"cmd": "act", "action": {"type": "roll"}}', "no_game"),
        (b'{"cmd": "state", "extra": 1}', "bad_request"),
        (b'{"cmd": "legal", "limit": 0}', "bad_request"),
        (b'{"cmd": "resume", "game_id": 999}', "game_not_found"),
        (b'{"cmd": "load", "game": "toy_pig", "position": {"players": []}}', "invalid_position"),
    ],
)
def test_bad_lines_get_error_objects(line: bytes, code: str) -> None:
    (response,) = run_script([line])
    assert response["ok"] is False
    assert response["error"]["code"] == code, response
    assert response["error"]["message"]


def test_illegal_and_malformed_actions_in_a_game() -> None:
    responses = run_script(
        [
            '{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":1}',
            '{"cmd":"act","action":{"type":"hold"}}',
            '{"cmd":"act","action":{"type":"teleport"}}',
            '{"cmd":"act","action":{"type":"roll","values":[7]}}',
            '{"cmd":"act","action":{"type":"roll","values":["4"]}}',
            '{"cmd":"act","action":{"type":"roll","values":[1,2]}}',
            '{"cmd":"act","action":"roll"}',
            '{"cmd":"undo"}',
            '{"cmd":"state"}',
        ]
    )
    codes = [r.get("error", {}).get("code") for r in responses]
    assert codes == [
        None,
        "illegal_action",
        "invalid_action",
        "illegal_action",
        "invalid_action",
        "illegal_action",
        "bad_request",
        "illegal_action",
        None,
    ]
    assert responses[1]["error"]["ruling"] == "TOY-R2"
    assert responses[-1]["actions"] == 0  # nothing was changed by the refusals


def test_huge_line_is_refused_and_the_referee_goes_on() -> None:
    huge = b'{"cmd":"hello","pad":"' + b"x" * (MAX_LINE_BYTES + 10) + b'"}'
    responses = run_script([huge, '{"cmd":"hello","id":2}'])
    assert responses[0]["error"]["code"] == "line_too_long"
    assert responses[1]["ok"] and responses[1]["id"] == 2


def test_blank_lines_are_ignored() -> None:
    assert len(run_script(["", "   ", '{"cmd":"hello"}'])) == 1


@settings(max_examples=200, deadline=None)
@given(line=st.binary(max_size=200))
def test_any_bytes_get_exactly_one_json_answer(line: bytes) -> None:
    line = line.replace(b"\n", b" ")
    responses = run_script([line])
    if line.strip():
        assert len(responses) == 1 and isinstance(responses[0]["ok"], bool)


@settings(max_examples=100, deadline=None)
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=10,
    )
)
def test_any_json_action_is_answered_without_a_crash(value: object) -> None:
    referee = _referee()
    referee.handle('{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":1}')
    response = json.loads(referee.handle(json.dumps({"cmd": "act", "action": value})))
    if not response["ok"]:
        assert response["error"]["code"] in {"bad_request", "invalid_action", "illegal_action"}


def test_dump_and_load_round_trip_exactly() -> None:
    referee = _referee()
    referee.handle('{"cmd":"new","game":"toy_pig","players":["Ann","Bob"],"seed":9}')
    for _ in range(5):
        referee.handle('{"cmd":"act","action":{"type":"roll"}}')
    dump = json.loads(referee.handle('{"cmd":"dump"}'))
    loaded = json.loads(
        referee.handle(json.dumps({"cmd": "load", "game": "toy_pig", "position": dump["position"]}))
    )
    assert loaded["ok"], loaded
    again = json.loads(referee.handle('{"cmd":"dump"}'))
    assert again["position"] == dump["position"]


def test_resume_and_games_listing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    first = _referee(journal)
    first.handle('{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":4}')
    first.handle('{"cmd":"act","action":{"type":"roll","values":[5],"source":"manual"}}')
    state = json.loads(first.handle('{"cmd":"dump"}'))
    second = _referee(journal)
    games = json.loads(second.handle('{"cmd":"games"}'))["games"]
    assert games[0]["players"] == ["Ann"] and games[0]["entries"] == 1
    resumed = json.loads(
        second.handle(json.dumps({"cmd": "resume", "game_id": games[0]["game_id"]}))
    )
    assert resumed["ok"] and resumed["damage"] is None
    assert json.loads(second.handle('{"cmd":"dump"}')) == state


def test_schema_validates_requests_and_actions() -> None:
    schema = protocol_schema()
    request_schema = schema["request"]
    jsonschema.validate({"cmd": "new", "game": "toy_pig", "players": ["A"]}, request_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"cmd": "new", "game": "toy_pig"}, request_schema)
    action_schema = schema["games"]["toy_pig"]["action"]
    jsonschema.validate({"type": "roll", "values": [3]}, action_schema)


def test_committed_schema_file_is_current() -> None:
    """docs/protocol.schema.json is generated: regenerate it with `companion schema`."""
    path = Path(__file__).parent.parent / "docs" / "protocol.schema.json"
    committed = json.loads(path.read_text(encoding="utf-8"))
    current = protocol_schema()
    current["games"].pop("toy_pig", None)
    assert committed == current, "run: companion schema > docs/protocol.schema.json"


def test_companion_referee_process_end_to_end(tmp_path: Path) -> None:
    """The installed console script, as a separate process, with a journal on disk."""
    script = Path(sys.executable).with_name("companion")
    lines = [
        '{"cmd":"new","game":"builders","players":["Ann","Bob"],"seed":5}',
        "not json at all",
        '{"cmd":"state"}',
    ]
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path)}
    proc = subprocess.run(
        [str(script), "referee"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    responses = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r["ok"] for r in responses] == [True, False, True]
    assert responses[1]["error"]["code"] == "bad_json"
    assert "Traceback" not in proc.stderr
    assert (tmp_path / "journal.sqlite3").exists()


def test_0_2_1_corrections_are_listed_sent_and_taken_back() -> None:
    """``corrections`` lists templates with the current values; one edited and sent with
    ``act`` is a journaled action like any other (RULINGS 0.2.1)."""
    responses = run_script(
        [
            '{"cmd":"corrections","id":0}',
            '{"cmd":"new","game":"builders","players":["Ann","Bob"],"seed":3,"id":1}',
            '{"cmd":"corrections","id":2}',
            '{"cmd":"act","action":{"type":"correct_runes","player":1,"runes":4},"id":3}',
            '{"cmd":"act","action":{"type":"correct_runes","player":1,"runes":-2},"id":4}',
            '{"cmd":"legal","id":5}',
            '{"cmd":"undo","id":6}',
            '{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":3,"id":7}',
            '{"cmd":"corrections","id":8}',
        ]
    )
    none, _new, listed, fixed, negative, legal, undo, _pig, pig = responses
    assert none["error"]["code"] == "no_game"
    assert {"type": "correct_runes", "player": 1, "runes": 10} in listed["corrections"]
    assert {"type": "correct_built", "player": 0, "colossi": 0} in listed["corrections"]
    assert fixed["ok"] and fixed["events"][0]["text"].startswith("Manual correction:")
    assert fixed["can_undo"] and fixed["actions"] == 1
    assert negative["error"]["code"] == "illegal_action"
    assert negative["error"]["ruling"] == "0.2.1"
    assert not any(a["type"].startswith("correct_") for a in legal["actions"])
    assert undo["undone"] == {"type": "correct_runes", "player": 1, "runes": 4}
    assert pig["ok"] and pig["corrections"] == []  # a game without corrections


# --- hardening: input that once stopped the referee or answered internal_error ---------


def test_lone_surrogate_is_a_bad_request_and_the_referee_goes_on(tmp_path: Path) -> None:
    """A lone surrogate (``"\\ud800"``) in the id once stopped the
    process with UnicodeEncodeError before ``hello`` was answered."""
    script = Path(sys.executable).with_name("companion")
    proc = subprocess.run(
        [str(script), "referee", "--no-journal"],
        input='{"cmd":"state","id":"\\ud800"}\n{"cmd":"hello","id":2}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    first, second = (json.loads(x) for x in proc.stdout.splitlines())
    assert first == {
        "id": None,
        "ok": False,
        "error": {
            "code": "bad_request",
            "message": "id holds a lone UTF-16 surrogate (\\ud800); text must be valid Unicode.",
        },
    }
    assert second["ok"] and second["id"] == 2


@pytest.mark.parametrize(
    ("request_text", "where"),
    [
        ('{"cmd":"new","game":"toy_pig","players":["Ann\\udfff"]}', "players[0]"),
        ('{"cmd":"act","action":{"type":"roll","device":"\\ud83d"}}', "action.device"),
        ('{"cmd":"hello","\\udc00":1}', "\\udc00 (a key)"),
    ],
)
def test_surrogates_anywhere_are_named_where_they_are(request_text: str, where: str) -> None:
    """Names, strings inside actions and keys are checked too."""
    (response,) = run_script([request_text])
    assert response["error"]["code"] == "bad_request"
    assert response["error"]["message"].startswith(where + " holds a lone UTF-16 surrogate")


def test_a_surrogate_pair_is_ordinary_text() -> None:
    (response,) = run_script(['{"cmd":"new","game":"toy_pig","players":["\\ud83d\\ude00"]}'])
    assert response["ok"] and response["players"] == ["😀"]


NEW_TOY = b'{"cmd":"new","game":"toy_pig","players":["A"],'


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b'{"cmd": [1]}', "unknown_command"),
        (b'{"cmd": {}}', "unknown_command"),
        (b"[" * 100_000 + b"]" * 100_000, "bad_json"),
        (b'{"cmd":"hello","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}", "bad_json"),
        (b'{"cmd":"hello","id":' + b"9" * 5000 + b"}", "bad_json"),
        (NEW_TOY + b'"seed":9223372036854775808}', "bad_request"),
        (NEW_TOY + b'"seed":-1}', "bad_request"),
        (b'{"cmd":"resume","game_id":9223372036854775808}', "bad_request"),
        (b'{"cmd":"resume","game_id":0}', "bad_request"),
    ],
)
def test_inputs_that_once_were_internal_errors(line: bytes, code: str) -> None:
    """Unhashable commands, deep nesting, huge integers and ids or
    seeds out of SQLite's range each get a refusal with a message, not internal_error."""
    response, hello = run_script([line, b'{"cmd":"hello","id":7}'])
    assert response["error"]["code"] == code, response
    assert response["error"]["message"]
    assert hello["ok"] and hello["id"] == 7


def test_the_largest_seed_is_stored_and_resumed(tmp_path: Path) -> None:
    """2⁶³−1 is the largest seed; it round-trips through the journal."""
    referee = _referee(Journal(tmp_path / "j.sqlite3"))
    new = json.loads(
        referee.handle('{"cmd":"new","game":"toy_pig","players":["A"],"seed":9223372036854775807}')
    )
    assert new["ok"], new
    resumed = json.loads(referee.handle(json.dumps({"cmd": "resume", "game_id": new["game_id"]})))
    assert resumed["ok"], resumed


def test_options_with_load_are_refused() -> None:
    """A position carries its own options; ``options`` with ``load`` were once silently
    ignored, now they are refused (docs/protocol.md)."""
    referee = _referee()
    referee.handle('{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":9}')
    position = json.loads(referee.handle('{"cmd":"dump"}'))["position"]
    request = {"cmd": "load", "game": "toy_pig", "position": position, "options": {"target": 5}}
    refused = json.loads(referee.handle(json.dumps(request)))
    assert refused["error"]["code"] == "bad_request"
    assert "position carries its own" in refused["error"]["message"]
    request["options"] = {}
    assert json.loads(referee.handle(json.dumps(request)))["ok"]


def test_a_roll_with_faces_and_no_source_is_recorded_as_manual() -> None:
    """RULINGS 0.2.3: faces sent without a ``source`` were typed in, not rolled by the
    referee; they were once recorded as ``software``."""
    referee = _referee()
    referee.handle('{"cmd":"new","game":"toy_pig","players":["Ann"],"seed":9}')
    referee.handle('{"cmd":"act","action":{"type":"roll","values":[4]}}')
    referee.handle('{"cmd":"act","action":{"type":"roll"}}')
    record = json.loads(referee.handle('{"cmd":"export"}'))["record"]
    assert [a["source"] for a in record["actions"]] == ["manual", "software"]


@pytest.mark.parametrize(
    ("name", "stored"),
    [
        ("  Ann   Lee ", "Ann Lee"),
        ("Ann\x00", "Ann"),
        ("\u202eevil", "evil"),
        ("\u2066Bob\u2069", "Bob"),
        ("e\u0301va", "\u00e9va"),
    ],
)
def test_player_names_are_cleaned(name: str, stored: str) -> None:
    """NUL and bidi overrides were stored as sent."""
    (response,) = run_script([json.dumps({"cmd": "new", "game": "toy_pig", "players": [name]})])
    assert response["players"] == [stored]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["x" * 200_000], "Player 1's name has 200000 characters; at most 16"),
        (["Ann", "\u202e\u202c"], "Every player needs a name."),
        (["Ann", "Ann\x00"], "Two players have the same name."),
    ],
)
def test_bad_player_names_are_refused(names: list[str], message: str) -> None:
    """A 200,000-character name was accepted."""
    request = {"cmd": "new", "game": "toy_pig", "players": names}
    (response,) = run_script([json.dumps(request)])
    assert response["error"]["code"] == "invalid_options"
    assert response["error"]["message"].startswith(message)


def test_view_and_cell_filtered_legal() -> None:
    """Over the wire: ``view`` answers the rules' typed panel and
    board; ``legal`` with ``origin``/``target``/``touching`` answers what the rules'
    ``legal_actions_at`` does (a card game has a panel, no board and no cells)."""
    from companion.games import get_rules

    responses = run_script(
        [
            '{"cmd":"new","game":"kolossus","players":["Ann","Bob"],"seed":5,"id":1}',
            '{"cmd":"view","id":2}',
            '{"cmd":"dump","id":3}',
            '{"cmd":"new","game":"builders","players":["Ann","Bob"],"seed":5,"id":4}',
            '{"cmd":"view","id":5}',
            '{"cmd":"legal","touching":"5,5","id":6}',
        ]
    )
    assert all(r["ok"] for r in responses[:5]), responses
    _, kolossus_view, dump, _, builders_view, builders_legal = responses
    assert kolossus_view["panel"]["columns"] == ["Ann", "Bob"]
    assert kolossus_view["board"]["kind"] == "grid"
    assert len(kolossus_view["board"]["cells"]) == 121
    assert builders_view["board"] is None and builders_view["panel"]["turn"] == 0
    assert builders_legal["error"]["code"] == "bad_request"  # a card game has no cells
    assert "not a cell of the Builders of the Colossus board" in builders_legal["error"]["message"]
    off_board = run_script([dump_to_load(dump), '{"cmd":"legal","origin":"11,0","id":7}'])[-1]
    assert off_board["error"]["code"] == "bad_request" and "'11,0'" in off_board["error"]["message"]

    rules = get_rules("kolossus")
    state = rules.load_position(dump["position"])
    for cell in ("0,0", "9,9", "10,10"):
        for field in ("origin", "target", "touching"):
            line = json.dumps({"cmd": "legal", field: cell, "limit": 100_000})
            script: list[str | bytes] = [dump_to_load(dump), line]
            answer = run_script(script)[-1]
            expected = [
                rules.dump_action(a) for a in rules.legal_actions_at(state, **{field: cell})
            ]
            assert answer["actions"] == expected, (field, cell)


def dump_to_load(dump: dict[str, Any]) -> str:
    return json.dumps({"cmd": "load", "game": dump["game"], "position": dump["position"]})
