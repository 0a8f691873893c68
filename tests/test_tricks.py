"""The shared trick machinery: winners, following suit, revokes, TrickPlay."""

from __future__ import annotations

import pytest

from kartentisch.cards import Card, parse_cards
from kartentisch.errors import IllegalActionError
from kartentisch.tricks import TRUMP, TrickOrder, TrickPlay, suit_label

PLAIN = TrickOrder.plain("A K Q J 10 9 8 7")
# A Doppelkopf-like order: queens, jacks, then A♦ 10♦ K♦ are trumps.
DOKO_TRUMPS = parse_cards("10H QC QS QH QD JC JS JH JD AD 10D KD")
DOKO = TrickOrder.with_trumps(DOKO_TRUMPS, "A 10 K 9")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


class TestPlainOrder:
    @pytest.mark.parametrize(
        ("played", "winner"),
        [
            ("8D 7D AD 10D", 2),  # seed 001: Carla's ace wins
            ("KC QC 7C 8C", 0),  # the leader's king holds
            ("7H 8H 9H 10H", 3),
            ("JS QS KS AS", 3),
            ("AS KS QS JS", 0),
            ("7C AH AS AD", 0),  # off-suit aces never win
            ("9H AC 10H AD", 2),
            ("7D 8D 9D", 2),  # three players
            ("10C JC", 1),
        ],
    )
    def test_winner(self, played: str, winner: int) -> None:
        assert PLAIN.winner(cards(played)) == winner

    def test_ten_ranks_between_jack_and_nine(self) -> None:
        assert PLAIN.winner(cards("9S 10S")) == 1
        assert PLAIN.winner(cards("10S JS")) == 1

    def test_first_of_two_equal_cards_wins(self) -> None:
        assert PLAIN.winner(cards("7H AH AH 8H")) == 1
        assert DOKO.winner(cards("KS 10H 10H QC")) == 1  # the first Dulle beats the second
        assert DOKO.winner(cards("AC 9C AC KC")) == 0

    def test_beats(self) -> None:
        assert PLAIN.beats(Card("AH"), Card("KH"), led=2)
        assert not PLAIN.beats(Card("KH"), Card("AH"), led=2)
        assert not PLAIN.beats(Card("AS"), Card("7H"), led=2)  # off-suit
        assert not PLAIN.beats(Card("AH"), Card("AH"), led=2)  # equal: the first stays

    def test_unlisted_ranks_rank_below_listed_ones(self) -> None:
        assert PLAIN.winner(cards("2H 7H")) == 1


class TestTrumpOrder:
    def test_trumps_form_one_suit(self) -> None:
        for card in DOKO_TRUMPS:
            assert DOKO.is_trump(card)
            assert DOKO.suit_of[card] == TRUMP
        assert not DOKO.is_trump(Card("AH"))
        assert DOKO.suit_of[Card("AH")] == 2
        assert suit_label(TRUMP) == "trump"
        assert suit_label(0) == "♣"

    @pytest.mark.parametrize(
        ("played", "winner"),
        [
            ("AS 10S KD 9S", 2),  # the lowest trump beats the led suit
            ("AS QD JC 9S", 1),  # queens above jacks
            ("QD QC QS QH", 1),  # Q♣ highest queen
            ("10H QC JC AD", 0),  # the Dulle is the top trump
            ("KD AH AC AS", 0),  # a trump led: plain aces never win
            ("AH KH 9H 10H", 3),  # the Dulle is a trump, not a heart
            ("9H KH QH AH", 2),  # so is Q♥
            ("9H KH AH 9S", 2),  # among plain hearts the ace is highest
            ("AC KC 9S 9C", 0),
        ],
    )
    def test_winner(self, played: str, winner: int) -> None:
        assert DOKO.winner(cards(played)) == winner

    def test_trumps_in_list_order(self) -> None:
        powers = [DOKO.power[c] for c in DOKO_TRUMPS]
        assert powers == sorted(powers, reverse=True)
        assert min(powers) > max(DOKO.power[c] for c in cards("AC AS AH 10C"))

    def test_following_with_trumps(self) -> None:
        hand = cards("QH AS 9D")
        # hearts led: Q♥ is a trump, so the hand holds no heart
        assert DOKO.follows(hand, 2) == []
        assert DOKO.playable(hand, 2) == hand
        assert not DOKO.is_revoke(hand, 2, Card("AS"))
        # a trump led: Q♥ must be played; 9♦ is not listed as a trump, so it is a
        # plain diamond and does not follow
        assert DOKO.follows(hand, TRUMP) == [Card("QH")]
        assert DOKO.is_revoke(hand, TRUMP, Card("AS"))
        assert DOKO.is_revoke(hand, TRUMP, Card("9D"))
        assert not DOKO.is_revoke(hand, TRUMP, Card("QH"))
        # diamonds led (as a plain suit, 9♦): the trump diamonds do not follow
        assert DOKO.follows(cards("AD 10D KD AS"), 3) == []


class TestFollowing:
    def test_playable(self) -> None:
        hand = cards("AC 7C KH 9D")
        assert PLAIN.playable(hand, None) == hand
        assert PLAIN.playable(hand, 0) == cards("AC 7C")
        assert PLAIN.playable(hand, 1) == hand  # void in spades: anything
        assert PLAIN.follows(hand, 2) == cards("KH")

    def test_revoke(self) -> None:
        hand = cards("AC 7C KH 9D")
        assert PLAIN.is_revoke(hand, 0, Card("KH"))
        assert PLAIN.is_revoke(hand, 2, Card("AC"))
        assert not PLAIN.is_revoke(hand, 0, Card("7C"))
        assert not PLAIN.is_revoke(hand, 1, Card("KH"))  # void
        assert not PLAIN.is_revoke(hand, None, Card("9D"))  # leading


def _play() -> TrickPlay:
    hands = [cards("AC 7C KH"), cards("9C AS 8H"), cards("QH JH 10D"), cards("KC 8C 7D")]
    return TrickPlay(PLAIN, hands, [0, 1, 2, 3], leader=1)


def _snapshot(play: TrickPlay) -> tuple[object, ...]:
    return (
        [sorted(h) for h in play.hands],
        play.to_move,
        play.leader,
        list(play.trick.seats),
        list(play.trick.cards),
        [(t.leader, list(t.seats), list(t.cards), t.winner) for t in play.tricks],
    )


class TestTrickPlay:
    def test_turn_order_and_winner(self) -> None:
        play = _play()
        assert play.to_move == 1
        assert play.led_suit is None
        assert play.play(1, Card("9C")) is None
        assert play.led_suit == 0
        assert play.to_move == 2
        assert play.play(2, Card("QH")) is None
        assert play.play(3, Card("KC")) is None
        trick = play.play(0, Card("7C"))
        assert trick is not None
        assert trick.winner == 3
        assert trick.seats == [1, 2, 3, 0]
        assert trick.cards == cards("9C QH KC 7C")
        assert play.leader == 3 and play.to_move == 3
        assert play.led_suit is None
        assert len(play.tricks) == 1
        assert play.tricks[0].freeze().to_dict() == {
            "leader": 1,
            "seats": [1, 2, 3, 0],
            "cards": ["9C", "QH", "KC", "7C"],
            "winner": 3,
        }

    def test_playable_per_seat(self) -> None:
        play = _play()
        play.play(1, Card("8H"))
        assert play.playable(2) == cards("QH JH")
        assert play.playable(3) == cards("KC 8C 7D")  # void in hearts

    def test_error_codes(self) -> None:
        play = _play()
        with pytest.raises(IllegalActionError) as info:
            play.check(0, Card("AC"))
        assert info.value.rule == "not_your_turn"
        assert info.value.params == {"to_move": 1}
        assert info.value.seat == 0 and info.value.action == Card("AC")

        with pytest.raises(IllegalActionError) as info:
            play.check(1, Card("AC"))
        assert info.value.rule == "not_in_hand"
        assert str(info.value) == "A♣ is not in seat 1's hand"

        play.play(1, Card("AS"))
        play.play(2, Card("10D"))  # void in spades
        play.play(3, Card("7D"))
        trick = play.play(0, Card("KH"))
        assert trick is not None and trick.winner == 1
        play.play(1, Card("9C"))
        with pytest.raises(IllegalActionError) as info:
            play.check(3, Card("8C"))
        assert info.value.rule == "not_your_turn"
        play.check(2, Card("QH"))  # void in clubs: any card
        play.play(2, Card("QH"))
        with pytest.raises(IllegalActionError) as info:
            play.check(3, Card("7D"))
        assert info.value.rule == "not_in_hand"  # 7♦ went in the first trick
        play.check(3, Card("8C"))
        play.check(3, Card("KC"))

    def test_must_follow_suit_code_and_message(self) -> None:
        play = _play()
        play.play(1, Card("9C"))
        play.play(2, Card("QH"))
        with pytest.raises(IllegalActionError) as info:
            play.check(3, Card("7D"))
        err = info.value
        assert err.rule == "must_follow_suit"
        assert err.params == {"suit": 0}
        assert err.message == "must follow ♣: 7♦ does not follow and seat 3 holds ♣"
        # allowed when the game accepts revokes
        play.check(3, Card("7D"), must_follow=False)
        assert play.is_revoke(3, Card("7D"))
        assert not play.is_revoke(3, Card("8C"))

    def test_a_refused_action_changes_nothing(self) -> None:
        play = _play()
        play.play(1, Card("9C"))
        before = _snapshot(play)
        for seat, card in [(0, Card("AC")), (2, Card("AS")), (3, Card("7D")), (2, Card("QS"))]:
            with pytest.raises(IllegalActionError):
                play.check(seat, card)
            assert _snapshot(play) == before

    def test_hand_over(self) -> None:
        play = TrickPlay(PLAIN, [cards("AC"), cards("KC")], [0, 1], leader=0)
        play.play(0, Card("AC"))
        play.play(1, Card("KC"))
        assert play.to_move is None and play.is_complete
        with pytest.raises(IllegalActionError) as info:
            play.check(0, Card("AC"))
        assert info.value.rule == "hand_over"

    def test_leader_must_play(self) -> None:
        with pytest.raises(ValueError, match="leader 5"):
            TrickPlay(PLAIN, [cards("AC"), cards("KC")], [0, 1], leader=5)

    def test_seats_may_skip_one(self) -> None:
        # a dealer who sits out is simply not among the playing seats
        hands = [cards("AC"), [], cards("KC"), cards("7C")]
        play = TrickPlay(PLAIN, hands, [0, 2, 3], leader=2)
        play.play(2, Card("KC"))
        assert play.to_move == 3
        play.play(3, Card("7C"))
        trick = play.play(0, Card("AC"))
        assert trick is not None and trick.winner == 0 and play.is_complete

    def test_unplay_restores_the_state(self) -> None:
        play = _play()
        start = _snapshot(play)
        for seat, card in [(1, "9C"), (2, "QH"), (3, "KC"), (0, "7C"), (3, "8C")]:
            play.play(seat, Card(card))
        middle = _snapshot(play)
        assert play.unplay() == Card("8C")
        play.play(3, Card("8C"))
        assert _snapshot(play) == middle
        for _ in range(5):
            play.unplay()
        assert _snapshot(play) == start
        with pytest.raises(ValueError, match="no card has been played"):
            play.unplay()

    def test_copy_is_independent(self) -> None:
        play = _play()
        play.play(1, Card("9C"))
        twin = play.copy()
        twin.play(2, Card("QH"))
        assert play.to_move == 2 and play.trick.cards == cards("9C")
        assert Card("QH") in play.hands[2]

    def test_unplay_on_a_copy_leaves_the_original_alone(self) -> None:
        play = _play()
        for seat, card in [(1, "9C"), (2, "QH"), (3, "KC"), (0, "7C")]:
            play.play(seat, Card(card))
        before = _snapshot(play)
        twin = play.copy()
        twin.unplay()
        assert _snapshot(play) == before
