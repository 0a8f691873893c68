"""The state of one Doppelkopf deal: what the phases read and change.

The package is layered (docs/architecture.md, "Doppelkopf"): the cards and
their order (:mod:`~kartentisch.games.doppelkopf.trumps`) and the options at
the bottom; this module's :class:`DealState` above them; the phases —
:mod:`~kartentisch.games.doppelkopf.declarations`,
:mod:`~kartentisch.games.doppelkopf.armut`,
:mod:`~kartentisch.games.doppelkopf.play`,
:mod:`~kartentisch.games.doppelkopf.announcements` — above the state, each a
few public functions of a :class:`DealState`; and
:class:`~kartentisch.games.doppelkopf.deal.DoppelkopfDeal`, the game's
interface, on top: it checks an action, hands it to its phase and keeps the
actions taken. No phase imports the deal, and nothing imports a private name.

The state's attributes are public because the phases change them; every
other caller reads them (through the deal) and changes the deal only by its
actions. What the rule options decide once per deal is worked out here as the
deal starts: the seats' orders, the declaration rounds, the trick order
before the game is known.

>>> from kartentisch.cards import parse_cards
>>> from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
>>> deal = DoppelkopfDeal.from_seed(3, dealer=0)
>>> deal.rounds, deal.playing, deal.ask_order
(('scharfe', 'solo', 'marriage'), (0, 1, 2, 3), (1, 2, 3, 0))
>>> deal.trumps_in(parse_cards("QC 10H AS KS"))
2
"""

from __future__ import annotations

import functools
from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Final

from kartentisch.cards import Card
from kartentisch.engine import GameState
from kartentisch.errors import DealError, NotationError
from kartentisch.games.doppelkopf.actions import Action, Call
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.scoring import Announcement, GameScore, is_power
from kartentisch.games.doppelkopf.trumps import is_normal_order, pig_card, sort_hand, trick_order
from kartentisch.tricks import PlayedTrick, TrickOrder, TrickPlay

__all__ = ["AnnounceNeed", "AnnounceNeeds", "DealState", "Offence", "SoloClaim", "seat_orders"]

_CARD_TYPE: Final = frozenset({Card})
#: An announcement a seat may make: the fewest cards it needs, the word, the words it
#: adds (the implied lower ones first) and whether it is an offence (table mode).
AnnounceNeed = tuple[int, Call, tuple[str, ...], bool]
#: The announcements a seat may make, for an epoch of the announcements, a Re party
#: and a Hochzeit's deciding trick (in this order).
AnnounceNeeds = tuple[int, frozenset[int] | None, int | None, tuple[AnnounceNeed, ...]]
_SEQUENCE_TYPES: Final = frozenset({list, tuple})


@dataclass(slots=True, init=False)
class SoloClaim:
    """The best solo declared so far."""

    seat: int
    kind: str
    ouvert: bool
    pflicht: bool

    # Written out (``init=False``): compiled, a generated ``__init__`` would run as Python.
    def __init__(self, seat: int, kind: str, ouvert: bool, pflicht: bool) -> None:
        self.seat = seat
        self.kind = kind
        self.ouvert = ouvert
        self.pflicht = pflicht


@dataclass(slots=True)
class Offence:
    """A revoke or a wrong announcement accepted in table mode (Kulanz may undo it)."""

    seat: int
    kind: str  # "revoke" or "announcement"
    cards_played: int
    word: str = ""


class DealState(GameState[Action]):
    """Everything one deal holds, from the dealt hands to the score.

    Built from the hands by seat (the 5-player dealer's hand is empty), the
    dealer and the options; :class:`~kartentisch.games.doppelkopf.deal.DoppelkopfDeal`
    is the state with its actions.
    """

    #: Whether the deal is over (set by :meth:`end`: read once per action).
    is_over: bool = False

    def __init__(
        self,
        hands: Sequence[Sequence[Card | str]],
        *,
        dealer: int,
        options: DoppelkopfOptions,
        seats: Sequence[str] | None,
        bock_multiplier: int,
        pflicht_due: Sequence[int] | None,
        vorfuehrung: int | None = None,
    ) -> None:
        self.options = options
        n = options.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        m = bock_multiplier
        f = options.bock_factor
        if type(m) is not int or not is_power(m, f):
            raise DealError(f"the Bock multiplier must be 1, {f}, {f * f} …, not {m!r}")
        if m != 1 and not options.bock:
            raise DealError("these rules have no Böcke: the Bock multiplier must be 1")
        self.dealer = dealer
        self.bock_multiplier = bock_multiplier
        self.seat_names: tuple[str, ...] | None = tuple(seats) if seats is not None else None
        if self.seat_names is not None and len(self.seat_names) != n:
            raise DealError(f"{len(self.seat_names)} seat names given for {n} players")
        #: The four seats that play, in table order (the 5-player dealer sits out), and
        #: the same seats in the order they are asked and lead: from the dealer's left.
        self.playing, self.ask_order, sizes = seat_orders(n, dealer, options.hand_size)
        #: The dealt hands, by seat.
        self.initial_hands = _validate_hands(options, hands, sizes)
        self.hand_size = options.hand_size
        #: The hands before play (the trick play holds them from the first card on).
        self.hands: list[list[Card]] = [list(h) for h in self.initial_hands]
        due = self.playing if pflicht_due is None else tuple(pflicht_due)
        self.pflicht_due: frozenset[int] = frozenset(due) if options.pflichtsolo else frozenset()
        #: The seat that is vorgeführt (option ``vorfuehrung``): it owes its Pflichtsolo
        #: and the session is ending, so it must declare a solo in this deal.
        if vorfuehrung is not None and vorfuehrung not in self.pflicht_due:
            raise DealError(
                f"seat {vorfuehrung!r} can only be vorgeführt while it owes a Pflichtsolo "
                "and plays this deal"
            )
        if vorfuehrung is not None and not options.vorfuehrung:
            raise DealError("these rules have no Vorführung")
        self.vorfuehrung = vorfuehrung

        # declarations
        self.phase = "declare"
        #: The declaration rounds these options ask, in order, and the one being asked.
        self.rounds: tuple[str, ...] = (
            ("vorbehalt", "reservation")
            if options.declarations == "ddv"
            else ("scharfe", "solo", "marriage")
            if options.scharfe
            else ("solo", "marriage")
        )
        self.round_index = 0
        #: The seats still to be asked in this round, the next first.
        self.asking: list[int] = list(self.ask_order)
        self.declarations: list[tuple[int, Call]] = []
        self.kings: tuple[int, ...] | None = None  # by seat, counted when first asked
        self.vorbehalt: list[int] = []
        self.scharfe_aces_by: int | None = None
        self.scharfe_kings_by: int | None = None
        self.solo_claim: SoloClaim | None = None
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
        #: Option ``armut_ask = "in_turn"``: the seats still to be asked after the one asked.
        self.armut_asking: list[int] = []
        self.armut_direction = ""
        self.armut_trumps = 0
        self.armut_returned_trumps = 0
        #: The three cards the poor player gave, and the three given back (hidden).
        self.armut_given: tuple[Card, ...] = ()
        self.armut_returned: tuple[Card, ...] = ()
        #: The Re party (None while a Hochzeit is unclarified or before play).
        self.re_party: frozenset[int] | None = None
        self.hochzeit_partner: int | None = None
        self.hochzeit_trick: int | None = None
        #: The trick order of the game being played (the normal one before play).
        self.order: TrickOrder = trick_order(
            "normal", nines=options.nines, dullen=options.dullen, dulle_order=options.dulle_order
        )
        self.trick_play: TrickPlay | None = None
        #: The pigs of the game (option ``schweinchen``), highest first, as
        #: ``(seat, kind)``, and the kinds the table has been told of.
        self.pigs: tuple[tuple[int, str], ...] = ()
        self.pigs_shown: frozenset[str] = frozenset()

        # play
        self.announcements: list[Announcement] = []
        #: Bumped whenever :attr:`announcements` changes; with the fewest cards each
        #: word needs in that state, by seat, as last worked out: with the epoch, the
        #: Re party and the Hochzeit's deciding trick it holds for (see
        #: ``announcement_calls``; asked for at every card).
        self.announce_epoch = 0
        self.announce_by_seat: list[AnnounceNeeds | None] = [None] * n
        #: The options the announcements' rules read (a key of their shared table).
        self.announce_rules: tuple[object, ...] = (
            options.table_mode,
            options.announcements,
            options.scoring,
            options.hochzeit_shift,
            options.announcement_reply,
            options.hand_size,
        )
        #: Table mode (a revoke is accepted and may be taken back), read at every card.
        self.table_mode = options.table_mode
        self.offences: list[Offence] = []
        self.cards_played = 0
        #: Announcement deadlines counted by tricks (``announcement_count``), read often.
        self.count_tricks = options.announcement_count == "tricks"
        self.outcome: str | None = None
        self.redeal_reason: str | None = None
        #: Whose call or answer voided the deal (the Hochzeit's holder when alone).
        self.redeal_by: int | None = None
        self.score: GameScore | None = None

    # -- what the phases change ----------------------------------------------

    def end(self, outcome: str) -> None:
        """The deal is over: ``played`` out, or void (``redeal``)."""
        self.outcome = outcome
        self.phase = "done" if outcome == "played" else "redeal"
        self.is_over = True

    def reorder(self) -> None:
        """The trick order from the game type, the Scharfe and the pigs in force."""
        self.order = self.order_with(self.pigs)

    def order_with(self, pigs: Sequence[tuple[int, str]]) -> TrickOrder:
        """The trick order of this game with only ``pigs`` of its pigs."""
        game_type = self.game_type
        style = self.options.solo_style
        normal = is_normal_order(game_type, style)
        nines = self.options.nines
        return trick_order(
            game_type,
            style=style,
            scharfe_aces=normal and self.scharfe_aces_by is not None,
            scharfe_kings=normal and self.scharfe_kings_by is not None,
            nines=self.options.nines,
            dullen=self.options.dullen,
            dulle_order=self.options.dulle_order,
            pigs=tuple(pig_card(kind, nines=nines) for _, kind in pigs),
        )

    def pigs_known_to(self, seat: int) -> tuple[tuple[int, str], ...]:
        """The pigs ``seat`` knows of: its own, those the table was told of, all at the end."""
        if self.outcome is not None:
            return self.pigs
        shown = self.pigs_shown
        return tuple((s, k) for s, k in self.pigs if s == seat or k in shown)

    def order_known_to(self, seat: int) -> TrickOrder:
        """The trick order as ``seat`` knows it (pigs it has not been told of left out)."""
        known = self.pigs_known_to(seat)
        return self.order if len(known) == len(self.pigs) else self.order_with(known)

    def whose_turn(self) -> int | None:
        """The seat to move, worked out from the phase (the deal keeps it after each action)."""
        phase = self.phase
        if phase == "play":
            assert self.trick_play is not None
            return self.trick_play.to_move
        if phase == "declare":
            return self.asking[0]
        if phase == "armut_answer" or phase == "armut_return":
            return self.armut_partner
        if phase == "armut_give":
            return self.armut_by
        return None

    # -- what everyone reads ---------------------------------------------------

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to move) may make now."""

    @property
    def num_seats(self) -> int:
        return self.options.players

    def trumps_in(self, cards: Sequence[Card]) -> int:
        """How many of ``cards`` are trumps in the order of the game (so far)."""
        suit_of = self.order.suit_of
        return sum(1 for c in cards if suit_of[c] == 4)

    @property
    def tricks(self) -> tuple[PlayedTrick, ...]:
        """The completed tricks, in order."""
        if self.trick_play is None:
            return ()
        return tuple(t.freeze() for t in self.trick_play.tricks)

    @property
    def trick_number(self) -> int:
        return 1 + (len(self.trick_play.tricks) if self.trick_play is not None else 0)

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick; before play the first lead."""
        if self.trick_play is not None:
            return self.trick_play.leader
        return self.ask_order[0]

    @property
    def declaration_round(self) -> str | None:
        """The declaration round being asked (``scharfe``, ``solo``, ``marriage``,
        ``vorbehalt``, ``reservation``), or None after the declarations."""
        if self.phase != "declare":
            return None
        return self.rounds[self.round_index]

    def hand(self, seat: int, viewer: int | None = None) -> tuple[Card, ...]:
        """The unplayed cards of ``seat``, in the order ``viewer`` knows (default: all)."""
        play = self.trick_play
        cards = play.hands[seat] if play is not None else self.hands[seat]
        return sort_hand(cards, self.order if viewer is None else self.order_known_to(viewer))

    def party_of(self, seat: int) -> str | None:
        """The true party of ``seat`` (None if it is not yet decided or it sits out)."""
        if seat not in self.playing:
            return None
        if self.re_party is not None:
            return "re" if seat in self.re_party else "kontra"
        if self.phase == "play" and self.game_type == "hochzeit" and seat == self.hochzeit_by:
            return "re"
        return None

    def points(self) -> tuple[int, ...]:
        """Each table seat's score of this game as written on the sheet (0 until the end)."""
        if self.score is None:
            return (0,) * self.options.players
        return tuple(self.score.points)


@functools.lru_cache(maxsize=64)
def seat_orders(
    n: int, dealer: int, hand_size: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The seats that play (table order), the same seats from the dealer's left, and
    the number of cards each seat of the table holds.

    >>> seat_orders(5, 2, 10)
    ((0, 1, 3, 4), (3, 4, 0, 1), (10, 10, 0, 10, 10))
    """
    playing = tuple(s for s in range(n) if n == 4 or s != dealer)
    ask = tuple(s for s in ((dealer + 1 + i) % n for i in range(n)) if s in playing)
    return playing, ask, tuple(hand_size if s in playing else 0 for s in range(n))


def _validate_hands(
    options: DoppelkopfOptions, hands: Sequence[Sequence[Card | str]], sizes: tuple[int, ...]
) -> tuple[tuple[Card, ...], ...]:
    """The hands as tuples of cards, checked against the deck and the hand sizes."""
    out: tuple[tuple[Card, ...], ...]
    # Cards already, in lists of the right sizes, counted on the way (one loop).
    held = [0] * 52
    ready: list[tuple[Card, ...]] = []
    if type(hands) in _SEQUENCE_TYPES and len(hands) == len(sizes):
        for i in range(len(hands)):
            hand = hands[i]
            if type(hand) not in _SEQUENCE_TYPES or len(hand) != sizes[i]:
                break
            for card in hand:
                if type(card) is not Card:
                    break
                c: int = card
                held[c] += 1
            else:
                ready.append(tuple(hand))  # type: ignore[arg-type]
                continue
            break
    if len(ready) == len(sizes):
        out = tuple(ready)
        if held == _deck_counts(options.nines):
            return out  # the whole deck, each card twice (every shuffled deal)
    else:
        out = _read_hands(options.players, hands, sizes)
        if _is_whole_deck(out, options.nines):
            return out
    counts = Counter(chain.from_iterable(out))
    deck = options.deck()
    if not options.deck_cards().issuperset(counts) or max(counts.values()) > 2:
        for card, count in counts.items():
            if card not in deck:
                raise DealError(f"{card.symbol} is not in the {len(deck)}-card Doppelkopf deck")
            if count > 2:
                raise DealError(f"{card.symbol} is dealt {count} times; the deck has two")
    return out


def _is_whole_deck(hands: tuple[tuple[Card, ...], ...], nines: bool) -> bool:
    """Whether ``hands`` hold the deck's cards, each twice (counted, not sorted)."""
    counts = [0] * 52
    for hand in hands:
        for card in hand:
            c: int = card
            counts[c] += 1
    return counts == _deck_counts(nines)


@functools.cache
def _deck_counts(nines: bool) -> list[int]:
    """How many of each card (by index) the deck holds."""
    counts = [0] * 52
    for card in DoppelkopfOptions(nines=nines).deck():
        c: int = card
        counts[c] += 1
    return counts


def _read_hands(
    n: int, hands: Sequence[Sequence[Card | str]], sizes: tuple[int, ...]
) -> tuple[tuple[Card, ...], ...]:
    """Hands given as text or with the wrong shape: convert, or say what is wrong."""
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
                raise DealError(f"seat {seat} deals and sits this deal out: its hand must be empty")
            raise DealError(f"seat {seat} holds {len(cards)} cards; each player holds {size}")
        out.append(cards)
    return tuple(out)


def _to_card(value: object) -> Card:
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Card(value)
    raise NotationError(f"{value!r} is not a card; write cards as text such as QC or 10H")
