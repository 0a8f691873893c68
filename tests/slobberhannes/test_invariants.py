"""Properties of every deal and match, checked over many random ones."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cards import Card
from kartentisch.games.slobberhannes import (
    QUEEN_OF_CLUBS,
    SlobberhannesDeal,
    SlobberhannesMatch,
    SlobberhannesOptions,
)
from kartentisch.games.slobberhannes.deal import CardPlayed, DealEnded, PenaltyCharged
from kartentisch.games.slobberhannes.record import replay

SETTINGS = settings(max_examples=150, deadline=None)


@dataclass(frozen=True)
class Setup:
    options: SlobberhannesOptions
    seed: int
    dealer: int
    play_seed: int
    copy_at: int
    watch: int


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = draw(st.integers(3, 7))
    options = SlobberhannesOptions(
        players=players,
        revokes=draw(st.sampled_from(["forbidden", "penalty"])),
        all_three_bonus=draw(st.booleans()),
    )
    return Setup(
        options=options,
        seed=draw(st.integers(0, 2**32 - 1)),
        dealer=draw(st.integers(0, players - 1)),
        play_seed=draw(st.integers(0, 2**32 - 1)),
        copy_at=draw(st.integers(0, len(options.deck()) - 1)),
        watch=draw(st.integers(0, players - 1)),
    )


def snapshot(deal: SlobberhannesDeal) -> tuple[object, ...]:
    return (
        list(deal.actions),
        [e.to_dict() for e in deal.events],
        [deal.hand(s) for s in range(deal.num_seats)],
        deal.to_move,
        deal.legal_actions(),
        deal.points(),
        deal.tricks,
    )


def strings(value: object) -> set[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) | set(map(str, value))
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def check_observation(deal: SlobberhannesDeal, seat: int) -> None:
    obs = deal.observation(seat)
    assert obs.seat == seat
    assert obs.hand == deal.hand(seat)
    assert obs.hand_sizes == tuple(len(deal.hand(s)) for s in range(deal.num_seats))
    assert obs.penalties == deal.points()
    if deal.to_move == seat:
        assert list(obs.legal_actions) == deal.legal_actions()
    else:
        assert obs.legal_actions == ()
    others = {str(c) for s in range(deal.num_seats) if s != seat for c in deal.hand(s)}
    assert not others & strings(obs.to_dict())
    # nothing in the observation object itself holds another seat's unplayed card
    visible = set(obs.hand) | set(obs.legal_actions) | set(obs.trick.cards)
    visible |= {c for t in obs.tricks for c in t.cards}
    assert not {Card(c) for c in others} & visible


@SETTINGS
@given(setups())
def test_random_deals(setup: Setup) -> None:
    options = setup.options
    n = options.players
    deal = SlobberhannesDeal.from_seed(setup.seed, dealer=setup.dealer, options=options)
    rng = random.Random(setup.play_seed)
    revokes: list[tuple[int, Card]] = []
    flags: list[bool] = []
    copy_checked = False
    step = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        hand = deal.hand(seat)
        current = deal.observation(seat).trick
        led = current.cards[0].suit if current.cards else None
        following = [c for c in hand if led is None or c.suit == led]
        legal = deal.legal_actions()
        if options.revokes == "forbidden":
            assert sorted(legal) == sorted(following or hand)
        else:
            assert sorted(legal) == sorted(hand)
        card = rng.choice(legal)
        revoke = led is not None and card.suit != led and bool(following)
        flags.append(revoke)
        if revoke:
            revokes.append((seat, card))
        if step == setup.copy_at:
            before = snapshot(deal)
            twin = deal.copy()
            assert snapshot(twin) == before
            twin.apply(legal[-1])
            assert snapshot(deal) == before
            twin_state = snapshot(twin)
            deal.apply(card)
            assert snapshot(twin) == twin_state
            copy_checked = True
        else:
            deal.apply(card)
        check_observation(deal, setup.watch)
        step += 1
    assert copy_checked

    # every card of the deck was played exactly once, trick by trick
    deck = options.deck()
    assert sorted(deal.actions) == sorted(deck)
    tricks = deal.tricks
    assert len(tricks) == options.hand_size
    assert [c for t in tricks for c in t.cards] == list(deal.actions)
    leader = (setup.dealer + 1) % n
    for trick in tricks:
        assert trick.leader == leader
        assert trick.seats == tuple((leader + i) % n for i in range(n))
        led = trick.cards[0].suit
        best = max((c for c in trick.cards if c.suit == led), key=lambda c: c.rank)
        assert trick.winner == trick.seats[trick.cards.index(best)]
        leader = trick.winner

    # the revoke flags and the penalties
    assert [e.revoke for e in deal.events if isinstance(e, CardPlayed)] == flags
    first, last = tricks[0].winner, tricks[-1].winner
    number = next(i for i, t in enumerate(tricks, 1) if QUEEN_OF_CLUBS in t.cards)
    queen = tricks[number - 1].winner
    expected = [
        (first, "first_trick", 1),
        (queen, "queen_of_clubs", number),
        (last, "last_trick", len(tricks)),
    ]
    bonus = options.all_three_bonus and first == queen == last
    if bonus:
        expected.append((last, "all_three", len(tricks)))
    expected += [(seat, "revoke", None) for seat, _ in revokes]
    got = [(p.seat, p.reason, p.trick) for p in deal.penalties()]
    assert got == expected
    assert sum(deal.points()) == 3 + bonus + len(revokes)
    points = [0] * n
    for seat, _, _ in expected:
        points[seat] += 1
    assert deal.points() == tuple(points)
    assert deal.events[-1] == DealEnded(tuple(points))

    # the record replays to the same deal
    record = json.loads(json.dumps(deal.to_record()))
    again = replay(record)
    assert isinstance(again, SlobberhannesDeal)
    assert again.points() == deal.points()
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in deal.events]
    assert again.to_record() == deal.to_record()


@st.composite
def match_setups(draw: st.DrawFn) -> tuple[SlobberhannesOptions, int, int]:
    preset = draw(st.sampled_from(["standard", "russian"]))
    partnership = draw(st.booleans())
    players = 4 if preset == "russian" or partnership else draw(st.integers(3, 7))
    options = SlobberhannesOptions.from_dict(
        {
            "preset": preset,
            "players": players,
            "partnership": partnership,
            "revokes": draw(st.sampled_from(["forbidden", "penalty"])),
            "target": draw(st.integers(1, 12)),
        }
    )
    return options, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=80, deadline=None)
@given(match_setups())
def test_random_matches(setup: tuple[SlobberhannesOptions, int, int]) -> None:
    options, seed, play_seed = setup
    n = options.players
    match = SlobberhannesMatch(options, seed=seed)
    rng = random.Random(play_seed)
    while not match.is_over:
        match.play(rng.choice(match.legal_actions()))
    result = match.result
    assert result is not None
    teams = options.teams()
    # totals are the sums of the deals' points
    totals = tuple(sum(d.points()[s] for d in match.deals) for s in range(n))
    assert match.totals() == totals == result.totals
    team_totals = [sum(totals[s] for s in team) for team in teams]
    assert list(match.team_totals()) == team_totals
    # dealer rotation
    first = match.deals[0].dealer
    assert [d.dealer for d in match.deals] == [(first + i) % n for i in range(len(match.deals))]
    # the settlement sums to zero, partners share it
    assert sum(result.settlement) == 0
    for team in teams:
        assert len({result.settlement[s] for s in team}) == 1
    assert sorted(result.winners + result.losers) == list(range(n))
    target = options.target
    if options.ending == "first_to_target":
        # walk the penalty events in time order: the first side to reach the target loses
        running = [0] * len(teams)
        loser = None
        for event in match.events:
            if isinstance(event, PenaltyCharged):
                side = next(i for i, t in enumerate(teams) if event.seat in t)
                running[side] += event.chips
                if loser is None and running[side] >= target:
                    loser = side
        assert loser is not None
        assert set(result.losers) == set(teams[loser])
        for i, team in enumerate(teams):
            if i != loser:
                assert result.settlement[team[0]] == max(0, target - team_totals[i])
    else:
        assert max(team_totals) >= target
        best = min(team_totals)
        winners = [i for i, total in enumerate(team_totals) if total == best]
        assert set(result.winners) == {s for i in winners for s in teams[i]}
        for i, team in enumerate(teams):
            if i not in winners:
                assert result.settlement[team[0]] == -(team_totals[i] - best) * len(winners)
    # the match ended in the first deal after which it could end
    for end in range(1, len(match.deals)):
        partial = [sum(d.points()[s] for d in match.deals[:end]) for s in range(n)]
        sides = [sum(partial[s] for s in team) for team in teams]
        assert max(sides) < target
    # the match record replays to the same result
    again = replay(json.loads(json.dumps(match.to_record())))
    assert isinstance(again, SlobberhannesMatch)
    assert again.result == result
