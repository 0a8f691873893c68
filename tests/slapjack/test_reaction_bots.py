"""Reaction bots: seeded, human-like, slapping only on what every player sees."""

from __future__ import annotations

import statistics

import pytest
from slap_helpers import act, scripted_stacks, turns

from kartentisch.bots import LEVELS, canonical_level, make_bot
from kartentisch.bots.reaction import ALIASES, PROFILES, ReactionBot
from kartentisch.errors import KartentischError
from kartentisch.games.irish_snap.engine import IrishSnapGame
from kartentisch.games.slapjack.engine import SlapjackGame


def jack_on_top(call: bool = False) -> SlapjackGame:
    game = SlapjackGame.from_tops(["JS", "2C"], dealer=1, options={"call": call})
    act(game, "0 s0 turn")
    return game


FIVE = ("beginner", "casual", "club", "fast", "expert")


def test_levels_are_registered() -> None:
    assert LEVELS["slapjack"] == FIVE
    assert LEVELS["irish-snap"] == FIVE
    bot = make_bot("irish-snap", "fast", 1)
    assert isinstance(bot, ReactionBot) and bot.name == "fast"
    with pytest.raises(KartentischError):
        make_bot("slapjack", "random", 1)
    with pytest.raises(KartentischError, match="godlike"):
        ReactionBot("godlike")


@pytest.mark.parametrize(
    ("old", "new"), [("easy", "beginner"), ("normal", "club"), ("hard", "expert")]
)
def test_old_level_names_are_aliases(old: str, new: str) -> None:
    assert ALIASES[old] == new and canonical_level("slapjack", old) == new
    bot = make_bot("slapjack", old, 4)
    assert isinstance(bot, ReactionBot) and bot.level == new
    # the same seed draws the same reactions under either name
    same = ReactionBot(new, 4)
    assert [bot.reaction_time() for _ in range(5)] == [same.reaction_time() for _ in range(5)]


def test_same_seed_same_reactions() -> None:
    game = jack_on_top()
    a, b = ReactionBot("club", 42), ReactionBot("club", 42)
    assert [a.react(game.observation(1)) for _ in range(20)] == [
        b.react(game.observation(1)) for _ in range(20)
    ]


@pytest.mark.parametrize("level", FIVE)
def test_reaction_times_are_ex_gaussian(level: str) -> None:
    bot = ReactionBot(level, 7)
    times = [bot.reaction_time() for _ in range(4000)]
    profile = PROFILES[level]
    assert abs(statistics.mean(times) - profile.mean_ms) < 0.03 * profile.mean_ms
    assert min(times) >= profile.min_ms and max(times) <= profile.max_ms
    # Skewed to the right like human reaction times: the mean lies above the median,
    # and the spread is the ex-Gaussian's sqrt(sigma^2 + tau^2).
    assert statistics.mean(times) > statistics.median(times) + 0.2 * profile.tau_ms
    spread = (profile.sigma_ms**2 + profile.tau_ms**2) ** 0.5
    assert abs(statistics.pstdev(times) - spread) < 0.1 * spread


def test_faster_levels_are_faster_and_the_default_is_the_median_person() -> None:
    bots = {level: ReactionBot(level, 1) for level in FIVE}
    means = {
        level: statistics.mean(bot.reaction_time() for _ in range(3000))
        for level, bot in bots.items()
    }
    assert [means[level] for level in FIVE] == sorted(means.values(), reverse=True)
    # club: Laming's recognition time (384 ms) plus a computer's 20 ms
    assert 390 < means["club"] < 420
    # nobody recognises a jack faster than the simple reaction time (about 220 ms)
    assert means["expert"] > 280 and means["beginner"] < 600
    rates = [PROFILES[level].false_rate for level in FIVE]
    assert rates == sorted(rates, reverse=True)


def test_bots_slap_jacks_and_rarely_anything_else() -> None:
    game = jack_on_top()
    bot = ReactionBot("club", 3)
    hits = [bot.react(game.observation(1)) for _ in range(1000)]
    assert sum(r is not None for r in hits) > 950
    other = SlapjackGame.from_tops(["5S", "2C"], dealer=1)
    act(other, "0 s0 turn")
    false = [bot.react(other.observation(1)) for _ in range(2000)]
    rate = sum(r is not None for r in false) / 2000
    assert 0.003 < rate < 0.04


def test_bots_call_when_the_variant_needs_it_and_sometimes_forget() -> None:
    game = jack_on_top(call=True)
    bot = ReactionBot("beginner", 5)
    reactions = [r for r in (bot.react(game.observation(1)) for _ in range(1000)) if r]
    calls = sum(r.call for r in reactions) / len(reactions)
    assert 0.8 < calls < 0.97
    plain = jack_on_top(call=False)
    assert not any(r and r.call for r in (bot.react(plain.observation(1)) for _ in range(100)))


def test_bots_do_not_slap_what_they_cannot_see() -> None:
    game = SlapjackGame.from_tops(["JS", "2C"], dealer=1)
    bot = ReactionBot("expert", 1)
    assert all(bot.react(game.observation(1)) is None for _ in range(200))  # empty pile
    act(game, "0 s0 turn", "300 s1 slap")
    # the pile is gone: nothing to react to
    assert all(bot.react(game.observation(0)) is None for _ in range(200))


def test_irish_bots_must_slap_a_match_and_ignore_safety() -> None:
    game = IrishSnapGame(scripted_stacks(3, 2, {0: "AH"}), dealer=2, options={"players": 3})
    turns(game, 1, start=0)
    assert game.match_open
    bot = ReactionBot("club", 9)
    reactions = [bot.react(game.observation(1)) for _ in range(500)]
    assert sum(r is not None for r in reactions) > 470
    act(game, "300 s1 slap")
    assert bot.react(game.observation(1)) is None  # already slapped
    quiet = IrishSnapGame(scripted_stacks(3, 2), dealer=2, options={"players": 3})
    turns(quiet, 1, start=0)
    rate = sum(bot.react(quiet.observation(1)) is not None for _ in range(2000)) / 2000
    assert rate < 0.05
