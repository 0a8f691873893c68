"""Doppelkopf deals and sessions as readable text, in three languages.

The Doppelkopf words (game types, declarations, announcements, extra points)
are the ``dk.*`` entries of the package's catalog (:mod:`kartentisch.i18n`);
:func:`dk` looks up the terminal's ``dk.text.*`` ones.

>>> dk("de", "game_queens"), dk("en", "word_no90"), dk("ru", "word_kontra")
('Damensolo', 'no 90', 'Контра')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kartentisch.errors import IllegalActionError, NotationError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf.actions import Call
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.explain import explain_game
from kartentisch.games.doppelkopf.match import DoppelkopfMatch, Misdeal
from kartentisch.games.doppelkopf.question import Answer
from kartentisch.games.doppelkopf.trumps import sort_hand
from kartentisch.i18n import card_text, cards_text, describe_refusal, lookup, t, translate

__all__ = [
    "answer_text",
    "call_text",
    "dk",
    "game_name",
    "refusal_text",
    "render",
    "seat_label",
    "typed_call",
]


def dk(lang: str, key: str, **fields: Any) -> str:
    """The Doppelkopf message ``key`` in ``lang`` (English if missing)."""
    return lookup("dk.text.", lang, key, fields)


def refusal_text(error: IllegalActionError, lang: str) -> str:
    """A refused Doppelkopf action explained in ``lang`` (the engine's message in English)."""
    return describe_refusal(error, lang)


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None else f"#{seat}"


def game_name(game_type: str, lang: str, *, ouvert: bool = False) -> str:
    name = dk(lang, f"game_{game_type}")
    return f"{name} {dk(lang, 'ouvert')}" if ouvert else name


def call_text(call: Call | str, lang: str) -> str:
    """A declaration or announcement in words: ``solo queens ouvert`` → ``Damensolo ouvert``."""
    if isinstance(call, str):
        from kartentisch.games.doppelkopf.actions import parse_action

        parsed = parse_action(call)
        if not isinstance(parsed, Call):
            return str(parsed)
        call = parsed
    word = call.word
    if word == "solo":
        return game_name(call.detail, lang, ouvert=call.ouvert)
    if word == "hochzeit":
        rule = call.detail or "first_trick"
        return f"{dk(lang, 'game_hochzeit')} ({dk(lang, 'hochzeit_' + rule)})"
    if word == "scharfe":
        return ", ".join(dk(lang, f"scharfe_{p}") for p in call.detail.split())
    if word in ("give", "return"):
        return f"{word} {cards_text(lang, call.cards)}"
    return dk(lang, f"word_{word}")


def answer_text(answer: Answer, lang: str) -> str:
    """An answer to the declaration question in words: Gesund, or what the reservation
    is (a Scharfe and the reservation it goes with, separated by a comma).

    >>> from kartentisch.games.doppelkopf.question import Answer
    >>> answer_text(Answer.parse("gesund"), "de")
    'gesund'
    >>> answer_text(Answer.parse("vorbehalt scharfe aces + solo queens"), "de")
    'scharfe Herz-Asse, Damensolo'
    """
    if answer.gesund:
        return call_text(Call("pass"), lang)
    return ", ".join(call_text(c, lang) for c in (answer.scharfe, answer.reservation) if c)


def typed_call(call: Call, lang: str) -> str:
    """A declaration or announcement as the player types it in ``lang`` (German and
    Russian have their own words: ``solo damen``, ``gesund``, ``keine90``; ``соло дамы``,
    ``пас``, ``без90``; English the notation). A word the notation does not read back
    as the same action is written in the notation.

    >>> from kartentisch.games.doppelkopf.actions import parse_action
    >>> [typed_call(parse_action(a), "de") for a in ("pass", "solo queens ouvert", "no90")]
    ['gesund', 'solo damen ouvert', 'keine90']
    >>> typed_call(parse_action("solo queens"), "ru"), typed_call(parse_action("no90"), "en")
    ('соло дамы', 'no90')
    """
    from kartentisch.games.doppelkopf.actions import parse_action

    def word(key: str) -> str:
        return translate(lang, f"term.dk.type.{key}")

    parts = [word(call.word)]
    if call.word in ("solo", "hochzeit", "scharfe") and call.detail:
        parts += [word(f"{call.word}.{d}") for d in call.detail.split()]
    if call.ouvert:
        parts.append(word("ouvert"))
    if call.cards:
        parts += [str(c) for c in call.cards]
    text = " ".join(parts)
    try:
        same = parse_action(text) == call
    except (NotationError, ValueError):
        same = False
    return text if same else str(call)


def render_deal(deal: DoppelkopfDeal, number: int, lang: str) -> list[str]:
    names = deal.seat_names

    def label(seat: int) -> str:
        return seat_label(seat, names)

    lines = [
        t(
            lang,
            "deal_header",
            number=number,
            dealer=label(deal.dealer),
            leader=label(deal.ask_order[0]),
        )
    ]
    if deal.bock_multiplier > 1:
        lines.append("  " + dk(lang, "bock", m=deal.bock_multiplier))
    for seat, hand in enumerate(deal.initial_hands):
        if seat not in deal.playing:
            lines.append("  " + dk(lang, "sits_out", who=label(seat)))
            continue
        shown = sort_hand(hand)
        lines.append(f"  {label(seat):>12}: {cards_text(lang, shown)}")
    if deal.vorfuehrung is not None:
        lines.append("  " + dk(lang, "vorfuehrung", who=label(deal.vorfuehrung)))
    spoken = [(seat, call) for seat, call in deal.declarations if call.word != "pass"]
    for seat, call in spoken:
        lines.append("  " + dk(lang, "declares", who=label(seat), what=call_text(call, lang)))
    if deal.declarations and not spoken:
        lines.append("  " + dk(lang, "all_pass"))
    if deal.armut_partner is not None and deal.armut_by is not None:
        key = f"armut_offer_{deal.armut_direction}"
        lines.append(
            "  "
            + dk(
                lang,
                key,
                who=label(deal.armut_by),
                n=deal.armut_trumps,
                partner=label(deal.armut_partner),
            )
        )
    if deal.outcome == "redeal":
        lines.append(
            "  "
            + dk(
                lang,
                f"redeal_{deal.redeal_reason}",
                who=label(deal.redeal_by) if deal.redeal_by is not None else "",
            )
        )
        return lines
    if deal.phase in ("play", "done"):
        facts_type = deal.game_type
        lines.append(
            "  "
            + dk(lang, "game_is", game=game_name(facts_type, lang, ouvert=deal.ouvert))
            + (
                f", {dk(lang, 'soloist', who=label(deal.soloist))}"
                if deal.soloist is not None
                else ""
            )
        )
    for seat, kind in deal.pigs:
        what = t(lang, f"dk.pig.{kind}")
        lines.append("  " + dk(lang, "pigs_shown", who=label(seat), what=what))
    for a in deal.announcements:
        lines.append(
            "  " + dk(lang, "announces", who=label(a.seat), what=dk(lang, f"word_{a.word}"))
        )
    for i, trick in enumerate(deal.tricks, start=1):
        plays = ", ".join(
            f"{label(s)} {card_text(lang, c)}"
            for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        assert trick.winner is not None
        lines.append(f"  {t(lang, 'trick_n', number=i)}: {plays} → {label(trick.winner)}")
        if deal.hochzeit_trick == i and deal.hochzeit_by is not None:
            if deal.hochzeit_partner is not None:
                lines.append(
                    "      "
                    + dk(
                        lang,
                        "partner_found",
                        who=label(deal.hochzeit_partner),
                        holder=label(deal.hochzeit_by),
                        trick=i,
                    )
                )
            else:
                lines.append(
                    "      " + dk(lang, "hochzeit_alone", holder=label(deal.hochzeit_by), trick=i)
                )
    score = deal.score
    if score is not None:
        # the parties, the Augen, who won and why, and what each seat gets
        lines.append("  " + dk(lang, "winner", party=dk(lang, f"party_{score.winner}")))
        for line in render_lines(lang, explain_game(deal.facts(), score), names):
            lines.append(f"    {line}")
        pts = ", ".join(f"{label(s)} {p}" for s, p in enumerate(deal.points()))
        lines.append(f"  {dk(lang, 'points')}: {pts}")
    return lines


def render(replayed: DoppelkopfDeal | DoppelkopfMatch, lang: str = "en") -> list[str]:
    """Every declaration, announcement and trick, the score (and a session's sheet)."""
    if isinstance(replayed, DoppelkopfDeal):
        return render_deal(replayed, 1, lang)
    lines: list[str] = []
    names = replayed.seat_names
    for number, entry in enumerate(replayed.history, start=1):
        if isinstance(entry, Misdeal):
            lines.append(
                t(lang, "deal_header", number=number, dealer=names[entry.dealer], leader="—")
            )
            lines.append("  " + dk(lang, "redeal_misdeal"))
        else:
            lines.extend(render_deal(entry, number, lang))
        lines.append("")
    lines.extend(sheet_lines(replayed, lang))
    return lines


def sheet_lines(match: DoppelkopfMatch, lang: str) -> list[str]:
    """The score sheet as a text table: one row per game, running totals."""
    names = match.seat_names
    sheet = match.sheet
    width = max(8, *(len(n) for n in names))
    head = (
        f"{dk(lang, 'game_n'):>5} "
        + " ".join(f"{n:>{width}}" for n in names)
        + f"  {dk(lang, 'bock_column')}"
    )
    out = [dk(lang, "score_sheet"), head]
    for row in sheet.rows:
        cells = " ".join(f"{p:>{width}}" for p in row.totals)
        mark = "M" if row.kind == "miese" else ""
        out.append(f"{row.number:>4}{mark:1} {cells}  ×{row.multiplier}")
    pending = sheet.pending_bocks
    out.append(
        dk(lang, "bock_queue", queue=", ".join(str(b) for b in pending))
        if pending
        else dk(lang, "no_bock")
    )
    return out
