"""Doppelkopf game records: replay a deal or a session, summarise it as JSON.

A deal's ``actions`` are written in the notation of docs/notation.md; an
action any seat may make out of turn (an announcement, a Kulanz take-back)
carries its seat: ``"2:re"``. A single deal may give ``"bock"`` (its Bock
multiplier) and ``"pflicht_due"`` (seats owing a Pflichtsolo); in a session
both follow from the sheet. ``{"dealer": d, "misdeal": true}`` in a session
is a wrong deal at a real table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from kartentisch.errors import IllegalActionError, RecordError
from kartentisch.games.doppelkopf.actions import parse_action
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.explain import explain_deal, explain_miese, explain_redeal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.records import (
    check_by,
    hands_dealt,
    replay_actions,
    replay_record,
    require,
)

__all__ = ["deal_summary", "replay", "split_seat", "summarize"]

_SEATED: Final = re.compile(r"^\s*(\d+)\s*:\s*(.+)$")


def split_seat(text: str) -> tuple[int | None, str]:
    """``"2:re"`` → ``(2, "re")``; an action without a seat → ``(None, text)``.

    >>> split_seat("2: keine 90"), split_seat("QC")
    ((2, 'keine 90'), (None, 'QC'))
    """
    m = _SEATED.match(text)
    if m is None:
        return None, text
    return int(m.group(1)), m.group(2)


def _play_actions(
    deal: DoppelkopfDeal,
    actions: Sequence[Any],
    names: Sequence[str] | None,
    deal_no: int | None,
    apply: Callable[..., Any],
) -> None:
    def seat_of(text: str) -> int | None:
        seat, _ = split_seat(text)
        return deal.to_move if seat is None else seat

    def step(text: str) -> None:
        seat, body = split_seat(text)
        if seat is not None and not 0 <= seat < deal.num_seats:
            raise IllegalActionError("no_such_seat", f"there is no seat {seat}", seat=seat)
        apply(parse_action(body), seat)

    replay_actions(actions, seat_of, step, names=names, deal=deal_no)


def _seat_list(part: Mapping[str, Any], key: str, players: int, where: str) -> tuple[int, ...]:
    value = require(part, key, list, where)
    if not all(type(s) is int and 0 <= s < players for s in value):
        raise RecordError(f'field "{key}" in {where} must list seats from 0 to {players - 1}')
    return tuple(value)


def replay(record: Mapping[str, Any]) -> DoppelkopfDeal | DoppelkopfMatch:
    """Check a record action by action and return the replayed deal or session."""
    return replay_record(
        record, DoppelkopfOptions.from_dict, DoppelkopfMatch, _replay_deal, _replay_single
    )


def _replay_single(
    record: Mapping[str, Any], options: DoppelkopfOptions, seats: tuple[str, ...] | None
) -> DoppelkopfDeal:
    """Replay a single-deal record."""
    dealer = require(record, "dealer", int, "the record")
    hands = require(record, "hands", list, "the record")
    actions = require(record, "actions", list, "the record")
    check_by(record, actions, "the record")
    bock = require(record, "bock", int, "the record") if "bock" in record else 1
    due = (
        _seat_list(record, "pflicht_due", options.players, "the record")
        if "pflicht_due" in record
        else None
    )
    forced = require(record, "vorfuehrung", int, "the record") if "vorfuehrung" in record else None
    deal = hands_dealt(
        lambda: DoppelkopfDeal(
            hands,
            dealer=dealer,
            options=options,
            seats=seats,
            bock_multiplier=bock,
            pflicht_due=due,
            vorfuehrung=forced,
        )
    )
    _play_actions(deal, actions, seats, None, deal.apply)
    return deal


def _replay_deal(
    match: DoppelkopfMatch, number: int, part: Mapping[str, Any], seats: tuple[str, ...] | None
) -> None:
    """Check deal ``number`` of a match record against the match, then play it."""
    where = f"deal {number}"
    last = match.history[-1] if match.history else None
    if isinstance(last, DoppelkopfDeal) and not last.is_over:
        raise RecordError(f"{where}: deal {number - 1} was not played to the end")
    dealer = require(part, "dealer", int, where)
    if dealer != match.next_dealer:
        raise RecordError(f"{where}: dealer must be seat {match.next_dealer} (by the score sheet)")
    if part.get("misdeal") is True:
        match.misdeal()
        return
    hands = require(part, "hands", list, where)
    actions = require(part, "actions", list, where)
    check_by(part, actions, where)
    if "bock" in part and part["bock"] != match.sheet.current_multiplier:
        raise RecordError(
            f"{where}: the sheet's Bock multiplier is {match.sheet.current_multiplier}, "
            f"not {part['bock']!r}"
        )
    forced = require(part, "vorfuehrung", int, where) if "vorfuehrung" in part else None
    deal = hands_dealt(lambda: match.start_deal(hands, vorfuehrung=forced), f"{where}: ")
    _play_actions(deal, actions, seats, number, match.apply)


def deal_summary(deal: DoppelkopfDeal) -> dict[str, Any]:
    """One deal as JSON: tricks, points, and the game with its score."""
    out: dict[str, Any] = {
        "dealer": deal.dealer,
        "playing": list(deal.playing),
        "declarations": [{"seat": s, "call": str(c)} for s, c in deal.declarations],
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
            for t in deal.tricks
        ],
        "points": list(deal.points()),
        "outcome": deal.outcome,
        "finished": deal.is_over,
        "bock_multiplier": deal.bock_multiplier,
    }
    if deal.outcome == "redeal":
        out["redeal_reason"] = deal.redeal_reason
        out["explain"] = explain_deal(deal)
        return out
    facts = deal.facts() if deal.outcome == "played" else None
    out["game_type"] = facts.game_type if facts is not None else deal.game_type
    out["solo"] = facts.solo if facts is not None else deal.solo
    out["ouvert"] = deal.ouvert
    out["soloist"] = deal.soloist
    if deal.hochzeit_by is not None and deal.game_type != "armut":
        out["hochzeit"] = {
            "holder": deal.hochzeit_by,
            "rule": deal.hochzeit_rule,
            "partner": deal.hochzeit_partner,
            "trick": deal.hochzeit_trick,
        }
    if deal.armut_by is not None and deal.armut_partner is not None:
        out["armut"] = {
            "seat": deal.armut_by,
            "partner": deal.armut_partner,
            "direction": deal.armut_direction,
            "trumps": deal.armut_trumps,
            "returned_trumps": deal.armut_returned_trumps,
        }
    if deal.scharfe_aces_by is not None or deal.scharfe_kings_by is not None:
        out["scharfe"] = {"aces": deal.scharfe_aces_by, "kings": deal.scharfe_kings_by}
    re = deal.re_party
    if re is not None:
        out["parties"] = {
            "re": sorted(re),
            "kontra": [s for s in deal.playing if s not in re],
        }
    out["announcements"] = [
        {"seat": a.seat, "party": a.party, "word": a.word} for a in deal.announcements
    ]
    score = deal.score
    if score is not None:
        out["augen"] = dict(score.augen)
        out["winner"] = score.winner
        out["stages"] = list(score.stages)
        out["extras"] = [e.to_dict() for e in score.extras]
        out["multiplier"] = score.multiplier
        out["base"] = score.base
        out["bock_trigger"] = score.bock_trigger
        out["offenders"] = sorted(deal.offenders)
        out["lines"] = list(score.lines)
        out["explain"] = explain_deal(deal)
    else:
        out["augen"] = deal.augen()
    return out


def summarize(replayed: DoppelkopfDeal | DoppelkopfMatch) -> dict[str, Any]:
    """The replay as one JSON object (``tricks`` and ``points`` per the CLI contract)."""
    if isinstance(replayed, DoppelkopfDeal):
        return {"game": "doppelkopf", **deal_summary(replayed)}
    match = replayed
    deals: list[dict[str, Any]] = []
    for entry in match.history:
        if isinstance(entry, DoppelkopfDeal):
            deals.append(deal_summary(entry))
        else:
            deals.append(
                {
                    "dealer": entry.dealer,
                    "outcome": "redeal",
                    "redeal_reason": "misdeal",
                    "explain": explain_redeal("misdeal", None),
                }
            )
    sheet = match.sheet
    return {
        "game": "doppelkopf",
        "deals": deals,
        "points": list(match.totals()),
        "sheet": [
            {**row.to_dict(), "explain": explain_miese(row.dealer)}
            if row.kind == "miese"
            else row.to_dict()
            for row in sheet.rows
        ],
        "dealer_next": sheet.dealer,
        "bock_multiplier_next": sheet.current_multiplier,
        "pending_bocks": list(sheet.pending_bocks),
        "finished": not match.history
        or not isinstance(match.history[-1], DoppelkopfDeal)
        or match.history[-1].is_over,
    }
