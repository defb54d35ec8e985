"""What the table's fleet link last knew, in a small file beside the journal
(``fleet-link.json``): written by the kiosk's forwarder when it changes, read by
``companion doctor`` (another process), so a table whose records the broker refuses, or
that cannot reach the broker, says so there too — not only on Home."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

LINK_FILE = "fleet-link.json"


class LinkState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    at: str = Field(description="when this was written (UTC, ISO 8601)")
    connected: bool
    error: str | None = Field(default=None, description="why it is not connected, in words")
    refused: int = Field(default=0, ge=0, description="records the broker refused")
    refused_values: int = Field(
        default=0, ge=0, description="status, table and health messages the broker refused"
    )
    refused_why: str | None = Field(default=None, description="the broker's latest reason")
    unconfirmed: int = Field(default=0, ge=0, description="records sent, not yet stored")
    confirmed_at: str | None = Field(default=None, description="the watcher's latest ack")

    def trouble(self) -> str | None:
        """One sentence for Home's banner and the doctor, or None when all is well."""
        if self.refused or self.refused_values:
            why = f" ({self.refused_why})" if self.refused_why else ""
            return (
                f"Fleet: the broker refused {self.refused} finished game(s) and"
                f" {self.refused_values} other message(s) from this table{why}; the games stay"
                " in the outbox. Check [fleet] device_id and username against the broker's"
                " users and ACL (docs/fleet.md)."
            )
        if not self.connected and self.error:
            return f"Fleet: {self.error}; finished games wait in the outbox."
        return None


def write_link_state(folder: Path, state: LinkState) -> None:
    """Atomically (a reader never sees half a file); an unwritable folder is ignored:
    this file only explains, the journal holds the records."""
    target = folder / LINK_FILE
    temp = folder / (LINK_FILE + ".tmp")
    try:
        temp.write_text(state.model_dump_json(), encoding="utf-8")
        os.replace(temp, target)
    except OSError:
        pass


def read_link_state(folder: Path) -> LinkState | None:
    try:
        return LinkState.model_validate_json((folder / LINK_FILE).read_bytes())
    except (OSError, ValidationError):
        return None
