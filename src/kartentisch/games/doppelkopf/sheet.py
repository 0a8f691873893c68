"""The Doppelkopf score sheet of a session: totals, dealer, Böcke, Miese.

Seed 003 § Einmischen, § Böcke and RULINGS.md § Doppelkopf (Einmischen,
Böcke, Score sheet across games):

* The deal passes to the left (the next seat clockwise) after every game.
  With five players the dealer sits the game out and scores 0.
* Every Bock trigger adds a *stream* of as many Bock games as there are
  players at the table (times ``bock_rounds``), starting with the next game.
  Each stream that covers a game doubles it: two streams (Doppelbock) × 4,
  three × 8 … With ``bock_stacking="append"`` a new stream waits for the
  ones before it, and every Bock game is × 2.
* A failed deal (redeal) is dealt again by the same dealer and uses up no
  Bock game. The third failed deal in a row costs that dealer 100 minus
  points (never doubled by Böcke) and the deal passes on; the Böcke wait.
* Under DDV scoring there are no Miese (TSR), and Böcke only when asked for
  (``bock=True``: a house rule many tables add to the DDV points).

>>> sheet = ScoreSheet(["Anna", "Ben", "Cem", "Dora"])
>>> sheet.dealer, sheet.playing_seats(), sheet.current_multiplier
(0, (1, 2, 3, 0), 1)
>>> _ = sheet.record_points((10, 0, 10, 0), bock_trigger=True)
>>> sheet.dealer, sheet.current_multiplier, sheet.bock_summary()
(1, 2, '1 Bock: ×2 for the next 4 games')
>>> sheet.totals
(10, 0, 10, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from kartentisch.errors import KartentischError, RecordError
from kartentisch.games.doppelkopf.scoring import Counting, is_power

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.scoring import GameScore

__all__ = ["MIESE", "SHEET_FORMAT", "ScoreSheet", "SheetError", "SheetRow"]

Rules = Literal["house", "ddv"]
RowKind = Literal["game", "miese"]

#: The ``format`` field of :meth:`ScoreSheet.to_dict`.
SHEET_FORMAT: Final = "kartentisch-doppelkopf-sheet/1"
#: Seed 003 § Einmischen: 100 Miese for a dealer whose third deal in a row fails.
MIESE: Final = 100
#: Seed 003 § Einmischen: "nach 3 Versuchen".
FAILED_DEALS_LIMIT: Final = 3


class SheetError(KartentischError):
    """A score sheet used against the rules: wrong number of points, a bad Bock factor …"""


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the sheet: a game, or the Miese of a dealer who failed three times.

    ``points`` and ``totals`` have one entry per player; ``multiplier`` is the
    Bock multiplier the game was played under (1 for Miese); ``bocks_added``
    is how many Bock games the row started (0 if it triggered none).
    """

    number: int
    kind: RowKind
    dealer: int
    points: tuple[int, ...]
    multiplier: int
    totals: tuple[int, ...]
    bocks_added: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "dealer": self.dealer,
            "points": list(self.points),
            "multiplier": self.multiplier,
            "totals": list(self.totals),
            "bocks_added": self.bocks_added,
        }


class ScoreSheet:
    """The running score sheet of one session (4 or 5 players).

    ``players`` are the names by seat, clockwise; ``dealer`` is the first
    dealer's seat. ``bock`` turns Böcke on or off (default: on for the house
    rules, off for DDV scoring, which may have them too). ``counting`` is the option of
    that name: what shape a game's points may have (zero-sum, winners only …).
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules = "house",
        *,
        dealer: int = 0,
        bock: bool | None = None,
        bock_rounds: int = 1,
        bock_stacking: Literal["stack", "append"] = "stack",
        counting: Counting = "scoring",
        bock_factor: int = 2,
    ) -> None:
        names = tuple(players)
        if len(names) not in (4, 5):
            raise SheetError(f"a Doppelkopf table has 4 or 5 players, not {len(names)}")
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise SheetError(f"player names must be non-empty text, not {name!r}")
        if len(set(names)) != len(names):
            raise SheetError("two players have the same name")
        if rules not in ("house", "ddv"):
            raise SheetError(f"rules must be 'house' or 'ddv', not {rules!r}")
        if counting not in ("scoring", "zero_sum", "winners", "losers"):
            raise SheetError(f"counting is scoring, zero_sum, winners or losers, not {counting!r}")
        if type(dealer) is not int or not 0 <= dealer < len(names):
            raise SheetError(
                f"the dealer must be a seat from 0 to {len(names) - 1}, not {dealer!r}"
            )
        if bock is None:
            bock = rules == "house"
        if type(bock_rounds) is not int or not 1 <= bock_rounds <= 4:
            raise SheetError(f"Bock rounds must be 1 to 4, not {bock_rounds!r}")
        if bock_stacking not in ("stack", "append"):
            raise SheetError(f"Böcke stack or append, not {bock_stacking!r}")
        if type(bock_factor) is not int or not 2 <= bock_factor <= 4:
            raise SheetError(f"a Bock game multiplies by 2 to 4, not {bock_factor!r}")
        self._factor = bock_factor
        self._bock_rounds = bock_rounds
        self._stacking = bock_stacking
        self._players = names
        self._rules: Rules = rules
        self._counting: Counting = counting
        self._bock = bool(bock)
        self._dealer = dealer
        self._failed = 0
        self._bocks: list[int] = []
        self._rows: list[SheetRow] = []
        self._totals = [0] * len(names)

    # -- reading -------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def bock(self) -> bool:
        """Whether Böcke are played on this sheet."""
        return self._bock

    @property
    def size(self) -> int:
        """Players at the table (4 or 5)."""
        return len(self._players)

    @property
    def dealer(self) -> int:
        """The seat that deals the next game."""
        return self._dealer

    @property
    def failed_deals(self) -> int:
        """Failed deals in a row by the current dealer (0, 1 or 2)."""
        return self._failed

    @property
    def totals(self) -> tuple[int, ...]:
        """Running totals per player."""
        return tuple(self._totals)

    @property
    def rows(self) -> tuple[SheetRow, ...]:
        """Every row so far, oldest first (games and Miese)."""
        return tuple(self._rows)

    @property
    def games_played(self) -> int:
        return sum(1 for r in self._rows if r.kind == "game")

    def sitting_out(self) -> int | None:
        """The seat that sits the next game out (the dealer at a table of 5), or None."""
        return self._dealer if self.size == 5 else None

    def playing_seats(self) -> tuple[int, ...]:
        """The four seats that play the next game, clockwise from the dealer's left.

        At a table of four the dealer plays (last); at a table of five the
        dealer sits out.
        """
        n = self.size
        return tuple((self._dealer + k) % n for k in range(1, 5))

    @property
    def current_multiplier(self) -> int:
        """The Bock multiplier of the next game: factor ** active Bock streams (appended
        Böcke: the factor while any is left); the factor is 2 unless set."""
        if self._stacking == "append":
            return self._factor if self._bocks else 1
        return int(self._factor ** len(self._bocks))

    @property
    def pending_bocks(self) -> tuple[int, ...]:
        """Bock games left in each active stream, oldest trigger first."""
        return tuple(self._bocks)

    def bock_schedule(self) -> tuple[int, ...]:
        """The multipliers of the coming games until the Böcke run out.

        >>> s = ScoreSheet(["A", "B", "C", "D"])
        >>> s._bocks = [2, 4]
        >>> s.bock_schedule()
        (4, 4, 2, 2)
        """
        if self._stacking == "append":
            return (self._factor,) * sum(self._bocks)
        return tuple(
            self._factor ** sum(1 for left in self._bocks if left > k)
            for k in range(max(self._bocks, default=0))
        )

    def bock_summary(self) -> str:
        """A line a UI can show, e.g. ``2 Böcke: ×4 for the next 3 games, then ×2 for 1 game``."""
        if not self._bocks:
            return "no Bock"
        runs: list[tuple[int, int]] = []
        for m in self.bock_schedule():
            if runs and runs[-1][0] == m:
                runs[-1] = (m, runs[-1][1] + 1)
            else:
                runs.append((m, 1))
        count = len(self._bocks)
        head = f"{count} Bock" if count == 1 else f"{count} Böcke"
        parts = []
        for i, (m, games) in enumerate(runs):
            what = f"{games} game" if games == 1 else f"{games} games"
            parts.append(f"×{m} for the next {what}" if i == 0 else f"then ×{m} for {what}")
        return f"{head}: " + ", ".join(parts)

    # -- writing -------------------------------------------------------------

    def record_game(self, score: GameScore) -> SheetRow:
        """Write a scored game: add its points, use up a Bock game, start new Böcke.

        ``score`` must have been computed with :attr:`current_multiplier` as
        its ``bock_multiplier``; its points are written as they are.
        """
        return self.record_points(score.points, bock_trigger=score.bock_trigger)

    def record_points(self, points: Sequence[int], *, bock_trigger: bool = False) -> SheetRow:
        """Write a game's points per player (what :meth:`record_game` does with a score)."""
        pts = tuple(points)
        n = self.size
        if len(pts) != n:
            raise SheetError(f"the game has {len(pts)} points but the sheet has {n} players")
        if not all(type(p) is int for p in pts):
            raise SheetError(f"points must be whole numbers, not {list(pts)!r}")
        out = self.sitting_out()
        if out is not None and pts[out] != 0:
            raise SheetError(
                f"seat {out} ({self._players[out]}) deals and sits this game out; "
                f"its points must be 0, not {pts[out]}"
            )
        self._check_shape(pts)
        multiplier = self.current_multiplier
        # This game uses up one Bock game of every stream (appended: of the first one);
        # a trigger starts a new one.
        if self._stacking == "append":
            if self._bocks:
                self._bocks[0] -= 1
                if not self._bocks[0]:
                    del self._bocks[0]
        else:
            self._bocks = [left - 1 for left in self._bocks if left > 1]
        added = n * self._bock_rounds if (bock_trigger and self._bock) else 0
        if added:
            self._bocks.append(added)
        row = self._write("game", pts, multiplier, added)
        self._failed = 0
        self._dealer = (self._dealer + 1) % n
        return row

    def _check_shape(self, pts: tuple[int, ...]) -> None:
        counting = self._counting
        if counting == "zero_sum" or (counting == "scoring" and self._rules == "ddv"):
            if sum(pts) != 0:
                what = "DDV points" if counting == "scoring" else "zero-sum points"
                raise SheetError(f"{what} add up to 0; these add up to {sum(pts)}")
        elif counting == "winners" and min(pts) < 0:
            raise SheetError(f"only the winners write points, and never below 0: {list(pts)}")
        elif counting == "losers" and max(pts) > 0:
            raise SheetError(f"only the losers write points, and never above 0: {list(pts)}")
        elif counting == "scoring" and sum(1 for p in pts if p) > 2:
            raise SheetError(
                "house points are written to the winners only (at most two players), "
                f"not {list(pts)}"
            )

    def record_failed_deal(self) -> SheetRow | None:
        """A deal failed (Einmischen): the same dealer deals again.

        The third failure in a row costs the dealer 100 Miese (never Bock-
        doubled) and passes the deal on; pending Böcke are not used up.
        Returns the Miese row, or None. Under DDV scoring there are no Miese.
        """
        if self._rules == "ddv":
            return None
        self._failed += 1
        if self._failed < FAILED_DEALS_LIMIT:
            return None
        pts = [0] * self.size
        pts[self._dealer] = -MIESE
        row = self._write("miese", tuple(pts), 1, 0)
        self._failed = 0
        self._dealer = (self._dealer + 1) % self.size
        return row

    def deal_again(self) -> None:
        """The dealer of the last game deals the next one too (TSR: after a Pflichtsolo).

        Böcke used up by that game stay used up.
        """
        if not self._rows or self._rows[-1].kind != "game":
            raise SheetError("deal_again follows a recorded game")
        self._dealer = self._rows[-1].dealer

    def _write(self, kind: RowKind, pts: tuple[int, ...], multiplier: int, added: int) -> SheetRow:
        for i, p in enumerate(pts):
            self._totals[i] += p
        row = SheetRow(
            number=len(self._rows) + 1,
            kind=kind,
            dealer=self._dealer,
            points=pts,
            multiplier=multiplier,
            totals=tuple(self._totals),
            bocks_added=added,
        )
        self._rows.append(row)
        return row

    # -- records ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The sheet as a JSON object (see :meth:`from_dict`)."""
        return {
            "format": SHEET_FORMAT,
            "players": list(self._players),
            "rules": self._rules,
            **({"counting": self._counting} if self._counting != "scoring" else {}),
            **({"bock_rounds": self._bock_rounds} if self._bock_rounds != 1 else {}),
            **({"bock_stacking": self._stacking} if self._stacking != "stack" else {}),
            **({"bock_factor": self._factor} if self._factor != 2 else {}),
            "bock": self._bock,
            "dealer": self._dealer,
            "failed_deals": self._failed,
            "bocks": list(self._bocks),
            "rows": [r.to_dict() for r in self._rows],
            "totals": list(self._totals),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoreSheet:
        """Read a sheet written by :meth:`to_dict`; any problem is a :class:`RecordError`."""
        if not isinstance(data, Mapping):
            raise RecordError("a score sheet must be a JSON object")
        if data.get("format") != SHEET_FORMAT:
            raise RecordError(f'a score sheet needs "format": "{SHEET_FORMAT}"')
        players = _field(data, "players", list)
        rules = _field(data, "rules", str)
        bock = _field(data, "bock", bool)
        counting = data.get("counting", "scoring")
        try:
            sheet = cls(
                players,
                rules,
                bock=bock,
                counting=counting,
                bock_rounds=data.get("bock_rounds", 1),
                bock_stacking=data.get("bock_stacking", "stack"),
                bock_factor=data.get("bock_factor", 2),
            )
        except SheetError as exc:
            raise RecordError(f"score sheet: {exc}") from None
        n = sheet.size
        dealer = _field(data, "dealer", int)
        failed = _field(data, "failed_deals", int)
        bocks = _field(data, "bocks", list)
        if not 0 <= dealer < n:
            raise RecordError(f'"dealer" must be a seat from 0 to {n - 1}')
        if not 0 <= failed < FAILED_DEALS_LIMIT:
            raise RecordError(f'"failed_deals" must be 0 to {FAILED_DEALS_LIMIT - 1}')
        most = n * sheet._bock_rounds
        if not all(type(b) is int and 1 <= b <= most for b in bocks):
            raise RecordError(f'"bocks" must list Bock games left per stream, each 1 to {most}')
        if bocks and not sheet.bock:
            raise RecordError('"bocks" must be empty on a sheet without Böcke')
        totals = [0] * n
        rows: list[SheetRow] = []
        for i, raw in enumerate(_field(data, "rows", list), start=1):
            where = f"row {i}"
            if not isinstance(raw, Mapping):
                raise RecordError(f"{where} must be an object")
            kind = _field(raw, "kind", str, where)
            if kind not in ("game", "miese"):
                raise RecordError(f'{where}: "kind" must be "game" or "miese"')
            number = _field(raw, "number", int, where)
            row_dealer = _field(raw, "dealer", int, where)
            pts = _field(raw, "points", list, where)
            mult = _field(raw, "multiplier", int, where)
            added = _field(raw, "bocks_added", int, where) if "bocks_added" in raw else 0
            if number != i:
                raise RecordError(f'{where}: "number" must be {i}')
            if not 0 <= row_dealer < n:
                raise RecordError(f'{where}: "dealer" must be a seat from 0 to {n - 1}')
            if len(pts) != n or not all(type(p) is int for p in pts):
                raise RecordError(f'{where}: "points" must list {n} whole numbers')
            if not is_power(mult, sheet._factor):
                raise RecordError(f'{where}: "multiplier" must be a power of {sheet._factor}')
            if added not in (0, n * sheet._bock_rounds):
                raise RecordError(f'{where}: "bocks_added" must be 0 or {n * sheet._bock_rounds}')
            totals = [t + p for t, p in zip(totals, pts, strict=True)]
            if "totals" in raw and list(raw["totals"]) != totals:
                raise RecordError(f'{where}: "totals" do not add up to the points so far')
            rows.append(SheetRow(i, kind, row_dealer, tuple(pts), mult, tuple(totals), added))
        if "totals" in data and list(data["totals"]) != totals:
            raise RecordError('"totals" do not add up to the rows')
        sheet._dealer = dealer
        sheet._failed = failed
        sheet._bocks = list(bocks)
        sheet._rows = rows
        sheet._totals = totals
        return sheet


def _field(data: Mapping[str, Any], name: str, kind: type, where: str = "score sheet") -> Any:
    if name not in data:
        raise RecordError(f'{where}: field "{name}" is missing')
    value = data[name]
    if kind is int and (type(value) is not int):
        raise RecordError(f'{where}: field "{name}" must be a whole number')
    if not isinstance(value, kind):
        raise RecordError(f'{where}: field "{name}" must be {kind.__name__}')
    return value
