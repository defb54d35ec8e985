"""Card games chosen on the table drawn on screen: each card, pile or tracker a tile.

A card game has no board, but it lays cards out (``Rules.cards``: Builders' face-up
Blueprints, each player's Runes, the stockpile; the solo game's Colossus card and
trackers). Each tile is a "cell" of that layout: the game's ``Rules.action_cells`` says
which tiles a legal action names, as it does a board's squares, so the play presenter's
``actions_at`` answers "what does a touch on this tile do" the same way for both (and
nothing here names a game). One touch on a tile with exactly one action plays it
(``BoardInput.tap_tile``); several narrow the action menu to them; the menu stays as
the fallback.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from companion.highlights import Highlight
from companion.views import ActionCells, CardView
from kiosk.presenters.payloads import Payload


class TileReader(Protocol):
    """What :func:`tile_taps` reads of the position (the play presenter's queries)."""

    @property
    def tiled(self) -> bool: ...

    def cells_of(self, payload: Mapping[str, object]) -> ActionCells: ...

    def payloads_at(self, cell: str) -> tuple[Payload, ...]: ...


@dataclass(frozen=True)
class Tile:
    """A card drawn on screen: its words, how many legal actions it is about, whether
    it is the one picked (the menu narrowed to it)."""

    key: str
    title: str
    text: str
    actions: int
    selected: bool
    seat: int | None = None
    lit: bool = False  # lit as the LEDs would be: the companion's move names it

    @property
    def plays(self) -> bool:
        """One touch plays its action (it names exactly one)."""
        return self.actions == 1


def tiles(
    cards: tuple[CardView, ...],
    payloads: list[Payload],
    cells: tuple[ActionCells, ...],
    focus: str | None,
) -> tuple[Tile, ...]:
    """The tiles of ``cards`` with the listed actions each names (``cells``, in the
    order of ``payloads``)."""
    counts: dict[str, int] = {}
    for at in cells:
        for key in at.touched:
            counts[key] = counts.get(key, 0) + 1
    return tuple(
        Tile(
            key=card.key,
            title=card.title,
            text="\n".join(card.lines),
            actions=counts.get(card.key, 0),
            selected=card.key == focus,
            seat=card.seat,
        )
        for card in cards
    )


def lit_by(tiles: tuple[Tile, ...], highlights: Iterable[Highlight]) -> tuple[Tile, ...]:
    """``tiles`` with those a highlight names lit (what a board's squares would show:
    the companion's move, the tiles it is about)."""
    cells = {mark.cell for mark in highlights}
    if all((tile.key in cells) == tile.lit for tile in tiles):
        return tiles  # the same tiles (made once per state and focus)
    return tuple(replace(tile, lit=tile.key in cells) for tile in tiles)


def tile_taps(queries: TileReader, payload: Payload) -> tuple[str, ...]:
    """The tiles to touch to play ``payload`` (empty when no tile plays it alone)."""
    if not queries.tiled:
        return ()
    target = queries.cells_of(payload).target
    if target is None or queries.payloads_at(target) != (payload,):
        return ()
    return (target,)
