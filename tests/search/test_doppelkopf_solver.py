"""The exact Doppelkopf solver against brute force, compiled against pure Python."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch.cards import Card
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal
from kartentisch.search import doppelkopf_solver as solver
from kartentisch.search.doppelkopf_solver import (
    Position,
    card_points,
    encoding,
    reached,
    solve,
    solve_moves,
)
from kartentisch.tricks import TRUMP


def brute_force(pos: Position) -> int:
    """Plain minimax over every following card, with the engine's trick order."""
    order = pos.order
    tricks = pos.model == "tricks"
    hands = {s: list(pos.hands[s]) for s in pos.seats}

    def rotation(leader: int) -> tuple[int, ...]:
        i = pos.seats.index(leader)
        return pos.seats[i:] + pos.seats[:i]

    def rec(leader: int, trick: list[Card]) -> int:
        seats = rotation(leader)
        if len(trick) == 4:
            last = not any(hands[s] for s in pos.seats)
            winner = seats[order.winner(trick, last)]
            worth = 1 if tricks else sum(card_points(c) for c in trick)
            value = worth if winner in pos.party else 0
            return value + (rec(winner, []) if hands[winner] else 0)
        seat = seats[len(trick)]
        led = order.suit_of[trick[0]] if trick else None
        values = []
        for card in dict.fromkeys(order.playable(hands[seat], led)):
            hands[seat].remove(card)
            values.append(rec(leader, [*trick, card]))
            hands[seat].append(card)
        return max(values) if seat in pos.party else min(values)

    return rec(pos.leader, list(pos.trick))


def deal_in_play(seed: int, *, solo: str = "", options: dict[str, Any] | None = None) -> Any:
    """A deal past its declarations: everyone passes, or the first seat asked
    that may declares ``solo`` (a kind, optionally with `` ouvert``)."""
    deal = DoppelkopfDeal.from_seed(seed, dealer=seed % 4, options=options)
    while deal.phase != "play":
        legal = deal.legal_actions()
        wanted = [a for a in legal if isinstance(a, Call) and str(a) == f"solo {solo}".strip()]
        if solo and wanted:
            deal.apply(wanted[0])
        elif Call("pass") in legal:
            deal.apply(Call("pass"))
        else:
            deal.apply(legal[0])
    return deal


def endgame(seed: int, cards_left: int, **kwargs: Any) -> DoppelkopfDeal:
    """Random legal cards until ``cards_left`` cards remain in the hands."""
    deal = deal_in_play(seed, **kwargs)
    rng = random.Random(seed)
    total = len(deal.playing) * deal.options.hand_size
    for _ in range(total - cards_left):
        deal.apply(rng.choice(deal.following_actions()))
    return deal


GAMES = [
    {},
    {"solo": "queens"},
    {"solo": "jacks"},
    {"solo": "clubs"},
    {"solo": "hearts"},
    {"solo": "no_trump"},
    {"solo": "trump ouvert"},
    {"options": {"preset": "ddv"}},
    {"options": {"players": 5}},
    {"options": {"preset": "ddv", "solo_style": "ddv"}, "solo": "spades"},
    {"options": {"dulle_order": "second"}},
    {"options": {"dulle_order": "second_except_last"}},
    {"options": {"dulle_order": "second_except_last", "preset": "ddv"}, "solo": "trump"},
]


@pytest.mark.parametrize("game", range(len(GAMES)))
@pytest.mark.parametrize("seed", range(6))
def test_solver_agrees_with_brute_force(game: int, seed: int) -> None:
    kwargs = GAMES[game]
    deal = endgame(seed * 11 + game, 9 + seed % 4, **kwargs)
    if deal.is_over or deal.re_party is None:
        pytest.skip("no position in play")
    pos = Position.of(deal)
    exact = brute_force(pos)
    result = solve(pos)
    assert result.value == exact
    assert result.total == pos.taken + exact
    moves = solve_moves(pos)
    assert set(moves) == set(pos.following())
    pick = max if pos.to_move in pos.party else min
    assert pick(moves.values()) == exact
    if len(pos.trick) < 3:
        for card, value in moves.items():
            hands = [list(h) for h in pos.hands]
            hands[pos.to_move].remove(card)
            child = Position(
                hands=tuple(tuple(h) for h in hands),
                seats=pos.seats,
                party=pos.party,
                order=pos.order,
                leader=pos.leader,
                trick=(*pos.trick, card),
                model=pos.model,
            )
            assert value == brute_force(child)


@pytest.mark.parametrize("seed", range(24))
def test_compiled_and_pure_python_agree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if not solver.compiled():
        pytest.skip("the compiled solver is not built here")
    rng = random.Random(seed)
    deal = endgame(seed, rng.randrange(10, 19), **GAMES[seed % len(GAMES)])
    if deal.is_over or deal.re_party is None:
        pytest.skip("no position in play")
    pos = Position.of(deal)
    cards = pos.following()
    thresholds = [30, 60, 90, 121, 151]
    fast = [
        solve_moves(pos),
        solve_moves(pos, horizon=1),
        solve_moves(pos, horizon=2),
        reached(pos, cards, thresholds)[0],
        reached(pos, cards, thresholds, horizon=2)[0],
    ]
    monkeypatch.setenv("KARTENTISCH_PURE_PYTHON", "1")
    assert not solver.compiled()
    slow = [
        solve_moves(pos),
        solve_moves(pos, horizon=1),
        solve_moves(pos, horizon=2),
        reached(pos, cards, thresholds)[0],
        reached(pos, cards, thresholds, horizon=2)[0],
    ]
    assert fast == slow


@pytest.mark.parametrize("seed", range(8))
def test_reached_counts_the_thresholds_of_the_exact_value(seed: int) -> None:
    deal = endgame(seed, 16 + seed % 3)
    if deal.is_over or deal.re_party is None:
        pytest.skip("no position in play")
    pos = Position.of(deal)
    cards = pos.following()
    exact = solve_moves(pos)
    thresholds = [-5, 0, 1, 20, 30, 45, 60, 90, 121, 300]
    counts, nodes = reached(pos, cards, thresholds)
    assert nodes > 0
    assert counts == [sum(1 for t in thresholds if exact[c] >= t) for c in cards]
    with pytest.raises(ValueError, match="ascend"):
        reached(pos, cards, [10, 5])


def test_playing_out_the_solution_reaches_the_predicted_augen() -> None:
    deal = endgame(5, 16)
    pos = Position.of(deal)
    predicted = solve(pos).total
    while not deal.is_over:
        deal.apply(solve(deal).best)
    augen = deal.augen()
    assert augen["re"] == predicted


def test_equivalent_cards_are_merged_only_with_equal_points() -> None:
    deal = deal_in_play(1)
    enc = encoding(deal.order)
    index = enc.index
    qc, qs, qh = index[Card("QC")], index[Card("QS")], index[Card("QH")]
    ad, td = index[Card("AD")], index[Card("10D")]
    assert (qs, qh) == (qc + 1, qc + 2) and td == ad + 1
    assert all(enc.groups[i] == 0 for i in (qc, ad)) and enc.points[ad] != enc.points[td]
    mine = enc.hand([Card("QC"), Card("QS"), Card("AD"), Card("10D")])
    s = solver._Solver(enc, [mine, 0, 0, 0], (True, False, True, False))
    # Nothing else out: the queens merge, the ♦ ace and ten (11 and 10 Augen) do not.
    assert s.moves(mine, 0) == [qc, ad, td]
    # Another QS out: the QC and the QS differ (of equal cards the first played wins).
    other = enc.hand([Card("QS")])
    presence = (other | other >> 1) & 0x5555_5555_5555_5555
    assert s.moves(mine, presence) == [qc, qs, ad, td]
    if solver.compiled():
        from kartentisch.search import _dokosolve

        assert _dokosolve.moves(list(enc.groups), list(enc.points), mine, presence) == [
            qc,
            qs,
            ad,
            td,
        ]


def test_encoding_orders_trumps_first_high_to_low() -> None:
    deal = deal_in_play(2)
    enc = encoding(deal.order)
    trumps = [c for c in enc.types if deal.order.suit_of[c] == TRUMP]
    assert enc.types[: len(trumps)] == tuple(trumps)
    assert [str(c) for c in trumps[:3]] == ["10H", "QC", "QS"]


def test_position_refuses_what_it_cannot_model() -> None:
    deal = DoppelkopfDeal.from_seed(1, dealer=0)
    with pytest.raises(ValueError, match="not in play"):
        Position.of(deal)
    null = endgame(3, 20, solo="null")
    if null.game_type == "null":
        with pytest.raises(ValueError, match="Nullsolo"):
            Position.of(null)


@pytest.mark.parametrize("pure", [False, True])
def test_the_second_dulle_in_the_search(pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both Dullen meet in a trick: which one wins follows ``dulle_order``, in the
    search (compiled and pure Python) as in the engine's trick order."""
    from kartentisch.cards import parse_cards
    from kartentisch.games.doppelkopf.trumps import trick_order

    if pure:
        monkeypatch.setenv("KARTENTISCH_PURE_PYTHON", "1")
    elif not solver.compiled():
        pytest.skip("the compiled solver is not built here")

    def value(hands: list[str], dulle_order: str) -> int:
        pos = Position(
            hands=tuple(tuple(parse_cards(h)) for h in hands),
            seats=(0, 1, 2, 3),
            party=frozenset({0, 2}),
            order=trick_order("normal", dulle_order=dulle_order),
            leader=0,
        )
        result = solve(pos)
        assert result.value == brute_force(pos)
        return result.value

    last = ["10H", "10H", "JD", "JS"]  # the last trick: Re leads a Dulle, Kontra has the other
    assert value(last, "first") == 24
    assert value(last, "second") == 0
    assert value(last, "second_except_last") == 24
    # Two tricks to go: the Dullen meet in the first, the winner leads the second.
    two = ["10H KC", "10H AC", "JD 10C", "JS KS"]
    first, second = value(two, "first"), value(two, "second")
    assert value(two, "second_except_last") == second
    assert (first, second) == (24, 0)  # the club trick goes to Kontra's ace either way
