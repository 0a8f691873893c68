"""Invariants over many random games: 52 cards, the end, exact replay, pure checks."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kartentisch.cards import Card
from kartentisch.games import get_game
from kartentisch.games.irish_snap.engine import IrishSnapGame
from kartentisch.games.slapjack.engine import SlapjackGame
from kartentisch.realtime.actions import TimedAction
from kartentisch.realtime.base import TimedGame
from kartentisch.records import dumps_record, loads_record

#: A bound on the steps of one random game. Random play is slow to finish: many false
#: slaps give cards back, and a 2-player Slapjack game (seed 4007, slap rate 0.3) took
#: 6,474 actions. Far more than any game needs, far less than a game that never ends.
MAX_STEPS = 60_000


def snapshot(game: TimedGame) -> tuple[Any, ...]:
    return (
        tuple(game.stack(s) for s in range(game.num_seats)),
        game.pile,
        len(game.events),
        len(game.actions),
        game.clock,
        game.is_over,
        game.to_move,
    )


def check_invariants(game: TimedGame) -> None:
    cards = [c for s in range(game.num_seats) for c in game.stack(s)] + list(game.pile)
    assert len(cards) == 52 and set(cards) == {Card(i) for i in range(52)}
    if isinstance(game, SlapjackGame):
        assert all(not game.stack(s) for s in range(game.num_seats) if game.out[s])
        assert sum(not o for o in game.out) >= 1
    else:
        assert isinstance(game, IrishSnapGame)
        assert all(not game.stack(s) for s in range(game.num_seats) if game.safe[s])


def play_randomly(game: TimedGame, rng: random.Random, slap_rate: float) -> None:
    t = 0
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        t += rng.choice((0, 0, 1, 5, 50, 200, 400, 900, 2500))
        roll = rng.random()
        n = game.num_seats
        if roll < slap_rate:
            seat = rng.randrange(n)
            action = TimedAction(game.next_time(seat, t), seat, "slap", rng.random() < 0.8)
        elif roll < 0.97:
            mover = game.to_move
            if mover is None:
                game.advance(t)
                continue
            action = TimedAction(game.next_time(mover, t), mover, "turn")
        else:
            game.advance(t)
            check_invariants(game)
            continue
        before = snapshot(game)
        if not game.can(action):
            assert snapshot(game) == before  # a refused check changes nothing
            continue
        # On a jack in Slapjack, or a match in Irish Snap, the signal is slapped fast.
        game.apply(action)
        top = game.top
        if (
            top is not None
            and rng.random() < 0.9
            and (
                (isinstance(game, SlapjackGame) and top.rank.letter == "J")
                or (isinstance(game, IrishSnapGame) and game.match_open)
            )
        ):
            for seat in rng.sample(range(n), n):
                slap = TimedAction(
                    game.next_time(seat, t + rng.randint(150, 700)), seat, "slap", True
                )
                if isinstance(game, IrishSnapGame):
                    slap = TimedAction(slap.t, seat, "slap")
                if game.can(slap):
                    game.apply(slap)
        check_invariants(game)


def replays_exactly(game: TimedGame) -> None:
    record = loads_record(dumps_record(game.to_record()))
    spec = get_game(record["game"])
    again = spec.replay(record)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    assert again.points() == game.points() and again.is_over == game.is_over
    assert spec.summarize(again) == spec.summarize(game)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 10),
    call=st.booleans(),
    limit=st.sampled_from([None, None, 60_000]),
    slap_rate=st.sampled_from([0.02, 0.1, 0.3]),
)
@example(seed=4007, players=2, call=True, limit=None, slap_rate=0.3)  # 6,474 actions
def test_random_slapjack_games(
    seed: int, players: int, call: bool, limit: int | None, slap_rate: float
) -> None:
    rng = random.Random(seed)
    options = {"players": players, "call": call, "time_limit_ms": limit}
    game = SlapjackGame.from_seed(rng, options=options)
    play_randomly(game, rng, slap_rate)
    assert game.winners
    if game.end_reason != "time_limit":
        assert len(game.winners) == 1
    replays_exactly(game)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 10),
    timeout=st.sampled_from([300, 2000]),
    slap_rate=st.sampled_from([0.02, 0.1, 0.3]),
)
def test_random_irish_snap_games(seed: int, players: int, timeout: int, slap_rate: float) -> None:
    rng = random.Random(seed)
    game = IrishSnapGame.from_seed(rng, options={"players": players, "slap_timeout_ms": timeout})
    play_randomly(game, rng, slap_rate)
    assert game.loser is not None and game.loser not in game.safe_order
    assert sorted([*game.safe_order, game.loser]) == list(range(players))
    replays_exactly(game)


def test_a_partial_record_replays_to_the_same_open_window() -> None:
    game = IrishSnapGame.from_seed(3, options={"players": 3})
    rng = random.Random(3)
    t = 0
    while not game.match_open:
        mover = game.to_move
        assert mover is not None
        t += 700
        game.apply(TimedAction(t, mover, "turn"))
    deadline = game.observation(0).deadline
    assert deadline is not None
    game.advance(deadline + 5)  # the window closed by time alone
    record = game.to_record()
    assert record["clock"] == deadline + 5
    again = get_game("irish-snap").replay(record)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    del record["clock"]
    shorter = get_game("irish-snap").replay(record)
    assert shorter.match_open and len(shorter.events) < len(game.events)
    assert rng is not None
