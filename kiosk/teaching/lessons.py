"""The scripted first games: one lesson per game, as data, read once and validated.

A lesson (``kiosk/teaching/first_games/<game>.toml``) is a seeded game — players,
options, seed — and an ordered list of steps a newcomer goes through in about ten
minutes. Each step explains one thing in plain words, names the ruling it rests on
(whose full text is in the teaching files) and says what the player does:

- ``kind = "watch"``: the companion suggests one action and lights it; the player plays
  it (or one like it);
- ``kind = "try"``: the player finds an action meeting the goal alone; the companion
  checks it and takes back one that does not (every action still goes through the
  referee, so the game stays legal).

The goal is a predicate over the actions the referee lists: ``types`` (the action's
``type`` tags), and optionally ``climbs`` (the piece ends on a higher level than it
started), ``captures`` (the target cell holds another side's piece) and
``min_interest`` (``Rules.interest`` at least this). Nothing depends on exact dice: the
suggestion is picked among the actions legal now. The presenter is
:mod:`kiosk.presenters.lesson`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from kiosk.teaching import RulingId, validated
from kiosk.teaching.examples import Example, Position

#: The folder (a package, so it is installed) holding one lesson per game.
FOLDER = "first_games"
#: The longest step text the lesson panel shows whole beside a board.
MAX_STEP_TEXT = 260
MAX_GOAL = 48
#: Actions a step lets pass while its kind of action is not legal yet (rolls, the
#: other players' turns) before it says the goal did not come up and moves on.
DEFAULT_PATIENCE = 12


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LessonStep(_Strict):
    """One step: what it explains, the ruling behind it, and the goal it checks."""

    kind: Literal["watch", "try"]
    ruling: RulingId
    title: Annotated[str, StringConstraints(min_length=3, max_length=40)]
    text: Annotated[str, StringConstraints(min_length=20, max_length=MAX_STEP_TEXT)]
    #: The goal in words, after "to": "capture a miniature".
    goal: Annotated[str, StringConstraints(min_length=3, max_length=MAX_GOAL)]
    types: tuple[Annotated[str, StringConstraints(min_length=2)], ...] = Field(min_length=1)
    climbs: bool = False
    captures: bool = False
    min_interest: int = Field(default=0, ge=0)
    #: The step is about losing a piece: its suggestion may lose one (else never).
    loses: bool = False
    #: Part of an action the suggestion prefers among those meeting the goal
    #: (``prefer = { runes = [2, 0] }``: a Curse that hands the Runes to the opponent).
    prefer: dict[str, object] = {}
    patience: int = Field(default=DEFAULT_PATIENCE, ge=1, le=60)
    #: What the step's text claims, asked of the referee (:mod:`kiosk.teaching.examples`);
    #: the position ``"lesson"`` is the lesson's own game.
    examples: tuple[Example, ...] = ()


class Lesson(_Strict):
    """A game's scripted first game: how it is set up and its steps, in order."""

    game: str
    players: tuple[Annotated[str, StringConstraints(min_length=1, max_length=16)], ...] = Field(
        min_length=1
    )
    seed: int = Field(ge=0)
    options: dict[str, object] = {}
    minutes: int = Field(default=10, ge=3, le=20)
    steps: tuple[LessonStep, ...] = Field(min_length=4, max_length=25)
    positions: dict[str, Position] = {}

    def own_position(self) -> Position:
        """The lesson's own game, as the examples' position ``"lesson"``."""
        return Position(players=self.players, options=self.options, seed=self.seed)


def parse_lesson(game: str, source: str) -> Lesson:
    """Validate one lesson file's TOML text (errors name the file and the key)."""
    return validated(f"{FOLDER}/{game}.toml", source, Lesson, game=game)


@cache
def load_lessons() -> dict[str, Lesson]:
    """Every shipped lesson by game name, read and validated once per process."""
    folder = resources.files(__package__ or "kiosk.teaching").joinpath(FOLDER)
    return {
        entry.name.removesuffix(".toml"): parse_lesson(
            entry.name.removesuffix(".toml"), entry.read_text(encoding="utf-8")
        )
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    }


def lesson_for(game: str) -> Lesson | None:
    """The lesson of ``game`` (None: it has none)."""
    return load_lessons().get(game)


__all__ = ["Lesson", "LessonStep", "lesson_for", "load_lessons", "parse_lesson"]
