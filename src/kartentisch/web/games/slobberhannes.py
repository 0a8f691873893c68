"""Slobberhannes at a web table: a whole match, deals following one another.

The view of a seat is built from the current deal's
:meth:`~kartentisch.games.slobberhannes.deal.SlobberhannesDeal.observation`
(the hand and the legal cards of that seat only) plus what is public: the
penalties, the running totals and the finished deals trick by trick.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.bots import LEVELS
from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError, NotationError, OptionError
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal, SlobberhannesObservation
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.games.slobberhannes.options import PRESETS, SlobberhannesOptions
from kartentisch.tricks import PlayedTrick

__all__ = ["TABLE_GAME", "SlobberhannesTable", "SlobberhannesTableType"]

#: Options the lobby offers, with their choices (the rest keep their preset's value).
_OPTION_CHOICES: Final[dict[str, list[Any]]] = {
    "revokes": ["forbidden", "penalty"],
    "all_three_bonus": [True, False],
    "ending": ["first_to_target", "fewest_wins"],
    "scoring": ["chips", "sheet"],
    "partnership": [False, True],
    "first_dealer": ["random", "draw"],
}


def _trick(trick: PlayedTrick) -> dict[str, Any]:
    return dict(trick.to_dict())


class SlobberhannesTable:
    """A :class:`~kartentisch.web.adapter.TableGame` over a :class:`SlobberhannesMatch`."""

    game: ClassVar[str] = "slobberhannes"

    def __init__(self, options: SlobberhannesOptions, names: Sequence[str], seed: int) -> None:
        # A cut is a question to a person in the terminal; at a web table nobody cuts.
        options = dataclasses.replace(options, cut=False) if options.cut else options
        self.match = SlobberhannesMatch(options, seats=names, seed=seed)
        self._actions: list[tuple[int, str]] = []

    # -- the adapter API ----------------------------------------------------

    @property
    def version(self) -> int:
        return len(self._actions)

    @property
    def acting(self) -> tuple[int, ...]:
        seat = self.match.to_move
        return () if seat is None else (seat,)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def actions(self) -> list[tuple[int, str]]:
        return list(self._actions)

    def legal(self, seat: int) -> list[str]:
        if self.match.to_move != seat:
            return []
        return [str(c) for c in self.match.legal_actions()]

    def act(self, seat: int, text: str) -> None:
        match = self.match
        if match.is_over:
            raise IllegalActionError("match_over", "the match is over", seat=seat)
        deal = match.deal
        try:
            card = deal.parse_action(text)
        except NotationError as exc:
            raise IllegalActionError("bad_notation", str(exc), seat=seat, text=text) from None
        # The next deal starts by itself once this one ends (match.play).
        match.play(card, seat)
        self._actions.append((seat, str(card)))

    def observation(self, seat: int) -> SlobberhannesObservation:
        return self.match.deal.observation(seat)

    def format_action(self, action: Any) -> str:
        if not isinstance(action, Card):
            raise TypeError(f"a Slobberhannes action is a card, not {action!r}")
        return str(action)

    def view(self, seat: int | None) -> dict[str, Any]:
        match = self.match
        deal = match.deal
        players = match.options.players
        # A spectator's view starts from seat 0's observation with everything private removed.
        obs = deal.observation(0 if seat is None else seat)
        finished = [d for d in match.deals if d.is_over]
        last_trick: dict[str, Any] | None = None
        if obs.tricks:
            last_trick = _trick(obs.tricks[-1])
        elif not obs.trick.cards and len(match.deals) > 1:
            last_trick = _trick(match.deals[-2].tricks[-1])
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "players": players,
            "names": list(match.seat_names),
            "version": self.version,
            "deal_number": len(match.deals),
            "dealer": obs.dealer,
            "to_move": obs.to_move if not match.is_over else None,
            "hand": [str(c) for c in obs.hand] if seat is not None else None,
            "legal": [str(c) for c in obs.legal_actions] if seat is not None else [],
            "hand_sizes": list(obs.hand_sizes),
            "trick": _trick(obs.trick),
            "trick_number": obs.trick_number,
            "last_trick": last_trick,
            "tricks_per_deal": obs.tricks_per_deal,
            "penalties": list(obs.penalties),
            "penalty_events": self._penalties(deal),
            "totals": list(match.totals()),
            "team_totals": list(match.team_totals()),
            "teams": [list(t) for t in match.options.teams()],
            "chips": list(match.chips()),
            "target": match.options.target,
            "options": match.options.to_dict(),
            "deals": [self._deal_summary(i + 1, d) for i, d in enumerate(finished)],
            "over": match.is_over,
            "result": None,
        }
        if match.result is not None:
            result = match.result
            view["result"] = {
                "totals": list(result.totals),
                "losers": list(result.losers),
                "winners": list(result.winners),
                "settlement": list(result.settlement),
            }
        if match.draw is not None:
            view["draw"] = match.draw.to_dict()
        return view

    def record(self, *, complete: bool) -> dict[str, Any]:
        record = self.match.to_record()
        if not complete and not self.match.is_over:
            # The deal in progress has hidden hands: give only the finished deals.
            record["deals"] = [d.deal_record() for d in self.match.deals if d.is_over]
        return record

    # -- helpers -------------------------------------------------------------

    @staticmethod
    def _penalties(deal: SlobberhannesDeal) -> list[dict[str, Any]]:
        return [
            {"seat": p.seat, "reason": p.reason, "chips": p.chips, "trick": p.trick}
            for p in deal.penalties()
        ]

    def _deal_summary(self, number: int, deal: SlobberhannesDeal) -> dict[str, Any]:
        return {
            "number": number,
            "dealer": deal.dealer,
            "tricks": [_trick(t) for t in deal.tricks],
            "points": list(deal.points()),
            "penalties": self._penalties(deal),
        }


class SlobberhannesTableType:
    """Lobby metadata and factory of Slobberhannes tables."""

    name = "slobberhannes"
    titles: Mapping[str, str] = {
        "en": "Slobberhannes",
        "de": "Slobberhannes",
        "ru": "Слобберханнс",
    }
    min_seats = 3
    max_seats = 7
    bot_levels: tuple[str, ...] = LEVELS["slobberhannes"]
    #: Quick and sensible; the strong bot thinks up to a second or two per card.
    default_bot_level = "heuristic"
    presets: Mapping[str, Mapping[str, Any]] = PRESETS

    def normalize_options(self, options: Mapping[str, Any] | None, *, seats: int) -> dict[str, Any]:
        if options is not None and not isinstance(options, Mapping):
            raise OptionError("options must be a JSON object of option names and values")
        given = dict(options or {})
        if "players" in given and given["players"] != seats:
            raise OptionError(f"players is {given['players']!r} but the table has {seats} seats")
        given["players"] = seats
        return SlobberhannesOptions.from_dict(given).to_dict()

    def create(
        self, options: Mapping[str, Any], names: Sequence[str], seed: int
    ) -> SlobberhannesTable:
        return SlobberhannesTable(SlobberhannesOptions.from_dict(options), names, seed)

    def replay(
        self,
        options: Mapping[str, Any],
        names: Sequence[str],
        seed: int,
        actions: Sequence[tuple[int, str]],
    ) -> SlobberhannesTable:
        game = self.create(options, names, seed)
        for seat, text in actions:
            game.act(seat, text)
        return game

    def describe(self) -> dict[str, Any]:
        defaults = SlobberhannesOptions()
        return {
            "name": self.name,
            "titles": dict(self.titles),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "default_seats": 4,
            "bot_levels": list(self.bot_levels),
            "default_bot_level": self.default_bot_level,
            "presets": {name: dict(values) for name, values in self.presets.items()},
            "options": {
                name: {"choices": choices, "default": getattr(defaults, name)}
                for name, choices in _OPTION_CHOICES.items()
            }
            | {"target": {"min": 1, "max": 100, "default": defaults.target}},
        }


TABLE_GAME: Final = SlobberhannesTableType()
