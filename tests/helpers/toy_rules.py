"""Variants of the test-only toy game for hardware and presenter tests."""

from __future__ import annotations

from typing import Any

from companion.dice import DiceRequest, Roll, resolve_roll
from companion.events import DiceRolled
from tests.toy_game import PigRules, PigState


class TwoDicePig(PigRules):
    """The toy game rolling 2d6 at once, as a roll-off or movement dice do."""

    name = "toy_two_dice"

    def dice_request(self, state: PigState) -> DiceRequest | None:
        request = super().dice_request(state)
        return None if request is None else request.model_copy(update={"count": 2})

    def apply(self, state: PigState, action: Any) -> Any:
        if isinstance(action, Roll):
            request = self.dice_request(state)
            values, rng = resolve_roll(request, action, state.rng)
            assert request is not None
            rolled = DiceRolled(
                text=f"rolled {values}", request=request, values=values, source=action.source
            )
            return state.model_copy(update={"rng": rng, "rolled": True}), (rolled,)
        return super().apply(state, action)
