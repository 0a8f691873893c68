"""Slobberhannes analysis: what each decision cost, with full and with the seat's information.

For every decision of a seat in a Slobberhannes record:

* with **full information** (all hands known) the exact max^n solver values
  every card the seat could follow with; the cost of the card played is its
  value minus the best value, in penalty chips for that seat;
* with **the seat's information** the strong bot's Perfect-Information Monte
  Carlo evaluation (deals consistent with what the seat had seen, each solved
  exactly) gives each card's expected penalty; the cost of the card played is
  its expectation minus the best one.

A decision with one possible card is listed as forced and costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from kartentisch.analysis.base import check_deal, check_seat, seat_names
from kartentisch.analysis.texts import t
from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.cards import Card
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.i18n import card_text
from kartentisch.search.slobberhannes_solver import solve_moves

__all__ = [
    "DEFAULT_SAMPLES",
    "Decision",
    "SlobberhannesAnalysis",
    "analyse_record",
    "analyze_slobberhannes",
]

#: Deals sampled per decision for the seat's information.
DEFAULT_SAMPLES = 40


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision of a seat."""

    deal: int
    trick: int
    seat: int
    played: Card
    forced: bool
    full_values: dict[Card, int]
    full_best: Card
    full_cost: int
    expected: dict[Card, float]
    expected_best: Card
    expected_cost: float
    #: Penalty chips the seat had taken in this deal before the decision (the full
    #: information values are the chips still to come).
    paid: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "trick": self.trick,
            "seat": self.seat,
            "played": str(self.played),
            "forced": self.forced,
            "paid": self.paid,
            "full_information": {
                "best": str(self.full_best),
                "cost": self.full_cost,
                "values": {str(c): v for c, v in self.full_values.items()},
            },
            "seat_information": {
                "best": str(self.expected_best),
                "cost": round(self.expected_cost, 4),
                "expected": {str(c): round(v, 4) for c, v in self.expected.items()},
            },
        }


def _deals(replayed: SlobberhannesDeal | SlobberhannesMatch) -> list[SlobberhannesDeal]:
    return [replayed] if isinstance(replayed, SlobberhannesDeal) else list(replayed.deals)


def _decisions(
    deal: SlobberhannesDeal, number: int, seat: int | None, bot: StrongSlobberhannesBot
) -> Iterator[Decision]:
    replay = SlobberhannesDeal(
        deal.initial_hands, dealer=deal.dealer, options=deal.options, seats=deal.seat_names
    )
    for card in deal.actions:
        mover = replay.to_move
        assert mover is not None
        if seat is None or mover == seat:
            following = replay.following_actions()
            full = {c: v[mover] for c, v in solve_moves(replay).items()}
            if card not in full:  # a penalised revoke: costs its chip on top
                full[card] = min(full.values()) + 1
            full_best = min(following, key=lambda c: (full[c], c))
            obs = replay.observation(mover)
            expected = bot.evaluate(obs) if len(following) > 1 else {following[0]: 0.0}
            if card not in expected:
                expected[card] = min(expected.values()) + 1.0
            expected_best = min(following, key=lambda c: (expected[c], c))
            yield Decision(
                deal=number,
                trick=replay.trick_number,
                seat=mover,
                played=card,
                forced=len(following) == 1,
                full_values=full,
                full_best=full_best,
                full_cost=full[card] - full[full_best],
                expected=expected,
                expected_best=expected_best,
                expected_cost=expected[card] - expected[expected_best],
                paid=replay.points()[mover],
            )
        replay.apply(card)


def analyze_slobberhannes(
    replayed: SlobberhannesDeal | SlobberhannesMatch,
    *,
    seat: int | None = None,
    seed: int = 0,
    samples: int = 40,
    deal: int | None = None,
) -> list[Decision]:
    """Analyse every decision (of ``seat``, or of all seats) in a replayed record (in
    deal number ``deal`` only, if given)."""
    deals = _deals(replayed)
    check_seat(seat, deals[0].num_seats)
    check_deal(deal, range(1, len(deals) + 1))
    bot = StrongSlobberhannesBot(seed, samples=samples, min_samples=samples, node_budget=1 << 62)
    out: list[Decision] = []
    for number, played in enumerate(deals, start=1):
        if deal is None or number == deal:
            out.extend(_decisions(played, number, seat, bot))
    return out


@dataclass(frozen=True, slots=True)
class SlobberhannesAnalysis:
    """The decisions of a record, with the seats' names to print them."""

    decisions: list[Decision]
    names: tuple[str, ...]

    def _totals(self) -> dict[int, list[float]]:
        totals: dict[int, list[float]] = {}
        for d in self.decisions:
            cost = totals.setdefault(d.seat, [0.0, 0.0])
            cost[0] += d.full_cost
            cost[1] += d.expected_cost
        return totals

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": [d.to_dict() for d in self.decisions],
            "totals": {
                str(s): {"full_information": c[0], "seat_information": round(c[1], 4)}
                for s, c in sorted(self._totals().items())
            },
        }

    def text(self, lang: str = "en") -> list[str]:
        """One line per decision, then each seat's totals, in ``lang``."""
        names = self.names
        lines: list[str] = []
        for d in self.decisions:
            head = t(
                lang,
                "card_head",
                deal=d.deal,
                trick=d.trick,
                name=names[d.seat],
                card=card_text(lang, d.played),
            )
            if d.forced:
                lines.append(t(lang, "forced", head=head))
                continue
            full = (
                t(lang, "sh_full_best")
                if d.full_cost == 0
                else t(lang, "sh_full_better", card=card_text(lang, d.full_best), cost=d.full_cost)
            )
            seen = (
                t(lang, "sh_seen_best")
                if d.expected_cost < 0.005
                else t(
                    lang,
                    "sh_seen_better",
                    card=card_text(lang, d.expected_best),
                    cost=f"{d.expected_cost:.2f}",
                )
            )
            lines.append(f"{head}: {full}; {seen}")
        lines.append("")
        for seat, (full_cost, expected_cost) in sorted(self._totals().items()):
            lines.append(
                t(
                    lang,
                    "sh_total",
                    name=names[seat],
                    full=f"{full_cost:.0f}",
                    expected=f"{expected_cost:.2f}",
                )
            )
        return lines


def analyse_record(
    replayed: SlobberhannesDeal | SlobberhannesMatch,
    *,
    seat: int | None = None,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    deal: int | None = None,
) -> SlobberhannesAnalysis:
    """:func:`analyze_slobberhannes` with the names to print it (the registry's entry)."""
    decisions = analyze_slobberhannes(replayed, seat=seat, seed=seed, samples=samples, deal=deal)
    names: Sequence[str] | None = replayed.seat_names
    return SlobberhannesAnalysis(decisions, seat_names(names, replayed.options.players))
