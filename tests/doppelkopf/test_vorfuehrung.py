"""The Vorführung (option ``vorfuehrung``): at the end of a session of known length a
player who still owes a Pflichtsolo must declare a solo."""

from __future__ import annotations

import json

import pytest

from kartentisch.bots import make_bot
from kartentisch.errors import DealError, IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.question import Answer, Answers
from kartentisch.games.doppelkopf.record import replay

DDV = DoppelkopfOptions.preset_named("ddv", vorfuehrung=True)
#: The sheet's order of declarations, with Pflichtsoli.
SHEET = DoppelkopfOptions(pflichtsolo=True, vorfuehrung=True)


def test_only_at_the_end_of_a_session_of_known_length() -> None:
    assert (
        not DoppelkopfOptions().vorfuehrung
        and not DoppelkopfOptions.preset_named("ddv").vorfuehrung
    )
    # Four Pflichtsoli owed: a session of eight games forces none yet, one of four does.
    assert DoppelkopfMatch(DDV, seed=1, first_dealer=3, games=8).deal.vorfuehrung is None
    assert DoppelkopfMatch(DDV, seed=1, first_dealer=3, games=4).deal.vorfuehrung == 0
    # Without a length, or without the option, nobody.
    assert DoppelkopfMatch(DDV, seed=1, first_dealer=3).deal.vorfuehrung is None
    plain = DoppelkopfOptions.preset_named("ddv")
    assert DoppelkopfMatch(plain, seed=1, first_dealer=3, games=1).deal.vorfuehrung is None


def test_the_seat_vorgefuehrt_may_not_pass() -> None:
    match = DoppelkopfMatch(DDV, seed=1, first_dealer=3, games=2)
    deal = match.deal
    assert deal.vorfuehrung == 0 and deal.to_move == 0
    assert all(deal.observation(s).vorfuehrung == 0 for s in range(4))
    assert Call("pass") not in deal.legal_actions(0)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("pass"), 0)
    assert err.value.rule == "vorfuehrung"
    # The bot reserves and names the solo its hand plays best; it is its Pflichtsolo.
    bot = make_bot("doppelkopf", "heuristic", 1)
    while deal.phase == "declare":
        seat = deal.to_move
        assert seat is not None
        match.apply(bot.choose(deal.observation(seat)), seat)
    assert deal.solo and deal.soloist == 0 and deal.pflicht
    assert deal.to_move == 0  # a Pflichtsolo: the soloist leads (TSR 4.2)


def test_under_the_sheets_order_and_in_the_question() -> None:
    match = DoppelkopfMatch(SHEET, seed=2, first_dealer=3, games=1)
    deal = match.deal
    assert deal.vorfuehrung == 0
    # The Scharfe round may pass; the question already offers only soli.
    answers = Answers()
    question = answers.question(deal, 0)
    if question is None:  # (nothing to say in the Scharfe round: it is answered)
        deal.apply(answers.forced(deal, 0) or Call("pass"), 0)
        while deal.to_move != 0:
            deal.apply(Call("pass"))
        question = answers.question(deal, 0)
    assert question is not None and not question.gesund
    assert question.reservations and all(c.word == "solo" for c in question.reservations)
    with pytest.raises(IllegalActionError):
        answers.check(deal, 0, Answer.parse("gesund"))
    while deal.declaration_round != "solo":
        deal.apply(Call("pass"))
    assert deal.to_move == 0 and Call("pass") not in deal.legal_actions()
    deal.apply(Call("solo", "queens"), 0)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    assert deal.soloist == 0 and deal.pflicht


def test_the_record_replays_the_vorfuehrung() -> None:
    match = DoppelkopfMatch(DDV, seed=3, first_dealer=1, games=1)
    bot = make_bot("doppelkopf", "heuristic", 2)
    deal = match.deal
    assert deal.vorfuehrung == 2
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        match.apply(bot.choose(deal.observation(seat)), seat)
    record = json.loads(json.dumps(match.to_record()))
    assert record["deals"][0]["vorfuehrung"] == 2
    again = replay(record)
    assert isinstance(again, DoppelkopfMatch)
    assert again.deal.vorfuehrung == 2 and again.totals() == match.totals()
    single = json.loads(json.dumps(deal.to_record()))
    assert single["vorfuehrung"] == 2
    one = replay(single)
    assert isinstance(one, DoppelkopfDeal) and one.points() == deal.points()


def test_only_a_seat_that_owes_a_pflichtsolo() -> None:
    hands = DoppelkopfDeal.from_seed(1, dealer=3, options=DDV).initial_hands
    with pytest.raises(DealError, match="vorgeführt"):
        DoppelkopfDeal(hands, dealer=3, options=DDV, pflicht_due=[1, 2], vorfuehrung=0)
    with pytest.raises(DealError, match="no Vorführung"):
        DoppelkopfDeal(
            hands, dealer=3, options=DoppelkopfOptions.preset_named("ddv"), vorfuehrung=0
        )


def test_a_web_table_knows_its_length() -> None:
    from kartentisch.web.games.doppelkopf import DoppelkopfTable

    table = DoppelkopfTable(DDV, ["Ann", "Ben", "Cy", "Dee"], 4, 1)
    deal = table.match.deal
    assert deal.vorfuehrung is not None and deal.vorfuehrung in deal.playing
    view = table.view(deal.vorfuehrung)
    assert view["vorfuehrung"] == deal.vorfuehrung
