"""Card games chosen on the table drawn on screen: each card, pile or tracker a tile.

A card game has no board, but it lays cards out (``Rules.cards``: Builders' face-up
Blueprints, each player's Runes, the stockpile; the solo game's Colossus card and
trackers). Each tile is a "cell" of that layout: :func:`tile_cells` says which tiles a
legal action names, as ``Rules.action_cells`` does for a board's squares, so the play
presenter's ``actions_at`` answers "what does a touch on this tile do" the same way for
both. One touch on a tile with exactly one action plays it (:func:`tap_tile`); several
narrow the action menu to them; the menu stays as the fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.builders import views as builders
from companion.games.colossus_solo import views as solo
from companion.views import NO_CELLS, ActionCells, CardView

if TYPE_CHECKING:
    from kiosk.presenters.play import PlayPresenter

Payload = Mapping[str, Any]


def _builders_tiles(payload: Payload) -> tuple[str, ...]:
    """Builders: a Curse is the stockpile's (BC-R09), a Draw the deck's, a Trade or a
    Reveal the other player's, a Build its Blueprint's slot, a single winner the
    winner's place (BC-R12; a shared victory stays in the menu)."""
    kind = payload.get("type")
    if kind == "curse":
        return (builders.STOCKPILE,)
    if kind == "draw":
        return (builders.PARTS_DECK,)
    if kind == "trade":
        return (builders.seat_key(int(payload["partner"])),)
    if kind == "reveal":
        return (builders.seat_key(int(payload["target"])),)
    if kind == "build":
        return (builders.slot_key(int(payload["slot"])),)
    if kind == "pick_winner" and len(payload["seats"]) == 1:
        return (builders.seat_key(int(payload["seats"][0])),)
    return ()


#: The solo game's actions by the tile they are about (a power or a penalty is paid on
#: the tracker it costs, CS-R04).
_SOLO_TILES: dict[str, str] = {
    "enter_colossus_card": solo.COLOSSUS,
    "resolve_card": solo.COLOSSUS,
    "enter_stats": solo.PLAYING_AREA,
    "enter_medallions": solo.PLAYING_AREA,
    "destroy_cards": solo.PLAYING_AREA,
    "discard_power_card": solo.HAND,
    "enter_final_blow": solo.FINAL_BLOW,
}


def _solo_tiles(payload: Payload) -> tuple[str, ...]:
    kind = str(payload.get("type"))
    if kind in ("use_power", "pay_penalty"):
        return (solo.WEAKNESS if payload.get("pay") == "weakness" else solo.GRIP,)
    tile = _SOLO_TILES.get(kind)
    return () if tile is None else (tile,)


#: Which tiles each card game's actions name, by the game's name.
TILES_OF: dict[str, Callable[[Payload], tuple[str, ...]]] = {
    "builders": _builders_tiles,
    "colossus_solo": _solo_tiles,
}


def tile_cells(game: str, payload: Payload) -> ActionCells:
    """The tiles ``payload`` names, as the cells of the card layout: the first is its
    target (one touch there plays it when nothing else happens there)."""
    tiles_of = TILES_OF.get(game)
    tiles = () if tiles_of is None else tiles_of(payload)
    return ActionCells.at(*tiles) if tiles else NO_CELLS


def has_tiles(game: str) -> bool:
    return game in TILES_OF


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

    @property
    def plays(self) -> bool:
        """One touch plays its action (it names exactly one)."""
        return self.actions == 1


def tiles(
    cards: tuple[CardView, ...],
    payloads: list[dict[str, Any]],
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


def tap_tile(presenter: PlayPresenter, key: str) -> bool:
    """A touch on a tile: its one action played (True when played), or the menu
    narrowed to its actions, on the group of the first (a second touch widens it again).
    A tile with no action now clears the narrowing."""
    found = presenter.payloads_at(key)
    if len(found) == 1:
        return presenter.submit(found[0])
    presenter.preview = None
    if found and presenter.focus != key:
        presenter.focus = key
        presenter.group = str(found[0].get("type"))
    else:
        presenter.focus = None
    presenter.changed()
    return False


def tile_taps(presenter: PlayPresenter, payload: dict[str, Any]) -> tuple[str, ...]:
    """The tiles to touch to play ``payload`` (empty when no tile plays it alone)."""
    if not has_tiles(presenter.rules.name):
        return ()
    at = tile_cells(presenter.rules.name, payload)
    target = at.target
    if target is None or presenter.payloads_at(target) != (payload,):
        return ()
    return (target,)
