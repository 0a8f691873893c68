"""Matches: dealer rotation, the end of the match, settlement, presets, partners."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import pytest

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.games.slobberhannes import SlobberhannesMatch, SlobberhannesOptions
from kartentisch.games.slobberhannes.deal import PenaltyCharged
from kartentisch.games.slobberhannes.match import DrawForLead, MatchEnded

from .scripted import (
    ALL_THREE,
    FIRST_TO_TEN,
    FIRST_TO_TEN_TOTALS,
    QUEEN_FIRST_ONLY,
    REVOKE_LAST,
    REVOKE_LAST_TOTALS,
    SEED001,
    SEED004,
    Script,
    match_deals,
)


def scripted_match(
    scripts: tuple[Script, ...] | list[Script], options: dict[str, object] | None = None
) -> tuple[SlobberhannesMatch, list[tuple[int, ...]]]:
    """Play the scripts as consecutive deals from first dealer 3; totals after each."""
    match = SlobberhannesMatch(options, first_dealer=3, start=False)
    totals = []
    for dealer, hands, actions in match_deals(scripts):
        assert match.next_dealer == dealer
        deal = match.start_deal(hands)
        assert deal.dealer == dealer
        for card in actions:
            match.apply(card)
        assert deal.is_over
        totals.append(match.totals())
    return match, totals


class TestRotation:
    def test_the_deal_passes_to_the_left(self) -> None:
        match = SlobberhannesMatch(seed=3, first_dealer=2)
        dealers = []
        while not match.is_over:
            if not dealers or dealers[-1][0] != len(match.deals):
                dealers.append((len(match.deals), match.deal.dealer, match.deal.to_move))
            match.play(match.legal_actions()[0])
        assert len(dealers) >= 3
        for number, dealer, leader in dealers:
            assert dealer == (2 + number - 1) % 4
            assert leader == (dealer + 1) % 4

    @pytest.mark.parametrize("players", [3, 5, 6, 7])
    def test_rotation_with_other_table_sizes(self, players: int) -> None:
        match = SlobberhannesMatch({"players": players}, seed=1, first_dealer=0)
        for expected in range(players + 1):
            assert match.deal.dealer == expected % players
            assert match.deal.num_seats == players
            while not match.deal.is_over:
                match.apply(match.legal_actions()[0])
            if match.is_over:
                break
            match.start_deal()

    def test_random_first_dealer_is_seeded(self) -> None:
        firsts = {SlobberhannesMatch(seed=s).first_dealer for s in range(40)}
        assert firsts == {0, 1, 2, 3}
        assert SlobberhannesMatch(seed=5).first_dealer == SlobberhannesMatch(seed=5).first_dealer
        a, b = SlobberhannesMatch(seed=5), SlobberhannesMatch(seed=5)
        assert a.deal.initial_hands == b.deal.initial_hands

    def test_bad_first_dealer(self) -> None:
        with pytest.raises(ValueError, match="first dealer must be a seat from 0 to 3"):
            SlobberhannesMatch(first_dealer=4)

    def test_a_deal_must_be_finished_first(self) -> None:
        match = SlobberhannesMatch(seed=2, first_dealer=0)
        with pytest.raises(ValueError, match="the current deal is not finished"):
            match.start_deal()
        while not match.deal.is_over:
            match.apply(match.legal_actions()[0])
        with pytest.raises(IllegalActionError) as info:
            match.apply(match.deals[-1].initial_hands[0][0])
        assert info.value.rule == "no_deal"
        match.start_deal()
        assert len(match.deals) == 2 and match.deal.dealer == 1


class TestFirstToTen:
    def test_the_earlier_event_decides(self) -> None:
        match, totals = scripted_match(FIRST_TO_TEN)
        assert totals == list(FIRST_TO_TEN_TOTALS)
        # seat 3 ends on 11, seat 0 on 10: seat 0 got there first (trick 1 of deal 6)
        result = match.result
        assert result is not None and match.is_over
        assert result.losers == (0,)
        assert result.winners == (1, 2, 3)
        assert match.loser == 0
        assert result.totals == (10, 1, 0, 11)
        # the loser pays each other player 10 - penalties, never below 0
        assert result.settlement == (-19, 9, 10, 0)
        assert sum(result.settlement) == 0
        assert match.chips() == (0, 9, 10, 0)
        assert isinstance(match.events[-1], MatchEnded)
        assert match.events[-1] == result

    def test_the_deal_is_played_out(self) -> None:
        match, _ = scripted_match(FIRST_TO_TEN[:5])
        dealer, hands, actions = match_deals(FIRST_TO_TEN)[5]
        assert match.start_deal(hands).dealer == dealer == 0
        for card in actions[:4]:
            match.apply(card)
        assert match.totals()[0] == 10  # seat 0 has reached 10 after the first trick
        assert not match.is_over and match.result is None
        for card in actions[4:-1]:
            match.apply(card)
            assert not match.is_over
        events = match.apply(actions[-1])
        assert match.is_over
        assert isinstance(events[-1], MatchEnded)
        with pytest.raises(IllegalActionError) as info:
            match.apply(Card("AS"))
        assert info.value.rule == "match_over"
        with pytest.raises(ValueError, match="the match is over"):
            match.start_deal()

    def test_revokes_are_charged_after_the_last_trick(self) -> None:
        match, totals = scripted_match(REVOKE_LAST, {"revokes": "penalty"})
        assert totals == list(REVOKE_LAST_TOTALS)
        result = match.result
        assert result is not None
        # seat 2 revoked in tricks 1 and 2, but revokes are charged when the deal
        # ends, after seat 1's last trick took seat 1 to 10
        assert result.losers == (1,)
        assert result.settlement == (9, -17, 0, 8)

    def test_one_long_seeded_match(self) -> None:
        match = SlobberhannesMatch(seed=8, first_dealer=1)
        while not match.is_over:
            match.play(match.legal_actions()[0])
        result = match.result
        assert result is not None
        # replay the penalty events in time order: the first seat to reach 10 loses
        running = [0, 0, 0, 0]
        first = None
        for event in match.events:
            if isinstance(event, PenaltyCharged):
                running[event.seat] += event.chips
                if first is None and running[event.seat] >= 10:
                    first = event.seat
        assert tuple(running) == match.totals() == result.totals
        assert result.losers == (first,)
        left = [max(0, 10 - t) if s != first else 0 for s, t in enumerate(running)]
        assert result.settlement == tuple(-sum(left) if s == first else left[s] for s in range(4))
        # every deal was played out, and before the last one everybody was below 10
        assert all(d.is_over for d in match.deals)
        before_last = [sum(d.points()[s] for d in match.deals[:-1]) for s in range(4)]
        assert max(before_last) < 10
        assert [sum(d.points()[s] for d in match.deals) for s in range(4)] == running

    def test_target_option(self) -> None:
        match, totals = scripted_match([ALL_THREE], {"target": 4})
        assert totals == [(4, 0, 0, 0)]
        assert match.is_over
        assert match.result is not None and match.result.losers == (0,)
        assert match.result.settlement == (-12, 4, 4, 4)


class TestRussian:
    OPTIONS: ClassVar[dict[str, object]] = {"preset": "russian"}

    def test_draw_for_lead(self) -> None:
        multi = 0
        for seed in range(40):
            match = SlobberhannesMatch(self.OPTIONS, seed=seed)
            draw = match.draw
            assert isinstance(draw, DrawForLead)
            assert match.events[0] == draw
            # each round: the seats still in, each with a card; the highest rank leads
            contenders = [0, 1, 2, 3]
            for number, drawn in enumerate(draw.rounds):
                assert [s for s, _ in drawn] == contenders
                assert len({c for _, c in drawn}) == len(drawn)
                top = max(c.rank for _, c in drawn)
                contenders = [s for s, c in drawn if c.rank == top]
                if number < len(draw.rounds) - 1:
                    assert len(contenders) > 1  # a tie for the highest draws again
            assert contenders == [draw.leader]
            multi += len(draw.rounds) > 1
            # the player on the leader's right deals, so the leader leads the first trick
            assert draw.dealer == (draw.leader - 1) % 4
            assert match.first_dealer == draw.dealer
            assert match.deal.dealer == draw.dealer
            assert match.deal.to_move == draw.leader
            as_json = draw.to_dict()
            assert as_json["type"] == "draw_for_lead"
            assert as_json["leader"] == draw.leader and as_json["dealer"] == draw.dealer
            assert as_json["rounds"][0] == [[s, str(c)] for s, c in draw.rounds[0]]
        assert multi > 0  # some seed needed a second round

    def test_play_to_five_fewest_wins_with_a_tie(self) -> None:
        match, totals = scripted_match([ALL_THREE, ALL_THREE, SEED004], self.OPTIONS)
        # no all-three bonus: 3 chips each time
        assert totals == [(3, 0, 0, 0), (3, 3, 0, 0), (5, 4, 0, 0)]
        result = match.result
        assert result is not None
        assert result.winners == (2, 3)  # tie for fewest: both win
        assert result.losers == (0, 1)
        # every other player pays each winner the difference
        assert result.settlement == (-10, -8, 9, 9)
        assert sum(result.settlement) == 0
        assert match.loser == 0

    def test_single_winner(self) -> None:
        match, totals = scripted_match(
            [ALL_THREE, SEED001, QUEEN_FIRST_ONLY, ALL_THREE], self.OPTIONS
        )
        assert totals == [(3, 0, 0, 0), (4, 1, 0, 1), (4, 2, 0, 3), (4, 2, 0, 6)]
        result = match.result
        assert result is not None
        assert result.winners == (2,)
        assert result.settlement == (-4, -2, 12, -6)

    def test_not_over_below_five(self) -> None:
        match, totals = scripted_match([ALL_THREE, SEED001, QUEEN_FIRST_ONLY], self.OPTIONS)
        assert totals[-1] == (4, 2, 0, 3)
        assert not match.is_over
        assert match.next_dealer == 2

    def test_no_all_three_bonus(self) -> None:
        match, _ = scripted_match([ALL_THREE], self.OPTIONS)
        reasons = Counter(p.reason for p in match.deals[0].penalties())
        assert reasons == Counter(first_trick=1, queen_of_clubs=1, last_trick=1)


class TestPartnership:
    def test_partners_sit_opposite_and_share_penalties(self) -> None:
        match, totals = scripted_match(
            [ALL_THREE, ALL_THREE, ALL_THREE, QUEEN_FIRST_ONLY], {"partnership": True}
        )
        assert totals == [(4, 0, 0, 0), (4, 4, 0, 0), (4, 4, 4, 0), (6, 4, 5, 0)]
        assert match.team_totals() == (11, 4)
        result = match.result
        assert result is not None
        # no single player reached 10; seats 0 and 2 together did
        assert max(match.totals()) < 10
        assert result.losers == (0, 2)
        assert result.winners == (1, 3)
        # the losing side pays the other side 10 - its penalties
        assert result.settlement == (-6, 6, -6, 6)
        assert sum(result.settlement) == 0

    def test_partnership_russian(self) -> None:
        match, _ = scripted_match(
            [ALL_THREE, QUEEN_FIRST_ONLY], {"preset": "russian", "partnership": True}
        )
        # deal 1: seat 0 +3; deal 2 (led by seat 1): seat 2 +2, seat 0 +1
        assert match.totals() == (4, 0, 2, 0)
        assert match.team_totals() == (6, 0)
        result = match.result
        assert result is not None
        assert result.winners == (1, 3)
        assert result.settlement == (-6, 6, -6, 6)

    @pytest.mark.parametrize("players", [3, 5, 6, 7])
    def test_only_four_players(self, players: int) -> None:
        with pytest.raises(OptionError, match="partnership"):
            SlobberhannesMatch({"partnership": True, "players": players})
        with pytest.raises(OptionError):
            SlobberhannesOptions.from_dict({"partnership": True, "players": players})


class TestRecords:
    def test_match_record(self) -> None:
        match, _ = scripted_match(FIRST_TO_TEN)
        record = match.to_record()
        assert record["format"] == "kartentisch-record/1"
        assert record["game"] == "slobberhannes"
        assert record["options"] == {"players": 4}
        assert [d["dealer"] for d in record["deals"]] == [3, 0, 1, 2, 3, 0]
        assert record["deals"][5]["actions"] == [str(c) for c in SEED004.actions]
        assert record["deals"][5]["hands"][1] == [str(c) for c in SEED004.hands[0]]
