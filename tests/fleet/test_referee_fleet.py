"""``companion referee`` with ``[fleet]`` on reports each finished game like the kiosk:
its journal queues the record in the finishing action's commit, and a publisher
forwards it to the broker (a real Mosquitto on 127.0.0.1) while the referee runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.journal import Outbox
from tests.fleet.broker import REPO, Broker, Watcher, wait_until


def _ask(process: subprocess.Popen[bytes], request: dict[str, object]) -> dict[str, object]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(request).encode() + b"\n")
    process.stdin.flush()
    answer: dict[str, object] = json.loads(process.stdout.readline())
    assert answer["ok"], answer
    return answer


def test_a_game_finished_through_the_referee_reaches_the_broker(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker")
    broker.start()
    watcher = Watcher(broker)
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[fleet]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
        'device_id = "referee-1"\n',
        encoding="utf-8",
    )
    data = tmp_path / "data"
    referee = subprocess.Popen(
        # The real CLI entry point, with the test-only game (Pig) registered first.
        [sys.executable, "-c",
         "import sys, tests.conftest; from kiosk.cli import main; sys.exit(main())",
         "--config", str(config), "--data-dir", str(data), "referee"],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        opened = _ask(
            referee,
            {"cmd": "new", "game": "toy_pig", "players": ["Ann"], "options": {"target": 5}},
        )
        _ask(referee, {"cmd": "act", "action": {"type": "roll", "values": [6], "source": "manual"}})
        _ask(referee, {"cmd": "act", "action": {"type": "hold"}})
        watcher.wait_for(lambda w: bool(w.payloads("plays")), "the referee's finished game")
        (play,) = watcher.payloads("plays")
        assert play["id"] == f"referee-1/{opened['game_id']}/2"
        assert play["record"]["outcome"]["winners"] == [0]
        outbox = Outbox(data / "journal.sqlite3")
        try:  # the watcher said it has it: the record leaves the outbox
            wait_until(lambda: outbox.backlog() == 0, "the watcher's acknowledgement")
        finally:
            outbox.close()
    finally:
        assert referee.stdin is not None
        referee.stdin.close()
        referee.wait(30)
        watcher.close()
        broker.stop()
    assert referee.returncode == 0
