"""The part of the observation encodings both games share: layouts, views, the table.

A :class:`Layout` names the blocks of an observation vector; :func:`view_layout`
and :func:`encode_view` make the public, private and whole-deal views of it; a
:class:`Table` is one deal as a turn-based game over integer action ids. Each
game's ids, layout, encoder and table are in
:mod:`kartentisch.interop.encoding_slobberhannes` and
:mod:`kartentisch.interop.encoding_doppelkopf`; :mod:`kartentisch.interop.encoding`
gathers all of them.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Literal

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as exc:  # pragma: no cover - the extras install numpy
    raise ImportError(
        "kartentisch.interop needs numpy: pip install 'kartentisch[rl]' "
        "(or 'kartentisch[openspiel]')"
    ) from exc

from kartentisch.errors import IllegalActionError

__all__ = [
    "Block",
    "FloatArray",
    "Layout",
    "MaskArray",
    "PrivateInfo",
    "Table",
    "Viewer",
    "encode_view",
    "view_layout",
]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]

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

    >>> from kartentisch.interop.encoding_slobberhannes import slobberhannes_layout
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
