"""The examples of the seed texts, reconstructed card for card.

Seed 004 narrates a whole Russian deal (the figure with the hands is missing,
but every card is named as it is played); seed 000/001 describe two tricks of
a deal between Anna, Ben, Carla and Dan.
"""

from __future__ import annotations

import json

from kartentisch.cards import Card, piquet_deck
from kartentisch.games.slobberhannes import SlobberhannesDeal, SlobberhannesOptions
from kartentisch.games.slobberhannes.deal import CardPlayed, PenaltyCharged, TrickWon
from kartentisch.games.slobberhannes.record import replay
from kartentisch.records import load_record

from .scripted import DATA, SEED001, SEED004, SEED004_TRICK_WINNERS, play

ALEKSEY, BORIS, VLADIMIR, GENNADY = range(4)


def _penalties(deal: SlobberhannesDeal) -> list[tuple[int, str, int | None, int]]:
    return [(p.seat, p.reason, p.trick, p.chips) for p in deal.penalties()]


class TestSeed004:
    def test_the_reconstructed_hands_are_a_deal(self) -> None:
        dealt = [c for hand in SEED004.hands for c in hand]
        assert sorted(dealt) == sorted(piquet_deck())
        assert [len(h) for h in SEED004.hands] == [8, 8, 8, 8]

    def test_every_card_named_in_the_narration_is_played_by_its_holder(self) -> None:
        # the narration, trick by trick: (seat, card) in play order
        narrated = [
            [(ALEKSEY, "8C"), (BORIS, "9C"), (VLADIMIR, "7C"), (GENNADY, "JC")],
            [(GENNADY, "10S"), (ALEKSEY, "KS"), (BORIS, "AS"), (VLADIMIR, "9S")],
            [(BORIS, "10H"), (VLADIMIR, "QH"), (GENNADY, "JH"), (ALEKSEY, "AH")],
            [(ALEKSEY, "10D"), (BORIS, "QD"), (VLADIMIR, "JD"), (GENNADY, "KD")],
            [(GENNADY, "7D"), (ALEKSEY, "QC"), (BORIS, "8D"), (VLADIMIR, "9D")],
            [(VLADIMIR, "10C"), (GENNADY, "AD"), (ALEKSEY, "AC"), (BORIS, "KC")],
            [(ALEKSEY, "9H"), (BORIS, "JS"), (VLADIMIR, "KH"), (GENNADY, "QS")],
            [(VLADIMIR, "8H"), (GENNADY, "8S"), (ALEKSEY, "7H"), (BORIS, "7S")],
        ]
        assert len(narrated) == 8  # all eight tricks are told
        deal = SlobberhannesDeal(SEED004.hands, dealer=GENNADY, options={"preset": "russian"})
        assert deal.to_move == ALEKSEY  # Геннадий deals, Алексей leads
        for trick in narrated:
            for seat, card in trick:
                assert deal.to_move == seat
                # the rules accept every card of the narration: everyone follows suit
                deal.check(Card(card))
                assert deal.following_actions() == deal.legal_actions()
                deal.apply(Card(card))
        assert deal.is_over
        assert [t.winner for t in deal.tricks] == list(SEED004_TRICK_WINNERS)
        assert [[str(c) for c in t.cards] for t in deal.tricks] == [
            [card for _, card in trick] for trick in narrated
        ]

    def test_narrated_voids(self) -> None:
        # "Геннадий вынужден положить свою единственную трефовую карту — Валета"
        gennady = SEED004.hands[GENNADY]
        assert [c for c in gennady if c.suit == 0] == [Card("JC")]
        # "Алексей вынужден положить ... Короля, т. к. у него это единственная карта в масти"
        assert [c for c in SEED004.hands[ALEKSEY] if c.suit == 1] == [Card("KS")]
        # "Владимир сносит единственную карту в пиках — девятку"
        assert [c for c in SEED004.hands[VLADIMIR] if c.suit == 1] == [Card("9S")]
        # "Геннадий кладет червового Валета, т. к. другой червовой карты у него не имеется"
        assert [c for c in gennady if c.suit == 2] == [Card("JH")]
        # Алексей keeps 7♥, his lowest card, for the last trick
        assert min(SEED004.hands[ALEKSEY], key=lambda c: c.rank) == Card("7H")

    def test_result(self) -> None:
        deal = SlobberhannesDeal(SEED004.hands, dealer=3, options={"preset": "russian"})
        play(deal, SEED004.actions)
        assert deal.is_over
        assert deal.points() == (0, 0, 2, 1)
        assert _penalties(deal) == [
            (GENNADY, "first_trick", 1, 1),
            (VLADIMIR, "queen_of_clubs", 5, 1),
            (VLADIMIR, "last_trick", 8, 1),
        ]
        won = [(e.trick, e.seat) for e in deal.events if isinstance(e, TrickWon)]
        assert won == [(i + 1, w) for i, w in enumerate(SEED004_TRICK_WINNERS)]
        # Алексей's Q♣ is a discard on a diamond lead, not a revoke
        queen = next(e for e in deal.events if isinstance(e, CardPlayed) and e.card == Card("QC"))
        assert (queen.seat, queen.trick, queen.revoke) == (ALEKSEY, 5, False)

    def test_same_result_with_the_standard_rules(self) -> None:
        # nobody takes all three, so the bonus makes no difference here
        deal = SlobberhannesDeal(SEED004.hands, dealer=3)
        play(deal, SEED004.actions)
        assert deal.points() == (0, 0, 2, 1)

    def test_the_stored_record(self) -> None:
        record = load_record(DATA / "seed004_russian.json")
        assert record == json.loads((DATA / "seed004_russian.json").read_text("utf-8"))
        assert record["options"] == {"preset": "russian"}
        assert record["seats"] == ["Алексей", "Борис", "Владимир", "Геннадий"]
        assert record["dealer"] == 3
        assert record["hands"] == [[str(c) for c in h] for h in SEED004.hands]
        assert record["actions"] == [str(c) for c in SEED004.actions]
        deal = replay(record)
        assert isinstance(deal, SlobberhannesDeal)
        assert deal.options == SlobberhannesOptions.from_dict({"preset": "russian"})
        assert deal.options.all_three_bonus is False
        assert deal.is_over
        assert deal.points() == (0, 0, 2, 1)
        assert [t.winner for t in deal.tricks] == list(SEED004_TRICK_WINNERS)
        assert deal.seat_names == ("Алексей", "Борис", "Владимир", "Геннадий")
        out = deal.to_record()
        for key in ("format", "game", "seats", "dealer", "hands", "actions"):
            assert out[key] == record[key]
        assert out["options"]["preset"] == "russian"


class TestSeed001:
    """Anna leads 8♦, Ben 7♦, Carla A♦, Dan 10♦; later Dan leads K♣ and Anna drops Q♣."""

    def test_example(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3, seats=["Anna", "Ben", "Carla", "Dan"])
        assert deal.to_move == 0
        events = []
        for card in SEED001.actions[:4]:
            events.extend(deal.apply(card))
        assert [(e.seat, str(e.card)) for e in events if isinstance(e, CardPlayed)] == [
            (0, "8D"),
            (1, "7D"),
            (2, "AD"),
            (3, "10D"),
        ]
        trick = [e for e in events if isinstance(e, TrickWon)]
        assert [(t.trick, t.seat) for t in trick] == [(1, 2)]
        first = [e for e in events if isinstance(e, PenaltyCharged)]
        assert [(p.seat, p.reason, p.chips, p.trick) for p in first] == [(2, "first_trick", 1, 1)]
        assert deal.points() == (0, 0, 1, 0)

        for card in SEED001.actions[4:8]:
            deal.apply(card)
        assert deal.to_move == 3  # Dan won trick 2 and leads
        # Anna's only club is Q♣: on K♣ she must play it (it follows, and loses)
        deal.apply(Card("KC"))
        assert deal.legal_actions() == [Card("QC")]
        queen = deal.apply(Card("QC"))
        assert queen == [CardPlayed(0, Card("QC"), 3, False)]
        deal.apply(Card("7C"))
        last = deal.apply(Card("8C"))
        assert [type(e).__name__ for e in last] == ["CardPlayed", "TrickWon", "PenaltyCharged"]
        assert last[1] == TrickWon(3, 3, (Card("KC"), Card("QC"), Card("7C"), Card("8C")))
        assert last[2] == PenaltyCharged(3, "queen_of_clubs", 1, 3)
        assert deal.points() == (0, 0, 1, 1)

        play(deal, SEED001.actions[12:])
        assert deal.is_over
        assert deal.points() == (1, 0, 1, 1)
        assert _penalties(deal) == [
            (2, "first_trick", 1, 1),
            (3, "queen_of_clubs", 3, 1),
            (0, "last_trick", 8, 1),
        ]

    def test_stored_record(self) -> None:
        deal = replay(load_record(DATA / "seed001_example.json"))
        assert isinstance(deal, SlobberhannesDeal)
        assert deal.points() == (1, 0, 1, 1)
        assert [t.winner for t in deal.tricks] == [2, 3, 3, 0, 0, 0, 0, 0]
