"""The last dice read, in words, and the roll's cue on the board and the LED strip:
shown until the next roll (issue: "the die in view").

The cue: while a roll is awaited, and in the position just after it was read, the
roller's pieces are lit as :attr:`Role.ROLL` (a slow rose breath), on the strip and the
on-screen board alike, so the table sees whose die it is without reading the screen.
It is the lowest of the roles that ask something of the player: what the game itself
lights for the roll (the Great Quake's regions, the class that will move) wins on its
cells. No cue where it does not suit: a roll-off has no one roller (every contender
rolls), and card games have no board under them.
"""

from __future__ import annotations

from companion.dice import DiceRequest
from companion.events import DiceRolled
from companion.highlights import Highlight, Role
from companion.session import Session
from companion.views import BoardView

#: How each source of a roll is named on screen (``Roll.source``).
SOURCES = {
    "electronic": "electronic die",
    "manual": "typed in",
    "software": "rolled by the companion",
}


def describe_roll(event: DiceRolled | None, players: tuple[str, ...], *, brief: bool) -> str:
    """``"Rolled 3 · Great Quake: Tua'tha rolls 1d4 · Ann · electronic die"``: the value,
    the purpose (the request's label), who rolled and the source of a roll ("" for none:
    before the first; the newest is ``History.last_roll``, kiosk/presenters/history.py).
    ``brief``: without the purpose, for while the next roll is asked for (its prompt
    names its own purpose beside it)."""
    if event is None:
        return ""
    request = event.request
    values = " + ".join(str(v) for v in event.values)
    total = f" = {sum(event.values)}" if len(event.values) > 1 else ""
    who = (
        players[request.player]
        if request.player is not None and 0 <= request.player < len(players)
        else ""
    )
    source = SOURCES.get(event.source, event.source)
    parts = [f"Rolled {values}{total}", "" if brief else request.label, who, source]
    return " · ".join(p for p in parts if p)


def just_read(session: Session) -> DiceRequest | None:
    """The request the last action answered, when that action was a roll."""
    if not session.events:
        return None
    rolled = next((e for e in session.events[-1] if isinstance(e, DiceRolled)), None)
    return None if rolled is None else rolled.request


def roll_cue(
    board: BoardView | None, request: DiceRequest | None, side: str | None
) -> tuple[Highlight, ...]:
    """The :attr:`Role.ROLL` lights of ``request``'s roller: the cells of their pieces —
    of the side to move (``side``, a Kolossus warband's colour, when a player has
    several), else of their seat. None without a board or a single roller."""
    if board is None or request is None or request.player is None:
        return ()
    seat = request.player
    cue = []
    for cell in board.cells:
        for piece in cell.pieces:  # most cells are empty: no test made for them
            if (piece.colour == side) if side is not None else (piece.player == seat):
                cue.append(Highlight(cell=cell.cell, role=Role.ROLL))
                break
    return tuple(cue)
