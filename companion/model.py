"""The one base class for every value that travels: states, actions, events, options.

Frozen so that a state can never change behind the journal's back, and
``extra="forbid"`` so that a misspelt field in a protocol line or a position file
is refused instead of silently ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """An immutable, validated value. Change it with ``model_copy(update=...)``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
