"""The executable examples (kiosk/teaching/examples.py): every teaching text, every
guided-setup step and every lesson step carries at least one, and the real referee (with
the rulings' companion rules, the project's own) gives each the answer it expects —
legal, refused naming the ruling, or a count. docs/teaching.md lists how many each game
has (generated in tests/kiosk/test_teaching.py)."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.teaching import load_teaching
from kiosk.teaching.examples import Example, Position, check
from tests.helpers.teaching_examples import backed

GAMES = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")


def test_every_text_and_every_step_has_an_example() -> None:
    """A text or a step that states a rule without an example could drift from the
    referee unnoticed: each carries at least one."""
    missing = [item.where for item in backed() if not item.examples]
    assert missing == [], f"{len(missing)} without an example"


def test_every_example_in_common_names_its_game() -> None:
    unnamed = [
        item.where for item in backed() if not item.game for e in item.examples if not e.game
    ]
    assert unnamed == []


def exercises_the_claim(example: Example) -> bool:
    """True for an example that puts the referee to work on the claim: it asks whether
    an action is legal or refused (``act``), finds actions of a kind in the legal list
    (a ``count`` above 0), or plays actions itself and asks what follows. A fact, a
    board count or a count of 0 about a position alone shows nothing the text claims
    happens."""
    if example.act is not None or example.actions:
        return True
    return example.count is not None and isinstance(example.expect, int) and example.expect > 0


def test_every_text_has_an_example_that_exercises_its_claim() -> None:
    """A teaching text states what happens when players act: at least one of its
    examples acts (legal or refused naming the ruling), lists legal actions or plays
    actions and checks what follows — not only a count at the start."""
    trivial = [
        item.where
        for item in backed()
        if item.kind == "text" and not any(map(exercises_the_claim, item.examples))
    ]
    assert trivial == [], f"{len(trivial)} texts with trivial examples only:\n" + "\n".join(trivial)


def _runs() -> list[tuple[str, str, str, Example, dict[str, Position]]]:
    """(game, file, where, example, the positions it may name) for every example: an
    example of common.toml names its game and starts from that game's positions."""
    files = load_teaching().files
    runs = []
    for item in backed():
        for number, example in enumerate(item.examples, start=1):
            game = example.game or item.game
            own = example.game is None or example.game == item.game
            positions = item.positions if own else dict(files[game].positions)
            file = item.where.partition(":")[0] if own else f"{game}.toml"
            runs.append((game, file, f"{item.where} example {number}", example, positions))
    return runs


@pytest.mark.parametrize("game", GAMES)
def test_the_referee_gives_every_example_its_expected_answer(game: str) -> None:
    built: dict[str, dict[str, Any]] = {}  # positions reached, by file
    wrong = []
    ran = 0
    for asked, file, where, example, positions in _runs():
        if asked != game:
            continue
        problem = check(asked, example, positions, built.setdefault(file, {}))
        ran += 1
        if problem is not None:
            wrong.append(f"{where}: {problem}")
    assert wrong == [], "\n".join(wrong)
    assert ran > 0
