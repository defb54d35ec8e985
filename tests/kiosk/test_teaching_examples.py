"""The executable examples (kiosk/teaching/examples.py): every teaching text, every
guided-setup step and every lesson step carries at least one, and the real referee (with
the rulings' companion rules, the project's own) gives each the answer it expects —
legal, refused naming the ruling, or a count. docs/teaching.md lists how many each game
has (generated in tests/kiosk/test_teaching.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from kiosk.teaching import COMMON, load_teaching
from kiosk.teaching.examples import LESSON, Example, Position, check
from kiosk.teaching.lessons import load_lessons

GAMES = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")


@dataclass(frozen=True)
class Backed:
    """A text or a step and the examples behind it."""

    game: str  # the game its examples ask by default ("" for common.toml)
    kind: str  # "text", "setup step", "lesson step"
    where: str  # "kolossus.toml: texts.K-R13"
    examples: tuple[Example, ...]
    positions: dict[str, Position]


def backed() -> list[Backed]:
    """Every teaching text, guided-setup step and lesson step, with its examples."""
    teaching = load_teaching()
    out: list[Backed] = []
    for name, file in sorted(teaching.files.items()):
        game = "" if name == COMMON else name
        for ruling, text in file.texts.items():
            where = f"{name}.toml: texts.{ruling}"
            out.append(Backed(game, "text", where, text.examples, dict(file.positions)))
        for number, setup_step in enumerate(file.setup):
            where = f"{name}.toml: setup.{number} ({setup_step.title})"
            examples = setup_step.examples
            out.append(Backed(game, "setup step", where, examples, dict(file.positions)))
    for game, lesson in sorted(load_lessons().items()):
        positions = {
            **teaching.files[game].positions,
            **lesson.positions,
            LESSON: lesson.own_position(),
        }
        for number, step in enumerate(lesson.steps, start=1):
            where = f"first_games/{game}.toml: step {number} ({step.title})"
            out.append(Backed(game, "lesson step", where, step.examples, positions))
    return out


def example_counts() -> dict[str, Counter[str]]:
    """Per game: how many examples back its texts, setup steps and lesson steps."""
    counts: dict[str, Counter[str]] = {}
    for item in backed():
        for example in item.examples:
            game = example.game or item.game
            counts.setdefault(game, Counter())[item.kind] += 1
    return counts


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
