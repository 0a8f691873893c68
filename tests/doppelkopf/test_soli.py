"""Soli under the house rules: every kind, ouvert, Kontra, ranking, the implicit Re.

Seed 003 § Solo: won 250 (Trumpfsolo 500), lost −500 (Trumpfsolo −1000),
written to the soloist; ouvert × 2; Kontra × 2; a lost solo makes Böcke.
The winning hands below take every trick whatever the others do: the
soloist (seat 0, dealer 3) leads and holds the top of the trumps.
"""

from __future__ import annotations

import pytest

from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions

from .helpers import declare, greedy, hands_with

STRONG = {
    "trump": "10H 10H QC QC QS QS QH QH QD QD",
    "queens": "QC QC QS QS QH QH QD QD AC AC",
    "jacks": "JC JC JS JS JH JH JD JD AC AC",
    "clubs": "AC AC 10C 10C KC KC QC QC JC JC",
    "spades": "AS AS 10S 10S KS KS QS QS JS JS",
    "hearts": "AH AH 10H 10H KH KH QH QH JH JH",
    "diamonds": "AD AD 10D 10D KD KD QD QD JD JD",
    "no_trump": "AC AC 10C 10C KC KC QC QC JC JC",
}
WON = {"trump": 500}


def solo_deal(kind: str, hand: str, *, ouvert: bool = False, seed: int = 1) -> DoppelkopfDeal:
    deal = DoppelkopfDeal(hands_with({0: hand}, seed=seed), dealer=3)
    declare(deal, {0: f"solo {kind}" + (" ouvert" if ouvert else "")})
    assert deal.phase == "play" and deal.solo and deal.soloist == 0
    return deal


@pytest.mark.parametrize("kind", sorted(STRONG))
def test_every_solo_kind_won(kind: str) -> None:
    deal = solo_deal(kind, STRONG[kind])
    assert deal.game_type == kind and deal.re_party == {0}
    greedy(deal)
    assert deal.score is not None and deal.score.winner == "re"
    assert dict(deal.score.augen) == {"re": 240, "kontra": 0}
    value = WON.get(kind, 250)
    assert deal.points() == (value, 0, 0, 0)
    assert deal.score.extras == ()  # no extra points in a solo
    assert not deal.score.bock_trigger


@pytest.mark.parametrize("kind", sorted(STRONG))
def test_every_solo_ouvert_doubles_and_opens_the_hand(kind: str) -> None:
    deal = solo_deal(kind, STRONG[kind], ouvert=True)
    obs = deal.observation(2)
    assert obs.ouvert and sorted(obs.open_hand) == sorted(deal.hand(0))
    greedy(deal)
    assert deal.points() == (2 * WON.get(kind, 250), 0, 0, 0)


def test_null_solo_won_and_lost() -> None:
    # All jacks and two queens: the soloist never leads and never beats the card led.
    deal = solo_deal("null", "JC JC JS JS JH JH JD JD QC QS")
    greedy(deal, low=[0])
    assert deal.score is not None and deal.score.winner == "re"
    assert deal.points() == (250, 0, 0, 0)
    lost = solo_deal("null", STRONG["no_trump"])
    greedy(lost)
    assert lost.points() == (-500, 0, 0, 0)
    assert lost.score is not None and lost.score.bock_trigger  # the implicit Re is lost


def test_null_ouvert_won() -> None:
    deal = solo_deal("null", "JC JC JS JS JH JH JD JD QC QS", ouvert=True)
    greedy(deal, low=[0])
    assert deal.points() == (500, 0, 0, 0)


def test_lost_solo_and_lost_trumpfsolo() -> None:
    weak = "JC JC JS JS JH JH KC KS KH KH"
    deal = solo_deal("no_trump", weak)
    greedy(deal, low=[0])
    assert deal.score is not None and deal.score.winner == "kontra"
    assert deal.points() == (-500, 0, 0, 0)
    assert deal.score.bock_trigger
    trump = solo_deal("trump", "KC KC KS KS KH KH 10C 10C 10S 10S")
    greedy(trump, low=[0])
    assert trump.points() == (-1000, 0, 0, 0)


def test_kontra_against_a_solo_doubles() -> None:
    deal = solo_deal("queens", STRONG["queens"])
    deal.apply(Call("kontra"), 2)
    greedy(deal)
    # 250 × 2 for the Kontra; the Kontra is lost: Böcke.
    assert deal.points() == (500, 0, 0, 0)
    assert deal.score is not None and deal.score.bock_trigger


def test_in_a_solo_only_the_opponents_say_kontra() -> None:
    deal = solo_deal("jacks", STRONG["jacks"])
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("re"), 0)
    assert err.value.rule == "solo_implicit_re"
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("no90"), 1)
    assert err.value.rule == "solo_only_kontra"
    assert deal.legal_actions(1)[-1] == Call("kontra")


def test_higher_solo_wins_and_lower_is_refused() -> None:
    deal = DoppelkopfDeal(hands_with({}, seed=4), dealer=3)
    for _ in range(4):
        deal.apply(Call("pass"))  # Scharfe round
    deal.apply(Call("solo", "jacks"))  # seat 0
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("solo", "clubs"))  # seat 1: Kreuzsolo ranks below Untersolo
    assert err.value.rule == "solo_outranked"
    deal.apply(Call("solo", "queens"))  # seat 1 outranks
    deal.apply(Call("pass"))
    deal.apply(Call("solo", "null", True))  # seat 3: an ouvert solo beats every plain one
    assert deal.phase == "play"
    assert (deal.game_type, deal.soloist, deal.ouvert) == ("null", 3, True)
    assert deal.to_move == 0  # the dealer's left leads (house rules)


def test_trump_ouvert_is_the_top_and_ends_the_round() -> None:
    deal = DoppelkopfDeal(hands_with({}, seed=4), dealer=3)
    for _ in range(4):
        deal.apply(Call("pass"))
    deal.apply(Call("solo", "trump", True))
    # Nothing outranks it: the others are not asked, play begins.
    assert deal.phase == "play" and deal.soloist == 0


def test_solo_kinds_can_be_restricted() -> None:
    options = DoppelkopfOptions(soli=("trump", "queens"), ouvert=False)
    deal = DoppelkopfDeal(hands_with({}, options=options, seed=4), dealer=3, options=options)
    for _ in range(4):
        deal.apply(Call("pass"))
    assert [str(a) for a in deal.legal_actions()] == ["pass", "solo trump", "solo queens"]
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("solo", "jacks"))
    assert err.value.rule == "solo_not_played"


def test_ddv_style_suit_solo_option() -> None:
    options = DoppelkopfOptions(solo_style="ddv")
    hand = "10H 10H QC QC QS QS QH QH AS AS"
    deal = DoppelkopfDeal(hands_with({0: hand}, options=options, seed=2), dealer=3, options=options)
    declare(deal, {0: "solo spades"})
    assert deal.order.is_trump(deal.hand(0)[0])
    trumps = [c for c in deal.options.deck() if deal.order.is_trump(c)]
    assert len(set(trumps)) == 12  # Dulle, queens, jacks, ♠ A 10 K
    greedy(deal)
    assert deal.points() == (250, 0, 0, 0)


@pytest.mark.parametrize(("lead", "first"), [("dealer_left", 0), ("soloist", 2)])
def test_who_leads_a_lustsolo(lead: str, first: int) -> None:
    """``lustsolo_lead``: the dealer's left (seat 0, dealer 3) or the soloist (seat 2)."""
    options = DoppelkopfOptions(lustsolo_lead=lead)  # type: ignore[arg-type]
    deal = DoppelkopfDeal(hands_with({2: STRONG["jacks"]}, seed=4), dealer=3, options=options)
    declare(deal, {2: "solo jacks"})
    assert (deal.phase, deal.soloist, deal.pflicht) == ("play", 2, False)
    assert deal.to_move == deal.leader == first
    assert deal.observation(1).trick.leader == first
    # The record replays to the same lead.
    again = DoppelkopfDeal(deal.initial_hands, dealer=3, options=deal.options)
    for action in deal.actions:
        again.apply(action)
    assert again.to_move == first


def test_a_pflichtsolo_is_led_by_its_soloist_whatever_the_lustsolo_lead() -> None:
    options = DoppelkopfOptions.preset_named("ddv", lustsolo_lead="dealer_left")
    deal = DoppelkopfDeal.from_seed(5, dealer=3, options=options)
    deal.apply(Call("pass"))  # seat 0: gesund
    deal.apply(Call("vorbehalt"))  # seat 1
    deal.apply(Call("pass"))
    deal.apply(Call("pass"))
    deal.apply(Call("solo", "queens"))  # seat 1's first solo: its Pflichtsolo
    assert (deal.phase, deal.soloist, deal.pflicht) == ("play", 1, True)
    assert deal.to_move == 1


def test_the_lustsolo_lead_is_an_option_of_the_schema() -> None:
    assert DoppelkopfOptions.from_dict({"lustsolo_lead": "soloist"}).lustsolo_lead == "soloist"
    with pytest.raises(ValueError, match="lustsolo_lead must be one of dealer_left, soloist"):
        DoppelkopfOptions.from_dict({"lustsolo_lead": "dealer"})
