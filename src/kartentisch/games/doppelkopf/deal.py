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

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    announcement_words,
    may_still_announce,
    refusal,
)
from kartentisch.games.doppelkopf.declarations import (
    AUGEN,
    QUEEN_OF_CLUBS,
    check_declaration,
    check_exchange,
    declaration_options,
    exchange_options,
    scharfe_parts,
    solo_options,
    trumps_in,
)
from kartentisch.games.doppelkopf.events import (
    Announced,
    AnnouncementTakenBack,
    ArmutAnswered,
    ArmutCardsPassed,
    ArmutOffered,
    CardPlayed,
    CardTakenBack,
    DealEnded,
    DealStarted,
    Declared,
    HochzeitAlone,
    HochzeitPartnerFound,
    PlayStarted,
    Redeal,
    TrickWon,
)
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.scoring import (
    Announcement,
    GameFacts,
    GameScore,
    ScoringTrick,
    score_game,
)
from kartentisch.games.doppelkopf.trumps import is_normal_order, trick_order
from kartentisch.tricks import TRUMP, PlayedTrick, TrickOrder, TrickPlay

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
_PASS: Final = Call("pass")
_ANNOUNCEMENT_CALLS: Final = tuple(Call(w) for w in ANNOUNCEMENTS)


def augen_of(cards: Sequence[Card]) -> int:
    """The card points in ``cards``."""
    return sum(AUGEN[c] for c in cards)


def sort_hand(cards: Sequence[Card], order: TrickOrder | None = None) -> tuple[Card, ...]:
    """Display order: trumps first (high to low), then ♣ ♠ ♥ ♦ high to low."""
    if order is None:
        order = trick_order("normal")
    power, suit_of = order.power, order.suit_of
    return tuple(
        sorted(cards, key=lambda c: (-power[c] if suit_of[c] == 4 else 0, suit_of[c], -power[c]))
    )


@dataclass(slots=True)
class _SoloClaim:
    seat: int
    kind: str
    ouvert: bool
    pflicht: bool


@dataclass(slots=True)
class _Offence:
    """A revoke or a wrong announcement accepted in table mode (Kulanz may undo it)."""

    seat: int
    kind: str  # "revoke" or "announcement"
    cards_played: int
    word: str = ""


class DoppelkopfDeal(GameState[Action]):
    """A deal from given hands (by seat; the 5-player dealer's hand is empty).

    ``bock_multiplier`` comes from the score sheet (2 per active Bock);
    ``pflicht_due`` names the seats that still owe their Pflichtsolo (DDV;
    by default every playing seat).
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
        #: The four seats that play, in table order (the 5-player dealer sits out).
        self.playing: tuple[int, ...] = tuple(s for s in range(n) if n == 4 or s != dealer)
        #: The same seats in the order they are asked and lead: from the dealer's left.
        self.ask_order: tuple[int, ...] = tuple(
            s for s in ((dealer + 1 + i) % n for i in range(n)) if s in self.playing
        )
        self._initial = self._validate_hands(hands)
        self._hands: list[list[Card]] = [list(h) for h in self._initial]
        due = self.playing if pflicht_due is None else tuple(pflicht_due)
        self.pflicht_due: frozenset[int] = frozenset(due) if options.pflichtsolo else frozenset()

        # declarations
        self.phase = "declare"
        self._rounds: list[str] = (
            ["vorbehalt", "reservation"]
            if options.declarations == "ddv"
            else (["scharfe"] if options.scharfe else []) + ["solo", "marriage"]
        )
        self._round = 0
        self._queue: list[int] = list(self.ask_order)
        self.declarations: list[tuple[int, Call]] = []
        self._vorbehalt: list[int] = []
        self.scharfe_aces_by: int | None = None
        self.scharfe_kings_by: int | None = None
        self._solo: _SoloClaim | None = None
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
        self._offences: list[_Offence] = []
        self._cards_played = 0
        self.outcome: str | None = None
        self.redeal_reason: str | None = None
        self.score: GameScore | None = None
        self._legal: dict[int, list[Action]] = {}
        self._actions: list[Action] = []
        self._action_seats: list[int] = []
        self._events: list[Event] = [
            DealStarted(
                dealer,
                self.playing,
                tuple(len(h) for h in self._initial),
                options.packets,
                bock_multiplier,
            )
        ]

    # -- construction -------------------------------------------------------

    def _validate_hands(
        self, hands: Sequence[Sequence[Card | str]]
    ) -> tuple[tuple[Card, ...], ...]:
        options = self.options
        n = options.players
        if type(hands) not in (list, tuple) or len(hands) != n:
            raise DealError(f"a {n}-player deal needs {n} hands, one per seat (a list of lists)")
        out: list[tuple[Card, ...]] = []
        for seat, hand in enumerate(hands):
            if type(hand) not in (list, tuple):
                raise DealError(f"the hand of seat {seat} must be a list of cards")
            try:
                cards = tuple(c if type(c) is Card else _to_card(c) for c in hand)
            except NotationError as exc:
                raise DealError(f"hand of seat {seat}: {exc}") from None
            size = options.hand_size if seat in self.playing else 0
            if len(cards) != size:
                if size == 0:
                    raise DealError(
                        f"seat {seat} deals and sits this deal out: its hand must be empty"
                    )
                raise DealError(f"seat {seat} holds {len(cards)} cards; each player holds {size}")
            out.append(cards)
        counts: dict[Card, int] = {}
        for card in (c for h in out for c in h):
            counts[card] = counts.get(card, 0) + 1
        deck = options.deck()
        for card, count in counts.items():
            if card not in deck:
                raise DealError(f"{card.symbol} is not in the {len(deck)}-card Doppelkopf deck")
            if count > 2:
                raise DealError(f"{card.symbol} is dealt {count} times; the deck has two")
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
        order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if n == 4 or s != dealer]
        by_seat = deal_packets(deck, order, options.packets)
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

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

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
        """Seats of the party that offended first (table mode), offences not taken back.

        Seed 003 § Falsch bedient: the offending party is scored schwarz; a
        later offence by the other party changes nothing.
        """
        if not self._offences:
            return frozenset()
        first = self._party_at_end(self._offences[0].seat)
        return frozenset(o.seat for o in self._offences if self._party_at_end(o.seat) == first)

    def _party_at_end(self, seat: int) -> str:
        re = self._re_party
        if re is None and self.hochzeit_by is not None:
            re = frozenset({self.hochzeit_by})
        return "re" if re is not None and seat in re else "kontra"

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

    def _cards_of(self, seat: int) -> list[Card]:
        return self._play.hands[seat] if self._play is not None else self._hands[seat]

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
            seat = self.to_move
            if seat is None:
                return []
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._compute_legal(seat)
            self._legal[seat] = cached
        return list(cached)

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.outcome is not None or seat not in self.playing:
            return []
        phase = self.phase
        mine = self.to_move == seat
        if phase == "declare":
            return declaration_options(self, seat) if mine else []
        if phase == "armut_answer":
            return [Call("accept"), Call("refuse")] if mine else []
        if phase in ("armut_give", "armut_return"):
            return exchange_options(self, seat) if mine else []
        out: list[Action] = []
        play = self._play
        assert play is not None
        if mine:
            if self.options.table_mode:
                out.extend(dict.fromkeys(play.hands[seat]))
            else:
                out.extend(play.playable(seat))
        if may_still_announce(self, seat, len(play.hands[seat])):
            for call in _ANNOUNCEMENT_CALLS:
                if refusal(self, call, seat) is None:
                    out.append(call)
        if self.options.table_mode and self._take_back_offence(seat) is not None:
            out.append(Call("take_back"))
        return out

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
                if self._take_back_offence(who) is None:
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

    # -- announcements ------------------------------------------------------

    # -- applying -----------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        if isinstance(action, Card) and self.phase == "play":
            return self._apply_card(action, seat)
        self.check(action, seat)
        assert isinstance(action, Call)
        who = self.to_move if seat is None else seat
        assert who is not None
        self._legal.clear()
        new: list[Event] = []
        if action.word in FREE_WORDS:
            if action.word == "take_back":
                new.extend(self._take_back(who))
            else:
                new.extend(self._announce(action.word, who))
        elif self.phase == "declare":
            new.extend(self._declare(action, who))
        elif self.phase == "armut_answer":
            new.extend(self._answer_armut(action, who))
        else:
            new.extend(self._exchange(action, who))
        self._actions.append(action)
        self._action_seats.append(who)
        self._events.extend(new)
        return new

    def _apply_card(self, card: Card, seat: int | None) -> list[Event]:
        play = self._play
        assert play is not None
        mover = play.to_move
        legal = self._legal.get(mover) if mover is not None else None
        if legal is None or card not in legal or (seat is not None and seat != mover):
            self.check(card, seat)
        assert mover is not None
        self._legal.clear()
        trick_no = len(play.tricks) + 1
        new: list[Event] = [CardPlayed(mover, card, trick_no)]
        if self.options.table_mode and play.is_revoke(mover, card):
            self._offences.append(_Offence(mover, "revoke", self._cards_played + 1))
        done = play.play(mover, card)
        self._cards_played += 1
        if done is not None:
            winner = done.winner
            assert winner is not None
            new.append(TrickWon(trick_no, winner, tuple(done.cards), augen_of(done.cards)))
            if self.game_type == "hochzeit" and self.hochzeit_trick is None:
                new.extend(self._clarify_hochzeit())
            if play.to_move is None:
                new.append(self._finish())
        self._actions.append(card)
        self._action_seats.append(mover)
        self._events.extend(new)
        return new

    def _declare(self, call: Call, seat: int) -> list[Event]:
        name = self._rounds[self._round]
        if call.word == "redeal":
            return self._void("kings", seat, call)
        shown = call
        if call.word == "scharfe":
            hand = self._hands[seat]
            parts = scharfe_parts(hand, call.detail)
            if "aces" in parts:
                self.scharfe_aces_by = seat
            if "kings" in parts:
                self.scharfe_kings_by = seat
            shown = Call("scharfe", " ".join(sorted(parts)))
            self._reorder()
        elif call.word == "solo":
            self._solo = _SoloClaim(seat, call.detail, call.ouvert, seat in self.pflicht_due)
        elif call.word == "hochzeit":
            self.hochzeit_by = seat
            self.hochzeit_rule = call.detail or "first_trick"
        elif call.word == "armut":
            self.armut_by = seat
        elif call.word == "vorbehalt":
            self._vorbehalt.append(seat)
        self.declarations.append((seat, shown))
        new: list[Event] = [Declared(seat, str(shown))]
        self._queue.pop(0)
        if name == "reservation":
            self._queue = [s for s in self._queue if self._may_outrank(s)]
        elif name == "solo" and self._queue and not solo_options(self, self._queue[0]):
            # Nothing can outrank the solo declared (public knowledge): the round ends.
            self._queue = []
        while not self._queue:
            self._round += 1
            new.extend(self._next_round())
            if self.phase != "declare":
                break
        return new

    def _may_outrank(self, seat: int) -> bool:
        """DDV reservations: whether ``seat`` still needs to be asked."""
        if self._solo is None:
            return True
        return (
            self.options.solo_priority == "ddv"
            and seat in self.pflicht_due
            and not self._solo.pflicht
        )

    def _next_round(self) -> list[Event]:
        """Start the next declaration round, or leave the declarations."""
        if self._round < len(self._rounds):
            name = self._rounds[self._round]
            if name == "marriage" and self._solo is not None:
                self._round = len(self._rounds)
                return self._start_play()
            if name == "reservation":
                self._queue = [s for s in self.ask_order if s in self._vorbehalt]
            else:
                self._queue = list(self.ask_order)
            return []
        if self._solo is None and self.armut_by is not None:
            return self._offer_armut()
        return self._start_play()

    def _offer_armut(self) -> list[Event]:
        poor = self.armut_by
        assert poor is not None
        holders = [s for s in self.playing for c in self._hands[s] if c == QUEEN_OF_CLUBS]
        if len(set(holders)) == 1:
            partner = holders[0]  # a Hochzeit at the table is asked
            direction = "down"
        elif poor in holders:
            partner = next(s for s in holders if s != poor)
            direction = "up"
        else:
            partner = next(s for s in self.ask_order if s != poor and s not in holders)
            direction = "down"
        self.armut_partner = partner
        self.armut_direction = direction
        self.armut_trumps = trumps_in(self, self._hands[poor])
        self.phase = "armut_answer"
        return [ArmutOffered(poor, self.armut_trumps, direction, partner)]

    def _answer_armut(self, call: Call, seat: int) -> list[Event]:
        new: list[Event] = [ArmutAnswered(seat, call.word == "accept")]
        if call.word == "refuse":
            self.outcome = "redeal"
            self.redeal_reason = "armut_refused"
            self.phase = "redeal"
            new.append(Redeal("armut_refused", seat))
            return new
        # The two may no longer play Scharfe (seed 003 § Mangelnder Trumpf).
        pair = (self.armut_by, self.armut_partner)
        if self.scharfe_aces_by in pair:
            self.scharfe_aces_by = None
        if self.scharfe_kings_by in pair:
            self.scharfe_kings_by = None
        self._reorder()
        self.phase = "armut_give"
        return new

    def _exchange(self, call: Call, seat: int) -> list[Event]:
        to = self.armut_partner if self.phase == "armut_give" else self.armut_by
        assert to is not None
        for card in call.cards:
            self._hands[seat].remove(card)
        self._hands[to].extend(call.cards)
        trumps = trumps_in(self, call.cards)
        new: list[Event] = [ArmutCardsPassed(seat, to, call.word, len(call.cards), trumps)]
        if self.phase == "armut_give":
            self._armut_given = call.cards
            self.phase = "armut_return"
        else:
            self._armut_returned = call.cards
            self.armut_returned_trumps = trumps
            new.extend(self._start_play())
        return new

    def _void(self, reason: str, seat: int, call: Call) -> list[Event]:
        self.declarations.append((seat, call))
        self.outcome = "redeal"
        self.redeal_reason = reason
        self.phase = "redeal"
        return [Declared(seat, str(call)), Redeal(reason, seat)]

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

    def _start_play(self) -> list[Event]:
        holders = [s for s in self.playing for c in self._hands[s] if c == QUEEN_OF_CLUBS]
        leader = self.ask_order[0]
        solo = self._solo
        if solo is not None:
            self.game_type = solo.kind
            self.solo = True
            self.ouvert = solo.ouvert
            self.soloist = solo.seat
            self._re_party = frozenset({solo.seat})
            self.pflicht = solo.pflicht
            if self.pflicht:
                leader = solo.seat
        elif self.armut_by is not None:
            self.game_type = "armut"
            # Natural partners: the Alten holders are Re; a Hochzeit asked takes the poor one in.
            initial = [s for s in self.playing for c in self._initial[s] if c == QUEEN_OF_CLUBS]
            re = set(initial)
            if len(re) == 1:
                re.add(self.armut_by)
            self._re_party = frozenset(re)
        elif self.hochzeit_by is not None:
            self.game_type = "hochzeit"
        elif len(set(holders)) == 1:
            self.game_type = self._alone_type()
            self.solo = True
            self.silent = True
            self.soloist = holders[0]
            self._re_party = frozenset(holders)
        else:
            self.game_type = "normal"
            self._re_party = frozenset(holders)
        self._reorder()
        self.phase = "play"
        self._play = TrickPlay(self._order, self._hands, self.playing, leader)
        scharfe_live = is_normal_order(self.game_type, self.options.solo_style)
        public_type = "normal" if self.silent else self.game_type
        open_hand = sort_hand(self._hands[solo.seat], self._order) if solo and solo.ouvert else ()
        return [
            PlayStarted(
                public_type,
                None if self.silent else self.soloist,
                self.ouvert,
                leader,
                scharfe_live and self.scharfe_aces_by is not None,
                scharfe_live and self.scharfe_kings_by is not None,
                open_hand,
            )
        ]

    def _alone_type(self) -> str:
        """A silent or partnerless Hochzeit: the Trumpfsolo (DDV: the ♦ solo)."""
        return "diamonds" if self.options.scoring == "ddv" else "trump"

    def _clarify_hochzeit(self) -> list[Event]:
        """Look for the Hochzeit partner in the tricks so far (seed 003, TSR 4.4)."""
        play = self._play
        holder = self.hochzeit_by
        assert play is not None and holder is not None
        suit_of = self._order.suit_of
        limit = self.options.hochzeit_tricks
        for number, trick in enumerate(play.tricks[:limit], start=1):
            winner = trick.winner
            if winner is None or winner == holder:
                continue
            led_trump = suit_of[trick.cards[0]] == 4
            rule = self.hochzeit_rule
            if rule == "first_trick" or (rule == "first_trump") == led_trump:
                self.hochzeit_partner = winner
                self.hochzeit_trick = number
                self._re_party = frozenset({holder, winner})
                return [HochzeitPartnerFound(holder, winner, number)]
        if len(play.tricks) >= limit:
            self.hochzeit_trick = limit
            self._re_party = frozenset({holder})
            return [HochzeitAlone(holder, limit)]
        return []

    def _undo_hochzeit(self) -> None:
        self.hochzeit_partner = None
        self.hochzeit_trick = None
        self._re_party = None
        self._clarify_hochzeit()

    def _announce(self, word: str, seat: int) -> list[Event]:
        party, words, offence = announcement_words(self, word, seat)
        for w in words:
            self.announcements.append(Announcement(seat, party, w))  # type: ignore[arg-type]
        if offence:
            self._offences.append(_Offence(seat, "announcement", self._cards_played, word))
        return [Announced(seat, party, word, tuple(w for w in words if w != word))]

    def _take_back_offence(self, seat: int) -> _Offence | None:
        """Kulanzregel: the seat's own latest offence, if no card has been played since."""
        if self._play is None or self.outcome is not None:
            return None
        for offence in reversed(self._offences):
            if offence.cards_played != self._cards_played:
                return None
            if offence.seat == seat:
                return offence
        return None

    def _take_back(self, seat: int) -> list[Event]:
        offence = self._take_back_offence(seat)
        assert offence is not None and self._play is not None
        self._offences.remove(offence)
        if offence.kind == "announcement":
            for i in range(len(self.announcements) - 1, -1, -1):
                a = self.announcements[i]
                if a.seat == seat and a.word == offence.word:
                    del self.announcements[i]
                    break
            return [AnnouncementTakenBack(seat, offence.word)]
        completed = not self._play.trick.cards
        card = self._play.unplay()
        self._cards_played -= 1
        if completed and self.game_type == "hochzeit":
            self._undo_hochzeit()
        return [CardTakenBack(seat, card, len(self._play.tricks) + 1)]

    # -- the end ------------------------------------------------------------

    def augen(self) -> dict[str, int]:
        """Augen taken so far by each party (by seat before the parties are known)."""
        play = self._play
        if play is None:
            return {"re": 0, "kontra": 0}
        re = self._re_party or frozenset()
        out = {"re": 0, "kontra": 0}
        for trick in play.tricks:
            assert trick.winner is not None
            out["re" if trick.winner in re else "kontra"] += augen_of(trick.cards)
        return out

    def facts(self) -> GameFacts:
        """The facts of the finished game, as :func:`score_game` reads them."""
        play = self._play
        assert play is not None and self._re_party is not None
        solo = self.solo
        game_type = self.game_type
        if game_type == "hochzeit" and self.hochzeit_partner is None:
            game_type = self._alone_type()
            solo = True
        offenders = self.offenders
        offences = {(o.seat, o.word) for o in self._offences if o.kind == "announcement"}
        kept: list[Announcement] = []
        for a in self.announcements:
            if (a.seat, a.word) in offences:
                # A wrong announcement counts as made (seed 003); later offences change nothing.
                if a.seat in offenders:
                    kept.append(a)
            elif not (solo and self.options.scoring == "house") or a.word == "kontra":
                # A house solo has no stages and an implicit Re (seed 003 § Solo): only the
                # opponents' Kontra counts, also in a silent solo no one knew of.
                kept.append(a)
        announcements = tuple(kept)
        suit_of = self._order.suit_of
        return GameFacts(
            rules=self.options.scoring,
            seats=self.playing,
            table_size=self.options.players,
            re_party=self._re_party,
            game_type=game_type,
            solo=solo,
            ouvert=self.ouvert,
            announcements=announcements,
            tricks=tuple(
                ScoringTrick(tuple(t.seats), tuple(t.cards), t.winner)  # type: ignore[arg-type]
                for t in play.tricks
            ),
            trumps=frozenset(c for c in self.options.deck() if suit_of[c] == TRUMP),
            scharfe_aces=self._scharfe_live("aces"),
            offenders=self.offenders,
            bock_multiplier=self.bock_multiplier,
            rot_geht_rum=self.options.rot_geht_rum,
        )

    def _scharfe_live(self, part: str) -> bool:
        if not is_normal_order(self.game_type, self.options.solo_style):
            return False
        return (self.scharfe_aces_by if part == "aces" else self.scharfe_kings_by) is not None

    def _finish(self) -> DealEnded:
        if (
            self.game_type == "hochzeit"
            and self.hochzeit_partner is None
            and self._re_party is None
        ):
            assert self.hochzeit_by is not None
            self._re_party = frozenset({self.hochzeit_by})
        facts = self.facts()
        score = score_game(facts)
        self.score = score
        self.outcome = "played"
        self.phase = "done"
        assert self._re_party is not None
        return DealEnded(
            facts.game_type,
            facts.solo,
            tuple(sorted(self._re_party)),
            {p: score.augen[p] for p in ("re", "kontra")},
            score.winner,
            tuple(score.points),
            tuple(sorted(self.offenders)),
            score,
        )

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


def _to_card(value: object) -> Card:
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Card(value)
    raise NotationError(f"{value!r} is not a card; write cards as text such as QC or 10H")
