"""Game records: reading, checking, replaying, writing; every malformed record refused."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kartentisch.errors import KartentischError, RecordError
from kartentisch.games import get_game
from kartentisch.games.slobberhannes import SlobberhannesDeal, SlobberhannesMatch
from kartentisch.games.slobberhannes.record import replay, summarize
from kartentisch.records import (
    ReplayError,
    dumps_record,
    load_record,
    loads_record,
    require,
    write_record,
)

from .scripted import (
    DATA,
    FIRST_TO_TEN,
    REVOKE_LAST,
    SEED001,
    SEED001_REVOKES,
    SEED004,
    SEED004_TRICK_WINNERS,
    match_deals,
    record_json,
)

Record = dict[str, Any]


def fixture(name: str) -> Record:
    data: Record = json.loads((DATA / name).read_text("utf-8"))
    return data


def changed(name: str, change: Callable[[Record], object]) -> Record:
    record = copy.deepcopy(fixture(name))
    change(record)
    return record


class TestFixtures:
    """The JSON files under tests/data are the scripts of scripted.py, written out."""

    @pytest.mark.parametrize(
        ("name", "script", "options"),
        [
            ("seed004_russian.json", SEED004, {"preset": "russian"}),
            ("seed001_example.json", SEED001, {}),
            ("revoke_penalty.json", SEED001_REVOKES, {"revokes": "penalty"}),
        ],
    )
    def test_deal_fixtures(self, name: str, script: Any, options: Record) -> None:
        record = fixture(name)
        assert record["format"] == "kartentisch-record/1"
        assert record["game"] == "slobberhannes"
        assert record["options"] == options
        assert record["dealer"] == 3
        assert record["hands"] == [[str(c) for c in h] for h in script.hands]
        assert record["actions"] == [str(c) for c in script.actions]
        assert (DATA / name).read_text("utf-8") == record_json(record)
        deal = replay(load_record(DATA / name))
        assert isinstance(deal, SlobberhannesDeal) and deal.is_over
        assert deal.points() == script.points
        assert [(p.seat, p.reason, p.trick) for p in deal.penalties()] == list(script.penalties)

    @pytest.mark.parametrize(
        ("name", "scripts"),
        [("match_first_to_ten.json", FIRST_TO_TEN), ("match_revoke_last.json", REVOKE_LAST)],
    )
    def test_match_fixtures(self, name: str, scripts: Any) -> None:
        record = fixture(name)
        assert record["seats"] == ["Anna", "Ben", "Carla", "Dan"]
        expected = [
            {
                "dealer": d,
                "hands": [[str(c) for c in h] for h in hands],
                "actions": list(map(str, a)),
            }
            for d, hands, a in match_deals(scripts)
        ]
        assert record["deals"] == expected
        assert (DATA / name).read_text("utf-8") == record_json(record)


class TestReplay:
    def test_seed004_summary(self) -> None:
        summary = summarize(replay(load_record(DATA / "seed004_russian.json")))
        assert summary["game"] == "slobberhannes"
        assert summary["dealer"] == 3
        assert summary["points"] == [0, 0, 2, 1]
        assert summary["finished"] is True
        assert [t["winner"] for t in summary["tricks"]] == list(SEED004_TRICK_WINNERS)
        assert [t["leader"] for t in summary["tricks"]] == [0, 3, 1, 0, 3, 2, 0, 2]
        assert summary["tricks"][4] == {"leader": 3, "cards": ["7D", "QC", "8D", "9D"], "winner": 2}
        assert summary["penalties"] == [
            {"seat": 3, "reason": "first_trick", "chips": 1, "trick": 1},
            {"seat": 2, "reason": "queen_of_clubs", "chips": 1, "trick": 5},
            {"seat": 2, "reason": "last_trick", "chips": 1, "trick": 8},
        ]

    def test_match_summary(self) -> None:
        match = replay(load_record(DATA / "match_first_to_ten.json"))
        assert isinstance(match, SlobberhannesMatch)
        assert match.is_over and match.seat_names == ("Anna", "Ben", "Carla", "Dan")
        summary = summarize(match)
        assert summary["points"] == [10, 1, 0, 11]
        assert summary["losers"] == [0]
        assert summary["winners"] == [1, 2, 3]
        assert summary["settlement"] == [-19, 9, 10, 0]
        assert summary["finished"] is True
        assert len(summary["deals"]) == 6
        assert [d["dealer"] for d in summary["deals"]] == [3, 0, 1, 2, 3, 0]
        assert summary["deals"][0]["points"] == [4, 0, 0, 0]
        assert summary["deals"][5]["points"] == [1, 0, 0, 2]

    def test_a_partial_deal_replays(self) -> None:
        record = changed("seed001_example.json", lambda r: r.update(actions=r["actions"][:6]))
        deal = replay(record)
        assert isinstance(deal, SlobberhannesDeal)
        assert not deal.is_over and deal.to_move == 0
        summary = summarize(deal)
        assert summary["finished"] is False
        assert summary["points"] == [0, 0, 1, 0]
        assert len(summary["tricks"]) == 1

    def test_a_partial_match_replays(self) -> None:
        record = changed("match_first_to_ten.json", lambda r: r.update(deals=r["deals"][:3]))
        match = replay(record)
        assert isinstance(match, SlobberhannesMatch)
        assert not match.is_over and match.totals() == (5, 1, 0, 5)
        assert "losers" not in summarize(match)

    def test_records_written_by_the_engine_replay(self, tmp_path: Path) -> None:
        match = SlobberhannesMatch({"players": 5}, seed=12, seats=list("ABCDE"))
        while not match.is_over:
            match.play(match.legal_actions()[-1])
        path = tmp_path / "match.json"
        write_record(match.to_record(), path)
        assert path.read_text("utf-8") == dumps_record(match.to_record())
        again = replay(load_record(path))
        assert isinstance(again, SlobberhannesMatch)
        assert again.totals() == match.totals()
        assert again.result == match.result
        assert [e.to_dict() for e in again.events] == [
            e.to_dict() for e in match.events if e.type != "draw_for_lead"
        ]

    def test_symbols_and_lower_case_in_records(self) -> None:
        def symbols(r: Record) -> None:
            r["hands"] = [[c.replace("C", "♣").lower() for c in h] for h in r["hands"]]
            r["actions"] = [c.replace("D", "♦").lower() for c in r["actions"]]

        deal = replay(changed("seed001_example.json", symbols))
        assert isinstance(deal, SlobberhannesDeal) and deal.points() == (1, 0, 1, 1)

    def test_game_aliases(self) -> None:
        for name in ("slobberhannes", "Slobberhannes", "SLOBBER", "Слобберханнс"):
            assert get_game(name).name == "slobberhannes"
        record = changed("seed001_example.json", lambda r: r.update(game="Slobberhannes"))
        assert get_game(load_record(record)["game"]).replay(record).points() == (1, 0, 1, 1)


class TestLoadRecord:
    def test_sources(self, tmp_path: Path) -> None:
        text = (DATA / "seed001_example.json").read_text("utf-8")
        path = tmp_path / "r.json"
        path.write_text(text, "utf-8")
        expected = json.loads(text)
        assert load_record(path) == expected
        assert load_record(str(path)) == expected
        assert loads_record(text) == expected
        assert load_record(expected) == expected

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (
                "{oops",
                "not valid JSON: Expecting property name enclosed in double quotes at line 1",
            ),
            ('{"game": "slobberhannes"}', 'the record has no "format" field'),
            (
                '{"format": "kartentisch-record/2", "game": "slobberhannes"}',
                "unsupported record format 'kartentisch-record/2'",
            ),
            ('{"format": "kartentisch-record/1"}', 'the record has no "game" field'),
            ('{"format": "kartentisch-record/1", "game": 4}', 'no "game" field'),
        ],
    )
    def test_bad_headers(self, text: str, message: str) -> None:
        with pytest.raises(RecordError, match=message):
            loads_record(text)

    def test_files(self, tmp_path: Path) -> None:
        with pytest.raises(RecordError, match="no such record file"):
            load_record(tmp_path / "missing.json")
        with pytest.raises(RecordError, match="is a directory, not a record file"):
            load_record(tmp_path)
        binary = tmp_path / "binary.json"
        binary.write_bytes(b"\xff\xfe{\x00")
        with pytest.raises(RecordError, match="is not UTF-8 text"):
            load_record(binary)
        array = tmp_path / "array.json"
        array.write_text("[1, 2]", "utf-8")
        with pytest.raises(RecordError, match="a record must be a JSON object"):
            load_record(array)

    def test_require(self) -> None:
        record = {"a": 1, "b": True, "c": "x"}
        assert require(record, "a", int) == 1
        with pytest.raises(
            RecordError, match='field "b" in deal 2 must be a whole number, not true/false'
        ):
            require(record, "b", int, "deal 2")
        assert require(record, "b", bool) is True
        with pytest.raises(RecordError, match='missing field "d"'):
            require(record, "d", int)
        with pytest.raises(
            RecordError, match='field "c" must be a list or an object, not a string'
        ):
            require(record, "c", (list, dict))

    def test_deeply_nested_json(self) -> None:
        with pytest.raises(RecordError):
            loads_record('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")

    def test_a_file_name_starting_with_a_brace(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        Path("{deal}.json").write_text((DATA / "seed001_example.json").read_text("utf-8"), "utf-8")
        assert load_record("{deal}.json")["game"] == "slobberhannes"


MALFORMED_DEALS: list[tuple[str, Callable[[Record], object], type[Exception], str]] = [
    ("missing hands", lambda r: r.pop("hands"), RecordError, 'missing field "hands"'),
    ("missing dealer", lambda r: r.pop("dealer"), RecordError, 'missing field "dealer"'),
    ("missing actions", lambda r: r.pop("actions"), RecordError, 'missing field "actions"'),
    (
        "dealer as text",
        lambda r: r.update(dealer="3"),
        RecordError,
        'field "dealer" in the record must be a whole number, not a string',
    ),
    ("dealer true", lambda r: r.update(dealer=True), RecordError, "not true/false"),
    ("dealer 9", lambda r: r.update(dealer=9), RecordError, "dealer must be a seat from 0 to 3"),
    ("hands text", lambda r: r.update(hands="AC KC"), RecordError, 'field "hands"'),
    ("hands object", lambda r: r.update(hands={"0": []}), RecordError, "must be a list"),
    ("actions text", lambda r: r.update(actions="8D"), RecordError, 'field "actions"'),
    (
        "action number",
        lambda r: r["actions"].__setitem__(0, 5),
        RecordError,
        "action 1 must be a card written as text, not 5",
    ),
    ("three hands", lambda r: r["hands"].pop(), RecordError, "a 4-player deal needs 4 hands"),
    ("short hand", lambda r: r["hands"][2].pop(), RecordError, "seat 2 holds 7 cards"),
    ("hand not a list", lambda r: r["hands"].__setitem__(1, "QC"), RecordError, "seat 1"),
    (
        "duplicate card",
        lambda r: r["hands"][1].__setitem__(0, "QC"),
        RecordError,
        "Q♣ is dealt twice",
    ),
    ("card 6C", lambda r: r["hands"][0].__setitem__(0, "6C"), RecordError, "6♣ is not in the"),
    ("bad card", lambda r: r["hands"][0].__setitem__(0, "1C"), RecordError, "hand of seat 0"),
    ("card float", lambda r: r["hands"][0].__setitem__(0, 3.5), RecordError, "3.5 is not a card"),
    (
        "unknown option",
        lambda r: r.update(options={"jokers": 2}),
        RecordError,
        "unknown Slobberhannes option 'jokers'",
    ),
    (
        "bad option value",
        lambda r: r.update(options={"revokes": "sometimes"}),
        RecordError,
        "option revokes must be one of forbidden, penalty",
    ),
    ("unknown preset", lambda r: r.update(options={"preset": "x"}), RecordError, "preset 'x'"),
    ("options list", lambda r: r.update(options=[]), RecordError, '"options" must be an object'),
    ("options null", lambda r: r.update(options=None), RecordError, "must be an object"),
    ("seats numbers", lambda r: r.update(seats=[1, 2, 3, 4]), RecordError, '"seats" must list 4'),
    ("three seats", lambda r: r["seats"].pop(), RecordError, '"seats" must list 4'),
    (
        "too many actions",
        lambda r: r["actions"].append("AS"),
        ReplayError,
        "action 33: AS: the deal is over [deal_over]",
    ),
    (
        "illegal card",
        lambda r: r["actions"].__setitem__(2, "JH"),
        ReplayError,
        "action 3: seat 2 (Carla) JH: must follow ♦: J♥ does not follow and seat 2 holds ♦ "
        "[must_follow_suit]",
    ),
    (
        "not in hand",
        lambda r: r["actions"].__setitem__(1, "AD"),
        ReplayError,
        "action 2: seat 1 (Ben) AD: A♦ is not in seat 1's hand [not_in_hand]",
    ),
    ("junk card", lambda r: r["actions"].__setitem__(2, "ZZ"), ReplayError, "[bad_notation]"),
]


class TestMalformed:
    @pytest.mark.parametrize(
        ("change", "error", "message"),
        [m[1:] for m in MALFORMED_DEALS],
        ids=[m[0] for m in MALFORMED_DEALS],
    )
    def test_deal_records(
        self, change: Callable[[Record], object], error: type[Exception], message: str
    ) -> None:
        record = changed("seed001_example.json", change)
        with pytest.raises(error) as info:
            replay(load_record(record))
        assert message in str(info.value)
        assert isinstance(info.value, KartentischError)

    def test_replay_error_fields(self) -> None:
        record = changed("seed001_example.json", lambda r: r["actions"].__setitem__(2, "JH"))
        with pytest.raises(ReplayError) as info:
            replay(record)
        err = info.value
        assert (err.position, err.seat, err.action, err.rule, err.deal) == (
            3,
            2,
            "JH",
            "must_follow_suit",
            None,
        )

    @pytest.mark.parametrize(
        ("change", "error", "message"),
        [
            (lambda r: r.update(deals=[]), RecordError, 'field "deals" must hold at least one'),
            (lambda r: r.update(deals={}), RecordError, 'field "deals" must be a list'),
            (lambda r: r["deals"].__setitem__(0, 3), RecordError, "deal 1 must be an object"),
            (lambda r: r["deals"].__setitem__(1, []), RecordError, "deal 2 must be an object"),
            (
                lambda r: r["deals"][0].update(dealer=7),
                RecordError,
                "deal 1: dealer must be a seat from 0 to 3",
            ),
            (
                lambda r: r["deals"][1].update(dealer=2),
                RecordError,
                "deal 2: dealer must be seat 0 (the deal passes to the left)",
            ),
            (
                lambda r: r["deals"][1]["actions"].pop(),
                RecordError,
                "deal 3: deal 2 was not played to the end",
            ),
            (
                lambda r: r["deals"].append(r["deals"][0]),
                RecordError,
                "deal 7: the match was already over after deal 6",
            ),
            (
                lambda r: r["deals"][5]["actions"].append("AS"),
                ReplayError,
                "deal 6, action 33: AS: the match is over [match_over]",
            ),
            (
                lambda r: r["deals"][1]["actions"].__setitem__(2, "JH"),
                ReplayError,
                "deal 2, action 3: seat 3 (Dan) JH: must follow ♦",
            ),
            (
                lambda r: r["deals"][2]["hands"][0].__setitem__(0, "AS"),
                RecordError,
                "deal 3: hands: A♠ is dealt twice",
            ),
            (lambda r: r["deals"][3].pop("hands"), RecordError, 'missing field "hands" in deal 4'),
        ],
    )
    def test_match_records(
        self, change: Callable[[Record], object], error: type[Exception], message: str
    ) -> None:
        record = changed("match_first_to_ten.json", change)
        with pytest.raises(error) as info:
            replay(load_record(record))
        assert message in str(info.value)

    def test_match_record_replays_only_with_its_options(self) -> None:
        record = changed("match_revoke_last.json", lambda r: r.update(options={}))
        with pytest.raises(ReplayError) as info:
            replay(record)
        assert info.value.deal == 6 and info.value.position == 2
        assert info.value.rule == "must_follow_suit"

    def test_bad_dealer_is_not_blamed_on_the_hands(self) -> None:
        with pytest.raises(RecordError) as info:
            replay(changed("seed001_example.json", lambda r: r.update(dealer=9)))
        assert not str(info.value).startswith("hands")
