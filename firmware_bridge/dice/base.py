"""The one interface every dice source implements (serial tray, GPIO die, Bluetooth)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from firmware_bridge.dice.messages import PostDice, TrayState


class DiceSource(ABC):
    """Something that produces dice results and posts them through a callback.

    ``start(post)`` begins producing (possibly on a thread of its own); ``post`` must be
    thread-safe, e.g. ``queue.Queue.put``. A source never calls into the referee or the
    UI. ``stop()`` must return promptly and leave no thread behind.
    """

    name: str

    @abstractmethod
    def start(self, post: PostDice) -> None:
        """Begin reading; messages go to ``post``."""

    @abstractmethod
    def stop(self, timeout: float = 2.0) -> None:
        """Stop reading and release the hardware; idempotent."""

    @property
    @abstractmethod
    def state(self) -> TrayState:
        """The current connection state."""
