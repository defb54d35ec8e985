"""Colossi (seed 002): three Ages of Action and Harvest Phases, Mantle, Traits, Water, Lairs.

The same island as Beast Master (one implementation in :mod:`.mechanics`), without
Banners and Rest. The referee computes control, Road Movement, Actions left (Beast card
net 0), Water/edge legality, the explore deck counts, harvest eligibility and
bookkeeping, Mantle roll-offs, the Lair transition and the winner. Players enter Age
cards, Age scoring, Environment/Beast/card/Trait effects and (optionally) drawn tiles.

Here: the referee (setup, queries, legal actions, the explore deck, Traits) and the
dispatch of each action to its handler; the Age cycle (Age card, transition, Harvest)
is in :mod:`.colossi_ages`, the options, state and actions in :mod:`.colossi_model`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion import words
from companion.dice import DiceRequest, Roll
from companion.errors import InvalidOptions, InvalidPosition
from companion.rng import Rng
from companion.rules import refuse
from companion.views import ActionCells

from .board import placeholder_board
from .colossi_ages import (
    add_beast,
    award_mantle,
    current,
    harvest,
    harvestable,
    maybe_finish_transition,
    next_harvester,
    pass_harvest,
    put_lair,
    reveal_age,
    roll_off_won,
    score_age,
    start_harvest,
)
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
    empty_spaces,
)
from .model import (
    ApplyEffect,
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
    PhaseRule,
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
    any_phase = (PickWinners, ApplyEffect, DiscardTrait)
    phase_rules = PHASE_RULES
    movement_unit = "Action"

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
                f"{words.count(state.movements_left, 'Action')} left",
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

    # --- apply: what the game waits for -------------------------------------------------

    def resolve_pending(self, work: Work[ColossiState], action: ColossiAction) -> None:
        head = work.state.pending[0]
        match head:
            case PendingExplore():
                draw = expect(action, DrawTile, f"Draw a tile for {head.space} first.", "3.6")
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
            SpaceExplored(space=head.space, tile=tile, text=f"{head.space}: {tile_text(tile)}.")
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
        work.note(f"{state.players[seat]} gains the Trait {name}.")
        if len(traits[seat]) > MAX_TRAITS:
            work.pending.insert(0, PendingTraitDiscard(player=seat))

    def _discard_trait(self, work: Work[ColossiState], seat: int, name: str) -> None:
        traits = [list(t) for t in current(work, "traits")]
        if name not in traits[seat]:
            raise refuse(f"{work.state.players[seat]} has no Trait {name!r}.", "CA-R13")
        traits[seat].remove(name)
        work.update["traits"] = tuple(tuple(t) for t in traits)
        work.note(f"{work.state.players[seat]} discards the Trait {name}.")

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
