"""Beast Master's actions applied: what the game waits for (the explore roll, a Loot's
reward) and the handler of each action of the phases; :mod:`.rules` lists them."""

from __future__ import annotations

from companion.dice import Roll
from companion.games.island.beast_master.content import MOVEMENTS
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
)
from companion.games.island.mechanics import (
    Work,
    control_map,
    controller,
)
from companion.games.island.model import (
    ApplyEffect,
    IslandConfig,
    Move,
    PendingExplore,
    PendingLoot,
    PlayCard,
    SpaceExplored,
    Spawn,
    Tile,
    TurnChanged,
)
from companion.games.island.phrases import reward_words
from companion.games.island.referee import (
    IslandRules,
    expect,
)
from companion.games.island.turns import (
    do_effect,
    gold_row,
    resolve_play_card,
)
from companion.rules import refuse


class BeastMasterPlay(IslandRules[BeastMasterState, BeastMasterAction, BeastMasterOptions]):
    """The handlers of Beast Master's actions (the referee's contract is in :mod:`.rules`)."""

    # --- apply: what the game waits for -------------------------------------------------

    def resolve_pending(self, work: Work[BeastMasterState], action: BeastMasterAction) -> None:
        head = work.state.pending[0]
        match head:
            case PendingExplore():
                refusal = f"Roll the d6 to explore {work.at(head.space)} first."
                self._explore_roll(work, head, expect(action, Roll, refusal, "2.6.2"))
            case PendingLoot():
                refusal = f"Enter the reward of the Loot token on {work.at(head.space)} first."
                self._enter_loot(work, head, expect(action, EnterLoot, refusal, "BM-R15"))
            case _:
                raise refuse("Something else must be resolved first.")

    def _explore_roll(
        self, work: Work[BeastMasterState], head: PendingExplore, action: Roll
    ) -> None:
        faces = self.roll(
            work, action, "2.6.2", lambda _, f: f"Explore roll for {work.at(head.space)}: {f[0]}."
        )
        work.pending.pop(0)
        self._explore(work, head, faces[0])

    def _enter_loot(
        self, work: Work[BeastMasterState], head: PendingLoot, action: EnterLoot
    ) -> None:
        idx = work.i(head.space)
        work.tiles[idx] = Tile(kind="loot", gold=action.gold, cards=action.cards, name=action.name)
        work.pending.pop(0)
        reward = reward_words(action.gold, action.cards)
        work.note(f"The Loot on {work.at(head.space)} gives {reward}.")

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
                text=f"{work.at(head.space)} is explored: "
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
            raise refuse(
                f"{work.at(action.space)} is not a space a Colossus can stand on.", "BM-R03"
            )
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
            raise refuse(f"{work.at(action.space)} has no tile to name.")
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
        if state.banners_in_hand[seat] and banner_spaces(state, work.cfg, seat):
            work.update["phase"] = "banners"
        else:
            self._end_turn(work)

    def _place_banner(self, work: Work[BeastMasterState], seat: int, space: str) -> None:
        state = work.state
        idx = work.i(space)
        if work.update.get("banners_in_hand", state.banners_in_hand)[seat] < 1:
            raise refuse("You have no Banner left in hand.")
        if controller(state, space, work.cfg) != seat:
            raise refuse(f"You do not control {work.at(space)} now.", "BM-R14")
        old = work.banners[idx]
        if old == seat:
            raise refuse(f"Your Banner already stands on {work.at(space)}.")
        in_hand = list(work.update.get("banners_in_hand", state.banners_in_hand))
        in_hand[seat] -= 1
        if old is not None:
            in_hand[old] += 1
            work.note(f"{state.players[old]}'s Banner on {work.at(space)} returns to their hand.")
        work.banners[idx] = seat
        work.update["banners_in_hand"] = tuple(in_hand)
        work.note(f"{state.players[seat]} raises a Banner on {work.at(space)}.")

    def _collect(self, work: Work[BeastMasterState], action: CollectReward) -> None:
        state = work.state
        seat = state.active
        if action.space not in state.rest_left:
            raise refuse(f"You have no unresolved Banner on {work.at(action.space)}.")
        tile = state.space(action.space).tile
        kind = tile.kind if tile else None
        if kind not in ("loot", "environment"):
            if action.gold or action.cards:
                raise refuse(
                    f"{work.at(action.space)} has no tile, so its Banner gives nothing.", "BM-R14"
                )
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
                work.note(
                    f"{work.at(p.space)} stays bare: Loot and Environments are exhausted (BM-R06)."
                )


def banner_spaces(state: BeastMasterState, cfg: IslandConfig, seat: int) -> list[str]:
    """Spaces where ``seat`` may raise a Banner now: controlled, not already theirs."""
    return [
        space
        for space, who in control_map(state, cfg).items()
        if who == seat and state.space(space).banner != seat
    ]
