"""The Kolossus referee: setup, the Great Quake, battle rounds, mana, Titan Weapons/Powers.

Phases (``KolossusState.phase``): placement → skills (Ch.2+) → quake (+ quake_allocate)
→ rounds 1..12 of destiny → turn ⇄ move_roll → move (→ after_move) … → allocate (Ch.2+)
→ over. Every refusal names its ruling (RULINGS.md section 1.9).

This module is the contract (``companion.rules.Rules``): the queries, the legal actions
and ``apply``, whose ``match`` hands each action to its handler, a function
``(state, action) -> (state, events)`` in the module of its concept:

- ``invasion.py``: the new game and round 0, the Invasion: placement (Swap, Ready) and
  the Great Quake's moves;
- ``turns.py``: the dice, classes, mana allocation, the end of a turn and of a round;
- ``battle.py``: the Move, Spear, Hammer and Finish of an activation;
- ``powers.py``: the Titan Powers Initiative, Earthquake and Rebirth;
- ``quake.py``: the region shifts of the Great Quake and the Earthquake;
- ``corrections.py``: the manual corrections and their consequences;
- ``scoring.py`` (outcome, scores, elimination), ``checks.py`` (``check_position``),
  ``views.py`` and ``highlights.py`` answer the queries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.dice import DiceRequest, Roll
from companion.games.corrections import Correction, corrected, game_over, impossible
from companion.games.kolossus import battle, checks, invasion, powers, scoring, turns
from companion.games.kolossus import views as kolossus_views
from companion.games.kolossus.actions import (
    Allocate,
    ChooseClass,
    CorrectCrystals,
    CorrectLandscape,
    CorrectMana,
    CorrectPiece,
    CorrectRegion,
    Earthquake,
    EndTurn,
    Finish,
    Hammer,
    Initiative,
    KolossusAction,
    Move,
    QuakeMove,
    Ready,
    Rebirth,
    Spear,
    Swap,
)
from companion.games.kolossus.board import (
    ALL_REGIONS,
    CLASS_COST,
    CLASSES,
    cell,
    parse_cell,
    region_directions,
)
from companion.games.kolossus.common import Handled, KolossusEvent, status_text, violation
from companion.games.kolossus.corrections import (
    after_correction,
    correct_crystals,
    correct_landscape,
    correct_mana,
    correct_piece,
    correct_region,
    templates,
)
from companion.games.kolossus.highlights import board_highlights
from companion.games.kolossus.mana import initial_allocations, listed_allocations
from companion.games.kolossus.position import (
    all_destinations,
    can_activate,
    citadel,
    class_of,
    current_warband,
    free_start_squares,
    movable_pieces,
    occupants,
)
from companion.games.kolossus.quake import region_shift
from companion.games.kolossus.state import GameResult, KolossusOptions, KolossusState
from companion.games.kolossus.views import moves_from, quake_moves, strikes
from companion.highlights import Highlight
from companion.outcome import Outcome, ScoreSheet
from companion.rules import ActionRole, Rules
from companion.views import ActionCells, BoardView, PanelView

#: The roles of Kolossus's actions (``Rules.action_role``).
_ROLES: dict[str, ActionRole] = {
    "end_turn": ActionRole.END_TURN,
    "quake_move": ActionRole.REGION_MOVE,
    "earthquake": ActionRole.REGION_MOVE,
    "correct_piece": ActionRole.CORRECTION,
    "correct_mana": ActionRole.CORRECTION,
    "correct_crystals": ActionRole.CORRECTION,
    "correct_landscape": ActionRole.CORRECTION,
    "correct_region": ActionRole.CORRECTION,
}


class KolossusRules(Rules[KolossusState, KolossusAction, KolossusOptions]):
    name = "kolossus"
    title = "Kolossus – The Citadel of Time"
    seed_document = "000"
    min_players = 2
    max_players = 4
    rules_version = 2  # 2: income left unallocated at a roll goes back to the supply (K-R24)
    action_type = KolossusAction
    board_kind = "grid"

    def action_role(self, action_type: str) -> ActionRole | None:
        return _ROLES.get(action_type) or super().action_role(action_type)

    def __init__(self) -> None:
        self.options_model = KolossusOptions
        self.state_model = KolossusState

    # --- setup and queries ------------------------------------------------------------

    def setup(self, players: Sequence[str], options: KolossusOptions, seed: int) -> KolossusState:
        return invasion.new_game(self.check_players(players), options, seed)

    def current_player(self, state: KolossusState) -> int | None:
        if state.phase == "over":
            return None
        return state.warbands[current_warband(state)].player

    def dice_request(self, state: KolossusState) -> DiceRequest | None:
        return state.dice

    def outcome(self, state: KolossusState) -> Outcome | None:
        return scoring.outcome(state)

    def status(self, state: KolossusState) -> str:
        return status_text(state)

    def scores(self, state: KolossusState) -> ScoreSheet:
        return scoring.score_sheet(state)

    def highlights(self, state: KolossusState, focus: str | None = None) -> tuple[Highlight, ...]:
        return board_highlights(state, focus)

    def check_position(self, state: KolossusState) -> None:
        checks.check_position(state)

    # --- typed views (companion.views; the code is in views.py) --------------------------

    def panel(self, state: KolossusState) -> PanelView:
        return kolossus_views.panel(state, self.current_player(state))

    def board(self, state: KolossusState) -> BoardView:
        return kolossus_views.board(state)

    def action_cells(self, state: KolossusState, action: KolossusAction) -> ActionCells:
        return kolossus_views.action_cells(state, action)

    def legal_actions_at(
        self,
        state: KolossusState,
        *,
        origin: str | None = None,
        target: str | None = None,
        touching: str | None = None,
    ) -> Iterator[KolossusAction]:
        return kolossus_views.legal_actions_at(
            state,
            lambda: self.legal_actions(state),
            origin=origin,
            target=target,
            touching=touching,
        )

    # --- legal actions ----------------------------------------------------------------

    def legal_actions(self, state: KolossusState) -> Iterator[KolossusAction]:
        if state.phase == "over":
            return
        if state.dice is not None:
            yield Roll()
            return
        band = state.warbands[current_warband(state)]
        phase = state.phase
        if phase == "placement":
            yield Ready()
            yield from _swaps(state)
        elif phase == "skills":
            yield from initial_allocations()
        elif phase == "quake":
            yield from quake_moves(state)
        elif phase in ("quake_allocate", "allocate"):
            yield from listed_allocations(state.options, band)
        elif phase == "turn":
            yield from _turn_actions(state)
        elif phase == "move":
            for piece in movable_pieces(state):
                yield from moves_from(state, piece)
        elif phase == "after_move":
            assert state.active_piece is not None
            yield from strikes(state)
            yield Finish()

    def interest(self, state: KolossusState, action: KolossusAction) -> int:
        if isinstance(action, Move):
            piece = occupants(state.minis)[parse_cell(action.from_) or 0]
            to = parse_cell(action.to)
            if piece < 0 or to is None:
                return 1
            weight = 2
            if to == citadel(state) and state.crystals > 0:
                weight += 60
            if all_destinations(state, piece, state.mp).get(to, False):
                weight += 15
            return weight
        if isinstance(action, Spear | Hammer):
            return 20
        if isinstance(action, ChooseClass):
            return 6
        if isinstance(action, Ready):
            return 80
        if isinstance(action, Rebirth):
            return 2
        return 1

    # --- apply ------------------------------------------------------------------------

    def apply(self, state: KolossusState, action: KolossusAction) -> Handled:
        if isinstance(action, Correction):
            return self._correct(state, action)
        if state.phase == "over":
            raise violation("The game is over.", "K-R37")
        if isinstance(action, Roll):
            return turns.roll(state, action)
        if state.dice is not None:
            raise violation(f"Roll first: {state.dice.label}.", "K-R07")
        return self._dispatch(state, action)

    def _dispatch(self, state: KolossusState, action: KolossusAction) -> Handled:
        match action:
            case Swap():
                return invasion.swap(state, action)
            case Ready():
                return invasion.ready(state, action)
            case QuakeMove():
                return invasion.quake_move(state, action)
            case Allocate():
                return turns.allocate(state, action)
            case Initiative():
                return powers.initiative(state, action)
            case ChooseClass():
                return turns.choose_class(state, action)
            case Move():
                return battle.move(state, action)
            case Spear():
                return battle.spear(state, action)
            case Hammer():
                return battle.hammer(state, action)
            case Finish():
                return battle.finish(state, action)
            case Earthquake():
                return powers.earthquake(state, action)
            case Rebirth():
                return powers.rebirth(state, action)
            case EndTurn():
                return turns.end_turn(state, action)
        raise violation("Unknown action.")  # pragma: no cover - the union is exhaustive

    # --- manual corrections (0.2.1) ---------------------------------------------------

    def corrections(self, state: KolossusState) -> tuple[KolossusAction, ...]:
        """Every miniature, each warband's mana (Ch.2+), the crystals, a landscape, a region."""
        if state.phase == "over":
            return ()
        return templates(state)

    def _correct(self, state: KolossusState, action: Correction) -> Handled:
        """Set what the table shows, then let the rules judge the consequences."""
        if state.phase == "over":
            raise game_over()
        match action:
            case CorrectPiece():
                new, text = correct_piece(state, action)
            case CorrectMana():
                new, text = correct_mana(state, action)
            case CorrectCrystals():
                new, text = correct_crystals(state, action)
            case CorrectLandscape():
                new, text = correct_landscape(state, action)
            case CorrectRegion():
                new, text = correct_region(state, action)
            case _:
                raise impossible("Kolossus has no such correction.")
        new, more = after_correction(new)
        return new, (corrected(action.type, text), *more)

    # --- shortcuts the tests take (the code is in turns.py and scoring.py) ---------------

    @staticmethod
    def _start_turn(state: KolossusState) -> KolossusState:
        return turns.start_turn(state)

    @staticmethod
    def _final_result(state: KolossusState) -> GameResult:
        return scoring.final_result(state)


def _swaps(state: KolossusState) -> Iterator[Swap]:
    """Every swap of two miniatures of different classes inside one start zone (K-R02)."""
    occ = occupants(state.minis)
    for band_i in state.warbands:
        zone = band_i.zone
        for i, a in enumerate(zone):
            for b in zone[i + 1 :]:
                pa, pb = occ[a], occ[b]
                if pa >= 0 and pb >= 0 and class_of(pa) != class_of(pb):
                    yield Swap(a=cell(a), b=cell(b))


def _turn_actions(state: KolossusState) -> Iterator[KolossusAction]:
    """Initiative, the classes, the Earthquakes, the Rebirths (Ch.3), and ending the turn."""
    wb = current_warband(state)
    band = state.warbands[wb]
    if powers.initiative_problem(state) is None:
        yield Initiative()
    for cls in CLASSES:
        if CLASS_COST[cls] <= state.ap and can_activate(state, cls):
            yield ChooseClass(cls=cls)
    if state.options.chapter >= 3 and band.pool >= 3:
        for region in ALL_REGIONS:
            for direction in region_directions(region):
                if not region_shift(state, region, direction, 1).citadel_falls:
                    yield Earthquake(region=region, direction=direction)
    if state.options.chapter >= 3:
        free = free_start_squares(state, wb)
        for cls in CLASSES:
            if CLASS_COST[cls] <= band.pool and powers.beaten_piece(state, wb, cls) >= 0:
                for sq in free:
                    yield Rebirth(cls=cls, to=cell(sq))
    yield EndTurn()


RULES = KolossusRules()

__all__ = ["RULES", "KolossusEvent", "KolossusRules"]
