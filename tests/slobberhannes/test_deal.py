"""One deal of Slobberhannes: options, dealing, penalties, the bonus, revokes."""

from __future__ import annotations

import random

import pytest

from kartentisch.cards import Card, deal_packets, parse_cards, piquet_deck, shuffled
from kartentisch.errors import DealError, IllegalActionError, OptionError
from kartentisch.games.slobberhannes import (
    PRESETS,
    QUEEN_OF_CLUBS,
    SlobberhannesDeal,
    SlobberhannesOptions,
)
from kartentisch.games.slobberhannes.deal import (
    CardPlayed,
    DealEnded,
    DealStarted,
    PenaltyCharged,
    TrickWon,
)
from kartentisch.games.slobberhannes.record import replay
from kartentisch.records import ReplayError

from .scripted import (
    ALL_THREE,
    QUEEN_FIRST_AND_LAST,
    QUEEN_FIRST_ONLY,
    SCRIPTS,
    SEED001,
    SEED001_REVOKES,
    Script,
    play,
)

PLAYERS = {3: (30, 10, (3, 2, 3, 2)), 4: (32, 8, (3, 2, 3)), 5: (30, 6, (3, 3))}
PLAYERS.update({6: (30, 5, (3, 2)), 7: (28, 4, (2, 2))})


def penalties(deal: SlobberhannesDeal) -> list[tuple[int, str, int | None]]:
    return [(p.seat, p.reason, p.trick) for p in deal.penalties()]


def state(deal: SlobberhannesDeal) -> tuple[object, ...]:
    return (
        list(deal.actions),
        [e.to_dict() for e in deal.events],
        [deal.hand(s) for s in range(deal.num_seats)],
        deal.to_move,
        deal.legal_actions(),
        deal.points(),
        deal.tricks,
        deal.leader,
    )


def lowest_legal(deal: SlobberhannesDeal) -> Card:
    return min(deal.legal_actions(), key=lambda c: (c.rank, c.suit))


class TestOptions:
    def test_defaults(self) -> None:
        options = SlobberhannesOptions()
        assert options.players == 4
        assert options.revokes == "forbidden"
        assert options.all_three_bonus is True
        assert options.target == 10
        assert options.ending == "first_to_target"
        assert options.partnership is False
        assert options.first_dealer == "random"
        assert options.cut is False
        assert options.teams() == ((0,), (1,), (2,), (3,))
        assert options.to_dict() == {"players": 4}

    def test_russian_preset(self) -> None:
        russian = SlobberhannesOptions.from_dict({"preset": "russian"})
        assert russian.preset == "russian"
        assert russian.players == 4
        assert russian.all_three_bonus is False
        assert russian.target == 5
        assert russian.ending == "fewest_wins"
        assert russian.first_dealer == "draw"
        assert russian.cut is True
        assert russian.to_dict() == {"preset": "russian", "players": 4}
        override = SlobberhannesOptions.from_dict({"preset": "russian", "target": 7})
        assert override.target == 7 and override.ending == "fewest_wins"
        assert override.to_dict() == {"preset": "russian", "target": 7, "players": 4}
        assert set(PRESETS) >= {"standard", "russian"}

    def test_round_trip_through_dict(self) -> None:
        for options in (
            SlobberhannesOptions(players=6, revokes="penalty"),
            SlobberhannesOptions.from_dict({"preset": "russian", "partnership": True}),
            SlobberhannesOptions(target=12, scoring="sheet", all_three_bonus=False),
        ):
            assert SlobberhannesOptions.from_dict(options.to_dict()) == options

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ({"players": 2}, "players must be a whole number from 3 to 7"),
            ({"players": 8}, "players must be"),
            ({"players": "4"}, "players must be"),
            ({"players": True}, "players must be"),
            ({"revokes": "allowed"}, "option revokes must be one of forbidden, penalty"),
            ({"ending": "never"}, "option ending must be one of"),
            ({"target": 0}, "target must be a whole number from 1 to 100"),
            ({"target": 101}, "target must be a whole number from 1 to 100"),
            ({"all_three_bonus": 1}, "option all_three_bonus must be true or false"),
            ({"preset": "french"}, "unknown preset 'french'"),
            ({"jokers": True}, "unknown Slobberhannes option 'jokers'"),
            ({"partnership": True, "players": 5}, "partnership option is played by 4 players"),
        ],
    )
    def test_bad_options(self, data: dict[str, object], message: str) -> None:
        with pytest.raises(OptionError, match=message):
            SlobberhannesOptions.from_dict(data)

    def test_options_must_be_a_mapping(self) -> None:
        with pytest.raises(OptionError, match="options must be a JSON object"):
            SlobberhannesOptions.from_dict(["russian"])  # type: ignore[arg-type]

    @pytest.mark.parametrize("data", [[], "", 0])
    def test_falsy_non_mappings_are_refused(self, data: object) -> None:
        with pytest.raises(OptionError):
            SlobberhannesOptions.from_dict(data)  # type: ignore[arg-type]

    @pytest.mark.parametrize("players", [3, 5, 6, 7])
    def test_partnership_needs_four(self, players: int) -> None:
        with pytest.raises(OptionError):
            SlobberhannesOptions(players=players, partnership=True)
        assert SlobberhannesOptions(partnership=True).teams() == ((0, 2), (1, 3))


class TestDealing:
    @pytest.mark.parametrize("players", sorted(PLAYERS))
    def test_from_seed(self, players: int) -> None:
        size, hand, packets = PLAYERS[players]
        options = SlobberhannesOptions(players=players)
        assert options.packets == packets
        assert sum(packets) == hand
        dealer = players - 2
        deal = SlobberhannesDeal.from_seed(11, dealer=dealer, options=options)
        # the same shuffle, dealt by hand from the dealer's left in the packets
        deck = shuffled(options.deck(), random.Random(11))
        order = [(dealer + 1 + i) % players for i in range(players)]
        pos = 0
        expected: dict[int, list[Card]] = {s: [] for s in range(players)}
        for packet in packets:
            for seat in order:
                expected[seat].extend(deck[pos : pos + packet])
                pos += packet
        assert pos == size
        assert [list(h) for h in deal.initial_hands] == [expected[s] for s in range(players)]
        assert sorted(c for h in deal.initial_hands for c in h) == sorted(options.deck())
        assert deal.to_move == (dealer + 1) % players
        assert len(deal.legal_actions()) == hand
        started = deal.events[0]
        assert isinstance(started, DealStarted)
        assert started == DealStarted(dealer, (dealer + 1) % players, (hand,) * players, packets)

    def test_cut(self) -> None:
        options = SlobberhannesOptions()
        deck = shuffled(options.deck(), random.Random(3))
        cut = deck[5:] + deck[:5]
        by_seat = deal_packets(cut, [1, 2, 3, 0], (3, 2, 3))
        deal = SlobberhannesDeal.from_seed(3, dealer=0, cut=5)
        assert [list(h) for h in deal.initial_hands] == [by_seat[s] for s in range(4)]
        with pytest.raises(DealError, match="a cut must leave cards in both packets"):
            SlobberhannesDeal.from_seed(3, dealer=0, cut=32)

    def test_seeded_deals_repeat(self) -> None:
        a = SlobberhannesDeal.from_seed(99, dealer=1)
        b = SlobberhannesDeal.from_seed(99, dealer=1)
        c = SlobberhannesDeal.from_seed(100, dealer=1)
        assert a.initial_hands == b.initial_hands != c.initial_hands

    @pytest.mark.parametrize("players", sorted(PLAYERS))
    def test_full_deal(self, players: int) -> None:
        size, hand, _ = PLAYERS[players]
        for seed in range(5):
            dealer = seed % players
            deal = SlobberhannesDeal.from_seed(seed, dealer=dealer, options={"players": players})
            assert deal.num_seats == players
            while not deal.is_over:
                deal.apply(lowest_legal(deal))
            assert len(deal.actions) == size
            assert len(deal.tricks) == hand
            assert all(len(t.cards) == players for t in deal.tricks)
            assert deal.tricks[0].leader == (dealer + 1) % players
            first = deal.tricks[0].winner
            last = deal.tricks[-1].winner
            number = next(i for i, t in enumerate(deal.tricks, 1) if QUEEN_OF_CLUBS in t.cards)
            queen = deal.tricks[number - 1].winner
            expected = [
                (first, "first_trick", 1),
                (queen, "queen_of_clubs", number),
                (last, "last_trick", hand),
            ]
            if first == queen == last:
                expected.append((last, "all_three", hand))
            assert penalties(deal) == expected
            assert sum(deal.points()) == len(expected)
            assert isinstance(deal.events[-1], DealEnded)
            assert deal.events[-1] == DealEnded(deal.points())


class TestValidation:
    def test_wrong_number_of_hands(self) -> None:
        with pytest.raises(DealError, match="a 4-player deal needs 4 hands"):
            SlobberhannesDeal(SEED001.hands[:3], dealer=3)

    def test_wrong_hand_size(self) -> None:
        hands = [list(h) for h in SEED001.hands]
        hands[1] = hands[1][:7]
        with pytest.raises(DealError, match="seat 1 holds 7 cards; with 4 players each holds 8"):
            SlobberhannesDeal(hands, dealer=3)

    def test_duplicate_card(self) -> None:
        hands = [list(h) for h in SEED001.hands]
        hands[2][0] = Card("QC")  # Anna holds Q♣ too
        with pytest.raises(DealError, match="Q♣ is dealt twice"):
            SlobberhannesDeal(hands, dealer=3)

    def test_card_outside_the_deck(self) -> None:
        hands = [list(h) for h in SEED001.hands]
        hands[0][0] = Card("6C")
        with pytest.raises(DealError, match="6♣ is not in the 32-card deck for 4 players"):
            SlobberhannesDeal(hands, dealer=3)

    def test_removed_seven(self) -> None:
        deck = piquet_deck()  # 32 cards, with 7♣ 7♠, dealt to 3 players as 10 + 10 + 10 + 2
        hands = [deck[0:10], deck[10:20], deck[20:30]]
        with pytest.raises(DealError, match=r"7♣ is not in the 30-card deck for 3 players"):
            SlobberhannesDeal(hands, dealer=0, options={"players": 3})

    def test_bad_notation_in_a_hand(self) -> None:
        hands = [[str(c) for c in h] for h in SEED001.hands]
        hands[3][2] = "ZZ"
        with pytest.raises(DealError, match="hand of seat 3"):
            SlobberhannesDeal(hands, dealer=3)

    def test_hands_as_text(self) -> None:
        hands = [[c.symbol.lower() for c in h] for h in SEED001.hands]
        deal = SlobberhannesDeal(hands, dealer=3)
        assert deal.initial_hands == SEED001.hands

    @pytest.mark.parametrize("dealer", [-1, 4, True, "3", None])
    def test_bad_dealer(self, dealer: object) -> None:
        with pytest.raises(DealError, match="dealer must be a seat from 0 to 3"):
            SlobberhannesDeal(SEED001.hands, dealer=dealer)  # type: ignore[arg-type]

    def test_seat_names(self) -> None:
        with pytest.raises(DealError, match="3 seat names given for 4 players"):
            SlobberhannesDeal(SEED001.hands, dealer=3, seats=["a", "b", "c"])


class TestPenalties:
    @pytest.mark.parametrize("script", SCRIPTS[:5], ids=lambda s: s.name)
    @pytest.mark.parametrize("shift", range(4))
    def test_scripts_at_every_seat(self, script: Script, shift: int) -> None:
        deal = SlobberhannesDeal(script.rotated(shift), dealer=script.dealer_for(shift))
        play(deal, script.actions)
        assert deal.is_over
        assert deal.points() == script.points_rotated(shift)
        assert penalties(deal) == [((s + shift) % 4, r, t) for s, r, t in script.penalties]

    def test_all_three_bonus(self) -> None:
        deal = SlobberhannesDeal(ALL_THREE.hands, dealer=3)
        play(deal, ALL_THREE.actions)
        assert deal.points() == (4, 0, 0, 0)
        assert penalties(deal) == [
            (0, "first_trick", 1),
            (0, "queen_of_clubs", 6),
            (0, "last_trick", 8),
            (0, "all_three", 8),
        ]
        assert all(p.chips == 1 for p in deal.penalties())

    def test_queen_in_the_first_trick_costs_two(self) -> None:
        deal = SlobberhannesDeal(QUEEN_FIRST_ONLY.hands, dealer=3)
        events = []
        for card in QUEEN_FIRST_ONLY.actions[:4]:
            events = deal.apply(card)
        assert events[1:] == [
            TrickWon(1, 1, tuple(parse_cards("QC AC 7H 7S"))),
            PenaltyCharged(1, "first_trick", 1, 1),
            PenaltyCharged(1, "queen_of_clubs", 1, 1),
        ]
        assert deal.points() == (0, 2, 0, 0)
        play(deal, QUEEN_FIRST_ONLY.actions[4:])
        assert deal.points() == (0, 2, 0, 1)  # no bonus: seat 3 took the last trick

    def test_queen_in_the_first_trick_and_the_last_trick_is_four(self) -> None:
        deal = SlobberhannesDeal(QUEEN_FIRST_AND_LAST.hands, dealer=3)
        play(deal, QUEEN_FIRST_AND_LAST.actions)
        assert deal.points() == (0, 4, 0, 0)
        assert penalties(deal)[-1] == (1, "all_three", 8)

    @pytest.mark.parametrize("script", [ALL_THREE, QUEEN_FIRST_AND_LAST], ids=lambda s: s.name)
    def test_no_bonus_without_the_option(self, script: Script) -> None:
        for options in ({"preset": "russian"}, {"all_three_bonus": False}):
            deal = SlobberhannesDeal(script.hands, dealer=3, options=options)
            play(deal, script.actions)
            assert sum(deal.points()) == 3
            assert "all_three" not in [p.reason for p in deal.penalties()]

    def test_penalties_are_paid_when_they_happen(self) -> None:
        deal = SlobberhannesDeal(ALL_THREE.hands, dealer=3)
        seen = []
        for card in ALL_THREE.actions:
            deal.apply(card)
            seen.append(sum(deal.points()))
        # after trick 1: 1; after the Q♣ trick (6): 2; at the end: 4
        assert seen[3] == 1 and seen[19] == 1 and seen[23] == 2 and seen[27] == 2
        assert seen[31] == 4

    def test_events_of_the_last_trick(self) -> None:
        deal = SlobberhannesDeal(ALL_THREE.hands, dealer=3)
        play(deal, ALL_THREE.actions[:-1])
        last = deal.apply(ALL_THREE.actions[-1])
        assert [e.type for e in last] == [
            "card_played",
            "trick_won",
            "penalty",
            "penalty",
            "deal_ended",
        ]
        assert last[-1] == DealEnded((4, 0, 0, 0))
        assert deal.is_over and deal.to_move is None and deal.legal_actions() == []
        assert deal.following_actions() == []


class TestRefusals:
    def test_error_codes(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        deal.apply(Card("8D"))
        cases = [
            (Card("7D"), 2, "not_your_turn"),
            (Card("AD"), None, "not_in_hand"),
            (Card("9H"), None, "must_follow_suit"),
            (Card("9H"), 1, "must_follow_suit"),
            (Card("2C"), None, "not_in_hand"),
        ]
        for card, seat, rule in cases:
            with pytest.raises(IllegalActionError) as info:
                deal.check(card, seat)
            assert info.value.rule == rule
            assert not deal.can(card, seat)
        deal.check(Card("7D"))
        deal.check(Card("QD"), 1)
        assert deal.legal_actions() == parse_cards("QD 7D")

    def test_not_a_card(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        for action in ("8D", 49, None):
            with pytest.raises(IllegalActionError) as info:
                deal.apply(action)  # type: ignore[arg-type]
            assert info.value.rule == "unknown_action"
        assert deal.actions == []

    def test_deal_over(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        play(deal, SEED001.actions)
        with pytest.raises(IllegalActionError) as info:
            deal.apply(Card("AS"))
        assert info.value.rule == "deal_over"

    def test_a_refused_action_changes_nothing(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        play(deal, SEED001.actions[:5])  # Carla has led 7♥
        before = state(deal)
        for card, seat in [
            (Card("8H"), None),  # Anna's card, but Dan is to play
            (Card("7D"), 3),  # not in Dan's hand
            (Card("10D"), None),  # Dan holds A♥ 10♥: a revoke
            (Card("8H"), 0),  # out of turn
        ]:
            with pytest.raises(IllegalActionError):
                deal.apply(card, seat)
            assert state(deal) == before

    def test_refused_action_after_legal_actions_were_listed(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        deal.apply(Card("8D"))
        legal = deal.legal_actions()  # fills the engine's cache
        before = state(deal)
        with pytest.raises(IllegalActionError) as info:
            deal.apply(legal[0], seat=2)  # Ben's card from Carla's seat
        assert info.value.rule == "not_your_turn"
        assert state(deal) == before

    def test_a_plain_int_is_refused_even_after_legal_actions(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        legal = deal.legal_actions()
        with pytest.raises(IllegalActionError) as info:
            deal.apply(int(legal[0]))  # type: ignore[arg-type]
        assert info.value.rule == "unknown_action"
        assert deal.actions == []


class TestRevokes:
    def test_refused_by_default(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3)
        deal.apply(Card("8D"))
        before = state(deal)
        with pytest.raises(IllegalActionError) as info:
            deal.apply(Card("9H"))
        err = info.value
        assert err.rule == "must_follow_suit"
        assert err.seat == 1 and err.action == Card("9H")
        assert err.params == {"suit": 3}
        assert str(err) == "must follow ♦: 9♥ does not follow and seat 1 holds ♦"
        assert state(deal) == before
        assert Card("9H") not in deal.legal_actions()

    def test_accepted_and_charged_with_the_penalty_option(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3, options={"revokes": "penalty"})
        deal.apply(Card("8D"))
        # every card is legal now; only 7♦ Q♦ follow
        assert sorted(deal.legal_actions()) == sorted(SEED001.hands[1])
        assert deal.following_actions() == parse_cards("QD 7D")
        assert deal.apply(Card("9H")) == [CardPlayed(1, Card("9H"), 1, True)]
        assert deal.points() == (0, 0, 0, 0)  # charged only at the end
        play(deal, SEED001_REVOKES.actions[2:])
        assert deal.is_over
        revokes = [e for e in deal.events if isinstance(e, CardPlayed) and e.revoke]
        assert [(e.seat, str(e.card), e.trick) for e in revokes] == [(1, "9H", 1), (1, "7D", 2)]
        assert penalties(deal) == list(SEED001_REVOKES.penalties)
        assert deal.points() == (1, 2, 1, 1)
        # the revoke chips come after the last-trick penalty, before the deal ends
        types = [(e.type, getattr(e, "reason", None)) for e in deal.events[-4:]]
        assert types == [
            ("penalty", "last_trick"),
            ("penalty", "revoke"),
            ("penalty", "revoke"),
            ("deal_ended", None),
        ]

    def test_revokes_are_charged_after_the_bonus(self) -> None:
        # ALL_THREE with 7♣ and 7♠ swapped: seat 1 revokes twice, seat 0 still takes all
        hands = [list(h) for h in ALL_THREE.hands]
        hands[0][-1], hands[1][-1] = Card("7S"), Card("7C")
        deal = SlobberhannesDeal(hands, dealer=3, options={"revokes": "penalty"})
        actions = parse_cards("8C 8S 7H 7D  7S 7C 8H 8D") + list(ALL_THREE.actions[8:])
        play(deal, actions)
        assert deal.is_over
        revokes = [(e.seat, str(e.card)) for e in deal.events if getattr(e, "revoke", False)]
        assert revokes == [(1, "8S"), (1, "7C")]
        assert penalties(deal) == [
            (0, "first_trick", 1),
            (0, "queen_of_clubs", 6),
            (0, "last_trick", 8),
            (0, "all_three", 8),
            (1, "revoke", None),
            (1, "revoke", None),
        ]
        assert deal.points() == (4, 2, 0, 0)

    def test_record_replays_only_with_the_option(self) -> None:
        deal = SlobberhannesDeal(SEED001.hands, dealer=3, options={"revokes": "penalty"})
        play(deal, SEED001_REVOKES.actions)
        record = deal.to_record()
        assert record["options"] == {"revokes": "penalty", "players": 4}
        again = replay(record)
        assert isinstance(again, SlobberhannesDeal)
        assert again.points() == (1, 2, 1, 1)
        assert [e.to_dict() for e in again.events] == [e.to_dict() for e in deal.events]
        record["options"] = {}
        with pytest.raises(ReplayError) as info:
            replay(record)
        assert info.value.rule == "must_follow_suit"
        assert info.value.position == 2 and info.value.seat == 1 and info.value.action == "9H"
        assert str(info.value) == (
            "action 2: seat 1 9H: must follow ♦: 9♥ does not follow and seat 1 holds ♦ "
            "[must_follow_suit]"
        )
