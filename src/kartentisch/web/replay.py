"""The replay viewer's data: a game record replayed by its rules, for the page.

:func:`replay_record` takes a record (``kartentisch-record/1``, as the CLI
writes it, a table's "Download record" gives it, or a person opens it from a
file), replays it through the game's engine and returns what the page's
replay viewer shows: the game, the seats' names, the game's summary (the
JSON of ``kartentisch replay --json``: tricks with their leaders and
winners, points, and for Doppelkopf the game type, parties, Augen,
announcements …) and the whole game as text in the reader's language (the
lines ``kartentisch replay`` prints). A record the rules refuse is refused
here with the reason; nothing is stored.

>>> from kartentisch.games.slobberhannes import SlobberhannesMatch
>>> match = SlobberhannesMatch({"target": 1}, seats=["Ann", "Ben", "Cy", "Dee"], seed=7)
>>> while not match.is_over:
...     _ = match.apply(match.legal_actions()[0])
>>> shown = replay_record(match.to_record(), "en")
>>> shown["game"], shown["names"], len(shown["summary"]["deals"][0]["tricks"])
('slobberhannes', ['Ann', 'Ben', 'Cy', 'Dee'], 8)
>>> replay_record({"format": "kartentisch-record/1", "game": "chess"}, "en")
Traceback (most recent call last):
...
kartentisch.web.replay.BadRecord: unknown game 'chess': choose one of slobberhannes, ...
"""

from __future__ import annotations

from typing import Any, Final

from kartentisch.errors import KartentischError
from kartentisch.games import get_game
from kartentisch.i18n import describe_replay_error
from kartentisch.records import ReplayError, check_record

__all__ = ["MAX_RECORD_BYTES", "BadRecord", "replay_record"]

#: The largest record the viewer replays (a long Doppelkopf session is some tens of KiB).
MAX_RECORD_BYTES: Final = 1024 * 1024


class BadRecord(KartentischError):
    """A record that cannot be shown: malformed, of an unknown game, or refused by its rules."""


def replay_record(record: Any, lang: str) -> dict[str, Any]:
    """What the replay viewer shows of ``record``, with the text in ``lang``.

    Raises :class:`BadRecord` naming what is wrong (the engine's words: the
    position, seat, action and rule of an illegal action).
    """
    try:
        checked = check_record(record)
        spec = get_game(checked["game"])
        game = spec.replay(checked)
        summary = spec.summarize(game)
        text = spec.render(game, lang)
    except ReplayError as exc:  # an action the rules refuse: where, who, what and why
        raise BadRecord(describe_replay_error(exc, lang)) from None
    except KartentischError as exc:  # the records' checks say what is wrong
        raise BadRecord(str(exc)) from None
    seats = checked.get("seats")
    names = [str(n) for n in seats] if isinstance(seats, list) else []
    return {
        "game": spec.name,
        "titles": dict(spec.titles),
        "names": names,
        "options": checked.get("options") if isinstance(checked.get("options"), dict) else {},
        "summary": summary,
        "text": text,
    }
