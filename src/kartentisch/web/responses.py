"""How the app's routes read a request's JSON body and answer a refusal.

A refusal (:class:`~kartentisch.web.seats.TableError`) is answered in one shape:
``{"error": {"code", "message", …}}`` with its HTTP status (and ``Retry-After`` for
a rate limit). A body is read within a size limit and parsed as JSON, or refused.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from kartentisch.web.i18n import request_language
from kartentisch.web.seats import RateLimited, TableError

__all__ = ["MAX_BODY_BYTES", "error_response", "json_bytes", "read_body"]

#: The largest JSON body the API reads (a record sent for replay has its own limit).
MAX_BODY_BYTES = 64 * 1024


def error_response(request: Request, error: TableError) -> JSONResponse:
    """``error`` answered in the request's language: its code, message and details."""
    lang = request_language(request)
    body: dict[str, Any] = {"code": error.code, "message": error.message(lang), **error.details}
    headers: dict[str, str] = {}
    if isinstance(error, RateLimited):
        body["retry_after"] = error.retry_after
        headers["retry-after"] = str(error.retry_after)
    return JSONResponse({"error": body}, status_code=error.status, headers=headers)


def json_bytes(content: Any) -> bytes:
    """``content`` encoded as :class:`JSONResponse` encodes it (kept answers are sent as is)."""
    return bytes(JSONResponse(content).body)


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    """The request's body parsed as JSON (``{}`` if empty); refused beyond ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TableError("too_large", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise TableError("bad_json", detail=f"{exc.msg} at line {exc.lineno}") from None
    except UnicodeDecodeError:
        raise TableError("bad_json", detail="the body is not UTF-8") from None
    except RecursionError:
        raise TableError("bad_json", detail="it is nested too deeply") from None
    except ValueError:  # a number of thousands of digits
        raise TableError("bad_json", detail="a number is too long") from None
