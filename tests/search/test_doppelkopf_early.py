"""The strong Doppelkopf bot's early tricks: heuristic playouts of sampled deals, or
heuristic play up to the exact search and that search's value there."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.bots.doppelkopf_strong import (
    StrongDoppelkopfBot,
    expert_doppelkopf_bot,
    scored_table,
)
from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfObservation
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.search.doppelkopf_determinize import DoppelkopfInfoSet
from kartentisch.search.doppelkopf_solver import Position, solve

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
        bot = StrongDoppelkopfBot(
            seed, bidding=False, early_playouts=24, early_leaf="playout", early_z=2.0
        )
        values = bot.early_values(obs, cards, info)
        means = {card: sum(v) / len(v) for card, v in values.items()}
        assert bot.last_samples == 8  # 24 playouts over three cards
        # Giving Re the Fox (11 Augen and its extra point) is the worst of the three,
        # whether Kontra takes the trick with the Dulle or keeps it for later.
        assert means[Card("AD")] < min(means[Card("10H")], means[Card("JH")]) - 2.0
    chosen = StrongDoppelkopfBot(
        5, bidding=False, early_playouts=120, early_leaf="playout", early_z=2.0
    )
    chosen.fallback = _FoxFirst(0)
    assert chosen.choose(obs) != Card("AD")
    assert chosen.searched == 1
    # The gate: a card replaces the heuristic's only when the paired gain over the
    # drawn deals stands out of their noise (here never).
    gated = StrongDoppelkopfBot(
        5, bidding=False, early_playouts=120, early_z=1e9, early_leaf="playout"
    )
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
        bot = StrongDoppelkopfBot(
            11, bidding=False, early_playouts=32, early_leaf="playout", early_z=2.0
        )
        info = DoppelkopfInfoSet(obs)
        values = bot.early_values(obs, [Card("10H"), Card("AD"), Card("JH")], info)
        picks.append(
            (
                StrongDoppelkopfBot(
                    11, early_playouts=32, early_leaf="playout", early_z=2.0
                ).choose(obs),
                values,
            )
        )
    assert picks[0] == picks[1] == picks[2]


def test_the_early_search_keeps_to_its_playout_budget() -> None:
    obs = _first_trick(3).observation(3)
    info = DoppelkopfInfoSet(obs)
    cards = [Card("10H"), Card("AD"), Card("JH"), Card("JS")]
    bot = StrongDoppelkopfBot(2, early_playouts=32, early_leaf="playout", early_z=2.0)
    bot.early_values(obs, cards, info)
    assert (bot.last_samples, bot.last_nodes) == (8, 32)
    few = StrongDoppelkopfBot(
        2, early_playouts=4, early_min_samples=3, early_leaf="playout", early_z=2.0
    )
    few.early_values(obs, cards, info)
    assert (few.last_samples, few.last_nodes) == (3, 12)  # the minimum of deals
    assert expert_doppelkopf_bot(2).early_playouts == 32  # (on by default, as strong)
    more = StrongDoppelkopfBot(
        2, early_playouts=200, early_min_samples=8, early_leaf="playout", early_z=2.0
    )
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


def _early_choices(seed: int, leaf: str = "playout") -> list[tuple[str, int]]:
    """The strong bot's cards in the tricks before its exact search, and the deals
    each drew (the other seats heuristic)."""
    deal = DoppelkopfDeal.from_seed(seed, dealer=1)
    strong = StrongDoppelkopfBot(seed, bidding=False, early_playouts=32, early_leaf=leaf)
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


@pytest.mark.parametrize("leaf", ["playout", "solve"])
def test_a_jumping_clock_changes_no_early_choice(
    monkeypatch: pytest.MonkeyPatch, leaf: str
) -> None:
    calm = _early_choices(6, leaf)
    assert any(samples >= 4 for _, samples in calm)  # (it searched)
    ticks = itertools.count(0.0, 86_400.0)
    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, lambda: next(ticks))
    assert _early_choices(6, leaf) == calm


# -- the leaf where the exact search takes over -------------------------------------


def _at_the_exact_search(seed: int, preset: str = "house") -> DoppelkopfDeal:
    """A heuristic deal at the first trick with six cards in each hand."""
    options = DoppelkopfDeal.from_seed(0, dealer=0).options
    if preset != "house":
        from kartentisch.games.doppelkopf import DoppelkopfOptions

        options = DoppelkopfOptions.preset_named(preset)
    deal = DoppelkopfDeal.from_seed(seed, dealer=seed % 4, options=options)
    bots = {s: HeuristicDoppelkopfBot(seed + s) for s in range(deal.num_seats)}
    while not (deal.phase == "play" and len(deal.hand(deal.to_move or 0)) <= 6):
        seat = deal.to_move
        assert seat is not None, "this deal was thrown in"
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    return deal


@pytest.mark.parametrize(
    ("seed", "preset", "game", "said"),
    [
        (2, "house", "normal", []),
        (8, "house", "hochzeit", ["re"]),  # Re announced: the score doubled
        (1, "ddv", "normal", []),
        (2, "ddv", "queens", []),  # a solo: one Re player
    ],
)
def test_the_leaf_is_the_solvers_value_scored_as_the_table_scores(
    seed: int, preset: str, game: str, said: list[str]
) -> None:
    deal = _at_the_exact_search(seed, preset)
    assert deal.game_type == game and deal.re_party is not None
    assert [a.word for a in deal.observation(0).announcements] == said
    assert not deal.trick_play.trick.cards  # type: ignore[union-attr]
    # Best play on both sides to the end (the exact Augen), scored by the table.
    re_augen = solve(Position.of(deal)).total
    bot = StrongDoppelkopfBot(0, score_tricks=0)
    for seat in deal.playing:
        table = scored_table(deal.observation(seat), deal.re_party)
        assert table is not None
        expected = table[re_augen] if seat in deal.re_party else -table[re_augen]
        value, nodes = bot.leaf_value(deal, seat)
        assert value == expected, (seat, re_augen)
        assert nodes > 0
    # One party's value is the other's, negated.
    re_seat = min(deal.re_party)
    kontra_seat = min(s for s in deal.playing if s not in deal.re_party)
    assert bot.leaf_value(deal, re_seat)[0] == -bot.leaf_value(deal, kontra_seat)[0]


def test_the_solve_leaf_plays_on_to_the_exact_search_and_values_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    obs = _first_trick(4).observation(3)
    info = DoppelkopfInfoSet(obs)
    cards = [Card("10H"), Card("AD"), Card("JH")]
    seen: list[tuple[int, int, bool, int]] = []
    original = StrongDoppelkopfBot.leaf_value

    def spy(self: StrongDoppelkopfBot, deal: DoppelkopfDeal, seat: int) -> tuple[float, int]:
        play = deal.trick_play
        assert play is not None
        sizes = {len(deal.hand(s)) for s in deal.playing}
        first = play.tricks[0].cards[3] if play.tricks else None
        seen.append((seat, sizes.pop() if len(sizes) == 1 else -1, not play.trick.cards, id(first)))
        value, nodes = original(self, deal, seat)
        leaves.append(value)
        return value, nodes

    leaves: list[float] = []
    monkeypatch.setattr(StrongDoppelkopfBot, "leaf_value", spy)
    bot = StrongDoppelkopfBot(3, bidding=False, early_playouts=15, early_leaf="solve")
    values = bot.early_values(obs, cards, info)
    assert bot.last_samples == 5
    # Every card of every deal: played on until a trick starts with six cards in each
    # hand (house rules: after four tricks), valued there for seat 3.
    assert len(seen) == 15
    assert all(seat == 3 and size == 6 and fresh for seat, size, fresh, _ in seen)
    # The leaves are the values, deal by deal and card by card (same deals per card).
    assert [values[c][k] for k in range(5) for c in cards] == leaves
    assert bot.last_nodes > 0


def test_the_solve_leaf_is_seeded_and_sees_only_the_observation() -> None:
    a, b = _first_trick(1), _first_trick(2)
    obs_a, obs_b = a.observation(3), b.observation(3)
    assert obs_a.to_dict() == obs_b.to_dict()
    cards = [Card("10H"), Card("AD"), Card("JH")]
    results = []
    for obs in (obs_a, obs_b, obs_a):
        bot = StrongDoppelkopfBot(11, bidding=False, early_playouts=24, early_leaf="solve")
        values = bot.early_values(obs, cards, DoppelkopfInfoSet(obs))
        chosen = StrongDoppelkopfBot(11, early_playouts=24, early_leaf="solve").choose(obs)
        results.append((values, chosen, bot.last_nodes))
    assert results[0] == results[1] == results[2]
    other = StrongDoppelkopfBot(12, bidding=False, early_playouts=24, early_leaf="solve")
    assert other.early_values(obs_a, cards, DoppelkopfInfoSet(obs_a)) != results[0][0]


def test_the_solve_leaf_keeps_to_its_budgets() -> None:
    obs = _first_trick(3).observation(3)
    info = DoppelkopfInfoSet(obs)
    cards = [Card("10H"), Card("AD"), Card("JH"), Card("JS")]
    bot = StrongDoppelkopfBot(2, early_playouts=32, early_leaf="solve", early_node_budget=10**12)
    bot.early_values(obs, cards, info)
    assert bot.last_samples == 8
    # A node budget spent by the first deal: only the minimum of deals is drawn.
    tight = StrongDoppelkopfBot(
        2, early_playouts=32, early_leaf="solve", early_node_budget=1, early_min_samples=3
    )
    tight.early_values(obs, cards, info)
    assert tight.last_samples == 3
    with pytest.raises(ValueError, match="early_leaf"):
        StrongDoppelkopfBot(2, early_leaf="rollout")


def test_the_solve_leaf_overrules_smearing_the_fox_to_re() -> None:
    obs = _first_trick(1).observation(3)
    info = DoppelkopfInfoSet(obs)
    cards = [Card("10H"), Card("AD"), Card("JH")]
    for seed in (5, 6):
        bot = StrongDoppelkopfBot(seed, bidding=False, early_playouts=24, early_leaf="solve")
        values = bot.early_values(obs, cards, info)
        means = {card: sum(v) / len(v) for card, v in values.items()}
        assert means[Card("AD")] < max(means[Card("10H")], means[Card("JH")])
    chosen = StrongDoppelkopfBot(5, bidding=False, early_playouts=60, early_leaf="solve")
    chosen.fallback = _FoxFirst(0)
    assert chosen.choose(obs) != Card("AD")


def test_the_hint_in_an_early_trick_is_the_card_the_bot_plays() -> None:
    """The analysis' view of an early trick (the hint) is the bot's own early search:
    the card it plays, the values behind it where it overrules the rule's card, and
    ``early-kept`` where it found no card clearly better."""
    from kartentisch.analysis.doppelkopf_turn import bot_view

    methods: set[str] = set()
    for seed in range(16):
        deal = DoppelkopfDeal.from_seed(seed, dealer=seed % 4)
        players = [HeuristicDoppelkopfBot(seed * 4 + s) for s in range(4)]
        while not deal.is_over and (deal.phase != "play" or not deal.tricks):
            seat = deal.to_move
            assert seat is not None
            deal.apply(players[seat].choose(deal.observation(seat)), seat)
        seat = deal.to_move
        if deal.is_over or seat is None:
            continue  # (thrown in)
        obs = deal.observation(seat)
        view = bot_view(obs, StrongDoppelkopfBot(seed, bidding=False))
        played = StrongDoppelkopfBot(seed, bidding=False).choose(obs)
        assert view.choice == played
        methods.add(view.method)
        if view.method == "early":
            assert view.card == max(view.expected, key=view.expected.__getitem__)
            assert view.card != StrongDoppelkopfBot(seed).fallback.choose(obs)
        elif view.method == "early-kept":
            assert not view.expected and view.samples > 0
    assert {"early", "early-kept"} <= methods


def test_the_search_kind_follows_the_tricks_left_and_the_settings() -> None:
    """One gate says how a card is searched, for the bot's play and its hint alike:
    the early search before the last ``exact_tricks`` tricks (none with
    ``early_playouts=0``; the depth-limited search with ``horizon`` > 0), the exact
    search in them."""
    deal = _first_trick(1)
    obs = deal.observation(3)
    info = DoppelkopfInfoSet(obs)
    assert StrongDoppelkopfBot(1).search_kind(obs, info) == "early"
    assert StrongDoppelkopfBot(1, early_playouts=0).search_kind(obs, info) is None
    assert StrongDoppelkopfBot(1, horizon=3).search_kind(obs, info) == "depth-limited"
    assert StrongDoppelkopfBot(1, exact_tricks=10).search_kind(obs, info) == "exact"
    # The cards compared: each legal card once.
    cards = StrongDoppelkopfBot.search_cards(obs, info)
    assert len(cards) == len(set(cards)) and set(cards) <= set(obs.legal_actions)
    # Played on to the last six tricks of this normal game: the exact search.
    bots = [HeuristicDoppelkopfBot(s) for s in range(4)]
    while not deal.is_over and not (deal.to_move == 3 and len(deal.hand(3)) <= 6):
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    assert not deal.is_over
    late = deal.observation(3)
    assert StrongDoppelkopfBot(1).search_kind(late, DoppelkopfInfoSet(late)) == "exact"
