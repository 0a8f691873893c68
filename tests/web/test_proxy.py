"""nginx in front of two server processes, with the configuration docs/deploy.md shows.

The file ``examples/deploy/nginx-kartentisch.conf`` is run by Debian's nginx,
unchanged but for the ports, in front of two ``kartentisch serve`` processes
sharing PostgreSQL and Redis (as in test_cluster.py). Through the proxy:

* every request about one table (its page, its API, its WebSocket) goes to the
  same process, and different tables are spread over both;
* a table is created, joined and played, the WebSocket upgrades passing
  through, each player seeing the other's moves;
* the process the table's requests go to is killed: the proxy sends the
  players' new connections to the other process, which runs the table (taking
  it over when the dead one owned it), and the deal is played to its end with
  nothing lost.

Without ``/usr/sbin/nginx``, PostgreSQL or Redis the test is skipped with a
message, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from . import test_cluster
from .servers import ServerProcess, free_port
from .test_cluster import FIRST_DEAL, LEASE, Player, first_legal, play, settled
from .test_storage import postgres_schema

#: The fixture of test_cluster.py: skips without Redis (fails under CI=true).
redis_url = test_cluster.redis_url

NGINX = Path("/usr/sbin/nginx")
CONFIG = Path(__file__).resolve().parents[2] / "examples" / "deploy" / "nginx-kartentisch.conf"
#: The response header the test's nginx adds: which process answered.
UPSTREAM = "X-Kartentisch-Upstream"


class Proxy:
    """Debian's nginx running the example configuration in front of two processes."""

    def __init__(self, directory: Path, upstreams: tuple[ServerProcess, ServerProcess]) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.log_path = directory / "nginx.log"
        site = CONFIG.read_text(encoding="utf-8")
        # The example's ports, and nothing else, are replaced.
        for example, server in zip(("127.0.0.1:8001", "127.0.0.1:8002"), upstreams, strict=True):
            assert example in site, example
            site = site.replace(example, server.address)
        assert "listen 8080;" in site
        site = site.replace("listen 8080;", f"listen 127.0.0.1:{self.port};")
        (directory / "kartentisch.conf").write_text(site, encoding="utf-8")
        temp = directory / "temp"
        temp.mkdir(parents=True, exist_ok=True)
        paths = "\n".join(
            f"    {kind}_temp_path {temp / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        user = "user root;\n" if os.geteuid() == 0 else ""
        self.main = directory / "nginx.conf"
        self.main.write_text(
            f"{user}worker_processes 1;\n"
            f"pid {directory / 'nginx.pid'};\n"
            "error_log stderr notice;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    access_log {directory / 'access.log'};\n"
            f"{paths}\n"
            f"    add_header {UPSTREAM} $upstream_addr always;\n"
            f"    include {directory / 'kartentisch.conf'};\n"
            "}\n",
            encoding="utf-8",
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    def _command(self, *more: str) -> list[str]:
        return [str(NGINX), "-p", str(self.directory), "-c", str(self.main), "-e", "stderr", *more]

    def start(self) -> None:
        checked = subprocess.run(self._command("-t"), capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                self._command("-g", "daemon off;"), stdout=log, stderr=subprocess.STDOUT
            )
        # Waits for nginx to listen (the deadline only guards against one that never does).
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.log()
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, self.log()
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def get(self, path: str) -> httpx.Response:
        return httpx.get(f"{self.url}{path}", timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(f"{self.url}{path}", json=body, timeout=30)
        assert response.status_code < 300, response.text
        data: dict[str, Any] = response.json()
        return data


def _needed() -> None:
    if not NGINX.exists():
        message = f"nginx is not installed ({NGINX}; Debian's package nginx)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI=true requires it")
        pytest.skip(message)


@pytest.fixture
def proxied(redis_url: str, tmp_path: Path) -> Iterator[tuple[Proxy, dict[str, ServerProcess]]]:
    _needed()
    with postgres_schema() as db:
        started = [
            ServerProcess(
                tmp_path,
                db=db,
                redis=redis_url,
                lease=LEASE,
                name=name,
                options=["--forwarded-allow-ips", "127.0.0.1"],
            )
            for name in "AB"
        ]
        proxy = Proxy(tmp_path / "nginx", (started[0], started[1]))
        try:
            for server in started:
                server.launch()
            for server in started:
                server.wait_ready(timeout=120)
            proxy.start()
            yield proxy, {server.address: server for server in started}
        finally:
            proxy.stop()
            for server in started:
                if server.running:
                    server.stop(signal.SIGKILL)
                print(f"--- server {server.name} ---\n{server.log()}")
            print(f"--- nginx ---\n{proxy.log()}")


def test_nginx_keeps_a_table_on_one_process_and_fails_over(
    proxied: tuple[Proxy, dict[str, ServerProcess]],
) -> None:
    proxy, servers = proxied

    # -- Sticky by table: the same process for every request about one table ------------
    chosen: dict[str, set[str]] = {}
    for number in range(40):
        table = f"t{number:02d}"
        for path in (f"/t/{table}", f"/api/tables/{table}", f"/t/{table}"):
            answered = proxy.get(path)
            chosen.setdefault(table, set()).add(answered.headers[UPSTREAM])
    assert all(len(upstreams) == 1 for upstreams in chosen.values()), chosen
    spread = {upstream for upstreams in chosen.values() for upstream in upstreams}
    assert spread == set(servers), spread  # (40 tables on one process: 2 ** -39)

    # -- A table created, joined and played through the proxy ---------------------------
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    created = proxy.post("/api/tables", {"game": "slobberhannes", "name": "Ann", "seats": seats})
    table_id = created["id"]
    joined = proxy.post(f"/api/tables/{table_id}/join", {"name": "Bo"})
    assert joined["seat"] == 1
    home = proxy.get(f"/api/tables/{table_id}").headers[UPSTREAM]

    def connect(seat: int, token: str) -> Player:
        player = Player(proxy, table_id, seat, token)  # type: ignore[arg-type]
        # The WebSocket's upgrade went where the table's other requests go.
        assert player.ws.response is not None
        assert player.ws.response.headers[UPSTREAM] == home
        player.hello()
        player.until(lambda m: m["type"] == "state", timeout=60)
        return player

    ann = connect(0, created["token"])
    bo = connect(1, joined["token"])
    ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])

    def begun() -> bool:
        return len(ann.acted) >= 2 and len(bo.acted) >= 2 and settled(ann, bo)

    play([ann, bo], first_legal, begun)
    for me, other in ((ann, bo), (bo, ann)):
        assert all(v + 1 in me.views for v in other.acted), "a move was not seen live"
    moves_before = ann.moves()

    # -- The process the table's requests go to dies ------------------------------------
    servers[home].kill()
    survivor = next(server for address, server in servers.items() if address != home)
    ann.close()
    bo.close()
    # The lobby still answers through the proxy, from the other process.
    lobby = proxy.get("/api/tables")
    assert lobby.status_code == 200 and lobby.headers[UPSTREAM].endswith(survivor.address)

    ann = Player(proxy, table_id, 0, created["token"])  # type: ignore[arg-type]
    bo = Player(proxy, table_id, 1, joined["token"])  # type: ignore[arg-type]
    for player in (ann, bo):
        assert player.ws.response is not None
        assert player.ws.response.headers[UPSTREAM].endswith(survivor.address)
        player.hello()
        # (if the dead process owned the table, the survivor takes it once the lease ran out)
        player.until(lambda m: m["type"] == "state", timeout=60)
    # Nothing played before is lost.
    assert ann.moves()[: len(moves_before)] == moves_before

    def dealt() -> bool:
        return all(
            p.state is not None and (p.state["view"]["deal_number"] > 1 or p.state["view"]["over"])
            for p in (ann, bo)
        )

    play([ann, bo], first_legal, dealt, timeout=60)
    record = survivor.get(f"/api/tables/{table_id}/record")
    actions = record["deals"][0]["actions"]
    assert len(actions) == 4 * FIRST_DEAL
    ann.close()
    bo.close()
