"""The name of an account: what it may contain, when two names are the same person's.

A name is read in Unicode's NFKC form (``ｐａｕｌ`` is ``paul``), with runs of
spaces made one. Two names are the same name when their case-folded forms are
equal (``Paul`` and ``PAUL``); a name may not be taken when it only looks like
one taken (``Pаul`` with a Cyrillic ``а``, ``PauI`` with a capital ``I``): its
*skeleton*, the form in which look-alike characters are one (Unicode Technical
Standard #39, computed by ICU's spoof checker, whatever the case), is the same
as another account's.

>>> name = account_name("  Jürgen   K. ")
>>> name.display, name.key
('Jürgen K.', 'jürgen k.')
>>> account_name("Pаul").skeleton == account_name("Paul").skeleton  # Cyrillic а
True
>>> account_name("Jürgen").skeleton == account_name("Jurgen").skeleton
False
>>> account_name("a")
Traceback (most recent call last):
...
kartentisch.accounts.names.AccountNameError: a name needs at least 2 characters
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Final

import icu

from kartentisch.errors import KartentischError

__all__ = [
    "MAX_ACCOUNT_NAME",
    "MIN_ACCOUNT_NAME",
    "AccountName",
    "AccountNameError",
    "account_name",
    "skeleton",
]

MIN_ACCOUNT_NAME: Final = 2
#: As long as a seat's name at a table may be.
MAX_ACCOUNT_NAME: Final = 24
#: Characters allowed inside a name besides letters, digits and combining marks.
PUNCTUATION: Final = frozenset(" -_.'")

_CHECKER: Final = icu.SpoofChecker()


class AccountNameError(KartentischError):
    """A name that cannot be an account's; ``code`` keys the translated message."""

    def __init__(self, code: str, text: str, **params: Any) -> None:
        super().__init__(text)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class AccountName:
    #: As shown: NFKC, single-spaced, the case as typed.
    display: str
    #: Unique among accounts: the case-folded display form.
    key: str
    #: Unique among accounts too: look-alike characters made one (UTS #39).
    skeleton: str


def account_name(value: Any) -> AccountName:
    """``value`` checked as an account's name; :class:`AccountNameError` says what is wrong."""
    if not isinstance(value, str):
        raise AccountNameError("name_missing", "a name is needed")
    text = " ".join(unicodedata.normalize("NFKC", value).split())
    if not text:
        raise AccountNameError("name_missing", "a name is needed")
    for ch in text:
        if not (ch in PUNCTUATION or unicodedata.category(ch)[0] in "LNM"):
            shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
            raise AccountNameError(
                "name_character",
                f"a name may hold letters, digits, spaces and - _ . ' only, not {shown!r}",
                char=shown,
            )
    if unicodedata.category(text[0])[0] not in "LN":
        raise AccountNameError("name_start", "a name begins with a letter or a digit", char=text[0])
    if len(text) < MIN_ACCOUNT_NAME:
        raise AccountNameError(
            "name_short",
            f"a name needs at least {MIN_ACCOUNT_NAME} characters",
            min=MIN_ACCOUNT_NAME,
        )
    if len(text) > MAX_ACCOUNT_NAME:
        raise AccountNameError(
            "name_long",
            f"a name has at most {MAX_ACCOUNT_NAME} characters, this one {len(text)}",
            max=MAX_ACCOUNT_NAME,
            length=len(text),
        )
    return AccountName(text, text.casefold(), skeleton(text))


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``, case-folded and taken again: look-alikes made
    one whatever their case (``PauI`` with a capital I is ``Paul``, as ``PAUL`` is).

    >>> skeleton("PauI") == skeleton("paul") == skeleton("Pau1") == skeleton("PАUL")
    True
    >>> skeleton("rn") == skeleton("m"), skeleton("Anna") == skeleton("Anja")
    (True, False)
    """
    once = str(_CHECKER.getSkeleton(0, text)).casefold()
    return str(_CHECKER.getSkeleton(0, once))
