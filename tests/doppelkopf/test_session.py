"""A session on one score sheet: dealer rotation, Böcke, redeals and the 100 Miese."""

from __future__ import annotations

import random

import pytest

from kartentisch.cards import Card
from kartentisch.games.doppelkopf import Call, DoppelkopfMatch, DoppelkopfOptions
from kartentisch.games.doppelkopf.record import replay, summarize

from .helpers import hands_with
from .scripted import act, pass_all, script
from .test_normal import BASE

KINGS = "KC KC KS KS KH AC AS 10C QD JD"


def play_base(match: DoppelkopfMatch, *announcements: str) -> tuple[int, int]:
    """Play BASE with the current dealer; return the two Re seats (the leader and across)."""
    dealer = match.next_dealer
    sc = script(BASE, dealer=dealer)
    deal = match.start_deal(sc.hands)
    pass_all(deal)
    lead = (dealer + 1) % 4
    act(deal, *(f"{(lead + int(a[0])) % 4}{a[1:]}" for a in announcements))
    for seat, card in sc.plays:
        match.apply(card, seat)
    return lead, (lead + 2) % 4


def kings_redeal(match: DoppelkopfMatch) -> None:
    dealer = match.next_dealer
    asked = (dealer + 1) % match.options.players
    deal = match.start_deal(hands_with({asked: KINGS}, seed=dealer, dealer=dealer))
    assert deal.to_move == asked
    match.apply(Call("redeal"))
    assert deal.outcome == "redeal"


def test_dealer_rotates_and_totals_add_up() -> None:
    match = DoppelkopfMatch(first_dealer=3, start=False)
    a, b = play_base(match)
    assert (a, b) == (0, 2)
    assert match.totals() == (30, 0, 30, 0)
    assert match.next_dealer == 0
    a, b = play_base(match)
    assert (a, b) == (1, 3)
    assert match.totals() == (30, 30, 30, 30)


def test_bock_chain_and_doppelbock() -> None:
    match = DoppelkopfMatch(first_dealer=3, start=False)
    play_base(match, "1:kontra")  # Kontra lost: 4 Bock games follow
    assert match.totals() == (60, 0, 60, 0)
    assert match.sheet.current_multiplier == 2 and match.sheet.pending_bocks == (4,)
    a, _ = play_base(match, "1:kontra")  # in Bock (×2) and a new trigger
    assert match.totals()[a] - 60 * (a in (0, 2)) == 30 * 2 * 2
    assert match.sheet.pending_bocks == (3, 4)
    assert match.sheet.current_multiplier == 4  # Doppelbock
    before = match.totals()
    a, _ = play_base(match)
    assert match.totals()[a] - before[a] == 30 * 4
    for _ in range(2):
        play_base(match)
    assert match.sheet.pending_bocks == (1,)
    before = match.totals()
    a, _ = play_base(match)
    assert match.totals()[a] - before[a] == 30 * 2
    assert match.sheet.current_multiplier == 1


def test_three_failed_deals_cost_100_and_keep_the_boecke() -> None:
    match = DoppelkopfMatch(first_dealer=3, start=False)
    play_base(match, "1:kontra")
    assert match.next_dealer == 0 and match.sheet.pending_bocks == (4,)
    for attempt in range(3):
        assert match.next_dealer == 0, attempt
        kings_redeal(match)
    assert match.next_dealer == 1
    assert match.totals() == (60 - 100, 0, 60, 0)
    assert match.sheet.rows[-1].kind == "miese"
    assert match.sheet.pending_bocks == (4,)  # carried over, not used up
    assert match.sheet.current_multiplier == 2
    # A failed deal in between resets the count.
    kings_redeal(match)
    play_base(match)
    assert match.next_dealer == 2


def test_refused_armut_counts_as_a_failed_deal() -> None:
    from .test_hochzeit_armut import ARMUT_UP

    match = DoppelkopfMatch(first_dealer=3, start=False)
    tricks, give, back = ARMUT_UP
    sc = script(tricks, armut=(1, 2, give, back))
    deal = match.start_deal(sc.hands)
    for _ in range(9):
        act(deal, "pass")
    act(deal, "armut", "pass", "pass")
    match.apply(Call("refuse"))
    assert match.sheet.failed_deals == 1 and match.next_dealer == 3


def test_misdeal_at_a_real_table() -> None:
    match = DoppelkopfMatch(first_dealer=0, start=False)
    match.misdeal()
    match.misdeal()
    match.misdeal()
    assert match.totals() == (-100, 0, 0, 0) and match.next_dealer == 1


def test_five_players_session() -> None:
    options = DoppelkopfOptions(players=5)
    match = DoppelkopfMatch(options, seed=3, first_dealer=4)
    deal = match.deal
    assert deal.dealer == 4 and deal.playing == (0, 1, 2, 3)
    while not deal.is_over:
        match.apply(deal.legal_actions()[0])
    assert match.totals()[4] == 0
    assert match.next_dealer in (0, 4)


def test_session_record_replays() -> None:
    match = DoppelkopfMatch(first_dealer=3, start=False)
    play_base(match, "1:kontra")
    for _ in range(3):
        kings_redeal(match)
    match.misdeal()
    play_base(match)
    record = match.to_record()
    again = replay(record)
    assert isinstance(again, DoppelkopfMatch)
    assert again.totals() == match.totals()
    summary = summarize(again)
    assert summary["points"] == list(match.totals())
    assert [d["outcome"] for d in summary["deals"]] == [
        "played",
        "redeal",
        "redeal",
        "redeal",
        "redeal",
        "played",
    ]
    assert summary["deals"][-1]["bock_multiplier"] == 2
    assert summary["pending_bocks"] == [3]
    assert Card("AC") in again.deals[0].initial_hands[0]


def test_seeded_sessions_repeat() -> None:
    def run(seed: int) -> tuple[int, ...]:
        match = DoppelkopfMatch(seed=seed)
        for _ in range(4):
            while not match.deal.is_over:
                match.apply(match.legal_actions()[-1])
            match.start_deal()
        return match.totals()

    assert run(9) == run(9)


def play_a_pflichtsolo(match: DoppelkopfMatch) -> int:
    """The first seat asked declares a Damensolo; everyone else passes; random cards."""
    rng = random.Random(4)
    deal = match.deal
    soloist: int | None = None
    while not deal.is_over:
        legal = match.legal_actions()
        seat = deal.to_move
        if soloist is None and Call("vorbehalt") in legal:
            soloist = seat
            match.apply(Call("vorbehalt"))
        elif seat == soloist and Call("solo", "queens") in legal:
            match.apply(Call("solo", "queens"))
        elif Call("pass") in legal:
            match.apply(Call("pass"))
        else:
            match.apply(rng.choice(deal.following_actions()))
    assert soloist is not None and deal.pflicht and deal.soloist == soloist
    return soloist


@pytest.mark.parametrize("count", [1, 2])
def test_pflichtsoli_per_player(count: int) -> None:
    options = DoppelkopfOptions.preset_named("ddv", pflichtsolo_count=count)
    match = DoppelkopfMatch(options, first_dealer=3, seed=2)
    soloist = play_a_pflichtsolo(match)
    assert (soloist in match.pflicht_due) == (count == 2)
    assert len(match.pflicht_due) == 4 - (count == 1)
    if count == 2:
        match.start_deal()
        again = play_a_pflichtsolo(match)
        assert again == soloist and soloist not in match.pflicht_due
