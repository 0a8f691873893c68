"""A Doppelkopf game's value explained: exact lines for worked games, and on random
played games the explanation's items add up to the engine's score."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.doppelkopf.helpers import hands_with
from tests.doppelkopf.test_scoring import QUEENS, facts, neutral, place

from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf.explain import explain_deal, explain_game, explain_redeal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.scoring import score_game

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eva"]


def explained(lang: str, **kw: Any) -> list[str]:
    layout = kw.pop("layout")
    f = facts(layout, **kw)
    return render_lines(lang, explain_game(f, score_game(f)), NAMES)


def test_house_game_with_stages_announcements_extra_point_and_bock() -> None:
    layout = neutral(195, re_tricks=[5])
    place(layout, 5, "10S AD AS KD", winner=0)  # Kontra's seat 1 plays the Fuchs, Re takes it
    lines = explained("de", layout=layout, ann=[(0, "re"), (1, "kontra")], bock=2)
    assert lines == [
        "Re: Ann, Cy — Kontra: Ben, Dee",
        "Augen: Re 195, Kontra 45 (Stiche 8:2)",
        "Re gewinnt mit 195 Augen (121 nötig).",
        "Spiel gewonnen (Re): 10",
        "Kontra unter 90 Augen (keine 90): +10 für Re",
        "Kontra unter 60 Augen (keine 60): +10 für Re",
        "Fuchs gefangen (Stich 6) für Re: +10",
        "Punkte vor dem Verdoppeln: 40",
        "Ann (Re) hat Re angesagt: ×2",
        "Ben (Kontra) hat Kontra angesagt: ×2",
        "Bockspiel: ×2",
        "Wert: 40 × 8 = 320",
        "Ann, Cy gewinnen: je 320.",
        "Ben, Dee verlieren: je 0 — nach den Hausregeln schreiben nur die Gewinner.",
        "Dieses Spiel bringt Böcke: eine Ansage ging verloren.",
    ]


def test_the_same_game_in_english_and_russian() -> None:
    layout = neutral(195, re_tricks=[5])
    place(layout, 5, "10S AD AS KD", winner=0)
    en = explained("en", layout=layout, ann=[(0, "re"), (1, "kontra")], bock=2)
    assert en[6] == "Fox caught (A♦) (trick 6) for Re: +10"
    assert en[-3:] == [
        "Ann, Cy won: 320 each.",
        "Ben, Dee lost: 0 each — under the house rules only the winners score.",
        "This game brings Böcke: an announcement was lost.",
    ]
    ru = explained("ru", layout=layout, ann=[(0, "re"), (1, "kontra")], bock=2)
    assert ru[2] == "Ре выигрывает: 195 из 240 очков (нужно 121)."
    assert ru[-4] == "Стоимость: 40 × 8 = 320"


def test_a_missed_announcement_loses() -> None:
    lines = explained("en", layout=neutral(140), ann=[(0, "re"), (0, "no90")])
    assert lines[2:5] == [
        "Re announced no 90 and did not make it.",
        "Kontra wins: a party that misses its own announcement loses.",
        "Game won by Kontra: 20",
    ]
    assert lines[-1] == "This game brings Böcke: an announcement was lost."


def test_house_solo() -> None:
    re = frozenset({0})
    layout = neutral(130, re=re)
    lines = explained(
        "en", layout=layout, re=re, game_type="queens", trumps=QUEENS, ann=[(1, "kontra")]
    )
    assert lines == [
        "Queens solo: Ann plays alone against Ben, Cy, Dee",
        "Augen: Re 130, Kontra 110 (tricks 6:4)",
        "The soloist wins with 130 Augen (121 needed).",
        "Queens solo won: 250",
        "Ben (Kontra) announced Kontra: ×2",
        "Value: 250 × 2 = 500",
        "Ann (soloist): 500.",
        "Ben, Cy, Dee: 0 each — in a solo under the house rules only the soloist scores.",
        "This game brings Böcke: an announcement was lost.",
    ]


def test_ddv_game() -> None:
    lines = explained("en", layout=neutral(160), rules="ddv", ann=[(0, "re"), (2, "no90")])
    assert lines == [
        "Re: Ann, Cy — Kontra: Ben, Dee",
        "Augen: Re 160, Kontra 80 (tricks 6:4)",
        "Re: 160 Augen, 151 needed.",
        "Re wins.",
        "Won: +1 for Re",
        "Kontra below 90 Augen (under 90): +1 for Re",
        "Announced Re (Ann, Cy): +2 for Re",
        "Announced no 90 (Ann, Cy): +1 for Re",
        "No extra points.",
        "Re +5 each, Kontra −5 each: under the DDV rules both parties score the value, the"
        " losers negative.",
    ]


def test_ddv_kontra_wins_against_the_old_ones() -> None:
    lines = explained("de", layout=neutral(100), rules="ddv", ann=[(1, "kontra")])
    assert lines[2:] == [
        "Kontra: 140 Augen, 121 nötig.",
        "Kontra gewinnt.",
        "Gewonnen: +1 für Kontra",
        "Ansage Kontra (Ben): +2 für Kontra",
        "Gegen die Alten für Kontra: +1",
        "Re je −4, Kontra je +4: nach den DDV-Regeln schreiben beide Parteien den Wert,"
        " die Verlierer negativ.",
    ]


def test_five_players_the_dealer_sits_out() -> None:
    seats = (0, 1, 2, 4)
    lines = explained("en", layout=neutral(130, seats=seats), seats=seats, table_size=5)
    assert lines[-1] == "Dee dealt and sat out: 0."
    assert "Ben, Eva lost: 0 each — under the house rules only the winners score." in lines


def test_a_thrown_in_deal() -> None:
    hands = hands_with({0: "KC KC KS KS KH"})
    match = DoppelkopfMatch({"kings_redeal": 5}, seats=NAMES[:4], seed=1, start=False)
    deal = match.start_deal(hands)
    while not deal.is_over:
        legal = match.legal_actions()
        redeal = [a for a in legal if str(a) == "redeal"]
        match.apply(redeal[0] if redeal else next(a for a in legal if str(a) == "pass"))
    assert deal.outcome == "redeal"
    assert render_lines("de", explain_deal(deal), NAMES) == [
        "Ann hatte zu viele Könige: die Karten werden eingemischt und neu gegeben.",
        "Ein eingemischtes Spiel zählt nicht; derselbe Geber gibt noch einmal.",
    ]
    assert explain_redeal("misdeal", None)[0]["key"] == "explain.redeal.misdeal"


def test_an_offence_counts_as_schwarz() -> None:
    for rules, unit in (("house", 10), ("ddv", 1)):
        f = facts(neutral(150), rules=rules, offenders=[1])
        score = score_game(f)
        lines = explain_game(f, score)
        text = render_lines("en", lines, NAMES)
        assert text[2] == (
            "Kontra broke a rule (Ben): that counts as schwarz and its extra points are void;"
            " Re wins."
        )
        stages = [line for line in text if line.startswith("Kontra counts as schwarz")]
        assert len(stages) == 4 and all(line.endswith(f"+{unit} for Re") for line in stages)
        assert _signed_by_party(lines, STAGE_KEYS) == {"re": 4 * unit, "kontra": 0}


# -- the items add up ------------------------------------------------------------------

STAGE_KEYS = {"explain.stage.below", "explain.stage.schwarz", "explain.stage.offence"}


def _signed_by_party(lines: list[dict[str, Any]], keys: set[str]) -> dict[str, int]:
    out = {"re": 0, "kontra": 0}
    for line in lines:
        if line["key"] in keys:
            party = line["params"]["party"]["t"].rsplit(".", 1)[-1]
            out[party] += line["params"]["points"]["signed"]
    return out


def _check(deal: Any) -> None:
    score = deal.score
    f = deal.facts()
    lines = explain_game(f, score)
    keys = [line["key"] for line in lines]
    params = {line["key"]: line["params"] for line in lines}
    if f.rules == "house":
        value = params["explain.value"]["value"]
        assert value == params["explain.value"]["base"] * params["explain.value"]["multiplier"]
        assert params["explain.value"]["base"] == score.base
        gets = "explain.soloist_gets" if f.solo else "explain.winners_get"
        winners = params[gets]["who"]["seats"]
        assert all(score.points[s] == value for s in winners)
        assert all(
            score.points[s] == 0
            for s in params[next(k for k in keys if "zero" in k)]["who"]["seats"]
        )
        factor = 1
        for line in lines:
            if line["key"] == "explain.announced":
                factor *= line["params"]["factor"]
        factor *= 2 if "explain.ouvert" in keys else 1
        factor *= params["explain.bock"]["m"] if "explain.bock" in keys else 1
        assert factor == score.multiplier
        if not f.solo:
            items = _signed_by_party(lines, STAGE_KEYS)
            extras = sum(
                line["params"]["points"]["signed"]
                for line in lines
                if line["key"] in ("explain.extra", "explain.extra_game")
            )
            # Announcements that add (announcement_value "add"): for the winner.
            added = sum(
                line["params"]["points"]["signed"]
                for line in lines
                if line["key"] == "explain.ddv.announced"
            )
            stages = {"no90", "no60", "no30", "schwarz"}
            adds = {"double": set(), "add": {"re", "kontra", *stages}, "re_doubles": stages}
            said = any(a.word in adds[f.value_rule] for a in f.announcements)
            assert (added == 0) == (not said)
            game = 10 if score.winner == "re" else 20
            assert game + sum(items.values()) + extras + added == score.base
        assert ("explain.bock_trigger" in keys) == score.bock_trigger
    else:
        items = _signed_by_party(
            lines,
            {
                "explain.ddv.won",
                *STAGE_KEYS,
                "explain.ddv.announced",
                "explain.ddv.against",
                "explain.extra",
                "explain.extra_game",
            },
        )
        re_value = (items["re"] - items["kontra"]) * (2 if "explain.ouvert" in keys else 1)
        for line in lines:  # announcements that double (announcement_value "double")
            if line["key"] == "explain.announced":
                re_value *= line["params"]["factor"]
        re_value *= params["explain.bock"]["m"] if "explain.bock" in keys else 1
        kontra_seat = next(s for s in f.seats if s not in f.re_party)
        assert score.points[kontra_seat] == -re_value
        assert ("explain.bock_trigger" in keys) == score.bock_trigger


@pytest.mark.parametrize(
    ("rules", "players", "seed", "value"),
    [
        ("house", 4, 7, "double"),
        ("house", 5, 8, "double"),
        ("ddv", 4, 9, "add"),
        ("house", 4, 10, "add"),
        ("ddv", 4, 11, "double"),
        ("house", 4, 12, "re_doubles"),
        ("ddv", 4, 13, "re_doubles"),
    ],
)
def test_the_explanation_adds_up_on_random_games(
    rules: str, players: int, seed: int, value: str
) -> None:
    rng = random.Random(seed)
    options = {"scoring": rules, "players": players, "announcement_value": value}
    match = DoppelkopfMatch(options, seats=NAMES[:players], seed=seed)
    scored = 0
    while scored < 25:
        deal = match.deal
        if deal.is_over:
            if deal.score is not None:
                _check(deal)
                scored += 1
            match.start_deal()
            continue
        legal = match.legal_actions()
        plain = [a for a in legal if str(a) == "pass"]
        match.apply(plain[0] if plain and rng.random() < 0.7 else rng.choice(legal))
    assert scored == 25


def test_100_miese_in_the_summary() -> None:
    from kartentisch.games.doppelkopf.record import summarize

    match = DoppelkopfMatch({"kings_redeal": 5}, seats=NAMES[:4], seed=2, start=False)
    for _ in range(3):  # the same dealer's deal is thrown in three times
        deal = match.start_deal(hands_with({0: "KC KC KS KS KH"}))
        while not deal.is_over:
            legal = match.legal_actions()
            redeal = [a for a in legal if str(a) == "redeal"]
            match.apply(redeal[0] if redeal else next(a for a in legal if str(a) == "pass"))
    summary = summarize(match)
    assert [d["outcome"] for d in summary["deals"]] == ["redeal"] * 3
    (miese,) = [row for row in summary["sheet"] if row["kind"] == "miese"]
    dealer = NAMES[miese["dealer"]]
    assert render_lines("de", miese["explain"], NAMES) == [
        f"{dealer}: 100 Miese — dreimal hintereinander vergeben."
    ]
    assert miese["points"][miese["dealer"]] == -100
