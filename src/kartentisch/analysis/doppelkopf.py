"""Doppelkopf analysis: what each decision cost, with full and with the seat's information.

**Cards.** For every card a seat played with a choice:

* with **full information** (every hand and both parties known) the two-party
  solver (:mod:`kartentisch.search.doppelkopf_solver`) values each card the
  seat could follow with: the Augen its party ends the deal with after best
  play on both sides (tricks in an ouvert solo), and the points those are
  worth. With at most :data:`FULL_EXACT_TRICKS` tricks left (the card's own
  trick included) the values are **exact**; earlier a whole-deal solve costs
  seconds to minutes, so the search looks :data:`HORIZON` tricks ahead and a
  greedy playout values the rest: an **estimate**, marked as such;
* with **the seat's information** the strong bot's Perfect-Information Monte
  Carlo (:meth:`StrongDoppelkopfBot.evaluate
  <kartentisch.bots.doppelkopf_strong.StrongDoppelkopfBot.evaluate>`): deals
  consistent with what the seat had seen, each solved, give each card's
  expected points. With at most :data:`PIMC_EXACT_TRICKS` tricks left each
  sample is solved to the end (``pimc``); earlier with the same horizon
  search (``pimc-estimate``).

The cost of the card played is the best card's value minus its own: points,
and for full information Augen too.

**Points** are the strong bot's utility
(:func:`~kartentisch.bots.doppelkopf_strong.utility_steps`), for the seat's
party: each final total of Augen scored as the table scores it — the house or
DDV points with what the announcements made so far do to them, the counting,
the Bock multiplier and the extra points of the tricks already played (not
those of the tricks still to come: the solved Augen do not say who catches a
Fuchs) — as what a player of the party scores minus what a player of the other
party scores (house rules: Re winning 10 is +10, Kontra winning 20 is −20); in
an ouvert solo: whether the opponents take a trick. Points never fall as a
party's Augen rise, so with all hands known they follow exactly from the
solved Augen.

**Declarations, the Armut answer and announcements** have no exact value
(no solver decides them); they are valued as the strong bot decides them
(:mod:`kartentisch.bots.doppelkopf_bidding`): each choice's expected points
over deals drawn consistent with the seat's information, played out by the
heuristic bot and scored as the table scores (``sampled``). The choice made
is estimated too where the bot would not have considered it, so its cost is
the best choice's estimate minus its own. A declaration whose only candidate
worth estimating is the one made costs nothing (``screened``); one with a
single legal choice is forced. Where the sampled deals cannot rebuild the
game (an Armut, whose cards changed hands; a five-kings throw-in) the bot's
rule is given, not valued.

**Not solved** with every hand known: those decisions, the cards passed in
an Armut, the cards of a Nullsolo and of a Hochzeit still looking for its
partner, which the two-party solver does not model, and a revoke (table
mode). An announcement made out of turn is listed without the bot's view:
bots speak only at their turn.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kartentisch.analysis.base import check_deal, check_seat, seat_names
from kartentisch.analysis.doppelkopf_turn import BotView, bot_view
from kartentisch.analysis.texts import note, t
from kartentisch.bots.doppelkopf_bidding import (
    bot_candidates,
    estimate_calls,
    exchange_candidates,
)
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot, utility_steps
from kartentisch.cards import Card
from kartentisch.games.doppelkopf.actions import Action, Call
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.text import call_text
from kartentisch.i18n import card_text
from kartentisch.search.doppelkopf_solver import Position, card_points, solve_moves

__all__ = [
    "DEFAULT_SAMPLES",
    "FULL_EXACT_TRICKS",
    "HORIZON",
    "PIMC_EXACT_TRICKS",
    "DoppelkopfAnalysis",
    "DoppelkopfDecision",
    "FullInformation",
    "SeatInformation",
    "analyse_record",
    "analyze_doppelkopf",
]

#: Deals sampled per card for the seat's information.
DEFAULT_SAMPLES = 20
#: With at most this many tricks left, the full-information values are exact.
FULL_EXACT_TRICKS: Final = 7
#: With at most this many tricks left, each PIMC sample is solved to the end
#: (the strong bot's own setting).
PIMC_EXACT_TRICKS: Final = 6
#: Earlier, the search looks this many tricks ahead and a greedy playout values the rest.
HORIZON: Final = 3


# -- the analysed decisions ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FullInformation:
    """A card decision solved with every hand known.

    ``final``: what the seat's party ends the deal with after each card
    (``unit``: ``augen``, or ``tricks`` in an ouvert solo); ``points``: what
    that is worth to the party; ``method``: ``exact`` or ``estimate``
    (``horizon`` tricks searched, then a greedy playout).
    """

    method: str
    unit: str
    final: dict[Card, int]
    points: dict[Card, float]
    best: Card
    cost: float
    final_cost: int
    horizon: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method}
        if self.horizon is not None:
            out["horizon"] = self.horizon
        out.update(
            {
                "best": str(self.best),
                "cost": self.cost,
                "points": {str(c): v for c, v in self.points.items()},
                "unit": self.unit,
                "final_cost": self.final_cost,
                "final": {str(c): v for c, v in self.final.items()},
            }
        )
        return out


@dataclass(frozen=True, slots=True)
class SeatInformation:
    """A decision seen with the seat's information: the strong bot's view.

    ``best`` is the bot's choice (None: it would make no announcement now);
    ``cost`` the expected points the action taken lost against it (None
    where not valued); ``expected`` each card's or choice's expected points
    (``samples`` deals); ``silent``: for an announcement, saying nothing.
    """

    method: str
    best: Action | None
    expected: dict[Action, float]
    samples: int
    cost: float | None
    announce: Call | None = None
    horizon: int | None = None
    silent: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method}
        if self.horizon is not None:
            out["horizon"] = self.horizon
        out["best"] = None if self.best is None else str(self.best)
        out["cost"] = None if self.cost is None else round(self.cost, 4)
        if self.expected:
            out["samples"] = self.samples
            out["expected"] = {str(c): round(v, 4) for c, v in self.expected.items()}
        if self.silent is not None:
            out["silent"] = round(self.silent, 4)
        if self.announce is not None:
            out["announce_first"] = str(self.announce)
        return out


@dataclass(frozen=True, slots=True)
class DoppelkopfDecision:
    """One analysed decision of a seat.

    ``kind``: ``card``, ``declaration``, ``armut`` or ``announcement``;
    ``trick``: the trick being played (0 before the play); ``full`` is None
    where the decision is not solved (``note`` says why); ``seen`` is None
    for a forced card and an announcement made out of turn.
    """

    deal: int
    trick: int
    seat: int
    kind: str
    played: Action
    forced: bool
    full: FullInformation | None
    seen: SeatInformation | None
    note: str = ""

    @property
    def solved(self) -> bool:
        return self.full is not None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "deal": self.deal,
            "trick": self.trick,
            "seat": self.seat,
            "kind": self.kind,
            "played": str(self.played),
            "forced": self.forced,
            "solved": self.solved,
            "full_information": None if self.full is None else self.full.to_dict(),
            "seat_information": None if self.seen is None else self.seen.to_dict(),
        }
        if self.note:
            out["note"] = self.note
        return out


def _full_information(deal: DoppelkopfDeal, seat: int, played: Card) -> FullInformation | str:
    """The solved values of the seat's cards, or why there are none."""
    try:
        position = Position.of(deal)
    except ValueError as exc:
        return str(exc)
    exact = len(deal.hand(seat)) <= FULL_EXACT_TRICKS
    horizon = None if exact else HORIZON
    values = solve_moves(position, horizon=horizon)
    if played not in values:
        return "a revoke is not valued"
    if position.model == "tricks":
        whole = deal.options.hand_size
    else:
        whole = sum(card_points(c) for c in deal.options.deck())
    mine = seat in position.party
    # The points: the strong bot's utility of the scoring party's total, from the
    # view of a seat that knows the game (a silent soloist knows his solo).
    knows = deal.soloist if deal.solo and deal.soloist is not None else seat
    re = deal.re_party if position.model == "augen" else None
    thresholds, utilities, _ = utility_steps(deal.observation(knows), position.model, re)
    sign = 1.0 if mine else -1.0
    final: dict[Card, int] = {}
    points: dict[Card, float] = {}
    for card, value in values.items():
        total = position.taken + value
        final[card] = total if mine else whole - total
        points[card] = sign * utilities[bisect.bisect_right(thresholds, total)]
    top = max(final.values())
    best = played if final[played] == top else next(c for c in values if final[c] == top)
    return FullInformation(
        method="exact" if exact else "estimate",
        unit=position.model,
        final=final,
        points=points,
        best=best,
        cost=points[best] - points[played],
        final_cost=top - final[played],
        horizon=horizon,
    )


def _seat_information(view: BotView, played: Card) -> SeatInformation:
    cost: float | None = None
    if view.expected and played in view.expected:
        cost = max(view.expected.values()) - view.expected[played]
    assert view.card is not None
    return SeatInformation(
        method=view.method,
        best=view.card,
        expected={c: v for c, v in view.expected.items()},
        samples=view.samples,
        cost=cost,
        announce=view.announce,
        horizon=HORIZON if view.method == "pimc-estimate" else None,
    )


def _decision(
    replay: DoppelkopfDeal,
    number: int,
    seat: int,
    action: Action,
    bot: StrongDoppelkopfBot,
) -> DoppelkopfDecision | None:
    phase = replay.phase
    trick = replay.trick_number if phase == "play" else 0
    obs = replay.observation(seat)
    if isinstance(action, Call):
        if action.word == "take_back":
            return None
        if action.is_announcement:
            if replay.to_move != seat:
                note = "made out of turn: not solved, and the bot speaks only at its turn"
                return DoppelkopfDecision(
                    number, trick, seat, "announcement", action, False, None, None, note
                )
            seen, note = _announcement_information(obs, action, bot)
            return DoppelkopfDecision(
                number, trick, seat, "announcement", action, False, None, seen, note
            )
        kind = "declaration" if phase == "declare" else "armut"
        calls = sum(isinstance(a, Call) for a in obs.legal_actions)
        if calls == 1 and phase in ("declare", "armut_answer"):  # any set may be exchanged
            return DoppelkopfDecision(number, trick, seat, kind, action, True, None, None)
        seen, note = _call_information(obs, action, bot)
        return DoppelkopfDecision(number, trick, seat, kind, action, False, None, seen, note)
    following = replay.following_actions()
    if len(following) == 1 and action in following:
        return DoppelkopfDecision(number, trick, seat, "card", action, True, None, None)
    full = _full_information(replay, seat, action)
    view = bot_view(obs, bot)
    seen = _seat_information(view, action)
    if isinstance(full, str):
        return DoppelkopfDecision(number, trick, seat, "card", action, False, None, seen, full)
    return DoppelkopfDecision(number, trick, seat, "card", action, False, full, seen)


_PASS: Final = Call("pass")
_VORBEHALT: Final = Call("vorbehalt")
NOT_REBUILT: Final = "not valued: sampled deals cannot rebuild this game"
THROW_IN: Final = "throwing in is not valued"


def _announcement_information(
    obs: DoppelkopfObservation, said: Call, bot: StrongDoppelkopfBot
) -> tuple[SeatInformation, str]:
    """An announcement made at the seat's turn, against the strong bot's estimates of
    every word and of saying nothing (or its rule where those cannot be drawn)."""
    word = bot.bid(obs, bot.fallback.choose(obs)) if bot.bidding else None
    estimates = bot.last_estimates
    if not estimates.deals or said.word not in estimates:
        rule = word if isinstance(word, Call) and word.is_announcement else None
        return SeatInformation("heuristic", rule, {}, 0, None), NOT_REBUILT
    expected: dict[Action, float] = {Call(w): v for w, v in estimates.items() if w}
    top = max(estimates.values())
    best = word if isinstance(word, Call) and word.is_announcement else None
    if estimates[said.word] >= top - 1e-9:
        best = said
    seen = SeatInformation(
        method="sampled",
        best=best,
        expected=expected,
        samples=estimates.deals,
        cost=top - estimates[said.word],
        silent=estimates[""],
    )
    return seen, ""


def _call_information(
    obs: DoppelkopfObservation, made: Call, bot: StrongDoppelkopfBot
) -> tuple[SeatInformation, str]:
    """A declaration or an Armut answer against the strong bot's estimates of the
    choices it considers and of the one made (a Vorbehalt: its best reservation)."""
    legal = obs.legal_actions
    heuristic = bot.fallback.choose(obs)
    if Call("redeal") in legal:
        return SeatInformation("heuristic", bot.choose(obs), {}, 0, None), THROW_IN
    if obs.phase == "declare":
        candidates = bot_candidates(obs, heuristic)
        if made == _VORBEHALT and not any(c != _PASS for c in candidates):
            # The bot would not reserve: estimate what a reservation could name.
            candidates += [Call("solo", kind) for kind in obs.options.soli if kind != "null"]
        if made != _VORBEHALT and made not in candidates:
            candidates.append(made)
    elif obs.phase in ("armut_give", "armut_return"):
        candidates = exchange_candidates(obs)
        if made not in candidates:
            candidates.append(made)
    else:
        candidates = [a for a in legal if isinstance(a, Call)]
    if len(candidates) <= 1:
        return SeatInformation("screened", made, {}, 0, 0.0), ""
    estimates = estimate_calls(obs, bot.rng, candidates, samples=bot.declare_samples)
    if not estimates.deals:
        return SeatInformation("heuristic", bot.choose(obs), {}, 0, None), NOT_REBUILT
    expected: dict[Action, float] = {c: estimates[str(c)] for c in candidates}
    if made == _VORBEHALT:
        mine = max(v for c, v in expected.items() if c != _PASS)
    else:
        mine = expected[made]
    top = max(expected.values())
    tied = [c for c in candidates if expected[c] >= top - 1e-9]
    best: Call = heuristic if isinstance(heuristic, Call) and heuristic in tied else tied[0]
    if mine >= top - 1e-9:
        best = made
    seen = SeatInformation("sampled", best, expected, estimates.deals, top - mine)
    return seen, ""


def _replay_from_start(deal: DoppelkopfDeal) -> DoppelkopfDeal:
    return DoppelkopfDeal(
        [list(h) for h in deal.initial_hands],
        dealer=deal.dealer,
        options=deal.options,
        seats=deal.seat_names,
        bock_multiplier=deal.bock_multiplier,
        pflicht_due=sorted(deal.pflicht_due),
    )


def _deal_decisions(
    deal: DoppelkopfDeal, number: int, seat: int | None, bot: StrongDoppelkopfBot
) -> Iterator[DoppelkopfDecision]:
    replay = _replay_from_start(deal)
    for action, who in zip(deal.actions, deal.action_seats, strict=True):
        if seat is None or who == seat:
            decision = _decision(replay, number, who, action, bot)
            if decision is not None:
                yield decision
        replay.apply(action, who)


def _numbered(replayed: DoppelkopfDeal | DoppelkopfMatch) -> list[tuple[int, DoppelkopfDeal]]:
    """The deals with their numbers in the session (as ``kartentisch replay`` counts them)."""
    if isinstance(replayed, DoppelkopfDeal):
        return [(1, replayed)]
    return [
        (number, entry)
        for number, entry in enumerate(replayed.history, start=1)
        if isinstance(entry, DoppelkopfDeal)
    ]


def analyze_doppelkopf(
    replayed: DoppelkopfDeal | DoppelkopfMatch,
    *,
    seat: int | None = None,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    deal: int | None = None,
) -> list[DoppelkopfDecision]:
    """Analyse every decision (of ``seat``, or of all seats) in a replayed record (in
    deal number ``deal`` only, if given)."""
    check_seat(seat, replayed.options.players)
    numbered = _numbered(replayed)
    check_deal(deal, [number for number, _ in numbered])
    bot = StrongDoppelkopfBot(
        seed,
        samples=samples,
        min_samples=samples,
        node_budget=1 << 62,
        exact_tricks=PIMC_EXACT_TRICKS,
        horizon=HORIZON,
    )
    out: list[DoppelkopfDecision] = []
    for number, played in numbered:
        if deal is None or number == deal:
            out.extend(_deal_decisions(played, number, seat, bot))
    return out


# -- the report ----------------------------------------------------------------------------


def _action_text(action: Action, lang: str = "en") -> str:
    """A card or a call as ``lang`` writes it (the language's letters and words)."""
    if isinstance(action, Card):
        return card_text(lang, action)
    return call_text(action, lang)


def _tag(lang: str, method: str, samples: int = 0) -> str:
    key = {
        "exact": "tag_exact",
        "estimate": "tag_estimate",
        "pimc": "tag_pimc",
        "pimc-estimate": "tag_pimc_estimate",
        "heuristic": "tag_heuristic",
        "sampled": "tag_sampled",
        "screened": "tag_screened",
    }[method]
    return t(lang, key, horizon=HORIZON, samples=samples)


@dataclass
class _Total:
    points: float = 0.0
    augen: int = 0
    expected: float = 0.0
    exact: int = 0
    estimated: int = 0
    not_solved: int = 0
    forced: int = 0

    def add(self, d: DoppelkopfDecision) -> None:
        if d.forced:
            self.forced += 1
            return
        if d.full is None:
            self.not_solved += 1
        else:
            self.points += d.full.cost
            if d.full.unit == "augen":
                self.augen += d.full.final_cost
            if d.full.method == "exact":
                self.exact += 1
            else:
                self.estimated += 1
        if d.seen is not None and d.seen.cost is not None:
            self.expected += d.seen.cost


@dataclass(frozen=True, slots=True)
class DoppelkopfAnalysis:
    """The decisions of a record, with the seats' names to print them."""

    decisions: list[DoppelkopfDecision]
    names: tuple[str, ...]

    def _totals(self) -> dict[int, _Total]:
        totals: dict[int, _Total] = {}
        for d in self.decisions:
            totals.setdefault(d.seat, _Total()).add(d)
        return dict(sorted(totals.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": [d.to_dict() for d in self.decisions],
            "totals": {
                str(s): {
                    "full_information": tot.points,
                    "full_information_augen": tot.augen,
                    "seat_information": round(tot.expected, 4),
                    "exact": tot.exact,
                    "estimated": tot.estimated,
                    "not_solved": tot.not_solved,
                    "forced": tot.forced,
                }
                for s, tot in self._totals().items()
            },
        }

    def _line(self, d: DoppelkopfDecision, lang: str) -> str:
        who = self.names[d.seat]
        if d.kind != "card":
            if d.kind == "declaration":
                where = t(lang, "where_declarations")
            elif d.kind == "armut":
                where = t(lang, "where_armut")
            else:
                where = t(lang, "where_trick", trick=d.trick)
            head = t(
                lang,
                "said_head",
                deal=d.deal,
                where=where,
                name=who,
                action=_action_text(d.played, lang),
            )
            if d.forced:
                return t(lang, "forced", head=head)
            if d.seen is None:
                return t(lang, "with_note", head=head, note=note(lang, d.note))
            told = d.seen
            if told.method in ("sampled", "screened") and told.cost is not None:
                tag = _tag(lang, told.method, told.samples)
                if told.cost < 0.005:
                    return t(lang, "dk_same_est", head=head, tag=tag)
                if told.best is None:
                    return t(lang, "dk_no_word_est", head=head, cost=f"{told.cost:.2f}", tag=tag)
                return t(
                    lang,
                    "dk_would_say_est",
                    head=head,
                    action=_action_text(told.best, lang),
                    cost=f"{told.cost:.2f}",
                    tag=tag,
                )
            best = d.seen.best
            if best == d.played:
                return t(lang, "dk_same", head=head)
            if best is None:
                return t(lang, "dk_no_word", head=head)
            return t(lang, "dk_would_say", head=head, action=_action_text(best, lang))
        head = t(
            lang,
            "card_head",
            deal=d.deal,
            trick=d.trick,
            name=who,
            card=_action_text(d.played, lang),
        )
        if d.forced:
            return t(lang, "forced", head=head)
        full = d.full
        if full is None:
            first = t(lang, "dk_full_unsolved", note=note(lang, d.note))
        elif full.final_cost == 0:
            first = t(lang, "dk_full_best", tag=_tag(lang, full.method))
        else:
            first = t(
                lang,
                "dk_full_better",
                card=card_text(lang, full.best),
                cost=full.final_cost,
                unit=t(lang, "unit_augen" if full.unit == "augen" else "unit_tricks"),
                points=f"{full.cost:g}",
                tag=_tag(lang, full.method),
            )
        seen = d.seen
        assert seen is not None
        assert seen.best is not None
        tag = _tag(lang, seen.method, seen.samples)
        if seen.cost is None:
            second = t(lang, "dk_would_play", action=_action_text(seen.best, lang), tag=tag)
        elif seen.cost < 0.005:
            second = t(lang, "dk_seen_best", tag=tag)
        else:
            second = t(
                lang,
                "dk_seen_better",
                action=_action_text(seen.best, lang),
                cost=f"{seen.cost:.2f}",
                tag=tag,
            )
        line = f"{head}: {first}; {second}"
        if seen.announce is not None:
            line += t(lang, "dk_first_say", word=seen.announce)
        return line

    def text(self, lang: str = "en") -> list[str]:
        """One line per decision, then each seat's totals, in ``lang``."""
        lines = [self._line(d, lang) for d in self.decisions]
        lines.append("")
        for seat, tot in self._totals().items():
            lines.append(
                t(
                    lang,
                    "dk_total",
                    name=self.names[seat],
                    augen=tot.augen,
                    points=f"{tot.points:g}",
                    exact=tot.exact,
                    estimated=tot.estimated,
                    expected=f"{tot.expected:.2f}",
                    not_solved=tot.not_solved,
                    forced=tot.forced,
                )
            )
        return lines


def analyse_record(
    replayed: DoppelkopfDeal | DoppelkopfMatch,
    *,
    seat: int | None = None,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    deal: int | None = None,
) -> DoppelkopfAnalysis:
    """:func:`analyze_doppelkopf` with the names to print it (the registry's entry)."""
    decisions = analyze_doppelkopf(replayed, seat=seat, seed=seed, samples=samples, deal=deal)
    names: Sequence[str] | None = replayed.seat_names
    return DoppelkopfAnalysis(decisions, seat_names(names, replayed.options.players))
