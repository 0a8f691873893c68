"""The Slobberhannes table adapter: legal actions, refusals, views, replay, records."""

from __future__ import annotations

import random

import pytest

from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.web.adapter import TableGame, table_game_type

KIND = table_game_type("slobberhannes")
NAMES = ["Ann", "Ben", "Cyd", "Dora"]


def new_game(seed: int = 11, players: int = 4) -> TableGame:
    options = KIND.normalize_options({}, seats=players)
    return KIND.create(options, NAMES[:players], seed)


def test_is_a_table_game_and_starts_at_version_zero() -> None:
    game = new_game()
    assert isinstance(game, TableGame)
    assert game.version == 0
    assert len(game.acting) == 1
    seat = game.acting[0]
    assert game.legal(seat)
    assert all(game.legal(s) == [] for s in range(4) if s != seat)


def test_act_advances_and_refusals_change_nothing() -> None:
    game = new_game()
    seat = game.acting[0]
    other = (seat + 1) % 4
    before = game.view(seat)
    with pytest.raises(IllegalActionError) as refused:
        game.act(other, game.view(other)["hand"][0])
    assert refused.value.rule == "not_your_turn"
    with pytest.raises(IllegalActionError) as refused:
        game.act(seat, "ZZ")
    assert refused.value.rule == "bad_notation"
    not_held = next(c for c in ["AC", "KC", "QC", "AS", "7H"] if c not in before["hand"])
    with pytest.raises(IllegalActionError) as refused:
        game.act(seat, not_held)
    assert refused.value.rule == "not_in_hand"
    assert game.view(seat) == before
    game.act(seat, game.legal(seat)[0].lower())  # notation is case-insensitive
    assert game.version == 1
    assert game.actions == [(seat, before["legal"][0])]


def test_must_follow_suit_is_refused_with_the_rule_code() -> None:
    for seed in range(50):
        game = new_game(seed)
        leader = game.acting[0]
        game.act(leader, game.legal(leader)[0])
        seat = game.acting[0]
        hand = game.view(seat)["hand"]
        illegal = [c for c in hand if c not in game.legal(seat)]
        if illegal:
            with pytest.raises(IllegalActionError) as refused:
                game.act(seat, illegal[0])
            assert refused.value.rule == "must_follow_suit"
            return
    pytest.fail("no seed gave a hand that could not follow")


def test_views_show_only_the_seats_own_hand() -> None:
    game = new_game()
    views = [game.view(s) for s in range(4)]
    hands = [set(v["hand"]) for v in views]
    assert all(len(h) == 8 for h in hands)
    assert set.union(*hands) == {c for h in hands for c in h} and sum(map(len, hands)) == 32
    for seat, view in enumerate(views):
        others = set().union(*(hands[s] for s in range(4) if s != seat))
        assert not others & set(view["hand"])
        assert not any(card in str(view["deals"]) for card in others)
    public = game.view(None)
    assert public["hand"] is None
    assert public["legal"] == []
    assert public["seat"] is None
    assert public["hand_sizes"] == [8, 8, 8, 8]
    # Nothing private in the public view: no card of any hand appears in it.
    text = str({k: v for k, v in public.items() if k != "options"})
    assert not any(f"'{card}'" in text for hand in hands for card in hand)


def play_random(game: TableGame, actions: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            return
        seat = game.acting[0]
        game.act(seat, rng.choice(game.legal(seat)))


def test_replay_rebuilds_the_same_game() -> None:
    game = new_game(seed=99)
    play_random(game, 45)  # into the second deal
    assert game.view(None)["deal_number"] == 2
    options = KIND.normalize_options({}, seats=4)
    again = KIND.replay(options, NAMES, 99, game.actions)
    assert again.version == game.version == 45
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == game.view(seat)


def test_a_whole_match_to_the_end() -> None:
    game = new_game(seed=3, players=3)
    play_random(game, 10_000, seed=3)
    assert game.is_over
    assert game.acting == ()
    view = game.view(0)
    assert view["over"] and view["result"] is not None
    assert max(view["totals"]) >= view["target"]
    assert sum(view["result"]["settlement"]) == 0
    assert len(view["deals"]) >= 1
    with pytest.raises(IllegalActionError) as refused:
        game.act(0, "AC")
    assert refused.value.rule == "match_over"
    record = game.record(complete=False)
    assert len(record["deals"]) == len(view["deals"])


def test_record_hides_the_deal_in_progress() -> None:
    game = new_game(seed=5)
    play_random(game, 40)
    partial = game.record(complete=False)
    full = game.record(complete=True)
    assert len(partial["deals"]) == 1
    assert len(full["deals"]) == 2
    # The seed would deal the hidden hands again: only the complete record has it.
    assert "seed" not in partial and full["seed"] == 5 and partial["seats"] == NAMES


def test_options_follow_the_number_of_seats() -> None:
    assert KIND.normalize_options({"preset": "russian"}, seats=4)["preset"] == "russian"
    assert KIND.normalize_options(None, seats=5) == {"players": 5}
    with pytest.raises(OptionError):
        KIND.normalize_options({"players": 3}, seats=4)
    with pytest.raises(OptionError):
        KIND.normalize_options({"revokes": "sometimes"}, seats=4)
    description = KIND.describe()
    assert description["min_seats"] == 3 and description["max_seats"] == 7
    assert "russian" in description["presets"]


def test_a_draw_for_the_lead_is_shown() -> None:
    options = KIND.normalize_options({"preset": "russian"}, seats=4)
    game = KIND.create(options, NAMES, 8)
    assert game.view(None)["draw"]["type"] == "draw_for_lead"
