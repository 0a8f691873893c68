"""Passwords: checked for length, hashed and verified with Argon2id (``argon2-cffi``).

The parameters (:data:`HASHER`) make one hash take 50–100 ms on the 2-core
machine the server is measured on (docs/performance.md, "Logins"); a stored
hash made with other parameters still verifies and is replaced at the next
login (:func:`needs_rehash`).

>>> stored = hash_password("correct horse")
>>> stored.startswith("$argon2id$"), verify_password(stored, "correct horse")
(True, True)
>>> verify_password(stored, "Correct horse")
False
>>> check_password("short")
Traceback (most recent call last):
...
kartentisch.accounts.passwords.PasswordError: a password needs at least 8 characters
"""

from __future__ import annotations

from typing import Any, Final

import argon2
from argon2.exceptions import InvalidHashError, VerificationError

from kartentisch.errors import KartentischError

__all__ = [
    "HASHER",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "PasswordError",
    "check_password",
    "hash_password",
    "needs_rehash",
    "verify_password",
]

MIN_PASSWORD: Final = 8
#: Longer passwords are refused, not hashed (a megabyte of password is a way to tire the
#: server, not a password).
MAX_PASSWORD: Final = 256
#: Argon2id, 32 MiB, 3 passes, one lane: about 65 ms a hash here.
HASHER: Final = argon2.PasswordHasher(
    time_cost=3, memory_cost=32 * 1024, parallelism=1, type=argon2.Type.ID
)


class PasswordError(KartentischError):
    """A password that cannot be used; ``code`` keys the translated message."""

    def __init__(self, code: str, text: str, **params: Any) -> None:
        super().__init__(text)
        self.code = code
        self.params = params


def check_password(value: Any) -> str:
    """``value`` if it can be a password, else :class:`PasswordError`."""
    if not isinstance(value, str) or not value:
        raise PasswordError("password_missing", "a password is needed")
    if len(value) < MIN_PASSWORD:
        raise PasswordError(
            "password_short",
            f"a password needs at least {MIN_PASSWORD} characters",
            min=MIN_PASSWORD,
        )
    if len(value) > MAX_PASSWORD:
        raise PasswordError(
            "password_long",
            f"a password has at most {MAX_PASSWORD} characters",
            max=MAX_PASSWORD,
        )
    return value


def hash_password(password: str) -> str:
    """The stored form of ``password`` (salted; a new salt every time)."""
    return HASHER.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (False for a bad hash)."""
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than :data:`HASHER`'s."""
    try:
        return HASHER.check_needs_rehash(stored)
    except InvalidHashError:
        return True
