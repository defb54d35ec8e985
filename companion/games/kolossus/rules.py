"""The Kolossus referee: setup, the Great Quake, battle rounds, mana, Titan Weapons/Powers.

Phases (``KolossusState.phase``): placement → skills (Ch.2+) → quake (+ quake_allocate)
→ rounds 1..12 of destiny → turn ⇄ move_roll → move (→ after_move) … → allocate (Ch.2+)
→ over. Every refusal names its ruling (RULINGS.md section 1.9).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal

from companion.dice import DiceRequest, Roll, resolve_roll
from companion.errors import InvalidOptions, InvalidPosition, RuleViolation
from companion.events import DiceRolled, Event, GameEnded, TableChanges
from companion.games.corrections import Correction, corrected, game_over, impossible
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
    CLASS_DICE,
    CLASS_NAME,
    CLASSES,
    CORNERS,
    DEFAULT_START_ZONES,
    INITIAL_TERRAIN,
    LANDSCAPE_NAME,
    LANDSCAPE_TOTALS,
    PIECE_COUNT,
    PIECES_PER_WARBAND,
    SQUARES,
    ClassCode,
    alliance,
    cell,
    citadel_square,
    default_arrangement,
    landscape_at,
    levels_of,
    parse_cell,
    parse_region,
    region_directions,
    region_sign,
)
from companion.games.kolossus.corrections import (
    CRYSTALS,
    activation_has_piece,
    correct_crystals,
    correct_landscape,
    correct_mana,
    correct_piece,
    correct_region,
    templates,
)
from companion.games.kolossus.highlights import board_highlights
from companion.games.kolossus.mana import (
    apply_allocation,
    apply_initial_skills,
    chargeable,
    income_for,
    initial_allocations,
    listed_allocations,
)
from companion.games.kolossus.movement import (
    Reach,
    check_path,
    hammer_costs,
    hammer_subsets,
    spear_targets,
)
from companion.games.kolossus.position import (
    all_destinations,
    can_activate,
    canonical_way,
    charged,
    citadel,
    class_of,
    current_warband,
    destinations,
    free_start_squares,
    friendly,
    movable_pieces,
    movement_points,
    occupancy,
    occupants,
    piece_name,
    usable_configs,
    warband_name,
    warband_of,
)
from companion.games.kolossus.quake import RegionShift, shift_region
from companion.games.kolossus.state import (
    DEFAULT_WEAPON_OF_COLOUR,
    MANA_PER_WARBAND,
    ROUNDS,
    WEAPON_NAME,
    WEAPONS,
    BeatCause,
    BeatRecord,
    CrystalCapture,
    GameResult,
    KolossusOptions,
    KolossusState,
    StartZones,
    WarbandState,
    Weapon,
)
from companion.games.kolossus.views import moves_from, quake_candidates, quake_moves, strikes
from companion.highlights import Highlight, TableChange
from companion.outcome import Outcome, ScoreRow, ScoreSheet
from companion.rng import Rng
from companion.rules import Rules
from companion.views import ActionCells, BoardView, PanelView

ALLIANCE_NAME = ("NW+SE", "NE+SW")


class KolossusEvent(Event):
    """A game-log line about Kolossus (quake, beat, capture, mana, powers)."""

    type: Literal["kolossus"] = "kolossus"


def _violation(message: str, ruling: str | None = None) -> RuleViolation:
    return RuleViolation(message, ruling=ruling)


def _cell_arg(text: str, what: str) -> int:
    sq = parse_cell(text)
    if sq is None:
        raise _violation(f"{what} {text!r} is not a square of the 11×11 board.", "K-R01")
    return sq


def _controllers(count: int, options: KolossusOptions) -> tuple[int, int, int, int]:
    if options.controllers is not None:
        ctrl = options.controllers
        if sorted(set(ctrl)) != list(range(count)):
            raise InvalidOptions("Every player must control at least one warband.", ruling="K-R21")
        for a in range(4):
            for b in range(4):
                if ctrl[a] == ctrl[b] and a != b and alliance(a) != alliance(b):
                    raise InvalidOptions(
                        "A player's two warbands must be a diagonal (allied) pair.", ruling="K-R21"
                    )
        return ctrl
    return {4: (0, 1, 2, 3), 3: (0, 1, 0, 2), 2: (0, 1, 0, 1)}[count]


def _zones(options: KolossusOptions) -> tuple[tuple[int, ...], ...]:
    layout = options.start_zone_layout
    if not isinstance(layout, StartZones):
        return DEFAULT_START_ZONES
    zones: list[tuple[int, ...]] = []
    for corner in CORNERS:
        squares = []
        for text in getattr(layout, corner):
            sq = parse_cell(text)
            if sq is None:
                raise InvalidOptions(f"Start square {text!r} of {corner} is off the board.")
            squares.append(sq)
        if len(set(squares)) != PIECES_PER_WARBAND:
            raise InvalidOptions(
                f"The {corner} start zone needs 8 different squares.", ruling="K-R02"
            )
        zones.append(tuple(squares))
    flat = [sq for zone in zones for sq in zone]
    if len(set(flat)) != len(flat):
        raise InvalidOptions("Two start zones share a square.", ruling="K-R02")
    if citadel_square(INITIAL_TERRAIN) in flat:
        raise InvalidOptions("A start zone cannot include the Citadel.", ruling="K-R02")
    return tuple(zones)


class KolossusRules(Rules[KolossusState, KolossusAction, KolossusOptions]):
    name = "kolossus"
    title = "Kolossus – The Citadel of Time"
    seed_document = "000"
    min_players = 2
    max_players = 4
    rules_version = 2  # 2: income left unallocated at a roll goes back to the supply (K-R24)
    action_type = KolossusAction
    board_kind = "grid"

    def __init__(self) -> None:
        self.options_model = KolossusOptions
        self.state_model = KolossusState

    # --- setup ------------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: KolossusOptions, seed: int) -> KolossusState:
        names = self.check_players(players)
        if any(not 0 <= v <= 6 for v in options.mana_table):
            raise InvalidOptions("Each mana_table entry must be between 0 and 6.", ruling="K-R22")
        if len(set(options.colours)) != 4:
            raise InvalidOptions("Each corner needs a different colour.")
        weapons: tuple[Weapon, ...] = options.weapons or tuple(
            DEFAULT_WEAPON_OF_COLOUR[c] for c in options.colours
        )
        if options.titan_weapons == "one_per_warband" and len(set(weapons)) != 4:
            raise InvalidOptions("Each warband needs a different Titan Weapon.", ruling="K-R26")
        ctrl = _controllers(len(names), options)
        zones = _zones(options)
        supply = MANA_PER_WARBAND if options.chapter >= 2 else 0
        bands = tuple(
            WarbandState(
                corner=CORNERS[i],
                colour=options.colours[i],
                player=ctrl[i],
                zone=zones[i],
                weapon=weapons[i] if options.chapter >= 3 else None,
                supply=supply,
            )
            for i in range(4)
        )
        minis: list[int] = []
        for i in range(4):
            minis.extend(default_arrangement(zones[i], i))
        return KolossusState(
            players=names,
            rng=Rng(seed=seed),
            options=options,
            warbands=(bands[0], bands[1], bands[2], bands[3]),
            terrain=INITIAL_TERRAIN,
            minis=tuple(minis),
            phase="placement",
            first=CORNERS.index(options.first_corner),
        )

    # --- queries ----------------------------------------------------------------------

    def current_player(self, state: KolossusState) -> int | None:
        if state.phase == "over":
            return None
        return state.warbands[current_warband(state)].player

    def dice_request(self, state: KolossusState) -> DiceRequest | None:
        return state.dice

    def outcome(self, state: KolossusState) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        winners: tuple[int, ...] = ()
        if result.alliance is not None:
            winners = tuple(
                sorted(
                    {wb.player for i, wb in enumerate(state.warbands) if i % 2 == result.alliance}
                )
            )
        return Outcome(winners=winners, reason=result.reason, text=result.text)

    def status(self, state: KolossusState) -> str:
        if state.result is not None:
            return f"Game over: {state.result.text}"
        wb = current_warband(state)
        who = f"{warband_name(state, wb)} ({state.players[state.warbands[wb].player]})"
        stage = "Invasion" if state.round == 0 else f"Round {state.round}/{ROUNDS}"
        asks = {
            "placement": "arrange the miniatures, then ready",
            "skills": "put 4 mana on the skills",
            "quake": "roll for the Great Quake" if state.dice else "move a region",
            "quake_allocate": f"allocate {state.warbands[wb].income} mana",
            "destiny": "roll the Die of Destiny",
            "turn": f"{state.ap} AP left: choose a class, a power or end the turn",
            "move_roll": f"roll the {CLASS_NAME[state.active_class or 'W']} movement dice",
            "move": f"move a {CLASS_NAME[state.active_class or 'W']} ({state.mp} MP)",
            "after_move": f"Spear/Hammer with {state.mp} MP, or finish",
            "allocate": f"allocate {state.warbands[wb].income} mana",
        }.get(state.phase, "")
        return f"{stage} · {who} · {asks} · crystals on the Citadel: {state.crystals}"

    def scores(self, state: KolossusState) -> ScoreSheet:
        columns = (*(warband_name(state, i) for i in range(4)), *ALLIANCE_NAME)
        rows: list[ScoreRow] = []
        last = min(state.round, ROUNDS)
        for rnd in range(1, last + 1):
            crystals = [0, 0, 0, 0]
            for cap in state.captures:
                if cap.round <= rnd:
                    crystals[cap.warband] += cap.count
            rows.append(
                ScoreRow(
                    label=f"Round {rnd} crystals",
                    values=(*crystals, crystals[0] + crystals[2], crystals[1] + crystals[3]),
                )
            )
            beaten = [0, 0, 0, 0]
            for beat in state.beats:
                if beat.round == rnd and beat.by is not None:
                    beaten[beat.by] += 1
            rows.append(
                ScoreRow(
                    label=f"Round {rnd} beaten",
                    values=(*beaten, beaten[0] + beaten[2], beaten[1] + beaten[3]),
                )
            )
        return ScoreSheet(measure="crystals", columns=columns, rows=tuple(rows))

    def highlights(self, state: KolossusState, focus: str | None = None) -> tuple[Highlight, ...]:
        return board_highlights(state, focus)

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

    def check_position(self, state: KolossusState) -> None:
        if len(state.minis) != PIECE_COUNT or any(not -1 <= s < SQUARES for s in state.minis):
            raise InvalidPosition("The position needs 32 miniatures on squares 0..120 or -1.")
        placed = [s for s in state.minis if s >= 0]
        if len(set(placed)) != len(placed):
            raise InvalidPosition("Two miniatures stand on one square.")
        if len(state.terrain) != 11 or any(
            len(row) != 11 or set(row) - set(".WHMC") for row in state.terrain
        ):
            raise InvalidPosition("The landscape map needs 11 rows of 11 of . W H M C.")
        if "".join(state.terrain).count("C") != 1:
            raise InvalidPosition(
                "The Citadel must stand on the board exactly once.", ruling="K-R41"
            )
        if state.options.chapter >= 2:
            for wb in state.warbands:
                if wb.mana_total() != MANA_PER_WARBAND:
                    raise InvalidPosition(f"{wb.colour} mana does not add up to 20.")
        self._check_loaded_counts(state)
        self._check_pending_dice(state)

    @staticmethod
    def _check_loaded_counts(state: KolossusState) -> None:
        """What the table can never show: crystals that do not add up to 12 (K-R15),
        more landscapes than the box holds, a beaten miniature nobody beat."""
        captured = sum(c.count for c in state.captures)
        if state.crystals + state.crystal_supply + captured != CRYSTALS:
            raise InvalidPosition(
                f"crystals ({state.crystals} on the Citadel, {state.crystal_supply} in the"
                f" supply, {captured} captured) do not add up to {CRYSTALS}.",
                ruling="K-R15",
            )
        flat = "".join(state.terrain)
        for ch, total in LANDSCAPE_TOTALS.items():
            if flat.count(ch) > total:
                raise InvalidPosition(
                    f"terrain has {flat.count(ch)} {ch!r}; the box holds {total}."
                )
        recorded = {record.piece for record in state.beats}
        for piece, square_ in enumerate(state.minis):
            if square_ < 0 and piece not in recorded:
                raise InvalidPosition(
                    f"minis[{piece}] ({piece_name(state, piece)}) is off the board, but beats"
                    " has no record of it being beaten."
                )
        if not 0 <= state.round <= ROUNDS:
            raise InvalidPosition(f"round {state.round} is not 0..{ROUNDS}.", ruling="K-R37")

    @staticmethod
    def _check_pending_dice(state: KolossusState) -> None:
        """A pending dice request must be the one the rules would ask now: same purpose,
        dice, player and label (a hand-made one could let the wrong player roll)."""
        if state.dice is None:
            return
        purpose = state.dice.purpose
        if purpose == "movement":
            if state.active_class is None:
                raise InvalidPosition("dice asks for movement, but no class is chosen.")
            cls = state.active_class
            expected = _d4_request(
                state, "movement", f"{CLASS_NAME[cls]} movement", CLASS_DICE[cls]
            )
        elif purpose in ("quake", "destiny"):
            what = "Great Quake" if purpose == "quake" else "Die of Destiny"
            expected = _d4_request(state, purpose, what, 1)
        else:
            raise InvalidPosition(f"dice.purpose {purpose!r} is not quake, destiny or movement.")
        for name in ("count", "sides", "player", "label"):
            if getattr(state.dice, name) != getattr(expected, name):
                raise InvalidPosition(
                    f"dice.{name} is {getattr(state.dice, name)!r}; the rules ask for"
                    f" {getattr(expected, name)!r} here."
                )

    # --- legal actions ----------------------------------------------------------------

    def legal_actions(self, state: KolossusState) -> Iterator[KolossusAction]:
        if state.phase == "over":
            return
        if state.dice is not None:
            yield Roll()
            return
        wb = current_warband(state)
        band = state.warbands[wb]
        phase = state.phase
        if phase == "placement":
            yield Ready()
            occ = occupants(state.minis)
            for band_i in state.warbands:
                zone = band_i.zone
                for i, a in enumerate(zone):
                    for b in zone[i + 1 :]:
                        pa, pb = occ[a], occ[b]
                        if pa >= 0 and pb >= 0 and class_of(pa) != class_of(pb):
                            yield Swap(a=cell(a), b=cell(b))
        elif phase == "skills":
            yield from initial_allocations()
        elif phase == "quake":
            yield from quake_moves(state)
        elif phase in ("quake_allocate", "allocate"):
            yield from listed_allocations(state.options, band)
        elif phase == "turn":
            if self._initiative_problem(state) is None:
                yield Initiative()
            for cls in CLASSES:
                if CLASS_COST[cls] <= state.ap and can_activate(state, cls):
                    yield ChooseClass(cls=cls)
            if state.options.chapter >= 3 and band.pool >= 3:
                for region in ALL_REGIONS:
                    for direction in region_directions(region):
                        if not self._shift(state, region, direction, 1).citadel_falls:
                            yield Earthquake(region=region, direction=direction)
            if state.options.chapter >= 3:
                free = free_start_squares(state, wb)
                for cls in CLASSES:
                    if CLASS_COST[cls] <= band.pool and self._beaten_piece(state, wb, cls) >= 0:
                        for sq in free:
                            yield Rebirth(cls=cls, to=cell(sq))
            yield EndTurn()
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

    def apply(
        self, state: KolossusState, action: KolossusAction
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        if isinstance(action, Correction):
            return self._correct(state, action)
        if state.phase == "over":
            raise _violation("The game is over.", "K-R37")
        if isinstance(action, Roll):
            return self._roll(state, action)
        if state.dice is not None:
            raise _violation(f"Roll first: {state.dice.label}.", "K-R07")
        return self._dispatch(state, action)

    def _dispatch(
        self, state: KolossusState, action: KolossusAction
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        match action:
            case Swap():
                return self._swap(state, action)
            case Ready():
                return self._ready(state, action)
            case QuakeMove():
                return self._quake_move(state, action)
            case Allocate():
                return self._allocate(state, action)
            case Initiative():
                return self._initiative(state, action)
            case ChooseClass():
                return self._choose_class(state, action)
            case Move():
                return self._move(state, action)
            case Spear():
                return self._spear(state, action)
            case Hammer():
                return self._hammer(state, action)
            case Finish():
                return self._finish(state, action)
            case Earthquake():
                return self._earthquake(state, action)
            case Rebirth():
                return self._rebirth(state, action)
            case EndTurn():
                return self._end_turn(state, action)
        raise _violation("Unknown action.")  # pragma: no cover - the union is exhaustive

    # --- manual corrections (0.2.1) ---------------------------------------------------

    def corrections(self, state: KolossusState) -> tuple[KolossusAction, ...]:
        """Every miniature, each warband's mana (Ch.2+), the crystals, a landscape, a region."""
        if state.phase == "over":
            return ()
        return templates(state)

    def _correct(
        self, state: KolossusState, action: Correction
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        """Set what the table shows, then let the rules judge the consequences."""
        if state.phase == "over":
            raise game_over()
        if isinstance(action, CorrectPiece):
            new, text = correct_piece(state, action)
        elif isinstance(action, CorrectMana):
            new, text = correct_mana(state, action)
        elif isinstance(action, CorrectCrystals):
            new, text = correct_crystals(state, action)
        elif isinstance(action, CorrectLandscape):
            new, text = correct_landscape(state, action)
        elif isinstance(action, CorrectRegion):
            new, text = correct_region(state, action)
        else:
            raise impossible("Kolossus has no such correction.")
        events: list[Event] = [corrected(action.type, text)]
        new, more = self._after_correction(new)
        return new, (*events, *more)

    def _after_correction(self, state: KolossusState) -> tuple[KolossusState, tuple[Event, ...]]:
        """The consequences a corrected board has under the rules.

        A warband without miniatures loses its alliance the game (K-R20). A chosen class
        with no miniature left to move was never a legal choice (K-R08): the activation
        is cancelled and its AP come back. A Colossus waiting to use its Spear or Hammer
        ends its activation when it was beaten or has no target any more.
        """
        state, ended = self._check_elimination(state)
        if state.phase == "over":
            return state, ended
        if state.phase in ("move_roll", "move") and not activation_has_piece(state):
            cls = state.active_class or "W"
            refund = state.ap + CLASS_COST[cls]
            state = state.evolve(
                {
                    "phase": "turn",
                    "dice": None,
                    "ap": refund,
                    "active_class": None,
                    "mp": 0,
                }
            )
            text = (
                f"No {CLASS_NAME[cls]} is left to move: the activation is cancelled and "
                f"its AP come back ({refund} AP)."
            )
            return state, (KolossusEvent(text=text),)
        if state.phase == "after_move" and state.active_piece is not None:
            piece = state.active_piece
            if state.minis[piece] < 0:  # a Colossus can be beaten like any miniature (K-R14)
                state = state.evolve({"phase": "turn", **_NO_ACTIVATION})
                return state, (KolossusEvent(text="The beaten Colossus's activation ends."),)
            if not self._post_move_targets(state, piece):
                return self._end_activation(state, piece)
        return state, ()

    # --- setup phase ------------------------------------------------------------------

    def _need_phase(self, state: KolossusState, *phases: str, what: str) -> None:
        if state.phase not in phases:
            raise _violation(f"{what} is not possible now ({self.status(state)}).")

    def _swap(self, state: KolossusState, action: Swap) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "placement", what="Arranging miniatures")
        a, b = _cell_arg(action.a, "Square"), _cell_arg(action.b, "Square")
        occ = occupants(state.minis)
        pa, pb = occ[a], occ[b]
        if pa < 0 or pb < 0 or a == b:
            raise _violation("Swap two different squares that both hold a miniature.", "K-R02")
        if warband_of(pa) != warband_of(pb):
            raise _violation(
                "Only miniatures of one warband can swap, inside its start zone.", "K-R02"
            )
        minis = list(state.minis)
        minis[pa], minis[pb] = b, a
        text = (
            f"Swap {piece_name(state, pa)} on {cell(a)} and {piece_name(state, pb)} on {cell(b)}."
        )
        change = TableChanges(
            text=text, changes=(TableChange(step=1, cell=cell(a), instruction=text),)
        )
        return state.evolve({"minis": tuple(minis)}), (change,)

    def _ready(
        self, state: KolossusState, action: Ready
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "placement", what="Ready")
        if state.options.chapter >= 2:
            new = state.evolve({"phase": "skills", "turn": 0})
            return new, (KolossusEvent(text="Each warband now puts 4 mana on its skills."),)
        return self._start_quake_turn(state.evolve({"turn": 0})), (
            KolossusEvent(text="The Invasion begins: the Great Quake."),
        )

    def _start_quake_turn(self, state: KolossusState) -> KolossusState:
        request = _d4_request(state, "quake", "Great Quake", 1)
        return state.evolve({"phase": "quake", "dice": request, "roll": ()})

    # --- dice -------------------------------------------------------------------------

    def _roll(self, state: KolossusState, action: Roll) -> tuple[KolossusState, tuple[Event, ...]]:
        request = state.dice
        values, rng = resolve_roll(request, action, state.rng, ruling="K-R07")
        assert request is not None
        rolled = DiceRolled(
            text=f"{request.label}: {', '.join(map(str, values))}.",
            request=request,
            values=values,
            source=action.source,
        )
        state = state.evolve({"rng": rng, "dice": None, "roll": values})
        wb = current_warband(state)
        band = state.warbands[wb]
        if request.purpose == "quake":
            if state.options.invasion_grants_mana:
                state = self._set_band(state, wb, self._new_income(state, band, values[0]))
            return state, (rolled,)
        if request.purpose == "destiny":
            ap = values[0]
            state = self._set_band(state, wb, self._new_income(state, band, ap))
            new = state.evolve({"phase": "turn", "ap": ap, "initiative_open": True})
            return new, (rolled,)
        # movement dice
        cls = state.active_class
        assert cls is not None
        mp = movement_points(state, wb, cls, values)
        return state.evolve({"phase": "move", "mp": mp}), (rolled,)

    @staticmethod
    def _new_income(state: KolossusState, band: WarbandState, rolled: int) -> WarbandState:
        """A roll's mana income, taken from the supply. Income still unallocated (one a
        correction set before the roll) goes back to the supply first, so the
        warband's 20 mana always add up (K-R24)."""
        supply = band.supply + band.income
        income = income_for(state.options, rolled, supply)
        return band.evolve({"income": income, "supply": supply - income})

    @staticmethod
    def _set_band(state: KolossusState, wb: int, band: WarbandState) -> KolossusState:
        bands = list(state.warbands)
        bands[wb] = band
        return state.evolve({"warbands": (bands[0], bands[1], bands[2], bands[3])})

    # --- the Great Quake and the Earthquake -------------------------------------------

    def _shift(self, state: KolossusState, region: str, direction: str, dist: int) -> RegionShift:
        parsed = parse_region(region)
        if parsed is None:
            raise _violation(f"{region!r} is not a region (row0..row10, col0..col10).", "K-R03")
        sign = region_sign(parsed[0], direction)
        if sign is None:
            raise _violation(
                "A row moves east or west, a column north or south.",
                "K-R04",
            )
        return shift_region(
            state.terrain, state.minis, region, sign, dist, state.options.region_move_model
        )

    def _shift_changes(self, state: KolossusState, shift: RegionShift) -> tuple[TableChange, ...]:
        occ = occupants(state.minis)
        steps: list[TableChange] = []

        def add(sq: int, text: str) -> None:
            steps.append(TableChange(step=len(steps) + 1, cell=cell(sq), instruction=text))

        for sq in shift.fallen:
            land = landscape_at(state.terrain, sq)
            if occ[sq] >= 0:
                add(sq, f"Remove {piece_name(state, occ[sq])} from {cell(sq)} (beaten)")
            if land != ".":
                add(sq, f"Remove the {LANDSCAPE_NAME[land]} at {cell(sq)} from the game")
        for src, dst in shift.moves:
            land = landscape_at(state.terrain, src)
            piece = occ[src]
            if land != "." and piece >= 0:
                what = f"the {LANDSCAPE_NAME[land]} with {piece_name(state, piece)}"
            elif land != ".":
                what = f"the {LANDSCAPE_NAME[land]}"
            else:
                what = piece_name(state, piece)
            add(src, f"Move {what} from {cell(src)} to {cell(dst)}")
        return tuple(steps)

    def _apply_shift(
        self, state: KolossusState, shift: RegionShift, cause: str, label: str
    ) -> tuple[KolossusState, list[Event]]:
        changes = self._shift_changes(state, shift)
        wb = current_warband(state)
        beats = tuple(
            BeatRecord(
                round=state.round,
                piece=p,
                by=wb,
                cause="quake" if cause == "quake" else "earthquake",
            )
            for p in shift.fallen_pieces
        )
        events: list[Event] = []
        if changes:
            events.append(TableChanges(text=label, changes=changes))
        else:
            events.append(KolossusEvent(text=f"{label} (nothing on that line moves)."))
        new = state.evolve(
            {"terrain": shift.terrain, "minis": shift.minis, "beats": state.beats + beats}
        )
        if shift.fallen_pieces:
            new, ended = self._check_elimination(new)
            events.extend(ended)
        return new, events

    def _quake_move(
        self, state: KolossusState, action: QuakeMove
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "quake", what="A Great Quake move")
        rolled = state.roll[0]
        if action.region not in quake_candidates(state):
            if action.region in state.quake_moved:
                raise _violation(f"{action.region} already moved in this Great Quake.", "K-R06")
            raise _violation(
                f"{action.region} is not a central region (rows and columns 3-7).", "K-R03"
            )
        dist = rolled if action.distance is None else action.distance
        if state.options.quake_distance == "exact" and dist != rolled:
            raise _violation(f"The region moves exactly {rolled} squares.", "K-R05")
        if not 1 <= dist <= rolled:
            raise _violation(f"The region moves 1 to {rolled} squares.", "K-R05")
        shift = self._shift(state, action.region, action.direction, dist)
        if shift.citadel_falls:
            raise _violation(
                "That would push the Citadel of Time off the board; choose another region "
                "or direction.",
                "K-R41",
            )
        wb = current_warband(state)
        label = (
            f"Great Quake: {warband_name(state, wb)} moves {action.region} "
            f"{action.direction} by {dist}."
        )
        new, events = self._apply_shift(state, shift, "quake", label)
        new = new.evolve({"quake_moved": (*state.quake_moved, action.region)})
        if new.phase == "over":
            return new, tuple(events)
        if new.warbands[wb].income > 0:
            return new.evolve({"phase": "quake_allocate"}), tuple(events)
        new, more = self._after_quake_turn(new)
        return new, (*events, *more)

    def _after_quake_turn(self, state: KolossusState) -> tuple[KolossusState, tuple[Event, ...]]:
        if state.turn < 3:
            return self._start_quake_turn(state.evolve({"turn": state.turn + 1})), ()
        start = state.evolve({"round": 1, "turn": 0})
        return self._start_turn(start), (
            KolossusEvent(text="The Invasion is over. Round 1 begins."),
        )

    def _earthquake(
        self, state: KolossusState, action: Earthquake
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "turn", what="The Earthquake")
        wb = current_warband(state)
        band = state.warbands[wb]
        if state.options.chapter < 3:
            raise _violation("Titan Powers are a Chapter 3 rule.", "K-R34")
        if band.pool < 3:
            raise _violation(f"The Earthquake costs 3 pool mana; you have {band.pool}.", "K-R34")
        shift = self._shift(state, action.region, action.direction, 1)
        if shift.citadel_falls:
            raise _violation("You must not move the Citadel of Time off the board.", "K-R34")
        band = band.evolve({"pool": band.pool - 3, "supply": band.supply + 3})
        state = self._set_band(state, wb, band).evolve({"initiative_open": False})
        label = f"Earthquake: {warband_name(state, wb)} moves {action.region} {action.direction}."
        new, events = self._apply_shift(state, shift, "earthquake", label)
        return new, tuple(events)

    # --- mana -------------------------------------------------------------------------

    def _allocate(
        self, state: KolossusState, action: Allocate
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "skills", "quake_allocate", "allocate", what="Allocating mana")
        wb = current_warband(state)
        band = state.warbands[wb]
        if state.phase == "skills":
            new_band = apply_initial_skills(band, action)
            new = self._set_band(state, wb, new_band)
            event = KolossusEvent(text=f"{warband_name(state, wb)} sets its starting skills.")
            if state.turn < 3:
                return new.evolve({"turn": state.turn + 1}), (event,)
            return self._start_quake_turn(new.evolve({"turn": 0})), (event,)
        new_band = apply_allocation(state.options, band, action)
        new = self._set_band(state, wb, new_band)
        event = KolossusEvent(text=f"{warband_name(state, wb)} allocates its mana.")
        if state.phase == "quake_allocate":
            new, more = self._after_quake_turn(new)
            return new, (event, *more)
        new, more = self._next_turn(new)
        return new, (event, *more)

    # --- turns ------------------------------------------------------------------------

    def _start_turn(self, state: KolossusState) -> KolossusState:
        return state.evolve(
            {
                "phase": "destiny",
                "dice": _d4_request(state, "destiny", "Die of Destiny", 1),
                "roll": (),
                "ap": 0,
                "initiatives": 0,
                "initiative_open": False,
                "activated": (),
                **_NO_ACTIVATION,
            }
        )

    def _initiative_problem(self, state: KolossusState) -> RuleViolation | None:
        band = state.warbands[current_warband(state)]
        if state.phase != "turn" or state.options.chapter < 3:
            return _violation("Initiative is a Chapter 3 Titan Power used in your turn.", "K-R33")
        if not state.initiative_open:
            return _violation("Use Initiative right after the Die of Destiny.", "K-R33")
        if state.options.initiative_once_per_turn and state.initiatives >= 1:
            return _violation("Initiative only once per turn (house rule).", "K-R33")
        if state.ap >= 4:
            return _violation("The Die of Destiny cannot go above 4.", "K-R33")
        if band.pool < 1:
            return _violation("Initiative costs 1 mana from your pool; it is empty.", "K-R36")
        return None

    def _initiative(
        self, state: KolossusState, action: Initiative
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        problem = self._initiative_problem(state)
        if problem is not None:
            raise problem
        wb = current_warband(state)
        band = state.warbands[wb]
        ap = state.ap + 1
        supply = band.supply + 1 + band.income  # the pool mana and the old income go back
        income = income_for(state.options, ap, supply)
        band = band.evolve({"pool": band.pool - 1, "supply": supply - income, "income": income})
        new = self._set_band(state, wb, band).evolve(
            {"ap": ap, "initiatives": state.initiatives + 1}
        )
        return new, (KolossusEvent(text=f"Initiative: {warband_name(state, wb)} now has {ap} AP."),)

    def _choose_class(
        self, state: KolossusState, action: ChooseClass
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "turn", what="Choosing a class")
        cls = action.cls
        if CLASS_COST[cls] > state.ap:
            raise _violation(
                f"A {CLASS_NAME[cls]} costs {CLASS_COST[cls]} AP; you have {state.ap} left.",
                "K-R08",
            )
        if not can_activate(state, cls):
            raise _violation(f"You have no {CLASS_NAME[cls]} left to activate this turn.", "K-R08")
        wb = current_warband(state)
        request = _d4_request(state, "movement", f"{CLASS_NAME[cls]} movement", CLASS_DICE[cls])
        new = state.evolve(
            {
                "phase": "move_roll",
                "dice": request,
                "active_class": cls,
                "ap": state.ap - CLASS_COST[cls],
                "initiative_open": False,
            }
        )
        return new, (
            KolossusEvent(text=f"{warband_name(state, wb)} activates a {CLASS_NAME[cls]}."),
        )

    def _end_turn(
        self, state: KolossusState, action: EndTurn
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "turn", what="Ending the turn")
        wb = current_warband(state)
        band = state.warbands[wb]
        event = KolossusEvent(text=f"{warband_name(state, wb)} ends its turn.")
        state = state.evolve({"initiative_open": False})
        if band.income > 0 or (
            state.options.charge_from_pool and band.pool >= 2 and chargeable(state.options, band)
        ):
            return state.evolve({"phase": "allocate"}), (event,)
        new, more = self._next_turn(state)
        return new, (event, *more)

    def _next_turn(self, state: KolossusState) -> tuple[KolossusState, tuple[Event, ...]]:
        if state.turn < 3:
            return self._start_turn(state.evolve({"turn": state.turn + 1})), ()
        events: list[Event] = []
        first = state.first
        this_round = [c for c in state.captures if c.round == state.round]
        if this_round:
            first = this_round[-1].warband  # K-R17
            events.append(
                KolossusEvent(text=f"{warband_name(state, first)} is the first warband now.")
            )
        if state.round >= ROUNDS:
            result = self._final_result(state)
            over = state.evolve({"phase": "over", "result": result, "first": first})
            events.append(GameEnded(text=result.text))
            return over, tuple(events)
        state = state.evolve({"round": state.round + 1, "turn": 0, "first": first})
        place = state.crystal_supply > 0 and (
            state.options.crystal_placement == "one_per_round_accumulate" or state.crystals == 0
        )
        if place:
            sq = citadel(state)
            text = f"Round {state.round}: put a Crystal of Time on the Citadel at {cell(sq)}"
            events.append(
                TableChanges(
                    text=text + ".", changes=(TableChange(step=1, cell=cell(sq), instruction=text),)
                )
            )
            state = state.evolve(
                {"crystals": state.crystals + 1, "crystal_supply": state.crystal_supply - 1}
            )
        return self._start_turn(state), tuple(events)

    def _final_result(self, state: KolossusState) -> GameResult:
        totals = [0, 0]
        for cap in state.captures:
            totals[alliance(cap.warband)] += cap.count
        if not state.captures:
            return GameResult(
                alliance=None, reason="no_capture", text="No crystal was captured: a draw (K-R19)."
            )
        leader: int | None
        if state.options.crystal_majority == "relative":
            leader = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None
        else:
            leader = 0 if totals[0] >= 7 else 1 if totals[1] >= 7 else None
        if leader is not None:
            return GameResult(
                alliance=leader,
                reason="crystal_majority",
                text=f"{ALLIANCE_NAME[leader]} win with {totals[leader]} crystals to "
                f"{totals[1 - leader]}.",
            )
        last = alliance(state.captures[-1].warband)
        return GameResult(
            alliance=last,
            reason="last_crystal",
            text=f"No majority ({totals[0]}–{totals[1]}): {ALLIANCE_NAME[last]} took the last "
            "crystal and win (K-R19).",
        )

    # --- movement ---------------------------------------------------------------------

    def _move(self, state: KolossusState, action: Move) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "move", what="Moving")
        origin = _cell_arg(action.from_, "Start square")
        to = _cell_arg(action.to, "Destination")
        wb = current_warband(state)
        piece = occupants(state.minis)[origin]
        if piece < 0 or warband_of(piece) != wb:
            raise _violation(f"No miniature of yours stands on {cell(origin)}.", "K-R08")
        cls = state.active_class
        if class_of(piece) != cls:
            raise _violation(
                f"You activated a {CLASS_NAME[cls or 'W']}; "
                f"that is a {CLASS_NAME[class_of(piece)]}.",
                "K-R08",
            )
        if piece in state.activated:
            raise _violation("Every miniature can be activated only once per turn.", "K-R08")
        way, sword_used, whip_used = self._find_way(state, piece, origin, to, action)
        return self._perform_move(state, piece, origin, way, sword_used, whip_used)

    def _find_way(
        self, state: KolossusState, piece: int, origin: int, to: int, action: Move
    ) -> tuple[Reach, bool, bool]:
        wb = warband_of(piece)
        configs = usable_configs(state, piece, sword=action.sword, whip=action.whip)
        if action.whip is True and not configs:
            raise _violation("Your Whip of Wrath is not charged.", "K-R42")
        if action.sword is True and not charged(state, wb, "sword"):
            raise _violation("Your Sword of Storm is not charged.", "K-R42")
        cls = class_of(piece)
        mp = state.mp
        if action.path is not None:
            path = tuple(_cell_arg(c, "Path square") for c in action.path)
            if (path[-1] if path else origin) != to:
                raise _violation("The path must end on the destination.", "1.6.2")
            error: RuleViolation | None = None
            for sword, whip in configs:
                try:
                    occ = occupancy(state, wb, whip=whip, vacated=origin)
                    way = check_path(
                        _levels(state),
                        occ,
                        origin,
                        path,
                        cls != "W",
                        cls == "C",
                        mp,
                        sword,
                        state.options.defence_consumed,
                    )
                except RuleViolation as exc:
                    error = exc
                    continue
                return way, way.sword_used, whip and bool(way.beaten)
            assert error is not None
            raise error
        canonical = canonical_way(state, piece, to, configs)
        if canonical is not None:
            way, whip = canonical
            return way, way.sword_used, whip and bool(way.beaten)
        there = occupants(state.minis)[to]
        if there >= 0 and friendly(state, wb, warband_of(there)):
            raise _violation(
                f"You may pass {cell(to)} but not end on a friendly miniature.", "K-R11"
            )
        last = destinations(state, piece, mp, sword=configs[-1][0], whip=configs[-1][1])
        if to in last.blocked:
            raise _violation(
                f"Too few movement points left to beat the enemy on {cell(to)} (Defence).",
                "K-R13",
            )
        raise _violation(
            f"{CLASS_NAME[cls]} on {cell(origin)} cannot reach {cell(to)} with {mp} MP "
            "(straight lines, "
            + ("one change of direction" if cls != "W" else "no change of direction")
            + (", levels ignored)." if cls == "C" else ", at most one level per step)."),
            "K-R10",
        )

    def _perform_move(
        self,
        state: KolossusState,
        piece: int,
        origin: int,
        way: Reach,
        sword_used: bool,
        whip_used: bool,
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        wb = warband_of(piece)
        to = way.path[-1] if way.path else origin
        # The first enemy is beaten by the move itself, any further one by the Sword.
        victims: list[tuple[int, BeatCause]] = [
            (sq, "sword" if n else "move") for n, sq in enumerate(way.beaten)
        ]
        minis, beats, steps = _beat(state, wb, victims)
        minis[piece] = to
        if to != origin:
            steps.append(
                TableChange(
                    step=len(steps) + 1,
                    cell=cell(to),
                    instruction=(
                        f"Move {piece_name(state, piece)} from {cell(origin)} to {cell(to)}"
                    ),
                )
            )
        moved_with: tuple[tuple[Weapon, bool], ...] = (("sword", sword_used), ("whip", whip_used))
        band = _discharged(state.warbands[wb], [w for w, used in moved_with if used])
        new = self._set_band(state, wb, band).evolve(
            {
                "minis": tuple(minis),
                "beats": state.beats + tuple(beats),
                "activated": (*state.activated, piece),
                "mp": way.left,
                "whip_active": state.whip_active or whip_used,
                "entered": bool(way.path),
            }
        )
        text = (
            f"{piece_name(state, piece)} moves from {cell(origin)} to {cell(to)}"
            + (f", beating {len(way.beaten)}" if way.beaten else "")
            + (" (Sword of Storm)" if sword_used else "")
            + (" (Whip of Wrath)" if whip_used else "")
            + (f" by {' → '.join(cell(sq) for sq in way.path)}" if len(way.path) > 1 else "")
            + f"; {way.left} MP left."
        )
        events: list[Event] = []
        if steps:
            events.append(TableChanges(text=text, changes=tuple(steps)))
        else:
            events.append(KolossusEvent(text=text))
        if beats:
            new, ended = self._check_elimination(new)
            events.extend(ended)
            if new.phase == "over":
                return new, tuple(events)
        if class_of(piece) == "C" and self._post_move_targets(new, piece):
            return new.evolve({"phase": "after_move", "active_piece": piece}), tuple(events)
        new, more = self._end_activation(new, piece)
        return new, (*events, *more)

    def _post_move_targets(self, state: KolossusState, piece: int) -> bool:
        """Whether the Colossus may still use Spear or Hammer: they act after its move
        has ended, a move ended by a beat included; Sword and Whip act during it (K-R28)."""
        wb = warband_of(piece)
        at = state.minis[piece]
        occ = occupancy(state, wb, whip=state.whip_active)
        if charged(state, wb, "spear") and spear_targets(occ, at, state.mp):
            return True
        return charged(state, wb, "hammer") and bool(hammer_subsets(occ, at, state.mp))

    def _end_activation(
        self, state: KolossusState, piece: int
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        """Crystal capture check (K-R16), then back to choosing."""
        events: list[Event] = []
        wb = warband_of(piece)
        at = state.minis[piece]
        sq = citadel(state)
        captures = state.captures
        crystals = state.crystals
        if (
            at == sq
            and crystals > 0
            and (state.entered or not state.options.capture_requires_entry)
        ):
            captures = (*captures, CrystalCapture(round=state.round, warband=wb, count=crystals))
            text = (
                f"{warband_name(state, wb)} captures {crystals} Crystal"
                f"{'s' if crystals > 1 else ''} of Time"
            )
            events.append(
                TableChanges(
                    text=text + ".",
                    changes=(
                        TableChange(
                            step=1,
                            cell=cell(sq),
                            instruction=(
                                f"Give the crystals on {cell(sq)} to {warband_name(state, wb)}"
                            ),
                        ),
                    ),
                )
            )
            crystals = 0
        new = state.evolve(
            {"phase": "turn", "captures": captures, "crystals": crystals, **_NO_ACTIVATION}
        )
        return new, tuple(events)

    # --- Spear and Hammer -------------------------------------------------------------

    def _armed_colossus(self, state: KolossusState, weapon: Weapon) -> tuple[int, int]:
        """The current warband and its Colossus, waiting to strike with a charged ``weapon``."""
        self._need_phase(state, "after_move", what=f"The {WEAPON_NAME[weapon]}")
        wb = current_warband(state)
        if not charged(state, wb, weapon):
            raise _violation(f"Your {WEAPON_NAME[weapon]} is not charged.", "K-R42")
        piece = state.active_piece
        assert piece is not None
        return wb, piece

    def _spear(
        self, state: KolossusState, action: Spear
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        wb, piece = self._armed_colossus(state, "spear")
        target = _cell_arg(action.target, "Target")
        occ = occupancy(state, wb, whip=state.whip_active)
        costs = dict(spear_targets(occ, state.minis[piece], state.mp))
        if target not in costs:
            raise _violation(
                f"The Spear needs an enemy on a free straight line with distance + Defence "
                f"≤ {state.mp} MP; {cell(target)} is not.",
                "K-R29",
            )
        return self._weapon_beats(state, piece, "spear", (target,), state.mp - costs[target])

    def _hammer(
        self, state: KolossusState, action: Hammer
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        wb, piece = self._armed_colossus(state, "hammer")
        targets = tuple(_cell_arg(c, "Target") for c in action.targets)
        if not targets or len(set(targets)) != len(targets):
            raise _violation("Choose one or more different adjacent enemies.", "K-R30")
        occ = occupancy(state, wb, whip=state.whip_active)
        costs = dict(hammer_costs(occ, state.minis[piece]))
        for t in targets:
            if t not in costs:
                raise _violation(f"{cell(t)} holds no enemy next to your Colossus.", "K-R30")
        total = sum(costs[t] for t in targets)
        if total > state.mp:
            raise _violation(
                f"Those targets cost {total} MP (1 + Defence each); you have {state.mp}.",
                "K-R30",
            )
        return self._weapon_beats(state, piece, "hammer", targets, state.mp - total)

    def _weapon_beats(
        self,
        state: KolossusState,
        piece: int,
        weapon: Literal["spear", "hammer"],
        targets: tuple[int, ...],
        left: int,
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        wb = warband_of(piece)
        minis, beats, steps = _beat(state, wb, [(sq, weapon) for sq in targets])
        band = _discharged(state.warbands[wb], [weapon])
        new = self._set_band(state, wb, band).evolve(
            {"minis": tuple(minis), "beats": state.beats + tuple(beats), "mp": left}
        )
        text = f"{WEAPON_NAME[weapon]}: {warband_name(state, wb)} beats {len(targets)}."
        events: list[Event] = [TableChanges(text=text, changes=tuple(steps))]
        new, ended = self._check_elimination(new)
        events.extend(ended)
        if new.phase == "over":
            return new, tuple(events)
        new, more = self._end_activation(new, piece)
        return new, (*events, *more)

    def _finish(
        self, state: KolossusState, action: Finish
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "after_move", what="Finishing the activation")
        piece = state.active_piece
        assert piece is not None
        return self._end_activation(state, piece)

    # --- Rebirth ----------------------------------------------------------------------

    @staticmethod
    def _beaten_piece(state: KolossusState, wb: int, cls: ClassCode) -> int:
        base = wb * PIECES_PER_WARBAND
        for p in range(base, base + PIECES_PER_WARBAND):
            if class_of(p) == cls and state.minis[p] < 0:
                return p
        return -1

    def _rebirth(
        self, state: KolossusState, action: Rebirth
    ) -> tuple[KolossusState, tuple[Event, ...]]:
        self._need_phase(state, "turn", what="Rebirth")
        if state.options.chapter < 3:
            raise _violation("Titan Powers are a Chapter 3 rule.", "K-R35")
        wb = current_warband(state)
        band = state.warbands[wb]
        cost = CLASS_COST[action.cls]
        if band.pool < cost:
            raise _violation(
                f"Rebirth of a {CLASS_NAME[action.cls]} costs {cost} pool mana; you have "
                f"{band.pool}.",
                "K-R35",
            )
        piece = self._beaten_piece(state, wb, action.cls)
        if piece < 0:
            raise _violation(f"None of your {CLASS_NAME[action.cls]}s is beaten.", "K-R35")
        to = _cell_arg(action.to, "Rebirth square")
        if to not in band.zone:
            raise _violation(f"{cell(to)} is not in your start zone.", "K-R35")
        if occupants(state.minis)[to] >= 0:
            raise _violation(f"{cell(to)} is not free.", "K-R35")
        minis = list(state.minis)
        minis[piece] = to
        band = band.evolve({"pool": band.pool - cost, "supply": band.supply + cost})
        new = self._set_band(state, wb, band).evolve(
            {"minis": tuple(minis), "initiative_open": False}
        )
        text = f"Place {piece_name(state, piece)} on {cell(to)} (reborn)"
        return new, (
            TableChanges(
                text=text + ".", changes=(TableChange(step=1, cell=cell(to), instruction=text),)
            ),
        )

    # --- elimination ------------------------------------------------------------------

    def _check_elimination(self, state: KolossusState) -> tuple[KolossusState, tuple[Event, ...]]:
        """After every removal: a wiped-out warband (or player) loses its alliance the game."""
        on_board = [0, 0, 0, 0]
        for p, sq in enumerate(state.minis):
            if sq >= 0:
                on_board[warband_of(p)] += 1
        losers: set[int] = set()
        if state.options.elimination_unit == "warband":
            losers = {alliance(w) for w in range(4) if on_board[w] == 0}
        else:
            for seat in range(len(state.players)):
                mine = [w for w in range(4) if state.warbands[w].player == seat]
                if mine and all(on_board[w] == 0 for w in mine):
                    losers.add(alliance(mine[0]))
        if not losers:
            return state, ()
        if len(losers) == 2:
            if state.options.simultaneous_elimination == "draw":
                result = GameResult(
                    alliance=None,
                    reason="simultaneous_elimination",
                    text="Both alliances were wiped out at once: a draw (K-R20).",
                )
            else:
                active = alliance(current_warband(state))
                result = GameResult(
                    alliance=1 - active,
                    reason="simultaneous_elimination",
                    text=f"Both alliances were wiped out; the acting alliance loses: "
                    f"{ALLIANCE_NAME[1 - active]} win (K-R20).",
                )
        else:
            loser = losers.pop()
            result = GameResult(
                alliance=1 - loser,
                reason="elimination",
                text=f"A warband of {ALLIANCE_NAME[loser]} lost all its miniatures: "
                f"{ALLIANCE_NAME[1 - loser]} win (K-R20).",
            )
        over = state.evolve({"phase": "over", "result": result, "dice": None})
        return over, (GameEnded(text=result.text),)


def _levels(state: KolossusState) -> tuple[int, ...]:
    return levels_of(state.terrain)


# What ends with an activation: no chosen class, no waiting Colossus, no movement points.
_NO_ACTIVATION: dict[str, object] = {
    "active_class": None,
    "active_piece": None,
    "mp": 0,
    "whip_active": False,
    "entered": False,
}


def _d4_request(state: KolossusState, purpose: str, what: str, count: int) -> DiceRequest:
    """Ask the current warband's player to roll ``count`` four-sided dice for ``what``."""
    wb = current_warband(state)
    return DiceRequest(
        purpose=purpose,
        label=f"{what}: {warband_name(state, wb)} rolls {count}d4",
        count=count,
        sides=4,
        player=state.warbands[wb].player,
    )


def _beat(
    state: KolossusState, wb: int, victims: Sequence[tuple[int, BeatCause]]
) -> tuple[list[int], list[BeatRecord], list[TableChange]]:
    """Warband ``wb`` beats the miniatures on the given squares: the new miniature squares,
    the beat records and the numbered removal steps for the table."""
    occ = occupants(state.minis)
    minis = list(state.minis)
    beats: list[BeatRecord] = []
    steps: list[TableChange] = []
    for sq, cause in victims:
        victim = occ[sq]
        minis[victim] = -1
        beats.append(BeatRecord(round=state.round, piece=victim, by=wb, cause=cause))
        steps.append(
            TableChange(
                step=len(steps) + 1,
                cell=cell(sq),
                instruction=f"Remove {piece_name(state, victim)} from {cell(sq)} (beaten)",
            )
        )
    return minis, beats, steps


def _discharged(band: WarbandState, weapons: Sequence[Weapon]) -> WarbandState:
    """The Titan Weapons used up: their 2 mana each go back to the supply."""
    charges = list(band.charges)
    for weapon in weapons:
        charges[WEAPONS.index(weapon)] = 0
    return band.evolve({"charges": tuple(charges), "supply": band.supply + 2 * len(weapons)})


RULES = KolossusRules()
