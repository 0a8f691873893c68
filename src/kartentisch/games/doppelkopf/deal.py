"""One deal of Doppelkopf: the rules engine.

The deal is a phase machine (seed 003 § Spielansage, RULINGS.md, TSR 4):

1. **Declarations**, asked seat by seat from the dealer's left. With the
   sheet's order (``declarations="sheet"``): a round of Scharfe, a round of
   soli, then (if no solo) a round of Hochzeit / Armut. With the DDV order:
   everyone says ``pass`` ("gesund") or ``vorbehalt``, then the reservations
   are named (Pflichtsolo before Lustsolo before Hochzeit). A player with
   enough kings may ask for a ``redeal`` at his turn.
2. **Armut**: the asked partner accepts or refuses (a refusal voids the
   deal), the poor player gives three cards with all his trumps, the partner
   returns three.
3. **Play**: :attr:`to_move` is the seat to play a card. Announcements (Re,
   Kontra, keine 90 …) and the Kulanz take-back are made by any seat that may
   make them, at any time, through ``apply(action, seat)``; they do not change
   whose turn it is.

At the end the facts of the game go to :func:`score_game`; :meth:`points`
is each table seat's score as written on the score sheet.

:class:`DoppelkopfDeal` is the deal's state
(:class:`~kartentisch.games.doppelkopf.state.DealState`) with its actions: it
checks an action and hands it to the phase it belongs to — the modules
``declarations``, ``armut``, ``play`` and ``announcements``, which change the
state and never import this module.

>>> deal = DoppelkopfDeal.from_seed(3, dealer=0)
>>> deal.phase, deal.to_move
('declare', 1)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> deal.outcome, sum(deal.augen().values())
('played', 240)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, cast

from kartentisch.cards import Card
from kartentisch.dealing import deal_packets, shuffled
from kartentisch.engine import RECORD_FORMAT, Event
from kartentisch.errors import DealError, IllegalActionError, KartentischError, NotationError
from kartentisch.games.doppelkopf.actions import (
    ANNOUNCEMENTS,
    Action,
    Call,
    format_action,
    parse_action,
)
from kartentisch.games.doppelkopf.announcements import (
    announce,
    announcement_calls,
    announcement_floor,
    counted_cards,
    may_still_announce,
    refusal,
)
from kartentisch.games.doppelkopf.armut import (
    answer_armut,
    check_exchange,
    exchange,
    exchange_options,
)
from kartentisch.games.doppelkopf.declarations import (
    check_declaration,
    declaration_options,
    declare,
)
from kartentisch.games.doppelkopf.events import DealStarted
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation, observe
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.play import (
    game_facts,
    offenders,
    party_augen,
    play_card,
    take_back,
    take_back_offence,
)
from kartentisch.games.doppelkopf.scoring import GameFacts
from kartentisch.games.doppelkopf.state import DealState, seat_orders

__all__ = ["FREE_WORDS", "DoppelkopfDeal"]

#: Actions any seat may make out of turn; records prefix them with the seat.
FREE_WORDS: Final = frozenset({*ANNOUNCEMENTS, "take_back"})
_ARMUT_ANSWERS: Final = (Call("accept"), Call("refuse"))
_TAKE_BACK: Final = Call("take_back")


class DoppelkopfDeal(DealState):
    """A deal from given hands (by seat; the 5-player dealer's hand is empty).

    ``bock_multiplier`` comes from the score sheet (2 per active Bock);
    ``pflicht_due`` names the seats that still owe their Pflichtsolo (DDV;
    by default every playing seat); ``vorfuehrung`` the one of them that must
    declare a solo in this deal (option ``vorfuehrung``: the session is ending).
    """

    game: ClassVar[str] = "doppelkopf"

    def __init__(
        self,
        hands: Sequence[Sequence[Card | str]],
        *,
        dealer: int,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
        bock_multiplier: int = 1,
        pflicht_due: Sequence[int] | None = None,
        vorfuehrung: int | None = None,
    ) -> None:
        if not isinstance(options, DoppelkopfOptions):
            options = DoppelkopfOptions.from_dict(options)
        super().__init__(
            hands,
            dealer=dealer,
            options=options,
            seats=seats,
            bock_multiplier=bock_multiplier,
            pflicht_due=pflicht_due,
            vorfuehrung=vorfuehrung,
        )
        self._announce_floor = announcement_floor(options)
        self._to_move: int | None = self.asking[0]
        #: Legal actions by seat, computed when asked; every applied action clears them.
        self._legal: dict[int | None, list[Action]] = {}
        self._actions: list[Action] = []
        self._action_seats: list[int] = []
        self._events: list[Event] = [
            DealStarted(
                dealer,
                self.playing,
                tuple(map(len, self.initial_hands)),
                options.packets,
                bock_multiplier,
            )
        ]

    @classmethod
    def from_seed(
        cls,
        seed: int | random.Random,
        *,
        dealer: int,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
        cut: int | None = None,
        seats: Sequence[str] | None = None,
        bock_multiplier: int = 1,
        pflicht_due: Sequence[int] | None = None,
        vorfuehrung: int | None = None,
    ) -> DoppelkopfDeal:
        """Shuffle with ``seed``, optionally cut, and deal 3-4-3 (3-3-3-3 with nines)."""
        if not isinstance(options, DoppelkopfOptions):
            options = DoppelkopfOptions.from_dict(options)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = shuffled(options.deck(), rng)
        if cut is not None:
            if options.players == 5:
                raise DealError("with 5 players the deck is not cut (seed 003)")
            if not 1 <= cut < len(deck):
                raise DealError(f"a cut must leave cards in both packets: 1 to {len(deck) - 1}")
            deck = deck[cut:] + deck[:cut]
        n = options.players
        by_seat = deal_packets(deck, seat_orders(n, dealer, options.hand_size)[1], options.packets)
        hands = [by_seat.get(s, []) for s in range(n)]
        return cls(
            hands,
            dealer=dealer,
            options=options,
            seats=seats,
            bock_multiplier=bock_multiplier,
            pflicht_due=pflicht_due,
            vorfuehrung=vorfuehrung,
        )

    # -- the game API -------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def actions(self) -> Sequence[Action]:
        return self._actions

    @property
    def action_seats(self) -> Sequence[int]:
        """The seat that made each action, in order."""
        return self._action_seats

    @property
    def events(self) -> Sequence[Event]:
        return self._events

    @property
    def offenders(self) -> frozenset[int]:
        """Seats of the party that offended first (table mode), offences not taken back."""
        return offenders(self)

    # -- legal actions -------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to move) may make now.

        Cards and declarations come only from the seat to move; announcements
        and a Kulanz take-back from any seat that may make them.
        """
        if seat is None:
            seat = self._to_move
            if seat is None:
                return []
        cached = self._legal.get(seat)
        if cached is None:
            play = self.trick_play
            legal: list[Action]
            if self.phase != "play" or seat not in self.playing:
                legal = self._compute_legal(seat)
            else:  # the common case, here to save a call: cards and announcements
                assert play is not None
                hand = play.hands[seat]
                table_mode = self.table_mode
                if seat != self._to_move:
                    legal = []
                elif table_mode:
                    legal = list(dict.fromkeys(hand))
                else:
                    legal = cast("list[Action]", play.playable(seat))  # (a new list)
                cards = counted_cards(self, seat) if self.count_tricks else len(hand)
                if cards >= self._announce_floor and may_still_announce(self, seat, cards):
                    legal.extend(announcement_calls(self, seat))
                if table_mode and take_back_offence(self, seat) is not None:
                    legal.append(_TAKE_BACK)
            self._legal[seat] = cached = legal
        return cached[:]

    def _compute_legal(self, seat: int) -> list[Action]:
        """Legal actions outside the play (and of a seat that sits out)."""
        if self.phase == "play" or seat != self._to_move or self.outcome is not None:
            return []  # (the seat to move is one that plays)
        if self.phase == "declare":
            return declaration_options(self, seat)
        if self.phase == "armut_answer":
            return list(_ARMUT_ANSWERS)
        return exchange_options(self, seat)

    def following_actions(self, seat: int | None = None) -> list[Card]:
        """The cards that follow suit (the legal cards unless table mode accepts revokes)."""
        play = self.trick_play
        if play is None:
            return []
        seat = play.to_move if seat is None else seat
        if seat is None or seat != play.to_move:
            return []
        return play.playable(seat)

    # -- checking -----------------------------------------------------------

    def check(self, action: Action, seat: int | None = None) -> None:
        if isinstance(action, Card):
            self._check_card(action, seat)
            return
        if not isinstance(action, Call):
            raise IllegalActionError(
                "unknown_action",
                f"a Doppelkopf action is a card or a word, not {action!r}",
                seat=seat,
                action=action,
            )
        malformed = _malformed(action)
        if malformed is not None:
            raise IllegalActionError("malformed_call", malformed, seat=seat, action=action)
        if self.outcome is not None:
            raise IllegalActionError("deal_over", "the deal is over", seat=seat, action=action)
        if action.word in FREE_WORDS:
            who = self.to_move if seat is None else seat
            if who is None or who not in self.playing:
                raise IllegalActionError(
                    "sits_out", f"seat {who} does not play this deal", seat=who, action=action
                )
            if action.word == "take_back":
                if not self.options.table_mode:
                    raise IllegalActionError(
                        "no_take_back",
                        "the Kulanzregel belongs to table mode; here a wrong card is refused",
                        seat=who,
                        action=action,
                    )
                if take_back_offence(self, who) is None:
                    raise IllegalActionError(
                        "nothing_to_take_back",
                        "only your own revoke or wrong announcement, before the next card",
                        seat=who,
                        action=action,
                    )
                return
            error = refusal(self, action, who)
            if error is not None:
                raise error
            return
        to_move = self.to_move
        if seat is not None and seat != to_move:
            raise IllegalActionError(
                "not_your_turn",
                f"it is seat {to_move}'s turn, not seat {seat}'s",
                seat=seat,
                action=action,
                to_move=to_move,
            )
        assert to_move is not None
        phase = self.phase
        if phase == "declare":
            check_declaration(self, action, to_move)
        elif phase == "armut_answer":
            if action.word not in ("accept", "refuse"):
                raise IllegalActionError(
                    "armut_answer",
                    f"seat {to_move} is asked to take the Armut: accept or refuse",
                    seat=to_move,
                    action=action,
                )
        elif phase in ("armut_give", "armut_return"):
            check_exchange(self, action, to_move)
        else:
            raise IllegalActionError(
                "play_a_card",
                f"the declarations are over: seat {to_move} plays a card",
                seat=to_move,
                action=action,
            )

    def _check_card(self, card: Card, seat: int | None) -> None:
        if self.outcome is not None:
            raise IllegalActionError("deal_over", "the deal is over", seat=seat, action=card)
        if self.phase != "play":
            who = self.to_move
            what = {
                "declare": "the declarations are not finished",
                "armut_answer": "the Armut has not been answered",
                "armut_give": "the Armut cards have not been passed",
                "armut_return": "the Armut cards have not been returned",
            }[self.phase]
            raise IllegalActionError(
                "declarations_first", f"{what}: seat {who} must speak first", seat=seat, action=card
            )
        play = self.trick_play
        assert play is not None
        who = play.to_move if seat is None else seat
        if who is None:
            raise IllegalActionError("deal_over", "the deal is over", seat=seat, action=card)
        play.check(who, card, must_follow=not self.options.table_mode)

    # -- applying -----------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        who = self._to_move if seat is None else seat
        # Fast path: an action offered among the cached legal actions of its seat is
        # accepted without checking it again: a card of the exact type (cards are
        # interned, and come first in the list), or the very word object offered.
        legal = self._legal.get(who)
        if legal is None or not _offered(action, legal):
            self.check(action, seat)
        assert who is not None
        self._legal.clear()
        if isinstance(action, Card):
            new = play_card(self, action, who)
            # (None once over: a Hochzeit without partner may void the deal mid-play.)
            self._to_move = None if self.is_over else self.trick_play.to_move  # type: ignore[union-attr]
        else:
            assert isinstance(action, Call)
            word = action.word
            if word in FREE_WORDS:
                new = take_back(self, who) if word == "take_back" else announce(self, word, who)
            elif self.phase == "declare":
                new = declare(self, action, who)
            elif self.phase == "armut_answer":
                new = answer_armut(self, action, who)
            else:
                new = exchange(self, action, who)
            self._to_move = self.whose_turn()
        self._actions.append(action)
        self._action_seats.append(who)
        self._events.extend(new)
        return new

    # -- the end ------------------------------------------------------------

    def augen(self) -> dict[str, int]:
        """Augen taken so far by each party (by seat before the parties are known)."""
        return party_augen(self)

    def facts(self) -> GameFacts:
        """The facts of the finished game, as :func:`score_game` reads them.

        Raises :class:`~kartentisch.errors.KartentischError` where no game is
        played: the deal was thrown in, or its cards are not being played yet.
        """
        if self.trick_play is None or self.re_party is None:
            if self.phase == "redeal":
                raise KartentischError(
                    f"this deal was thrown in ({self.redeal_reason}): no game was played"
                )
            if self.phase == "play":
                raise KartentischError("the parties are not known yet: the game is not over")
            raise KartentischError(f"no game is being played yet (the deal is in {self.phase})")
        return game_facts(self)

    # -- notation -----------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return format_action(action)

    # -- observation and record ----------------------------------------------

    def observation(self, seat: int) -> DoppelkopfObservation:
        return observe(self, seat)

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options.to_record(),
        }
        if self.seat_names is not None:
            record["seats"] = list(self.seat_names)
        record.update(self.deal_record())
        return record

    def deal_record(self) -> dict[str, Any]:
        """The per-deal part of a record: dealer, hands by seat, actions."""
        out: dict[str, Any] = {"dealer": self.dealer}
        if self.bock_multiplier != 1:
            out["bock"] = self.bock_multiplier
        if self.options.pflichtsolo and self.pflicht_due != frozenset(self.playing):
            out["pflicht_due"] = sorted(self.pflicht_due)
        if self.vorfuehrung is not None:
            out["vorfuehrung"] = self.vorfuehrung
        out["hands"] = [[str(c) for c in h] for h in self.initial_hands]
        out["actions"] = [
            f"{s}:{a}" if isinstance(a, Call) and a.word in FREE_WORDS else str(a)
            for a, s in zip(self._actions, self._action_seats, strict=True)
        ]
        return out


def _offered(action: Action, legal: list[Action]) -> bool:
    """Whether ``action`` is among the ``legal`` actions offered: a card of the exact
    type (cards are interned), or the very word object offered."""
    if type(action) is Card:
        return action in legal
    return any(offered is action for offered in legal)


def _malformed(call: Call) -> str | None:
    """Why ``call`` is not an action of the notation (None if it is one).

    A :class:`Call` built in code may hold parts its word does not take (a
    detail, ouvert, cards); only what the notation can write (and a record can
    replay) is accepted. The cards of ``give``/``return`` may come in any order.
    """
    if (
        type(call.word) is not str
        or type(call.detail) is not str
        or type(call.ouvert) is not bool
        or type(call.cards) is not tuple
        or any(type(c) is not Card for c in call.cards)
    ):
        return f"{call!r} is not a Doppelkopf action: its parts have the wrong types"
    text = str(call)
    try:
        parsed = parse_action(text)
    except NotationError as exc:
        return f"{text!r} is not a Doppelkopf action: {exc}"
    if call.cards and call.word in ("give", "return"):
        call = Call(call.word, call.detail, call.ouvert, tuple(sorted(call.cards)))
    if parsed != call:
        return f"{call!r} is not how the notation writes {text!r}: {parsed!r}"
    return None
