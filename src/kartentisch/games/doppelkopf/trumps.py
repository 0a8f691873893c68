"""The trick order of every Doppelkopf game type, built on :class:`TrickOrder`.

Seed 003 § Trümpfe and RULINGS.md: in the normal game (and Hochzeit, Armut,
Trumpfsolo) the trumps are, high to low, [scharfes Herz-A], Herz-10 (Dulle),
[scharfer Herz-K], the queens ♣ ♠ ♥ ♦, the jacks ♣ ♠ ♥ ♦, then ♦ A 10 K (9).
The bracketed cards are trumps only when declared. Of two equal cards the
first played wins — the Dullen too — which is :class:`TrickOrder`'s rule.

>>> from kartentisch.cards import Card, parse_cards
>>> order = trick_order("normal")
>>> [str(c) for c in trump_cards("normal")][:3]
['10H', 'QC', 'QS']
>>> order.winner(parse_cards("10H QC 10H JD"))  # the first Dulle wins
0
>>> trick_order("normal", scharfe_aces=True).winner(parse_cards("10H AH QC JC"))
1
>>> [str(c) for c in trump_cards("hearts", style="ddv")]
['10H', 'QC', 'QS', 'QH', 'QD', 'JC', 'JS', 'JH', 'JD', 'AH', 'KH']
>>> trump_cards("null")
()
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from kartentisch.cards import Card, Rank, Suit
from kartentisch.tricks import TrickOrder

__all__ = [
    "AUGEN",
    "NORMAL_TYPES",
    "PIG_KINDS",
    "PLAIN_RANKS",
    "QUEEN_OF_CLUBS",
    "augen_of",
    "find_pigs",
    "is_normal_order",
    "pig_card",
    "sort_hand",
    "trick_order",
    "trump_cards",
]

#: Game types played with the normal trump order.
NORMAL_TYPES: Final = frozenset({"normal", "hochzeit", "armut", "trump"})
_SUIT_SOLI: Final = {
    "clubs": Suit.CLUBS,
    "spades": Suit.SPADES,
    "hearts": Suit.HEARTS,
    "diamonds": Suit.DIAMONDS,
}
#: The order of non-trump cards within a suit (seed 003, TSR 2.3).
PLAIN_RANKS: Final = "A 10 K Q J 9"
#: The Alte: who holds both plays a Hochzeit; the two holders are Re in a normal game.
QUEEN_OF_CLUBS: Final = Card("QC")
#: Card points (Augen) by card number: A 11, 10 10, K 4, Q 3, J 2, 9 0.
AUGEN: Final = tuple(
    {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}.get(Card(i).rank, 0)
    for i in range(52)
)

_DULLE: Final = Card("10H")
_QUEENS: Final = tuple(Card.of(Rank.QUEEN, s) for s in Suit)
_JACKS: Final = tuple(Card.of(Rank.JACK, s) for s in Suit)
_KINGS: Final = tuple(Card.of(Rank.KING, s) for s in Suit)
#: The picture soli: their trumps, highest first, each rank ♣ ♠ ♥ ♦ (FreeDoko's
#: order for the combined ones: kings above queens above jacks).
_PICTURE_SOLI: Final[dict[str, tuple[Card, ...]]] = {
    "queens": _QUEENS,
    "jacks": _JACKS,
    "kings": _KINGS,
    "queens_jacks": _QUEENS + _JACKS,
    "kings_queens": _KINGS + _QUEENS,
    "kings_jacks": _KINGS + _JACKS,
    "koehler": _KINGS + _QUEENS + _JACKS,
}


#: The pigs, highest first: both ♦9 (or ♦K), both ♦10, both ♦A in one hand.
PIG_KINDS: Final = ("hyperschweinchen", "superschweinchen", "schweinchen")


def pig_card(kind: str, *, nines: bool) -> Card:
    """The card of which one hand holds both to have the pig ``kind``.

    >>> str(pig_card("hyperschweinchen", nines=False)), str(pig_card("schweinchen", nines=True))
    ('KD', 'AD')
    """
    if kind == "schweinchen":
        return Card("AD")
    if kind == "superschweinchen":
        return Card("10D")
    if kind == "hyperschweinchen":
        return Card("9D") if nines else Card("KD")
    raise ValueError(f"unknown pig {kind!r}")


def find_pigs(
    hands: Sequence[Sequence[Card]],
    *,
    superschweinchen: bool = False,
    hyperschweinchen: bool = False,
    nines: bool = False,
) -> tuple[tuple[int, str], ...]:
    """Who holds which pig, highest first, as ``(seat, kind)``.

    The Schweinchen (both ♦A in one hand) come first: without them there are
    no Super- or Hyperschweinchen.

    >>> from kartentisch.cards import parse_cards
    >>> hands = [parse_cards("AD AD 10D"), parse_cards("10D KD"), parse_cards("KD")]
    >>> find_pigs(hands, superschweinchen=True, hyperschweinchen=True)
    ((0, 'schweinchen'),)
    >>> hands[0] = parse_cards("AD AD KD KD")
    >>> find_pigs(hands, superschweinchen=True, hyperschweinchen=True)
    ((0, 'hyperschweinchen'), (0, 'schweinchen'))
    """
    wanted = [
        kind
        for kind, on in zip(PIG_KINDS, (hyperschweinchen, superschweinchen, True), strict=True)
        if on
    ]
    found: dict[str, int] = {}
    for kind in reversed(wanted):
        card = pig_card(kind, nines=nines)
        for seat, hand in enumerate(hands):
            if hand.count(card) == 2:
                found[kind] = seat
        if "schweinchen" not in found:
            return ()
    return tuple((found[k], k) for k in PIG_KINDS if k in found)


def _suit_part(suit: Suit, ranks: tuple[Rank, ...]) -> tuple[Card, ...]:
    return tuple(Card.of(r, suit) for r in ranks)


def is_normal_order(game_type: str, style: str = "literal") -> bool:
    """Whether ``game_type`` uses the normal trump order (where Scharfe apply)."""
    return game_type in NORMAL_TYPES or (game_type == "diamonds" and style == "ddv")


@functools.cache
def trump_cards(
    game_type: str,
    *,
    style: str = "literal",
    scharfe_aces: bool = False,
    scharfe_kings: bool = False,
    nines: bool = False,
    dullen: bool = True,
    pigs: tuple[Card, ...] = (),
) -> tuple[Card, ...]:
    """The trumps of ``game_type``, highest first (one entry per card value).

    ``dullen=False``: the ♥10 is no trump of its own (the option ``dullen``); it is a
    plain heart between the ace and the king, or a trump of its suit in a hearts solo.
    ``pigs``: trumps that rise above all others in this deal, highest first (the
    Schweinchen ♦A and the Super- and Hyperschweinchen, see :data:`PIG_CARDS`).

    >>> [str(c) for c in trump_cards("normal", pigs=(Card("10D"), Card("AD")))][:4]
    ['10D', 'AD', '10H', 'QC']
    """
    if pigs:
        rest = trump_cards(
            game_type,
            style=style,
            scharfe_aces=scharfe_aces,
            scharfe_kings=scharfe_kings,
            nines=nines,
            dullen=dullen,
        )
        if not set(pigs) <= set(rest):
            raise ValueError(f"the pigs {[str(c) for c in pigs]} are not all trumps here")
        return (*pigs, *(c for c in rest if c not in pigs))
    low: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING) + ((Rank.NINE,) if nines else ())
    if is_normal_order(game_type, style) or (game_type in _SUIT_SOLI and style == "ddv"):
        suit = _SUIT_SOLI.get(game_type, Suit.DIAMONDS)
        top: list[Card] = []
        normal = is_normal_order(game_type, style)
        if normal and scharfe_aces:
            top.append(Card("AH"))
        if dullen:
            top.append(_DULLE)
        if normal and scharfe_kings:
            top.append(Card("KH"))
        tail = [c for c in _suit_part(suit, low) if c not in top]
        return (*top, *_QUEENS, *_JACKS, *tail)
    if game_type in _PICTURE_SOLI:
        return _PICTURE_SOLI[game_type]
    if game_type in _SUIT_SOLI:
        ranks = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
        return _suit_part(_SUIT_SOLI[game_type], ranks + ((Rank.NINE,) if nines else ()))
    if game_type in ("no_trump", "null", "fleischlos"):
        return ()
    raise ValueError(f"unknown Doppelkopf game type {game_type!r}")


def augen_of(cards: Sequence[Card]) -> int:
    """The card points in ``cards``.

    >>> from kartentisch.cards import parse_cards
    >>> augen_of(parse_cards("AH 10H KS QC JD 9D"))
    30
    """
    total = 0
    for card in cards:
        c: int = card
        total += AUGEN[c]
    return total


@functools.cache
def trick_order(
    game_type: str,
    *,
    style: str = "literal",
    scharfe_aces: bool = False,
    scharfe_kings: bool = False,
    nines: bool = False,
    dullen: bool = True,
    dulle_order: str = "first",
    pigs: tuple[Card, ...] = (),
) -> TrickOrder:
    """The shared :class:`TrickOrder` for one game type (cached).

    ``dulle_order``: of the two ♥10 (when they are the Dullen at the top of the
    trumps) the ``first`` played wins, as of any two equal cards; or the
    ``second``; or the second except in the last trick (``second_except_last``).
    """
    trumps = trump_cards(
        game_type,
        style=style,
        scharfe_aces=scharfe_aces,
        scharfe_kings=scharfe_kings,
        nines=nines,
        dullen=dullen,
        pigs=pigs,
    )
    if dulle_order not in ("first", "second", "second_except_last"):
        raise ValueError(f"unknown Dulle order {dulle_order!r}")
    # The ♥10 is a Dulle where it stands above the queens (not in a suit solo's own suit).
    dulle = _DULLE in trumps and QUEEN_OF_CLUBS in trumps and _DULLE not in pigs
    if dulle_order != "first" and dulle and trumps.index(_DULLE) < trumps.index(QUEEN_OF_CLUBS):
        return TrickOrder.with_trumps(
            trumps,
            PLAIN_RANKS,
            later_wins=(_DULLE,),
            later_wins_last=dulle_order == "second",
        )
    return TrickOrder.with_trumps(trumps, PLAIN_RANKS)


def sort_hand(cards: Sequence[Card], order: TrickOrder | None = None) -> tuple[Card, ...]:
    """Display order: trumps first (high to low), then ♣ ♠ ♥ ♦ high to low."""
    key = _display_keys(trick_order("normal") if order is None else order)
    return tuple(sorted(cards, key=key.__getitem__))


@functools.cache
def _display_keys(order: TrickOrder) -> tuple[tuple[int, int, int], ...]:
    """The sort key of every card index for :func:`sort_hand`."""
    power, suit_of = order.power, order.suit_of
    return tuple(
        (-power[c] if suit_of[c] == 4 else 0, suit_of[c], -power[c]) for c in range(len(power))
    )
