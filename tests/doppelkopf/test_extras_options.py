"""Extra points in a solo (``solo_sonderpunkte``) and in a Hochzeit decided late
(``hochzeit_sonderpunkte``): constructed deals scored with each setting."""

from __future__ import annotations

import dataclasses

from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf import DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.explain import explain_game

from .helpers import declare, greedy, hands_with
from .scripted import act, play_cards, script
from .test_hochzeit_armut import FIRST_TRUMP
from .test_soli import STRONG

NAMES = ["Ann", "Ben", "Cy", "Dee"]

#: FIRST_TRUMP with a full trick first: 10♠ A♠ A♥ A♠ (43 Augen) goes to seat 1 (Kontra)
#: before seat 3 becomes the partner in trick 3.
LATE = list(FIRST_TRUMP)
LATE[0] = "10S AS AH AS"
LATE[3] = "KS 10D KS JH"


def hochzeit(extras: str) -> DoppelkopfDeal:
    sc = script(LATE, game="hochzeit")
    deal = dataclasses.replace(
        sc,
        options=DoppelkopfOptions(hochzeit_sonderpunkte=extras),  # type: ignore[arg-type]
    ).deal()
    for _ in range(8):
        act(deal, "pass")
    act(deal, "hochzeit first_trump", "pass", "pass", "pass")
    play_cards(deal, sc.plays)
    return deal


def test_a_hochzeit_decided_late() -> None:
    every, after = hochzeit("all"), hochzeit("after_found")
    for deal in (every, after):
        assert (deal.hochzeit_partner, deal.hochzeit_trick) == (3, 3)
        assert deal.re_party == {0, 3} and deal.score is not None
        assert deal.score.winner == "kontra"
    assert every.score is not None and after.score is not None
    assert [(e.party, e.name, e.trick) for e in every.score.extras] == [
        ("kontra", "voller_stich", 1)
    ]
    assert after.score.extras == ()
    # Kontra wins: 20, and 10 for the full trick when every trick counts.
    assert every.points() == (0, 30, 30, 0) and after.points() == (0, 20, 20, 0)


def solo(kind: str, hand: str, **options: object) -> DoppelkopfDeal:
    opts = DoppelkopfOptions(**options)  # type: ignore[arg-type]
    deal = DoppelkopfDeal(hands_with({0: hand}, options=opts, seed=1), dealer=3, options=opts)
    declare(deal, {0: f"solo {kind}"})
    assert deal.solo and deal.soloist == 0
    greedy(deal)
    return deal


def test_extra_points_in_a_house_solo() -> None:
    plain = solo("trump", STRONG["trump"])
    counted = solo("trump", STRONG["trump"], solo_sonderpunkte=True)
    assert plain.score is not None and counted.score is not None
    assert plain.score.extras == () and plain.points() == (500, 0, 0, 0)
    # The soloist takes every trick: each extra point is his, 10 each on 500.
    extras = counted.score.extras
    assert extras and all(e.party == "re" for e in extras)
    assert counted.points() == (500 + 10 * len(extras), 0, 0, 0)
    lines = render_lines("en", explain_game(counted.facts(), counted.score), NAMES)
    assert lines[3] == "Trump solo won: 500"
    assert sum(line.endswith("for Re: +10") for line in lines) == len(extras)


def test_extra_points_in_a_ddv_solo_and_none_in_a_nullsolo() -> None:
    plain = solo("trump", STRONG["trump"], scoring="ddv")
    counted = solo("trump", STRONG["trump"], scoring="ddv", solo_sonderpunkte=True)
    assert plain.score is not None and counted.score is not None
    extras = counted.score.extras
    assert extras and all(e.party == "re" for e in extras)
    # One point each before the solo's ×3.
    assert counted.points()[0] == plain.points()[0] + 3 * len(extras)
    assert sum(counted.points()) == 0
    null = solo("null", "JC JC JS JS JH JH JD JD QC QS", solo_sonderpunkte=True)
    assert null.score is not None and null.score.extras == ()
