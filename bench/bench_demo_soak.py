"""Shop demo soak: thousands of demo turns across all five games, memory and journal.

    .venv/bin/python bench/bench_demo_soak.py [--turns 5000] [--every 1000]
                                              [--kivy-turns 300] [--no-kivy]

Two runs, each printing figures (nothing is asserted; the bound is printed next to the
measurement):

1. **Presenter level** (no Kivy): :class:`kiosk.presenters.attract.AttractMode` with the
   demo driver rotating through every game, one move per tick, the play view rebuilt
   after every change as the screen does. Prints turns/s, resident memory (RSS) after a
   warm-up and every ``--every`` turns, and the growth after warm-up against the bound
   (:data:`RSS_BOUND_MB`).
2. **Kivy screens** (a child process, offscreen SDL2 unless ``DISPLAY`` is set): the
   real :class:`kiosk.app.Kiosk` with its shop mode armed, the idle timeout expiring, and
   the demo driving the play screen, the board and the LED feed, one frame drawn per move.

Both runs keep a real journal (``journal.sqlite3`` with an unfinished game) in a
temporary data directory and print its rows and bytes (WAL included) before and after:
demo games live in a private in-memory journal, so these must not change.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.kivy_env import kivy_environment  # noqa: E402

RSS_BOUND_MB = 20.0  # allowed RSS growth after the warm-up, presenter level
WARM_UP_TURNS = 500


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def journal_footprint(data_dir: Path) -> dict[str, int]:
    path = data_dir / "journal.sqlite3"
    with sqlite3.connect(path) as db:
        rows = {
            table: int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
            for table in ("games", "entries", "damaged_entries")
        }
    rows["bytes"] = sum(p.stat().st_size for p in data_dir.glob("journal.sqlite3*"))
    return rows


def real_journal(data_dir: Path) -> None:
    """A journal with one unfinished game, as a shop's would have."""
    from companion.bot import RandomBot
    from companion.journal import Journal
    from companion.session import Session

    with Journal(data_dir / "journal.sqlite3") as journal:
        session = Session.new("builders", ("Kim", "Lou"), seed=1, journal=journal)
        bot = RandomBot(2)
        for _ in range(5):
            session.submit(bot.choose(session.rules, session.state))


def presenter_soak(turns: int, every: int) -> dict[str, object]:
    from kiosk.presenters.attract import AttractMode, demo_rotation
    from kiosk.presenters.demo import DemoDriver, DemoPlayPresenter

    data_dir = Path(tempfile.mkdtemp(prefix="demo-soak-"))
    real_journal(data_dir)
    before = journal_footprint(data_dir)
    seeds = itertools.count(1)
    started: Counter[str] = Counter()

    def on_game(play: DemoPlayPresenter) -> None:
        started[play.rules.name] += 1

        def redraw() -> None:
            play.view()

        play.subscribe(redraw)

    driver = DemoDriver(
        demo_rotation(()),
        seed=lambda: next(seeds),
        step_s=0.0,
        outcome_s=0.0,
        on_game=on_game,
    )
    attract = AttractMode(1.0, lambda: driver, now=0.0)
    now = 1.0
    rss: list[tuple[int, float]] = [(0, rss_mb())]
    warm: float | None = None
    next_mark = every
    began = time.perf_counter()
    warm_at = 0.0
    warm_turns = 0
    while driver.turns < turns:
        now += 1.0
        attract.tick(now)
        rotated = driver.games_started > len(driver.games)  # every game module loaded
        if warm is None and rotated and driver.turns >= WARM_UP_TURNS:
            gc.collect()
            warm = rss_mb()
            warm_at = time.perf_counter()
            warm_turns = driver.turns
            rss.append((driver.turns, warm))
        if driver.turns >= next_mark:
            gc.collect()
            rss.append((driver.turns, rss_mb()))
            next_mark += every
    elapsed = time.perf_counter() - began
    attract.input(now + 1)
    gc.collect()
    after = journal_footprint(data_dir)
    final = rss_mb()
    warm = warm if warm is not None else rss[0][1]
    after_warm_up = [mb for t, mb in rss if t >= warm_turns] + [final]
    growth = max(after_warm_up) - warm
    return {
        "turns": driver.turns,
        "seconds": round(elapsed, 2),
        "turns_per_s": round(driver.turns / elapsed, 1),
        "after_warm_up_turns_per_s": round(
            (driver.turns - warm_turns) / max(1e-9, time.perf_counter() - warm_at), 1
        ),
        "warm_up_turns": warm_turns,
        "games_started": dict(started),
        "games_finished": driver.games_finished,
        "refusals": driver.refusals,
        "rss_mb": [(t, round(mb, 1)) for t, mb in rss] + [("end", round(final, 1))],
        "rss_growth_after_warm_up_mb": round(growth, 1),
        "rss_bound_mb": RSS_BOUND_MB,
        "journal_before": before,
        "journal_after": after,
    }


KIVY_CHILD = r"""
import gc, itertools, json, sys, time
from pathlib import Path
from kivy.base import EventLoop
from kivy.core.window import Window
sys.path.insert(0, sys.argv[3])
from bench.bench_demo_soak import journal_footprint, real_journal, rss_mb
from kiosk.settings import CompanionConfig, KioskConfig, LoadedConfig
from kiosk.app import Kiosk

data_dir, turns = Path(sys.argv[1]), int(sys.argv[2])
real_journal(data_dir)
before = journal_footprint(data_dir)
EventLoop.ensure_window()
config = LoadedConfig(CompanionConfig(kiosk=KioskConfig(idle_timeout_s=60)), None)
seeds = itertools.count(1)
kiosk = Kiosk(data_dir, seed=lambda: next(seeds), config=config)
Window.add_widget(kiosk.manager)
lit = []
kiosk.on_highlights = lambda highlights: lit.append(len(highlights))
now = [1000.0]
shop = kiosk.shop
shop.clock = lambda: now[0]
shop.attract.idle.touch(now[0])
shop.arm()
EventLoop.idle()
now[0] += 60
shop.tick(now[0])
driver = shop.attract.driver
driver.max_actions = min(100, max(20, turns // 5))  # every game has its turn in a short run
games = set()
began = time.perf_counter()
rss = [(0, rss_mb())]
while driver.turns < turns:
    now[0] += shop.config.demo_step_s
    shop.tick(now[0])
    games.add(kiosk.play.rules.name if kiosk.play is not None else None)
    EventLoop.idle()
    if driver.turns and driver.turns % 100 == 0 and rss[-1][0] != driver.turns:
        gc.collect()
        rss.append((driver.turns, rss_mb()))
elapsed = time.perf_counter() - began
shop.note_input()
EventLoop.idle()
screen = kiosk.manager.current
kiosk.close()
print(json.dumps({
    "turns": driver.turns,
    "seconds": round(elapsed, 2),
    "turns_per_s": round(driver.turns / elapsed, 1),
    "games": sorted(g for g in games if g),
    "led_updates": len(lit),
    "after_touch": screen,
    "rss_mb": [(t, round(mb, 1)) for t, mb in rss],
    "journal_before": before,
    "journal_after": journal_footprint(data_dir),
}))
"""


def kivy_soak(turns: int) -> dict[str, object]:
    data_dir = Path(tempfile.mkdtemp(prefix="demo-soak-kivy-"))
    env = dict(os.environ)
    home = data_dir / "kivy-home"
    home.mkdir()
    env.update(KCFG_GRAPHICS_MAXFPS="0", PYTHONPATH=str(ROOT))  # as fast as it can draw
    env.update(kivy_environment(env, quiet=True, kivy_home=home, headless=True))
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KIVY_CHILD), str(data_dir), str(turns), str(ROOT)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if result.returncode != 0:
        return {"error": result.stderr[-3000:]}
    figures: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=5000, help="presenter-level demo turns")
    parser.add_argument("--every", type=int, default=1000, help="RSS sample interval (turns)")
    parser.add_argument("--kivy-turns", type=int, default=300, help="turns through the screens")
    parser.add_argument("--no-kivy", action="store_true", help="skip the Kivy run")
    args = parser.parse_args()

    soak = presenter_soak(args.turns, args.every)
    print("Presenter level (no Kivy), every game in rotation, view rebuilt per change:")
    print(f"  turns                {soak['turns']}  in {soak['seconds']} s")
    print(
        f"  turns/s              {soak['turns_per_s']} (after warm-up "
        f"{soak['after_warm_up_turns_per_s']})"
    )
    print(f"  games started        {soak['games_started']}  finished {soak['games_finished']}")
    print(f"  refusals             {soak['refusals']}")
    print(f"  RSS MB (turn, MB)    {soak['rss_mb']}")
    growth, bound = soak["rss_growth_after_warm_up_mb"], soak["rss_bound_mb"]
    verdict = "within" if float(str(growth)) < float(str(bound)) else "OVER"
    print(
        f"  RSS growth after the warm-up ({soak['warm_up_turns']} turns: one rotation): "
        f"{growth} MB ({verdict} the bound "
        f"of {bound} MB)"
    )
    print(f"  real journal before  {soak['journal_before']}")
    print(
        f"  real journal after   {soak['journal_after']}  "
        f"({'unchanged' if soak['journal_before'] == soak['journal_after'] else 'CHANGED'})"
    )
    if not args.no_kivy:
        kivy = kivy_soak(args.kivy_turns)
        print("Kivy screens (offscreen window, one frame per move, LED feed on):")
        if "error" in kivy:
            print(f"  failed: {kivy['error']}")
            return 1
        print(f"  turns                {kivy['turns']}  in {kivy['seconds']} s")
        print(f"  turns/s              {kivy['turns_per_s']}")
        print(f"  games                {kivy['games']}")
        print(f"  LED feed updates     {kivy['led_updates']}")
        print(f"  after a touch        screen {kivy['after_touch']!r}")
        print(f"  RSS MB (turn, MB)    {kivy['rss_mb']}")
        samples = [mb for _, mb in kivy["rss_mb"]]  # type: ignore[attr-defined]
        if len(samples) > 2:
            print(
                f"  RSS growth after turn 100: {round(samples[-1] - samples[1], 1)} MB "
                "(informative: the software GL driver dominates the app's memory)"
            )
        print(f"  real journal before  {kivy['journal_before']}")
        print(
            f"  real journal after   {kivy['journal_after']}  "
            f"({'unchanged' if kivy['journal_before'] == kivy['journal_after'] else 'CHANGED'})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
