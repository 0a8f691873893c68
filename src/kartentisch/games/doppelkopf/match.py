"""A Doppelkopf session: deals in sequence on one score sheet.

Seed 003 § Einmischen, § Böcke and RULINGS.md: the deal passes to the left
after every game; a failed deal (a wrong deal, 5 kings, a refused Armut) is
dealt again by the same dealer, and his third failure in a row costs him 100
Miese and passes the deal on, pending Böcke carried over. Each game is
played under the sheet's Bock multiplier. TSR 4.2 (DDV preset): after a
Pflichtsolo the same dealer deals again; each player's first solo of the
session is his Pflichtsolo. A session of ``games`` games with the option
``vorfuehrung``: once no more games are left than Pflichtsoli owed, the next
player who owes one (from the dealer's left) is vorgeführt and must declare a
solo.

>>> match = DoppelkopfMatch(seed=5, first_dealer=0)
>>> for _ in range(3):
...     while not match.deal.is_over:
...         _ = match.apply(match.legal_actions()[0])
...     _ = match.start_deal()
>>> len(match.sheet.rows) >= 1, len(match.totals())
(True, 4)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from kartentisch.cards import Card
from kartentisch.engine import Event, event_type
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.sheet import ScoreSheet, SheetRow
from kartentisch.matches import check_first_dealer, match_record, seat_names

__all__ = ["DoppelkopfMatch", "Misdeal", "SheetWritten"]


@dataclass(frozen=True, slots=True)
class Misdeal:
    """A wrong deal at a real table (a hand without 10 cards): it is dealt again."""

    dealer: int

    def deal_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "misdeal": True}


@event_type("sheet_written")
class SheetWritten(Event):
    """A row written on the score sheet: a game, or the Miese of a thrice-failed dealer."""

    row: SheetRow
    dealer_next: int
    bock_multiplier_next: int
    pending_bocks: tuple[int, ...]


class DoppelkopfMatch:
    """Deals on one :class:`ScoreSheet`, with dealer rotation, redeals and Böcke.

    ``first_dealer`` fixes the first dealer (otherwise drawn from the seed);
    each deal is shuffled from the match's seeded random source unless hands
    are given.
    """

    game: ClassVar[str] = "doppelkopf"

    def __init__(
        self,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
        *,
        seats: Sequence[str] | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        start: bool = True,
        games: int | None = None,
    ) -> None:
        if not isinstance(options, DoppelkopfOptions):
            options = DoppelkopfOptions.from_dict(options)
        if games is not None and (type(games) is not int or games < 1):
            raise ValueError(f"a session has at least one game, not {games!r}")
        self.options = options
        #: The session's length in games, if it has one (the Vorführung needs it).
        self.games = games
        n = options.players
        self.seat_names = seat_names(seats, n)
        self.seed = seed
        self.rng = random.Random(seed)
        if first_dealer is None:
            first_dealer = self.rng.randrange(n)
        else:
            check_first_dealer(first_dealer, n)
        self.first_dealer = first_dealer
        self.sheet = ScoreSheet(
            self.seat_names,
            options.scoring,
            dealer=first_dealer,
            bock=options.bock,
            bock_rounds=options.bock_rounds,
            bock_stacking=options.bock_stacking,
            counting=options.counting,
            bock_factor=options.bock_factor,
        )
        self.history: list[DoppelkopfDeal | Misdeal] = []
        self.cuts: list[int | None] = []
        #: Pflichtsoli played by each seat this session.
        self.pflicht_done: Counter[int] = Counter()
        self.events: list[Event] = []
        if start:
            self.start_deal()

    # -- deals --------------------------------------------------------------

    @property
    def deals(self) -> list[DoppelkopfDeal]:
        """The deals dealt so far (failed ones included), oldest first."""
        return [d for d in self.history if isinstance(d, DoppelkopfDeal)]

    @property
    def deal(self) -> DoppelkopfDeal:
        """The current (or last) deal."""
        for entry in reversed(self.history):
            if isinstance(entry, DoppelkopfDeal):
                return entry
        raise ValueError("no deal has been started")

    @property
    def next_dealer(self) -> int:
        return self.sheet.dealer

    @property
    def pflicht_due(self) -> tuple[int, ...]:
        """Seats that still owe a Pflichtsolo (DDV preset: one each; ``pflichtsolo_count``)."""
        owed = self.options.pflichtsolo_count
        return tuple(s for s in range(self.options.players) if self.pflicht_done[s] < owed)

    def _current_open(self) -> bool:
        return (
            bool(self.history)
            and isinstance(self.history[-1], DoppelkopfDeal)
            and not self.history[-1].is_over
        )

    def vorgefuehrt(self) -> int | None:
        """The seat the next deal forces to play its Pflichtsolo (option ``vorfuehrung``),
        or None: only once the session has no more games left than Pflichtsoli owed."""
        options = self.options
        if not (options.vorfuehrung and options.pflichtsolo) or self.games is None:
            return None
        owed = options.pflichtsolo_count
        due = [s for s in self.pflicht_due if self.pflicht_done[s] < owed]
        left = self.games - self.sheet.games_played
        if not due or left > sum(owed - self.pflicht_done[s] for s in due):
            return None
        n = options.players
        dealer = self.sheet.dealer
        # From the dealer's left; with five players the dealer sits the deal out.
        order = [(dealer + i) % n for i in range(1, n + (0 if n == 5 else 1))]
        return next((s for s in order if s in due), None)

    def start_deal(
        self,
        hands: Sequence[Sequence[Card | str]] | None = None,
        *,
        cut: int | None = None,
        vorfuehrung: int | None = None,
    ) -> DoppelkopfDeal:
        """Shuffle (or take ``hands``) and deal the next deal on the sheet.

        ``vorfuehrung`` names the seat that must play its Pflichtsolo (a record's);
        without it a session of known length works it out (:meth:`vorgefuehrt`).
        """
        if self._current_open():
            raise ValueError("the current deal is not finished")
        kwargs: dict[str, Any] = {
            "dealer": self.sheet.dealer,
            "options": self.options,
            "seats": self.seat_names,
            "bock_multiplier": self.sheet.current_multiplier,
            "pflicht_due": self.pflicht_due,
            "vorfuehrung": vorfuehrung if vorfuehrung is not None else self.vorgefuehrt(),
        }
        if hands is None:
            deal = DoppelkopfDeal.from_seed(self.rng, cut=cut, **kwargs)
        else:
            deal = DoppelkopfDeal(hands, **kwargs)
        self.history.append(deal)
        self.cuts.append(cut)
        return deal

    def misdeal(self) -> list[Event]:
        """Record a wrong deal (not everyone got 10 cards): a failed deal for the dealer."""
        if self._current_open():
            raise ValueError("the current deal is being played")
        self.history.append(Misdeal(self.sheet.dealer))
        self.cuts.append(None)
        return self._write(self.sheet.record_failed_deal())

    @property
    def to_move(self) -> int | None:
        if not self.history or not self._current_open():
            return None
        return self.deal.to_move

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return self.deal.legal_actions(seat) if self._current_open() else []

    def play(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action; start the next deal automatically when this one ends."""
        events = self.apply(action, seat)
        if self.deal.is_over:
            self.start_deal()
        return events

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action to the current deal; write the sheet when it ends."""
        if not self._current_open():
            raise IllegalActionError(
                "no_deal", "no deal is in progress: start the next deal", seat=seat
            )
        deal = self.deal
        events = list(deal.apply(action, seat))
        if deal.is_over:
            events.extend(self._after_deal(deal))
        self.events.extend(events)
        return events

    def _after_deal(self, deal: DoppelkopfDeal) -> list[Event]:
        if deal.outcome == "redeal":
            return self._write(self.sheet.record_failed_deal())
        assert deal.score is not None
        row = self.sheet.record_game(deal.score)
        if deal.pflicht and deal.soloist is not None:
            self.pflicht_done[deal.soloist] += 1
            # TSR 4.2: after a Pflichtsolo the same dealer deals again.
            self._deal_again(deal.dealer)
        return self._write(row)

    def _deal_again(self, dealer: int) -> None:
        again = getattr(self.sheet, "deal_again", None)
        if callable(again):
            again()
        else:
            self.sheet._dealer = dealer

    def _write(self, row: SheetRow | None) -> list[Event]:
        if row is None:
            return []
        sheet = self.sheet
        return [SheetWritten(row, sheet.dealer, sheet.current_multiplier, sheet.pending_bocks)]

    # -- scores -------------------------------------------------------------

    def totals(self) -> tuple[int, ...]:
        """Running totals per seat."""
        return self.sheet.totals

    # -- records ------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A session record: the deals in order (failed ones included)."""
        return match_record(self, [entry.deal_record() for entry in self.history])
