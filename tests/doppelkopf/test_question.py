"""The one declaration question a person is asked per deal, on the engine alone.

Over many seeded deals of both orders of declarations, 4 and 5 players: the
question offers every declaration the round being asked allows (so nothing a
person could say by hand is lost), every answer it offers gives a legal
engine action, and the actions the table gives for a seat are legal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kartentisch.errors import IllegalActionError, NotationError
from kartentisch.games.doppelkopf.actions import Call
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.question import Answer, Answers, Question, offer

PASS = Call("pass")
VORBEHALT = Call("vorbehalt")


def every_answer(question: Question) -> list[Answer]:
    """Every answer the question offers (a Scharfe alone, with each reservation, or none)."""
    out = [Answer()] if question.gesund else []
    for scharfe in (None, *question.scharfe):
        for reservation in (None, *question.reservations):
            if scharfe is None and reservation is None:
                continue
            if scharfe is not None and reservation == Call("redeal"):
                continue
            out.append(Answer(scharfe, reservation))
    return out


@pytest.mark.parametrize(
    ("preset", "players"), [("house", 4), ("house", 5), ("ddv", 4), ("ddv", 5)]
)
def test_the_question_offers_what_the_rounds_allow(preset: str, players: int) -> None:
    options = DoppelkopfOptions.from_dict({"preset": preset, "players": players})
    said: Counter[str] = Counter()
    for seed in range(120):
        rng = random.Random(seed)
        deal = DoppelkopfDeal.from_seed(seed, dealer=seed % players, options=options)
        answers = Answers()
        while deal.declaration_round is not None:
            seat = deal.to_move
            assert seat is not None
            legal = deal.legal_actions(seat)
            question = offer(deal, seat)
            assert question is not None
            offered = {*question.scharfe, *question.reservations, PASS}
            for action in legal:
                # "vorbehalt" is said for any reservation; everything else is offered as is.
                assert action in offered or (action == VORBEHALT and question.reservations)
            forced = answers.forced(deal, seat)
            if forced is not None:
                assert forced in legal and answers.question(deal, seat) is None
                deal.apply(forced, seat)
                said["forced"] += 1
                continue
            asked = answers.question(deal, seat)
            assert asked == question and asked.choice and legal != [PASS]
            choices = every_answer(asked)
            for answer in choices:
                assert answers.check(deal, seat, answer)[1] in legal
            # Gesund mostly (a solo in every deal would leave no Hochzeit), else any answer.
            gesund = asked.gesund and rng.random() < 0.6
            answer, action = answers.check(deal, seat, Answer() if gesund else rng.choice(choices))
            deal.apply(action, seat)
            answers.keep(deal, seat, answer)
            parts = [c.word for c in (answer.scharfe, answer.reservation) if c is not None]
            said.update(parts or ["gesund"])
    assert {"forced", "gesund", "solo", "hochzeit"} <= set(said), said


def test_answers_are_read_and_refused_with_reasons() -> None:
    assert Answer.parse("GESUND") == Answer()
    assert str(Answer.parse("vorbehalt Hochzeit trumpf")) == "vorbehalt hochzeit first_trump"
    assert Answer.parse("vorbehalt") is None and Answer.parse("solo queens") is None
    for bad in (
        "vorbehalt re",
        "vorbehalt scharfe + scharfe aces",
        "vorbehalt scharfe + redeal",
        "vorbehalt solo queens + armut",
        "gesund please",
        "vorbehalt solo + ",
    ):
        with pytest.raises(NotationError):
            Answer.parse(bad)
    deal = DoppelkopfDeal.from_seed(3, dealer=0)
    answers = Answers()
    seat = deal.to_move
    assert seat is not None
    other = (seat + 1) % 4
    with pytest.raises(IllegalActionError) as refused:
        answers.check(deal, other, Answer())
    assert refused.value.rule == "not_your_turn"
    with pytest.raises(IllegalActionError) as refused:
        answers.check(deal, seat, Answer(Call("scharfe", "aces")))
    assert refused.value.rule == "not_offered"
    answer, action = answers.check(deal, seat, Answer(None, Call("solo", "jacks")))
    assert action == PASS  # the Scharfe round: the solo is said in its own round
    deal.apply(action, seat)
    answers.keep(deal, seat, answer)
    with pytest.raises(IllegalActionError) as refused:
        answers.check(deal, seat, Answer())
    assert refused.value.rule in ("answered", "not_your_turn")
