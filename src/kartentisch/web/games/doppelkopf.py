"""Doppelkopf at a web table: a session of games on one score sheet.

The table plays a :class:`~kartentisch.games.doppelkopf.match.DoppelkopfMatch`
for a fixed number of games (the web option ``games``; default two rounds,
one deal per player and round). A deal that is thrown in (five kings, a
refused Armut) is dealt again by the same dealer at once, and so is the next
deal after a scored game, until the last game is on the sheet.

Who may act: the seat to move (a declaration, an Armut answer or exchange, a
card) is the only one in :attr:`DoppelkopfTable.acting`, the seat the table
waits for. Announcements (and the Kulanz take-back in table mode) may come
from any seat at any time: :meth:`DoppelkopfTable.legal` lists them for
every seat that may make them, and :meth:`DoppelkopfTable.act` takes them
from any seat.

The declarations are one question per person and deal
(:mod:`kartentisch.games.doppelkopf.question`): the view's ``question`` is
what the seat is asked ("Gesund", or "Vorbehalt" and which reservation),
:meth:`DoppelkopfTable.act` takes the answer (``gesund``, ``vorbehalt solo
queens``, ``vorbehalt scharfe aces + hochzeit``) and applies the engine action
it gives in the round being asked, and :meth:`DoppelkopfTable.forced_action`
is the engine action the table applies for the seat in each later round (or
in a round whose only answer is ``pass``). Only engine actions are stored,
one per version. Bots answer the engine's rounds themselves, as before.

Views come from the engine's observation only: a seat sees its own
hand, what was said and played, the open hand of an ouvert soloist and, if
it took part, the Armut cards. The members every seat sees alike come from the
observation's public part (``public_part``), made and JSON-encoded once per
version; a seat's own (hand, legal actions, question, the game, trumps, pigs
and Armut cards as it knows them, its party) from its part (``seat_part``).
A spectator sees the public part alone.

>>> kind = TABLE_GAME
>>> options = kind.normalize_options({"preset": "ddv"}, seats=4)
>>> options["games"], options["preset"]
(8, 'ddv')
>>> game = kind.create(options, ["Ann", "Ben", "Cyd", "Dora"], seed=7)
>>> seat = game.acting[0]
>>> game.legal(seat)[:2]
['pass', 'vorbehalt']
>>> game.view(seat)["question"]["gesund"], game.view(seat)["question"]["vorbehalt"]
(True, True)
>>> game.act(seat, "gesund")
>>> game.actions == [(seat, "pass")], game.view(None)["hand"]
(True, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from kartentisch.bots import LEVELS
from kartentisch.cards import Card
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError, NotationError, OptionError
from kartentisch.games.doppelkopf.actions import Call, parse_action
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.events import (
    Announced,
    AnnouncementTakenBack,
    ArmutAnswered,
    ArmutCardsPassed,
    ArmutOffered,
    CardTakenBack,
    DealEnded,
    Declared,
    HochzeitAlone,
    HochzeitPartnerFound,
    PigsShown,
    PlayStarted,
    Redeal,
    TrickWon,
)
from kartentisch.games.doppelkopf.explain import explain_deal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch, SheetWritten
from kartentisch.games.doppelkopf.observation import (
    DoppelkopfObservation,
    PublicObservation,
    public_part,
    seat_part,
)
from kartentisch.games.doppelkopf.options import PRESETS, DoppelkopfOptions
from kartentisch.games.doppelkopf.question import Answer, Answers, Question
from kartentisch.options import Option
from kartentisch.tricks import PlayedTrick
from kartentisch.web.adapter import attach_by, replay_actions
from kartentisch.web.statepatch import reuse_equal
from kartentisch.web.wire import dumps, object_with
from kartentisch.web.wire import members as members_text

__all__ = ["TABLE_GAME", "DoppelkopfTable", "DoppelkopfTableType"]

#: A session is this many rounds (every player deals once per round) unless ``games`` says.
DEFAULT_ROUNDS: Final = 2
MAX_GAMES: Final = 100
#: How many games a table's session has: the web's own option, beside the game's schema.
GAMES: Final = Option("games", "whole", low=1, high=MAX_GAMES)

#: Options the lobby offers, with their choices (the rest keep their preset's value).
_OPTION_CHOICES: Final[dict[str, list[Any]]] = {
    "nines": [False, True],
    "scharfe": [True, False],
    "ouvert": [True, False],
    "hochzeit": ["choice", "first_trick"],
    "armut": [True, False],
    "pflichtsolo": [False, True],
    "announcements": ["ten_cards", "ddv"],
    "rot_geht_rum": ["extra_point", "bock", "off"],
    "bock": [True, False],
    "table_mode": [False, True],
}


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _trick(trick: PlayedTrick) -> dict[str, Any]:
    return dict(trick.to_dict())


def _pigs(pigs: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    return [{"seat": s, "kind": k} for s, k in pigs]


def _is_scalar(value: object) -> bool:
    return value is None or type(value) in (str, int, bool)


#: The members of a view in their order, in runs: (True: shared by every seat's view
#: of a version, False: the seat's own) and the keys of the run.
_LAYOUT: Final[tuple[tuple[bool, tuple[str, ...]], ...]] = (
    (False, ("game", "seat")),
    (
        True,
        (
            "players",
            "names",
            "version",
            "deal_number",
            "game_number",
            "games",
            "dealer",
            "playing",
            "phase",
            "declaration_round",
        ),
    ),
    (False, ("question", "answer", "auto")),
    (True, ("to_move",)),
    (False, ("hand", "legal")),
    (True, ("hand_sizes",)),
    (False, ("trumps",)),
    (True, ("declarations",)),
    (False, ("game_type",)),
    (True, ("ouvert",)),
    (False, ("soloist", "open_hand")),
    (True, ("hochzeit",)),
    (False, ("armut",)),
    (True, ("scharfe", "vorfuehrung")),
    (False, ("pigs",)),
    (
        True,
        (
            "trick",
            "tricks",
            "trick_number",
            "tricks_per_deal",
            "tricks_won",
            "announcements",
        ),
    ),
    (False, ("party",)),
    (
        True,
        ("parties", "bock", "sheet", "deals", "rules", "options", "over", "result"),
    ),
)


class _SharedView(NamedTuple):
    """The parts of a version's views made once (:meth:`DoppelkopfTable._shared_view`)."""

    version: int
    #: The public part of the deal's observation.
    public: PublicObservation
    #: The members every seat's view shares (read only).
    members: dict[str, Any]
    #: Each shared run's members as JSON text, by the run's first key.
    texts: dict[str, str]
    #: A spectator's own members: the public part's (read only).
    public_own: dict[str, Any]
    #: Each of those as a JSON member (``"key": value``).
    public_texts: dict[str, str]


def _unique_names(names: Sequence[str]) -> list[str]:
    """Seat names as the score sheet needs them: distinct (a second "Ann" is "Ann 2")."""
    out: list[str] = []
    for name in names:
        candidate, n = name, 2
        while candidate in out:
            candidate, n = f"{name} {n}", n + 1
        out.append(candidate)
    return out


def _log_entry(seat: int, action: Any, events: Sequence[Event], deal: int) -> dict[str, Any]:
    """One action for the game log: what everyone heard and saw, never a hidden card."""
    text = str(action)
    if isinstance(action, Call) and action.word in ("give", "return"):
        text = action.word  # the cards go face down
    public: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, Declared):
            text = event.call  # as the table heard it (a Scharfe names what it shows)
        elif isinstance(event, TrickWon):
            public.append(
                {
                    "type": "trick_won",
                    "trick": event.trick,
                    "seat": event.seat,
                    "augen": event.augen,
                }
            )
        elif isinstance(event, Announced):
            public.append(
                {
                    "type": "announced",
                    "seat": event.seat,
                    "party": event.party,
                    "word": event.word,
                    "implied": list(event.implied),
                }
            )
        elif isinstance(event, AnnouncementTakenBack):
            public.append(
                {"type": "announcement_taken_back", "seat": event.seat, "word": event.word}
            )
        elif isinstance(event, CardTakenBack):
            public.append({"type": "card_taken_back", "seat": event.seat, "card": str(event.card)})
        elif isinstance(event, Redeal):
            public.append({"type": "redeal", "reason": event.reason, "seat": event.seat})
        elif isinstance(event, ArmutOffered):
            public.append(
                {
                    "type": "armut_offered",
                    "seat": event.seat,
                    "trumps": event.trumps,
                    "direction": event.direction,
                }
            )
        elif isinstance(event, ArmutAnswered):
            public.append(
                {"type": "armut_answered", "seat": event.seat, "accepted": event.accepted}
            )
        elif isinstance(event, ArmutCardsPassed):
            public.append(
                {
                    "type": "armut_cards_passed",
                    "seat": event.seat,
                    "to": event.to,
                    "kind": event.kind,
                    "count": event.count,
                    "trumps": event.trumps,
                }
            )
        elif isinstance(event, PlayStarted):
            public.append(
                {
                    "type": "play_started",
                    "game_type": event.game_type,
                    "soloist": event.soloist,
                    "ouvert": event.ouvert,
                    "leader": event.leader,
                }
            )
        elif isinstance(event, HochzeitPartnerFound):
            public.append(
                {
                    "type": "hochzeit_partner_found",
                    "seat": event.holder,
                    "partner": event.partner,
                    "trick": event.trick,
                }
            )
        elif isinstance(event, HochzeitAlone):
            public.append({"type": "hochzeit_alone", "seat": event.holder, "trick": event.trick})
        elif isinstance(event, PigsShown):
            public.append({"type": "pigs_shown", "seat": event.seat, "kind": event.kind})
        elif isinstance(event, DealEnded):
            public.append(
                {
                    "type": "deal_ended",
                    "game_type": event.game_type,
                    "solo": event.solo,
                    "re": sorted(event.re_party),
                    "augen": dict(event.augen),
                    "winner": event.winner,
                    "points": list(event.points),
                }
            )
        elif isinstance(event, SheetWritten) and event.row.kind == "miese":
            public.append({"type": "miese", "seat": event.row.dealer})
    return {"seat": seat, "action": text, "events": public, "deal": deal}


class DoppelkopfTable:
    """A :class:`~kartentisch.web.adapter.TableGame` over a :class:`DoppelkopfMatch`."""

    game: ClassVar[str] = "doppelkopf"

    def __init__(
        self, options: DoppelkopfOptions, names: Sequence[str], seed: int, games: int
    ) -> None:
        self.names = list(names)
        self.games = games
        self.match = DoppelkopfMatch(options, seats=_unique_names(names), seed=seed, games=games)
        self._actions: list[tuple[int, str]] = []
        #: Summaries of finished deals, by index in the match's deals (they never change).
        self._summaries: list[dict[str, Any]] = []
        #: Each person's answer to the declaration question of the deal being played.
        #: Kept in memory only: a table rebuilt from its actions asks again what is open.
        self._answers = Answers()
        #: The game log: one public entry per action (:meth:`log_entries`).
        self._log: list[dict[str, Any]] = []
        #: (version, deal number) of the action that ended the last scored game.
        self._deal_ended: tuple[int, int] | None = None
        #: (how many, the last one, their JSON text) of the finished deals' summaries,
        #: which every seat's view lists: encoded once per finished deal, not per view.
        self._deals_text: tuple[int, dict[str, Any] | None, str] = (0, None, "[]")
        #: What every seat's view of this version shares, made once (:meth:`_shared_view`).
        self._shared: _SharedView | None = None
        #: The options as a view shows them, made once: they never change, and making
        #: them validates every option anew (the most of a view's time once).
        self._options_json: dict[str, Any] = {**self.match.options.to_dict(), "games": games}

    # -- the adapter API ----------------------------------------------------

    @property
    def version(self) -> int:
        return len(self._actions)

    @property
    def acting(self) -> tuple[int, ...]:
        """The seat the table waits for; announcements are optional and come from any seat."""
        seat = self.match.to_move
        return () if seat is None or self.is_over else (seat,)

    @property
    def is_over(self) -> bool:
        return self.match.deal.is_over and self.match.sheet.games_played >= self.games

    @property
    def actions(self) -> list[tuple[int, str]]:
        return list(self._actions)

    @property
    def between_deals(self) -> int | None:
        """The number (in ``deals``) of the game just scored while nothing of the next deal
        has happened; None during a deal, after a deal thrown in, and once the session is over.
        """
        ended = self._deal_ended
        if ended is None or ended[0] != self.version or self.is_over:
            return None
        return ended[1]

    def legal(self, seat: int) -> list[str]:
        if self.is_over:
            return []
        return [str(a) for a in self.match.legal_actions(seat)]

    def act(self, seat: int, text: str) -> None:
        """Apply an engine action, or an answer to the declaration question."""
        if self.is_over:
            raise IllegalActionError("match_over", "the session is over", seat=seat)
        try:
            answer = Answer.parse(text)
            action = parse_action(text) if answer is None else None
        except NotationError as exc:
            raise IllegalActionError("bad_notation", str(exc), seat=seat, text=text) from None
        match = self.match
        deal = match.deal
        if answer is not None:
            answer, action = self._answers.check(deal, seat, answer)
        assert action is not None
        number = len(match.history)
        events = match.apply(action, seat)
        self._actions.append((seat, str(action)))
        self._log.append(_log_entry(seat, action, events, number))
        if answer is not None:
            self._answers.keep(deal, seat, answer)
        deal = match.deal
        if deal.is_over and deal.outcome == "played":
            self._deal_ended = (self.version, len(match.deals))
        if deal.is_over and match.sheet.games_played < self.games:
            match.start_deal()

    def question(self, seat: int) -> Question | None:
        """The declaration question ``seat`` is asked now (None: it is not asked)."""
        if self.is_over or self.match.deal.phase != "declare":
            return None
        return self._answers.question(self.match.deal, seat)

    def forced_action(self, seat: int) -> str | None:
        """The engine action the table applies for ``seat`` at once, if any.

        After the seat's answer, the action it gives in each later declaration
        round; before it, ``pass`` in a round where the seat may say nothing
        else. None when the seat is not asked now or must choose. The table
        applies it only for people (bots answer the engine's rounds themselves).
        """
        if self.is_over:
            return None
        action = self._answers.forced(self.match.deal, seat)
        return None if action is None else str(action)

    def log_entries(self, start: int = 0) -> list[dict[str, Any]]:
        """The game log from action ``start`` on, from the deal's public events only.

        A declaration is written as the table heard it, an Armut exchange
        without its cards (only how many, and how many trumps, as the events
        count them).
        """
        return self._log[start:]

    def observation(self, seat: int) -> DoppelkopfObservation:
        return self.match.deal.observation(seat)

    def format_action(self, action: Any) -> str:
        if not isinstance(action, Card | Call):
            raise TypeError(f"a Doppelkopf action is a card or a call, not {action!r}")
        return str(action)

    def record(self, *, complete: bool, by: Sequence[str] | None = None) -> dict[str, Any]:
        record = self.match.to_record()
        if not complete and not self.is_over:
            # The deal in progress has hidden hands: give only the finished deals. The
            # seed would deal every hand again: it is told once the game is over.
            record["deals"] = [d.deal_record() for d in self.match.deals if d.is_over]
            record.pop("seed", None)
        record["games"] = self.games
        if by is not None:
            attach_by(record, by)
        return record

    # -- views ----------------------------------------------------------------

    def encoded_view(self, seat: int | None) -> tuple[dict[str, Any], str]:
        """:meth:`view` and its JSON text (as :func:`~kartentisch.web.wire.dumps` writes
        it): the members every seat shares encoded once per version, the seat's own
        ones per view (those it knows as the table does from the shared texts too)."""
        shared = self._shared_view()
        own = self._own(seat, shared)
        view = self._join(own, shared)
        public = shared.public_own
        texts = shared.public_texts
        parts: list[str] = []
        for is_shared, keys in _LAYOUT:
            if is_shared:
                parts.append(shared.texts[keys[0]])
                continue
            for key in keys:
                value = own[key]
                known = public[key]
                if value is known or (
                    type(value) is type(known) and _is_scalar(value) and value == known
                ):
                    parts.append(texts[key])
                else:
                    parts.append(f"{dumps(key)}: {dumps(value)}")
        return view, "{" + ", ".join(parts) + "}"

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator): the members every seat shares,
        made once per version (read only), and the seat's own."""
        shared = self._shared_view()
        return self._join(self._own(seat, shared), shared)

    @staticmethod
    def _join(own: Mapping[str, Any], shared: _SharedView) -> dict[str, Any]:
        """The view's members in their order (:data:`_LAYOUT`)."""
        view: dict[str, Any] = {}
        members = shared.members
        for is_shared, keys in _LAYOUT:
            source = members if is_shared else own
            for key in keys:
                view[key] = source[key]
        return view

    def _own(self, seat: int | None, shared: _SharedView) -> dict[str, Any]:
        """The members of ``seat``'s view that are its own (None: a spectator's, which
        are those of the public part); where the seat knows what the table knows, the
        very objects of the spectator's."""
        if seat is None:
            return shared.public_own
        public = shared.public
        deal = self.match.deal
        obs = seat_part(deal, seat, public)
        over = self.is_over
        known = shared.public_own
        question = answer = None
        auto = False
        if not over and deal.phase == "declare":
            question = self._answers.question(deal, seat)
            answer = self._answers.answer(deal, seat)
            auto = self.forced_action(seat) is not None
        armut = known["armut"]
        if armut is not None and (obs.armut_cards or obs.armut_returned):
            # Only the two who exchanged see the cards (the observation says so).
            armut = {
                **armut,
                "cards": _cards(obs.armut_cards),
                "returned": _cards(obs.armut_returned),
            }
        return {
            "game": self.game,
            "seat": seat,
            # The one declaration question this seat faces now (None: nothing to answer).
            "question": question.to_dict() if question is not None else None,
            # The seat's answer while the declarations last ("gesund", "vorbehalt solo queens" …).
            "answer": str(answer) if answer is not None else None,
            # The table answers for this seat now (it need not act).
            "auto": auto,
            "hand": _cards(obs.hand),
            "legal": [str(a) for a in obs.legal_actions] if not over else [],
            "trumps": known["trumps"] if obs.trumps is public.trumps else _cards(obs.trumps),
            "game_type": obs.game_type,
            "soloist": obs.soloist,
            "open_hand": (
                known["open_hand"] if obs.open_hand is public.open_hand else _cards(obs.open_hand)
            ),
            "armut": armut,
            # The pigs this seat knows of (option schweinchen), highest first.
            "pigs": known["pigs"] if obs.pigs is public.pigs else _pigs(obs.pigs),
            "party": obs.party,
        }

    def _shared_view(self) -> _SharedView:
        """What every seat's view of this version shares, and the spectator's own
        members (the public part's): made and encoded once per version."""
        kept = self._shared
        version = self.version
        if kept is not None and kept.version == version:
            return kept
        match = self.match
        deal = match.deal
        options = match.options
        sheet = match.sheet
        over = self.is_over
        public = public_part(deal)
        n = options.players
        revealed = public.revealed
        armut: dict[str, Any] | None = None
        if public.armut is not None:
            armut = {
                "seat": public.armut,
                "partner": public.armut_partner,
                "direction": public.armut_direction or None,
                "trumps": public.armut_trumps,
                "returned_trumps": public.armut_returned_trumps,
                # Cards each way: three, or all the poor player's trumps if more.
                "size": max(3, public.armut_trumps),
                "cards": [],
                "returned": [],
            }
        hochzeit: dict[str, Any] | None = None
        if public.hochzeit is not None:
            hochzeit = {
                "seat": public.hochzeit,
                "rule": public.hochzeit_rule or "first_trick",
                "partner": public.hochzeit_partner,
            }
        finished = self._finished()
        tricks = public.tricks
        members: dict[str, Any] = {
            "players": n,
            "names": list(self.names),
            "version": version,
            "deal_number": len(match.history),
            "game_number": min(sheet.games_played + (0 if deal.is_over else 1), self.games),
            "games": self.games,
            "dealer": public.dealer,
            "playing": list(public.playing),
            "phase": public.phase,
            "declaration_round": public.declaration_round,
            "to_move": None if over else public.to_move,
            "hand_sizes": list(public.hand_sizes),
            "declarations": [{"seat": s, "call": c} for s, c in public.declarations],
            "ouvert": public.ouvert,
            "hochzeit": hochzeit,
            "scharfe": {"aces": public.scharfe_aces, "kings": public.scharfe_kings},
            # The seat that must play its Pflichtsolo now (option vorfuehrung), or None.
            "vorfuehrung": public.vorfuehrung,
            "trick": _trick(public.trick),
            "tricks": [_trick(t) for t in tricks],
            "trick_number": len(tricks) + 1,
            "tricks_per_deal": options.hand_size,
            "tricks_won": [sum(1 for t in tricks if t.winner == s) for s in range(n)],
            "announcements": [
                {"seat": a.seat, "party": a.party, "word": a.word} for a in public.announcements
            ],
            "parties": [revealed.get(s) for s in range(n)],
            "bock": {
                "multiplier": public.bock_multiplier,
                "pending": list(sheet.pending_bocks),
                "schedule": list(sheet.bock_schedule()),
                "enabled": sheet.bock,
            },
            "sheet": {
                "rows": self._rows(finished),
                "totals": list(sheet.totals),
            },
            "deals": finished,
            "rules": {
                "preset": options.preset,
                "scoring": options.scoring,
                "declarations": options.declarations,
                "announcements": options.announcements,
                "hand_size": options.hand_size,
                "table_mode": options.table_mode,
            },
            "options": self._options_json,
            "over": over,
            "result": None,
        }
        if over:
            totals = sheet.totals
            best = max(totals)
            members["result"] = {
                "totals": list(totals),
                "winners": [s for s, p in enumerate(totals) if p == best],
            }
        public_own: dict[str, Any] = {
            "game": self.game,
            "seat": None,
            "question": None,
            "answer": None,
            "auto": False,
            "hand": None,
            "legal": [],
            "trumps": _cards(public.trumps),
            "game_type": public.game_type,
            "soloist": public.soloist,
            "open_hand": _cards(public.open_hand),
            "armut": armut,
            "pigs": _pigs(public.pigs),
            "party": None,
        }
        if kept is not None:
            # What did not change is the same object as before: a state patch passes it
            # over at once (web/statepatch.py).
            reuse_equal(kept.members, members)
            reuse_equal(kept.public_own, public_own)
        texts: dict[str, str] = {}
        for is_shared, keys in _LAYOUT:
            if is_shared:
                part = {key: members[key] for key in keys}
                if "deals" in part:
                    texts[keys[0]] = members_text(object_with(part, "deals", self._deals_json()))
                else:
                    texts[keys[0]] = members_text(dumps(part))
        public_texts = {key: f"{dumps(key)}: {dumps(value)}" for key, value in public_own.items()}
        kept = self._shared = _SharedView(version, public, members, texts, public_own, public_texts)
        return kept

    def _deals_json(self) -> str:
        """The finished deals' summaries (the longest part, the same for every seat and
        from one deal's end to the next) as JSON text, encoded once per finished deal."""
        deals = self._summaries  # (a new list as it grows)
        count, last, text = self._deals_text
        if count != len(deals) or (deals and deals[-1] is not last):
            text = dumps(deals)
            self._deals_text = (len(deals), deals[-1] if deals else None, text)
        return text

    def _finished(self) -> list[dict[str, Any]]:
        """Every finished deal (thrown-in ones too), summarised once."""
        deals = self.match.deals
        summaries = self._summaries
        if len(summaries) < len(deals) and deals[len(summaries)].is_over:
            # A new list when it grows: a state already sent keeps the list it was sent
            # with (a state patch passes over a list that is the very same object).
            summaries = self._summaries = list(summaries)
            while len(summaries) < len(deals) and deals[len(summaries)].is_over:
                index = len(summaries)
                summaries.append(self._summary(index + 1, deals[index]))
        return summaries

    def _summary(self, number: int, deal: DoppelkopfDeal) -> dict[str, Any]:
        """What everyone may know of a finished deal: the game, the tricks, the score."""
        obs = public_part(deal)  # (all of it public: the deal is over)
        out: dict[str, Any] = {
            "number": number,
            "dealer": obs.dealer,
            "playing": list(obs.playing),
            "outcome": obs.outcome,
            "declarations": [{"seat": s, "call": c} for s, c in obs.declarations],
            "bock_multiplier": obs.bock_multiplier,
        }
        if obs.outcome == "redeal":
            redeal = next((e for e in reversed(deal.events) if isinstance(e, Redeal)), None)
            out["redeal"] = {
                "reason": redeal.reason if redeal else None,
                "seat": redeal.seat if redeal else None,
            }
            out["explain"] = explain_deal(deal)
            return out
        ended = next(e for e in reversed(deal.events) if isinstance(e, DealEnded))
        score = obs.score
        assert score is not None
        re_party = sorted(ended.re_party)
        out.update(
            {
                "game_type": ended.game_type,
                "solo": ended.solo,
                "ouvert": obs.ouvert,
                "soloist": obs.soloist,
                "hochzeit": obs.hochzeit,
                "hochzeit_partner": obs.hochzeit_partner,
                "armut": obs.armut,
                "armut_partner": obs.armut_partner,
                "re": re_party,
                "kontra": [s for s in obs.playing if s not in re_party],
                "announcements": [
                    {"seat": a.seat, "party": a.party, "word": a.word} for a in obs.announcements
                ],
                "tricks": [_trick(t) for t in obs.tricks],
                "augen": dict(score.augen),
                "winner": score.winner,
                "stages": list(score.stages),
                "extras": [e.to_dict() for e in score.extras],
                "multiplier": score.multiplier,
                "base": score.base,
                "points": list(score.points),
                "bock_trigger": score.bock_trigger,
                "offenders": list(ended.offenders),
                "explain": explain_deal(deal),
            }
        )
        return out

    def _rows(self, finished: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The sheet's rows; a game row names the deal it scores."""
        played = iter(d["number"] for d in finished if d["outcome"] == "played")
        rows = []
        for row in self.match.sheet.rows:
            data = row.to_dict()
            data["deal"] = next(played, None) if row.kind == "game" else None
            rows.append(data)
        return rows


class DoppelkopfTableType:
    """Lobby metadata and factory of Doppelkopf tables."""

    name = "doppelkopf"
    titles: Mapping[str, str] = {
        "en": "Doppelkopf",
        "de": "Doppelkopf",
        "ru": "Доппелькопф",
    }
    min_seats = 4
    max_seats = 5
    bot_levels: tuple[str, ...] = LEVELS["doppelkopf"]
    default_bot_level = "heuristic"
    presets: Mapping[str, Mapping[str, Any]] = PRESETS

    def normalize_options(self, options: Mapping[str, Any] | None, *, seats: int) -> dict[str, Any]:
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(
                "options must be a JSON object of option names and values", "not_object"
            )
        given = dict(options or {})
        games = given.pop("games", None)
        if "players" in given and given["players"] != seats:
            raise OptionError(
                f"players is {given['players']!r} but the table has {seats} seats",
                "players_mismatch",
                value=str(given["players"])[:40],
                seats=seats,
            )
        given["players"] = seats
        # The game's schema checks every rule option (SCHEMA in the game's options);
        # the table's length is the web's own option, checked the same way.
        result = DoppelkopfOptions.from_dict(given).to_dict()
        result["games"] = GAMES.check(DEFAULT_ROUNDS * seats if games is None else games)
        return result

    def create(
        self, options: Mapping[str, Any], names: Sequence[str], seed: int
    ) -> DoppelkopfTable:
        given = dict(options)
        games = given.pop("games", DEFAULT_ROUNDS * len(names))
        return DoppelkopfTable(DoppelkopfOptions.from_dict(given), names, seed, int(games))

    def replay(
        self,
        options: Mapping[str, Any],
        names: Sequence[str],
        seed: int,
        actions: Sequence[tuple[int, str]],
    ) -> DoppelkopfTable:
        return replay_actions(self.create(options, names, seed), actions)

    def describe(self) -> dict[str, Any]:
        defaults = DoppelkopfOptions()
        return {
            "name": self.name,
            "titles": dict(self.titles),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "default_seats": 4,
            "bot_levels": list(self.bot_levels),
            "default_bot_level": self.default_bot_level,
            "presets": {
                name: {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
                for name, values in self.presets.items()
            },
            "options": {
                name: {"choices": choices, "default": getattr(defaults, name)}
                for name, choices in _OPTION_CHOICES.items()
            }
            | {"games": {**GAMES.describe(), "default": None}},
        }


TABLE_GAME: Final = DoppelkopfTableType()
