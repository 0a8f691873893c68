"""Interface texts in German, English and Russian.

Messages are looked up by a stable key and formatted with named fields.
Refusals from the engines (:class:`~kartentisch.errors.IllegalActionError`)
are rendered from their rule code, so every interface explains a refused
action in the player's language.

>>> t("en", "must_follow_suit", suit="♣")
'you must follow ♣'
>>> t("de", "must_follow_suit", suit="♣")
'du musst ♣ bedienen'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kartentisch.errors import IllegalActionError

__all__ = ["LANGUAGES", "Catalog", "describe_refusal", "lookup", "t"]

LANGUAGES: Final = ("de", "en", "ru")

#: Messages by key, each in the languages it is written in (English always).
Catalog = Mapping[str, Mapping[str, str]]

_CATALOG: Final[dict[str, dict[str, str]]] = {
    # refusals, by rule code
    "must_follow_suit": {
        "en": "you must follow {suit}",
        "de": "du musst {suit} bedienen",
        "ru": "нужно ходить в масть {suit}",
    },
    "not_your_turn": {
        "en": "it is not your turn",
        "de": "du bist nicht an der Reihe",
        "ru": "сейчас не ваш ход",
    },
    "not_in_hand": {
        "en": "{card} is not in your hand",
        "de": "{card} hast du nicht auf der Hand",
        "ru": "карты {card} нет у вас на руке",
    },
    "malformed_call": {
        "en": "this is not a Doppelkopf action as the notation writes it",
        "de": "das ist keine Doppelkopf-Ansage, wie die Notation sie schreibt",
        "ru": "это не действие доппелькопфа в принятой записи",
    },
    "deal_over": {
        "en": "the deal is over",
        "de": "das Spiel ist vorbei",
        "ru": "сдача окончена",
    },
    "bad_notation": {
        "en": "cannot read {text!r}: write rank then suit, e.g. QC, 10H, A♠ (T = 10)",
        "de": "{text!r} ist keine Karte: erst Wert, dann Farbe, z. B. QC, 10H, A♠ (T = 10)",
        "ru": "не понимаю {text!r}: сначала ранг, потом масть, например QC, 10H, A♠ (T = 10)",
    },
    # table
    "you": {"en": "You", "de": "Du", "ru": "Вы"},
    "player_default": {"en": "Player", "de": "Spieler", "ru": "Игрок"},
    "deal_header": {
        "en": "Deal {number} — {dealer} deals, {leader} leads",
        "de": "Spiel {number} — {dealer} gibt, {leader} spielt aus",
        "ru": "Сдача {number} — сдаёт {dealer}, ходит {leader}",
    },
    "your_hand": {"en": "Your hand", "de": "Deine Hand", "ru": "Ваши карты"},
    "playable": {"en": "playable", "de": "spielbar", "ru": "можно сыграть"},
    "trick_n": {"en": "Trick {number}", "de": "Stich {number}", "ru": "Взятка {number}"},
    "plays": {"en": "{who} plays {card}", "de": "{who} spielt {card}", "ru": "{who}: {card}"},
    "wins_trick": {
        "en": "{who} wins trick {number}: {cards}",
        "de": "{who} bekommt Stich {number}: {cards}",
        "ru": "{who} берёт взятку {number}: {cards}",
    },
    "prompt_card": {
        "en": "Your card (h for help): ",
        "de": "Deine Karte (h für Hilfe): ",
        "ru": "Ваша карта (h — помощь): ",
    },
    "help": {
        "en": "Type a card as rank and suit: QC, 10H (or TH), A♠, 7d. "
        "'hand' shows the table again, 'q' quits (the record is saved with --save).",
        "de": "Gib eine Karte als Wert und Farbe ein: QC, 10H (oder TH), A♠, 7d "
        "(C = Kreuz, S = Pik, H = Herz, D = Karo). 'hand' zeigt den Tisch, 'q' beendet.",
        "ru": "Введите карту: ранг и масть — QC, 10H (или TH), A♠, 7d "
        "(C — трефы, S — пики, H — червы, D — бубны). 'hand' — показать стол, 'q' — выход.",
    },
    "refused": {
        "en": "Not allowed: {reason}.",
        "de": "Nicht erlaubt: {reason}.",
        "ru": "Нельзя: {reason}.",
    },
    "penalty_first_trick": {
        "en": "{who} pays {chips} for the first trick",
        "de": "{who} zahlt {chips} für den ersten Stich",
        "ru": "{who}: ремиз {chips} за первую взятку",
    },
    "penalty_queen_of_clubs": {
        "en": "{who} pays {chips} for the queen of clubs",
        "de": "{who} zahlt {chips} für die Kreuz-Dame",
        "ru": "{who}: ремиз {chips} за даму треф",
    },
    "penalty_last_trick": {
        "en": "{who} pays {chips} for the last trick",
        "de": "{who} zahlt {chips} für den letzten Stich",
        "ru": "{who}: ремиз {chips} за последнюю взятку",
    },
    "penalty_all_three": {
        "en": "{who} took all three and pays {chips} extra",
        "de": "{who} hat alle drei und zahlt {chips} extra",
        "ru": "{who} взял все три и платит ещё {chips}",
    },
    "penalty_revoke": {
        "en": "{who} pays {chips} for a revoke",
        "de": "{who} zahlt {chips} fürs Nichtbedienen",
        "ru": "{who}: ремиз {chips} за неснос масти",
    },
    "deal_result": {
        "en": "Deal {number} over. Penalties this deal:",
        "de": "Spiel {number} vorbei. Strafpunkte dieses Spiels:",
        "ru": "Сдача {number} окончена. Ремизы за сдачу:",
    },
    "standings": {"en": "Standings", "de": "Stand", "ru": "Счёт"},
    "player": {"en": "Player", "de": "Spieler", "ru": "Игрок"},
    "this_deal": {"en": "This deal", "de": "Dieses Spiel", "ru": "Сдача"},
    "penalties": {"en": "Penalties", "de": "Strafpunkte", "ru": "Ремизы"},
    "chips": {"en": "Chips", "de": "Chips", "ru": "Фишки"},
    "settlement": {"en": "Settlement", "de": "Abrechnung", "ru": "Расчёт"},
    "next_deal": {
        "en": "Enter for the next deal, q to quit: ",
        "de": "Enter für das nächste Spiel, q zum Beenden: ",
        "ru": "Enter — следующая сдача, q — выход: ",
    },
    "match_lost": {
        "en": "{who} reached {target} and loses the match.",
        "de": "{who} hat {target} erreicht und verliert die Partie.",
        "ru": "{who} набрал {target} и проигрывает партию.",
    },
    "match_won": {
        "en": "Fewest penalties: {who} win(s) the match.",
        "de": "Die wenigsten Strafpunkte: {who} gewinnt.",
        "ru": "Меньше всех ремизов: {who} — выигрыш.",
    },
    "saved": {
        "en": "Record saved to {path}",
        "de": "Protokoll gespeichert: {path}",
        "ru": "Запись сохранена: {path}",
    },
    "bye": {"en": "Goodbye.", "de": "Tschüss.", "ru": "До свидания."},
    "cut_prompt": {
        "en": "Cut the deck: how many cards to lift (1-{max}, Enter for none)? ",
        "de": "Abheben: wie viele Karten (1-{max}, Enter für keine)? ",
        "ru": "Снимите колоду: сколько карт (1-{max}, Enter — не снимать)? ",
    },
    "draw": {
        "en": "Drawing for the lead: {cards}. {who} leads.",
        "de": "Ziehen um das Ausspiel: {cards}. {who} spielt aus.",
        "ru": "Тянем карты: {cards}. Первым ходит {who}.",
    },
    "team": {"en": "Side", "de": "Partei", "ru": "Команда"},
    "hint": {
        "en": "Hint: {card} — {reason}",
        "de": "Tipp: {card} — {reason}",
        "ru": "Подсказка: {card} — {reason}",
    },
    "hint_reason": {
        "en": "expected penalty {value} (next best {other}: {other_value})",
        "de": "erwartete Strafe {value} (nächstbeste {other}: {other_value})",
        "ru": "ожидаемый ремиз {value} (следующая {other}: {other_value})",
    },
    "hint_forced": {
        "en": "the only card you may play",
        "de": "die einzige spielbare Karte",
        "ru": "единственная возможная карта",
    },
    "hint_points": {
        "en": "expected {value} points (next best {other}: {other_value})",
        "de": "erwartet {value} Punkte (nächstbeste {other}: {other_value})",
        "ru": "ожидается {value} очков (следующая {other}: {other_value})",
    },
    "hint_not_searched": {
        "en": "by table wisdom, not searched",
        "de": "nach Faustregel, nicht durchgerechnet",
        "ru": "по эвристике, без перебора",
    },
    "hint_early": {
        "en": "by table wisdom; the search starts {n} tricks before the end",
        "de": "nach Faustregel; durchgerechnet wird ab {n} Stichen vor Schluss",
        "ru": "по эвристике; перебор начинается за {n} взяток до конца",
    },
}


def lookup(catalog: Catalog, lang: str, key: str, fields: Mapping[str, Any]) -> str:
    """The message ``key`` of ``catalog`` in ``lang`` (English if missing), formatted with
    ``fields``; every catalog of the package is read through this."""
    entry = catalog.get(key)
    if entry is None:
        raise KeyError(f"no message {key!r}")
    text = entry.get(lang) or entry["en"]
    return text.format(**fields) if fields else text


def t(lang: str, key: str, **fields: Any) -> str:
    """The message ``key`` in ``lang`` (English if missing), formatted with ``fields``."""
    return lookup(_CATALOG, lang, key, fields)


def describe_refusal(error: IllegalActionError, lang: str = "en") -> str:
    """A refused action's reason in ``lang``, from its rule code when known."""
    from kartentisch.tricks import suit_label

    if error.rule in _CATALOG:
        fields = dict(error.params)
        if "suit" in fields:
            fields["suit"] = suit_label(int(fields["suit"]))
        if error.action is not None:
            action = error.action
            fields.setdefault("card", getattr(action, "symbol", str(action)))
        try:
            return t(lang, error.rule, **fields)
        except (KeyError, IndexError):
            pass
    return error.message
