"""The analyses' texts in German, English and Russian (``kartentisch analyze --lang``).

Cards are printed with their symbols (``Q♣``) and Doppelkopf words in the
notation (``re``, ``solo queens``), the same in every language. The JSON of
an analysis (``--json``) is not translated: its ``note`` fields stay English,
the text translates the notes it knows.

>>> t("de", "forced", head="Spiel 1, Stich 2: Anna spielt Q♣")
'Spiel 1, Stich 2: Anna spielt Q♣ (erzwungen)'
>>> note("ru", "a revoke is not valued")
'ошибка масти не оценивается'
>>> note("de", "something new")
'something new'
"""

from __future__ import annotations

from typing import Any, Final

from kartentisch.i18n import lookup

__all__ = ["note", "t"]

#: The notes of unsolved decisions (English in the JSON), as the text prints them.
_NOTES: Final[dict[str, dict[str, str]]] = {
    "a revoke is not valued": {
        "de": "ein Nichtbedienen wird nicht bewertet",
        "ru": "ошибка масти не оценивается",
    },
    "made out of turn: not solved, and the bot speaks only at its turn": {
        "de": "außerhalb der Reihe gesagt: nicht gelöst, der Bot spricht nur, wenn er dran ist",
        "ru": "сказано не в свой ход: не решено, бот говорит только в свой ход",
    },
    "not valued: sampled deals cannot rebuild this game": {
        "de": "nicht bewertet: gezogene Blätter können dieses Spiel nicht nachbauen",
        "ru": "не оценено: случайные раздачи не воспроизводят эту игру",
    },
    "throwing in is not valued": {
        "de": "das Einwerfen wird nicht bewertet",
        "ru": "сброс раздачи не оценивается",
    },
}


def t(lang: str, key: str, **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English where missing), formatted with ``fields``."""
    return lookup("an.", lang, key, fields)


def note(lang: str, text: str) -> str:
    """An English ``note`` of a decision in ``lang`` (as it is, if it is not known)."""
    return _NOTES.get(text, {}).get(lang, text)
