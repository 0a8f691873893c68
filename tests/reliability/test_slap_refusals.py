"""Slapjack and Irish Snap under random illegal input, with their variants.

Random games (2–10 players; Slapjack with and without the call and the time
limit, Irish Snap with short and long slap time-outs; late-slap windows of
several lengths) are played with illegal actions mixed in: turns out of
turn, during an open match or by a player who is out or safe, slaps on an
empty pile, repeated slaps, Irish Snap slaps with a call, actions from seats
that do not exist or offered for another seat, actions back in time or
before a lower seat at the same millisecond, actions past the time limit or
after the end, stale actions, and objects that are no action at all. Each
must be refused with its rule and leave the game exactly as the shadow game
that never saw it (the clock included); every record written replays to the
same game.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kartentisch.cards import Card
from kartentisch.games import get_game
from kartentisch.games.doppelkopf import Call
from kartentisch.games.irish_snap.engine import IrishSnapGame, IrishSnapOptions
from kartentisch.games.slapjack.engine import SlapjackGame, SlapjackOptions
from kartentisch.realtime.actions import ActionType, TimedAction
from kartentisch.realtime.base import TimedGame

from .refusals import GARBAGE, Attempt, Refusals, fuzz_settings, replay_through_file, rules

#: Actions of the other games: no timed action either.
FOREIGN: tuple[object, ...] = (Card("JS"), Call("pass"), Call("re"))
#: Steps with illegal actions mixed in; the game is then played on (or stopped) without.
FUZZ_STEPS = 250
MAX_STEPS = 6000
DELAYS = (0, 0, 1, 5, 50, 200, 400, 900, 2500)
KINDS: tuple[ActionType, ...] = ("turn", "slap")


def snapshot(game: TimedGame) -> dict[str, Any]:
    """Everything a player or an interface can see of a game (and the hidden stacks)."""
    seats = range(game.num_seats)
    return {
        "record": game.to_record(),
        "events": tuple(game.events),
        "clock": game.clock,
        "to_move": game.to_move,
        "over": game.is_over,
        "points": game.points(),
        "stacks": [game.stack(s) for s in seats],
        "pile": game.pile,
        "turned": game.turned,
        "next_time": [game.next_time(s) for s in seats],
        "legal": game.legal_actions(),
        "observations": [game.observation(s).to_dict() for s in seats],
    }


def deadline(game: TimedGame) -> int | None:
    """The next time at which time alone changes the game."""
    if isinstance(game, SlapjackGame):
        return game.options.time_limit_ms
    assert isinstance(game, IrishSnapGame)
    return game.observation(0).deadline


def in_game(game: TimedGame, seat: int) -> str | None:
    """The rule that refuses any action of ``seat`` (out or safe), if one does."""
    if isinstance(game, SlapjackGame):
        return "player_out" if game.out[seat] else None
    assert isinstance(game, IrishSnapGame)
    return "player_safe" if game.safe[seat] else None


def attempts(game: TimedGame) -> list[Attempt]:
    """Illegal actions for the game as it stands, by kind (read from the shadow game)."""
    n = game.num_seats
    out = [
        Attempt("malformed", junk, seat, rules("unknown_action"))
        for junk in (*GARBAGE, *FOREIGN)
        for seat in (None, 0)
    ]
    for seat in range(n, n + 3):
        for kind in KINDS:
            action = TimedAction(game.next_time(0), seat, kind)
            out.append(Attempt("no_such_seat", action, None, rules("no_such_seat")))
            out.append(Attempt("no_such_seat", action, seat, rules("no_such_seat")))
    for action in game.legal_actions():
        for seat in {(action.seat + 1) % n, n, 99} - {action.seat}:
            out.append(Attempt("wrong_seat", action, seat, rules("wrong_seat")))
    if game.is_over:
        for seat in range(n):
            for kind in KINDS:
                action = TimedAction(game.next_time(seat), seat, kind)
                out.append(Attempt("after_the_end", action, None, rules("game_over")))
                out.append(Attempt("after_the_end", action, seat, rules("game_over")))
        return out
    out += _time_attempts(game)
    limit = deadline(game)
    irish = isinstance(game, IrishSnapGame)
    match_open = isinstance(game, IrishSnapGame) and game.match_open
    for seat in range(n):
        t = game.next_time(seat)
        if limit is not None and limit <= t:
            continue  # time alone would change the game first
        blocked = in_game(game, seat)
        turn = TimedAction(t, seat, "turn")
        slap = TimedAction(t, seat, "slap")
        if blocked is not None:
            out += [Attempt("out_of_the_game", a, None, rules(blocked)) for a in (turn, slap)]
            continue
        if match_open:
            out.append(Attempt("turn_during_a_match", turn, None, rules("slap_pending")))
        elif seat != game.to_move:
            out.append(Attempt("out_of_turn", turn, None, rules("not_your_turn")))
        if irish:
            called = TimedAction(t, seat, "slap", True)
            out.append(Attempt("slap_with_a_call", called, None, rules("no_slap_call")))
        if game.observation(seat).slapped:
            out.append(Attempt("slapped_twice", slap, None, rules("already_slapped")))
        elif not game.pile:
            late = max(t, game.clock + game.options.late_ms + 1)
            if limit is None or limit > late:
                empty = TimedAction(late, seat, "slap", not irish)
                out.append(Attempt("empty_pile", empty, None, rules("empty_pile")))
    if isinstance(game, SlapjackGame) and limit is not None:
        for seat in range(n):
            past = TimedAction(max(limit, game.next_time(seat)), seat, "slap", True)
            out.append(Attempt("past_the_time_limit", past, None, rules("game_over")))
    return out


def _time_attempts(game: TimedGame) -> list[Attempt]:
    """Actions back in time, before a lower seat at the same millisecond, or stale."""
    out: list[Attempt] = []
    actions = game.actions
    if not actions:
        return out
    last = actions[-1]
    codes = rules("out_of_time_order")
    if game.clock > 0:
        for seat in range(game.num_seats):
            for kind in KINDS:
                back = TimedAction(game.clock - 1, seat, kind)
                out.append(Attempt("back_in_time", back, None, codes))
    if last.t == game.clock:
        for seat in range(last.seat):
            for kind in KINDS:
                early = TimedAction(last.t, seat, kind)
                out.append(Attempt("before_a_lower_seat", early, None, codes))
    out += [Attempt("stale", a, None, codes) for a in actions[-6:-1] if a.key < last.key]
    if last.t < game.clock:
        out.append(Attempt("stale", last, None, codes))
    elif last.type == "slap":
        blocked = in_game(game, last.seat)
        code = rules(blocked) if blocked is not None else rules("already_slapped")
        out.append(Attempt("stale", last, None, code))
    elif game.to_move != last.seat:
        out.append(Attempt("stale", last, None))
    return out


def step(game: TimedGame, rng: random.Random, t: int, slap_rate: float) -> TimedAction | None:
    """A random legal action at about ``t`` (None: let time pass instead)."""
    n = game.num_seats
    roll = rng.random()
    top = game.top
    signal = top is not None and (
        (isinstance(game, SlapjackGame) and top.rank.letter == "J")
        or (isinstance(game, IrishSnapGame) and game.match_open)
    )
    if roll < slap_rate or (signal and roll < 0.8):
        seat = rng.randrange(n)
        call = isinstance(game, SlapjackGame) and rng.random() < 0.8
        action = TimedAction(game.next_time(seat, t), seat, "slap", call)
    elif roll < 0.97:
        mover = game.to_move
        if mover is None:
            return None
        action = TimedAction(game.next_time(mover, t), mover, "turn")
    else:
        return None
    return action if game.can(action) else None


def play(game: TimedGame, shadow: TimedGame, seed: int, rate: float, slap_rate: float) -> Refusals:
    rng = random.Random(seed)
    refusals = Refusals(game, shadow, snapshot, rng)
    replay_at = rng.randrange(1, FUZZ_STEPS)
    t = 0
    steps = 0
    while not game.is_over and steps < MAX_STEPS:
        steps += 1
        if steps < FUZZ_STEPS and rng.random() < rate:
            refusals.offer_some(attempts(shadow), rng.randint(1, 3))
        t += rng.choice(DELAYS)
        action = step(shadow, rng, t, slap_rate)
        if action is None:
            assert game.advance(t) == shadow.advance(t)
        else:
            seat = rng.choice([None, action.seat])
            assert game.apply(action, seat) == shadow.apply(action, seat)
        if steps == replay_at:
            assert_same_game(replay_through_file(game.to_record()), game)
    refusals.offer_some(attempts(shadow), 5)
    assert_same_game(replay_through_file(game.to_record()), game)
    return refusals


def assert_same_game(again: object, game: TimedGame) -> None:
    assert isinstance(again, type(game))
    assert snapshot(again) == snapshot(game)
    spec = get_game(game.game)
    assert spec.summarize(again) == spec.summarize(game)


@fuzz_settings(50)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 10),
    call=st.booleans(),
    limit=st.sampled_from([None, None, 20_000, 90_000]),
    late_ms=st.sampled_from([0, 200, 1500]),
    rate=st.sampled_from([0.2, 0.6]),
    slap_rate=st.sampled_from([0.05, 0.3]),
)
def test_slapjack_refuses_illegal_actions_and_replays(
    seed: int,
    players: int,
    call: bool,
    limit: int | None,
    late_ms: int,
    rate: float,
    slap_rate: float,
) -> None:
    options = SlapjackOptions(players=players, call=call, time_limit_ms=limit, late_ms=late_ms)
    game = SlapjackGame.from_seed(seed, options=options)
    shadow = SlapjackGame.from_seed(seed, options=options)
    play(game, shadow, seed, rate, slap_rate)


@fuzz_settings(50)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 10),
    timeout=st.sampled_from([300, 2000]),
    late_ms=st.sampled_from([0, 200, 1500]),
    rate=st.sampled_from([0.2, 0.6]),
    slap_rate=st.sampled_from([0.05, 0.3]),
)
def test_irish_snap_refuses_illegal_actions_and_replays(
    seed: int, players: int, timeout: int, late_ms: int, rate: float, slap_rate: float
) -> None:
    options = IrishSnapOptions(players=players, slap_timeout_ms=timeout, late_ms=late_ms)
    game = IrishSnapGame.from_seed(seed, options=options)
    shadow = IrishSnapGame.from_seed(seed, options=options)
    play(game, shadow, seed, rate, slap_rate)


def test_every_kind_of_illegal_input_is_refused_somewhere() -> None:
    """Across a few games, every kind of illegal input is offered and refused."""
    kinds: set[str] = set()
    for seed in range(4):
        for game, shadow in (
            (
                SlapjackGame.from_seed(seed, options={"players": 3, "time_limit_ms": 90_000}),
                SlapjackGame.from_seed(seed, options={"players": 3, "time_limit_ms": 90_000}),
            ),
            (
                IrishSnapGame.from_seed(seed, options={"players": 3}),
                IrishSnapGame.from_seed(seed, options={"players": 3}),
            ),
        ):
            kinds |= set(play(game, shadow, seed, 1.0, 0.3).kinds)
    assert kinds == {
        "malformed",
        "no_such_seat",
        "wrong_seat",
        "after_the_end",
        "back_in_time",
        "before_a_lower_seat",
        "stale",
        "out_of_the_game",
        "turn_during_a_match",
        "out_of_turn",
        "slap_with_a_call",
        "slapped_twice",
        "empty_pile",
        "past_the_time_limit",
    }
