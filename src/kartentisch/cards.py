"""Cards, suits, ranks, decks and the card notation.

A :class:`Card` is a small interned ``int`` (0..51): cheap to hash, compare and
store in sets, and it round-trips through text like a chess move does.

>>> Card("QC")
Card('QC')
>>> str(Card("10♦")), Card("td").symbol
('10D', '10♦')
>>> Card("qc").name("de"), Card("qc").name("en"), Card("qc").name("ru")
('Kreuz-Dame', 'queen of clubs', 'дама треф')
>>> len(piquet_deck()), len(doppelkopf_deck()), len(doppelkopf_deck(nines=True)), len(full_deck())
(32, 40, 48, 52)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Final

from kartentisch import dealing
from kartentisch.errors import NotationError

__all__ = [
    "CARDS",
    "Card",
    "Rank",
    "Suit",
    "deal_packets",
    "doppelkopf_deck",
    "format_cards",
    "full_deck",
    "parse_cards",
    "piquet_deck",
    "shuffled",
]

LANGUAGES: Final = ("de", "en", "ru")


class Suit(IntEnum):
    """The four French suits, in the order ♣ ♠ ♥ ♦ (Kreuz, Pik, Herz, Karo)."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return "CSHD"[self]

    @property
    def symbol(self) -> str:
        return "♣♠♥♦"[self]

    def name_in(self, lang: str = "en") -> str:
        """The suit's name in ``de``, ``en`` or ``ru`` (nominative plural in Russian)."""
        return _SUIT_NAMES[_lang(lang)][self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter or symbol, case-insensitive.

        >>> Suit.parse("♥"), Suit.parse("c")
        (<Suit.HEARTS: 2>, <Suit.CLUBS: 0>)
        """
        key = text.strip().upper()
        if key in _SUIT_KEYS:
            return _SUIT_KEYS[key]
        raise NotationError(f"unknown suit {text!r}: use C S H D or ♣ ♠ ♥ ♦")


class Rank(IntEnum):
    """Ranks 2..A; the value is the usual pip value with J=11 … A=14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self]

    def name_in(self, lang: str = "en") -> str:
        return _RANK_NAMES[_lang(lang)][self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``A K Q J 10 9 … 2``, ``T`` for ten, case-insensitive."""
        key = text.strip().upper()
        if key in _RANK_KEYS:
            return _RANK_KEYS[key]
        raise NotationError(f"unknown rank {text!r}: use A K Q J 10 (or T) 9 8 7 6 5 4 3 2")


_SUIT_KEYS: Final = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    # The text-style variants of the symbols as some keyboards produce them.
    "♧": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
}
_RANK_LETTERS: Final = {
    **{Rank(v): str(v) for v in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_KEYS: Final = {**{v: k for k, v in _RANK_LETTERS.items()}, "T": Rank.TEN}

_SUIT_NAMES: Final = {
    "en": ("clubs", "spades", "hearts", "diamonds"),
    "de": ("Kreuz", "Pik", "Herz", "Karo"),
    # Genitive plural, as the suit is named after the rank: "дама треф".
    "ru": ("треф", "пик", "червей", "бубен"),
}
_RANK_NAMES: Final = {
    "en": {
        **dict(
            zip(
                Rank,
                ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
                strict=False,
            )
        ),
        Rank.JACK: "jack",
        Rank.QUEEN: "queen",
        Rank.KING: "king",
        Rank.ACE: "ace",
    },
    "de": {
        **{Rank(v): str(v) for v in range(2, 11)},
        Rank.JACK: "Bube",
        Rank.QUEEN: "Dame",
        Rank.KING: "König",
        Rank.ACE: "Ass",
    },
    "ru": {
        **dict(
            zip(
                Rank,
                (
                    "двойка",
                    "тройка",
                    "четвёрка",
                    "пятёрка",
                    "шестёрка",
                    "семёрка",
                    "восьмёрка",
                    "девятка",
                    "десятка",
                ),
                strict=False,
            )
        ),
        Rank.JACK: "валет",
        Rank.QUEEN: "дама",
        Rank.KING: "король",
        Rank.ACE: "туз",
    },
}


def _lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return lang


class Card(int):
    """A playing card: an interned int ``suit * 13 + (rank - 2)``.

    ``Card("QC")``, ``Card("Q♣")`` and ``Card(10)`` are the same object.
    Two physical copies of a card (as in Doppelkopf) are the same value.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
            return CARDS[value]
        raise NotationError(f"no card has index {value!r}: indices run from 0 to 51")

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of ``rank`` and ``suit``.

        >>> Card.of(Rank.QUEEN, Suit.CLUBS)
        Card('QC')
        """
        return CARDS[int(suit) * 13 + int(rank) - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``<rank><suit>``: ``QC``, ``10d``, ``TD``, ``q♣``; surrounding space is ignored."""
        if not isinstance(text, str):
            raise NotationError(f"a card must be written as text, not {type(text).__name__}")
        key = text.strip().upper()
        card = _PARSED.get(key)
        if card is None:
            if len(key) < 2:
                raise NotationError(
                    f"cannot read card {text!r}: write rank then suit, e.g. QC, 10H, A♠"
                )
            rank, suit = Rank.parse(key[:-1]), Suit.parse(key[-1])
            card = cls.of(rank, suit)
        return card

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self]

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self]

    @property
    def mask(self) -> int:
        """This card's bit in a 52-bit set."""
        return 1 << self

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``Q♣``."""
        return _SYMBOL_OF[self]

    def name(self, lang: str = "en") -> str:
        """Display name: ``Kreuz-Dame``, ``queen of clubs``, ``дама треф``."""
        rank, suit = self.rank, self.suit
        if lang == "de":
            return f"{suit.name_in('de')}-{rank.name_in('de')}"
        if lang == "ru":
            return f"{rank.name_in('ru')} {suit.name_in('ru')}"
        return f"{rank.name_in(_lang(lang))} of {suit.name_in('en')}"

    def __str__(self) -> str:
        return _TEXT_OF[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT_OF[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _build_cards() -> tuple[Card, ...]:
    return tuple(int.__new__(Card, i) for i in range(52))


CARDS: Final[tuple[Card, ...]] = _build_cards()
_SUIT_OF: Final = tuple(Suit(i // 13) for i in range(52))
_RANK_OF: Final = tuple(Rank(i % 13 + 2) for i in range(52))
_TEXT_OF: Final = tuple(f"{_RANK_OF[i].letter}{_SUIT_OF[i].letter}" for i in range(52))
_SYMBOL_OF: Final = tuple(f"{_RANK_OF[i].letter}{_SUIT_OF[i].symbol}" for i in range(52))
_PARSED: Final = {
    **{_TEXT_OF[i]: CARDS[i] for i in range(52)},
    **{_SYMBOL_OF[i]: CARDS[i] for i in range(52)},
}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read several cards, from a string separated by spaces/commas or from a list.

    >>> parse_cards("QC 10h, as")
    [Card('QC'), Card('10H'), Card('AS')]
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    return " ".join(c.symbol if symbols else str(c) for c in cards)


def _deck(ranks: Iterable[int], copies: int = 1, without: Iterable[Card] = ()) -> list[Card]:
    removed = set(without)
    single = [Card.of(r, s) for s in Suit for r in sorted(ranks, reverse=True)]
    return [c for c in single if c not in removed] * copies


def full_deck() -> list[Card]:
    """The standard 52-card deck."""
    return _deck(range(2, 15))


def piquet_deck(without: Iterable[Card] = ()) -> list[Card]:
    """The 32-card deck A K Q J 10 9 8 7, optionally with some cards removed.

    The Slobberhannes reductions (3 and 5–6 players: without 7♣ 7♠; 7 players:
    without all sevens) are chosen by :mod:`kartentisch.games.slobberhannes`.
    """
    return _deck(range(7, 15), without=without)


def doppelkopf_deck(*, nines: bool = False) -> list[Card]:
    """Two copies each of A 10 K Q J (40 cards), or with the nines (48 cards)."""
    ranks = [14, 13, 12, 11, 10] + ([9] if nines else [])
    return _deck(ranks, copies=2)


def shuffled(deck: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy of ``deck`` drawn from an injected random source.

    The permutation ``rng.shuffle`` makes (drawn by :mod:`kartentisch.dealing`,
    which the build compiles).
    """
    return dealing.shuffled(deck, rng)


def deal_packets(
    deck: Sequence[Card], seats: Sequence[int], packets: Sequence[int]
) -> dict[int, list[Card]]:
    """Deal ``deck`` from the top in rounds of ``packets`` to ``seats`` in order.

    ``packets=(3, 2, 3)`` gives every seat three cards, then two, then three
    (dealt by :mod:`kartentisch.dealing`, which the build compiles).

    >>> hands = deal_packets(piquet_deck(), [1, 2, 3, 0], (3, 2, 3))
    >>> [len(hands[s]) for s in range(4)], hands[1][:3] == piquet_deck()[:3]
    ([8, 8, 8, 8], True)
    """
    return dealing.deal_packets(deck, seats, packets)
