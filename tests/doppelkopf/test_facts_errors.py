"""``DoppelkopfDeal.facts()`` where no game is played says why (not a bare assertion)."""

from __future__ import annotations

import pytest

from kartentisch.errors import KartentischError
from kartentisch.games.doppelkopf import DoppelkopfDeal


def test_a_deal_thrown_in_has_no_game_facts() -> None:
    deal = DoppelkopfDeal.from_seed(309, dealer=0)  # seat 1 holds five kings
    assert deal.to_move == 1
    (redeal,) = [a for a in deal.legal_actions() if str(a) == "redeal"]
    deal.apply(redeal)
    assert deal.phase == "redeal"
    with pytest.raises(KartentischError, match=r"thrown in \(kings\): no game was played"):
        deal.facts()


def test_a_deal_before_its_cards_has_no_game_facts() -> None:
    deal = DoppelkopfDeal.from_seed(309, dealer=0)
    with pytest.raises(KartentischError, match="no game is being played yet"):
        deal.facts()


def test_a_played_deal_has_its_facts() -> None:
    deal = DoppelkopfDeal.from_seed(7, dealer=0)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    if deal.phase == "redeal":
        pytest.skip("seed 7 was thrown in")
    assert deal.facts().re_party == deal.re_party
