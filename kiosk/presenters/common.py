"""Small shared pieces: refusal banners, player colours, a field's bounds.

An action's words are the game's own (companion/rules.py, "words"): nothing here
makes a label of an action."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from pydantic.fields import FieldInfo

from companion.errors import RefereeError
from companion.journal import Damage

RGB = tuple[int, int, int]

#: Player colours for games without seat colours of their own (distinct in dim light).
SEAT_COLOURS: tuple[RGB, ...] = (
    (70, 130, 255),
    (255, 190, 0),
    (40, 210, 90),
    (240, 60, 60),
    (200, 90, 255),
    (0, 200, 200),
)


@dataclass(frozen=True)
class Banner:
    """A refusal (or a journal problem) shown until the next tap: message and ruling ID."""

    message: str
    ruling: str | None = None
    code: str = "referee_error"

    @property
    def text(self) -> str:
        message = self.message
        return f"{message}  [{self.ruling}]" if self.ruling else message

    @classmethod
    def from_error(cls, exc: RefereeError) -> Banner:
        return cls(message=exc.message, ruling=exc.ruling, code=exc.code)


RESUME_CHANGES_SHOWN = 4
"""A rules change's banner names at most this many differing counts (the rest are
counted); ``companion games`` and the referee's ``resume`` name them all."""


def resume_banner(damage: Damage) -> Banner:
    """What a resumed game's banner says about what its resume found: a damaged journal,
    or a rules update — then which counts the update would have changed, and that the
    game keeps the ones on the table."""
    if damage.kind != "rules_changed" and damage.seq == 0:
        return Banner(
            "This game's record in the journal (its players and options) was damaged; it"
            " was rebuilt from the game's moves and saved positions.",
            code="journal_error",
        )
    if damage.kind != "rules_changed":
        return Banner(
            f"The journal was damaged at move {damage.seq}; the game goes on from the"
            " last good move.",
            code="journal_error",
        )
    changes = list(damage.changes[:RESUME_CHANGES_SHOWN])
    if len(damage.changes) > RESUME_CHANGES_SHOWN:
        changes.append(f"and {len(damage.changes) - RESUME_CHANGES_SHOWN} more")
    if changes:
        what = "An update changed the rules this game was played under: " + "; ".join(changes)
        return Banner(
            f"{what}. The game keeps the counts on the table (the position saved after"
            f" move {damage.seq}).",
            code="rules_changed",
        )
    return Banner(
        "This game started under older rules; an update changed them, so it goes on"
        f" from the position saved after move {damage.seq}.",
        code="rules_changed",
    )


@lru_cache(maxsize=1024)
def humanize(name: str) -> str:
    """``"final_blow"`` → ``"Final blow"`` (the same few names, asked for every label)."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def int_bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    """The inclusive bounds a pydantic int field declares (``ge``/``gt``/``le``/``lt``)."""
    low: int | None = None
    high: int | None = None
    for item in info.metadata:
        if getattr(item, "ge", None) is not None:
            low = int(item.ge)
        if getattr(item, "gt", None) is not None:
            low = int(item.gt) + 1
        if getattr(item, "le", None) is not None:
            high = int(item.le)
        if getattr(item, "lt", None) is not None:
            high = int(item.lt) - 1
    return low, high


#: The arrow of each direction a region of a grid moves (a Quake's row or column).
ARROWS: Mapping[str, str] = {"east": "→", "west": "←", "north": "↑", "south": "↓"}

Listener = Callable[[], None]


class Observable:
    """A presenter that tells its view to redraw after every change (no Kivy needed)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._holding = 0
        self._held = False

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` after every change, after the listeners subscribed before it.
        What follows a change in the app runs in one ordered listener, the kiosk's change
        pipeline (kiosk/navigation.py), not by the order of subscriptions."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def changed(self) -> None:
        if self._holding:
            self._held = True
            return
        for listener in list(self._listeners):
            listener()

    @contextmanager
    def batched(self) -> Iterator[None]:
        """Changes made inside reach the listeners once, at the end (one redraw, one LED
        frame): a step in between is never shown."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
            if not self._holding and self._held:
                self._held = False
                self.changed()
