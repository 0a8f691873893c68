"""A heuristic Doppelkopf bot: declares, announces and plays by simple table wisdom.

It sees only its seat's observation. Declarations: Scharfe whenever it may;
a solo only with a hand that is nearly sure to win it; a Hochzeit with both
Alten; an Armut with three trumps or fewer (and it takes an Armut with a
strong trump hand); five kings are thrown in. It says Re or Kontra with a
strong trump hand and keine 90 with a very strong one. In play it leads
trumps when its party holds the trumps, cashes plain aces, gives its
partner points (schmieren) when the partner holds the trick, takes a trick
with the lowest card that wins it, and otherwise throws its cheapest card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from kartentisch.cards import Card, Rank, Suit
from kartentisch.games.doppelkopf.actions import Action, Call
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.trumps import AUGEN, pig_card, trick_order
from kartentisch.tricks import TRUMP, TrickOrder

__all__ = ["HeuristicDoppelkopfBot", "solo_strength"]

_PASS: Final = Call("pass")
_DULLE: Final = Card("10H")
_ALTE: Final = Card("QC")
_SUITS: Final = {
    "clubs": Suit.CLUBS,
    "spades": Suit.SPADES,
    "hearts": Suit.HEARTS,
    "diamonds": Suit.DIAMONDS,
}


def _order_for(kind: str, obs: DoppelkopfObservation) -> TrickOrder:
    """The trick order of a ``kind`` game; in the game played, with the pigs the seat knows."""
    options = obs.options
    pigs: tuple[Card, ...] = ()
    if obs.pigs and kind == obs.game_type:
        pigs = tuple(pig_card(k, nines=options.nines) for _, k in obs.pigs)
    return trick_order(
        kind,
        style=options.solo_style,
        nines=options.nines,
        dullen=options.dullen,
        dulle_order=options.dulle_order,
        pigs=pigs,
    )


def solo_strength(hand: Sequence[Card], kind: str, obs: DoppelkopfObservation) -> float:
    """A rough count of the tricks ``hand`` takes as soloist in a ``kind`` solo.

    Trumps count by rank among all trumps (the top ones are sure), plain aces
    count when the suit is short enough to be led twice.
    """
    if kind == "null":
        # Null: a trick-taker count of the dangerous cards (high cards are bad).
        return -sum(1.0 for c in hand if c.rank in (Rank.ACE, Rank.TEN, Rank.KING))
    order = _order_for(kind, obs)
    power = order.power
    all_trumps = sorted(
        (c for c in obs.options.deck() if order.is_trump(c)), key=lambda c: -power[c]
    )
    mine = sorted((c for c in hand if order.is_trump(c)), key=lambda c: -power[c])
    tricks = 0.0
    # A trump is sure if every higher trump left out is held by us.
    missing_above = 0
    held = list(mine)
    for card in all_trumps:
        if card in held:
            held.remove(card)
            if missing_above == 0:
                tricks += 1.0
            else:
                tricks += max(0.0, 0.6 - 0.2 * missing_above)
        else:
            missing_above += 1
    trumps = len(mine)
    opponents_trumps = len(all_trumps) - trumps
    for suit in Suit:
        plain = [c for c in hand if not order.is_trump(c) and c.suit == suit]
        aces = sum(1 for c in plain if c.rank == Rank.ACE)
        if aces and (opponents_trumps <= 2 or len(plain) <= 3):
            tricks += aces * (0.9 if trumps >= 6 or opponents_trumps == 0 else 0.6)
    return tricks


class HeuristicDoppelkopfBot:
    """A sensible table partner: plays the house rules and the DDV preset."""

    name = "heuristic"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, observation: DoppelkopfObservation) -> Action:
        obs = observation
        legal = list(obs.legal_actions)
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        if obs.phase == "declare":
            return self._declare(obs, legal)
        if obs.phase == "armut_answer":
            return self._answer_armut(obs)
        if obs.phase in ("armut_give", "armut_return"):
            return legal[0]
        if obs.to_move != obs.seat:
            return self._announce(obs, legal) or legal[0]
        announcement = self._announce(obs, legal)
        if announcement is not None:
            return announcement
        return self._play(obs, [a for a in legal if isinstance(a, Card)])

    # -- declarations ---------------------------------------------------------

    def _best_solo(self, obs: DoppelkopfObservation, legal: list[Action]) -> Call | None:
        hand = obs.hand
        size = obs.options.hand_size
        best: tuple[float, Call] | None = None
        for action in legal:
            if not isinstance(action, Call) or action.word != "solo":
                continue
            kind = action.detail
            strength = solo_strength(hand, kind, obs)
            if kind == "null":
                ok = strength >= -1.0 and not action.ouvert
                score = 0.5 if ok else -99.0
            else:
                need = size - 1.5 if action.ouvert else size * 0.75
                ok = strength >= need
                score = strength + (2.0 if action.ouvert else 0.0)
            if ok and (best is None or score > best[0]):
                best = (score, action)
        return best[1] if best else None

    def _declare(self, obs: DoppelkopfObservation, legal: list[Action]) -> Action:
        words = {a.word for a in legal if isinstance(a, Call)}
        if "redeal" in words:
            return Call("redeal")
        scharfe = [a for a in legal if isinstance(a, Call) and a.word == "scharfe"]
        if scharfe:
            return max(scharfe, key=lambda a: len(a.detail))
        solo = self._best_solo(obs, legal)
        if "vorbehalt" in words:
            strong = solo is not None or obs.hand.count(_ALTE) == 2
            # (Vorgeführt, the seat may not pass: it must reserve its solo.)
            return Call("vorbehalt") if strong or _PASS not in legal else _PASS
        if solo is not None:
            return solo
        soli = [a for a in legal if isinstance(a, Call) and a.word == "solo"]
        if soli and _PASS not in legal:
            # Vorgeführt: the solo this hand plays best, however weak.
            return max(soli, key=lambda a: (solo_strength(obs.hand, a.detail, obs), -soli.index(a)))
        if "hochzeit" in words:
            return (
                Call("hochzeit", "first_trick")
                if obs.options.hochzeit == "choice"
                else Call("hochzeit")
            )
        if "armut" in words:
            return Call("armut")
        if _PASS in legal:
            return _PASS
        return legal[0]

    def _answer_armut(self, obs: DoppelkopfObservation) -> Action:
        order = _order_for("normal", obs)
        trumps = [c for c in obs.hand if order.is_trump(c)]
        high = sum(1 for c in trumps if order.power[c] >= order.power[Card("QH")])
        return (
            Call("accept") if len(trumps) + obs.armut_trumps >= 8 and high >= 3 else Call("refuse")
        )

    # -- announcements ----------------------------------------------------------

    def rule_announcement(self, obs: DoppelkopfObservation) -> Call | None:
        """The word the heuristic's rule would say now (None: nothing), also for a
        subclass that keeps quiet itself."""
        return HeuristicDoppelkopfBot._announce(self, obs, list(obs.legal_actions))

    def _announce(self, obs: DoppelkopfObservation, legal: list[Action]) -> Call | None:
        calls = {a.word: a for a in legal if isinstance(a, Call) and a.is_announcement}
        if not calls or obs.party is None:
            return None
        order = _order_for(obs.game_type if obs.game_type != "undecided" else "normal", obs)
        hand = obs.hand
        power = order.power
        trumps = [c for c in hand if order.is_trump(c)]
        top = sum(1 for c in trumps if power[c] >= power[Card("QS")])
        aces = sum(1 for c in hand if not order.is_trump(c) and c.rank == Rank.ACE)
        strength = len(trumps) + top + 0.5 * aces
        own = "re" if obs.party == "re" else "kontra"
        if obs.soloist is not None and obs.soloist != obs.seat:
            # Against a solo: Kontra with many trumps of the solo's kind.
            if own in calls and len(trumps) >= max(4, len(obs.trumps) // 3) and top >= 2:
                return calls[own]
            return None
        if obs.soloist == obs.seat:
            return None
        need = 13.0 if own == "re" else 14.0
        if own in calls and strength >= need:
            return calls[own]
        if "no90" in calls and own not in calls and strength >= need + 4:
            return calls["no90"]
        return None

    # -- card play ----------------------------------------------------------------

    def _play(self, obs: DoppelkopfObservation, cards: list[Card]) -> Card:
        order = _order_for(obs.game_type if obs.game_type != "undecided" else "normal", obs)
        # The engine's own order (with Scharfe) is what counts: rebuild it from the trumps.
        trumps = set(obs.trumps)
        power = {c: order.power[c] for c in cards}
        for c in trumps:
            power[c] = order.power[c] if order.is_trump(c) else 200
        trick = obs.trick
        if trick.cards:
            led = trick.cards[0]
            led_suit = TRUMP if led in trumps else led.suit
            following = [c for c in cards if (TRUMP if c in trumps else c.suit) == led_suit]
            cards = following or cards
            return self._follow(obs, cards, trumps, order)
        return self._lead(obs, cards, trumps, order)

    def _strength(self, card: Card, trumps: set[Card], order: TrickOrder) -> int:
        return order.power[card] + (1000 if card in trumps else 0)

    def _partners(self, obs: DoppelkopfObservation) -> set[int]:
        if obs.party is None:
            return set()
        return {s for s, p in obs.revealed.items() if p == obs.party and s != obs.seat}

    def _lead(
        self, obs: DoppelkopfObservation, cards: list[Card], trumps: set[Card], order: TrickOrder
    ) -> Card:
        mine_trumps = [c for c in cards if c in trumps]
        plain = [c for c in cards if c not in trumps]
        played = {c for t in obs.tricks for c in t.cards}
        if obs.soloist == obs.seat and mine_trumps:
            return max(mine_trumps, key=lambda c: self._strength(c, trumps, order))
        aces = [
            c
            for c in plain
            if c.rank == Rank.ACE and not any(p.suit == c.suit and p not in trumps for p in played)
        ]
        if aces:
            return aces[0]
        if obs.party == "re" and len(mine_trumps) >= 5:
            return max(mine_trumps, key=lambda c: self._strength(c, trumps, order))
        if plain:
            return min(plain, key=lambda c: (AUGEN[c], order.power[c]))
        return min(cards, key=lambda c: (self._strength(c, trumps, order), AUGEN[c]))

    def _follow(
        self, obs: DoppelkopfObservation, cards: list[Card], trumps: set[Card], order: TrickOrder
    ) -> Card:
        trick = obs.trick
        final = len(obs.hand) == 1  # the deal's last trick
        best_pos = order.winner(list(trick.cards), final)
        best_seat = trick.seats[best_pos]
        best_card = trick.cards[best_pos]
        led = trick.cards[0]
        led_suit = TRUMP if led in trumps else led.suit
        last = len(trick.cards) == 3
        partners = self._partners(obs)
        if best_seat in partners and (
            last
            or self._strength(best_card, trumps, order)
            >= self._strength(Card("QD"), trumps, order) + 1000 * 0
        ):
            # The partner holds the trick: give him points.
            return max(
                cards, key=lambda c: (AUGEN[c] if c not in (_DULLE, _ALTE) else -1, -order.power[c])
            )

        def beats(card: Card) -> bool:
            return order.beats(card, best_card, led_suit, final)

        winners = [c for c in cards if beats(c)]
        worth = sum(AUGEN[c] for c in trick.cards)
        if winners and (worth >= 10 or last or led_suit != TRUMP):
            if last:
                return min(winners, key=lambda c: (self._strength(c, trumps, order), -AUGEN[c]))
            return min(winners, key=lambda c: self._strength(c, trumps, order))
        return min(cards, key=lambda c: (AUGEN[c], self._strength(c, trumps, order)))
