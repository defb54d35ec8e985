"""The ``companion`` command: the touchscreen app by default, plus headless tools.

    companion                      start the touchscreen app (simulated hardware off a Pi)
    companion referee              the JSON-lines referee on stdin/stdout
    companion games                list the games in the journal
    companion export GAME_ID       a game as a JSON record
    companion schema               the protocol's JSON Schema
    companion doctor               what hardware was found and what is wrong
    companion salvage              copy every readable row of a damaged journal into a new
                                   file (--replace: put it in the journal's place)
    companion calibrate            light each board cell in order to check the wiring
    companion support-bundle       a zip for support: config (redacted), doctor, log, versions
                                   (--bench: with the figures of the quick benchmarks)
    companion admin-pin            set (or reset) the shop's admin PIN; clears the lock-out
    companion fleet                the shop machine's watcher of every table ([fleet] config):
                                   finished games, tables, health; a static HTML page

Every command takes ``--config`` (or ``COMPANION_CONFIG``; see examples/companion.toml)
and ``--data-dir`` (or ``COMPANION_DATA_DIR``; otherwise the config's ``data_dir``, by
default the per-user data directory), where the journal ``journal.sqlite3`` lives.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from companion.errors import DamagedHeader, RefereeError
from companion.protocol import MAX_LINE_BYTES, ProtocolError, Referee, protocol_schema
from kiosk.settings import CompanionConfig, load_config
from kiosk.storage import fresh_seed, open_journal


def data_dir_for(args: argparse.Namespace, config: CompanionConfig) -> Path:
    """``--data-dir``, else ``COMPANION_DATA_DIR``, else the config's data directory."""
    if args.data_dir is not None:
        return Path(args.data_dir)
    env = os.environ.get("COMPANION_DATA_DIR")
    return Path(env) if env else config.data_dir


def serve_referee(referee: Referee, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Answer one line per request until end of input. Never raises on bad input."""
    too_long = json.dumps(
        {
            "id": None,
            "ok": False,
            "error": ProtocolError(
                "line_too_long", f"The line is longer than {MAX_LINE_BYTES} bytes."
            ).as_dict(),
        }
    ).encode()
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES:
            while line and not line.endswith(b"\n"):  # skip the rest of the long line
                line = stdin.readline(MAX_LINE_BYTES)
            response = too_long
        elif not line.strip():
            continue
        else:
            # The referee refuses text that cannot be encoded; should any reach a reply,
            # it is escaped rather than allowed to stop the loop.
            response = referee.handle(line).encode("utf-8", "backslashreplace")
        stdout.write(response + b"\n")
        stdout.flush()
        referee.after_answer()


def _cmd_referee(args: argparse.Namespace) -> int:
    journal = None if args.no_journal else open_journal(args.data_dir)
    fleet = None
    if journal is not None and args.loaded.config.fleet.enabled:  # paho loads only when on
        from kiosk.fleet.report import referee_reporting

        fleet, problem = referee_reporting(args.loaded, journal)
        if problem is not None:
            print(f"companion: {problem}", file=sys.stderr)
    referee = Referee(journal, fresh_seed, clock=time.monotonic)
    try:
        serve_referee(referee, sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    finally:
        referee.leave_game()
        if fleet is not None:
            fleet.stop()
            trouble = fleet.trouble()
            if trouble is not None:
                print(f"companion: {trouble}", file=sys.stderr)
        if journal is not None:
            journal.close()
    return 0


def _cmd_games(args: argparse.Namespace) -> int:
    with open_journal(args.data_dir) as journal:
        for info in journal.games(include_demo=args.demo):
            result = "in progress" if info.outcome is None else info.outcome.get("text", "")
            players = ", ".join(info.players)
            holder = journal.holder(info.game_id) if info.outcome is None else None
            playing = "" if holder is None else f" (open in process {holder.pid})"
            print(
                f"{info.game_id:5d}  {info.updated}  {info.game:14s} {players}  "
                f"({info.entries} entries) {result}{playing}"
            )
        for damage in journal.unreadable_games():
            print(f"{damage.game_id:5d}  damaged: {damage.reason}")
        if journal.read_only:
            print(f"(read-only: {journal.read_only_reason})", file=sys.stderr)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from companion.session import Session

    with open_journal(args.data_dir) as journal:
        try:
            session, damage = Session.view(journal, args.game_id)
            record = session.export()
        except DamagedHeader as error:  # offered read-only: the entries that can be read
            from companion.header_rebuild import readable_record

            print(f"warning: {error.message}", file=sys.stderr)
            record, damage = readable_record(journal, args.game_id), None
        if damage is not None:
            print(f"warning: journal damage at {damage.describe()}", file=sys.stderr)
        text = json.dumps(record, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(protocol_schema(), indent=2, sort_keys=True))
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    from kiosk.app import run_app

    # ``main`` has loaded the configuration and put the chosen data directory in it.
    result: int = run_app(args.loaded)
    return result


def _cmd_doctor(args: argparse.Namespace) -> int:
    from firmware_bridge.doctor import Severity, worst
    from kiosk.doctor_checks import full_doctor

    findings = full_doctor(args.loaded)
    for finding in findings:
        print(finding)
    level = worst(findings)
    return {Severity.OK: 0, Severity.WARNING: 0}.get(level, 1)


def _cmd_salvage(args: argparse.Namespace) -> int:
    from kiosk.salvage import salvage
    from kiosk.storage import JOURNAL_FILE

    done = salvage(Path(args.data_dir) / JOURNAL_FILE, replace=args.replace)
    rows = ", ".join(f"{count} {table}" for table, count in done.rows.items())
    print(f"Salvaged into {done.recovered}: {rows}.")
    if done.lost_and_found:
        print(f"{done.lost_and_found} rows whose table could not be told are in lost_and_found.")
    if done.damaged_kept is not None:
        print(f"The damaged file is kept as {done.damaged_kept}.")
    else:
        print("Run again with --replace (the app stopped) to put it in the journal's place.")
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from firmware_bridge.calibrate import run_calibration
    from firmware_bridge.leds.factory import layout_of, make_strip, power_budget_of

    leds = args.loaded.config.leds
    strip = make_strip(leds)
    if strip is None:
        print("companion: the LED strip is switched off in the config (driver = none).")
        return 1
    try:
        shown = run_calibration(
            strip, layout_of(leds), delay_s=args.delay, power_budget=power_budget_of(leds)
        )
    finally:
        strip.close()
    print(f"{shown} cells shown, in strip order.")
    return 0


def _cmd_admin_pin(args: argparse.Namespace) -> int:
    """Set the admin PIN of a locked kiosk and a new staff recovery code: the documented
    reset (needs the Pi's shell). Easy PINs (1234, 0000, ...) are refused."""
    from kiosk.admin import (
        PIN_MAX_DIGITS,
        PIN_MIN_DIGITS,
        PinError,
        PinStore,
        format_recovery_code,
    )

    store = PinStore(args.data_dir)
    if args.stdin:
        pin = sys.stdin.readline().strip()
    else:
        import getpass

        pin = getpass.getpass(f"New admin PIN ({PIN_MIN_DIGITS}-{PIN_MAX_DIGITS} digits): ")
        if getpass.getpass("The same PIN again: ") != pin:
            print("companion: the two PINs differ; nothing was changed.", file=sys.stderr)
            return 1
    try:
        code = store.set_pin(pin)
    except PinError as error:
        print(f"companion: {error} Nothing was changed.", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"companion: cannot write {store.path}: {error}", file=sys.stderr)
        return 1
    print(f"Admin PIN set in {store.path}; wrong-PIN lock-out cleared.")
    if code is not None:
        print(
            f"Staff recovery code: {format_recovery_code(code)}\n"
            "Write it down and keep it away from the kiosk: typed on the PIN pad it opens"
            " the admin page even while the pad is locked (it is shown only now)."
        )
    return 0


def _cmd_support_bundle(args: argparse.Namespace) -> int:
    from kiosk import support

    out = args.out if args.out is not None else support.default_bundle_name()
    if args.bench:
        print(
            "Running the quick benchmarks first: under a minute on a desktop, a few "
            "minutes on a Raspberry Pi (bench/pi.md).",
            file=sys.stderr,
            flush=True,
        )
    bench = support.bench_text if args.bench else None
    try:
        written = support.write_bundle(
            support.collect(args.loaded, log_lines=args.log_lines, bench=bench), out
        )
    except OSError as error:
        print(f"companion: cannot write {out}: {error} (try --out FILE)", file=sys.stderr)
        return 1
    print(f"Support bundle written to {written} (no player names; secrets redacted).")
    return 0


def _cmd_fleet(args: argparse.Namespace) -> int:
    import contextlib
    import signal
    import threading

    from kiosk.fleet.messages import fleet_schema
    from kiosk.fleet.page import summary_text, write_page
    from kiosk.fleet.store import FleetStore
    from kiosk.fleet.watch import watch

    if args.schema:
        print(json.dumps(fleet_schema(), indent=2, sort_keys=True))
        return 0
    settings = args.loaded.config.fleet
    store = FleetStore(
        args.db if args.db is not None else args.data_dir / "fleet.sqlite3",
        max_bytes=settings.max_message_bytes,
    )
    out = args.out if args.out is not None else args.data_dir / "fleet"
    try:
        if not args.offline:
            if not settings.host:
                print(
                    "companion: fleet needs the broker: set [fleet] host (and its login) in"
                    " the config, or use --offline to write the page from what is stored.",
                    file=sys.stderr,
                )
                return 1
            stop = threading.Event()
            if args.duration is not None:
                timer = threading.Timer(args.duration, stop.set)
                timer.daemon = True
                timer.start()
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
            with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: write the page and go
                watch(settings, store, out, stop=stop, days=args.days)
        page = write_page(store, out, days=args.days)
        print(summary_text(store, days=args.days), end="")
        print(f"Page written to {page}")
    finally:
        store.close()
    return 0


def _add_global_options(parser: argparse.ArgumentParser, *, default: object) -> None:
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=default,
        help="where the journal lives (default: $COMPANION_DATA_DIR or the user data dir)",
    )
    parser.add_argument("--config", type=Path, default=default, help="hardware config (TOML)")


def _add_subcommand(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, *, help: str
) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=help)
    _add_global_options(parser, default=argparse.SUPPRESS)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Table-side referee for the Colossus games."
    )
    _add_global_options(parser, default=None)
    parser.set_defaults(func=_cmd_app)
    sub = parser.add_subparsers(dest="command")
    # The global options work after the sub-command too ("companion doctor --config F");
    # there they default to "not given", so one given before the sub-command stands.
    sub_parser = functools.partial(_add_subcommand, sub)

    app = sub_parser("app", help="start the touchscreen app (the default)")
    app.set_defaults(func=_cmd_app)

    referee = sub_parser("referee", help="JSON-lines referee on stdin/stdout")
    referee.add_argument("--no-journal", action="store_true", help="do not store games")
    referee.set_defaults(func=_cmd_referee)

    games = sub_parser("games", help="list the games in the journal")
    games.add_argument("--demo", action="store_true", help="include demo games")
    games.set_defaults(func=_cmd_games)

    export = sub_parser("export", help="export a game as a JSON record")
    export.add_argument("game_id", type=int)
    export.add_argument("--out", help="write to this file instead of stdout")
    export.set_defaults(func=_cmd_export)

    schema = sub_parser("schema", help="print the protocol's JSON Schema")
    schema.set_defaults(func=_cmd_schema)

    doctor = sub_parser("doctor", help="report what hardware was found and what is wrong")
    doctor.set_defaults(func=_cmd_doctor)

    salvage = sub_parser(
        "salvage",
        help="copy every readable row of a damaged journal into a new file (sqlite3 .recover)",
    )
    salvage.add_argument(
        "--replace",
        action="store_true",
        help="put the copy in the journal's place (the damaged file is kept beside it)",
    )
    salvage.set_defaults(func=_cmd_salvage)

    calibrate = sub_parser("calibrate", help="light each board cell in wiring order")
    calibrate.add_argument("--delay", type=float, default=1.0, help="seconds per cell")
    calibrate.set_defaults(func=_cmd_calibrate)

    bundle = sub_parser("support-bundle", help="write a zip for support (no player names)")
    bundle.add_argument("--out", type=Path, default=None, help="the zip file to write")
    bundle.add_argument("--log-lines", type=int, default=500, help="log lines to include")
    bundle.add_argument(
        "--bench",
        action="store_true",
        help="also run the quick benchmarks (bench/; minutes on a Pi) and include their "
        "figures as bench.txt",
    )
    bundle.set_defaults(func=_cmd_support_bundle)

    admin_pin = sub_parser(
        "admin-pin", help="set or reset the admin PIN of a locked kiosk (clears the lock-out)"
    )
    admin_pin.add_argument(
        "--stdin", action="store_true", help="read the PIN from one line of standard input"
    )
    admin_pin.set_defaults(func=_cmd_admin_pin)

    fleet = sub_parser(
        "fleet",
        help="watch every table of the shop through the [fleet] broker; write a static page",
    )
    fleet.add_argument(
        "--out", type=Path, default=None, help="the page's folder (default: DATA_DIR/fleet)"
    )
    fleet.add_argument(
        "--db", type=Path, default=None, help="the fleet's SQLite (default: DATA_DIR/fleet.sqlite3)"
    )
    fleet.add_argument("--days", type=float, default=7.0, help="the leaderboard's span in days")
    fleet.add_argument(
        "--duration",
        type=float,
        default=None,
        help="stop after this many seconds (default: Ctrl-C)",
    )
    fleet.add_argument(
        "--offline", action="store_true", help="do not connect: print and write what is stored"
    )
    fleet.add_argument(
        "--schema", action="store_true", help="print the JSON Schema of the fleet's messages"
    )
    fleet.set_defaults(func=_cmd_fleet)
    return parser


def configure_logging() -> None:
    """Logs go to stderr only (journald keeps them on a kiosk), never to files on the SD card.

    ``COMPANION_LOG_LEVEL`` (the service sets INFO) chooses the level; unset, Python's
    default applies: warnings and errors on stderr.
    """
    level = os.environ.get("COMPANION_LOG_LEVEL", "").strip().upper()
    if isinstance(logging.getLevelName(level), int):
        logging.basicConfig(
            level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
        )


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_logging()
    args.loaded = load_config(args.config)
    for problem in args.loaded.problems:
        print(f"companion: config: {problem}", file=sys.stderr)
    args.data_dir = data_dir_for(args, args.loaded.config)
    args.loaded = dataclasses.replace(
        args.loaded, config=args.loaded.config.model_copy(update={"data_dir": args.data_dir})
    )
    try:
        result: int = args.func(args)
    except RefereeError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 1
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
