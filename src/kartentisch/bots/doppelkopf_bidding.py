"""Declarations and announcements of the strong Doppelkopf bot, by estimates over sampled deals.

The heuristic bot declares a solo, a Hochzeit, an Armut or Scharfe and says
Re, Kontra and the stages by fixed thresholds on its hand. Here each choice
is worth what it is estimated to score:

* **Deals.** The bot draws the hands it cannot see, consistent with what its
  seat knows: at the declarations the unseen cards dealt at random (a seat
  that declared a Hochzeit gets both Q♣; a draw in which the declarations
  made so far cannot be replayed is drawn again); in play the sampler of the
  card search (:class:`~kartentisch.search.doppelkopf_determinize.DoppelkopfInfoSet`:
  voids, the Q♣ and the parties shown), each seat's hand completed by the
  cards it played.
* **Playouts.** Each drawn deal is rebuilt in the engine
  (:class:`~kartentisch.games.doppelkopf.DoppelkopfDeal`), the declarations,
  announcements and cards so far replayed, the choice applied, and the deal
  played to its end by the heuristic bot in every seat (the engine scores it
  under the table's options: house or DDV points, announcements, extra points,
  counting, Bock). A heuristic playout costs about 5–8 ms a deal.
* **Utility.** What the seat scores minus the mean of the other playing seats
  (house rules: a won solo +250, a won normal game as Re +6.7, a lost one −13.3);
  this is what the seat gains on the table, and over the parties a deal gives it
  is what a duplicate tournament counts.

**Declarations** (:func:`choose_declaration`): the candidates are pass and the
declarations the seat may make now — every Scharfe, a Hochzeit, an Armut, and
the solos worth estimating (the two kinds with the most tricks by the
heuristic's count, :func:`~kartentisch.bots.doppelkopf.solo_strength`, if at
least ``screen`` of the hand; and the ouvert of the best one where the rules
allow it): a screen for speed, the choice is the estimate's. A Vorbehalt is
worth its best reservation. The same drawn deals serve every candidate (common
random numbers), so their difference is much less noisy than each estimate.

**Announcements** (:func:`choose_announcement`): one playout per drawn deal in
which the seat itself says nothing; each legal word is then scored on the
same endings as if the seat had said it too (the scorer adds the doubling or
the points and the stage to make), and the word with the best mean is said
when it beats saying nothing. Answering the other side (Kontra after Re) is
one of those words. The playout does not model how the others react to the
word.

Every draw comes from the bot's seeded random generator and the number of
draws is a budget (``samples``), never a time.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Final, TypeVar

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot, solo_strength
from kartentisch.cards import Card
from kartentisch.games.doppelkopf.actions import Action, Call, parse_action
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.play import counted_announcement
from kartentisch.games.doppelkopf.question import Answer, Question
from kartentisch.games.doppelkopf.scoring import Announcement, GameFacts, score_game
from kartentisch.games.doppelkopf.trumps import AUGEN, trick_order
from kartentisch.search.doppelkopf_determinize import DoppelkopfInfoSet
from kartentisch.tricks import TrickOrder

__all__ = [
    "Estimates",
    "QuietHeuristicBot",
    "answer_candidates",
    "bot_candidates",
    "choose_announcement",
    "choose_answer",
    "choose_armut_answer",
    "choose_declaration",
    "choose_exchange",
    "declaration_candidates",
    "estimate_announcements",
    "estimate_answers",
    "estimate_calls",
    "exchange_candidates",
    "play_out",
    "played_deal",
    "relative",
]

_PASS: Final = Call("pass")
_QC: Final = Card("QC")
#: The pair a Scharfe declares, by the word of its call.
#: A candidate of an estimate (a call or an answer).
_C = TypeVar("_C", Call, Answer)
_SCHARFE: Final = {"aces": Card("AH"), "kings": Card("KH")}


class Estimates(dict[str, float]):
    """Each choice's estimated utility, keyed by its notation (``pass``, ``solo
    queens``; an announcement by its word, ``""`` for saying nothing), and
    ``deals``: how many drawn deals the means are over (0: none could be drawn)."""

    def __init__(self, means: dict[str, float] | None = None, deals: int = 0) -> None:
        super().__init__(means or {})
        self.deals = deals


class QuietHeuristicBot(HeuristicDoppelkopfBot):
    """The heuristic bot that never announces (the strong bot decides that itself)."""

    def _announce(self, obs: DoppelkopfObservation, legal: list[Action]) -> Call | None:
        return None


class _Scripted(HeuristicDoppelkopfBot):
    """The heuristic bot, but at the declarations it makes ``targets``' choices: each
    round the first of them legal there (a reservation that needs a Vorbehalt first
    reserves), else ``pass``."""

    def __init__(self, *targets: Call) -> None:
        super().__init__(0)
        self.targets = targets

    def choose(self, observation: DoppelkopfObservation) -> Action:
        obs = observation
        targets = self.targets
        if obs.phase in ("armut_give", "armut_return"):
            for target in targets:
                if target.word in ("give", "return"):
                    return target  # an exchange: any valid set of cards is accepted
        if obs.phase not in ("declare", "armut_answer"):
            return super().choose(obs)
        legal = obs.legal_actions
        for target in targets:
            if target in legal:
                return target
        for target in targets:
            if target == _PASS:
                continue
            if Call("vorbehalt") in legal:
                return Call("vorbehalt")
            same = [a for a in legal if isinstance(a, Call) and a.word == target.word]
            if same:
                return same[0]
        if _PASS in legal:
            return _PASS
        return super().choose(obs)


def relative(points: Sequence[int], seat: int, playing: Sequence[int]) -> float:
    """What ``seat`` scores minus the mean of the other playing seats."""
    others = [points[s] for s in playing if s != seat]
    return points[seat] - sum(others) / len(others)


def play_out(
    deal: DoppelkopfDeal, bots: dict[int, HeuristicDoppelkopfBot], *, until: int = 0
) -> None:
    """Play ``deal`` on, each seat by its bot in ``bots``: to its end, or with ``until``
    > 0 until a trick starts with at most ``until`` cards in each hand."""
    moves = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        if until > 0 and deal.phase == "play" and len(deal.hand(seat)) <= until:
            return
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
        moves += 1
        if moves > 400:  # pragma: no cover - a deal always ends
            raise ValueError("a playout did not end")


# -- declarations ------------------------------------------------------------------


def declaration_candidates(
    obs: DoppelkopfObservation, heuristic: Action, *, screen: float = 0.4
) -> list[Call]:
    """The choices worth estimating at a declaration (pass first where it is legal)."""
    legal = [a for a in obs.legal_actions if isinstance(a, Call)]
    words = {a.word for a in legal}
    out: list[Call] = [_PASS] if _PASS in legal else []
    size = obs.options.hand_size
    soli = [a for a in legal if a.word == "solo" and a.detail != "null" and not a.ouvert]
    if "vorbehalt" in words:
        # The solos a reservation may name later.
        soli = [Call("solo", kind) for kind in obs.options.soli if kind != "null"]
    picked: list[Call] = []
    if soli:
        rated = sorted(soli, key=lambda a: -solo_strength(obs.hand, a.detail, obs))
        for a in rated[:2]:
            strength = solo_strength(obs.hand, a.detail, obs)
            if strength >= screen * size:
                picked.append(a)
        if picked:
            ouvert = Call("solo", picked[0].detail, ouvert=True)
            may = ouvert in legal or ("vorbehalt" in words and obs.options.ouvert)
            if may and solo_strength(obs.hand, picked[0].detail, obs) >= size - 3:
                picked.append(ouvert)
    if isinstance(heuristic, Call) and heuristic.word == "solo" and heuristic not in picked:
        picked.append(heuristic)
    if "vorbehalt" in words:
        # A reservation is worth its best declaration: estimate those.
        out.extend(picked)
        if obs.hand.count(_QC) == 2:
            out.append(Call("hochzeit"))
        return out
    out.extend(picked)
    for a in legal:
        if a.word == "scharfe":
            out.append(a)
    if "hochzeit" in words:
        if isinstance(heuristic, Call) and heuristic.word == "hochzeit":
            out.append(heuristic)
        else:
            out.append(next(a for a in legal if a.word == "hochzeit"))
    if "armut" in words:
        out.append(Call("armut"))
    return out


def bot_candidates(
    obs: DoppelkopfObservation, heuristic: Action, *, screen: float = 0.4
) -> list[Call]:
    """:func:`declaration_candidates`, where a reservation is to be named (or a solo the
    seat must play) only those legal now and the heuristic bot's pick."""
    candidates = declaration_candidates(obs, heuristic, screen=screen)
    legal = obs.legal_actions
    if _PASS not in legal and Call("vorbehalt") not in legal:
        candidates = [c for c in candidates if c in legal]
        if isinstance(heuristic, Call) and heuristic not in candidates:
            candidates.append(heuristic)
    return candidates


def _declare_hands(obs: DoppelkopfObservation, rng: random.Random) -> list[list[Card]]:
    """The seat's hand and the unseen cards dealt at random to the other seats (a
    poor player gets as many trumps as he offered)."""
    pool = Counter(obs.options.deck())
    pool.subtract(obs.hand)
    unseen = sorted(pool.elements())
    rng.shuffle(unseen)
    hands: list[list[Card]] = [[] for _ in range(obs.players)]
    hands[obs.seat] = list(obs.hand)
    poor = obs.armut
    if obs.phase == "armut_return" and poor is not None and poor != obs.seat:
        # The partner, to return cards: those given came from the poor player, who holds
        # no trump now; the rest of his hand is plain cards unseen.
        given = list(obs.armut_cards)
        mine = list(obs.hand)
        for card in given:
            mine.remove(card)
        hands[obs.seat] = mine
        normal = set(_normal_trumps(obs))
        plain = [c for c in unseen if c not in normal][: obs.hand_sizes[poor]]
        for card in plain:
            unseen.remove(card)
        hands[poor] = given + plain
    elif poor is not None and poor != obs.seat:
        normal = set(_normal_trumps(obs))
        trumps = [c for c in unseen if c in normal][: obs.armut_trumps]
        plain = [c for c in unseen if c not in normal]
        for card in trumps:
            unseen.remove(card)
        take = plain[: obs.hand_sizes[poor] - len(trumps)]
        for card in take:
            unseen.remove(card)
        hands[poor] = trumps + take
    # What a declaration shows: both Q♣ (a Hochzeit), both ♥A or ♥K (a Scharfe).
    for s, text in obs.declarations:
        words = text.split()
        shown = [_QC] if words[0] == "hochzeit" else []
        if words[0] == "scharfe":
            shown = [_SCHARFE[part] for part in words[1:] if part in _SCHARFE]
        if s == obs.seat:
            continue
        for card in shown:
            if unseen.count(card) >= 2 and hands[s].count(card) < 2:
                unseen.remove(card)
                unseen.remove(card)
                hands[s] += [card, card]
    for s in obs.playing:
        if s == obs.seat:
            continue
        need = obs.hand_sizes[s] - len(hands[s])
        if need > 0:  # (a poor player who gave his cards already holds his whole hand)
            hands[s].extend(unseen[:need])
            del unseen[:need]
    return hands


def _normal_order(obs: DoppelkopfObservation) -> TrickOrder:
    """The trick order of a normal game (an Armut's) under the table's options."""
    o = obs.options
    return trick_order(
        "normal", style=o.solo_style, nines=o.nines, dullen=o.dullen, dulle_order=o.dulle_order
    )


def _normal_trumps(obs: DoppelkopfObservation) -> list[Card]:
    order = _normal_order(obs)
    return [c for c in dict.fromkeys(obs.options.deck()) if order.is_trump(c)]


def _declared_deal(obs: DoppelkopfObservation, hands: Sequence[Sequence[Card]]) -> DoppelkopfDeal:
    """A deal of ``hands`` with the declarations so far replayed (ValueError if they
    cannot be)."""
    deal = DoppelkopfDeal(
        hands,
        dealer=obs.dealer,
        options=obs.options,
        bock_multiplier=obs.bock_multiplier,
        vorfuehrung=obs.vorfuehrung,
    )
    for seat, text in obs.declarations:
        deal.apply(parse_action(text), seat)
    # An Armut: the seats asked before the one who takes it refused (the observation
    # names the seat asked now, or the partner), and the poor player gave his cards.
    while deal.phase == "armut_answer" and deal.to_move is not None:
        if obs.phase == "armut_answer" and deal.to_move == obs.seat:
            break
        answer = "accept" if deal.to_move == obs.armut_partner else "refuse"
        deal.apply(Call(answer), deal.to_move)
    if obs.phase == "armut_return" and deal.phase == "armut_give" and obs.armut is not None:
        deal.apply(Call("give", cards=obs.armut_cards), obs.armut)
    if deal.to_move != obs.seat or deal.phase != obs.phase:
        raise ValueError("the replayed declarations do not reach this seat")
    return deal


def _estimate(
    obs: DoppelkopfObservation,
    rng: random.Random,
    scripts: dict[str, tuple[Call, ...]],
    samples: int,
) -> Estimates:
    """Each choice's mean utility over the same ``samples`` drawn deals (common random
    numbers), by its key: the choice is the calls the seat makes, as
    :class:`_Scripted` makes them."""
    totals = dict.fromkeys(scripts, 0.0)
    count = 0
    tries = 0
    while count < samples and tries < samples * 8:
        tries += 1
        hands = _declare_hands(obs, rng)
        try:
            _declared_deal(obs, hands)
        except (ValueError, AssertionError):
            continue
        seed = rng.getrandbits(32)
        for key, targets in scripts.items():
            deal = _declared_deal(obs, hands)
            bots: dict[int, HeuristicDoppelkopfBot] = {
                s: HeuristicDoppelkopfBot(seed + s) for s in obs.playing
            }
            bots[obs.seat] = _Scripted(*targets)
            play_out(deal, bots)
            totals[key] += relative(deal.points(), obs.seat, obs.playing)
        count += 1
    if count == 0:
        return Estimates()
    return Estimates({key: total / count for key, total in totals.items()}, count)


def estimate_calls(
    obs: DoppelkopfObservation, rng: random.Random, candidates: Sequence[Call], *, samples: int
) -> Estimates:
    """Each candidate's mean utility at a declaration or an Armut answer, over the same
    ``samples`` drawn deals (common random numbers). A candidate that is not legal now
    (a reservation's declaration after a Vorbehalt) is played as the Vorbehalt and then
    that declaration."""
    return _estimate(obs, rng, {str(c): (c,) for c in candidates}, samples)


def _best_of(candidates: Sequence[_C], means: Estimates, preferred: object = None) -> _C:
    """The candidate with the best estimate (each keyed by its notation), on a tie
    ``preferred`` if it is one of the best, else the one listed first."""
    best = max(means.values())
    tied = [c for c in candidates if means[str(c)] >= best - 1e-9]
    return next((c for c in tied if c == preferred), tied[0])


def _best_estimated(
    obs: DoppelkopfObservation,
    rng: random.Random,
    candidates: list[Call],
    heuristic: Action,
    samples: int,
) -> tuple[Action, Estimates]:
    """The candidate with the best estimate (ties: the heuristic bot's choice), and the
    estimates; the heuristic's choice where there is nothing to estimate."""
    if len(candidates) <= 1:
        return heuristic, Estimates()
    means = estimate_calls(obs, rng, candidates, samples=samples)
    if not means.deals:
        return heuristic, means
    return _best_of(candidates, means, heuristic), means


def choose_armut_answer(
    obs: DoppelkopfObservation, rng: random.Random, heuristic: Action, *, samples: int
) -> tuple[Action, Estimates]:
    """Take an Armut or not, whichever is estimated to score more (ties: the heuristic)."""
    candidates = [a for a in obs.legal_actions if isinstance(a, Call)]
    return _best_estimated(obs, rng, candidates, heuristic, samples)


def choose_declaration(
    obs: DoppelkopfObservation,
    rng: random.Random,
    heuristic: Action,
    *,
    samples: int,
    screen: float = 0.4,
) -> tuple[Action, Estimates]:
    """The declaration with the best estimated utility, and every candidate's estimate.

    ``heuristic`` is the heuristic bot's choice: kept where there is nothing to
    estimate (one candidate, a redeal) and preferred on a tie.
    """
    legal = obs.legal_actions
    if Call("redeal") in legal:
        return heuristic, Estimates()
    candidates = bot_candidates(obs, heuristic, screen=screen)
    if len(candidates) <= 1:
        return (candidates[0] if candidates else heuristic), Estimates()
    means = estimate_calls(obs, rng, candidates, samples=samples)
    if not means.deals:
        return heuristic, means
    choice = _best_of(candidates, means, heuristic)
    if choice not in legal:  # a reservation's declaration: reserve first
        choice = Call("vorbehalt")
    return choice, means


# -- the one declaration question -----------------------------------------------------


def answer_candidates(
    obs: DoppelkopfObservation, question: Question, *, screen: float = 0.4
) -> list[Answer]:
    """The answers to a person's declaration question worth estimating (Gesund first
    where it is allowed).

    The reservations the question offers, for every round still to come: the
    solos screened as at a declaration (the two kinds with the most tricks by
    the heuristic's count if at least ``screen`` of the hand, the ouvert of the
    best where it is strong enough; the strongest one where the seat must name
    something), each Hochzeit, an Armut, a redeal; then each Scharfe offered,
    alone and with each of those reservations.
    """
    size = obs.options.hand_size
    offered = question.reservations
    plain_soli = [c for c in offered if c.word == "solo" and not c.ouvert and c.detail != "null"]
    strength = {c: solo_strength(obs.hand, c.detail, obs) for c in plain_soli}
    rated = sorted(plain_soli, key=lambda c: -strength[c])
    soli = [c for c in rated[:2] if strength[c] >= screen * size]
    if soli:
        ouvert = Call("solo", soli[0].detail, ouvert=True)
        if ouvert in offered and strength[soli[0]] >= size - 3:
            soli.append(ouvert)
    others = [c for c in offered if c.word in ("hochzeit", "armut", "redeal")]
    if not question.gesund and not soli and not others and offered:
        soli = rated[:1] or [offered[0]]  # something must be named: the likeliest
    reservations = [c for c in offered if c in soli or c in others]
    out = [Answer()] if question.gesund else []
    out += [Answer(reservation=c) for c in reservations]
    for scharfe in question.scharfe:
        out.append(Answer(scharfe=scharfe))
        out += [Answer(scharfe, c) for c in reservations if c != Call("redeal")]
    return out


def _answer_calls(answer: Answer) -> tuple[Call, ...]:
    return tuple(c for c in (answer.scharfe, answer.reservation) if c is not None) or (_PASS,)


def estimate_answers(
    obs: DoppelkopfObservation, rng: random.Random, answers: Sequence[Answer], *, samples: int
) -> Estimates:
    """Each answer's mean utility over the same ``samples`` drawn deals, keyed by the
    answer's notation (``gesund``, ``vorbehalt solo queens``): the seat makes, in
    each declaration round, the part of the answer that round takes (as the table
    does for a person), and the heuristic bot plays on."""
    return _estimate(obs, rng, {str(a): _answer_calls(a) for a in answers}, samples)


def choose_answer(
    obs: DoppelkopfObservation,
    rng: random.Random,
    question: Question,
    *,
    samples: int,
    screen: float = 0.4,
) -> tuple[Answer, Estimates]:
    """The answer to the declaration question with the best estimated utility (ties:
    the one listed first, Gesund before a reservation), and the estimates.

    A person at a table answers once for every declaration round of the deal;
    the bot, which the engine asks round by round, decides each round by
    :func:`choose_declaration`. This is the same estimate made for the whole
    question at once, which is what a hint for the question has to weigh.
    """
    candidates = answer_candidates(obs, question, screen=screen)
    if len(candidates) <= 1:
        return (candidates[0] if candidates else Answer()), Estimates()
    means = estimate_answers(obs, rng, candidates, samples=samples)
    if not means.deals:
        return candidates[0], means
    return _best_of(candidates, means), means


def exchange_candidates(obs: DoppelkopfObservation) -> list[Call]:
    """The Armut exchanges worth estimating: the poor player gives every trump and
    fills up with his cheapest, his dearest or the cards of his shortest suits; the
    partner returns his cheapest or dearest plain cards, the cards of his shortest
    suits (to ruff them later), or, where the rules let trumps go back, his lowest
    trumps. Every set is valid under the table's rules (the engine's offers first)."""
    legal = [a for a in obs.legal_actions if isinstance(a, Call)]
    if not legal or obs.phase not in ("armut_give", "armut_return"):
        return []
    word = "give" if obs.phase == "armut_give" else "return"
    size = len(legal[0].cards)
    order = _normal_order(obs)
    trumps = sorted((c for c in obs.hand if order.is_trump(c)), key=lambda c: order.power[c])
    plain = sorted((c for c in obs.hand if not order.is_trump(c)), key=lambda c: (AUGEN[c], c))
    by_suit: dict[int, list[Card]] = {}
    for card in plain:
        by_suit.setdefault(card.suit, []).append(card)
    shortest = [c for cards in sorted(by_suit.values(), key=len) for c in cards]
    sets: list[list[Card]] = []
    if word == "give":
        need = size - len(trumps)
        if need >= 0:
            dearest = plain[len(plain) - need :] if need else []
            sets += [trumps + plain[:need], trumps + dearest, trumps + shortest[:need]]
    else:
        sets += [plain[:size], plain[-size:], shortest[:size]]
        if obs.options.armut_return != "plain_first":
            sets.append((trumps + plain)[:size])  # the lowest trumps first
    out: list[Call] = list(legal)
    for cards in sets:
        if len(cards) != size:
            continue
        call = Call(word, cards=tuple(sorted(cards)))
        if call not in out:
            out.append(call)
    return out


def _valid(obs: DoppelkopfObservation, rng: random.Random, calls: list[Call]) -> list[Call]:
    """The calls the engine accepts from the seat now, judged on a deal rebuilt for it
    (the seat's own hand and the table's rules decide; the other hands do not)."""
    for _ in range(8):
        try:
            deal = _declared_deal(obs, _declare_hands(obs, rng))
        except (ValueError, AssertionError):
            continue
        valid: list[Call] = []
        for call in calls:
            try:
                deal.check(call, obs.seat)
            except ValueError:
                continue
            valid.append(call)
        return valid
    return [c for c in calls if c in obs.legal_actions]


def choose_exchange(
    obs: DoppelkopfObservation, rng: random.Random, heuristic: Action, *, samples: int
) -> tuple[Action, Estimates]:
    """The Armut's cards to give or to return, whichever set is estimated to score
    most (ties: the heuristic bot's)."""
    candidates = _valid(obs, rng, exchange_candidates(obs))
    return _best_estimated(obs, rng, candidates, heuristic, samples)


# -- announcements -------------------------------------------------------------------


def played_deal(obs: DoppelkopfObservation, hands: dict[int, list[Card]]) -> DoppelkopfDeal:
    """The deal of a sample (the other seats' ``hands`` now) with everything so far
    replayed: declarations, announcements (at the start) and cards."""
    played: dict[int, list[Card]] = {s: [] for s in obs.playing}
    for trick in (*obs.tricks, obs.trick):
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            played[seat].append(card)
    full: list[list[Card]] = [[] for _ in range(obs.players)]
    for s in obs.playing:
        now = list(obs.hand) if s == obs.seat else list(hands.get(s, ()))
        full[s] = now + played[s]
    deal = DoppelkopfDeal(
        full,
        dealer=obs.dealer,
        options=obs.options,
        bock_multiplier=obs.bock_multiplier,
        vorfuehrung=obs.vorfuehrung,
    )
    for seat, text in obs.declarations:
        deal.apply(parse_action(text), seat)
    for a in obs.announcements:
        deal.apply(Call(a.word), a.seat)
    for trick in (*obs.tricks, obs.trick):
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            deal.apply(card, seat)
    if deal.to_move != obs.seat:
        raise ValueError("the replayed deal does not reach this seat")
    return deal


def _with_word(facts: GameFacts, obs: DoppelkopfObservation, word: str) -> GameFacts:
    party = "re" if obs.seat in facts.re_party else "kontra"
    said = Announcement(obs.seat, party, word)  # type: ignore[arg-type]
    if not counted_announcement(said, facts.solo, obs.options):
        return facts
    return replace(facts, announcements=(*facts.announcements, said))


def estimate_announcements(
    obs: DoppelkopfObservation, rng: random.Random, *, samples: int
) -> Estimates:
    """Each legal word's estimated utility if the seat says it now, and ``""``'s: saying
    nothing. Empty for a game the sampler cannot rebuild (an Armut, whose cards changed
    hands, or an open Hochzeit) or with no word to say."""
    words = [a for a in obs.legal_actions if isinstance(a, Call) and a.is_announcement]
    if not words or obs.party is None or obs.armut is not None:
        return Estimates()
    info = DoppelkopfInfoSet(obs)
    if info.order is None or not info.ready:
        return Estimates()
    base = 0.0
    totals = [0.0] * len(words)
    count = 0
    tries = 0
    while count < samples and tries < samples * 3:
        tries += 1
        try:
            hands = info.sample_hands(rng)
            deal = played_deal(obs, hands)
        except (ValueError, AssertionError):
            continue
        seed = rng.getrandbits(32)
        bots: dict[int, HeuristicDoppelkopfBot] = {
            s: HeuristicDoppelkopfBot(seed + s) for s in obs.playing
        }
        bots[obs.seat] = QuietHeuristicBot(seed)
        play_out(deal, bots)
        if deal.score is None or deal.re_party is None:
            continue
        facts = deal.facts()
        base += relative(score_game(facts, complete=True).points, obs.seat, obs.playing)
        for i, w in enumerate(words):
            scored = score_game(_with_word(facts, obs, w.word), complete=True)
            totals[i] += relative(scored.points, obs.seat, obs.playing)
        count += 1
    if count == 0:
        return Estimates()
    means = {"": base / count} | {w.word: t / count for w, t in zip(words, totals, strict=True)}
    return Estimates(means, count)


def choose_announcement(
    obs: DoppelkopfObservation, rng: random.Random, *, samples: int, margin: float = 0.0
) -> tuple[Call | None, Estimates]:
    """The announcement to say now (None: none), and each word's estimated utility
    (:func:`estimate_announcements`; empty where the caller must decide)."""
    means = estimate_announcements(obs, rng, samples=samples)
    if not means.deals:
        return None, means
    words = [a for a in obs.legal_actions if isinstance(a, Call) and a.is_announcement]
    best = max(words, key=lambda w: means[w.word])
    if means[best.word] > means[""] + margin:
        return best, means
    return None, means
