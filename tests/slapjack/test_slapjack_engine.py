"""Slapjack rules: the seed's example, slaps, empty players, turn-over, variants."""

from __future__ import annotations

import pytest
from slap_helpers import act, order_of, scripted_stacks, turns

from kartentisch.cards import Card
from kartentisch.errors import DealError, IllegalActionError, NotationError, OptionError
from kartentisch.games.slapjack.engine import (
    CardGiven,
    GameEnded,
    PileSplit,
    PileWon,
    PlayerOut,
    SlapjackGame,
    SlapjackOptions,
)
from kartentisch.realtime.actions import TimedAction


def example() -> SlapjackGame:
    return SlapjackGame.from_tops(["5C", "KD", "JS"], dealer=2, seats=["Anna", "Ben", "Carla"])


def test_seed_example_ben_takes_three_cards_and_carla_plays_next() -> None:
    game = example()
    assert game.to_move == 0  # Anna, left of the dealer Carla
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn")
    assert game.top == Card("JS")
    # Ben slaps first; Carla's hand lands on his.
    types = act(game, "1950 s1 slap", "1990 s2 slap")
    assert types == ["pile_won", "late_slap"]
    won = [e for e in game.events if isinstance(e, PileWon)]
    assert won == [PileWon(1950, 1, (Card("5C"), Card("KD"), Card("JS")))]
    # Under Ben's stack, unshuffled, in the order played.
    assert game.stack(1)[-3:] == (Card("5C"), Card("KD"), Card("JS"))
    assert game.pile == ()
    assert game.to_move == 2  # Ben's left neighbour
    assert game.stack_sizes() == (17, 19, 16)


def test_same_millisecond_goes_by_seat_order() -> None:
    game = example()
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn", "1950 s0 slap")
    # Seat 2 at the same millisecond comes after seat 0: a late slap.
    assert act(game, "1950 s2 slap") == ["late_slap"]
    game = example()
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn", "1950 s2 slap")
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(1950, 0, "slap"))
    assert err.value.rule == "out_of_time_order"
    assert game.next_time(0) == 1951


def test_time_never_runs_backwards() -> None:
    game = example()
    act(game, "1000 s0 turn")
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(999, 1, "turn"))
    assert err.value.rule == "out_of_time_order"


def test_only_the_player_to_move_turns() -> None:
    game = example()
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(0, 1, "turn"))
    assert err.value.rule == "not_your_turn"
    assert game.actions == []


def test_false_slap_gives_top_card_to_the_player_of_the_slapped_card() -> None:
    game = example()
    act(game, "0 s0 turn", "800 s1 turn")
    top_of_carla = game.stack(2)[0]
    assert act(game, "1000 s2 slap") == ["false_slap"]
    given = game.events[-1]
    assert given == CardGiven(1000, 2, 1, top_of_carla, Card("KD"))
    assert game.stack(1)[-1] == top_of_carla
    assert game.pile == (Card("5C"), Card("KD"))  # the pile stays
    assert game.to_move == 2  # play goes on normally
    # One slap per card and seat; another seat may slap falsely too.
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(1100, 2, "slap"))
    assert err.value.rule == "already_slapped"
    assert act(game, "1100 s0 slap") == ["false_slap"]


def test_slap_on_an_empty_pile_is_refused_but_a_late_one_is_harmless() -> None:
    game = example()
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(0, 1, "slap"))
    assert err.value.rule == "empty_pile"
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn", "1950 s1 slap")
    assert act(game, "2150 s0 slap") == ["late_slap"]  # within late_ms = 200
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(2151, 2, "slap"))
    assert err.value.rule == "empty_pile"


def test_a_jack_nobody_slaps_closes_with_the_next_card() -> None:
    game = example()
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn", "2400 s0 turn")
    assert act(game, "2500 s1 slap") == ["false_slap"]


def two_players_jacks_last() -> SlapjackGame:
    """Seat 0 starts; all four jacks are the last cards turned."""
    stacks = scripted_stacks(2, 1, avoid="jacks")
    return SlapjackGame(stacks, dealer=1, options={"players": 2}, seats=["A", "B"])


def test_empty_player_slaps_back_in_and_the_other_drops_out() -> None:
    game = two_players_jacks_last()
    order = order_of(game.initial_stacks, 1)
    assert [c.rank.letter for c in order[-4:]] == ["J"] * 4
    t = turns(game, 49, start=0)  # up to the first jack, by seat 0
    assert game.top is not None and game.top.rank.letter == "J"
    t = turns(game, 2, start=t)  # nobody slaps: two more jacks
    assert game.stack_sizes() == (0, 1)
    assert [e.type for e in game.events[-1:]] == ["out_of_cards"]
    assert game.to_move == 1  # seat 0 is skipped
    t = turns(game, 1, start=t)  # seat 1 turns its last card, a jack
    assert game.stack_sizes() == (0, 0)
    types = act(game, f"{t} s0 slap")
    assert types == ["pile_won", "player_out", "game_ended"]
    assert game.events[-3] == PileWon(t, 0, game.events[-3].cards, comeback=True)  # type: ignore[attr-defined]
    assert game.out == (False, True)
    assert game.winners == (0,) and game.end_reason == "last_in"


def three_players_jacks_last() -> SlapjackGame:
    stacks = scripted_stacks(3, 2, avoid="jacks")
    return SlapjackGame(stacks, dealer=2, options={"players": 3})


def test_empty_players_are_out_when_someone_else_wins_the_jack() -> None:
    game = three_players_jacks_last()
    # Seat 0 holds 18 cards, the others 17; the last four cards are jacks.
    t = turns(game, 51, start=0)
    assert game.stack_sizes() == (1, 0, 0)
    top = game.top
    assert top is not None and top.rank.letter == "J"
    assert game.to_move == 0
    types = act(game, f"{t} s0 slap")
    assert types == ["pile_won", "player_out", "player_out", "game_ended"]
    outs = [e for e in game.events if isinstance(e, PlayerOut)]
    assert [(e.seat, e.reason) for e in outs] == [(1, "lost_jack"), (2, "lost_jack")]
    assert game.winners == (0,) and game.end_reason == "last_in"


def test_empty_player_who_slaps_falsely_is_out() -> None:
    game = example()
    # Drain Anna (seat 0) by false slaps: each gives her top card away.
    t = 0
    act(game, "0 s0 turn")
    t = 100
    while game.stack(0):
        game.apply(TimedAction(t, 0, "slap"))
        # a fresh card for the next false slap
        mover = game.to_move
        assert mover is not None
        t += 100
        game.apply(TimedAction(t, mover, "turn"))
        t += 100
    assert game.stack(0) == () and not game.out[0]
    top = game.top
    assert top is not None and top.rank.letter != "J"
    assert act(game, f"{t} s0 slap") == ["player_out"]
    assert game.out[0]
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(t + 1, 0, "slap"))
    assert err.value.rule == "player_out"


def test_nobody_can_play_the_last_player_turns_the_pile_over() -> None:
    game = two_players_jacks_last()
    t = turns(game, 52, start=0)
    assert game.stack_sizes() == (0, 0)
    assert game.last_turner == 1 and game.to_move == 1
    assert game.observation(0).needs_turnover
    assert act(game, f"{t} s1 turn") == ["pile_turned_over"]
    assert not game.is_over  # play goes on
    # The pile turned over: the first card played is now on top.
    first = order_of(game.initial_stacks, 1)[0]
    assert game.stack(1)[0] == first and len(game.stack(1)) == 52
    assert game.pile == () and game.to_move == 1
    # Seat 0 is still in and may slap back in on the next jack.
    assert not game.out[0]


def test_false_slap_onto_own_card_keeps_the_card() -> None:
    game = example()
    act(game, "0 s0 turn")
    own = game.stack(0)[0]
    act(game, "10 s0 slap")
    assert game.stack(0)[-1] == own and len(game.stack(0)) == 17


def test_winning_all_52_cards_ends_the_game() -> None:
    stacks = scripted_stacks(2, 1, avoid="jacks")
    # Put a jack as seat 1's last card and everything else before.
    game = SlapjackGame(stacks, dealer=1, options={"players": 2})
    t = turns(game, 50, start=0)  # both have 1 card left? seat 0 empty after 26
    assert game.stack_sizes() == (1, 1)
    t = turns(game, 2, start=t)
    # all 52 on the pile, the last a jack: seat 1 slaps it
    assert act(game, f"{t} s1 slap")[-1] == "game_ended"
    assert game.stack_sizes() == (0, 52)
    assert game.end_reason == "last_in"


# -- the "Slapjack!" call ------------------------------------------------------


def call_game() -> SlapjackGame:
    return SlapjackGame.from_tops(["5C", "KD", "JS", "2H"], dealer=3, options={"call": True})


def test_call_variant_slap_with_call_wins() -> None:
    game = call_game()
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn")
    assert act(game, "1900 s3 slap!") == ["pile_won"]


def test_call_variant_forgotten_call_splits_the_pile_left_of_the_offender() -> None:
    game = call_game()
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn")
    before = game.stack_sizes()
    assert act(game, "1900 s0 slap") == ["pile_split"]
    split = game.events[-1]
    assert isinstance(split, PileSplit)
    assert split.reason == "no_call"
    # One card at a time from the top (J♠, K♦, 5♣), starting left of seat 0.
    assert split.shares == (0, 1, 1, 1)
    assert game.stack(1)[-1] == Card("JS")
    assert game.stack(2)[-1] == Card("KD")
    assert game.stack(3)[-1] == Card("5C")
    assert game.stack_sizes() == (before[0], before[1] + 1, before[2] + 1, before[3] + 1)
    assert game.to_move == 3  # turn order unchanged
    # The correct slap just after finds nothing: a harmless late slap.
    assert act(game, "1950 s3 slap!") == ["late_slap"]


def test_call_variant_false_slap_splits_the_pile_too() -> None:
    game = call_game()
    act(game, "0 s0 turn", "800 s1 turn")
    assert act(game, "900 s1 slap!") == ["pile_split"]
    split = game.events[-1]
    assert isinstance(split, PileSplit) and split.reason == "false_slap"
    # From the top: K♦ to seat 2, 5♣ to seat 3.
    assert split.shares == (0, 0, 1, 1)
    assert game.stack(2)[-1] == Card("KD") and game.stack(3)[-1] == Card("5C")


def test_call_variant_empty_offender_is_out() -> None:
    game = SlapjackGame(
        scripted_stacks(2, 1, avoid="jacks"), dealer=1, options={"players": 2, "call": True}
    )
    t = turns(game, 51, start=0)  # seat 0 is empty, seat 1 holds one jack
    assert game.stack_sizes() == (0, 1)
    t = turns(game, 1, start=t)
    assert act(game, f"{t} s0 slap")[:2] == ["pile_split", "player_out"]
    assert game.out[0] and game.is_over and game.winners == (1,)
    assert game.stack_sizes() == (0, 52)


# -- time limit ----------------------------------------------------------------


def test_time_limit_most_cards_wins() -> None:
    game = SlapjackGame.from_tops(["5C", "KD", "JS"], dealer=2, options={"time_limit_ms": 10_000})
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn", "1900 s1 slap")
    with pytest.raises(IllegalActionError) as err:
        game.check(TimedAction(11_000, 2, "turn"))
    assert err.value.rule == "game_over"
    assert not game.is_over  # checking changed nothing
    assert game.advance(9999) == []
    events = game.advance(10_000)
    assert [e.type for e in events] == ["game_ended"]
    ended = events[0]
    assert isinstance(ended, GameEnded)
    assert ended == GameEnded(10_000, (1,), "time_limit", (17, 19, 16))
    assert game.winners == (1,) and game.to_move is None
    assert game.legal_actions() == []


def test_time_limit_ties_share_the_win() -> None:
    game = SlapjackGame.from_tops(["5C", "KD"], dealer=1, options={"time_limit_ms": 10_000})
    act(game, "0 s0 turn", "500 s1 turn")
    game.advance(20_000)
    assert game.winners == (0, 1)
    assert game.clock == 10_000


def test_an_action_after_the_time_limit_ends_the_game_first() -> None:
    game = SlapjackGame.from_tops(["5C", "KD"], dealer=1, options={"time_limit_ms": 10_000})
    act(game, "0 s0 turn")
    assert not game.can(TimedAction(10_000, 1, "turn"))
    assert game.can(TimedAction(9999, 1, "turn"))


# -- options, deals, records ---------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 11},
        {"players": "4"},
        {"call": "yes"},
        {"time_limit_ms": 0},
        {"late_ms": -1},
        {"speed": 3},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        SlapjackOptions.from_dict(options)


def test_options_round_trip() -> None:
    options = SlapjackOptions(players=5, call=True, time_limit_ms=60_000)
    assert options.to_dict() == {"players": 5, "call": True, "time_limit_ms": 60_000}
    assert SlapjackOptions.from_dict(options.to_dict()) == options


def test_deal_is_even_and_starts_left_of_the_dealer() -> None:
    game = SlapjackGame.from_seed(11, options={"players": 5}, dealer=3)
    assert game.stack_sizes() == (11, 10, 10, 10, 11)
    assert game.to_move == 4
    again = SlapjackGame.from_seed(11, options={"players": 5}, dealer=3)
    assert again.initial_stacks == game.initial_stacks
    assert sorted(c for s in game.initial_stacks for c in s) == sorted(Card(i) for i in range(52))


@pytest.mark.parametrize(
    ("stacks", "message"),
    [
        ([["5C"]], "needs 2 stacks"),
        ([["5C"] * 26, ["KD"] * 26], "dealt twice"),
        ([["XX"], []], "unknown rank"),
    ],
)
def test_bad_deals_are_refused(stacks: list[list[str]], message: str) -> None:
    with pytest.raises(DealError, match=message):
        SlapjackGame(stacks, dealer=1, options={"players": 2})


def test_uneven_stacks_are_refused() -> None:
    stacks = scripted_stacks(2, 1, avoid="jacks")
    stacks[0].append(stacks[1].pop())
    with pytest.raises(DealError, match="gets 26"):
        SlapjackGame(stacks, dealer=1, options={"players": 2})


def test_notation() -> None:
    assert str(TimedAction.parse(" 1610  S1 SLAP! ")) == "1610 s1 slap!"
    for bad in ["1610 s1 hit", "-5 s1 slap", "s1 slap", "10 s1 turn!"]:
        with pytest.raises(NotationError):
            TimedAction.parse(bad)
    with pytest.raises(NotationError):
        TimedAction.from_json({"t": 1, "seat": 0, "type": "slap", "extra": 1})
    with pytest.raises(NotationError):
        TimedAction.from_json({"t": 1, "seat": 0})


def test_check_changes_nothing_and_legal_actions_are_accepted() -> None:
    game = example()
    act(game, "0 s0 turn", "800 s1 turn", "1600 s2 turn")
    legal = game.legal_actions()
    assert TimedAction(1601, 0, "turn") in legal  # after seat 2 at 1600
    assert {a.seat for a in legal if a.type == "slap"} == {0, 1, 2}
    before = (game.stack_sizes(), game.pile, len(game.events), game.clock)
    for action in legal:
        assert game.can(action)
    assert (game.stack_sizes(), game.pile, len(game.events), game.clock) == before


def test_wrong_seat_and_unknown_seat() -> None:
    game = example()
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(0, 0, "turn"), seat=1)
    assert err.value.rule == "wrong_seat"
    with pytest.raises(IllegalActionError) as err:
        game.apply(TimedAction(0, 7, "turn"))
    assert err.value.rule == "no_such_seat"


def test_observation_is_public() -> None:
    game = example()
    act(game, "0 s0 turn")
    obs = game.observation(2)
    assert obs.top == Card("5C") and obs.top_seat == 0 and obs.turned == 1
    assert obs.stack_sizes == (17, 17, 17)
    data = obs.to_dict()
    assert "stack" not in data and data["top"] == "5C"
    with pytest.raises(ValueError):
        game.observation(3)
