"""Irish Snap rules: the calls, the last slapper, false slaps, safe players, the loser."""

from __future__ import annotations

import pytest
from slap_helpers import act, order_of, scripted_stacks, turns

from kartentisch.cards import Card, Rank
from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.games.irish_snap.engine import (
    CALLS,
    CardTurned,
    GameEnded,
    IrishSnapGame,
    IrishSnapOptions,
    PileTaken,
    PlayerSafe,
)
from kartentisch.realtime.actions import TimedAction


def game_with(
    forced: dict[int, str] | None = None, players: int = 3, dealer: int = 2, **options: object
) -> IrishSnapGame:
    stacks = scripted_stacks(players, dealer, forced)
    return IrishSnapGame(stacks, dealer=dealer, options={"players": players, **options})


def test_calls_run_ace_to_king_and_loop() -> None:
    game = game_with()
    turns(game, 15, start=0)
    calls = [e.call for e in game.events if isinstance(e, CardTurned)]
    assert calls == [*CALLS, Rank.ACE, Rank(2)]
    assert [r.letter for r in CALLS] == ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert not any(e.match for e in game.events if isinstance(e, CardTurned))
    assert game.next_call == Rank(3)


def test_everyone_slaps_on_a_match_and_the_last_takes_the_pile() -> None:
    game = game_with({2: "3H"})  # the third card, called "three", matches
    t = turns(game, 3, start=0)
    turned = game.events[-1]
    assert isinstance(turned, CardTurned) and turned.match and turned.call == Rank(3)
    assert game.match_open and game.to_move is None
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(t, 0, "turn"))
    assert err.value.rule == "slap_pending"
    types = act(game, f"{t} s2 slap", f"{t + 50} s0 slap", f"{t + 400} s1 slap")
    assert types == ["slapped", "slapped", "slapped", "pile_taken"]
    taken = game.events[-1]
    assert isinstance(taken, PileTaken)
    assert (taken.seat, taken.reason, len(taken.cards)) == (1, "last_slap", 3)
    assert game.stack(1)[-3:] == taken.cards  # under the stack, unshuffled
    # The count restarts at Ace and the taker plays next.
    assert game.next_call == Rank.ACE and game.to_move == 1


def test_ties_for_last_go_by_seat_order() -> None:
    game = game_with({2: "3H"})
    t = turns(game, 3, start=0)
    act(game, f"{t} s0 slap", f"{t + 10} s1 slap", f"{t + 10} s2 slap")
    taken = game.events[-1]
    assert isinstance(taken, PileTaken) and taken.seat == 2


def test_who_does_not_slap_in_time_counts_as_last() -> None:
    game = game_with({2: "3H"}, slap_timeout_ms=1500)
    t = turns(game, 3, start=0)  # the match came at t - 1000
    card_time = t - 1000
    act(game, f"{t} s0 slap", f"{t + 10} s2 slap")
    assert game.advance(card_time + 1499) == []
    events = game.advance(card_time + 1500)
    assert [e.type for e in events] == ["pile_taken"]
    assert isinstance(events[0], PileTaken) and events[0].reason == "too_slow"
    assert events[0].seat == 1 and events[0].t == card_time + 1500
    # A slap after the time-out is a harmless late slap.
    assert act(game, f"{card_time + 1600} s1 slap") == ["late_slap"]


def test_several_non_slappers_the_higher_seat_is_last() -> None:
    game = game_with({2: "3H"}, slap_timeout_ms=1500)
    t = turns(game, 3, start=0)
    act(game, f"{t} s2 slap")
    # The next action closes the window first: seat 1 (higher of 0, 1) takes.
    assert game.can(TimedAction(t + 600, 1, "turn"))
    types = act(game, f"{t + 600} s1 turn")
    assert types == ["pile_taken", "card_turned"]
    assert game.events[-2] == PileTaken(t + 500, 1, "too_slow", game.events[-2].cards)  # type: ignore[attr-defined]
    turned = game.events[-1]
    assert isinstance(turned, CardTurned) and turned.call == Rank.ACE


def test_false_slap_takes_the_pile_and_restarts_the_count() -> None:
    game = game_with()
    t = turns(game, 5, start=0)
    assert act(game, f"{t} s2 slap") == ["pile_taken"]
    taken = game.events[-1]
    assert isinstance(taken, PileTaken)
    assert (taken.seat, taken.reason, len(taken.cards)) == (2, "false_slap", 5)
    assert game.to_move == 2 and game.next_call == Rank.ACE
    assert act(game, f"{t + 100} s0 slap") == ["late_slap"]
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(t + 1000, 1, "slap"))
    assert err.value.rule == "empty_pile"


def test_slap_with_a_call_is_refused() -> None:
    game = game_with()
    turns(game, 1, start=0)
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(2000, 1, "slap", call=True))
    assert err.value.rule == "no_slap_call"


def test_last_card_without_pickup_makes_a_player_safe_and_the_last_loses() -> None:
    # Three players, seat 0 holds 18, seats 1 and 2 hold 17; no card matches.
    game = game_with()
    t = turns(game, 50, start=0)  # turn 49 was seat 1's last card
    assert game.stack_sizes() == (1, 0, 1)
    assert game.safe == (False, True, False)
    safe = [e for e in game.events if isinstance(e, PlayerSafe)]
    assert [e.seat for e in safe] == [1]
    assert game.to_move == 2
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(t, 1, "slap"))
    assert err.value.rule == "player_safe"
    t = turns(game, 1, start=t)  # seat 2's last card: safe; seat 0 is last with cards
    assert game.is_over and game.loser == 0
    assert game.events[-1] == GameEnded(t - 1000, 0, (1, 2), (1, 0, 0))
    assert game.winners == (1, 2) and game.safe_order == (1, 2)


def test_last_card_matching_a_player_must_still_slap() -> None:
    # 2 players, seat 0 starts; turn 50 is seat 0's last card and is called "queen".
    assert CALLS[50 % 13] == Rank.QUEEN
    game = game_with({50: "QH"}, players=2, dealer=1)
    t = turns(game, 51, start=0)
    assert game.stack_sizes() == (0, 1) and game.match_open
    assert not game.safe[0]  # not safe while the match is open
    act(game, f"{t} s1 slap", f"{t + 100} s0 slap")
    taken = game.events[-1]
    assert isinstance(taken, PileTaken) and taken.seat == 0
    assert not game.is_over and game.to_move == 0 and game.stack_sizes() == (51, 1)


def test_last_card_matching_safe_when_another_is_last() -> None:
    game = game_with({50: "QH"}, players=2, dealer=1)
    t = turns(game, 51, start=0)
    types = act(game, f"{t} s0 slap", f"{t + 100} s1 slap")
    assert types == ["slapped", "slapped", "pile_taken", "player_safe", "game_ended"]
    assert game.loser == 1 and game.stack_sizes() == (0, 52)


def test_options() -> None:
    assert IrishSnapOptions.from_dict({"slap_timeout_ms": 900}).slap_timeout_ms == 900
    with pytest.raises(OptionError):
        IrishSnapOptions.from_dict({"slap_timeout_ms": 0})
    with pytest.raises(OptionError):
        IrishSnapOptions.from_dict({"call": True})


def test_observation_shows_the_call_and_who_must_slap() -> None:
    game = game_with({2: "3H"})
    t = turns(game, 3, start=0)
    obs = game.observation(0)
    assert obs.top == Card("3H") and obs.call == Rank(3) and obs.match_open
    assert obs.must_slap and obs.deadline == t - 1000 + 2000
    act(game, f"{t} s0 slap")
    assert not game.observation(0).must_slap and game.observation(1).must_slap
    assert game.observation(1).to_dict()["call"] == "3"


def test_turn_order_skips_no_one_until_a_pickup() -> None:
    game = game_with()
    order = order_of(game.initial_stacks, game.dealer)
    turns(game, 6, start=0)
    assert [e.card for e in game.events if isinstance(e, CardTurned)] == order[:6]
