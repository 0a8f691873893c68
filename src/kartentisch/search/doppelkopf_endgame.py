"""The last tricks of a Doppelkopf deal searched for the game's score, not its Augen.

The exact solver (:mod:`kartentisch.search.doppelkopf_solver`) values a position
by the Augen the scoring party takes, and a bot maps them to a score; the extra
points (a Fuchs caught, the Karlchen, a Doppelkopf trick …), the announcements'
value, the DDV or house counting and every other scoring option are left out
there. Near the end of a deal few lines remain, and this search plays them all
out and scores each ending with the engine's own scorer
(:func:`~kartentisch.games.doppelkopf.scoring.score_game` on the facts
:func:`~kartentisch.games.doppelkopf.play.facts_of` builds from the table's
options), so a card is worth exactly what it scores under the table's rules.

**The model.** Every hand and both parties are known (a sample of the
determinizer, as for the exact solver). The value of an ending is what a Re
player scores minus what a Kontra player scores (each party's mean; house
rules: Re winning 10 is worth +10, Kontra winning 20 is −20, as the strong
bot's Augen utility counts): Re maximises it, Kontra minimises it, alpha-beta
over the cards still to play (equal cards in a hand searched once). The
endings of a deal are few: with three tricks left at most 3⁴ · 2⁴ = 1,296
lines, most of them cut off.

>>> from kartentisch.games.doppelkopf import Call, DoppelkopfDeal
>>> from kartentisch.search.doppelkopf_solver import Position
>>> deal = DoppelkopfDeal.from_seed(3, dealer=0)
>>> while deal.phase == "declare":
...     _ = deal.apply(Call("pass"))
>>> while deal.trick_number < 9:
...     _ = deal.apply(min(deal.following_actions()))
>>> ending = Ending.of_deal(deal)
>>> values = ending.values(Position.of(deal), deal.following_actions())
>>> len(values) == len(deal.following_actions())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kartentisch.cards import Card
from kartentisch.games.doppelkopf.play import counted_announcement, facts_of
from kartentisch.games.doppelkopf.scoring import (
    SOLO_GAME_TYPES,
    GameFacts,
    ScoringTrick,
    score_game,
)
from kartentisch.games.doppelkopf.trumps import is_normal_order
from kartentisch.tricks import TRUMP, PlayedTrick, TrickOrder

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
    from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
    from kartentisch.games.doppelkopf.options import DoppelkopfOptions
    from kartentisch.search.doppelkopf_solver import Position

__all__ = ["Ending", "known_facts", "party_value", "with_party"]

_INF = float("inf")


@dataclass(frozen=True, slots=True)
class Ending:
    """What the score of a deal depends on besides its last tricks, as one seat knows it.

    ``facts`` are the game's facts with the tricks played so far and Re as
    seen (each sample sets its own Re party); :meth:`values` completes them.
    """

    facts: GameFacts
    order: TrickOrder
    options: DoppelkopfOptions

    @classmethod
    def of(cls, obs: DoppelkopfObservation, order: TrickOrder) -> Ending | None:
        """The ending as ``obs`` knows it, or None where the score is not searched
        here: an open Hochzeit (the parties are not known) or a Nullsolo."""
        facts = known_facts(obs)
        if facts is None:
            return None
        trumps = obs.options.deck_cards() & order.suit_cards[TRUMP]
        return cls(replace(facts, trumps=trumps), order, obs.options)

    @classmethod
    def of_deal(cls, deal: DoppelkopfDeal) -> Ending:
        """The ending of a deal in play, from the engine's view (for tests and analysis)."""
        ending = cls.of(deal.observation(deal.playing[0]), deal.order)
        if ending is None:
            raise ValueError("the score of this deal is not searched (open Hochzeit, Nullsolo)")
        return ending

    def values(self, position: Position, cards: Sequence[Card]) -> list[float]:
        """A Re player's points minus a Kontra player's at the end of best play after
        each of ``cards`` (the mover's, in ``position``)."""
        return self.search(position, cards)[0]

    def search(self, position: Position, cards: Sequence[Card]) -> tuple[list[float], int]:
        """:meth:`values`, and the endings scored to find them."""
        re = (
            position.party
            if position.model == "augen"
            else frozenset(position.seats) - position.party
        )
        search = _Search(with_party(self.facts, re, self.options), self.order, position)
        return [search.after(card) for card in cards], search.leaves


def known_facts(obs: DoppelkopfObservation) -> GameFacts | None:
    """The facts of the game as ``obs`` knows them, the tricks played so far included
    and no Re party yet (each sample sets its own); None for an open Hochzeit (the
    parties are not known) or a Nullsolo (not searched)."""
    game_type = obs.game_type
    if game_type == "null" or (game_type == "hochzeit" and obs.hochzeit_partner is None):
        return None
    options = obs.options
    solo = game_type in SOLO_GAME_TYPES
    announcements = tuple(a for a in obs.announcements if counted_announcement(a, solo, options))
    scharfe = obs.scharfe_aces is not None and is_normal_order(game_type, options.solo_style)
    return facts_of(
        options,
        seats=obs.playing,
        re_party=frozenset(),
        game_type=game_type,
        solo=solo,
        ouvert=obs.ouvert,
        announcements=announcements,
        tricks=_scoring(obs.tricks),
        trumps=frozenset(obs.trumps),
        scharfe_aces=scharfe,
        offenders=frozenset(),
        bock_multiplier=obs.bock_multiplier,
        schweinchen=any(kind == "schweinchen" for _, kind in obs.pigs),
        hochzeit_trick=obs.hochzeit_trick,
    )


def with_party(facts: GameFacts, re: frozenset[int], options: DoppelkopfOptions) -> GameFacts:
    """``facts`` with ``re`` as the Re party; a lone Re outside a solo is a sample in
    which one seat holds both Alten: a silent solo (a Trumpfsolo)."""
    facts = replace(facts, re_party=re)
    if len(re) == 1 and not facts.solo:
        kept = tuple(a for a in facts.announcements if counted_announcement(a, True, options))
        facts = replace(facts, game_type="trump", solo=True, announcements=kept)
    return facts


def party_value(facts: GameFacts, points: Sequence[int]) -> float:
    """What a Re player scores minus what a Kontra player scores."""
    re = facts.re_party
    mine = [points[s] for s in facts.seats if s in re]
    theirs = [points[s] for s in facts.seats if s not in re]
    return sum(mine) / len(mine) - sum(theirs) / len(theirs)


def _scoring(tricks: Sequence[PlayedTrick]) -> tuple[ScoringTrick, ...]:
    return tuple(
        ScoringTrick(tuple(t.seats), tuple(t.cards), t.winner)  # type: ignore[arg-type]
        for t in tricks
    )


class _Search:
    """Alpha-beta over the cards still to play; leaves scored by the engine's scorer."""

    def __init__(self, facts: GameFacts, order: TrickOrder, position: Position) -> None:
        self.facts = facts
        self.order = order
        self.re = facts.re_party
        self.hands = [list(h) for h in position.hands]
        rotation = position.rotation
        self.trick_seats = list(rotation[: len(position.trick)])
        self.trick_cards = list(position.trick)
        self.leader = position.leader
        self.seats = position.seats
        self.done: list[ScoringTrick] = []
        self.leaves = 0

    def _next(self) -> int:
        i = self.seats.index(self.leader)
        return self.seats[(i + len(self.trick_cards)) % 4]

    def after(self, card: Card) -> float:
        seat = self._next()
        return self._play(seat, card, -_INF, _INF)

    def _play(self, seat: int, card: Card, alpha: float, beta: float) -> float:
        """The value after ``seat`` plays ``card``, searched within (alpha, beta)."""
        hand = self.hands[seat]
        hand.remove(card)
        self.trick_seats.append(seat)
        self.trick_cards.append(card)
        finished: ScoringTrick | None = None
        leader = self.leader
        if len(self.trick_cards) == 4:
            last = not hand
            won = self.order.winner(self.trick_cards, last=last)
            winner = self.trick_seats[won]
            finished = ScoringTrick(
                tuple(self.trick_seats),
                tuple(self.trick_cards),
                winner,
            )
            self.done.append(finished)
            saved = (self.trick_seats, self.trick_cards)
            self.trick_seats, self.trick_cards = [], []
            self.leader = winner
        value = self._value(alpha, beta)
        if finished is not None:
            self.done.pop()
            self.trick_seats, self.trick_cards = saved
            self.leader = leader
        self.trick_seats.pop()
        self.trick_cards.pop()
        hand.append(card)
        return value

    def _value(self, alpha: float, beta: float) -> float:
        mover = self._next()
        hand = self.hands[mover]
        if not hand:
            return self._leaf()
        led = self.order.suit_of[self.trick_cards[0]] if self.trick_cards else None
        moves = list(dict.fromkeys(self.order.playable(hand, led)))
        maximize = mover in self.re
        best = -_INF if maximize else _INF
        for card in moves:
            v = self._play(mover, card, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _leaf(self) -> float:
        self.leaves += 1
        facts = replace(self.facts, tricks=self.facts.tricks + tuple(self.done))
        return party_value(facts, score_game(facts).points)
