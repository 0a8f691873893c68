"""The score search of the last tricks (kartentisch.search.doppelkopf_endgame).

Its values are checked against brute force through the engine itself: every
way the remaining cards can be played, each ending scored by the deal, Re
maximising what a Re player scores minus what a Kontra player scores and
Kontra minimising it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.cards import Card
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.games.doppelkopf.scoring import SONDERPUNKTE
from kartentisch.search.doppelkopf_endgame import Ending
from kartentisch.search.doppelkopf_solver import Position


def _replay(start: DoppelkopfDeal, moves: Sequence[tuple[int, Action]]) -> DoppelkopfDeal:
    deal = DoppelkopfDeal(
        start.initial_hands,
        dealer=start.dealer,
        options=start.options,
        bock_multiplier=start.bock_multiplier,
    )
    for seat, action in moves:
        deal.apply(action, seat)
    return deal


def _re_minus_kontra(deal: DoppelkopfDeal) -> float:
    re = deal.re_party
    assert re is not None
    points = deal.points()
    mine = [points[s] for s in deal.playing if s in re]
    theirs = [points[s] for s in deal.playing if s not in re]
    return sum(mine) / len(mine) - sum(theirs) / len(theirs)


def _brute(start: DoppelkopfDeal, moves: list[tuple[int, Action]]) -> float:
    deal = _replay(start, moves)
    if deal.is_over:
        return _re_minus_kontra(deal)
    seat = deal.to_move
    assert seat is not None and deal.re_party is not None
    values = [_brute(start, [*moves, (seat, c)]) for c in dict.fromkeys(deal.following_actions())]
    return max(values) if seat in deal.re_party else min(values)


def _in_play(
    seed: int, options: DoppelkopfOptions, tricks_left: int
) -> tuple[DoppelkopfDeal, list[tuple[int, Action]]] | None:
    """A deal played at random (announcements too) until ``tricks_left`` remain."""
    rng = random.Random(seed)
    deal = DoppelkopfDeal.from_seed(seed, dealer=seed % 4, options=options)
    moves: list[tuple[int, Action]] = []
    while not deal.is_over and (deal.phase != "play" or len(deal.hand(deal.to_move)) > tricks_left):  # type: ignore[arg-type]
        seat = deal.to_move
        assert seat is not None
        legal = deal.legal_actions(seat)
        if deal.phase == "declare":
            action: Action = Call("pass") if Call("pass") in legal else legal[0]
        else:
            calls = [a for a in legal if isinstance(a, Call)]
            action = rng.choice(calls) if calls and rng.random() < 0.15 else rng.choice(legal)
        deal.apply(action, seat)
        moves.append((seat, action))
    if deal.is_over or deal.re_party is None or deal.game_type == "null":
        return None
    return deal, moves


PRESETS: dict[str, dict[str, Any]] = {
    "house": {},
    "ddv": {"preset": "ddv"},
    "freedoko": {"preset": "freedoko"},
    "house-extras": {
        "sonderpunkte": list(SONDERPUNKTE),  # every extra point there is
        "announcement_value": "re_doubles",
    },
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_values_are_those_of_brute_force(name: str) -> None:
    options = DoppelkopfOptions.from_dict(PRESETS[name])
    checked = 0
    for seed in range(60):
        found = _in_play(seed, options, 2 if checked % 3 else 3)
        if found is None:
            continue
        deal, moves = found
        position = Position.of(deal)
        cards = list(dict.fromkeys(deal.following_actions()))
        values = Ending.of_deal(deal).values(position, cards)
        seat = deal.to_move
        assert seat is not None
        expected = [_brute(deal, [*moves, (seat, c)]) for c in cards]
        assert values == expected, (seed, cards)
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_the_strong_bot_scores_the_last_tricks() -> None:
    """With the score search the strong bot's card in the last trick but one is one
    that brute force finds best for its party in its samples' deal."""
    bot = StrongDoppelkopfBot(1, samples=4, min_samples=4)
    seen = 0
    for seed in range(40):
        found = _in_play(seed, DoppelkopfOptions(), 2)
        if found is None:
            continue
        deal, _ = found
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        card = bot.choose(obs)
        assert isinstance(card, Card) and card in deal.following_actions()
        if len(set(deal.following_actions())) > 1:
            seen += bot.last_samples > 0
    assert seen > 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_scored_table_is_the_scorer_at_every_total(name: str) -> None:
    """The strong bot's utility table asks the scorer at a few totals only; at every
    total from 0 to 240 it equals the scorer's own value."""
    from kartentisch.bots.doppelkopf_strong import scored_table
    from kartentisch.games.doppelkopf.scoring import score_outcome
    from kartentisch.search.doppelkopf_endgame import known_facts, party_value, with_party

    options = DoppelkopfOptions.from_dict(PRESETS[name])
    checked = 0
    for seed in range(80):
        found = _in_play(seed, options, 5)
        if found is None:
            continue
        deal, _ = found
        assert deal.re_party is not None
        obs = deal.observation(deal.playing[0])
        table = scored_table(obs, deal.re_party)
        if table is None:
            continue
        base = known_facts(obs)
        assert base is not None
        facts = with_party(base, deal.re_party, options)
        full = [
            party_value(facts, score_outcome(facts, a, int(a > 0), int(a < 240)).points)
            for a in range(241)
        ]
        assert table == full, seed
        checked += 1
        if checked == 8:
            break
    assert checked == 8
