"""The option ``sonderpunkte``: each extra point on or off, in constructed deals.

Every deal is one of ``test_normal``'s (house) or ``test_ddv``'s (DDV)
scripted deals with a trick or two changed; each test asserts the score with
the extra point counted and without it, worked out by hand.
"""

from __future__ import annotations

import pytest

from kartentisch.errors import OptionError
from kartentisch.games.doppelkopf import DoppelkopfOptions
from kartentisch.games.doppelkopf.scoring import (
    DDV_SONDERPUNKTE,
    HOUSE_SONDERPUNKTE,
    SONDERPUNKTE,
)

from .scripted import pass_all, play_cards, script
from .test_ddv import KONTRA_WINS
from .test_normal import BASE, SPLIT, played

DDV = DoppelkopfOptions.preset_named("ddv")


def house(*extras: str) -> DoppelkopfOptions:
    return DoppelkopfOptions(sonderpunkte=extras)


def named(deal: object) -> list[tuple[str, str, int | None]]:
    score = deal.score  # type: ignore[attr-defined]
    assert score is not None
    return [(e.party, e.name, e.trick) for e in score.extras]


def test_the_presets_and_the_order_of_a_set() -> None:
    assert DoppelkopfOptions().sonderpunkte == HOUSE_SONDERPUNKTE
    assert DDV.sonderpunkte == DDV_SONDERPUNKTE
    assert set(HOUSE_SONDERPUNKTE) | set(DDV_SONDERPUNKTE) < set(SONDERPUNKTE)
    # A set of kinds: the order it is written in does not make another rule set.
    mixed = DoppelkopfOptions.from_dict({"sonderpunkte": ["karlchen", "fuchs_gefangen"]})
    assert mixed.sonderpunkte == ("fuchs_gefangen", "karlchen")
    assert mixed.to_dict()["sonderpunkte"] == ["fuchs_gefangen", "karlchen"]
    assert (
        "sonderpunkte"
        not in DoppelkopfOptions.from_dict(
            {"sonderpunkte": list(reversed(HOUSE_SONDERPUNKTE))}
        ).to_dict()
    )


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(OptionError) as err:
        DoppelkopfOptions.from_dict({"sonderpunkte": ["fuchs_gefangen", "schweinchen"]})
    assert "schweinchen" in str(err.value) and "karlchen_gefangen" in str(err.value)


def test_fuchs_gefangen_on_and_off() -> None:
    tricks = list(BASE)
    tricks[5] = "KD 10H AD QD"  # seat 1 (Kontra) takes seat 2's Fuchs
    tricks[6] = "JH JC QH QC"
    assert named(played(tricks)) == [("kontra", "fuchs_gefangen", 6)]
    assert played(tricks).points() == (20, 0, 20, 0)  # 10 + 20 (stages) − 10
    off = played(tricks, options=house("karlchen", "doppelkopf", "dulle_gefangen"))
    assert named(off) == [] and off.points() == (30, 0, 30, 0)


def test_dulle_gefangen_on_and_off() -> None:
    tricks = list(BASE)
    tricks[4] = "JC JS JD JH"
    tricks[5] = "KD 10H 10H QD"  # seat 1's Dulle first: it takes seat 2's Dulle
    assert played(tricks).points() == (20, 0, 20, 0)
    off = played(tricks, options=house("fuchs_gefangen", "karlchen", "doppelkopf"))
    assert named(off) == [] and off.points() == (30, 0, 30, 0)


def test_karlchen_on_and_off() -> None:
    tricks = list(BASE)
    tricks[8] = "QH QD QS QS"
    tricks[9] = "JC 10D 10D JS"
    assert named(played(tricks)) == [("re", "karlchen", 10)]
    assert played(tricks).points() == (50, 0, 50, 0)  # 10 + 3 stages + Karlchen
    off = played(tricks, options=house("fuchs_gefangen"))
    assert named(off) == [] and off.points() == (40, 0, 40, 0)


def test_karlchen_gefangen_on_and_off() -> None:
    tricks = list(BASE)
    tricks[8] = "QH 10D QS QS"
    tricks[9] = "JC QD 10D JS"  # seat 0 (Re) leads the ♣J; seat 1's ♦Q (Kontra) wins it
    assert named(played(tricks)) == []  # the sheet has no such point
    assert played(tricks).points() == (30, 0, 30, 0)  # 10 + 2 stages
    on = played(tricks, options=house(*HOUSE_SONDERPUNKTE, "karlchen_gefangen"))
    assert named(on) == [("kontra", "karlchen_gefangen", 10)]
    assert on.points() == (20, 0, 20, 0)  # 30 − 10


def test_fuchs_im_letzten_stich_on_and_off() -> None:
    tricks = list(BASE)
    tricks[7] = "JS QS QC JD"
    tricks[9] = "AD 10D 10D KD"  # seat 1 (Kontra) leads the ♦A and takes the last trick
    assert named(played(tricks)) == [] and played(tricks).points() == (20, 0, 20, 0)
    on = played(tricks, options=house(*HOUSE_SONDERPUNKTE, "fuchs_letzter_stich"))
    assert named(on) == [("kontra", "fuchs_letzter_stich", 10)]
    assert on.points() == (10, 0, 10, 0)  # 20 − 10


def test_doppelkopf_on_and_off() -> None:
    tricks = list(BASE)
    tricks[2] = "AH KH AH KH"  # Rot geht rum
    tricks[3] = "AC 10C AS 10S"  # 42 Augen: a full trick
    both = played(tricks)
    assert sorted(e.name for e in both.score.extras) == ["rot_geht_rum", "voller_stich"]  # type: ignore[union-attr]
    off = played(tricks, options=house("fuchs_gefangen", "karlchen", "dulle_gefangen"))
    assert [e for _, e, _ in named(off)] == ["rot_geht_rum"]  # its own option
    assert (both.points(), off.points()) == ((50, 0, 50, 0), (40, 0, 40, 0))


def test_gegen_die_alten_under_house_scoring() -> None:
    # 120:120, Kontra (seats 0 and 2) wins: 20 on the sheet; a table that counts
    # gegen die Alten adds its 10.
    assert played(SPLIT).points() == (20, 0, 20, 0)
    on = played(SPLIT, options=house(*HOUSE_SONDERPUNKTE, "gegen_die_alten"))
    assert named(on) == [("kontra", "gegen_die_alten", None)]
    assert on.points() == (30, 0, 30, 0)


def ddv_kontra_wins(options: DoppelkopfOptions) -> tuple[int, ...]:
    sc = script(KONTRA_WINS, options=options)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays)
    return deal.points()


def test_gegen_die_alten_and_fuchs_under_ddv_scoring() -> None:
    # won 1 + unter 90 1 + gegen die Alten 1 − Re's Fuchs 1 = 2 (TSR 7.2).
    assert ddv_kontra_wins(DDV) == (2, -2, 2, -2)
    without_alten = DoppelkopfOptions.preset_named(
        "ddv", sonderpunkte=("fuchs_gefangen", "karlchen", "doppelkopf")
    )
    assert ddv_kontra_wins(without_alten) == (1, -1, 1, -1)
    none = DoppelkopfOptions.preset_named("ddv", sonderpunkte=())
    assert ddv_kontra_wins(none) == (2, -2, 2, -2)  # neither point: 1 + 1
