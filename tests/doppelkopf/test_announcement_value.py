"""The option ``announcement_value``: announcements that double the value or add to it.

Constructed deals from ``test_normal`` (house) and ``test_ddv`` (DDV), each scored
with both settings; the expected values are worked out by hand (seed 003 § Punkte
zählen for doubling, TSR 7.2.3 for adding: Re/Kontra 2, a stage 1; ×10 at home).
"""

from __future__ import annotations

import dataclasses

from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf import DoppelkopfOptions
from kartentisch.games.doppelkopf.explain import explain_game
from kartentisch.games.doppelkopf.scoring import score_game

from .scripted import act, pass_all, play_cards, script
from .test_ddv import RE_WINS
from .test_normal import BASE, played
from .test_scoring import QUEENS, facts, neutral

ADD = DoppelkopfOptions(announcement_value="add")
NAMES = ["Ann", "Ben", "Cy", "Dee"]


def test_the_presets() -> None:
    assert DoppelkopfOptions().announcement_value == "double"
    assert DoppelkopfOptions.preset_named("ddv").announcement_value == "add"


def test_house_normal_game_doubling_and_adding() -> None:
    # Re wins with keine 90 and keine 60 reached: 10 + 20 = 30 before announcements.
    assert played(BASE).points() == played(BASE, options=ADD).points() == (30, 0, 30, 0)
    # Re: ×2, or + 20.
    assert played(BASE, "0:re").points() == (60, 0, 60, 0)
    assert played(BASE, "0:re", options=ADD).points() == (50, 0, 50, 0)
    # Keine 90 says Re too: ×4, or + 20 + 10.
    assert played(BASE, "2:no90").points() == (120, 0, 120, 0)
    assert played(BASE, "2:no90", options=ADD).points() == (60, 0, 60, 0)
    # Both parties: ×4, or + 40 — for the winner whoever said it.
    assert played(BASE, "3:kontra", "0:re").points() == (120, 0, 120, 0)
    assert played(BASE, "3:kontra", "0:re", options=ADD).points() == (70, 0, 70, 0)
    # Keine 30 missed: Kontra wins 20, ×16 or + 20 + 3 × 10; it still brings Böcke.
    doubled, added = played(BASE, "0:no30"), played(BASE, "0:no30", options=ADD)
    assert (doubled.points(), added.points()) == ((0, 320, 0, 320), (0, 70, 0, 70))
    assert added.score is not None and added.score.bock_trigger
    assert added.score.multiplier == 1 and added.score.base == 70


def solo(value: str, re_augen: int) -> tuple[tuple[int, ...], list[str]]:
    re = frozenset({0})
    f = facts(
        neutral(re_augen, re=re), re=re, game_type="queens", trumps=QUEENS, ann=[(1, "kontra")]
    )
    f = dataclasses.replace(f, announcement_value=value)  # type: ignore[arg-type]
    score = score_game(f)
    return score.points, render_lines("en", explain_game(f, score), NAMES)


def test_house_solo_with_a_kontra() -> None:
    assert solo("double", 130)[0] == (500, 0, 0, 0)
    assert solo("double", 100)[0] == (-1000, 0, 0, 0)
    won, lines = solo("add", 130)
    assert won == (270, 0, 0, 0)
    assert lines[3:7] == [
        "Queens solo won: 250",
        "Announced Kontra (Ben): +20 for Re",
        "Points: 270",
        "Value: 270 × 1 = 270",
    ]
    lost, lines = solo("add", 100)
    assert lost == (-520, 0, 0, 0)
    assert lines[3:6] == [
        "Queens solo lost: -500",
        "Announced Kontra (Ben): +20 for Kontra",
        "Points: -520",
    ]


def ddv_re_and_kontra(value: str) -> tuple[tuple[int, ...], list[str]]:
    options = DoppelkopfOptions.preset_named("ddv", announcement_value=value)
    sc = script(RE_WINS, options=options)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays, until=4)
    act(deal, "1:re")
    play_cards(deal, sc.plays[4:], until=4)
    act(deal, "3:kontra")
    play_cards(deal, sc.plays[8:])
    assert deal.score is not None
    return deal.points(), render_lines("de", explain_game(deal.facts(), deal.score), NAMES)


def test_ddv_adding_and_doubling() -> None:
    # Re wins: 1 + Re 2 + Kontra 2 = 5; doubling: 1 × 2 × 2 = 4.
    added, lines = ddv_re_and_kontra("add")
    assert added == (-5, 5, 5, -5)
    assert "Ansage Re (Ben): +2 für Re" in lines
    doubled, lines = ddv_re_and_kontra("double")
    assert doubled == (-4, 4, 4, -4)
    assert (
        "Ben (Re) hat Re angesagt: ×2" in lines and "Dee (Kontra) hat Kontra angesagt: ×2" in lines
    )
    assert not any(line.startswith("Ansage ") for line in lines)


def test_points_against_each_announced_stage_or_the_highest() -> None:
    # Re (seats 0, 2) announces keine 60 and takes 110: Kontra wins with 130, which
    # reaches 120 against keine 90 and 90 against keine 60 (TSR 7.2.2).
    f = facts(neutral(110), rules="ddv", ann=[(0, "no60")])
    each = score_game(f)
    highest_facts = dataclasses.replace(f, against_points="highest")
    highest = score_game(highest_facts)
    assert each.winner == highest.winner == "kontra"
    kontra = 1  # seat 1 plays Kontra
    assert each.points[kontra] - highest.points[kontra] == 1  # one point against fewer
    lines = render_lines("en", explain_game(highest_facts, highest), NAMES)
    against = [line for line in lines if "against" in line and "Augen" in line]
    assert len(against) == 1 and "90" in against[0]
    options = DoppelkopfOptions.preset_named("ddv", against_points="highest")
    assert options.against_points == "highest"
