"""Servers for tests over real sockets (faults, limits, browser tests).

:class:`ServerProcess` is ``kartentisch serve`` as people run it: its own process,
a port on 127.0.0.1, a data directory (SQLite) or a database URL.
:meth:`ServerProcess.kill` ends it as a crash would (SIGKILL),
:meth:`ServerProcess.start` starts it again on the same data. :func:`in_thread`
serves an app of this process instead (its store and manager stay at hand).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import httpx
import uvicorn

__all__ = ["ServerProcess", "free_port", "in_thread"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def in_thread(
    app: Any, *, timeout: float = 15, lifespan: Literal["auto", "on", "off"] = "auto"
) -> Iterator[str]:
    """``app`` under uvicorn in a thread, on a free port of 127.0.0.1, until the block ends.

    Yields ``host:port`` once uvicorn says it has started; ``timeout`` only guards
    against a server that never starts or never stops.
    """
    config = uvicorn.Config(
        app, host="127.0.0.1", port=free_port(), log_level="warning", lifespan=lifespan
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=timeout)


class ServerProcess:
    """``kartentisch serve`` in a subprocess on a fixed port and data directory.

    ``db`` is a database URL (default: SQLite in ``data_dir``); ``redis`` and
    ``lease`` make it one of several processes sharing tables (``--redis``,
    ``--lease``); ``options`` are more options of ``serve``. The server's output goes
    to ``data_dir/server-NAME.log`` (``server.log`` without a name), kept across restarts.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        db: str | None = None,
        redis: str | None = None,
        lease: float | None = None,
        name: str = "",
        grace: float = 300,
        bot_delay: float = 0,
        log_level: str = "warning",
        options: Sequence[str] = (),
    ) -> None:
        self.data_dir = data_dir
        self.db = db
        self.redis = redis
        self.lease = lease
        self.name = name
        self.port = free_port()
        self.grace = grace
        self.bot_delay = bot_delay
        self.log_level = log_level
        self.options = list(options)
        self.log_path = data_dir / (f"server-{name}.log" if name else "server.log")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        """Host and port, as in ``ws://{address}/ws/tables/{id}``."""
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> None:
        """Start the process and wait until it answers."""
        self.launch()
        self.wait_ready(timeout)

    def launch(self) -> None:
        """Start the process without waiting for it (several may start at once)."""
        command = [
            sys.executable,
            "-m",
            "kartentisch.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--bot-delay",
            str(self.bot_delay),
            "--grace",
            str(self.grace),
            "--log-level",
            self.log_level,
        ]
        if self.db is not None:
            command += ["--db", self.db]
        if self.redis is not None:
            command += ["--redis", self.redis]
        if self.lease is not None:
            command += ["--lease", str(self.lease)]
        command += self.options
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 120) -> None:
        """Wait until the launched process answers its health check (``timeout`` only
        guards against a server that never comes up: a loaded machine starts slowly)."""
        assert self.proc is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self._who} exited:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self._who} did not answer within {timeout} s:\n{self.log()}")

    @property
    def _who(self) -> str:
        return f"the server {self.name}" if self.name else "the server"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL): nothing is shut down cleanly."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 180) -> int | None:
        """Send ``sig`` and wait for the process to end; its exit status.

        The wait is for the exit, however long a loaded machine makes it (a graceful
        stop hands tables over and closes pools: over 10 s with the cores taken);
        ``timeout`` only guards against a hung process, which is then killed.
        """
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def post(self, path: str, body: dict[str, Any], status: int | None = None) -> dict[str, Any]:
        """POST ``body``; the answer must have ``status`` (any success if not given)."""
        response = httpx.post(f"{self.url}{path}", json=body, timeout=15)
        if status is None:
            assert response.status_code < 300, response.text
        else:
            assert response.status_code == status, response.text
        data: dict[str, Any] = response.json()
        return data

    def get(self, path: str) -> dict[str, Any]:
        response = httpx.get(f"{self.url}{path}", timeout=15)
        assert response.status_code < 300, response.text
        data: dict[str, Any] = response.json()
        return data
