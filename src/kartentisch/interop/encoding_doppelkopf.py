"""Doppelkopf: action ids, the observation layout and encoder, the table.

**Action ids**: 73 — 0–23 one per distinct card (♣ ♠ ♥ ♦, each A K Q J 10 9,
:data:`DOPPELKOPF_CARDS`; the two copies of a card share its id, and the nines
are never legal without the ``nines`` option), then 24–72 the words of
:data:`DOPPELKOPF_WORDS` (declarations, the Armut answer, announcements). The
Armut exchange (``give``/``return`` three cards, or all the poor player's
trumps when the Füchse do not count and they are more) is made card by card:
in those phases the card ids pick the cards in ascending id order, and the
last pick passes them.

**Scores** (:meth:`DoppelkopfTable.scores`): the sheet's points of the deal
(:meth:`DoppelkopfDeal.points`).

**Observations**: :func:`encode_doppelkopf` lays a seat's observation out as
:func:`doppelkopf_layout` describes, seats relative to the observing seat.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar, Final

from kartentisch.cards import Card, doppelkopf_deck
from kartentisch.games.doppelkopf import (
    Call,
    DoppelkopfDeal,
    DoppelkopfObservation,
    DoppelkopfOptions,
    parse_action,
)
from kartentisch.games.doppelkopf.actions import ANNOUNCEMENTS, HOCHZEIT_RULES
from kartentisch.games.doppelkopf.armut import exchange_size
from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.games.doppelkopf.scoring import GAME_TYPES
from kartentisch.games.doppelkopf.trumps import AUGEN
from kartentisch.interop.encoding_common import Block, FloatArray, Layout, Table, Viewer

__all__ = [
    "DECLARATION_ROUNDS",
    "DOPPELKOPF_ACTIONS",
    "DOPPELKOPF_CARDS",
    "DOPPELKOPF_PHASES",
    "DOPPELKOPF_WORDS",
    "DOPPELKOPF_WORD_IDS",
    "SEEN_GAME_TYPES",
    "DoppelkopfTable",
    "doppelkopf_action_id",
    "doppelkopf_action_name",
    "doppelkopf_layout",
    "encode_doppelkopf",
]

#: Doppelkopf card ids 0–23: the distinct cards with the nines, ♣ ♠ ♥ ♦ and A K Q J 10 9.
DOPPELKOPF_CARDS: Final[tuple[Card, ...]] = tuple(dict.fromkeys(doppelkopf_deck(nines=True)))
_DOKO_ID: Final[Mapping[Card, int]] = {c: i for i, c in enumerate(DOPPELKOPF_CARDS)}
#: The solo kinds the encoding had at first (ids 37–56); later kinds follow the words.
_FIRST_SOLI: Final = 10
#: Doppelkopf word ids 24–72, in this order.
DOPPELKOPF_WORDS: Final[tuple[Call, ...]] = (
    Call("pass"),
    Call("vorbehalt"),
    Call("redeal"),
    Call("scharfe", "aces"),
    Call("scharfe", "kings"),
    Call("scharfe", "aces kings"),
    Call("hochzeit"),
    *(Call("hochzeit", rule) for rule in HOCHZEIT_RULES),
    Call("armut"),
    Call("accept"),
    Call("refuse"),
    *(Call("solo", kind, ouvert) for kind in ALL_SOLI[:_FIRST_SOLI] for ouvert in (False, True)),
    *(Call(word) for word in ANNOUNCEMENTS),
    # Solo kinds added later come after the words, so that no id changes.
    *(Call("solo", kind, ouvert) for kind in ALL_SOLI[_FIRST_SOLI:] for ouvert in (False, True)),
)
DOPPELKOPF_WORD_IDS: Final[Mapping[Call, int]] = {
    w: len(DOPPELKOPF_CARDS) + i for i, w in enumerate(DOPPELKOPF_WORDS)
}
DOPPELKOPF_ACTIONS: Final = len(DOPPELKOPF_CARDS) + len(DOPPELKOPF_WORDS)

DOPPELKOPF_PHASES: Final = (
    "declare",
    "armut_answer",
    "armut_give",
    "armut_return",
    "play",
    "done",
    "redeal",
)
DECLARATION_ROUNDS: Final = ("scharfe", "solo", "marriage", "vorbehalt", "reservation")
SEEN_GAME_TYPES: Final = ("undecided", *GAME_TYPES)
_EXCHANGE: Final = ("armut_give", "armut_return")


def doppelkopf_action_name(action: int) -> str:
    """Doppelkopf action id ``action`` in the notation (``QC``, ``re``, ``solo queens``)."""
    if action < len(DOPPELKOPF_CARDS):
        return str(DOPPELKOPF_CARDS[action])
    return str(DOPPELKOPF_WORDS[action - len(DOPPELKOPF_CARDS)])


def doppelkopf_action_id(action: Card | Call) -> int | None:
    """The id of a Doppelkopf engine action (None for an exchange or a take-back).

    >>> doppelkopf_action_id(Card("QC")), doppelkopf_action_id(Call("re"))
    (2, 57)
    """
    if isinstance(action, Card):
        return _DOKO_ID.get(action)
    return DOPPELKOPF_WORD_IDS.get(action)


@cache
def doppelkopf_layout(players: int, hand_size: int) -> Layout:
    """The observation layout of a Doppelkopf table of ``players`` (``n``, 4 or 5).

    >>> doppelkopf_layout(4, 10).size
    630
    """
    n = players
    cards = len(DOPPELKOPF_CARDS)
    words = len(DOPPELKOPF_WORDS)
    return Layout(
        [
            Block("hand", (cards,), 2, "own cards: copies held of each card id", private=True),
            Block(
                "trick",
                (n, cards),
                1,
                "the current trick: row r, the card seat r played",
                seats=True,
            ),
            Block("played", (n, cards), 2, "cards seat r played in completed tricks", seats=True),
            Block("leader", (n,), 1, "the seat that leads (led) the current trick", seats=True),
            Block("to_move", (n,), 1, "the seat to move (all 0 once the deal is over)", seats=True),
            Block("dealer", (n,), 1, "the dealer", seats=True),
            Block(
                "phase", (len(DOPPELKOPF_PHASES),), 1, "one-hot: " + ", ".join(DOPPELKOPF_PHASES)
            ),
            Block(
                "round",
                (len(DECLARATION_ROUNDS),),
                1,
                "declaration round: " + ", ".join(DECLARATION_ROUNDS),
            ),
            Block(
                "said",
                (n, words),
                1,
                "words each seat said (declarations, announcements)",
                seats=True,
            ),
            Block(
                "game_type",
                (len(SEEN_GAME_TYPES),),
                1,
                "as the seat knows it: " + ", ".join(SEEN_GAME_TYPES),
                private=True,
            ),
            Block("soloist", (n,), 1, "the soloist of a declared solo", seats=True, private=True),
            Block("open_hand", (cards,), 2, "the ouvert soloist's open hand"),
            Block("hochzeit", (n,), 1, "the seat with the Hochzeit", seats=True),
            Block("hochzeit_partner", (n,), 1, "the Hochzeit's partner, once found", seats=True),
            Block("armut", (n,), 1, "the poor seat of an Armut", seats=True),
            Block("armut_partner", (n,), 1, "the Armut's partner", seats=True),
            Block(
                "armut_given", (cards,), 2, "Armut cards given (seen by the two only)", private=True
            ),
            Block(
                "armut_returned",
                (cards,),
                2,
                "Armut cards returned (seen by the two only)",
                private=True,
            ),
            Block("armut_trumps", (2,), 12, "trumps the poor seat held; trumps returned"),
            Block("scharfe", (n, 2), 1, "seat r plays scharfe Herz-Asse / -Könige", seats=True),
            Block(
                "trumps",
                (cards,),
                1,
                "the card ids that are trumps, as the seat knows",
                private=True,
            ),
            Block("party", (2,), 1, "own party: Re, Kontra (both 0: not known yet)", private=True),
            Block("revealed", (n, 2), 1, "the party seat r has shown: Re, Kontra", seats=True),
            Block("augen", (n,), 240, "Augen seat r has taken in tricks", seats=True),
            Block("tricks_done", (hand_size + 1,), 1, "one-hot: tricks completed (0 … all)"),
            Block(
                "selection", (cards,), 2, "cards picked so far for an Armut exchange", private=True
            ),
        ]
    )


def encode_doppelkopf(obs: DoppelkopfObservation, selection: Sequence[Card] = ()) -> FloatArray:
    """The observation vector of one Doppelkopf seat (see :func:`doppelkopf_layout`).

    ``selection``: the cards this seat has picked so far for an Armut exchange.
    """
    n = obs.players
    layout = doppelkopf_layout(n, obs.options.hand_size)
    out = layout.zeros()
    v = layout.views(out)
    me = obs.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    def count(block: str, cards: Sequence[Card]) -> None:
        target = v[block]
        for card in cards:
            target[_DOKO_ID[card]] += 1

    def mark(block: str, seat: int | None) -> None:
        if seat is not None:
            v[block][rel(seat)] = 1

    count("hand", obs.hand)
    for seat, card in zip(obs.trick.seats, obs.trick.cards, strict=True):
        v["trick"][rel(seat), _DOKO_ID[card]] = 1
    augen = v["augen"]
    for trick in obs.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            v["played"][rel(seat), _DOKO_ID[card]] += 1
        if trick.winner is not None:
            augen[rel(trick.winner)] += sum(AUGEN[c] for c in trick.cards)
    if obs.to_move is not None:
        mark("to_move", obs.to_move)
        if obs.phase == "play":
            mark("leader", obs.trick.leader)
    mark("dealer", obs.dealer)
    v["phase"][DOPPELKOPF_PHASES.index(obs.phase)] = 1
    if obs.declaration_round is not None:
        v["round"][DECLARATION_ROUNDS.index(obs.declaration_round)] = 1
    said = v["said"]
    words = len(DOPPELKOPF_CARDS)
    for seat, text in obs.declarations:
        action = parse_action(text)
        index = DOPPELKOPF_WORD_IDS.get(action) if isinstance(action, Call) else None
        if index is not None:
            said[rel(seat), index - words] = 1
    for a in obs.announcements:
        said[rel(a.seat), DOPPELKOPF_WORD_IDS[Call(a.word)] - words] = 1
    v["game_type"][SEEN_GAME_TYPES.index(obs.game_type)] = 1
    mark("soloist", obs.soloist)
    count("open_hand", obs.open_hand)
    mark("hochzeit", obs.hochzeit)
    mark("hochzeit_partner", obs.hochzeit_partner)
    mark("armut", obs.armut)
    mark("armut_partner", obs.armut_partner)
    count("armut_given", obs.armut_cards)
    count("armut_returned", obs.armut_returned)
    if obs.armut is not None:
        v["armut_trumps"][:] = (obs.armut_trumps, obs.armut_returned_trumps)
    if obs.scharfe_aces is not None:
        v["scharfe"][rel(obs.scharfe_aces), 0] = 1
    if obs.scharfe_kings is not None:
        v["scharfe"][rel(obs.scharfe_kings), 1] = 1
    for card in obs.trumps:
        v["trumps"][_DOKO_ID[card]] = 1
    if obs.party is not None:
        v["party"][0 if obs.party == "re" else 1] = 1
    for seat, party in obs.revealed.items():
        v["revealed"][rel(seat), 0 if party == "re" else 1] = 1
    v["tricks_done"][len(obs.tricks)] = 1
    count("selection", selection)
    return out


class DoppelkopfTable(Table):
    """A Doppelkopf deal over the 73 ids; scores are the sheet's points of the deal.

    In the Armut exchange the seat to move picks its cards (three, or all the
    poor player's trumps if more) one id at a time, in ascending id order;
    :attr:`selection` holds the picks so far.
    Only sets the engine accepts can be completed.
    """

    game: ClassVar[str] = "doppelkopf"
    num_actions: ClassVar[int] = DOPPELKOPF_ACTIONS
    deal: DoppelkopfDeal

    def __init__(self, deal: DoppelkopfDeal) -> None:
        super().__init__()
        if deal.actions:
            raise ValueError("a Doppelkopf table starts from a fresh deal")
        self.deal = deal
        self.selection: list[int] = []
        #: History index of an exchange pick → (receiving seat, text for it, text for others).
        self.hidden: dict[int, tuple[int, str, str]] = {}
        self._legal: list[int] | None = None
        self._sets: list[tuple[int, ...]] | None = None

    @classmethod
    def from_seed(
        cls,
        seed: int | random.Random,
        *,
        dealer: int,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
    ) -> DoppelkopfTable:
        return cls(DoppelkopfDeal.from_seed(seed, dealer=dealer, options=options))

    @property
    def num_seats(self) -> int:
        return self.deal.num_seats

    @property
    def to_move(self) -> int | None:
        return None if self.deal.is_over else self.deal.to_move

    @property
    def layout(self) -> Layout:
        options = self.deal.options
        return doppelkopf_layout(options.players, options.hand_size)

    def _exchange_sets(self, seat: int) -> list[tuple[int, ...]]:
        """Every set of :func:`exchange_size` cards (ascending ids) the engine accepts
        from ``seat`` now (three, or more when the Füchse do not count for the Armut)."""
        if self._sets is None:
            deal = self.deal
            word = "give" if deal.phase == "armut_give" else "return"
            hand = sorted(deal.hand(seat), key=_DOKO_ID.__getitem__)
            seen: set[tuple[int, ...]] = set()
            sets: list[tuple[int, ...]] = []
            for combo in itertools.combinations(hand, exchange_size(deal)):
                key = tuple(_DOKO_ID[c] for c in combo)
                if key in seen:
                    continue
                seen.add(key)
                if deal.can(Call(word, cards=tuple(sorted(combo))), seat):
                    sets.append(key)
            self._sets = sets
        return self._sets

    def legal_ids(self) -> list[int]:
        if self._legal is None:
            deal = self.deal
            seat = self.to_move
            ids: set[int] = set()
            if seat is None:
                pass
            elif deal.phase in _EXCHANGE:
                prefix = tuple(self.selection)
                k = len(prefix)
                ids = {s[k] for s in self._exchange_sets(seat) if s[:k] == prefix}
            else:
                for action in deal.legal_actions(seat):
                    index = (
                        _DOKO_ID.get(action)
                        if isinstance(action, Card)
                        else DOPPELKOPF_WORD_IDS.get(action)
                    )
                    if index is not None:
                        ids.add(index)
            self._legal = sorted(ids)
        return list(self._legal)

    def apply_id(self, action: int) -> None:
        seat = self.to_move
        if seat is None or action not in self.legal_ids():
            raise self._refuse(action)
        deal = self.deal
        index = len(self.history)
        self.history.append((seat, action))
        self._legal = None
        if deal.phase in _EXCHANGE:
            self.selection.append(action)
            receiver = deal.armut_partner if deal.phase == "armut_give" else deal.armut_by
            assert receiver is not None
            if len(self.selection) < exchange_size(deal):
                self.hidden[index] = (receiver, "", "")
                return
            word = "give" if deal.phase == "armut_give" else "return"
            cards = tuple(sorted(DOPPELKOPF_CARDS[i] for i in self.selection))
            self.selection = []
            self._sets = None
            deal.apply(Call(word, cards=cards), seat)
            trumps = deal.armut_trumps if word == "give" else deal.armut_returned_trumps
            self.hidden[index] = (
                receiver,
                f"{word} " + " ".join(map(str, cards)),
                f"{word} ({trumps} trumps)",
            )
            return
        engine_action: Card | Call
        if action < len(DOPPELKOPF_CARDS):
            engine_action = DOPPELKOPF_CARDS[action]
        else:
            engine_action = DOPPELKOPF_WORDS[action - len(DOPPELKOPF_CARDS)]
        deal.apply(engine_action, seat)

    def action_name(self, action: int) -> str:
        return doppelkopf_action_name(action)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(p) for p in self.deal.points())

    def observation(self, seat: int) -> DoppelkopfObservation:
        return self.deal.observation(seat)

    def own_selection(self, seat: int) -> tuple[Card, ...]:
        """The exchange picks so far if ``seat`` is making them, else nothing."""
        if seat != self.to_move:
            return ()
        return tuple(DOPPELKOPF_CARDS[i] for i in self.selection)

    def encode(self, seat: int) -> FloatArray:
        return encode_doppelkopf(self.deal.observation(seat), self.own_selection(seat))

    def describe(self, seat: int) -> str:
        text = super().describe(seat)
        picks = self.own_selection(seat)
        return text + (" selection:" + " ".join(map(str, picks)) if picks else "")

    def known_actions(self, viewer: Viewer) -> list[int | None]:
        made: set[int] = set()  # picks of exchanges that were made
        pending: list[int] = []
        for index in sorted(self.hidden):
            pending.append(index)
            if self.hidden[index][1]:  # the pick that passed the cards
                made.update(pending)
                pending = []
        out: list[int | None] = []
        for index, (seat, action) in enumerate(self.history):
            hidden = self.hidden.get(index)
            known = (
                hidden is None
                or viewer == "all"
                or viewer == seat
                or (viewer == hidden[0] and index in made)
            )
            out.append(action if known else None)
        return out

    def history_text(self, viewer: int) -> str:
        tokens = []
        for index, (seat, action) in enumerate(self.history):
            hidden = self.hidden.get(index)
            if hidden is None:
                tokens.append(f"{seat}:{self.action_name(action)}")
                continue
            receiver, for_receiver, for_others = hidden
            if viewer == seat:
                tokens.append(f"{seat}:+{self.action_name(action)}")
                continue
            tokens.append(f"{seat}:+?")
            shown = for_receiver if viewer == receiver else for_others
            if shown:
                tokens.append(f"{seat}:{shown}")
        return " ".join(tokens)

    def copy(self) -> DoppelkopfTable:
        new = DoppelkopfTable.__new__(DoppelkopfTable)
        new.deal = _replay(self.deal)
        new.history = list(self.history)
        new.selection = list(self.selection)
        new.hidden = dict(self.hidden)
        new._legal = self._legal
        new._sets = self._sets
        return new


def _replay(deal: DoppelkopfDeal) -> DoppelkopfDeal:
    """A fresh copy of ``deal``: the same hands, the same engine actions applied again."""
    new = DoppelkopfDeal(
        [list(h) for h in deal.initial_hands],
        dealer=deal.dealer,
        options=deal.options,
        seats=deal.seat_names,
        bock_multiplier=deal.bock_multiplier,
        pflicht_due=sorted(deal.pflicht_due) if deal.options.pflichtsolo else None,
    )
    for action, seat in zip(deal.actions, deal.action_seats, strict=True):
        new.apply(action, seat)
    return new
