"""DDV declarations with rules that leave a seat nothing to reserve: no Vorbehalt.

Found by the invariants over random rule sets: with no solo allowed, a seat without
both Alten could say Vorbehalt and then had no action at all.
"""

from __future__ import annotations

import pytest

from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions

from .helpers import hands_with

NO_SOLI = DoppelkopfOptions.preset_named("ddv", soli=())


def test_no_vorbehalt_without_a_solo_or_a_hochzeit() -> None:
    deal = DoppelkopfDeal(
        hands_with({0: "QC", 1: "QC"}, options=NO_SOLI), dealer=3, options=NO_SOLI
    )
    assert deal.to_move == 0
    assert deal.legal_actions() == [Call("pass")]
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("vorbehalt"))
    assert err.value.rule == "nothing_reserved"
    assert deal.to_move == 0 and deal.declarations == []  # the refusal changed nothing


def test_the_hochzeit_is_still_reserved() -> None:
    deal = DoppelkopfDeal(hands_with({0: "QC QC"}, options=NO_SOLI), dealer=3, options=NO_SOLI)
    assert Call("vorbehalt") in deal.legal_actions()
    deal.apply(Call("vorbehalt"))
    for _ in range(3):
        deal.apply(Call("pass"))
    assert [str(a) for a in deal.legal_actions()] == ["hochzeit"]
