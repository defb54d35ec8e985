"""How things look on this kiosk: the one place in the app that names a game.

Everything a screen shows about a game's state comes from the rules' typed views
(:mod:`companion.views`); what is left is taste — which colours the seats wear on the
setup screen, what the corners of a board are called, how many players a shop demo
seats — and the screen colours of the names the views use (a warband's ``"blue"``, a
terrain's ``"hills"``). A game without an entry here gets :data:`DEFAULT_LOOK`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.views import Piece, Terrain
from firmware_bridge.leds.palette import ISLAND_PLAYER_COLOURS
from kiosk.presenters.common import RGB, SEAT_COLOURS

_CORNERS = ("NW corner", "NE corner", "SE corner", "SW corner")


@dataclass(frozen=True)
class GameLook:
    """A game's presentation choices (none of them rules)."""

    #: The colour each seat wears on the setup screen, the header and the board.
    seat_colours: tuple[RGB, ...] = SEAT_COLOURS
    #: Names for the entries of a per-corner option (``colours``: "NW corner", …).
    element_labels: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: How many players the shop demo seats (within the game's own bounds).
    demo_seats: int = 2


DEFAULT_LOOK = GameLook()

LOOKS: Mapping[str, GameLook] = MappingProxyType(
    {
        "kolossus": GameLook(
            # Warbands in rule order: Tua'tha Blue, Krell Yellow, Ishtari Green, Firbolg Red.
            seat_colours=((0, 90, 255), (255, 190, 0), (0, 200, 60), (230, 30, 30)),
            element_labels=MappingProxyType({"colours": _CORNERS, "controllers": _CORNERS}),
            demo_seats=4,  # every warband on the board: the most colourful LEDs
        ),
        # Island games: the LED palette's player colours, so screen, LEDs and seats agree.
        "beast_master": GameLook(seat_colours=ISLAND_PLAYER_COLOURS, demo_seats=3),
        "colossi": GameLook(seat_colours=ISLAND_PLAYER_COLOURS, demo_seats=3),
        "colossus_solo": GameLook(demo_seats=1),
        "builders": GameLook(demo_seats=3),
    }
)


def look_for(game: str) -> GameLook:
    return LOOKS.get(game, DEFAULT_LOOK)


#: Screen colours of the colour names the views use (Kolossus warbands), readable as text.
NAMED_COLOURS: Mapping[str, RGB] = MappingProxyType(
    {
        "blue": (90, 150, 255),
        "yellow": (255, 205, 40),
        "green": (60, 220, 110),
        "red": (255, 80, 80),
    }
)
NEUTRAL: RGB = (235, 235, 235)
CRYSTAL: RGB = (170, 225, 255)

#: Unlit cells, dim so highlights win: Kolossus levels 1..5 (bare board → the Citadel),
#: island land and water.
TERRAIN_SHADES: Mapping[Terrain, RGB] = MappingProxyType(
    {
        "bare": (44, 48, 56),
        "woods": (40, 70, 44),
        "hills": (82, 72, 46),
        "mountains": (96, 96, 104),
        "citadel": (120, 110, 150),
        "land": (48, 56, 66),
        "water": (30, 60, 100),
    }
)


def lighter(colour: RGB) -> RGB:
    """A seat colour lifted towards white: saturated blue text is unreadable at night."""
    r, g, b = (round(c + (255 - c) * 0.45) for c in colour)
    return (r, g, b)


def named_colour(name: str | None) -> RGB | None:
    return None if name is None else NAMED_COLOURS.get(name, NEUTRAL)


def piece_colour(piece: Piece, seat_colours: tuple[RGB, ...]) -> RGB:
    """A piece's text colour: its own colour name, else its seat's, else neutral."""
    if piece.counters:
        return CRYSTAL
    if piece.colour is not None:
        return NAMED_COLOURS.get(piece.colour, NEUTRAL)
    if piece.player is not None and seat_colours:
        return lighter(seat_colours[piece.player % len(seat_colours)])
    return NEUTRAL
