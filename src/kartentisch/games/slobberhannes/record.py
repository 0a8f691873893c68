"""Slobberhannes game records: replay a deal or a match, summarise it as JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kartentisch.cards import Card
from kartentisch.errors import RecordError
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.games.slobberhannes.explain import explain_deal
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.records import (
    check_by,
    hands_dealt,
    replay_actions,
    replay_record,
    require,
)

__all__ = ["replay", "summarize"]


def _deal_parts(
    part: Mapping[str, Any], where: str, players: int
) -> tuple[int, list[Any], list[Any]]:
    dealer = require(part, "dealer", int, where)
    if not 0 <= dealer < players:
        raise RecordError(f"{where}: dealer must be a seat from 0 to {players - 1}, not {dealer}")
    hands = require(part, "hands", list, where)
    actions = require(part, "actions", list, where)
    check_by(part, actions, where)
    return dealer, hands, actions


def _play_actions(
    deal: SlobberhannesDeal,
    actions: Sequence[Any],
    names: Sequence[str] | None,
    deal_no: int | None,
    apply: Callable[[Card], object],
) -> None:
    replay_actions(
        actions,
        lambda _: deal.to_move,
        lambda text: apply(deal.parse_action(text)),
        names=names,
        deal=deal_no,
        expected="a card written as text",
    )


def replay(record: Mapping[str, Any]) -> SlobberhannesDeal | SlobberhannesMatch:
    """Check a record action by action and return the replayed deal or match."""
    return replay_record(
        record, SlobberhannesOptions.from_dict, SlobberhannesMatch, _replay_deal, _replay_single
    )


def _replay_single(
    record: Mapping[str, Any], options: SlobberhannesOptions, seats: tuple[str, ...] | None
) -> SlobberhannesDeal:
    """Replay a single-deal record."""
    dealer, hands, actions = _deal_parts(record, "the record", options.players)
    deal = hands_dealt(
        lambda: SlobberhannesDeal(hands, dealer=dealer, options=options, seats=seats)
    )
    _play_actions(deal, actions, seats, None, deal.apply)
    return deal


def _replay_deal(
    match: SlobberhannesMatch, number: int, part: Mapping[str, Any], seats: tuple[str, ...] | None
) -> None:
    """Check deal ``number`` of a match record against the match, then play it."""
    where = f"deal {number}"
    if match.is_over:
        raise RecordError(f"{where}: the match was already over after deal {number - 1}")
    if match.deals and not match.deal.is_over:
        raise RecordError(f"{where}: deal {number - 1} was not played to the end")
    dealer, hands, actions = _deal_parts(part, where, match.options.players)
    if dealer != match.next_dealer:
        raise RecordError(
            f"{where}: dealer must be seat {match.next_dealer} (the deal passes to the left)"
        )
    deal = hands_dealt(lambda: match.start_deal(hands), f"{where}: ")
    _play_actions(deal, actions, seats, number, match.apply)


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
        "explain": explain_deal(deal) if deal.is_over else [],
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
