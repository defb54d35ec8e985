"""Game-specific facts panels (registered by game name; generic otherwise).

Read only the state fields each game documents; anything missing falls back to the
generic panel so a changed state model degrades to a plainer screen, not a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.rules import AnyRules
from firmware_bridge.leds.palette import ISLAND_PLAYER_COLOURS
from kiosk.presenters.board import Decoration
from kiosk.presenters.common import RGB
from kiosk.presenters.panels import GamePanel, PanelRow, generic_panel, register_panel

COLOSSI_TO_BUILD = 10  # Builders: the Colossi counter runs to 10 (BC-R01)
SOLO_COLOSSUS_CARDS = 11


@register_panel("builders")
def builders_panel(rules: AnyRules, state: Any) -> GamePanel:
    """Runes and hand sizes per player, Colossi built k/10, the deck, the turn's actions."""
    try:
        players = tuple(state.players)
        builds = tuple(state.builds_by(seat) for seat in range(len(players)))
        rows = (
            PanelRow("Runes", tuple(str(r) for r in state.runes)),
            PanelRow("Hand", tuple(str(h) for h in state.hands)),
            PanelRow("Built", tuple(str(b) for b in builds)),
        )
        used = ", ".join(a.capitalize() for a in state.actions_used) or "none yet"
        mode = {
            "open": "Curse, or gain cards",
            "curse": "cursed this turn",
            "actions": f"actions used: {used}",
        }.get(state.mode, state.mode)
        facts = [
            f"Colossi built: {state.built}/{COLOSSI_TO_BUILD}",
            f"Parts deck: {state.deck} cards",
            f"Turn {state.turn}: {mode}",
        ]
        for seat, due in enumerate(state.zero_checks):
            if due is not None:  # BC-R10/BC-R11: a player at 0 Runes may win
                facts.append(f"{players[seat]} at 0 Runes: wins on turn {due} if still at 0")
        if state.tied:
            facts.append("Tie: " + " or ".join(players[s] for s in state.tied) + " — you decide")
        last = state.builds[-1] if state.builds else None
        if last is not None and last.corrected:
            facts.append(f"Last build: {players[last.player]}, set by a correction")
        elif last is not None:
            facts.append(
                f"Last build: {players[last.player]}, slot {last.slot}, {last.rune_cost} Runes"
            )
        return GamePanel(
            columns=players,
            rows=rows,
            facts=tuple(facts),
            highlight_column=rules.current_player(state),
        )
    except (AttributeError, TypeError, IndexError):
        return generic_panel(rules, state)


def _phase_text(phase: str) -> str:
    return phase.replace("_", " ")


@register_panel("colossus_solo")
def colossus_solo_panel(rules: AnyRules, state: Any) -> GamePanel:
    """Trackers, deck progress, this round's step and the current Colossus card."""
    try:
        number = SOLO_COLOSSUS_CARDS - state.colossus_left + (0 if state.result else 1)
        rows = (
            PanelRow("Weakness", (str(state.weakness),)),
            PanelRow("Grip", (str(state.grip),)),
            PanelRow("Card", (f"{min(number, SOLO_COLOSSUS_CARDS)}/{SOLO_COLOSSUS_CARDS}",)),
            PanelRow("Deck", (str(state.action_deck),)),
            PanelRow("Discard", (str(state.discard),)),
            PanelRow("In play", (str(state.playing_area),)),
            PanelRow("Hand", (str(state.hand),)),
            PanelRow("Advanced", (str(state.advanced_deck),)),
        )
        facts = [f"Round {state.round}: {_phase_text(state.phase)}"]
        if state.stats is not None:
            facts.append(f"Stats: {state.stats.describe()}")
        card = state.current_card
        if card is not None:
            facts.append(f"Colossus card: {_card_text(card)}")
        if state.final_blow is not None:
            fb = state.final_blow
            facts.append(
                f"Final Blow: {fb.n_cards} cards, need Attack {fb.attack_req}, Grip {fb.grip_req}"
            )
        if state.destroyed:
            facts.append(f"Cards destroyed: {state.destroyed}")
        return GamePanel(columns=("",), rows=rows, facts=tuple(facts), highlight_column=None)
    except (AttributeError, TypeError):
        return generic_panel(rules, state)


@register_panel("kolossus")
def kolossus_panel(rules: AnyRules, state: Any) -> GamePanel:
    """Warbands per player, crystals captured, miniatures left; the Citadel's crystals."""
    try:
        players = tuple(state.players)
        names = {"blue": "Tua'tha", "yellow": "Krell", "green": "Ishtari", "red": "Firbolg"}
        seats = range(len(players))
        warbands = [[w for w, wb in enumerate(state.warbands) if wb.player == s] for s in seats]
        crystals = [sum(c.count for c in state.captures if c.warband in warbands[s]) for s in seats]
        alive = [
            sum(1 for p, sq in enumerate(state.minis) if sq >= 0 and p // 8 in warbands[s])
            for s in seats
        ]
        rows = [
            PanelRow("Crystals", tuple(str(c) for c in crystals)),
            PanelRow("Pieces", tuple(str(a) for a in alive)),
        ]
        bands = tuple(
            f"{players[s]}: "
            + " + ".join(names.get(str(state.warbands[w].colour), "?") for w in warbands[s])
            for s in seats
        )
        if state.options.chapter >= 2:
            rows.append(
                PanelRow(
                    "Mana",
                    tuple(
                        str(sum(state.warbands[w].mana_total() for w in warbands[s])) for s in seats
                    ),
                )
            )
        current = (state.first + state.turn) % 4
        colour = KOLOSSUS_COLOURS.get(str(state.warbands[current].colour))
        facts = (
            *bands,
            f"Round {state.round}/12" if state.round else "Invasion",
            f"Crystals on the Citadel: {state.crystals} (supply {state.crystal_supply})",
            f"Step: {_phase_text(state.phase)}",
        )
        return GamePanel(
            columns=players,
            rows=tuple(rows),
            facts=facts,
            highlight_column=rules.current_player(state),
            turn_colour=None if state.result else colour,
        )
    except (AttributeError, TypeError, IndexError):
        return generic_panel(rules, state)


def island_panel(rules: AnyRules, state: Any) -> GamePanel:
    """Gold, Acolytes and cards in hand, perks; the Beasts; the Age and Mantle (Colossi)."""
    try:
        players = tuple(state.players)
        rows = [
            PanelRow("Gold", tuple(str(g) for g in state.gold)),
            PanelRow("Acolytes", tuple(str(a) for a in state.acolytes_in_hand)),
            PanelRow("Cards", tuple(str(c) for c in state.cards_in_hand)),
            PanelRow(
                "Colossus",
                tuple(
                    ("tipped" if tipped else (space or "—"))
                    for space, tipped in zip(state.colossi, state.tipped, strict=False)
                ),
            ),
        ]
        if any(state.perks):
            rows.append(PanelRow("Perk", tuple((p or "—")[:10] for p in state.perks)))
        facts = [f"{b.name.capitalize()} on {b.space}" for b in state.beasts]
        if getattr(state, "age_name", ""):
            facts.insert(0, f"Age: {state.age_name}, round {getattr(state, 'rounds', '?')}")
        if hasattr(state, "mantle") and 0 <= state.mantle < len(players):
            facts.append(f"Mantle: {players[state.mantle]}")
        return GamePanel(
            columns=players,
            rows=tuple(rows),
            facts=tuple(facts),
            highlight_column=rules.current_player(state),
        )
    except (AttributeError, TypeError, IndexError):
        return generic_panel(rules, state)


register_panel("beast_master")(island_panel)
register_panel("colossi")(island_panel)


def _card_text(card: Any) -> str:
    described = card.describe() if hasattr(card, "describe") else "revealed"
    name = getattr(card, "name", "")
    return f"{name}: {described}" if name else str(described)


# --- board decorations: what stands on each cell (the highlights come from the rules) ---

Decorations = tuple[dict[str, RGB], tuple[Decoration, ...]]
DecorationBuilder = Callable[[Any], Decorations]
_DECORATIONS: dict[str, DecorationBuilder] = {}

#: Kolossus landscape shades by level 1..5 (bare board → Citadel), dim so highlights win.
KOLOSSUS_LEVEL_SHADES: tuple[RGB, ...] = (
    (44, 48, 56),
    (40, 70, 44),
    (82, 72, 46),
    (96, 96, 104),
    (120, 110, 150),
)
KOLOSSUS_COLOURS: dict[str, RGB] = {
    "blue": (90, 150, 255),
    "yellow": (255, 205, 40),
    "green": (60, 220, 110),
    "red": (255, 80, 80),
}
KOLOSSUS_PIECE_CLASS = ("C", "G", "G", "W", "W", "W", "W", "W")
CRYSTAL: RGB = (170, 225, 255)
ISLAND_SPACE = (48, 56, 66)
ISLAND_WATER = (30, 60, 100)


def register_decorations(game: str) -> Callable[[DecorationBuilder], DecorationBuilder]:
    def wrap(builder: DecorationBuilder) -> DecorationBuilder:
        _DECORATIONS[game] = builder
        return builder

    return wrap


def board_decorations(game: str, state: Any) -> Decorations:
    """Base colours (landscape, water) and pieces per cell; empty for unknown games."""
    builder = _DECORATIONS.get(game)
    if builder is None:
        return {}, ()
    try:
        return builder(state)
    except (AttributeError, TypeError, IndexError, KeyError, ValueError):
        return {}, ()


@register_decorations("kolossus")
def kolossus_decorations(state: Any) -> Decorations:
    """Landscape levels as shades, miniatures as class letters in their warband colour."""
    levels = {".": 1, "W": 2, "H": 3, "M": 4, "C": 5}
    base: dict[str, RGB] = {}
    decorations: list[Decoration] = []
    for r, row in enumerate(state.terrain):
        for c, ch in enumerate(row):
            base[f"{r},{c}"] = KOLOSSUS_LEVEL_SHADES[levels.get(ch, 1) - 1]
            if ch == "C" and state.crystals > 0:  # the crystals waiting on the Citadel
                decorations.append(
                    Decoration(cell=f"{r},{c}", text=f"×{state.crystals}", colour=CRYSTAL)
                )
    for piece, square in enumerate(state.minis):
        if square < 0:
            continue
        warband = state.warbands[piece // 8]
        colour = KOLOSSUS_COLOURS.get(str(warband.colour), (235, 235, 235))
        r, c = divmod(square, 11)
        decorations.append(
            Decoration(cell=f"{r},{c}", text=KOLOSSUS_PIECE_CLASS[piece % 8], colour=colour)
        )
    return base, tuple(decorations)


def _light(colour: RGB) -> RGB:
    """A player colour lifted towards white: saturated blue text is unreadable at night."""
    return tuple(round(c + (255 - c) * 0.45) for c in colour)  # type: ignore[return-value]


def _island_decorations(state: Any) -> Decorations:
    """Water spaces darker; Acolytes per seat and the Colossi as short texts."""
    base: dict[str, RGB] = {}
    decorations: list[Decoration] = []
    ids = [s.id for s in state.board.spaces]
    for space_id, definition, contents in zip(ids, state.board.spaces, state.spaces, strict=False):
        water = bool(definition.water or contents.water)
        base[space_id] = ISLAND_WATER if water else ISLAND_SPACE
        for seat, count in enumerate(contents.acolytes):
            if count:
                colour = _light(ISLAND_PLAYER_COLOURS[seat % len(ISLAND_PLAYER_COLOURS)])
                decorations.append(Decoration(cell=space_id, text=str(count), colour=colour))
    for seat, space in enumerate(state.colossi):
        if space:
            colour = _light(ISLAND_PLAYER_COLOURS[seat % len(ISLAND_PLAYER_COLOURS)])
            decorations.append(Decoration(cell=space, text="K", colour=colour))
    return base, tuple(decorations)


register_decorations("beast_master")(_island_decorations)
register_decorations("colossi")(_island_decorations)
