"""The strobe-latched GPIO die through gpiozero's MockFactory pins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from pydantic import ValidationError

from firmware_bridge.dice.gpio_die import GpioDiceSettings, GpioDie
from firmware_bridge.dice.messages import DiceMessage, DieResult, DieRolling, TrayState, TrayStatus

SETTINGS = GpioDiceSettings(enabled=True, device="gpio-d4", data_pins=(17, 27, 22), strobe_pin=23)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    mock = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = mock
    yield mock
    mock.reset()
    mock.close()
    Device.pin_factory = previous


@pytest.fixture
def die(factory: MockFactory) -> Iterator[tuple[GpioDie, list[DiceMessage]]]:
    posted: list[DiceMessage] = []
    gpio_die = GpioDie(SETTINGS)
    gpio_die.start(posted.append)
    yield gpio_die, posted
    gpio_die.stop()


def present(factory: MockFactory, face: int) -> None:
    """What the die does: put the face on the lines, then raise the strobe."""
    strobe = factory.pin(23)
    strobe.drive_low()
    for bit, pin in enumerate(SETTINGS.data_pins):
        if face >> bit & 1:
            factory.pin(pin).drive_high()
        else:
            factory.pin(pin).drive_low()
    strobe.drive_high()


def test_every_face_is_latched_on_the_strobe_rising_edge(
    factory: MockFactory, die: tuple[GpioDie, list[DiceMessage]]
) -> None:
    gpio_die, posted = die
    assert gpio_die.state is TrayState.CONNECTED
    for face in (1, 2, 3, 4, 4, 1):
        present(factory, face)
    results = [m for m in posted if isinstance(m, DieResult)]
    assert [r.face for r in results] == [1, 2, 3, 4, 4, 1]
    assert [r.seq for r in results] == [1, 2, 3, 4, 5, 6]
    assert all(r.device == "gpio-d4" and r.faces == 4 and r.die_id == 1 for r in results)


def test_data_lines_changing_without_a_strobe_post_nothing(
    factory: MockFactory, die: tuple[GpioDie, list[DiceMessage]]
) -> None:
    _, posted = die
    for pin in SETTINGS.data_pins:
        factory.pin(pin).drive_high()
        factory.pin(pin).drive_low()
    assert not any(isinstance(m, DieResult | DieRolling) for m in posted)


def test_strobe_falling_edge_means_the_die_is_rolling(
    factory: MockFactory, die: tuple[GpioDie, list[DiceMessage]]
) -> None:
    _, posted = die
    present(factory, 2)
    factory.pin(23).drive_low()
    assert isinstance(posted[-1], DieRolling) and posted[-1].device == "gpio-d4"


def test_no_valid_face_on_the_lines_is_counted_not_posted(
    factory: MockFactory, die: tuple[GpioDie, list[DiceMessage]]
) -> None:
    gpio_die, posted = die
    present(factory, 0)  # die tilted: no face
    present(factory, 7)  # above a d4
    assert gpio_die.bad_reads == 2
    assert not any(isinstance(m, DieResult) for m in posted)


def test_stop_releases_the_pins_and_reports_stopped(factory: MockFactory) -> None:
    posted: list[DiceMessage] = []
    gpio_die = GpioDie(SETTINGS)
    gpio_die.start(posted.append)
    gpio_die.stop()
    assert isinstance(posted[-1], TrayStatus) and posted[-1].state is TrayState.STOPPED
    again = GpioDie(SETTINGS)  # the pins are free again
    again.start(posted.append)
    again.stop()


def test_settings_refuse_too_few_lines_and_shared_pins() -> None:
    with pytest.raises(ValidationError, match="cannot carry faces up to 8"):
        GpioDiceSettings(faces=8, data_pins=(1, 2, 3))
    with pytest.raises(ValidationError, match="distinct"):
        GpioDiceSettings(data_pins=(17, 27, 23), strobe_pin=23)
    assert GpioDiceSettings(faces=8, data_pins=(1, 2, 3, 4)).used_pins() == (1, 2, 3, 4, 23)


class _ChangingLine:
    """A data line caught mid-transition: its first reads differ from the settled one."""

    def __init__(self, reads: list[int]) -> None:
        self.reads = reads

    @property
    def value(self) -> int:
        return self.reads.pop(0) if len(self.reads) > 1 else self.reads[0]


def test_a_read_during_a_transition_is_repeated_until_two_reads_agree() -> None:
    lines = [_ChangingLine([1, 0, 1]), _ChangingLine([0, 1, 1]), _ChangingLine([0])]
    assert GpioDie(SETTINGS, data_lines=lines).read_face() == 3
    flapping = [_ChangingLine([0, 1] * 10 + [0]) for _ in range(3)]
    assert GpioDie(SETTINGS, data_lines=flapping).read_face() is None, (
        "never stable: no face rather than a wrong one"
    )
