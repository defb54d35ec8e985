"""The Kolossus referee: setup, the Great Quake, battle rounds, mana, Titan Weapons/Powers.

Phases (``KolossusState.phase``): placement → skills (Ch.2+) → quake (+ quake_allocate)
→ rounds 1..12 of destiny → turn ⇄ move_roll → move (→ after_move) … → allocate (Ch.2+)
→ over. Every refusal names its ruling (RULINGS.md section 1.9).

The package has the shape of every game's: ``content.py`` (the board's fixed geometry),
``model.py`` (options, state, actions), ``play.py`` (``apply``: each action to its
handler), this module (the contract, ``companion.rules.Rules``: the queries and the legal
actions) and ``views.py``. The handlers and queries live in modules by concept:
``invasion.py``, ``turns.py``, ``battle.py``, ``powers.py``, ``quake.py`` (the region
shifts), ``mana.py``, ``movement.py`` and ``position.py`` (what a state allows),
``corrections.py``, ``scoring.py`` (outcome, scores, elimination), ``checks.py``
(``check_position``) and ``highlights.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from companion.dice import DiceRequest, Roll
from companion.games.kolossus import checks, invasion, phrases, play, powers, scoring
from companion.games.kolossus import views as kolossus_views
from companion.games.kolossus.common import Handled, KolossusEvent, status_text
from companion.games.kolossus.content import (
    ALL_REGIONS,
    CLASS_COST,
    CLASSES,
    cell,
    parse_cell,
    region_directions,
)
from companion.games.kolossus.corrections import (
    templates,
)
from companion.games.kolossus.highlights import board_highlights
from companion.games.kolossus.mana import initial_allocations, listed_allocations
from companion.games.kolossus.model import (
    ChooseClass,
    Earthquake,
    EndTurn,
    Finish,
    Hammer,
    Initiative,
    KolossusAction,
    KolossusOptions,
    KolossusState,
    Move,
    Ready,
    Rebirth,
    Spear,
    Swap,
)
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

    # --- apply (the handlers are in play.py) ----------------------------------------

    def apply(self, state: KolossusState, action: KolossusAction) -> Handled:
        return play.apply_action(state, action)

    # --- words (the phrasebook is in phrases.py) ----------------------------------------

    def describe(self, state: KolossusState, action: KolossusAction) -> str:
        return phrases.describe(state, action)

    def value_words(self, state: KolossusState, action_type: str, field: str, value: object) -> str:
        said = phrases.value_words(state, field, value)
        return said if said is not None else super().value_words(state, action_type, field, value)

    def cell_words(self, state: KolossusState, cell: str) -> str:
        return phrases.cell_words(cell)

    def stays(self, state: KolossusState, action: KolossusAction) -> bool:
        return phrases.stays(action)

    # --- manual corrections (0.2.1) ---------------------------------------------------

    def corrections(self, state: KolossusState) -> tuple[KolossusAction, ...]:
        """Every miniature, each warband's mana (Ch.2+), the crystals, a landscape, a region."""
        if state.phase == "over":
            return ()
        return templates(state)


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
