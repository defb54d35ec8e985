"""Shared test setup.

The test-only game "toy_pig" (tests/toy_game.py) is registered for the whole run, so
the session, journal and protocol can be tested by name without depending on any real
game's details.

Property tests draw the same examples on every run (hypothesis ``derandomize``), so a
suite that passed on one machine passes on the next and a failure reproduces as it is.
``HYPOTHESIS_PROFILE=explore scripts/test`` draws fresh random examples instead, to
look for new faults; a fault found that way becomes a named test or an ``@example``.

The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject's addopts), a test
file at a time per worker (``--dist loadfile``). Workers are spawned only when the run is
the suite or whole folders of it: naming files or tests (``pytest tests/x.py``), or
``-s`` (workers' output is not shown), runs in this one process. ``-n 2`` or ``-n 0``
given on the command line always wins. Workers are handed the files holding a ``slow``
test first, so the long files are shared out early and the workers finish together.

What collection loaded (pytest, the project, Kivy, the test modules) is moved out of the
garbage collector's way once collected, as the app does at its start: the kiosk collects
in full when a game starts and a second after the last frame, and each such collection
would otherwise walk the whole test process's heap.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from companion.games import GAME_MODULES
from kiosk.memory import freeze_startup

GAME_MODULES.setdefault("toy_pig", "tests.toy_game")

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.hookimpl(optionalhook=True)  # also loads with pytest-xdist off (-p no:xdist)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """No workers for a run of named files or tests, or one that shows output live;
    otherwise one worker per core this process may use, and one more.

    Starting a worker imports the project (and Kivy) again, which costs more than a few
    files save. The suite's tests also wait — on the X server, the broker, a killed
    referee, a subprocess — and a worker more than the cores runs in those waits (on two
    cores: 5 min 37 s with three workers against 6 min 54 s with two, the same tests).
    """
    if config.option.capture == "no":
        return 0
    invoked_in = config.invocation_params.dir
    if any(not (invoked_in / arg.split("::")[0]).is_dir() for arg in config.args):
        return 0
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (usable or 1) + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker, the files holding a ``slow`` test first, each file's tests in order.

    Files go out in this order (``--no-loadscope-reorder``); a minute-long file handed
    out last would keep one worker busy while the other waits.
    """
    if not hasattr(config, "workerinput"):  # one process: the order the files sort in
        return
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Exempt what lives for the whole run from later collections (``freeze_startup``,
    the app's own): a full collection then walks only what the tests made since.

    In the kiosk's files a fifth of the time went to those walks (≈0.5 s each, dozens a
    file); what a test makes and drops is still collected as before.
    """
    freeze_startup()
