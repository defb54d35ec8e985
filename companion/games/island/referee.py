"""The referee skeleton both island games share (Beast Master and Colossi).

Both games apply an action the same way (what the game waits for comes first, then the
game's own phases), ask the same player, end the same way (most Gold; a tie is shared
or picked by the table), keep the same score sheet and highlights and check loaded
positions the same way. :class:`IslandRules` does all that once; each game fills in its
phases through a few hooks. Option fields are declared with :func:`option` so that each
one carries the ruling it implements (the kiosk shows both to players at setup).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator
from typing import ClassVar, Literal, TypeVar

from pydantic import Field

from companion.dice import Roll, resolve_roll
from companion.errors import InvalidPosition
from companion.events import DiceRolled, Event, GameEnded
from companion.highlights import Highlight
from companion.model import Frozen
from companion.outcome import Outcome, ScoreSheet
from companion.rules import ActionT, OptionsT, Rules, refuse

from .board import IslandBoard
from .mechanics import (
    HAND_LIMIT,
    DiscardToLimit,
    DisplaceColossus,
    IslandConfig,
    IslandState,
    PendingDiscard,
    PendingDisplace,
    S,
    Work,
    ledger_totals,
)
from .turns import displace_targets, do_displace, island_highlights

T = TypeVar("T")

TiePolicy = Literal["shared", "manual"]


def option(
    default: T,
    description: str,
    ruling: str,
    *,
    ge: int | None = None,
    le: int | None = None,
) -> T:
    """An option field: its default is the ruling's answer, and it names that ruling."""
    return Field(
        default=default,
        ge=ge,
        le=le,
        description=description,
        json_schema_extra={"ruling": ruling},
    )


class IslandOptions(Frozen):
    """Options that mean the same in both games (same ruling, same text)."""

    board: IslandBoard | None = option(
        None, "The island as a board file; none = the development placeholder.", "BM-R01"
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


def pending_answers(state: IslandState) -> Iterator[DisplaceColossus | DiscardToLimit]:
    """Legal answers to the shared things a game waits for (displacement, discard)."""
    head = state.pending[0]
    if isinstance(head, PendingDisplace):
        for space in displace_targets(state, head):
            yield DisplaceColossus(to=space)
    elif isinstance(head, PendingDiscard):
        yield DiscardToLimit()


class IslandRules(Rules[S, ActionT, OptionsT]):
    """What both island referees do alike; subclasses provide the hooks below."""

    min_players = 2
    max_players = 4

    #: Ruling quoted when an action arrives after the end (None: no ruling).
    game_over_ruling: ClassVar[str | None] = None
    #: Ruling of the end-of-game tie (``tie_policy``).
    tie_ruling: ClassVar[str | None] = None
    #: Ruling of the hand limit of 6.
    hand_limit_ruling: ClassVar[str | None] = None
    #: Whether the game has Banners to light.
    shows_banners: ClassVar[bool] = False

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
    def act(self, work: Work[S], action: ActionT) -> None:
        """An action while nothing is pending: the game's phases."""

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
            banners=self.shows_banners,
            harvestable=self.harvestable_now(state, seat),
        )

    def check_position(self, state: S) -> None:
        if ledger_totals(state.ledger, len(state.players)) != state.gold:
            raise InvalidPosition("Gold does not match the gold ledger.")
        self.check_pieces(state)
        if len(state.spaces) != len(state.board.spaces):
            raise InvalidPosition("The spaces do not match the board.")

    # --- apply -----------------------------------------------------------------------

    def apply(self, state: S, action: ActionT) -> tuple[S, tuple[Event, ...]]:
        if state.phase == "over":
            raise refuse("The game is over.", self.game_over_ruling)
        work = Work(state, self.island_config(state))
        work.label = self.work_label(state)
        if state.pending:
            self._answer_pending(work, action)
        else:
            self.act(work, action)
        self.settle(work)
        return work.finish(), tuple(work.events)

    def _answer_pending(self, work: Work[S], action: ActionT) -> None:
        state = work.state
        head = state.pending[0]
        if isinstance(head, PendingDiscard):
            if not isinstance(action, DiscardToLimit):
                raise refuse(
                    f"{state.players[head.player]} must first discard down to 6 cards.",
                    self.hand_limit_ruling,
                )
            work.pending.pop(0)
            if work.cards[head.player] > HAND_LIMIT:
                work.note(
                    f"{state.players[head.player]} discards "
                    f"{work.cards[head.player] - HAND_LIMIT} card(s) down to 6."
                )
                work.cards[head.player] = HAND_LIMIT
            return
        if isinstance(head, PendingDisplace):
            if not isinstance(action, DisplaceColossus):
                raise refuse(
                    f"{state.players[head.player]} must first move their Colossus off {head.space}."
                )
            do_displace(work, head, action)
            return
        self.resolve_pending(work, action)

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
            suffix = f" ({self.tie_ruling})" if self.tie_ruling else ""
            work.note(f"Gold is tied: the table picks the winner{suffix}.")
        else:
            work.update.update(phase="over", winners=top)
            work.events.append(GameEnded(text=text))

    def pick_winners(self, work: Work[S], seats: tuple[int, ...]) -> None:
        """The table's choice among the players tied for most Gold."""
        tied = leaders(work.state.gold)
        if work.state.phase != "tie" or not seats or not set(seats) <= set(tied):
            raise refuse("Pick the winner(s) among the tied players.", self.tie_ruling)
        work.update.update(phase="over", winners=tuple(sorted(set(seats))))
        work.events.append(GameEnded(text="The table picked the winner of the tie."))


__all__ = [
    "IslandOptions",
    "IslandRules",
    "TiePolicy",
    "leaders",
    "option",
    "pending_answers",
    "tie_choices",
]
