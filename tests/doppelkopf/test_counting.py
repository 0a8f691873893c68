"""Counting (options ``counting`` and ``solo_factor``): how a game's value is written.

The constructed base game (Re = seats 0 and 2 win 30 under the house rules)
and the house soli of test_soli, under each way of counting; random games
under every way, house and DDV, checked for the sums each way promises and
for an explanation that ends with what each seat writes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kartentisch.errors import OptionError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf import DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.explain import explain_game
from kartentisch.games.doppelkopf.match import DoppelkopfMatch

from .helpers import declare, greedy, hands_with
from .test_normal import BASE, played
from .test_soli import STRONG

NAMES = ["Ann", "Ben", "Cy", "Dee"]


@pytest.mark.parametrize(
    ("counting", "points"),
    [
        ("scoring", (30, 0, 30, 0)),
        ("winners", (30, 0, 30, 0)),
        ("zero_sum", (30, -30, 30, -30)),
        ("losers", (0, -30, 0, -30)),
    ],
)
def test_a_normal_game_under_each_counting(counting: str, points: tuple[int, ...]) -> None:
    deal = played(BASE, options=DoppelkopfOptions(counting=counting))  # type: ignore[arg-type]
    assert deal.points() == points
    assert deal.score is not None and deal.score.base == 30


def _solo(hand: str, counting: str, factor: int, *, lose: bool) -> DoppelkopfDeal:
    options = DoppelkopfOptions(counting=counting, solo_factor=factor)  # type: ignore[arg-type]
    deal = DoppelkopfDeal(hands_with({0: hand}, seed=1), dealer=3, options=options)
    declare(deal, {0: "solo trump"})
    assert deal.solo and deal.soloist == 0
    greedy(deal, low=[0] if lose else [])
    return deal


WEAK = "KC KC KS KS KH KH 10C 10C 10S 10S"


@pytest.mark.parametrize(
    ("counting", "factor", "won", "lost"),
    [
        ("scoring", 3, (500, 0, 0, 0), (-1000, 0, 0, 0)),
        ("zero_sum", 1, (1500, -500, -500, -500), (-3000, 1000, 1000, 1000)),
        ("winners", 1, (500, 0, 0, 0), (0, 1000, 1000, 1000)),
        ("winners", 3, (1500, 0, 0, 0), (0, 1000, 1000, 1000)),
        ("losers", 2, (0, -500, -500, -500), (-2000, 0, 0, 0)),
    ],
)
def test_a_trumpfsolo_under_each_counting(
    counting: str, factor: int, won: tuple[int, ...], lost: tuple[int, ...]
) -> None:
    assert _solo(STRONG["trump"], counting, factor, lose=False).points() == won
    assert _solo(WEAK, counting, factor, lose=True).points() == lost


def test_the_solo_factor_has_a_range() -> None:
    with pytest.raises(OptionError, match="solo_factor"):
        DoppelkopfOptions(solo_factor=4)
    with pytest.raises(OptionError, match="counting"):
        DoppelkopfOptions(counting="everyone")  # type: ignore[arg-type]


def test_the_explanation_says_what_each_seat_writes() -> None:
    deal = played(BASE, options=DoppelkopfOptions(counting="zero_sum"))
    assert deal.score is not None
    lines = render_lines("de", explain_game(deal.facts(), deal.score), NAMES)
    assert lines[-3:] == [
        "Abgerechnet als Nullsumme: die Verlierer zahlen den Gewinnern.",
        "Ann, Cy: je +30.",
        "Ben, Dee: je −30.",
    ]
    solo = _solo(STRONG["trump"], "zero_sum", 3, lose=False)
    assert solo.score is not None
    text = render_lines("en", explain_game(solo.facts(), solo.score), NAMES)
    assert "Ann (soloist, 3 × an opponent's share): +1500." in text


def _written(lines: list[dict[str, Any]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for line in lines:
        if line["key"] in ("explain.counting.each", "explain.counting.soloist"):
            for seat in line["params"]["who"]["seats"]:
                out[seat] = line["params"]["value"]["signed"]
    return out


@pytest.mark.parametrize("rules", ["house", "ddv"])
@pytest.mark.parametrize("counting", ["zero_sum", "winners", "losers"])
def test_random_games_keep_what_each_counting_promises(rules: str, counting: str) -> None:
    rng = random.Random(f"{rules}-{counting}")
    factor = rng.randint(1, 3)
    options = {"preset": rules, "counting": counting, "solo_factor": factor}
    plain = DoppelkopfMatch({"preset": rules}, seats=NAMES, seed=5)
    match = DoppelkopfMatch(options, seats=NAMES, seed=5)
    scored = 0
    while scored < 20:
        deal, twin = match.deal, plain.deal
        if deal.is_over:
            if deal.score is not None and twin.score is not None:
                pts = deal.points()
                if counting == "zero_sum":
                    assert sum(pts) == 0
                elif counting == "winners":
                    assert min(pts) >= 0
                else:
                    assert max(pts) <= 0
                # Against the formula's own points: the unit of one Re player.
                f = deal.facts()
                re = sorted(f.re_party)
                kontra = [s for s in f.seats if s not in f.re_party]
                if rules == "ddv":
                    unit = -twin.points()[kontra[0]]
                elif f.solo:
                    unit = twin.points()[re[0]]
                else:
                    winners = [s for s in f.seats if f.party_of(s) == twin.score.winner]
                    value = twin.points()[winners[0]]
                    unit = value if twin.score.winner == "re" else -value
                assert all(pts[s] in (0, -unit) for s in kontra)
                solo = 3 if counting == "zero_sum" else factor
                assert all(pts[s] in (0, unit * (solo if f.solo else 1)) for s in re)
                assert _written(explain_game(f, deal.score)) == {s: pts[s] for s in f.seats}
                scored += 1
            match.start_deal()
            plain.start_deal()
            continue
        legal = match.legal_actions()
        assert legal == plain.legal_actions()
        pick = rng.choice(legal)
        match.apply(pick)
        plain.apply(pick)
    assert scored == 20
