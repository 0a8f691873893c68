"""Bock options: what starts Bock games (``bock_triggers``), how many (``bock_rounds``)
and how overlapping ones count (``bock_stacking``, ``bock_factor``)."""

from __future__ import annotations

import dataclasses

import pytest

from kartentisch.errors import DealError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf import DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.explain import explain_game
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.scoring import score_game
from kartentisch.games.doppelkopf.sheet import ScoreSheet, SheetError

from .test_normal import BASE, SPLIT, played
from .test_scoring import facts, neutral

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def test_stacked_boecke_multiply_and_appended_ones_wait() -> None:
    stacked = ScoreSheet(NAMES)
    appended = ScoreSheet(NAMES, bock_stacking="append")
    for sheet in (stacked, appended):
        sheet.record_points((10, 0, 10, 0), bock_trigger=True)  # 4 Bock games
        assert sheet.current_multiplier == 2
        sheet.record_points((20, 0, 20, 0), bock_trigger=True)  # 3 left, and 4 more
    assert stacked.pending_bocks == appended.pending_bocks == (3, 4)
    assert stacked.bock_schedule() == (4, 4, 4, 2)
    assert appended.bock_schedule() == (2,) * 7
    assert (stacked.current_multiplier, appended.current_multiplier) == (4, 2)
    for _ in range(3):
        appended.record_points((0, 0, 0, 0))
    assert appended.pending_bocks == (4,) and appended.current_multiplier == 2
    for _ in range(4):
        appended.record_points((0, 0, 0, 0))
    assert appended.pending_bocks == () and appended.current_multiplier == 1
    assert [row.multiplier for row in appended.rows] == [1, 2] + [2] * 7


def test_the_bock_factor() -> None:
    sheet = ScoreSheet(NAMES, bock_factor=3)
    sheet.record_points((10, 0, 10, 0), bock_trigger=True)
    assert sheet.current_multiplier == 3
    sheet.record_points((20, 0, 20, 0), bock_trigger=True)
    assert sheet.bock_schedule() == (9, 9, 9, 3)
    appended = ScoreSheet(NAMES, bock_factor=3, bock_stacking="append")
    appended.record_points((10, 0, 10, 0), bock_trigger=True)
    appended.record_points((10, 0, 10, 0), bock_trigger=True)
    assert appended.bock_schedule() == (3,) * 7
    # The sheet keeps its Bock settings through its record.
    again = ScoreSheet.from_dict(appended.to_dict())
    assert again.bock_schedule() == (3,) * 7 and again.to_dict() == appended.to_dict()
    with pytest.raises(SheetError, match="2 to 4"):
        ScoreSheet(NAMES, bock_factor=5)
    # A session takes it from its options, and the game's value follows.
    match = DoppelkopfMatch(DoppelkopfOptions(bock_factor=3), first_dealer=3, start=False, seed=1)
    match.sheet.record_points((10, 0, 10, 0), bock_trigger=True)
    assert match.sheet.current_multiplier == 3
    deal = match.start_deal()
    assert deal.bock_multiplier == 3
    while not deal.is_over:
        match.apply(deal.legal_actions()[0])
    if deal.score is not None:
        assert deal.score.multiplier % 3 == 0
    # A deal's multiplier is a power of the factor.
    with pytest.raises(DealError, match="1, 3, 9"):
        DoppelkopfDeal(deal.initial_hands, dealer=0, options=deal.options, bock_multiplier=2)


def test_bock_rounds() -> None:
    sheet = ScoreSheet(NAMES, bock_rounds=2)
    sheet.record_points((10, 0, 10, 0), bock_trigger=True)
    assert sheet.pending_bocks == (8,)
    five = ScoreSheet([*NAMES, "Eva"], bock_rounds=3)
    five.record_points((0, 10, 0, 10, 0), bock_trigger=True)
    assert five.pending_bocks == (15,)
    with pytest.raises(SheetError, match="Bock rounds"):
        ScoreSheet(NAMES, bock_rounds=0)


def test_a_sheet_with_bock_rounds_reads_back() -> None:
    sheet = ScoreSheet(NAMES, bock_rounds=2)
    sheet.record_points((10, 0, 10, 0), bock_trigger=True)
    sheet.record_points((20, 0, 20, 0))
    again = ScoreSheet.from_dict(sheet.to_dict())
    assert again.pending_bocks == (7,) and again.totals == sheet.totals


def test_a_session_takes_its_bock_options() -> None:
    options = DoppelkopfOptions(bock_rounds=2, bock_stacking="append")
    match = DoppelkopfMatch(options, first_dealer=3, start=False)
    match.sheet.record_points((10, 0, 10, 0), bock_trigger=True)
    assert match.sheet.pending_bocks == (8,)
    match.sheet.record_points((10, 0, 10, 0), bock_trigger=True)
    assert match.sheet.bock_schedule() == (2,) * 15


def test_120_120_and_a_lost_announcement_as_triggers() -> None:
    assert played(SPLIT).score.bock_trigger  # type: ignore[union-attr]
    no_tie = DoppelkopfOptions(bock_triggers=("lost_announcement", "lost_solo"))
    assert not played(SPLIT, options=no_tie).score.bock_trigger  # type: ignore[union-attr]
    # Keine 30 announced and missed: a lost announcement.
    assert played(BASE, "0:no30").score.bock_trigger  # type: ignore[union-attr]
    only_tie = DoppelkopfOptions(bock_triggers=("tie",))
    lost = played(BASE, "0:no30", options=only_tie)
    assert lost.score is not None and not lost.score.bock_trigger
    assert lost.points() == (0, 320, 0, 320)  # the value itself does not change


def schwarz(triggers: frozenset[str] | None) -> tuple[bool, list[str]]:
    f = dataclasses.replace(facts(neutral(240)), bock_triggers=triggers)
    score = score_game(f)
    return score.bock_trigger, render_lines("en", explain_game(f, score), NAMES)


def test_schwarz_as_a_trigger() -> None:
    assert not schwarz(None)[0]  # not on the sheet
    brings, lines = schwarz(frozenset({"schwarz", "tie"}))
    assert brings and lines[-1] == "This game brings Böcke: a party took no trick."


def test_a_lost_solo_as_a_trigger() -> None:
    from .test_scoring import QUEENS

    re = frozenset({0})
    lost = facts(neutral(100, re=re), re=re, game_type="queens", trumps=QUEENS)
    assert score_game(lost).bock_trigger
    off = dataclasses.replace(lost, bock_triggers=frozenset({"lost_announcement", "tie"}))
    assert not score_game(off).bock_trigger
