"""Colossi (seed 002): three Ages of Action and Harvest Phases, Mantle, Traits, Water, Lairs.

The same island as Beast Master (one implementation in :mod:`.mechanics`), without
Banners and Rest. The referee computes control, Road Movement, Actions left (Beast card
net 0), Water/edge legality, the explore deck counts, harvest eligibility and
bookkeeping, Mantle roll-offs, the Lair transition and the winner. Players enter Age
cards, Age scoring, Environment/Beast/card/Trait effects and (optionally) drawn tiles.


The package has every game's shape: ``content.py`` (the box's numbers), ``model.py``
(options, state, actions), ``play.py`` (the handlers; the Age cycle in ``ages.py``), this
module (the referee's contract: setup, queries, legal actions) and ``views.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.dice import DiceRequest, Roll
from companion.errors import InvalidOptions, InvalidPosition
from companion.games.island.board import placeholder_board
from companion.games.island.colossi.ages import (
    harvestable,
)
from companion.games.island.colossi.content import (
    AGE_NAMES,
    MAX_TRAITS,
    MOVEMENT_UNIT,
    START_CARDS,
)
from companion.games.island.colossi.model import (
    AgeScoring,
    ColossiAction,
    ColossiOptions,
    ColossiState,
    DiscardTrait,
    DrawTile,
    EndActionPhase,
    EndTurn,
    Harvest,
    PassHarvest,
    PickWinners,
    PlaceLair,
    RevealAge,
    TakeTrait,
    age_label,
    config,
    lair_spaces,
    random_lair_beasts,
)
from companion.games.island.colossi.phrases import ca_value_words, ca_words
from companion.games.island.colossi.play import ColossiPlay
from companion.games.island.colossi.views import (
    PHASE_NAMES,
    age_facts,
    colossi_action_cells,
    status_line,
)
from companion.games.island.mechanics import (
    empty_spaces,
)
from companion.games.island.model import (
    ApplyEffect,
    GainGold,
    IslandConfig,
    Move,
    MoveBeast,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PendingTrait,
    PendingTraitDiscard,
    PlayCard,
    Spawn,
)
from companion.games.island.referee import (
    IslandTraits,
    PhaseRule,
    pending_answers,
    tie_choices,
)
from companion.games.island.turns import (
    move_actions,
)
from companion.rng import Rng
from companion.rules import ActionRole
from companion.views import ActionCells

#: What each phase takes while nothing is pending (besides ``any_phase``: picking the
#: winners, applying an effect and discarding a Trait, whose handlers check the moment).
PHASE_RULES: dict[str, PhaseRule] = {
    "age_reveal": PhaseRule(
        (RevealAge,), lambda state: f"Reveal the card of {age_label(state.age)} first.", "CA-R19"
    ),
    "actions": PhaseRule(
        (Move, Spawn, PlayCard, EndActionPhase, EndTurn),
        "That is not possible during the Action Phase.",
    ),
    "age_scoring": PhaseRule((AgeScoring,), "Enter the Age card's scoring first.", "3.7"),
    "harvest": PhaseRule(
        (Harvest, PassHarvest), "In the Harvest Phase you harvest a space or pass."
    ),
}


#: The roles of Colossi's own actions (``Rules.action_role``).
_ROLES: dict[str, ActionRole] = {
    "end_turn": ActionRole.END_TURN,
    "end_action_phase": ActionRole.END_PHASE,
}


class ColossiRules(ColossiPlay):
    name = "colossi"
    title = "Colossi"
    seed_document = "002"
    # 2: the explore deck's Lairs stand for "Random Beast 1", … (was "Deck Lair 1").
    rules_version = 2
    traits = IslandTraits(
        phase_names=PHASE_NAMES,
        phase_rules=PHASE_RULES,
        any_phase=(PickWinners, ApplyEffect, DiscardTrait),
        tie_ruling="0.2.4",
        acolytes_ruling="CA-R02",
        colossus_stays_ruling="CA-R09",
        movement_unit=MOVEMENT_UNIT,
        gold_floor_ruling="CA-R17",
        corrects_cubes=True,
    )

    def action_role(self, action_type: str) -> ActionRole | None:
        return _ROLES.get(action_type) or super().action_role(action_type)

    options_model = ColossiOptions
    state_model = ColossiState
    action_type = ColossiAction

    # --- setup ------------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: ColossiOptions, seed: int) -> ColossiState:
        names = self.check_players(players)
        n = len(names)
        if options.mantle_holder >= n:
            raise InvalidOptions("The Mantle holder must be one of the players.", ruling="3.4")
        board = options.board or placeholder_board()
        return ColossiState(
            players=names,
            rng=Rng(seed=seed),
            options=options,
            board=board,
            spaces=empty_spaces(board, n),
            colossi=(board.centre,) * n,  # CA-R01
            tipped=(False,) * n,
            acolytes_in_hand=(options.acolytes_per_player,) * n,
            cards_in_hand=(START_CARDS,) * n,
            perks=(None,) * n,
            gold=(0,) * n,  # CA-R17
            active=options.mantle_holder,
            mantle=options.mantle_holder,
            rounds=options.rounds_per_age,
            deck_grass=options.grass_tiles,
            deck_lairs=random_lair_beasts(options.deck_lairs),
            deck_environments=options.deck_environments,
            spare_environments=options.spare_environments,
            traits=((),) * n,
            trait_row=("Trait 1", "Trait 2", "Trait 3") if options.use_traits else (),
            traits_drawn=3 if options.use_traits else 0,
            harvested=((),) * n,
            passed=(False,) * n,
        )

    # --- queries ----------------------------------------------------------------------

    def island_config(self, state: ColossiState) -> IslandConfig:
        return config(state)

    def work_label(self, state: ColossiState) -> str:
        return f"{age_label(state.age)} {state.phase.replace('_', ' ')}"

    def deciding_seat(self, state: ColossiState) -> int:
        """The Mantle holder reveals and scores Ages and settles ties."""
        if state.phase in ("age_reveal", "age_scoring", "tie", "transition"):
            return state.mantle
        return state.active

    def dice_request(self, state: ColossiState) -> DiceRequest | None:
        if state.pending and isinstance(state.pending[0], PendingRollOff):
            head = state.pending[0]
            names = ", ".join(state.players[p] for p in head.contenders)
            what = {"mantle": "the Mantle", "least_gold": "least Gold", "age1_lairs": "Lairs"}
            return DiceRequest(
                purpose=f"roll_off_{head.purpose}",
                label=f"Roll-off for {what[head.purpose]}: one d6 each for {names}",
                count=len(head.contenders),
                sides=6,
            )
        return None

    def asking(self, state: ColossiState) -> str:
        return status_line(state, self.current_player(state))

    def panel_facts(self, state: ColossiState) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return age_facts(state)

    def game_words(self, state: ColossiState, action: ColossiAction) -> str:
        return ca_words(state, action)

    def game_value_words(
        self, state: ColossiState, action_type: str, field: str, value: object
    ) -> str | None:
        return ca_value_words(state, action_type, field, value)

    def effect_actor(self, state: ColossiState) -> int:
        """An effect applied outside a card acts for whoever is asked (as applied)."""
        return self.current_player(state) or 0

    def game_action_cells(self, state: ColossiState, action: ColossiAction) -> ActionCells:
        return colossi_action_cells(state, action)

    def harvestable(self, state: ColossiState, seat: int) -> set[str]:
        """Spaces ``seat`` controls now and has not harvested this Age (CA-R07)."""
        return harvestable(state, seat)

    def harvestable_now(self, state: ColossiState, seat: int | None) -> set[str] | None:
        if state.phase != "harvest" or state.pending or seat is None:
            return None
        return self.harvestable(state, seat)

    def check_pieces(self, state: ColossiState) -> None:
        if any(g < 0 for g in state.gold):
            raise InvalidPosition("Gold never drops below 0.", ruling="CA-R17")
        for seat in range(len(state.players)):
            on_board = sum(sp.acolytes[seat] for sp in state.spaces)
            if on_board + state.acolytes_in_hand[seat] != state.options.acolytes_per_player:
                raise InvalidPosition(f"{state.players[seat]} has the wrong number of Acolytes.")
            if len(state.traits[seat]) > MAX_TRAITS + 1:
                raise InvalidPosition("A player holds more than 2 Traits.", ruling="CA-R13")

    # --- legal actions ----------------------------------------------------------------

    def phase_actions(self, state: ColossiState) -> Iterator[ColossiAction]:
        seat = state.active
        match state.phase:
            case "age_reveal":
                yield from _age_samples(state)
            case "actions":
                if state.movements_left > 0:
                    yield from move_actions(state, config(state), seat)
                    if state.cards_in_hand[seat] > 0:
                        yield from _card_samples(state)
                yield EndTurn()
            case "age_scoring":
                n = len(state.players)
                yield AgeScoring(gold=(0,) * n)
                yield AgeScoring(gold=tuple(2 if p == state.age % n else 0 for p in range(n)))
            case "harvest":
                for space in sorted(harvestable(state, seat)):
                    yield Harvest(space=space)
                yield PassHarvest()
            case "tie":
                for seats in tie_choices(state.gold):
                    yield PickWinners(seats=seats)

    def pending_actions(self, state: ColossiState) -> Iterator[ColossiAction]:
        match state.pending[0]:
            case PendingExplore():
                yield DrawTile()
                for loot in ("gold", "cards", "trait"):
                    yield DrawTile(loot=loot)
            case PendingRollOff():
                yield Roll()
            case PendingLair():
                for space in lair_spaces(state):
                    yield PlaceLair(space=space)
            case PendingTrait():
                for row in range(len(state.trait_row)):
                    yield TakeTrait(row=row)
                yield TakeTrait()
            case PendingTraitDiscard(player=seat):
                for name in state.traits[seat]:
                    yield DiscardTrait(name=name)
            case _:
                yield from pending_answers(state)

    def interest(self, state: ColossiState, action: ColossiAction) -> int:
        match action:
            case Harvest():
                return 12
            case Move() | Spawn() | PlayCard():
                return 3
            case EndTurn():
                return 1 if state.movements_left > 0 else 10
            case _:
                return 1


def _age_samples(state: ColossiState) -> Iterator[RevealAge]:
    """A bounded set of Age cards for self-play: same, new and overlapping Beasts."""
    label = AGE_NAMES[state.age - 1]
    current = state.age_beasts
    if state.age == 1:
        yield RevealAge(name="Age I", beasts=("Beast I",))
        yield RevealAge(name="Age I", beasts=("Beast I", "Beast I b"), rounds=3)
        return
    yield RevealAge(name=f"Age {label}", beasts=current)
    yield RevealAge(name=f"Age {label}", beasts=(f"Beast {label}",))
    yield RevealAge(name=f"Age {label}", beasts=(current[0], f"Beast {label}"))
    edge = next(
        (
            s
            for s in state.board.ids
            if state.board.is_edge(s) and s not in state.beast_spaces() and s != state.board.centre
        ),
        None,
    )
    if edge is not None:
        yield RevealAge(name=f"Age {label}", beasts=(f"Beast {label}",), water=(edge,))


def _card_samples(state: ColossiState) -> Iterator[PlayCard]:
    """A bounded, representative set of card plays (unknown texts): see the docs."""
    yield PlayCard(kind="action")
    yield PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),))
    if state.beasts:
        beast = state.beasts[0]
        for space in state.board.adjacent(beast.space):
            if not state.space(space).water:
                yield PlayCard(kind="beast", effects=(MoveBeast(beast=beast.name, to=space),))


RULES = ColossiRules()
