"""The exact Slobberhannes solver against brute force, compiled against pure Python."""

from __future__ import annotations

import random

import pytest

from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.search import slobberhannes_solver as solver
from kartentisch.search.slobberhannes_solver import Position, solve, solve_moves


def brute_force(deal: SlobberhannesDeal) -> tuple[int, ...]:
    """Plain max^n: every following card, first minimal in card order, totals."""
    seat = deal.to_move
    assert seat is not None
    best: tuple[int, ...] | None = None
    for card in sorted(deal.following_actions()):
        child = deal.copy()
        child.apply(card)
        value = child.points() if child.is_over else brute_force(child)
        if best is None or value[seat] < best[seat]:
            best = value
    assert best is not None
    return best


def endgame(seed: int, players: int, played: int, bonus: bool = True) -> SlobberhannesDeal:
    rng = random.Random(seed)
    deal = SlobberhannesDeal.from_seed(
        seed, dealer=seed % players, options={"players": players, "all_three_bonus": bonus}
    )
    for _ in range(played):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


# Cards played before solving, by number of players, so brute force stays quick.
PLAYED = {3: 19, 4: 18, 5: 14, 6: 12, 7: 9}


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("seed", range(12))
def test_solver_agrees_with_brute_force(players: int, seed: int) -> None:
    deal = endgame(seed, players, PLAYED[players] + seed % 3, bonus=seed % 4 != 0)
    assert solve(deal).totals == brute_force(deal)


@pytest.mark.parametrize("seed", range(20))
def test_compiled_and_pure_python_agree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if not solver.compiled():
        pytest.skip("the compiled solver is not built here")
    rng = random.Random(seed)
    deal = endgame(seed, 4, rng.randrange(0, 14))
    fast, fast_moves = solve(deal), solve_moves(deal)
    monkeypatch.setenv("KARTENTISCH_PURE_PYTHON", "1")
    assert not solver.compiled()
    slow, slow_moves = solve(deal), solve_moves(deal)
    assert (fast.values, fast.totals, fast.best) == (slow.values, slow.totals, slow.best)
    assert fast_moves == slow_moves


def test_known_deal_and_best_move_is_among_the_values() -> None:
    deal = SlobberhannesDeal.from_seed(4, dealer=3)
    result = solve(deal)
    assert result.values == (0, 1, 0, 2)
    moves = solve_moves(deal)
    assert result.best in moves
    # The chosen card costs its player nothing more, the minimum possible.
    assert moves[result.best][0] == 0 == min(v[0] for v in moves.values())


def test_solving_a_finished_deal_and_playing_out_the_solution() -> None:
    deal = SlobberhannesDeal.from_seed(11, dealer=0)
    predicted = solve(deal).totals
    while not deal.is_over:
        best = solve(deal).best
        assert best is not None
        deal.apply(best)
    assert deal.points() == predicted
    assert solve(deal).best is None


def test_position_refuses_a_finished_deal() -> None:
    deal = endgame(1, 4, 32)
    assert deal.is_over
    with pytest.raises(ValueError, match="the deal is over"):
        Position.of(deal)
