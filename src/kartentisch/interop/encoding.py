"""Action ids, observation arrays and turn-based tables shared by the bridges.

Both the PettingZoo environments and the OpenSpiel games see a deal through a
:class:`Table`: a turn-based view of one engine deal with a fixed-size integer
action space, per-seat observation arrays and the deal's scores.

**Action ids** (fixed per game, whatever the options):

* Slobberhannes — 32 ids, one per card of the 32-card piquet deck in
  :data:`SLOBBERHANNES_CARDS` order (♣ ♠ ♥ ♦, each A K Q J 10 9 8 7: id 0 is
  A♣, id 2 is Q♣, id 31 is 7♦). With 3, 5, 6 or 7 players the cards taken out
  of the deck are simply never legal.
* Doppelkopf — 73 ids: 0–23 one per distinct card (♣ ♠ ♥ ♦, each A K Q J 10
  9, :data:`DOPPELKOPF_CARDS`; the two copies of a card share its id, and
  the nines are never legal without the ``nines`` option), then 24–72 the
  words of :data:`DOPPELKOPF_WORDS` (declarations, the Armut answer,
  announcements). The Armut exchange (``give``/``return`` three cards, or
  all the poor player's trumps when the Füchse do not count and they are
  more) is made card by card: in those phases the card ids pick the cards in
  ascending id order, and the last pick passes them.

**Turns**: the seat to move acts; it may also announce (Re, Kontra, keine 90 …)
on its own turn, before its card. Announcements out of turn and the
table-mode Kulanz take-back are not offered (a turn-based game has no place
for them; a take-back would also let a seat undo and redo forever).

**Scores** (:meth:`Table.scores`): Doppelkopf — the sheet's points of the deal
(:meth:`DoppelkopfDeal.points`); Slobberhannes — *minus* the penalty chips
paid (a chip is a point against), so that higher is better in both games.

**Observations**: :meth:`Table.encode` turns the engine's observation of one
seat (:meth:`GameState.observation`, never another hand) into a float32
vector laid out as :func:`slobberhannes_layout` / :func:`doppelkopf_layout`
describe. Seats in it are *relative*: row 0 is the observing seat, row 1 the
seat on its left (next in play order), and so on.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Final, Literal

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as exc:  # pragma: no cover - the extras install numpy
    raise ImportError(
        "kartentisch.interop needs numpy: pip install 'kartentisch[rl]' "
        "(or 'kartentisch[openspiel]')"
    ) from exc

from kartentisch.cards import Card, doppelkopf_deck, piquet_deck
from kartentisch.errors import IllegalActionError
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
from kartentisch.games.slobberhannes import (
    SlobberhannesDeal,
    SlobberhannesObservation,
    SlobberhannesOptions,
)

__all__ = [
    "DECLARATION_ROUNDS",
    "DOPPELKOPF_ACTIONS",
    "DOPPELKOPF_CARDS",
    "DOPPELKOPF_PHASES",
    "DOPPELKOPF_WORDS",
    "DOPPELKOPF_WORD_IDS",
    "SEEN_GAME_TYPES",
    "SLOBBERHANNES_ACTIONS",
    "SLOBBERHANNES_CARDS",
    "Block",
    "DoppelkopfTable",
    "Layout",
    "SlobberhannesTable",
    "Table",
    "doppelkopf_action_id",
    "doppelkopf_action_name",
    "doppelkopf_layout",
    "encode_doppelkopf",
    "encode_slobberhannes",
    "encode_view",
    "slobberhannes_action_name",
    "slobberhannes_layout",
    "view_layout",
]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]

#: Slobberhannes action ids: the 32-card deck, ♣ ♠ ♥ ♦ and A K Q J 10 9 8 7 in each.
SLOBBERHANNES_CARDS: Final[tuple[Card, ...]] = tuple(piquet_deck())
_SLOB_ID: Final[Mapping[Card, int]] = {c: i for i, c in enumerate(SLOBBERHANNES_CARDS)}
SLOBBERHANNES_ACTIONS: Final = len(SLOBBERHANNES_CARDS)

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


def slobberhannes_action_name(action: int) -> str:
    """The card of Slobberhannes action id ``action`` (``QC``)."""
    return str(SLOBBERHANNES_CARDS[action])


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


# -- layouts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Block:
    """A named piece of an observation vector: its shape, upper bound and meaning.

    ``seats``: the first axis is one row per seat, relative to the observing seat
    (row 0 the seat itself). ``private``: what the block holds may depend on the
    observing seat's own cards (its hand, its party, a silent solo or Schweinchen
    only it knows of); every other block is the same for all seats once its seat
    rows are put in absolute order (public information).
    """

    name: str
    shape: tuple[int, ...]
    high: float
    doc: str
    seats: bool = False
    private: bool = False

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    """The blocks of an observation vector, in order; values lie in ``[0, high]``."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.offsets: dict[str, int] = {}
        offset = 0
        for block in self.blocks:
            self.offsets[block.name] = offset
            offset += block.size
        self.size = offset

    def block(self, name: str) -> Block:
        for block in self.blocks:
            if block.name == name:
                return block
        raise KeyError(name)

    def zeros(self) -> FloatArray:
        return np.zeros(self.size, dtype=np.float32)

    def views(self, vector: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into ``vector`` (writing to them writes the vector)."""
        return {
            b.name: vector[self.offsets[b.name] : self.offsets[b.name] + b.size].reshape(b.shape)
            for b in self.blocks
        }

    def high(self) -> FloatArray:
        """The upper bound of every element (the lower bound is 0)."""
        return np.concatenate(
            [np.full(b.size, b.high, dtype=np.float32) for b in self.blocks]
        ).astype(np.float32)

    def describe(self) -> str:
        """The layout as a Markdown table (offset, name, shape, range, meaning)."""
        lines = ["| offset | block | shape | values | meaning |", "|---:|---|---|---|---|"]
        for b in self.blocks:
            shape = " × ".join(map(str, b.shape))
            high = f"0 … {b.high:g}" if b.high != 1 else "0/1"
            lines.append(f"| {self.offsets[b.name]} | `{b.name}` | {shape} | {high} | {b.doc} |")
        return "\n".join(lines)


@cache
def slobberhannes_layout(players: int, hand_size: int) -> Layout:
    """The observation layout of a Slobberhannes table of ``players`` (``n``).

    >>> slobberhannes_layout(4, 8).size
    313
    """
    n = players
    cards = SLOBBERHANNES_ACTIONS
    return Layout(
        [
            Block("hand", (cards,), 1, "own cards, by card id", private=True),
            Block(
                "trick",
                (n, cards),
                1,
                "the current trick: row r, the card seat r played",
                seats=True,
            ),
            Block("played", (n, cards), 1, "cards seat r played in completed tricks", seats=True),
            Block("leader", (n,), 1, "the seat that led the current trick", seats=True),
            Block("to_move", (n,), 1, "the seat to move (all 0 once the deal is over)", seats=True),
            Block("dealer", (n,), 1, "the dealer", seats=True),
            Block(
                "penalties", (n,), 4 + hand_size, "penalty chips each seat paid so far", seats=True
            ),
            Block("tricks_done", (hand_size + 1,), 1, "one-hot: tricks completed (0 … all)"),
        ]
    )


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


# -- views: public, private, every seat ----------------------------------------------------

#: Whose private information a view holds: nobody's, the observing seat's, every seat's.
PrivateInfo = Literal["none", "single", "all"]
#: Whose knowledge of the actions: a seat, the public, or every seat together.
Viewer = int | Literal["public", "all"]


@cache
def view_layout(layout: Layout, players: int, *, public: bool, private: PrivateInfo) -> Layout:
    """The blocks of ``layout`` a view keeps, in order.

    ``public``: the blocks that are not private; ``private``: the private blocks
    of the observing seat (``single``, as they are), of every seat (``all``: each
    block with a leading row per seat, seat order absolute) or none. With
    ``private`` other than ``single`` the view belongs to no seat, and every seat
    row is absolute (row r is seat r).

    >>> hands = view_layout(slobberhannes_layout(4, 8), 4, public=False, private="all")
    >>> [(b.name, b.shape) for b in hands.blocks]
    [('hand', (4, 32))]
    """
    blocks: list[Block] = []
    for b in layout.blocks:
        if b.private:
            if private == "single":
                blocks.append(b)
            elif private == "all":
                doc = f"row s: seat s's {b.name} ({b.doc})"
                blocks.append(
                    Block(b.name, (players, *b.shape), b.high, doc, seats=True, private=True)
                )
        elif public:
            blocks.append(b)
    return Layout(blocks)


def _absolute(block: Block, values: FloatArray, seat: int) -> FloatArray:
    """A block of ``seat``'s vector with its seat rows in absolute order."""
    return np.roll(values, seat, axis=0) if block.seats else values


def encode_view(
    layout: Layout,
    encode: Callable[[int], FloatArray],
    players: int,
    seat: int,
    out: Mapping[str, FloatArray],
    *,
    private: PrivateInfo,
) -> None:
    """Write a view (the blocks of :func:`view_layout`) into ``out``, its named views.

    ``encode(s)`` is seat ``s``'s observation vector (``layout``). With ``private``
    ``single`` the blocks are ``seat``'s own; else the public blocks are taken
    from seat 0's vector (they are the same from every seat) and the private ones
    from every seat's, rows made absolute.
    """
    if private == "single":
        own = layout.views(encode(seat))
        for name, target in out.items():
            target[...] = own[name]
        return
    seats: dict[int, dict[str, FloatArray]] = {}

    def views(s: int) -> dict[str, FloatArray]:
        if s not in seats:
            seats[s] = layout.views(encode(s))
        return seats[s]

    for b in layout.blocks:
        if b.name not in out:
            continue
        if b.private:
            for s in range(players):
                out[b.name][s] = _absolute(b, views(s)[b.name], s)
        else:
            out[b.name][...] = views(0)[b.name]


# -- encoders --------------------------------------------------------------------------


def encode_slobberhannes(obs: SlobberhannesObservation) -> FloatArray:
    """The observation vector of one Slobberhannes seat (see :func:`slobberhannes_layout`)."""
    n = obs.players
    layout = slobberhannes_layout(n, obs.tricks_per_deal)
    out = layout.zeros()
    v = layout.views(out)
    me = obs.seat
    for card in obs.hand:
        v["hand"][_SLOB_ID[card]] = 1
    for seat, card in zip(obs.trick.seats, obs.trick.cards, strict=True):
        v["trick"][(seat - me) % n, _SLOB_ID[card]] = 1
    for trick in obs.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            v["played"][(seat - me) % n, _SLOB_ID[card]] = 1
    if obs.to_move is not None:
        v["leader"][(obs.trick.leader - me) % n] = 1
        v["to_move"][(obs.to_move - me) % n] = 1
    v["dealer"][(obs.dealer - me) % n] = 1
    for seat, chips in enumerate(obs.penalties):
        v["penalties"][(seat - me) % n] = chips
    v["tricks_done"][len(obs.tricks)] = 1
    return out


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


# -- tables ----------------------------------------------------------------------------


class Table(ABC):
    """One deal as a turn-based game over integer action ids.

    ``history`` holds ``(seat, action id)`` for every action taken, in order.
    """

    game: ClassVar[str]
    #: The size of the action space.
    num_actions: ClassVar[int]
    #: The engine deal being played.
    deal: Any

    def __init__(self) -> None:
        self.history: list[tuple[int, int]] = []

    @property
    @abstractmethod
    def num_seats(self) -> int: ...

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to act, or None once the deal is over."""

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    @abstractmethod
    def layout(self) -> Layout: ...

    @abstractmethod
    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to move, ascending (empty once over)."""

    @abstractmethod
    def apply_id(self, action: int) -> None:
        """Take action ``action`` for the seat to move (IllegalActionError if refused)."""

    @abstractmethod
    def action_name(self, action: int) -> str:
        """The action in the game's notation (``QC``, ``re``, ``solo queens ouvert``)."""

    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each seat's score of the deal so far (final once over); higher is better."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """The engine's observation of ``seat``."""

    @abstractmethod
    def encode(self, seat: int) -> FloatArray:
        """The observation vector of ``seat`` (see :attr:`layout`)."""

    @abstractmethod
    def copy(self) -> Table: ...

    def view(
        self, seat: int = 0, *, public: bool = True, private: PrivateInfo = "all"
    ) -> FloatArray:
        """A view of the deal (:func:`view_layout`): by default the whole deal, every
        hand and the public blocks, seat rows absolute (PettingZoo's ``state()``)."""
        layout = view_layout(self.layout, self.num_seats, public=public, private=private)
        out = layout.zeros()
        encode_view(
            self.layout, self.encode, self.num_seats, seat, layout.views(out), private=private
        )
        return out

    def known_actions(self, viewer: Viewer) -> list[int | None]:
        """The id of every action in :attr:`history` as ``viewer`` knows it (None: hidden).

        Every action is public but a seat's Armut picks (Doppelkopf): the picking
        seat knows them, the receiving seat once the exchange is made, ``"all"``
        always, the public never.
        """
        return [a for _, a in self.history]

    def mask(self) -> MaskArray:
        """The action mask of the seat to move: 1 for each legal id."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[self.legal_ids()] = 1
        return out

    def describe(self, seat: int) -> str:
        """The observation of ``seat`` as text (compact JSON, without the options)."""
        data = self.observation(seat).to_dict()
        data.pop("options", None)
        return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)

    def history_text(self, viewer: int) -> str:
        """The actions so far as ``viewer`` saw them, space-separated ``seat:action``."""
        return " ".join(f"{s}:{self.action_name(a)}" for s, a in self.history)

    def _refuse(self, action: int) -> IllegalActionError:
        return IllegalActionError(
            "illegal_action_id",
            f"action id {action!r} is not legal now; legal ids: {self.legal_ids()}",
            seat=self.to_move,
            action=action,
        )


class SlobberhannesTable(Table):
    """A Slobberhannes deal over the 32 card ids; scores are minus the chips paid."""

    game: ClassVar[str] = "slobberhannes"
    num_actions: ClassVar[int] = SLOBBERHANNES_ACTIONS
    deal: SlobberhannesDeal

    def __init__(self, deal: SlobberhannesDeal) -> None:
        super().__init__()
        self.deal = deal
        if deal.actions:  # a deal already under way: take over its actions
            self.history = _slobberhannes_seats(deal)

    @classmethod
    def from_seed(
        cls,
        seed: int | random.Random,
        *,
        dealer: int,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
    ) -> SlobberhannesTable:
        return cls(SlobberhannesDeal.from_seed(seed, dealer=dealer, options=options))

    @property
    def num_seats(self) -> int:
        return self.deal.num_seats

    @property
    def to_move(self) -> int | None:
        return self.deal.to_move

    @property
    def layout(self) -> Layout:
        options = self.deal.options
        return slobberhannes_layout(options.players, options.hand_size)

    def legal_ids(self) -> list[int]:
        return sorted(_SLOB_ID[c] for c in self.deal.legal_actions())

    def apply_id(self, action: int) -> None:
        seat = self.deal.to_move
        if seat is None or not 0 <= action < SLOBBERHANNES_ACTIONS:
            raise self._refuse(action)
        card = SLOBBERHANNES_CARDS[action]
        # The legal cards are cached by the deal (and what ``can`` would accept).
        if card not in self.deal.legal_actions():
            raise self._refuse(action)
        self.deal.apply(card)
        self.history.append((seat, action))

    def action_name(self, action: int) -> str:
        return slobberhannes_action_name(action)

    def scores(self) -> tuple[float, ...]:
        return tuple(-float(p) for p in self.deal.points())

    def observation(self, seat: int) -> SlobberhannesObservation:
        return self.deal.observation(seat)

    def encode(self, seat: int) -> FloatArray:
        return encode_slobberhannes(self.deal.observation(seat))

    def copy(self) -> SlobberhannesTable:
        new = SlobberhannesTable.__new__(SlobberhannesTable)
        new.deal = self.deal.copy()
        new.history = list(self.history)
        return new


def _slobberhannes_seats(deal: SlobberhannesDeal) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for trick in (*deal.tricks, deal.observation(0).trick):
        out.extend((s, _SLOB_ID[c]) for s, c in zip(trick.seats, trick.cards, strict=True))
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
