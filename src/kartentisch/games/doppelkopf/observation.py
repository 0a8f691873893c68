"""What one seat of a Doppelkopf deal may know (never another hand's hidden cards).

A seat sees its own hand, everything said and played in the open, the open
hand of an ouvert soloist, and — only if it took part in an Armut — the
cards passed. Until the deal ends it does not see a silent solo for what it
is, nor which seat revoked in table mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kartentisch.cards import Card
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.state import DealState
from kartentisch.games.doppelkopf.trumps import sort_hand
from kartentisch.tricks import PlayedTrick

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.scoring import Announcement, GameScore

__all__ = ["DoppelkopfObservation", "observe", "revealed_parties"]


@dataclass(frozen=True, slots=True)
class DoppelkopfObservation:
    """One seat's view of the deal.

    ``game_type`` is the game as the table knows it (a silent solo shows as
    ``normal`` to everyone but the soloist); ``party`` is the seat's own party
    as it knows it (None while an open Hochzeit leaves it undecided);
    ``revealed`` maps seats to the party they have shown (by a declaration, an
    announcement, a Kreuz-Dame played, or the end of the deal). ``pigs`` are the
    pigs (option ``schweinchen``) the seat knows of, highest first, as
    ``(seat, kind)``: its own and those the table was told of; the hands and the
    trumps are ordered as the seat knows the trumps.
    """

    seat: int
    players: int
    dealer: int
    playing: tuple[int, ...]
    phase: str
    declaration_round: str | None
    hand: tuple[Card, ...]
    to_move: int | None
    legal_actions: tuple[Action, ...]
    declarations: tuple[tuple[int, str], ...]
    game_type: str
    soloist: int | None
    ouvert: bool
    open_hand: tuple[Card, ...]
    hochzeit: int | None
    hochzeit_rule: str
    hochzeit_partner: int | None
    armut: int | None
    armut_partner: int | None
    armut_direction: str
    armut_trumps: int
    armut_returned_trumps: int
    armut_cards: tuple[Card, ...]
    armut_returned: tuple[Card, ...]
    scharfe_aces: int | None
    scharfe_kings: int | None
    #: The seat vorgeführt in this deal (option ``vorfuehrung``), public; None: nobody.
    vorfuehrung: int | None
    trumps: tuple[Card, ...]
    pigs: tuple[tuple[int, str], ...]
    trick: PlayedTrick
    tricks: tuple[PlayedTrick, ...]
    hand_sizes: tuple[int, ...]
    announcements: tuple[Announcement, ...]
    party: str | None
    revealed: dict[int, str]
    bock_multiplier: int
    options: DoppelkopfOptions
    outcome: str | None = None
    score: GameScore | None = None
    points: tuple[int, ...] = field(default=())
    #: The trick (1-based) that found the Hochzeit's partner, public; None: not (yet).
    hochzeit_trick: int | None = None

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played."""
        return len(self.tricks) + 1

    def to_dict(self) -> dict[str, Any]:
        from kartentisch.engine import jsonable

        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if name == "legal_actions":
                out[name] = [str(a) for a in value]
            elif name == "options":
                out[name] = value.to_dict()
            elif name == "declarations":
                out[name] = [{"seat": s, "call": c} for s, c in value]
            elif name == "announcements":
                out[name] = [{"seat": a.seat, "party": a.party, "word": a.word} for a in value]
            elif name == "pigs":
                out[name] = [{"seat": s, "kind": k} for s, k in value]
            elif name == "revealed":
                out[name] = {str(k): v for k, v in value.items()}
            else:
                out[name] = jsonable(value)
        return out


def observe(deal: DealState, seat: int) -> DoppelkopfObservation:
    """The observation of ``seat`` (raises ValueError for a seat not at the table)."""
    if not 0 <= seat < deal.num_seats:
        raise ValueError(f"no seat {seat} at a {deal.num_seats}-player table")
    over = deal.outcome is not None
    play = deal.trick_play
    order = deal.order_known_to(seat)
    silent_hidden = deal.silent and not over and seat != deal.soloist
    game_type = "normal" if silent_hidden else deal.game_type
    started = deal.phase in ("play", "done")
    if deal.phase == "declare" or deal.phase.startswith("armut"):
        game_type = "undecided"
    soloist = deal.soloist if (deal.solo and not silent_hidden and started) else None
    open_hand: tuple[Card, ...] = ()
    if deal.ouvert and started and deal.soloist is not None:
        open_hand = deal.hand(deal.soloist, seat)
    in_armut = seat in (deal.armut_by, deal.armut_partner)
    party = deal.party_of(seat) if started else None
    if silent_hidden and party is None:
        party = "kontra"
    revealed = revealed_parties(deal)
    trumps = tuple(c for c in dict.fromkeys(deal.options.deck()) if order.suit_of[c] == 4)
    held = play.hands if play is not None else deal.hands  # (counted, not sorted)
    return DoppelkopfObservation(
        seat=seat,
        players=deal.num_seats,
        dealer=deal.dealer,
        playing=deal.playing,
        phase=deal.phase,
        declaration_round=deal.declaration_round,
        hand=deal.hand(seat, seat),
        to_move=deal.to_move,
        legal_actions=tuple(deal.legal_actions(seat)),
        declarations=tuple((s, str(c)) for s, c in deal.declarations),
        game_type=game_type,
        soloist=soloist,
        ouvert=deal.ouvert and started,
        open_hand=open_hand,
        hochzeit=deal.hochzeit_by,
        hochzeit_rule=deal.hochzeit_rule if deal.hochzeit_by is not None else "",
        hochzeit_partner=deal.hochzeit_partner,
        armut=deal.armut_by,
        armut_partner=deal.armut_partner,
        armut_direction=deal.armut_direction,
        armut_trumps=deal.armut_trumps,
        armut_returned_trumps=deal.armut_returned_trumps,
        armut_cards=sort_hand(deal.armut_given, order) if in_armut else (),
        armut_returned=sort_hand(deal.armut_returned, order) if in_armut else (),
        scharfe_aces=deal.scharfe_aces_by,
        scharfe_kings=deal.scharfe_kings_by,
        vorfuehrung=deal.vorfuehrung,
        trumps=trumps,
        pigs=deal.pigs_known_to(seat),
        trick=play.trick.freeze() if play is not None else PlayedTrick(deal.leader, (), (), None),
        tricks=deal.tricks,
        hand_sizes=tuple(len(held[s]) for s in range(deal.num_seats)),
        announcements=tuple(deal.announcements),
        party=party,
        revealed=revealed,
        bock_multiplier=deal.bock_multiplier,
        options=deal.options,
        outcome=deal.outcome,
        score=deal.score,
        points=deal.points(),
        hochzeit_trick=deal.hochzeit_trick if deal.hochzeit_partner is not None else None,
    )


def revealed_parties(deal: DealState) -> dict[int, str]:
    """The parties the table has seen (claimed ones: a wrong announcement misleads)."""
    out: dict[int, str] = {}
    if deal.outcome == "played":
        return {s: deal.party_of(s) or "kontra" for s in deal.playing}
    if deal.phase not in ("play", "done"):
        return out
    known_all = (
        (deal.solo and not deal.silent)
        or deal.game_type == "armut"
        or (deal.game_type == "hochzeit" and deal.re_party is not None)
    )
    if known_all:
        return {s: deal.party_of(s) or "kontra" for s in deal.playing}
    if deal.game_type == "hochzeit" and deal.hochzeit_by is not None:
        out[deal.hochzeit_by] = "re"
    for a in deal.announcements:
        if a.word in ("re", "kontra"):
            out[a.seat] = a.word
        else:
            out.setdefault(a.seat, a.party)
    play = deal.trick_play
    if play is not None:
        for trick in (*play.tricks, play.trick):
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if c == Card("QC"):
                    out[s] = "re"
    return out
