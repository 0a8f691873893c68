"""Fair reaction bots: a person of median speed wins about a quarter against three default bots.

The simulation plays real games through the real fair-slap referee
(:mod:`kartentisch.bots.reaction_share`); every draw is seeded, so each run
gives the same figures. The numbers of contested slaps are chosen so that
the bands hold for any seed, not just this one: with 1,500 contested jacks
the standard error of a share near 1/4 is about 0.011, and the band
0.20–0.30 lies about four of them from the share expected on a line with
a few ms of jitter (each ms of jitter costs the person a little of their
share, see docs/bots.md).
"""

from __future__ import annotations

import math

import pytest

from kartentisch.bots.reaction import DEFAULT_LEVEL, PROFILES
from kartentisch.bots.reaction_share import Line, simulate_share, wilson_interval
from kartentisch.errors import KartentischError


def test_the_median_person_wins_about_their_share_against_default_bots() -> None:
    result = simulate_share(
        DEFAULT_LEVEL, game="slapjack", contested=1500, seed=13, line=Line(60, 4)
    )
    assert result.contested == 1500
    assert 0.20 <= result.share <= 0.30, result.share
    low, high = wilson_interval(result.person, result.contested)
    assert high - low < 0.05  # the figure is precise enough to mean something
    # False slaps happen, at about the level's rate (doubled on queens and kings).
    rate = PROFILES[DEFAULT_LEVEL].false_rate
    assert rate * 0.6 < result.bot_false_rate < rate * 1.6
    assert result.bot_quiet_cards > 10_000


def test_irish_snap_the_median_person_takes_about_their_share_of_piles() -> None:
    result = simulate_share(
        DEFAULT_LEVEL, game="irish-snap", contested=1000, seed=5, line=Line(60, 4)
    )
    # the share of piles *taken* (the last slap): fair is 1/4; standard error 0.014
    assert 0.19 <= result.share <= 0.31, result.share


def test_levels_are_ordered_from_beginner_to_expert() -> None:
    shares = {
        level: simulate_share(level, game="slapjack", contested=300, seed=3).share
        for level in ("beginner", "club", "expert")
    }
    # 300 contested jacks: standard errors of at most 0.03; the gaps are far wider.
    assert shares["beginner"] > 0.6 > shares["club"] > 0.12 > shares["expert"], shares


def test_the_line_matters_only_through_its_jitter() -> None:
    # A slow line without jitter is corrected fully by the referee.
    far = simulate_share(DEFAULT_LEVEL, contested=300, seed=2, line=Line(180, 0))
    near = simulate_share(DEFAULT_LEVEL, contested=300, seed=2, line=Line(20, 0))
    assert far.mean_jitter_ms == 0 and near.mean_jitter_ms == 0
    assert abs(far.share - near.share) < 0.08
    assert not math.isnan(far.person_false_rate)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(KartentischError, match="snap"):
        simulate_share("club", game="poker")
    with pytest.raises(KartentischError, match="godlike"):
        simulate_share("godlike")
    with pytest.raises(KartentischError, match="at least one"):
        simulate_share("club", contested=0)
