"""Seeded randomness that lives inside the game state.

The generator is a value (seed + counter), advanced by returning a new value, so a
state carries exactly where its random stream stands: replaying a journal reproduces
every software roll and shuffle. SplitMix64 is implemented here rather than taken from
:mod:`random` so the stream can never change with the Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from companion.model import Frozen

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _splitmix64(x: int) -> int:
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng(Frozen):
    """A position in a deterministic random stream."""

    seed: int
    counter: int = 0

    def next64(self) -> tuple[int, Rng]:
        """The next 64 random bits and the advanced generator."""
        value = _splitmix64((self.seed * _GOLDEN + self.counter * 0xD1B54A32D192ED03) & _MASK)
        return value, Rng(seed=self.seed, counter=self.counter + 1)

    def randint(self, low: int, high: int) -> tuple[int, Rng]:
        """A uniform integer in ``[low, high]`` (rejection sampling, no modulo bias)."""
        if high < low:
            raise ValueError(f"empty range [{low}, {high}]")
        span = high - low + 1
        limit = (1 << 64) - ((1 << 64) % span)
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return low + value % span, rng

    def roll(self, count: int, sides: int) -> tuple[tuple[int, ...], Rng]:
        """``count`` dice with faces ``1..sides``."""
        faces: list[int] = []
        rng = self
        for _ in range(count):
            face, rng = rng.randint(1, sides)
            faces.append(face)
        return tuple(faces), rng

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher–Yates shuffle of ``items``."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.randint(0, i)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """One element of a non-empty sequence."""
        index, rng = self.randint(0, len(items) - 1)
        return items[index], rng
