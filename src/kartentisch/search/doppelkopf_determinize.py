"""Deals consistent with what one Doppelkopf seat has seen.

A seat knows its own hand, every card played and by whom, the declarations,
the announcements and the parties the table has seen (``revealed``: a Q♣
played, a Re or Kontra said, a solo, an Armut, a Hochzeit decided). A sample
deals the cards it has not seen to the other seats so that

* every hand has its size;
* no seat gets a card of an effective suit (a plain suit or the trumps) it
  has shown void in — a seat that did not follow trumps holds none;
* cards the seat knows the place of stay there: an ouvert soloist's hand,
  and for the two players of an Armut the cards passed to the other that did
  not come back;
* the Q♣ fit the parties: in a normal game each Re player holds one (so the
  two unseen ones go to two different seats, none to a seat known to be
  Kontra, one to a seat that said Re without showing it); after a Hochzeit
  both are the holder's; in an Armut only Re holds them;
* after an Armut the poor player holds exactly the trumps he got back ("X
  Trumpf zurück"), since he gave away all of his own.

**Model limits**: a silent solo (both Q♣ in one hand, not declared) is not
considered by the others — a table of bots that always declare a Hochzeit
never plays one; the heuristic bot's announcements and leads are not read
for what they say about its hand. When the constraints cannot be met (a
revoke in table mode, a silent solo) the sampler drops them one by one: the
parties, then the voids.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from kartentisch.cards import Card
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.trumps import is_normal_order, pig_card, trick_order
from kartentisch.search.doppelkopf_solver import Model, Position, card_points
from kartentisch.tricks import TRUMP, TrickOrder

__all__ = ["DoppelkopfInfoSet", "observed_order"]

_QC = Card("QC")


def observed_order(obs: DoppelkopfObservation) -> TrickOrder | None:
    """The trick order of the game as ``obs`` shows it (None if its trumps disagree).

    The pigs it does not know of (option ``schweinchen``: not yet shown, or
    silent) are left out: the search then ranks a hidden pair of ♦A as Füchse.
    """
    game_type = obs.game_type
    if game_type == "undecided":
        return None
    style = obs.options.solo_style
    normal = is_normal_order(game_type, style)
    try:
        order = trick_order(
            game_type,
            style=style,
            scharfe_aces=normal and obs.scharfe_aces is not None,
            scharfe_kings=normal and obs.scharfe_kings is not None,
            nines=obs.options.nines,
            dullen=obs.options.dullen,
            dulle_order=obs.options.dulle_order,
            pigs=tuple(pig_card(kind, nines=obs.options.nines) for _, kind in obs.pigs),
        )
    except ValueError:
        return None
    trumps = {c for c in obs.options.deck() if order.suit_of[c] == TRUMP}
    return order if trumps == set(obs.trumps) else None


def _minus(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    left = Counter(cards)
    left.subtract(gone)
    return sorted(left.elements())


class DoppelkopfInfoSet:
    """What one seat knows in the play of a deal, prepared once per decision.

    ``parties`` says whether both parties can be named in every sample (not
    while a Hochzeit looks for its partner); ``ready`` whether the bot can
    search at all (in play, the trick order known, not a Nullsolo).
    """

    def __init__(self, obs: DoppelkopfObservation) -> None:
        self.obs = obs
        self.seat = obs.seat
        self.playing = tuple(obs.playing)
        self.others = [s for s in self.playing if s != obs.seat]
        order = observed_order(obs)
        self.order = order
        self.ready = (
            order is not None
            and obs.phase == "play"
            and obs.game_type not in ("null", "undecided")
            and obs.party is not None
        )
        self.model: Model = "tricks" if obs.ouvert else "augen"
        if order is None:
            return
        suit_of = order.suit_of
        self.played_by: dict[int, list[Card]] = {s: [] for s in self.playing}
        self.voids: dict[int, set[int]] = {s: set() for s in self.playing}
        played: list[Card] = []
        for trick in (*obs.tricks, obs.trick):
            if not trick.cards:
                continue
            led = suit_of[trick.cards[0]]
            for seat, card in zip(trick.seats, trick.cards, strict=True):
                played.append(card)
                self.played_by[seat].append(card)
                if suit_of[card] != led:
                    self.voids[seat].add(led)
        self.fixed: dict[int, list[Card]] = {s: [] for s in self.others}
        if obs.ouvert and obs.soloist is not None and obs.soloist != obs.seat:
            self.fixed[obs.soloist] = list(obs.open_hand)
        if obs.armut is not None and obs.armut_partner is not None:
            poor, partner = obs.armut, obs.armut_partner
            given, back = obs.armut_cards, obs.armut_returned
            # What went one way and did not come back (a copy may): surely there.
            if obs.seat == poor and given:
                self.fixed[partner] = _minus(_minus(given, back), self.played_by[partner])
            elif obs.seat == partner and back:
                self.fixed[poor] = _minus(_minus(back, given), self.played_by[poor])
        seen = Counter(played) + Counter(obs.hand)
        for cards in self.fixed.values():
            seen.update(cards)
        deck = Counter(obs.options.deck())
        deck.subtract(seen)
        self.unseen = sorted(c for c in deck.elements())
        self.room = {
            s: obs.hand_sizes[s] - len(self.fixed[s]) for s in self.others
        }  # cards still to deal each seat
        # Exact trumps in the poor player's hand, for the seats outside the Armut.
        self.trumps_of: dict[int, int] = {}
        if (
            obs.game_type == "armut"
            and obs.armut is not None
            and obs.seat not in (obs.armut, obs.armut_partner)
        ):
            poor = obs.armut
            shown = sum(1 for c in self.played_by[poor] if suit_of[c] == TRUMP)
            self.trumps_of[poor] = obs.armut_returned_trumps - shown
        self._prepare_parties()

    # -- parties ----------------------------------------------------------------

    def _prepare_parties(self) -> None:
        obs = self.obs
        revealed = obs.revealed
        self.re: frozenset[int] | None = None  # the Re party when known without a sample
        self.qc_to: list[int] = []  # seats that must get an unseen Q♣ (normal game)
        self.qc_may: list[int] = []  # seats that may get one
        self.qc_rule = "none"
        unseen_qc = self.unseen.count(_QC)
        if obs.soloist is not None:
            self.re = frozenset({obs.soloist})
            return
        if len(revealed) == len(self.playing) and all(s in revealed for s in self.playing):
            self.re = frozenset(s for s, p in revealed.items() if p == "re")
            if obs.game_type == "hochzeit" and obs.hochzeit is not None:
                self.qc_rule = "holder"
            elif obs.game_type == "armut":
                self.qc_rule = "re"
            return
        if obs.game_type != "normal":
            return  # an open Hochzeit: parties unknown
        self.qc_rule = "normal"
        has_qc = {s for s in self.playing if _QC in self.played_by[s]}
        if _QC in obs.hand:
            has_qc.add(obs.seat)
        for s in self.others:
            if s in has_qc or revealed.get(s) == "kontra":
                continue
            if revealed.get(s) == "re":
                self.qc_to.append(s)
            else:
                self.qc_may.append(s)
        if len(self.qc_to) > unseen_qc:
            self.qc_rule = "broken"

    # -- sampling -----------------------------------------------------------------

    def sample_hands(self, rng: random.Random) -> dict[int, list[Card]]:
        """One random placement of the unseen cards: the other seats' hands."""
        for relax in range(3):
            for _ in range(60 if relax == 0 else 20):
                hands = self._try(rng, relax)
                if hands is not None:
                    return hands
        raise AssertionError(
            "unreachable: the unconstrained deal always fits "
            f"(room {self.room}, unseen {len(self.unseen)}, fixed {self.fixed}, "
            f"obs {self.obs.to_dict()})"
        )

    def _try(self, rng: random.Random, relax: int) -> dict[int, list[Card]] | None:
        """Deal once; ``relax`` 1 drops the party and trump-count rules, 2 the voids too."""
        assert self.order is not None
        suit_of = self.order.suit_of
        hands = {s: list(self.fixed[s]) for s in self.others}
        room = dict(self.room)
        pool = list(self.unseen)
        rng.shuffle(pool)
        if relax == 0:
            if not self._place_queens(rng, pool, hands, room):
                return None
            for seat, count in self.trumps_of.items():
                trumps = [c for c in pool if suit_of[c] == TRUMP]
                count -= sum(1 for c in hands[seat] if suit_of[c] == TRUMP)
                if count < 0 or count > len(trumps) or count > room[seat]:
                    return None
                for card in trumps[:count]:
                    pool.remove(card)
                    hands[seat].append(card)
                room[seat] -= count
        exact = set(self.trumps_of) if relax == 0 else set()
        voids = self.voids if relax < 2 else {s: set() for s in self.playing}

        def allowed(card: Card) -> list[int]:
            group = suit_of[card]
            return [
                s
                for s in self.others
                if group not in voids[s] and not (s in exact and group == TRUMP)
            ]

        choices = {card: allowed(card) for card in set(pool)}
        pool.sort(key=lambda c: len(choices[c]))
        for card in pool:
            seats = [s for s in choices[card] if room[s] > 0]
            if not seats:
                return None
            seat = seats[0] if len(seats) == 1 else rng.choices(seats, [room[s] for s in seats])[0]
            hands[seat].append(card)
            room[seat] -= 1
        return hands

    def _place_queens(
        self,
        rng: random.Random,
        pool: list[Card],
        hands: dict[int, list[Card]],
        room: dict[int, int],
    ) -> bool:
        rule = self.qc_rule
        queens = pool.count(_QC)
        if rule == "none" or queens == 0:
            return rule != "broken"
        if rule == "broken":
            return False
        if rule == "holder":
            takers = [self.obs.hochzeit] * queens
        elif rule == "re":
            assert self.re is not None
            may = [s for s in self.others if s in self.re and room[s] > 0]
            if not may:
                return False
            takers = [rng.choice(may) for _ in range(queens)]
        else:
            takers = list(self.qc_to)
            may = [s for s in self.qc_may if room[s] > 0]
            rng.shuffle(may)
            while len(takers) < queens and may:
                takers.append(may.pop())
            if len(takers) < queens:
                return False
        for seat in takers:
            if seat is None or room.get(seat, 0) <= 0 or self.voids[seat] & {TRUMP}:
                return False
            pool.remove(_QC)
            hands[seat].append(_QC)
            room[seat] -= 1
        return True

    def admits(self, hands: dict[int, Sequence[Card]]) -> bool:
        """Whether ``hands`` (the other seats') meet every rule the sampler keeps."""
        assert self.order is not None
        suit_of = self.order.suit_of
        pool = Counter(self.unseen)
        for seat in self.others:
            cards = hands.get(seat, ())
            if len(cards) != self.obs.hand_sizes[seat]:
                return False
            rest = Counter(cards)
            rest.subtract(self.fixed[seat])
            if any(v < 0 for v in rest.values()):
                return False
            pool.subtract(rest)
            if any(suit_of[c] in self.voids[seat] for c in cards):
                return False
            if seat in self.trumps_of:
                trumps = sum(1 for c in cards if suit_of[c] == TRUMP)
                if trumps != self.trumps_of[seat]:
                    return False
        if any(v != 0 for v in pool.values()):
            return False
        queens = {s: sum(1 for c in hands.get(s, ()) if c == _QC) for s in self.others}
        if self.qc_rule == "holder":
            return all(n == 0 for s, n in queens.items() if s != self.obs.hochzeit)
        if self.qc_rule == "re":
            assert self.re is not None
            return all(n == 0 for s, n in queens.items() if s not in self.re)
        if self.qc_rule == "normal":
            if any(queens[s] for s in self.others if s not in self.qc_to + self.qc_may):
                return False
            return all(n <= 1 for n in queens.values()) and all(queens[s] for s in self.qc_to)
        return self.qc_rule != "broken"

    # -- positions ------------------------------------------------------------------

    def party_in(self, hands: dict[int, list[Card]]) -> frozenset[int]:
        """The Re party in a sample: known, or the Q♣ holders of a normal game."""
        if self.re is not None:
            return self.re
        obs = self.obs
        holders = {s for s in self.playing if _QC in self.played_by[s]}
        if _QC in obs.hand:
            holders.add(obs.seat)
        holders.update(s for s, cards in hands.items() if _QC in cards)
        return frozenset(holders)

    def position(self, hands: dict[int, list[Card]]) -> Position:
        """The full-information position of a sample (``hands``: the other seats')."""
        obs = self.obs
        assert self.order is not None
        re = self.party_in(hands)
        party = frozenset(self.playing) - re if self.model == "tricks" else re
        taken = 0
        for trick in obs.tricks:
            if trick.winner in party:
                taken += 1 if self.model == "tricks" else sum(card_points(c) for c in trick.cards)
        by_seat: list[tuple[Card, ...]] = []
        for s in range(obs.players):
            if s == obs.seat:
                by_seat.append(tuple(obs.hand))
            else:
                by_seat.append(tuple(hands.get(s, ())))
        return Position(
            hands=tuple(by_seat),
            seats=self.playing,
            party=party,
            order=self.order,
            leader=obs.trick.leader,
            trick=tuple(obs.trick.cards),
            model=self.model,
            taken=taken,
        )

    def sample(self, rng: random.Random) -> Position:
        """A full-information position drawn from this information set."""
        return self.position(self.sample_hands(rng))
