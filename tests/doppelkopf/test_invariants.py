"""Invariants over many seeded random games (hypothesis): Augen, parties, leaks, zero sums."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.options import SCHEMA
from kartentisch.games.doppelkopf.record import replay, summarize
from kartentisch.options import Option

PRESETS = [
    DoppelkopfOptions(),
    DoppelkopfOptions(players=5),
    DoppelkopfOptions(table_mode=True),
    DoppelkopfOptions(solo_style="ddv", rot_geht_rum="bock"),
    DoppelkopfOptions.preset_named("ddv"),
    DoppelkopfOptions.preset_named("ddv", players=5),
    DoppelkopfOptions(nines=True),
]


def random_game(options: DoppelkopfOptions, seed: int, *, watch: bool = False) -> DoppelkopfDeal:
    """A game by random players who mostly pass the declarations (so all game types occur)."""
    rng = random.Random(seed)
    deal = DoppelkopfDeal.from_seed(rng, dealer=rng.randrange(options.players), options=options)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        if rng.random() < 0.05 and deal.phase == "play":
            # Another seat announces out of turn, when it may.
            other = rng.choice(deal.playing)
            words = [a for a in deal.legal_actions(other) if isinstance(a, Call)]
            if words:
                deal.apply(rng.choice(words), other)
        legal = deal.legal_actions()
        if deal.phase == "declare" and Call("pass") in legal and rng.random() < 0.8:
            action = Call("pass")
        elif deal.phase == "armut_answer":
            action = Call("accept") if rng.random() < 0.7 else Call("refuse")
        else:
            action = rng.choice(legal)
        deal.apply(action)
        if watch:
            check_no_leak(deal)
    return deal


CARD_FIELDS = {"hand", "legal_actions", "trick", "tricks", "open_hand", "armut_cards"}
CARD_FIELDS |= {"armut_returned", "trumps", "score", "options"}


def check_no_leak(deal: DoppelkopfDeal) -> None:
    """No observation shows a card of another hand (but an ouvert soloist's, an Armut's own)."""
    for seat in range(deal.num_seats):
        obs = deal.observation(seat)
        data = obs.to_dict()
        json.dumps(data)
        for key, value in data.items():
            if key not in CARD_FIELDS:
                text = json.dumps(value)
                assert not any(f'"{c}"' in text for c in map(str, deal.options.deck())), key
        assert obs.hand == deal.hand(seat)
        assert {a for a in obs.legal_actions if isinstance(a, Card)} <= set(obs.hand)
        for call in obs.legal_actions:
            if isinstance(call, Call):
                assert set(call.cards) <= set(obs.hand)
        if seat not in (deal.armut_by, deal.armut_partner):
            assert obs.armut_cards == () and obs.armut_returned == ()
        if obs.open_hand:
            assert deal.ouvert and deal.soloist is not None
            assert sorted(obs.open_hand) == sorted(deal.hand(deal.soloist))
        if obs.score is not None:
            assert deal.is_over
        if deal.silent and seat != deal.soloist and not deal.is_over:
            assert obs.game_type == "normal" and obs.soloist is None
        if not deal.is_over and deal.options.table_mode:
            assert "offenders" not in data


def option_values(option: Option) -> st.SearchStrategy[object]:
    if option.kind == "whole":
        low, high = option.bounds(option.name)
        return st.integers(low, high)
    if option.kind == "flag":
        return st.booleans()
    if option.kind == "choice":
        return st.sampled_from(option.choices)
    return st.lists(st.sampled_from(option.choices), unique=True).map(tuple)


def _rule_set(preset: str, values: dict[str, object]) -> DoppelkopfOptions:
    try:
        return DoppelkopfOptions.from_dict({"preset": preset, **values})
    except OptionError as err:
        # The one combination the options refuse: Armut or Scharfe with the DDV order.
        assert err.code == "needs_sheet_order", err
        return DoppelkopfOptions.from_dict(
            {"preset": preset, **values, "armut": False, "scharfe": False}
        )


#: Random rule sets: a preset and any of its options changed to any allowed value.
RULE_SETS = st.tuples(
    st.sampled_from(["house", "ddv", "freedoko"]),
    st.fixed_dictionaries({}, optional={o.name: option_values(o) for o in SCHEMA.options}),
).map(lambda drawn: _rule_set(*drawn))


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(range(len(PRESETS))))
def test_random_games_keep_the_invariants(seed: int, which: int) -> None:
    check_invariants(PRESETS[which], seed)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), RULE_SETS)
def test_random_rule_sets_keep_the_invariants(seed: int, options: DoppelkopfOptions) -> None:
    check_invariants(options, seed)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), RULE_SETS)
def test_random_rule_sets_never_leak(seed: int, options: DoppelkopfOptions) -> None:
    random_game(options, seed, watch=True)


def check_invariants(options: DoppelkopfOptions, seed: int) -> None:
    deal = random_game(options, seed)
    if deal.outcome == "redeal":
        assert deal.points() == (0,) * options.players
        return
    score = deal.score
    assert score is not None
    # 240 Augen in all, with or without nines.
    assert score.augen["re"] + score.augen["kontra"] == 240
    assert sum(len(t.cards) for t in deal.tricks) == options.deck_size
    # The parties partition the four playing seats.
    re = deal.re_party
    assert re is not None and re <= set(deal.playing)
    kontra = set(deal.playing) - re
    assert len(re) == (1 if deal.facts().solo else 2) and len(kontra) == 4 - len(re)
    # The seat that sits out (5 players) scores 0.
    if options.players == 5:
        assert deal.points()[deal.dealer] == 0
    # Zero-sum where the counting is; the sheet's winners only, the losers' debts only.
    points = deal.points()
    if options.counting == "zero_sum" or (
        options.counting == "scoring" and options.scoring == "ddv"
    ):
        assert sum(points) == 0
    elif options.counting == "scoring":
        assert sum(1 for p in points if p) <= 2
    elif options.counting == "winners":
        assert min(points) >= 0
    else:
        assert max(points) <= 0
    # The record replays to the same game.
    again = replay(json.loads(json.dumps(deal.to_record())))
    assert isinstance(again, DoppelkopfDeal)
    assert again.points() == deal.points() and again.tricks == deal.tricks
    summary = summarize(again)
    assert summary["points"] == list(deal.points())
    assert summary["augen"] == dict(score.augen)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(range(len(PRESETS))))
def test_observations_never_leak(seed: int, which: int) -> None:
    random_game(PRESETS[which], seed, watch=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_refused_actions_change_nothing(seed: int) -> None:
    rng = random.Random(seed)
    deal = DoppelkopfDeal.from_seed(rng, dealer=0)
    candidates = [Card(c) for c in ("QC", "10H", "AS", "9C")] + [
        Call(w) for w in ("re", "kontra", "no90", "armut", "accept", "take_back", "vorbehalt")
    ]
    while not deal.is_over:
        before = (len(deal.events), len(deal.actions), deal.to_move, deal.phase)
        action = rng.choice(candidates)
        seat = rng.randrange(4)
        if not deal.can(action, seat):
            try:
                deal.apply(action, seat)
            except IllegalActionError as exc:
                assert getattr(exc, "rule", None)
            assert (len(deal.events), len(deal.actions), deal.to_move, deal.phase) == before
        legal = deal.legal_actions()
        deal.apply(Call("pass") if Call("pass") in legal else rng.choice(legal))
