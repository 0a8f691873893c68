"""The strong Doppelkopf bot: Perfect-Information Monte Carlo over the exact solver.

Declarations (solo, Hochzeit, Armut, Scharfe), the answer to an Armut and
the announcements (Re/Kontra, each stage, answering the other side) are
chosen by their estimated score over sampled deals played out
(:mod:`kartentisch.bots.doppelkopf_bidding`); ``bidding=False`` keeps the
heuristic bot's (:mod:`kartentisch.bots.doppelkopf`), the earlier behaviour,
for comparison. The Armut's card exchange stays the heuristic's (the engine's
first legal choice). For each card it plays, the bot draws
deals consistent with everything its seat has seen
(:mod:`kartentisch.search.doppelkopf_determinize`: its hand, the cards
played, the voids shown, the ouvert hand, the Armut cards and counts, the
parties shown by a Q♣, a declaration or an announcement), solves each with
both parties known (:mod:`kartentisch.search.doppelkopf_solver`) and plays
the card whose mean *utility* for its party is highest.

**Utility.** A card is not worth its Augen but what they score: for the Re
party of each sample the bot scores every final total of Re's Augen with the
engine's scorer under the table's options (:func:`scored_table`: house or DDV
points, the announcements made so far and what they do, a missed announced
stage, the counting, the Bock multiplier, the extra points of the tricks
already played), as what a Re player scores minus what a Kontra player
scores, positive for the own party; an ouvert solo asks whether the
opponents take a trick. (Without a sample's party, :func:`house_utility`
gives the house score of a normal game.) The utility changes only at a few
Augen (30, 60, 90, 121, 151, 181, 211), so for each sample and card the
solver only finds between which of them the value lands — a few null-window
searches (:func:`~kartentisch.search.doppelkopf_solver.reached`) instead of
an exact value, which is about a hundred times cheaper. The extra points of
the tricks still to come are left out there.

**The last tricks are scored as the table scores them.** Once at most
``score_tricks`` tricks remain (3 by default), each sample is searched to its
end by :mod:`kartentisch.search.doppelkopf_endgame`: every ending scored by
the engine's own scorer under the table's options (extra points such as the
Karlchen, a Fuchs caught or a Doppelkopf trick, the announcements' value, DDV
or house points, the counting, the Bock multiplier), Re maximising Re's
points minus Kontra's. With ``score_tricks=0`` the Augen utility above plays
to the last card.

**When it searches.** Solving a whole deal exactly takes seconds to
minutes, so the exact search starts once at most ``exact_tricks`` tricks
remain (6 by default: a few milliseconds a sample). Before that, from the
first card, the bot searches too (``early_playouts`` 32 by default; 0 plays
the heuristic bot's card instead): it plays the card that scores best over
drawn deals (:meth:`early_values`), where it is better than the heuristic
bot's card by enough. For each of ``early_playouts // cards`` deals drawn by
the same sampler (at least ``early_min_samples``), the deal is rebuilt in
the engine and each legal card played; the heuristic bot plays on in every
seat (the seat itself silent: its own words are decided when their turn
comes) until a trick starts with ``exact_tricks`` cards in each hand
(``early_leaf="solve"``, the default), and there the deal is valued as the
exact search values a sample (:meth:`leaf_value`: the same Augen threshold
search and utility, best play on both sides), so that the value follows how
the bot really goes on; ``early_node_budget`` bounds the nodes those
searches take (beyond ``early_min_samples`` deals). With
``early_leaf="playout"`` the heuristic bot plays the deal out instead and
the engine's score is counted. A card's value is what the seat scores minus
the mean of the other playing seats. Every card sees the same deals (common
random numbers), and the best card replaces the heuristic bot's only when it
is better in the paired comparison over those deals: its mean gain above
``early_margin`` plus ``early_z`` (1) standard errors of the gain (a card
that merely looks better by the noise of a few deals is not played; without
the gate the search was measured worse than the heuristic card in DDV; with
``early_z`` 1 it gains over the heuristic card in both rule sets,
docs/bots.md). With ``horizon`` > 0 it instead searches the early tricks
that many tricks deep, valuing the rest by a greedy playout — measured
weaker than the heuristic card (docs/bots.md), so off by default. Ties go to
the card the heuristic bot prefers. Samples are bounded by ``samples`` and
by a budget of searched nodes, never by the clock, so that a seeded bot plays
the same however busy the machine is; at least ``min_samples`` are drawn.

While a Hochzeit still looks for its partner the parties are not known, and
a Nullsolo is not modelled: then the bot plays the heuristic bot's card.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from typing import Final, Literal

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.bots.doppelkopf_bidding import (
    Estimates,
    QuietHeuristicBot,
    choose_announcement,
    choose_answer,
    choose_armut_answer,
    choose_declaration,
    choose_exchange,
    play_out,
    played_deal,
    relative,
)
from kartentisch.cards import Card
from kartentisch.games.doppelkopf.actions import Action, Call
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.question import Answer, Question
from kartentisch.games.doppelkopf.scoring import score_outcome
from kartentisch.search.doppelkopf_determinize import DoppelkopfInfoSet
from kartentisch.search.doppelkopf_endgame import Ending, known_facts, party_value, with_party
from kartentisch.search.doppelkopf_solver import Position, reached

__all__ = [
    "SearchKind",
    "StrongDoppelkopfBot",
    "expert_doppelkopf_bot",
    "house_utility",
    "scored_table",
    "utility_steps",
]

#: How the early search values a card in a drawn deal (:meth:`StrongDoppelkopfBot.early_values`).
_EARLY_LEAVES: Final = ("playout", "solve")
#: How the bot searches a card (:meth:`StrongDoppelkopfBot.search_kind`).
SearchKind = Literal["exact", "early", "depth-limited"]
_LEVEL: Final = {"re": 0, "kontra": 0, "no90": 1, "no60": 2, "no30": 3, "schwarz": 4}
#: Augen the loser must stay below for each stage, and the limit a stage announces.
_LIMITS: Final = (90, 60, 30)
#: Re's totals from which a score may change (schwarz, the stages of either party,
#: 120:120, the DDV targets and defences, the points against): the scorer is asked
#: there only, and the total keeps its value up to the next one.
_CHANGES: Final = frozenset(
    {0, 1, 240} | {x for t in (30, 60, 90, 120, 150, 180, 210) for x in (t, t + 1)}
)


def _below(level: int, augen: int) -> bool:
    """Whether a party with ``augen`` stays below announced stage ``level`` (schwarz: 0)."""
    return augen == 0 if level == 4 else augen < _LIMITS[level - 1]


def house_utility(re_augen: int, re_level: int | None, kontra_level: int | None) -> int:
    """Re's score minus Kontra's for a normal game that ends with ``re_augen`` to Re.

    ``re_level``/``kontra_level``: the highest word each party said (0 Re or
    Kontra, 1 keine 90 … 4 schwarz), None if it said nothing.

    >>> house_utility(121, None, None), house_utility(120, None, None), house_utility(240, 0, 0)
    (10, -20, 40)
    >>> house_utility(140, 1, None)  # Re announced keine 90 and missed it
    -20
    """
    kontra_augen = 240 - re_augen
    missed_re = bool(re_level) and not _below(re_level or 0, kontra_augen)
    missed_kontra = bool(kontra_level) and not _below(kontra_level or 0, re_augen)
    re_wins = missed_kontra if missed_re != missed_kontra else re_augen >= 121
    loser = kontra_augen if re_wins else re_augen
    stages = sum(1 for limit in _LIMITS if loser < limit)
    value = (10 if re_wins else 20) + 10 * stages
    return value if re_wins else -value


def utility_steps(
    obs: DoppelkopfObservation, model: str, re_party: frozenset[int] | None = None
) -> tuple[list[int], list[float], bool]:
    """Where the utility changes: (thresholds, utility per bucket, for the scoring party).

    Bucket ``b`` holds the scoring party's final totals from ``thresholds[b-1]``
    up to ``thresholds[b]``; the utilities are the scoring party's (Re, or the
    opponents of an ouvert soloist). The flag says whether that is the
    observing seat's party.

    With ``re_party`` (a sample's Re) each total is scored as the table scores
    it (:func:`scored_table`: the table's scoring options, the announcements, the
    extra points of the tricks played so far); without, by :func:`house_utility`.
    """
    mine_re = obs.party == "re" if re_party is None else obs.seat in re_party
    if model == "tricks":  # an ouvert solo: do the opponents take a trick?
        return [1], [-1.0, 1.0], not mine_re
    if re_party is not None:
        table = scored_table(obs, re_party)
        if table is not None:
            return _steps(table, mine_re)
    if obs.soloist is not None:
        return [121], [-1.0, 1.0], mine_re
    levels: dict[str, int | None] = {"re": None, "kontra": None}
    for a in obs.announcements:
        level = _LEVEL[a.word]
        current = levels[a.party]
        levels[a.party] = level if current is None else max(current, level)
    table = [float(house_utility(a, levels["re"], levels["kontra"])) for a in range(241)]
    return _steps(table, mine_re)


def _steps(table: Sequence[float], mine_re: bool) -> tuple[list[int], list[float], bool]:
    thresholds = [a for a in range(1, len(table)) if table[a] != table[a - 1]]
    utilities = [table[0]] + [table[a] for a in thresholds]
    return thresholds, utilities, mine_re


def scored_table(obs: DoppelkopfObservation, re_party: frozenset[int]) -> list[float] | None:
    """What a Re player scores minus what a Kontra player scores, for each total of
    Re's Augen from 0 to 240, scored by the engine's scorer under the table's rules
    (:func:`~kartentisch.games.doppelkopf.scoring.score_outcome`: the scoring, the
    announcements and what they do, the counting, the Bock multiplier, and the extra
    points of the tricks played so far; 0 Augen counts as no trick). None where the
    score is not searched (an open Hochzeit, a Nullsolo)."""
    facts = known_facts(obs)
    if facts is None:
        return None
    facts = with_party(facts, re_party, obs.options)
    table: list[float] = []
    value = 0.0
    for a in range(241):
        if a in _CHANGES:
            value = party_value(facts, score_outcome(facts, a, int(a > 0), int(a < 240)).points)
        table.append(value)
    return table


def _sample_utilities(
    obs: DoppelkopfObservation,
    position: Position,
    cards: Sequence[Card],
    ending: Ending | None,
    steps: dict[frozenset[int], tuple[list[int], list[float], bool]],
    horizon: int | None,
) -> tuple[list[float], int]:
    """The utility for ``obs.seat``'s party of each of ``cards`` (the mover's in
    ``position``, one full-information sample) as the card search values it, and
    the nodes (or endings) searched.

    With ``ending`` (the last tricks) every ending is scored as the table scores
    it; otherwise the Augen threshold search (:func:`reached`) finds the bucket of
    each card's total and :func:`utility_steps` its score, ``steps`` caching those
    per Re party for ``obs``.
    """
    if ending is not None:
        values, leaves = ending.search(position, cards)
        # (A Re player's points minus a Kontra player's; the scoring party is Re but
        # in an ouvert solo.)
        mine = (obs.seat in position.party) == (position.model == "augen")
        return [v if mine else -v for v in values], leaves
    re = position.party if position.model == "augen" else None
    key = re if re is not None else frozenset()
    if key not in steps:
        steps[key] = utility_steps(obs, position.model, re)
    thresholds, utilities, own = steps[key]
    sign = 1.0 if own else -1.0
    still = [t - position.taken for t in thresholds]  # what the party still needs
    base = sum(1 for t in still if t <= 0)
    live = [t for t in still if t > 0]
    buckets, nodes = reached(position, cards, live, horizon=horizon)
    return [sign * utilities[base + b] for b in buckets], nodes


class StrongDoppelkopfBot:
    """PIMC over solved samples; seeded, bounded in samples and searched nodes."""

    name = "strong"

    def __init__(
        self,
        seed: int | random.Random | None = None,
        *,
        samples: int = 20,
        min_samples: int = 4,
        node_budget: int = 4_000_000,
        exact_tricks: int = 6,
        horizon: int = 0,
        score_tricks: int = 3,
        bidding: bool = True,
        declare_samples: int = 16,
        announce_samples: int = 24,
        early_playouts: int = 32,
        early_min_samples: int = 4,
        early_margin: float = 0.0,
        early_z: float = 1.0,
        early_leaf: str = "solve",
        early_node_budget: int = 2_000_000,
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.samples = samples
        self.min_samples = min_samples
        self.node_budget = node_budget
        self.exact_tricks = exact_tricks
        self.horizon = horizon
        self.score_tricks = score_tricks
        self.bidding = bidding
        self.declare_samples = declare_samples
        self.announce_samples = announce_samples
        self.early_playouts = early_playouts
        self.early_min_samples = early_min_samples
        self.early_margin = early_margin
        self.early_z = early_z
        if early_leaf not in _EARLY_LEAVES:
            raise ValueError(f"early_leaf must be one of {', '.join(_EARLY_LEAVES)}")
        self.early_leaf = early_leaf
        self.early_node_budget = early_node_budget
        fallback_rng = random.Random(self.rng.getrandbits(64))
        self.fallback: HeuristicDoppelkopfBot = (
            QuietHeuristicBot(fallback_rng) if bidding else HeuristicDoppelkopfBot(fallback_rng)
        )
        #: The estimates behind the last declaration or announcement (tests, hints and
        #: the analysis read them).
        self.last_estimates = Estimates()
        #: Nodes searched for the last decision (for benchmarks).
        self.last_nodes = 0
        self.last_samples = 0
        #: Decisions searched, and those the sampler could not serve (the
        #: heuristic card was played then).
        self.searched = 0
        self.failures = 0

    def evaluate(
        self, obs: DoppelkopfObservation, cards: Sequence[Card], info: DoppelkopfInfoSet
    ) -> dict[Card, float]:
        """Mean utility for this seat's party of each of ``cards``, over the samples."""
        tricks_left = len(obs.hand)
        horizon = None if tricks_left <= self.exact_tricks else self.horizon
        ending = None
        if tricks_left <= self.score_tricks and info.order is not None:
            ending = Ending.of(obs, info.order)
        totals = [0.0] * len(cards)
        count = nodes = 0
        # The utility of each total, scored as the table scores, for each Re party the
        # samples give (a few per decision).
        steps: dict[frozenset[int], tuple[list[int], list[float], bool]] = {}
        while count < self.samples and (count < self.min_samples or nodes < self.node_budget):
            position = info.sample(self.rng)
            values, n = _sample_utilities(obs, position, cards, ending, steps, horizon)
            nodes += n
            for i, v in enumerate(values):
                totals[i] += v
            count += 1
        self.last_nodes = nodes
        self.last_samples = count
        self.searched += 1
        return {card: total / count for card, total in zip(cards, totals, strict=True)}

    def early_values(
        self, obs: DoppelkopfObservation, cards: Sequence[Card], info: DoppelkopfInfoSet
    ) -> dict[Card, list[float]]:
        """The utility of each of ``cards`` in each of the deals drawn, by heuristic playouts.

        ``max(early_min_samples, early_playouts // len(cards))`` deals are drawn
        from ``info``; in each, every card is played and the deal played out by
        the heuristic bot (this seat silent), scored by the engine under the
        table's rules as this seat's points minus the mean of the other playing
        seats. The same deals serve every card, in the same order. Empty if no
        deal could be rebuilt.
        """
        samples = max(self.early_min_samples, self.early_playouts // max(1, len(cards)))
        solve = self.early_leaf == "solve"
        values: list[list[float]] = [[] for _ in cards]
        count = tries = playouts = nodes = 0
        while count < samples and tries < samples * 3:
            if solve and count >= self.early_min_samples and nodes >= self.early_node_budget:
                break
            tries += 1
            try:
                hands = info.sample_hands(self.rng)
                played_deal(obs, hands)
            except (ValueError, AssertionError):
                continue
            seed = self.rng.getrandbits(32)
            for i, card in enumerate(cards):
                deal = played_deal(obs, hands)
                deal.apply(card, obs.seat)
                bots: dict[int, HeuristicDoppelkopfBot] = {
                    s: HeuristicDoppelkopfBot(seed + s) for s in obs.playing
                }
                bots[obs.seat] = QuietHeuristicBot(seed + obs.seat)
                if solve:
                    play_out(deal, bots, until=self.exact_tricks)
                if solve and not deal.is_over:
                    value, n = self.leaf_value(deal, obs.seat)
                    nodes += n
                else:
                    play_out(deal, bots)
                    value = relative(deal.points(), obs.seat, obs.playing)
                values[i].append(value)
                playouts += 1
            count += 1
        self.last_samples = count
        self.last_nodes = nodes if solve else playouts
        if count == 0:
            return {}
        self.searched += 1
        return dict(zip(cards, values, strict=True))

    def leaf_value(self, deal: DoppelkopfDeal, seat: int) -> tuple[float, int]:
        """The value for ``seat``'s party of a deal in play, every hand known, as the
        card search values it: the utility of best play from here on by both parties,
        and the nodes searched.

        This is the early search's leaf with ``early_leaf="solve"``: the position
        where the exact search takes over (``exact_tricks`` tricks left). The
        mover's cards are valued as :meth:`evaluate` values a sample's (the Augen
        threshold search scored under the table's rules, as ``seat`` knows them
        there: announcements, extra points of the tricks played; the ending search
        within ``score_tricks`` of the end), and the mover takes the best of them
        for its party.
        """
        obs = deal.observation(seat)
        position = Position.of(deal)
        cards = position.following()
        ending = None
        if len(deal.hand(position.to_move)) <= self.score_tricks:
            ending = Ending.of(obs, deal.order)
        values, nodes = _sample_utilities(obs, position, cards, ending, {}, None)
        friend = (position.to_move in position.party) == (seat in position.party)
        return (max(values) if friend else min(values)), nodes

    def search_kind(self, obs: DoppelkopfObservation, info: DoppelkopfInfoSet) -> SearchKind | None:
        """How the bot searches the card it plays at ``obs`` (its own turn in the
        play): ``"exact"`` (the last ``exact_tricks`` tricks), ``"early"`` (the
        early search before them, :meth:`early_card`), ``"depth-limited"``
        (before them with ``horizon`` > 0) or None: it plays the heuristic bot's
        card (the seat's information is not ready, no early search, or the
        parties are not known yet for a search of their points)."""
        if not info.ready or info.order is None:
            return None
        exact = len(obs.hand) <= self.exact_tricks
        if not exact and self.horizon <= 0:
            return "early" if self.early_playouts > 0 else None
        if info.re is None and info.qc_rule != "normal":
            return None  # the parties are not known yet
        return "exact" if exact else "depth-limited"

    @staticmethod
    def search_cards(obs: DoppelkopfObservation, info: DoppelkopfInfoSet) -> list[Card]:
        """The cards the search compares at ``obs``: the legal cards, each once,
        those of the suit led where the trick has one (``info.order`` known)."""
        cards = list(dict.fromkeys(a for a in obs.legal_actions if isinstance(a, Card)))
        if info.order is not None and obs.trick.cards:
            suit_of = info.order.suit_of
            led = suit_of[obs.trick.cards[0]]
            cards = [c for c in cards if suit_of[c] == led] or cards
        return cards

    def early_card(
        self,
        obs: DoppelkopfObservation,
        preferred: Action,
        cards: Sequence[Card],
        info: DoppelkopfInfoSet,
    ) -> tuple[Action, dict[Card, float]]:
        """The card of an early trick (before the exact search), by the early search,
        and each card's mean value over the deals drawn (empty where nothing was
        searched: an Armut's cards changed hands, no deal could be rebuilt).

        The best card by its mean replaces ``preferred`` (the heuristic bot's)
        only where it is better in the paired comparison (``early_margin``,
        ``early_z``); else ``preferred`` is played.
        """
        if obs.armut is not None or preferred not in cards:
            return preferred, {}  # (an Armut's cards changed hands: not rebuilt)
        try:
            values = self.early_values(obs, cards, info)
        except (AssertionError, ValueError):
            self.failures += 1
            return preferred, {}
        if not values or preferred not in values:
            return preferred, {}
        means = {card: statistics.fmean(values[card]) for card in cards}
        best = max(cards, key=means.__getitem__)
        gains = [b - p for b, p in zip(values[best], values[preferred], strict=True)]
        gain = statistics.fmean(gains)
        spread = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
        if gain > self.early_margin + self.early_z * spread + 1e-9:
            return best, means
        return preferred, means

    def bid(self, obs: DoppelkopfObservation, preferred: Action) -> Action | None:
        """A declaration, Armut answer or announcement estimated over sampled deals
        (None: no word now, or nothing to estimate); ``preferred`` is the heuristic
        bot's choice. :attr:`last_estimates` holds the estimates behind it."""
        self.last_estimates = Estimates()
        if obs.phase == "declare":
            choice, self.last_estimates = choose_declaration(
                obs, self.rng, preferred, samples=self.declare_samples
            )
            return choice
        if obs.phase == "armut_answer":
            choice, self.last_estimates = choose_armut_answer(
                obs, self.rng, preferred, samples=self.declare_samples
            )
            return choice
        if obs.phase in ("armut_give", "armut_return"):
            choice, self.last_estimates = choose_exchange(
                obs, self.rng, preferred, samples=self.declare_samples
            )
            return choice
        if obs.phase != "play" or obs.to_move != obs.seat:
            return None
        if not any(isinstance(a, Call) and a.is_announcement for a in obs.legal_actions):
            return None
        if obs.armut is not None:
            # An Armut's cards changed hands: not rebuilt, the heuristic's word.
            return self.fallback.rule_announcement(obs)
        said, self.last_estimates = choose_announcement(
            obs, self.rng, samples=self.announce_samples
        )
        return said

    def answer(self, obs: DoppelkopfObservation, question: Question) -> Answer:
        """The answer the bot gives a person's declaration question (one answer for
        every round of the deal, :func:`~kartentisch.bots.doppelkopf_bidding.choose_answer`):
        the hint for the question. :attr:`last_estimates` holds the estimates,
        keyed by the answers' notation."""
        answer, self.last_estimates = choose_answer(
            obs, self.rng, question, samples=self.declare_samples
        )
        return answer

    def choose(self, observation: DoppelkopfObservation) -> Action:
        obs = observation
        preferred = self.fallback.choose(obs)
        if self.bidding:
            decided = self.bid(obs, preferred)
            if decided is not None:
                return decided
        if obs.phase != "play" or obs.to_move != obs.seat or isinstance(preferred, Call):
            return preferred
        info = DoppelkopfInfoSet(obs)
        kind = self.search_kind(obs, info)
        if kind is None:
            return preferred
        cards = self.search_cards(obs, info)
        if len(cards) == 1:
            return cards[0]
        if kind == "early":
            return self.early_card(obs, preferred, cards, info)[0]
        try:
            means = self.evaluate(obs, cards, info)
        except (AssertionError, ValueError):
            # An observation the sampler cannot fit (it should not happen): play safe.
            self.failures += 1
            return preferred
        best = max(means.values())
        tied = [c for c in cards if means[c] >= best - 1e-9]
        if preferred in tied:
            return preferred
        return tied[0]


def expert_doppelkopf_bot(seed: int | random.Random | None = None) -> StrongDoppelkopfBot:
    """The ``expert`` level: the strong bot with larger budgets (about 3 s a decision
    at most instead of 0.5 s)."""
    bot = StrongDoppelkopfBot(
        seed,
        samples=40,
        min_samples=8,
        node_budget=12_000_000,
        declare_samples=48,
        announce_samples=80,
    )
    bot.name = "expert"
    return bot
