"""Reading client messages: whatever arrives, the answer is a message or a clear refusal.

The parser (:func:`~kartentisch.web.protocol.parse_client_message`) is fuzzed
with Hypothesis: random text, random JSON, and messages of every type with
fields of the wrong kind, missing or added. It must never raise anything but
:class:`ProtocolError`, whose code is one of the protocol's and whose detail
names what was wrong. The rate limits are checked on a clock the test moves.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kartentisch.web.i18n import translate
from kartentisch.web.protocol import (
    MAX_MESSAGE_CHARS,
    Act,
    Hello,
    Limits,
    MessageBudget,
    Ping,
    Pong,
    ProtocolError,
    Start,
    TokenBucket,
    Verdict,
    parse_client_message,
)

CODES = {"bad_json", "bad_message", "unknown_type", "too_large"}
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
field_names = st.sampled_from(
    ["type", "token", "lang", "action", "version", "t", "nonce", "seat", "player", "x"]
)
messages = st.dictionaries(field_names, json_values, max_size=5) | st.builds(
    lambda kind, rest: {"type": kind, **rest},
    st.sampled_from(["hello", "act", "ping", "pong", "start", "slap", ""]),
    st.dictionaries(field_names, json_values, max_size=4),
)


def refused(text: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    error = caught.value
    assert error.code in CODES and error.detail
    # The text the client sees is complete in every language: no field left open.
    for lang in ("de", "en", "ru"):
        message = translate(lang, f"error.{error.code}", detail=error.detail, **error.params)
        assert message and "{" not in message.replace(error.detail, "")
    return error


@FUZZ
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_any_text_is_read_or_refused_clearly(text: str | bytes) -> None:
    try:
        parsed = parse_client_message(text)
    except ProtocolError as error:
        assert error.code in CODES and error.detail
        return
    assert isinstance(parsed, Hello | Act | Ping | Pong | Start)


@FUZZ
@given(messages)
def test_any_json_object_is_read_or_refused_clearly(data: dict[str, Any]) -> None:
    text = json.dumps(data)
    try:
        parsed = parse_client_message(text)
    except ProtocolError as error:
        assert error.code in CODES and error.detail
        return
    # What is accepted is exactly what the protocol describes, nothing more.
    assert set(data) <= {"type", "token", "lang", "action", "version", "t", "nonce"}
    if isinstance(parsed, Act):
        assert isinstance(data["version"], int) and not isinstance(data["version"], bool)
        assert parsed.action == data["action"].strip() and 0 < len(parsed.action) <= 64
    if isinstance(parsed, Ping):
        # The echo is small and plain: it cannot carry a nested or endless value back.
        assert len(json.dumps(parsed.t)) <= 4100
        assert not isinstance(parsed.t, list | dict)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("", "bad_json", "JSON"),
        ("{not json", "bad_json", "column"),
        (b'{"type": "\xff"}', "bad_json", "UTF-8"),
        ("[" * 2000 + "]" * 2000, "bad_json", "nested"),
        ('{"type": "act", "action": "QC", "version": NaN}', "bad_json", "NaN"),
        ('{"type": "ping", "t": Infinity}', "bad_json", "Infinity"),
        ('{"type": "act", "action": "QC", "version": ' + "9" * 4090 + "}", "too_large", "4096"),
        ("x" * (MAX_MESSAGE_CHARS + 1), "too_large", "4096"),
        ("[1, 2]", "bad_message", "object"),
        ('"hello"', "bad_message", "object"),
        ("{}", "bad_message", '"type"'),
        ('{"type": 5}', "bad_message", '"type"'),
        ('{"type": "shout"}', "unknown_type", "hello"),
        ('{"type": "act", "version": 3}', "bad_message", '"action"'),
        ('{"type": "act", "action": "QC"}', "bad_message", '"version"'),
        ('{"type": "act", "action": "QC", "version": "3"}', "bad_message", '"version"'),
        ('{"type": "act", "action": "QC", "version": 3.0}', "bad_message", '"version"'),
        ('{"type": "act", "action": "QC", "version": true}', "bad_message", '"version"'),
        ('{"type": "act", "action": 7, "version": 3}', "bad_message", '"action"'),
        ('{"type": "act", "action": "   ", "version": 3}', "bad_message", '"action"'),
        ('{"type": "act", "action": "' + "Q" * 65 + '", "version": 3}', "bad_message", "64"),
        ('{"type": "act", "action": "QC", "version": 3, "seat": 1}', "bad_message", "seat"),
        ('{"type": "act", "action": "QC", "version": 3, "as": 2}', "bad_message", '"as"'),
        ('{"type": "hello", "token": 12}', "bad_message", '"token"'),
        ('{"type": "hello", "token": "' + "t" * 129 + '"}', "bad_message", "128"),
        ('{"type": "hello", "lang": ["de"]}', "bad_message", '"lang"'),
        ('{"type": "hello", "seat": 0}', "bad_message", "seat"),
        ('{"type": "pong"}', "bad_message", '"nonce"'),
        ('{"type": "pong", "nonce": ""}', "bad_message", '"nonce"'),
        ('{"type": "pong", "nonce": "' + "0" * 33 + '"}', "bad_message", '"nonce"'),
        ('{"type": "ping", "t": [1, [2, [3]]]}', "bad_message", '"t"'),
        ('{"type": "ping", "t": "' + "x" * 65 + '"}', "bad_message", "64"),
        ('{"type": "start", "force": true}', "bad_message", '"force"'),
    ],
)
def test_bad_messages_are_refused_naming_what_is_wrong(
    text: str | bytes, code: str, words: str
) -> None:
    error = refused(text)
    assert error.code == code
    assert words in error.detail or words in translate("en", f"error.{code}"), error.detail


def test_good_messages_are_read() -> None:
    assert parse_client_message('{"type": "hello"}') == Hello(None, None)
    assert parse_client_message('{"type": "hello", "token": "", "lang": "DE-at"}') == Hello(
        None, "de"
    )
    assert parse_client_message('{"type": "hello", "lang": "fr"}') == Hello(None, None)
    assert parse_client_message(b'{"type": "act", "action": " QC ", "version": -1}') == Act(
        "QC", -1
    )
    assert parse_client_message('{"type": "ping", "t": 1.5}') == Ping(1.5)
    assert parse_client_message('{"type": "ping"}') == Ping(None)
    assert parse_client_message('{"type": "start"}') == Start()


# -- rate limits ----------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_token_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=10, burst=5, clock=clock)
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    clock.now += 0.25  # 2.5 tokens
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    clock.now += 3600  # never more than the burst
    assert sum(bucket.take() for _ in range(20)) == 5
    with pytest.raises(ValueError):
        TokenBucket(rate=0, burst=1)


def test_a_person_mashing_a_button_is_throttled_but_never_closed() -> None:
    clock = FakeClock()
    budget = MessageBudget(Limits(), clock=clock)
    verdicts = []
    for _ in range(30 * 60):  # 30 a second for a minute: more than the 20 allowed
        verdicts.append(budget.message())
        clock.now += 1 / 30
    assert Verdict.CLOSE not in verdicts
    accepted = verdicts.count(Verdict.OK)
    assert 20 * 60 <= accepted <= 20 * 60 + 40 + 1


def test_a_script_flooding_is_closed() -> None:
    clock = FakeClock()
    limits = Limits()
    budget = MessageBudget(limits, clock=clock)
    verdicts = []
    for _ in range(1000):  # a thousand a second
        verdicts.append(budget.message())
        clock.now += 0.001
        if verdicts[-1] is Verdict.CLOSE:
            break
    assert verdicts[-1] is Verdict.CLOSE
    assert verdicts[: limits.message_burst] == [Verdict.OK] * limits.message_burst
    assert len(verdicts) < limits.message_burst + limits.flood_messages + 20


def test_hellos_have_their_own_smaller_budget() -> None:
    clock = FakeClock()
    budget = MessageBudget(Limits(), clock=clock)
    assert [budget.hello() for _ in range(6)][-2:] == [Verdict.OK, Verdict.REFUSE]
    clock.now += 2.0  # one hello every two seconds
    assert budget.hello() is Verdict.OK
    assert budget.hello() is Verdict.REFUSE
    # A refusal is told at most once a second.
    assert budget.tell() and not budget.tell()
    clock.now += 1.0
    assert budget.tell()
