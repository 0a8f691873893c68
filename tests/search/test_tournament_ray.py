"""Duplicate tournaments on a Ray cluster (the optional ``ray`` extra).

The tests that need Ray skip when it is not installed; under the ``dev``
extra they start a small local cluster once (2 CPUs, no dashboard) and
shut it down at the end.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from kartentisch.cli.main import main
from kartentisch.errors import KartentischError
from kartentisch.tournament import run_tournament

BOTS = ["heuristic", "random", "random", "random"]
NO_RAY = "Ray is not installed: pip install 'kartentisch[ray]' (or the dev extra)"
SIMULATE = ["simulate", "slobberhannes", "--bots", ",".join(BOTS), "--deals", "8", "--seed", "5"]


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[str]:
    """A local Ray cluster for this module; yields its address."""
    ray = pytest.importorskip("ray", reason=NO_RAY)
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def test_tournament_on_ray_is_the_same_as_in_one_process(ray_cluster: str) -> None:
    one = run_tournament("slobberhannes", BOTS, deals=8, seed=5)
    finished: list[int] = []
    # This process is connected already: the tournament uses that connection.
    on_ray = run_tournament(
        "slobberhannes", BOTS, deals=8, seed=5, ray_address="auto", progress=finished.append
    )
    assert on_ray.to_dict() == one.to_dict()
    assert sum(finished) == 8 and len(finished) > 1


def test_simulate_with_ray_address_prints_the_same_json(
    ray_cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*SIMULATE, "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    # A separate driver process that connects to the cluster by its address.
    run = subprocess.run(
        [sys.executable, "-m", "kartentisch.cli.main", *SIMULATE, "--json", "--ray", ray_cluster],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == alone


def test_without_ray_installed_the_message_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray → ImportError
    assert main([*SIMULATE, "--ray", "local"]) == 2
    assert "pip install 'kartentisch[ray]'" in capsys.readouterr().err


def test_simulate_without_ray_does_not_import_ray() -> None:
    code = (
        "import sys, kartentisch, kartentisch.tournament\n"
        "from kartentisch.cli.main import main\n"
        "assert main(['simulate', 'slobberhannes', '--bots', 'random,random,random,random', "
        "'--deals', '2', '--jobs', '2', '--json']) == 0\n"
        "assert 'ray' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=120)


def test_cpu_counts_go_only_with_a_local_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SIMULATE, "--ray", "auto", "--jobs", "2"]) == 2
    assert "--ray local" in capsys.readouterr().err
    with pytest.raises(KartentischError, match="ray_cpus"):
        run_tournament("slobberhannes", BOTS, deals=1, ray_cpus=2)
    with pytest.raises(KartentischError, match="only with the address 'local'"):
        run_tournament("slobberhannes", BOTS, deals=1, ray_address="auto", ray_cpus=2)


def test_an_address_where_nothing_answers_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray", reason=NO_RAY)
    # As if this process were not connected (the module's cluster may be up).
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    with pytest.raises(KartentischError, match="cannot reach a Ray cluster"):
        run_tournament("slobberhannes", BOTS, deals=1, ray_address="127.0.0.1:1")
