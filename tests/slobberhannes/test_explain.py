"""A Slobberhannes deal's penalties explained, by trick and card, in three languages."""

from __future__ import annotations

from kartentisch.explain import render_lines
from kartentisch.games.slobberhannes import SlobberhannesDeal
from kartentisch.games.slobberhannes.explain import explain_deal

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def played(hands: list[str], dealer: int = 3) -> SlobberhannesDeal:
    deal = SlobberhannesDeal([h.split() for h in hands], dealer=dealer, seats=NAMES)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal


def test_penalties_by_trick_and_card() -> None:
    # Ann holds the aces and kings: the first trick (with the queen of clubs) and the last.
    deal = played(
        [
            "AC AS AH AD KS KH KD 7C",
            "QC 8C 9C 10C JC 7S 8S 9S",
            "10S JS QS 7H 8H 9H 10H JH",
            "QH KC 7D 8D 9D 10D JD QD",
        ],
        dealer=3,
    )
    lines = explain_deal(deal)
    penalties = [(p.seat, p.reason, p.trick, p.chips) for p in deal.penalties()]
    assert [line["key"] for line in lines[: len(penalties)]] == [
        f"explain.sh.{reason}" for _, reason, _, _ in penalties
    ]
    text = render_lines("de", lines, NAMES)
    assert text == [
        "Ann hat den ersten Stich: 1",
        "Ann hat die Kreuz-Dame bekommen (Stich 1): 1",
        "Ann hat den letzten Stich: 1",
        "Ann hat alle drei (erster Stich, Kreuz-Dame, letzter Stich) und zahlt extra: 1",
        "Ann: 4 Strafpunkte in diesem Spiel.",
        "Ben: keine Strafpunkte in diesem Spiel.",
        "Cy: keine Strafpunkte in diesem Spiel.",
        "Dee: keine Strafpunkte in diesem Spiel.",
    ]
    for (seat, reason, trick, chips), line in zip(penalties, text, strict=False):
        assert line.startswith(NAMES[seat]) or NAMES[seat] in line
        assert line.endswith(str(chips))
        if reason == "queen_of_clubs":
            assert f"Kreuz-Dame bekommen (Stich {trick})" in line
    # then each seat's sum of the deal, with the plural of the language
    sums = text[len(penalties) :]
    assert len(sums) == 4
    for seat, points in enumerate(deal.points()):
        expected = (
            f"{NAMES[seat]}: keine Strafpunkte in diesem Spiel."
            if points == 0
            else f"{NAMES[seat]}: {points} Strafpunkt{'e' if points != 1 else ''} in diesem Spiel."
        )
        assert sums[seat] == expected


def test_exact_lines_of_a_deal() -> None:
    deal = played(
        [
            "AC AS AH AD KS KH KD 7C",
            "QC 8C 9C 10C JC 7S 8S 9S",
            "10S JS QS 7H 8H 9H 10H JH",
            "QH KC 7D 8D 9D 10D JD QD",
        ],
        dealer=3,
    )
    got = render_lines("en", explain_deal(deal), NAMES)
    want = []
    for p in deal.penalties():
        who = NAMES[p.seat]
        want.append(
            {
                "first_trick": f"{who} took the first trick: {p.chips}",
                "queen_of_clubs": f"{who} took the queen of clubs (trick {p.trick}): {p.chips}",
                "last_trick": f"{who} took the last trick: {p.chips}",
                "all_three": f"{who} took all three (first trick, queen of clubs, last trick)"
                f" and pays extra: {p.chips}",
                "revoke": f"{who} did not follow suit (trick {p.trick}): {p.chips}",
            }[p.reason]
        )
    assert got[: len(want)] == want
    assert len(want) >= 3  # first trick, queen of clubs and last trick at least
    ru = render_lines("ru", explain_deal(deal), NAMES)
    assert any("дама треф" in line for line in ru)
