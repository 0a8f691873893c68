"""Shuffling and dealing a deck, compiled: the start of every card game's deal.

:func:`shuffled` returns exactly the permutation ``rng.shuffle`` makes with the
same generator state (the Fisher–Yates swaps, each index drawn by
``getrandbits`` with rejection, as CPython's ``random`` draws it) and leaves the
generator in the same state; the tests compare the two over many seeds. It is
its own module so that the build can compile it (setup.py): the deal of every
card game starts here, and the engine benchmark spends a tenth of a Doppelkopf
deal on the shuffle in Python. A generator of another type (a subclass, or
:class:`random.SystemRandom`) is shuffled by its own ``shuffle``.

>>> import random
>>> theirs = list(range(10))
>>> random.Random(3).shuffle(theirs)
>>> shuffled(range(10), random.Random(3)) == theirs
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

__all__ = ["deal_packets", "shuffled"]

T = TypeVar("T")


def shuffled(items: Iterable[T], rng: random.Random) -> list[T]:
    """A shuffled copy of ``items``, the permutation ``rng.shuffle`` would make."""
    out = list(items)
    if type(rng) is not random.Random:
        rng.shuffle(out)
        return out
    getrandbits = rng.getrandbits
    i = len(out) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        out[i], out[j] = out[j], out[i]
        i -= 1
    return out


def deal_packets(
    deck: Sequence[T], seats: Sequence[int], packets: Sequence[int]
) -> dict[int, list[T]]:
    """Deal ``deck`` from the top in rounds of ``packets`` to ``seats`` in order.

    >>> deal_packets("abcdefgh", [1, 0], (1, 3))
    {1: ['a', 'c', 'd', 'e'], 0: ['b', 'f', 'g', 'h']}
    """
    players = len(seats)
    if sum(packets) * players != len(deck):
        raise ValueError(
            f"packets {tuple(packets)} for {players} seats need "
            f"{sum(packets) * players} cards, the deck has {len(deck)}"
        )
    cards = list(deck)
    hands: dict[int, list[T]] = {seat: [] for seat in seats}
    pos = 0
    for size in packets:
        for seat in seats:
            hands[seat].extend(cards[pos : pos + size])
            pos += size
    return hands
