"""Each game names the roles of its actions (``Rules.action_role``), the one place the
kiosk learns what an action is to the table's controls.

- a role is given only to an action type of the game (a misspelt name would leave the
  "End turn" button or an edge arrow silently without its action);
- every correction template a game lists (RULINGS 0.2.1) has the CORRECTION role, and
  every action whose model is a correction has it;
- the roll is every game's; each game with an end of turn has an END_TURN action.
"""

from __future__ import annotations

import pytest

from companion.games import GAME_MODULES, get_rules
from companion.games.corrections import Correction
from companion.rules import ROLL_TYPE, ActionRole, AnyRules

#: The five games (not the suite's toy game, which has no corrections).
GAMES: list[AnyRules] = [get_rules(n) for n in GAME_MODULES if not n.startswith("toy_")]
#: Games whose turns end by an action of the players (the solo game's Colossus turn ends itself).
ENDS_TURNS = {"kolossus", "beast_master", "colossi", "builders"}


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_roles_are_given_to_the_games_own_action_types(rules: AnyRules) -> None:
    models = rules.action_models()
    typed = {t: rules.action_role(t) for t in models}
    assert rules.action_role(ROLL_TYPE) is ActionRole.ROLL
    assert rules.action_role("no_such_action") is None
    for kind, model in models.items():
        corrects = issubclass(model, Correction)
        assert (typed[kind] is ActionRole.CORRECTION) == corrects, kind
    assert (ActionRole.END_TURN in typed.values()) == (rules.name in ENDS_TURNS)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_every_listed_correction_has_the_correction_role_0_2_1(rules: AnyRules) -> None:
    players = ["Ann", "Bob", "Cleo"][: max(rules.min_players, 2 if rules.max_players > 1 else 1)]
    state = rules.setup(players, rules.parse_options({}), 7)
    fixes = rules.corrections(state)
    assert fixes
    for fix in fixes:
        kind = str(rules.dump_action(fix)["type"])
        assert rules.action_role(kind) is ActionRole.CORRECTION, kind
