"""The strong Doppelkopf bot's early tricks: heuristic playouts of sampled deals."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot, expert_doppelkopf_bot
from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfObservation
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.search.doppelkopf_determinize import DoppelkopfInfoSet

#: Seat 3's hand: the Dulle (10♥), the Fox (A♦), no Q♣ (so it knows it is Kontra).
SEAT3 = "10H AD JH JS KD AS KS AH KH 10C"
FIXED = {0: "QC", 1: "QC JD", 2: "JD"}


def _first_trick(seed: int) -> DoppelkopfDeal:
    """Seat 3 to play last to the first trick: Q♣ (Re), J♦, J♦ — a Re trick."""
    options_deck = DoppelkopfDeal.from_seed(0, dealer=3).options.deck()
    pool = list(options_deck)
    hands: list[list[Card]] = [[] for _ in range(4)]
    for seat, text in {**FIXED, 3: SEAT3}.items():
        for card in parse_cards(text):
            pool.remove(card)
            hands[seat].append(card)
    random.Random(seed).shuffle(pool)
    for seat in range(3):
        need = 10 - len(hands[seat])
        hands[seat].extend(pool[:need])
        del pool[:need]
    deal = DoppelkopfDeal(hands, dealer=3)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    for seat, card in ((0, "QC"), (1, "JD"), (2, "JD")):
        assert deal.to_move == seat
        deal.apply(Card(card), seat)
    assert deal.to_move == 3
    return deal


class _FoxFirst(HeuristicDoppelkopfBot):
    """A bad heuristic: smears the Fox into the other party's trick."""

    def choose(self, observation: DoppelkopfObservation) -> Action:
        if Card("AD") in observation.legal_actions:
            return Card("AD")
        return super().choose(observation)


def test_the_early_search_overrules_a_clearly_worse_card() -> None:
    obs = _first_trick(1).observation(3)
    assert obs.party == "kontra"
    info = DoppelkopfInfoSet(obs)
    cards = [Card("10H"), Card("AD"), Card("JH")]
    for seed in (5, 6, 7):
        bot = StrongDoppelkopfBot(seed, bidding=False, early_playouts=24)
        values = bot.early_values(obs, cards, info)
        means = {card: sum(v) / len(v) for card, v in values.items()}
        assert bot.last_samples == 8  # 24 playouts over three cards
        # Giving Re the Fox (11 Augen and its extra point) is the worst of the three,
        # whether Kontra takes the trick with the Dulle or keeps it for later.
        assert means[Card("AD")] < min(means[Card("10H")], means[Card("JH")]) - 2.0
    chosen = StrongDoppelkopfBot(5, bidding=False, early_playouts=120)
    chosen.fallback = _FoxFirst(0)
    assert chosen.choose(obs) != Card("AD")
    assert chosen.searched == 1
    # The gate: a card replaces the heuristic's only when the paired gain over the
    # drawn deals stands out of their noise (here never).
    gated = StrongDoppelkopfBot(5, bidding=False, early_playouts=120, early_z=1e9)
    gated.fallback = _FoxFirst(0)
    assert gated.choose(obs) == Card("AD")


def test_the_early_search_depends_on_the_seed_and_the_observation_only() -> None:
    """Two deals that differ only in cards seat 3 cannot see give the same choice."""
    a, b = _first_trick(1), _first_trick(2)
    obs_a, obs_b = a.observation(3), b.observation(3)
    assert [a.hand(s) for s in range(3)] != [b.hand(s) for s in range(3)]
    assert obs_a.to_dict() == obs_b.to_dict()
    picks = []
    for obs in (obs_a, obs_b, obs_a):
        bot = StrongDoppelkopfBot(11, bidding=False, early_playouts=32)
        info = DoppelkopfInfoSet(obs)
        values = bot.early_values(obs, [Card("10H"), Card("AD"), Card("JH")], info)
        picks.append((StrongDoppelkopfBot(11, early_playouts=32).choose(obs), values))
    assert picks[0] == picks[1] == picks[2]


def test_the_early_search_keeps_to_its_playout_budget() -> None:
    obs = _first_trick(3).observation(3)
    info = DoppelkopfInfoSet(obs)
    cards = [Card("10H"), Card("AD"), Card("JH"), Card("JS")]
    bot = StrongDoppelkopfBot(2, early_playouts=32)
    bot.early_values(obs, cards, info)
    assert (bot.last_samples, bot.last_nodes) == (8, 32)
    few = StrongDoppelkopfBot(2, early_playouts=4, early_min_samples=3)
    few.early_values(obs, cards, info)
    assert (few.last_samples, few.last_nodes) == (3, 12)  # the minimum of deals
    assert expert_doppelkopf_bot(2).early_playouts == 0  # (off by default)
    more = StrongDoppelkopfBot(2, early_playouts=200, early_min_samples=8)
    more.early_values(obs, cards, info)
    assert more.last_samples == 50


def test_without_early_playouts_the_heuristic_card_is_played() -> None:
    deal = DoppelkopfDeal.from_seed(4, dealer=0)
    bot = StrongDoppelkopfBot(3, early_playouts=0, bidding=False)
    heuristic = HeuristicDoppelkopfBot(0)
    while not deal.is_over and not (
        deal.phase == "play" and len(deal.hand(deal.to_move or 0)) <= 6
    ):
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        action = bot.choose(obs)
        if deal.phase == "play":
            assert action == heuristic.choose(obs)
        deal.apply(action, seat)
    assert bot.searched == 0


def _early_choices(seed: int) -> list[tuple[str, int]]:
    """The strong bot's cards in the tricks before its exact search, and the deals
    each drew (the other seats heuristic)."""
    deal = DoppelkopfDeal.from_seed(seed, dealer=1)
    strong = StrongDoppelkopfBot(seed, bidding=False, early_playouts=32)
    out: list[tuple[str, int]] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        if seat == 0 and deal.phase == "play" and len(obs.hand) > strong.exact_tricks:
            strong.last_samples = 0
            action = strong.choose(obs)
            out.append((str(action), strong.last_samples))
        else:
            action = HeuristicDoppelkopfBot(seat).choose(obs)
        deal.apply(action, seat)
    return out


def test_a_jumping_clock_changes_no_early_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    calm = _early_choices(6)
    assert any(samples >= 4 for _, samples in calm)  # (it searched)
    ticks = itertools.count(0.0, 86_400.0)
    for name in ("perf_counter", "monotonic", "time"):
        monkeypatch.setattr(time, name, lambda: next(ticks))
    assert _early_choices(6) == calm
