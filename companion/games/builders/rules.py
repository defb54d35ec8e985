"""The referee of Builders of the Colossus: legal actions, apply, corrections, outcome, scores."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import product
from typing import Any

from companion import words
from companion.errors import InvalidPosition
from companion.events import Event, GameEnded, TableChanges
from companion.games.builders.blueprints import check_arithmetic, check_layout, face_up_card
from companion.games.builders.content import (
    BLUEPRINT_SLOTS,
    COLOSSI_TO_BUILD,
    CURSE_MAX,
    CURSE_MIN,
    HAND_MINIMUM,
    MAX_ACCESSORIES,
    MAX_RUNE_COST,
    MIN_RUNE_COST,
    PARTS_IN_GAME,
    REVEAL_CARDS,
    REVEAL_RUNES,
    START_RUNES,
    BlueprintCard,
    check_blueprint_table,
)
from companion.games.builders.corrections import correct_built, correct_hand, correct_runes
from companion.games.builders.model import (
    ActionTaken,
    Build,
    BuildersAction,
    BuildersOptions,
    BuildersState,
    BuildRecord,
    ColossusBuilt,
    CorrectBuilt,
    CorrectHand,
    CorrectRunes,
    Curse,
    Draw,
    EndTurn,
    PickWinner,
    Reveal,
    Trade,
    TurnStarted,
    ZeroCheck,
)
from companion.games.builders.phrases import describe, value_words
from companion.games.builders.play import _Turn
from companion.games.builders.views import builders_card_cells, builders_cards, builders_panel
from companion.games.corrections import (
    Correction,
    corrected,
    game_over,
    impossible,
)
from companion.highlights import TableChange
from companion.outcome import Outcome, ScoreRow, ScoreSheet
from companion.rng import Rng
from companion.rules import ActionRole, Rules, refuse
from companion.views import ActionCells, CardView, PanelView

# The listed actions are immutable values, made once per value: the turns of a game
# list the same ones over and over (the kiosk keeps each one's payload and label by
# identity, as Kolossus's canonical moves).
_DRAW = Draw()
_END_TURN = {word: EndTurn(no_build_possible=word) for word in (False, True)}
_trade = lru_cache(maxsize=256)(Trade)
_reveal = lru_cache(maxsize=64)(Reveal)
_build = lru_cache(maxsize=1024)(Build)


@lru_cache(maxsize=1024)
def _build_of_parts(slot: int, parts: tuple[tuple[str, int], ...]) -> Build:
    """A Build laying out ``parts`` (a Blueprint table's exact listing, BC-R15)."""
    return Build(slot=slot, parts=dict(parts))


#: The roles of Builders' actions (``Rules.action_role``).
_ROLES: dict[str, ActionRole] = {
    "end_turn": ActionRole.END_TURN,
    "correct_runes": ActionRole.CORRECTION,
    "correct_hand": ActionRole.CORRECTION,
    "correct_built": ActionRole.CORRECTION,
}


class BuildersRules(Rules[BuildersState, BuildersAction, BuildersOptions]):
    name = "builders"
    title = "Builders of the Colossus"
    seed_document = "004"
    min_players = 2
    max_players = 4

    options_model = BuildersOptions
    state_model = BuildersState
    action_type = BuildersAction

    def action_role(self, action_type: str) -> ActionRole | None:
        return _ROLES.get(action_type) or super().action_role(action_type)

    # --- words (the phrasebook: phrases.py; titles on the action models) -------------

    def describe(self, state: BuildersState, action: BuildersAction) -> str:
        return describe(state, action)

    def value_words(self, state: BuildersState, action_type: str, field: str, value: object) -> str:
        return value_words(state, field, value)

    # --- setup ----------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: BuildersOptions, seed: int) -> BuildersState:
        """Deal 10 Runes and 10 Parts each; the first listed player starts (seat order)."""
        names = self.check_players(players)
        n = len(names)
        rng = Rng(seed=seed)
        table: tuple[BlueprintCard, ...] = ()
        deck: tuple[int, ...] = ()
        face_up: tuple[int | None, ...] = (None,) * BLUEPRINT_SLOTS
        if options.blueprints is not None:
            check_blueprint_table(options.blueprints)
            table = options.blueprints
            cards = [i for i, card in enumerate(table) for _ in range(card.copies)]
            shuffled, rng = rng.shuffle(cards)
            face_up = tuple(shuffled[:BLUEPRINT_SLOTS])
            deck = tuple(shuffled[BLUEPRINT_SLOTS:])
        return BuildersState(
            players=names,
            rng=rng,
            runes=(START_RUNES,) * n,
            hands=(HAND_MINIMUM,) * n,
            deck=PARTS_IN_GAME - HAND_MINIMUM * n,
            zero_checks=(None,) * n,
            from_stockpile=(0,) * n,
            sealed=(0,) * n,
            blueprint_table=table,
            blueprint_deck=deck,
            face_up=face_up,
            forced_build=options.forced_build,
            reveal_source=options.reveal_source,
            zero_check=options.zero_check,
            final_tie=options.final_tie,
        )

    # --- queries --------------------------------------------------------------------

    def outcome(self, state: BuildersState) -> Outcome | None:
        return state.result

    def current_player(self, state: BuildersState) -> int | None:
        return None if state.result is not None else state.current

    def status(self, state: BuildersState) -> str:
        built = f"built {state.built}/{COLOSSI_TO_BUILD}"
        if state.result is not None:
            return f"Game over · {built} · {state.result.text}"
        if state.tied:
            names = " or ".join(state.players[s] for s in state.tied)
            return f"Turn {state.turn} · {built} · players decide the winner: {names}"
        if state.mode == "curse":
            doing = "cursed"
        elif state.actions_used:
            doing = "actions used: " + ", ".join(a.capitalize() for a in state.actions_used)
        else:
            doing = "Curse, or Trade/Draw/Reveal"
        return f"Turn {state.turn} · {state.players[state.current]} · {built} · {doing}"

    def scores(self, state: BuildersState) -> ScoreSheet:
        return ScoreSheet(measure="runes", columns=state.players, rows=state.history)

    def panel(self, state: BuildersState) -> PanelView:
        """Runes, hands and Colossi per player; the counter, deck, turn, zero-Rune checks."""
        return builders_panel(state, turn=self.current_player(state))

    def cards(self, state: BuildersState) -> tuple[CardView, ...]:
        """The Blueprints, the players' Runes and cards, the stockpile, deck and counter."""
        return builders_cards(state)

    def action_cells(self, state: BuildersState, action: BuildersAction) -> ActionCells:
        """The cards ``action`` is about (the "cells" of a card game's table)."""
        # Its fields as they are (what a dump says, without a pydantic call per action).
        return builders_card_cells(vars(action))

    def interest(self, state: BuildersState, action: BuildersAction) -> int:
        """Builds dominate so random play reaches 10 Colossi; Curses (many) stay rare."""
        if isinstance(action, Build):
            return 400
        if isinstance(action, EndTurn | PickWinner):
            return 20
        if isinstance(action, Draw):
            return 10
        if isinstance(action, Reveal | Trade):
            return 3
        return 1

    def check_position(self, state: BuildersState) -> None:
        n = len(state.players)
        if not self.min_players <= n <= self.max_players:
            raise InvalidPosition(f"{self.title} is for 2–4 players, not {n}.")
        per_seat = {
            "runes": state.runes,
            "hands": state.hands,
            "zero_checks": state.zero_checks,
            "from_stockpile": state.from_stockpile,
            "sealed": state.sealed,
        }
        for field, values in per_seat.items():
            if len(values) != n:
                raise InvalidPosition(f"{field} needs one entry per player.")
        if min(state.runes) < 0 or min(state.hands) < 0 or state.deck < 0:
            raise InvalidPosition("Runes, hands and the deck cannot be negative.")
        if sum(state.hands) + state.deck != PARTS_IN_GAME:
            raise InvalidPosition(
                f"Hands and deck hold {words.count(sum(state.hands) + state.deck, 'Parts card')}, "
                "not 135."
            )
        if state.rune_corrections and len(state.rune_corrections) != n:
            raise InvalidPosition("rune_corrections needs one entry per player.")
        flows = sum(state.from_stockpile) - sum(state.sealed) + sum(state.rune_corrections)
        if sum(state.runes) != START_RUNES * n + flows:
            raise InvalidPosition("The Runes do not add up with the stockpile flows.")
        if not 0 <= state.current < n or state.built > COLOSSI_TO_BUILD:
            raise InvalidPosition("The current seat or the Colossi counter is out of range.")
        if len(state.face_up) != BLUEPRINT_SLOTS:
            raise InvalidPosition("There are exactly 3 Blueprint slots.")
        size = len(state.blueprint_table)
        if any(
            i is not None and not 0 <= i < size for i in (*state.face_up, *state.blueprint_deck)
        ):
            raise InvalidPosition("A Blueprint refers to a card that is not in the table.")

    # --- legal actions ----------------------------------------------------------------

    def legal_actions(self, state: BuildersState) -> Iterable[BuildersAction]:
        """Every legal action; open amounts are listed as samples.

        Trades: 1 card for nothing, 1 card for 1 card, 1 card for 1 card plus 1 Rune,
        and 1 card for 2 Runes (each where affordable). Builds without a table: every
        slot, cost 3–6 and Accessories count that the Runes cover, laying out
        ``min(hand, 5 + accessories)`` cards. Builds with a table: the exact listed
        Parts, and once with a Wild for the first listed Part.
        """
        if state.result is not None:
            return []
        if state.tied:
            picks: list[BuildersAction] = [PickWinner(seats=(s,)) for s in state.tied]
            picks.append(PickWinner(seats=state.tied))
            return picks
        return list(self._turn_actions(state))

    def _turn_actions(self, state: BuildersState) -> Iterator[BuildersAction]:
        me = state.current
        n = len(state.players)
        others = [s for s in range(n) if s != me]
        if state.mode == "open":
            yield from self._curses(n, me)
        if state.mode != "curse":
            if "draw" not in state.actions_used and state.deck > 0:
                yield _DRAW
            if "trade" not in state.actions_used:
                for p in others:
                    if state.hands[p] < 1:
                        continue
                    yield _trade(partner=p, cards_received=1)
                    if state.hands[me] >= 1:
                        yield _trade(partner=p, cards_received=1, cards_given=1)
                        if state.runes[me] >= 1:
                            yield _trade(partner=p, cards_received=1, cards_given=1, runes_given=1)
                    if state.runes[me] >= 2:
                        yield _trade(partner=p, cards_received=1, runes_given=2)
            if "reveal" not in state.actions_used:
                for p in others:
                    if state.reveal_source == "target_only_require_2" and state.runes[p] < 2:
                        continue
                    yield _reveal(target=p, take=False)
                    if state.hands[p] >= 1:
                        yield _reveal(target=p, take=True)
        yield from self._builds(state)
        if state.mode != "open":
            yield _END_TURN[self._needs_no_build_word(state)]

    @staticmethod
    @lru_cache(maxsize=16)
    def _curses(n: int, me: int) -> tuple[Curse, ...]:
        """Every split of 1–4 Runes among ``n`` seats, at most 1 to ``me`` (BC-R09);
        made once per table size and seat."""
        return tuple(
            Curse(runes=split)
            for split in product(range(CURSE_MAX + 1), repeat=n)
            if CURSE_MIN <= sum(split) <= CURSE_MAX and split[me] <= 1
        )

    def _builds(self, state: BuildersState) -> Iterator[Build]:
        me = state.current
        runes, hand = state.runes[me], state.hands[me]
        for slot in range(1, BLUEPRINT_SLOTS + 1):
            card = face_up_card(state, slot)
            if not state.blueprint_table:
                for cost in range(MIN_RUNE_COST, MAX_RUNE_COST + 1):
                    for acc in range(MAX_ACCESSORIES + 1):
                        cards = min(hand, 5 + acc)
                        if cost + acc <= runes and cards >= acc + 1:
                            yield _build(slot=slot, rune_cost=cost, accessories=acc, cards=cards)
                continue
            if card is None:
                continue
            listed = {k: v for k, v in card.parts.items() if v > 0}
            layouts = [dict(listed)]
            first = next(iter(listed))
            with_wild = dict(listed)
            with_wild[first] -= 1
            with_wild["wild"] = 1
            layouts.append({k: v for k, v in with_wild.items() if v > 0})
            for layout in layouts:
                for acc in range(MAX_ACCESSORIES + 1):
                    parts = dict(layout)
                    if acc:
                        parts["accessory"] = acc
                    if card.rune_cost + acc <= runes and sum(parts.values()) <= hand:
                        yield _build_of_parts(slot, tuple(parts.items()))

    # --- apply ------------------------------------------------------------------------

    def apply(
        self, state: BuildersState, action: BuildersAction
    ) -> tuple[BuildersState, tuple[Event, ...]]:
        if isinstance(action, Correction):
            return self._correct(state, action)
        if state.result is not None:
            raise refuse("The game is over.")
        if state.tied and not isinstance(action, PickWinner):
            raise refuse(
                "All 10 Colossi are built; the players must now pick the winner.", "BC-R12"
            )
        return self._dispatch(state, action)

    def _dispatch(
        self, state: BuildersState, action: BuildersAction
    ) -> tuple[BuildersState, tuple[Event, ...]]:
        """One handler per action type. Those that change the table get the turn's working
        copy and return the rest of their state update; :meth:`_settle` finishes them."""
        work = _Turn(state)
        match action:
            case PickWinner():
                return self._pick_winner(state, action)
            case EndTurn():
                return self._end_turn(state, action)
            case Curse():
                update = self._curse(state, action, work)
            case Build():
                update = self._build(state, action, work)
            case Trade():
                update = self._trade(state, action, work)
            case Draw():
                update = self._draw(state, action, work)
            case Reveal():
                update = self._reveal(state, action, work)
            case _:  # pragma: no cover - corrections never get here; the union is exhaustive
                raise refuse("Builders of the Colossus has no such action.")
        return self._settle(state, work, update)

    def _settle(
        self,
        state: BuildersState,
        work: _Turn,
        update: dict[str, Any],
        first: tuple[Event, ...] = (),
    ) -> tuple[BuildersState, tuple[Event, ...]]:
        """Refill the hands (BC-R06), make the new state, then the checks after a change."""
        work.refill()
        new = state.evolve({**update, **work.update()})
        new, more = self._after_change(new)
        return new, (*first, *work.events, *more)

    @staticmethod
    def _gain_action(state: BuildersState, kind: str) -> dict[str, Any]:
        """Trade, Draw and Reveal: none after a Curse (BC-R02), each once per turn."""
        if state.mode == "curse":
            raise refuse("You cursed this turn; a Curse replaces Trade, Draw and Reveal.", "BC-R02")
        if kind in state.actions_used:
            raise refuse(f"{kind.capitalize()} can be done only once per turn.")
        return {"mode": "actions", "actions_used": (*state.actions_used, kind)}

    def _curse(self, state: BuildersState, action: Curse, work: _Turn) -> dict[str, Any]:
        me = state.current
        if state.mode == "curse":
            raise refuse("You have already cursed this turn.", "BC-R02")
        if state.mode == "actions":
            raise refuse(
                "A Curse replaces Trade, Draw and Reveal; you have already taken an action.",
                "BC-R02",
            )
        if len(action.runes) != len(state.players):
            raise refuse(
                f"Say how many Runes each of the {len(state.players)} players gets.", "BC-R09"
            )
        if any(r < 0 for r in action.runes):
            raise refuse("A Curse cannot take Runes away from a player.", "BC-R09")
        total = sum(action.runes)
        if not CURSE_MIN <= total <= CURSE_MAX:
            raise refuse(f"A Curse takes 1 to 4 Runes from the stockpile, not {total}.", "BC-R09")
        if action.runes[me] > 1:
            raise refuse("Curse: you may keep at most 1 of the Runes you take.", "BC-R09")
        work.events.append(
            ActionTaken(
                text=f"{work.name(me)} curses with {words.count(total, 'Rune')}.",
                player=me,
                action="curse",
            )
        )
        for seat, amount in enumerate(action.runes):
            work.move_runes(None, seat, amount)
        return {"mode": "curse"}

    def _trade(self, state: BuildersState, action: Trade, work: _Turn) -> dict[str, Any]:
        update = self._gain_action(state, action.type)
        me, p = state.current, action.partner
        if not 0 <= p < len(state.players) or p == me:
            raise refuse("A Trade is made with exactly one other player.", "BC-R08")
        amounts = (action.cards_received, action.cards_given, action.runes_received)
        if min(*amounts, action.runes_given) < 0:
            raise refuse("Trade amounts cannot be negative.", "BC-R08")
        if action.cards_received < 1:
            raise refuse("A Trade must give you at least 1 Parts card.", "BC-R08")
        if action.cards_received > state.hands[p]:
            raise refuse(
                f"{state.players[p]} holds only {words.count(state.hands[p], 'Parts card')}.",
                "BC-R08",
            )
        if action.cards_given > state.hands[me]:
            raise refuse(f"You hold only {words.count(state.hands[me], 'Parts card')}.", "BC-R08")
        if action.runes_given > state.runes[me]:
            raise refuse(f"You have only {words.count(state.runes[me], 'Rune')}.", "BC-R08")
        if action.runes_received > state.runes[p]:
            raise refuse(
                f"{state.players[p]} has only {words.count(state.runes[p], 'Rune')}.", "BC-R08"
            )
        work.events.append(
            ActionTaken(
                text=f"{work.name(me)} trades with {work.name(p)}.", player=me, action="trade"
            )
        )
        work.move_parts(p, me, action.cards_received)
        work.move_parts(me, p, action.cards_given)
        work.move_runes(p, me, action.runes_received)
        work.move_runes(me, p, action.runes_given)
        return update

    def _draw(self, state: BuildersState, action: Draw, work: _Turn) -> dict[str, Any]:
        update = self._gain_action(state, action.type)
        me = state.current
        if state.deck < 1:
            raise refuse("The Parts deck is empty: no card to draw.", "BC-R14")
        work.events.append(ActionTaken(text=f"{work.name(me)} draws.", player=me, action="draw"))
        work.move_runes(None, me, 1)
        work.move_parts(None, me, 1)
        return update

    def _reveal(self, state: BuildersState, action: Reveal, work: _Turn) -> dict[str, Any]:
        update = self._gain_action(state, action.type)
        me, t = state.current, action.target
        if not 0 <= t < len(state.players) or t == me:
            raise refuse("Reveal needs another player as the target.", "BC-R04")
        source = state.reveal_source
        if source == "target_only_require_2" and state.runes[t] < REVEAL_RUNES:
            raise refuse(
                f"{state.players[t]} has fewer than 2 Runes, so you cannot Reveal them.",
                "BC-R04",
            )
        if action.take and state.hands[t] < 1:
            raise refuse(f"{state.players[t]} has no Parts card to take.", "BC-R05")
        shown = min(REVEAL_CARDS, state.hands[t])  # BC-R05: 3 picked blind, fewer if short
        work.events.append(
            ActionTaken(
                text=(
                    f"{work.name(me)} reveals {words.count(shown, 'Parts card')} from "
                    f"{work.name(t)}'s hand"
                    + (" and takes one." if action.take else " and takes none.")
                ),
                player=me,
                action="reveal",
            )
        )
        from_target = 0 if source == "stockpile" else min(REVEAL_RUNES, state.runes[t])
        work.move_runes(t, me, from_target)
        work.move_runes(None, me, REVEAL_RUNES - from_target)
        if action.take:
            work.move_parts(t, me, 1)
        return update

    def _build(self, state: BuildersState, action: Build, work: _Turn) -> dict[str, Any]:
        me = state.current
        if not 1 <= action.slot <= BLUEPRINT_SLOTS:
            raise refuse(f"There are Blueprint slots 1 to 3, not {action.slot}.", "BC-R15")
        if state.blueprint_table:
            cost, acc, cards, blueprint = check_layout(state, action)
        else:
            cost, acc, cards, blueprint = check_arithmetic(action)
        if cards > state.hands[me]:
            raise refuse(
                f"You hold only {words.count(state.hands[me], 'Parts card')}, "
                f"not the {cards} laid out.",
                "BC-R15",
            )
        total = cost + acc
        if total > state.runes[me]:
            raise refuse(
                f"This Colossus seals {words.count(total, 'Rune')} "
                f"(cost {cost} + {words.count(acc, 'Accessory', 'Accessories')}) "
                f"but you have {words.count(state.runes[me], 'Rune')}.",
                "BC-R15",
            )
        record = BuildRecord(
            player=me,
            turn=state.turn,
            slot=action.slot,
            blueprint=blueprint,
            rune_cost=cost,
            accessories=acc,
            cards=cards,
            colossus_name=action.colossus_name,
        )
        built = state.built + 1
        named = f"“{record.colossus_name}”" if record.colossus_name else "a Colossus"
        what = blueprint or f"the Blueprint in slot {action.slot}"
        work.events.append(
            ColossusBuilt(
                text=f"{work.name(me)} builds {named} from {what}: "
                f"{built}/{COLOSSI_TO_BUILD} built.",
                record=record,
                built=built,
            )
        )
        work.move_runes(me, None, total)
        work.move_parts(me, None, cards)
        update: dict[str, Any] = {"builds": (*state.builds, record)}
        if built < COLOSSI_TO_BUILD:
            update.update(self._replace_blueprint(state, action.slot, work))
        return update

    @staticmethod
    def _replace_blueprint(state: BuildersState, slot: int, work: _Turn) -> dict[str, Any]:
        """Step 6 of a build: a new Blueprint goes face up in the emptied slot."""
        face_up = list(state.face_up)
        deck = state.blueprint_deck
        if state.blueprint_table:
            face_up[slot - 1] = deck[0] if deck else None
            deck = deck[1:]
        new_index = face_up[slot - 1]
        instruction = "Reveal a new Blueprint here."
        if new_index is not None:
            instruction = f"Reveal a new Blueprint here: {state.blueprint_table[new_index].name}."
        work.events.append(
            TableChanges(
                text=f"Replace the Blueprint in slot {slot}.",
                changes=(
                    TableChange(
                        step=1, cell="parts_deck", instruction="Laid-out Parts go to the bottom."
                    ),
                    TableChange(step=2, cell=f"blueprint:{slot}", instruction=instruction),
                ),
            )
        )
        return {"face_up": tuple(face_up), "blueprint_deck": deck}

    def _end_turn(
        self, state: BuildersState, action: EndTurn
    ) -> tuple[BuildersState, tuple[Event, ...]]:
        me = state.current
        if state.mode == "open":  # BC-R07: a trade that fell through was never submitted
            raise refuse(
                "Before ending your turn, Curse or take at least one of Trade, Draw, Reveal; "
                "a trade that fell through does not count.",
                "BC-R07",
            )
        if self._needs_no_build_word(state) and not action.no_build_possible:
            raise refuse(
                "Building is compulsory at this table: confirm that you cannot complete any "
                "face-up Blueprint before you end your turn.",
                "BC-R03",
            )
        row = ScoreRow(label=f"Turn {state.turn} · {state.players[me]}", values=state.runes)
        nxt = (me + 1) % len(state.players)
        turn = state.turn + 1
        events: list[Event] = [
            TurnStarted(text=f"Turn {turn}: {state.players[nxt]} to play.", player=nxt, turn=turn)
        ]
        new = state.evolve(
            {
                "current": nxt,
                "turn": turn,
                "mode": "open",
                "actions_used": (),
                "history": (*state.history, row),
            }
        )
        due = new.zero_checks[nxt]
        if due is not None and due == turn:
            checks = list(new.zero_checks)
            checks[nxt] = None
            new = new.evolve({"zero_checks": tuple(checks)})
            name = state.players[nxt]
            if new.runes[nxt] == 0:
                text = f"{name} still has 0 Runes at the start of their turn and wins."
                result = Outcome(winners=(nxt,), reason="zero_runes", text=text)
                events.append(ZeroCheck(text=text, player=nxt, result="won", due_turn=due))
                events.append(GameEnded(text=text))
                return new.evolve({"result": result}), tuple(events)
            events.append(
                ZeroCheck(
                    text=f"{name} has Runes again; the zero-Rune check lapses.",
                    player=nxt,
                    result="lapsed",
                    due_turn=due,
                )
            )
        return new, tuple(events)

    def _needs_no_build_word(self, state: BuildersState) -> bool:
        """forced_build (BC-R03): may a build still be possible, as far as the app can tell?"""
        if not state.forced_build:
            return False
        me = state.current
        if state.blueprint_table:
            costs = [state.blueprint_table[i].rune_cost for i in state.face_up if i is not None]
            if not costs:
                return False
            cheapest = min(costs)
            smallest = min(
                sum(state.blueprint_table[i].parts.values()) for i in state.face_up if i is not None
            )
            return state.runes[me] >= cheapest and state.hands[me] >= smallest
        return state.runes[me] >= MIN_RUNE_COST and state.hands[me] >= 1

    # --- manual corrections (0.2.1) ----------------------------------------------------

    def corrections(self, state: BuildersState) -> tuple[BuildersAction, ...]:
        """Per player: Runes, Parts in hand, Colossi built, prefilled with the counts now."""
        if state.result is not None or state.tied:
            return ()
        out: list[BuildersAction] = []
        for seat in range(len(state.players)):
            out.append(CorrectRunes(player=seat, runes=state.runes[seat]))
            out.append(CorrectHand(player=seat, cards=state.hands[seat]))
            out.append(CorrectBuilt(player=seat, colossi=state.builds_by(seat)))
        return tuple(out)

    def _correct(
        self, state: BuildersState, action: Correction
    ) -> tuple[BuildersState, tuple[Event, ...]]:
        """Set a count to what the table shows; then the usual checks run (BC-R06,
        BC-R10, the 10th Colossus)."""
        if state.result is not None or state.tied:
            raise game_over()
        work = _Turn(state)
        match action:
            case CorrectRunes():
                update, text = correct_runes(state, action, work)
            case CorrectHand():
                update, text = correct_hand(state, action, work)
            case CorrectBuilt():
                update, text = correct_built(state, action, work)
            case _:
                raise impossible("Builders of the Colossus has no such correction.")
        return self._settle(state, work, update, (corrected(action.type, text),))

    # --- after every change: zero checks and the 10th Colossus ----------------------

    def _after_change(self, state: BuildersState) -> tuple[BuildersState, tuple[Event, ...]]:
        events: list[Event] = []
        if state.built >= COLOSSI_TO_BUILD:
            return self._final_ranking(state)
        checks = list(state.zero_checks)
        for seat, runes in enumerate(state.runes):
            if runes == 0 and checks[seat] is None:
                due = self._due_turn(state, seat)
                checks[seat] = due
                events.append(
                    ZeroCheck(
                        text=(
                            f"{state.players[seat]} has 0 Runes: they win if they still "
                            f"have 0 at the start of turn {due}."
                        ),
                        player=seat,
                        result="set",
                        due_turn=due,
                    )
                )
        return state.evolve({"zero_checks": tuple(checks)}), tuple(events)

    @staticmethod
    def _due_turn(state: BuildersState, seat: int) -> int:
        """The turn whose start checks ``seat`` (BC-R10 and its ``full_round`` option)."""
        n, turn, cur = len(state.players), state.turn, state.current

        def first_turn_of(player: int, after: int) -> int:
            """The first turn number > ``after`` played by ``player``."""
            seat_after = (cur + (after - turn)) % n
            step = (player - seat_after) % n
            return after + (step or n)

        if state.zero_check == "next_own_turn":
            return first_turn_of(seat, turn)
        last_other = max(first_turn_of(q, turn) for q in range(n) if q != seat)
        return first_turn_of(seat, last_other)

    def _final_ranking(self, state: BuildersState) -> tuple[BuildersState, tuple[Event, ...]]:
        """The 10th Colossus ends the game at once: fewest Runes, then more Colossi."""
        row = ScoreRow(
            label=f"Turn {state.turn} · {state.players[state.current]} (end)", values=state.runes
        )
        state = state.evolve({"history": (*state.history, row)})
        fewest = min(state.runes)
        tied = [s for s, r in enumerate(state.runes) if r == fewest]
        reason = "fewest_runes"
        if len(tied) > 1:
            most = max(state.builds_by(s) for s in tied)
            tied = [s for s in tied if state.builds_by(s) == most]
            reason = "more_colossi"
        if len(tied) > 1 and state.final_tie == "manual":
            names = " or ".join(state.players[s] for s in tied)
            text = f"10 Colossi built; {names} tie on Runes and Colossi: the players decide."
            return state.evolve({"tied": tuple(tied)}), (GameEnded(text=text),)
        if len(tied) > 1:
            reason = "shared"
        names = " and ".join(state.players[s] for s in tied)
        verb = "share the victory" if len(tied) > 1 else "wins"
        text = f"10 Colossi built: {names} {verb} with {words.count(fewest, 'Rune')}."
        result = Outcome(winners=tuple(tied), reason=reason, text=text)
        return state.evolve({"result": result}), (GameEnded(text=text),)

    def _pick_winner(
        self, state: BuildersState, action: PickWinner
    ) -> tuple[BuildersState, tuple[Event, ...]]:
        if not state.tied:
            raise refuse("There is no tie to decide.", "BC-R12")
        seats = action.seats
        if not seats or len(set(seats)) != len(seats) or not set(seats) <= set(state.tied):
            names = ", ".join(state.players[s] for s in state.tied)
            raise refuse(f"Pick one or more of the tied players: {names}.", "BC-R12")
        ordered = tuple(sorted(seats))
        names = " and ".join(state.players[s] for s in ordered)
        verb = "share the victory" if len(ordered) > 1 else "wins"
        text = f"The players decide: {names} {verb}."
        result = Outcome(winners=ordered, reason="players_decide", text=text)
        return state.evolve({"result": result, "tied": ()}), (GameEnded(text=text),)


RULES = BuildersRules()
