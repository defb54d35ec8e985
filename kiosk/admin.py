"""The shop's admin PIN: a salted scrypt hash in ``admin.json``, with a lock-out.

A locked kiosk (``[kiosk] locked = true``) opens its admin screen (exit, hardware
status, LEDs, PIN) only after the PIN. The PIN itself is never stored: ``admin.json``
in the data directory holds a 16-byte random salt and ``scrypt(pin, salt, n=2**14,
r=8, p=1)``; checking compares hashes with :func:`hmac.compare_digest` (constant time).

After :data:`FREE_ATTEMPTS` wrong PINs the pad is locked for :data:`FIRST_LOCK_S`, and
every further wrong PIN doubles the time up to :data:`MAX_LOCK_S` (minutes, not hours: a
visitor tapping at random must not keep staff out for long). The count decays: one wrong
PIN is forgiven every :data:`FORGIVE_S` after the last one, so a few slips spread over a
day never add up. The count and the end of the lock are in the same file, so a restart
does not reset them. The lock is measured on the wall clock (it must survive a reboot);
a Pi without a real-time clock may boot with its clock behind, so a lock never lasts
longer than the duration it was given.

Easy PINs are refused when set (:func:`check_pin_strength`: one digit repeated, a run
such as 1234 or 9876, a repeated block such as 1212, and a few of the most common ones).

The staff override, with no shell: the **recovery code**, :data:`RECOVERY_DIGITS`
digits shown once when the PIN is set (``companion admin-pin``, ``install-pi --pin``)
and kept as a scrypt hash like the PIN. Typed on the pad, it is accepted even while the
pad is locked, opens the admin page and clears the lock-out. At 12 digits it cannot be
guessed at the pad's pace. ``companion admin-pin`` on the Pi's shell remains the reset
(a new PIN, a new code, the lock-out cleared); a missing or unreadable file means "no
PIN": a locked kiosk then refuses to open the admin screen at all (fail closed) and says
how to set one.

The file is written atomically (a temporary file, fsync, rename) with mode 0600.

No Kivy here: the CLI and the tests use this module without a display.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import itertools
import json
import os
import secrets
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

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
MAX_LOCK_S = 300.0  # five minutes at most per try
FORGIVE_S = 600.0  # one wrong PIN forgiven per ten minutes without another
RECOVERY_DIGITS = 12
#: Refused as too easy to guess, beside repeats and runs (check_pin_strength).
COMMON_PINS = frozenset({"2580", "0852", "1004", "2000", "6969", "1998", "1999", "2001"})

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


def check_pin_strength(pin: str) -> str:
    """The PIN if it is not an easy guess; PinError naming what is easy about it."""
    check_pin_format(pin)
    if len(set(pin)) == 1:
        raise PinError(f"{pin} is one digit repeated: choose a PIN that is harder to guess.")
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
    if steps in ({1}, {9}):
        raise PinError(f"{pin} is a run of digits: choose a PIN that is harder to guess.")
    for size in range(1, len(pin) // 2 + 1):
        if len(pin) % size == 0 and pin == pin[:size] * (len(pin) // size):
            raise PinError(f"{pin} repeats {pin[:size]}: choose a PIN that is harder to guess.")
    if pin in COMMON_PINS:
        raise PinError(f"{pin} is one of the most common PINs: choose another.")
    return pin


def new_recovery_code() -> str:
    """A fresh staff recovery code: :data:`RECOVERY_DIGITS` random digits."""
    return "".join(secrets.choice("0123456789") for _ in range(RECOVERY_DIGITS))


def format_recovery_code(code: str) -> str:
    """``123456789012`` → ``1234 5678 9012`` (to be written down)."""
    return " ".join(code[i : i + 4] for i in range(0, len(code), 4))


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
    last_failure: float = 0.0
    recovery: bytes | None = None  # scrypt of the staff recovery code ...
    recovery_salt: bytes | None = None  # ... with its own salt (kept when the PIN changes)

    @property
    def has_pin(self) -> bool:
        return self.salt is not None and self.digest is not None

    def to_json(self) -> dict[str, object]:
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
            "last_failure": self.last_failure,
            "recovery": None if self.recovery is None else self.recovery.hex(),
            "recovery_salt": None if self.recovery_salt is None else self.recovery_salt.hex(),
        }


_NO_PIN = _Record(salt=None, digest=None)


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError("bad lock time")
    return float(value)


def _parse(data: object) -> _Record:
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
    last_failure = _seconds(data.get("last_failure", 0.0))  # absent in older files
    if salt is None and digest is None:
        return _Record(None, None, failures, locked_until, lock_s, last_failure)
    if not isinstance(salt, str) or not isinstance(digest, str):
        raise ValueError("bad hash")
    salt_bytes, digest_bytes = bytes.fromhex(salt), bytes.fromhex(digest)
    if len(salt_bytes) != SALT_BYTES or len(digest_bytes) != HASH_BYTES:
        raise ValueError("bad hash length")
    recovery, recovery_salt = data.get("recovery"), data.get("recovery_salt")
    recovery_bytes = recovery_salt_bytes = None
    if recovery is not None or recovery_salt is not None:  # absent in older files
        if not isinstance(recovery, str) or not isinstance(recovery_salt, str):
            raise ValueError("bad recovery code hash")
        recovery_bytes, recovery_salt_bytes = bytes.fromhex(recovery), bytes.fromhex(recovery_salt)
        if len(recovery_bytes) != HASH_BYTES or len(recovery_salt_bytes) != SALT_BYTES:
            raise ValueError("bad recovery code hash length")
    return _Record(
        salt_bytes,
        digest_bytes,
        failures,
        locked_until,
        lock_s,
        last_failure,
        recovery_bytes,
        recovery_salt_bytes,
    )


def write_private_json(path: Path, data: Mapping[str, object]) -> None:
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

    def failures(self) -> int:
        """Wrong PINs that still count (one is forgiven per FORGIVE_S since the last)."""
        return self._failures(self._load())

    def _failures(self, record: _Record) -> int:
        elapsed = max(0.0, self.clock() - record.last_failure)
        return max(0, record.failures - int(elapsed // FORGIVE_S))

    # --- writing ----------------------------------------------------------------------

    def set_pin(self, pin: str, *, keep_recovery: bool = False) -> str | None:
        """Store a new PIN (fresh salt) and clear the lock-out: the reset procedure.

        Easy PINs are refused (:func:`check_pin_strength`). A new recovery code is made
        and returned (to be shown once), unless ``keep_recovery`` keeps the current one
        (a PIN changed on the admin page): then None.
        """
        check_pin_strength(pin)
        salt = secrets.token_bytes(SALT_BYTES)
        old = self._load() if keep_recovery else _NO_PIN
        code: str | None = None
        recovery, recovery_salt = old.recovery, old.recovery_salt
        if recovery is None or recovery_salt is None:
            code = new_recovery_code()
            recovery_salt = secrets.token_bytes(SALT_BYTES)
            recovery = hash_pin(code, recovery_salt)
        record = _Record(salt, hash_pin(pin, salt), recovery=recovery, recovery_salt=recovery_salt)
        write_private_json(self.path, record.to_json())
        return code

    @staticmethod
    def _recovery_ok(record: _Record, typed: str) -> bool:
        if record.recovery is None or record.recovery_salt is None:
            return False
        if len(typed) != RECOVERY_DIGITS or not (typed.isascii() and typed.isdigit()):
            return False
        return hmac.compare_digest(hash_pin(typed, record.recovery_salt), record.recovery)

    def verify(self, pin: str) -> PinCheck:
        """Check a PIN typed on the pad; wrong ones count towards the lock-out. The staff
        recovery code is accepted even while the pad is locked (and clears the lock)."""
        record = self._load()
        if not record.has_pin:
            return PinCheck("no_pin")
        assert record.salt is not None and record.digest is not None
        if self._recovery_ok(record, pin):
            self._clear(record)
            return PinCheck("ok")
        remaining = self._remaining(record)
        if remaining > 0:
            return PinCheck("locked", locked_for_s=remaining)
        try:
            candidate = hash_pin(check_pin_format(pin), record.salt)
        except PinError:
            candidate = b""
        if hmac.compare_digest(candidate, record.digest):
            if record.failures or record.lock_s:
                self._clear(record)
            return PinCheck("ok")
        failures = self._failures(record) + 1
        lock_s = lock_duration(failures)
        now = self.clock()
        self._write(
            dataclasses.replace(
                record,
                failures=failures,
                locked_until=now + lock_s if lock_s else 0.0,
                lock_s=lock_s,
                last_failure=now,
            )
        )
        if lock_s:
            return PinCheck("locked", locked_for_s=lock_s)
        return PinCheck("wrong", attempts_left=FREE_ATTEMPTS - failures)

    def _clear(self, record: _Record) -> None:
        self._write(
            dataclasses.replace(record, failures=0, locked_until=0.0, lock_s=0.0, last_failure=0.0)
        )

    def _write(self, record: _Record) -> None:
        write_private_json(self.path, record.to_json())
