"""The shop's admin PIN: a salted scrypt hash in ``admin.json``, with a lock-out.

A locked kiosk (``[kiosk] locked = true``) opens its admin screen (exit, hardware
status, LEDs, PIN) only after the PIN. The PIN itself is never stored: ``admin.json``
in the data directory holds a 16-byte random salt and ``scrypt(pin, salt, n=2**14,
r=8, p=1)``; checking compares hashes with :func:`hmac.compare_digest` (constant time).

After :data:`FREE_ATTEMPTS` wrong PINs in a row the pad is locked for
:data:`FIRST_LOCK_S`, and every further wrong PIN doubles the time (up to
:data:`MAX_LOCK_S`). The count and the end of the lock are in the same file, so a
restart does not reset them. The lock is measured on the wall clock (it must survive a
reboot); a Pi without a real-time clock may boot with its clock behind, so a lock never
lasts longer than the duration it was given.

The file is written atomically (a temporary file, fsync, rename) with mode 0600. The
reset procedure is ``companion admin-pin`` on the Pi's shell, which sets a new PIN and
clears the lock-out; a missing or unreadable file means "no PIN": a locked kiosk then
refuses to open the admin screen at all (fail closed) and says how to set one.

No Kivy here: the CLI and the tests use this module without a display.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ADMIN_FILE = "admin.json"
FORMAT_VERSION = 1

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
HASH_BYTES = 32
SALT_BYTES = 16

PIN_MIN_DIGITS = 4
PIN_MAX_DIGITS = 8

FREE_ATTEMPTS = 5  # wrong PINs before the first lock
FIRST_LOCK_S = 30.0
MAX_LOCK_S = 3600.0

SET_PIN_HELP = (
    "No admin PIN is set. On the Pi's shell, as the user the kiosk runs as, run: "
    "companion admin-pin"
)

Clock = Callable[[], float]
CheckStatus = Literal["ok", "wrong", "locked", "no_pin"]


class PinError(ValueError):
    """A PIN that cannot be used (wrong length, not digits)."""


@dataclass(frozen=True)
class PinCheck:
    """The answer to one PIN entry."""

    status: CheckStatus
    attempts_left: int = 0  # before the next lock (status "wrong")
    locked_for_s: float = 0.0  # seconds until the pad opens again (status "locked")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def message(self) -> str:
        if self.status == "ok":
            return ""
        if self.status == "no_pin":
            return SET_PIN_HELP
        if self.status == "locked":
            return f"Too many wrong PINs: try again in {format_wait(self.locked_for_s)}."
        tries = "try" if self.attempts_left == 1 else "tries"
        return f"Wrong PIN ({self.attempts_left} {tries} before the pad locks)."


def format_wait(seconds: float) -> str:
    """``95`` → ``"1 min 35 s"`` (rounded up: a lock never looks shorter than it is)."""
    whole = max(0, int(-(-seconds // 1)))
    minutes, secs = divmod(whole, 60)
    if minutes and secs:
        return f"{minutes} min {secs} s"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


def check_pin_format(pin: str) -> str:
    """The PIN if it is 4 to 8 digits; PinError otherwise."""
    if not (pin.isascii() and pin.isdigit()):
        raise PinError("The PIN must be digits only (0-9).")
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        raise PinError(f"The PIN must have {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits.")
    return pin


def hash_pin(pin: str, salt: bytes) -> bytes:
    """scrypt with the fixed cost parameters (16 MiB of memory per check)."""
    return hashlib.scrypt(
        pin.encode("ascii"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=HASH_BYTES
    )


def lock_duration(failures: int) -> float:
    """How long the pad locks after ``failures`` wrong PINs in a row (0 = not locked)."""
    if failures < FREE_ATTEMPTS:
        return 0.0
    return min(MAX_LOCK_S, FIRST_LOCK_S * (1 << min(failures - FREE_ATTEMPTS, 20)))


@dataclass(frozen=True)
class _Record:
    salt: bytes | None
    digest: bytes | None
    failures: int = 0
    locked_until: float = 0.0
    lock_s: float = 0.0

    @property
    def has_pin(self) -> bool:
        return self.salt is not None and self.digest is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "kdf": "scrypt",
            "n": SCRYPT_N,
            "r": SCRYPT_R,
            "p": SCRYPT_P,
            "salt": None if self.salt is None else self.salt.hex(),
            "hash": None if self.digest is None else self.digest.hex(),
            "failures": self.failures,
            "locked_until": self.locked_until,
            "lock_s": self.lock_s,
        }


_NO_PIN = _Record(salt=None, digest=None)


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError("bad lock time")
    return float(value)


def _parse(data: Any) -> _Record:
    """A record from the file's JSON; ValueError for anything unexpected."""
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise ValueError("unknown format")
    if (data.get("kdf"), data.get("n"), data.get("r"), data.get("p")) != (
        "scrypt",
        SCRYPT_N,
        SCRYPT_R,
        SCRYPT_P,
    ):
        raise ValueError("other hash settings")
    salt, digest = data.get("salt"), data.get("hash")
    failures = data.get("failures")
    if not isinstance(failures, int) or isinstance(failures, bool) or failures < 0:
        raise ValueError("bad failure count")
    locked_until, lock_s = _seconds(data.get("locked_until")), _seconds(data.get("lock_s"))
    if salt is None and digest is None:
        return _Record(None, None, failures, locked_until, lock_s)
    if not isinstance(salt, str) or not isinstance(digest, str):
        raise ValueError("bad hash")
    salt_bytes, digest_bytes = bytes.fromhex(salt), bytes.fromhex(digest)
    if len(salt_bytes) != SALT_BYTES or len(digest_bytes) != HASH_BYTES:
        raise ValueError("bad hash length")
    return _Record(salt_bytes, digest_bytes, failures, locked_until, lock_s)


def write_private_json(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` atomically with ``data``; the file is only readable by its owner.

    ``mkstemp`` creates the temporary file with mode 0600 in the same directory, so the
    rename is atomic and the secret is never readable by others, not even briefly.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=".admin-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp_name, 0o600)
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a power cut
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


class PinStore:
    """The admin PIN of one data directory. ``clock`` is the wall clock (injected in tests)."""

    def __init__(self, data_dir: Path, clock: Clock = time.time) -> None:
        self.path = Path(data_dir) / ADMIN_FILE
        self.clock = clock
        #: Why the file could not be used (it then counts as "no PIN"), for the admin help.
        self.problem = ""

    # --- reading ----------------------------------------------------------------------

    def _load(self) -> _Record:
        self.problem = ""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return _NO_PIN
        except (OSError, UnicodeDecodeError) as error:
            self.problem = f"{self.path} cannot be read ({error}); set the PIN again."
            return _NO_PIN
        try:
            return _parse(json.loads(text))
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            self.problem = f"{self.path} is damaged ({error}); set the PIN again."
            return _NO_PIN

    @property
    def has_pin(self) -> bool:
        return self._load().has_pin

    def locked_for(self) -> float:
        """Seconds until a PIN may be tried again (0 = now)."""
        return self._remaining(self._load())

    def _remaining(self, record: _Record) -> float:
        left = record.locked_until - self.clock()
        # A clock set back (a Pi without RTC before NTP) must not stretch the lock.
        return max(0.0, min(left, record.lock_s))

    # --- writing ----------------------------------------------------------------------

    def set_pin(self, pin: str) -> None:
        """Store a new PIN (fresh salt) and clear the lock-out: the reset procedure."""
        check_pin_format(pin)
        salt = secrets.token_bytes(SALT_BYTES)
        write_private_json(self.path, _Record(salt, hash_pin(pin, salt)).to_json())

    def verify(self, pin: str) -> PinCheck:
        """Check a PIN typed on the pad; wrong ones count towards the lock-out."""
        record = self._load()
        if not record.has_pin:
            return PinCheck("no_pin")
        remaining = self._remaining(record)
        if remaining > 0:
            return PinCheck("locked", locked_for_s=remaining)
        assert record.salt is not None and record.digest is not None
        try:
            candidate = hash_pin(check_pin_format(pin), record.salt)
        except PinError:
            candidate = b""
        if hmac.compare_digest(candidate, record.digest):
            if record.failures or record.lock_s:
                write_private_json(self.path, _Record(record.salt, record.digest).to_json())
            return PinCheck("ok")
        failures = record.failures + 1
        lock_s = lock_duration(failures)
        now = self.clock()
        write_private_json(
            self.path,
            _Record(
                record.salt,
                record.digest,
                failures=failures,
                locked_until=now + lock_s if lock_s else 0.0,
                lock_s=lock_s,
            ).to_json(),
        )
        if lock_s:
            return PinCheck("locked", locked_for_s=lock_s)
        return PinCheck("wrong", attempts_left=FREE_ATTEMPTS - failures)
