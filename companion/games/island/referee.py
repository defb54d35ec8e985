"""The referee skeleton both island games share (Beast Master and Colossi).

Both games apply an action the same way (what the game waits for comes first, then the
game's own phases), ask the same player, end the same way (most Gold; a tie is shared
or picked by the table), keep the same score sheet, highlights and views (panel, board,
cells of actions) and check loaded positions the same way. :class:`IslandRules` does
all that once; each game fills in its phases through a few hooks. Option fields are
declared with :func:`companion.games.options.option`, like every game's.

An action goes one way in both games (:meth:`IslandRules.apply`): a correction to its
correction handler; after the end, a refusal; while the game waits for something (a
displacement, a discard, a roll...), only the one answer the pending head takes
(:func:`expect`); otherwise the phase's guard (:class:`PhaseRule`, data on each game)
and a ``match`` handing each action type to its own handler (each game's ``dispatch``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar, cast

from companion import words
from companion.dice import Roll, resolve_roll
from companion.errors import InvalidPosition
from companion.events import DiceRolled, Event, GameEnded
from companion.games.corrections import (
    CORRECTION_RULING,
    Correction,
    change_text,
    check_count,
    corrected,
    game_over,
    impossible,
    nothing_to_correct,
)
from companion.games.options import option
from companion.highlights import Highlight
from companion.model import Frozen
from companion.outcome import Outcome, ScoreSheet
from companion.rules import ActionRole, ActionT, OptionsT, Rules, refuse
from companion.views import NO_CELLS, ActionCells, BoardView, PanelView

from .board import IslandBoard
from .mechanics import (
    Work,
    ledger_totals,
)
from .model import (
    HAND_LIMIT,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    IslandConfig,
    IslandState,
    Move,
    PendingDiscard,
    PendingDisplace,
    S,
    SpaceState,
    Spawn,
)
from .phrases import shared_words, space_name, value_text
from .turns import displace_targets, do_displace, do_paid_move, island_highlights, moves_from
from .views import island_board, island_panel, shared_action_cells

TiePolicy = Literal["shared", "manual"]
A = TypeVar("A")


class IslandOptions(Frozen):
    """Options that mean the same in both games (same ruling, same text)."""

    board: IslandBoard | None = option(
        None,
        "The island's spaces, from a board file; without one a practice island.",
        "BM-R01",
        label="Island board",
        group="box",
        words={None: "Practice island"},
    )


def leaders(gold: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Seats with the most Gold (several on a tie)."""
    best = max(gold)
    return tuple(seat for seat, g in enumerate(gold) if g == best)


def tie_choices(gold: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The table's listed choices on a tie: all tied players together, or each alone."""
    tied = leaders(gold)
    yield tied
    for seat in tied:
        yield (seat,)


def expect(action: object, kind: type[A], refusal: str, ruling: str | None = None) -> A:
    """``action``, if it is the one kind of answer the pending head takes; else the refusal."""
    if not isinstance(action, kind):
        raise refuse(refusal, ruling)
    return action


@dataclass(frozen=True)
class PhaseRule:
    """The actions a phase takes while nothing is pending (besides the game's
    :attr:`IslandTraits.any_phase` ones); any other is refused with ``refusal`` (a
    sentence, or a function making it from the state) citing ``ruling``."""

    takes: tuple[type[object], ...]
    refusal: str | Callable[[Any], str]
    ruling: str | None = None

    def check(self, state: IslandState, action: object) -> None:
        if not isinstance(action, self.takes):
            text = self.refusal if isinstance(self.refusal, str) else self.refusal(state)
            raise refuse(text, self.ruling)


@dataclass(frozen=True)
class IslandTraits:
    """Where the two island games differ as data (each game's ``rules.py`` has one)."""

    #: Each phase as the facts panel names it.
    phase_names: Mapping[str, str]
    #: The actions each phase takes while nothing is pending (each phase refuses the
    #: others with its own sentence); a phase not listed takes only :attr:`any_phase`
    #: ones and refuses the others with "That is not possible now."
    phase_rules: Mapping[str, PhaseRule]
    #: Actions taken in any phase while nothing is pending (their handlers check the moment).
    any_phase: tuple[type[object], ...]
    #: Ruling of the end-of-game tie (``tie_policy``).
    tie_ruling: str
    #: Ruling of the Acolytes each player owns (a correction cannot conjure more).
    acolytes_ruling: str
    #: Ruling that a Colossus never leaves the island.
    colossus_stays_ruling: str
    #: What a paid Movement is called in the titles of its families ("Movement" or
    #: "Action"; a state's texts read :attr:`IslandConfig.movement_unit`).
    movement_unit: str = "Movement"
    #: Ruling quoted when an action arrives after the end (None: no ruling).
    game_over_ruling: str | None = None
    #: Ruling of the hand limit of 6.
    hand_limit_ruling: str | None = None
    #: Ruling that Gold never drops below 0.
    gold_floor_ruling: str = CORRECTION_RULING
    #: Whether the game has Banners to light.
    shows_banners: bool = False
    #: Whether the space template offers the Gold cubes (Colossi).
    corrects_cubes: bool = False


def pending_answers(state: IslandState) -> Iterator[DisplaceColossus | DiscardToLimit]:
    """Legal answers to the shared things a game waits for (displacement, discard)."""
    head = state.pending[0]
    if isinstance(head, PendingDisplace):
        for space in displace_targets(state, head):
            yield DisplaceColossus(to=space)
    elif isinstance(head, PendingDiscard):
        yield DiscardToLimit()


#: The roles of the actions both island games share (``Rules.action_role``).
_ROLES: dict[str, ActionRole] = {
    "spawn": ActionRole.PLACE,
    "correct_player": ActionRole.CORRECTION,
    "correct_space": ActionRole.CORRECTION,
    "correct_movements": ActionRole.CORRECTION,
}


class IslandRules(Rules[S, ActionT, OptionsT]):
    """What both island referees do alike; subclasses provide the hooks below."""

    def action_role(self, action_type: str) -> ActionRole | None:
        return _ROLES.get(action_type) or super().action_role(action_type)

    min_players = 2
    max_players = 4
    board_kind = "island"

    #: What sets the game apart as data: its phases, the rulings it cites, its words.
    traits: ClassVar[IslandTraits]

    # --- hooks ---------------------------------------------------------------------

    @abstractmethod
    def island_config(self, state: S) -> IslandConfig:
        """Where this game's island rules differ (see :class:`IslandConfig`)."""

    @abstractmethod
    def work_label(self, state: S) -> str:
        """The label of gold-ledger entries made by an action in ``state``."""

    @abstractmethod
    def resolve_pending(self, work: Work[S], action: ActionT) -> None:
        """Answer the game's own pending head (shared ones are handled already)."""

    @abstractmethod
    def dispatch(self, work: Work[S], action: ActionT) -> None:
        """One handler per action type, once the phase's guard has let ``action`` through."""

    @abstractmethod
    def pending_actions(self, state: S) -> Iterator[ActionT]:
        """The legal answers to the pending head (:func:`pending_answers` for shared ones)."""

    @abstractmethod
    def phase_actions(self, state: S) -> Iterator[ActionT]:
        """The legal actions of the phase while nothing is pending."""

    def settle(self, work: Work[S]) -> None:
        """Tidy up after an action: a displacement whose Colossus already left is void."""
        work.pending = [
            p
            for p in work.pending
            if not (isinstance(p, PendingDisplace) and work.colossi[p.player] != p.space)
        ]

    def deciding_seat(self, state: S) -> int:
        """Who decides when nothing is pending (the active player unless a phase says)."""
        return state.active

    def can_move(self, state: S) -> bool:
        return state.phase == "actions" and not state.pending and state.movements_left > 0

    def harvestable_now(self, state: S, seat: int | None) -> set[str] | None:
        """Spaces to light as harvestable now (None: this game or phase has none)."""
        return None

    def check_pieces(self, state: S) -> None:
        """Raise InvalidPosition if the game's own piece counts do not add up."""

    @abstractmethod
    def asking(self, state: S) -> str:
        """The status line of a game that goes on (:meth:`status` covers the end)."""

    # --- queries ---------------------------------------------------------------------

    def legal_actions(self, state: S) -> Iterator[ActionT]:
        """None once over; the answers to the pending head; else the phase's actions."""
        if state.phase == "over":
            return
        if state.pending:
            yield from self.pending_actions(state)
        else:
            yield from self.phase_actions(state)

    def current_player(self, state: S) -> int | None:
        if state.phase == "over":
            return None
        if state.pending:
            who = getattr(state.pending[0], "player", None)
            return state.active if who is None else int(who)
        return self.deciding_seat(state)

    def status(self, state: S) -> str:
        if state.phase == "over":
            out = self.outcome(state)
            return out.text if out else "Game over."
        return self.asking(state)

    def outcome(self, state: S) -> Outcome | None:
        if state.phase != "over":
            return None
        names = " and ".join(state.players[w] for w in state.winners)
        single = len(state.winners) == 1
        return Outcome(
            winners=state.winners,
            reason="most_gold" if single else "shared_gold",
            text=f"{names} {'wins' if single else 'share the win'} with {max(state.gold)} Gold.",
        )

    def scores(self, state: S) -> ScoreSheet:
        return ScoreSheet(measure="gold", columns=state.players, rows=state.history)

    def highlights(self, state: S, focus: str | None = None) -> tuple[Highlight, ...]:
        seat = self.current_player(state)
        return island_highlights(
            state,
            self.island_config(state),
            focus,
            seat,
            can_move=self.can_move(state),
            banners=self.traits.shows_banners,
            harvestable=self.harvestable_now(state, seat),
        )

    # --- views (companion.views) ----------------------------------------------------------

    def panel_facts(self, state: S) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The game's own facts, shown before and after the Beasts."""
        return (), ()

    def panel(self, state: S) -> PanelView:
        before, after = self.panel_facts(state)
        return island_panel(
            state,
            turn=self.current_player(state),
            phase=self.traits.phase_names.get(
                state.phase, state.phase.replace("_", " ").capitalize()
            ),
            before=before,
            after=after,
        )

    def board(self, state: S) -> BoardView:
        return island_board(state, self.island_config(state))

    def game_action_cells(self, state: S, action: ActionT) -> ActionCells:
        """The cells of the game's own actions (the shared ones are known already)."""
        return NO_CELLS

    def action_cells(self, state: S, action: ActionT) -> ActionCells:
        shared = shared_action_cells(state, action)
        return self.game_action_cells(state, action) if shared is None else shared

    def legal_actions_at(
        self,
        state: S,
        *,
        origin: str | None = None,
        target: str | None = None,
        touching: str | None = None,
    ) -> Iterator[ActionT]:
        """An origin query generates only the moves from that space (the only legal
        actions with an origin: Movements and a pending displacement), in
        :meth:`legal_actions` order; other queries filter :meth:`legal_actions`."""
        if origin is None:
            yield from super().legal_actions_at(state, target=target, touching=touching)
            return
        for action in self._moves_from(state, origin):
            if target is not None or touching is not None:
                cells = self.action_cells(state, action)
                if target is not None and cells.target != target:
                    continue
                if touching is not None and touching not in cells.touched:
                    continue
            yield action

    def _moves_from(self, state: S, origin: str) -> Iterator[ActionT]:
        if state.phase == "over":
            return
        if state.pending:
            head = state.pending[0]
            if isinstance(head, PendingDisplace) and head.space == origin:
                yield from (cast(ActionT, a) for a in pending_answers(state))
        elif self.can_move(state):
            cfg = self.island_config(state)
            yield from (cast(ActionT, m) for m in moves_from(state, cfg, state.active, origin))

    def check_position(self, state: S) -> None:
        if ledger_totals(state.ledger, len(state.players)) != state.gold:
            raise InvalidPosition("Gold does not match the gold ledger.")
        self.check_pieces(state)
        if len(state.spaces) != len(state.board.spaces):
            raise InvalidPosition("The spaces do not match the board.")
        for field in ("active", "mantle"):
            seat = getattr(state, field, 0)
            if seat >= len(state.players):
                raise InvalidPosition(
                    f"{field} is seat {seat}; the seats are 0..{len(state.players) - 1}."
                )

    # --- words (the phrasebook, :mod:`.phrases`) -----------------------------------------

    def describe(self, state: S, action: ActionT) -> str:
        """The actions both games share (:func:`.phrases.shared_words`), else the
        game's own (:meth:`game_words`): spaces by their board labels, counts spelled."""
        cfg = self.island_config(state)
        actor = self.effect_actor(state)
        text = shared_words(state, action, actor, cfg.movement_unit)
        return self.game_words(state, action) if text is None else text

    def game_words(self, state: S, action: ActionT) -> str:
        """The game's own actions in words (each game's phrasebook)."""
        return super().describe(state, action)

    def effect_actor(self, state: S) -> int:
        """Whose "self" an effect applied outside a card is (the active player)."""
        return state.active

    def family_title(self, action_type: str) -> str:
        """The model's title, a paid move called as this game calls it ("Action")."""
        title = super().family_title(action_type)
        unit = self.traits.movement_unit
        return title if unit == "Movement" else title.replace("Movement", unit)

    def field_words(self, action_type: str, field: str) -> str:
        """The field's title, a paid move called as this game calls it."""
        words_ = super().field_words(action_type, field)
        unit = self.traits.movement_unit
        return words_ if unit == "Movement" else words_.replace("Movement", unit)

    def value_words(self, state: S, action_type: str, field: str, value: object) -> str:
        """Spaces by their board labels, seats as names, pieces, card kinds and the
        game's own coded values (:meth:`game_value_words`)."""
        text = self.game_value_words(state, action_type, field, value)
        if text is None:
            text = value_text(state, field, value, self.island_config(state).movement_unit)
        return super().value_words(state, action_type, field, value) if text is None else text

    def game_value_words(self, state: S, action_type: str, field: str, value: object) -> str | None:
        """A value of the game's own fields in words (None: the shared words say it)."""
        return None

    def cell_words(self, state: S, cell: str) -> str:
        """A space by the short label its board file gives it (``C3``), never its ID."""
        return space_name(state.board, cell)

    # --- apply -----------------------------------------------------------------------

    def apply(self, state: S, action: ActionT) -> tuple[S, tuple[Event, ...]]:
        """Corrections aside: after the end nothing; while something is pending only
        its answer; otherwise the phase's guard, then the action's own handler."""
        if isinstance(action, Correction):
            return self._correct(state, action)
        if state.phase == "over":
            raise refuse("The game is over.", self.traits.game_over_ruling)
        work = Work(state, self.island_config(state))
        work.label = self.work_label(state)
        if state.pending:
            self._answer_pending(work, action)
        else:
            self.act(work, action)
        self.settle(work)
        return work.finish(), tuple(work.events)

    def act(self, work: Work[S], action: ActionT) -> None:
        """Nothing pending: the phase's guard (:attr:`phase_rules`), then :meth:`dispatch`."""
        state = work.state
        if not isinstance(action, self.traits.any_phase):
            rule = self.traits.phase_rules.get(state.phase)
            if rule is None:
                raise refuse("That is not possible now.")
            rule.check(state, action)
        self.dispatch(work, action)

    def _answer_pending(self, work: Work[S], action: ActionT) -> None:
        """The shared pending heads take one answer each; the game's own go to
        :meth:`resolve_pending`."""
        head = work.state.pending[0]
        match head:
            case PendingDiscard():
                refusal = f"{work.name(head.player)} must first discard down to 6 cards."
                expect(action, DiscardToLimit, refusal, self.traits.hand_limit_ruling)
                self._discard_to_limit(work, head)
            case PendingDisplace():
                refusal = (
                    f"{work.name(head.player)} must first move their Colossus off "
                    f"{work.at(head.space)}."
                )
                do_displace(work, head, expect(action, DisplaceColossus, refusal))
            case _:
                self.resolve_pending(work, action)

    def _discard_to_limit(self, work: Work[S], head: PendingDiscard) -> None:
        work.pending.pop(0)
        if work.cards[head.player] > HAND_LIMIT:
            work.note(
                f"{work.name(head.player)} discards "
                f"{words.count(work.cards[head.player] - HAND_LIMIT, 'card')} down to 6."
            )
            work.cards[head.player] = HAND_LIMIT

    # --- handlers of shared actions ---------------------------------------------------

    def paid_move(self, work: Work[S], action: Move | Spawn) -> None:
        """A Movement or a spawn of the active player, paid with a Movement/Action."""
        do_paid_move(work, work.state.active, action)

    # --- manual corrections (0.2.1) ---------------------------------------------------

    def corrections(self, state: S) -> tuple[ActionT, ...]:
        """Per player Gold and cards, the Movements left in an Actions turn, every space."""
        if state.phase in ("over", "tie"):
            return ()
        out: list[Correction] = [
            CorrectPlayer(player=seat, gold=state.gold[seat], cards=state.cards_in_hand[seat])
            for seat in range(len(state.players))
        ]
        if state.phase == "actions":
            out.append(CorrectMovements(movements=state.movements_left))
        cubes = self.traits.corrects_cubes
        for sid, sp in zip(state.board.ids, state.spaces, strict=True):
            out.append(
                CorrectSpace(
                    space=sid,
                    acolytes=sp.acolytes,
                    colossi=tuple(int(c == sid) for c in state.colossi),
                    cubes=sp.cubes if cubes else None,
                )
            )
        templates: tuple[ActionT, ...] = tuple(self.action_adapter.validate_python(c) for c in out)
        return templates

    def _correct(self, state: S, action: Correction) -> tuple[S, tuple[Event, ...]]:
        """Set what the table shows; the rules then apply (hand limit, displacements)."""
        if state.phase in ("over", "tie"):
            raise game_over()
        work = Work(state, self.island_config(state))
        work.label = "Correction"
        match action:
            case CorrectPlayer():
                text = self._correct_player(work, action)
            case CorrectSpace():
                text = self._correct_space(work, action)
            case CorrectMovements():
                text = self._correct_movements(work, action)
            case _:
                raise impossible(f"{self.title} has no such correction.")
        work.events.insert(0, corrected(action.type, text))
        self.settle(work)
        return work.finish(), tuple(work.events)

    def _correct_movements(self, work: Work[S], action: CorrectMovements) -> str:
        state = work.state
        unit = work.cfg.movement_unit
        if state.phase != "actions":
            raise impossible(f"{unit}s are only counted during an Actions turn.")
        check_count(action.movements, f"{unit}s left")
        if action.movements == state.movements_left:
            are = "is" if action.movements == 1 else "are"
            raise nothing_to_correct(f"{words.count(action.movements, unit)} {are} already left")
        work.movements_left = action.movements
        return f"{unit}s left {change_text(state.movements_left, action.movements)}."

    def _seat(self, state: S, seat: int) -> str:
        if not 0 <= seat < len(state.players):
            raise impossible(f"There is no player {seat}.")
        return state.players[seat]

    def _correct_player(self, work: Work[S], action: CorrectPlayer) -> str:
        state = work.state
        name = self._seat(state, action.player)
        if action.gold < 0:
            raise impossible(
                f"Gold cannot drop below 0; {action.gold} is not possible.",
                self.traits.gold_floor_ruling,
            )
        check_count(action.cards, f"{name}'s cards in hand")
        gold, cards = state.gold[action.player], state.cards_in_hand[action.player]
        if (action.gold, action.cards) == (gold, cards):
            raise nothing_to_correct(
                f"{name} already has {gold} Gold and {words.count(cards, 'card')}"
            )
        changed = []
        if action.gold != gold:
            work.add_gold(action.player, action.gold - gold, "correction")
            changed.append(f"Gold {change_text(gold, action.gold)}")
        if action.cards != cards:
            work.cards[action.player] = action.cards
            changed.append(f"cards in hand {change_text(cards, action.cards)}")
            if work.cfg.hand_limit_immediate:
                work.check_hand_limit(action.player)  # BM-R08: 7+ cards discard at once
        return f"{name}: " + ", ".join(changed) + "."

    def _correct_space(self, work: Work[S], action: CorrectSpace) -> str:
        state = work.state
        here = self._check_space(work, action)
        idx = work.i(action.space)
        space = work.at(action.space)
        if action.cubes is not None:
            check_count(action.cubes, f"Gold cubes on {space}")
        cubes = here.cubes if action.cubes is None else action.cubes
        colossi = tuple(int(c == action.space) for c in state.colossi)
        if (action.acolytes, action.colossi, cubes) == (here.acolytes, colossi, here.cubes):
            raise nothing_to_correct(f"{space} already looks like this")
        changed = []
        for seat, count in enumerate(action.acolytes):
            delta = count - here.acolytes[seat]
            if delta:
                work.acolytes[idx][seat] = count
                work.in_hand[seat] -= delta
                changed.append(
                    f"{state.players[seat]}'s Acolytes {change_text(here.acolytes[seat], count)}"
                )
        for seat, on in enumerate(action.colossi):
            if on and state.colossi[seat] != action.space:
                work.colossi[seat] = action.space  # placed, not entering: no exploring
                changed.append(f"{state.players[seat]}'s Colossus is here")
        if cubes != here.cubes:
            work.cubes[idx] = cubes
            changed.append(f"Gold cubes {change_text(here.cubes, cubes)}")
        return f"{space}: " + ", ".join(changed) + "."

    def _check_space(self, work: Work[S], action: CorrectSpace) -> SpaceState:
        """Refuse pieces the box or the rules cannot put on the space; its contents now."""
        state = work.state
        n = len(state.players)
        if not state.board.has(action.space):
            raise impossible(f"There is no space {action.space!r} on this island.", "BM-R01")
        if len(action.acolytes) != n or len(action.colossi) != n:
            raise impossible(f"Give the Acolytes and the Colossi of all {n} players.")
        idx = work.i(action.space)
        here = state.spaces[idx]
        space = work.at(action.space)
        for seat, count in enumerate(action.acolytes):
            check_count(count, f"{state.players[seat]}'s Acolytes on {space}")
            spare = state.acolytes_in_hand[seat] + here.acolytes[seat]
            if count > spare:
                raise impossible(
                    f"{state.players[seat]} has only {words.count(spare, 'Acolyte')} "
                    f"for {space} "
                    "(the others are elsewhere on the island).",
                    self.traits.acolytes_ruling,
                )
        if any(c not in (0, 1) for c in action.colossi):
            raise impossible("Each player has one Colossus: say 1 if it stands here, else 0.")
        for seat, on in enumerate(action.colossi):
            if not on and state.colossi[seat] == action.space:
                raise impossible(
                    f"{state.players[seat]}'s Colossus never leaves the island: correct the "
                    "space it stands on instead.",
                    self.traits.colossus_stays_ruling,
                )
        if here.water and (any(action.acolytes) or any(action.colossi)):
            raise impossible(f"{space} is Water: nobody stands there.", "CA-R09")
        if work.cfg.beast_kills and work.beast_at(action.space) and any(action.acolytes):
            raise impossible(f"An Acolyte on the Beast's space ({space}) dies at once.", "BM-R07")
        return here

    def roll(
        self,
        work: Work[S],
        action: Roll,
        ruling: str,
        text: Callable[[str, tuple[int, ...]], str],
    ) -> tuple[int, ...]:
        """Resolve the requested dice (software or entered faces) and log the roll;
        ``text`` makes the log line from the request's label and the faces."""
        request = self.dice_request(work.state)
        assert request is not None, "roll() is only called while dice are requested"
        faces, rng = resolve_roll(request, action, work.state.rng, ruling=ruling)
        work.update["rng"] = rng
        work.events.append(
            DiceRolled(
                request=request, values=faces, source=action.source, text=text(request.label, faces)
            )
        )
        return faces

    # --- the end of the game -----------------------------------------------------------

    def finish_game(self, work: Work[S], tie_policy: TiePolicy, text: str) -> None:
        """Most Gold wins; a tie is shared, or the table picks (``tie_policy = manual``)."""
        top = leaders(work.gold)
        if len(top) > 1 and tie_policy == "manual":
            work.update["phase"] = "tie"
            suffix = f" ({self.traits.tie_ruling})" if self.traits.tie_ruling else ""
            work.note(f"Gold is tied: the table picks the winner{suffix}.")
        else:
            work.update.update(phase="over", winners=top)
            work.events.append(GameEnded(text=text))

    def pick_winners(self, work: Work[S], seats: tuple[int, ...]) -> None:
        """The table's choice among the players tied for most Gold."""
        tied = leaders(work.state.gold)
        if work.state.phase != "tie" or not seats or not set(seats) <= set(tied):
            raise refuse(
                "Pick the winner among the tied players (or several to share the win).",
                self.traits.tie_ruling,
            )
        work.update.update(phase="over", winners=tuple(sorted(set(seats))))
        work.events.append(GameEnded(text="The table picked the winner of the tie."))


__all__ = [
    "IslandOptions",
    "IslandRules",
    "IslandTraits",
    "TiePolicy",
    "leaders",
    "pending_answers",
    "tie_choices",
]
