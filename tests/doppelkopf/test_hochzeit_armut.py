"""Hochzeit (each way of finding the partner, alone, silent) and Armut (accepted, refused).

The deals were found by a seeded search and are written out trick by trick;
seat 0 (dealer 3, so seat 0 leads) holds both Alten in the Hochzeit deals.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.events import HochzeitAlone, Redeal
from kartentisch.games.doppelkopf.explain import explain_deal
from kartentisch.games.doppelkopf.record import replay

from .scripted import act, play_cards, script

#: Seat 0 wins trick 1 itself; seat 1 takes trick 2 with the Dulle: partner.
FIRST_TRICK = [
    "10H QH JH QD",
    "AD 10H QS QH",
    "JD JC JD JS",
    "KC AC AC 10C",
    "AH 10D JC KH",
    "AD QD QS QC",
    "10D JH 10S AS",
    "KD AH KC JS",
    "QC KS 10S KH",
    "KD KS AS 10C",
]
#: Tricks 1 and 2 are led with plain cards and won by others; trick 3 (trump) by seat 3.
FIRST_TRUMP = [
    "KS AS AH 10S",
    "KH QD QD KH",
    "JS 10H QC JS",
    "AS 10D KS JH",
    "10H JC 10D AD",
    "KD KD QC JH",
    "QH JD QH QS",
    "QS AD KC JC",
    "10C AC KC 10C",
    "AC AH JD 10S",
]
#: Trick 1 is a trump trick won by seat 1; trick 2 (clubs) by seat 3: partner.
FIRST_NONTRUMP = [
    "JH JC JS JD",
    "KC 10C AC AC",
    "QH QS QS QH",
    "10H JS JD QD",
    "QC KD QD 10H",
    "10D QC JC KD",
    "AH 10S KH KH",
    "10C KS KC AD",
    "JH AD 10D AS",
    "AS AH KS 10S",
]
#: Seat 0 takes the first three tricks: no partner, a Trumpfsolo.
ALONE = [
    "QC QS AD JS",
    "AS 10S KS 10S",
    "QD QD JD JS",
    "QC JC KD AD",
    "JC KD 10D JH",
    "QH QH AC 10D",
    "AH AS KH KH",
    "AH 10C KC KC",
    "10H JH 10C QS",
    "10H JD AC KS",
]
#: Seat 0 holds both Alten and says nothing: a silent Trumpfsolo, lost with 117.
SILENT = [
    "10S KS QS AS",
    "JS JC QD JS",
    "JH JC KD QD",
    "KH QC KH AH",
    "10H QS KD QH",
    "JD JH 10D QH",
    "AD QC 10H JD",
    "10S 10D AH 10C",
    "KC KC AC KS",
    "AD AS AC 10C",
]


def hochzeit(tricks: list[str], rule: str, *before: str):  # type: ignore[no-untyped-def]
    sc = script(tricks, game="hochzeit")
    deal = sc.deal()
    for _ in range(8):
        act(deal, "pass")  # Scharfe and soli
    act(deal, f"hochzeit {rule}", "pass", "pass", "pass")
    assert deal.phase == "play" and deal.game_type == "hochzeit"
    act(deal, *before)
    play_cards(deal, sc.plays)
    return deal


def test_hochzeit_first_trick() -> None:
    deal = hochzeit(FIRST_TRICK, "first_trick")
    assert (deal.hochzeit_partner, deal.hochzeit_trick) == (1, 2)
    assert deal.re_party == {0, 1}
    # Re 196: 10 + 2 stages = 30.
    assert deal.points() == (30, 30, 0, 0)


def test_hochzeit_holder_may_say_re_before_the_first_card() -> None:
    deal = hochzeit(FIRST_TRICK, "first_trick", "0:re")
    assert deal.points() == (60, 60, 0, 0)


def test_others_cannot_announce_before_the_partner_is_found() -> None:
    sc = script(FIRST_TRICK, game="hochzeit")
    deal = sc.deal()
    for _ in range(8):
        act(deal, "pass")
    act(deal, "hochzeit", "pass", "pass", "pass")
    assert deal.hochzeit_rule == "first_trick"
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("kontra"), 2)
    assert err.value.rule == "hochzeit_unclarified"
    assert deal.observation(2).party is None


def test_hochzeit_first_trump_trick() -> None:
    deal = hochzeit(FIRST_TRUMP, "first_trump")
    # Tricks 1 and 2 went to others but were not trump tricks.
    assert (deal.hochzeit_partner, deal.hochzeit_trick) == (3, 3)
    assert deal.points() == (0, 20, 20, 0)  # Kontra wins with 144: 20


def test_hochzeit_first_nontrump_trick() -> None:
    deal = hochzeit(FIRST_NONTRUMP, "first_nontrump")
    assert (deal.hochzeit_partner, deal.hochzeit_trick) == (3, 2)
    assert deal.points() == (40, 0, 0, 40)  # Re 232: 10 + 3 stages


def test_hochzeit_without_partner_is_a_trumpfsolo() -> None:
    deal = hochzeit(ALONE, "first_trick", "0:re")
    assert deal.hochzeit_partner is None and deal.hochzeit_trick == 3
    assert deal.re_party == {0}
    facts = deal.facts()
    assert (facts.game_type, facts.solo) == ("trump", True)
    # The holder's Re is the solo's implicit Re: not doubled again.
    assert deal.points() == (500, 0, 0, 0)


def test_hochzeit_without_partner_may_be_dealt_again() -> None:
    """``hochzeit_alone = "redeal"``: the third trick taken by the holder voids the deal."""
    sc = script(ALONE, game="hochzeit")
    options = DoppelkopfOptions(hochzeit_alone="redeal")
    deal = dataclasses.replace(sc, options=options).deal()
    for _ in range(8):
        act(deal, "pass")
    act(deal, "hochzeit first_trick", "pass", "pass", "pass")
    play_cards(deal, sc.plays, until=11)
    assert not deal.is_over and deal.to_move == sc.plays[11][0]
    events = deal.apply(sc.plays[11][1], sc.plays[11][0])
    assert events[-1] == Redeal("hochzeit_alone", 0)
    assert not any(isinstance(e, HochzeitAlone) for e in events)
    assert deal.is_over and deal.outcome == "redeal" and deal.redeal_reason == "hochzeit_alone"
    assert deal.redeal_by == 0 and deal.to_move is None and deal.legal_actions() == []
    assert deal.points() == (0, 0, 0, 0) and deal.score is None
    with pytest.raises(IllegalActionError):
        deal.apply(sc.plays[12][1], sc.plays[12][0])
    lines = render_lines("de", explain_deal(deal), ["Ann", "Ben", "Cy", "Dee"])
    assert lines[0] == (
        "Ann hat rechtzeitig keinen Hochzeitspartner gefunden: es wird eingeworfen und neu gegeben."
    )
    # The record replays to the same void deal; a session deals again.
    again = replay(json.loads(json.dumps(deal.to_record())))
    assert isinstance(again, DoppelkopfDeal) and again.outcome == "redeal"
    assert again.redeal_reason == "hochzeit_alone"


def test_silent_hochzeit_is_a_silent_trumpfsolo() -> None:
    sc = script(SILENT)
    deal = sc.deal()
    for _ in range(12):
        act(deal, "pass")
    assert deal.silent and deal.game_type == "trump"
    # The others believe it is a normal game.
    assert deal.observation(1).game_type == "normal"
    assert deal.observation(0).game_type == "trump"
    act(deal, "1:kontra")
    play_cards(deal, sc.plays)
    # Lost Trumpfsolo −1000, × 2 for the Kontra.
    assert deal.points() == (-2000, 0, 0, 0)
    assert deal.score is not None and deal.score.bock_trigger
    assert deal.observation(1).game_type == "trump"  # revealed at the end


def test_hochzeit_needs_both_alten() -> None:
    sc = script(FIRST_TRICK, game="hochzeit")
    deal = sc.deal()
    for _ in range(8):
        act(deal, "pass")
    act(deal, "pass")
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("hochzeit"))
    assert err.value.rule == "hochzeit_needs_both"


# -- Armut --------------------------------------------------------------------------

#: Seat 1 holds one Alte and two trumps: "2 Trumpf nach oben"; seat 2 (the other Alte) takes them.
ARMUT_UP = (
    [
        "JS AH 10H QS",
        "KD 10H AD AH",
        "QD JC AC JD",
        "KS QS KS AS",
        "QD KC JC AD",
        "AC 10C JS KH",
        "QC QH JH 10C",
        "QC JD 10D 10S",
        "JH KD 10D AS",
        "QH KH KC 10S",
    ],
    "QC KS JD",
    "10C KC KS",
)
#: Seat 1 has no Alte and three trumps: "3 Trumpf nach unten"; seat 2 (no Alte) is asked.
ARMUT_DOWN = (
    [
        "AH AH JS KH",
        "JC JH JS KH",
        "QD AD QC 10S",
        "JD KC 10D QS",
        "KS KS AS 10S",
        "AC 10D 10C JD",
        "10H 10C KD AD",
        "10H AC KD QH",
        "QH KC JH QC",
        "JC QS AS QD",
    ],
    "10D QD KD",
    "10C KC KH",
)


def armut(case, answer: str = "accept"):  # type: ignore[no-untyped-def]
    tricks, give, back = case
    sc = script(tricks, armut=(1, 2, give, back))
    deal = sc.deal()
    for _ in range(9):
        act(deal, "pass")
    act(deal, "armut", "pass", "pass")
    return deal, sc, give, back


def test_armut_up_accepted() -> None:
    deal, sc, give, back = armut(ARMUT_UP)
    assert deal.phase == "armut_answer" and deal.to_move == 2
    assert (deal.armut_direction, deal.armut_trumps) == ("up", 2)
    act(deal, "accept", f"give {give}", f"return {back}")
    assert deal.phase == "play" and deal.armut_returned_trumps == 0
    # Only the two see the cards passed.
    assert sorted(map(str, deal.observation(2).armut_cards)) == sorted(give.split())
    assert deal.observation(0).armut_cards == ()
    assert deal.re_party == {1, 2}
    play_cards(deal, sc.plays)
    assert deal.game_type == "armut"
    assert deal.points() == (0, 10, 10, 0)


def test_armut_down_accepted_pair_is_kontra() -> None:
    deal, sc, give, back = armut(ARMUT_DOWN)
    assert (deal.armut_direction, deal.armut_trumps, deal.armut_partner) == ("down", 3, 2)
    act(deal, "accept", f"give {give}", f"return {back}")
    assert deal.re_party == {0, 3}
    act(deal, "0:re")
    play_cards(deal, sc.plays)
    # Re 173: 10 + 1 stage = 20, × 2 for Re.
    assert deal.points() == (40, 0, 0, 40)


def test_armut_pair_may_not_announce() -> None:
    deal, _sc, give, back = armut(ARMUT_DOWN)
    act(deal, "accept", f"give {give}", f"return {back}")
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("kontra"), 1)
    assert err.value.rule == "armut_no_announcements"
    act(deal, "3:re")  # the others may


def test_armut_refused_is_a_redeal() -> None:
    deal, _sc, _give, _back = armut(ARMUT_UP)
    act(deal, "refuse")
    assert deal.is_over and deal.outcome == "redeal" and deal.redeal_reason == "armut_refused"
    assert deal.points() == (0, 0, 0, 0)
    assert deal.to_move is None


def test_armut_exchange_rules() -> None:
    deal, _sc, give, back = armut(ARMUT_UP)
    act(deal, "accept")
    with pytest.raises(IllegalActionError) as err:
        act(deal, "give KS AS AC")  # keeps his trumps
    assert err.value.rule == "armut_all_trumps"
    with pytest.raises(IllegalActionError) as err:
        act(deal, "give QC JD")
    assert err.value.rule == "armut_three_cards"
    with pytest.raises(IllegalActionError) as err:
        act(deal, "return 10C KC KS")  # it is the poor player's turn
    assert err.value.rule == "armut_exchange"
    act(deal, f"give {give}")
    with pytest.raises(IllegalActionError) as err:
        act(deal, "return QC JD 10C")  # trumps back while holding enough plain cards
    assert err.value.rule == "armut_return_plain"
    act(deal, f"return {back}")
    assert deal.phase == "play"


def test_armut_needs_few_trumps_and_no_hochzeit() -> None:
    sc = script(FIRST_TRICK, game="hochzeit")
    deal = sc.deal()
    for _ in range(8):
        act(deal, "pass")
    with pytest.raises(IllegalActionError) as err:
        act(deal, "armut")  # seat 0 holds both Alten
    assert err.value.rule == "armut_with_hochzeit"
    act(deal, "pass")
    with pytest.raises(IllegalActionError) as err:
        act(deal, "armut")  # seat 1 holds more than three trumps
    assert err.value.rule == "armut_too_many_trumps"


@pytest.mark.parametrize("limit", [-1, 4, 6])
def test_armut_limit_is_at_most_three_trumps(limit: int) -> None:
    # Three cards given must hold all the poor player's trumps (seed 003).
    with pytest.raises(OptionError, match="armut_max_trumps must be a whole number from 0 to 3"):
        DoppelkopfOptions(armut_max_trumps=limit)


def test_no_armut_option() -> None:
    tricks, give, back = ARMUT_UP
    sc = script(tricks, armut=(1, 2, give, back), options=DoppelkopfOptions(armut=False))
    deal = sc.deal()
    for _ in range(9):
        act(deal, "pass")
    assert Call("armut") not in deal.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("armut"))
    assert err.value.rule == "no_armut"


def test_armut_with_a_hochzeit_asks_the_hochzeit() -> None:
    from kartentisch.games.doppelkopf import DoppelkopfDeal

    from .helpers import hands_with

    hands = hands_with(
        {0: "QC QC AS AS AC AC 10S 10S KS KS", 1: "JD KH KH 10C 10C AH AH KC KC 9H"[:-3]}
    )
    deal = DoppelkopfDeal(hands, dealer=3)
    for _ in range(8):
        act(deal, "pass")
    act(deal, "hochzeit", "armut", "pass", "pass")
    assert deal.armut_partner == 0 and deal.phase == "armut_answer"
    act(deal, "accept")
    give = " ".join(str(c) for c in deal.legal_actions()[0].cards)  # type: ignore[union-attr]
    act(deal, f"give {give}")
    act(deal, str(deal.legal_actions()[0]))
    assert deal.game_type == "armut" and deal.re_party == {0, 1}
    assert Card("QC") in deal.hand(0)
