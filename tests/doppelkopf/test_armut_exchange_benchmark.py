"""benchmarks/armut_exchange.py: Armut deals played twice from their exchange."""

from __future__ import annotations

from benchmark_scripts import load_benchmark


def test_armut_deals_are_found_and_played_twice_the_same_way() -> None:
    bench = load_benchmark("armut_exchange")
    found = list(bench.armut_deals(2, 2))
    assert len(found) == 2
    for _seed, deal in found:
        # At the exchange: an Armut was offered and taken.
        assert deal.phase == "armut_give" and deal.armut_partner is not None
    first = bench.main(["--deals", "2", "--seed", "2", "--samples", "2", "--json"])
    again = bench.main(["--deals", "2", "--seed", "2", "--samples", "2", "--json"])
    first.pop("cpu_seconds")
    again.pop("cpu_seconds")
    assert first == again  # the seed decides, not the clock
    assert first["deals"] == 2 and 0 <= first["exchanges_not_the_heuristics"] <= 4
    low, high = first["interval95"]
    assert low <= first["estimate_minus_heuristic"] <= high
