"""The words contract's defaults (companion.rules.Rules): what a game that has not
written its phrasebook says — its declared titles, never a snake_case payload key."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from companion.model import Frozen
from tests.toy_game import Hold, PigRules


class _Titled(Frozen):
    model_config = ConfigDict(title="Keep the pot")
    type: Literal["keep_pot"] = "keep_pot"
    amount_kept: int = Field(default=0, title="Points kept")
    extra_note: int = 0


class _TitledRules(PigRules):
    action_type = _Titled  # type: ignore[assignment]


def test_family_title_reads_the_model_title_else_words_not_keys() -> None:
    titled = _TitledRules()
    assert titled.family_title("keep_pot") == "Keep the pot"
    assert PigRules().family_title("hold") == "Hold"
    assert PigRules().family_title("end_of_turn") == "End of turn"


def test_field_words_read_the_field_title_else_words_not_keys() -> None:
    titled = _TitledRules()
    assert titled.field_words("keep_pot", "amount_kept") == "Points kept"
    assert titled.field_words("keep_pot", "extra_note") == "Extra note"


def test_default_describe_value_cell_and_stay() -> None:
    rules = PigRules()
    state = rules.setup(["Ann", "Bob"], rules.parse_options({}), seed=1)
    assert rules.describe(state, Hold()) == "Hold"
    assert rules.value_words(state, "hold", "x", True) == "yes"
    assert rules.value_words(state, "hold", "x", 3) == "3"
    assert rules.cell_words(state, "c3") == "c3"
    assert rules.stays(state, Hold()) is False


def test_action_models_are_read_once_per_game_and_handed_out_as_a_copy() -> None:
    """Menus ask a family's title on every touch, so the union is read once per game;
    a caller changing the mapping it got changes no title."""
    titled = _TitledRules()
    models = titled.action_models()
    assert models == {"keep_pot": _Titled}
    models.clear()
    assert titled.action_models() == {"keep_pot": _Titled}
    assert titled.family_title("keep_pot") == "Keep the pot"
    assert set(PigRules().action_models()) == {"roll", "hold"} != set(models)
