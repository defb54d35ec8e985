"""Every teaching text, guided-setup step and lesson step with the examples behind it,
and their count per game."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kiosk.teaching import COMMON, load_teaching
from kiosk.teaching.examples import LESSON, Example, Position
from kiosk.teaching.lessons import load_lessons


def example_counts() -> dict[str, Counter[str]]:
    """Per game: how many examples back its texts, setup steps and lesson steps."""
    counts: dict[str, Counter[str]] = {}
    for item in backed():
        for example in item.examples:
            game = example.game or item.game
            counts.setdefault(game, Counter())[item.kind] += 1
    return counts


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
