"""Reading user-supplied content (card tables, content files), one way for every game.

Players may hand the referee data the rules documents leave open: a Colossus card table,
a Blueprint table, an island content file. The kiosk reads the file; the game parses the
text (or the dicts a caller already has) strictly, and a problem becomes an
:class:`~companion.errors.InvalidContent` sentence a player can act on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TypeVar

from pydantic import TypeAdapter, ValidationError

from companion.errors import InvalidContent
from companion.rules import describe_validation_error

T = TypeVar("T")


def parse_strict(adapter: TypeAdapter[T], data: object, what: str, ruling: str | None = None) -> T:
    """``data`` (JSON text, or dicts and lists) validated strictly by ``adapter``.

    Anything unusable raises InvalidContent whose message starts with ``what``.
    """
    try:
        if isinstance(data, str | bytes):
            text = data
        else:
            text = json.dumps(dict(data) if isinstance(data, Mapping) else data)
        return adapter.validate_json(text, strict=True)
    except ValidationError as exc:
        raise InvalidContent(f"{what}: {describe_validation_error(exc)}", ruling=ruling) from None
    except (TypeError, ValueError) as exc:
        raise InvalidContent(f"{what}: {exc}", ruling=ruling) from None
