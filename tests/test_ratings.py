"""Ratings of players (kartentisch.ratings): the model, the pools, the bots, the games' results."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.bots import LEVELS, make_bot
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.irish_snap.engine import IrishSnapGame
from kartentisch.games.slapjack.engine import SlapjackGame
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.ratings import (
    BOT_RATINGS,
    DEFAULT_RATING,
    MU,
    POOLS,
    SIGMA,
    Bot,
    Outcome,
    Participant,
    Rating,
    bot,
    doppelkopf_deal_outcome,
    doppelkopf_match_outcomes,
    doppelkopf_outcome,
    finishing_order_outcome,
    irish_snap_outcome,
    rate,
    rate_outcome,
    rating_pool,
    slapjack_outcome,
    slobberhannes_match_outcome,
    slobberhannes_outcome,
)
from kartentisch.realtime.base import TimedGame

SEATS: Sequence[Participant] = ("anna", "ben", "carla", "dora")

# -- the model -----------------------------------------------------------------


def test_newcomer_starts_at_the_default_and_shows_1000() -> None:
    assert Rating(MU, SIGMA, 0) == DEFAULT_RATING
    assert (MU, SIGMA) == (25.0, 25.0 / 3)
    assert DEFAULT_RATING.ordinal == pytest.approx(0.0)
    assert DEFAULT_RATING.display == 1000
    # the display follows mu alone (a loss shows as a fall), never below 0; a rating
    # is provisional while sigma is large
    assert Rating(26.0, 2.0).display == Rating(26.0, 6.0).display == 1030
    assert Rating(24.0, 2.0).display == 970
    assert Rating(-20.0, 3.0).display == 0
    assert DEFAULT_RATING.provisional and not Rating(25.0, 4.9).provisional


@pytest.mark.parametrize(
    "mu, sigma, games", [(float("nan"), 1.0, 0), (25.0, 0.0, 0), (25.0, 1.0, -1), (25.0, 1.0, True)]
)
def test_a_rating_refuses_nonsense(mu: float, sigma: float, games: int) -> None:
    with pytest.raises(ValueError):
        Rating(mu, sigma, games)


def test_the_winner_rises_and_the_loser_falls() -> None:
    before = {"anna": Rating(27.0, 5.0, 4), "ben": Rating(24.0, 6.0, 9)}
    new = rate(before, [["anna"], ["ben"]], [1, 2])
    assert new["anna"].mu > 27.0 and new["ben"].mu < 24.0
    assert new["anna"].sigma < 5.0 and new["ben"].sigma < 6.0
    assert (new["anna"].games, new["ben"].games) == (5, 10)
    # ranks are "lower is better" whatever their numbers
    assert rate(before, [["ben"], ["anna"]], [7, 3]) == new


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = Rating(32.0, 3.0), Rating(20.0, 3.0)
    ratings = {"strong": strong, "weak": weak}
    expected = rate(ratings, [["strong"], ["weak"]], [1, 2])
    upset = rate(ratings, [["strong"], ["weak"]], [2, 1])
    gain_expected = expected["strong"].mu - strong.mu
    gain_upset = upset["weak"].mu - weak.mu
    assert 0 < gain_expected < gain_upset


def test_newcomers_start_at_the_default() -> None:
    new = rate({}, [["anna"], ["ben"]], [1, 2])
    alone = rate({"anna": DEFAULT_RATING, "ben": DEFAULT_RATING}, [["anna"], ["ben"]], [1, 2])
    assert new == alone
    assert new["anna"].games == new["ben"].games == 1
    assert new["anna"].mu - MU == pytest.approx(MU - new["ben"].mu)


def test_ties_move_less_than_wins() -> None:
    even = rate({}, [["anna"], ["ben"]], [1, 1])
    won = rate({}, [["anna"], ["ben"]], [1, 2])
    assert even["anna"].mu == pytest.approx(MU) and even["ben"].mu == pytest.approx(MU)
    assert abs(even["anna"].mu - MU) < abs(won["anna"].mu - MU)
    # between unequal players a draw pulls them together, by less than a result would
    ratings = {"strong": Rating(30.0, 4.0), "weak": Rating(20.0, 4.0)}
    drawn = rate(ratings, [["strong"], ["weak"]], [1, 1])
    lost = rate(ratings, [["strong"], ["weak"]], [2, 1])
    assert lost["strong"].mu < drawn["strong"].mu < 30.0
    assert 20.0 < drawn["weak"].mu < lost["weak"].mu
    # a tie still teaches the model something
    assert even["anna"].sigma < won["anna"].sigma + 1.0


def test_a_tie_is_worth_the_mean_of_the_places_shared() -> None:
    names = ["anna", "ben", "carla", "dora", "emil"]
    alone = rate({}, [[n] for n in names], [1, 2, 3, 4, 5])
    pair = rate({}, [[n] for n in names], [1, 1, 3, 4, 5])
    assert pair["anna"].mu == pytest.approx(pair["ben"].mu)
    assert alone["anna"].mu > pair["anna"].mu > alone["ben"].mu
    assert pair["anna"].mu == pytest.approx((alone["anna"].mu + alone["ben"].mu) / 2)
    # among equal players the tied share out the places they tie for
    three = rate({}, [[n] for n in names], [1, 1, 1, 2, 3])
    assert three["anna"].mu == pytest.approx(three["ben"].mu) == three["carla"].mu
    mean = sum(alone[n].mu for n in ("anna", "ben", "carla")) / 3
    assert three["anna"].mu == pytest.approx(mean)
    assert three["carla"].mu > three["dora"].mu > three["emil"].mu


def test_a_large_tie_is_averaged_over_its_rotations() -> None:
    names = [f"p{i}" for i in range(10)]
    new = rate({}, [[n] for n in names], [1] * 9 + [2])
    assert len({round(new[n].mu, 9) for n in names[:9]}) == 1
    assert new["p0"].mu > MU > new["p9"].mu
    assert sum(r.mu for r in new.values()) == pytest.approx(10 * MU)


def test_the_same_input_gives_the_same_ratings() -> None:
    before = {"anna": Rating(26.0, 3.5, 40), "carla": Rating(22.5, 6.0, 2)}
    teams: list[list[Participant]] = [
        ["anna", bot("doppelkopf-house", "strong")],
        ["ben", "carla"],
    ]
    first = rate(before, teams, [2, 1])
    again = rate(dict(before), [list(t) for t in teams], [2, 1])
    assert first == again
    # nothing passed in is changed
    assert before == {"anna": Rating(26.0, 3.5, 40), "carla": Rating(22.5, 6.0, 2)}
    assert teams[0][1] == bot("doppelkopf-house", "strong")


@pytest.mark.parametrize(
    "teams, ranks, message",
    [
        ([["anna"]], [1], "at least two teams"),
        ([["anna"], ["ben"]], [1], "1 ranks given for 2 teams"),
        ([["anna"], []], [1, 2], "without players"),
        ([["anna"], ["anna"]], [1, 2], "more than once"),
        ([["anna"], [""]], [1, 2], "account id or a bot"),
        ([["anna"], ["ben"]], [1, 1.5], "whole number"),
    ],
)
def test_rate_refuses_a_result_that_makes_no_sense(teams: Any, ranks: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rate({}, teams, ranks)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=7))
def test_equal_players_winner_up_last_down_and_mu_kept(ranks: list[int]) -> None:
    names = [f"p{i}" for i in range(len(ranks))]
    new = rate({}, [[name] for name in names], ranks)
    changes = [new[name].mu - MU for name in names]
    # what the winners gain the others lose: the sum of mu stays the same
    assert sum(changes) == pytest.approx(0.0, abs=1e-6)
    best, worst = min(ranks), max(ranks)
    if best != worst:
        if ranks.count(best) == 1:
            assert changes[ranks.index(best)] > 0
        if ranks.count(worst) == 1:
            assert changes[ranks.index(worst)] < 0
        # a better rank never gains less than a worse one
        for i, j in [(i, j) for i in range(len(ranks)) for j in range(len(ranks))]:
            if ranks[i] < ranks[j]:
                assert changes[i] > changes[j]
    else:
        assert all(change == pytest.approx(0.0, abs=1e-9) for change in changes)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(min_value=5.0, max_value=45.0), min_size=2, max_size=6),
    st.floats(min_value=1.0, max_value=8.0),
    st.randoms(use_true_random=False),
)
def test_equal_sigma_keeps_the_sum_of_mu(
    mus: list[float], sigma: float, rng: random.Random
) -> None:
    names = [f"p{i}" for i in range(len(mus))]
    before = {name: Rating(mu, sigma) for name, mu in zip(names, mus, strict=True)}
    ranks = [rng.randint(1, len(mus)) for _ in mus]
    new = rate(before, [[name] for name in names], ranks)
    assert sum(new[n].mu for n in names) == pytest.approx(sum(mus), abs=1e-6)


# -- teams -----------------------------------------------------------------------


def test_partners_move_the_same_way() -> None:
    new = rate({}, [["anna", "carla"], ["ben", "dora"]], [1, 2])
    assert new["anna"].mu == pytest.approx(new["carla"].mu) and new["anna"].mu > MU
    assert new["ben"].mu == pytest.approx(new["dora"].mu) and new["ben"].mu < MU
    # partners of different standing: both move the same way, the less known one more
    before = {"anna": Rating(25.0, 2.0, 50), "carla": Rating(25.0, 6.0, 3)}
    mixed = rate(before, [["anna", "carla"], ["ben", "dora"]], [2, 1])
    assert mixed["anna"].mu < 25.0 and mixed["carla"].mu < 25.0
    assert 25.0 - mixed["carla"].mu > 25.0 - mixed["anna"].mu


def test_a_solo_is_one_against_three_on_even_terms() -> None:
    won = rate_outcome({}, doppelkopf_outcome([0], [1, 2, 3], "re"), SEATS)
    lost = rate_outcome({}, doppelkopf_outcome([0], [1, 2, 3], "kontra"), SEATS)
    # the soloist is no underdog among equal players: a win gains what a loss costs
    assert won["anna"].mu - MU == pytest.approx(MU - lost["anna"].mu)
    assert won["anna"].mu > MU
    for opponent in ("ben", "carla", "dora"):
        assert won[opponent].mu == pytest.approx(won["ben"].mu)
        assert won[opponent].mu < MU
        assert lost[opponent].mu > MU
    # and each opponent loses what the soloist gains
    assert won["anna"].mu - MU == pytest.approx(MU - won["ben"].mu)


# -- bots ------------------------------------------------------------------------


def test_a_bot_keeps_its_rating_and_the_account_beside_it_moves() -> None:
    partner = bot("doppelkopf-house", "heuristic")
    fixed = BOT_RATINGS["doppelkopf-house"]["heuristic"]
    assert partner == Bot("heuristic", fixed)
    new = rate({}, [["anna", partner], ["ben", "carla"]], [1, 2])
    assert set(new) == {"anna", "ben", "carla"}
    assert new["anna"].mu > MU and new["ben"].mu < MU
    assert partner.rating == fixed == BOT_RATINGS["doppelkopf-house"]["heuristic"]
    # against a bot alone
    alone = rate({}, [["anna"], [bot("slobberhannes", "strong")]], [2, 1])
    assert list(alone) == ["anna"] and alone["anna"].mu < MU
    # only bots: nobody to rate
    assert rate({}, [[bot("slapjack", "club")], [bot("slapjack", "fast")]], [1, 2]) == {}


def test_losing_to_a_weaker_bot_costs_more_than_to_a_stronger() -> None:
    weak = rate({}, [["anna"], [bot("slobberhannes", "random")]], [2, 1])
    strong = rate({}, [["anna"], [bot("slobberhannes", "strong")]], [2, 1])
    assert weak["anna"].mu < strong["anna"].mu < MU


def test_every_pool_has_a_fixed_rating_for_each_bot_level() -> None:
    assert set(BOT_RATINGS) == set(POOLS)
    for pool in ("slobberhannes", "doppelkopf-house", "doppelkopf-ddv"):
        levels = BOT_RATINGS[pool]
        # Every level a game's bots have (kartentisch.bots.LEVELS), weakest first.
        assert list(levels) == list(LEVELS[pool.split("-")[0]])
        mus = [r.mu for r in levels.values()]
        assert mus == sorted(mus) and len(set(mus)) == len(mus)
    for pool in ("slapjack", "irish-snap"):
        levels = BOT_RATINGS[pool]
        assert list(levels) == ["beginner", "casual", "club", "fast", "expert"]
        mus = [r.mu for r in levels.values()]
        assert mus == sorted(mus) and levels["club"].mu == MU
    assert bot("irish-snap", "hard").level == "expert"
    assert bot("slapjack", "easy") == bot("slapjack", "beginner")
    assert bot("doppelkopf-ddv", "expert").rating.mu > bot("doppelkopf-ddv", "strong").rating.mu
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        bot("doppelkopf-ddv", "grandmaster")
    with pytest.raises(ValueError, match="unknown rating pool 'doppelkopf'"):
        bot("doppelkopf", "strong")


# -- pools -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, options, pool",
    [
        ("slobberhannes", {}, "slobberhannes"),
        ("slobberhannes", {"partnership": True}, "slobberhannes"),
        ("slobberhannes", {"preset": "russian"}, "slobberhannes"),
        ("doppelkopf", {}, "doppelkopf-house"),
        ("doppelkopf", {"preset": "house", "nines": True}, "doppelkopf-house"),
        ("doppelkopf", {"preset": "ddv"}, "doppelkopf-ddv"),
        ("doppelkopf", {"preset": "ddv", "scoring": "house"}, "doppelkopf-house"),
        ("doppelkopf", {"scoring": "ddv"}, "doppelkopf-ddv"),
        ("doppelkopf", {"preset": "freedoko"}, "doppelkopf-ddv"),
        ("doppelkopf", DoppelkopfOptions.preset_named("ddv").to_record(), "doppelkopf-ddv"),
        ("doppelkopf", DoppelkopfOptions().to_record(), "doppelkopf-house"),
        ("doko", {"preset": "ddv"}, "doppelkopf-ddv"),
        ("slapjack", {"call": True}, "slapjack"),
        ("irish-snap", {}, "irish-snap"),
        ("irish_snap", {}, "irish-snap"),
    ],
)
def test_rating_pool(game: str, options: dict[str, Any], pool: str) -> None:
    assert rating_pool(game, options) == pool
    assert pool in POOLS


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown game 'skat'"):
        rating_pool("skat", {})
    with pytest.raises(ValueError, match="unknown game"):
        rating_pool("", {})


def test_doppelkopf_options_that_do_not_go_together_are_refused() -> None:
    with pytest.raises(ValueError, match="scoring"):
        rating_pool("doppelkopf", {"scoring": "chips"})


# -- the games' results ------------------------------------------------------------


def test_outcome_checks_its_seats() -> None:
    with pytest.raises(ValueError, match="more than one team"):
        Outcome(((0, 1), (1, 2)), (1, 2))
    with pytest.raises(ValueError, match="two teams"):
        Outcome(((0, 1),), (1,))
    with pytest.raises(ValueError, match="ranks given"):
        Outcome(((0,), (1,)), (1,))
    with pytest.raises(ValueError, match="no participant"):
        Outcome(((0,), (4,)), (1, 2)).participants(SEATS)


def test_slobberhannes_fewer_penalties_rank_higher() -> None:
    outcome = slobberhannes_outcome([4, 0, 4, 11])
    assert outcome.teams == ((0,), (1,), (2,), (3,))
    assert outcome.ranks == (2, 1, 2, 4)
    # the first to reach the target loses, even if another ends with more
    assert slobberhannes_outcome([3, 10, 7, 12], losers=[1]).ranks == (1, 4, 2, 3)
    partners = slobberhannes_outcome([3, 1, 4, 2], [(0, 2), (1, 3)])
    assert partners.teams == ((0, 2), (1, 3)) and partners.ranks == (2, 1)
    with pytest.raises(ValueError, match="each of the 4 seats once"):
        slobberhannes_outcome([1, 2, 3, 4], [(0, 2), (1,)])


def test_partnership_slobberhannes_moves_both_partners_the_same_way() -> None:
    outcome = slobberhannes_outcome([6, 1, 5, 2], [(0, 2), (1, 3)])
    new = rate_outcome({}, outcome, SEATS)
    assert new["ben"].mu == pytest.approx(new["dora"].mu)
    assert new["anna"].mu == pytest.approx(new["carla"].mu)
    assert new["ben"].mu > MU > new["anna"].mu


def test_doppelkopf_parties() -> None:
    assert doppelkopf_outcome([2, 0], [1, 3], "re") == Outcome(((0, 2), (1, 3)), (1, 2))
    assert doppelkopf_outcome([0, 2], [1, 3], "kontra").ranks == (2, 1)
    assert doppelkopf_outcome([0, 2], [1, 3], None).ranks == (1, 1)
    new = rate_outcome({}, doppelkopf_outcome([0, 2], [1, 3], "kontra"), SEATS)
    assert new["ben"].mu == pytest.approx(new["dora"].mu)
    assert new["anna"].mu == pytest.approx(new["carla"].mu)
    assert new["ben"].mu > MU > new["anna"].mu
    nobody = rate_outcome({}, doppelkopf_outcome([0, 2], [1, 3], None), SEATS)
    assert all(abs(r.mu - MU) < abs(new[name].mu - MU) for name, r in nobody.items())
    with pytest.raises(ValueError, match="both parties"):
        doppelkopf_outcome([0, 1], [1, 2, 3], "re")
    with pytest.raises(ValueError, match="winner"):
        doppelkopf_outcome([0, 1], [2, 3], "draw")  # type: ignore[arg-type]


def test_finishing_order() -> None:
    outcome = finishing_order_outcome([2, {0, 3}, 1])
    assert outcome.teams == ((2,), (0,), (3,), (1,))
    assert outcome.ranks == (1, 2, 2, 4)
    new = rate_outcome({}, outcome, SEATS)
    assert new["anna"].mu == pytest.approx(new["dora"].mu)
    assert new["carla"].mu > new["anna"].mu > new["ben"].mu


# -- real games -------------------------------------------------------------------


def _play_slobberhannes(options: dict[str, Any], seed: int) -> SlobberhannesMatch:
    match = SlobberhannesMatch(options, seed=seed)
    bots = [make_bot("slobberhannes", "heuristic", seed * 10 + s) for s in range(4)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.deal.observation(seat)))
    return match


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_real_slobberhannes_match(seed: int) -> None:
    match = _play_slobberhannes({}, seed)
    assert match.result is not None
    outcome = slobberhannes_match_outcome(match)
    assert sorted(s for team in outcome.teams for s in team) == [0, 1, 2, 3]
    (loser,) = match.result.losers
    seats: list[Participant] = ["anna", "ben", bot("slobberhannes", "strong"), "dora"]
    new = rate_outcome({}, outcome, seats)
    assert set(new) == {"anna", "ben", "dora"} - {seats[2]}
    # the loser ranks last and falls; the fewest penalties rank first and rise
    ranks = dict(zip((t[0] for t in outcome.teams), outcome.ranks, strict=True))
    assert ranks[loser] == 4
    totals = match.totals()
    best = min(totals)
    for seat, name in enumerate(seats):
        if isinstance(name, Bot):
            continue
        if seat == loser:
            assert new[name].mu < MU
        elif totals[seat] == best and totals.count(best) == 1:
            assert new[name].mu > MU
    assert rate_outcome({}, outcome, seats) == new


def test_a_real_partnership_slobberhannes_match() -> None:
    match = _play_slobberhannes({"partnership": True}, 4)
    outcome = slobberhannes_match_outcome(match)
    assert outcome.teams == ((0, 2), (1, 3))
    assert match.result is not None
    losing = set(match.result.losers)
    new = rate_outcome({}, outcome, SEATS)
    for team, rank in zip(outcome.teams, outcome.ranks, strict=True):
        a, b = (new[str(SEATS[s])].mu for s in team)
        assert a == pytest.approx(b)
        assert (a < MU) == (rank == 2) == bool(losing & set(team))


def test_an_unfinished_slobberhannes_match_is_not_rated() -> None:
    match = SlobberhannesMatch(seed=1)
    with pytest.raises(ValueError, match="not over"):
        slobberhannes_match_outcome(match)


def _play_deal(deal: DoppelkopfDeal, rng: random.Random) -> DoppelkopfDeal:
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _find_deal(
    options: DoppelkopfOptions, wanted: Callable[[Outcome | None], bool]
) -> tuple[DoppelkopfDeal, Outcome | None]:
    for seed in range(400):
        deal = _play_deal(
            DoppelkopfDeal.from_seed(seed, dealer=0, options=options), random.Random(seed)
        )
        outcome = doppelkopf_deal_outcome(deal)
        if wanted(outcome):
            return deal, outcome
    raise AssertionError("no such deal among the seeds tried")  # pragma: no cover


@pytest.mark.parametrize("preset", ["house", "ddv"])
def test_a_real_doppelkopf_deal_re_against_kontra(preset: str) -> None:
    options = DoppelkopfOptions.preset_named(preset)
    deal, outcome = _find_deal(options, lambda o: o is not None and o.ranks != (1, 1))
    assert outcome is not None and deal.re_party is not None and deal.score is not None
    re, kontra = outcome.teams
    assert set(re) == set(deal.re_party) and len(re) + len(kontra) == 4
    winning = re if deal.score.winner == "re" else kontra
    assert outcome.ranks == ((1, 2) if winning is re else (2, 1))
    new = rate_outcome({}, outcome, SEATS)
    for seat, name in enumerate(SEATS):
        assert (new[str(name)].mu > MU) == (seat in winning)


def test_a_real_doppelkopf_solo() -> None:
    options = DoppelkopfOptions()
    deal, outcome = _find_deal(options, lambda o: o is not None and len(o.teams[0]) == 1)
    assert outcome is not None and deal.soloist is not None
    assert outcome.teams[0] == (deal.soloist,)
    new = rate_outcome({}, outcome, SEATS)
    soloist = str(SEATS[deal.soloist])
    others = [new[str(SEATS[s])].mu for s in outcome.teams[1]]
    assert all(mu == pytest.approx(others[0]) for mu in others)
    assert (new[soloist].mu > MU) == (others[0] < MU) == (outcome.ranks == (1, 2))


def test_a_real_ddv_deal_that_nobody_won_is_a_tie() -> None:
    deal, _ = _find_deal(
        DoppelkopfOptions.preset_named("ddv"), lambda o: o is not None and o.ranks == (1, 1)
    )
    assert deal.score is not None
    assert any("nobody wins" in line for line in deal.score.lines)


def test_a_thrown_in_doppelkopf_deal_is_not_rated() -> None:
    deal, outcome = _find_deal(DoppelkopfOptions(), lambda o: o is None)
    assert outcome is None and deal.outcome == "redeal"
    with pytest.raises(ValueError, match="not over"):
        doppelkopf_deal_outcome(DoppelkopfDeal.from_seed(1, dealer=0))


def test_a_real_doppelkopf_session_is_rated_deal_by_deal() -> None:
    match = DoppelkopfMatch(seed=7, first_dealer=0)
    bots = [make_bot("doppelkopf", "heuristic", s) for s in range(4)]
    for _ in range(8):
        while not match.deal.is_over:
            seat = match.to_move
            assert seat is not None
            match.apply(bots[seat].choose(match.deal.observation(seat)))
        match.start_deal()
    outcomes = doppelkopf_match_outcomes(match)
    played = [d for d in match.deals if d.is_over and d.outcome == "played"]
    assert len(outcomes) == len(played) >= 6
    seats: list[Participant] = ["anna", "ben", "carla", bot("doppelkopf-house", "heuristic")]
    ratings: dict[str, Rating] = {}
    for outcome, deal in zip(outcomes, played, strict=True):
        before = dict(ratings)
        ratings.update(rate_outcome(ratings, outcome, seats))
        assert deal.re_party is not None
        for seat in range(3):
            name = str(seats[seat])
            # partners move together: every Re seat the same way, every Kontra seat the other
            went_up = ratings[name].mu > before.get(name, DEFAULT_RATING).mu
            re_won = outcome.ranks == (1, 2)
            assert went_up == ((seat in deal.re_party) == re_won)
    assert all(r.games == len(outcomes) for r in ratings.values())
    assert seats[3] == bot("doppelkopf-house", "heuristic")


def _play_timed(game: TimedGame[Any], rng: random.Random, limit: int = 50_000) -> None:
    """Random play: now and then a slap by a random seat, otherwise the next card."""
    t = 0
    for _ in range(limit):
        if game.is_over:
            return
        t += rng.randint(50, 400)
        legal = [a.at(max(t, a.t)) for a in game.legal_actions()]
        legal = [a for a in legal if game.can(a)]
        if not legal:
            game.advance(t)
            continue
        slaps = [a for a in legal if a.type == "slap"]
        turns = [a for a in legal if a.type == "turn"]
        game.apply(rng.choice(slaps) if slaps and (not turns or rng.random() < 0.5) else turns[0])
    raise AssertionError("the game did not end")  # pragma: no cover


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_real_slapjack_game(seed: int) -> None:
    game = SlapjackGame.from_seed(seed, options={"players": 4})
    _play_timed(game, random.Random(seed))
    outcome = slapjack_outcome(game)
    assert sorted(s for (s,) in outcome.teams) == [0, 1, 2, 3]
    (winner,) = game.winners
    assert outcome.teams[0] == (winner,) and outcome.ranks[0] == 1
    new = rate_outcome({}, outcome, SEATS)
    assert new[str(SEATS[winner])].mu > MU
    last = outcome.teams[-1][0]
    if outcome.ranks.count(max(outcome.ranks)) == 1:
        assert new[str(SEATS[last])].mu < MU


def test_a_slapjack_game_ended_by_the_time_limit() -> None:
    game = SlapjackGame.from_seed(5, options={"players": 3, "time_limit_ms": 10_000})
    game.advance(10_000)
    assert game.is_over and game.end_reason == "time_limit"
    outcome = slapjack_outcome(game)
    sizes = game.stack_sizes()
    ranked = sorted(range(3), key=lambda s: -sizes[s])
    assert [s for (s,) in outcome.teams] == [s for s in ranked if s in game.winners] + [
        s for s in ranked if s not in game.winners
    ]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_real_irish_snap_game(seed: int) -> None:
    game = IrishSnapGame.from_seed(seed, options={"players": 3})
    _play_timed(game, random.Random(seed))
    outcome = irish_snap_outcome(game)
    assert game.loser is not None
    assert outcome.teams[-1] == (game.loser,) and outcome.ranks[-1] == 3
    assert [s for (s,) in outcome.teams[:-1]] == list(game.safe_order)
    new = rate_outcome({}, outcome, SEATS[:3])
    assert new[str(SEATS[game.loser])].mu < MU
    assert new[str(SEATS[game.safe_order[0]])].mu > MU


def test_an_unfinished_timed_game_is_not_rated() -> None:
    with pytest.raises(ValueError, match="not over"):
        slapjack_outcome(SlapjackGame.from_seed(1))
    with pytest.raises(ValueError, match="not over"):
        irish_snap_outcome(IrishSnapGame.from_seed(1))
