"""Slobberhannes deals and matches as readable text, in three languages."""

from __future__ import annotations

from collections.abc import Sequence

from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.i18n import card_text, cards_text, t

__all__ = ["penalty_line", "render", "seat_label"]


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None else f"#{seat}"


def penalty_line(reason: str, who: str, chips: int, lang: str) -> str:
    return t(lang, f"penalty_{reason}", who=who, chips=chips)


def render_deal(deal: SlobberhannesDeal, number: int, lang: str) -> list[str]:
    names = deal.seat_names
    n = deal.num_seats
    lines = [
        t(
            lang,
            "deal_header",
            number=number,
            dealer=seat_label(deal.dealer, names),
            leader=seat_label((deal.dealer + 1) % n, names),
        )
    ]
    for seat, hand in enumerate(deal.initial_hands):
        lines.append(f"  {seat_label(seat, names):>12}: {cards_text(lang, hand)}")
    penalties = deal.penalties()
    for i, trick in enumerate(deal.tricks, start=1):
        plays = ", ".join(
            f"{seat_label(s, names)} {card_text(lang, c)}"
            for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        assert trick.winner is not None
        lines.append(
            f"  {t(lang, 'trick_n', number=i)}: {plays} → {seat_label(trick.winner, names)}"
        )
        for p in penalties:
            if p.trick == i:
                lines.append(
                    "      " + penalty_line(p.reason, seat_label(p.seat, names), p.chips, lang)
                )
    for p in penalties:
        if p.trick is None:
            lines.append(
                "      " + penalty_line(p.reason, seat_label(p.seat, names), p.chips, lang)
            )
    if deal.is_over:
        points = ", ".join(f"{seat_label(s, names)} {p}" for s, p in enumerate(deal.points()))
        lines.append(f"  {t(lang, 'penalties')}: {points}")
    return lines


def render(replayed: SlobberhannesDeal | SlobberhannesMatch, lang: str = "en") -> list[str]:
    """Every trick with its winner, every penalty, the points (and a match's end)."""
    if isinstance(replayed, SlobberhannesDeal):
        return render_deal(replayed, 1, lang)
    lines: list[str] = []
    for number, deal in enumerate(replayed.deals, start=1):
        lines.extend(render_deal(deal, number, lang))
        lines.append("")
    names = replayed.seat_names
    totals = ", ".join(f"{seat_label(s, names)} {p}" for s, p in enumerate(replayed.totals()))
    lines.append(f"{t(lang, 'standings')}: {totals}")
    result = replayed.result
    if result is not None:
        who = ", ".join(seat_label(s, names) for s in result.losers)
        if replayed.options.ending == "first_to_target":
            lines.append(t(lang, "match_lost", who=who, target=replayed.options.target))
        else:
            winners = ", ".join(seat_label(s, names) for s in result.winners)
            lines.append(t(lang, "match_won", who=winners))
        pay = ", ".join(f"{seat_label(s, names)} {v:+d}" for s, v in enumerate(result.settlement))
        lines.append(f"{t(lang, 'settlement')}: {pay}")
    return lines
