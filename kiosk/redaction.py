"""What a support bundle must not carry: secrets in the configuration and the players'
names (kiosk/support.py makes the bundle and passes every text through here)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping

REDACTED = "<redacted>"
PLAYER = "<player>"
#: Key names that always hold a secret (substrings), and words that do.
SECRET_PARTS = ("password", "passwd", "secret", "token", "passphrase", "credential")
SECRET_WORDS = frozenset({"hash", "salt", "key", "auth", "apikey"})
GPIO_MAX = 27


# --- secrets ---------------------------------------------------------------------------


def _words(key: str) -> list[str]:
    return [word for word in re.split(r"[^a-z0-9]+", key.lower()) if word]


def _is_pin_word(word: str) -> bool:
    return bool(re.fullmatch(r"[a-z]*pins?|pin(code|hash)", word))


def _is_gpio_value(value: object) -> bool:
    """A GPIO pin setting: a header GPIO number, ``false`` (not fitted) or a list of them."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return 0 <= value <= GPIO_MAX
    if isinstance(value, list | tuple):
        return all(isinstance(item, int) and not isinstance(item, bool) for item in value) and all(
            0 <= item <= GPIO_MAX for item in value
        )
    return False


def is_secret(key: str, value: object) -> bool:
    """Should this setting be redacted? (GPIO pins are hardware facts and stay.)"""
    lowered = key.lower()
    words = _words(key)
    if any(part in lowered for part in SECRET_PARTS) or SECRET_WORDS.intersection(words):
        return True
    if not any(_is_pin_word(word) for word in words):
        return False
    if "admin" in lowered or lowered in ("pin", "pincode"):
        return True
    return not _is_gpio_value(value)


def redact_data(data: object) -> object:
    """A copy of parsed configuration data with every secret value replaced."""
    if isinstance(data, Mapping):
        return redact_table({str(key): value for key, value in data.items()})
    if isinstance(data, list | tuple):
        return [redact_data(item) for item in data]
    return data


def redact_table(table: Mapping[str, object]) -> dict[str, object]:
    """A copy of one parsed table (the whole file's settings) with every secret replaced."""
    return {
        key: REDACTED if is_secret(key, value) else redact_data(value)
        for key, value in table.items()
    }


def _secret_values(data: object) -> set[str]:
    """The text of every secret value (to prove none survives the line redaction)."""
    found: set[str] = set()
    if isinstance(data, Mapping):
        for key, value in data.items():
            if is_secret(str(key), value):
                found.update(_leaf_texts(value))
            else:
                found.update(_secret_values(value))
    elif isinstance(data, list):
        for item in data:
            found.update(_secret_values(item))
    return found


def _leaf_texts(value: object) -> set[str]:
    if isinstance(value, Mapping):
        return set().union(*(_leaf_texts(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_leaf_texts(item) for item in value))
    text = str(value)
    return {text} if len(text) >= 3 else set()


_KEY_LINE = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z0-9_.\-\"' ]+?)\s*=\s*(?P<value>.*)$")


def redact_config_text(text: str) -> str:
    """The configuration text, comments kept, with each secret's value replaced.

    Each ``key = value`` line is read on its own; a value that is not complete on its
    line (a multi-line string or array) is redacted whole when its key names a secret.
    If a secret value could still be found in the result (an inline table, say), the
    text is replaced by the redacted settings as JSON.
    """
    out: list[str] = []
    rest: tuple[str, int] | None = None  # the rest of a redacted multi-line value to drop
    for line in text.splitlines():
        if rest is not None:
            rest = _still_open(rest, line)
            continue
        match = _KEY_LINE.match(line)
        if not match or line.lstrip().startswith(("#", "[")):
            out.append(line)
            continue
        key = match.group("key").strip().strip("\"'").split(".")[-1]
        redact = f'{match.group("indent")}{match.group("key")} = "{REDACTED}"'
        try:
            parsed = tomllib.loads(f"value = {match.group('value')}")["value"]
        except tomllib.TOMLDecodeError:
            if is_secret(key, "?"):
                out.append(redact)
                rest = _opened(match.group("value"))
            else:
                out.append(line)
            continue
        out.append(redact if is_secret(key, parsed) or redact_data(parsed) != parsed else line)
    redacted = "\n".join(out) + ("\n" if text.endswith("\n") else "")
    try:
        secrets = _secret_values(tomllib.loads(text))
    except tomllib.TOMLDecodeError:
        return redacted
    # The marker's own letters are no leak (a PIN of "act" is inside "<redacted>").
    checked = redacted.replace(REDACTED, "\0")
    if any(secret in checked for secret in secrets):
        return (
            "# The file could not be redacted line by line; its settings, redacted:\n"
            + json.dumps(redact_data(tomllib.loads(text)), indent=2, default=str)
            + "\n"
        )
    return redacted


_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"|\'[^\']*\'')


def _depth(text: str) -> int:
    """Open brackets minus closed ones, outside quoted strings and comments."""
    code = _QUOTED.sub("", text).split("#", 1)[0]
    return code.count("[") + code.count("{") - code.count("]") - code.count("}")


def _opened(value: str) -> tuple[str, int] | None:
    """How a value that does not end on its first line goes on: a triple quote, or brackets."""
    text = value.strip()
    for quote in ('"""', "'''"):
        if text.startswith(quote):
            return None if text.count(quote) >= 2 else (quote, 0)
    depth = _depth(text)
    return ("[", depth) if depth > 0 else None


def _still_open(state: tuple[str, int], line: str) -> tuple[str, int] | None:
    """The state after one more line of a multi-line value (None: it ended)."""
    closer, depth = state
    if closer != "[":
        return None if closer in line else state
    depth += _depth(line)
    return None if depth <= 0 else (closer, depth)


# --- player names ----------------------------------------------------------------------


def scrub_names(text: str, names: Iterable[str]) -> str:
    """Replace every player name (as a whole word, 2+ characters) by ``<player>``."""
    for name in sorted({n for n in names if len(n.strip()) >= 2}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", PLAYER, text)
    return text
