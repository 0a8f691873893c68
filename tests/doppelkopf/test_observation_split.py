"""The observation in two parts: the public one made once, a seat's own one beside it.

:func:`observe` is composed of :func:`public_part` and :func:`seat_part`; here it is
held, at every state of many random deals, to the observation as it was made whole
before the split (:func:`whole_observation`, kept here as the reference), and the
public part to what every seat sees alike.
"""

from __future__ import annotations

import random
from dataclasses import fields

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cards import Card
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.observation import (
    DoppelkopfObservation,
    PublicObservation,
    observe,
    public_part,
    revealed_parties,
    seat_part,
)
from kartentisch.games.doppelkopf.state import DealState
from kartentisch.games.doppelkopf.trumps import sort_hand
from kartentisch.tricks import PlayedTrick

PRESETS = [
    DoppelkopfOptions(),
    DoppelkopfOptions(players=5),
    DoppelkopfOptions(table_mode=True),
    DoppelkopfOptions(schweinchen="first_played", superschweinchen=True),
    DoppelkopfOptions(schweinchen="announced", ouvert=True),
    DoppelkopfOptions(schweinchen="silent", schweinchen_solo=True),
    DoppelkopfOptions.preset_named("ddv", schweinchen="first_played"),
    DoppelkopfOptions.preset_named("ddv", players=5),
    DoppelkopfOptions.preset_named("freedoko"),
]

#: The fields of a seat's observation that are the same for every seat.
PUBLIC_FIELDS = {f.name for f in fields(PublicObservation)} - {
    "order",
    "game_type",
    "soloist",
    "open_hand",
    "trumps",
    "pigs",
}


def whole_observation(deal: DealState, seat: int) -> DoppelkopfObservation:
    """The observation of ``seat`` as :func:`observe` made it before the split (reference)."""
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
    trumps = tuple(c for c in dict.fromkeys(deal.options.deck()) if order.suit_of[c] == 4)
    held = play.hands if play is not None else deal.hands
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
        revealed=revealed_parties(deal),
        bock_multiplier=deal.bock_multiplier,
        options=deal.options,
        outcome=deal.outcome,
        score=deal.score,
        points=deal.points(),
        hochzeit_trick=deal.hochzeit_trick if deal.hochzeit_partner is not None else None,
    )


def check_state(deal: DoppelkopfDeal, counts: dict[str, int]) -> None:
    public = public_part(deal)
    told = set(public.pigs)
    for seat in range(deal.num_seats):
        whole = whole_observation(deal, seat)
        assert observe(deal, seat) == whole
        assert observe(deal, seat, public) == whole
        assert deal.observation(seat) == whole
        for name in PUBLIC_FIELDS:
            assert getattr(public, name) == getattr(whole, name), name
        own = seat_part(deal, seat, public)
        assert own == seat_part(deal, seat)
        # The table's pigs are known to every seat; a seat that knows no more, holds
        # no silent solo and took no part in the Armut knows the game as the table does.
        assert told <= set(whole.pigs)
        plain = set(whole.pigs) == told and seat not in (deal.armut_by, deal.armut_partner)
        if plain and not (deal.silent and seat == deal.soloist and deal.outcome is None):
            assert own.trumps is public.trumps and own.open_hand is public.open_hand
            assert (own.game_type, own.soloist) == (public.game_type, public.soloist)
            assert own.armut_cards == () and own.armut_returned == ()
        if set(whole.pigs) != told:
            counts["pigs_unknown_to_the_table"] += 1
        if deal.silent and deal.outcome is None and deal.phase == "play":
            counts["silent"] += 1
            if seat != deal.soloist:
                assert own.game_type == public.game_type == "normal"
                assert public.soloist is None
        if whole.armut_cards:
            counts["armut_cards"] += 1


def random_deal(options: DoppelkopfOptions, seed: int, counts: dict[str, int]) -> None:
    """A deal by random players (mostly passing the declarations, so that every game
    type comes up; announcements out of turn), checked at every state."""
    rng = random.Random(seed)
    deal = DoppelkopfDeal.from_seed(rng, dealer=rng.randrange(options.players), options=options)
    check_state(deal, counts)
    while not deal.is_over:
        if rng.random() < 0.08 and deal.phase == "play":
            other = rng.choice(deal.playing)
            words = [a for a in deal.legal_actions(other) if isinstance(a, Call)]
            if words:
                deal.apply(rng.choice(words), other)
                check_state(deal, counts)
        seat = deal.to_move
        assert seat is not None
        legal = deal.legal_actions()
        action: Card | Call
        if Call("armut") in legal and rng.random() < 0.8:
            action = Call("armut")
        elif Call("vorbehalt") in legal and deal.trumps_in(deal.hand(seat)) <= 3:
            action = Call("vorbehalt")  # (perhaps an Armut)
        elif deal.phase == "declare" and Call("pass") in legal and rng.random() < 0.8:
            action = Call("pass")
        elif deal.phase == "armut_answer":
            action = Call("accept") if rng.random() < 0.7 else Call("refuse")
        else:
            action = rng.choice(legal)
        deal.apply(action)
        check_state(deal, counts)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(range(len(PRESETS))))
def test_observe_is_the_public_part_and_the_seats(seed: int, which: int) -> None:
    counts = {"pigs_unknown_to_the_table": 0, "silent": 0, "armut_cards": 0}
    random_deal(PRESETS[which], seed, counts)


def test_the_seeded_deals_reach_the_hidden_cases() -> None:
    """The cases the split must keep apart occur (not only in lucky examples)."""
    counts = {"pigs_unknown_to_the_table": 0, "silent": 0, "armut_cards": 0}
    for seed in range(120):
        random_deal(PRESETS[seed % len(PRESETS)], seed, counts)
    assert all(n > 0 for n in counts.values()), counts


def test_a_seat_not_at_the_table() -> None:
    deal = DoppelkopfDeal.from_seed(random.Random(1), dealer=0)
    for seat in (-1, 4):
        try:
            seat_part(deal, seat)
        except ValueError:
            continue
        raise AssertionError(f"seat {seat} was accepted")
