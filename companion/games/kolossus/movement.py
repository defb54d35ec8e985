"""Legal destinations of one activation (RULINGS Appendix B.1), Spear and Hammer targets.

The generator works on plain tuples so it can be memoised and stays within a 60 Hz
frame on a Pi Zero 2: ``levels`` (121 ints) and ``occ`` (121 ints: ``EMPTY``,
``FRIEND`` or, for an enemy, the Defence it has against this attacker). The mover's own
origin square is ``EMPTY`` in ``occ``. Squares are ``11*r + c``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from companion.games.kolossus.content import NEIGHBOURS, RAYS, SIZE, SQUARES, square_text
from companion.rules import refuse

EMPTY = -1
FRIEND = -2


class Reach(NamedTuple):
    """How a destination is reached: the squares entered, MP left, beaten squares."""

    path: tuple[int, ...]
    left: int
    beaten: tuple[int, ...]
    sword_used: bool  # the move continued after a beat (Sword of Storm, K-R31)


class Ends(Mapping[int, Reach]):
    """Destination -> canonical way there (origin included), in the order the search
    first reached them. A way's :class:`Reach` is made when first asked for: a touch
    lights the ends and whether each beats (:meth:`beating`), a move follows one way."""

    __slots__ = ("_beatens", "_best", "_lines", "_made", "_origin", "_prefixes")

    def __init__(
        self,
        origin: int,
        mp: int,
        lines: dict[int, tuple[int, ...]],
        prefixes: list[tuple[int, ...]],
        beatens: list[tuple[int, ...]],
        best: list[int],
    ) -> None:
        self._origin = origin
        self._lines = lines  # end -> the line its way ends on (the origin: no line)
        self._prefixes = prefixes  # end -> the path up to that line
        self._beatens = beatens  # end -> the squares its way beat
        self._best = best  # end -> its way's preference (MP left, Sword used)
        self._made: dict[int, Reach] = {origin: Reach((), mp, (), False)}

    def __getitem__(self, sq: int) -> Reach:
        made = self._made.get(sq)
        if made is None:
            ray = self._lines[sq]  # KeyError: not an end
            score = self._best[sq]
            path = self._prefixes[sq] + ray[: ray.index(sq) + 1]
            made = Reach(path, (score >> 6) & _LEFT, self._beatens[sq], not score & _UNCONTINUED)
            self._made[sq] = made
        return made

    def __iter__(self) -> Iterator[int]:
        yield self._origin  # reached first
        yield from self._lines

    def __len__(self) -> int:
        return 1 + len(self._lines)

    def __contains__(self, sq: object) -> bool:
        return sq == self._origin or sq in self._lines

    def beating(self) -> dict[int, bool]:
        """Every end -> whether its way beats someone, no way made."""
        beatens = self._beatens
        return {sq: bool(beatens[sq]) for sq in self}


class Reachability(NamedTuple):
    ends: Ends  # destination -> canonical way there (origin included)
    blocked: frozenset[int]  # enemy squares the mover tried but could not enter


# A way's preference as one int, compared whole: not continued by the Sword (bit 29),
# then MP left (bits 6-28), then beats (bits 0-5: at most 32 miniatures). It stays below
# 2**30, one machine digit of a Python int. A step takes ``_STEP`` off it.
_UNCONTINUED = 1 << 29
_STEP = 1 << 6
_LEFT = (1 << 23) - 1  # MP left, once shifted down by 6
_CONTINUED = _UNCONTINUED - 1  # mask: the same preference, the Sword used


@lru_cache(maxsize=2048)
def reach(
    levels: tuple[int, ...],
    occ: tuple[int, ...],
    origin: int,
    may_turn: bool,
    ignore_levels: bool,
    mp: int,
    sword: bool,
    consume: bool,
) -> Reachability:
    """Every legal end square with its canonical path (memoised per position and piece).

    Straight lines in 8 directions; ``may_turn`` allows one change to any other direction
    (K-R09); levels may differ by at most 1 between a step's two squares unless
    ``ignore_levels`` (Colossus, K-R10); friends may be passed but not ended on (K-R11);
    an enemy is entered only with MP left >= its Defence, which is then consumed if
    ``consume`` (K-R12), otherwise it blocks (K-R13); a beat ends the move unless
    ``sword`` (K-R31). Nothing leaves the board (K-R39). ``mp`` is below 2**23 (a game
    gives a few dozen at most; more finds no end).

    The canonical way to a square has no Sword continuation, then the most MP left, then
    the most beats; on a tie the first found (depth first, directions in ``DIRECTIONS``
    order). This runs on every touch, so the walk does the least per square: a line is
    cut to the MP left, the preference is carried as one int, a way is kept as three
    references (most ways are later beaten) whose path is joined only when asked for
    (:class:`Ends`), and no object is made per square (fewer collections by the garbage
    collector).
    """
    best = [-1] * SQUARES  # the preference of the best way to each square so far
    best[origin] = _UNCONTINUED | (mp << 6)
    # The best way to a square so far: the line it ends on (in the order the squares
    # were first reached), the path up to that line and the squares it beat.
    lines: dict[int, tuple[int, ...]] = {}
    prefixes: list[tuple[int, ...]] = [()] * SQUARES
    beatens: list[tuple[int, ...]] = [()] * SQUARES
    blocked: set[int] = set()
    check_levels = not ignore_levels

    def line(
        start: int,
        d: int,
        prefix: tuple[int, ...],
        score: int,
        beaten: tuple[int, ...],
        turning: bool,
    ) -> None:
        """Walk straight from ``start`` in direction ``d`` with preference ``score``;
        ``prefix`` is the path up to ``start``, ``turning`` whether a turn is still allowed.
        No line enters a square its way beat (see ``turns``)."""
        ray = RAYS[start][d]
        lv_pos = levels[start]
        for nxt in ray[: (score >> 6) & _LEFT]:  # one MP a step; an enemy cuts it below
            o = occ[nxt]
            if check_levels:
                lv_next = levels[nxt]
                if lv_next - lv_pos > 1 or lv_pos - lv_next > 1:
                    if o >= 0:
                        blocked.add(nxt)
                    return
                lv_pos = lv_next
            score -= _STEP
            if o == EMPTY:
                if score > best[nxt]:
                    best[nxt] = score
                    lines[nxt] = ray
                    prefixes[nxt] = prefix
                    beatens[nxt] = beaten
            elif o >= 0:
                if (score >> 6) & _LEFT < o:
                    blocked.add(nxt)
                    return
                if consume:
                    score -= o << 6
                beaten = (*beaten, nxt)
                score += 1
                if score > best[nxt]:
                    best[nxt] = score
                    lines[nxt] = ray
                    prefixes[nxt] = prefix
                    beatens[nxt] = beaten
                if not sword:
                    return
                score &= _CONTINUED
                if consume and o:  # fewer MP left than the line was cut to: cut it again
                    here = prefix + ray[: ray.index(nxt) + 1]
                    if turning and score & (_LEFT << 6):
                        turns(nxt, d, here, score, beaten)
                    line(nxt, d, here, score, beaten, turning)
                    return
            if turning and score & (_LEFT << 6):
                turns(nxt, d, prefix + ray[: ray.index(nxt) + 1], score, beaten)

    def turns(at: int, d: int, here: tuple[int, ...], score: int, beaten: tuple[int, ...]) -> None:
        """The one change of direction at ``at``, the end of ``here`` (the path from the
        origin, straight in direction ``d``): every other line from there (K-R09).

        A reversal goes back over the first line (its beaten squares are empty now, its
        friends passed, its levels climbed before) to the origin and on along the
        opposite line. Up to the origin it reaches squares reached before with more MP
        left, so it is started there. Beyond, it reaches squares the opposite line
        reaches straight with more MP left and no more Sword use, and tries no enemy
        that line does not: once that line has been walked (first lines S to NW) the
        reversal would find nothing and is left out."""
        reverse = (d + 4) % 8
        for d2 in range(8):
            if d2 == reverse:
                back = len(here)  # steps back to the origin
                if d < 4 and (score >> 6) & _LEFT > back:
                    path = here + here[-2::-1] + (origin,)
                    line(origin, d2, path, score - (back << 6), beaten, False)
            elif d2 != d:
                line(at, d2, here, score, beaten, False)

    if 0 < mp <= _LEFT:
        for d in range(8):
            line(origin, d, (), best[origin], (), may_turn)
    ends = Ends(origin, mp, lines, prefixes, beatens, best)
    return Reachability(ends, frozenset(blocked.difference(lines)))


def _direction(a: int, b: int) -> tuple[int, int] | None:
    ar, ac = divmod(a, SIZE)
    br, bc = divmod(b, SIZE)
    dr, dc = br - ar, bc - ac
    if max(abs(dr), abs(dc)) != 1:
        return None
    return dr, dc


def check_path(
    levels: tuple[int, ...],
    occ: tuple[int, ...],
    origin: int,
    path: tuple[int, ...],
    may_turn: bool,
    ignore_levels: bool,
    mp: int,
    sword: bool,
    consume: bool,
) -> Reach:
    """Validate an explicit path step by step; the reason if it breaks a rule."""
    if len(path) > mp:
        raise refuse(f"That path needs {len(path)} movement points; you have {mp}.")
    left = mp
    beaten: tuple[int, ...] = ()
    sword_used = False
    pos = origin
    heading: tuple[int, int] | None = None
    turned = False
    for i, nxt in enumerate(path):
        if left <= 0:
            raise refuse(
                f"No movement points are left for the step to {square_text(nxt)}.", ruling="K-R12"
            )
        heading, turned = _heading(pos, nxt, heading, turned, may_turn)
        if not ignore_levels and abs(levels[nxt] - levels[pos]) > 1:
            raise refuse(
                f"From {square_text(pos)} (level {levels[pos]}) to {square_text(nxt)} "
                f"(level {levels[nxt]}) is more than one level.",
                ruling="K-R10",
            )
        if beaten:
            if not sword:
                raise refuse(
                    "Beating an enemy ends the move (only the Sword of Storm continues).",
                    ruling="K-R31",
                )
            sword_used = True
        left, beaten = _enter(occ, nxt, left - 1, beaten, consume, i == len(path) - 1)
        pos = nxt
    return Reach(path, left, beaten, sword_used)


def _heading(
    pos: int, nxt: int, heading: tuple[int, int] | None, turned: bool, may_turn: bool
) -> tuple[tuple[int, int], bool]:
    """The direction of the step ``pos`` → ``nxt`` and whether the path has turned now."""
    step = _direction(pos, nxt)
    if step is None:
        raise refuse(
            f"{square_text(nxt)} is not next to {square_text(pos)}: move one square at a time.",
            ruling="1.6.2",
        )
    if heading is not None and step != heading:
        if not may_turn:
            raise refuse("A Warrior moves in one straight line.", ruling="K-R09")
        if turned:
            raise refuse("Only one change of direction is allowed.", ruling="K-R09")
        turned = True
    return step, turned


def _enter(
    occ: tuple[int, ...], nxt: int, left: int, beaten: tuple[int, ...], consume: bool, last: bool
) -> tuple[int, tuple[int, ...]]:
    """MP left and the squares beaten after entering ``nxt`` (the step itself paid)."""
    o = EMPTY if nxt in beaten else occ[nxt]
    if o >= 0:
        if left < o:
            raise refuse(
                f"The enemy on {square_text(nxt)} needs {o} movement points left after the "
                f"step; you would have {left}.",
                ruling="K-R13",
            )
        if consume:
            left -= o
        beaten = (*beaten, nxt)
    elif o == FRIEND and last:
        raise refuse(
            f"You may pass {square_text(nxt)} but not end your move on a friendly miniature.",
            ruling="K-R11",
        )
    return left, beaten


def spear_targets(occ: tuple[int, ...], at: int, left: int) -> tuple[tuple[int, int], ...]:
    """(enemy square, cost) for the Spear: first miniature on each of the 8 lines (K-R29)."""
    out = []
    for d in range(8):
        for dist, sq in enumerate(RAYS[at][d], start=1):
            o = occ[sq]
            if o == EMPTY:
                continue
            if o >= 0 and dist + o <= left:
                out.append((sq, dist + o))
            break
    return tuple(out)


def hammer_costs(occ: tuple[int, ...], at: int) -> tuple[tuple[int, int], ...]:
    """(enemy square, 1 + Defence) for every enemy next to the Colossus (K-R30)."""
    return tuple((sq, 1 + occ[sq]) for sq in NEIGHBOURS[at] if occ[sq] >= 0)


def hammer_subsets(occ: tuple[int, ...], at: int, left: int) -> tuple[tuple[int, ...], ...]:
    """Every non-empty affordable set of adjacent enemies (sorted squares)."""
    costs = hammer_costs(occ, at)
    out = []
    for size in range(1, len(costs) + 1):
        for combo in combinations(costs, size):
            if sum(c for _, c in combo) <= left:
                out.append(tuple(sorted(sq for sq, _ in combo)))
    return tuple(out)
