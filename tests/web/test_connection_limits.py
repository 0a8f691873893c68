"""The server's connection limits over real sockets (docs/security.md, "Limits").

Each test starts the configuration ``kartentisch serve`` runs
(:func:`kartentisch.cli.main.serve_config`) on a free port with short
deadlines, and waits for what the server does (an answer, a closed socket,
a count in its connection guard), never for time to pass.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kartentisch.cli.main import build_parser, serve_config
from kartentisch.web.guard import ConnectionGuard, guard_of
from kartentisch.web.protocol import Limits

from .servers import free_port

#: A generous bound for waiting on the server's events (a loaded CI machine).
PATIENCE = 30.0


class Served:
    """A running server: its address and its connection guard."""

    def __init__(self, address: str, guard: ConnectionGuard) -> None:
        self.address = address
        self.guard = guard
        self.host, port = address.split(":")
        self.port = int(port)

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    def table(self) -> dict[str, Any]:
        """A new table (one seat for the caller, one open); its id and the caller's token."""
        seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
        body = {"game": "slobberhannes", "name": "Ann", "seats": seats}
        with httpx.Client(timeout=PATIENCE) as client:
            created: dict[str, Any] = client.post(f"{self.url}/api/tables", json=body).json()
        return created

    def spectators(self, table_id: str) -> int:
        with httpx.Client(timeout=PATIENCE) as client:
            shown = client.get(f"{self.url}/api/tables/{table_id}").json()
        count: int = shown["table"]["spectators"]
        return count


@contextlib.contextmanager
def serving(
    tmp_path: Path, *options: str, limits: Limits | None = None, small_buffers: bool = False
) -> Iterator[Served]:
    """The server ``kartentisch serve *options`` runs, in a thread.

    ``small_buffers``: the kernel buffers only a few KiB for each WebSocket
    (instead of growing to MiBs), so that a client that does not read falls
    behind after a few messages.
    """
    args = build_parser().parse_args(
        [
            *("serve", "--port", str(free_port()), "--data-dir", str(tmp_path)),
            *("--bot-delay", "0", "--log-level", "warning", *options),
        ]
    )
    config = serve_config(args, limits=limits)
    if small_buffers:
        guarded: Any = config.ws

        class SmallBuffers(guarded):  # type: ignore[misc]
            def connection_made(self, transport: Any) -> None:
                transport.get_extra_info("socket").setsockopt(
                    socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
                )
                super().connection_made(transport)

        config.ws = SmallBuffers
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + PATIENCE
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    guard = guard_of(config)
    try:
        yield Served(f"127.0.0.1:{args.port}", guard)
    finally:
        server.should_exit = True
        thread.join(timeout=PATIENCE)


def wait_for(what: str, condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen within {PATIENCE} s: {what}")
        time.sleep(0.01)


def raw(served: Served, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from ``source`` (any 127.x address is this machine)."""
    sock = socket.socket()
    sock.settimeout(PATIENCE)
    sock.bind((source, 0))
    sock.connect((served.host, served.port))
    return sock


def read_to_end(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (EOF or reset)."""
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def get(sock: socket.socket, path: str = "/healthz", close: bool = False) -> bytes:
    """One HTTP request on ``sock``; the whole answer (headers and body)."""
    connection = "close" if close else "keep-alive"
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: {connection}\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(65536)
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def refusal(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    error: dict[str, Any] = json.loads(body)["error"]
    return status, error


def socket_to(served: Served, table_id: str, forwarded: str | None = None) -> ClientConnection:
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else None
    return connect(
        f"ws://{served.address}/ws/tables/{table_id}",
        additional_headers=headers,
        open_timeout=PATIENCE,
    )


def refused_socket(served: Served, table_id: str, forwarded: str | None = None) -> int:
    """The status the server refused a WebSocket handshake with (it must refuse it).

    The handshake is written by hand on a plain socket, not by a WebSocket client:
    a connection over its address's cap is answered as it opens, and a client
    library whose reading thread gets that answer before it has sent its request
    reports a closed connection instead of the status. Here the request goes out at
    once and whatever comes back is read to the end, in whichever order they cross.
    """
    sock = raw(served)
    headers = [
        f"GET /ws/tables/{table_id} HTTP/1.1",
        f"Host: {served.address}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if forwarded is not None:
        headers.append(f"X-Forwarded-For: {forwarded}")
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        sock.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())
    answer = read_to_end(sock)
    sock.close()
    status, error = refusal(answer)
    assert error["code"] in ("too_many_connections", "connections_full"), answer
    return status


# -- proxies ------------------------------------------------------------------


def test_a_forged_forwarded_for_is_ignored_unless_a_proxy_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")  # uvicorn's variable: not ours
    # (a long hello deadline: the sockets here say no hello)
    options = ("--max-connections-per-address", "2", "--hello-timeout", "600")
    with serving(tmp_path, *options) as served:
        table = served.table()
        wait_for("the lobby's connection closed", lambda: served.guard.total == 0)
        with socket_to(served, table["id"], "203.0.113.5"), socket_to(served, table["id"], "::1"):
            # Both count as the socket's own address, whatever they say.
            wait_for("two from 127.0.0.1", lambda: served.guard.count("127.0.0.1") == 2)
            assert served.guard.count("203.0.113.5") == 0
            assert refused_socket(served, table["id"], "203.0.113.9") == 429


def test_a_named_proxy_is_believed_for_the_client_it_names(tmp_path: Path) -> None:
    options = ("--forwarded-allow-ips", "127.0.0.1", "--max-connections-per-address", "2")
    with serving(tmp_path, *options, "--hello-timeout", "600") as served:
        table = served.table()
        wait_for("the lobby's connection closed", lambda: served.guard.total == 0)
        # The right-most address that is not a trusted hop is the client.
        proxied = "198.51.100.1, 203.0.113.5, 127.0.0.1"
        with (
            socket_to(served, table["id"], "203.0.113.5") as first,
            socket_to(served, table["id"], proxied),
        ):
            wait_for("two from 203.0.113.5", lambda: served.guard.count("203.0.113.5") == 2)
            assert served.guard.count("127.0.0.1") == 0
            assert refused_socket(served, table["id"], "203.0.113.5") == 429
            # Another client behind the same proxy is not affected; IPv6 counts by /64.
            with (
                socket_to(served, table["id"], "2001:db8::1"),
                socket_to(served, table["id"], "2001:db8::2"),
            ):
                assert refused_socket(served, table["id"], "2001:db8::ffff") == 429
                assert served.guard.count("2001:db8::/64") == 2
            first.send(json.dumps({"type": "ping", "t": 1}))
            assert json.loads(first.recv(timeout=PATIENCE)) == {"type": "pong", "t": 1}


# -- connection caps and deadlines ---------------------------------------------


def test_connections_over_the_address_cap_are_closed_at_once(tmp_path: Path) -> None:
    # (a long header deadline: the connections held here send no request at first)
    with serving(
        tmp_path, "--max-connections-per-address", "3", "--header-timeout", "600"
    ) as served:
        held = [raw(served) for _ in range(3)]
        wait_for("three open", lambda: served.guard.count("127.0.0.1") == 3)
        extra = raw(served)
        status, error = refusal(read_to_end(extra))
        assert (status, error["code"]) == (429, "too_many_connections")
        assert "3" in error["message"]
        # The address's other connections keep working; another address is not affected.
        assert b" 200 " in get(held[0])
        other = raw(served, "127.0.0.2")
        assert b" 200 " in get(other)
        assert served.guard.count("127.0.0.2") == 1
        for sock in [*held, extra, other]:
            sock.close()
        wait_for("all given back", lambda: served.guard.total == 0)
        # Once they are closed, the address may connect again.
        with raw(served) as again:
            assert b" 200 " in get(again, close=True)


def test_a_refused_client_whose_request_comes_late_still_reads_the_refusal(
    tmp_path: Path,
) -> None:
    """Refused as it opens, a client sends its request only after the refusal has come
    (as a loaded client does): the server has ended its answer but still reads the
    request, so the client gets the whole refusal and a clean close, never a reset
    that would discard the answer."""
    with serving(
        tmp_path, "--max-connections-per-address", "1", "--header-timeout", "600"
    ) as served:
        held = raw(served)
        wait_for("one open", lambda: served.guard.count("127.0.0.1") == 1)
        extra = raw(served)
        status, error = refusal(read_to_end(extra))  # up to the answer's end (a half-close)
        assert (status, error["code"]) == (429, "too_many_connections")
        extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert extra.recv(65536) == b""  # closed once read: a FIN, not a reset
        extra.close()
        held.close()
        wait_for("all given back", lambda: served.guard.total == 0)


def test_the_server_cap_closes_new_connections_when_full(tmp_path: Path) -> None:
    with serving(tmp_path, "--limit-concurrency", "3", "--header-timeout", "600") as served:
        held = [raw(served, f"127.0.0.{n}") for n in (1, 2, 3)]
        wait_for("three open", lambda: served.guard.total == 3)
        status, error = refusal(read_to_end(raw(served, "127.0.0.4")))
        assert (status, error["code"]) == (503, "connections_full")
        for sock in held:
            sock.close()
        wait_for("all given back", lambda: served.guard.total == 0)


def test_a_connection_that_sends_no_headers_in_time_is_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--header-timeout", "0.5") as served:
        silent = raw(served)
        slow = raw(served)
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and never more
        assert read_to_end(silent) == b"" and read_to_end(slow) == b""
        wait_for("all given back", lambda: served.guard.total == 0)


def test_the_next_request_has_the_same_header_deadline(tmp_path: Path) -> None:
    # (the keep-alive timeout here is longer; the first request must come in 5 s)
    with serving(tmp_path, "--header-timeout", "5", "--timeout-keep-alive", "600") as served:
        kept = raw(served)
        assert b" 200 " in get(kept)
        kept.sendall(b"GET /healthz HTTP/1.1\r\n")
        assert read_to_end(kept) == b""
        wait_for("given back", lambda: served.guard.total == 0)


def test_an_idle_keep_alive_connection_is_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--timeout-keep-alive", "1", "--header-timeout", "600") as served:
        with raw(served) as idle:
            assert b" 200 " in get(idle)
            assert read_to_end(idle) == b""
        wait_for("given back", lambda: served.guard.total == 0)


# -- the table WebSocket ---------------------------------------------------------


def test_a_socket_that_says_no_hello_in_time_is_told_and_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--hello-timeout", "0.5") as served:
        table = served.table()
        with connect(
            f"ws://{served.address}/ws/tables/{table['id']}",
            additional_headers={"Accept-Language": "de"},
            open_timeout=PATIENCE,
        ) as german:
            told = json.loads(german.recv(timeout=PATIENCE))
            assert told["code"] == "hello_timeout" and "Verbindung" in told["message"]
            with pytest.raises(ConnectionClosed) as closed:
                german.recv(timeout=PATIENCE)
            assert closed.value.rcvd is not None
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "hello timeout")
        wait_for("its count given back", lambda: served.guard.total == 0)
        # (That a socket which says hello keeps its place is what every other test shows.)


def _frame(text: str) -> bytes:
    """A masked client text frame (RFC 6455)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


def _raw_websocket(served: Served, path: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a small receive buffer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(PATIENCE)
    sock.connect((served.host, served.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {served.address}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # (one byte at a time: nothing of the frames after it)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def test_a_reader_that_falls_behind_is_disconnected_and_its_place_freed(tmp_path: Path) -> None:
    # Hellos unlimited: each of the player's hellos makes the table send everyone a state.
    limits = replace(Limits.unlimited(), max_spectators=50, close_seconds=0.5)
    with serving(tmp_path, limits=limits, small_buffers=True) as served:
        table = served.table()
        stuck = _raw_websocket(served, f"/ws/tables/{table['id']}")
        stuck.sendall(_frame(json.dumps({"type": "hello"})))  # a spectator; then it never reads
        wait_for("the spectator", lambda: served.spectators(table["id"]) == 1)
        with socket_to(served, table["id"]) as player:
            hello = json.dumps({"type": "hello", "token": table["token"]})
            rounds = 0
            while served.spectators(table["id"]) == 1:
                for _ in range(100):  # (sent together: the server's work, not round trips)
                    player.send(hello)
                states = 0
                while states < 100:
                    states += json.loads(player.recv(timeout=PATIENCE))["type"] == "state"
                rounds += 100
                assert rounds < 200_000, "the spectator was never disconnected"
            # Detached at once: the player's table no longer counts it; and it is closed
            # (aborted: it cannot be sent a close frame it does not read).
            read_to_end(stuck)
            wait_for("only the player's socket", lambda: served.guard.total == 1)
            player.send(json.dumps({"type": "ping", "t": 3}))
            while json.loads(player.recv(timeout=PATIENCE))["type"] != "pong":
                pass
        stuck.close()


def test_a_peer_that_answers_no_ping_is_closed(tmp_path: Path) -> None:
    with serving(tmp_path, "--ws-ping", "0.5", "--hello-timeout", "600") as served:
        table = served.table()
        silent = _raw_websocket(served, f"/ws/tables/{table['id']}")  # reads, never answers
        received = read_to_end(silent)
        assert received[:1] == b"\x89"  # the server's ping came first, then it gave up
        wait_for("its count given back", lambda: served.guard.total == 0)
        silent.close()
