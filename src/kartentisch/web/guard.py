"""The server's connection guard: open connections per address, and a header deadline.

uvicorn keeps a connection open for as long as its peer likes until the
first request arrives: it has no per-address cap and no deadline for a
request's headers, and its global ``limit_concurrency`` answers requests
with 503 but never closes a connection (nor sees WebSocket upgrades).
:class:`ConnectionGuard` adds what is missing, through minimal subclasses
of uvicorn's own protocol classes (``uvicorn.Config(http=…, ws=…)``; see
:meth:`ConnectionGuard.protocols`):

* every open connection (HTTP keep-alive and WebSocket together) is counted
  under its client's address key (:func:`kartentisch.web.addresses.address_key`,
  IPv6 by /64). A new connection past ``max_per_address`` for its address,
  or past ``max_connections`` in all, is answered at once with
  ``429 too_many_connections`` (``503 connections_full``) and closed; the
  address's other connections and other addresses go on unaffected;
* a connection must send a request's headers within ``header_seconds`` of
  being opened or of its previous answer (a slow or silent client is
  closed); idle keep-alive connections are closed by uvicorn's own
  ``timeout_keep_alive``, which is shorter.

Behind a trusted reverse proxy (``forwarded_allow_ips``; uvicorn's
``ProxyHeadersMiddleware`` decides whom to trust), a connection from the
proxy is counted under the client each request names in
``X-Forwarded-For`` (the right-most address that is not a trusted hop,
as uvicorn takes it), checked at every request's headers. Connections of
a proxy that have not sent a request yet count only towards the total.

A WebSocket upgrade hands the transport from the HTTP protocol object to
the WebSocket one, so the count belongs to the transport and is given back
when the transport is really closed, by whichever protocol holds it then.
The WebSocket protocol also hands the app a way to abort its transport and
to see it closed (:func:`transport_end`): a client that stopped reading
cannot be sent a close frame, and a plain close would wait for ever to
flush to it (docs/security.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

from kartentisch.web.addresses import address_key
from kartentisch.web.i18n import negotiate, translate

__all__ = [
    "ABORT_EXTENSION",
    "DEFAULT_HEADER_SECONDS",
    "DEFAULT_MAX_PER_ADDRESS",
    "ConnectionGuard",
    "TransportEnd",
    "connection_budget",
    "guard_of",
    "raise_fd_limit",
    "transport_end",
]

log = logging.getLogger("kartentisch.web")

DEFAULT_MAX_PER_ADDRESS: Final = 64
DEFAULT_HEADER_SECONDS: Final = 10.0
#: File descriptors kept back from the connection budget (database, Redis, logs, the loop).
RESERVED_FDS: Final = 128
#: The most connections the budget allows unless told otherwise (each costs memory).
MAX_DEFAULT_CONNECTIONS: Final = 4096
#: The ASGI scope extension through which the app may abort a WebSocket's transport.
ABORT_EXTENSION: Final = "kartentisch.abort"


def raise_fd_limit() -> int:
    """Raise the soft limit of open files to the hard limit where allowed; the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, 65536) if hard == resource.RLIM_INFINITY else hard
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass  # not allowed here: keep the soft limit
    return int(soft)


def connection_budget(fd_limit: int) -> int:
    """The global connection cap for a process that may open ``fd_limit`` files.

    >>> connection_budget(1024), connection_budget(1_048_576), connection_budget(100)
    (896, 4096, 50)
    """
    if fd_limit < 2 * RESERVED_FDS:
        return max(1, fd_limit // 2)
    return min(fd_limit - RESERVED_FDS, MAX_DEFAULT_CONNECTIONS)


def guard_of(config: Any) -> ConnectionGuard:
    """The guard of a ``uvicorn.Config`` whose protocols are :meth:`ConnectionGuard.protocols`."""
    guard: ConnectionGuard = config.http.guard
    return guard


@dataclass(frozen=True, slots=True)
class TransportEnd:
    """How the app ends a WebSocket's transport: ``closed`` is set once it is closed."""

    abort: Callable[[], None]
    closed: asyncio.Event


def transport_end(scope: Mapping[str, Any]) -> TransportEnd | None:
    """The :class:`TransportEnd` of this WebSocket, when the server offers one."""
    extension = (scope.get("extensions") or {}).get(ABORT_EXTENSION)
    end = extension.get("end") if isinstance(extension, dict) else None
    return end if isinstance(end, TransportEnd) else None


def _refusal(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP answer refusing a connection, as the app's refusals look."""
    error = {"error": {"code": code, "message": message}}
    body = json.dumps(error, ensure_ascii=False).encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class ConnectionGuard:
    """Counts a server's open connections per address key and closes those over the caps."""

    def __init__(
        self,
        *,
        max_per_address: int = DEFAULT_MAX_PER_ADDRESS,
        max_connections: int | None = None,
        header_seconds: float = DEFAULT_HEADER_SECONDS,
    ) -> None:
        self.max_per_address = max_per_address
        self.max_connections = max_connections
        self.header_seconds = header_seconds
        #: Each open transport's address key (None: a proxy's, before its first request).
        self._keys: dict[asyncio.BaseTransport, str | None] = {}
        self._counts: dict[str, int] = {}
        self._warned: set[str] = set()

    # -- counting ------------------------------------------------------------------

    def count(self, key: str) -> int:
        """How many connections are open for the address key ``key``."""
        return self._counts.get(key, 0)

    @property
    def total(self) -> int:
        """How many connections are open."""
        return len(self._keys)

    def open(self, transport: asyncio.BaseTransport, key: str | None) -> str | None:
        """Count a new ``transport`` under ``key``; the refusal's code when it is over a cap."""
        if self.max_connections is not None and len(self._keys) >= self.max_connections:
            self._warn("*")
            return "connections_full"
        if key is not None and self.count(key) >= self.max_per_address:
            self._warn(key)
            return "too_many_connections"
        self._keys[transport] = None
        self._move(transport, key)
        return None

    def assign(self, transport: asyncio.BaseTransport, key: str) -> bool:
        """Count an open ``transport`` under ``key`` from now on; False when over the cap."""
        if transport not in self._keys or self._keys[transport] == key:
            return True
        if self.count(key) >= self.max_per_address:
            self._warn(key)
            return False
        self._move(transport, key)
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The transport has closed: its count is given back (once, whoever calls)."""
        if transport in self._keys:
            self._move(transport, None)
            del self._keys[transport]

    def _move(self, transport: asyncio.BaseTransport, key: str | None) -> None:
        old = self._keys[transport]
        if old is not None:
            left = self._counts[old] - 1
            if left:
                self._counts[old] = left
            else:
                del self._counts[old]
                self._warned.discard(old)
        if key is not None:
            self._counts[key] = self._counts.get(key, 0) + 1
        self._keys[transport] = key
        if len(self._keys) < (self.max_connections or 0):
            self._warned.discard("*")

    def _warn(self, key: str) -> None:
        """Log a cap reached (``*``: the whole server's), once until its count falls back."""
        if key in self._warned:
            return
        self._warned.add(key)
        if key == "*":
            log.warning("%d connections open, the server's cap: refusing more", self.total)
        else:
            log.warning("%d connections open from %s, its cap: refusing more", self.count(key), key)

    # -- uvicorn's protocols -------------------------------------------------------

    def protocols(self) -> tuple[type[HttpToolsProtocol], type[WebSocketsSansIOProtocol]]:
        """uvicorn's HTTP and WebSocket protocol classes, guarded by this guard."""
        guard = self

        class Http(GuardedHttpProtocol):
            pass

        class WebSocket(GuardedWebSocketProtocol):
            pass

        Http.guard = WebSocket.guard = guard
        return Http, WebSocket


#: How long a connection refused as it opened waits for its request before it is
#: closed (so that the client reads the refusal; see ``GuardedHttpProtocol._refuse``).
REFUSAL_LINGER_SECONDS: Final = 2.0


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with the guard's caps and header deadline."""

    guard: ConnectionGuard
    header_deadline: asyncio.TimerHandle | None = None
    #: Refused (over a cap): the rest of what it sends is ignored.
    refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else None
        proxy = self._trusted_hosts()
        key = None if proxy is not None and peer in proxy else address_key(peer)
        refused = self.guard.open(transport, key)
        if refused is not None:
            self._refuse(refused, before_request=True)
        else:
            self._arm_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        self.guard.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            super().data_received(data)
        elif self.header_deadline is not None:
            # Refused before its request came: the request is read now, so closing
            # sends a FIN and the client reads the whole refusal (see ``_refuse``).
            self._disarm_header_deadline()
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._disarm_header_deadline()
        proxy = self._trusted_hosts()
        peer = self.client[0] if self.client else None
        if proxy is not None and peer in proxy:
            # Counted under the client the proxy names, as uvicorn's middleware reads it.
            forwarded = [v for n, v in self.headers if n == b"x-forwarded-for"]
            client = peer
            if forwarded:
                host, _ = proxy.get_trusted_client_address(b", ".join(forwarded).decode("latin1"))
                client = host or peer
            if not self.guard.assign(self.transport, address_key(client)):
                self._refuse("too_many_connections")
                return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self.refused:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        if not self.refused:
            super().handle_websocket_upgrade()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # now waiting for the next request
            self._arm_header_deadline()

    def _trusted_hosts(self) -> Any:
        """uvicorn's trusted proxy hosts, when ``forwarded_allow_ips`` is in force."""
        app = self.app
        return app.trusted_hosts if isinstance(app, ProxyHeadersMiddleware) else None

    def _refuse(self, code: str, *, before_request: bool = False) -> None:
        """Answer ``code`` (429, or 503 when the whole server is full) and close."""
        self.refused = True
        full = code == "connections_full"
        lang = negotiate(dict(self.headers or []).get(b"accept-language", b"").decode("latin1"))
        message = translate(lang, f"error.{code}", max=self.guard.max_per_address)
        if self.transport.is_closing():
            return
        status = (503, "Service Unavailable") if full else (429, "Too Many Requests")
        self.transport.write(_refusal(*status, code, message))
        if not before_request or not self.transport.can_write_eof():
            self.transport.close()
            return
        # Refused as it opened, before its request: closing now would make the
        # kernel answer the request still on its way with a reset, which can
        # discard the refusal before the client reads it. So the answer is ended
        # (half-close) and the connection closed once the request is read, or
        # after a short linger (never longer than a silent client gets anyway).
        self.transport.write_eof()
        self.header_deadline = self.loop.call_later(
            min(REFUSAL_LINGER_SECONDS, self.guard.header_seconds), self._header_deadline_passed
        )

    def _arm_header_deadline(self) -> None:
        self._disarm_header_deadline()
        self.header_deadline = self.loop.call_later(
            self.guard.header_seconds, self._header_deadline_passed
        )

    def _disarm_header_deadline(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def _header_deadline_passed(self) -> None:
        self.header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


#: zlib's compression level of permessage-deflate (uvicorn leaves zlib's default, 6).
#: A state message (5-10 KB of JSON) compresses in about half the CPU time at level 1,
#: to about 16 % of its size instead of 11 %: the server compresses every message once
#: per connection, four or more per action (docs/performance.md, "Server at scale").
DEFLATE_LEVEL: Final = 1


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol: gives the guard's count back; lets the app abort;
    compresses with permessage-deflate at :data:`DEFLATE_LEVEL`."""

    guard: ConnectionGuard
    closed: asyncio.Event | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for factory in self.conn.available_extensions or ():
            if isinstance(factory, ServerPerMessageDeflateFactory):
                settings = dict(factory.compress_settings or {})
                factory.compress_settings = {**settings, "level": DEFLATE_LEVEL}

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        if self.closed is not None:
            self.closed.set()
        super().connection_lost(exc)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        # A peer that answers no ping does not read the close frame either: a plain
        # close would wait for it to take what is buffered.
        self.transport.abort()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None:  # (the app's task starts later: it sees the extension)
            self.closed = asyncio.Event()
            extensions = dict(scope.get("extensions") or {})
            extensions[ABORT_EXTENSION] = {"end": TransportEnd(self.transport.abort, self.closed)}
            scope["extensions"] = extensions
