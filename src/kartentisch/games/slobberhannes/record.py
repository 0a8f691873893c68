"""Slobberhannes game records: replay a deal or a match, summarise it as JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kartentisch.errors import (
    DealError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
)
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.records import ReplayError, require

__all__ = ["replay", "summarize"]


def _options(record: Mapping[str, Any]) -> SlobberhannesOptions:
    raw = record.get("options", {})
    if not isinstance(raw, dict):
        raise RecordError('field "options" must be an object')
    try:
        return SlobberhannesOptions.from_dict(raw)
    except OptionError as exc:
        raise RecordError(f"options: {exc}") from None


def _seats(record: Mapping[str, Any], players: int) -> tuple[str, ...] | None:
    if "seats" not in record:
        return None
    seats = require(record, "seats", list)
    if len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise RecordError(f'field "seats" must list {players} names, one per seat')
    return tuple(seats)


def _deal_parts(
    part: Mapping[str, Any], where: str, players: int
) -> tuple[int, list[Any], list[Any]]:
    dealer = require(part, "dealer", int, where)
    if not 0 <= dealer < players:
        raise RecordError(f"{where}: dealer must be a seat from 0 to {players - 1}, not {dealer}")
    hands = require(part, "hands", list, where)
    actions = require(part, "actions", list, where)
    return dealer, hands, actions


def _play_actions(
    deal: SlobberhannesDeal,
    actions: Sequence[Any],
    names: Sequence[str] | None,
    deal_no: int | None,
    apply: Any,
) -> None:
    for i, text in enumerate(actions, start=1):
        seat = deal.to_move
        name = names[seat] if names is not None and seat is not None else None
        if not isinstance(text, str):
            raise RecordError(
                f"{'deal ' + str(deal_no) + ', ' if deal_no else ''}action {i} must be a card "
                f"written as text, not {text!r}"
            )
        try:
            card = deal.parse_action(text)
            apply(card)
        except NotationError as exc:
            raise ReplayError(
                IllegalActionError("bad_notation", str(exc)),
                position=i,
                seat=seat,
                action=text,
                deal=deal_no,
                seat_name=name,
            ) from None
        except IllegalActionError as exc:
            raise ReplayError(
                exc, position=i, seat=seat, action=text, deal=deal_no, seat_name=name
            ) from None


def replay(record: Mapping[str, Any]) -> SlobberhannesDeal | SlobberhannesMatch:
    """Check a record action by action and return the replayed deal or match."""
    options = _options(record)
    seats = _seats(record, options.players)
    if "deals" in record:
        return _replay_match(record, options, seats)
    dealer, hands, actions = _deal_parts(record, "the record", options.players)
    try:
        deal = SlobberhannesDeal(hands, dealer=dealer, options=options, seats=seats)
    except DealError as exc:
        raise RecordError(f"hands: {exc}") from None
    _play_actions(deal, actions, seats, None, deal.apply)
    return deal


def _replay_match(
    record: Mapping[str, Any], options: SlobberhannesOptions, seats: tuple[str, ...] | None
) -> SlobberhannesMatch:
    deals = require(record, "deals", list)
    if not deals:
        raise RecordError('field "deals" must hold at least one deal')
    if not isinstance(deals[0], dict):
        raise RecordError("deal 1 must be an object")
    first_dealer = require(deals[0], "dealer", int, "deal 1")
    if not 0 <= first_dealer < options.players:
        raise RecordError(f"deal 1: dealer must be a seat from 0 to {options.players - 1}")
    match = SlobberhannesMatch(options, seats=seats, first_dealer=first_dealer, start=False)
    for number, part in enumerate(deals, start=1):
        where = f"deal {number}"
        if not isinstance(part, dict):
            raise RecordError(f"{where} must be an object")
        if match.is_over:
            raise RecordError(f"{where}: the match was already over after deal {number - 1}")
        if match.deals and not match.deal.is_over:
            raise RecordError(f"{where}: deal {number - 1} was not played to the end")
        dealer, hands, actions = _deal_parts(part, where, options.players)
        if dealer != match.next_dealer:
            raise RecordError(
                f"{where}: dealer must be seat {match.next_dealer} (the deal passes to the left)"
            )
        try:
            deal = match.start_deal(hands)
        except DealError as exc:
            raise RecordError(f"{where}: hands: {exc}") from None
        _play_actions(deal, actions, seats, number, match.apply)
    return match


def _deal_summary(deal: SlobberhannesDeal) -> dict[str, Any]:
    return {
        "dealer": deal.dealer,
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
            for t in deal.tricks
        ],
        "points": list(deal.points()),
        "penalties": [
            {"seat": p.seat, "reason": p.reason, "chips": p.chips, "trick": p.trick}
            for p in deal.penalties()
        ],
        "finished": deal.is_over,
    }


def summarize(replayed: SlobberhannesDeal | SlobberhannesMatch) -> dict[str, Any]:
    """The replay as one JSON object (``tricks`` and ``points`` per the CLI contract)."""
    if isinstance(replayed, SlobberhannesDeal):
        return {"game": "slobberhannes", **_deal_summary(replayed)}
    match = replayed
    out: dict[str, Any] = {
        "game": "slobberhannes",
        "deals": [_deal_summary(d) for d in match.deals],
        "points": list(match.totals()),
        "finished": match.is_over,
    }
    if match.result is not None:
        out["losers"] = list(match.result.losers)
        out["winners"] = list(match.result.winners)
        out["settlement"] = list(match.result.settlement)
    return out
