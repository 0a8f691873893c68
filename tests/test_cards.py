"""Cards, the card notation, names in three languages, decks and dealing."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cards import (
    CARDS,
    Card,
    Rank,
    Suit,
    deal_packets,
    doppelkopf_deck,
    format_cards,
    full_deck,
    parse_cards,
    piquet_deck,
    shuffled,
)
from kartentisch.errors import KartentischError, NotationError
from kartentisch.games.slobberhannes import SlobberhannesOptions

RANK_TEXT = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
SUIT_TEXT = {0: ("C", "♣"), 1: ("S", "♠"), 2: ("H", "♥"), 3: ("D", "♦")}


def _all_52() -> list[tuple[int, int]]:
    return [(rank, suit) for suit in range(4) for rank in range(2, 15)]


class TestNotation:
    @pytest.mark.parametrize(("rank", "suit"), _all_52())
    def test_every_card_round_trips_in_letters_and_symbols(self, rank: int, suit: int) -> None:
        letter, symbol = SUIT_TEXT[suit]
        card = Card.of(rank, suit)
        assert int(card) == suit * 13 + rank - 2
        assert card.rank == Rank(rank) and card.suit == Suit(suit)
        assert str(card) == RANK_TEXT[rank] + letter
        assert card.symbol == RANK_TEXT[rank] + symbol
        assert repr(card) == f"Card('{RANK_TEXT[rank]}{letter}')"
        # text → card → text, in every accepted spelling, is the same object
        for text in (str(card), card.symbol, str(card).lower(), f"  {card.symbol.lower()}\t"):
            assert Card(text) is card
            assert Card.parse(text) is card
        assert Card(int(card)) is card
        assert pickle.loads(pickle.dumps(card)) is card

    def test_there_are_52_distinct_cards(self) -> None:
        assert len(CARDS) == 52
        assert len({str(c) for c in CARDS}) == 52
        assert len({c.symbol for c in CARDS}) == 52
        assert [int(c) for c in CARDS] == list(range(52))

    @pytest.mark.parametrize("text", ["TD", "td", "tD", "T♦", "t♦", "10D", "10d", "10♦", " 10♦ "])
    def test_t_is_ten(self, text: str) -> None:
        assert Card(text) is Card.of(Rank.TEN, Suit.DIAMONDS)
        assert str(Card(text)) == "10D"

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("QC", "QC"),
            ("qc", "QC"),
            ("Qc", "QC"),
            ("q♣", "QC"),
            ("Q♣", "QC"),
            ("Q♧", "QC"),
            ("a♤", "AS"),
            ("k♡", "KH"),
            ("J♢", "JD"),
            ("7s", "7S"),
            ("2h", "2H"),
        ],
    )
    def test_letters_symbols_and_case(self, text: str, expected: str) -> None:
        assert str(Card(text)) == expected

    @pytest.mark.parametrize(
        "junk",
        ["", " ", "Q", "C", "QX", "XC", "1C", "11C", "0H", "QCC", "Q♣♣", "♣Q", "10", "KING"],
    )
    def test_junk_is_a_notation_error(self, junk: str) -> None:
        with pytest.raises(NotationError) as info:
            Card(junk)
        message = str(info.value)
        assert message.startswith(("cannot read card", "unknown suit", "unknown rank"))
        # a NotationError is a ValueError and a KartentischError
        assert isinstance(info.value, ValueError)
        assert isinstance(info.value, KartentischError)

    def test_error_messages_explain_the_notation(self) -> None:
        with pytest.raises(NotationError, match=r"write rank then suit, e\.g\. QC"):
            Card("Q")
        with pytest.raises(NotationError, match="unknown suit 'X': use C S H D"):
            Card("QX")
        with pytest.raises(NotationError, match=r"unknown rank '1': use A K Q J 10 \(or T\)"):
            Card("1C")

    @pytest.mark.parametrize("value", [52, -1, 100, 1.5, None, [1]])
    def test_bad_index_or_type(self, value: object) -> None:
        with pytest.raises(NotationError):
            Card(value)  # type: ignore[arg-type]

    def test_parse_rejects_non_text(self) -> None:
        with pytest.raises(NotationError, match="as text"):
            Card.parse(10)  # type: ignore[arg-type]

    @given(st.text(max_size=6))
    @settings(max_examples=200, deadline=None)
    def test_any_text_is_a_card_or_a_notation_error(self, text: str) -> None:
        try:
            card = Card.parse(text)
        except NotationError:
            return
        assert Card.parse(str(card)) is card
        assert Card.parse(card.symbol) is card

    def test_parse_and_format_several_cards(self) -> None:
        cards = parse_cards("QC 10h, as  T♦")
        assert [str(c) for c in cards] == ["QC", "10H", "AS", "10D"]
        assert parse_cards(["qc", "7♠"]) == [Card("QC"), Card("7S")]
        assert format_cards(cards) == "QC 10H AS 10D"
        assert format_cards(cards, symbols=True) == "Q♣ 10♥ A♠ 10♦"
        with pytest.raises(NotationError):
            parse_cards("QC ZZ")

    def test_suit_and_rank_parsing(self) -> None:
        assert Suit.parse("♥") is Suit.HEARTS
        assert Suit.parse("c") is Suit.CLUBS
        assert Rank.parse("t") is Rank.TEN
        assert Rank.parse(" q ") is Rank.QUEEN
        with pytest.raises(NotationError):
            Suit.parse("X")
        with pytest.raises(NotationError):
            Rank.parse("1")
        assert [s.letter for s in Suit] == ["C", "S", "H", "D"]
        assert [s.symbol for s in Suit] == ["♣", "♠", "♥", "♦"]


class TestNames:
    @pytest.mark.parametrize(
        ("card", "de", "en", "ru"),
        [
            ("QC", "Kreuz-Dame", "queen of clubs", "дама треф"),
            ("AS", "Pik-Ass", "ace of spades", "туз пик"),
            ("10H", "Herz-10", "ten of hearts", "десятка червей"),
            ("JD", "Karo-Bube", "jack of diamonds", "валет бубен"),
            ("KH", "Herz-König", "king of hearts", "король червей"),
            ("7C", "Kreuz-7", "seven of clubs", "семёрка треф"),
            ("9S", "Pik-9", "nine of spades", "девятка пик"),
            ("8D", "Karo-8", "eight of diamonds", "восьмёрка бубен"),
            ("2C", "Kreuz-2", "two of clubs", "двойка треф"),
        ],
    )
    def test_names(self, card: str, de: str, en: str, ru: str) -> None:
        c = Card(card)
        assert c.name("de") == de
        assert c.name("en") == en
        assert c.name("ru") == ru
        assert c.name() == en

    def test_every_card_has_a_distinct_name_in_each_language(self) -> None:
        for lang in ("de", "en", "ru"):
            assert len({c.name(lang) for c in CARDS}) == 52

    def test_unknown_language(self) -> None:
        with pytest.raises(ValueError, match="unknown language 'fr'"):
            Card("QC").name("fr")

    def test_suit_names(self) -> None:
        assert [s.name_in("de") for s in Suit] == ["Kreuz", "Pik", "Herz", "Karo"]
        assert [s.name_in("en") for s in Suit] == ["clubs", "spades", "hearts", "diamonds"]
        assert [s.name_in("ru") for s in Suit] == ["треф", "пик", "червей", "бубен"]


class TestDecks:
    def test_sizes(self) -> None:
        assert len(piquet_deck()) == 32
        assert len(doppelkopf_deck()) == 40
        assert len(doppelkopf_deck(nines=True)) == 48
        assert len(full_deck()) == 52

    def test_piquet_deck_contents(self) -> None:
        deck = piquet_deck()
        assert len(set(deck)) == 32
        assert {c.rank for c in deck} == {Rank(r) for r in range(7, 15)}
        assert deck[:8] == parse_cards("AC KC QC JC 10C 9C 8C 7C")
        assert set(full_deck()) == set(CARDS)

    def test_doppelkopf_decks_have_two_copies(self) -> None:
        deck = doppelkopf_deck()
        assert len(set(deck)) == 20
        assert all(deck.count(c) == 2 for c in set(deck))
        assert {c.rank for c in deck} == {Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK}
        nines = doppelkopf_deck(nines=True)
        assert nines.count(Card("9H")) == 2 and Card("9H") not in deck

    def test_piquet_deck_without(self) -> None:
        deck = piquet_deck(without=parse_cards("7C 7S"))
        assert len(deck) == 30
        assert Card("7C") not in deck and Card("7S") not in deck and Card("7H") in deck

    @pytest.mark.parametrize(
        ("players", "size", "removed", "hand"),
        [
            (3, 30, "7C 7S", 10),
            (4, 32, "", 8),
            (5, 30, "7C 7S", 6),
            (6, 30, "7C 7S", 5),
            (7, 28, "7C 7S 7H 7D", 4),
        ],
    )
    def test_slobberhannes_decks(self, players: int, size: int, removed: str, hand: int) -> None:
        options = SlobberhannesOptions(players=players)
        deck = options.deck()
        assert len(deck) == size
        assert len(set(deck)) == size
        assert set(piquet_deck()) - set(deck) == set(parse_cards(removed))
        assert options.hand_size == hand
        assert hand * players == size
        assert Card("QC") in deck

    def test_shuffled_is_a_seeded_permutation(self) -> None:
        deck = piquet_deck()
        a = shuffled(deck, random.Random(42))
        b = shuffled(deck, random.Random(42))
        assert a == b
        assert sorted(a) == sorted(deck)
        assert a != deck
        assert deck == piquet_deck()  # the input is not touched

    @settings(max_examples=300)
    @given(seed=st.integers(0, 2**64), size=st.integers(0, 130), draws=st.integers(0, 3))
    def test_shuffled_draws_as_random_shuffle(self, seed: int, size: int, draws: int) -> None:
        """The compiled shuffle makes the permutation ``Random.shuffle`` makes and
        leaves the generator where it leaves it (deals of recorded seeds stay)."""
        ours, theirs = random.Random(seed), random.Random(seed)
        for _ in range(draws):  # from any state, not only a fresh one
            ours.random(), theirs.random()
        items = list(range(size))
        expected = list(items)
        theirs.shuffle(expected)
        assert shuffled(items, ours) == expected
        assert ours.getstate() == theirs.getstate()
        assert items == list(range(size))

    def test_shuffled_with_another_generator_uses_its_shuffle(self) -> None:
        class Counting(random.Random):
            calls = 0

            def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
                Counting.calls += 1
                super().shuffle(x)

        rng = Counting(7)
        expected = piquet_deck()
        random.Random(7).shuffle(expected)
        assert shuffled(piquet_deck(), rng) == expected
        assert Counting.calls == 1

    @given(
        players=st.integers(1, 6),
        packets=st.lists(st.integers(1, 5), min_size=1, max_size=4),
        first=st.integers(0, 5),
    )
    def test_deal_packets_deals_in_rounds_from_the_top(
        self, players: int, packets: list[int], first: int
    ) -> None:
        """Every seat, in the order given, takes its packet from the top, round by round."""
        seats = [(first + i) % players for i in range(players)]
        deck = list(range(sum(packets) * players))
        hands = deal_packets(deck, seats, packets)  # type: ignore[arg-type]
        expected: dict[int, list[int]] = {s: [] for s in seats}
        top = iter(deck)
        for size in packets:
            for seat in seats:
                expected[seat] += [next(top) for _ in range(size)]
        assert hands == expected
        assert list(hands) == seats

    def test_deal_packets(self) -> None:
        deck = piquet_deck()
        hands = deal_packets(deck, [1, 2, 3, 0], (3, 2, 3))
        assert hands[1] == deck[0:3] + deck[12:14] + deck[20:23]
        assert hands[2] == deck[3:6] + deck[14:16] + deck[23:26]
        assert hands[0] == deck[9:12] + deck[18:20] + deck[29:32]
        with pytest.raises(ValueError, match="need 28 cards, the deck has 32"):
            deal_packets(deck, [0, 1, 2, 3], (3, 2, 2))
