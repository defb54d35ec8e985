"""Which colour each highlight role gets, and which role wins when a cell has several.

Colours are *perceived* colours (before gamma): the renderer applies brightness, gamma
and the power limit afterwards. The Kolossus palette gives the four warbands their
colours from the rules (Tua'tha Blue, Krell Yellow, Ishtari Green, Firbolg Red); which
seat plays which warband is the game's business, so ``player`` indexes warbands in that
order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.highlights import Role
from firmware_bridge.leds.strip import RGB

if TYPE_CHECKING:  # the board views load with the first game, not with the LED driver
    from companion.views import BoardKind

BLUE: RGB = (0, 40, 255)
YELLOW: RGB = (255, 190, 0)
GREEN: RGB = (0, 255, 40)
RED: RGB = (255, 0, 0)

#: Kolossus warband colours in warband order: Tua'tha, Krell, Ishtari, Firbolg.
KOLOSSUS_WARBAND_COLOURS: tuple[RGB, ...] = (BLUE, YELLOW, GREEN, RED)

#: Island games have up to 5 players; distinct hues that stay apart after gamma.
ISLAND_PLAYER_COLOURS: tuple[RGB, ...] = (BLUE, YELLOW, GREEN, RED, (200, 0, 255))

#: Roles whose colour is the colour of ``Highlight.player``.
PLAYER_COLOURED_ROLES: frozenset[Role] = frozenset({Role.CONTROL, Role.BANNER, Role.SETUP})

#: The colour names of the Kolossus warbands in the order of their LED colours (the
#: views name a miniature's colour, the palette indexes it).
KOLOSSUS_COLOUR_NAMES: tuple[str, ...] = ("blue", "yellow", "green", "red")

#: First wins. What a player must do or decide now outranks the background board state.
ROLE_PRIORITY: tuple[Role, ...] = (
    Role.FIX,
    Role.REMOVE,
    Role.PLACE,
    Role.SETUP,
    Role.SELECTED,
    Role.SUGGESTED,
    Role.CAPTURABLE,
    Role.TARGET,
    Role.FALLS_OFF,
    Role.PATH,
    Role.REACHABLE,
    Role.REBIRTH,
    Role.SELECTABLE,
    Role.HARVESTABLE,
    Role.QUAKE_REGION,
    Role.BLOCKED,
    Role.ROLL,
    Role.BEAST,
    Role.CITADEL,
    Role.BANNER,
    Role.CONTROL,
)

_DEFAULT_ROLE_COLOURS: dict[Role, RGB] = {
    Role.SELECTABLE: (255, 255, 255),
    Role.SELECTED: (255, 255, 255),
    Role.REACHABLE: (0, 255, 0),
    Role.PATH: (0, 200, 170),
    Role.CAPTURABLE: (255, 0, 0),
    Role.BLOCKED: (140, 50, 0),
    Role.TARGET: (255, 0, 200),
    Role.REBIRTH: (120, 180, 255),
    Role.QUAKE_REGION: (255, 140, 0),
    Role.FALLS_OFF: (255, 40, 0),
    Role.CITADEL: (170, 220, 255),
    Role.CONTROL: (255, 255, 255),
    Role.BEAST: (150, 0, 255),
    Role.BANNER: (255, 255, 255),
    Role.HARVESTABLE: (180, 255, 0),
    Role.FIX: (255, 255, 255),
    Role.REMOVE: RED,  # a sensing board: take the piece off this square
    Role.PLACE: GREEN,  # a sensing board: put the piece back on this square
    Role.ROLL: (255, 110, 170),  # rose: the roller's pieces, apart from every warband
    Role.SETUP: (255, 255, 255),  # guided setup: a seat's colour, else white (the board)
    Role.SUGGESTED: (0, 150, 255),  # a lesson's suggestion: what its move acts upon
}

#: Relative level per role (1.0 = the full colour): background roles stay dimmer so
#: that what the player must act on stands out.
_DEFAULT_ROLE_LEVELS: dict[Role, float] = {
    Role.SELECTABLE: 0.6,
    Role.BLOCKED: 0.5,
    Role.PATH: 0.7,
    Role.CONTROL: 0.35,
}


@dataclass(frozen=True)
class Palette:
    """Role → colour, player → colour, and per-role level."""

    roles: Mapping[Role, RGB] = field(default_factory=lambda: dict(_DEFAULT_ROLE_COLOURS))
    players: tuple[RGB, ...] = KOLOSSUS_WARBAND_COLOURS
    levels: Mapping[Role, float] = field(default_factory=lambda: dict(_DEFAULT_ROLE_LEVELS))
    priority: tuple[Role, ...] = ROLE_PRIORITY

    def __post_init__(self) -> None:
        missing = [role.value for role in Role if role not in self.roles]
        if missing:
            raise ValueError(f"The palette has no colour for: {', '.join(missing)}.")
        if not self.players:
            raise ValueError("The palette needs at least one player colour.")
        unranked = [role.value for role in Role if role not in self.priority]
        if unranked:
            raise ValueError(f"The palette does not rank: {', '.join(unranked)}.")

    def colour(self, role: Role, player: int | None) -> RGB:
        """The full colour of ``role`` (a player's colour for control and banners)."""
        if role in PLAYER_COLOURED_ROLES and player is not None:
            return self.players[player % len(self.players)]
        return self.roles[role]

    def level(self, role: Role) -> float:
        return self.levels.get(role, 1.0)

    def rank(self, role: Role) -> int:
        """Lower rank wins when one cell has several roles."""
        return self.priority.index(role)


KOLOSSUS_PALETTE = Palette()
ISLAND_PALETTE = Palette(players=ISLAND_PLAYER_COLOURS)


def palette_for_board(kind: BoardKind | None) -> Palette:
    """The palette of a kind of board (``Rules.board_kind``): warband colours on the
    Kolossus grid, the island players' colours on an island (and for card games, whose
    LEDs only ever show a fix-the-table walk-through)."""
    return KOLOSSUS_PALETTE if kind == "grid" else ISLAND_PALETTE
