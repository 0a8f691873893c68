"""Slobberhannes under random illegal input: every deal and match of every option set.

Random deals and matches (3–7 players, the standard and Russian presets, the
partnership option, revokes refused or charged, with and without the
all-three bonus and the cut) are played with illegal actions mixed in: cards
not in hand, another seat's cards, revokes where following is required,
out-of-turn and non-existent seats, objects that are no card at all, stale
and repeated actions, actions after the end. Each must be refused with its
rule and leave the game exactly as the shadow game that never saw it; every
record written, finished or not, replays to the same game.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kartentisch.cards import Card, full_deck
from kartentisch.games.doppelkopf import Call
from kartentisch.games.slobberhannes import (
    SlobberhannesDeal,
    SlobberhannesMatch,
    SlobberhannesOptions,
)
from kartentisch.games.slobberhannes.deal import CardPlayed
from kartentisch.games.slobberhannes.record import summarize
from kartentisch.realtime.actions import TimedAction

from .refusals import GARBAGE, Attempt, Refusals, fuzz_settings, replay_through_file, rules

#: Actions of the other games: no Slobberhannes action either.
FOREIGN: tuple[object, ...] = (Call("pass"), Call("re"), TimedAction(0, 0, "turn"))


@st.composite
def option_sets(draw: st.DrawFn, *, match: bool = False) -> SlobberhannesOptions:
    preset = draw(st.sampled_from(["standard", "russian"]))
    partnership = draw(st.booleans())
    players = 4 if partnership else draw(st.sampled_from([3, 4, 4, 5, 6, 7]))
    values: dict[str, Any] = {
        "preset": preset,
        "players": players,
        "partnership": partnership,
        "revokes": draw(st.sampled_from(["forbidden", "penalty"])),
        "all_three_bonus": draw(st.booleans()),
        "cut": draw(st.booleans()),
    }
    if match:
        values["target"] = draw(st.integers(1, 6))
    return SlobberhannesOptions.from_dict(values)


def deal_snapshot(deal: SlobberhannesDeal) -> dict[str, Any]:
    """Everything a player or an interface can see of a deal (and its hidden hands)."""
    seats = range(deal.num_seats)
    observations = [deal.observation(s) for s in seats]
    return {
        "record": deal.to_record(),
        "events": tuple(deal.events),
        "actions": list(deal.actions),
        "to_move": deal.to_move,
        "over": deal.is_over,
        "leader": deal.leader,
        "trick_number": deal.trick_number,
        "points": deal.points(),
        "penalties": deal.penalties(),
        "tricks": deal.tricks,
        "hands": [deal.hand(s) for s in seats],
        "legal": deal.legal_actions(),
        "following": deal.following_actions(),
        "observations": observations,
        "observed": [o.to_dict() for o in observations],
    }


def match_snapshot(match: SlobberhannesMatch) -> dict[str, Any]:
    return {
        "record": match.to_record(),
        "events": tuple(match.events),
        "totals": match.totals(),
        "team_totals": match.team_totals(),
        "chips": match.chips(),
        "over": match.is_over,
        "result": match.result,
        "to_move": match.to_move,
        "legal": match.legal_actions(),
        "deals": len(match.deals),
        "deal": deal_snapshot(match.deal),
    }


def last_seat(deal: SlobberhannesDeal) -> int | None:
    played = [e for e in deal.events if isinstance(e, CardPlayed)]
    return played[-1].seat if played else None


def deal_attempts(deal: SlobberhannesDeal) -> list[Attempt]:
    """Illegal actions for the deal as it stands, by kind (read from the shadow deal)."""
    n = deal.num_seats
    mover = deal.to_move
    out = [
        Attempt("malformed", junk, seat, rules("unknown_action"))
        for junk in (*GARBAGE, *FOREIGN)
        for seat in (None, mover if mover is not None else 0)
    ]
    stale = deal.actions[-1] if deal.actions else None
    if mover is None:
        out += [Attempt("after_the_end", c, None, rules("deal_over")) for c in full_deck()]
        out += [
            Attempt("after_the_end", c, s, rules("deal_over"))
            for c in deal.actions[:5]
            for s in range(n)
        ]
        return out
    hand = deal.hand(mover)
    deck = set(deal.options.deck())
    holders = {c: s for s in range(n) for c in deal.hand(s)}
    for card in full_deck():
        if card in hand:
            continue
        if card not in deck:
            kind = "not_in_deck"
        elif card in holders:
            kind = "another_seats_card"
        else:
            kind = "already_played"
        out.append(Attempt(kind, card, None, rules("not_in_hand")))
        out.append(Attempt(kind, card, mover, rules("not_in_hand")))
    others = [s for s in range(n) if s != mover]
    for seat in others:
        for card in deal.hand(seat):
            out.append(Attempt("out_of_turn", card, seat, rules("not_your_turn")))
    for card in deal.legal_actions():
        for seat in (*others, n, 99, -1):
            out.append(Attempt("wrong_seat", card, seat, rules("not_your_turn")))
    if deal.options.revokes == "forbidden":
        following = set(deal.following_actions())
        for card in hand:
            if card not in following:
                for who in (None, mover):
                    out.append(Attempt("revoke", card, who, rules("must_follow_suit")))
    if stale is not None:
        out.append(Attempt("stale", stale, None, rules("not_in_hand")))
        out.append(Attempt("stale", stale, last_seat(deal), rules("not_in_hand", "not_your_turn")))
    return out


def assert_same_deal(again: object, deal: SlobberhannesDeal) -> None:
    assert isinstance(again, SlobberhannesDeal)
    assert deal_snapshot(again) == deal_snapshot(deal)
    assert summarize(again) == summarize(deal)


def new_deal(options: SlobberhannesOptions, seed: int) -> SlobberhannesDeal:
    rng = random.Random(seed)
    dealer = rng.randrange(options.players)
    cut = rng.randrange(1, len(options.deck())) if options.cut else None
    return SlobberhannesDeal.from_seed(rng, dealer=dealer, options=options, cut=cut)


@fuzz_settings(120)
@given(
    options=option_sets(),
    seed=st.integers(0, 2**32 - 1),
    rate=st.sampled_from([0.25, 0.6, 1.0]),
)
def test_deals_refuse_illegal_actions_and_replay(
    options: SlobberhannesOptions, seed: int, rate: float
) -> None:
    deal, shadow = new_deal(options, seed), new_deal(options, seed)
    rng = random.Random(seed ^ 0x5EED)
    refusals = Refusals(deal, shadow, deal_snapshot, rng)
    replay_at = rng.randrange(len(options.deck()))
    while not deal.is_over:
        if rng.random() < rate:
            refusals.offer_some(deal_attempts(shadow), rng.randint(1, 3))
        legal = (deal if rng.random() < 0.5 else shadow).legal_actions()
        assert legal and all(shadow.can(card) for card in legal)
        card = rng.choice(legal)
        seat = rng.choice([None, shadow.to_move])
        assert deal.apply(card, seat) == shadow.apply(card, seat)
        if len(deal.actions) == replay_at:
            assert_same_deal(replay_through_file(deal.to_record()), deal)
    refusals.offer_some(deal_attempts(shadow), 4)
    assert_same_deal(replay_through_file(deal.to_record()), deal)


def match_attempts(match: SlobberhannesMatch) -> list[Attempt]:
    """Actions while no deal is in progress: between deals, or after the match."""
    code = "match_over" if match.is_over else "no_deal"
    cards = [*full_deck()[::7], *match.deal.actions[-3:]]
    return [
        Attempt("no_deal_in_progress", action, seat, rules(code))
        for action in (*cards, *GARBAGE[:4])
        for seat in (None, 0, match.options.players - 1)
    ]


def start_deal(match: SlobberhannesMatch, shadow: SlobberhannesMatch, rng: random.Random) -> None:
    cut = rng.randrange(1, len(match.options.deck())) if match.options.cut else None
    match.start_deal(cut=cut)
    shadow.start_deal(cut=cut)


@fuzz_settings(30)
@given(
    options=option_sets(match=True),
    seed=st.integers(0, 2**32 - 1),
    rate=st.sampled_from([0.2, 0.5]),
)
def test_matches_refuse_illegal_actions_and_replay(
    options: SlobberhannesOptions, seed: int, rate: float
) -> None:
    match = SlobberhannesMatch(options, seed=seed, start=False)
    shadow = SlobberhannesMatch(options, seed=seed, start=False)
    rng = random.Random(seed ^ 0x3A7C)
    start_deal(match, shadow, rng)
    # Through the match (apply only); the deal itself is checked as in the test above.
    refusals = Refusals(match, shadow, match_snapshot, rng, ways=("apply",))
    while not match.is_over:
        if match.deal.is_over:
            refusals.offer_some(match_attempts(shadow), rng.randint(1, 3))
            start_deal(match, shadow, rng)
            continue
        if rng.random() < rate:
            refusals.offer_some(deal_attempts(shadow.deal), rng.randint(1, 2))
        card = rng.choice(shadow.legal_actions())
        assert match.apply(card) == shadow.apply(card)
    refusals.offer_some(match_attempts(shadow), 4)

    again = replay_through_file(match.to_record())
    assert isinstance(again, SlobberhannesMatch)
    assert again.result == match.result and again.totals() == match.totals()
    assert again.to_record()["deals"] == match.to_record()["deals"]
    assert summarize(again) == summarize(match)
    for replayed, played in zip(again.deals, match.deals, strict=True):
        assert deal_snapshot(replayed) == deal_snapshot(played)


def test_every_kind_of_illegal_input_occurs() -> None:
    """The generators above offer every kind of illegal input somewhere in a deal."""
    options = SlobberhannesOptions(players=4)
    deal = new_deal(options, 11)
    kinds: set[str] = set()
    rng = random.Random(11)
    while not deal.is_over:
        kinds |= {a.kind for a in deal_attempts(deal)}
        deal.apply(rng.choice(deal.legal_actions()))
    kinds |= {a.kind for a in deal_attempts(deal)}
    assert kinds == {
        "malformed",
        "not_in_deck",
        "another_seats_card",
        "already_played",
        "out_of_turn",
        "wrong_seat",
        "revoke",
        "stale",
        "after_the_end",
    }


def test_a_plain_int_of_a_legal_card_is_refused() -> None:
    deal = SlobberhannesDeal.from_seed(5, dealer=0)
    shadow = SlobberhannesDeal.from_seed(5, dealer=0)
    refusals = Refusals(deal, shadow, deal_snapshot, random.Random(5))
    for card in deal.legal_actions():
        for action in (int(card), str(card), Card(card).symbol):
            refusals.offer(Attempt("malformed", action, None, rules("unknown_action")))
