"""The DDV tournament rules preset: 48 cards, reservations, deadlines, plus/minus scoring.

TSR 4 (Vorbehalte: Pflichtsolo before Lustsolo before Hochzeit; the soloist
of a Pflichtsolo leads), TSR 6 (Re/Kontra while holding 11 cards, keine 90
with 10, keine 60 with 9 …; a reply one card later; with a Hochzeit the
deadlines move by the deciding trick), TSR 7 (game points).
"""

from __future__ import annotations

import pytest

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions

from .helpers import greedy, hands_with
from .scripted import act, pass_all, play_cards, script

DDV = DoppelkopfOptions.preset_named("ddv")

#: Re = seats 1 and 2, 139 : 101, no extra points (found by a seeded search).
RE_WINS = [
    "9S KS 9H AS",
    "AS KS 10S KH",
    "9C KC KD 10C",
    "10H AD JH QS",
    "JC QC 9D 10D",
    "9C 10C KC JS",
    "QC JC QH QD",
    "AD JD KD 9D",
    "AH KH 9H QH",
    "QD JD AH JH",
    "QS AC 10S 10H",
    "JS 10D AC 9S",
]
#: Re = seats 1 and 3 with 64; Re caught a Fuchs in trick 4.
KONTRA_WINS = [
    "KS 10S AS AS",
    "AC JS 9C 9C",
    "JH JS QH 9D",
    "QC AD 10D JD",
    "10D JC QC QH",
    "9S KS 10S 10H",
    "10H JD JH QD",
    "QS KD 9D JC",
    "QD KD KC 9S",
    "QS AH 10C AH",
    "10C 9H AC KH",
    "KC 9H AD KH",
]


def test_preset() -> None:
    assert DDV.deck_size == 48 and DDV.hand_size == 12 and DDV.packets == (3, 3, 3, 3)
    assert not DDV.armut and not DDV.bock and not DDV.ouvert and DDV.scoring == "ddv"
    deal = DoppelkopfDeal.from_seed(1, dealer=0, options=DDV)
    assert all(len(h) == 12 for h in deal.initial_hands)
    assert [str(a) for a in deal.legal_actions()] == ["pass", "vorbehalt"]


def test_plain_win_is_one_point_each_and_zero_sum() -> None:
    sc = script(RE_WINS, options=DDV)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays)
    assert deal.points() == (-1, 1, 1, -1)


def test_kontra_wins_with_no90_gegen_die_alten_and_a_fuchs() -> None:
    sc = script(KONTRA_WINS, options=DDV)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays)
    # won 1 + unter 90 1 + gegen die Alten 1 − Re's Fuchs 1 = 2.
    assert deal.points() == (2, -2, 2, -2)


def test_re_with_eleven_cards_and_a_reply_one_card_later() -> None:
    sc = script(RE_WINS, options=DDV)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays, until=4)  # trick 1: everyone holds 11
    act(deal, "1:re")
    play_cards(deal, sc.plays[4:], until=4)  # seat 3 has played trick 2's card: 10 left
    assert len(deal.hand(3)) == 10
    act(deal, "3:kontra")  # a reply: one card later than Re needed
    play_cards(deal, sc.plays[8:])
    # Re wins: 1 + Re 2 + Kontra 2 = 5.
    assert deal.points() == (-5, 5, 5, -5)


def test_deadlines_by_cards_in_hand() -> None:
    sc = script(RE_WINS, options=DDV)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays, until=8)  # after trick 2: 10 cards each
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("re"), 1)
    assert err.value.rule == "announcement_deadline"
    with pytest.raises(IllegalActionError):
        deal.apply(Call("no90"), 1)  # keine 90 would include the missed Re
    with pytest.raises(IllegalActionError):
        deal.apply(Call("kontra"), 0)  # no Re to reply to


def test_absage_includes_re_while_in_time() -> None:
    sc = script(RE_WINS, options=DDV)
    deal = sc.deal()
    pass_all(deal)
    act(deal, "2:no90")
    assert [a.word for a in deal.announcements] == ["re", "no90"]
    play_cards(deal, sc.plays)
    # Kontra has 101 ≥ 90: Re missed keine 90 and loses; Kontra needs 90 (TSR 7.1.3).
    assert deal.score is not None and deal.score.winner == "kontra"
    assert sum(deal.points()) == 0


def test_reservations_pflicht_before_hochzeit_and_soloist_leads() -> None:
    hands = hands_with({0: "QC QC QS QS QH QH JC JC AD AD 10D 10D"}, options=DDV, seed=2)
    deal = DoppelkopfDeal(hands, dealer=3, options=DDV)
    act(deal, "vorbehalt", "pass", "vorbehalt", "pass")
    assert deal.to_move == 0
    with pytest.raises(IllegalActionError) as err:
        act(deal, "pass")
    assert err.value.rule == "name_reservation"
    act(deal, "hochzeit")
    assert deal.to_move == 2
    assert Call("hochzeit") not in deal.legal_actions()
    act(deal, "solo queens")
    assert deal.game_type == "queens" and deal.soloist == 2 and deal.pflicht
    assert deal.to_move == 2  # a Pflichtsolo: the soloist leads
    # A Lustsolo (Pflichtsolo already played) is led by the dealer's left.
    lust = DoppelkopfDeal(hands, dealer=3, options=DDV, pflicht_due=[0, 1, 3])
    act(lust, "pass", "pass", "vorbehalt", "pass", "solo jacks")
    assert not lust.pflicht and lust.to_move == 0


def test_pflichtsolo_outranks_a_lustsolo() -> None:
    hands = hands_with({}, options=DDV, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3, options=DDV, pflicht_due=[2])
    act(deal, "vorbehalt", "pass", "vorbehalt", "vorbehalt", "solo jacks")
    assert deal.to_move == 2  # seat 2 owes a Pflichtsolo and may outrank; seat 3 may not
    act(deal, "solo clubs")
    assert deal.phase == "play" and deal.soloist == 2 and deal.pflicht


def test_ddv_solo_kinds() -> None:
    deal = DoppelkopfDeal(hands_with({}, options=DDV, seed=3), dealer=3, options=DDV)
    act(deal, "vorbehalt", "pass", "pass", "pass")
    words = {str(a) for a in deal.legal_actions()}
    assert words == {
        "solo queens",
        "solo jacks",
        "solo clubs",
        "solo spades",
        "solo hearts",
        "solo diamonds",
        "solo fleischlos",
    }
    with pytest.raises(IllegalActionError):
        act(deal, "solo trump")
    with pytest.raises(IllegalActionError):
        act(deal, "solo queens ouvert")


def test_solo_scores_three_times() -> None:
    hand = "10H 10H QC QC QS QS QH QH QD QD JC JC"
    deal = DoppelkopfDeal(hands_with({0: hand}, options=DDV, seed=2), dealer=3, options=DDV)
    act(deal, "vorbehalt", "pass", "pass", "pass", "solo diamonds")
    greedy(deal)
    assert deal.score is not None and deal.score.winner == "re"
    points = deal.points()
    assert points[0] == -3 * points[1] and points[1] == points[2] == points[3] < 0
    assert sum(points) == 0


#: Seat 0 announces a Hochzeit; seat 3 takes trick 2: the deciding trick.
HOCHZEIT = [
    "JC 9D KD JD",
    "KD JD JS QD",
    "10C KC 9C 9C",
    "KH 9S 9H AH",
    "KS AS AC 10S",
    "AH 9D 10D 10D",
    "QH QD JC 10H",
    "AC KC 10C 10S",
    "QC JH JS 10H",
    "9H QC KS QH",
    "AD JH QS QS",
    "9S KH AD AS",
]


def test_hochzeit_deadlines_move_with_the_deciding_trick() -> None:
    sc = script(HOCHZEIT, game="hochzeit", options=DDV)
    deal = sc.deal()
    act(deal, "vorbehalt", "pass", "pass", "pass", "hochzeit")
    assert deal.game_type == "hochzeit" and deal.to_move == 0
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("re"), 0)  # announcements begin after the deciding trick
    assert err.value.rule == "hochzeit_unclarified"
    play_cards(deal, sc.plays, until=8)
    assert (deal.hochzeit_partner, deal.hochzeit_trick) == (3, 2)
    assert len(deal.hand(0)) == 10
    # Trick 2 decided: every count is one lower, so Re with 10 cards is in time.
    act(deal, "0:re")
    play_cards(deal, sc.plays[8:], until=4)
    assert len(deal.hand(1)) == 9
    assert Call("kontra") in deal.legal_actions(1)  # an answer to Re, one card later
    assert Call("no90") in deal.legal_actions(3)  # keine 90: 10 − 1 cards, in time
    act(deal, "1:kontra")
    play_cards(deal, sc.plays[12:], until=4)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("no90"), 3)  # now 8 cards: too late
    assert err.value.rule == "announcement_deadline"
    play_cards(deal, sc.plays[16:])
    # Re 175: won 1, unter 90 1, Re 2, Kontra 2, Kontra's Fuchs −1 = 5.
    assert deal.points() == (5, -5, -5, 5)


def test_unclarified_hochzeit_is_a_diamonds_solo() -> None:
    hand = "QC QC 10H 10H QS QS QH QH QD QD JC JC"
    deal = DoppelkopfDeal(hands_with({0: hand}, options=DDV, seed=2), dealer=3, options=DDV)
    act(deal, "vorbehalt", "pass", "pass", "pass", "hochzeit")
    assert deal.to_move == 0  # no Pflichtsolo: the dealer's left leads
    greedy(deal)
    assert deal.hochzeit_partner is None
    facts = deal.facts()
    assert (facts.game_type, facts.solo) == ("diamonds", True)
    assert deal.points()[0] > 0 and sum(deal.points()) == 0


def test_nines_in_play() -> None:
    deal = DoppelkopfDeal.from_seed(8, dealer=1, options=DDV)
    pass_all(deal)
    greedy(deal)
    assert len(deal.tricks) == 12
    assert sum(deal.score.augen.values()) == 240  # type: ignore[union-attr]
    assert any(c == Card("9D") for t in deal.tricks for c in t.cards)


def test_without_replies_one_card_later() -> None:
    options = DoppelkopfOptions.preset_named("ddv", announcement_reply=False)
    sc = script(RE_WINS, options=options)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays, until=4)
    act(deal, "1:re")
    play_cards(deal, sc.plays[4:], until=4)  # seat 3 holds 10 cards
    assert Call("kontra") not in deal.legal_actions(3)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("kontra"), 3)
    assert err.value.rule == "announcement_deadline"


def test_hochzeit_deadlines_without_the_shift() -> None:
    options = DoppelkopfOptions.preset_named("ddv", hochzeit_shift=False)
    sc = script(HOCHZEIT, game="hochzeit", options=options)
    deal = sc.deal()
    act(deal, "vorbehalt", "pass", "pass", "pass", "hochzeit")
    play_cards(deal, sc.plays, until=8)
    assert deal.hochzeit_trick == 2 and len(deal.hand(0)) == 10
    # Trick 2 decided, but the counts stay: Re needs 11 cards, seat 0 holds 10.
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("re"), 0)
    assert err.value.rule == "announcement_deadline"
