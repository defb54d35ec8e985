"""Text measured once per font and string (kiosk/fonts/extents.py): the same sizes and
the same wrapped lines as Kivy's own measuring, in bounded memory."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window  # noqa: F401  (textures need the GL context)

from kiosk import fonts
from kiosk.fonts import extents

TEXTS = st.text(alphabet=st.sampled_from("abc XYZ 0123 →✓,.:-()éÅ"), min_size=0, max_size=60)


@pytest.fixture(autouse=True, scope="module")
def _installed() -> None:
    fonts.register_default_font()  # installs the cache, as the kiosk's layout files do


def _layout(text: str, width: int | None, font_size: int) -> tuple[Any, ...]:
    label = CoreLabel(text=text, font_size=font_size, text_size=(width, None), halign="left")
    label.refresh()
    return tuple(label.texture.size), bytes(label.texture.pixels)


def _uncached(label: Any) -> Any:
    return label.uncached_extents


def test_registering_the_font_installs_the_cache() -> None:
    provider: Any = CoreLabel
    assert provider.get_cached_extents is extents.cached_extents
    assert provider.get_extents is extents.cached_get_extents


def test_a_space_is_measured_once_per_font() -> None:
    """Kivy asks every texture's space width of ``get_extents``: answered from the cache,
    the same as the provider's own measure."""
    label = CoreLabel(text="", font_size=37)  # a font no other test measures: not cached yet
    calls: list[str] = []
    own = label.uncached_extents

    def counted(text: str) -> tuple[int, int]:
        calls.append(text)
        return tuple(own(text))

    label.uncached_extents = counted
    first = label.get_extents(" ")
    assert label.get_extents(" ") == first == tuple(own(" "))
    assert calls == [" "]


@settings(max_examples=60, deadline=None)
@given(text=TEXTS, width=st.sampled_from([None, 60, 140, 400]), size=st.sampled_from([13, 17]))
def test_cached_measures_lay_out_as_kivys_own(text: str, width: int | None, size: int) -> None:
    cached = _layout(text, width, size)
    provider: Any = CoreLabel
    provider.get_cached_extents = _uncached
    provider.get_extents = provider.uncached_extents
    try:
        measured = _layout(text, width, size)
    finally:
        extents.install()
    assert cached == measured


def test_each_font_keeps_its_own_sizes() -> None:
    small = CoreLabel(text="", font_size=12)
    large = CoreLabel(text="", font_size=30)
    assert (
        extents.cached_extents(small)("Kolossus")[0] < extents.cached_extents(large)("Kolossus")[0]
    )
    bold = CoreLabel(text="", font_size=12, bold=True)
    assert extents.cached_extents(bold)("WWWW") != extents.cached_extents(small)("WWWW")


def test_the_cache_stays_bounded() -> None:
    label = CoreLabel(text="", font_size=11, italic=True)  # a font no other test measures
    before = extents.cached_strings()
    measure = extents.cached_extents(label)
    for i in range(extents.MAX_STRINGS_PER_FONT + 50):
        measure(f"word{i}")
    assert extents.cached_strings() <= extents.MAX_STRINGS_PER_FONT * 8  # a few fonts in use
    assert extents.cached_strings() - before <= extents.MAX_STRINGS_PER_FONT  # this font's


def test_a_font_table_is_keyed_by_what_the_provider_makes_its_font_id_of() -> None:
    """The key reads the options themselves instead of the provider's font id (a string
    joined anew at every call): the same options, so two labels share a table exactly
    when the provider would measure them in the same font (pins Kivy 2.3.1's id)."""
    label = CoreLabel(text="", font_size=13, bold=True)
    options = label.options
    assert label._get_font_id() == "|".join(str(options[o]) for o in extents.FONT_ID_OPTIONS)
    assert extents.font_key(CoreLabel(text="other", font_size=13, bold=True)) == (
        extents.font_key(label)
    )
    assert extents.font_key(CoreLabel(text="", font_size=13)) != extents.font_key(label)
