"""Colossi's actions applied: what the game waits for (roll-offs, Lairs, drawn tiles,
Traits) and the handler of each action of the phases; the Age cycle is in :mod:`.ages`,
and :mod:`.rules` lists the actions."""

from __future__ import annotations

from companion.dice import Roll
from companion.games.island.colossi.ages import (
    add_beast,
    award_mantle,
    current,
    harvest,
    maybe_finish_transition,
    next_harvester,
    pass_harvest,
    put_lair,
    reveal_age,
    roll_off_won,
    score_age,
    start_harvest,
)
from companion.games.island.colossi.content import ACTIONS, AGES, MAX_TRAITS
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
    lair_spaces,
    tile_text,
)
from companion.games.island.colossi.phrases import trait_words
from companion.games.island.mechanics import (
    Work,
)
from companion.games.island.model import (
    ApplyEffect,
    Move,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PendingTrait,
    PendingTraitDiscard,
    PlayCard,
    SpaceExplored,
    Spawn,
    Tile,
    TurnChanged,
)
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


class ColossiPlay(IslandRules[ColossiState, ColossiAction, ColossiOptions]):
    """The handlers of Colossi's actions (the referee's contract is in :mod:`.rules`)."""

    # --- apply: what the game waits for -------------------------------------------------

    def resolve_pending(self, work: Work[ColossiState], action: ColossiAction) -> None:
        head = work.state.pending[0]
        match head:
            case PendingExplore():
                refusal = f"Draw a tile for {work.at(head.space)} first."
                draw = expect(action, DrawTile, refusal, "3.6")
                work.pending.pop(0)
                self._draw_tile(work, head, draw)
            case PendingRollOff():
                self._roll_off(work, head, expect(action, Roll, "Roll off first.", "CA-R05"))
            case PendingLair():
                refusal = f"Place the Lair of {head.beast} first."
                self._place_lair(work, head, expect(action, PlaceLair, refusal, "CA-R16"))
            case PendingTrait():
                take = expect(action, TakeTrait, "Take a Trait first.", "CA-R13")
                work.pending.pop(0)
                self._take_trait(work, head.player, take)
            case PendingTraitDiscard():
                refusal = "You hold 3 Traits: discard one now."
                discard = expect(action, DiscardTrait, refusal, "CA-R13")
                self._discard_trait(work, head.player, discard.name)
                work.pending.pop(0)
            case _:
                raise refuse("Something else must be resolved first.")

    def _roll_off(self, work: Work[ColossiState], head: PendingRollOff, action: Roll) -> None:
        """The highest roll wins; a tie among the highest rolls again (CA-R05)."""
        faces = self.roll(
            work, action, "CA-R05", lambda label, f: f"{label}: {', '.join(map(str, f))}."
        )
        work.pending.pop(0)
        best = max(faces)
        top = tuple(p for p, f in zip(head.contenders, faces, strict=True) if f == best)
        if len(top) > 1:
            work.pending.insert(0, head.evolve({"contenders": top}))
        else:
            roll_off_won(work, head.purpose, top[0])

    def _place_lair(self, work: Work[ColossiState], head: PendingLair, action: PlaceLair) -> None:
        if action.space not in lair_spaces(work.state):
            raise refuse(
                "A Lair goes on an empty space (no tile, not Water); only when there is "
                "none may it replace a tile.",
                "CA-R16",
            )
        work.pending.pop(0)
        put_lair(work, head.beast, action.space)
        maybe_finish_transition(work)

    # --- the explore deck -------------------------------------------------------------

    def _draw_tile(self, work: Work[ColossiState], head: PendingExplore, action: DrawTile) -> None:
        """Draw from the explore deck; empty deck → a spare Environment or bare (CA-R10)."""
        kind = _drawn_kind(work, action)
        idx = work.i(head.space)
        tile = _take_tile(work, action, kind)
        work.tiles[idx] = tile
        work.events.append(
            SpaceExplored(
                space=head.space, tile=tile, text=f"{work.at(head.space)}: {tile_text(tile)}."
            )
        )
        if action.kind is None:
            work.fix(head.space, f"Put {tile_text(tile)} here (drawn by the referee).")
        if tile.kind == "lair" and tile.beast:
            add_beast(work, tile.beast, head.space)

    # --- traits ---------------------------------------------------------------------

    def _next_trait(self, work: Work[ColossiState], name: str | None) -> str:
        drawn = int(current(work, "traits_drawn"))
        work.update["traits_drawn"] = drawn + 1
        return name or f"Trait {drawn + 1}"

    def _take_trait(self, work: Work[ColossiState], seat: int, action: TakeTrait) -> None:
        state = work.state
        row = list(current(work, "trait_row"))
        if action.row is not None:
            if action.row >= len(row):
                raise refuse("There is no such face-up Trait.", "CA-R13")
            name = row[action.row]
            row[action.row] = self._next_trait(work, action.refill)  # refill at once
        else:
            name = self._next_trait(work, action.name)
        traits = [list(t) for t in state.traits]
        if name in traits[seat]:
            name = f"{name} (2)"
        traits[seat].append(name)
        work.update["trait_row"] = tuple(row)
        work.update["traits"] = tuple(tuple(t) for t in traits)
        work.note(f"{state.players[seat]} gains {trait_words(name)}.")
        if len(traits[seat]) > MAX_TRAITS:
            work.pending.insert(0, PendingTraitDiscard(player=seat))

    def _discard_trait(self, work: Work[ColossiState], seat: int, name: str) -> None:
        traits = [list(t) for t in current(work, "traits")]
        if name not in traits[seat]:
            raise refuse(f"{work.state.players[seat]} has no Trait {name!r}.", "CA-R13")
        traits[seat].remove(name)
        work.update["traits"] = tuple(tuple(t) for t in traits)
        work.note(f"{work.state.players[seat]} discards {trait_words(name)}.")

    # --- apply: the phases ------------------------------------------------------------

    def dispatch(self, work: Work[ColossiState], action: ColossiAction) -> None:
        match action:
            case PickWinners():
                self.pick_winners(work, action.seats)
            case ApplyEffect():
                self._effect(work, action)
            case DiscardTrait():
                self._discard_any_time(work, action)
            case RevealAge():
                reveal_age(work, action)
            case Move() | Spawn():
                self.paid_move(work, action)
            case PlayCard():
                self._play_card(work, action)
            case EndActionPhase():
                work.note("The Action Phase ends early (CA-R04).")
                start_harvest(work)
            case EndTurn():
                self._end_turn(work)
            case AgeScoring():
                score_age(work, action)
            case Harvest():
                harvest(work, work.state.active, action)
                self._next_harvester(work)
            case PassHarvest():
                pass_harvest(work, work.state.active)
                self._next_harvester(work)
            case _:  # pragma: no cover - the phase rules let no other action through
                raise refuse("That is not possible now.")

    def _effect(self, work: Work[ColossiState], action: ApplyEffect) -> None:
        if work.state.phase == "tie":
            raise refuse("The game is being decided.")
        do_effect(work, self.current_player(work.state) or 0, action, colossi_rules=True)

    def _discard_any_time(self, work: Work[ColossiState], action: DiscardTrait) -> None:
        if not work.state.options.use_traits:
            raise refuse("This game is played without Traits.", "CA-R13")
        self._discard_trait(work, self.current_player(work.state) or 0, action.name)

    def _play_card(self, work: Work[ColossiState], action: PlayCard) -> None:
        """A card costs an Action; a Beast card refunds it (CA-R14, CA-R15)."""
        options = work.state.options
        kind = action.kind
        if action.card is not None and options.content:
            known = options.content.card(action.card)
            kind = known.kind if known else kind
        if kind in ("perk", "beast_master"):
            raise refuse("Colossi's cards are Action, Beast and Divine Gift cards.", "CA-R14")
        if kind == "beast":
            if work.movements_left < 1 and options.beast_card_needs_action:
                raise refuse("Playing a Beast card needs an Action available.", "CA-R15")
        elif work.movements_left < 1:
            raise refuse("Playing a card costs an Action; you have none left.")
        spent = 1 if work.movements_left > 0 else 0
        work.movements_left -= spent
        played = resolve_play_card(work, work.state.active, action, options.content)
        if played == "beast":
            work.movements_left += spent  # CA-R15: the Beast card refunds its Action

    def _end_turn(self, work: Work[ColossiState]) -> None:
        """End the Actions, draw 1 card (3.5.1); after the last round, the Harvest Phase."""
        state = work.state
        seat = state.active
        work.label = f"{age_label(state.age)} turn"
        work.note(f"{state.players[seat]} ends the Actions and draws 1 card.")
        work.change_cards(seat, 1)
        turns = state.age_turns + 1
        n = len(state.players)
        label = f"{age_label(state.age)} round {(turns - 1) // n + 1} ({state.players[seat]})"
        work.update.update(age_turns=turns, history=gold_row(state, work.gold, label))
        if turns >= state.rounds * n:
            start_harvest(work)
        else:
            nxt = (seat + 1) % n
            work.movements_left = ACTIONS
            work.update["active"] = nxt
            work.events.append(TurnChanged(player=nxt, text=f"{state.players[nxt]}'s turn."))

    def _next_harvester(self, work: Work[ColossiState]) -> None:
        if not next_harvester(work):
            self._end_age(work)

    def _end_age(self, work: Work[ColossiState]) -> None:
        state = work.state
        work.update["history"] = gold_row(state, work.gold, f"End of {age_label(state.age)}")
        if state.age >= AGES:
            self.finish_game(work, state.options.tie_policy, "Age III is over.")
        else:
            award_mantle(work)


def _drawn_kind(work: Work[ColossiState], action: DrawTile) -> str:
    """The kind of the tile drawn: as entered, or drawn by the deck's counts; refused if
    the deck (or, once it is empty, the box) holds none (CA-R10)."""
    state = work.state
    grass, envs, lairs = state.deck_grass, state.deck_environments, len(state.deck_lairs)
    deck_size = grass + envs + lairs
    kind: str | None = action.kind
    rng = work.update.get("rng", state.rng)
    if kind is None:
        if deck_size > 0:
            pick, rng = rng.randint(0, deck_size - 1)
            kind = "grass" if pick < grass else "environment" if pick < grass + envs else "lair"
        else:
            kind = "environment" if state.spare_environments > 0 else "bare"
        work.update["rng"] = rng
    counts = {"grass": grass, "environment": envs, "lair": lairs}
    if deck_size > 0:
        if kind == "bare" or counts[kind] < 1:
            raise refuse(f"The explore deck holds no {kind} tile now.", "CA-R10")
    elif kind not in ("bare", "environment") or (
        kind == "environment" and state.spare_environments < 1
    ):
        raise refuse(
            "The explore deck is empty: only a spare Environment from the box, if any, or nothing.",
            "CA-R10",
        )
    return kind


def _take_tile(work: Work[ColossiState], action: DrawTile, kind: str) -> Tile:
    """Take a tile of ``kind`` from the deck (or the box) and say what it shows."""
    state = work.state
    if kind == "grass":
        work.update["deck_grass"] = state.deck_grass - 1
        return Tile(kind="grass", name=action.name, loot=action.loot or "none")
    if kind == "environment":
        if state.deck_grass + state.deck_environments + len(state.deck_lairs) > 0:
            work.update["deck_environments"] = state.deck_environments - 1
        else:
            work.update["spare_environments"] = state.spare_environments - 1
        return Tile(kind="environment", name=action.name)
    if kind == "lair":
        lairs = list(state.deck_lairs)
        beast = action.beast or lairs[0]
        if beast in lairs:
            lairs.remove(beast)
        else:
            lairs.pop(0)
        if any(b.name == beast for b in work.beasts):
            raise refuse(f"{beast} is already on the island.", "CA-R11")
        work.update["deck_lairs"] = tuple(lairs)
        return Tile(kind="lair", name=action.name or f"Lair of {beast}", beast=beast)
    return Tile(kind="bare")
