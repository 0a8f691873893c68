"""Observation vectors kept up to date action by action, for the PettingZoo environments.

:func:`~kartentisch.interop.encoding.encode_slobberhannes` builds a seat's vector
from the engine's observation, from nothing, every time it is asked: the
observation object, its sorted hand and frozen tricks, and a vector of views.
A reinforcement-learning loop asks for one vector per step, so the environment
keeps :class:`SlobberhannesVectors` instead: the deal's blocks with their seat
rows in absolute order, in one buffer, changed by a few elements per card
played. A seat's vector is then one gather from that buffer (seat rows made
relative to it), a new array each time, equal element for element to what
``encode_slobberhannes`` gives for the same seat (the tests compare them at every
step of random deals).

:func:`doppelkopf_vector` is ``encode_doppelkopf`` written into the flat vector
by precomputed offsets rather than through named views: the same values, built
from the same engine observation.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from kartentisch.cards import Card
from kartentisch.games.doppelkopf import (
    Call,
    DoppelkopfDeal,
    DoppelkopfObservation,
    DoppelkopfOptions,
    parse_action,
)
from kartentisch.games.doppelkopf.observation import revealed_parties
from kartentisch.games.doppelkopf.trumps import AUGEN
from kartentisch.games.slobberhannes import SlobberhannesDeal
from kartentisch.interop.encoding import (
    DECLARATION_ROUNDS,
    DOPPELKOPF_CARDS,
    DOPPELKOPF_PHASES,
    DOPPELKOPF_WORD_IDS,
    DOPPELKOPF_WORDS,
    SEEN_GAME_TYPES,
    SLOBBERHANNES_CARDS,
    FloatArray,
    MaskArray,
    doppelkopf_layout,
    slobberhannes_layout,
)

__all__ = [
    "SlobberhannesVectors",
    "doppelkopf_deal_vector",
    "doppelkopf_vector",
    "slobberhannes_mask",
]

_SLOB_ID: Final = {c: i for i, c in enumerate(SLOBBERHANNES_CARDS)}
_CARDS: Final = len(SLOBBERHANNES_CARDS)
IndexArray = npt.NDArray[np.intp]


class _Base:
    """Offsets of the absolute blocks in the buffer of an ``n``-seat, ``h``-card deal."""

    def __init__(self, n: int, h: int) -> None:
        rows = n * _CARDS
        self.hand = 0
        self.trick = rows
        self.played = 2 * rows
        self.leader = 3 * rows
        self.to_move = self.leader + n
        self.dealer = self.to_move + n
        self.penalties = self.dealer + n
        self.tricks_done = self.penalties + n
        self.size = self.tricks_done + h + 1


@cache
def _plan(n: int, h: int) -> tuple[_Base, tuple[IndexArray, ...]]:
    """The buffer's offsets, and for each seat the buffer index of each element of
    its vector (:func:`slobberhannes_layout`'s blocks, seat rows relative)."""
    base = _Base(n, h)
    layout = slobberhannes_layout(n, h)
    gathers: list[IndexArray] = []
    for me in range(n):
        index: list[int] = []
        for block in layout.blocks:
            name = block.name
            if name == "hand":
                index.extend(base.hand + me * _CARDS + c for c in range(_CARDS))
            elif name in ("trick", "played"):
                start = getattr(base, name)
                for r in range(n):
                    row = start + ((me + r) % n) * _CARDS
                    index.extend(range(row, row + _CARDS))
            elif name in ("leader", "to_move", "dealer", "penalties"):
                start = getattr(base, name)
                index.extend(start + (me + r) % n for r in range(n))
            elif name == "tricks_done":
                index.extend(range(base.tricks_done, base.tricks_done + h + 1))
            else:  # pragma: no cover - the layout and this plan are kept together
                raise AssertionError(f"unknown block {name}")
        assert len(index) == layout.size
        gathers.append(np.array(index, dtype=np.intp))
    return base, tuple(gathers)


class SlobberhannesVectors:
    """Every seat's observation vector of one deal, kept current by :meth:`played`.

    Create it for a fresh deal (or one under way: its cards so far are taken
    over), call :meth:`played` after each card the deal accepts, and
    :meth:`vector` gives a seat's vector as ``encode_slobberhannes`` would.
    """

    __slots__ = (
        "_base",
        "_buffer",
        "_gather",
        "_lead",
        "_move",
        "_n",
        "_trick_no",
        "_values",
        "actions",
        "deal",
    )

    def __init__(self, deal: SlobberhannesDeal) -> None:
        options = deal.options
        n = options.players
        self.deal = deal
        #: How many cards of the deal the vectors show.
        self.actions = len(deal.actions)
        self._n = n
        base, self._gather = _plan(n, options.hand_size)
        self._base = base
        self._buffer = array("f", bytes(4 * base.size))
        self._values: FloatArray = np.frombuffer(self._buffer, dtype=np.float32)
        buffer = self._buffer
        for seat, hand in enumerate(deal.initial_hands):
            for card in hand:
                buffer[base.hand + seat * _CARDS + _SLOB_ID[card]] = 1.0
        buffer[base.dealer + deal.dealer] = 1.0
        tricks = deal.tricks
        for trick in tricks:
            for seat, card in zip(trick.seats, trick.cards, strict=True):
                buffer[base.hand + seat * _CARDS + _SLOB_ID[card]] = 0.0
                buffer[base.played + seat * _CARDS + _SLOB_ID[card]] = 1.0
        current = deal.observation(0).trick
        for seat, card in zip(current.seats, current.cards, strict=True):
            self._card(seat, _SLOB_ID[card])
        self._trick_no = len(tricks) + 1
        buffer[base.tricks_done + len(tricks)] = 1.0
        for seat, chips in enumerate(deal.points()):
            buffer[base.penalties + seat] = float(chips)
        self._lead = self._move = -1
        self._turn()

    def _card(self, seat: int, card: int) -> None:
        base, buffer = self._base, self._buffer
        buffer[base.hand + seat * _CARDS + card] = 0.0
        buffer[base.trick + seat * _CARDS + card] = 1.0

    def _trick_done(self) -> None:
        """Move a completed trick to the played cards; the penalties may have changed."""
        deal = self.deal
        number = deal.trick_number
        if number == self._trick_no:
            return
        base, values = self._base, self._values
        trick = values[base.trick : base.played]
        values[base.played : base.leader] += trick
        trick[:] = 0.0
        buffer = self._buffer
        buffer[base.tricks_done + self._trick_no - 1] = 0.0
        buffer[base.tricks_done + number - 1] = 1.0
        self._trick_no = number
        for seat, chips in enumerate(deal.points()):
            buffer[base.penalties + seat] = float(chips)

    def _turn(self) -> None:
        """The leader and the seat to move (neither once the deal is over)."""
        buffer = self._buffer
        if self._lead >= 0:
            buffer[self._lead] = 0.0
            buffer[self._move] = 0.0
        deal = self.deal
        to_move = deal.to_move
        if to_move is None:
            self._lead = self._move = -1
            return
        base = self._base
        self._lead = base.leader + deal.leader
        self._move = base.to_move + to_move
        buffer[self._lead] = 1.0
        buffer[self._move] = 1.0

    def played(self, seat: int, card: int) -> None:
        """Seat ``seat`` played the card of id ``card`` (the deal has applied it)."""
        base, buffer = self._base, self._buffer
        buffer[base.hand + seat * _CARDS + card] = 0.0
        buffer[base.trick + seat * _CARDS + card] = 1.0
        deal = self.deal
        if deal.trick_number != self._trick_no:
            self._trick_done()
        # The leader and the seat to move (as _turn, inline: once a card).
        to_move = deal.to_move
        if to_move is None or self._lead < 0:
            self._turn()
        else:
            buffer[self._lead] = 0.0
            buffer[self._move] = 0.0
            self._lead = base.leader + deal.leader
            self._move = base.to_move + to_move
            buffer[self._lead] = 1.0
            buffer[self._move] = 1.0
        self.actions += 1

    def vector(self, seat: int) -> FloatArray:
        """Seat ``seat``'s observation vector (a new array)."""
        return self._values[self._gather[seat]]


def slobberhannes_mask(legal: Sequence[Card]) -> MaskArray:
    """The action mask of the given legal cards (int8, 1 for each legal id)."""
    mask = bytearray(_CARDS)
    for card in legal:
        mask[_SLOB_ID[card]] = 1
    return np.frombuffer(mask, dtype=np.int8)


# -- Doppelkopf: the same encoder, by flat offsets -----------------------------------------

_DOKO_ID: Final = {c: i for i, c in enumerate(DOPPELKOPF_CARDS)}
_DOKO_CARDS: Final = len(DOPPELKOPF_CARDS)


@cache
def _doppelkopf_offsets(n: int, h: int) -> tuple[int, dict[str, int]]:
    layout = doppelkopf_layout(n, h)
    return layout.size, dict(layout.offsets)


@cache
def _said_index(text: str) -> int | None:
    """The word id of a declaration as the observation writes it (None: no id)."""
    action = parse_action(text)
    return DOPPELKOPF_WORD_IDS.get(action) if isinstance(action, Call) else None


def doppelkopf_vector(obs: DoppelkopfObservation, selection: Sequence[Card] = ()) -> FloatArray:
    """``encode_doppelkopf(obs, selection)``, written by flat offsets (the same values)."""
    n = obs.players
    size, at = _doppelkopf_offsets(n, obs.options.hand_size)
    out = array("f", bytes(4 * size))
    me = obs.seat
    cards = _DOKO_CARDS
    ids = _DOKO_ID
    base = at["hand"]
    for card in obs.hand:
        out[base + ids[card]] += 1.0
    base = at["trick"]
    trick = obs.trick
    for seat, card in zip(trick.seats, trick.cards, strict=True):
        out[base + ((seat - me) % n) * cards + ids[card]] = 1.0
    played, augen = at["played"], at["augen"]
    for done in obs.tricks:
        for seat, card in zip(done.seats, done.cards, strict=True):
            out[played + ((seat - me) % n) * cards + ids[card]] += 1.0
        if done.winner is not None:
            out[augen + (done.winner - me) % n] += sum(AUGEN[c] for c in done.cards)
    if obs.to_move is not None:
        out[at["to_move"] + (obs.to_move - me) % n] = 1.0
        if obs.phase == "play":
            out[at["leader"] + (trick.leader - me) % n] = 1.0
    out[at["dealer"] + (obs.dealer - me) % n] = 1.0
    out[at["phase"] + DOPPELKOPF_PHASES.index(obs.phase)] = 1.0
    if obs.declaration_round is not None:
        out[at["round"] + DECLARATION_ROUNDS.index(obs.declaration_round)] = 1.0
    said, words = at["said"], len(DOPPELKOPF_WORDS)
    for seat, text in obs.declarations:
        index = _said_index(text)
        if index is not None:
            out[said + ((seat - me) % n) * words + index - cards] = 1.0
    for a in obs.announcements:
        out[said + ((a.seat - me) % n) * words + DOPPELKOPF_WORD_IDS[Call(a.word)] - cards] = 1.0
    out[at["game_type"] + SEEN_GAME_TYPES.index(obs.game_type)] = 1.0
    for name, seat_or_none in (
        ("soloist", obs.soloist),
        ("hochzeit", obs.hochzeit),
        ("hochzeit_partner", obs.hochzeit_partner),
        ("armut", obs.armut),
        ("armut_partner", obs.armut_partner),
    ):
        if seat_or_none is not None:
            out[at[name] + (seat_or_none - me) % n] = 1.0
    for name, held in (
        ("open_hand", obs.open_hand),
        ("armut_given", obs.armut_cards),
        ("armut_returned", obs.armut_returned),
        ("selection", selection),
    ):
        base = at[name]
        for card in held:
            out[base + ids[card]] += 1.0
    if obs.armut is not None:
        out[at["armut_trumps"]] = obs.armut_trumps
        out[at["armut_trumps"] + 1] = obs.armut_returned_trumps
    scharfe = at["scharfe"]
    if obs.scharfe_aces is not None:
        out[scharfe + ((obs.scharfe_aces - me) % n) * 2] = 1.0
    if obs.scharfe_kings is not None:
        out[scharfe + ((obs.scharfe_kings - me) % n) * 2 + 1] = 1.0
    base = at["trumps"]
    for card in obs.trumps:
        out[base + ids[card]] = 1.0
    if obs.party is not None:
        out[at["party"] + (0 if obs.party == "re" else 1)] = 1.0
    revealed = at["revealed"]
    for seat, party in obs.revealed.items():
        out[revealed + ((seat - me) % n) * 2 + (0 if party == "re" else 1)] = 1.0
    out[at["tricks_done"] + len(obs.tricks)] = 1.0
    return np.frombuffer(out, dtype=np.float32)


# -- Doppelkopf: the same vector, from the deal itself --------------------------------------

#: The said-block index of each declaration (by the engine's action), as ``_said_index``.
_CALL_SAID: dict[object, int | None] = {}
#: The word id of each announcement word.
_WORD_SAID: Final = {
    w.word: i for w, i in DOPPELKOPF_WORD_IDS.items() if not w.detail and not w.ouvert
}


@cache
def _deck_ids(options: DoppelkopfOptions) -> tuple[tuple[Card, int], ...]:
    """The distinct cards of the options' deck with their ids, in deck order."""
    return tuple((c, _DOKO_ID[c]) for c in dict.fromkeys(options.deck()))


def doppelkopf_deal_vector(
    deal: DoppelkopfDeal, seat: int, selection: Sequence[Card] = ()
) -> FloatArray:
    """``encode_doppelkopf(deal.observation(seat), selection)`` read from the deal's
    state directly, without building the observation (the same values: the tests
    compare them at every step of random deals under several rule sets)."""
    n = deal.num_seats
    options = deal.options
    size, at = _doppelkopf_offsets(n, options.hand_size)
    out = array("f", bytes(4 * size))
    me = seat
    cards = _DOKO_CARDS
    ids = _DOKO_ID
    phase = deal.phase
    over = deal.outcome is not None
    play = deal.trick_play
    silent_hidden = deal.silent and not over and seat != deal.soloist
    started = phase == "play" or phase == "done"
    hands = play.hands if play is not None else deal.hands
    base = at["hand"]
    for card in hands[seat]:
        out[base + ids[card]] += 1.0
    augen = at["augen"]
    tricks_done = 0
    if play is not None:
        trick = play.trick
        base = at["trick"]
        for s, card in zip(trick.seats, trick.cards, strict=True):
            out[base + ((s - me) % n) * cards + ids[card]] = 1.0
        played = at["played"]
        for done in play.tricks:
            for s, card in zip(done.seats, done.cards, strict=True):
                out[played + ((s - me) % n) * cards + ids[card]] += 1.0
            if done.winner is not None:
                out[augen + (done.winner - me) % n] += sum(AUGEN[c] for c in done.cards)
            tricks_done += 1
    to_move = deal.to_move
    if to_move is not None:
        out[at["to_move"] + (to_move - me) % n] = 1.0
        if phase == "play":
            assert play is not None
            out[at["leader"] + (play.trick.leader - me) % n] = 1.0
    out[at["dealer"] + (deal.dealer - me) % n] = 1.0
    out[at["phase"] + DOPPELKOPF_PHASES.index(phase)] = 1.0
    declaration_round = deal.declaration_round
    if declaration_round is not None:
        out[at["round"] + DECLARATION_ROUNDS.index(declaration_round)] = 1.0
    said, words = at["said"], len(DOPPELKOPF_WORDS)
    for s, call in deal.declarations:
        index = _CALL_SAID.get(call, -1)
        if index == -1:
            index = _CALL_SAID[call] = _said_index(str(call))
        if index is not None:
            out[said + ((s - me) % n) * words + index - cards] = 1.0
    for a in deal.announcements:
        out[said + ((a.seat - me) % n) * words + _WORD_SAID[a.word] - cards] = 1.0
    if phase == "declare" or phase.startswith("armut"):
        game_type = "undecided"
    else:
        game_type = "normal" if silent_hidden else deal.game_type
    out[at["game_type"] + SEEN_GAME_TYPES.index(game_type)] = 1.0
    soloist = deal.soloist
    if deal.solo and not silent_hidden and started and soloist is not None:
        out[at["soloist"] + (soloist - me) % n] = 1.0
    for name, seat_or_none in (
        ("hochzeit", deal.hochzeit_by),
        ("hochzeit_partner", deal.hochzeit_partner),
        ("armut", deal.armut_by),
        ("armut_partner", deal.armut_partner),
    ):
        if seat_or_none is not None:
            out[at[name] + (seat_or_none - me) % n] = 1.0
    if deal.ouvert and started and soloist is not None:
        base = at["open_hand"]
        for card in hands[soloist]:
            out[base + ids[card]] += 1.0
    if seat == deal.armut_by or seat == deal.armut_partner:
        for name, held in (
            ("armut_given", deal.armut_given),
            ("armut_returned", deal.armut_returned),
        ):
            base = at[name]
            for card in held:
                out[base + ids[card]] += 1.0
    base = at["selection"]
    for card in selection:
        out[base + ids[card]] += 1.0
    if deal.armut_by is not None:
        out[at["armut_trumps"]] = deal.armut_trumps
        out[at["armut_trumps"] + 1] = deal.armut_returned_trumps
    scharfe = at["scharfe"]
    if deal.scharfe_aces_by is not None:
        out[scharfe + ((deal.scharfe_aces_by - me) % n) * 2] = 1.0
    if deal.scharfe_kings_by is not None:
        out[scharfe + ((deal.scharfe_kings_by - me) % n) * 2 + 1] = 1.0
    suit_of = deal.order_known_to(seat).suit_of
    base = at["trumps"]
    for card, index in _deck_ids(options):
        if suit_of[card] == 4:
            out[base + index] = 1.0
    party = deal.party_of(seat) if started else None
    if silent_hidden and party is None:
        party = "kontra"
    if party is not None:
        out[at["party"] + (0 if party == "re" else 1)] = 1.0
    revealed = at["revealed"]
    for s, side in revealed_parties(deal).items():
        out[revealed + ((s - me) % n) * 2 + (0 if side == "re" else 1)] = 1.0
    out[at["tricks_done"] + tricks_done] = 1.0
    return np.frombuffer(out, dtype=np.float32)
