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

>>> deal = DoppelkopfDeal.from_seed(3, dealer=0)
>>> deal.phase, deal.to_move
('declare', 1)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> deal.outcome, sum(deal.augen().values())
('played', 240)
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import chain, repeat
from operator import is_
from typing import TYPE_CHECKING, Any, ClassVar, Final

from kartentisch.cards import Card, deal_packets, shuffled
from kartentisch.engine import RECORD_FORMAT, Event, GameState
from kartentisch.errors import DealError, IllegalActionError, NotationError
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
    may_still_announce,
    refusal,
)
from kartentisch.games.doppelkopf.armut import (
    answer_armut,
    check_exchange,
    exchange,
    exchange_options,
    offer_armut,
)
from kartentisch.games.doppelkopf.declarations import (
    AUGEN,
    SoloClaim,
    augen_of,
    check_declaration,
    declaration_options,
    declare,
)
from kartentisch.games.doppelkopf.events import DealStarted
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.play import (
    Offence,
    game_facts,
    offenders,
    party_augen,
    play_card,
    start_play,
    take_back,
    take_back_offence,
)
from kartentisch.games.doppelkopf.scoring import Announcement, GameFacts, GameScore
from kartentisch.games.doppelkopf.trumps import is_normal_order, sort_hand, trick_order
from kartentisch.tricks import PlayedTrick, TrickOrder, TrickPlay

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.observation import DoppelkopfObservation

__all__ = [
    "AUGEN",
    "DoppelkopfDeal",
    "augen_of",
    "sort_hand",
]

#: Actions any seat may make out of turn; records prefix them with the seat.
FREE_WORDS: Final = frozenset({*ANNOUNCEMENTS, "take_back"})
_ARMUT_ANSWERS: Final = (Call("accept"), Call("refuse"))
_TAKE_BACK: Final = Call("take_back")
_CARD_TYPE: Final = frozenset({Card})
_SEQUENCE_TYPES: Final = frozenset({list, tuple})


class DoppelkopfDeal(GameState[Action]):
    """A deal from given hands (by seat; the 5-player dealer's hand is empty).

    ``bock_multiplier`` comes from the score sheet (2 per active Bock);
    ``pflicht_due`` names the seats that still owe their Pflichtsolo (DDV;
    by default every playing seat).
    """

    game: ClassVar[str] = "doppelkopf"
    #: Whether the deal is over (an attribute, set by :meth:`_end`: read once per action).
    is_over: bool = False

    def __init__(
        self,
        hands: Sequence[Sequence[Card | str]],
        *,
        dealer: int,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
        bock_multiplier: int = 1,
        pflicht_due: Sequence[int] | None = None,
    ) -> None:
        if not isinstance(options, DoppelkopfOptions):
            options = DoppelkopfOptions.from_dict(options)
        self.options = options
        n = options.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        m = bock_multiplier
        if type(m) is not int or m < 1 or m & (m - 1):
            raise DealError(f"the Bock multiplier must be 1, 2, 4, 8 …, not {m!r}")
        if m != 1 and not options.bock:
            raise DealError("these rules have no Böcke: the Bock multiplier must be 1")
        self.dealer = dealer
        self.bock_multiplier = bock_multiplier
        self.seat_names: tuple[str, ...] | None = tuple(seats) if seats is not None else None
        if self.seat_names is not None and len(self.seat_names) != n:
            raise DealError(f"{len(self.seat_names)} seat names given for {n} players")
        #: The four seats that play, in table order (the 5-player dealer sits out), and
        #: the same seats in the order they are asked and lead: from the dealer's left.
        self.playing, self.ask_order, sizes = _seat_orders(n, dealer, options.hand_size)
        self._initial = self._validate_hands(hands, sizes)
        self._hand_size = options.hand_size
        self._announce_floor = announcement_floor(options)
        self._hands: list[list[Card]] = [list(h) for h in self._initial]
        due = self.playing if pflicht_due is None else tuple(pflicht_due)
        self.pflicht_due: frozenset[int] = frozenset(due) if options.pflichtsolo else frozenset()

        # declarations
        self.phase = "declare"
        self._rounds: tuple[str, ...] = (
            ("vorbehalt", "reservation")
            if options.declarations == "ddv"
            else ("scharfe", "solo", "marriage")
            if options.scharfe
            else ("solo", "marriage")
        )
        self._round = 0
        self._queue: list[int] = list(self.ask_order)
        self._to_move: int | None = self._queue[0]
        self.declarations: list[tuple[int, Call]] = []
        self._kings: tuple[int, ...] | None = None  # by seat, counted when first asked
        self._vorbehalt: list[int] = []
        self.scharfe_aces_by: int | None = None
        self.scharfe_kings_by: int | None = None
        self._solo: SoloClaim | None = None
        self.hochzeit_by: int | None = None
        self.hochzeit_rule = "first_trick"
        self.armut_by: int | None = None

        # the game
        self.game_type = "normal"
        self.solo = False
        self.ouvert = False
        self.silent = False
        self.soloist: int | None = None
        self.pflicht = False
        self.armut_partner: int | None = None
        self.armut_direction = ""
        self.armut_trumps = 0
        self.armut_returned_trumps = 0
        self._armut_given: tuple[Card, ...] = ()
        self._armut_returned: tuple[Card, ...] = ()
        self._re_party: frozenset[int] | None = None
        self.hochzeit_partner: int | None = None
        self.hochzeit_trick: int | None = None
        self._order: TrickOrder = trick_order("normal", nines=options.nines)
        self._play: TrickPlay | None = None

        # play
        self.announcements: list[Announcement] = []
        #: Bumped whenever :attr:`announcements` changes; with the fewest cards each
        #: word needs in that state, per party and part (see ``announcement_calls``).
        self._announce_epoch = 0
        self._announce_needs: dict[tuple[object, ...], tuple[tuple[int, Call], ...]] = {}
        self._offences: list[Offence] = []
        self._cards_played = 0
        self.outcome: str | None = None
        self.redeal_reason: str | None = None
        self.score: GameScore | None = None
        #: Legal actions by seat, computed when asked; every applied action clears them.
        self._legal: dict[int | None, list[Action]] = {}
        self._actions: list[Action] = []
        self._action_seats: list[int] = []
        self._events: list[Event] = [
            DealStarted(
                dealer,
                self.playing,
                tuple(map(len, self._initial)),
                options.packets,
                bock_multiplier,
            )
        ]

    # -- construction -------------------------------------------------------

    def _validate_hands(
        self, hands: Sequence[Sequence[Card | str]], sizes: tuple[int, ...]
    ) -> tuple[tuple[Card, ...], ...]:
        """The hands as tuples of cards, checked against the deck and the hand sizes."""
        out: tuple[tuple[Card, ...], ...]
        if (
            type(hands) in _SEQUENCE_TYPES
            and {*map(type, hands)} <= _SEQUENCE_TYPES
            and tuple(map(len, hands)) == sizes
            and {*map(type, chain.from_iterable(hands))} <= _CARD_TYPE
        ):  # cards already, in lists of the right sizes
            out = tuple(map(tuple, hands))  # type: ignore[arg-type]
        else:
            out = self._read_hands(hands, sizes)
        counts = Counter(chain.from_iterable(out))
        options = self.options
        deck = options.deck()
        if not options.deck_cards().issuperset(counts) or max(counts.values()) > 2:
            for card, count in counts.items():
                if card not in deck:
                    raise DealError(f"{card.symbol} is not in the {len(deck)}-card Doppelkopf deck")
                if count > 2:
                    raise DealError(f"{card.symbol} is dealt {count} times; the deck has two")
        return out

    def _read_hands(
        self, hands: Sequence[Sequence[Card | str]], sizes: tuple[int, ...]
    ) -> tuple[tuple[Card, ...], ...]:
        """Hands given as text or with the wrong shape: convert, or say what is wrong."""
        n = self.options.players
        if type(hands) not in _SEQUENCE_TYPES or len(hands) != n:
            raise DealError(f"a {n}-player deal needs {n} hands, one per seat (a list of lists)")
        out: list[tuple[Card, ...]] = []
        for seat, hand in enumerate(hands):
            if type(hand) not in _SEQUENCE_TYPES:
                raise DealError(f"the hand of seat {seat} must be a list of cards")
            try:
                cards = tuple(c if type(c) is Card else _to_card(c) for c in hand)
            except NotationError as exc:
                raise DealError(f"hand of seat {seat}: {exc}") from None
            size = sizes[seat]
            if len(cards) != size:
                if size == 0:
                    raise DealError(
                        f"seat {seat} deals and sits this deal out: its hand must be empty"
                    )
                raise DealError(f"seat {seat} holds {len(cards)} cards; each player holds {size}")
            out.append(cards)
        return tuple(out)

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
        by_seat = deal_packets(deck, _seat_orders(n, dealer, options.hand_size)[1], options.packets)
        hands = [by_seat.get(s, []) for s in range(n)]
        return cls(
            hands,
            dealer=dealer,
            options=options,
            seats=seats,
            bock_multiplier=bock_multiplier,
            pflicht_due=pflicht_due,
        )

    # -- the game API -------------------------------------------------------

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def to_move(self) -> int | None:
        return self._to_move

    def _whose_turn(self) -> int | None:
        """The seat to move, worked out after each action (:attr:`to_move` keeps it)."""
        phase = self.phase
        if phase == "play":
            assert self._play is not None
            return self._play.to_move
        if phase == "declare":
            return self._queue[0]
        if phase == "armut_answer" or phase == "armut_return":
            return self.armut_partner
        if phase == "armut_give":
            return self.armut_by
        return None

    def _end(self, outcome: str) -> None:
        """The deal is over: ``played`` out, or void (``redeal``)."""
        self.outcome = outcome
        self.phase = "done" if outcome == "played" else "redeal"
        self.is_over = True

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
    def initial_hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._initial

    @property
    def order(self) -> TrickOrder:
        """The trick order of the game being played (the normal one before play)."""
        return self._order

    @property
    def trick_play(self) -> TrickPlay | None:
        return self._play

    @property
    def tricks(self) -> tuple[PlayedTrick, ...]:
        """The completed tricks, in order."""
        if self._play is None:
            return ()
        return tuple(t.freeze() for t in self._play.tricks)

    @property
    def trick_number(self) -> int:
        return 1 + (len(self._play.tricks) if self._play is not None else 0)

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick; before play the first lead."""
        if self._play is not None:
            return self._play.leader
        return self.ask_order[0]

    @property
    def re_party(self) -> frozenset[int] | None:
        """The Re party (None while a Hochzeit is unclarified or before play)."""
        return self._re_party

    @property
    def offenders(self) -> frozenset[int]:
        """Seats of the party that offended first (table mode), offences not taken back."""
        return offenders(self)

    @property
    def declaration_round(self) -> str | None:
        """The declaration round being asked (``scharfe``, ``solo``, ``marriage``,
        ``vorbehalt``, ``reservation``), or None after the declarations."""
        if self.phase != "declare":
            return None
        return self._rounds[self._round]

    @property
    def armut_given(self) -> tuple[Card, ...]:
        """The three cards the poor player gave (hidden from the others)."""
        return self._armut_given

    @property
    def armut_returned(self) -> tuple[Card, ...]:
        """The three cards given back (hidden from the others)."""
        return self._armut_returned

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The unplayed cards of ``seat`` (the engine's omniscient view)."""
        cards = self._play.hands[seat] if self._play is not None else self._hands[seat]
        return sort_hand(cards, self._order)

    def party_of(self, seat: int) -> str | None:
        """The true party of ``seat`` (None if it is not yet decided or it sits out)."""
        if seat not in self.playing:
            return None
        if self._re_party is not None:
            return "re" if seat in self._re_party else "kontra"
        if self.phase == "play" and self.game_type == "hochzeit" and seat == self.hochzeit_by:
            return "re"
        return None

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
            play = self._play
            if self.phase != "play" or seat not in self.playing:
                cached = self._compute_legal(seat)
            else:  # the common case, here to save a call: cards and announcements
                assert play is not None
                hand = play.hands[seat]
                table_mode = self.options.table_mode
                cached = []
                if seat == self._to_move:
                    cached.extend(dict.fromkeys(hand) if table_mode else play.playable(seat))
                cards = len(hand)
                if cards >= self._announce_floor and may_still_announce(self, seat, cards):
                    cached += announcement_calls(self, seat)
                if table_mode and take_back_offence(self, seat) is not None:
                    cached.append(_TAKE_BACK)
            self._legal[seat] = cached
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
        play = self._play
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
        play = self._play
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
        if legal is None or not (
            action in legal if type(action) is Card else any(map(is_, legal, repeat(action)))
        ):
            self.check(action, seat)
        assert who is not None
        self._legal.clear()
        if isinstance(action, Card):
            new = play_card(self, action, who)
            self._to_move = self._play.to_move  # type: ignore[union-attr]
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
            self._to_move = self._whose_turn()
        self._actions.append(action)
        self._action_seats.append(who)
        self._events.extend(new)
        return new

    def _end_declarations(self) -> list[Event]:
        """After the last declaration round: the Armut's exchange (if no solo), else play."""
        if self._solo is None and self.armut_by is not None:
            return offer_armut(self)
        return start_play(self)

    def _reorder(self) -> None:
        """The trick order from the game type and the Scharfe in force."""
        game_type = self.game_type
        style = self.options.solo_style
        normal = is_normal_order(game_type, style)
        self._order = trick_order(
            game_type,
            style=style,
            scharfe_aces=normal and self.scharfe_aces_by is not None,
            scharfe_kings=normal and self.scharfe_kings_by is not None,
            nines=self.options.nines,
        )

    # -- the end ------------------------------------------------------------

    def augen(self) -> dict[str, int]:
        """Augen taken so far by each party (by seat before the parties are known)."""
        return party_augen(self)

    def facts(self) -> GameFacts:
        """The facts of the finished game, as :func:`score_game` reads them."""
        return game_facts(self)

    def points(self) -> tuple[int, ...]:
        """Each table seat's score of this game as written on the sheet (0 until the end)."""
        if self.score is None:
            return (0,) * self.options.players
        return tuple(self.score.points)

    # -- notation -----------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return format_action(action)

    # -- observation and record ----------------------------------------------

    def observation(self, seat: int) -> DoppelkopfObservation:
        from kartentisch.games.doppelkopf.observation import observe

        return observe(self, seat)

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options.to_dict(),
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
        out["hands"] = [[str(c) for c in h] for h in self._initial]
        out["actions"] = [
            f"{s}:{a}" if isinstance(a, Call) and a.word in FREE_WORDS else str(a)
            for a, s in zip(self._actions, self._action_seats, strict=True)
        ]
        return out


@functools.lru_cache(maxsize=64)
def _seat_orders(
    n: int, dealer: int, hand_size: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The seats that play (table order), the same seats from the dealer's left, and
    the number of cards each seat of the table holds."""
    playing = tuple(s for s in range(n) if n == 4 or s != dealer)
    ask = tuple(s for s in ((dealer + 1 + i) % n for i in range(n)) if s in playing)
    return playing, ask, tuple(hand_size if s in playing else 0 for s in range(n))


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


def _to_card(value: object) -> Card:
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Card(value)
    raise NotationError(f"{value!r} is not a card; write cards as text such as QC or 10H")
