"""The last dice read, in words: shown until the next roll (issue: "the die in view")."""

from __future__ import annotations

from companion.events import DiceRolled
from companion.session import Session

#: How each source of a roll is named on screen (``Roll.source``).
SOURCES = {
    "electronic": "electronic die",
    "manual": "typed in",
    "software": "rolled by the companion",
}


def last_roll(session: Session) -> str:
    """``"Rolled 3 · Great Quake: Tua'tha rolls 1d4 · Ann · electronic die"``: the value,
    the purpose (the request's label), who rolled and the source of the newest roll
    of the game so far ("" before the first); an undone roll is no longer the last."""
    players = tuple(session.state.players)
    for events in reversed(session.events):
        for event in events:
            if isinstance(event, DiceRolled):
                request = event.request
                values = " + ".join(str(v) for v in event.values)
                total = f" = {sum(event.values)}" if len(event.values) > 1 else ""
                who = (
                    players[request.player]
                    if request.player is not None and 0 <= request.player < len(players)
                    else ""
                )
                source = SOURCES.get(event.source, event.source)
                parts = [f"Rolled {values}{total}", request.label, who, source]
                return " · ".join(p for p in parts if p)
    return ""
