"""Slobberhannes at a web table: a whole match, deals following one another.

The view of a seat is built from the current deal's
:meth:`~kartentisch.games.slobberhannes.deal.SlobberhannesDeal.observation`
(the hand and the legal cards of that seat only) plus what is public: the
penalties, the running totals and the finished deals trick by trick.

**The cut** (the Russian preset, option ``cut``): before every deal the seat
to the dealer's right cuts the shuffled deck, as in the terminal game. That
seat is the one in :attr:`SlobberhannesTable.acting`; its legal actions are
``cut 1`` … ``cut 31`` (how many cards it lifts off the top; one card fewer
per card removed from the deck), and the stored action is the cut. A bot, or
a person whose turn timer ran out or who is away, cuts at a place drawn from
the table's seed and the deal's number (:meth:`SlobberhannesTable.bot_action`),
so replaying the stored actions deals the same cards.

>>> options = TABLE_GAME.normalize_options({"preset": "russian"}, seats=4)
>>> game = TABLE_GAME.create(options, ["Ann", "Ben", "Cyd", "Dora"], seed=3)
>>> cutter = game.acting[0]
>>> game.view(None)["cut"] == {"seat": cutter, "dealer": (cutter + 1) % 4, "deal": 1, "max": 31}
True
>>> game.legal(cutter)[:2], game.legal((cutter + 1) % 4)
(['cut 1', 'cut 2'], [])
>>> game.act(cutter, "cut 12")
>>> game.actions == [(cutter, "cut 12")], game.view(None)["cut"]
(True, None)
>>> game.view(None)["cuts"] == [{"deal": 1, "seat": cutter, "n": 12}]
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.bots import LEVELS
from kartentisch.cards import Card
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError, NotationError, OptionError
from kartentisch.games.slobberhannes.deal import (
    DealEnded,
    PenaltyCharged,
    SlobberhannesDeal,
    SlobberhannesObservation,
    TrickWon,
)
from kartentisch.games.slobberhannes.explain import explain_deal
from kartentisch.games.slobberhannes.match import MatchEnded, SlobberhannesMatch
from kartentisch.games.slobberhannes.options import PRESETS, SCHEMA, SlobberhannesOptions
from kartentisch.tricks import PlayedTrick
from kartentisch.web.adapter import attach_by, replay_actions
from kartentisch.web.statepatch import reuse_equal
from kartentisch.web.wire import dumps, members, object_text, object_with

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


#: The members of a view before the deal's shared ones (:meth:`SlobberhannesTable.view`).
_OWN_DEAL_KEYS: Final = ("deal_number", "dealer", "to_move", "hand", "legal")

#: A cut as a player sends it and as the store keeps it: ``cut 12``.
_CUT = re.compile(r"\s*cut\s+(\d{1,3})\s*", re.IGNORECASE)


def _trick(trick: PlayedTrick) -> dict[str, Any]:
    return dict(trick.to_dict())


def _public(events: Sequence[Event]) -> list[dict[str, Any]]:
    """What a card caused, for the game log: trick won, penalties, the deal's and match's end."""
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, TrickWon):
            out.append({"type": "trick_won", "trick": event.trick, "seat": event.seat})
        elif isinstance(event, PenaltyCharged):
            out.append(
                {
                    "type": "penalty",
                    "seat": event.seat,
                    "reason": event.reason,
                    "chips": event.chips,
                    "trick": event.trick,
                }
            )
        elif isinstance(event, DealEnded):
            out.append({"type": "deal_ended", "points": list(event.points)})
        elif isinstance(event, MatchEnded):
            out.append(
                {
                    "type": "match_ended",
                    "losers": list(event.losers),
                    "winners": list(event.winners),
                }
            )
    return out


class SlobberhannesTable:
    """A :class:`~kartentisch.web.adapter.TableGame` over a :class:`SlobberhannesMatch`."""

    game: ClassVar[str] = "slobberhannes"

    def __init__(self, options: SlobberhannesOptions, names: Sequence[str], seed: int) -> None:
        self.seed = seed
        #: Whether every deal waits for a cut (then the adapter starts each deal itself).
        self.cutting = options.cut
        self.match = SlobberhannesMatch(options, seats=names, seed=seed, start=not options.cut)
        self._actions: list[tuple[int, str]] = []
        #: The seat that cut each deal (None where nobody did).
        self._cutters: list[int | None] = []
        #: Summaries of finished deals (they never change), sent in every view.
        self._summaries: dict[int, tuple[SlobberhannesDeal, dict[str, Any]]] = {}
        #: The game log: one public entry per action (:meth:`log_entries`).
        self._log: list[dict[str, Any]] = []
        #: (version, deal number) of the action that ended the last finished deal.
        self._deal_ended: tuple[int, int] | None = None
        #: The parts of every seat's view that are the same for all, made once per version
        #: (:meth:`_shared_view`): (version, deal part or None while cutting, match part).
        self._shared: tuple[int, dict[str, Any] | None, dict[str, Any]] | None = None
        #: The same parts' JSON texts (members without braces), made once per version
        #: (:meth:`encoded_view`): (version, the deal's shared members, the match's).
        self._shared_text: tuple[int, str, str] | None = None
        #: Each seat's hand and legal cards as last shown: kept while they are the same,
        #: so that a state patch passes them over as the very same lists.
        self._own: dict[int, dict[str, Any]] = {}
        #: The finished deals' summaries as the match part lists them, and their JSON
        #: text: made anew only when a deal ends (:meth:`_match_text`).
        self._deals_text: tuple[list[dict[str, Any]], str] | None = None
        #: The options as a view shows them (they never change).
        self._options_json: dict[str, Any] = self.match.options.to_dict()

    # -- the cut --------------------------------------------------------------

    @property
    def cutter(self) -> int | None:
        """The seat due to cut the next deal now, or None."""
        match = self.match
        if not self.cutting or match.is_over or (match.deals and not match.deal.is_over):
            return None
        return (match.next_dealer - 1) % match.options.players

    @property
    def deck_size(self) -> int:
        return len(self.match.options.deck())

    def bot_action(self, seat: int) -> str | None:
        """What the table does for a bot (or an absent person) without asking it: the cut.

        The place is drawn from the table's seed and the deal's number: the
        same whenever it is asked, so a late answer never differs. Otherwise
        None: the seat's bot chooses from its observation.
        """
        if seat != self.cutter:
            return None
        draw = random.Random(f"cut {self.seed} {len(self.match.deals)}")
        return f"cut {draw.randrange(1, self.deck_size)}"

    def _cut(self, seat: int, text: str) -> None:
        cutter = self.cutter
        found = _CUT.fullmatch(text)
        if cutter is None:
            raise IllegalActionError("no_cut", "nobody cuts now", seat=seat, text=text)
        if seat != cutter:
            raise IllegalActionError("not_your_turn", "it is not your cut", seat=seat)
        if found is None:
            raise IllegalActionError("cut_first", "the deck must be cut first", seat=seat)
        high = self.deck_size - 1
        lifted = int(found[1])
        if not 1 <= lifted <= high:
            raise IllegalActionError(
                "bad_cut", f"a cut lifts 1 to {high} cards", seat=seat, low=1, high=high
            )
        self.match.start_deal(cut=lifted)
        self._cutters.append(seat)
        self._actions.append((seat, f"cut {lifted}"))
        self._log.append(
            {"seat": seat, "action": f"cut {lifted}", "events": [], "deal": len(self.match.deals)}
        )

    # -- the adapter API ----------------------------------------------------

    @property
    def version(self) -> int:
        return len(self._actions)

    @property
    def acting(self) -> tuple[int, ...]:
        cutter = self.cutter
        if cutter is not None:
            return (cutter,)
        seat = self.match.to_move
        return () if seat is None else (seat,)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def between_deals(self) -> int | None:
        """The number of the deal just finished while nothing of the next one has happened
        (not even its cut); None during a deal and once the match is over."""
        ended = self._deal_ended
        if ended is None or ended[0] != self.version or self.match.is_over:
            return None
        return ended[1]

    @property
    def actions(self) -> list[tuple[int, str]]:
        return list(self._actions)

    def legal(self, seat: int) -> list[str]:
        cutter = self.cutter
        if cutter is not None:
            return [f"cut {n}" for n in range(1, self.deck_size)] if seat == cutter else []
        if self.match.to_move != seat:
            return []
        return [str(c) for c in self.match.legal_actions()]

    def act(self, seat: int, text: str) -> None:
        match = self.match
        if match.is_over:
            raise IllegalActionError("match_over", "the match is over", seat=seat)
        if self.cutter is not None or _CUT.fullmatch(text):
            self._cut(seat, text)
            return
        deal = match.deal
        try:
            card = deal.parse_action(text)
        except NotationError as exc:
            raise IllegalActionError("bad_notation", str(exc), seat=seat, text=text) from None
        number = len(match.deals)
        # With the cut the next deal waits for it; else it starts by itself (match.play).
        events = match.apply(card, seat) if self.cutting else match.play(card, seat)
        self._actions.append((seat, str(card)))
        self._log.append(
            {"seat": seat, "action": str(card), "events": _public(events), "deal": number}
        )
        if match.deal.is_over or len(match.deals) > number:
            self._deal_ended = (self.version, number)

    def log_entries(self, start: int = 0) -> list[dict[str, Any]]:
        """The game log from action ``start`` on: who did what, and what followed.

        Only what everyone saw: the card played (or the cut), the trick's winner,
        the penalties charged, the deal's and the match's end.
        """
        return self._log[start:]

    def observation(self, seat: int) -> SlobberhannesObservation:
        if not self.match.deals:
            raise ValueError("no deal yet: the deck is being cut")
        return self.match.deal.observation(seat)

    def format_action(self, action: Any) -> str:
        if not isinstance(action, Card):
            raise TypeError(f"a Slobberhannes action is a card, not {action!r}")
        return str(action)

    def encoded_view(self, seat: int | None) -> tuple[dict[str, Any], str]:
        """:meth:`view` and its JSON text (as :func:`~kartentisch.web.wire.dumps` writes
        it), the parts every seat shares encoded once per version."""
        view = self.view(seat)
        version, shared_deal, shared_match = self._shared_view()
        kept = self._shared_text
        if kept is None or kept[0] != version:
            deal_text = "" if shared_deal is None else members(dumps(shared_deal["rest"]))
            kept = self._shared_text = (version, deal_text, self._match_text(shared_match))
        _, deal_text, match_text = kept
        if shared_deal is None:
            own = members(dumps({k: v for k, v in view.items() if k not in shared_match}))
            return view, object_text((), own, match_text)
        own = members(dumps({key: view[key] for key in _OWN_DEAL_KEYS}))
        seat_text = f'"game": {dumps(self.game)}, "seat": {dumps(seat)}'
        return view, object_text((), own, deal_text, seat_text, match_text)

    def _match_text(self, shared_match: dict[str, Any]) -> str:
        """``members(dumps(shared_match))``, the finished deals' part (the longest, and
        the same from one deal's end to the next) encoded once per finished deal."""
        deals: list[dict[str, Any]] = shared_match["deals"]
        kept = self._deals_text
        if (
            kept is None
            or len(kept[0]) != len(deals)
            or any(a is not b for a, b in zip(kept[0], deals, strict=True))
        ):
            kept = self._deals_text = (deals, dumps(deals))
        return members(object_with(shared_match, "deals", kept[1]))

    def view(self, seat: int | None) -> dict[str, Any]:
        _, shared_deal, shared_match = self._shared_view()
        view: dict[str, Any]
        if shared_deal is None:
            cutter = self.cutter
            assert cutter is not None
            view = self._cut_view(seat, cutter)
        else:
            # Only the hand and the legal cards are the seat's own; the rest is shared
            # (read only) by every seat's view of this version, in the same order as ever.
            deal = self.match.deal
            moving = seat is not None and deal.to_move == seat
            own = {
                "hand": [str(c) for c in deal.hand(seat)] if seat is not None else None,
                "legal": [str(c) for c in deal.legal_actions()] if moving else [],
            }
            if seat is not None:
                reuse_equal(self._own.get(seat), own)
                self._own[seat] = own
            view = {
                "deal_number": shared_deal["deal_number"],
                "dealer": shared_deal["dealer"],
                "to_move": shared_deal["to_move"],
                **own,
                **shared_deal["rest"],
            }
        view["game"] = self.game
        view["seat"] = seat
        view.update(shared_match)
        return view

    def _shared_view(self) -> tuple[int, dict[str, Any] | None, dict[str, Any]]:
        """What every seat's view of this version shares: made once per version."""
        kept = self._shared
        version = self.version
        if kept is not None and kept[0] == version:
            return kept
        match = self.match
        shared_deal: dict[str, Any] | None = None
        if self.cutter is None:
            deal = match.deal
            # The public part of the deal: a spectator's view of seat 0's observation.
            obs = deal.observation(0)
            last_trick: dict[str, Any] | None = None
            if obs.tricks:
                last_trick = _trick(obs.tricks[-1])
            elif not obs.trick.cards and len(match.deals) > 1:
                last_trick = _trick(match.deals[-2].tricks[-1])
            shared_deal = {
                "deal_number": len(match.deals),
                "dealer": obs.dealer,
                "to_move": obs.to_move if not match.is_over else None,
                "rest": {
                    "hand_sizes": list(obs.hand_sizes),
                    "trick": _trick(obs.trick),
                    "trick_number": obs.trick_number,
                    "last_trick": last_trick,
                    "tricks_per_deal": obs.tricks_per_deal,
                    "penalties": list(obs.penalties),
                    "penalty_events": self._penalties(deal),
                    "cut": None,
                },
            }
        finished = [d for d in match.deals if d.is_over]
        shared_match: dict[str, Any] = {
            "players": match.options.players,
            "names": list(match.seat_names),
            "version": version,
            "cuts": self._cuts(),
            "totals": list(match.totals()),
            "team_totals": list(match.team_totals()),
            "teams": [list(t) for t in match.options.teams()],
            "chips": list(match.chips()),
            "target": match.options.target,
            # The effective rule: options only name what differs from their preset.
            "scoring": match.options.scoring,
            "options": self._options_json,
            "deals": [self._deal_summary(i + 1, d) for i, d in enumerate(finished)],
            "over": match.is_over,
            "result": None,
        }
        if match.result is not None:
            result = match.result
            shared_match["result"] = {
                "totals": list(result.totals),
                "losers": list(result.losers),
                "winners": list(result.winners),
                "settlement": list(result.settlement),
            }
        if match.draw is not None:
            shared_match["draw"] = match.draw.to_dict()
        if kept is not None:
            # What did not change is the same object as before: a state patch passes it
            # over at once (web/statepatch.py).
            reuse_equal(kept[2], shared_match)
            if kept[1] is not None and shared_deal is not None:
                reuse_equal(kept[1]["rest"], shared_deal["rest"])
        kept = self._shared = (version, shared_deal, shared_match)
        return kept

    def record(self, *, complete: bool, by: Sequence[str] | None = None) -> dict[str, Any]:
        record = self.match.to_record()
        if not complete and not self.match.is_over:
            # The deal in progress has hidden hands: give only the finished deals. The
            # seed would deal every hand again: it is told once the game is over.
            record["deals"] = [d.deal_record() for d in self.match.deals if d.is_over]
            record.pop("seed", None)
        if by is not None:
            # A cut is no action of the record (its hands are the cut deck's).
            played = [
                who
                for (_, text), who in zip(self._actions, by, strict=False)
                if not text.startswith("cut ")
            ]
            attach_by(record, played)
        return record

    # -- helpers -------------------------------------------------------------

    def _cut_view(self, seat: int | None, cutter: int) -> dict[str, Any]:
        """Between deals, while the deck waits for its cut: nobody holds cards."""
        match = self.match
        players = match.options.players
        dealer = match.next_dealer
        number = len(match.deals) + 1
        last = match.deals[-1] if match.deals else None
        return {
            "deal_number": number,
            "dealer": dealer,
            "to_move": cutter,
            "hand": [] if seat is not None else None,
            "legal": self.legal(seat) if seat is not None else [],
            "hand_sizes": [0] * players,
            "trick": {"leader": (dealer + 1) % players, "seats": [], "cards": [], "winner": None},
            "trick_number": 1,
            "last_trick": _trick(last.tricks[-1]) if last is not None and last.tricks else None,
            "tricks_per_deal": self.deck_size // players,
            "penalties": [0] * players,
            "penalty_events": [],
            "cut": {"seat": cutter, "dealer": dealer, "deal": number, "max": self.deck_size - 1},
        }

    def _cuts(self) -> list[dict[str, Any]]:
        """Every cut so far: the deal, who cut and how many cards were lifted."""
        if not self.cutting:
            return []
        return [
            {"deal": i + 1, "seat": seat, "n": n}
            for i, (seat, n) in enumerate(zip(self._cutters, self.match.cuts, strict=True))
            if seat is not None and n is not None
        ]

    @staticmethod
    def _penalties(deal: SlobberhannesDeal) -> list[dict[str, Any]]:
        return [
            {"seat": p.seat, "reason": p.reason, "chips": p.chips, "trick": p.trick}
            for p in deal.penalties()
        ]

    def _deal_summary(self, number: int, deal: SlobberhannesDeal) -> dict[str, Any]:
        """A finished deal for the review, made once (views share it: read only)."""
        kept = self._summaries.get(number)
        if kept is not None and kept[0] is deal:
            return kept[1]
        summary = {
            "number": number,
            "dealer": deal.dealer,
            "tricks": [_trick(t) for t in deal.tricks],
            "points": list(deal.points()),
            "penalties": self._penalties(deal),
            "explain": explain_deal(deal),
        }
        self._summaries[number] = (deal, summary)
        return summary


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
            raise OptionError(
                "options must be a JSON object of option names and values", "not_object"
            )
        given = dict(options or {})
        if "players" in given and given["players"] != seats:
            raise OptionError(
                f"players is {given['players']!r} but the table has {seats} seats",
                "players_mismatch",
                value=str(given["players"])[:40],
                seats=seats,
            )
        given["players"] = seats
        # The game's schema checks every option (SCHEMA in the game's options).
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
        return replay_actions(self.create(options, names, seed), actions)

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
            | {"target": {**SCHEMA.option("target").describe(), "default": defaults.target}},
        }


TABLE_GAME: Final = SlobberhannesTableType()
