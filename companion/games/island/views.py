"""What both island games show (companion.views): the facts panel, the board and the
cells of every action, from the state each game knows.

The panel has the rows the kiosk's old island panel had (Gold, Acolytes in hand,
cards, the Colossus's space, Perks when any) and the Beasts as facts; each game adds
its own facts (Colossi: the Age and the Mantle). The board lists every space of the
board file once, drawn where the file puts it, with the pieces standing on it and its
controller from :func:`~.mechanics.control_map`, the computation the highlights use.

Cells: a Movement starts on its origin and ends on its destination; the spaces of its
Road chain are not touched (nothing on them changes). Actions that place, kill, harvest
or explore act upon the space they name or change; actions off the board have none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from companion import words
from companion.views import (
    NO_CELLS,
    ActionCells,
    BoardView,
    CellView,
    Feature,
    PanelRow,
    PanelView,
    Piece,
    PieceKind,
    Terrain,
)

from .board import BoardGraph
from .mechanics import control_map
from .model import (
    OFF_BOARD,
    ApplyEffect,
    CorrectSpace,
    DisplaceColossus,
    Effect,
    IslandConfig,
    IslandState,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingDisplace,
    PendingExplore,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    Spawn,
    Tile,
)
from .phrases import grass_words, space_name

NO_COLOSSUS = "—"
PERK_WIDTH = 10  # characters of a Perk's name the panel's narrow columns show

# --- the facts panel ----------------------------------------------------------------------


def beast_title(name: str) -> str:
    """A Beast's name at the start of a line: "the Beast" → "The Beast"."""
    return name[:1].upper() + name[1:]


def island_panel(
    state: IslandState,
    *,
    turn: int | None,
    phase: str,
    before: Sequence[str] = (),
    after: Sequence[str] = (),
) -> PanelView:
    """Gold, Acolytes and cards in hand, the Colossi, Perks; the Beasts between the
    game's own facts ``before`` and ``after``."""
    rows = [
        PanelRow("Gold", tuple(str(g) for g in state.gold)),
        PanelRow("Acolytes", tuple(str(a) for a in state.acolytes_in_hand)),
        PanelRow("Cards", tuple(str(c) for c in state.cards_in_hand)),
        PanelRow(
            "Colossus",
            tuple(
                "tipped" if tipped else (space_name(state.board, space) if space else NO_COLOSSUS)
                for space, tipped in zip(state.colossi, state.tipped, strict=True)
            ),
        ),
    ]
    if any(state.perks):
        rows.append(PanelRow("Perk", tuple((p or NO_COLOSSUS)[:PERK_WIDTH] for p in state.perks)))
    beasts = (f"{beast_title(b.name)} on {space_name(state.board, b.space)}" for b in state.beasts)
    return PanelView(
        columns=tuple(state.players),
        rows=tuple(rows),
        facts=(*before, *beasts, *after),
        turn=turn,
        phase=phase,
    )


# --- the board ----------------------------------------------------------------------------

GRID_WIDTH = 6  # a space without a drawing position goes on a grid this wide (kiosk/app.py)
BEAST_LABEL_LENGTH = 3


def beast_label(name: str) -> str:
    """A Beast's short label: the initials of its name without a leading "the"
    ("the Beast" → "B", "Beast II" → "BI", "Sand Wyrm" → "SW")."""
    words = name.split()
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    return "".join(w[0] for w in words)[:BEAST_LABEL_LENGTH] or "?"


#: What stands on a space, as plain values: (kind, label, player, count) per piece.
PieceKey = tuple[tuple[PieceKind, str, int | None, int], ...]


def _piece_keys(state: IslandState) -> Iterator[PieceKey]:
    """Per space in board order: the Beasts, the Colossi, each seat's Acolytes, a
    Banner, Gold cubes standing there (most spaces: nothing, found without a loop)."""
    figures: dict[str, list[tuple[PieceKind, str, int | None, int]]] = {}
    for beast in state.beasts:
        figures.setdefault(beast.space, []).append(("beast", beast_label(beast.name), None, 1))
    for seat, where in enumerate(state.colossi):
        if where is not None:
            figures.setdefault(where, []).append(("colossus", "K", seat, 1))
    for space, here in zip(state.board.ids, state.spaces, strict=True):
        found = figures.get(space, [])
        if any(here.acolytes):
            found = found + [
                ("acolyte", str(count), seat, count)
                for seat, count in enumerate(here.acolytes)
                if count
            ]
        if here.banner is not None:
            found = [*found, ("banner", "Bn", here.banner, 1)]
        if here.cubes > 0:
            found = [*found, ("gold", f"{here.cubes}g", None, here.cubes)]
        yield tuple(found)


UNEXPLORED = Feature("unexplored")


@lru_cache(maxsize=256)
def feature(tile: Tile | None) -> Feature:
    """What a space shows face up, in words: nothing yet, nothing found, or its tile."""
    if tile is None:
        return UNEXPLORED
    if tile.kind == "loot":
        rewards = [f"{tile.gold} Gold"] if tile.gold else []
        rewards += [words.count(tile.cards, "card")] if tile.cards else []
        return Feature("loot", tile.name or ", ".join(rewards) or "Loot")
    if tile.kind == "grass":
        return Feature("grass", grass_words(tile.loot))
    if tile.kind == "lair":
        return Feature("lair", tile.name or f"Lair of {tile.beast or 'a Beast'}")
    if tile.kind == "environment":
        return Feature("environment", tile.name or "Environment")
    return Feature("bare")


@lru_cache(maxsize=4096)
def _cell_view(
    space: str,
    x: float,
    y: float,
    terrain: Terrain,
    pieces: PieceKey,
    control: int | None,
    label: str,
    found: Feature,
) -> CellView:
    """One space's cell, made once for what it shows. A move changes two or three of the
    27 spaces; the others come back unchanged, and a view's dataclasses cost more to make
    than to look up (the board is built again for every state, the roll's cue included)."""
    return CellView(
        cell=space,
        x=x,
        y=y,
        terrain=terrain,
        pieces=tuple(
            Piece(kind=kind, label=text, player=player, count=count)
            for kind, text, player, count in pieces
        ),
        control=control,
        label=label,
        feature=found,
    )


@lru_cache(maxsize=16)
def _spots(graph: BoardGraph) -> tuple[tuple[str, float, float, bool, str], ...]:
    """Each space's ID, drawing position (or its place on a grid), Water and label from
    the board file: read once per board, not from its definitions for every view."""
    return tuple(
        (
            space.id,
            float(space.x if space.x is not None else i % GRID_WIDTH),
            float(space.y if space.y is not None else i // GRID_WIDTH),
            space.water,
            graph.labels[space.id],
        )
        for i, space in enumerate(graph.spaces)
    )


def island_board(state: IslandState, cfg: IslandConfig) -> BoardView:
    """Every space once, in board-file order, at its drawing position (or on a grid),
    with its label and what lies face up on it."""
    control = control_map(state, cfg)
    spaces = zip(_spots(state.board.graph), state.spaces, _piece_keys(state), strict=True)
    return BoardView(
        kind="island",
        cells=tuple(
            _cell_view(
                space,
                x,
                y,
                "water" if water or here.water else "land",
                pieces,
                control.get(space),
                label,
                feature(here.tile),
            )
            for (space, x, y, water, label), here, pieces in spaces
        ),
    )


# --- the cells of an action ---------------------------------------------------------------


def combined(parts: Iterable[ActionCells]) -> ActionCells:
    """Several effects at once: every touched cell; the one target if they share one;
    the origin only when a single effect moves a piece."""
    found = [p for p in parts if p.touched]
    if len(found) == 1:
        return found[0]
    targets = {p.target for p in found if p.target is not None}
    touched = frozenset(cell for p in found for cell in p.touched)
    return ActionCells(target=targets.pop() if len(targets) == 1 else None, touched=touched)


def effect_cells(state: IslandState, effect: Effect) -> ActionCells:
    """Where a generic effect happens: a pushed piece moves from its origin (off the
    edge: it only leaves it), a Beast moves onto ``to`` from its space, the rest act upon
    the space they name; gold, cards, Movements and Perks are off the board."""
    if isinstance(effect, MovePiece):
        if effect.to == OFF_BOARD:
            return ActionCells(origin=effect.origin, touched=frozenset((effect.origin,)))
        return ActionCells.move(effect.origin, effect.to)
    if isinstance(effect, MoveBeast):
        beast = next(
            (b for b in state.beasts if effect.beast is None or b.name == effect.beast), None
        )
        return (
            ActionCells.at(effect.to) if beast is None else ActionCells.at(effect.to, beast.space)
        )
    if isinstance(effect, KillAcolyte | PlaceWater | PlaceCubes):
        return ActionCells.at(effect.space)
    return NO_CELLS


def shared_action_cells(state: IslandState, action: object) -> ActionCells | None:
    """The cells of an action both games have (None: not one of them)."""
    if isinstance(action, Move):
        return ActionCells.move(action.origin, action.to)
    if isinstance(action, Spawn):
        # From hand onto the Colossus's space, then maybe on: the end is what changes.
        to = action.to if action.to is not None else state.colossi[state.active]
        return NO_CELLS if to is None else ActionCells.at(to)
    if isinstance(action, DisplaceColossus):
        head = state.pending[0] if state.pending else None
        if isinstance(head, PendingDisplace):
            return ActionCells.move(head.space, action.to)
        return ActionCells.at(action.to)
    if isinstance(action, ApplyEffect):
        return effect_cells(state, action.effect)
    if isinstance(action, PlayCard):
        return combined(effect_cells(state, e) for e in action.effects)
    if isinstance(action, CorrectSpace):
        return ActionCells.at(action.space)
    return None


def exploring_space(state: IslandState) -> str | None:
    """The space the game waits to explore (the answer to it acts upon that space)."""
    head = state.pending[0] if state.pending else None
    return head.space if isinstance(head, PendingExplore) else None


__all__ = [
    "beast_label",
    "beast_title",
    "combined",
    "effect_cells",
    "exploring_space",
    "feature",
    "island_board",
    "island_panel",
    "shared_action_cells",
]
