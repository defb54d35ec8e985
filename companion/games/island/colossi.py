"""Colossi (seed 002): three Ages of Action and Harvest Phases, Mantle, Traits, Water, Lairs.

The same island as Beast Master (one implementation in :mod:`.mechanics`), without
Banners and Rest. The referee computes control, Road Movement, Actions left (Beast card
net 0), Water/edge legality, the explore deck counts, harvest eligibility and
bookkeeping, Mantle roll-offs, the Lair transition and the winner. Players enter Age
cards, Age scoring, Environment/Beast/card/Trait effects and (optionally) drawn tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from companion.dice import DiceRequest, Roll
from companion.errors import InvalidOptions, InvalidPosition
from companion.rng import Rng
from companion.rules import refuse
from companion.views import ActionCells

from .board import placeholder_board
from .colossi_model import (
    ACTIONS,
    AGE_NAMES,
    AGES,
    MAX_TRAITS,
    PHASE_NAMES,
    START_CARDS,
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
    age_facts,
    age_label,
    colossi_action_cells,
    config,
    lair_spaces,
    tile_text,
)
from .mechanics import (
    Work,
    control_map,
    empty_spaces,
)
from .model import (
    ApplyEffect,
    BeastPos,
    DiscardToLimit,
    DisplaceColossus,
    GainGold,
    IslandConfig,
    Move,
    MoveBeast,
    Note,
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
from .referee import (
    IslandRules,
    leaders,
    pending_answers,
    tie_choices,
)
from .turns import (
    do_effect,
    do_paid_move,
    gold_row,
    move_actions,
    resolve_play_card,
    run_effects,
)


class ColossiRules(IslandRules[ColossiState, ColossiAction, ColossiOptions]):
    name = "colossi"
    title = "Colossi"
    seed_document = "002"
    tie_ruling = "0.2.4"
    acolytes_ruling = "CA-R02"
    colossus_stays_ruling = "CA-R09"
    gold_floor_ruling = "CA-R17"
    corrects_cubes = True
    phase_names = PHASE_NAMES

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
            deck_lairs=tuple(f"Deck Lair {k + 1}" for k in range(options.deck_lairs)),
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
        seat = self.current_player(state)
        who = state.players[seat if seat is not None else state.mantle]
        head = state.pending[0] if state.pending else None
        if head is not None:
            ask = {
                "explore": "draw a tile to explore",
                "roll_off": "roll off",
                "lair": "place the new Lair",
                "trait": "take a Trait",
                "trait_discard": "discard one of 3 Traits",
                "displace": "move your Colossus away",
                "discard": "discard down to 6 cards",
            }.get(head.kind, "resolve")
        else:
            n = len(state.players)
            ask = {
                "age_reveal": "reveal the Age card",
                "actions": f"round {state.age_turns // n + 1}/{state.rounds}, "
                f"{state.movements_left} Action(s) left",
                "age_scoring": "enter the Age card's scoring",
                "harvest": "harvest a space or pass",
                "tie": "pick the winner of the tie",
                "transition": "Age transition",
            }.get(state.phase, "")
        return f"{age_label(state.age)} — {who}: {ask}"

    def panel_facts(self, state: ColossiState) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return age_facts(state)

    def game_action_cells(self, state: ColossiState, action: ColossiAction) -> ActionCells:
        return colossi_action_cells(state, action)

    def harvestable(self, state: ColossiState, seat: int) -> set[str]:
        """Spaces ``seat`` controls now and has not harvested this Age (CA-R07)."""
        done = set(state.harvested[seat])
        return {
            space
            for space, who in control_map(state, config(state)).items()
            if who == seat and space not in done
        }

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

    def legal_actions(self, state: ColossiState) -> Iterable[ColossiAction]:
        if state.phase == "over":
            return
        if state.pending:
            yield from self._pending_actions(state)
            return
        seat = state.active
        if state.phase == "age_reveal":
            yield from _age_samples(state)
        elif state.phase == "actions":
            if state.movements_left > 0:
                yield from move_actions(state, config(state), seat)
                if state.cards_in_hand[seat] > 0:
                    yield from _card_samples(state)
            yield EndTurn()
        elif state.phase == "age_scoring":
            n = len(state.players)
            yield AgeScoring(gold=(0,) * n)
            yield AgeScoring(gold=tuple(2 if p == state.age % n else 0 for p in range(n)))
        elif state.phase == "harvest":
            for space in sorted(self.harvestable(state, seat)):
                yield Harvest(space=space)
            yield PassHarvest()
        elif state.phase == "tie":
            for seats in tie_choices(state.gold):
                yield PickWinners(seats=seats)

    def _pending_actions(self, state: ColossiState) -> Iterator[ColossiAction]:
        head = state.pending[0]
        if isinstance(head, PendingExplore):
            yield DrawTile()
            for loot in ("gold", "cards", "trait"):
                yield DrawTile(loot=loot)
        elif isinstance(head, PendingRollOff):
            yield Roll()
        elif isinstance(head, PendingLair):
            for space in lair_spaces(state):
                yield PlaceLair(space=space)
        elif isinstance(head, PendingTrait):
            for row in range(len(state.trait_row)):
                yield TakeTrait(row=row)
            yield TakeTrait()
        elif isinstance(head, PendingTraitDiscard):
            for name in state.traits[head.player]:
                yield DiscardTrait(name=name)
        else:
            yield from pending_answers(state)

    def interest(self, state: ColossiState, action: ColossiAction) -> int:
        if isinstance(action, Harvest):
            return 12
        if isinstance(action, Move | Spawn):
            return 3
        if isinstance(action, PlayCard):
            return 3
        if isinstance(action, EndTurn):
            return 1 if state.movements_left > 0 else 10
        return 1

    # --- apply ------------------------------------------------------------------------

    def _get(self, work: Work[ColossiState], field: str) -> Any:
        return work.update.get(field, getattr(work.state, field))

    # --- pending --------------------------------------------------------------------

    def resolve_pending(self, work: Work[ColossiState], action: ColossiAction) -> None:
        state = work.state
        head = state.pending[0]
        if isinstance(head, PendingExplore):
            if not isinstance(action, DrawTile):
                raise refuse(f"Draw a tile for {head.space} first.", "3.6")
            work.pending.pop(0)
            self._draw_tile(work, head, action)
            return
        if isinstance(head, PendingRollOff):
            if not isinstance(action, Roll):
                raise refuse("Roll off first.", "CA-R05")
            faces = self.roll(
                work, action, "CA-R05", lambda label, f: f"{label}: {', '.join(map(str, f))}."
            )
            work.pending.pop(0)
            best = max(faces)
            top = tuple(p for p, f in zip(head.contenders, faces, strict=True) if f == best)
            if len(top) > 1:
                work.pending.insert(0, head.evolve({"contenders": top}))
            else:
                self._roll_off_won(work, head.purpose, top[0])
            return
        if isinstance(head, PendingLair):
            if not isinstance(action, PlaceLair):
                raise refuse(f"Place the Lair of {head.beast} first.", "CA-R16")
            if action.space not in lair_spaces(state):
                raise refuse(
                    "A Lair goes on an empty space (no tile, not Water); only when there is "
                    "none may it replace a tile.",
                    "CA-R16",
                )
            work.pending.pop(0)
            self._put_lair(work, head.beast, action.space)
            self._maybe_finish_transition(work)
            return
        if isinstance(head, PendingTrait):
            if not isinstance(action, TakeTrait):
                raise refuse("Take a Trait first.", "CA-R13")
            work.pending.pop(0)
            self._take_trait(work, head.player, action)
            return
        if isinstance(head, PendingTraitDiscard):
            if not isinstance(action, DiscardTrait):
                raise refuse("You hold 3 Traits: discard one now.", "CA-R13")
            self._discard_trait(work, head.player, action.name)
            work.pending.pop(0)
            return
        raise refuse("Something else must be resolved first.")

    def _roll_off_won(self, work: Work[ColossiState], purpose: str, seat: int) -> None:
        state = work.state
        if purpose == "mantle":
            work.note(f"{state.players[seat]} takes the Mantle (CA-R05).")
            work.update["mantle"] = seat
            self._begin_transition(work)
        else:
            work.note(f"{state.players[seat]} places the new Lair(s) (CA-R05).")
            missing = self._missing_lairs(work)
            for pos, beast in enumerate(missing):
                work.pending.insert(pos, PendingLair(player=seat, beast=beast))
            if not missing:
                self._maybe_finish_transition(work)

    def _draw_tile(self, work: Work[ColossiState], head: PendingExplore, action: DrawTile) -> None:
        """Draw from the explore deck; empty deck → a spare Environment or bare (CA-R10)."""
        state = work.state
        grass, envs = state.deck_grass, state.deck_environments
        lairs = list(state.deck_lairs)
        deck_size = grass + envs + len(lairs)
        kind = action.kind
        rng = work.update.get("rng", state.rng)
        if kind is None:
            if deck_size > 0:
                pick, rng = rng.randint(0, deck_size - 1)
                kind = "grass" if pick < grass else "environment" if pick < grass + envs else "lair"
            else:
                kind = "environment" if state.spare_environments > 0 else "bare"
            work.update["rng"] = rng
        counts = {"grass": grass, "environment": envs, "lair": len(lairs)}
        if deck_size > 0:
            if kind == "bare" or counts[kind] < 1:
                raise refuse(f"The explore deck holds no {kind} tile now.", "CA-R10")
        elif kind not in ("bare", "environment") or (
            kind == "environment" and state.spare_environments < 1
        ):
            raise refuse(
                "The explore deck is empty: only a spare Environment from the box, if any, "
                "or nothing.",
                "CA-R10",
            )
        idx = work.i(head.space)
        if kind == "grass":
            work.update["deck_grass"] = grass - 1
            tile = Tile(kind="grass", name=action.name, loot=action.loot or "none")
        elif kind == "environment":
            if deck_size > 0:
                work.update["deck_environments"] = envs - 1
            else:
                work.update["spare_environments"] = state.spare_environments - 1
            tile = Tile(kind="environment", name=action.name)
        elif kind == "lair":
            beast = action.beast or lairs[0]
            if beast in lairs:
                lairs.remove(beast)
            else:
                lairs.pop(0)
            if any(b.name == beast for b in work.beasts):
                raise refuse(f"{beast} is already on the island.", "CA-R11")
            work.update["deck_lairs"] = tuple(lairs)
            tile = Tile(kind="lair", name=action.name or f"Lair of {beast}", beast=beast)
        else:
            tile = Tile(kind="bare")
        work.tiles[idx] = tile
        work.events.append(
            SpaceExplored(space=head.space, tile=tile, text=f"{head.space}: {tile_text(tile)}.")
        )
        if action.kind is None:
            work.fix(head.space, f"Put {tile_text(tile)} here (drawn by the referee).")
        if tile.kind == "lair" and tile.beast:
            self._add_beast(work, tile.beast, head.space)

    def _add_beast(self, work: Work[ColossiState], beast: str, space: str) -> None:
        work.beasts.append(BeastPos(name=beast, space=space))
        work.note(f"{beast} appears on {space}.")
        if work.cfg.beast_kills:  # CA-R08 option: Beast Master's kill rule
            idx = work.i(space)
            for seat in work.seats_from(work.active):
                work.kill(seat, space, work.acolytes[idx][seat], beast)

    def _put_lair(self, work: Work[ColossiState], beast: str, space: str) -> None:
        idx = work.i(space)
        if work.tiles[idx] is not None:
            work.note(f"The tile on {space} is discarded for the Lair (CA-R11).")
        work.tiles[idx] = Tile(kind="lair", name=f"Lair of {beast}", beast=beast)
        work.fix(space, f"Put the Lair of {beast} here, with {beast} on it.")
        self._add_beast(work, beast, space)

    # --- traits ---------------------------------------------------------------------

    def _next_trait(self, work: Work[ColossiState], name: str | None) -> str:
        drawn = int(self._get(work, "traits_drawn"))
        work.update["traits_drawn"] = drawn + 1
        return name or f"Trait {drawn + 1}"

    def _take_trait(self, work: Work[ColossiState], seat: int, action: TakeTrait) -> None:
        state = work.state
        row = list(self._get(work, "trait_row"))
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
        work.note(f"{state.players[seat]} gains the Trait {name}.")
        if len(traits[seat]) > MAX_TRAITS:
            work.pending.insert(0, PendingTraitDiscard(player=seat))

    def _discard_trait(self, work: Work[ColossiState], seat: int, name: str) -> None:
        traits = [list(t) for t in self._get(work, "traits")]
        if name not in traits[seat]:
            raise refuse(f"{work.state.players[seat]} has no Trait {name!r}.", "CA-R13")
        traits[seat].remove(name)
        work.update["traits"] = tuple(tuple(t) for t in traits)
        work.note(f"{work.state.players[seat]} discards the Trait {name}.")

    # --- phases -----------------------------------------------------------------------

    def act(self, work: Work[ColossiState], action: ColossiAction) -> None:
        state = work.state
        phase = state.phase
        seat = state.active
        if isinstance(action, PickWinners):
            self.pick_winners(work, action.seats)
            return
        if isinstance(action, ApplyEffect):
            if phase in ("tie",):
                raise refuse("The game is being decided.")
            do_effect(work, self.current_player(state) or 0, action, colossi_rules=True)
            return
        if isinstance(action, DiscardTrait):
            if not state.options.use_traits:
                raise refuse("This game is played without Traits.", "CA-R13")
            self._discard_trait(work, self.current_player(state) or 0, action.name)
            return
        if phase == "age_reveal":
            if not isinstance(action, RevealAge):
                raise refuse(f"Reveal the card of {age_label(state.age)} first.", "CA-R19")
            self._reveal(work, action)
            return
        if phase == "actions":
            self._action_phase(work, seat, action)
            return
        if phase == "age_scoring":
            if not isinstance(action, AgeScoring):
                raise refuse("Enter the Age card's scoring first.", "3.7")
            if len(action.gold) != len(state.players):
                raise refuse("Give one gold amount per player, in seat order.")
            work.label = f"{age_label(state.age)} scoring"
            for p, amount in enumerate(action.gold):
                work.add_gold(p, amount, "age_scoring")
            work.update.update(
                phase="harvest",
                active=state.mantle,
                history=gold_row(state, work.gold, f"{age_label(state.age)} scoring"),
            )
            work.note("The Harvest Phase begins with the Mantle holder.")
            return
        if phase == "harvest":
            if isinstance(action, Harvest):
                self._harvest(work, seat, action)
            elif isinstance(action, PassHarvest):
                passed = list(state.passed)
                passed[seat] = True
                work.update["passed"] = tuple(passed)
                work.note(f"{state.players[seat]} passes for this Harvest.")
            else:
                raise refuse("In the Harvest Phase you harvest a space or pass.")
            self._next_harvester(work)
            return
        raise refuse("That is not possible now.")

    def _reveal(self, work: Work[ColossiState], action: RevealAge) -> None:
        state = work.state
        content = state.options.content
        beasts, rounds, water, name = action.beasts, action.rounds, action.water, action.name
        card_id: str | None = action.card
        if card_id is None and not beasts and content and content.ages:
            marked = any(a.age for a in content.ages)  # CA-R19 sub-decks
            pool = [
                a.id
                for a in content.ages
                if a.id not in state.used_age_cards
                and (not marked or a.age == AGE_NAMES[state.age - 1])
            ]
            if not pool:
                raise refuse("The content file has no unused Age card for this Age.", "CA-R19")
            card_id, rng = state.rng.choice(pool)
            work.update["rng"] = rng
        if card_id is not None:
            card = content.age(card_id) if content else None
            if card is None:
                raise refuse(f"The content file has no Age card {card_id!r}.", "CA-R19")
            beasts, rounds, water = card.beasts, card.rounds, card.water
            name = card.name or card.id
            work.update["used_age_cards"] = (*state.used_age_cards, card.id)
        if not beasts or len(set(beasts)) != len(beasts):
            raise refuse("An Age card names at least one Beast, each once.", "CA-R11")
        for space in water:
            if not state.board.has(space):
                raise refuse(f"There is no space {space!r} on this island.", "BM-R01")
        work.label = age_label(state.age)
        work.update.update(
            age_name=name,
            age_beasts=beasts,
            rounds=rounds or state.options.rounds_per_age,  # CA-R04
            phase="transition",
        )
        work.note(f"{age_label(state.age)}: {name or 'Age card'} — Beasts: {', '.join(beasts)}.")
        on_board = {b.name for b in work.beasts}
        if state.age == 1:
            first, *others = beasts
            centre = state.board.centre
            if state.options.centre_setup == "age1_lair":  # CA-R01
                self._put_lair(work, first, centre)
                placed_later = others
            else:
                work.pending.append(
                    PendingExplore(space=centre, player=state.mantle, entered=False)
                )
                placed_later = list(beasts)
            work.update["retiring_beasts"] = ()
            if placed_later:
                work.pending.append(
                    PendingRollOff(
                        purpose="age1_lairs", contenders=tuple(range(len(state.players)))
                    )
                )
        else:
            retiring = tuple(b.name for b in work.beasts if b.name not in beasts)
            work.update["retiring_beasts"] = retiring
            missing = [b for b in beasts if b not in on_board]
            if missing:
                low = min(work.gold)
                poorest = tuple(p for p, g in enumerate(work.gold) if g == low)
                if len(poorest) == 1:
                    for beast in missing:
                        work.pending.append(PendingLair(player=poorest[0], beast=beast))
                else:
                    work.pending.append(PendingRollOff(purpose="least_gold", contenders=poorest))
        for space in water:  # the Age card's Setup (CA-R18)
            work.set_water(space, True)
        self._maybe_finish_transition(work)

    def _missing_lairs(self, work: Work[ColossiState]) -> list[str]:
        beasts: tuple[str, ...] = tuple(self._get(work, "age_beasts"))
        on_board = {b.name for b in work.beasts}
        pending = {p.beast for p in work.pending if isinstance(p, PendingLair)}
        return [b for b in beasts if b not in on_board and b not in pending]

    def _maybe_finish_transition(self, work: Work[ColossiState]) -> None:
        """Once every new Lair is placed: retire old Beasts (CA-R11), start the Action Phase."""
        if self._get(work, "phase") != "transition":
            return
        if any(isinstance(p, PendingLair | PendingRollOff) for p in work.pending):
            return
        state = work.state
        retiring: tuple[str, ...] = tuple(self._get(work, "retiring_beasts"))
        for beast in retiring:
            pos = next((k for k, b in enumerate(work.beasts) if b.name == beast), None)
            if pos is None:
                continue
            space = work.beasts.pop(pos).space
            idx = work.i(space)
            tile = work.tiles[idx]
            if tile is not None and tile.kind == "lair" and tile.beast == beast:
                occupied = sum(work.acolytes[idx]) > 0 or space in work.colossi
                work.tiles[idx] = None
                work.note(f"{beast} and its Lair leave the island (CA-R11).")
                work.fix(space, f"Remove {beast} and its Lair.")
                if occupied:
                    work.pending.append(
                        PendingExplore(space=space, player=state.mantle, entered=False)
                    )
        age: int = int(self._get(work, "age"))
        mantle: int = int(self._get(work, "mantle"))
        if age == 1 and state.options.use_traits:
            for seat in work.seats_from(mantle):  # CA-R12
                work.pending.append(PendingTrait(player=seat))
        work.movements_left = ACTIONS
        work.update.update(
            phase="actions",
            retiring_beasts=(),
            active=mantle,
            age_turns=0,
            harvested=((),) * len(state.players),
            passed=(False,) * len(state.players),
        )
        work.events.append(
            TurnChanged(player=mantle, text=f"{state.players[mantle]} starts the Age.")
        )

    def _action_phase(self, work: Work[ColossiState], seat: int, action: ColossiAction) -> None:
        state = work.state
        if isinstance(action, Move | Spawn):
            do_paid_move(work, seat, action, "Action")
            return
        if isinstance(action, PlayCard):
            kind = action.kind
            if action.card is not None and state.options.content:
                known = state.options.content.card(action.card)
                kind = known.kind if known else kind
            if kind in ("perk", "beast_master"):
                raise refuse("Colossi's cards are Action, Beast and Divine Gift cards.", "CA-R14")
            if kind == "beast":
                if work.movements_left < 1 and state.options.beast_card_needs_action:
                    raise refuse("Playing a Beast card needs an Action available.", "CA-R15")
            elif work.movements_left < 1:
                raise refuse("Playing a card costs an Action; you have none left.")
            spent = 1 if work.movements_left > 0 else 0
            work.movements_left -= spent
            played = resolve_play_card(work, seat, action, state.options.content)
            if played == "beast":
                work.movements_left += spent  # CA-R15: the Beast card refunds its Action
            return
        if isinstance(action, EndActionPhase):
            work.note("The Action Phase ends early (CA-R04).")
            self._start_harvest(work)
            return
        if isinstance(action, EndTurn):
            work.label = f"{age_label(state.age)} turn"
            work.note(f"{state.players[seat]} ends the Actions and draws 1 card.")
            work.change_cards(seat, 1)
            turns = state.age_turns + 1
            n = len(state.players)
            label = f"{age_label(state.age)} round {(turns - 1) // n + 1} ({state.players[seat]})"
            work.update.update(age_turns=turns, history=gold_row(state, work.gold, label))
            if turns >= state.rounds * n:
                self._start_harvest(work)
            else:
                nxt = (seat + 1) % n
                work.movements_left = ACTIONS
                work.update["active"] = nxt
                work.events.append(TurnChanged(player=nxt, text=f"{state.players[nxt]}'s turn."))
            return
        raise refuse("That is not possible during the Action Phase.")

    def _start_harvest(self, work: Work[ColossiState]) -> None:
        work.movements_left = 0
        work.update.update(phase="age_scoring", active=work.state.mantle)
        work.note(f"{age_label(work.state.age)}'s Harvest Phase: first the Age card's scoring.")

    def _harvest(self, work: Work[ColossiState], seat: int, action: Harvest) -> None:
        """Acolytes home, Colossus tipped, then cubes → Grass Loot → Environment (3.7)."""
        state = work.state
        if not state.board.has(action.space):
            raise refuse(f"There is no space {action.space!r} on this island.", "BM-R01")
        if action.space in state.harvested[seat]:
            raise refuse(f"You already harvested {action.space} this Age.", "CA-R07")
        if action.space not in self.harvestable(state, seat):
            raise refuse(f"You do not control {action.space} now.", "CA-R06")
        idx = work.i(action.space)
        work.label = f"{age_label(state.age)} harvest"
        back = work.acolytes[idx][seat]
        work.acolytes[idx][seat] = 0
        work.in_hand[seat] += back
        if back:
            work.fix(action.space, f"{state.players[seat]} takes back {back} Acolyte(s).")
        if work.colossi[seat] == action.space:
            work.tipped[seat] = True
            work.fix(action.space, f"Lay {state.players[seat]}'s Colossus on its side.")
        work.note(
            f"{state.players[seat]} harvests {action.space}"
            + (f"; {back} Acolyte(s) return to hand" if back else "")
            + ("; the Colossus is laid on its side" if work.colossi[seat] == action.space else "")
            + "."
        )
        cubes = work.cubes[idx]
        if cubes:
            work.cubes[idx] = 0
            work.add_gold(seat, cubes, "harvest")
        tile = work.tiles[idx]
        if tile is not None and tile.kind == "grass":
            if tile.loot == "gold":
                work.add_gold(seat, 1, "harvest")
            elif tile.loot == "cards":
                work.change_cards(seat, 1)
            elif tile.loot == "trait":
                if state.options.use_traits:
                    work.pending.append(PendingTrait(player=seat))
                else:
                    work.note("Without Traits, Trait Loot gives nothing (CA-R13).")
        effects = action.effects
        if tile is not None and tile.kind in ("environment", "lair") and not effects:
            known = state.options.content.environment(tile.name) if state.options.content else None
            effects = known.effects if known else ()
        elif effects and (tile is None or tile.kind not in ("environment", "lair")):
            raise refuse(f"{action.space} is not an Environment: it has no effect text.")
        if effects:
            run_effects(work, seat, None, effects, colossi_rules=True, gold_source="harvest")
        harvested = [list(h) for h in state.harvested]
        harvested[seat].append(action.space)
        work.update["harvested"] = tuple(tuple(h) for h in harvested)

    def _next_harvester(self, work: Work[ColossiState]) -> None:
        state = work.state
        passed: tuple[bool, ...] = tuple(self._get(work, "passed"))
        n = len(state.players)
        for k in range(1, n + 1):
            seat = (state.active + k) % n
            if not passed[seat]:
                work.update["active"] = seat
                return
        self._end_age(work)

    def _end_age(self, work: Work[ColossiState]) -> None:
        state = work.state
        work.update["history"] = gold_row(state, work.gold, f"End of {age_label(state.age)}")
        if state.age >= AGES:
            self.finish_game(work, state.options.tie_policy, "Age III is over.")
            return
        work.update["phase"] = "transition"
        first = leaders(work.gold)
        if len(first) == 1:
            work.update["mantle"] = first[0]
            work.note(f"{state.players[first[0]]} is in first place and takes the Mantle.")
            self._begin_transition(work)
        else:
            work.pending.append(PendingRollOff(purpose="mantle", contenders=first))

    def _begin_transition(self, work: Work[ColossiState]) -> None:
        """Stand Colossi up, pass the Mantle if the option says so, reveal the next Age."""
        state = work.state
        for seat, tipped in enumerate(work.tipped):
            where = work.colossi[seat]
            if tipped and where is not None:
                work.fix(where, f"Stand {state.players[seat]}'s Colossus up again.")
        work.tipped = [False] * len(state.players)
        mantle = int(self._get(work, "mantle"))
        if state.options.mantle_pass_left_after_award:  # CA-R03 option
            mantle = (mantle + 1) % len(state.players)
        work.update.update(mantle=mantle, active=mantle, phase="age_reveal", age=state.age + 1)


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


__all__ = [
    "RULES",
    "AgeScoring",
    "ApplyEffect",
    "ColossiAction",
    "ColossiOptions",
    "ColossiRules",
    "ColossiState",
    "DiscardToLimit",
    "DiscardTrait",
    "DisplaceColossus",
    "DrawTile",
    "EndActionPhase",
    "EndTurn",
    "Harvest",
    "Move",
    "Note",
    "PassHarvest",
    "PickWinners",
    "PlaceLair",
    "PlayCard",
    "RevealAge",
    "Roll",
    "Spawn",
    "TakeTrait",
    "config",
]
