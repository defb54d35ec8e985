"""Touches on the board and on a card game's tiles, the selection and the preview.

:class:`BoardInput` owns what the players picked: the focused cell (its legal squares
light up, the menu narrows to its actions), the menu group shown, and a region move's
preview. Its rules live here and nowhere else: a new tap clears the preview; a tap on a
square one legal action of the picked piece names plays it; an edge arrow previews its
region move and the same arrow again plays it; a tile with one action plays it. Every
action goes through the presenter's ``submit``; the presenter clears the selection
after each change of state (:meth:`BoardInput.clear`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.highlights import Highlight
from firmware_bridge.leds.palette import Palette
from kiosk.presenters import cards
from kiosk.presenters.board import BoardGeometry, BoardView, board_view, geometry_of
from kiosk.presenters.common import RGB
from kiosk.presenters.island import dressing
from kiosk.presenters.menus import CORRECTIONS_GROUP
from kiosk.presenters.payloads import Payload
from kiosk.presenters.queries import NotAsked, StateQueries
from kiosk.presenters.regions import (
    Arrows,
    Preview,
    arrow_decorations,
    edge_arrows,
    is_region_move,
    region_preview,
)


class BoardInput:
    """The selection (focus, group, preview) and every touch on the board or a tile."""

    def __init__(
        self,
        queries: StateQueries,
        submit: Callable[[object], bool],
        changed: Callable[[], None],
        palette: Palette,
        seat_colours: tuple[RGB, ...],
        *,
        held: Callable[[], bool],
    ) -> None:
        self._queries = queries
        self._submit = submit
        self._changed = changed
        #: True (the refusal shown) when a person's input must wait: the turn is held
        #: by a seat not at the screen (PlayPresenter.hold_turn).
        self._held = held
        #: The LED palette of the game's board: the on-screen board uses the same.
        self.palette = palette
        self._seat_colours = seat_colours
        self._geometry: BoardGeometry | NotAsked | None = NotAsked()  # None: a card game
        #: The cell picked (a piece, a tile, an edge arrow); None: nothing picked.
        self.focus: str | None = None
        #: The menu group shown (None: the menu's own choice).
        self.group: str | None = None
        #: A region move shown on the board before it is played (see ``regions``).
        self.preview: Preview | None = None

    # --- the selection, set by the presenter and the sensing board ------------------------

    def clear(self) -> None:
        """A new position: nothing picked, nothing previewed (the group stays)."""
        self.focus = None
        self.preview = None

    def select(self, cell: str | None) -> None:
        """Pick ``cell`` (or nothing) without a tap: a miniature lifted off a sensing board.
        The caller redraws."""
        self.focus = cell

    def show_group(self, group: str | None) -> None:
        """Show ``group``'s actions in the menu (None: the menu's own choice). The caller
        redraws."""
        self.group = group

    def toggle_group(self, key: str) -> None:
        """A tap on a group's tab: show it; a second tap on "Correct the table" closes
        that list."""
        self.group = None if key == CORRECTIONS_GROUP and self.group == key else key

    def correct_at(self, cell: str) -> None:
        """Open the manual corrections about ``cell`` (RULINGS 0.2.1). The caller redraws."""
        self.focus = cell
        self.group = CORRECTIONS_GROUP

    # --- touches ------------------------------------------------------------------------

    def tap_cell(self, cell: str) -> bool:
        """A tap on the board: pick a piece, or play the one legal move to that square.

        With a piece selected, a tap on a square that exactly one legal action of that
        piece names plays it; several candidates narrow the action menu instead. Any
        other tap selects the tapped cell (its legal squares light up) or clears it.
        An edge arrow previews its region move; the same arrow again plays it.
        """
        if self._held():
            return False
        arrows = self.arrows()
        if cell in arrows:
            return self._tap_arrow(cell, arrows[cell])
        self.preview = None
        queries = self._queries
        if self.focus is None:
            placed = queries.placed_at(cell)
            if placed is not None:
                return self._submit(placed)
        if self.focus is not None and cell != self.focus:
            at_focus = queries.actions_at(self.focus)
            candidates = [p for p, c in at_focus if c.origin == self.focus and c.target == cell]
            if not candidates:  # an action naming both cells another way (a Hammer's targets)
                candidates = [p for p, c in at_focus if cell in c.touched]
            if len(candidates) == 1:
                return self._submit(candidates[0])
            if candidates:
                self.group = str(candidates[0].get("type"))
                self._changed()
                return False
        self.focus = None if cell == self.focus else cell
        self._changed()
        return False

    def tap_tile(self, key: str) -> bool:
        """A touch on a card game's tile: its one action played (True when played), or
        the menu narrowed to its actions, on the group of the first (a second touch
        widens it again). A tile with no action now clears the narrowing."""
        if self._held():
            return False
        found = self._queries.payloads_at(key)
        if len(found) == 1:
            return self._submit(found[0])
        self.preview = None
        if found and self.focus != key:
            self.focus = key
            self.group = str(found[0].get("type"))
        else:
            self.focus = None
        self._changed()
        return False

    def _tap_arrow(self, cell: str, moves: tuple[Payload, ...]) -> bool:
        """Preview the arrow's first move; the same arrow again plays the one previewed
        (an arrow holding several distances previews the next, the menu lists them)."""
        shown = self.preview
        if shown is not None and shown.arrow == cell:
            index = moves.index(shown.payload) if shown.payload in moves else -1
            if len(moves) == 1:
                return self._submit(moves[0])
            chosen = moves[(index + 1) % len(moves)]
        else:
            chosen = moves[0]
        queries = self._queries
        line = queries.listed_cells()[queries.legal_payloads().index(chosen)]
        state = queries.derived().state
        players = queries.players
        self.preview = region_preview(queries.rules, state, cell, chosen, line, players)
        self.focus = cell
        self.group = str(chosen.get("type"))
        self._changed()
        return False

    def board_taps(self, payload: Payload) -> tuple[str, ...]:
        """The cells to touch to play the listed action ``payload`` on the board, in
        order (empty when the board cannot choose it): a piece's square, then its
        destination, when no other action of that piece ends there; the cell a piece
        is put on, when nothing else happens there; a region move's
        arrow twice (preview, play) when it is the arrow's only move."""
        for cell, moves in self.arrows().items():
            if payload in moves:
                return (cell, cell) if len(moves) == 1 else ()
        queries = self._queries
        payloads = queries.legal_payloads()
        if payload not in payloads:
            return ()
        cells = queries.listed_cells()[payloads.index(payload)]
        origin, target = cells.origin, cells.target
        if origin is None and target is not None and queries.placed_at(target) == payload:
            return (target,)
        if origin is None or target is None or origin == target:
            return ()
        ending = [
            p for p, c in queries.actions_at(origin) if c.origin == origin and c.target == target
        ]
        return (origin, target) if ending == [payload] else ()

    # --- what the board shows -------------------------------------------------------------

    def geometry(self) -> BoardGeometry | None:
        """Where the board's cells are drawn (None for card games); fixed for a game."""
        if isinstance(self._geometry, NotAsked):
            board = self._queries.board()
            self._geometry = None if board is None else geometry_of(board)
        return self._geometry

    def arrows(self) -> Arrows:
        """The region moves by the edge cell whose arrow plays them (made once per
        state; nothing is asked of the rules' cells unless a region move is listed)."""
        queries = self._queries
        derived = queries.derived()
        if derived.arrows is None:
            payloads, geometry, role = queries.legal_payloads(), self.geometry(), queries.role
            derived.arrows = (
                edge_arrows(payloads, queries.listed_cells(), geometry, role)
                if geometry is not None and any(is_region_move(p, role) for p in payloads)
                else {}
            )
        return derived.arrows

    def view(self, highlights: tuple[Highlight, ...]) -> BoardView | None:
        """The on-screen board: the rules' board view dressed, lit with ``highlights`` as
        the LEDs (made again only when the state, the focus or the highlights changed)."""
        queries = self._queries
        board, geometry = queries.board(), self.geometry()
        if board is None or geometry is None:
            return None
        derived = queries.derived()
        focus = self.focus
        last = derived.board_view
        if last is not None and last[0] == focus and last[1] is highlights:
            return last[2]
        if self.preview is not None:  # the line as the previewed move leaves it
            base, decorations = dressing(
                self.preview.board, self._seat_colours, self._queries.players
            )
            decorations += arrow_decorations(self.arrows())
        else:
            if isinstance(derived.dressing, NotAsked):
                base, decorations = dressing(board, self._seat_colours, self._queries.players)
                derived.dressing = (base, decorations + arrow_decorations(self.arrows()))
            base, decorations = derived.dressing
        shown = board_view(
            self.palette,
            geometry,
            highlights,
            focus=focus,
            base=base,
            decorations=decorations,
        )
        arrows = self.arrows()
        if arrows:  # every arrow is a place to touch, lit or not
            shown = replace(shown, targets=shown.targets | frozenset(arrows))
        derived.board_view = (focus, highlights, shown)
        return shown

    def card_tiles(self) -> tuple[cards.Tile, ...]:
        """A card game's cards as tiles to touch (none for board games)."""
        queries = self._queries
        if not queries.tiled:
            return ()
        derived = queries.derived()
        found = derived.tiles.get(self.focus)
        if found is None:
            listed = queries.legal_payloads()
            found = cards.tiles(queries.cards(), listed, queries.listed_cells(), self.focus)
            derived.tiles[self.focus] = found
        return found
