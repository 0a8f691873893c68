"""Accounts of people: their names and passwords (no web, no storage here).

:mod:`~kartentisch.accounts.names` checks a name someone signs up with (its
characters, its length, its look-alikes); :mod:`~kartentisch.accounts.passwords`
hashes and verifies passwords with Argon2id. The accounts themselves are kept by
:mod:`kartentisch.storage.accounts`; the web app's routes are in
:mod:`kartentisch.web.accounts` (docs/security.md, docs/web-protocol.md).
"""

from __future__ import annotations

from kartentisch.accounts.names import (
    MAX_ACCOUNT_NAME,
    MIN_ACCOUNT_NAME,
    AccountName,
    AccountNameError,
    account_name,
)
from kartentisch.accounts.passwords import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    PasswordError,
    check_password,
    hash_password,
    needs_rehash,
    verify_password,
)

__all__ = [
    "MAX_ACCOUNT_NAME",
    "MAX_PASSWORD",
    "MIN_ACCOUNT_NAME",
    "MIN_PASSWORD",
    "AccountName",
    "AccountNameError",
    "PasswordError",
    "account_name",
    "check_password",
    "hash_password",
    "needs_rehash",
    "verify_password",
]
