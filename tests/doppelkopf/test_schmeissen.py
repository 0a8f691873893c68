"""Throwing in (Schmeißen) for every reason the options name, each on and off, with
hands constructed to meet exactly that reason."""

from __future__ import annotations

import pytest

from kartentisch.errors import IllegalActionError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.explain import explain_deal

from .helpers import hands_with

NAMES = ["Ann", "Ben", "Cy", "Dee"]
REDEAL = Call("redeal")
NINES = DoppelkopfOptions(nines=True, kings_redeal=0)
PLAIN = DoppelkopfOptions(kings_redeal=0)

#: Seat 0 leads the declarations (dealer 3). Each hand meets one reason only.
CASES = [
    # reason, options that allow it, seat 0's hand
    ("nines", NINES, "9C 9C 9S 9S 9H QC QS JD AC AS 10C KS", {"nines_redeal": 5}),
    ("nines_kings", NINES, "9C 9C 9S KS KH KC QC QS JD AC AS 10C", {"nines_kings_redeal": 6}),
    ("few_trumps", PLAIN, "AC AC 10C KC AS AS 10S KS AH QD", {"few_trumps_redeal": 2}),
    ("low_augen", PLAIN, "JC JS JH JD QS QH QD KC KS JC", {"low_augen_redeal": 30}),
    ("fox_highest", PLAIN, "AD 10D KD AC 10C KC AS 10S AH KH", {"fox_redeal": True}),
]


@pytest.mark.parametrize(("reason", "base", "hand", "option"), CASES)
def test_each_reason_on_and_off(
    reason: str, base: DoppelkopfOptions, hand: str, option: dict[str, object]
) -> None:
    hands = hands_with({0: hand}, options=base, seed=3)
    off = DoppelkopfDeal(hands, dealer=3, options=base)
    assert off.to_move == 0 and REDEAL not in off.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        off.apply(REDEAL)
    assert err.value.rule == "no_kings_redeal"
    on_options = DoppelkopfOptions.from_dict({**base.to_dict(), **option})
    on = DoppelkopfDeal(hands, dealer=3, options=on_options)
    assert REDEAL in on.legal_actions()
    on.apply(REDEAL)
    assert on.outcome == "redeal" and on.redeal_reason == reason
    for lang in ("en", "de", "ru"):
        first = render_lines(lang, explain_deal(on), NAMES)[0]
        assert "Ann" in first and "explain." not in first


def test_a_hand_that_meets_no_reason_is_refused() -> None:
    rules = DoppelkopfOptions(kings_redeal=0, few_trumps_redeal=2, fox_redeal=True)
    hands = hands_with({0: "QC AD 10D AC 10C KC AS 10S AH KH"}, options=rules, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3, options=rules)
    assert REDEAL not in deal.legal_actions()  # two trumps, and the ♣Q is above the Fox
    with pytest.raises(IllegalActionError) as err:
        deal.apply(REDEAL)
    assert err.value.rule == "kings_redeal" and deal.outcome is None


def test_the_first_reason_is_recorded() -> None:
    rules = DoppelkopfOptions(kings_redeal=4, low_augen_redeal=90)
    hands = hands_with({0: "KC KC KS KS JC JS JH JD QD QH"}, options=rules, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3, options=rules)
    deal.apply(REDEAL)
    assert deal.redeal_reason == "kings"
