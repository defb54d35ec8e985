"""A damaged header rebuilt from what the game's entries and saved positions say.

A game's header names its game, players and options; the entries and saved positions
hold the same facts again: a saved position holds the players (and, for most games,
the options), and only the right game parses every entry. A header whose game name is
unknown, whose players are not valid JSON or whose options the game refuses is rebuilt
from those — tried in turn, and kept only when the whole game replays under it and
reaches every saved position as saved. When they do not say enough (no saved position
names the players, two games fit), the game cannot be resumed: the refusal says so and
points to ``companion export``, which writes its readable entries
(:func:`readable_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from companion.errors import DamagedHeader, RefereeError
from companion.games import available_games, get_rules
from companion.journal import Damage, Entry, GameInfo, Journal
from companion.model import Frozen
from companion.rules import AnyRules


class Replayed(Protocol):
    """What replaying a game under a header gives (the session's replay): here only
    whether the entries replayed as far as they did under the header as it was."""

    @property
    def damage(self) -> Damage | None: ...


R = TypeVar("R", bound=Replayed)
#: Replays the journal's game under a header: the session's, handed in by the session
#: (this module is below it, so it does not import it).
ReplayUnder = Callable[[Journal, GameInfo, AnyRules, Frozen], R]

DAMAGED_RECORD_FORMAT = "colossus-companion/damaged-game"


@dataclass(frozen=True)
class Rebuilt(Generic[R]):
    """A header rebuilt, the game replayed under it, and a sentence saying from what."""

    info: GameInfo
    replayed: R
    note: str


def rebuild_header(
    journal: Journal, game_id: int, damage: str, replay: ReplayUnder[R]
) -> Rebuilt[R]:
    """The game's header rebuilt (nothing is written here), or DamagedHeader (a
    JournalError) saying why it cannot be and how its readable entries can still be
    had. ``damage`` says what is wrong with the header as it is; ``replay`` replays the
    game under a header tried (a RefereeError: not under this one)."""
    fields, damaged = journal.header_fields(game_id)
    entries, entries_damage = journal.entries(game_id)
    positions = [s.position for s in reversed(journal.snapshots(game_id))]
    start = fields.get("start_position")
    if isinstance(start, dict):
        positions.append(start)
    tried: list[str] = []
    for rules in _games(fields, entries):
        loaded = [p for p in positions if _loads(rules, p)]
        if positions and not loaded:
            continue  # its saved positions are not this game's
        for players, options, source in _candidates(rules, fields, loaded):
            info = _header(fields, rules.name, players, options)
            try:
                opts = rules.parse_options(options)
                replayed = replay(journal, info, rules, opts)
            except RefereeError as exc:
                tried.append(f"{rules.name}: {exc.message}")
                continue
            if replayed.damage != entries_damage:
                tried.append(f"{rules.name} ({source}): the entries do not replay under it")
                continue
            note = (
                f"the header was damaged ({damage.rstrip('.')}); it was rebuilt from the"
                f" game's {source}: game {rules.name}, players {', '.join(players)}"
            )
            return Rebuilt(info=info, replayed=replayed, note=note)
    why = "; ".join(tried[:3]) or "no saved position names its players"
    unreadable = ", ".join(sorted(damaged)) or "game, players or options"
    raise DamagedHeader(
        f"{damage.rstrip('.')}. It cannot be rebuilt from the game's entries and saved"
        f" positions ({why}), so game {game_id} cannot be resumed; its {len(entries)}"
        f" readable entries can be exported (read-only): companion export {game_id}."
        f" Damaged: {unreadable}."
    )


def _games(fields: dict[str, Any], entries: list[Entry]) -> Iterator[AnyRules]:
    """The games the header may be of: the one it names if known, else every game that
    parses each of the entries' actions."""
    named = fields.get("game")
    names = [named] if named in available_games() else available_games()
    for name in names:
        rules = get_rules(name)
        if all(_parses(rules, e.payload) for e in entries if e.kind == "act"):
            yield rules


def _candidates(
    rules: AnyRules, fields: dict[str, Any], positions: list[dict[str, Any]]
) -> Iterator[tuple[tuple[str, ...], dict[str, Any], str]]:
    """Players and options to try, with where they come from: the header's own where
    readable, then each saved position's, then (options only) the game's defaults."""
    players: list[tuple[tuple[str, ...], str]] = []
    if "players" in fields:
        players.append((tuple(fields["players"]), "header"))
    for position in positions:
        named = position.get("players")
        if isinstance(named, list) and all(isinstance(p, str) for p in named):
            players.append((tuple(named), "saved position"))
    options: list[tuple[dict[str, Any], str]] = []
    if isinstance(fields.get("options"), dict):
        options.append((fields["options"], "header"))
    for position in positions:
        kept = position.get("options")
        if isinstance(kept, dict):
            options.append((kept, "saved position"))
    options.append((rules.parse_options({}).model_dump(mode="json"), "defaults"))
    seen: set[str] = set()
    for names, from_players in players:
        for chosen, from_options in options:
            key = repr((names, sorted(chosen.items())))
            if key in seen:
                continue
            seen.add(key)
            sources = {from_players, from_options} - {"header"}
            source = " and ".join(
                sorted(f"{s} (options)" if s == "defaults" else s for s in sources)
            )
            yield names, chosen, source or "header"


def _header(
    fields: dict[str, Any], game: str, players: tuple[str, ...], options: dict[str, Any]
) -> GameInfo:
    return GameInfo(
        game_id=fields["game_id"],
        game=game,
        players=players,
        options=options,
        seed=int(fields.get("seed") or 0),
        start_position=fields.get("start_position"),
        created=str(fields.get("created") or ""),
        updated=str(fields.get("updated") or ""),
        status="finished" if fields.get("status") == "finished" else "active",
        outcome=fields.get("outcome") if isinstance(fields.get("outcome"), dict) else None,
        demo=bool(fields.get("demo")),
        entries=int(fields.get("entries") or 0),
        rules_version=int(fields.get("rules_version") or 1),
        base_seq=int(fields.get("base_seq") or 0),
    )


def _parses(rules: AnyRules, payload: str) -> bool:
    try:
        rules.parse_action(payload)
    except RefereeError:
        return False
    return True


def _loads(rules: AnyRules, position: dict[str, Any]) -> bool:
    try:
        rules.load_position(position)
    except RefereeError:
        return False
    return True


def readable_record(journal: Journal, game_id: int) -> dict[str, Any]:
    """What can be read of a game whose header cannot be rebuilt: the header's readable
    columns, what is wrong with the others, and every readable entry in order (the
    read-only offer of ``companion export``)."""
    fields, damaged = journal.header_fields(game_id)
    entries, damage = journal.entries(game_id)
    return {
        "format": DAMAGED_RECORD_FORMAT,
        "game_id": game_id,
        "header": fields,
        "damaged_columns": damaged,
        "entries": [{"seq": e.seq, "kind": e.kind, "payload": e.payload} for e in entries],
        "entries_damage": None if damage is None else damage.describe(),
    }
