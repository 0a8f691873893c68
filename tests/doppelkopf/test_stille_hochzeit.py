"""The option ``stille_hochzeit``: with it off, both Alten must be declared."""

from __future__ import annotations

import pytest

from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.question import Answer, Answers, offer

from .helpers import hands_with

HOLDER = "QC QC AC 10C KC AS 10S KS AH KH"
PASS = Call("pass")


def sheet_deal(stille: bool) -> DoppelkopfDeal:
    options = DoppelkopfOptions(stille_hochzeit=stille, scharfe=False)
    return DoppelkopfDeal(hands_with({0: HOLDER}, options=options), dealer=3, options=options)


def to_marriage_round(deal: DoppelkopfDeal) -> None:
    while deal.declaration_round != "marriage":
        deal.apply(PASS)


def test_the_sheet_order_with_and_without_a_stille_hochzeit() -> None:
    silent = sheet_deal(True)
    to_marriage_round(silent)
    assert silent.to_move == 0 and PASS in silent.legal_actions()
    for _ in range(4):
        silent.apply(PASS)
    assert silent.phase == "play" and silent.game_type == "trump" and silent.silent
    declared = sheet_deal(False)
    to_marriage_round(declared)
    assert PASS not in declared.legal_actions()
    assert {a.word for a in declared.legal_actions()} == {"hochzeit"}
    with pytest.raises(IllegalActionError) as err:
        declared.apply(PASS)
    assert err.value.rule == "hochzeit_not_silent"
    declared.apply(Call("hochzeit", "first_trick"))
    assert declared.hochzeit_by == 0


def test_a_solo_is_still_allowed_instead() -> None:
    deal = sheet_deal(False)
    while deal.declaration_round != "solo":
        deal.apply(PASS)
    assert Call("solo", "queens") in deal.legal_actions()
    deal.apply(Call("solo", "queens"))
    for _ in range(3):
        deal.apply(PASS)
    assert deal.phase == "play" and deal.game_type == "queens"


def test_the_ddv_order_and_the_question() -> None:
    options = DoppelkopfOptions.preset_named("ddv", stille_hochzeit=False)
    hands = hands_with({0: HOLDER + " 9C 9S"}, options=options)
    deal = DoppelkopfDeal(hands, dealer=3, options=options)
    assert deal.legal_actions() == [Call("vorbehalt")]
    question = offer(deal, 0)
    assert question is not None and not question.gesund
    assert Call("hochzeit") in question.reservations
    # The table's answers take "gesund" no more, a Hochzeit as ever.
    answers = Answers()
    gesund, hochzeit = Answer.parse("gesund"), Answer.parse("vorbehalt hochzeit")
    assert gesund is not None and hochzeit is not None
    with pytest.raises(IllegalActionError):
        answers.check(deal, 0, gesund)
    assert answers.check(deal, 0, hochzeit)[1] == Call("vorbehalt")
