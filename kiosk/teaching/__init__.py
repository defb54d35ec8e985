"""The teaching texts: one TOML file per game (and ``common.toml`` for every game), keyed
by ruling ID, read once and validated on load.

The texts are data shipped inside this package (``[tool.setuptools.package-data]``
installs every ``*.toml``) and read with :mod:`importlib.resources`, so an installed
kiosk finds them where the code is. Reading them is I/O, which ``companion/`` does not
do: the referee cites a ruling ID, the kiosk explains it.

A file holds:

- ``prefixes``: the ruling IDs it may explain (``["K-R", "1."]``), so that every ID has
  exactly one home;
- ``[texts."K-R12"]``: a ``title`` and a plain-language ``text`` for a newcomer;
- ``[roles]``: a highlight role → the rulings behind it (``blocked = ["K-R10", …]``);
  ``common.toml``'s roles hold for every game that does not name the role itself;
- ``[counts]``: a row label of the facts panel, or the start of one of its facts,
  → the rulings behind that count (``"Crystals on the Citadel" = ["K-R15"]``);
- ``[dice]``: the ``purpose`` of a dice request → the rulings behind that roll
  (``destiny = ["K-R08", "K-R22"]``);
- ``[teach]``: a ruling → the phases (the facts panel's ``phase``, "Activation") in
  which teach mode may pause for it, so a rule is explained when it first applies in
  the current phase, not when something it is about is merely lit (``"K-R08"`` during
  the Invasion). A ruling not named may pause in any phase; ``[]`` never pauses (it
  is still in "Why?");
- ``[positions.<name>]`` and each text's and setup step's ``examples``: the executable
  examples that back what the words claim (:mod:`kiosk.teaching.examples`);
- ``[[setup]]``: the steps of the game's physical setup, in order, for guided setup
  (:mod:`kiosk.presenters.guided_setup`): a ``title``, a plain-language ``text``, the
  ``ruling`` it rests on, which cells to ``light`` (``"piece:colossus"``,
  ``"terrain:woods"``, ``"all"``: read off the referee's initial board, never listed
  here), whether the step repeats for ``each`` seat or warband colour, and ``when``: the
  option values that keep it (``when = { chapter = [2, 3] }``). Titles and texts may
  name ``{name}`` (the seat), ``{colour}`` (the warband), ``{first}`` (who starts) and a
  facts-panel row of the seat (``{Acolytes}``), so counts come from the referee too.

A broken file is refused with a :class:`TeachingFileError` that names the file and the
key (``kolossus.toml: texts.K-R12.text: Field required``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Formatter
from typing import Annotated, Literal, TypeVar, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    StringConstraints,
    ValidationError,
)

from companion.highlights import Role
from companion.views import PieceKind, Terrain
from kiosk.teaching.examples import Example, Position

#: A ruling ID as docs/rulings.md writes them: ``K-R12``, a principle ``0.2.1`` or a
#: section ``1.6.2``.
RULING_PATTERN = r"^(?:(?:K|BM|CA|CS|BC)-R\d{2}|\d+\.\d+(?:\.\d+)?)$"
RulingId = Annotated[str, StringConstraints(pattern=RULING_PATTERN)]
#: The shared file: principles for every game, and roles no game names itself.
COMMON = "common"
#: Longest text (characters) the "Why?" panel shows whole beside its worked example.
MAX_TEXT = 700
MAX_TITLE = 48
#: Longest setup step text: it shares the 800×480 screen with the board.
MAX_SETUP_TEXT = 260
#: What a setup step may light: every cell, the cells of a terrain, the cells holding a
#: kind of piece (all read off the referee's initial board).
_TERRAINS = "|".join(get_args(Terrain))
_PIECES = "|".join(get_args(PieceKind))
LIGHT_PATTERN = rf"^(?:all|terrain:(?:{_TERRAINS})|piece:(?:{_PIECES}))$"


class TeachingFileError(ValueError):
    """A teaching file that cannot be read or does not validate (names file and key)."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


FileModel = TypeVar("FileModel", bound=BaseModel)


class RulingText(_Strict):
    """What the companion tells a newcomer about one ruling."""

    title: Annotated[str, StringConstraints(min_length=3, max_length=MAX_TITLE)]
    text: Annotated[str, StringConstraints(min_length=40, max_length=MAX_TEXT)]
    #: What the text claims, asked of the referee (:mod:`kiosk.teaching.examples`).
    examples: tuple[Example, ...] = ()


def _fields_are_names(text: str) -> str:
    """A step text's ``{fields}`` are plain names (the presenter fills them)."""
    for _literal, field, spec, conversion in Formatter().parse(text):
        if field is not None and (not field.isidentifier() or spec or conversion):
            raise ValueError(f"{{{field}}} is not a plain name to fill in")
    return text


class SetupStepText(_Strict):
    """One step of a game's physical setup, as guided setup shows it."""

    title: Annotated[
        str,
        StringConstraints(min_length=3, max_length=MAX_TITLE),
        AfterValidator(_fields_are_names),
    ]
    text: Annotated[
        str,
        StringConstraints(min_length=20, max_length=MAX_SETUP_TEXT),
        AfterValidator(_fields_are_names),
    ]
    #: The ruling the step rests on; None when no ruling is about it (a plain step of
    #: the rule book's setup, such as shuffling the decks).
    ruling: RulingId | None = None
    light: tuple[Annotated[str, StringConstraints(pattern=LIGHT_PATTERN)], ...] = ()
    each: Literal["step", "seat", "colour"] = "step"
    when: dict[Annotated[str, StringConstraints(min_length=1)], tuple[int | str | bool, ...]] = {}
    examples: tuple[Example, ...] = ()


class TeachingFile(_Strict):
    """One file: a game's texts, which rulings stand behind its roles and counts, and
    the steps of its setup."""

    prefixes: tuple[Annotated[str, StringConstraints(min_length=2)], ...]
    texts: dict[RulingId, RulingText]
    #: Named positions the examples of this file (and of the game's lesson) start from.
    positions: dict[Annotated[str, StringConstraints(min_length=2)], Position] = {}
    roles: dict[Role, tuple[RulingId, ...]] = {}
    counts: dict[Annotated[str, StringConstraints(min_length=2)], tuple[RulingId, ...]] = {}
    dice: dict[Annotated[str, StringConstraints(min_length=2)], tuple[RulingId, ...]] = {}
    teach: dict[RulingId, tuple[Annotated[str, StringConstraints(min_length=2)], ...]] = {}
    setup: tuple[SetupStepText, ...] = ()


@dataclass(frozen=True)
class Teaching:
    """Every teaching file, read: the texts by ruling ID and the per-game maps."""

    files: Mapping[str, TeachingFile]
    #: ruling ID → the file (game name or ``common``) that explains it.
    home: Mapping[str, str]

    def text(self, ruling: str | None) -> RulingText | None:
        """The text of ``ruling`` (from whichever file explains it), or None."""
        if ruling is None or ruling not in self.home:
            return None
        return self.files[self.home[ruling]].texts[ruling]

    def rulings_of_role(self, game: str, role: Role) -> tuple[str, ...]:
        """The rulings behind a highlight role in ``game`` (else the common ones)."""
        for name in (game, COMMON):
            found = self.files.get(name)
            if found is not None and role in found.roles:
                return found.roles[role]
        return ()

    def rulings_of_dice(self, game: str, purpose: str) -> tuple[str, ...]:
        """The rulings behind a roll the game asks for (its request's ``purpose``)."""
        found = self.files.get(game)
        return found.dice.get(purpose, ()) if found is not None else ()

    def applies_in(self, game: str, ruling: str, phase: str) -> bool:
        """True when teach mode may explain ``ruling`` in ``phase`` of ``game``."""
        found = self.files.get(game)
        if found is None or ruling not in found.teach:
            return True
        return phase in found.teach[ruling]

    def rulings_of_count(self, game: str, label: str) -> tuple[str, ...]:
        """The rulings behind a row label, or a fact: the longest key it starts with,
        else the longest key it contains (``"Ann at 0 Runes: …"``)."""
        counts = self.files[game].counts if game in self.files else {}
        if label in counts:
            return counts[label]
        starts = [key for key in counts if label.startswith(key)]
        inside = starts or [key for key in counts if key in label]
        return counts[max(inside, key=len)] if inside else ()


def validated(label: str, source: str, model: type[FileModel], **known: object) -> FileModel:
    """A teaching file's TOML text (plus ``known`` fields) validated into ``model``; a
    :class:`TeachingFileError` naming the file (``label``) and the key if it cannot be."""
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise TeachingFileError(f"{label}: {exc}") from None
    try:
        return model.model_validate({**data, **known})
    except ValidationError as exc:
        raise TeachingFileError(error_text(label, exc)) from None


def error_text(file: str, error: ValidationError) -> str:
    """A validation error as "file: key: message (and N more)" for a teaching file."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    more = error.error_count() - 1
    tail = f" (and {more} more)" if more else ""
    return f"{file}: {where}: {first['msg']}{tail}"


def parse_teaching(sources: Mapping[str, str]) -> Teaching:
    """Validate the files' TOML texts (file name → text) into one :class:`Teaching`.

    Besides each file's shape: every ID sits in the one file whose ``prefixes`` claim
    it, and every ruling a role or a count names has a text in some file.
    """
    files: dict[str, TeachingFile] = {}
    home: dict[str, str] = {}
    for name, source in sorted(sources.items()):
        label = f"{name}.toml"
        parsed = validated(label, source, TeachingFile)
        for ruling in parsed.texts:
            if not ruling.startswith(parsed.prefixes):
                claimed = ", ".join(parsed.prefixes)
                raise TeachingFileError(
                    f"{label}: texts.{ruling}: not one of this file's rulings ({claimed})"
                )
            if ruling in home:
                raise TeachingFileError(
                    f"{label}: texts.{ruling}: already explained in {home[ruling]}.toml"
                )
            home[ruling] = name
        files[name] = parsed
    for name, parsed in files.items():
        named = [(f"roles.{role.value}", ids) for role, ids in parsed.roles.items()]
        named += [(f"counts.{key}", ids) for key, ids in parsed.counts.items()]
        named += [(f"dice.{key}", ids) for key, ids in parsed.dice.items()]
        named += [(f"teach.{ruling}", (ruling,)) for ruling in parsed.teach]
        named += [
            (f"setup.{i}.ruling", (step.ruling,))
            for i, step in enumerate(parsed.setup)
            if step.ruling is not None
        ]
        for key, ids in named:
            missing = [ruling for ruling in ids if ruling not in home]
            if missing:
                raise TeachingFileError(f"{name}.toml: {key}: no text for {', '.join(missing)}")
    return Teaching(files=files, home=home)


@cache
def load_teaching() -> Teaching:
    """The shipped teaching files, read and validated once per process."""
    package = resources.files(__name__)
    sources = {
        entry.name.removesuffix(".toml"): entry.read_text(encoding="utf-8")
        for entry in package.iterdir()
        if entry.name.endswith(".toml")
    }
    return parse_teaching(sources)


__all__ = [
    "COMMON",
    "RulingText",
    "SetupStepText",
    "Teaching",
    "TeachingFile",
    "TeachingFileError",
    "error_text",
    "load_teaching",
    "parse_teaching",
    "validated",
]
