"""The island mechanics both island games share: pieces, control, Road Movement, exploring
triggers, deaths, the Beast, hand limit, the gold ledger and the generic effect editors.

Beast Master (seed 001) and Colossi (seed 002) are two rule sets over one island system;
everything that is the same in both lives here, switched by :class:`IslandConfig` where
they differ (the Beast's built-in kill and displacement exist only in Beast Master,
CA-R08; gold never drops below 0 only in Colossi, CA-R17).

States are immutable; changes are made on a :class:`Work` (a mutable scratch copy of the
shared fields) and frozen back into a new state in one ``evolve``.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Generic

from companion import words
from companion.events import Event, TableChanges
from companion.highlights import TableChange
from companion.rules import refuse

from .board import IslandBoard
from .model import (
    HAND_LIMIT,
    OFF_BOARD,
    AcolyteDied,
    BeastMoved,
    BeastPos,
    DrawCards,
    Effect,
    ExtraMovements,
    GainGold,
    GoldChanged,
    GoldEntry,
    GoldSource,
    IslandConfig,
    IslandState,
    KillAcolyte,
    MoveBeast,
    MovePiece,
    Note,
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    PieceKind,
    PieceMoved,
    PlaceCubes,
    PlaceWater,
    S,
    SeatRef,
    SetPerk,
    SpaceState,
)
from .phrases import (
    GOLD_SOURCE_WORDS,
    ONE_PIECE,
    PIECE_WORDS,
    capital,
    onward_words,
    space_name,
    way_words,
)

# --- control (B.4) ---------------------------------------------------------------------


def control_of(colossus_owners: Iterable[int], acolytes: Sequence[int]) -> int | None:
    """Who controls a space (B.4, 2.6.5): None when nobody does."""
    if not colossus_owners and not any(acolytes):  # an empty space: the usual case
        return None
    owners = sorted(set(colossus_owners))
    if len(owners) == 1:
        return owners[0]
    candidates = owners if owners else [p for p, n in enumerate(acolytes) if n > 0]
    if not candidates:
        return None
    best = max(acolytes[p] for p in candidates)
    winners = [p for p in candidates if acolytes[p] == best]
    if len(winners) == 1 and (len(owners) >= 2 or best >= 1):
        return winners[0]
    return None


def colossus_owners_at(state: IslandState, space: str, cfg: IslandConfig) -> list[int]:
    return [
        seat
        for seat, where in enumerate(state.colossi)
        if where == space and (cfg.tipped_controls or not state.tipped[seat])
    ]


def controller(state: IslandState, space: str, cfg: IslandConfig) -> int | None:
    return control_of(colossus_owners_at(state, space, cfg), state.space(space).acolytes)


def control_map(state: IslandState, cfg: IslandConfig) -> Mapping[str, int]:
    """Every controlled space and its controller. Worked out once per state: the board
    view and the highlights of a state both ask (a roll's LEDs wait for both)."""
    global _last_control
    last = _last_control
    if last is not None and last[0] is state and last[1] == cfg:
        return last[2]
    found = MappingProxyType(_control_map(state, cfg))
    _last_control = (state, cfg, found)
    return found


#: The last state :func:`control_map` answered for (held, so the identity stays its own).
_last_control: tuple[IslandState, IslandConfig, Mapping[str, int]] | None = None


def _control_map(state: IslandState, cfg: IslandConfig) -> dict[str, int]:
    by_space: dict[str, list[int]] = {}
    for seat, where in enumerate(state.colossi):
        if where is not None and (cfg.tipped_controls or not state.tipped[seat]):
            by_space.setdefault(where, []).append(seat)
    out: dict[str, int] = {}
    for sid, sp in zip(state.board.ids, state.spaces, strict=True):
        who = control_of(by_space.get(sid, ()), sp.acolytes)
        if who is not None:
            out[sid] = who
    return out


# --- Road Movement (B.3) ---------------------------------------------------------------


def own_spaces(
    state: IslandState, owner: int, piece: PieceKind | None, origin: str | None
) -> set[str]:
    """Spaces holding a piece of ``owner`` other than the moving one (``piece`` at ``origin``)."""
    out: set[str] = set()
    col = state.colossi[owner]
    if col is not None and piece != "colossus":
        out.add(col)
    for sid, sp in zip(state.board.ids, state.spaces, strict=True):
        count = sp.acolytes[owner]
        if piece == "acolyte" and sid == origin:
            count -= 1
        if count > 0:
            out.add(sid)
    return out


def enterable(state: IslandState, space: str) -> bool:
    """Water is like the edge: nobody enters it voluntarily (CA-R09)."""
    return not state.space(space).water


def explore_on_entry(state: IslandState) -> set[str]:
    """Spaces whose next entry starts exploring: no tile yet and none already queued."""
    queued = {p.space for p in state.pending if isinstance(p, PendingExplore)}
    return {
        sid
        for sid, sp in zip(state.board.ids, state.spaces, strict=True)
        if sp.tile is None and sid not in queued
    }


#: How hazardous a chain's way is (B.3 "a hazard-free path first"): unexplored spaces
#: entered before the destination (each starts exploring), then the spaces entered.
PathCost = tuple[int, int]


def destinations(
    state: IslandState,
    owner: int,
    piece: PieceKind,
    origin: str,
    cfg: IslandConfig,
    *,
    spawn: bool = False,
) -> dict[str, tuple[str, ...]]:
    """Every space one paid Movement reaches, with the safest chain to each (B.3).

    Safest means, in order: no death on the way, the fewest unexplored spaces crossed,
    the fewest steps. No death comes first by construction: an Acolyte's chain ends on
    the Beast's space (BM-R07), so a death can only happen on the destination, which
    every chain to it shares. When the only chains cross unexplored spaces, the best of
    them is still returned: it is legal, and exploring happens on the way.

    For a spawn the piece starts *on* ``origin`` (the Colossus's space): staying is a
    destination (empty path) and the first step is free.
    """
    board = state.board
    deadly = state.beast_spaces() if cfg.beast_kills and piece == "acolyte" else set()
    unexplored = explore_on_entry(state)
    own = own_spaces(state, owner, None if spawn else piece, None if spawn else origin)
    water = {sid for sid, sp in zip(board.ids, state.spaces, strict=True) if sp.water}
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[PathCost, int, str, tuple[str, ...]]] = []
    order = itertools.count()  # ties keep the board's neighbour order: deterministic
    if spawn:
        heapq.heappush(frontier, ((0, 0), next(order), origin, ()))
    else:
        for s1 in board.adjacent(origin):
            if s1 not in water:
                heapq.heappush(frontier, ((0, 1), next(order), s1, (s1,)))
    while frontier:
        (explores, steps), _, here, path = heapq.heappop(frontier)
        if here in found:
            continue
        found[here] = path
        if not path:  # a spawned Acolyte on its Colossus: placed there, not entering
            if here in deadly and not cfg.spawn_safe_first_step:
                continue  # it dies at once (BM-R07)
            through: PathCost = (explores, steps + 1)
        elif here in own and here not in deadly:
            through = (explores + int(here in unexplored), steps + 1)
        else:
            continue  # no other own piece here, or the Acolyte died: the chain ends
        for nxt in board.adjacent(here):
            if nxt not in water and nxt not in found:
                heapq.heappush(frontier, (through, next(order), nxt, (*path, nxt)))
    return found


def chains_back(
    state: IslandState, owner: int, piece: PieceKind, origin: str, cfg: IslandConfig
) -> list[tuple[str, ...]]:
    """The Road chains that come back to ``origin`` through one neighbour (BM-R17).

    Each steps onto an adjacent space holding another own piece and back for free: a
    Movement of its own, since the space it passes through has its effects (exploring;
    an Acolyte's chain ends on the Beast's space, BM-R07, so none passes there). They
    exist exactly when :func:`destinations` reaches ``origin``; a longer chain back is
    legal too, sent with its ``path``.
    """
    if not enterable(state, origin):
        return []
    deadly = state.beast_spaces() if cfg.beast_kills and piece == "acolyte" else set()
    own = own_spaces(state, owner, piece, origin)
    return [
        (via, origin)
        for via in state.board.adjacent(origin)
        if via in own and via not in deadly and enterable(state, via)
    ]


def check_path(
    state: IslandState,
    owner: int,
    piece: PieceKind,
    origin: str,
    path: tuple[str, ...],
    cfg: IslandConfig,
    *,
    spawn: bool = False,
) -> None:
    """Refuse a chain that is not a legal Road Movement (B.3, BM-R07)."""
    board = state.board
    if not path and not spawn:
        raise refuse("A Movement must enter at least one space.", "BM-R01")
    beasts = state.beast_spaces() if cfg.beast_kills and piece == "acolyte" else set()
    own = own_spaces(state, owner, None if spawn else piece, None if spawn else origin)
    here = origin
    if spawn and path and origin in beasts and not cfg.spawn_safe_first_step:
        raise refuse(
            "An Acolyte spawned on the Beast's space dies at once and cannot step on.",
            "BM-R07",
        )
    for i, step in enumerate(path):
        if not board.has(step):
            raise refuse(f"There is no space {step!r} on this island.", "BM-R01")
        if step not in board.adjacent(here):
            there, here_name = space_name(board, step), space_name(board, here)
            raise refuse(f"{there} is not adjacent to {here_name}.", "BM-R01")
        if not enterable(state, step):
            there = space_name(board, step)
            raise refuse(f"{there} is Water: nobody enters it voluntarily.", "CA-R09")
        if i > 0:
            prev = path[i - 1]
            if prev not in own:
                raise refuse(
                    "Road Movement needs another of your pieces on "
                    f"{space_name(board, prev)} to continue.",
                    "BM-R07" if prev in beasts else None,
                )
            if prev in beasts:
                raise refuse(
                    f"An Acolyte entering the Beast's space {space_name(board, prev)} dies there.",
                    "BM-R07",
                )
        here = step


# --- the scratch copy ------------------------------------------------------------------------


class Work(Generic[S]):
    """A mutable copy of the shared fields, frozen back with :meth:`finish`."""

    def __init__(self, state: S, cfg: IslandConfig) -> None:
        self.state = state
        self.cfg = cfg
        self.board = state.board
        self.index = state.board.graph.index
        spaces = state.spaces
        #: The spaces' fields as they were, to find the few spaces an action changed.
        self._at_start = (
            tuple(sp.tile for sp in spaces),
            tuple(sp.acolytes for sp in spaces),
            tuple(sp.banner for sp in spaces),
            tuple(sp.water for sp in spaces),
            tuple(sp.cubes for sp in spaces),
        )
        tiles, acolytes, banners, water, cubes = self._at_start
        self.tiles = list(tiles)
        self.acolytes = [list(a) for a in acolytes]
        self.banners = list(banners)
        self.water = list(water)
        self.cubes = list(cubes)
        self.colossi = list(state.colossi)
        self.tipped = list(state.tipped)
        self.in_hand = list(state.acolytes_in_hand)
        self.cards = list(state.cards_in_hand)
        self.perks = list(state.perks)
        self.gold = list(state.gold)
        self.ledger = list(state.ledger)
        self.beasts = list(state.beasts)
        self.pending: list[Any] = list(state.pending)
        self.movements_left = state.movements_left
        self.events: list[Event] = []
        self.update: dict[str, Any] = {}
        self.fixes: list[tuple[str, str]] = []  # (space, what to change on the table)
        self.kill_credit: int | None = None  # seat paid +1 per opposing kill (BM-R10)
        self.gold_context: GoldSource = "effect"
        self.label = ""

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def active(self) -> int:
        active: int = self.update.get("active", self.state.active)
        return active

    def fix(self, space: str, instruction: str) -> None:
        """Something the referee decided that players must now do on the table."""
        self.fixes.append((space, instruction))

    def finish(self) -> S:
        """The new state; table fixes become one TableChanges event at the end."""
        if self.fixes:
            changes = tuple(
                TableChange(step=k, cell=cell, instruction=text)
                for k, (cell, text) in enumerate(self.fixes, start=1)
            )
            self.events.append(
                TableChanges(
                    changes=changes,
                    text=f"Change the table: {words.count(len(changes), 'step')}.",
                )
            )
            self.fixes = []
        update: dict[str, Any] = {
            "spaces": self._spaces(),
            "colossi": tuple(self.colossi),
            "tipped": tuple(self.tipped),
            "acolytes_in_hand": tuple(self.in_hand),
            "cards_in_hand": tuple(self.cards),
            "perks": tuple(self.perks),
            "gold": tuple(self.gold),
            "ledger": tuple(self.ledger),
            "beasts": tuple(self.beasts),
            "pending": tuple(self.pending),
            "movements_left": self.movements_left,
        }
        update.update(self.update)
        return self.state.evolve(update)

    def _spaces(self) -> tuple[SpaceState, ...]:
        """The spaces as the work left them: the state's own tuple when the action changed
        none, else its spaces with the changed ones made again (:meth:`_space`). Each
        field is compared whole first: most actions change a space or two, or none."""
        now = (
            tuple(self.tiles),
            tuple(map(tuple, self.acolytes)),
            tuple(self.banners),
            tuple(self.water),
            tuple(self.cubes),
        )
        old = self.state.spaces
        changed: set[int] = set()
        for before, after in zip(self._at_start, now, strict=True):
            if before != after:
                pairs = enumerate(zip(before, after, strict=True))
                changed.update(i for i, (b, a) in pairs if b != a)
        if not changed:
            return old
        spaces = list(old)
        for i in changed:
            spaces[i] = self._space(i)
        return tuple(spaces)

    def _space(self, i: int) -> SpaceState:
        """Space ``i`` as the work left it: the state's own value when nothing in it
        changed (most actions change a space or two of the island), else a new one."""
        tile, acolytes = self.tiles[i], tuple(self.acolytes[i])
        banner, water, cubes = self.banners[i], self.water[i], self.cubes[i]
        spaces = self.state.spaces
        if i < len(spaces):
            old = spaces[i]
            if (
                acolytes == old.acolytes
                and tile == old.tile
                and banner == old.banner
                and water == old.water
                and cubes == old.cubes
            ):
                return old
        return SpaceState(tile=tile, acolytes=acolytes, banner=banner, water=water, cubes=cubes)

    # --- small queries -------------------------------------------------------------------

    def i(self, space: str) -> int:
        if space not in self.index:
            raise refuse(f"There is no space {space!r} on this island.", "BM-R01")
        return self.index[space]

    def at(self, space: str) -> str:
        """``space`` as players read it (:func:`.phrases.space_name`: its board label)."""
        return space_name(self.board, space)

    def note(self, text: str) -> None:
        self.events.append(Note(text=text))

    def name(self, seat: int) -> str:
        return self.players[seat]

    def beast_at(self, space: str) -> bool:
        return any(b.space == space for b in self.beasts)

    def seats_from(self, first: int) -> list[int]:
        """Seats in clockwise order starting with ``first``."""
        n = len(self.players)
        return [(first + k) % n for k in range(n)]

    # --- gold -------------------------------------------------------------------------------

    def add_gold(self, seat: int, amount: int, source: GoldSource) -> int:
        """Change gold and record it in the ledger; returns the amount actually applied."""
        if self.cfg.gold_floor_zero and self.gold[seat] + amount < 0:
            amount = -self.gold[seat]  # CA-R17: a loss is capped at the current total
        if amount == 0:
            return 0
        self.gold[seat] += amount
        self.ledger.append(GoldEntry(player=seat, amount=amount, source=source, label=self.label))
        sign = "+" if amount > 0 else "−"
        self.events.append(
            GoldChanged(
                player=seat,
                amount=amount,
                source=source,
                text=f"{self.name(seat)} {sign}{abs(amount)} Gold ({GOLD_SOURCE_WORDS[source]}).",
            )
        )
        return amount

    # --- cards --------------------------------------------------------------------------------

    def change_cards(self, seat: int, amount: int) -> None:
        if self.cards[seat] + amount < 0:
            raise refuse(
                f"{self.name(seat)} has only {words.count(self.cards[seat], 'card')} in hand."
            )
        self.cards[seat] += amount
        if amount:
            verb = "draws" if amount > 0 else "discards"
            self.note(f"{self.name(seat)} {verb} {words.count(abs(amount), 'card')}.")
        if self.cfg.hand_limit_immediate:
            self.check_hand_limit(seat)

    def check_hand_limit(self, seat: int) -> None:
        """Whenever a hand holds 7+ cards, discarding comes before anything else (BM-R08)."""
        if self.cards[seat] > HAND_LIMIT and not any(
            isinstance(p, PendingDiscard) and p.player == seat for p in self.pending
        ):
            self.pending.insert(0, PendingDiscard(player=seat))

    # --- deaths, exploring, the Beast ----------------------------------------------------

    def kill(self, seat: int, space: str, count: int, why: str) -> None:
        idx = self.i(space)
        count = min(count, self.acolytes[idx][seat])
        if count <= 0:
            return
        self.acolytes[idx][seat] -= count
        self.in_hand[seat] += count
        self.fix(space, f"Give {count} of {self.name(seat)}'s Acolytes there back to them.")
        self.events.append(
            AcolyteDied(
                player=seat,
                space=space,
                count=count,
                text=f"{words.count(count, 'Acolyte')} of {self.name(seat)} died on "
                f"{self.at(space)} ({why}).",
            )
        )
        credit = self.kill_credit
        if credit is not None and credit != seat:
            self.add_gold(credit, count, "kill")  # BM-R10

    def enter(self, seat: int, space: str) -> None:
        """A Colossus or Acolyte entered ``space``: queue exploring if it has no tile."""
        idx = self.i(space)
        if self.tiles[idx] is None and not any(
            isinstance(p, PendingExplore) and p.space == space for p in self.pending
        ):
            self.pending.append(PendingExplore(space=space, player=seat))

    def place_acolyte(self, seat: int, space: str, *, entering: bool) -> bool:
        """Put an Acolyte on ``space``; it dies at once on the Beast (BM-R07). True if alive."""
        idx = self.i(space)
        self.acolytes[idx][seat] += 1
        if entering:
            self.enter(seat, space)
        if self.cfg.beast_kills and self.beast_at(space):
            self.kill(seat, space, 1, "the Beast")
            return False
        return True

    def move_beast(self, name: str | None, to: str) -> None:
        """Move a Beast; in Beast Master it kills and displaces (2.6.6)."""
        idx = self.i(to)
        if not self.beasts:
            raise refuse("There is no Beast on the island.")
        pos = 0
        if name is not None:
            names = [b.name for b in self.beasts]
            if name not in names:
                raise refuse(f"There is no Beast called {name!r} on the island.")
            pos = names.index(name)
        if self.water[idx]:
            raise refuse(f"{self.at(to)} is Water: Beasts never enter it.", "CA-R09")
        beast = self.beasts[pos]
        self.beasts[pos] = BeastPos(name=beast.name, space=to)
        text = f"{capital(beast.name)} moves to {self.at(to)}."
        self.events.append(BeastMoved(beast=beast.name, space=to, text=text))
        if not self.cfg.beast_kills or beast.space == to:
            return
        for seat in self.seats_from(self.active):
            self.kill(seat, to, self.acolytes[idx][seat], beast.name)
        for seat in self.seats_from(self.active):
            if self.colossi[seat] == to:
                self.displace(seat, to, f"{beast.name} arrived")

    def move_colossus(self, seat: int, path: Sequence[str]) -> None:
        for step in path:
            self.colossi[seat] = step
            self.enter(seat, step)

    def walk(self, seat: int, piece: PieceKind, origin: str | None, path: Sequence[str]) -> None:
        """A checked Road Movement: every entered space explores; the end may kill (BM-R07).

        ``origin`` None is a spawn: the Acolyte comes from hand onto the Colossus's space.
        """
        if piece == "colossus":
            self.move_colossus(seat, path)
        else:
            if origin is None:
                here = self.colossi[seat]
                assert here is not None
                self.in_hand[seat] -= 1
                if not path:  # it stays on the Colossus's space: placed, not entering
                    self.place_acolyte(seat, here, entering=False)
            else:
                self.acolytes[self.i(origin)][seat] -= 1
            if path:
                for step in path[:-1]:
                    self.enter(seat, step)
                self.place_acolyte(seat, path[-1], entering=True)
        if origin is not None:
            to = path[-1] if path else origin
            way = way_words(self.board, origin, to, path)
            text = f"{self.name(seat)} moves {ONE_PIECE[piece]} {way}"
        else:
            here = self.colossi[seat]
            assert here is not None
            text = f"{self.name(seat)} spawns an Acolyte on {self.at(here)}"
            if path:
                text += f" and moves it {onward_words(self.board, path)}"
        self.events.append(PieceMoved(player=seat, piece=piece, path=tuple(path), text=text + "."))

    def push_piece(self, seat: int, piece: PieceKind, origin: str, to: str, push: bool) -> None:
        """The move-or-push editor, with its consequences (BM-R13, CA-R09, BM-R07)."""
        oi = self.i(origin)
        if piece == "colossus":
            if self.colossi[seat] != origin:
                raise refuse(f"{self.name(seat)}'s Colossus is not on {self.at(origin)}.")
        elif self.acolytes[oi][seat] < 1:
            raise refuse(f"{self.name(seat)} has no Acolyte on {self.at(origin)}.")
        if to == OFF_BOARD:
            if not self.board.is_edge(origin):
                raise refuse(f"{self.at(origin)} is not on the edge: nothing falls off from there.")
            if piece == "colossus":
                self.note("A Colossus cannot leave the island: it stays where it is (BM-R13).")
                return
            self.kill(seat, origin, 1, "pushed off the edge")
            return
        ti = self.i(to)
        if self.water[ti]:
            if not push:
                raise refuse(f"{self.at(to)} is Water: nobody enters it voluntarily.", "CA-R09")
            if piece == "colossus":
                self.note("A Colossus pushed onto Water does not move (CA-R09).")
                return
            self.kill(seat, origin, 1, "pushed into Water")
            return
        if piece == "colossus":
            self.colossi[seat] = to
            self.enter(seat, to)
        else:
            self.acolytes[oi][seat] -= 1
            self.place_acolyte(seat, to, entering=True)
        self.events.append(
            PieceMoved(
                player=seat,
                piece=piece,
                path=(to,),
                text=f"{self.name(seat)}'s {PIECE_WORDS[piece]} is moved from "
                f"{self.at(origin)} to {self.at(to)}.",
            )
        )

    def set_water(self, space: str, on: bool) -> None:
        """Water placement; unless the Age card says otherwise, CA-R18 clears the space."""
        idx = self.i(space)
        if not on:
            self.water[idx] = False
            return
        if self.beast_at(space):
            raise refuse(f"A Beast stands on {self.at(space)}; Water cannot go there.", "CA-R18")
        if self.tiles[idx] is not None:
            self.note(f"The tile on {self.at(space)} is discarded for Water (CA-R18).")
        self.tiles[idx] = None
        self.cubes[idx] = 0
        self.banners[idx] = None
        self.water[idx] = True
        self.fix(space, "Put a Water tile here.")
        self.pending = [
            p for p in self.pending if not (isinstance(p, PendingExplore) and p.space == space)
        ]
        for seat in range(len(self.players)):
            self.kill(seat, space, self.acolytes[idx][seat], "Water")
        for seat in self.seats_from(self.active):
            if self.colossi[seat] == space:
                self.displace(seat, space, "Water")

    def displace(self, seat: int, space: str, reason: str) -> None:
        """Queue a forced Colossus move; with no dry neighbour it stays (it cannot die)."""
        if any(not self.water[self.i(s)] for s in self.board.adjacent(space)):
            self.pending.append(PendingDisplace(space=space, player=seat, reason=reason))
        else:
            self.note(
                f"{self.name(seat)}'s Colossus has nowhere to go and stays on {self.at(space)}."
            )

    # --- effects ---------------------------------------------------------------------------

    def seats(self, who: SeatRef, actor: int) -> list[int]:
        if who == "self":
            return [actor]
        if who == "each":
            return self.seats_from(actor)
        if who == "others":
            return self.seats_from(actor)[1:]
        if not 0 <= who < len(self.players):
            raise refuse(f"There is no seat {who}.")
        return [who]

    def one_seat(self, who: SeatRef, actor: int) -> int:
        seats = self.seats(who, actor)
        if len(seats) != 1:
            raise refuse("This effect needs one player, not several.")
        return seats[0]

    def apply_effect(self, effect: Effect, actor: int, *, colossi_rules: bool) -> None:
        """Resolve one primitive; its consequences follow the rules (deaths, exploring...)."""
        if isinstance(effect, MovePiece):
            self.push_piece(
                self.one_seat(effect.who, actor),
                effect.piece,
                effect.origin,
                effect.to,
                effect.push,
            )
        elif isinstance(effect, MoveBeast):
            self.move_beast(effect.beast, effect.to)
        elif isinstance(effect, KillAcolyte):
            seat = self.one_seat(effect.who, actor)
            idx = self.i(effect.space)
            if self.acolytes[idx][seat] < effect.count:
                raise refuse(
                    f"{self.name(seat)} has only "
                    f"{words.count(self.acolytes[idx][seat], 'Acolyte')} "
                    f"on {self.at(effect.space)}."
                )
            self.kill(seat, effect.space, effect.count, "an effect")
        elif isinstance(effect, GainGold):
            for seat in self.seats(effect.who, actor):
                self.add_gold(seat, effect.amount, effect.source or self.gold_context)
        elif isinstance(effect, DrawCards):
            for seat in self.seats(effect.who, actor):
                self.change_cards(seat, effect.amount)
        elif isinstance(effect, ExtraMovements):
            self.movements_left = max(0, self.movements_left + effect.amount)
            more = "more" if effect.amount >= 0 else "fewer"
            moves = words.count(abs(effect.amount), f"{more} {self.cfg.movement_unit}")
            self.note(f"{moves} this turn.")
        elif isinstance(effect, SetPerk):
            if colossi_rules:
                raise refuse("Colossi has no Perks.", "CA-R14")
            seat = self.one_seat(effect.who, actor)
            old = self.perks[seat]
            self.perks[seat] = effect.name
            if old and effect.name:
                self.note(
                    f"{self.name(seat)}'s Perk {old} is discarded for {effect.name} (BM-R11)."
                )
        elif isinstance(effect, PlaceWater):
            self.set_water(effect.space, effect.on)
        elif isinstance(effect, PlaceCubes):
            idx = self.i(effect.space)
            if self.cubes[idx] + effect.amount < 0:
                raise refuse(
                    f"There are only {words.count(self.cubes[idx], 'Gold cube')} "
                    f"on {self.at(effect.space)}."
                )
            self.cubes[idx] += effect.amount


def ledger_totals(ledger: Iterable[GoldEntry], players: int) -> tuple[int, ...]:
    totals = [0] * players
    for entry in ledger:
        totals[entry.player] += entry.amount
    return tuple(totals)


def empty_spaces(board: IslandBoard, players: int) -> tuple[SpaceState, ...]:
    by_id = {s.id: s for s in board.spaces}
    return tuple(SpaceState(acolytes=(0,) * players, water=by_id[sid].water) for sid in board.ids)
