"""The strong Doppelkopf bot's view of one turn: the hint, and a decision's estimate.

:func:`bot_view` says what :class:`~kartentisch.bots.doppelkopf_strong.StrongDoppelkopfBot`
would do at a seat's turn and why: the card with each searched card's value
(as the bot searches it, :meth:`StrongDoppelkopfBot.search_kind
<kartentisch.bots.doppelkopf_strong.StrongDoppelkopfBot.search_kind>`), or
the declaration, Armut answer or announcement with the estimates behind it.
The hint button at a table and in the terminal shows it; the deal analysis
(:mod:`kartentisch.analysis.doppelkopf`) values each decision with it.
:func:`estimate_and_next` and :func:`answer_and_next` read the estimates for
a one-line reason: the choice's estimate and the next best.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from kartentisch.bots.doppelkopf_bidding import Estimates
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.cards import Card
from kartentisch.games.doppelkopf.actions import Action, Call, parse_action
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.question import Answer
from kartentisch.search.doppelkopf_determinize import DoppelkopfInfoSet

__all__ = [
    "BotView",
    "answer_and_next",
    "bot_view",
    "estimate_and_next",
    "ranked_estimates",
]


@dataclass(frozen=True, slots=True)
class BotView:
    """What the strong bot makes of a seat's turn.

    ``choice`` is what it would do now (an announcement before its card, if
    it would make one; ``announce`` then names it); ``card`` the card it
    would play (None outside the play); ``method``: ``forced`` (one card),
    ``pimc`` (samples solved to the end), ``pimc-estimate`` (samples searched
    ``bot.horizon`` tricks deep, then a greedy playout), ``early`` (the bot's
    search of the early tricks chose a card other than the rule's),
    ``early-kept`` (that search found no card clearly better than the rule's)
    or ``heuristic`` (not searched: the heuristic bot's rules); ``expected``:
    mean points per card for the seat's party when searched (``early``: the
    seat's points minus the mean of the others'). ``estimates``: the estimates behind a
    declaration, an Armut answer or the announcement decided before the card
    (``sampled``; :class:`~kartentisch.bots.doppelkopf_bidding.Estimates`).
    """

    choice: Action
    card: Card | None
    method: str
    expected: dict[Card, float]
    samples: int
    announce: Call | None = None
    estimates: Estimates = dataclasses.field(default_factory=Estimates)


def bot_view(obs: DoppelkopfObservation, bot: StrongDoppelkopfBot) -> BotView:
    """The strong bot's choice for ``obs`` and, for a card, its search's values.

    The card is searched as :meth:`StrongDoppelkopfBot.choose` searches it
    (:meth:`StrongDoppelkopfBot.search_kind`): the exact search in the last
    ``bot.exact_tricks`` tricks; before them the early search or, with
    ``bot.horizon`` > 0 (the deal analysis's bot), the depth-limited one.
    """
    if obs.phase != "play":
        # Declarations and the Armut: the strong bot's own choice, by its estimates.
        decided = bot.choose(obs)
        said = bot.last_estimates
        method = "sampled" if said.deals else "heuristic"
        return BotView(decided, None, method, {}, said.deals, None, said)
    preferred = bot.fallback.choose(obs)
    if obs.to_move != obs.seat:
        return BotView(preferred, None, "heuristic", {}, 0)
    announce = preferred if isinstance(preferred, Call) and preferred.is_announcement else None
    said = Estimates()
    if bot.bidding and any(isinstance(a, Call) and a.is_announcement for a in obs.legal_actions):
        # The word the strong bot would say before its card (its fallback never speaks).
        word = bot.bid(obs, preferred)
        said = bot.last_estimates
        announce = word if isinstance(word, Call) and word.is_announcement else None
    legal = tuple(a for a in obs.legal_actions if isinstance(a, Card))
    rule_card = preferred
    if not isinstance(rule_card, Card):  # the card the bot would play after its announcement
        rule_card = bot.fallback.choose(dataclasses.replace(obs, legal_actions=legal))
    assert isinstance(rule_card, Card)
    info = DoppelkopfInfoSet(obs)
    cards = bot.search_cards(obs, info)
    choice: Action = announce or rule_card
    if len(cards) == 1:
        return BotView(announce or cards[0], cards[0], "forced", {}, 0, announce, said)
    kind = bot.search_kind(obs, info)
    if kind is None:
        return BotView(choice, rule_card, "heuristic", {}, 0, announce, said)
    if kind == "early":
        # The bot's own search of the early tricks, as it plays them: the card that
        # scores best where it is clearly better than the rule's card.
        card, means = bot.early_card(obs, rule_card, cards, info)
        if not means:
            return BotView(choice, rule_card, "heuristic", {}, 0, announce, said)
        if card == rule_card:
            return BotView(choice, rule_card, "early-kept", {}, bot.last_samples, announce, said)
        assert isinstance(card, Card)
        return BotView(announce or card, card, "early", means, bot.last_samples, announce, said)
    try:
        expected = bot.evaluate(obs, cards, info)
    except (AssertionError, ValueError):  # an observation the sampler cannot fit
        return BotView(choice, rule_card, "heuristic", {}, 0, announce, said)
    top = max(expected.values())
    tied = [c for c in cards if expected[c] >= top - 1e-9]
    card = rule_card if rule_card in tied else tied[0]
    method = "pimc" if kind == "exact" else "pimc-estimate"
    return BotView(announce or card, card, method, expected, bot.last_samples, announce, said)


def ranked_estimates(estimates: Estimates) -> list[tuple[Action | None, float]]:
    """The estimated choices, best first: each as its action (None: saying nothing)."""
    out: list[tuple[Action | None, float]] = []
    for key, value in estimates.items():
        action = parse_action(key) if key else None
        out.append((action, value))
    return sorted(out, key=lambda item: -item[1])


def estimate_and_next(
    estimates: Estimates, said: Action
) -> tuple[float, Action | None, float] | None:
    """The estimate of ``said`` (a Vorbehalt: of the reservation it names), and the
    next best choice with its estimate (None: saying nothing); None where ``said``
    was not estimated against another choice."""
    ranked = ranked_estimates(estimates)
    if len(ranked) < 2:
        return None
    shown: Action | None = said
    if isinstance(said, Call) and said.word == "vorbehalt":
        shown = next(a for a, _ in ranked if a != Call("pass"))  # the reservation
    value = next((v for a, v in ranked if a == shown), None)
    if value is None:
        return None
    other, other_value = next((a, v) for a, v in ranked if a != shown)
    return value, other, other_value


def answer_and_next(estimates: Estimates, answer: Answer) -> tuple[float, Answer, float] | None:
    """The estimate of ``answer`` to the declaration question and the next best answer
    with its estimate (:meth:`StrongDoppelkopfBot.answer`); None where ``answer`` was
    not estimated against another. A Hochzeit under another partner rule is not the
    next best: the next best is something else to say."""

    def kind(answer: Answer) -> tuple[Call | None, Call | str | None]:
        made = answer.reservation
        return answer.scharfe, (made.word if made is not None and made.word == "hochzeit" else made)

    value = estimates.get(str(answer))
    if value is None:
        return None
    ranked = sorted(estimates.items(), key=lambda item: -item[1])
    for key, other_value in ranked:
        other = Answer.parse(key)
        if other is not None and kind(other) != kind(answer):
            return value, other, other_value
    return None
