"""Constructed Doppelkopf deals: hands derived from the tricks as they are to be played.

A test writes the ten (or twelve) tricks in play order; :func:`script` works
out who plays each card (the winner of a trick leads the next, by the game's
trick order) and so each seat's hand. The engine then checks every card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions, parse_action
from kartentisch.games.doppelkopf.trumps import trick_order


@dataclass
class Script:
    hands: list[list[Card]]
    plays: list[tuple[int, Card]]
    winners: list[int]
    leader: int
    options: DoppelkopfOptions
    dealer: int
    exchange: tuple[int, int, tuple[Card, ...], tuple[Card, ...]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def deal(self, **kwargs: Any) -> DoppelkopfDeal:
        return DoppelkopfDeal(
            [list(h) for h in self.hands], dealer=self.dealer, options=self.options, **kwargs
        )


def script(
    tricks: Sequence[str],
    *,
    game: str = "normal",
    dealer: int = 3,
    leader: int | None = None,
    options: DoppelkopfOptions | None = None,
    scharfe_aces: bool = False,
    scharfe_kings: bool = False,
    armut: tuple[int, int, str, str] | None = None,
    pigs: str = "",
) -> Script:
    """Hands for ``tricks`` (card lists in play order) played as ``game``.

    ``armut=(poor, partner, "give cards", "return cards")`` undoes the Armut
    exchange so that the script's tricks are played with the hands after it.
    ``pigs`` (cards such as ``"AD"``) rise above all trumps (option ``schweinchen``).
    """
    options = options or DoppelkopfOptions()
    n = options.players
    playing = [s for s in range(n) if n == 4 or s != dealer]
    order = trick_order(
        game,
        style=options.solo_style,
        scharfe_aces=scharfe_aces,
        scharfe_kings=scharfe_kings,
        nines=options.nines,
        dullen=options.dullen,
        dulle_order=options.dulle_order,
        pigs=tuple(parse_cards(pigs)),
    )
    first = (
        leader
        if leader is not None
        else next(s for s in ((dealer + 1 + i) % n for i in range(n)) if s in playing)
    )
    hands: list[list[Card]] = [[] for _ in range(n)]
    plays: list[tuple[int, Card]] = []
    winners: list[int] = []
    lead = first
    for number, text in enumerate(tricks, start=1):
        cards = parse_cards(text)
        assert len(cards) == len(playing), f"trick {text!r} needs {len(playing)} cards"
        start = playing.index(lead)
        seats = [playing[(start + i) % len(playing)] for i in range(len(playing))]
        for seat, card in zip(seats, cards, strict=True):
            hands[seat].append(card)
            plays.append((seat, card))
        lead = seats[order.winner(cards, number == len(tricks))]
        winners.append(lead)
    exchange = None
    if armut is not None:
        poor, partner, given_text, returned_text = armut
        given, returned = tuple(parse_cards(given_text)), tuple(parse_cards(returned_text))
        # Undo the exchange: add first (a card may go over and come back).
        hands[poor].extend(given)
        for c in returned:
            hands[poor].remove(c)
        hands[partner].extend(returned)
        for c in given:
            hands[partner].remove(c)
        exchange = (poor, partner, given, returned)
    return Script(hands, plays, winners, first, options, dealer, exchange)


def act(deal: DoppelkopfDeal, *texts: str) -> None:
    """Apply actions in notation: ``"pass"``, ``"2:re"`` (seat 2 announces)."""
    for text in texts:
        seat: int | None = None
        body = text
        if ":" in text:
            head, body = text.split(":", 1)
            seat = int(head)
        deal.apply(parse_action(body), seat)


def pass_all(deal: DoppelkopfDeal) -> None:
    """Everyone passes every declaration round."""
    while deal.phase == "declare":
        deal.apply(Call("pass"))


def play_cards(
    deal: DoppelkopfDeal, plays: Iterable[tuple[int, Card]], *, until: int | None = None
) -> None:
    """Play the scripted cards (each by the seat that must play it)."""
    for i, (seat, card) in enumerate(plays):
        if until is not None and i >= until:
            return
        assert deal.to_move == seat, (
            f"card {i + 1}: expected seat {seat}, engine says {deal.to_move}"
        )
        deal.apply(card, seat)
