"""Turn pieces both island referees use: Movements, Spawns, displacement, card plays,
effects and highlights, all on top of :mod:`.mechanics`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from companion.highlights import Highlight, Role
from companion.outcome import ScoreRow
from companion.rules import refuse

from .content import Content
from .mechanics import (
    Work,
    chains_back,
    check_path,
    control_map,
    destinations,
)
from .model import (
    ApplyEffect,
    DisplaceColossus,
    Effect,
    GoldSource,
    IslandConfig,
    IslandState,
    Move,
    PendingDisplace,
    PieceKind,
    PlayCard,
    S,
    SetPerk,
    Spawn,
)
from .phrases import card_words


def piece_spaces(state: IslandState, seat: int) -> list[tuple[PieceKind, str]]:
    """(piece kind, space) for every piece of ``seat`` that can be moved."""
    out: list[tuple[PieceKind, str]] = []
    col = state.colossi[seat]
    if col is not None:
        out.append(("colossus", col))
    for sid, sp in zip(state.board.ids, state.spaces, strict=True):
        if sp.acolytes[seat] > 0:
            out.append(("acolyte", sid))
    return out


def pieces_at(state: IslandState, seat: int, space: str) -> list[tuple[PieceKind, str]]:
    """``seat``'s movable pieces on ``space``, as :func:`piece_spaces` lists them."""
    out: list[tuple[PieceKind, str]] = []
    if state.colossi[seat] == space:
        out.append(("colossus", space))
    if state.board.has(space) and state.space(space).acolytes[seat] > 0:
        out.append(("acolyte", space))
    return out


def reach(
    state: IslandState, cfg: IslandConfig, seat: int, pieces: Iterable[tuple[PieceKind, str]]
) -> Iterator[tuple[PieceKind, str, dict[str, tuple[str, ...]]]]:
    """(piece, origin, destinations with their chains) of each of ``pieces``.

    The one generation behind the legal Movements (:func:`move_actions`), the
    Movements from one space (:func:`moves_from`) and the highlights' preview
    (:func:`move_preview`), so what lights up is what the referee accepts.
    """
    for piece, origin in pieces:
        yield piece, origin, destinations(state, seat, piece, origin, cfg)


def moves(
    state: IslandState, cfg: IslandConfig, seat: int, pieces: Iterable[tuple[PieceKind, str]]
) -> Iterator[Move]:
    """The paid Movements of ``pieces``: one per destination other than the piece's own
    space (the referee picks the chain), then the chains back to it (BM-R17), last and
    each with its ``path``, so the space it passes through names it."""
    back: list[Move] = []
    for piece, origin, found in reach(state, cfg, seat, pieces):
        for dest in found:
            if dest != origin:
                yield Move(piece=piece, origin=origin, to=dest)
        back.extend(
            Move(piece=piece, origin=origin, to=origin, path=path)
            for path in chains_back(state, seat, piece, origin, cfg)
        )
    yield from back


def moves_from(state: IslandState, cfg: IslandConfig, seat: int, origin: str) -> Iterator[Move]:
    """The paid Movements of ``seat``'s pieces on ``origin``, in :func:`move_actions` order."""
    yield from moves(state, cfg, seat, pieces_at(state, seat, origin))


def move_actions(state: IslandState, cfg: IslandConfig, seat: int) -> Iterator[Move | Spawn]:
    """Every paid Movement (:func:`moves`) and spawn."""
    yield from moves(state, cfg, seat, piece_spaces(state, seat))
    col = state.colossi[seat]
    if col is not None and state.acolytes_in_hand[seat] > 0:
        for dest in destinations(state, seat, "acolyte", col, cfg, spawn=True):
            yield Spawn(to=dest)


def do_move(work: Work[S], seat: int, action: Move) -> None:
    state, cfg = work.state, work.cfg
    if not state.board.has(action.origin) or not state.board.has(action.to):
        raise refuse("That space is not on this island.", "BM-R01")
    origin, to = work.at(action.origin), work.at(action.to)
    if action.piece == "colossus":
        if state.colossi[seat] != action.origin:
            raise refuse(f"Your Colossus is not on {origin}.")
    elif state.space(action.origin).acolytes[seat] < 1:
        raise refuse(f"You have no Acolyte on {origin}.")
    if state.space(action.to).water:
        raise refuse(f"{to} is Water: nobody enters it voluntarily.", "CA-R09")
    if action.path is None:
        reach = destinations(state, seat, action.piece, action.origin, cfg)
        if action.to not in reach:
            raise refuse(
                f"{to} cannot be reached from {origin} with one {work.cfg.movement_unit} "
                "(Road Movement needs your own pieces along the way).",
                "BM-R07" if cfg.beast_kills else None,
            )
        path = reach[action.to]
    else:
        path = action.path
        if not path or path[-1] != action.to:
            raise refuse("The path must end on the destination.")
        check_path(state, seat, action.piece, action.origin, path, cfg)
    work.walk(seat, action.piece, action.origin, path)


def do_paid_move(work: Work[S], seat: int, action: Move | Spawn) -> None:
    """A Movement (Beast Master) or Action (Colossi) spent on a move or a spawn."""
    if work.movements_left < 1:
        raise refuse(f"You have no {work.cfg.movement_unit} left this turn.")
    work.movements_left -= 1
    if isinstance(action, Move):
        do_move(work, seat, action)
    else:
        do_spawn(work, seat, action)


def do_spawn(work: Work[S], seat: int, action: Spawn) -> None:
    state, cfg = work.state, work.cfg
    col = state.colossi[seat]
    if col is None:
        raise refuse("Your Colossus is not on the island yet.", "BM-R03")
    if state.acolytes_in_hand[seat] < 1:
        raise refuse("You have no Acolyte in hand to spawn.")
    to = col if action.to is None else action.to
    if action.path is None:
        reach = destinations(state, seat, "acolyte", col, cfg, spawn=True)
        if to not in reach:
            raise refuse(
                f"A spawned Acolyte cannot reach {work.at(to)} from {work.at(col)}.",
                "BM-R07" if cfg.beast_kills and col in state.beast_spaces() else None,
            )
        path = reach[to]
    else:
        path = action.path
        if (path and path[-1] != to) or (not path and to != col):
            raise refuse("The path must end on the destination.")
        check_path(state, seat, "acolyte", col, path, cfg, spawn=True)
    work.walk(seat, "acolyte", None, path)


def do_displace(work: Work[S], pending: PendingDisplace, action: DisplaceColossus) -> None:
    """A Colossus leaves for an adjacent space (free; exploring applies, 2.6.6/CA-R18)."""
    options = displace_targets(work.state, pending)
    if action.to not in options:
        raise refuse(
            f"Your Colossus must move from {work.at(pending.space)} to an adjacent space "
            "that is not Water.",
            "CA-R18" if pending.reason == "Water" else None,
        )
    work.pending.pop(0)
    work.move_colossus(pending.player, (action.to,))
    work.note(
        f"{work.name(pending.player)}'s Colossus steps to {work.at(action.to)} ({pending.reason})."
    )


def displace_targets(state: IslandState, pending: PendingDisplace) -> list[str]:
    return [s for s in state.board.adjacent(pending.space) if not state.space(s).water]


def resolve_play_card(work: Work[S], actor: int, action: PlayCard, content: Content | None) -> str:
    """Play a card from hand and resolve its effects; returns its kind."""
    kind = action.kind
    effects = action.effects
    name = action.name
    if action.card is not None:
        known = content.card(action.card) if content else None
        if known is None:
            raise refuse(f"The content file has no card {action.card!r}.")
        if action.effects:
            raise refuse("A known card brings its own effects; do not list them too.")
        kind, effects, name = known.kind, known.effects, known.name or known.id
    if kind is None:
        raise refuse("Say which kind of card this is (or name a known card).", "CA-R14")
    if work.cards[actor] < 1:
        raise refuse("You have no card in hand to play.")
    work.cards[actor] -= 1
    work.note(f"{work.name(actor)} plays {card_words(kind, name)}.")
    if kind == "perk" and not any(isinstance(e, SetPerk) for e in effects):
        effects = (SetPerk(name=name or "Perk"), *effects)  # BM-R11: replaces the old one
    run_effects(work, actor, kind, effects)
    return kind


def run_effects(
    work: Work[S],
    actor: int,
    kind: str | None,
    effects: Sequence[Effect],
    *,
    colossi_rules: bool = False,
    gold_source: GoldSource | None = None,
) -> None:
    """Resolve effects in order, with the card's context (kill gold, gift gold)."""
    work.kill_credit = actor if kind == "beast_master" else None  # BM-R10
    work.gold_context = gold_source or ("gift" if kind == "divine_gift" else "effect")
    try:
        for effect in effects:
            work.apply_effect(effect, actor, colossi_rules=colossi_rules)
    finally:
        work.kill_credit = None
        work.gold_context = "effect"


def do_effect(work: Work[S], actor: int, action: ApplyEffect, *, colossi_rules: bool) -> None:
    run_effects(work, actor, action.card_kind, (action.effect,), colossi_rules=colossi_rules)


def gold_row(
    state: IslandState, gold: list[int] | tuple[int, ...], label: str
) -> tuple[ScoreRow, ...]:
    return (*state.history, ScoreRow(label=label, values=tuple(gold)))


def move_preview(
    state: IslandState, cfg: IslandConfig, seat: int, origin: str
) -> dict[str, tuple[str, ...]]:
    """Destinations (with the chain the referee takes) of ``seat``'s pieces on ``origin``.

    On a space with both the Colossus and Acolytes, the Colossus's chains come first.
    """
    chains: dict[str, tuple[str, ...]] = {}
    for _, _, found in reach(state, cfg, seat, pieces_at(state, seat, origin)):
        for dest, path in found.items():
            chains.setdefault(dest, path)
    return chains


def moving_chains(
    state: IslandState, cfg: IslandConfig, seat: int, origin: str, *, can_move: bool
) -> dict[str, tuple[str, ...]] | None:
    """Where ``seat`` may move something from ``origin`` now, with the chains (None:
    nothing of theirs to move there): a pending displacement's steps (2.6.6, CA-R18)
    or, in an Actions turn, the Movements of :func:`move_preview`."""
    head = state.pending[0] if state.pending else None
    if isinstance(head, PendingDisplace):
        if head.player != seat or head.space != origin:
            return None
        return {space: (space,) for space in displace_targets(state, head)}
    if not can_move or not pieces_at(state, seat, origin):
        return None
    return move_preview(state, cfg, seat, origin)


def movable_spaces(state: IslandState, seat: int, *, can_move: bool) -> set[str]:
    """Spaces whose pieces ``seat`` may move now (the origins of :func:`moving_chains`)."""
    head = state.pending[0] if state.pending else None
    if isinstance(head, PendingDisplace):
        return {head.space} if head.player == seat else set()
    return {space for _, space in piece_spaces(state, seat)} if can_move else set()


@lru_cache(maxsize=4096)
def _light(**fields: Any) -> Highlight:
    """A highlight, made once per value: highlights are immutable, and every state lights
    mostly the same few (the pieces that may act, their ends, who controls what)."""
    return Highlight(**fields)


def island_highlights(
    state: IslandState,
    cfg: IslandConfig,
    focus: str | None,
    seat: int | None,
    *,
    can_move: bool,
    banners: bool,
    harvestable: set[str] | None = None,
) -> tuple[Highlight, ...]:
    """The overview, or the preview of a move from the focused space.

    ``focus`` is ``"<space>"`` (the selected piece's space: SELECTED, REACHABLE) or
    ``"<space>><destination>"`` (also PATH: every space the chain enters, in order,
    numbered from 1, the destination last). The origin itself is never REACHABLE: a
    chain back to it is legal, but it is the selected piece's own space (BM-R17). Any
    other focus shows the overview: CONTROL, BEAST, BANNER, SELECTABLE, HARVESTABLE.
    """
    origin, _, hovered = (focus or "").partition(">")
    origin, hovered = origin.strip(), hovered.strip()
    if seat is not None and state.board.has(origin):
        chains = moving_chains(state, cfg, seat, origin, can_move=can_move)
        if chains is not None:
            out = [_light(cell=origin, role=Role.SELECTED, player=seat)]
            out.extend(
                _light(cell=dest, role=Role.REACHABLE, player=seat)
                for dest in chains
                if dest != origin
            )
            for step, cell in enumerate(chains.get(hovered, ()), start=1):
                out.append(_light(cell=cell, role=Role.PATH, player=seat, step=step))
            return tuple(out)
    return _overview(state, cfg, seat, can_move=can_move, banners=banners, harvestable=harvestable)


def _overview(
    state: IslandState,
    cfg: IslandConfig,
    seat: int | None,
    *,
    can_move: bool,
    banners: bool,
    harvestable: set[str] | None,
) -> tuple[Highlight, ...]:
    out: list[Highlight] = []
    for space, who in control_map(state, cfg).items():
        out.append(_light(cell=space, role=Role.CONTROL, player=who))
    for beast in state.beasts:
        out.append(_light(cell=beast.space, role=Role.BEAST))
    if banners:
        for sid, sp in zip(state.board.ids, state.spaces, strict=True):
            if sp.banner is not None:
                out.append(_light(cell=sid, role=Role.BANNER, player=sp.banner))
    if seat is not None:
        for space in sorted(movable_spaces(state, seat, can_move=can_move)):
            out.append(_light(cell=space, role=Role.SELECTABLE, player=seat))
    if harvestable is not None and seat is not None:
        for space in sorted(harvestable):
            out.append(_light(cell=space, role=Role.HARVESTABLE, player=seat))
    return tuple(out)
