"""The play phase: its start, the cards, the Hochzeit's partner, Kulanz, the end.

When the declarations (and an Armut exchange) are over, :func:`start_play`
settles the game type and the parties and hands the cards to a
:class:`~kartentisch.tricks.TrickPlay`. :func:`play_card` plays one checked
card; after each trick an unclarified Hochzeit looks for its partner (seed
003, TSR 4.4). In table mode a revoke or a wrong announcement is accepted as
an :class:`Offence`, which the Kulanzregel lets its player take back before
the next card (:func:`take_back`). The last card hands the facts of the game
to :func:`score_game` (:func:`finish`).

These functions change a :class:`DealState` that has already accepted
the action; the deal keeps the record of actions and events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kartentisch.cards import Card
from kartentisch.engine import Event
from kartentisch.games.doppelkopf.events import (
    AnnouncementTakenBack,
    CardPlayed,
    CardTakenBack,
    DealEnded,
    HochzeitAlone,
    HochzeitPartnerFound,
    PigsShown,
    PlayStarted,
    Redeal,
    TrickWon,
)
from kartentisch.games.doppelkopf.scoring import (
    Announcement,
    GameFacts,
    ScoringTrick,
    score_game,
)
from kartentisch.games.doppelkopf.state import DealState, Offence
from kartentisch.games.doppelkopf.trumps import (
    QUEEN_OF_CLUBS,
    augen_of,
    find_pigs,
    is_normal_order,
    pig_card,
    sort_hand,
)
from kartentisch.tricks import TRUMP, TrickPlay

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.options import DoppelkopfOptions

__all__ = [
    "alone_type",
    "clarify_hochzeit",
    "counted_announcement",
    "deal_pigs",
    "facts_of",
    "finish",
    "game_facts",
    "offenders",
    "party_augen",
    "play_card",
    "start_play",
    "take_back",
    "take_back_offence",
]


#: The events of cards played are values: one shared instance per seat, card and trick,
#: made when first needed and kept by ``(trick * 5 + seat) * 52 + card`` (tricks 1–12).
_CARD_PLAYED: Final[list[CardPlayed | None]] = [None] * (13 * 5 * 52)


def _card_played(seat: int, card: Card, trick: int) -> CardPlayed:
    c: int = card
    key = (trick * 5 + seat) * 52 + c
    if key >= len(_CARD_PLAYED):  # (beyond any deck: not kept)
        return CardPlayed(seat, card, trick)
    event = _CARD_PLAYED[key]
    if event is None:
        event = _CARD_PLAYED[key] = CardPlayed(seat, card, trick)
    return event


# -- the start -------------------------------------------------------------------


def start_play(deal: DealState) -> list[Event]:
    hands = deal.hands
    holders = [s for s in deal.playing for _ in range(hands[s].count(QUEEN_OF_CLUBS))]
    leader = deal.ask_order[0]
    solo = deal.solo_claim
    if solo is not None:
        deal.game_type = solo.kind
        deal.solo = True
        deal.ouvert = solo.ouvert
        deal.soloist = solo.seat
        deal.re_party = frozenset({solo.seat})
        deal.pflicht = solo.pflicht
        # A Pflichtsolo is led by its soloist (TSR 4.2); a Lustsolo as the table plays.
        if deal.pflicht or deal.options.lustsolo_lead == "soloist":
            leader = solo.seat
    elif deal.armut_by is not None:
        deal.game_type = "armut"
        # Natural partners: the Alten holders are Re; a Hochzeit asked takes the poor one in.
        if deal.options.armut_ask == "in_turn":
            # Asked in turn: the poor player and the one who took it are Re.
            assert deal.armut_partner is not None
            re = {deal.armut_by, deal.armut_partner}
        else:
            initial = [
                s for s in deal.playing for c in deal.initial_hands[s] if c == QUEEN_OF_CLUBS
            ]
            re = set(initial)
            if len(re) == 1:
                re.add(deal.armut_by)
        deal.re_party = frozenset(re)
    elif deal.hochzeit_by is not None:
        deal.game_type = "hochzeit"
    elif len(set(holders)) == 1:
        deal.game_type = alone_type(deal)
        deal.solo = True
        deal.silent = True
        deal.soloist = holders[0]
        deal.re_party = frozenset(holders)
    else:
        deal.game_type = "normal"
        deal.re_party = frozenset(holders)
    deal.pigs = deal_pigs(deal)
    deal.reorder()
    deal.phase = "play"
    deal.trick_play = TrickPlay(deal.order, deal.hands, deal.playing, leader)
    scharfe_live = is_normal_order(deal.game_type, deal.options.solo_style)
    public_type = "normal" if deal.silent else deal.game_type
    open_hand = sort_hand(deal.hands[solo.seat], deal.order) if solo and solo.ouvert else ()
    shown: list[Event] = []
    if deal.pigs and deal.options.schweinchen == "announced":
        deal.pigs_shown = frozenset(kind for _, kind in deal.pigs)
        shown = [PigsShown(seat, kind) for seat, kind in deal.pigs]
    return [
        PlayStarted(
            public_type,
            None if deal.silent else deal.soloist,
            deal.ouvert,
            leader,
            scharfe_live and deal.scharfe_aces_by is not None,
            scharfe_live and deal.scharfe_kings_by is not None,
            open_hand,
        ),
        *shown,
    ]


def deal_pigs(deal: DealState) -> tuple[tuple[int, str], ...]:
    """The pigs of the game about to be played (option ``schweinchen``), highest first.

    In every game with the normal trump order (a silent solo looks like one), in
    a Trumpfsolo only with ``schweinchen_solo``; the hands as play begins count.
    """
    options = deal.options
    if options.schweinchen == "off":
        return ()
    if deal.solo and not deal.silent and not options.schweinchen_solo:
        return ()
    if not (deal.silent or is_normal_order(deal.game_type, options.solo_style)):
        return ()
    return find_pigs(
        deal.hands,
        superschweinchen=options.superschweinchen,
        hyperschweinchen=options.hyperschweinchen,
        nines=options.nines,
    )


def alone_type(deal: DealState) -> str:
    """A silent or partnerless Hochzeit: the Trumpfsolo (DDV: the ♦ solo)."""
    return "diamonds" if deal.options.scoring == "ddv" else "trump"


# -- the cards -------------------------------------------------------------------


def play_card(deal: DealState, card: Card, mover: int) -> list[Event]:
    """Play ``card`` (already checked) for the seat to move; the events it caused."""
    play = deal.trick_play
    assert play is not None
    trick_no = len(play.tricks) + 1
    new: list[Event] = [_card_played(mover, card, trick_no)]
    if deal.pigs and deal.options.schweinchen == "first_played":
        new.extend(_show_pig(deal, card, mover))
    if deal.table_mode and play.is_revoke(mover, card):
        deal.offences.append(Offence(mover, "revoke", deal.cards_played + 1))
    done = play.play(mover, card)
    deal.cards_played += 1
    if done is not None:
        winner = done.winner
        assert winner is not None
        new.append(_trick_won(trick_no, winner, tuple(done.cards), augen_of(done.cards)))
        if deal.game_type == "hochzeit" and deal.hochzeit_trick is None:
            new.extend(clarify_hochzeit(deal))
        if play.to_move is None and not deal.is_over:
            new.append(finish(deal))
    return new


def _trick_won(trick: int, seat: int, cards: tuple[Card, ...], augen: int) -> TrickWon:
    """``TrickWon(trick, seat, cards, augen)``, its fields set as its generated
    ``__init__`` sets them (a frozen dataclass's): compiled, this runs natively, where
    that ``__init__`` would run as Python, once a trick."""
    event: TrickWon = object.__new__(TrickWon)
    object.__setattr__(event, "trick", trick)
    object.__setattr__(event, "seat", seat)
    object.__setattr__(event, "cards", cards)
    object.__setattr__(event, "augen", augen)
    return event


def _show_pig(deal: DealState, card: Card, mover: int) -> list[Event]:
    """``first_played``: the first card of a pig played tells the table of it."""
    nines = deal.options.nines
    for seat, kind in deal.pigs:
        if seat == mover and kind not in deal.pigs_shown and card == pig_card(kind, nines=nines):
            deal.pigs_shown = deal.pigs_shown | {kind}
            return [PigsShown(seat, kind)]
    return []


def clarify_hochzeit(deal: DealState) -> list[Event]:
    """Look for the Hochzeit partner in the tricks so far (seed 003, TSR 4.4)."""
    play = deal.trick_play
    holder = deal.hochzeit_by
    assert play is not None and holder is not None
    suit_of = deal.order.suit_of
    limit = deal.options.hochzeit_tricks
    for number, trick in enumerate(play.tricks[:limit], start=1):
        winner = trick.winner
        if winner is None or winner == holder:
            continue
        led_trump = suit_of[trick.cards[0]] == 4
        rule = deal.hochzeit_rule
        if rule == "first_trick" or (rule == "first_trump") == led_trump:
            deal.hochzeit_partner = winner
            deal.hochzeit_trick = number
            deal.re_party = frozenset({holder, winner})
            return [HochzeitPartnerFound(holder, winner, number)]
    if len(play.tricks) >= limit:
        deal.hochzeit_trick = limit
        deal.re_party = frozenset({holder})
        if deal.options.hochzeit_alone == "redeal":
            deal.redeal_reason = "hochzeit_alone"
            deal.redeal_by = holder
            deal.end("redeal")
            return [Redeal("hochzeit_alone", holder)]
        return [HochzeitAlone(holder, limit)]
    return []


def _undo_hochzeit(deal: DealState) -> None:
    deal.hochzeit_partner = None
    deal.hochzeit_trick = None
    deal.re_party = None
    clarify_hochzeit(deal)


# -- Kulanz (table mode) ----------------------------------------------------------


def offenders(deal: DealState) -> frozenset[int]:
    """Seats of the party that offended first (table mode), offences not taken back.

    Seed 003 § Falsch bedient: the offending party is scored schwarz; a
    later offence by the other party changes nothing.
    """
    if not deal.offences:
        return frozenset()
    first = _party_at_end(deal, deal.offences[0].seat)
    return frozenset(o.seat for o in deal.offences if _party_at_end(deal, o.seat) == first)


def _party_at_end(deal: DealState, seat: int) -> str:
    re = deal.re_party
    if re is None and deal.hochzeit_by is not None:
        re = frozenset({deal.hochzeit_by})
    return "re" if re is not None and seat in re else "kontra"


def take_back_offence(deal: DealState, seat: int) -> Offence | None:
    """Kulanzregel: the seat's own latest offence, if no card has been played since."""
    if deal.trick_play is None or deal.outcome is not None:
        return None
    for offence in reversed(deal.offences):
        if offence.cards_played != deal.cards_played:
            return None
        if offence.seat == seat:
            return offence
    return None


def take_back(deal: DealState, seat: int) -> list[Event]:
    offence = take_back_offence(deal, seat)
    assert offence is not None and deal.trick_play is not None
    deal.offences.remove(offence)
    if offence.kind == "announcement":
        for i in range(len(deal.announcements) - 1, -1, -1):
            a = deal.announcements[i]
            if a.seat == seat and a.word == offence.word:
                del deal.announcements[i]
                deal.announce_epoch += 1
                break
        return [AnnouncementTakenBack(seat, offence.word)]
    completed = not deal.trick_play.trick.cards
    card = deal.trick_play.unplay()
    deal.cards_played -= 1
    if completed and deal.game_type == "hochzeit":
        _undo_hochzeit(deal)
    return [CardTakenBack(seat, card, len(deal.trick_play.tricks) + 1)]


# -- the end ---------------------------------------------------------------------


def party_augen(deal: DealState) -> dict[str, int]:
    """Augen taken so far by each party (by seat before the parties are known)."""
    play = deal.trick_play
    if play is None:
        return {"re": 0, "kontra": 0}
    re = deal.re_party or frozenset()
    out = {"re": 0, "kontra": 0}
    for trick in play.tricks:
        assert trick.winner is not None
        out["re" if trick.winner in re else "kontra"] += augen_of(trick.cards)
    return out


def game_facts(deal: DealState) -> GameFacts:
    """The facts of the finished game, as :func:`score_game` reads them."""
    play = deal.trick_play
    assert play is not None and deal.re_party is not None
    solo = deal.solo
    game_type = deal.game_type
    if game_type == "hochzeit" and deal.hochzeit_partner is None:
        game_type = alone_type(deal)
        solo = True
    offending = offenders(deal)
    offences = {(o.seat, o.word) for o in deal.offences if o.kind == "announcement"}
    kept: list[Announcement] = []
    for a in deal.announcements:
        if (a.seat, a.word) in offences:
            # A wrong announcement counts as made (seed 003); later offences change nothing.
            if a.seat in offending:
                kept.append(a)
        elif counted_announcement(a, solo, deal.options):
            kept.append(a)
    return facts_of(
        deal.options,
        seats=deal.playing,
        re_party=deal.re_party,
        game_type=game_type,
        solo=solo,
        ouvert=deal.ouvert,
        announcements=tuple(kept),
        tricks=tuple(
            [
                ScoringTrick(tuple(t.seats), tuple(t.cards), t.winner)  # type: ignore[arg-type]
                for t in play.tricks
            ]
        ),
        trumps=deal.order.suit_cards[TRUMP],
        scharfe_aces=_scharfe_live(deal, "aces"),
        offenders=offending,
        bock_multiplier=deal.bock_multiplier,
        schweinchen=any(kind == "schweinchen" for _, kind in deal.pigs),
        hochzeit_trick=deal.hochzeit_trick if deal.hochzeit_partner is not None else None,
    )


def counted_announcement(a: Announcement, solo: bool, options: DoppelkopfOptions) -> bool:
    """Whether an announcement made in time counts for the score: a house solo has no
    stages and an implicit Re (seed 003 § Solo), so only the opponents' Kontra counts
    there, also in a silent solo no one knew of."""
    return not (solo and options.scoring == "house") or a.word == "kontra"


def facts_of(
    options: DoppelkopfOptions,
    *,
    seats: tuple[int, ...],
    re_party: frozenset[int],
    game_type: str,
    solo: bool,
    ouvert: bool,
    announcements: tuple[Announcement, ...],
    tricks: tuple[ScoringTrick, ...],
    trumps: frozenset[Card],
    scharfe_aces: bool,
    offenders: frozenset[int],
    bock_multiplier: int,
    schweinchen: bool,
    hochzeit_trick: int | None,
) -> GameFacts:
    """The facts of a game: what the deal was, and the table's options as the scorer
    reads them (the one place that maps the options onto :class:`GameFacts`; the
    strong bot's search builds the facts of its imagined endings here too)."""
    return GameFacts(
        rules=options.scoring,
        seats=seats,
        table_size=options.players,
        re_party=re_party,
        game_type=game_type,
        solo=solo,
        ouvert=ouvert,
        announcements=announcements,
        tricks=tricks,
        trumps=options.deck_cards() & trumps,
        scharfe_aces=scharfe_aces,
        offenders=offenders,
        bock_multiplier=bock_multiplier,
        rot_geht_rum=options.rot_geht_rum,
        sonderpunkte=frozenset(options.sonderpunkte),
        announcement_value=options.announcement_value,
        bock_triggers=frozenset(options.bock_triggers if options.bock else ()),
        against_points=options.against_points,
        schweinchen=schweinchen,
        counting=options.counting,
        solo_factor=options.solo_factor,
        solo_extras=options.solo_sonderpunkte,
        hochzeit_trick=hochzeit_trick,
        hochzeit_extras=options.hochzeit_sonderpunkte,
    )


def _scharfe_live(deal: DealState, part: str) -> bool:
    if not is_normal_order(deal.game_type, deal.options.solo_style):
        return False
    return (deal.scharfe_aces_by if part == "aces" else deal.scharfe_kings_by) is not None


def finish(deal: DealState) -> DealEnded:
    if deal.game_type == "hochzeit" and deal.hochzeit_partner is None and deal.re_party is None:
        assert deal.hochzeit_by is not None
        deal.re_party = frozenset({deal.hochzeit_by})
    facts = game_facts(deal)
    # The engine's facts hold by construction: only whether every card was played
    # (a game with offenders may end early in table mode) is passed on.
    play = deal.trick_play
    assert play is not None
    score = score_game(facts, complete=not any(play.hands))
    deal.score = score
    deal.end("played")
    assert deal.re_party is not None
    return DealEnded(
        facts.game_type,
        facts.solo,
        tuple(sorted(deal.re_party)),
        {str(p): n for p, n in score.augen.items()},
        score.winner,
        tuple(score.points),
        tuple(sorted(facts.offenders)),
        score,
    )
