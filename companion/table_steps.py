"""Fix steps as hands make them: what to lift from where it stands, where it goes.

After an action the physical table still shows the position before it. The rules' two
board views (before and after) say what changed; :func:`hand_steps` turns that into one
:class:`HandStep` per hand movement, in an order hands can follow:

* each step lifts one thing (a miniature, a landscape with what stands on it, a heap of
  counters) from where it stands now — the square lit red — and puts it where it goes —
  lit green — or takes it off the board, or puts a new one on;
* a beaten miniature is lifted off before the winner moves onto its square, and a line
  of a Quake moves the far end first: on a grid no step ever needs two miniatures (or
  two landscapes) on one square;
* a ring of moves with no free square to start from (a swap, a line moving round) is
  opened by lifting one piece into the hand in the ring's first step and putting it down
  in the last: a swap is two steps.

Cells are named in the board's own coordinate words (``Rules.cell_words``). A game's
own :class:`~companion.highlights.TableChange` steps that the board views cannot show (a
Colossus laid on its side, a tile turned, crystals given to a player) stay as steps of
their own after the hand moves (:func:`walk_steps`). Pure: no I/O, no state kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from companion.highlights import Highlight, Role, TableChange
from companion.views import PIECE_LOOKS, SENSED_KINDS, BoardView, CellView, Piece, PieceKind
from companion.words import count

#: Terrains with no landscape piece on them (a board's own squares and spaces).
BARE_TERRAINS = frozenset({"bare", "land", "water"})

#: Kinds that lie as a heap of counters: moved and counted by the piece, not one by one.
COUNTED_KINDS: frozenset[PieceKind] = frozenset(
    {k for k, look in PIECE_LOOKS.items() if look.carries in ("count", "count_owner")}
) | {"crystal"}

_KIND_WORDS: Mapping[str, tuple[str, str]] = {
    "colossus": ("Colossus", "Colossi"),
    "guardian": ("Guardian", "Guardians"),
    "warrior": ("Warrior", "Warriors"),
    "acolyte": ("Acolyte", "Acolytes"),
    "crystal": ("Crystal", "Crystals"),
    "beast": ("Beast", "Beasts"),
    "token": ("token", "tokens"),
    "banner": ("Banner", "Banners"),
    "gold": ("Gold cube", "Gold cubes"),
}

Thing = tuple[str, str, int | None, str | None, str]
"""What a hand lifts, told apart as players tell it: kind, label (for miniatures), owner,
colour, and for a landscape its terrain (kind ``"landscape"``)."""

MINIATURE, LANDSCAPE, HEAP = "miniature", "landscape", "heap"
"""What a grid square holds at most one of (a miniature, a landscape) and heaps."""


@dataclass(frozen=True, slots=True)
class HandStep:
    """One hand movement of a fix-the-table walk-through.

    ``lift``: the cells something is lifted from (lit red); ``put``: the cells it goes
    to (lit green); ``fix``: a game's step the board cannot show (lit as a fix).
    ``sensed``: the step moves only miniatures and landscapes, so a sensing board can
    see it done; ``kinds``: what it moves, in lower-case words (``"crystal"``, a Beast's
    name), to find a game's step about it; ``seen``: the cells every step so far
    touched, and ``minis`` / ``lands`` those of them holding a miniature / a landscape
    once this step is done.
    """

    text: str
    lift: tuple[str, ...] = ()
    put: tuple[str, ...] = ()
    fix: tuple[str, ...] = ()
    sensed: bool = False
    kinds: tuple[str, ...] = ()
    seen: frozenset[str] = frozenset()
    minis: frozenset[str] = frozenset()
    lands: frozenset[str] = frozenset()

    @property
    def cells(self) -> tuple[str, ...]:
        return (*self.lift, *self.put, *self.fix)

    def highlights(self, step: int) -> tuple[Highlight, ...]:
        """What the board and the LEDs light for this step (numbered ``step``): red where
        something is lifted, green where it goes, the fix colour for a game's own step."""
        return (
            *(Highlight(cell=c, role=Role.REMOVE, step=step) for c in self.lift),
            *(Highlight(cell=c, role=Role.PLACE, step=step) for c in self.put),
            *(Highlight(cell=c, role=Role.FIX, step=step) for c in self.fix),
        )


@dataclass
class _Move:
    """Units of one thing going from ``origin`` (None: from the box) to ``target``
    (None: off the board)."""

    thing: Thing
    origin: str | None
    target: str | None
    units: int = 1
    held: Thing | None = None  # lifted off ``target`` into the hand first (a ring)
    from_hand: bool = False  # put down from the hand (the end of a ring)

    @property
    def slot(self) -> str:
        return _slot(self.thing[0])


def _slot(kind: str) -> str:
    """What a square holds one of: a landscape, a miniature; or a heap (no limit)."""
    if kind == LANDSCAPE:
        return LANDSCAPE
    return MINIATURE if kind in SENSED_KINDS else HEAP


def _changed(before: BoardView, after: BoardView) -> tuple[list[CellView], list[CellView]]:
    """The cells that differ, as they were and as they are (most of a board does not
    change: a plan on a Pi must stay cheap)."""
    if len(before.cells) == len(after.cells):  # a board's cells in one order: pair them
        pairs = list(zip(before.cells, after.cells, strict=True))
        if all(a.cell == b.cell for a, b in pairs):
            differ = [(a, b) for a, b in pairs if a is not b and _held(a) != _held(b)]
            return [a for a, _ in differ], [b for _, b in differ]
    old = {c.cell: c for c in before.cells}
    new = {c.cell: c for c in after.cells}
    keys = [k for k in old.keys() | new.keys() if _held(old.get(k)) != _held(new.get(k))]
    return [old[k] for k in keys if k in old], [new[k] for k in keys if k in new]


def _held(cell: CellView | None) -> object:
    """What a hand can move on a cell: its landscape and pieces."""
    return None if cell is None else (cell.terrain, cell.pieces)


def _things(cells: Iterable[CellView]) -> dict[str, Counter[Thing]]:
    found: dict[str, Counter[Thing]] = {}
    for cell in cells:
        here: Counter[Thing] = Counter()
        if cell.terrain not in BARE_TERRAINS:
            here[(LANDSCAPE, "", None, None, cell.terrain)] += 1
        for piece in cell.pieces:
            here[_thing(piece)] += piece.count
        if here:
            found[cell.cell] = here
    return found


def _thing(piece: Piece) -> Thing:
    label = "" if piece.kind in COUNTED_KINDS else piece.label
    return (piece.kind, label, piece.player, piece.colour, "")


def _pair(
    sources: list[str], targets: list[str], place: Callable[[str], tuple[float, float]]
) -> list[tuple[str | None, str | None]]:
    """Sources and targets of one thing paired in board order, the unpaired ones off
    the board or from the box; of the ways to line them up, the shortest hand travel
    (a Quake's line: the fallen end is the one left over)."""
    src = sorted(sources, key=lambda c: (place(c)[1], place(c)[0], c))
    dst = sorted(targets, key=lambda c: (place(c)[1], place(c)[0], c))
    short, long_, flip = (src, dst, False) if len(src) <= len(dst) else (dst, src, True)

    def travel(offset: int) -> float:
        return sum(
            abs(place(a)[0] - place(b)[0]) + abs(place(a)[1] - place(b)[1])
            for a, b in zip(short, long_[offset:], strict=False)
        )

    best = min(range(len(long_) - len(short) + 1), key=travel)
    paired = list(zip(short, long_[best : best + len(short)], strict=True))
    rest = long_[:best] + long_[best + len(short) :]
    pairs: list[tuple[str | None, str | None]] = [(b, a) if flip else (a, b) for a, b in paired]
    pairs += [(c, None) for c in rest] if flip else [(None, c) for c in rest]
    return pairs


def _moves(was: list[CellView], now: list[CellView]) -> list[_Move]:
    old, new = _things(was), _things(now)
    places = {c.cell: (c.x, c.y) for c in (*was, *now)}

    def place(cell: str) -> tuple[float, float]:
        return places.get(cell, (0.0, 0.0))

    lost: dict[Thing, list[str]] = {}
    gained: dict[Thing, list[str]] = {}
    for cell in sorted(old.keys() | new.keys()):
        diff = new.get(cell, Counter())
        diff.subtract(old.get(cell, Counter()))
        for thing, n in diff.items():
            side = gained if n > 0 else lost
            side.setdefault(thing, []).extend([cell] * abs(n))
    moves: dict[tuple[Thing, str | None, str | None], _Move] = {}
    for thing in sorted(lost.keys() | gained.keys(), key=repr):
        for origin, target in _pair(lost.get(thing, []), gained.get(thing, []), place):
            key = (thing, origin, target)
            if key in moves:
                moves[key].units += 1
            else:
                moves[key] = _Move(thing, origin, target)
    return list(moves.values())


def _order(moves: list[_Move], grid: bool) -> list[_Move]:
    """Removals, then moves, then placements — each after the steps that free its
    square on a grid (one miniature and one landscape a square), following a line from
    the square just cleared; a ring is opened by holding one piece in the hand."""
    pending = sorted(moves, key=lambda m: (m.target is not None, m.origin is None))
    done: list[_Move] = []

    def blocked(m: _Move) -> _Move | None:
        if not grid or m.target is None or m.slot == HEAP:
            return None
        return next(
            (o for o in pending if o is not m and o.origin == m.target and o.slot == m.slot),
            None,
        )

    freed: str | None = None  # the square the last step cleared: hands follow the line
    while pending:
        ready = next(
            (m for m in pending if freed and m.target == freed and blocked(m) is None), None
        )
        if ready is None:
            ready = next((m for m in pending if blocked(m) is None), None)
        if ready is None:  # a ring: hold what stands on the first move's target
            ready = pending[0]
            blocker = blocked(ready)
            assert blocker is not None
            ready.held = blocker.thing
            blocker.origin, blocker.from_hand = None, True
        pending.remove(ready)
        done.append(ready)
        freed = ready.origin
        if ready.origin is None or ready.held is not None:
            continue
        # What stands on it goes the same way at once (a landscape with its miniature).
        for other in [m for m in pending if (m.origin, m.target) == (ready.origin, ready.target)]:
            if blocked(other) is None:
                pending.remove(other)
                done.append(other)
    return done


def _merge(moves: list[_Move]) -> list[list[_Move]]:
    """A landscape and what stands on it going the same way, one after the other in
    ``moves``, are lifted together (the landscape named first)."""
    groups: list[list[_Move]] = []
    for move in moves:
        last = groups[-1] if groups else None
        if (
            last is not None
            and move.origin is not None
            and (last[0].origin, last[0].target) == (move.origin, move.target)
            and LANDSCAPE in (last[0].thing[0], move.thing[0])
            and not last[0].held
            and not move.held
            and not last[0].from_hand
        ):
            last.append(move)
            last.sort(key=lambda m: m.thing[0] != LANDSCAPE)
        else:
            groups.append([move])
    return groups


def _name(thing: Thing, units: int, owners: Sequence[str]) -> str:
    """``the blue Colossus``, ``Ann's Banner``, ``3 Crystals``, ``the Woods``."""
    kind, label, player, colour, terrain = thing
    if kind == LANDSCAPE:
        return f"the {terrain.capitalize()}"
    if kind == "beast" and len(label) > 1:
        return label
    singular, plural = _KIND_WORDS.get(kind, (kind.capitalize(), kind.capitalize() + "s"))
    owned = player is not None and 0 <= player < len(owners)
    owner = colour or (f"{owners[player]}'s" if owned and player is not None else "")
    if kind in COUNTED_KINDS:
        counted = count(units, singular, plural)
        return f"{owner} {counted}" if owner else counted
    if colour:
        return f"the {colour} {singular}"
    return f"{owner} {singular}" if owner else f"the {singular}"


def _kind_word(thing: Thing) -> str:
    kind, label, _, _, terrain = thing
    if kind == LANDSCAPE:
        return terrain
    if kind == "beast" and len(label) > 1:
        return label.lower()
    return _KIND_WORDS.get(kind, (kind, ""))[0].lower()


def _text(group: list[_Move], names: Callable[[str], str], owners: Sequence[str]) -> str:
    head = group[0]
    what = _name(head.thing, head.units, owners)
    if len(group) > 1:
        what += " with " + " and ".join(_name(m.thing, m.units, owners) for m in group[1:])
    if head.from_hand:
        return f"Put {what} from your hand on {names(head.target or '')}."
    if head.origin is None:
        return f"Put {what} on {names(head.target or '')}."
    if head.target is None:
        return f"Take {what} off {names(head.origin)}."
    text = f"Move {what} from {names(head.origin)} to {names(head.target)}."
    if head.held is not None:
        held = _name(head.held, 1, owners)
        return f"Lift {held} off {names(head.target)} and keep it in your hand. {text}"
    return text


def hand_steps(
    before: BoardView | None,
    after: BoardView | None,
    names: Callable[[str], str],
    owners: Sequence[str] = (),
) -> tuple[HandStep, ...]:
    """The hand movements that make the table show ``after`` where it shows ``before``
    (none without both boards). ``names`` says a cell in the board's words
    (``Rules.cell_words``), ``owners`` the players' names by seat."""
    if before is None or after is None:
        return ()
    grid = after.kind == "grid"
    was, now = _changed(before, after)
    minis = {c.cell for c in was if any(_slot(p.kind) == MINIATURE for p in c.pieces)}
    lands = {c.cell for c in was if c.terrain not in BARE_TERRAINS}
    seen: set[str] = set()
    steps: list[HandStep] = []
    for group in _merge(_order(_moves(was, now), grid)):
        lifted = [m.origin for m in group if m.origin is not None]
        put = [m.target for m in group if m.target is not None]
        for move in group:
            layer = lands if move.slot == LANDSCAPE else minis if move.slot == MINIATURE else None
            if layer is None:
                continue
            if move.origin is not None:
                layer.discard(move.origin)
            if move.target is not None:
                layer.add(move.target)
        seen |= {*lifted, *put}
        steps.append(
            HandStep(
                text=_text(group, names, owners),
                lift=tuple(dict.fromkeys(lifted)),
                put=tuple(dict.fromkeys(put)),
                sensed=all(m.slot != HEAP for m in group),
                kinds=tuple(_kind_word(m.thing) for m in group),
                seen=frozenset(seen),
                minis=frozenset(minis & seen),
                lands=frozenset(lands & seen),
            )
        )
    return tuple(steps)


def _same_squares(before: BoardView, after: BoardView) -> frozenset[str]:
    """The squares of a grid that look the same before and after."""
    old = {c.cell: c for c in before.cells}
    return frozenset(c.cell for c in after.cells if old.get(c.cell) == c)


def walk_steps(
    hands: Sequence[HandStep],
    changes: Iterable[TableChange],
    boards: tuple[BoardView | None, BoardView | None] = (None, None),
) -> tuple[HandStep, ...]:
    """The walk-through: the hand movements ``hands`` made of ``boards``, then the
    game's own steps that the board views cannot show, lit as a fix (the cells of one of
    its steps together).

    A grid's view shows all that stands on the table: a game's step is left out where a
    hand movement acts or where the square looks the same before and after (a Quake's
    tile a hand movement skipped over). An island's view does not show everything (a
    Colossus laid down, a tile turned, a Lair): a game's step is left out only where a
    hand movement acts. A hand movement that only takes something off a cell keeps the
    game's words when the game has one step there and says more than the view can — where
    a heap of counters goes (crystals given to a warband), or anything on an island (a
    Beast removed with its Lair)."""

    before, after = boards
    grid = after is not None and after.kind == "grid"
    same = _same_squares(before, after) if grid and before is not None and after else frozenset()
    ordered = sorted(changes, key=lambda c: c.step)
    steps = [s if grid and s.sensed else _in_game_words(s, ordered) for s in hands]
    touched = {c for step in hands for c in step.cells} | same
    extra: dict[int, list[TableChange]] = {}
    for change in ordered:
        if change.cell not in touched:
            extra.setdefault(change.step, []).append(change)
    for group in extra.values():
        texts = dict.fromkeys(c.instruction for c in group)
        cells = tuple(dict.fromkeys(c.cell for c in group))
        steps.append(HandStep(text=" ".join(texts), fix=cells))
    return tuple(steps)


def _in_game_words(step: HandStep, changes: Sequence[TableChange]) -> HandStep:
    """``step`` in the game's words when it only takes something off one cell and the
    game has exactly one step there about that thing."""
    if step.put or len(step.lift) != 1:
        return step
    about = [
        c
        for c in changes
        if c.cell == step.lift[0] and any(k in c.instruction.lower() for k in step.kinds)
    ]
    return replace(step, text=about[0].instruction) if len(about) == 1 else step
