"""The referee of the solo Colossus game: legal actions, apply, outcome, status, scores."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion import words
from companion.errors import InvalidPosition
from companion.events import Event
from companion.games.colossus_solo.content import (
    ACTION_CARDS,
    ADVANCED_CARDS,
    COLOSSUS_CARDS,
    FINAL_BLOW_CARDS,
    TRACKER_MAX,
    TRACKER_MIN,
    CardTable,
    ColossusCard,
    ColossusLine,
    FinalBlowProfile,
    Payment,
    card_problems,
    card_table_problems,
    parse_card_table,
)
from companion.games.colossus_solo.model import (
    CardsDestroyed,
    ColossusCardRevealed,
    ColossusSoloAction,
    ColossusSoloCorrection,
    ColossusSoloOptions,
    ColossusSoloState,
    CorrectCards,
    CorrectColossusCard,
    CorrectFinalBlow,
    CorrectPower,
    CorrectTrackers,
    DestroyCards,
    DiscardPowerCard,
    EnterColossusCard,
    EnterFinalBlow,
    EnterMedallions,
    EnterStats,
    FinalBlowValues,
    PayPenalty,
    PowerCardDiscarded,
    PowerUsed,
    ResolveCard,
    Stats,
    StatsEntered,
    UsePower,
)
from companion.games.colossus_solo.phrases import describe, value_words
from companion.games.colossus_solo.play import (
    _FINAL_BLOW_PHASES,
    _LISTED_CARDS,
    _LISTED_FINAL_BLOW_VALUES,
    _PHASE_ASK,
    _PROGRESS_WEIGHTS,
    _listed_final_blow_stats,
    _listed_stats,
    _net,
    _Play,
    _result_text,
)
from companion.games.colossus_solo.views import (
    colossus_solo_card_cells,
    colossus_solo_cards,
    colossus_solo_panel,
)
from companion.games.corrections import (
    Correction,
    change_text,
    check_count,
    corrected,
    game_over,
    impossible,
    nothing_to_correct,
)
from companion.outcome import Outcome, ScoreRow, ScoreSheet
from companion.rng import Rng
from companion.rules import ActionRole, Rules, refuse
from companion.views import ActionCells, CardView, PanelView

# The listed actions are immutable values, made once: every state of a phase lists the
# same objects (the kiosk keeps each listed action's payload and label by identity).
_RESOLVE = ResolveCard()
_DISCARD = DiscardPowerCard()
_USE_POWER: dict[Payment, UsePower] = {p: UsePower(pay=p) for p in ("weakness", "grip")}
_PAY_PENALTY: dict[Payment, PayPenalty] = {p: PayPenalty(pay=p) for p in ("weakness", "grip")}
_DESTROY = tuple(DestroyCards(count=k) for k in range(ACTION_CARDS + ADVANCED_CARDS + 1))


#: The roles of the solo game's actions (``Rules.action_role``).
_ROLES: dict[str, ActionRole] = {
    "enter_colossus_card": ActionRole.ENTRY,
    "enter_stats": ActionRole.ENTRY,
    "enter_medallions": ActionRole.ENTRY,
    "enter_final_blow": ActionRole.ENTRY,
    "correct_trackers": ActionRole.CORRECTION,
    "correct_cards": ActionRole.CORRECTION,
    "correct_power": ActionRole.CORRECTION,
    "correct_colossus_card": ActionRole.CORRECTION,
    "correct_final_blow": ActionRole.CORRECTION,
}


class ColossusSoloRules(Rules[ColossusSoloState, ColossusSoloAction, ColossusSoloOptions]):
    name = "colossus_solo"
    title = "Colossus"
    seed_document = "003"
    min_players = 1
    max_players = 1
    options_model = ColossusSoloOptions
    state_model = ColossusSoloState
    action_type = ColossusSoloAction

    def action_role(self, action_type: str) -> ActionRole | None:
        return _ROLES.get(action_type) or super().action_role(action_type)

    # --- words (the phrasebook: phrases.py; titles on the action models) -------------

    def describe(self, state: ColossusSoloState, action: ColossusSoloAction) -> str:
        return describe(state, action)

    def value_words(
        self, state: ColossusSoloState, action_type: str, field: str, value: object
    ) -> str:
        return value_words(field, value)

    # --- setup -----------------------------------------------------------------------

    def setup(
        self, players: Sequence[str], options: ColossusSoloOptions, seed: int
    ) -> ColossusSoloState:
        names = self.check_players(players)
        rng = Rng(seed=seed)
        table = options.card_table
        if table is not None:
            table = parse_card_table(table)  # InvalidContent (CS-R12)
        state = ColossusSoloState(
            players=names,
            rng=rng,
            depletion_trigger=options.depletion_trigger,
            card_table=table,
            phase="colossus_card",
        )
        if table is not None:
            order, rng = rng.shuffle(range(COLOSSUS_CARDS))
            final_blow_card, rng = rng.randint(0, FINAL_BLOW_CARDS - 1)
            state = state.evolve(
                {
                    "rng": rng,
                    "colossus_order": order,
                    "current_card": table.colossus[order[0]],
                    "final_blow_card": final_blow_card,
                }
            )
        play = _Play.of(state)
        play.start_round()
        return play.state()

    # --- actions ---------------------------------------------------------------------

    def legal_actions(self, state: ColossusSoloState) -> Iterable[ColossusSoloAction]:
        """Every legal choice; entered numbers are a bounded representative sample.

        Stats are listed as 0 or the value each line of the current card (or the Final
        Blow) needs, cards and Final Blow numbers from the LISTED_* values. ``apply``
        accepts the whole range, ``enter_medallions`` included (never listed: it is the
        same stats counted another way).
        """
        phase = state.phase
        if phase == "colossus_card":
            return _LISTED_CARDS
        if phase in ("stats", "power_card"):
            card = state.current_card
            assert card is not None  # position_problems: these phases need a card
            stats = _listed_stats(card)
            return stats if phase == "stats" else (_DISCARD, *stats)
        if phase == "power":
            actions: list[ColossusSoloAction] = [_RESOLVE]
            if self.power_allowed(state):
                actions.extend(
                    _USE_POWER[p] for p in ("weakness", "grip") if self.can_pay(state, p)
                )
            return actions
        if phase == "penalty":  # a correction may have set Weakness to 1 meanwhile (CS-R04)
            if state.weakness == TRACKER_MIN:
                return (_PAY_PENALTY["grip"],)
            return (_PAY_PENALTY["weakness"], _PAY_PENALTY["grip"])
        if phase == "destroy":
            top = min(state.destroy_rights, state.playing_area)
            return _DESTROY[: top + 1]  # the Playing Area holds at most every card
        if phase == "final_blow_values":
            return _LISTED_FINAL_BLOW_VALUES
        if phase == "final_blow":
            values = state.final_blow
            assert values is not None  # position_problems: the Final Blow needs its values
            return _listed_final_blow_stats(values)
        return ()

    @staticmethod
    def can_pay(state: ColossusSoloState, pay: Payment) -> bool:
        """Netophah's power may not cost a fatal Grip loss nor Weakness below 1 (CS-R04)."""
        level = state.weakness if pay == "weakness" else state.grip
        return level > TRACKER_MIN

    @staticmethod
    def power_allowed(state: ColossusSoloState) -> bool:
        return (
            state.phase == "power"
            and not state.power_used
            and state.action_deck + state.discard > 0
        )

    def apply(
        self, state: ColossusSoloState, action: ColossusSoloAction
    ) -> tuple[ColossusSoloState, tuple[Event, ...]]:
        if isinstance(action, Correction):
            return self._correct(state, action)
        if state.phase == "over":
            raise refuse("The game is over.")
        play = _Play.of(state)
        self._dispatch(state, play, action)
        return play.state(), tuple(play.events)

    def _dispatch(self, state: ColossusSoloState, play: _Play, action: ColossusSoloAction) -> None:
        """One handler per action type; each refuses or changes ``play``."""
        match action:
            case EnterColossusCard():
                self._enter_colossus_card(state, play, action)
            case EnterStats() | EnterMedallions():
                self._enter_stats(state, play, action)
            case UsePower():
                self._use_power(state, play, action)
            case DiscardPowerCard():
                self._discard_power_card(state, play, action)
            case ResolveCard():
                self._resolve_card(state, play, action)
            case PayPenalty():
                self._pay_penalty(state, play, action)
            case DestroyCards():
                self._destroy_cards(state, play, action)
            case EnterFinalBlow():
                self._enter_final_blow(state, play, action)
            case _:  # pragma: no cover - corrections never get here; the union is exhaustive
                raise refuse("Colossus has no such action.")

    def _enter_colossus_card(
        self, state: ColossusSoloState, play: _Play, action: EnterColossusCard
    ) -> None:
        if state.phase != "colossus_card":
            raise refuse(
                "No Colossus card is waiting for its values now."
                if state.card_table is None
                else "The card table gives the Colossus cards' values.",
                "CS-R12",
            )
        problems = card_problems(action.card, "This card")
        if problems:
            raise refuse("; ".join(problems) + ".", "CS-R12")
        play.current_card = action.card
        number = state.card_number
        play.say(
            ColossusCardRevealed(
                text=f"Colossus card {number}: {action.card.describe()}.",
                number=number,
                card=action.card,
            )
        )
        play.begin_draws()

    def _enter_stats(
        self, state: ColossusSoloState, play: _Play, action: EnterStats | EnterMedallions
    ) -> None:
        """The visible stats: for the round (step 3), after a power card, or a Final Blow card."""
        stats = _net(action)
        phase = state.phase
        if phase == "stats":
            play.playing_area += play.hand
            play.hand = 0
            play.stats = stats
            play.phase = "power"
            play.say(StatsEntered(text=f"Visible stats: {stats.describe()}.", stats=stats))
        elif phase == "power_card":
            play.playing_area += play.hand
            play.hand = 0
            play.stats = stats
            play.say(
                StatsEntered(
                    text=f"Power card placed; visible stats: {stats.describe()}.",
                    stats=stats,
                )
            )
            play.resolve()
        elif phase == "final_blow":
            play.place_final_blow_card(stats)
        else:
            raise refuse(f"Stats are not asked for now: {self._ask(state)}.", "CS-R12")

    def _use_power(self, state: ColossusSoloState, play: _Play, action: UsePower) -> None:
        self._check_power(state, action.pay)
        play.power_used = True
        play.say(
            PowerUsed(
                text=f"Netophah's power: pay 1 {action.pay.capitalize()} level and draw "
                "1 Action card.",
                paid=action.pay,
            )
        )
        play.lose(action.pay, "Netophah's power")
        play.pending_draws = ("hand",)
        play.after_draws = "power_card"
        play.draw_pending()

    def _discard_power_card(
        self, state: ColossusSoloState, play: _Play, action: DiscardPowerCard
    ) -> None:
        if state.phase != "power_card":
            raise refuse("There is no power card to discard.", "CS-R04")
        play.discard += play.hand
        play.hand = 0
        play.say(
            PowerCardDiscarded(
                text="The power's card is discarded unplayed (the level is not refunded)."
            )
        )
        play.resolve()

    def _resolve_card(self, state: ColossusSoloState, play: _Play, action: ResolveCard) -> None:
        if state.phase != "power":
            raise refuse(f"The Colossus card is not resolved now: {self._ask(state)}.")
        play.resolve()

    def _pay_penalty(self, state: ColossusSoloState, play: _Play, action: PayPenalty) -> None:
        if state.phase in _FINAL_BLOW_PHASES:  # forming its deck never depletes (CS-R08)
            raise refuse("There is no deck penalty during the Final Blow.", "CS-R08")
        if state.phase != "penalty":
            raise refuse("No depleted-deck penalty is due now.", "CS-R03")
        if action.pay == "weakness" and state.weakness == TRACKER_MIN:
            raise refuse("Weakness is already at 1; the penalty must be paid in Grip.", "CS-R04")
        play.lose(action.pay, "Depleted deck")
        if play.result is None:
            play.draw_pending()

    def _destroy_cards(self, state: ColossusSoloState, play: _Play, action: DestroyCards) -> None:
        if state.phase != "destroy":
            raise refuse("No destroy rights are being used now.", "CS-R11")
        top = min(state.destroy_rights, state.playing_area)
        if action.count > top:
            raise refuse(
                f"You may destroy at most {words.count(top, 'card')} now "
                f"({words.count(state.destroy_rights, 'destroy right')}, "
                f"{words.count(state.playing_area, 'card')} in the Playing Area).",
                "CS-R11",
            )
        play.playing_area -= action.count
        play.destroyed += action.count
        play.destroy_rights = 0
        play.say(
            CardsDestroyed(
                text=f"Return {words.count(action.count, 'card')} of the Playing Area to the box."
                if action.count
                else "No card is destroyed; the Playing Area stays as it is.",
                count=action.count,
            )
        )
        play.end_round()

    def _enter_final_blow(
        self, state: ColossusSoloState, play: _Play, action: EnterFinalBlow
    ) -> None:
        if state.phase != "final_blow_values":
            raise refuse("The Final Blow values are not asked for now.", "CS-R05")
        play.deal_final_blow(
            FinalBlowValues(
                n_cards=action.n_cards, grip_req=action.grip_req, attack_req=action.attack_req
            )
        )

    # --- manual corrections (0.2.1) ---------------------------------------------------

    def corrections(self, state: ColossusSoloState) -> tuple[ColossusSoloAction, ...]:
        """The trackers, the card counts, the power, the card values the player entered."""
        if state.phase == "over":
            return ()
        out: list[ColossusSoloAction] = [
            CorrectTrackers(weakness=state.weakness, grip=state.grip),
            CorrectCards(
                action_deck=state.action_deck,
                discard=state.discard,
                playing_area=state.playing_area,
                hand=state.hand,
                destroyed=state.destroyed,
                final_blow_deck=state.final_blow_deck,
                advanced_added=state.advanced_added,
            ),
        ]
        if state.phase not in _FINAL_BLOW_PHASES:
            out.append(CorrectPower(used=state.power_used))
        if state.card_table is None and state.current_card is not None:
            out.append(CorrectColossusCard(card=state.current_card))
        if state.phase == "final_blow" and state.final_blow is not None:
            values = state.final_blow
            out.append(
                CorrectFinalBlow(
                    n_cards=values.n_cards, grip_req=values.grip_req, attack_req=values.attack_req
                )
            )
        return tuple(out)

    def _correct(
        self, state: ColossusSoloState, action: Correction
    ) -> tuple[ColossusSoloState, tuple[Event, ...]]:
        if state.phase == "over":
            raise game_over()
        play = _Play.of(state)
        match action:
            case CorrectTrackers():
                text = self._correct_trackers(state, play, action)
            case CorrectCards():
                text = self._correct_cards(state, play, action)
            case CorrectPower():
                text = self._correct_power(state, play, action)
            case CorrectColossusCard():
                text = self._correct_colossus_card(state, play, action)
            case CorrectFinalBlow():
                text = self._correct_final_blow(state, play, action)
            case _:
                raise impossible("Colossus has no such correction.")
        play.events.insert(0, corrected(action.type, text))
        if play.phase == "final_blow":
            play.check_final_blow()  # CS-R07 / CS-R08 with the corrected numbers
        return play.state(), tuple(play.events)

    @staticmethod
    def _correct_trackers(state: ColossusSoloState, play: _Play, action: CorrectTrackers) -> str:
        if (action.weakness, action.grip) == (state.weakness, state.grip):
            raise nothing_to_correct(
                f"the trackers already show Weakness {state.weakness}, Grip {state.grip}"
            )
        play.weakness, play.grip = action.weakness, action.grip
        return (
            f"Weakness {change_text(state.weakness, action.weakness)}, "
            f"Grip {change_text(state.grip, action.grip)}."
        )

    @staticmethod
    def _correct_cards(state: ColossusSoloState, play: _Play, action: CorrectCards) -> str:
        """Card counts; the total is conserved, and a Final Blow deck only exists then."""
        counts = {
            "Action deck": action.action_deck,
            "discard pile": action.discard,
            "Playing Area": action.playing_area,
            "hand": action.hand,
            "destroyed cards": action.destroyed,
            "Final Blow deck": action.final_blow_deck,
        }
        for label, value in counts.items():
            check_count(value, f"The {label}")
        check_count(action.advanced_added, "Advanced cards added", high=ADVANCED_CARDS)
        total = sum(counts.values())
        if total != ACTION_CARDS + action.advanced_added:
            raise impossible(
                f"These counts add up to {words.count(total, 'Action card')}, but with "
                f"{words.count(action.advanced_added, 'Advanced card')} added there are "
                f"{ACTION_CARDS + action.advanced_added}."
            )
        if action.final_blow_deck and state.phase != "final_blow":
            raise impossible("There is no Final Blow deck before the Final Blow.")
        before = (
            state.action_deck,
            state.discard,
            state.playing_area,
            state.hand,
            state.destroyed,
            state.final_blow_deck,
            state.advanced_added,
        )
        after = (*counts.values(), action.advanced_added)
        if before == after:
            raise nothing_to_correct("the card counts are already these")
        play.action_deck = action.action_deck
        play.discard = action.discard
        play.playing_area = action.playing_area
        play.hand = action.hand
        play.destroyed = action.destroyed
        play.final_blow_deck = action.final_blow_deck
        play.advanced_added = action.advanced_added
        play.advanced_deck = ADVANCED_CARDS - action.advanced_added
        names = (*counts, "Advanced cards added")
        changed = [
            f"{label} {change_text(old, new)}"
            for label, old, new in zip(names, before, after, strict=True)
            if old != new
        ]
        return ", ".join(changed) + "."

    @staticmethod
    def _correct_power(state: ColossusSoloState, play: _Play, action: CorrectPower) -> str:
        if state.phase in _FINAL_BLOW_PHASES:
            raise impossible("Netophah's power does not exist during the Final Blow.", "CS-R09")
        if action.used == state.power_used:
            raise nothing_to_correct(
                "the power is already marked " + ("used" if action.used else "unused")
            )
        play.power_used = action.used
        return "Netophah's power " + (
            "was used this round." if action.used else "is still available this round."
        )

    @staticmethod
    def _correct_colossus_card(
        state: ColossusSoloState, play: _Play, action: CorrectColossusCard
    ) -> str:
        if state.card_table is not None:
            raise impossible("The card table gives the Colossus cards' values.", "CS-R12")
        if state.current_card is None:
            raise impossible("No Colossus card has been entered yet.", "CS-R12")
        problems = card_problems(action.card, "This card")
        if problems:
            raise impossible("; ".join(problems) + ".", "CS-R12")
        if action.card == state.current_card:
            raise nothing_to_correct("the Colossus card already has these values")
        play.current_card = action.card
        return f"the Colossus card reads {action.card.describe()}."

    @staticmethod
    def _correct_final_blow(state: ColossusSoloState, play: _Play, action: CorrectFinalBlow) -> str:
        if state.phase != "final_blow" or state.final_blow is None:
            raise impossible("The Final Blow card is not revealed yet.", "CS-R05")
        values = FinalBlowValues(
            n_cards=action.n_cards, grip_req=action.grip_req, attack_req=action.attack_req
        )
        if values == state.final_blow:
            raise nothing_to_correct("the Final Blow card already has these numbers")
        play.final_blow = values
        text = (
            f"the Final Blow card shows {words.count(values.n_cards, 'card')}, "
            f"Grip {values.grip_req}, "
            f"Attack {values.attack_req}"
        )
        if values.n_cards == state.final_blow.n_cards:
            return text + "."
        # A corrected N_cards re-forms the deck: N_cards or every card left (CS-R08).
        moved = play.reform_final_blow_deck()
        deck = f"; the Final Blow deck {change_text(state.final_blow_deck, play.final_blow_deck)}"
        if moved > 0:
            return f"{text}{deck}: take {words.count(moved, 'more card')} from the Action deck."
        if moved < 0:
            return f"{text}{deck}: put {words.count(-moved, 'card')} back on the Action deck."
        return text + "."

    def _check_power(self, state: ColossusSoloState, pay: Payment) -> None:
        if state.phase in ("final_blow", "final_blow_values"):
            raise refuse("Netophah's power cannot be used during the Final Blow.", "CS-R09")
        if state.phase != "power":
            raise refuse(
                "Netophah's power is used at the very start of step 4, after the stats are entered."
            )
        if state.power_used:
            raise refuse("Netophah's power is used at most once per round.")
        if pay == "weakness" and not self.can_pay(state, "weakness"):
            raise refuse("Weakness is at 1, so it cannot pay for the power.", "CS-R04")
        if pay == "grip" and not self.can_pay(state, "grip"):
            raise refuse("Grip is at 1: paying it would make Netophah fall.", "CS-R04")
        if state.action_deck + state.discard == 0:
            raise refuse("There is no Action card left to draw for the power.")

    # --- reading the state -----------------------------------------------------------

    def outcome(self, state: ColossusSoloState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(
            winners=(0,) if state.result == "final_blow" else (),
            reason=state.result,
            text=_result_text(state.result),
        )

    def current_player(self, state: ColossusSoloState) -> int | None:
        return None if state.result is not None else 0

    def _ask(self, state: ColossusSoloState) -> str:
        if state.phase == "destroy":
            top = min(state.destroy_rights, state.playing_area)
            return f"destroy up to {words.count(top, 'card')} of the Playing Area"
        if state.phase == "final_blow":
            if state.playing_area == 0:  # the first card covers nothing: the base (CS-R06)
                return "place the first card as the base and enter the visible Attack and Grip"
            return "place the next card and enter the visible Attack and Grip"
        if state.phase == "power" and state.action_deck == 0 and self.power_allowed(state):
            return _PHASE_ASK["power"] + " (the power's draw would reshuffle the deck)"
        return _PHASE_ASK.get(state.phase, "")

    def status(self, state: ColossusSoloState) -> str:
        trackers = f"Weakness {state.weakness} · Grip {state.grip}"
        if state.result is not None:
            return f"{_result_text(state.result)} · {trackers}"
        if state.phase in ("final_blow", "final_blow_values"):
            head = "Final Blow"
            values = state.final_blow
            if values is None:  # the trackers still tell the Final Blow's goals
                return f"{head} · {trackers} · {self._ask(state)}"
            # Once entered, the goals replace the trackers: two different Grip numbers
            # on one line would read as a contradiction.
            total = state.playing_area + state.final_blow_deck
            return (
                f"{head} · card {state.playing_area + 1}/{total} · need Attack "
                f"{values.attack_req} and Grip {values.grip_req} · {self._ask(state)}"
            )
        if state.colossus_left == 0:  # the last card is climbed; the round still ends
            where = f"all {COLOSSUS_CARDS} Colossus cards climbed"
        else:
            where = f"Colossus card {state.card_number}/{COLOSSUS_CARDS}"
        return f"Round {state.round} · {where} · {trackers} · {self._ask(state)}"

    def panel(self, state: ColossusSoloState) -> PanelView:
        """The trackers, card k/11 and the card counts; the round's step and its facts."""
        return colossus_solo_panel(state, turn=self.current_player(state))

    def cards(self, state: ColossusSoloState) -> tuple[CardView, ...]:
        """The Colossus card, the trackers, hand, Playing Area, deck and Final Blow."""
        return colossus_solo_cards(state)

    def action_cells(self, state: ColossusSoloState, action: ColossusSoloAction) -> ActionCells:
        """The card or tracker ``action`` is about (the "cells" of the solo table)."""
        # Its fields as they are (what a dump says, without a pydantic call per action).
        return colossus_solo_card_cells(vars(action))

    def scores(self, state: ColossusSoloState) -> ScoreSheet:
        return ScoreSheet(
            measure="weakness/grip",
            columns=("Weakness", "Grip", "Colossus cards left"),
            rows=tuple(
                ScoreRow(label=r.label, values=(r.weakness, r.grip, r.colossus_left))
                for r in state.history
            ),
        )

    def interest(self, state: ColossusSoloState, action: ColossusSoloAction) -> int:
        """Weights for random play: climbing and the Final Blow are progress."""
        if isinstance(action, EnterStats | EnterMedallions):
            stats = _net(action)
            if state.phase == "final_blow":
                values = state.final_blow
                if values is None:
                    return 1
                won = stats.attack >= values.attack_req and stats.grip >= values.grip_req
                return 40 if won else 1
            card = state.current_card
            if card is None:
                return 1
            weight = 1
            for name, bonus in _PROGRESS_WEIGHTS:
                value = card.line(name).value
                if value is not None and stats.of(name) >= value:
                    weight += bonus
            return weight
        if isinstance(action, ResolveCard):
            return 6
        if isinstance(action, DestroyCards):
            return 3 if action.count == 0 else 1
        return 1

    def check_position(self, state: ColossusSoloState) -> None:
        problems = position_problems(state)
        if problems:
            raise InvalidPosition("Not a consistent Colossus position: " + "; ".join(problems))


def cards_in_play(state: ColossusSoloState) -> int:
    """Every Action card the counters account for (must equal 26 + Advanced added)."""
    return (
        state.action_deck
        + state.discard
        + state.playing_area
        + state.hand
        + state.destroyed
        + state.final_blow_deck
    )


def position_problems(state: ColossusSoloState) -> list[str]:
    """Invariants a loaded position must keep: tracker bounds, card counts, phase data."""
    problems: list[str] = []
    for label, level in (("Weakness", state.weakness), ("Grip", state.grip)):
        if not TRACKER_MIN <= level <= TRACKER_MAX:
            problems.append(f"{label} {level} is outside {TRACKER_MIN}..{TRACKER_MAX}")
    if cards_in_play(state) != ACTION_CARDS + state.advanced_added:
        problems.append(
            f"the Action cards add up to {cards_in_play(state)}, "
            f"not {ACTION_CARDS + state.advanced_added}"
        )
    if state.advanced_deck + state.advanced_added != ADVANCED_CARDS:
        problems.append("Advanced deck plus Advanced cards added is not 6")
    if state.colossus_left > COLOSSUS_CARDS:
        problems.append(f"{state.colossus_left} Colossus cards left (the game has 11)")
    if len(state.players) != 1:
        problems.append("Colossus is played by exactly 1 player")
    if (state.phase == "over") != (state.result is not None):
        problems.append("the phase and the result disagree")
    table = state.card_table
    if table is not None:
        problems.extend(card_table_problems(table))
        if len(state.colossus_order) != state.colossus_left:
            problems.append("the virtual Colossus deck does not match the cards left")
        elif state.colossus_order and not problems:
            if any(not 0 <= i < len(table.colossus) for i in state.colossus_order):
                problems.append("the virtual Colossus deck names an unknown card")
            elif state.current_card != table.colossus[state.colossus_order[0]]:
                problems.append("the current Colossus card is not the top of the virtual deck")
        if state.final_blow_card is None or not 0 <= state.final_blow_card < FINAL_BLOW_CARDS:
            problems.append("the Final Blow card is not chosen")
    needs_card = ("stats", "power", "power_card")
    if state.phase in needs_card and (state.current_card is None):
        problems.append(f"phase {state.phase} needs a current Colossus card")
    if state.phase in ("power", "power_card") and state.stats is None:
        problems.append(f"phase {state.phase} needs the round's stats")
    if state.phase == "final_blow" and state.final_blow is None:
        problems.append("the Final Blow values are missing")
    return problems


RULES = ColossusSoloRules()

__all__ = [
    "RULES",
    "CardTable",
    "ColossusCard",
    "ColossusLine",
    "ColossusSoloCorrection",
    "ColossusSoloOptions",
    "ColossusSoloRules",
    "ColossusSoloState",
    "CorrectCards",
    "CorrectColossusCard",
    "CorrectFinalBlow",
    "CorrectPower",
    "CorrectTrackers",
    "FinalBlowProfile",
    "Stats",
    "card_table_problems",
    "cards_in_play",
    "parse_card_table",
    "position_problems",
]
