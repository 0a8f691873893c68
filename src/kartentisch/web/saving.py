"""What a live table does when the store cannot take a change.

(docs/web.md, "When the server cannot save".)
"""

from __future__ import annotations

from typing import Any

from kartentisch.web.i18n import translate

__all__ = ["StorageFailure", "first_line", "notice"]


class StorageFailure(Exception):
    """An action was not stored (the table was rebuilt from the store, or withdrawn)."""


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def notice(lang: str, code: str) -> dict[str, Any]:
    """A ``notice`` message: what the table does meanwhile (``storage_wait``, ``storage_back``)."""
    return {"type": "notice", "code": code, "message": translate(lang, f"notice.{code}")}
