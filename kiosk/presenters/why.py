"""The "Why?" panel: the rule behind a refusal, a lit cell or a count, and what it
means right now.

The texts come from :mod:`kiosk.teaching` (one file per game, keyed by ruling ID); which
rulings stand behind a highlight role, a facts-panel count or a roll is data there too,
so nothing here names a game. The worked example is read off the current position the
play presenter already has (its status line, facts panel, highlights, focus, dice
request and last move): what was refused, which cells are lit, what each count says now.

No Kivy: the play screen shows a :class:`WhyView`, and the presenter tests read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.dice import DiceRequest
from companion.highlights import Highlight, Role
from companion.views import PanelView
from kiosk.presenters.common import Banner
from kiosk.teaching import Teaching

#: Cells named in a worked example before "and N more" (a quake lights 50+ squares).
MAX_CELLS_NAMED = 8
#: The heading of the "Why?" panel opened from the header (not from a refusal).
TABLE_HEADING = "Why? The rules behind what you see"

#: What each role lights, in words (the role's rulings say why).
ROLE_WORDS: dict[Role, str] = {
    Role.SELECTABLE: "may act now",
    Role.SELECTED: "the piece you picked",
    Role.REACHABLE: "where it may go",
    Role.PATH: "the way it would take",
    Role.CAPTURABLE: "enemies it can beat",
    Role.BLOCKED: "where it cannot go",
    Role.TARGET: "what its weapon can hit",
    Role.REBIRTH: "where a beaten piece may return",
    Role.QUAKE_REGION: "what may quake",
    Role.FALLS_OFF: "what would fall off",
    Role.CITADEL: "the Citadel with crystals on it",
    Role.CONTROL: "who controls what",
    Role.BEAST: "where a Beast is",
    Role.BANNER: "Banners",
    Role.HARVESTABLE: "what you may harvest",
    Role.FIX: "what to change on the table",
    Role.REMOVE: "pieces the game does not have there (the sensing board)",
    Role.PLACE: "pieces the game has there that the board does not sense",
    Role.ROLL: "whose die is awaited or was just read",
    Role.SUGGESTED: "what the lesson's suggested move acts upon",
    Role.SETUP: "where this setup step's pieces go",
}


@dataclass(frozen=True)
class Position:
    """What the worked example reads: the play presenter's view of the current state."""

    status: str
    panel: PanelView
    highlights: tuple[Highlight, ...] = ()
    focus: str | None = None
    last: str = ""  # the last move, as the log tells it
    dice: DiceRequest | None = None  # the roll the game waits for
    #: A cell in the board's own words (``Rules.cell_words``): "(1, 2)", never "1,2".
    cell_words: Callable[[str], str] = str


@dataclass(frozen=True)
class WhyEntry:
    """One ruling: its ID, title and text, and what it explains at this table now."""

    ruling: str
    title: str
    text: str
    here: tuple[str, ...]


@dataclass(frozen=True)
class WhyView:
    """The "Why?" panel: a heading, where the game stands, and the rulings in order."""

    heading: str
    situation: tuple[str, ...]
    entries: tuple[WhyEntry, ...]


def can_explain(teaching: Teaching, banner: Banner | None) -> bool:
    """True when the banner's ruling has a text (the banner then offers "Why?")."""
    return banner is not None and teaching.text(banner.ruling) is not None


def _situation(position: Position, *, status: bool = True) -> tuple[str, ...]:
    """Where the game stands (``status``: with the status line, which teach mode's
    pause leaves to the header right above it in its narrow column)."""
    lines = [f"Now: {position.status}"] if status and position.status else []
    if position.last:
        lines.append(f"Last move: {position.last}")
    if position.focus is not None:
        lines.append(f"Picked: {position.cell_words(position.focus)}")
    return tuple(lines)


def _row_now(panel: PanelView, label: str, values: tuple[str, ...]) -> str:
    """``"Mana now: Ann 3, Bob 5"``; a solo game's one column needs no name."""
    if len(values) == 1:
        return f"{label} now: {values[0]}"
    pairs = zip(panel.columns, values, strict=False)
    return f"{label} now: {', '.join(f'{name} {value}' for name, value in pairs)}"


def _cells(cells: list[str]) -> str:
    shown = "; ".join(cells[:MAX_CELLS_NAMED])
    more = len(cells) - MAX_CELLS_NAMED
    return f"{shown} and {more} more" if more > 0 else shown


def _count_lines(teaching: Teaching, game: str, panel: PanelView) -> list[tuple[str, str]]:
    """(ruling, the count's value now) for every row and fact the game's file maps."""
    out: list[tuple[str, str]] = []
    for row in panel.rows:
        line = _row_now(panel, row.label, row.values)
        out.extend((ruling, line) for ruling in teaching.rulings_of_count(game, row.label))
    for fact in panel.facts:
        out.extend((ruling, f"Now: {fact}") for ruling in teaching.rulings_of_count(game, fact))
    return out


def _role_lines(teaching: Teaching, game: str, position: Position) -> list[tuple[str, str]]:
    """(ruling, which cells the role lights) for every role lit now, in the order of
    :class:`Role` (what may act and where it may go before the Citadel or control)."""
    lit: dict[Role, list[str]] = {}
    for light in position.highlights:
        cells = lit.setdefault(light.role, [])
        if light.cell not in cells:
            cells.append(light.cell)
    out: list[tuple[str, str]] = []
    for role in Role:
        cells = lit.get(role, [])
        if cells:
            said = [position.cell_words(cell) for cell in cells]
            line = f"Lit as {ROLE_WORDS[role]} ({len(cells)}): {_cells(said)}"
            out.extend((ruling, line) for ruling in teaching.rulings_of_role(game, role))
    return out


def _entries(teaching: Teaching, lines: Iterable[tuple[str, str]]) -> tuple[WhyEntry, ...]:
    """One entry per ruling, in first-mention order, with every line that cites it."""
    here: dict[str, list[str]] = {}
    for ruling, line in lines:
        if teaching.text(ruling) is None:
            continue
        said = here.setdefault(ruling, [])
        if line not in said:
            said.append(line)
    entries = []
    for ruling, said in here.items():
        text = teaching.text(ruling)
        assert text is not None  # filtered above
        entries.append(WhyEntry(ruling, text.title, text.text, tuple(said)))
    return tuple(entries)


def explain_refusal(
    teaching: Teaching, game: str, banner: Banner, position: Position
) -> WhyView | None:
    """The rule behind a refusal, with the refusal itself and the counts that ruling
    is about as they stand (None when the ruling has no text)."""
    ruling = banner.ruling
    if ruling is None or teaching.text(ruling) is None:
        return None
    lines = [(ruling, f"Refused: {banner.message}")]
    lines += [(r, line) for r, line in _count_lines(teaching, game, position.panel) if r == ruling]
    lines += [(r, line) for r, line in _role_lines(teaching, game, position) if r == ruling]
    return WhyView(
        heading="Why was that refused?",
        situation=_situation(position),
        entries=_entries(teaching, lines),
    )


def _dice_lines(teaching: Teaching, game: str, dice: DiceRequest | None) -> list[tuple[str, str]]:
    """(ruling, the roll awaited) for the dice the game waits for, if any."""
    if dice is None:
        return []
    line = f"Waiting for: {dice.label}"
    return [(ruling, line) for ruling in teaching.rulings_of_dice(game, dice.purpose)]


def explain_count(teaching: Teaching, game: str, count: str, position: Position) -> WhyView | None:
    """The rules behind one count of the facts panel (a row's label or a fact's text),
    with its value now (None: no ruling stands behind it, such as the step's name)."""
    panel = position.panel
    rows = [row for row in panel.rows if row.label == count]
    line = _row_now(panel, count, rows[0].values) if rows else f"Now: {count}"
    lines = [(ruling, line) for ruling in teaching.rulings_of_count(game, count)]
    if not lines:
        return None
    heading = count if rows else count.partition(":")[0]
    return WhyView(
        heading=f"Why? {heading}",
        situation=_situation(position),
        entries=_entries(teaching, lines),
    )


def first_time(
    teaching: Teaching, game: str, position: Position, seen: frozenset[str]
) -> WhyView | None:
    """Teach mode's pause: the first ruling that matters now (the roll awaited, then the
    roles lit), applies in the current phase (the file's ``[teach]``) and has not been
    shown in this game, with what it means here; None when every ruling that matters
    now was shown."""
    lines = _dice_lines(teaching, game, position.dice)
    lines += _role_lines(teaching, game, position)
    phase = position.panel.phase
    new = [
        (ruling, line)
        for ruling, line in lines
        if ruling not in seen and teaching.applies_in(game, ruling, phase)
    ]
    if not new:
        return None
    ruling = new[0][0]
    entries = _entries(teaching, [(r, line) for r, line in new if r == ruling])
    return WhyView(
        heading="A new rule",
        situation=_situation(position, status=False),
        entries=entries,
    )


def explain_table(teaching: Teaching, game: str, position: Position) -> WhyView:
    """The rules behind the roll awaited, what is lit now and every count of the panel."""
    lines = _dice_lines(teaching, game, position.dice)
    lines += _role_lines(teaching, game, position)
    lines += _count_lines(teaching, game, position.panel)
    return WhyView(
        heading=TABLE_HEADING,
        situation=_situation(position),
        entries=_entries(teaching, lines),
    )
