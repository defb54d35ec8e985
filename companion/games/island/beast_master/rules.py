"""Beast Master (seed 001): 15 turns each of Actions or Rest, Banners, one Beast.

The referee computes control, Road Movement, exploring rolls, Beast kills and
displacement, Beast Master kill gold, Banner legality, turn count and the winner.
Players enter what is printed and unknown: Loot rewards (BM-R15), Rest rewards of
Environments, and every card's effects (as generic primitives, or from a content file).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.dice import DiceRequest, Roll
from companion.errors import InvalidOptions, InvalidPosition
from companion.games.island.beast_master.content import BANNERS, START_CARDS
from companion.games.island.beast_master.model import (
    BeastMasterAction,
    BeastMasterOptions,
    BeastMasterState,
    CollectReward,
    EndActions,
    EndTurn,
    EnterLoot,
    NameTile,
    PickWinners,
    PlaceBanner,
    PlaceColossus,
    Rest,
    TakeActions,
    config,
)
from companion.games.island.beast_master.phrases import bm_words
from companion.games.island.beast_master.play import BeastMasterPlay, banner_spaces
from companion.games.island.beast_master.views import PHASE_NAMES, action_cells, status_line
from companion.games.island.board import placeholder_board
from companion.games.island.mechanics import (
    empty_spaces,
)
from companion.games.island.model import (
    ApplyEffect,
    BeastPos,
    GainGold,
    IslandConfig,
    Move,
    MoveBeast,
    PendingExplore,
    PendingLoot,
    PlayCard,
    Spawn,
    Tile,
)
from companion.games.island.phrases import space_name
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

#: What each phase takes while nothing is pending (besides ``any_phase``: placing a
#: Colossus, picking the winners, naming a tile and applying an effect, whose handlers
#: check the moment themselves).
PHASE_RULES: dict[str, PhaseRule] = {
    "choose": PhaseRule((TakeActions, Rest), "First choose: take Actions or Rest.", "2.5"),
    "resting": PhaseRule(
        (CollectReward,),
        "While Resting you only collect your Banners' rewards: no cards, no Movement, no Banners.",
        "BM-R09",
    ),
    "actions": PhaseRule(
        (Move, Spawn, PlayCard, EndActions), "That is not possible during Actions."
    ),
    "banners": PhaseRule(
        (PlaceBanner, EndTurn), "At the end of the turn you can only place Banners."
    ),
}


#: The roles of Beast Master's own actions (``Rules.action_role``).
_ROLES: dict[str, ActionRole] = {
    "end_turn": ActionRole.END_TURN,
    "end_actions": ActionRole.END_PHASE,
    "enter_loot": ActionRole.ENTRY,
}


class BeastMasterRules(BeastMasterPlay):
    name = "beast_master"
    title = "Beast Master"
    seed_document = "001"
    traits = IslandTraits(
        phase_names=PHASE_NAMES,
        phase_rules=PHASE_RULES,
        any_phase=(PlaceColossus, PickWinners, NameTile, ApplyEffect),
        tie_ruling="BM-R12",
        acolytes_ruling="BM-R02",
        colossus_stays_ruling="BM-R13",
        game_over_ruling="BM-R16",
        hand_limit_ruling="BM-R08",
        shows_banners=True,
    )

    def action_role(self, action_type: str) -> ActionRole | None:
        return _ROLES.get(action_type) or super().action_role(action_type)

    options_model = BeastMasterOptions
    state_model = BeastMasterState
    action_type = BeastMasterAction

    # --- setup ------------------------------------------------------------------------

    def setup(
        self, players: Sequence[str], options: BeastMasterOptions, seed: int
    ) -> BeastMasterState:
        names = self.check_players(players)
        n = len(names)
        board = options.board or placeholder_board()
        acolytes = options.acolytes_per_player or (12 if n == 3 else 10)  # BM-R02
        if len(board.spaces) < 2:
            raise InvalidOptions("An island needs at least two spaces.")
        if options.centre_starts_with_loot and options.loot_tokens == 0:
            raise InvalidOptions(  # BM-R06: no Loot token is left to lie on the centre
                "A Loot token on the centre needs at least one Loot token in the supply.",
                ruling="BM-R06",
            )
        centre = board.centre
        spaces = list(empty_spaces(board, n))
        pending: tuple[PendingLoot, ...] = ()
        loot_left = options.loot_tokens
        if options.centre_starts_with_loot:  # BM-R05 option
            idx = board.graph.index[centre]
            spaces[idx] = spaces[idx].evolve({"tile": Tile(kind="loot")})
            pending = (PendingLoot(space=centre, player=0),)
            loot_left = None if loot_left is None else loot_left - 1  # BM-R06: >= 1
        start = options.colossus_start == "centre"
        return BeastMasterState(
            players=names,
            rng=Rng(seed=seed),
            options=options,
            board=board,
            spaces=tuple(spaces),
            colossi=tuple(centre if start else None for _ in names),  # BM-R03
            tipped=(False,) * n,
            acolytes_in_hand=(acolytes,) * n,  # BM-R04
            cards_in_hand=(START_CARDS,) * n,
            perks=(None,) * n,
            gold=(0,) * n,
            beasts=(_beast(centre),),
            phase="choose" if start else "place_colossus",
            banners_in_hand=(BANNERS,) * n,
            turns_taken=(0,) * n,
            loot_left=loot_left,
            environments_left=options.environment_tiles,
            pending=pending,
        )

    # --- queries ----------------------------------------------------------------------

    def island_config(self, state: BeastMasterState) -> IslandConfig:
        return config(state)

    def work_label(self, state: BeastMasterState) -> str:
        return f"Turn {state.turns_played + 1}"

    def dice_request(self, state: BeastMasterState) -> DiceRequest | None:
        if state.pending and isinstance(state.pending[0], PendingExplore):
            head = state.pending[0]
            return DiceRequest(
                purpose="explore",
                label=f"Explore {space_name(state.board, head.space)}: 1–4 Loot, 5–6 Environment",
                count=1,
                sides=6,
                player=head.player,
            )
        return None

    def asking(self, state: BeastMasterState) -> str:
        return status_line(state, self.current_player(state))

    def check_pieces(self, state: BeastMasterState) -> None:
        n = len(state.players)
        total = state.options.acolytes_per_player or (12 if n == 3 else 10)
        for seat in range(n):
            on_board = sum(sp.acolytes[seat] for sp in state.spaces)
            if on_board + state.acolytes_in_hand[seat] != total:
                raise InvalidPosition(f"{state.players[seat]} does not have {total} Acolytes.")
            banners = sum(1 for sp in state.spaces if sp.banner == seat)
            if banners + state.banners_in_hand[seat] != BANNERS:
                raise InvalidPosition(f"{state.players[seat]} does not have {BANNERS} Banners.")

    def game_words(self, state: BeastMasterState, action: BeastMasterAction) -> str:
        return bm_words(state, action)

    def game_action_cells(self, state: BeastMasterState, action: BeastMasterAction) -> ActionCells:
        return action_cells(state, action)

    # --- legal actions ----------------------------------------------------------------

    def phase_actions(self, state: BeastMasterState) -> Iterator[BeastMasterAction]:
        seat = state.active
        match state.phase:
            case "place_colossus":
                for sid, sp in zip(state.board.ids, state.spaces, strict=True):
                    if not sp.water:
                        yield PlaceColossus(space=sid)
            case "tie":
                for seats in tie_choices(state.gold):
                    yield PickWinners(seats=seats)
            case "choose":
                yield TakeActions()
                yield Rest()
            case "actions":
                if state.movements_left > 0:
                    yield from move_actions(state, config(state), seat)
                if state.cards_in_hand[seat] > 0:
                    yield from _card_samples(state, seat)
                yield EndActions()
            case "banners":
                if state.banners_in_hand[seat]:
                    for space in banner_spaces(state, config(state), seat):
                        yield PlaceBanner(space=space)
                yield EndTurn()
            case "resting":
                yield from _reward_samples(state)

    def pending_actions(self, state: BeastMasterState) -> Iterator[BeastMasterAction]:
        match state.pending[0]:
            case PendingExplore():
                yield Roll()
                for face in range(1, 7):
                    yield Roll(values=(face,), source="manual")
            case PendingLoot():
                for gold in range(4):
                    for cards in range(3):
                        yield EnterLoot(gold=gold, cards=cards)
            case _:
                yield from pending_answers(state)

    def interest(self, state: BeastMasterState, action: BeastMasterAction) -> int:
        match action:
            case PlaceBanner():
                return 30
            case Rest():
                on_board = BANNERS - state.banners_in_hand[state.active]
                return 1 + 4 * on_board
            case Move() | Spawn():
                return 3
            case PlayCard():
                return 4
            case EndActions():
                return 1 if state.movements_left > 0 else 20
            case _:
                return 1


def _beast(space: str) -> BeastPos:
    return BeastPos(name="the Beast", space=space)


def _tile_kind(state: BeastMasterState, space: str) -> str | None:
    tile = state.space(space).tile
    return tile.kind if tile else None


def _reward_samples(state: BeastMasterState) -> Iterator[CollectReward]:
    """Each unresolved Banner's reward as printed; for an Environment also two entered ones."""
    for space in state.rest_left:
        yield CollectReward(space=space)
        if _tile_kind(state, space) == "environment":
            yield CollectReward(space=space, gold=2, cards=0)
            yield CollectReward(space=space, gold=0, cards=1)


def _card_samples(state: BeastMasterState, seat: int) -> Iterator[PlayCard]:
    """A bounded, representative set of card plays (unknown texts): see the docs."""
    yield PlayCard(kind="action")
    yield PlayCard(kind="perk", name="Perk")
    yield PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),))
    beast = state.beasts[0].space if state.beasts else None
    if beast is not None:
        for space in state.board.adjacent(beast):
            if not state.space(space).water:
                yield PlayCard(kind="beast_master", effects=(MoveBeast(to=space),))


RULES = BeastMasterRules()
