"""Text measured once per font and string: the word wrapping of every label, cached.

A label whose text wraps (every button, row and facts line here: they have a width)
is laid out by Kivy word by word, asking the text provider for each word's size. The
SDL2 provider asks SDL_ttf every time, which shapes the string anew: measured here,
1.4 M instructions to lay out one 45-character action row, of which 0.2 M render it.
Kivy's own hook for this is ``LabelBase.get_cached_extents`` ("a cached version of
get_extents", used by its layout and shortening), which the SDL2 provider leaves
uncached; :func:`install` gives it a cache. Kivy also asks the provider's own
``get_extents`` for the width of a space before it lays out any text (twice for each
texture, ≈35 k instructions each time: about 0.5 M of a card game's tap, which renders a
dozen textures); that goes through the same cache (:func:`cached_get_extents`).

The cache maps each font (the options the provider's font id is made of, and those that
change a measurement) to the sizes of the strings measured in it. Words repeat from move to move
("attack", "Kolossus", numbers, names), so nearly every lookup hits; each font's table
is emptied when it reaches :data:`MAX_STRINGS_PER_FONT`, so memory stays bounded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the provider loads when the app installs the cache
    from kivy.core.text import Label as CoreLabel

#: Strings kept per font before its table starts again.
MAX_STRINGS_PER_FONT = 4096

#: The options besides the font that change a measurement.
MEASURING_OPTIONS = ("font_hinting", "font_kerning", "font_direction", "font_script_name")
#: The options the SDL2 provider makes its font id of (``_get_font_id``, Kivy 2.3.1).
FONT_ID_OPTIONS = ("font_size", "font_name_r", "bold", "italic", "underline", "strikethrough")
#: What a font's table is keyed by: their values, read as they are (the provider's own
#: id joins them as strings, ≈8 k instructions; a card game's tap asks ≈30 times).
KEY_OPTIONS = (*FONT_ID_OPTIONS, *MEASURING_OPTIONS)

Extents = tuple[int, int]
_sizes: dict[tuple[object, ...], dict[str, Extents]] = {}


def cached_extents(label: CoreLabel) -> Callable[[str], Extents]:
    """The size of a string in ``label``'s current font, measured once per string."""
    key = font_key(label)
    sizes = _sizes.get(key)
    if sizes is None:
        sizes = _sizes[key] = {}
    measure = label.uncached_extents if hasattr(label, "uncached_extents") else label.get_extents

    def extents(text: str) -> Extents:
        size = sizes.get(text)
        if size is None:
            if len(sizes) >= MAX_STRINGS_PER_FONT:
                sizes.clear()
            size = sizes[text] = measure(text)
        return size

    return extents


def font_key(label: CoreLabel) -> tuple[object, ...]:
    """What the sizes of ``label``'s strings depend on (its font table's key)."""
    return tuple(map(label.options.get, KEY_OPTIONS))


def cached_get_extents(label: CoreLabel, text: str) -> Extents:
    """The provider's ``get_extents`` through the cache (its own measure is kept as
    ``uncached_extents``)."""
    return cached_extents(label)(text)


def install() -> None:
    """Make the SDL2 text provider's ``get_cached_extents`` and ``get_extents`` cache
    (once per process)."""
    from kivy.core.text import Label as CoreLabel

    provider: type[CoreLabel] = CoreLabel
    if provider.get_cached_extents is not cached_extents:
        provider.get_cached_extents = cached_extents
    if provider.get_extents is not cached_get_extents:
        provider.uncached_extents = provider.get_extents
        provider.get_extents = cached_get_extents


def cached_strings() -> int:
    """How many measured strings the cache holds (for tests and the memory bench)."""
    return sum(len(sizes) for sizes in _sizes.values())


__all__ = [
    "MAX_STRINGS_PER_FONT",
    "cached_extents",
    "cached_get_extents",
    "cached_strings",
    "install",
]
