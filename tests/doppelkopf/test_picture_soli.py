"""The kings solo and the combined picture soli (Damen-Buben, Könige-Damen,
Könige-Buben, Köhler): their trumps, their rank among the soli, a won solo of
each, and the notation."""

from __future__ import annotations

import pytest

from kartentisch.cards import parse_cards
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions, parse_action
from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.games.doppelkopf.trumps import trick_order, trump_cards

from .helpers import declare, greedy, hands_with

EVERY = DoppelkopfOptions(soli=ALL_SOLI)

#: The ten highest trumps of each kind: a soloist who leads them wins every trick.
TOP = {
    "kings": "KC KC KS KS KH KH KD KD AC AC",
    "queens_jacks": "QC QC QS QS QH QH QD QD JC JC",
    "kings_queens": "KC KC KS KS KH KH KD KD QC QC",
    "kings_jacks": "KC KC KS KS KH KH KD KD JC JC",
    "koehler": "KC KC KS KS KH KH KD KD QC QC",
}


def test_their_trumps() -> None:
    assert trump_cards("kings") == tuple(parse_cards("KC KS KH KD"))
    assert trump_cards("queens_jacks") == tuple(parse_cards("QC QS QH QD JC JS JH JD"))
    assert trump_cards("kings_queens") == tuple(parse_cards("KC KS KH KD QC QS QH QD"))
    assert trump_cards("kings_jacks") == tuple(parse_cards("KC KS KH KD JC JS JH JD"))
    assert trump_cards("koehler") == tuple(parse_cards("KC KS KH KD QC QS QH QD JC JS JH JD"))
    # The plain suits keep the rest: A 10 (K Q J) (9).
    koehler = trick_order("koehler")
    assert koehler.winner(parse_cards("AH 10H JD 9H")) == 2
    assert koehler.winner(parse_cards("AH 10H AH 9H")) == 0
    assert trick_order("kings").winner(parse_cards("QH AH JH KS")) == 3
    # No Dulle in a picture solo: the ♥10 is a plain heart below the ace.
    assert trick_order("queens_jacks").winner(parse_cards("10H AH KH 9H")) == 1


@pytest.mark.parametrize("kind", sorted(TOP))
def test_each_is_won_with_its_top_trumps(kind: str) -> None:
    deal = DoppelkopfDeal(
        hands_with({0: TOP[kind]}, options=EVERY, seed=2), dealer=3, options=EVERY
    )
    declare(deal, {0: f"solo {kind}"})
    assert (deal.game_type, deal.soloist) == (kind, 0)
    greedy(deal)
    assert deal.score is not None and deal.score.winner == "re"
    assert deal.points() == (250, 0, 0, 0)  # a solo that is not the Trumpfsolo
    assert all(t.winner == 0 for t in deal.tricks)


def test_not_in_the_presets() -> None:
    for options in (DoppelkopfOptions(), DoppelkopfOptions.preset_named("ddv")):
        assert not {"kings", "queens_jacks", "kings_queens", "kings_jacks", "koehler"} & set(
            options.soli
        )
    deal = DoppelkopfDeal(hands_with({}, seed=4), dealer=3)
    for _ in range(4):
        deal.apply(Call("pass"))  # Scharfe round
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("solo", "koehler"))
    assert "koehler" in str(err.value)


def test_their_rank_among_the_soli() -> None:
    deal = DoppelkopfDeal(hands_with({}, options=EVERY, seed=4), dealer=3, options=EVERY)
    for _ in range(4):
        deal.apply(Call("pass"))
    deal.apply(Call("solo", "kings"))  # seat 0: below the jacks solo, above the suit soli
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("solo", "clubs"))
    assert err.value.rule == "solo_outranked"
    deal.apply(Call("solo", "kings_jacks"))  # seat 1: a combined solo outranks it
    with pytest.raises(IllegalActionError):
        deal.apply(Call("solo", "queens"))  # seat 2: the Damensolo ranks below
    deal.apply(Call("solo", "koehler"))  # seat 2: the highest below the Trumpfsolo
    deal.apply(Call("solo", "trump"))  # seat 3
    assert deal.phase == "play" and (deal.game_type, deal.soloist) == ("trump", 3)


def test_notation() -> None:
    assert parse_action("Solo Könige ouvert") == Call("solo", "kings", True)
    assert parse_action("solo damen-buben") == Call("solo", "queens_jacks")
    assert parse_action("solo koenige_buben") == Call("solo", "kings_jacks")
    assert parse_action("solo Köhler") == Call("solo", "koehler")
    assert str(Call("solo", "kings_queens")) == "solo kings_queens"
