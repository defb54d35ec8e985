"""Kolossus manual corrections (RULINGS 0.2.1): templates and the corrected positions.

Each function checks one correction and returns the corrected state and its log text;
:meth:`KolossusRules._correct` then lets the rules handle the consequences with
:func:`after_correction` (elimination, an activation left without its miniature). A
correction restates the table: it never captures crystals (a capture needs an
activation to end, K-R16) and never asks for table changes.
"""

from __future__ import annotations

from companion import words
from companion.games.corrections import (
    change_text,
    check_count,
    impossible,
    nothing_to_correct,
)
from companion.games.kolossus.battle import end_activation, post_move_targets
from companion.games.kolossus.common import NO_ACTIVATION, Handled, KolossusEvent
from companion.games.kolossus.content import (
    CLASS_COST,
    CLASS_NAME,
    LANDSCAPE_NAME,
    LANDSCAPE_TOTALS,
    PIECE_CLASS,
    PIECE_COUNT,
    PIECES_PER_WARBAND,
    WARBAND_OF_COLOUR,
    landscape_at,
    region_sign,
    region_text,
    row_col,
    square,
    square_text,
)
from companion.games.kolossus.model import (
    MANA_PER_WARBAND,
    POOL_LIMIT,
    SKILL_NAMES,
    SKILL_SLOTS,
    WEAPON_CHARGE,
    WEAPON_NAME,
    WEAPONS,
    BeatRecord,
    CorrectCrystals,
    CorrectLandscape,
    CorrectMana,
    CorrectPiece,
    CorrectRegion,
    CrystalCapture,
    KolossusState,
    Landscape,
    WarbandState,
)
from companion.games.kolossus.position import (
    class_of,
    occupants,
    piece_name,
    warband_name,
)
from companion.games.kolossus.quake import shift_region
from companion.games.kolossus.scoring import check_elimination

CRYSTALS = 12
LANDSCAPE_OF_CHAR: dict[str, Landscape] = {
    ".": "bare",
    "W": "woods",
    "H": "hills",
    "M": "mountains",
}
LANDSCAPE_CHAR: dict[str, str] = {name: ch for ch, name in LANDSCAPE_OF_CHAR.items()}
# Before the starting skills are set, a warband's 20 mana all lie in its supply (K-R25).
SETUP_PHASES = ("placement", "skills")
# Phases in which the current warband may hold unallocated income (K-R22, K-R24): a
# Destiny or Quake roll still to come would overwrite it.
INCOME_PHASES = ("quake", "quake_allocate", "turn", "move_roll", "move", "after_move", "allocate")


# --- piece ids -----------------------------------------------------------------------


def piece_id(state: KolossusState, piece: int) -> str:
    """``"blue-C"``, ``"blue-G1"`` … ``"blue-W5"``: colour, class and number in the class."""
    wb, slot = divmod(piece, PIECES_PER_WARBAND)
    cls = PIECE_CLASS[slot]
    number = PIECE_CLASS[: slot + 1].count(cls)
    suffix = cls if cls == "C" else f"{cls}{number}"
    return f"{state.warbands[wb].colour}-{suffix}"


def piece_id_words(piece: str) -> str:
    """A piece id ``"blue-W1"`` as players say it: ``"Tua'tha's Warrior 1"`` (the Colossus
    has no number: ``"blue-C"`` is ``"Tua'tha's Colossus"``); anything else unchanged."""
    colour, sep, suffix = piece.strip().partition("-")
    if not sep or not suffix or suffix[0] not in CLASS_NAME:
        return piece
    name = f"{WARBAND_OF_COLOUR.get(colour, colour)}'s {CLASS_NAME[suffix[0]]}"
    return f"{name} {suffix[1:]}" if suffix[1:] else name


def parse_piece_id(state: KolossusState, text: str) -> int:
    for piece in range(PIECE_COUNT):
        if piece_id(state, piece) == text.strip():
            return piece
    raise impossible(
        f"There is no miniature {text!r}; pieces are named like blue-C, blue-G1, blue-W5."
    )


# --- templates -----------------------------------------------------------------------


def templates(
    state: KolossusState,
) -> tuple[CorrectPiece | CorrectMana | CorrectCrystals | CorrectLandscape | CorrectRegion, ...]:
    """Every miniature, each warband's mana (Ch.2+), the crystals, one landscape, one region."""
    out: list[CorrectPiece | CorrectMana | CorrectCrystals | CorrectLandscape | CorrectRegion] = []
    for piece, at in enumerate(state.minis):
        row, col = row_col(at) if at >= 0 else (None, None)
        out.append(CorrectPiece(piece=piece_id(state, piece), row=row, col=col))
    if state.options.chapter >= 2 and state.phase not in SETUP_PHASES:
        for band in state.warbands:
            out.append(mana_template(band))
    captured = [0, 0, 0, 0]
    for cap in state.captures:
        captured[cap.warband] += cap.count
    by_colour = {band.colour: captured[wb] for wb, band in enumerate(state.warbands)}
    out.append(CorrectCrystals(citadel=state.crystals, supply=state.crystal_supply, **by_colour))
    out.append(
        CorrectLandscape(
            row=0, col=0, landscape=LANDSCAPE_OF_CHAR.get(landscape_at(state.terrain, 0), "bare")
        )
    )
    out.append(CorrectRegion(region="row5", direction="east", distance=1))
    return tuple(out)


def mana_template(band: WarbandState) -> CorrectMana:
    charged = tuple(c >= WEAPON_CHARGE for c in band.charges)
    return CorrectMana(
        warband=band.colour,
        supply=band.supply,
        warrior_attack=band.skills[0],
        warrior_defence=band.skills[1],
        guardian_attack=band.skills[2],
        guardian_defence=band.skills[3],
        colossus_attack=band.skills[4],
        colossus_defence=band.skills[5],
        pool=band.pool,
        income=band.income,
        sword=charged[0],
        whip=charged[1],
        spear=charged[2],
        hammer=charged[3],
    )


# --- the corrections ------------------------------------------------------------------


def correct_piece(state: KolossusState, action: CorrectPiece) -> tuple[KolossusState, str]:
    piece = parse_piece_id(state, action.piece)
    name = piece_id_words(action.piece)
    if (action.row is None) != (action.col is None):
        raise impossible("Give both a row and a column, or neither for a beaten miniature.")
    at = state.minis[piece]
    to = -1 if action.row is None or action.col is None else square(action.row, action.col)
    if to == at:
        where = "beaten" if at < 0 else f"on {square_text(at)}"
        raise nothing_to_correct(f"{name} is already {where}")
    minis = list(state.minis)
    minis[piece] = to
    beats = state.beats
    if to >= 0:
        other = occupants(state.minis)[to]
        if other >= 0:
            raise impossible(
                f"{piece_name(state, other)} already stands on {square_text(to)}: two miniatures "
                "cannot share a square."
            )
    else:
        beats = (*beats, BeatRecord(round=state.round, piece=piece, by=None, cause="correction"))
    before = "beaten" if at < 0 else square_text(at)
    after = "beaten" if to < 0 else square_text(to)
    new = state.evolve({"minis": tuple(minis), "beats": beats})
    return new, f"{name}: {before} → {after}."


def correct_mana(state: KolossusState, action: CorrectMana) -> tuple[KolossusState, str]:
    if state.options.chapter < 2:
        raise impossible("There is no mana before Chapter 2.")
    if state.phase in SETUP_PHASES:
        raise impossible("Put the starting 4 mana on the skills first.", "K-R25")
    wb = next(i for i, band in enumerate(state.warbands) if band.colour == action.warband)
    band = state.warbands[wb]
    name = warband_name(state, wb)
    charges = _checked_mana(state, action, wb)
    new_band = band.evolve(
        {
            "supply": action.supply,
            "skills": action.skills(),
            "pool": action.pool,
            "income": action.income,
            "charges": charges,
        }
    )
    if new_band == band:
        raise nothing_to_correct(f"{name}'s mana already lies like this")
    bands = list(state.warbands)
    bands[wb] = new_band
    new_state = state.evolve({"warbands": (bands[0], bands[1], bands[2], bands[3])})
    return new_state, f"{name}'s mana: " + ", ".join(_mana_changes(band, new_band)) + "."


def _checked_mana(state: KolossusState, action: CorrectMana, wb: int) -> tuple[int, ...]:
    """The weapon charges of a mana correction of warband ``wb``, once its counts are
    possible: the pool and the weapons of the chapter, income only on the current
    warband's turn (K-R24), all adding up to the warband's 20 mana."""
    options = state.options
    band = state.warbands[wb]
    name = warband_name(state, wb)
    values = {
        "supply": action.supply,
        "pool": action.pool,
        "income": action.income,
        **dict(zip(_SKILL_LABELS, action.skills(), strict=True)),
    }
    for label, value in values.items():
        check_count(value, f"{name}'s {label}")
    charges = tuple(WEAPON_CHARGE if on else 0 for on in action.charged())
    if options.chapter < 3 and (action.pool or any(charges)):
        raise impossible("There is no mana pool and no Titan Weapon before Chapter 3.", "K-R24")
    if action.pool > POOL_LIMIT:
        raise impossible(f"The mana pool holds at most {POOL_LIMIT}.", "K-R36")
    if options.titan_weapons == "one_per_warband":
        for weapon, charge in zip(WEAPONS, charges, strict=True):
            if charge and weapon != band.weapon:
                raise impossible(
                    f"{name}'s Titan Weapon is not the {WEAPON_NAME[weapon]}.", "K-R26"
                )
    current = (state.first + state.turn) % 4
    if action.income and (wb != current or state.phase not in INCOME_PHASES):
        raise impossible(
            "Only the warband whose turn it is holds unallocated income, after its roll.",
            "K-R24",
        )
    total = sum(action.skills()) + action.supply + action.pool + action.income + sum(charges)
    if total != MANA_PER_WARBAND:
        raise impossible(
            f"A warband has {MANA_PER_WARBAND} mana tokens; these add up to {total} "
            "(adjust the supply)."
        )
    return charges


def _mana_changes(band: WarbandState, new_band: WarbandState) -> list[str]:
    """What a mana correction changed (``"supply 5 → 3"`` …), in the panel's order."""
    changed = []
    for label, old, new in (
        ("supply", band.supply, new_band.supply),
        *zip(_SKILL_LABELS, band.skills, new_band.skills, strict=True),
        ("pool", band.pool, new_band.pool),
        ("income", band.income, new_band.income),
        *(
            (f"{WEAPON_NAME[w]} charge", a, b)
            for w, a, b in zip(WEAPONS, band.charges, new_band.charges, strict=True)
        ),
    ):
        if old != new:
            changed.append(f"{label} {change_text(old, new)}")
    return changed


_SKILL_LABELS = tuple(SKILL_NAMES[slot] for slot in SKILL_SLOTS)


def correct_crystals(state: KolossusState, action: CorrectCrystals) -> tuple[KolossusState, str]:
    """Captured counts per warband; an added crystal counts as the latest capture (K-R19)."""
    wanted = [getattr(action, band.colour) for band in state.warbands]
    for label, value in (("the Citadel", action.citadel), ("the supply", action.supply)):
        check_count(value, f"Crystals on {label}")
    for wb, value in enumerate(wanted):
        check_count(value, f"Crystals captured by {warband_name(state, wb)}")
    total = action.citadel + action.supply + sum(wanted)
    if total != CRYSTALS:
        raise impossible(f"There are {CRYSTALS} Crystals of Time; these add up to {total}.")
    have = [0, 0, 0, 0]
    for cap in state.captures:
        have[cap.warband] += cap.count
    if (action.citadel, action.supply, wanted) == (state.crystals, state.crystal_supply, have):
        raise nothing_to_correct("the crystals already lie like this")
    captures = list(state.captures)
    for wb in range(4):
        excess = have[wb] - wanted[wb]
        for i in range(len(captures) - 1, -1, -1):
            if excess <= 0:
                break
            cap = captures[i]
            if cap.warband != wb:
                continue
            take = min(excess, cap.count)
            excess -= take
            if take == cap.count:
                del captures[i]
            else:
                captures[i] = cap.evolve({"count": cap.count - take})
    for wb in range(4):
        if wanted[wb] > have[wb]:
            captures.append(
                CrystalCapture(round=state.round, warband=wb, count=wanted[wb] - have[wb])
            )
    new = state.evolve(
        {
            "crystals": action.citadel,
            "crystal_supply": action.supply,
            "captures": tuple(captures),
        }
    )
    captured = ", ".join(
        f"{warband_name(state, wb)} {change_text(have[wb], wanted[wb])}"
        for wb in range(4)
        if have[wb] != wanted[wb]
    )
    text = (
        f"Crystals on the Citadel {change_text(state.crystals, action.citadel)}, "
        f"supply {change_text(state.crystal_supply, action.supply)}"
        + (f", captured: {captured}" if captured else "")
        + "."
    )
    return new, text


def correct_landscape(state: KolossusState, action: CorrectLandscape) -> tuple[KolossusState, str]:
    sq = square(action.row, action.col)
    old = landscape_at(state.terrain, sq)
    new = LANDSCAPE_CHAR[action.landscape]
    if old == "C":
        raise impossible(
            f"The Citadel of Time stands on {square_text(sq)}; it never leaves the board.", "K-R41"
        )
    if old == new:
        raise nothing_to_correct(f"{square_text(sq)} already holds {_landscape(old)}")
    if new != ".":
        count = "".join(state.terrain).count(new) + 1
        if count > LANDSCAPE_TOTALS[new]:
            raise impossible(
                f"The game has only {LANDSCAPE_TOTALS[new]} {LANDSCAPE_NAME[new]} landscapes."
            )
    rows = [list(row) for row in state.terrain]
    rows[action.row][action.col] = new
    terrain = tuple("".join(row) for row in rows)
    text = f"{square_text(sq)}: {_landscape(old)} → {_landscape(new)}."
    return state.evolve({"terrain": terrain}), text


def _landscape(ch: str) -> str:
    return LANDSCAPE_NAME.get(ch, "bare board")


def correct_region(state: KolossusState, action: CorrectRegion) -> tuple[KolossusState, str]:
    """The rigid (or push) shift of the option; pieces pushed off are beaten (B.2)."""
    sign = region_sign(action.region[:3], action.direction)
    if sign is None:
        raise impossible("A row moves east or west, a column north or south.", "K-R04")
    shift = shift_region(
        state.terrain,
        state.minis,
        action.region,
        sign,
        action.distance,
        state.options.region_move_model,
    )
    if shift.citadel_falls:
        raise impossible("The Citadel of Time never leaves the board.", "K-R41")
    if shift.terrain == state.terrain and shift.minis == state.minis:
        raise nothing_to_correct(f"{region_text(action.region)} holds nothing that would move")
    beats = tuple(
        BeatRecord(round=state.round, piece=p, by=None, cause="correction")
        for p in shift.fallen_pieces
    )
    new = state.evolve(
        {"terrain": shift.terrain, "minis": shift.minis, "beats": state.beats + beats}
    )
    fallen = f", {words.count(len(shift.fallen_pieces), 'miniature')} beaten" if beats else ""
    by = words.count(action.distance, "square")
    text = f"{region_text(action.region).capitalize()} shifted {action.direction} by {by}{fallen}."
    return new, text


def after_correction(state: KolossusState) -> Handled:
    """The consequences a corrected board has under the rules.

    A warband without miniatures loses its alliance the game (K-R20). A chosen class
    with no miniature left to move was never a legal choice (K-R08): the activation
    is cancelled and its activation points come back. A Colossus waiting to use its Spear or Hammer
    ends its activation when it was beaten or has no target any more.
    """
    state, ended = check_elimination(state)
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
            f"No {CLASS_NAME[cls]} is left to move: the activation is cancelled; "
            f"{words.count(refund, 'activation point')} left."
        )
        return state, (KolossusEvent(text=text),)
    if state.phase == "after_move" and state.active_piece is not None:
        piece = state.active_piece
        if state.minis[piece] < 0:  # a Colossus can be beaten like any miniature (K-R14)
            state = state.evolve({"phase": "turn", **NO_ACTIVATION})
            return state, (KolossusEvent(text="The beaten Colossus's activation ends."),)
        if not post_move_targets(state, piece):
            return end_activation(state, piece)
    return state, ()


def activation_has_piece(state: KolossusState) -> bool:
    """Whether the chosen class still has a miniature to move this activation (K-R08)."""
    cls = state.active_class
    wb = (state.first + state.turn) % 4
    base = wb * PIECES_PER_WARBAND
    return any(
        class_of(p) == cls and state.minis[p] >= 0 and p not in state.activated
        for p in range(base, base + PIECES_PER_WARBAND)
    )


__all__ = [
    "CRYSTALS",
    "activation_has_piece",
    "after_correction",
    "correct_crystals",
    "correct_landscape",
    "correct_mana",
    "correct_piece",
    "correct_region",
    "parse_piece_id",
    "piece_id",
    "templates",
]
