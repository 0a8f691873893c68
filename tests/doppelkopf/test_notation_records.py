"""The action notation (docs/notation.md) and Doppelkopf records."""

from __future__ import annotations

import json
import re

import pytest

from kartentisch.errors import NotationError, RecordError
from kartentisch.games import get_game
from kartentisch.games.doppelkopf import (
    SCHEMA,
    Call,
    DoppelkopfDeal,
    DoppelkopfOptions,
    parse_action,
)
from kartentisch.games.doppelkopf.actions import HOCHZEIT_RULES
from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.games.doppelkopf.record import replay, split_seat, summarize
from kartentisch.games.doppelkopf.text import typed_call
from kartentisch.records import ReplayError, load_record

from .scripted import act, pass_all, play_cards, script
from .test_normal import BASE


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("qc", "QC"),
        ("10♥", "10H"),
        ("gesund", "pass"),
        ("PASS", "pass"),
        ("Vorbehalt", "vorbehalt"),
        ("scharfe", "scharfe"),
        ("Scharfe Asse", "scharfe aces"),
        ("scharfe könige asse", "scharfe aces kings"),
        ("solo trumpf", "solo trump"),
        ("Solo Ober ouvert", "solo queens ouvert"),
        ("solo unter", "solo jacks"),
        ("solo grün", "solo spades"),
        ("solo schell", "solo diamonds"),
        ("solo ohne trumpf", "solo no_trump"),
        ("solo null offen", "solo null ouvert"),
        ("solo fleischloser", "solo fleischlos"),
        ("hochzeit", "hochzeit"),
        ("Hochzeit erster Fremder", "hochzeit first_trick"),
        ("hochzeit trumpf", "hochzeit first_trump"),
        ("armut", "armut"),
        ("annehmen", "accept"),
        ("ablehnen", "refuse"),
        ("gib ad 10d kd", "give 10D KD AD"),
        ("zurück kc, 10c, ks", "return 10C KC KS"),
        ("einmischen", "redeal"),
        ("contra", "kontra"),
        ("keine 90", "no90"),
        ("keine60", "no60"),
        ("u3", "no30"),
        ("Schwarz", "schwarz"),
        ("zurücknehmen", "take_back"),
        # Russian
        ("пас", "pass"),
        ("Оговорка", "vorbehalt"),
        ("острые тузы", "scharfe aces"),
        ("соло козырное", "solo trump"),
        ("соло дамы открытое", "solo queens ouvert"),
        ("соло без козырей", "solo no_trump"),
        ("соло без мяса", "solo fleischlos"),
        ("соло кёлер", "solo koehler"),
        ("свадьба некозырная", "hochzeit first_nontrump"),
        ("бедность", "armut"),
        ("принять", "accept"),
        ("отказ", "refuse"),
        ("отдать ad 10d kd", "give 10D KD AD"),
        ("вернуть kc 10c ks", "return 10C KC KS"),
        ("пересдача", "redeal"),
        ("Ре", "re"),
        ("контра", "kontra"),
        ("без 90", "no90"),
        ("без60", "no60"),
        ("шварц", "schwarz"),
        ("взять назад", "take_back"),
    ],
)
def test_notation_round_trip(text: str, canonical: str) -> None:
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(canonical) == action


@pytest.mark.parametrize(
    "text",
    ["", "solo", "solo chess", "hochzeit sometimes", "re now", "give", "XY", "scharfe queens"],
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_call_properties() -> None:
    assert Call("re").is_announcement and not Call("pass").is_announcement
    assert repr(Call("solo", "queens", True)) == "Call('solo queens ouvert')"
    assert Call.parse("Re") == Call("re")
    with pytest.raises(NotationError):
        Call.parse("QC")
    assert split_seat("3:no90") == (3, "no90")


def test_record_and_summary_of_a_deal() -> None:
    sc = script(BASE)
    deal = sc.deal(seats=["Anna", "Ben", "Cem", "Dora"])
    pass_all(deal)
    act(deal, "3:kontra")
    play_cards(deal, sc.plays)
    record = deal.to_record()
    assert record["format"] == "kartentisch-record/1" and record["game"] == "doppelkopf"
    # Every option written out: the record reads the same whatever later presets say.
    assert record["options"] == {"preset": "house", **DoppelkopfOptions().to_record()}
    assert record["options"]["players"] == 4 and record["options"]["nines"] is False
    assert len(record["options"]) == len(SCHEMA.options) + 1
    # Whatever its preset's name says, the options written out decide: the same game.
    renamed = replay({**record, "options": {**record["options"], "preset": "ddv"}})
    assert isinstance(renamed, DoppelkopfDeal) and renamed.points() == deal.points()
    assert record["seats"] == ["Anna", "Ben", "Cem", "Dora"]
    assert record["actions"][:13] == ["pass"] * 12 + ["3:kontra"]
    assert len(record["hands"]) == 4 and all(len(h) == 10 for h in record["hands"])
    summary = get_game("doko").summarize(
        get_game("doppelkopf").replay(load_record(json.loads(json.dumps(record))))
    )
    assert summary["points"] == [60, 0, 60, 0]
    assert summary["tricks"][0] == {"leader": 0, "cards": ["AC", "10C", "KC", "KC"], "winner": 0}
    assert summary["game_type"] == "normal" and summary["parties"] == {
        "re": [0, 2],
        "kontra": [1, 3],
    }
    assert summary["augen"] == {"re": 210, "kontra": 30}
    assert summary["stages"] == ["no90", "no60"] and summary["extras"] == []
    assert summary["announcements"] == [{"seat": 3, "party": "kontra", "word": "kontra"}]
    assert summary["bock_multiplier"] == 1 and summary["bock_trigger"] is True
    assert summary["multiplier"] == 2 and summary["base"] == 30


def test_single_deal_with_bock_multiplier() -> None:
    sc = script(BASE)
    deal = sc.deal(bock_multiplier=4)
    pass_all(deal)
    play_cards(deal, sc.plays)
    record = deal.to_record()
    assert record["bock"] == 4
    again = replay(record)
    assert again.points() == (120, 0, 120, 0)
    assert summarize(again)["bock_multiplier"] == 4


def test_replay_errors_name_the_position_and_rule() -> None:
    sc = script(BASE)
    deal = sc.deal()
    pass_all(deal)
    record = deal.to_record()
    record["actions"] = [*record["actions"], "1:re"]
    with pytest.raises(ReplayError) as err:
        replay(record)
    assert err.value.position == 13 and err.value.rule == "wrong_party"
    record["actions"] = ["pass", "solo chess"]
    with pytest.raises(ReplayError) as err:
        replay(record)
    assert err.value.rule == "bad_notation"
    record["actions"] = ["9:re"]
    with pytest.raises(ReplayError):
        replay(record)
    record["hands"][0] = record["hands"][0][:9]
    with pytest.raises(RecordError):
        replay(record)
    with pytest.raises(RecordError):
        replay({**deal.to_record(), "options": {"preset": "skat"}})


def test_ddv_record() -> None:
    options = DoppelkopfOptions.preset_named("ddv")
    deal = DoppelkopfDeal.from_seed(3, dealer=2, options=options)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    record = json.loads(json.dumps(deal.to_record()))
    assert record["options"]["preset"] == "ddv"
    again = replay(record)
    assert again.points() == deal.points() and sum(again.points()) == 0
    text = "\n".join(get_game("doppelkopf").render(again, "de"))
    assert "Spiel 1" in text and "Augen" in text


def every_call() -> list[Call]:
    """Every declaration and announcement the notation has (the Armut's cards aside)."""
    words = ["pass", "vorbehalt", "armut", "redeal", "accept", "refuse", "take_back", "hochzeit"]
    words += ["re", "kontra", "no90", "no60", "no30", "schwarz", "scharfe aces", "scharfe kings"]
    words += [f"hochzeit {rule}" for rule in HOCHZEIT_RULES]
    words += [f"solo {kind}{o}" for kind in ALL_SOLI for o in ("", " ouvert")]
    words += ["give 10D AD QH", "return 10D AD QH"]
    calls = [parse_action(w) for w in words]
    assert all(isinstance(c, Call) for c in calls)
    return [c for c in calls if isinstance(c, Call)]


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_the_words_offered_to_type_read_back_as_the_call(lang: str) -> None:
    """What the terminal offers to type (``typed_call``) is read back as the same call
    (else the notation would be offered); in Russian it is Russian words, the cards
    aside."""
    for call in every_call():
        typed = typed_call(call, lang)
        assert parse_action(typed) == call, (lang, call, typed)
        if lang == "ru":
            words = [w for w in typed.split() if not re.fullmatch(r"(10|[AKQJ9])[CSHD]", w)]
            assert all(re.fullmatch(r"[а-яё]+(90|60|30)?", w) for w in words), (call, typed)
