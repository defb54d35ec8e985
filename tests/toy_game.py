"""A tiny dice game ("Pig") that exercises the contract without any real game's rules.

Used by the session, journal and protocol tests so they do not depend on a particular
game's details: a dice request every turn, seeded software rolls, an outcome, scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Literal

from pydantic import Field

from companion.dice import DiceRequest, Roll, resolve_roll
from companion.events import DiceRolled, Event
from companion.model import Frozen
from companion.outcome import Outcome, ScoreRow, ScoreSheet
from companion.rng import Rng
from companion.rules import GameState, Rules, refuse


class PigOptions(Frozen):
    target: int = Field(default=20, ge=5, le=100, json_schema_extra={"ruling": "TOY-R1"})


class PigState(GameState):
    target: int
    scores: tuple[int, ...]
    turn_total: int = 0
    current: int = 0
    rolled: bool = False
    history: tuple[tuple[int, ...], ...] = ()


class Hold(Frozen):
    type: Literal["hold"] = "hold"


PigAction = Annotated[Roll | Hold, Field(discriminator="type")]


class Held(Event):
    type: Literal["held"] = "held"
    player: int
    total: int


class PigRules(Rules[PigState, PigAction, PigOptions]):
    name = "toy_pig"
    title = "Pig"
    seed_document = "toy"
    min_players = 1
    max_players = 4
    options_model = PigOptions
    state_model = PigState
    action_type = PigAction

    def setup(self, players: Sequence[str], options: PigOptions, seed: int) -> PigState:
        names = self.check_players(players)
        return PigState(
            players=names, rng=Rng(seed=seed), target=options.target, scores=(0,) * len(names)
        )

    def dice_request(self, state: PigState) -> DiceRequest | None:
        if self.outcome(state) is not None:
            return None
        return DiceRequest(
            purpose="turn", label="Roll the die", count=1, sides=6, player=state.current
        )

    def legal_actions(self, state: PigState) -> Iterable[PigAction]:
        if self.outcome(state) is not None:
            return []
        actions: list[PigAction] = [Roll(values=(face,), source="manual") for face in range(1, 7)]
        actions.append(Roll())
        if state.rolled:
            actions.append(Hold())
        return actions

    def apply(self, state: PigState, action: PigAction) -> tuple[PigState, tuple[Event, ...]]:
        if self.outcome(state) is not None:
            raise refuse("The game is over.", "TOY-R0")
        if isinstance(action, Hold):
            if not state.rolled:
                raise refuse("Roll at least once before you hold.", "TOY-R2")
            scores = list(state.scores)
            scores[state.current] += state.turn_total
            new = state.model_copy(
                update={
                    "scores": tuple(scores),
                    "turn_total": 0,
                    "rolled": False,
                    "current": (state.current + 1) % len(state.players),
                    "history": (*state.history, tuple(scores)),
                }
            )
            return new, (
                Held(
                    text=f"{state.players[state.current]} holds",
                    player=state.current,
                    total=scores[state.current],
                ),
            )
        request = self.dice_request(state)
        values, rng = resolve_roll(request, action, state.rng, ruling="TOY-R1")
        assert request is not None
        rolled = DiceRolled(
            text=f"rolled {values[0]}", request=request, values=values, source=action.source
        )
        if values[0] == 1:
            new = state.model_copy(
                update={
                    "rng": rng,
                    "turn_total": 0,
                    "rolled": False,
                    "current": (state.current + 1) % len(state.players),
                    "history": (*state.history, state.scores),
                }
            )
        else:
            new = state.model_copy(
                update={"rng": rng, "turn_total": state.turn_total + values[0], "rolled": True}
            )
        return new, (rolled,)

    def outcome(self, state: PigState) -> Outcome | None:
        best = max(state.scores)
        if best < state.target:
            return None
        winners = tuple(i for i, s in enumerate(state.scores) if s == best)
        return Outcome(winners=winners, reason="target", text=f"{state.players[winners[0]]} wins")

    def current_player(self, state: PigState) -> int | None:
        return None if self.outcome(state) else state.current

    def status(self, state: PigState) -> str:
        return f"{state.players[state.current]} to play, turn total {state.turn_total}"

    def scores(self, state: PigState) -> ScoreSheet:
        return ScoreSheet(
            measure="points",
            columns=state.players,
            rows=tuple(
                ScoreRow(label=f"turn {i + 1}", values=row) for i, row in enumerate(state.history)
            ),
        )

    def interest(self, state: PigState, action: PigAction) -> int:
        return 3 if isinstance(action, Hold) else 1


RULES = PigRules()
