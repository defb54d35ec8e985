"""Beast Master (seed 001): 15 turns each of Actions or Rest, Banners, one Beast.

The referee computes control, Road Movement, exploring rolls, Beast kills and
displacement, Beast Master kill gold, Banner legality, turn count and the winner.
Players enter what is printed and unknown: Loot rewards (BM-R15), Rest rewards of
Environments, and every card's effects (as generic primitives, or from a content file).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Annotated, Literal

from pydantic import Field

from companion import words
from companion.dice import DiceRequest, Roll
from companion.errors import InvalidOptions, InvalidPosition
from companion.games.options import option
from companion.model import Frozen
from companion.rng import Rng
from companion.rules import refuse
from companion.views import NO_CELLS, ActionCells

from .board import placeholder_board
from .content import Content
from .mechanics import (
    Work,
    control_map,
    controller,
    empty_spaces,
)
from .model import (
    ApplyEffect,
    BeastPos,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    GainGold,
    IslandConfig,
    IslandState,
    Move,
    MoveBeast,
    Note,
    PendingExplore,
    PendingLoot,
    PlayCard,
    SpaceExplored,
    Spawn,
    Tile,
    TurnChanged,
)
from .referee import (
    IslandOptions,
    IslandRules,
    PhaseRule,
    TiePolicy,
    expect,
    pending_answers,
    tie_choices,
)
from .turns import (
    do_effect,
    gold_row,
    move_actions,
    resolve_play_card,
)
from .views import exploring_space

BANNERS = 5
MOVEMENTS = 4
START_CARDS = 3


class BeastMasterOptions(IslandOptions):
    acolytes_per_player: int | None = option(
        None, "Acolytes each; none = 12 with 3 players, otherwise 10.", "BM-R02", ge=1, le=30
    )
    turns_per_player: int = option(15, "Turns each player takes.", "BM-R16", ge=1, le=60)
    colossus_start: Literal["centre", "player_choice"] = option(
        "centre",
        "Colossi start on the centre, or each player places theirs in turn order.",
        "BM-R03",
    )
    centre_starts_with_loot: bool = option(
        False, "A Loot token lies on the centre at the start (its reward is entered).", "BM-R05"
    )
    spawn_safe_first_step: bool = option(
        False, "An Acolyte spawned on the Beast's space survives if it leaves at once.", "BM-R07"
    )
    hand_limit_check: Literal["immediate", "end_of_turn"] = option(
        "immediate", "When a hand of 7+ cards is cut down to 6.", "BM-R08"
    )
    tie_policy: TiePolicy = option(
        "shared", "A gold tie is a shared victory, or the table picks the winner.", "BM-R12"
    )
    loot_tokens: int | None = option(
        None, "Loot tokens in the supply; none = never runs out.", "BM-R06", ge=0, le=200
    )
    environment_tiles: int | None = option(
        None, "Environment tiles in the stack; none = never runs out.", "BM-R06", ge=0, le=200
    )
    content: Content | None = option(
        None, "Optional content file: known cards as effect lists.", "0.2.2"
    )


Phase = Literal["place_colossus", "choose", "actions", "banners", "resting", "tie", "over"]
PHASE_NAMES: dict[str, str] = {
    "place_colossus": "Placing the Colossi",
    "choose": "Actions or Rest",
    "actions": "Actions",
    "banners": "Banners",
    "resting": "Rest",
    "tie": "Tie",
    "over": "Game over",
}


class BeastMasterState(IslandState):
    options: BeastMasterOptions
    phase: Phase
    banners_in_hand: tuple[int, ...]
    turns_taken: tuple[int, ...]
    rest_left: tuple[str, ...] = ()
    loot_left: int | None = None
    environments_left: int | None = None


# --- actions -------------------------------------------------------------------------


class TakeActions(Frozen):
    """Choose the Actions turn: draw 1, then up to 4 Movements and any cards."""

    type: Literal["take_actions"] = "take_actions"


class Rest(Frozen):
    """Choose Rest: collect every Banner's rewards, nothing else (BM-R09)."""

    type: Literal["rest"] = "rest"


class EndActions(Frozen):
    """Done moving and playing cards; go on to placing Banners."""

    type: Literal["end_actions"] = "end_actions"


class PlaceBanner(Frozen):
    type: Literal["place_banner"] = "place_banner"
    space: str


class EndTurn(Frozen):
    type: Literal["end_turn"] = "end_turn"


class CollectReward(Frozen):
    """Resolve one Banner at Rest: the gold and cards it gave (None = the Loot's printed
    reward, or 0 for an Environment). The Banner returns to hand."""

    type: Literal["collect_reward"] = "collect_reward"
    space: str
    gold: int | None = Field(default=None, ge=0, le=99)
    cards: int | None = Field(default=None, ge=0, le=20)


class EnterLoot(Frozen):
    """The printed reward of the Loot token just placed face up (BM-R15)."""

    type: Literal["enter_loot"] = "enter_loot"
    gold: int = Field(default=0, ge=0, le=99)
    cards: int = Field(default=0, ge=0, le=20)
    name: str = ""


class NameTile(Frozen):
    """Optional: write an Environment's name (or a Loot's text) on its space."""

    type: Literal["name_tile"] = "name_tile"
    space: str
    name: str


class PlaceColossus(Frozen):
    """``colossus_start = player_choice``: put your Colossus on any space (no exploring)."""

    type: Literal["place_colossus"] = "place_colossus"
    space: str


class PickWinners(Frozen):
    """``tie_policy = manual``: the table picks the winner(s) among the tied players."""

    type: Literal["pick_winners"] = "pick_winners"
    seats: tuple[int, ...]


BeastMasterAction = Annotated[
    Roll
    | TakeActions
    | Rest
    | Move
    | Spawn
    | PlayCard
    | ApplyEffect
    | EndActions
    | PlaceBanner
    | EndTurn
    | CollectReward
    | EnterLoot
    | NameTile
    | DisplaceColossus
    | DiscardToLimit
    | PlaceColossus
    | PickWinners
    | CorrectPlayer
    | CorrectSpace
    | CorrectMovements,
    Field(discriminator="type"),
]


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


def config(state: BeastMasterState) -> IslandConfig:
    opts = state.options
    return IslandConfig(
        beast_kills=True,
        spawn_safe_first_step=opts.spawn_safe_first_step,
        tipped_controls=True,
        hand_limit_immediate=opts.hand_limit_check == "immediate",
        gold_floor_zero=False,
    )


class BeastMasterRules(IslandRules[BeastMasterState, BeastMasterAction, BeastMasterOptions]):
    name = "beast_master"
    title = "Beast Master"
    seed_document = "001"
    game_over_ruling = "BM-R16"
    tie_ruling = "BM-R12"
    hand_limit_ruling = "BM-R08"
    shows_banners = True
    acolytes_ruling = "BM-R02"
    colossus_stays_ruling = "BM-R13"
    phase_names = PHASE_NAMES
    any_phase = (PlaceColossus, PickWinners, NameTile, ApplyEffect)
    phase_rules = PHASE_RULES

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
                label=f"Explore {head.space}: 1–4 Loot, 5–6 Environment",
                count=1,
                sides=6,
                player=head.player,
            )
        return None

    def asking(self, state: BeastMasterState) -> str:
        n = len(state.players)
        turn = min(state.turns_played + 1, state.options.turns_per_player * n)
        who = state.players[self.current_player(state) or 0]
        if state.pending:
            ask = {
                "explore": "roll the d6 to explore",
                "loot": "enter the Loot token's reward",
                "displace": "move your Colossus away from the Beast",
                "discard": "discard down to 6 cards",
            }.get(state.pending[0].kind, "resolve")
        else:
            ask = {
                "place_colossus": "place your Colossus",
                "choose": "take Actions or Rest",
                "actions": f"{words.count(state.movements_left, 'Movement')} left",
                "banners": "place Banners or end the turn",
                "resting": "collect your Banners' rewards",
                "tie": "pick the winner of the tie",
            }.get(state.phase, "")
        return f"Turn {turn}/{state.options.turns_per_player * n} — {who}: {ask}"

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

    def game_action_cells(self, state: BeastMasterState, action: BeastMasterAction) -> ActionCells:
        """A roll explores the waiting space, a Loot's reward is written on it; placing
        a Colossus or a Banner, collecting a Banner and naming a tile act on their space."""
        match action:
            case Roll():
                space = exploring_space(state)
                return NO_CELLS if space is None else ActionCells.at(space)
            case EnterLoot():
                head = state.pending[0] if state.pending else None
                return ActionCells.at(head.space) if isinstance(head, PendingLoot) else NO_CELLS
            case PlaceColossus() | PlaceBanner() | CollectReward() | NameTile():
                return ActionCells.at(action.space)
            case _:
                return NO_CELLS

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
                    for space in _banner_spaces(state, config(state), seat):
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

    # --- apply: what the game waits for -------------------------------------------------

    def resolve_pending(self, work: Work[BeastMasterState], action: BeastMasterAction) -> None:
        head = work.state.pending[0]
        match head:
            case PendingExplore():
                refusal = f"Roll the d6 to explore {head.space} first."
                self._explore_roll(work, head, expect(action, Roll, refusal, "2.6.2"))
            case PendingLoot():
                refusal = f"Enter the reward of the Loot token on {head.space} first."
                self._enter_loot(work, head, expect(action, EnterLoot, refusal, "BM-R15"))
            case _:
                raise refuse("Something else must be resolved first.")

    def _explore_roll(
        self, work: Work[BeastMasterState], head: PendingExplore, action: Roll
    ) -> None:
        faces = self.roll(
            work, action, "2.6.2", lambda _, f: f"Explore roll for {head.space}: {f[0]}."
        )
        work.pending.pop(0)
        self._explore(work, head, faces[0])

    def _enter_loot(
        self, work: Work[BeastMasterState], head: PendingLoot, action: EnterLoot
    ) -> None:
        idx = work.i(head.space)
        work.tiles[idx] = Tile(kind="loot", gold=action.gold, cards=action.cards, name=action.name)
        work.pending.pop(0)
        work.note(f"Loot on {head.space}: {action.gold} Gold, {words.count(action.cards, 'card')}.")

    def _explore(self, work: Work[BeastMasterState], head: PendingExplore, face: int) -> None:
        """1–4 Loot, 5–6 Environment; an exhausted kind gives the other (BM-R06)."""
        idx = work.i(head.space)
        loot_left = work.update.get("loot_left", work.state.loot_left)
        env_left = work.update.get("environments_left", work.state.environments_left)
        want = "loot" if face <= 4 else "environment"
        if want == "loot" and loot_left == 0:
            want = "environment"
        if want == "environment" and env_left == 0:
            want = "loot" if loot_left != 0 else "bare"
        if want == "loot":
            work.tiles[idx] = Tile(kind="loot")
            work.pending.insert(0, PendingLoot(space=head.space, player=head.player))
            if loot_left is not None:
                work.update["loot_left"] = loot_left - 1
        elif want == "environment":
            work.tiles[idx] = Tile(kind="environment")
            if env_left is not None:
                work.update["environments_left"] = env_left - 1
        else:
            work.tiles[idx] = Tile(kind="bare")
        tile = work.tiles[idx]
        assert tile is not None
        work.events.append(
            SpaceExplored(
                space=head.space,
                tile=tile,
                text=f"{head.space} is explored: "
                + {
                    "loot": "a Loot token",
                    "environment": "an Environment",
                    "bare": "nothing (both supplies are exhausted, BM-R06)",
                }[want]
                + ".",
            )
        )

    # --- apply: the phases ------------------------------------------------------------

    def dispatch(self, work: Work[BeastMasterState], action: BeastMasterAction) -> None:
        match action:
            case PlaceColossus():
                self._place_colossus(work, action)
            case PickWinners():
                self.pick_winners(work, action.seats)
            case NameTile():
                self._name_tile(work, action)
            case ApplyEffect():
                self._effect(work, action)
            case TakeActions():
                self._take_actions(work)
            case Rest():
                self._rest(work)
            case CollectReward():
                self._collect(work, action)
            case Move() | Spawn():
                self.paid_move(work, action)
            case PlayCard():
                self._play_card(work, action)
            case EndActions():
                self._end_actions(work)
            case PlaceBanner():
                self._place_banner(work, work.state.active, action.space)
            case EndTurn():
                self._end_turn(work)
            case _:  # pragma: no cover - the phase rules let no other action through
                raise refuse("That is not possible now.")

    def _place_colossus(self, work: Work[BeastMasterState], action: PlaceColossus) -> None:
        state = work.state
        seat = state.active
        if state.phase != "place_colossus":
            raise refuse("Colossi are already on the island.", "BM-R03")
        if not state.board.has(action.space) or state.space(action.space).water:
            raise refuse(f"{action.space} is not a space a Colossus can stand on.", "BM-R03")
        work.colossi[seat] = action.space  # placement does not explore (BM-R05)
        nxt = seat + 1
        if nxt >= len(state.players):
            work.update.update(phase="choose", active=0)
        else:
            work.update["active"] = nxt

    def _name_tile(self, work: Work[BeastMasterState], action: NameTile) -> None:
        idx = work.i(action.space)
        tile = work.tiles[idx]
        if tile is None:
            raise refuse(f"{action.space} has no tile to name.")
        work.tiles[idx] = tile.evolve({"name": action.name})

    def _effect(self, work: Work[BeastMasterState], action: ApplyEffect) -> None:
        if work.state.phase in ("place_colossus", "tie"):
            raise refuse("Effects can be applied once the game is under way.")
        do_effect(work, work.state.active, action, colossi_rules=False)

    def _take_actions(self, work: Work[BeastMasterState]) -> None:
        seat = work.state.active
        work.update["phase"] = "actions"
        work.movements_left = MOVEMENTS
        work.note(f"{work.name(seat)} takes Actions and draws 1 card.")
        work.change_cards(seat, 1)  # BM-R08 check inside

    def _rest(self, work: Work[BeastMasterState]) -> None:
        state = work.state
        seat = state.active
        spaces = tuple(
            sid for sid, sp in zip(state.board.ids, state.spaces, strict=True) if sp.banner == seat
        )
        work.note(f"{state.players[seat]} rests.")
        if spaces:
            work.update.update(phase="resting", rest_left=spaces)
        else:
            self._end_turn(work)

    def _play_card(self, work: Work[BeastMasterState], action: PlayCard) -> None:
        if action.kind == "beast":
            raise refuse("Beast Master has no Beast cards; it has Beast Master cards.")
        resolve_play_card(work, work.state.active, action, work.state.options.content)

    def _end_actions(self, work: Work[BeastMasterState]) -> None:
        state = work.state
        seat = state.active
        if state.banners_in_hand[seat] and _banner_spaces(state, work.cfg, seat):
            work.update["phase"] = "banners"
        else:
            self._end_turn(work)

    def _place_banner(self, work: Work[BeastMasterState], seat: int, space: str) -> None:
        state = work.state
        idx = work.i(space)
        if work.update.get("banners_in_hand", state.banners_in_hand)[seat] < 1:
            raise refuse("You have no Banner left in hand.")
        if controller(state, space, work.cfg) != seat:
            raise refuse(f"You do not control {space} now.", "BM-R14")
        old = work.banners[idx]
        if old == seat:
            raise refuse(f"Your Banner already stands on {space}.")
        in_hand = list(work.update.get("banners_in_hand", state.banners_in_hand))
        in_hand[seat] -= 1
        if old is not None:
            in_hand[old] += 1
            work.note(f"{state.players[old]}'s Banner on {space} returns to their hand.")
        work.banners[idx] = seat
        work.update["banners_in_hand"] = tuple(in_hand)
        work.note(f"{state.players[seat]} raises a Banner on {space}.")

    def _collect(self, work: Work[BeastMasterState], action: CollectReward) -> None:
        state = work.state
        seat = state.active
        if action.space not in state.rest_left:
            raise refuse(f"You have no unresolved Banner on {action.space}.")
        tile = state.space(action.space).tile
        kind = tile.kind if tile else None
        if kind not in ("loot", "environment"):
            if action.gold or action.cards:
                raise refuse(f"{action.space} has no tile, so its Banner gives nothing.", "BM-R14")
            gold, cards = 0, 0
        else:
            assert tile is not None
            default_gold, default_cards = (tile.gold, tile.cards) if kind == "loot" else (0, 0)
            gold = default_gold if action.gold is None else action.gold
            cards = default_cards if action.cards is None else action.cards
        work.add_gold(seat, gold, "banner")
        if cards:
            work.change_cards(seat, cards)
        idx = work.i(action.space)
        work.banners[idx] = None
        in_hand = list(state.banners_in_hand)
        in_hand[seat] += 1
        work.update["banners_in_hand"] = tuple(in_hand)
        left = tuple(s for s in state.rest_left if s != action.space)
        work.update["rest_left"] = left
        if not left:
            self._end_turn(work)

    def _end_turn(self, work: Work[BeastMasterState]) -> None:
        """Count the turn (BM-R16), record gold, pass clockwise or end the game."""
        state = work.state
        seat = state.active
        n = len(state.players)
        if not work.cfg.hand_limit_immediate:
            for p in work.seats_from(seat):
                work.check_hand_limit(p)
        turns = list(state.turns_taken)
        turns[seat] += 1
        played = state.turns_played + 1
        work.movements_left = 0
        work.update.update(
            turns_taken=tuple(turns),
            turns_played=played,
            rest_left=(),
            history=gold_row(state, work.gold, f"Turn {played} ({state.players[seat]})"),
        )
        if all(t >= state.options.turns_per_player for t in turns):
            self.finish_game(
                work, state.options.tie_policy, "Every player has taken their last turn."
            )
            return
        nxt = (seat + 1) % n
        work.update.update(phase="choose", active=nxt)
        work.events.append(TurnChanged(player=nxt, text=f"{state.players[nxt]}'s turn."))

    def settle(self, work: Work[BeastMasterState]) -> None:
        """Nothing waits once the game is over; exhausted supplies leave spaces bare."""
        super().settle(work)
        if work.update.get("phase") == "over":
            work.pending = []
        loot_left = work.update.get("loot_left", work.state.loot_left)
        env_left = work.update.get("environments_left", work.state.environments_left)
        if loot_left == 0 and env_left == 0:  # BM-R06: nothing left to find, no roll
            for p in [p for p in work.pending if isinstance(p, PendingExplore)]:
                work.tiles[work.i(p.space)] = Tile(kind="bare")
                work.pending.remove(p)
                work.note(f"{p.space} stays bare: Loot and Environments are exhausted (BM-R06).")


def _beast(space: str) -> BeastPos:
    return BeastPos(name="the Beast", space=space)


def _tile_kind(state: BeastMasterState, space: str) -> str | None:
    tile = state.space(space).tile
    return tile.kind if tile else None


def _banner_spaces(state: BeastMasterState, cfg: IslandConfig, seat: int) -> list[str]:
    """Spaces where ``seat`` may raise a Banner now: controlled, not already theirs."""
    return [
        space
        for space, who in control_map(state, cfg).items()
        if who == seat and state.space(space).banner != seat
    ]


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

__all__ = [
    "RULES",
    "ApplyEffect",
    "BeastMasterAction",
    "BeastMasterOptions",
    "BeastMasterRules",
    "BeastMasterState",
    "CollectReward",
    "DiscardToLimit",
    "DisplaceColossus",
    "EndActions",
    "EndTurn",
    "EnterLoot",
    "Move",
    "NameTile",
    "Note",
    "PickWinners",
    "PlaceBanner",
    "PlaceColossus",
    "PlayCard",
    "Rest",
    "Roll",
    "Spawn",
    "TakeActions",
    "config",
]
