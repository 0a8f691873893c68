"""`kartentisch analyze` for Doppelkopf: solved card costs, estimates, decisions not solved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kartentisch.analysis import analyze
from kartentisch.analysis.doppelkopf import (
    FULL_EXACT_TRICKS,
    PIMC_EXACT_TRICKS,
    DoppelkopfAnalysis,
    DoppelkopfDecision,
    analyze_doppelkopf,
)
from kartentisch.cards import Card
from kartentisch.cli.main import main
from kartentisch.errors import KartentischError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal

from .scripted import pass_all, play_cards, script
from .test_hochzeit_armut import FIRST_TRUMP, hochzeit

#: A normal game, dealer 3: Re is seats 0 and 2 (a Q♣ each). Re takes the first
#: three tricks and 88 Augen, Kontra the next five (108). In trick 9 Kontra
#: leads the Fuchs, Carla adds ♦10, Dan ♦Q, and Anna, last to play, holds the
#: Dulle and a ♦K: the Dulle takes 34 Augen and the game (Re 122), but Anna
#: plays the ♦K, Dan takes the trick and Re loses with 104 Augen.
BLUNDER = [
    "AC KC KC 10C",
    "AS KS KS 10S",
    "AH KH KH AH",
    "QC 10H QC QH",
    "AC JH QS KD",
    "AS JC QH 10D",
    "10C JD QD JS",
    "10S AD QS JC",
    "AD 10D QD KD",
    "JD 10H JS JH",
]
NAMES = ["Anna", "Ben", "Carla", "Dan"]


def blunder_deal() -> DoppelkopfDeal:
    sc = script(BLUNDER, dealer=3)
    deal = sc.deal(seats=NAMES)
    pass_all(deal)
    play_cards(deal, sc.plays)
    assert deal.outcome == "played" and deal.re_party == frozenset({0, 2})
    assert deal.augen() == {"re": 104, "kontra": 136}
    return deal


@pytest.fixture(scope="module")
def anna() -> list[DoppelkopfDecision]:
    return analyze_doppelkopf(blunder_deal(), seat=0, samples=4)


def test_the_losing_card_is_named_with_its_cost(anna: list[DoppelkopfDecision]) -> None:
    cards = [d for d in anna if d.kind == "card"]
    assert [d.trick for d in cards] == list(range(1, 11))
    ninth = cards[8]
    assert ninth.played == Card("KD") and not ninth.forced
    full = ninth.full
    assert full is not None and full.method == "exact" and full.unit == "augen"
    # With every hand known: the Dulle wins the game (Re 122), the ♦K loses it (104).
    assert full.best == Card("10H")
    assert full.final == {Card("10H"): 122, Card("KD"): 104}
    assert full.final_cost == 18
    # Re wins 10 points against Kontra's 20 (no stage reached either way).
    assert full.points == {Card("10H"): 10.0, Card("KD"): -20.0}
    assert full.cost == 30.0
    # On what Anna knew the last cards can lie anywhere: the Dulle still wins
    # the game in every deal she could imagine. Her estimate scores the last
    # tricks as the table does: the Dulle also catches a Fuchs in this trick, so
    # Re wins 20 (10 + the extra point), against Kontra's 20: 40 points.
    seen = ninth.seen
    assert seen is not None and seen.method == "pimc" and seen.samples == 4
    assert seen.best == Card("10H") and seen.cost == pytest.approx(40.0)
    assert seen.expected == {Card("10H"): 20.0, Card("KD"): -20.0}
    # The last card is forced and costs nothing.
    assert cards[9].forced and cards[9].full is None and cards[9].seen is None


def test_methods_by_tricks_left(anna: list[DoppelkopfDecision]) -> None:
    for d in anna:
        if d.kind != "card" or d.forced:
            continue
        left = 11 - d.trick
        assert d.full is not None and d.seen is not None
        assert d.full.method == ("exact" if left <= FULL_EXACT_TRICKS else "estimate")
        assert d.seen.method == ("pimc" if left <= PIMC_EXACT_TRICKS else "pimc-estimate")
        assert d.full.final_cost >= 0 and d.full.cost >= 0
        assert d.full.final[d.full.best] == max(d.full.final.values())
        assert d.seen.cost is not None and d.seen.cost >= -1e-9
    declarations = [d for d in anna if d.kind == "declaration"]
    assert len(declarations) == 3  # Scharfe, soli, Hochzeit/Armut: Anna passed each time
    # She could say nothing but pass in the first and the last round.
    assert [d.forced for d in declarations] == [True, False, True]
    assert all(d.seen is None and d.full is None for d in declarations if d.forced)
    soli = declarations[1]
    assert not soli.solved and soli.full is None and soli.note == ""
    # The strong bot's estimates: passing against the one solo worth estimating.
    seen = soli.seen
    assert seen is not None and seen.method == "sampled" and seen.samples == 16
    assert set(seen.expected) == {Call("pass"), Call("solo", "trump")}
    assert seen.best == Call("pass") and seen.cost == 0.0
    assert seen.expected[Call("pass")] > seen.expected[Call("solo", "trump")]


def test_a_hopeless_solo_costs_what_the_bot_estimates() -> None:
    # Anna declares a trump solo with a hand the strong bot would not play it with.
    sc = script(BLUNDER, dealer=3)
    deal = sc.deal(seats=NAMES)
    for _ in range(4):
        deal.apply(Call("pass"))
    deal.apply(Call("solo", "trump"), 0)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    decisions = analyze_doppelkopf(deal, seat=0, samples=4)
    solo = next(d for d in decisions if d.played == Call("solo", "trump"))
    seen = solo.seen
    assert seen is not None and seen.method == "sampled" and seen.best == Call("pass")
    expected = seen.expected
    assert seen.cost == pytest.approx(expected[Call("pass")] - expected[Call("solo", "trump")])
    assert seen.cost > 100  # a lost solo costs hundreds of house points
    again = analyze_doppelkopf(deal, seat=0, samples=4)
    assert again == decisions  # the seed, not the clock
    text = DoppelkopfAnalysis(decisions, tuple(NAMES)).text()
    line = next(x for x in text if "trump solo" in x)
    assert line.startswith(
        "deal 1, declarations: Anna said trump solo; the strong bot would say pass (healthy):"
        " better by "
    )
    assert line.endswith(" expected points [estimate over 16 sampled deals]")
    assert f"{seen.cost:.2f}" in line
    assert f"{seen.cost:.2f} expected points lost" in text[-1]


def test_announcements_against_the_estimate_of_every_word_and_of_silence() -> None:
    def said(word: str) -> DoppelkopfDecision:
        sc = script(BLUNDER, dealer=3)
        deal = sc.deal(seats=NAMES)
        pass_all(deal)
        deal.apply(Call(word), 0)
        decisions = analyze_doppelkopf(deal, seat=0, samples=4)
        return next(d for d in decisions if d.kind == "announcement")

    re, schwarz = said("re"), said("schwarz")
    for d in (re, schwarz):
        seen = d.seen
        assert seen is not None and seen.method == "sampled" and seen.samples == 24
        assert seen.silent is not None
        assert set(seen.expected) == {Call(w) for w in ("re", "no90", "no60", "no30", "schwarz")}
        top = max(*seen.expected.values(), seen.silent)
        assert seen.cost == pytest.approx(top - seen.expected[d.played])
    # Re from the first trick with a Q♣ is a fair word; Schwarz from the first trick is not.
    assert re.seen is not None and re.seen.cost is not None and re.seen.cost < 5
    assert schwarz.seen is not None and schwarz.seen.cost is not None
    assert schwarz.seen.cost > 100 and schwarz.seen.best != Call("schwarz")
    data = schwarz.to_dict()["seat_information"]
    assert data["method"] == "sampled" and "silent" in data and "schwarz" in data["expected"]
    lines = DoppelkopfAnalysis([schwarz], tuple(NAMES)).text("de")
    assert lines[0].startswith("Spiel 1, Stich 1: Anna sagt ")
    assert "um " in lines[0] and "Punkte im Erwartungswert besser [Schätzung über 24" in lines[0]


def test_open_hochzeit_cards_are_not_solved() -> None:
    deal = hochzeit(FIRST_TRUMP, "first_trump")
    assert (deal.hochzeit_partner, deal.hochzeit_trick) == (3, 3)
    decisions = analyze_doppelkopf(deal, seat=0, samples=2)
    cards = {d.trick: d for d in decisions if d.kind == "card" and not d.forced}
    early = [d for t, d in cards.items() if t <= 3]  # the partner is found in trick 3
    assert early
    for d in early:
        assert d.full is None and not d.solved and "Hochzeit" in d.note
        assert d.seen is not None and d.seen.method == "heuristic" and d.seen.cost is None
    assert all(d.full is not None for t, d in cards.items() if t > 3)


def test_analyze_command_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(blunder_deal().to_record()), encoding="utf-8")
    assert main(["analyze", str(path), "--seat", "0", "--samples", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "doppelkopf" and set(out) == {"game", "decisions", "totals"}
    assert {d["seat"] for d in out["decisions"]} == {0}
    ninth = next(d for d in out["decisions"] if d["kind"] == "card" and d["trick"] == 9)
    assert ninth["played"] == "KD" and ninth["solved"] is True
    full = ninth["full_information"]
    assert full["method"] == "exact" and full["best"] == "10H" and full["cost"] == 30
    assert full["unit"] == "augen" and full["final"] == {"10H": 122, "KD": 104}
    seen = ninth["seat_information"]
    assert seen["method"] == "pimc" and seen["best"] == "10H" and seen["samples"] == 3
    assert set(seen["expected"]) == {"10H", "KD"}
    first, second = out["decisions"][:2]
    assert first["kind"] == "declaration" and first["solved"] is False
    assert first["forced"] is True and first["seat_information"] is None
    assert second["kind"] == "declaration" and second["forced"] is False
    assert second["full_information"] is None
    assert second["seat_information"]["method"] == "sampled"
    assert second["seat_information"]["cost"] == 0 and second["seat_information"]["best"] == "pass"
    assert set(second["seat_information"]["expected"]) == {"pass", "solo trump"}
    totals = out["totals"]["0"]
    assert totals["full_information"] >= 30 and totals["full_information_augen"] >= 18
    assert totals["not_solved"] == 1 and totals["forced"] == 3
    assert totals["exact"] + totals["estimated"] == 9


def test_text_report(anna: list[DoppelkopfDecision]) -> None:
    text = DoppelkopfAnalysis(anna, tuple(NAMES)).text()
    assert (
        "deal 1, trick 9: Anna played K♦: with all hands known 10♥ was better by 18 Augen "
        "(30 points) [exact]; on what was known 10♥ was better by 40.00 expected points "
        "[over 4 sampled deals, each solved exactly]" in text
    )
    assert "deal 1, trick 10: Anna played 10♥ (forced)" in text
    assert any("[estimate: 3 tricks searched, then a greedy playout]" in line for line in text)
    assert "deal 1, declarations: Anna said pass (healthy) (forced)" in text
    assert (
        "deal 1, declarations: Anna said pass (healthy); the strong bot would choose the same"
        " [estimate over 16 sampled deals]" in text
    )
    assert text[-2] == ""
    assert text[-1].startswith("Anna: ") and "lost to perfect play" in text[-1]


def test_text_report_in_german_and_russian(anna: list[DoppelkopfDecision]) -> None:
    analysis = DoppelkopfAnalysis(anna, tuple(NAMES))
    english, german, russian = (analysis.text(lang) for lang in ("en", "de", "ru"))
    assert len(english) == len(german) == len(russian)
    assert (
        "Spiel 1, Stich 9: Anna spielt K♦: bei offenen Karten war 10♥ um 18 Augen besser "
        "(30 Punkte) [exakt]; nach dem, was bekannt war, war 10♥ um 40.00 Punkte im "
        "Erwartungswert besser [über 4 gezogene Blätter, jedes exakt gelöst]" in german
    )
    assert "Spiel 1, Stich 10: Anna spielt 10♥ (erzwungen)" in german
    assert (
        # the call in German words, not the notation's "pass"
        "Spiel 1, Vorbehalte: Anna sagt gesund; der starke Bot würde dasselbe wählen"
        " [Schätzung über 16 gezogene Blätter]" in german
    )
    assert (
        "сдача 1, заявки: Anna заявил(а) пас; сильный бот выбрал бы то же"
        " [оценка по 16 случайным раздачам]" in russian
    )
    assert "сдача 1, взятка 10: Anna сыграл(а) 10♥ (вынужденно)" in russian
    assert russian[-1].startswith("Anna: ") and "против идеальной игры" in russian[-1]
    # Every line is translated: none of the English phrases is left.
    for phrase in ("played", "better by", "strong bot", "expected", "forced", "solved"):
        assert not any(phrase in line for line in german + russian), phrase


def test_registry_and_seat_checks() -> None:
    deal = blunder_deal()
    with pytest.raises(KartentischError, match="no seat 4"):
        analyze("doppelkopf", deal, seat=4)
    with pytest.raises(KartentischError, match="not slapjack"):
        analyze("slapjack", deal)
    with pytest.raises(KartentischError, match="at least 1"):
        analyze("doppelkopf", deal, samples=0)
    # A record that stops after the first round of declarations: only those to report.
    sc = script(BLUNDER, dealer=3)
    started = sc.deal(seats=NAMES)
    for _ in range(4):
        started.apply(Call("pass"))
    result = analyze("doppelkopf", started)
    assert isinstance(result, DoppelkopfAnalysis)
    decisions = result.to_json()["decisions"]
    assert [(d["seat"], d["kind"], d["played"]) for d in decisions] == [
        (s, "declaration", "pass") for s in range(4)
    ]
    assert set(result.to_json()["totals"]) == {"0", "1", "2", "3"}


def test_the_armut_exchange_is_valued_by_the_estimate() -> None:
    from .test_hochzeit_armut import ARMUT_UP, act, armut

    deal, _sc, give, back = armut(ARMUT_UP)
    act(deal, "accept", f"give {give}", f"return {back}")
    decisions = analyze_doppelkopf(deal, seat=2, samples=2)
    answer, returned = (d for d in decisions if d.kind == "armut")
    assert answer.played == Call("accept") and returned.played.word == "return"
    for d in (answer, returned):
        seen = d.seen
        # (up to 16 deals: a draw in which another seat would be asked is drawn again)
        assert seen is not None and seen.method == "sampled" and 8 <= seen.samples <= 16
        assert d.played in seen.expected and seen.cost is not None
        assert seen.cost == pytest.approx(max(seen.expected.values()) - seen.expected[d.played])
