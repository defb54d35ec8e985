"""A game in progress: the rules, the history of states, undo/redo and the journal.

``submit`` validates an action against the rules, writes it to the journal (committed)
and only then makes it the current state: an action is acknowledged exactly when it is
durable. Undo and redo are journal entries too, so a resumed game has the same undo
history. Resuming replays the journal from the setup (or the loaded start position);
a damaged row stops the replay at the last good action, is reported with its position
and set aside, and the game goes on from there. A session plays its game alone: the
journal's per-game lock keeps a second program from writing the same game.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, cast, overload

from typing_extensions import TypeVar

from companion.errors import (
    DamagedHeader,
    InvalidOptions,
    InvalidPosition,
    JournalError,
    RefereeError,
    RuleViolation,
)
from companion.events import Event
from companion.games import available_games, get_rules
from companion.header_rebuild import rebuild_header
from companion.journal import (
    Damage,
    Entry,
    EntryKind,
    GameInfo,
    Journal,
    OutcomeMark,
    Snapshot,
)
from companion.model import Frozen
from companion.outcome import Outcome
from companion.position_changes import as_saved, position_changes
from companion.rules import AnyRules, GameState, Rules

RECORD_FORMAT = "colossus-companion/game-record"
RECORD_VERSION = 1
SNAPSHOT_EVERY = 25
"""A position is saved after every 25th entry: when an update changes the rules so that
old moves no longer replay, the game goes on from the last one (versioned replay). No
move depends on it, so it is written off the path from an action to its acknowledgement
(:meth:`Session.save_snapshot`)."""


@dataclass(frozen=True)
class _Differs:
    """Saved positions the replay did not reach: the first entry after which one
    differed, and the differences at the latest."""

    seq: int
    changes: tuple[str, ...]


@dataclass(frozen=True)
class _Replayed:
    session: Session
    damage: Damage | None
    set_aside_from: int | None  # entries from here on go to damaged_entries
    rebase_to: int | None  # record the current rules version (and this base) in the header


def _header(info: GameInfo) -> str:
    return f"Game {info.game_id}'s header (its row in the journal's games table)"


#: A session's state, action and options types. Covariant: a session of one game is a
#: session of "some game" (``Session`` alone, what the kiosk and the referee hold).
S_co = TypeVar("S_co", bound=GameState, default=GameState, covariant=True)
A_co = TypeVar("A_co", bound=Frozen, default=Frozen, covariant=True)
O_co = TypeVar("O_co", bound=Frozen, default=Frozen, covariant=True)


# One game's types, for the constructors (no defaults: inferred from the rules given).
_S = TypeVar("_S", bound=GameState)
_A = TypeVar("_A", bound=Frozen)
_O = TypeVar("_O", bound=Frozen)
#: A game's rules where the caller wants only "a session of some game" (mypy infers a
#: call's types from what the result is passed to first, and the rules class then fits
#: no ``Rules[_S, _A, _O]``).
_SomeRules = Rules[Any, Any, Any]


class Session(Generic[S_co, A_co, O_co]):
    """One game: its rules, its states, and (optionally) its journal.

    Without a journal (``journal=None``) nothing is stored — used for the shop demo and
    for tests that do not care about durability.

    Typed by its game's state, action and options (``Session[KolossusState,
    KolossusAction, KolossusOptions]`` from ``Session.new(KolossusRules())``); one
    started or resumed by the game's name is a ``Session`` of some game.
    """

    def __init__(
        self,
        rules: Rules[S_co, A_co, O_co],
        initial_state: S_co,
        *,
        options: O_co,
        seed: int,
        start_position: dict[str, Any] | None = None,
        journal: Journal | None = None,
        game_id: int | None = None,
    ) -> None:
        self.rules: Rules[S_co, A_co, O_co] = rules
        self.options: O_co = options
        self.seed = seed
        self.start_position = start_position
        self.journal = journal
        self.game_id = game_id
        # What the rules made, kept as every game's (the typed views are below).
        self._states: list[GameState] = [initial_state]
        self._actions: list[Frozen] = []
        self._events: list[tuple[Event, ...]] = []
        self._redo: list[Frozen] = []
        self._recorded_outcome: Outcome | None = None
        self._entry_count = 0  # this game's entries in the journal (for the snapshots)
        self._due_snapshot: tuple[int, GameState] | None = None  # (entry seq, position after it)
        self._saved_seq = 0  # the entry after which the journal last saved the position

    # --- creating and resuming -------------------------------------------------------

    @overload
    @classmethod
    def new(
        cls,
        game: Rules[_S, _A, _O],
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int,
        journal: Journal | None = None,
        demo: bool = False,
        notes: Mapping[str, str] | None = None,
    ) -> Session[_S, _A, _O]: ...

    @overload
    @classmethod
    def new(
        cls,
        game: str | _SomeRules,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int,
        journal: Journal | None = None,
        demo: bool = False,
        notes: Mapping[str, str] | None = None,
    ) -> Session: ...

    @classmethod
    def new(
        cls,
        game: str | Rules[_S, _A, _O],
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int,
        journal: Journal | None = None,
        demo: bool = False,
        notes: Mapping[str, str] | None = None,
    ) -> Session[_S, _A, _O] | Session:
        """Set up a new game (and record it in the journal, if given, with ``notes``: the
        host's state of the game, such as which seats the companion plays, written in
        the same commit as the game's header)."""
        rules = get_rules(game) if isinstance(game, str) else cast(AnyRules, game)
        opts = rules.parse_options(options)
        state = rules.setup(players, opts, seed)
        game_id = None
        if journal is not None:
            game_id = journal.create_game(
                rules.name,
                tuple(state.players),
                opts.model_dump(mode="json"),
                seed,
                demo=demo,
                rules_version=rules.rules_version,
                notes=notes,
            )
            journal.release_all_but(game_id)
        return Session(rules, state, options=opts, seed=seed, journal=journal, game_id=game_id)

    @overload
    @classmethod
    def from_position(
        cls,
        game: Rules[_S, _A, _O],
        position: object,
        *,
        journal: Journal | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Session[_S, _A, _O]: ...

    @overload
    @classmethod
    def from_position(
        cls,
        game: str | _SomeRules,
        position: object,
        *,
        journal: Journal | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Session: ...

    @classmethod
    def from_position(
        cls,
        game: str | Rules[_S, _A, _O],
        position: object,
        *,
        journal: Journal | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Session[_S, _A, _O] | Session:
        """Start from a dumped position instead of a fresh setup."""
        rules = get_rules(game) if isinstance(game, str) else cast(AnyRules, game)
        opts = rules.parse_options(options)
        state = rules.load_position(position)
        dumped = rules.dump_position(state)
        game_id = None
        if journal is not None:
            game_id = journal.create_game(
                rules.name,
                tuple(state.players),
                opts.model_dump(mode="json"),
                state.rng.seed,
                start_position=dumped,
                rules_version=rules.rules_version,
            )
            journal.release_all_but(game_id)
        return Session(
            rules,
            state,
            options=opts,
            seed=state.rng.seed,
            start_position=dumped,
            journal=journal,
            game_id=game_id,
        )

    @classmethod
    def resume(cls, journal: Journal, game_id: int) -> tuple[Session, Damage | None]:
        """Replay a journaled game to play on. Returns the session and the damage found.

        The game is claimed first (GameInUse if another program plays it). A damaged or
        unreplayable entry ends the replay at the last good action; it and everything
        after it are moved aside in the journal (never deleted) so that new actions can
        be recorded. When the rules changed since the game started and its old moves no
        longer replay, the game goes on from its last saved position (``Damage.kind`` is
        then ``rules_changed``).
        """
        journal.claim(game_id)
        journal.release_all_but(game_id)
        replayed = cls._replay(journal, game_id, write=True)
        session = replayed.session
        if not journal.read_only:
            if replayed.set_aside_from is not None:
                reason = replayed.damage.reason if replayed.damage else "cannot replay"
                journal.quarantine(game_id, replayed.set_aside_from, reason)
            if replayed.rebase_to is not None:
                journal.rebase(
                    game_id, base_seq=replayed.rebase_to, rules_version=session.rules.rules_version
                )
            session._sync_outcome()
        return session, replayed.damage

    @classmethod
    def view(cls, journal: Journal, game_id: int) -> tuple[Session, Damage | None]:
        """Replay a journaled game to look at it (export, scores): nothing is claimed or
        written, so it works while another program plays the game, and on a read-only
        journal. The session it returns cannot record actions."""
        replayed = cls._replay(journal, game_id, write=False)
        replayed.session.journal = None
        return replayed.session, replayed.damage

    @classmethod
    def _replay(cls, journal: Journal, game_id: int, *, write: bool) -> _Replayed:
        """Replay the game; a damaged header is rebuilt first from the game's entries
        and saved positions (written back when ``write``), or refused with JournalError
        saying it can only be exported (:mod:`companion.header_rebuild`)."""
        try:
            info = journal.game(game_id)
            rules, opts = cls._rules_of(info)
            return cls._replay_header(journal, info, rules, opts)
        except DamagedHeader as exc:
            rebuilt = rebuild_header(journal, game_id, exc.message, cls._replay_header)
            if write and not journal.read_only:
                journal.rebuild_header(rebuilt.info, rebuilt.note)
        replayed = rebuilt.replayed
        found = replayed.damage
        note = Damage(game_id=game_id, seq=0, reason=rebuilt.note)
        if found is not None:
            note = found.evolve({"reason": f"{rebuilt.note}; {found.reason}"})
        return dataclasses.replace(replayed, damage=note)

    @classmethod
    def _replay_header(
        cls, journal: Journal, info: GameInfo, rules: AnyRules, opts: Frozen
    ) -> _Replayed:
        """Rebuild a game from its header, its base position and its entries; decide
        what must be set aside and whether the game now starts from a saved position.

        Each position the journal saved on the way (what the table saw) is compared with
        the one the replay reaches: a difference, like an old move these rules refuse
        after an update, is a rules change, and the game goes on from the table's last
        saved position (versioned replay)."""
        game_id = info.game_id
        current = rules.rules_version
        entries, damage = journal.entries(game_id)
        start, start_position = cls._start_of(info, rules, opts, journal)
        session = cls._at(journal, info, rules, opts, start, start_position)
        saved = [s for s in journal.snapshots(game_id) if info.base_seq < s.seq <= len(entries)]
        failure, differs = session._replay_entries(
            [e for e in entries if e.seq > info.base_seq], {s.seq: s for s in saved}
        )
        set_aside = damage.seq if damage is not None else None
        if failure is None and differs is None:
            rebase = info.base_seq if info.rules_version != current else None
        elif differs is None and failure is not None and info.rules_version == current:
            seq, error = failure  # same rules, same positions: the row itself is bad
            damage = Damage(game_id=game_id, seq=seq, reason=f"cannot replay: {error}")
            set_aside, rebase = seq, None
        else:
            corrupt = set_aside  # rows already unreadable are set aside all the same
            session, damage, set_aside, rebase = cls._after_rules_change(
                journal, info, rules, opts, entries, (failure, differs, saved), session
            )
            set_aside = set_aside if set_aside is not None else corrupt
        kept = len(entries) if set_aside is None else set_aside - 1
        session._entry_count = kept
        session._saved_seq = max((s.seq for s in saved if s.seq <= kept), default=info.base_seq)
        session._recorded_outcome = (
            None if info.outcome is None else Outcome.model_validate(info.outcome)
        )
        return _Replayed(session, damage, set_aside, rebase)

    @classmethod
    def _after_rules_change(
        cls,
        journal: Journal,
        info: GameInfo,
        rules: AnyRules,
        opts: Frozen,
        entries: list[Entry],
        found: tuple[tuple[int, RefereeError] | None, _Differs | None, list[Snapshot]],
        session: Session,
    ) -> tuple[Session, Damage, int | None, int]:
        """These rules replay the game differently (an old move refused, or a saved
        position not reached): go on from the last position the table saw — the latest
        saved one — replaying only what came after it (versioned replay)."""
        failure, differs, saved = found
        if info.rules_version != rules.rules_version:
            versions = (
                f"rules version {rules.rules_version}; the game started under {info.rules_version}"
            )
        else:
            versions = f"these rules (version {rules.rules_version}, changed without a new number)"
        what = (
            f"its moves no longer replay under {versions}"
            if differs is None
            else f"under {versions}, its moves lead to other counts than the table's (first"
            f" seen in the position saved after entry {differs.seq}): " + "; ".join(differs.changes)
        )
        changes = () if differs is None else differs.changes
        snapshot, state = None, None
        for candidate in reversed(saved):
            try:
                state = rules.load_position(candidate.position)
            except RefereeError:
                continue
            snapshot = candidate
            break
        if snapshot is None or state is None:
            # Only a refusal gets here: a differing position is a loadable saved one.
            seq, error = failure if failure is not None else (info.base_seq + 1, None)
            reason = (
                f"entry {seq} no longer replays under {versions} ({error}); it and the"
                " entries after it are set aside"
            )
            damage = Damage(game_id=info.game_id, seq=seq, reason=reason, kind="rules_changed")
            return session, damage, seq, info.base_seq
        session = cls._at(journal, info, rules, opts, state, snapshot.position)
        later, _ = session._replay_entries([e for e in entries if e.seq > snapshot.seq], {})
        reason = (
            f"{what}. It goes on from the position the table saw, saved after entry"
            f" {snapshot.seq}, and the undo history before it is gone"
        )
        set_aside = None
        if later is not None:
            set_aside = later[0]
            reason += f"; entries from {set_aside} on are set aside ({later[1]})"
        damage = Damage(
            game_id=info.game_id,
            seq=snapshot.seq,
            reason=reason,
            kind="rules_changed",
            changes=changes,
        )
        return session, damage, set_aside, snapshot.seq

    @classmethod
    def _at(
        cls,
        journal: Journal,
        info: GameInfo,
        rules: AnyRules,
        opts: Frozen,
        state: GameState,
        start_position: dict[str, Any] | None,
    ) -> Session:
        return Session(
            rules,
            state,
            options=opts,
            seed=info.seed,
            start_position=start_position,
            journal=journal,
            game_id=info.game_id,
        )

    def _replay_entries(
        self, entries: Sequence[Entry], saved: Mapping[int, Snapshot]
    ) -> tuple[tuple[int, RefereeError] | None, _Differs | None]:
        """Apply journal entries in order: the first that fails, and why (or None); and
        how the latest position in ``saved`` (by entry) that the replay reached differs
        from it (None when each was reached as saved)."""
        differs: _Differs | None = None
        for entry in entries:
            try:
                if entry.kind == "act":
                    self._do(self._rules.parse_action(entry.payload))
                elif entry.kind == "undo":
                    self._undo()
                else:
                    self._redo_one()
            except RefereeError as error:
                return (entry.seq, error), differs
            snapshot = saved.get(entry.seq)
            if snapshot is not None:
                reached = as_saved(self._rules.dump_position(self.state))
                changes = position_changes(snapshot.position, reached)
                if changes:
                    first = entry.seq if differs is None else differs.seq
                    differs = _Differs(seq=first, changes=changes)
        return None, differs

    @staticmethod
    def _rules_of(info: GameInfo) -> tuple[AnyRules, Frozen]:
        """The rules and options a header names; JournalError naming the header when it
        names an unknown game or options that do not validate (the row was damaged)."""
        if info.game not in available_games():
            raise DamagedHeader(
                f"{_header(info)} names an unknown game {info.game!r}: it is damaged."
            )
        rules = get_rules(info.game)
        try:
            return rules, rules.parse_options(info.options)
        except InvalidOptions as exc:
            raise DamagedHeader(f"{_header(info)} cannot start the game: {exc}") from None

    @staticmethod
    def _start_of(
        info: GameInfo, rules: AnyRules, opts: Frozen, journal: Journal
    ) -> tuple[GameState, dict[str, Any] | None]:
        """The first state to replay from and the position it came from: the setup, the
        loaded start position, or the snapshot the game was rebased on."""
        try:
            if info.base_seq > 0:
                snapshot = journal.snapshot(info.game_id, at=info.base_seq)
                if snapshot is None:
                    raise JournalError(
                        f"Game {info.game_id} goes on from the position saved after entry"
                        f" {info.base_seq}, which cannot be read."
                    )
                return rules.load_position(snapshot.position), snapshot.position
            if info.start_position is not None:
                return rules.load_position(info.start_position), info.start_position
        except (InvalidOptions, InvalidPosition) as exc:
            raise JournalError(f"{_header(info)} cannot start the game: {exc}") from None
        try:
            return rules.setup(info.players, opts, info.seed), None
        except (InvalidOptions, InvalidPosition) as exc:  # its players: a damaged header
            raise DamagedHeader(f"{_header(info)} cannot start the game: {exc}") from None

    # --- the game --------------------------------------------------------------------

    @property
    def _rules(self) -> AnyRules:
        """:attr:`rules` as every game's: the states and actions kept here are its own."""
        return cast(AnyRules, self.rules)

    @property
    def state(self) -> S_co:
        return cast(S_co, self._states[-1])  # made by self.rules, as every state here

    @property
    def initial_state(self) -> S_co:
        return cast(S_co, self._states[0])

    @property
    def actions(self) -> tuple[A_co, ...]:
        """The actions that led to the current state (undone ones excluded)."""
        return cast(tuple[A_co, ...], tuple(self._actions))

    @property
    def events(self) -> tuple[tuple[Event, ...], ...]:
        """The events of each action in :attr:`actions`, for the game log."""
        return tuple(self._events)

    @property
    def outcome(self) -> Outcome | None:
        return self._rules.outcome(self.state)

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def submit(self, action: object) -> tuple[Event, ...]:
        """Apply an action (a model, a dict or JSON text); durable before it returns.

        Raises InvalidAction / RuleViolation (state unchanged, nothing written) or
        JournalError (state unchanged: an action that could not be stored is refused).
        """
        parsed = self._rules.parse_action(action)
        new_state, events = self._rules.apply(self.state, parsed)
        self._commit(
            "act", new_state, self._rules.action_adapter.dump_json(parsed).decode(), action=parsed
        )
        self._push(parsed, new_state, events)
        self._redo.clear()
        return events

    def undo(self) -> A_co:
        """Take back the last action; returns it. RuleViolation if there is none."""
        if not self._actions:
            raise RuleViolation("There is nothing to undo.")
        self._commit("undo", self._states[-2])
        return cast(A_co, self._undo())

    def redo(self) -> tuple[Event, ...]:
        """Apply the last undone action again."""
        if not self._redo:
            raise RuleViolation("There is nothing to redo.")
        action = self._redo[-1]
        new_state, events = self._rules.apply(self.state, action)
        self._commit("redo", new_state, action=action)
        self._redo.pop()
        self._push(action, new_state, events)
        return events

    def save_snapshot(self) -> bool:
        """Write the position due after every :data:`SNAPSHOT_EVERY`-th entry, if one
        waits (True when written).

        Dumping a position costs as much as the rest of a move's commit (0.3 ms of CPU
        for an island), so the move's own commit does not wait for it: the kiosk calls
        this in the frame after the move is shown, the referee after its answer, and a snapshot
        nobody saved goes with the next entry's commit. One that is never written costs
        nothing but a longer replay. JournalError if the write fails (nothing changes).
        """
        due, self._due_snapshot = self._due_snapshot, None
        if due is None or self.journal is None or self.game_id is None:
            return False
        self.journal.save_snapshot(self.game_id, self._snapshot(*due))
        self._saved_seq = max(self._saved_seq, due[0])
        return True

    def save_position(self) -> bool:
        """Save the position on the table now, after the game's last entry (True when
        written): its host calls this when the game is left or the program closes, so
        the last position the table saw is the journal's latest, and a rules update
        found on the next resume goes on from exactly there (versioned replay).

        Nothing is written for a game outside the journal, on a read-only journal, for
        a game the journal no longer plays (another one was opened since), or when that
        position is saved already. JournalError if the write fails (nothing changes;
        only a longer replay is lost)."""
        journal, game_id, seq = self.journal, self.game_id, self._entry_count
        if journal is None or game_id is None or journal.read_only or seq <= self._saved_seq:
            return False
        if not journal.holds(game_id):
            return False
        self._due_snapshot = None
        journal.save_snapshot(game_id, self._snapshot(seq, self.state))
        self._saved_seq = seq
        return True

    # --- export ----------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The game as a JSON record: players, options, seed, actions (and their words),
        outcome, scores."""
        return self._record(self.state, self._actions)

    def _record(self, state: GameState, actions: Sequence[Frozen]) -> dict[str, Any]:
        outcome = self._rules.outcome(state)
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self._rules.name,
            "title": self._rules.title,
            "game_id": self.game_id,
            "players": list(state.players),
            "options": self.options.model_dump(mode="json"),
            "seed": self.seed,
            "start_position": self.start_position,
            "actions": [self._rules.dump_action(a) for a in actions],
            # Each action in the players' words, as the table read it: said in the state
            # before it (the states run one ahead of the actions once a game is played).
            "texts": [
                self._rules.describe(before, action)
                for before, action in zip(self._states, actions, strict=False)
            ],
            "outcome": None if outcome is None else outcome.model_dump(mode="json"),
            "scores": self._rules.scores(state).model_dump(mode="json"),
        }

    # --- internals -------------------------------------------------------------------

    def _commit(
        self,
        kind: EntryKind,
        next_state: GameState,
        payload: str = "",
        *,
        action: Frozen | None = None,
    ) -> None:
        """Record an entry and the finished mark it changes, as one commit; only then
        may the caller make ``next_state`` current (JournalError: nothing changed).

        When the journal keeps an outbox for the fleet, the entry that finishes the game
        (``action`` applied) queues the game's record there in the same commit.
        """
        outcome = self._rules.outcome(next_state)
        changed = outcome != self._recorded_outcome
        if self.journal is not None and self.game_id is not None:
            outgoing: tuple[str, ...] = ()
            if changed and outcome is not None and self.journal.keeps_outbox:
                done = self._actions if action is None else (*self._actions, action)
                record = self._record(next_state, done)
                outgoing = (json.dumps(record, sort_keys=True),)
            mark = OutcomeMark(outcome=_dumped(outcome)) if changed else None
            due = self._due_snapshot
            snapshot = None if due is None else self._snapshot(*due)
            seq = self.journal.append(
                self.game_id, kind, payload, mark=mark, snapshot=snapshot, outgoing=outgoing
            )
            self._entry_count += 1
            if due is not None:
                self._saved_seq = max(self._saved_seq, due[0])
            self._due_snapshot = None
            if self._entry_count % SNAPSHOT_EVERY == 0:
                self._due_snapshot = (seq, next_state)
        self._recorded_outcome = outcome

    def _snapshot(self, seq: int, state: GameState) -> Snapshot:
        position = self._rules.dump_position(state)
        return Snapshot(seq=seq, rules_version=self._rules.rules_version, position=position)

    def _push(self, action: Frozen, state: GameState, events: tuple[Event, ...]) -> None:
        self._actions.append(action)
        self._states.append(state)
        self._events.append(events)

    def _do(self, action: Frozen) -> tuple[Event, ...]:
        new_state, events = self._rules.apply(self.state, action)
        self._push(action, new_state, events)
        self._redo.clear()
        return events

    def _undo(self) -> Frozen:
        if not self._actions:
            raise RuleViolation("There is nothing to undo.")
        self._states.pop()
        self._events.pop()
        action = self._actions.pop()
        self._redo.append(action)
        return action

    def _redo_one(self) -> tuple[Event, ...]:
        if not self._redo:
            raise RuleViolation("There is nothing to redo.")
        action = self._redo.pop()
        new_state, events = self._rules.apply(self.state, action)
        self._push(action, new_state, events)
        return events

    def _sync_outcome(self) -> None:
        """Repair the journal's finished mark after a resume if the replay disagrees
        (entries were set aside, or the mark's write was lost)."""
        outcome = self.outcome
        if outcome == self._recorded_outcome:
            return
        if self.journal is not None and self.game_id is not None:
            self.journal.set_outcome(self.game_id, _dumped(outcome))
        self._recorded_outcome = outcome


def _dumped(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.model_dump(mode="json")


def resume_problems(journal: Journal) -> list[str]:
    """A sentence for each game that cannot be resumed as its header stands: one whose
    header is rebuilt when it is resumed, and one that cannot be resumed at all (and
    why). For ``companion doctor``; nothing is written."""
    problems: list[str] = []
    for game_id in journal.game_ids():
        try:
            info = journal.game(game_id)
            rules, opts = Session._rules_of(info)
            Session._start_of(info, rules, opts, journal)
        except DamagedHeader as exc:
            try:
                rebuilt = rebuild_header(journal, game_id, exc.message, Session._replay_header)
            except RefereeError as error:
                problems.append(f"Game {game_id} cannot be resumed: {error.message}")
                continue
            problems.append(
                f"Game {game_id} cannot be resumed as its header stands: resuming it"
                f" rebuilds the header ({rebuilt.note})."
            )
        except RefereeError as exc:
            problems.append(f"Game {game_id} cannot be resumed: {exc.message}")
    return problems
