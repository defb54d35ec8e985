"""Hypothesis strategies for the dice tray's wire messages, every type the protocol has."""

from __future__ import annotations

from hypothesis import strategies as st

from firmware_bridge.frames import (
    Ack,
    DieSpec,
    Hello,
    HelloRequest,
    Message,
    Occupancy,
    OccupancyChange,
    OccupancyRequest,
    Ping,
    Pong,
    Rolling,
    RollResult,
    Status,
    UnknownVersion,
)

u8 = st.integers(0, 255)


u16 = st.integers(0, 0xFFFF)


u32 = st.integers(0, 0xFFFFFFFF)


@st.composite
def occupancies(draw: st.DrawFn) -> Occupancy:
    """A whole sensor matrix of any shape one frame carries."""
    layers = draw(st.integers(1, 2))
    rows = draw(st.integers(1, 40))
    cols = draw(st.integers(1, min(40, 1912 // (rows * layers))))
    cells = draw(st.sets(st.integers(0, rows * cols * layers - 1), max_size=64))
    return Occupancy(rows, cols, draw(u32), frozenset(cells), layers)


messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(
        Hello,
        device_id=st.text(
            st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=32
        ),
        firmware=st.tuples(u8, u8, u8),
        protocol=u8,
        boot_id=u32,
        dice=st.lists(st.builds(DieSpec, u8, u8), max_size=32).map(tuple),
    ),
    st.builds(Rolling, u8),
    st.builds(RollResult, u8, u8, u32),
    st.builds(Status, st.one_of(st.none(), st.integers(0, 100)), st.booleans(), st.booleans()),
    st.builds(Pong, u16),
    st.builds(HelloRequest, u8),
    st.builds(Ack, u32),
    st.builds(Ping, u16),
    occupancies(),
    st.builds(OccupancyChange, u32, u16, st.booleans()),
    st.builds(OccupancyRequest),
    st.builds(
        UnknownVersion,
        st.sampled_from([0x06, 0x07, 0x84]),
        st.integers(0, 255).filter(lambda v: v != 1),
    ),
)
