"""What a person sees at a Doppelkopf web table: the views and the game log.

A view comes from the engine's observation only: a seat sees its own hand,
what was said and played, the open hand of an ouvert soloist and, if it took
part, the Armut cards. The members every seat sees alike come from the
observation's public part (``public_part``), made and JSON-encoded once per
version; a seat's own (hand, legal actions, question, the game, trumps, pigs
and Armut cards as it knows them, its party) from its part (``seat_part``).
A spectator sees the public part alone.

:class:`DoppelkopfViews` makes them for one table (:class:`SeatedTable`, the
table's state it reads); :func:`log_entry` writes one action for the game log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple, Protocol

from kartentisch.cards import Card
from kartentisch.engine import Event
from kartentisch.games.doppelkopf.actions import Call
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
    PublicObservation,
    public_part,
    seat_part,
)
from kartentisch.games.doppelkopf.question import Answer, Question
from kartentisch.tricks import PlayedTrick
from kartentisch.web.statepatch import reuse_equal
from kartentisch.web.wire import dumps, object_with
from kartentisch.web.wire import members as members_text

__all__ = ["GAME", "DoppelkopfViews", "SeatedTable", "log_entry"]

#: The game's name in every view.
GAME: Final = "doppelkopf"


class SeatedTable(Protocol):
    """What :class:`DoppelkopfViews` reads of its table."""

    match: DoppelkopfMatch
    #: The names the players chose.
    names: list[str]
    #: How many games the session has.
    games: int

    @property
    def version(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def question(self, seat: int) -> Question | None: ...

    def answer(self, seat: int) -> Answer | None: ...

    def forced_action(self, seat: int) -> str | None: ...


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


def log_entry(seat: int, action: Any, events: Sequence[Event], deal: int) -> dict[str, Any]:
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


class DoppelkopfViews:
    """Every view of one table: the shared part made once per version, and the
    finished deals' summaries made once per deal."""

    def __init__(self, table: SeatedTable) -> None:
        self._table = table
        #: Summaries of finished deals, by index in the match's deals (they never change).
        self._summaries: list[dict[str, Any]] = []
        #: (how many, the last one, their JSON text) of the finished deals' summaries,
        #: which every seat's view lists: encoded once per finished deal, not per view.
        self._deals_text: tuple[int, dict[str, Any] | None, str] = (0, None, "[]")
        #: What every seat's view of this version shares, made once (:meth:`_shared_view`).
        self._shared: _SharedView | None = None
        #: The options as a view shows them, made once: they never change, and making
        #: them validates every option anew (the most of a view's time once).
        self._options_json: dict[str, Any] = {
            **table.match.options.to_dict(),
            "games": table.games,
        }

    def encoded(self, seat: int | None) -> tuple[dict[str, Any], str]:
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
        obs = seat_part(self._table.match.deal, seat, public)
        over = self._table.is_over
        known = shared.public_own
        table = self._table
        question = table.question(seat)
        answer = table.answer(seat)
        auto = table.forced_action(seat) is not None
        armut = known["armut"]
        if armut is not None and (obs.armut_cards or obs.armut_returned):
            # Only the two who exchanged see the cards (the observation says so).
            armut = {
                **armut,
                "cards": _cards(obs.armut_cards),
                "returned": _cards(obs.armut_returned),
            }
        return {
            "game": GAME,
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
        version = self._table.version
        if kept is not None and kept.version == version:
            return kept
        match = self._table.match
        deal = match.deal
        options = match.options
        sheet = match.sheet
        over = self._table.is_over
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
            "names": list(self._table.names),
            "version": version,
            "deal_number": len(match.history),
            "game_number": min(sheet.games_played + (0 if deal.is_over else 1), self._table.games),
            "games": self._table.games,
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
            "game": GAME,
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
        deals = self._table.match.deals
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
        for row in self._table.match.sheet.rows:
            data = row.to_dict()
            data["deal"] = next(played, None) if row.kind == "game" else None
            rows.append(data)
        return rows
