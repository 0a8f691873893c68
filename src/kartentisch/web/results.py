"""What a finished table means for the accounts at it: results, statistics, ratings.

When a table ends, :func:`table_results` reads its game (the engine objects the
adapter holds) and says, for every seat, its rank, whether it won and the game's
statistics (docs/ratings.md, "Statistics"), and the outcomes to rate by
(:mod:`kartentisch.ratings`: one for a Slobberhannes match or a slap game, one
per played deal of a Doppelkopf session). :func:`new_ratings` applies them in
order to the accounts' ratings; bots play at their level's fixed rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kartentisch.ratings import (
    Outcome,
    Participant,
    Rating,
    bot,
    doppelkopf_deal_outcome,
    irish_snap_outcome,
    rate,
    rating_pool,
    slapjack_outcome,
    slobberhannes_match_outcome,
)

__all__ = ["TableResults", "new_ratings", "table_results"]


@dataclass
class TableResults:
    game: str
    pool: str
    #: What is rated, in order.
    outcomes: list[Outcome]
    #: By seat: 0 for the best place, equal for a tie.
    ranks: dict[int, int]
    stats: dict[int, dict[str, int | float]] = field(default_factory=dict)

    def won(self, seat: int) -> bool:
        """First place, and not shared by everyone (a draw of all is no win)."""
        best = min(self.ranks.values())
        return self.ranks[seat] == best and len(set(self.ranks.values())) > 1


def _places(outcome: Outcome) -> dict[int, int]:
    """Seat → place from 0 (teams of equal rank share one)."""
    order = sorted(set(outcome.ranks))
    return {
        seat: order.index(rank)
        for team, rank in zip(outcome.teams, outcome.ranks, strict=True)
        for seat in team
    }


def _by_totals(totals: Sequence[int], higher_better: bool) -> dict[int, int]:
    values = sorted(set(totals), reverse=higher_better)
    return {seat: values.index(total) for seat, total in enumerate(totals)}


def table_results(game_name: str, options: Mapping[str, Any], game: Any) -> TableResults:
    """The results of the finished table game ``game`` (a :class:`TableGame` adapter)."""
    pool = rating_pool(game_name, options)
    if game_name == "slobberhannes":
        match = game.match
        outcome = slobberhannes_match_outcome(match)
        deals = sum(1 for d in match.deals if d.is_over)
        totals = match.totals()
        stats: dict[int, dict[str, int | float]] = {
            seat: {"deals": deals, "penalties": totals[seat]} for seat in range(len(totals))
        }
        return TableResults(game_name, pool, [outcome], _places(outcome), stats)
    if game_name == "doppelkopf":
        return _doppelkopf(pool, game.match)
    engine = game.engine
    outcome = slapjack_outcome(engine) if game_name == "slapjack" else irish_snap_outcome(engine)
    return TableResults(game_name, pool, [outcome], _places(outcome), _slap_stats(engine))


def _doppelkopf(pool: str, match: Any) -> TableResults:
    totals = match.totals()
    stats: dict[int, dict[str, int | float]] = {
        seat: {
            "deals": 0,
            "re": 0,
            "kontra": 0,
            "deals_won": 0,
            "soli": 0,
            "soli_won": 0,
            "announcements": 0,
            "announcements_won": 0,
        }
        for seat in range(len(totals))
    }
    outcomes: list[Outcome] = []
    for deal in match.deals:
        if not deal.is_over:
            continue
        outcome = doppelkopf_deal_outcome(deal)
        if outcome is None:
            continue
        outcomes.append(outcome)
        places = _places(outcome)
        winners = (
            {s for s, p in places.items() if p == 0} if len(set(places.values())) > 1 else set()
        )
        re_party = deal.re_party or frozenset()
        said = {a.seat for a in deal.announcements}
        for seat in deal.playing:
            row = stats[seat]
            row["deals"] += 1
            row["re" if seat in re_party else "kontra"] += 1
            won = seat in winners
            row["deals_won"] += won
            if deal.solo and deal.soloist == seat:
                row["soli"] += 1
                row["soli_won"] += won
            if seat in said:
                row["announcements"] += 1
                row["announcements_won"] += won
    return TableResults("doppelkopf", pool, outcomes, _by_totals(totals, higher_better=True), stats)


def _slap_stats(engine: Any) -> dict[int, dict[str, int | float]]:
    """Slaps that won a pile and false slaps, by seat."""
    stats: dict[int, dict[str, int | float]] = {
        seat: {"slaps_won": 0, "false_slaps": 0} for seat in range(engine.num_seats)
    }
    for event in engine.events:
        kind = getattr(event, "type", "")
        seat = getattr(event, "seat", None)
        if seat is None or seat not in stats:
            continue
        if kind == "pile_won" or (kind == "slapped" and getattr(event, "order", 0) == 1):
            stats[seat]["slaps_won"] += 1
        elif kind == "false_slap" or (
            kind == "pile_taken" and getattr(event, "reason", "") == "false_slap"
        ):
            stats[seat]["false_slaps"] += 1
    return stats


def new_ratings(
    results: TableResults,
    before: Mapping[int, Rating],
    seats: Sequence[Mapping[str, Any]],
) -> dict[int, Rating]:
    """The accounts' ratings after the table: every outcome applied in turn.

    ``seats`` are the table's seats as stored (``kind``, ``level``, ``account``);
    a bot seat plays at its level's fixed rating.
    """
    participants: list[Participant] = []
    for seat in seats:
        account = seat.get("account")
        if isinstance(account, int):
            participants.append(str(account))
        else:
            participants.append(bot(results.pool, str(seat.get("level") or "heuristic")))
    current = {str(account): rating for account, rating in before.items()}
    for outcome in results.outcomes:
        current.update(rate(current, outcome.participants(participants), outcome.ranks))
    return {int(account): rating for account, rating in current.items()}
