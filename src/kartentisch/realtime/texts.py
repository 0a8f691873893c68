"""Texts of the slap games and their terminal game, in German, English and Russian.

>>> say("de", "pile_won", who="Ben", n=3)
'Ben gewinnt den Stapel (3 Karten)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from kartentisch.cards import format_cards
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.i18n import describe_refusal, lookup
from kartentisch.realtime.base import TimedGame
from kartentisch.realtime.records import seat_label

__all__ = ["cards_word", "refusal", "render_timed", "say", "stamp"]

#: What a game's ``describe`` makes of an event: (event, seat names, language) → lines.
Describe = Callable[[Event, Sequence[str] | None, str], list[str]]

_T: Final[dict[str, dict[str, str]]] = {
    # -- events ------------------------------------------------------------
    "card_turned": {
        "en": "{who} turns {card}",
        "de": "{who} dreht {card} um",
        "ru": "{who} открывает {card}",
    },
    "card_called": {
        "en": "{who} turns {card}, calling “{call}”",
        "de": "{who} dreht {card} um und sagt „{call}“",
        "ru": "{who} открывает {card} и называет «{call}»",
    },
    "match": {
        "en": "SNAP! {card} is the {call} called: everyone slap!",
        "de": "SCHNAPP! {card} passt zu „{call}“: alle hauen!",
        "ru": "ХЛОП! {card} совпала с «{call}»: все бьют!",
    },
    "pile_won": {
        "en": "{who} wins the pile ({cards})",
        "de": "{who} gewinnt den Stapel ({cards})",
        "ru": "{who} забирает стопку ({cards})",
    },
    "comeback": {
        "en": "{who} slapped back into the game",
        "de": "{who} hat sich zurück ins Spiel gehauen",
        "ru": "{who} возвращается в игру",
    },
    "false_slap": {
        "en": "{who} slapped {card} (no jack) and gives a card to {to}",
        "de": "{who} haut auf {card} (kein Bube) und gibt {to} eine Karte",
        "ru": "{who} ударил по {card} (не валет) и отдаёт карту: {to}",
    },
    "false_slap_pile": {
        "en": "{who} slapped {card} (no jack); the card goes under the pile",
        "de": "{who} haut auf {card} (kein Bube); die Karte kommt unter den Stapel",
        "ru": "{who} ударил по {card} (не валет); карта уходит под стопку",
    },
    "false_slap_own": {
        "en": "{who} slapped their own {card} (no jack): one card goes to the bottom",
        "de": "{who} haut auf die eigene Karte {card} (kein Bube): eine Karte nach unten",
        "ru": "{who} ударил по своей карте {card} (не валет): одна карта уходит вниз",
    },
    "split_no_call": {
        "en": "{who} forgot to call “Slapjack!”: the others share the pile ({shares})",
        "de": "{who} hat nicht „Slapjack!“ gerufen: die anderen teilen den Stapel ({shares})",
        "ru": "{who} забыл крикнуть «Слэпджек!»: остальные делят стопку ({shares})",
    },
    "split_false_slap": {
        "en": "{who} slapped {card}, no jack: the others share the pile ({shares})",
        "de": "{who} haut auf {card}, kein Bube: die anderen teilen den Stapel ({shares})",
        "ru": "{who} ударил по {card}, это не валет: остальные делят стопку ({shares})",
    },
    "out_of_cards": {
        "en": "{who} has no cards left (may slap back in on the next jack)",
        "de": "{who} hat keine Karten mehr (darf auf den nächsten Buben hauen)",
        "ru": "У {who} кончились карты (можно вернуться, побив следующего валета)",
    },
    "player_out_lost_jack": {
        "en": "{who} did not win the jack and is out",
        "de": "{who} hat den Buben nicht bekommen und scheidet aus",
        "ru": "{who} не взял валета и выбывает",
    },
    "player_out_false_slap": {
        "en": "{who} slapped falsely without cards and is out",
        "de": "{who} hat ohne Karten falsch gehauen und scheidet aus",
        "ru": "{who} ударил не туда без карт и выбывает",
    },
    "player_out_no_call": {
        "en": "{who} forgot the call without cards and is out",
        "de": "{who} hat ohne Karten nicht gerufen und scheidet aus",
        "ru": "{who} без карт забыл крикнуть и выбывает",
    },
    "turned_over": {
        "en": "Nobody has a card: {who} turns the pile over ({cards})",
        "de": "Niemand hat Karten: {who} dreht den Stapel um ({cards})",
        "ru": "Карт ни у кого нет: {who} переворачивает стопку ({cards})",
    },
    "late_slap": {
        "en": "{who} slaps too late",
        "de": "{who} haut zu spät",
        "ru": "{who} опоздал",
    },
    "end_last_in": {
        "en": "Everyone else is out: {who} wins with all 52 cards!",
        "de": "Alle anderen sind raus: {who} gewinnt mit allen 52 Karten!",
        "ru": "Все остальные выбыли: {who} побеждает со всеми 52 картами!",
    },
    "end_time_limit": {
        "en": "Time is up: most cards ({n}): {who} win(s)!",
        "de": "Die Zeit ist um: die meisten Karten ({n}) hat {who} – gewonnen!",
        "ru": "Время вышло: больше всего карт ({n}) у {who} — победа!",
    },
    "slapped": {"en": "{who} slaps ({n}.)", "de": "{who} haut ({n}.)", "ru": "{who} бьёт ({n}-й)"},
    "taken_last_slap": {
        "en": "{who} slapped last and takes the pile ({cards})",
        "de": "{who} hat zuletzt gehauen und nimmt den Stapel ({cards})",
        "ru": "{who} ударил последним и забирает стопку ({cards})",
    },
    "taken_too_slow": {
        "en": "{who} did not slap in time and takes the pile ({cards})",
        "de": "{who} hat nicht rechtzeitig gehauen und nimmt den Stapel ({cards})",
        "ru": "{who} не успел ударить и забирает стопку ({cards})",
    },
    "taken_false_slap": {
        "en": "{who} slapped {card} falsely and takes the pile ({cards})",
        "de": "{who} haut falsch auf {card} und nimmt den Stapel ({cards})",
        "ru": "{who} ошибочно ударил по {card} и забирает стопку ({cards})",
    },
    "count_restarts": {
        "en": "The count starts again at Ace; {who} plays",
        "de": "Es wird wieder ab Ass gezählt; {who} legt",
        "ru": "Счёт снова с туза; ходит {who}",
    },
    "player_safe": {
        "en": "{who} has no cards left and is safe",
        "de": "{who} hat keine Karten mehr und ist raus (gewonnen)",
        "ru": "У {who} кончились карты — спасён",
    },
    "irish_end": {
        "en": "{who} is the last with cards and loses",
        "de": "{who} hat als Letzter noch Karten und verliert",
        "ru": "{who} последним остался с картами и проигрывает",
    },
    # -- refusals by rule code ----------------------------------------------
    "empty_pile": {
        "en": "there is no card on the pile to slap",
        "de": "auf dem Stapel liegt keine Karte",
        "ru": "в стопке нет карты",
    },
    "already_slapped": {
        "en": "you have already slapped this card",
        "de": "du hast schon auf diese Karte gehauen",
        "ru": "вы уже ударили по этой карте",
    },
    "player_out": {
        "en": "you are out of the game",
        "de": "du bist ausgeschieden",
        "ru": "вы выбыли из игры",
    },
    "player_safe_refusal": {
        "en": "you are safe and out of the game",
        "de": "du hast keine Karten mehr und spielst nicht mehr mit",
        "ru": "вы уже спасены и не играете",
    },
    "slap_pending": {
        "en": "the match on the pile must be slapped first",
        "de": "erst muss auf die passende Karte gehauen werden",
        "ru": "сначала нужно ударить по совпавшей карте",
    },
    "not_your_turn": {
        "en": "it is not your turn to turn a card",
        "de": "du bist nicht mit Legen dran",
        "ru": "сейчас не ваша очередь открывать карту",
    },
    "out_of_time_order": {
        "en": "the action comes too late in time order",
        "de": "die Aktion kommt zeitlich zu spät",
        "ru": "действие нарушает порядок времени",
    },
    "game_over": {"en": "the game is over", "de": "das Spiel ist vorbei", "ru": "игра окончена"},
    "no_slap_call": {
        "en": "Irish Snap has no call on the slap",
        "de": "Bei Irish Snap wird beim Hauen nichts gerufen",
        "ru": "в Irish Snap при ударе ничего не кричат",
    },
    # -- the terminal game ---------------------------------------------------
    "header": {
        "en": "{game}: {players} players, {dealer} deals, {first} starts",
        "de": "{game}: {players} Spieler, {dealer} gibt, {first} fängt an",
        "ru": "{game}: игроков {players}, сдаёт {dealer}, начинает {first}",
    },
    "keys_slapjack": {
        "en": "Keys: SPACE slap · c slap and call “Slapjack!” · ENTER/t turn your card · "
        "q quit · h help",
        "de": "Tasten: LEERTASTE hauen · c hauen und „Slapjack!“ rufen · ENTER/t Karte "
        "umdrehen · q beenden · h Hilfe",
        "ru": "Клавиши: ПРОБЕЛ — ударить · c — ударить с криком «Слэпджек!» · ENTER/t — "
        "открыть карту · q — выход · h — помощь",
    },
    "keys_irish": {
        "en": "Keys: SPACE slap · ENTER/t turn your card · q quit · h help",
        "de": "Tasten: LEERTASTE hauen · ENTER/t Karte umdrehen · q beenden · h Hilfe",
        "ru": "Клавиши: ПРОБЕЛ — ударить · ENTER/t — открыть карту · q — выход · h — помощь",
    },
    "auto_turn": {
        "en": "Your card is turned for you after {seconds:.1f} s.",
        "de": "Deine Karte wird nach {seconds:.1f} s automatisch umgedreht.",
        "ru": "Ваша карта откроется сама через {seconds:.1f} с.",
    },
    "your_turn": {
        "en": "Your turn: ENTER turns your card",
        "de": "Du bist dran: ENTER dreht deine Karte um",
        "ru": "Ваш ход: ENTER открывает карту",
    },
    "your_turnover": {
        "en": "Nobody has a card: ENTER turns the pile over",
        "de": "Niemand hat Karten: ENTER dreht den Stapel um",
        "ru": "Карт ни у кого нет: ENTER переворачивает стопку",
    },
    "status": {
        "en": "pile {pile} · top {top}",
        "de": "Stapel {pile} · oben {top}",
        "ru": "стопка {pile} · сверху {top}",
    },
    "next_call": {"en": "next call", "de": "nächste Ansage", "ru": "следующий"},
    "out_mark": {"en": "out", "de": "raus", "ru": "выбыл"},
    "safe_mark": {"en": "safe", "de": "fertig", "ru": "спасён"},
    "you": {"en": "Player", "de": "Spieler", "ru": "Игрок"},
    "refused": {
        "en": "Not allowed: {reason}",
        "de": "Nicht erlaubt: {reason}",
        "ru": "Нельзя: {reason}",
    },
    "saved": {
        "en": "Record saved to {path}",
        "de": "Protokoll gespeichert: {path}",
        "ru": "Запись сохранена: {path}",
    },
    "bye": {"en": "Goodbye.", "de": "Tschüss.", "ru": "До свидания."},
    "final_cards": {"en": "Cards", "de": "Karten", "ru": "Карты"},
}


def cards_word(n: int, lang: str) -> str:
    """``n`` cards, with the plural of the language.

    >>> cards_word(1, "en"), cards_word(3, "de"), cards_word(22, "ru"), cards_word(11, "ru")
    ('1 card', '3 Karten', '22 карты', '11 карт')
    """
    if lang == "de":
        return f"{n} Karte" if n == 1 else f"{n} Karten"
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return f"{n} карта"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return f"{n} карты"
        return f"{n} карт"
    return f"{n} card" if n == 1 else f"{n} cards"


def say(lang: str, key: str, **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English if missing), formatted with ``fields``.

    A number ``n`` also fills ``{cards}`` as "n cards" in the language.
    """
    if "n" in fields:
        fields.setdefault("cards", cards_word(fields["n"], lang))
    return lookup(_T, lang, key, fields)


def refusal(error: IllegalActionError, lang: str = "en") -> str:
    """Why an action was refused, in ``lang``."""
    key = "player_safe_refusal" if error.rule == "player_safe" else error.rule
    if key in _T:
        return say(lang, key)
    return describe_refusal(error, lang)


def stamp(t: int) -> str:
    """A game time as seconds: ``12.345s``.

    >>> stamp(12345)
    ' 12.345s'
    """
    return f"{t / 1000:7.3f}s"


def render_timed(
    game: TimedGame[Any], lang: str, titles: Mapping[str, str], describe: Describe
) -> list[str]:
    """The stacks as dealt, every event with its game time, the cards at the end.

    ``titles`` names the game by language (English when ``lang`` is missing);
    ``describe`` turns each event into lines.
    """
    names = game.seat_names
    n = game.num_seats
    lines = [
        say(
            lang,
            "header",
            game=titles.get(lang, titles["en"]),
            players=n,
            dealer=seat_label(game.dealer, names),
            first=seat_label((game.dealer + 1) % n, names),
        )
    ]
    for seat, stack in enumerate(game.initial_stacks):
        lines.append(f"  {seat_label(seat, names):>12}: {format_cards(stack, symbols=True)}")
    for event in game.events:
        t = getattr(event, "t", None)
        for line in describe(event, names, lang):
            lines.append(f"  {stamp(t) if t is not None else '':>8}  {line}")
    cards = ", ".join(f"{seat_label(s, names)} {k}" for s, k in enumerate(game.points()))
    lines.append(f"  {say(lang, 'final_cards')}: {cards}")
    return lines
