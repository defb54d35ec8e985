"""``companion support-bundle``: the right files, secrets redacted, no player names."""

from __future__ import annotations

import json
import stat
import tomllib
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.journal import Journal
from companion.session import Session
from firmware_bridge.doctor import Finding, Severity
from firmware_bridge.platform import Platform, PlatformFacts
from kiosk import support
from kiosk.cli import main
from kiosk.redaction import PLAYER, REDACTED, is_secret, redact_config_text, scrub_names
from kiosk.settings import CompanionConfig, LoadedConfig, load_config
from kiosk.storage import JOURNAL_FILE
from kiosk.support import bench_text, collect, journal_summary, write_bundle

REPO = Path(__file__).resolve().parents[2]
EXPECTED_FILES = {
    "README.txt",
    "config.toml",
    "config-effective.json",
    "versions.txt",
    "doctor.txt",
    "log.txt",
    "hardware.txt",
    "journal.json",
}
NAMES = ("Annabel", "Bartholomew")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("admin_pin", "1234"),
        ("admin_pin", 123456),
        ("pin", 4321),
        ("pin_hash", "scrypt$abc"),
        ("adminPin", "0000"),
        ("password", "hunter2"),
        ("api_token", "t0k3n"),
        ("secret_key", "xyz"),
        ("salt", "00ff"),
        ("kiosk_pin", 9876),
    ],
)
def test_secrets_are_recognised(key: str, value: object) -> None:
    assert is_secret(key, value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("confirm_pin", 5),
        ("buzzer_pin", False),
        ("data_pins", [17, 27, 22]),
        ("roll_pins", [26]),
        ("gpio_pin", 18),
        ("ping_interval_s", 1.0),
        ("serial_number", "E6605838831B2A2F"),
        ("keyboard_mode", "dock"),
        ("usb_pid", 5),
    ],
)
def test_hardware_settings_are_not_secrets(key: str, value: object) -> None:
    assert not is_secret(key, value)


def test_the_example_config_has_nothing_to_redact() -> None:
    text = (REPO / "examples" / "companion.toml").read_text(encoding="utf-8")
    assert redact_config_text(text) == text


def test_redaction_keeps_comments_and_hardware_and_hides_secrets() -> None:
    text = (
        "# the shop's kiosk\n"
        "[kiosk]\n"
        'admin_pin_hash = "scrypt:deadbeefcafe"  # set by admin-pin\n'
        "locked = true\n"
        'notes = """\nmulti\n"""\n'
        'password = """\nsup3rs3cret\n"""\n'
        "[buttons]\n"
        "confirm_pin = 5\n"
        "[service]\n"
        'auth = { user = "staff", token = "abc123xyz" }\n'
    )
    redacted = redact_config_text(text)
    for secret in ("deadbeefcafe", "sup3rs3cret", "abc123xyz"):
        assert secret not in redacted
    assert "# the shop's kiosk" in redacted and "confirm_pin = 5" in redacted
    assert f'admin_pin_hash = "{REDACTED}"' in redacted
    assert "multi" in redacted  # a harmless multi-line value stays
    parsed = tomllib.loads(redacted)
    assert parsed["buttons"]["confirm_pin"] == 5 and parsed["kiosk"]["locked"] is True


def test_multi_line_secrets_are_dropped_whole_and_what_follows_is_kept() -> None:
    text = (
        '[kiosk]\ntokens = [\n  "aaa111",  # first\n  ["bbb222"],\n]\nconfirm_pin = 5\n'
        "password = '''\nccc333\n'''\nlocked = true\n"
    )
    redacted = redact_config_text(text)
    assert not any(secret in redacted for secret in ("aaa111", "bbb222", "ccc333"))
    assert tomllib.loads(redacted)["kiosk"] == {
        "tokens": REDACTED,
        "confirm_pin": 5,
        "password": REDACTED,
        "locked": True,
    }


def test_a_secret_left_anywhere_else_falls_back_to_redacted_json() -> None:
    nested = 'service = { "deep" = { password = "p4ssw0rd!" } }\n[x]\ny = 1\n'
    assert "p4ssw0rd!" not in redact_config_text(nested)
    in_a_comment = '[kiosk]\nadmin_pin = "24681357"  # 24681357, remember it\n'
    assert "24681357" not in redact_config_text(in_a_comment)
    commented_twice = '# the PIN is 24681357\n[kiosk]\nadmin_pin = "24681357"\n'
    redacted = redact_config_text(commented_twice)
    assert "24681357" not in redacted and redacted.startswith("# The file could not be")
    assert json.loads(redacted.split("\n", 1)[1])["kiosk"]["admin_pin"] == REDACTED


SECRET_TEXT = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters='"\\'),
    min_size=3,
    max_size=24,
)
SECRET_KEYS = st.sampled_from(["admin_pin", "pin_hash", "password", "token", "secret", "pin"])


@settings(max_examples=60, deadline=None)
@given(key=SECRET_KEYS, secret=SECRET_TEXT, table=st.sampled_from(["kiosk", "dice.serial", ""]))
def test_no_secret_value_survives_redaction(key: str, secret: str, table: str) -> None:
    header = f"[{table}]\n" if table else ""
    text = f'{header}confirm_pin = 5\n{key} = "{secret}"  # keep this out\n'
    # A value that is also part of the file's other text ("dic" of "[dice.serial]")
    # cannot be told apart from it: only values found nowhere else are looked for.
    assume(secret not in text.replace(f'"{secret}"', "") + "{}[]:,\n confirm_pin")
    redacted = redact_config_text(text)
    assert secret not in redacted.replace(REDACTED, "")
    parsed = tomllib.loads(redacted)
    section = parsed
    for part in filter(None, table.split(".")):
        section = section[part]
    assert section["confirm_pin"] == 5


def test_a_secret_spelled_inside_the_marker_is_redacted_line_by_line() -> None:
    """A secret such as "act" is found inside "<redacted>" itself: that is no leak, so
    the file keeps its lines and comments (it fell back to JSON, whose header, "could
    not be redacted", spelled the secret again)."""
    text = '[kiosk]\nconfirm_pin = 5\nadmin_pin = "act"  # keep this out\n'
    redacted = redact_config_text(text)
    assert redacted == f'[kiosk]\nconfirm_pin = 5\nadmin_pin = "{REDACTED}"\n'
    assert "act" not in redacted.replace(REDACTED, "")


def test_player_names_are_scrubbed_as_whole_words() -> None:
    text = "Ann rolled 3; Annabel passed; Bo and Bob; Ann-Marie"
    scrubbed = scrub_names(text, ["Ann", "Annabel", "Bob", "B"])
    assert scrubbed == f"{PLAYER} rolled 3; {PLAYER} passed; Bo and {PLAYER}; {PLAYER}-Marie"


def _journal(data_dir: Path) -> None:
    with Journal(data_dir / JOURNAL_FILE) as journal:
        for game, players in (("builders", NAMES), ("builders", ("Zed", "Ygritte"))):
            session = Session.new(game, list(players), seed=3, journal=journal)
            session.submit({"type": "draw"})


def test_the_journal_summary_has_counts_and_no_names(tmp_path: Path) -> None:
    _journal(tmp_path)
    summary = journal_summary(tmp_path / JOURNAL_FILE)
    assert summary.data["games"] == [
        {"game": "builders", "status": "active", "demo": False, "count": 2}
    ]
    assert summary.data["entries"] == 2 and summary.data["integrity_check"] == ["ok"]
    assert summary.names == {*NAMES, "Zed", "Ygritte"}
    assert not any(name in json.dumps(summary.data) for name in summary.names)


def test_a_garbage_journal_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / JOURNAL_FILE).write_bytes(b"nope" * 1000)
    summary = journal_summary(tmp_path / JOURNAL_FILE)
    assert summary.data["error"] == "not an SQLite database" and "games" not in summary.data


class FakeSystem:
    """journalctl, systemctl and vcgencmd answers, with a player name in the log."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, argv: Sequence[str]) -> tuple[int, str, str]:
        self.calls.append(list(argv))
        if argv[0] == "journalctl":
            return 0, "INFO kiosk: Annabel rolled 4\nINFO kiosk: game 1 resumed\n", ""
        if argv[0] == "systemctl":
            return 0, "ActiveState=active\nSubState=running\n", ""
        return 127, "", f"{argv[0]} is not available on this machine"


def _doctor(_loaded: LoadedConfig) -> list[Finding]:
    return [Finding(Severity.OK, "journal", "game of Bartholomew is fine")]


def test_collect_writes_every_section_and_never_a_name(tmp_path: Path) -> None:
    _journal(tmp_path)
    config = tmp_path / "companion.toml"
    config.write_text(
        f'data_dir = "{tmp_path}"\n[kiosk]\nadmin_pin = "24681357"\n[buttons]\nconfirm_pin = 5\n',
        encoding="utf-8",
    )
    loaded = load_config(config, environ={}, platform=Platform())
    kivy = tmp_path / "kivy.ini"
    kivy.write_text("[input]\ntouchscreen = probesysfs,provider=mtdev\n", encoding="utf-8")
    system = FakeSystem()
    files = collect(
        loaded,
        log_lines=50,
        run=system,
        doctor=_doctor,
        facts=PlatformFacts(platform=Platform("Raspberry Pi 4 Model B Rev 1.4")),
        kivy_config=kivy,
    )
    assert set(files) == EXPECTED_FILES | {"kivy-config.ini"}
    everything = "\n".join(files.values())
    for name in (*NAMES, "Zed", "Ygritte"):
        assert name not in everything
    assert "24681357" not in everything
    assert f"INFO kiosk: {PLAYER} rolled 4" in files["log.txt"]
    assert f"game of {PLAYER} is fine" in files["doctor.txt"]
    assert [
        "journalctl",
        "-u",
        "colossus-companion",
        "-n",
        "50",
        "--no-pager",
        "-o",
        "short-iso",
    ] in (system.calls)
    assert "model: Raspberry Pi 4 Model B Rev 1.4" in files["versions.txt"]
    assert "colossus-companion: " in files["versions.txt"] and "kivy: " in files["versions.txt"]
    assert "ActiveState=active" in files["hardware.txt"]
    assert json.loads(files["journal.json"])["games"][0]["count"] == 2
    effective = json.loads(files["config-effective.json"])
    assert "admin_pin" not in effective["kiosk"]  # refused as unknown: the file's problem
    assert f"admin_pin = {REDACTED}" in files["config.toml"] or REDACTED in files["config.toml"]
    assert effective["buttons"]["confirm_pin"] == 5
    assert "confirm_pin = 5" in files["config.toml"]


def test_without_journalctl_the_log_says_why(tmp_path: Path) -> None:
    loaded = LoadedConfig(CompanionConfig(data_dir=tmp_path), None)

    def nothing(argv: Sequence[str]) -> tuple[int, str, str]:
        return 127, "", f"{argv[0]} is not available on this machine"

    files = collect(loaded, run=nothing, doctor=_doctor, facts=PlatformFacts())
    assert files["log.txt"] == "(no log: journalctl is not available on this machine)\n"
    assert "No configuration file" in files["config.toml"]
    assert json.loads(files["journal.json"])["exists"] is False


def test_the_zip_is_private_and_complete(tmp_path: Path) -> None:
    out = write_bundle({"README.txt": "hello\n", "log.txt": "x\n"}, tmp_path / "sub" / "b.zip")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    with zipfile.ZipFile(out) as bundle:
        assert bundle.namelist() == [
            "colossus-companion-support/README.txt",
            "colossus-companion-support/log.txt",
        ]
    assert [p.name for p in out.parent.iterdir()] == ["b.zip"]  # no temporary file left


def test_companion_support_bundle_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.delenv("KIVY_HOME", raising=False)
    _journal(tmp_path)
    out = tmp_path / "support.zip"
    assert main(["support-bundle", "--out", str(out), "--log-lines", "20"]) == 0
    assert str(out) in capsys.readouterr().out
    with zipfile.ZipFile(out) as bundle:
        names = {name.split("/", 1)[1] for name in bundle.namelist()}
        assert names >= EXPECTED_FILES
        text = "\n".join(bundle.read(name).decode("utf-8") for name in bundle.namelist())
    assert not any(name in text for name in NAMES)
    assert "[ok] storage:" in text  # the doctor report includes the kiosk checks


# --- --bench: the figures of the quick benchmarks -------------------------------------------


def test_bench_figures_are_a_file_of_their_own_only_when_asked(tmp_path: Path) -> None:
    loaded = LoadedConfig(CompanionConfig(data_dir=tmp_path), None)
    quiet = FakeSystem()
    without = collect(loaded, run=quiet, doctor=_doctor, facts=PlatformFacts())
    assert "bench.txt" not in without and "bench.txt" not in without["README.txt"]
    figures = "touch → highlight  mock  20  2.80  4.10\n"
    files = collect(loaded, run=quiet, doctor=_doctor, facts=PlatformFacts(), bench=lambda: figures)
    assert set(files) - {"kivy-config.ini"} == EXPECTED_FILES | {"bench.txt"}
    assert files["bench.txt"] == figures
    assert "bench.txt" in files["README.txt"]


def test_bench_text_runs_each_quick_bench_and_keeps_what_a_failure_said(
    tmp_path: Path,
) -> None:
    (tmp_path / "bench_referee.py").write_text("", encoding="utf-8")
    calls: list[list[str]] = []

    def run(argv: Sequence[str]) -> tuple[int, str, str]:
        calls.append(list(argv))
        if argv[1].endswith("bench_interactions.py"):
            return 1, "", "Traceback …\nChildFailed: no window\n"
        return 0, "journal append+commit: median 0.300 ms\n", ""

    text = bench_text(folders=[tmp_path / "absent", tmp_path], run=run, python="py")
    assert calls == [
        ["py", str(tmp_path / "bench_interactions.py"), "--quick"],
        ["py", str(tmp_path / "bench_referee.py"), "--quick"],
    ]
    assert "== bench_interactions.py --quick  (exit 1," in text
    assert "ChildFailed: no window" in text
    assert "== bench_referee.py --quick  (exit 0," in text
    assert "journal append+commit: median 0.300 ms" in text


def test_without_the_bench_folder_bench_txt_says_where_it_looked(tmp_path: Path) -> None:
    def never(argv: Sequence[str]) -> tuple[int, str, str]:
        raise AssertionError("nothing to run")

    text = bench_text(folders=[tmp_path / "nowhere"], run=never)
    assert text.startswith("(no benchmarks: bench/ was not found")
    assert str(tmp_path / "nowhere") in text and "COMPANION_BENCH_DIR" in text


def test_companion_support_bundle_bench_adds_bench_txt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.delenv("KIVY_HOME", raising=False)
    ran: list[str] = []

    def figures() -> str:
        ran.append("bench")
        return "FIGURES\n"

    monkeypatch.setattr(support, "bench_text", figures)
    out = tmp_path / "support.zip"
    assert main(["support-bundle", "--bench", "--out", str(out)]) == 0
    assert ran == ["bench"]
    assert "quick benchmarks" in capsys.readouterr().err
    with zipfile.ZipFile(out) as bundle:
        assert bundle.read("colossus-companion-support/bench.txt") == b"FIGURES\n"


@pytest.mark.slow
def test_the_quick_referee_bench_really_runs_into_bench_txt() -> None:
    """The real script, as ``--bench`` runs it, at the smallest sizes (figures not
    checked: how long the bundle's quick run takes is the bench's business)."""
    small = ("--quick", "--actions", "30", "--requests", "10")
    text = bench_text(benches=[("bench_referee.py", small)])
    assert "== bench_referee.py --quick --actions 30 --requests 10  (exit 0," in text, text
    assert "journal append+commit (disk, synchronous=FULL), 100 actions: median" in text
    assert "protocol 'act' round trip (builders, no journal): median" in text
