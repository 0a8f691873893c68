"""The WebSocket stack's own cost: server CPU per action with no game, no storage.

Issue 19 asks at most 0.4 ms of server CPU per action. An action at a table of
four is one message in and a state (a patch) out to each of the four seats.
This benchmark measures what the stack ``kartentisch serve`` runs on costs for
exactly that, with nothing of Kartentisch in it: uvicorn (uvloop, httptools,
its sans-I/O ``websockets`` protocol with permessage-deflate at the server's
zlib level, as ``serve`` configures it) and a Starlette WebSocket endpoint
that, for every message, parses it and
sends one ``--size``-byte JSON text to each of the group's four connections.
That is the floor under the real server's cost per action: the table's own
work (the engine, views, patches, storage) comes on top.

The clients are as ``web_load.py``'s: groups of four WebSockets in a process
of their own (``websockets``, compression on, as a browser asks for it); in
each group the seats act in turn after a random think (uniform in
0..2×``--think`` s), and the round trip is from the send to the actor's own
copy of the answer. CPU per action counts the server's user + system time
from 3 s after the last group connected to the clients' stop.

    python benchmarks/ws_floor.py --groups 150 --seconds 30
    python benchmarks/ws_floor.py --groups 150 --seconds 30 --no-deflate --json

Everything random is seeded (``--seed``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_load import (
    client_event_loop,
    cpu_seconds,
    free_port,
    percentile,
    raise_open_files,
    stop_server,
    wait_until_serving,
)


def tree_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` and its descendants still running (granian
    serves from a worker process of its own)."""
    total = cpu_seconds(pid)
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text(encoding="ascii").split()
        total += sum(tree_cpu_seconds(int(child)) for child in children)
    return total


def receivers(members: list[Any], actor: Any, fanout: int) -> list[Any]:
    """The actor first, then as many of the others as ``fanout`` asks."""
    return [actor, *(m for m in members if m is not actor)][:fanout]


def patch_text(n: int, size: int) -> str:
    """An answer of about ``size`` bytes of JSON for action ``n`` (not all alike)."""
    state: dict[str, Any] = {"type": "patch", "version": n, "ops": []}
    text = json.dumps(state)
    while len(text) < size:
        state["ops"].append([len(state["ops"]), "x" * (n % 60 + 4)])
        text = json.dumps(state)
    return text


def serve_websockets(port: int, deflate: bool) -> None:
    """The same server on the ``websockets`` library's own asyncio server (no ASGI,
    no Starlette, no uvicorn): what those layers cost."""
    import uvloop
    from websockets.asyncio.server import ServerConnection
    from websockets.asyncio.server import serve as ws_serve
    from websockets.datastructures import Headers
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.http11 import Request, Response

    from kartentisch.web.guard import DEFLATE_LEVEL

    groups: dict[str, list[ServerConnection]] = {}

    def health(connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            return Response(200, "OK", Headers([("Content-Length", "2")]), b"ok")
        return None

    async def table(ws: ServerConnection) -> None:
        assert ws.request is not None
        path, _, query = ws.request.path.partition("?")
        params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
        size, fanout = int(params.get("size", "350")), int(params.get("fanout", "4"))
        members = groups.setdefault(path, [])
        members.append(ws)
        try:
            async for raw in ws:
                text = patch_text(json.loads(raw)["n"], size)
                for member in receivers(members, ws, fanout):
                    with contextlib.suppress(Exception):
                        await member.send(text)
        finally:
            members.remove(ws)

    extensions = (
        [ServerPerMessageDeflateFactory(compress_settings={"level": DEFLATE_LEVEL})]
        if deflate
        else None
    )

    async def main() -> None:
        async with ws_serve(
            table,
            "127.0.0.1",
            port,
            process_request=health,
            extensions=extensions,
            compression=None,
            ping_interval=None,
            max_size=64 * 1024,
        ) as server:
            await server.serve_forever()

    uvloop.run(main())


def make_app() -> Any:
    """The floor's ASGI app (Starlette): ``/healthz`` and ``/ws/{group}``."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    groups: dict[str, list[WebSocket]] = {}

    async def healthz(request: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    async def table(ws: WebSocket) -> None:
        await ws.accept()
        name = ws.path_params["group"]
        size = int(ws.query_params.get("size", "350"))
        fanout = int(ws.query_params.get("fanout", "4"))
        members = groups.setdefault(name, [])
        members.append(ws)
        try:
            while True:
                text = patch_text(json.loads(await ws.receive_text())["n"], size)
                for member in receivers(members, ws, fanout):
                    await member.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            members.remove(ws)

    return Starlette(routes=[Route("/healthz", healthz), WebSocketRoute("/ws/{group}", table)])


def serve_granian(port: int) -> None:
    """The same ASGI app under granian (a server written in Rust; its WebSockets have
    no permessage-deflate), one worker: what a compiled server layer would save."""
    try:
        from granian import Granian
        from granian.constants import Interfaces, Loops
    except ImportError:
        raise SystemExit("--stack granian needs granian: pip install -e '.[bench]'") from None

    Granian(
        "ws_floor:make_app",
        address="127.0.0.1",
        port=port,
        interface=Interfaces.ASGI,
        workers=1,
        loop=Loops.uvloop,
        websockets=True,
        factory=True,
        log_enabled=False,
    ).serve()


def serve(port: int, deflate: bool) -> None:
    """The floor server under uvicorn, configured as ``serve`` configures it."""
    import uvicorn
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

    from kartentisch.web.guard import DEFLATE_LEVEL

    class Protocol(WebSocketsSansIOProtocol):
        """uvicorn's protocol as ``serve`` uses it: deflate at the server's level."""

        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            for factory in self.conn.available_extensions or ():
                if isinstance(factory, ServerPerMessageDeflateFactory):
                    settings = dict(factory.compress_settings or {})
                    factory.compress_settings = {**settings, "level": DEFLATE_LEVEL}

    uvicorn.run(
        make_app(),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        http="httptools",
        ws=Protocol,
        ws_per_message_deflate=deflate,
        ws_max_size=64 * 1024,
    )


async def group_loop(
    base: str, index: int, args: argparse.Namespace, stats: dict[str, Any], stop: asyncio.Event
) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(args.seed * 100_003 + index)
    url = f"{base}/ws/g{index}?size={args.size}&fanout={args.fanout}"
    compression = "deflate" if args.deflate else None
    async with contextlib.AsyncExitStack() as stack:
        seats = [
            await stack.enter_async_context(
                connect(url, max_size=None, ping_interval=None, compression=compression)
            )
            for _ in range(4)
        ]
        stats["connected"] += 1
        waiting: dict[int, tuple[int, asyncio.Future[float]]] = {}

        async def read(seat: int) -> None:
            async for raw in seats[seat]:
                version = json.loads(raw)["version"]
                pending = waiting.get(seat)
                if pending is not None and pending[0] == version and not pending[1].done():
                    pending[1].set_result(time.perf_counter())

        readers = [asyncio.create_task(read(s)) for s in range(4)]
        n = 0
        try:
            while not stop.is_set():
                await asyncio.sleep(rng.uniform(0, 2 * args.think))
                if stop.is_set():
                    break
                n += 1
                seat = n % 4
                done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
                waiting[seat] = (n, done)
                sent = time.perf_counter()
                await seats[seat].send(json.dumps({"n": n}))
                answered = await done
                stats["rtts"].append((answered - sent) * 1000)
                stats["actions"] += 1
                if stats["actions"] >= stats["until"]:
                    stats["enough"].set()
        finally:
            for reader in readers:
                reader.cancel()


async def drive(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    enough = asyncio.Event()
    stats: dict[str, Any] = {
        "connected": 0,
        "actions": 0,
        "rtts": [],
        "until": float("inf"),
        "enough": enough,
    }
    stop = asyncio.Event()
    base = f"ws://127.0.0.1:{port}"
    tasks = [
        asyncio.create_task(group_loop(base, i, args, stats, stop)) for i in range(args.groups)
    ]
    while stats["connected"] < args.groups:
        await asyncio.sleep(0.1)
    await asyncio.sleep(args.settle)
    cpu0, actions0, rtt0 = tree_cpu_seconds(pid), stats["actions"], len(stats["rtts"])
    t0 = time.monotonic()
    if args.actions:  # until that many actions are counted (an event, not a time)
        stats["until"] = actions0 + args.actions
        if stats["actions"] < stats["until"]:
            await enough.wait()
    else:
        await asyncio.sleep(args.seconds)
    cpu1, actions1 = tree_cpu_seconds(pid), stats["actions"]
    elapsed = time.monotonic() - t0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    rtts = sorted(stats["rtts"][rtt0:])
    actions = actions1 - actions0
    return {
        "groups": args.groups,
        "size": args.size,
        "deflate": args.deflate and args.stack != "granian",
        "fanout": args.fanout,
        "stack": args.stack,
        "seconds": round(elapsed, 1),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "rtt_p50_ms": round(percentile(rtts, 0.50), 2) if rtts else None,
        "rtt_p99_ms": round(percentile(rtts, 0.99), 2) if rtts else None,
        "server_cpu_ms_per_action": round((cpu1 - cpu0) * 1000 / max(1, actions), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=150, help="tables of four (150)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--actions", type=int, default=0, help="measure until this many actions instead"
    )
    parser.add_argument("--think", type=float, default=0.8, help="mean think time, s (0.8)")
    parser.add_argument("--size", type=int, default=350, help="bytes of each answer (350)")
    parser.add_argument("--no-deflate", dest="deflate", action="store_false")
    parser.add_argument(
        "--fanout", type=int, default=4, choices=range(1, 5), help="answers per action (4)"
    )
    parser.add_argument(
        "--stack",
        choices=("uvicorn", "websockets", "granian"),
        default="uvicorn",
        help="uvicorn + Starlette as serve runs them (default), or the websockets server alone",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--settle", type=float, default=3.0, help="s after the last group connected (3)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve-port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_port is not None:
        if args.stack == "granian":
            serve_granian(args.serve_port)
        else:
            (serve if args.stack == "uvicorn" else serve_websockets)(args.serve_port, args.deflate)
        return 0
    raise_open_files(4 * args.groups)
    port = free_port()
    command = [sys.executable, __file__, "--serve-port", str(port), "--stack", args.stack]
    if not args.deflate:
        command.append("--no-deflate")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        # (granian's worker imports the app by name: this folder on its path)
        here = str(Path(__file__).resolve().parent)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
        }
        with log.open("wb") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        server = wait_until_serving(proc, port, log)
        try:
            factory = client_event_loop()
            with asyncio.Runner(loop_factory=factory) as runner:
                result = runner.run(drive(port, server.pid, args))
        finally:
            stop_server(server)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
