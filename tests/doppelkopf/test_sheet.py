"""The Doppelkopf score sheet: dealer rotation, Böcke, Miese, records."""

from __future__ import annotations

import functools

import pytest

from kartentisch.cards import doppelkopf_deck, parse_cards
from kartentisch.errors import RecordError
from kartentisch.games.doppelkopf.scoring import (
    Announcement,
    GameFacts,
    GameScore,
    ScoringTrick,
    score_game,
    trick_augen,
)
from kartentisch.games.doppelkopf.sheet import ScoreSheet, SheetError

NAMES4 = ["Anna", "Ben", "Cem", "Dora"]
NAMES5 = [*NAMES4, "Emil"]
TRUMPS = frozenset(parse_cards("10H QC QS QH QD JC JS JH JD AD 10D KD"))
#: 40 cards in 10 tricks without any extra point (each trick's winner plays its first card).
POOL = (
    "10C KC QC KS",
    "QH JD QS JD",
    "10H JH JC JC",
    "KD AS QD AC",
    "10D JS AH KS",
    "AD 10S AS KD",
    "10C QD JH QC",
    "10H 10S KH 10D",
    "AH KH JS QH",
    "AD KC AC QS",
)


@functools.cache
def _re_tricks(re_augen: int) -> frozenset[int]:
    values = [trick_augen(parse_cards(t)) for t in POOL]
    for mask in range(1 << len(POOL)):
        chosen = frozenset(i for i in range(len(POOL)) if mask >> i & 1)
        if sum(values[i] for i in chosen) == re_augen:
            return chosen
    raise AssertionError(re_augen)


def play(
    sheet: ScoreSheet, re_augen: int = 121, announce_re: bool = False, solo: bool = False
) -> GameScore:
    """A game at the sheet's table with its current Bock multiplier; Re = first two seats."""
    seats = sheet.playing_seats()
    re = frozenset(seats[:1] if solo else seats[:2])
    chosen = _re_tricks(re_augen)
    tricks = []
    for i, text in enumerate(POOL):
        party = [s for s in seats if (s in re) == (i in chosen)]
        winner = party[0]
        order = (winner, *(s for s in seats if s != winner))
        tricks.append(ScoringTrick(order, tuple(parse_cards(text)), winner))
    facts = GameFacts(
        rules=sheet.rules,
        seats=seats,
        table_size=sheet.size,
        re_party=re,
        game_type="queens" if solo else "normal",
        solo=solo,
        ouvert=False,
        announcements=(Announcement(seats[0], "re", "re"),) if announce_re else (),
        tricks=tuple(tricks),
        trumps=frozenset(parse_cards("QC QS QH QD")) if solo else TRUMPS,
        scharfe_aces=False,
        bock_multiplier=sheet.current_multiplier,
    )
    return score_game(facts)


def record(sheet: ScoreSheet, **kw: object) -> GameScore:
    score = play(sheet, **kw)  # type: ignore[arg-type]
    sheet.record_game(score)
    return score


def test_the_pool_is_neutral() -> None:
    sheet = ScoreSheet(NAMES4)
    assert play(sheet).extras == ()
    assert sorted(parse_cards(" ".join(POOL))) == sorted(doppelkopf_deck())


class TestDealer:
    def test_four_players_rotate_left(self) -> None:
        sheet = ScoreSheet(NAMES4)
        assert (sheet.dealer, sheet.playing_seats(), sheet.sitting_out()) == (0, (1, 2, 3, 0), None)
        record(sheet)
        assert (sheet.dealer, sheet.playing_seats()) == (1, (2, 3, 0, 1))
        for _ in range(3):
            record(sheet)
        assert sheet.dealer == 0
        assert [r.dealer for r in sheet.rows] == [0, 1, 2, 3]

    def test_deal_again_after_a_pflichtsolo(self) -> None:
        sheet = ScoreSheet(NAMES4, "ddv", dealer=2)
        with pytest.raises(SheetError, match="follows a recorded game"):
            sheet.deal_again()
        record(sheet, solo=True)
        sheet.deal_again()
        assert sheet.dealer == 2 and sheet.games_played == 1

    def test_first_dealer_can_be_chosen(self) -> None:
        assert ScoreSheet(NAMES4, dealer=3).playing_seats() == (0, 1, 2, 3)

    def test_five_players_dealer_sits_out(self) -> None:
        sheet = ScoreSheet(NAMES5, dealer=0)
        assert (sheet.playing_seats(), sheet.sitting_out()) == ((1, 2, 3, 4), 0)
        score = record(sheet)  # Re = seats 1, 2 win 10 each
        assert score.points == (0, 10, 10, 0, 0)
        assert (sheet.totals, sheet.dealer) == ((0, 10, 10, 0, 0), 1)
        assert (sheet.playing_seats(), sheet.sitting_out()) == ((2, 3, 4, 0), 1)

    def test_sitting_out_player_must_score_zero(self) -> None:
        sheet = ScoreSheet(NAMES5, dealer=2)
        with pytest.raises(SheetError, match=r"seat 2 \(Cem\) deals and sits this game out"):
            sheet.record_points((0, 0, 10, 10, 0))
        assert sheet.rows == () and sheet.dealer == 2

    def test_running_totals_and_rows(self) -> None:
        sheet = ScoreSheet(NAMES4)
        record(sheet)  # dealer 0: Re = 1, 2
        record(sheet, re_augen=100)  # dealer 1: Re = 2, 3 lose; Kontra 0, 1 get 20
        assert sheet.totals == (20, 30, 10, 0)
        row = sheet.rows[1]
        assert (row.number, row.kind, row.dealer, row.points) == (2, "game", 1, (20, 20, 0, 0))
        assert (row.multiplier, row.totals, row.bocks_added) == (1, (20, 30, 10, 0), 0)
        assert sheet.games_played == 2


class TestBock:
    def test_bock_doubles_the_next_four_games(self) -> None:
        sheet = ScoreSheet(NAMES4)
        first = record(sheet, re_augen=120)  # 120:120 → Bock
        assert first.bock_trigger and sheet.rows[0].bocks_added == 4
        assert (sheet.current_multiplier, sheet.pending_bocks) == (2, (4,))
        assert sheet.bock_summary() == "1 Bock: ×2 for the next 4 games"
        values = [max(record(sheet).points) for _ in range(5)]
        assert values == [20, 20, 20, 20, 10]
        assert [r.multiplier for r in sheet.rows] == [1, 2, 2, 2, 2, 1]
        assert sheet.bock_summary() == "no Bock"

    def test_doppelbock(self) -> None:
        sheet = ScoreSheet(NAMES4)
        record(sheet, announce_re=True, re_augen=119)  # lost Re → 4 Böcke
        second = record(sheet, re_augen=120)  # in Bock, 120:120 → 4 more
        assert second.points == (40, 40, 0, 0)  # Kontra (0, 1): 20 × 2
        assert sheet.pending_bocks == (3, 4)
        assert sheet.bock_summary() == "2 Böcke: ×4 for the next 3 games, then ×2 for 1 game"
        assert sheet.bock_schedule() == (4, 4, 4, 2)
        third = record(sheet)
        assert (third.multiplier, max(third.points)) == (4, 40)  # Re 10 × 4
        for _ in range(4):
            record(sheet)
        assert [r.multiplier for r in sheet.rows] == [1, 2, 4, 4, 4, 2, 1]

    def test_bock_chain(self) -> None:
        sheet = ScoreSheet(NAMES4)
        for _ in range(3):
            record(sheet, re_augen=120)
        for _ in range(5):
            record(sheet)
        assert [r.multiplier for r in sheet.rows] == [1, 2, 4, 8, 8, 4, 2, 1]
        assert [max(r.points) for r in sheet.rows[3:]] == [80, 80, 40, 20, 10]

    def test_lost_solo_makes_bock(self) -> None:
        sheet = ScoreSheet(NAMES4)
        score = record(sheet, solo=True, re_augen=100)
        assert min(score.points) == -500 and score.bock_trigger
        assert sheet.current_multiplier == 2

    def test_five_players_add_five_bock_games(self) -> None:
        sheet = ScoreSheet(NAMES5)
        record(sheet, re_augen=120)
        assert sheet.pending_bocks == (5,)
        for _ in range(5):
            assert sheet.current_multiplier == 2
            record(sheet)
        assert sheet.current_multiplier == 1

    def test_bock_off(self) -> None:
        sheet = ScoreSheet(NAMES4, bock=False)
        record(sheet, re_augen=120)
        assert (sheet.pending_bocks, sheet.current_multiplier) == ((), 1)


class TestFailedDeals:
    def test_three_failed_deals_cost_100_never_doubled(self) -> None:
        sheet = ScoreSheet(NAMES4)
        record(sheet, re_augen=120)  # Bock for the next 4 games; dealer now 1
        assert sheet.record_failed_deal() is None
        assert sheet.record_failed_deal() is None
        assert (sheet.dealer, sheet.failed_deals) == (1, 2)
        row = sheet.record_failed_deal()
        assert row is not None
        assert (row.kind, row.dealer, row.points, row.multiplier) == (
            "miese",
            1,
            (0, -100, 0, 0),
            1,
        )
        assert sheet.totals == (20, -100, 0, 20)
        # The deal passes on; the Böcke wait for the next game.
        assert (sheet.dealer, sheet.failed_deals, sheet.pending_bocks) == (2, 0, (4,))
        assert record(sheet).multiplier == 2
        assert sheet.pending_bocks == (3,)

    def test_totals_after_miese(self) -> None:
        sheet = ScoreSheet(NAMES4, dealer=3)
        for _ in range(3):
            sheet.record_failed_deal()
        assert sheet.totals == (0, 0, 0, -100)
        assert sheet.dealer == 0 and sheet.games_played == 0 and len(sheet.rows) == 1

    def test_a_game_resets_the_count(self) -> None:
        sheet = ScoreSheet(NAMES4)
        sheet.record_failed_deal()
        sheet.record_failed_deal()
        record(sheet)
        sheet.record_failed_deal()
        assert sheet.record_failed_deal() is None
        assert sheet.totals == (0, 10, 10, 0)

    def test_five_players_sitting_out_dealer_gets_the_miese(self) -> None:
        sheet = ScoreSheet(NAMES5, dealer=4)
        for _ in range(3):
            sheet.record_failed_deal()
        assert sheet.totals == (0, 0, 0, 0, -100)
        assert sheet.dealer == 0


class TestDDV:
    def test_no_bock_no_miese(self) -> None:
        sheet = ScoreSheet(NAMES4, "ddv")
        score = record(sheet, re_augen=120)
        assert score.points == (2, -2, -2, 2)  # Kontra (3, 0): won + gegen die Alten
        assert (sheet.current_multiplier, sheet.pending_bocks) == (1, ())
        for _ in range(3):
            assert sheet.record_failed_deal() is None
        assert sheet.totals == (2, -2, -2, 2)
        assert sheet.dealer == 1

    def test_points_must_add_up_to_zero(self) -> None:
        with pytest.raises(SheetError, match="add up to 0"):
            ScoreSheet(NAMES4, "ddv").record_points((10, 0, 10, 0))

    def test_boecke_under_ddv_only_when_asked(self) -> None:
        assert not ScoreSheet(NAMES4, "ddv").bock
        sheet = ScoreSheet(NAMES4, "ddv", bock=True)
        sheet.record_points((2, -2, -2, 2), bock_trigger=True)
        assert sheet.current_multiplier == 2
        sheet.record_points((-4, 4, 4, -4))
        assert sheet.totals == (-2, 2, 2, -2)
        assert ScoreSheet.from_dict(sheet.to_dict()).to_dict() == sheet.to_dict()


class TestMisuse:
    @pytest.mark.parametrize(
        ("args", "kw", "message"),
        [
            ((NAMES4[:3],), {}, "4 or 5 players"),
            ((["A", "B", "A", "C"],), {}, "same name"),
            ((["A", "B", "", "C"],), {}, "non-empty"),
            ((NAMES4, "skat"), {}, "rules"),
            ((NAMES4,), {"dealer": 4}, "dealer"),
        ],
    )
    def test_bad_sheet(self, args: tuple[object, ...], kw: dict[str, object], message: str) -> None:
        with pytest.raises(SheetError, match=message):
            ScoreSheet(*args, **kw)  # type: ignore[arg-type]

    def test_wrong_number_of_points(self) -> None:
        with pytest.raises(SheetError, match="4 points but the sheet has 5 players"):
            ScoreSheet(NAMES5).record_points((0, 10, 10, 0))

    def test_house_points_go_to_two_players_at_most(self) -> None:
        with pytest.raises(SheetError, match="at most two"):
            ScoreSheet(NAMES4).record_points((3, -1, -1, -1))


class TestRecords:
    def _session(self) -> ScoreSheet:
        sheet = ScoreSheet(NAMES5, dealer=2)
        record(sheet, re_augen=120)
        record(sheet, announce_re=True, re_augen=119)
        sheet.record_failed_deal()
        sheet.record_failed_deal()
        sheet.record_failed_deal()
        record(sheet)
        sheet.record_failed_deal()
        return sheet

    def test_round_trip(self) -> None:
        sheet = self._session()
        data = sheet.to_dict()
        again = ScoreSheet.from_dict(data)
        assert again.to_dict() == data
        assert (again.rows, again.totals, again.dealer) == (sheet.rows, sheet.totals, sheet.dealer)
        assert again.bock_summary() == sheet.bock_summary()
        assert again.failed_deals == 1
        # Both carry on identically.
        assert record(again).points == record(sheet).points
        assert again.to_dict() == sheet.to_dict()

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            ({"format": "x"}, "format"),
            ({"players": ["A", "B"]}, "4 or 5 players"),
            ({"dealer": 7}, "dealer"),
            ({"failed_deals": 3}, "failed_deals"),
            ({"bocks": [0]}, "bocks"),
            ({"bock": "yes"}, "bock"),
            ({"totals": [1, 2, 3, 4, 5]}, "totals"),
            ({"rows": [{"kind": "game"}]}, "missing"),
        ],
    )
    def test_bad_records(self, change: dict[str, object], message: str) -> None:
        data = {**self._session().to_dict(), **change}
        with pytest.raises(RecordError, match=message):
            ScoreSheet.from_dict(data)

    def test_row_totals_are_checked(self) -> None:
        data = self._session().to_dict()
        data["rows"][0]["totals"] = [9, 9, 9, 9, 9]
        with pytest.raises(RecordError, match="row 1"):
            ScoreSheet.from_dict(data)
