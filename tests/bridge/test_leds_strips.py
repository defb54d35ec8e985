"""One contract for every LED backend, plus the pure parts of the real drivers.

The real ``Ws281xStrip`` and ``SpiStrip`` run against the hardware only on a Pi (skipped
elsewhere). Everywhere else they run the same contract against a recording fake device
or library, and their refusal to be built off a Pi is tested.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from companion.highlights import Highlight, Role
from firmware_bridge.config import LedsConfig
from firmware_bridge.layout import build_layout, kolossus_layout
from firmware_bridge.leds.factory import layout_of, make_strip, power_budget_of
from firmware_bridge.leds.render import render
from firmware_bridge.leds.sim import SimStrip, perceived
from firmware_bridge.leds.spi import (
    ONE_BYTE,
    SPI_HZ,
    ZERO_BYTE,
    SpiStrip,
    decode_frame,
    encode_frame,
    reset_bytes,
)
from firmware_bridge.leds.strip import Frame, HardwareUnavailable, LedStrip, StripError
from firmware_bridge.leds.ws281x import Ws281xStrip, check_ws281x_settings
from firmware_bridge.platform import Platform, detect_platform

PI4 = Platform("Raspberry Pi 4 Model B Rev 1.4")
PI5 = Platform("Raspberry Pi 5 Model B Rev 1.0")
LAPTOP = Platform(None)
ON_PI = detect_platform().is_raspberry_pi


class FakeSpi:
    """Records what a spidev.SpiDev would have been asked to do."""

    def __init__(self) -> None:
        self.max_speed_hz = 0
        self.mode = -1
        self.opened: tuple[int, int] | None = None
        self.writes: list[bytes] = []
        self.closed = False

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def writebytes2(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


class FakePixelStrip:
    """Stands in for rpi_ws281x.PixelStrip (constructing the real one off a Pi crashes)."""

    instances: ClassVar[list[FakePixelStrip]] = []

    def __init__(self, num: int, pin: int, *args: Any, **kwargs: Any) -> None:
        self.num, self.pin, self.args, self.kwargs = num, pin, args, kwargs
        self.pixels = [(0, 0, 0)] * num
        self.shown: list[Frame] = []
        FakePixelStrip.instances.append(self)

    def begin(self) -> None:
        return None

    def setPixelColorRGB(self, n: int, red: int, green: int, blue: int) -> None:
        self.pixels[n] = (red, green, blue)

    def show(self) -> None:
        self.shown.append(tuple(self.pixels))


FAKE_WS281X = types.SimpleNamespace(
    PixelStrip=FakePixelStrip,
    ws=types.SimpleNamespace(WS2811_STRIP_GRB=0x081000, WS2811_STRIP_RGB=0x100800),
)


def make_sim(count: int) -> tuple[LedStrip, Callable[[], Frame | None]]:
    strip = SimStrip(count)
    return strip, lambda: strip.last_frame


def make_fake_spi(count: int) -> tuple[LedStrip, Callable[[], Frame | None]]:
    device = FakeSpi()
    strip = SpiStrip(count, device_factory=lambda: device)
    return strip, lambda: decode_frame(device.writes[-1], count) if device.writes else None


def make_fake_ws281x(count: int) -> tuple[LedStrip, Callable[[], Frame | None]]:
    strip = Ws281xStrip(count, platform=PI4, library=FAKE_WS281X)  # type: ignore[arg-type]

    def last() -> Frame | None:
        fake = FakePixelStrip.instances[-1] if FakePixelStrip.instances else None
        return fake.shown[-1] if fake is not None and fake.shown else None

    return strip, last


def make_real_ws281x(count: int) -> tuple[LedStrip, Callable[[], Frame | None]]:
    if not ON_PI or not detect_platform().supports_ws281x:
        pytest.skip("needs a Raspberry Pi 1-4 with a strip on GPIO18 (run as root)")
    return Ws281xStrip(count), lambda: None


def make_real_spi(count: int) -> tuple[LedStrip, Callable[[], Frame | None]]:
    if not ON_PI or not Path("/dev/spidev0.0").exists():
        pytest.skip("needs a Raspberry Pi with SPI enabled and a strip on GPIO10")
    return SpiStrip(count), lambda: None


BACKENDS = {
    "sim": make_sim,
    "spi-fake-device": make_fake_spi,
    "ws281x-fake-library": make_fake_ws281x,
    "ws281x-real": make_real_ws281x,
    "spi-real": make_real_spi,
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(
    request: pytest.FixtureRequest,
) -> Iterator[tuple[LedStrip, Callable[[], Frame | None]]]:
    strip, last = BACKENDS[request.param](8)
    yield strip, last
    strip.close()


# --- the contract -------------------------------------------------------------------


def test_contract_show_before_begin_is_refused(backend: tuple[LedStrip, Any]) -> None:
    strip, _ = backend
    with pytest.raises(StripError, match="begin"):
        strip.show(((0, 0, 0),) * strip.count)


def test_contract_shows_the_frame_it_is_given(backend: tuple[LedStrip, Any]) -> None:
    strip, last = backend
    strip.begin()
    frame = tuple((i * 30, 255 - i * 30, i) for i in range(strip.count))
    strip.show(frame)
    shown = last()
    assert shown is None or shown == frame  # real hardware cannot be read back


def test_contract_refuses_malformed_frames(backend: tuple[LedStrip, Any]) -> None:
    strip, _ = backend
    strip.begin()
    with pytest.raises(StripError, match="8 pixels"):
        strip.show(((0, 0, 0),) * 7)
    with pytest.raises(StripError, match=r"0\.\.255"):
        strip.show(((0, 0, 256),) + ((0, 0, 0),) * 7)
    with pytest.raises(StripError, match=r"0\.\.255"):
        strip.show(((0, -1, 0),) + ((0, 0, 0),) * 7)


def test_contract_close_goes_dark_is_idempotent_and_final(backend: tuple[LedStrip, Any]) -> None:
    strip, last = backend
    strip.begin()
    strip.begin()  # a second begin does nothing
    strip.show(((255, 255, 255),) * strip.count)
    strip.close()
    shown = last()
    assert shown is None or shown == ((0, 0, 0),) * strip.count
    strip.close()
    assert strip.closed and not strip.started
    with pytest.raises(StripError, match="closed"):
        strip.show(((0, 0, 0),) * strip.count)
    with pytest.raises(StripError, match="closed"):
        strip.begin()


def test_contract_context_manager(backend: tuple[LedStrip, Any]) -> None:
    strip, _ = backend
    with strip as opened:
        assert opened.started
        opened.show(((1, 2, 3),) * strip.count)
    assert strip.closed


# --- SPI encoding (pure) ------------------------------------------------------------


def test_spi_encoding_sends_each_bit_as_one_byte_msb_first_in_grb_order() -> None:
    data = encode_frame(((0x80, 0x01, 0xFF),))
    body = data[1 : 1 + 24]
    green, red, blue = body[:8], body[8:16], body[16:24]
    assert green == bytes([ZERO_BYTE] * 7 + [ONE_BYTE])  # 0x01
    assert red == bytes([ONE_BYTE] + [ZERO_BYTE] * 7)  # 0x80
    assert blue == bytes([ONE_BYTE] * 8)
    assert data[0] == 0  # MOSI starts low


def test_spi_bit_timing_fits_ws2812_at_6_4_mhz() -> None:
    bit_ns = 1e9 / SPI_HZ
    assert 8 * bit_ns == pytest.approx(1250)  # one SPI byte = one WS2812 bit period
    high_zero = bin(ZERO_BYTE).count("1") * bit_ns
    high_one = bin(ONE_BYTE).count("1") * bit_ns
    assert 220 <= high_zero <= 450
    assert 580 <= high_one <= 1000
    # the high part comes first, the low part last (gaps only stretch a low phase)
    assert ZERO_BYTE & 0x80 and not ZERO_BYTE & 0x01
    assert ONE_BYTE & 0x80 and not ONE_BYTE & 0x01


def test_spi_frame_ends_with_a_latch_of_at_least_280_us() -> None:
    data = encode_frame(((1, 2, 3),) * 3)
    tail = reset_bytes()
    assert len(data) == 1 + 3 * 24 + tail
    assert set(data[-tail:]) == {0}
    assert tail * 8 / SPI_HZ >= 280e-6


@settings(max_examples=100, deadline=None)
@given(
    frame=st.lists(
        st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)), max_size=40
    ).map(tuple),
    order=st.sampled_from(["GRB", "RGB", "BGR"]),
)
def test_spi_encoding_round_trips(frame: Frame, order: str) -> None:
    assert decode_frame(encode_frame(frame, order), len(frame), order) == frame


def test_spi_refuses_bad_settings_and_non_pi() -> None:
    with pytest.raises(ValueError, match="Colour order"):
        encode_frame(((0, 0, 0),), "XYZ")
    with pytest.raises(HardwareUnavailable, match="Raspberry Pi"):
        SpiStrip(4, platform=LAPTOP)
    with pytest.raises(ValueError, match=r"6\.4 MHz"):
        SpiStrip(4, hz=20_000_000, device_factory=FakeSpi)


def test_spi_strip_opens_the_device_at_the_configured_speed() -> None:
    device = FakeSpi()
    strip = SpiStrip(3, bus=0, device=1, device_factory=lambda: device)
    strip.begin()
    assert device.opened == (0, 1) and device.max_speed_hz == SPI_HZ and device.mode == 0
    strip.close()
    assert device.closed


def test_spi_strip_explains_a_missing_device_node() -> None:
    class Missing(FakeSpi):
        def open(self, bus: int, device: int) -> None:
            raise FileNotFoundError(2, "No such file")

    strip = SpiStrip(3, device_factory=Missing)
    with pytest.raises(HardwareUnavailable, match="dtparam=spi=on"):
        strip.begin()


def test_spi_strip_can_be_built_on_a_pi_5() -> None:
    strip = SpiStrip(121, platform=PI5)
    assert strip.device_path == Path("/dev/spidev0.0")
    assert strip.bytes_per_frame == 1 + 121 * 24 + reset_bytes()


# --- rpi_ws281x: refusal off a Pi (constructing PixelStrip there crashes Python) -------


def test_ws281x_refuses_to_be_built_off_a_pi() -> None:
    with pytest.raises(HardwareUnavailable, match="only runs on a Raspberry Pi"):
        Ws281xStrip(121, platform=LAPTOP)


def test_ws281x_refuses_the_pi_5_and_points_to_spi() -> None:
    with pytest.raises(HardwareUnavailable, match='driver = "spi"'):
        Ws281xStrip(121, platform=PI5)


def test_ws281x_defaults_are_gpio18_and_dma_10() -> None:
    strip = Ws281xStrip(121, platform=PI4, library=FAKE_WS281X)  # type: ignore[arg-type]
    assert (strip.gpio_pin, strip.dma_channel, strip.method, strip.pwm_channel) == (
        18,
        10,
        "PWM",
        0,
    )
    strip.begin()
    fake = FakePixelStrip.instances[-1]
    assert (fake.num, fake.pin) == (121, 18)
    assert fake.args[:5] == (800_000, 10, False, 255, 0)
    assert fake.kwargs["strip_type"] == FAKE_WS281X.ws.WS2811_STRIP_GRB
    strip.close()


def test_ws281x_refuses_unusable_pins_and_dma_5() -> None:
    with pytest.raises(ValueError, match="GPIO17"):
        check_ws281x_settings(17, 10)
    with pytest.raises(ValueError, match="corrupt"):
        check_ws281x_settings(18, 5)
    with pytest.raises(ValueError, match="between 0 and 14"):
        check_ws281x_settings(18, 15)
    check_ws281x_settings(13, 10)  # PWM channel 1
    assert Ws281xStrip(4, gpio_pin=13, platform=PI4).pwm_channel == 1


def test_ws281x_explains_a_missing_library(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
    strip = Ws281xStrip(4, platform=PI4)
    with pytest.raises(HardwareUnavailable, match="not installed"):
        strip.begin()


# --- factory ---------------------------------------------------------------------------


def test_factory_builds_the_configured_driver() -> None:
    assert isinstance(make_strip(LedsConfig(driver="sim", count=5), LAPTOP), SimStrip)
    assert isinstance(make_strip(LedsConfig(driver="auto"), LAPTOP), SimStrip)
    assert make_strip(LedsConfig(driver="none"), LAPTOP) is None
    assert isinstance(make_strip(LedsConfig(driver="auto"), PI5), SpiStrip)
    assert isinstance(make_strip(LedsConfig(driver="auto"), PI4), Ws281xStrip)
    with pytest.raises(HardwareUnavailable):
        make_strip(LedsConfig(driver="ws281x"), LAPTOP)
    assert power_budget_of(LedsConfig(power_budget_ma=0)).budget_ma is None
    assert layout_of(LedsConfig(count=130)).led_count == 130


# --- the simulated strip's drawings -------------------------------------------------------


def test_sim_strip_keeps_a_bounded_history() -> None:
    strip = SimStrip(2, history=3)
    strip.begin()
    for value in range(10):
        strip.show(((value, 0, 0), (0, 0, 0)))
    assert [frame[0][0] for frame in strip.frames] == [7, 8, 9]
    assert strip.shown == 10


def test_sim_strip_draws_the_kolossus_board_as_png(tmp_path: Path) -> None:
    layout = kolossus_layout()
    strip = SimStrip(121)
    strip.begin()
    frame = render([Highlight(cell="0,10", role=Role.REACHABLE)], layout)
    strip.show(frame)
    path = strip.to_png(tmp_path / "board.png", layout, cell_px=20)
    image = Image.open(path).convert("RGB")
    margin = 5
    assert image.size == (11 * 20 + 2 * margin, 11 * 20 + 2 * margin)
    # the centre of square (0,10) is green, the centre of (0,0) is a dark cell
    assert image.getpixel((margin + 10 * 20 + 10, margin + 10)) == perceived((0, 255, 0))
    r, g, b = image.getpixel((margin + 10, margin + 10))  # type: ignore[misc]
    assert max(r, g, b) < 60


def test_sim_strip_draws_island_spaces_at_their_coordinates(tmp_path: Path) -> None:
    # BM-R01: island boards come from a file with positions; spaces are drawn where it says.
    layout = build_layout(
        name="toy island",
        board="island",
        led_count=3,
        cells={"centre": [0], "north": [1], "east": [2]},
        positions={"centre": (1.5, 1.0), "north": (1.0, 0.0), "east": (3.0, 1.0)},
    )
    strip = SimStrip(3)
    strip.begin()
    strip.show(((0, 0, 0), (255, 0, 0), (0, 0, 0)))
    image = Image.open(strip.to_png(tmp_path / "island.png", layout, cell_px=40)).convert("RGB")
    assert image.size == (4 * 40 + 20, 2 * 40 + 20)
    assert image.getpixel((10 + 40 + 20, 10 + 20)) == (255, 0, 0)  # north, drawn as a disc
    assert image.getpixel((10 + 40 + 5, 10 + 5))[0] < 60  # type: ignore[index]
