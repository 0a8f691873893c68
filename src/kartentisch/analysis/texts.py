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

_TEXTS: Final[dict[str, dict[str, str]]] = {
    "card_head": {
        "en": "deal {deal}, trick {trick}: {name} played {card}",
        "de": "Spiel {deal}, Stich {trick}: {name} spielt {card}",
        "ru": "сдача {deal}, взятка {trick}: {name} сыграл(а) {card}",
    },
    "said_head": {
        "en": "deal {deal}, {where}: {name} said {action}",
        "de": "Spiel {deal}, {where}: {name} sagt {action}",
        "ru": "сдача {deal}, {where}: {name} заявил(а) {action}",
    },
    "where_declarations": {"en": "declarations", "de": "Vorbehalte", "ru": "заявки"},
    "where_armut": {"en": "Armut", "de": "Armut", "ru": "Armut"},
    "where_trick": {"en": "trick {trick}", "de": "Stich {trick}", "ru": "взятка {trick}"},
    "forced": {"en": "{head} (forced)", "de": "{head} (erzwungen)", "ru": "{head} (вынужденно)"},
    "with_note": {"en": "{head} ({note})", "de": "{head} ({note})", "ru": "{head} ({note})"},
    # Slobberhannes
    "sh_full_best": {
        "en": "best with all hands known",
        "de": "am besten bei offenen Karten",
        "ru": "лучший ход при открытых картах",
    },
    "sh_full_better": {
        "en": "with all hands known {card} was better by {cost}",
        "de": "bei offenen Karten war {card} um {cost} besser",
        "ru": "при открытых картах {card} было лучше на {cost}",
    },
    "sh_seen_best": {
        "en": "best on what was known",
        "de": "am besten nach dem, was bekannt war",
        "ru": "лучший ход по тому, что было известно",
    },
    "sh_seen_better": {
        "en": "on what was known {card} was better by {cost} expected",
        "de": "nach dem, was bekannt war, war {card} um {cost} im Erwartungswert besser",
        "ru": "по тому, что было известно, {card} было лучше в среднем на {cost}",
    },
    "sh_total": {
        "en": "{name}: {full} chips lost to perfect play, "
        "{expected} expected chips lost on the information at hand",
        "de": "{name}: {full} Chips gegenüber perfektem Spiel verloren, "
        "{expected} Chips im Erwartungswert nach dem jeweils Bekannten",
        "ru": "{name}: {full} фишек потеряно против идеальной игры, "
        "{expected} фишек в среднем по известному на момент хода",
    },
    # Doppelkopf
    "dk_same": {
        "en": "{head}; the strong bot would say the same (not solved)",
        "de": "{head}; der starke Bot würde dasselbe sagen (nicht gelöst)",
        "ru": "{head}; сильный бот заявил бы то же (не решено)",
    },
    "dk_no_word": {
        "en": "{head}; the strong bot would not announce now (not solved)",
        "de": "{head}; der starke Bot würde jetzt nichts ansagen (nicht gelöst)",
        "ru": "{head}; сильный бот сейчас ничего не объявил бы (не решено)",
    },
    "dk_would_say": {
        "en": "{head}; the strong bot would say {action} (not solved)",
        "de": "{head}; der starke Bot würde {action} sagen (nicht gelöst)",
        "ru": "{head}; сильный бот заявил бы {action} (не решено)",
    },
    "dk_full_unsolved": {
        "en": "not solved with all hands known: {note}",
        "de": "bei offenen Karten nicht gelöst: {note}",
        "ru": "при открытых картах не решено: {note}",
    },
    "dk_full_best": {
        "en": "best with all hands known {tag}",
        "de": "am besten bei offenen Karten {tag}",
        "ru": "лучший ход при открытых картах {tag}",
    },
    "dk_full_better": {
        "en": "with all hands known {card} was better by {cost} {unit} ({points} points) {tag}",
        "de": "bei offenen Karten war {card} um {cost} {unit} besser ({points} Punkte) {tag}",
        "ru": "при открытых картах {card} было лучше на {cost} {unit} ({points} очк.) {tag}",
    },
    "unit_augen": {"en": "Augen", "de": "Augen", "ru": "Augen"},
    "unit_tricks": {"en": "tricks", "de": "Stiche", "ru": "взяток"},
    "dk_would_play": {
        "en": "the strong bot would play {action} {tag}",
        "de": "der starke Bot würde {action} spielen {tag}",
        "ru": "сильный бот сыграл бы {action} {tag}",
    },
    "dk_seen_best": {
        "en": "best on what was known {tag}",
        "de": "am besten nach dem, was bekannt war {tag}",
        "ru": "лучший ход по тому, что было известно {tag}",
    },
    "dk_seen_better": {
        "en": "on what was known {action} was better by {cost} expected points {tag}",
        "de": "nach dem, was bekannt war, war {action} um {cost} Punkte im Erwartungswert "
        "besser {tag}",
        "ru": "по тому, что было известно, {action} было лучше в среднем на {cost} очк. {tag}",
    },
    "dk_first_say": {
        "en": "; the strong bot would first say {word} (not solved)",
        "de": "; der starke Bot würde zuerst {word} sagen (nicht gelöst)",
        "ru": "; сильный бот сначала заявил бы {word} (не решено)",
    },
    "dk_total": {
        "en": "{name}: {augen} Augen ({points} points) lost to perfect play "
        "({exact} exact, {estimated} estimated), {expected} expected points "
        "lost on the information at hand; {not_solved} not solved, {forced} forced",
        "de": "{name}: {augen} Augen ({points} Punkte) gegenüber perfektem Spiel verloren "
        "({exact} exakt, {estimated} geschätzt), {expected} Punkte im Erwartungswert "
        "nach dem jeweils Bekannten; {not_solved} nicht gelöst, {forced} erzwungen",
        "ru": "{name}: {augen} Augen ({points} очк.) потеряно против идеальной игры "
        "({exact} точно, {estimated} оценкой), {expected} очк. в среднем по известному "
        "на момент хода; {not_solved} не решено, {forced} вынужденно",
    },
    "tag_exact": {"en": "[exact]", "de": "[exakt]", "ru": "[точно]"},
    "tag_estimate": {
        "en": "[estimate: {horizon} tricks searched, then a greedy playout]",
        "de": "[Schätzung: {horizon} Stiche durchsucht, dann gierig zu Ende gespielt]",
        "ru": "[оценка: перебор на {horizon} взяток, дальше жадная доигровка]",
    },
    "tag_pimc": {
        "en": "[PIMC, {samples} samples]",
        "de": "[PIMC, {samples} Stichproben]",
        "ru": "[PIMC, {samples} выборок]",
    },
    "tag_pimc_estimate": {
        "en": "[PIMC estimate, {samples} samples, {horizon} tricks deep]",
        "de": "[PIMC-Schätzung, {samples} Stichproben, {horizon} Stiche tief]",
        "ru": "[оценка PIMC, {samples} выборок, глубина {horizon} взяток]",
    },
    "tag_heuristic": {
        "en": "[the strong bot's rule, not solved]",
        "de": "[Regel des starken Bots, nicht gelöst]",
        "ru": "[правило сильного бота, не решено]",
    },
}

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
    "announcements are not solved": {
        "de": "Ansagen werden nicht gelöst",
        "ru": "объявления не решаются",
    },
    "declarations are not solved": {
        "de": "Vorbehalte werden nicht gelöst",
        "ru": "заявки не решаются",
    },
    "the Armut is not solved": {
        "de": "die Armut wird nicht gelöst",
        "ru": "Armut не решается",
    },
}


def t(lang: str, key: str, **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English where missing), formatted with ``fields``."""
    return lookup(_TEXTS, lang, key, fields)


def note(lang: str, text: str) -> str:
    """An English ``note`` of a decision in ``lang`` (as it is, if it is not known)."""
    return _NOTES.get(text, {}).get(lang, text)
