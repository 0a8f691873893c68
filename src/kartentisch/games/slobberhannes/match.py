"""A Slobberhannes match: deals in sequence, running penalties, the end and the stakes.

Seeds 000/001 § Winning the game, seed 004 and RULINGS.md (Game end,
Russian preset, Partnership option):

* ``first_to_target`` (default): every deal is played out; the first player
  (or partnership), in time order of the penalty events, whose penalties reach
  the target (10) loses; everyone else wins. The loser pays each other player
  one chip per point that player has left (target − penalties, not below 0).
* ``fewest_wins`` (Russian): play until someone reaches the target (5); the
  fewest penalties win, and every other player pays each winner the
  difference.

>>> match = SlobberhannesMatch(seed=1, first_dealer=0)
>>> while not match.is_over:
...     _ = match.play(match.legal_actions()[0])
>>> match.loser is not None and max(match.totals()) >= 10
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kartentisch.cards import Card, piquet_deck, shuffled
from kartentisch.engine import Event, event_type
from kartentisch.errors import IllegalActionError
from kartentisch.games.slobberhannes.deal import PenaltyCharged, SlobberhannesDeal
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.matches import check_first_dealer, match_record, seat_names

__all__ = ["DrawForLead", "MatchEnded", "SlobberhannesMatch"]


@event_type("draw_for_lead")
class DrawForLead(Event):
    """Seed 004: everyone draws a card; the highest leads, the leader's right deals.

    ``rounds`` lists each round of drawing as (seat, card) pairs; only the
    seats that tied for the highest rank draw again.
    """

    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    leader: int
    dealer: int


@event_type("match_ended")
class MatchEnded(Event):
    totals: tuple[int, ...]
    losers: tuple[int, ...]
    winners: tuple[int, ...]
    settlement: tuple[int, ...]


def draw_for_lead(players: int, rng: random.Random) -> DrawForLead:
    """Draw cards until one seat holds the single highest rank (ties draw again)."""
    rounds: list[tuple[tuple[int, Card], ...]] = []
    contenders = list(range(players))
    while True:
        deck = shuffled(piquet_deck(), rng)
        drawn = tuple((seat, deck[i]) for i, seat in enumerate(contenders))
        rounds.append(drawn)
        top = max(card.rank for _, card in drawn)
        contenders = [seat for seat, card in drawn if card.rank == top]
        if len(contenders) == 1:
            leader = contenders[0]
            return DrawForLead(tuple(rounds), leader, (leader - 1) % players)


class SlobberhannesMatch:
    """Deals until the match ends by the rules, with dealer rotation and totals.

    ``first_dealer`` fixes the first dealer; otherwise it is chosen from the
    seed as the options say (at random, or by the Russian draw). Each deal is
    shuffled from the match's seeded random source unless hands are given.
    """

    game: ClassVar[str] = "slobberhannes"

    def __init__(
        self,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
        *,
        seats: Sequence[str] | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        start: bool = True,
    ) -> None:
        if not isinstance(options, SlobberhannesOptions):
            options = SlobberhannesOptions.from_dict(options)
        self.options = options
        n = options.players
        self.seat_names = seat_names(seats, n)
        self.seed = seed
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        self.draw: DrawForLead | None = None
        if first_dealer is None:
            if options.first_dealer == "draw":
                self.draw = draw_for_lead(n, self.rng)
                self.events.append(self.draw)
                first_dealer = self.draw.dealer
            else:
                first_dealer = self.rng.randrange(n)
        else:
            check_first_dealer(first_dealer, n)
        self.first_dealer = first_dealer
        self.deals: list[SlobberhannesDeal] = []
        self.cuts: list[int | None] = []
        self._totals = [0] * n
        self._losers: tuple[int, ...] = ()
        self._ended: MatchEnded | None = None
        if start:
            self.start_deal()

    # -- deals --------------------------------------------------------------

    @property
    def deal(self) -> SlobberhannesDeal:
        """The current (or last) deal."""
        if not self.deals:
            raise ValueError("no deal has been started")
        return self.deals[-1]

    @property
    def next_dealer(self) -> int:
        """The first dealer, then the deal passes to the left (clockwise)."""
        if not self.deals:
            return self.first_dealer
        return (self.deals[-1].dealer + 1) % self.options.players

    def start_deal(
        self, hands: Sequence[Sequence[Card | str]] | None = None, *, cut: int | None = None
    ) -> SlobberhannesDeal:
        """Shuffle (or take ``hands``) and deal the next deal."""
        if self.deals and not self.deals[-1].is_over:
            raise ValueError("the current deal is not finished")
        if self.is_over:
            raise ValueError("the match is over")
        dealer = self.next_dealer
        if hands is None:
            deal = SlobberhannesDeal.from_seed(
                self.rng, dealer=dealer, options=self.options, cut=cut, seats=self.seat_names
            )
        else:
            deal = SlobberhannesDeal(
                hands, dealer=dealer, options=self.options, seats=self.seat_names
            )
        self.deals.append(deal)
        self.cuts.append(cut)
        return deal

    @property
    def to_move(self) -> int | None:
        if self.is_over or not self.deals:
            return None
        return self.deal.to_move

    def legal_actions(self) -> list[Card]:
        return self.deal.legal_actions() if self.deals else []

    def play(self, action: Card, seat: int | None = None) -> list[Event]:
        """Apply an action to the current deal; start the next deal when it ends.

        The match is advanced automatically; use :meth:`apply` to keep a
        finished deal on the table (to show its summary first).
        """
        events = self.apply(action, seat)
        if self.deal.is_over and not self.is_over:
            self.start_deal()
        return events

    def apply(self, action: Card, seat: int | None = None) -> list[Event]:
        """Apply an action to the current deal; settle the match when it ends."""
        if self.is_over:
            raise IllegalActionError("match_over", "the match is over", seat=seat, action=action)
        if not self.deals or self.deal.is_over:
            raise IllegalActionError(
                "no_deal", "no deal is in progress: start the next deal", seat=seat
            )
        events = list(self.deal.apply(action, seat))
        for event in events:
            if isinstance(event, PenaltyCharged):
                self._charge(event)
        if self.deal.is_over:
            self._after_deal(events)
        self.events.extend(events)
        return events

    def _charge(self, event: PenaltyCharged) -> None:
        self._totals[event.seat] += event.chips
        if self.options.ending == "first_to_target" and not self._losers:
            for team in self.options.teams():
                if event.seat in team and self._team_total(team) >= self.options.target:
                    self._losers = team

    def _after_deal(self, events: list[Event]) -> None:
        target = self.options.target
        teams = self.options.teams()
        totals = [self._team_total(t) for t in teams]
        net = [0] * len(teams)
        if self.options.ending == "first_to_target":
            if not self._losers:
                return
            lost = teams.index(self._losers)
            # The loser pays every other player (side) one chip per point left.
            for i in range(len(teams)):
                if i != lost:
                    left = max(0, target - totals[i])
                    net[i] += left
                    net[lost] -= left
            winning = [i for i in range(len(teams)) if i != lost]
        else:
            if max(totals) < target:
                return
            best = min(totals)
            winning = [i for i, t in enumerate(totals) if t == best]
            # Every other player (side) pays each winner the difference.
            for i, total in enumerate(totals):
                if i not in winning:
                    for w in winning:
                        net[i] -= total - best
                        net[w] += total - best
        winners = tuple(s for i in winning for s in teams[i])
        losers = tuple(s for s in range(self.options.players) if s not in winners)
        settlement = [0] * self.options.players
        for i, team in enumerate(teams):
            for seat in team:
                settlement[seat] = net[i]
        self._losers = losers
        self._ended = MatchEnded(tuple(self._totals), losers, winners, tuple(settlement))
        events.append(self._ended)

    # -- scores -------------------------------------------------------------

    def _team_total(self, team: Sequence[int]) -> int:
        return sum(self._totals[s] for s in team)

    def totals(self) -> tuple[int, ...]:
        """Running penalty points of each seat over all deals."""
        return tuple(self._totals)

    def team_totals(self) -> tuple[int, ...]:
        """Penalties per team (per seat unless partners share them)."""
        return tuple(self._team_total(t) for t in self.options.teams())

    def chips(self) -> tuple[int, ...]:
        """Chips left per seat when playing with chips (target − penalties, not below 0)."""
        return tuple(max(0, self.options.target - t) for t in self._totals)

    @property
    def is_over(self) -> bool:
        return self._ended is not None

    @property
    def result(self) -> MatchEnded | None:
        return self._ended

    @property
    def loser(self) -> int | None:
        """The losing seat of a ``first_to_target`` match (the first if partners lose)."""
        if self._ended is None or not self._ended.losers:
            return None
        return self._ended.losers[0]

    # -- records ------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A match record: the deals in order, each with dealer, hands and actions."""
        return match_record(self, [d.deal_record() for d in self.deals])
