"""Texts of the slap games and their terminal game, in German, English and Russian.

>>> say("de", "pile_won", who="Ben", n=3)
'Ben gewinnt den Stapel (3 Karten)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.i18n import cards_text, describe_refusal, has, lookup, translate
from kartentisch.realtime.base import TimedGame
from kartentisch.realtime.records import seat_label

__all__ = ["cards_word", "refusal", "render_timed", "say", "stamp"]

#: What a game's ``describe`` makes of an event: (event, seat names, language) → lines.
Describe = Callable[[Event, Sequence[str] | None, str], list[str]]


def cards_word(n: int, lang: str) -> str:
    """``n`` cards, with the plural of the language (the catalog's ``rt.cards_n.*``).

    >>> cards_word(1, "en"), cards_word(3, "de"), cards_word(22, "ru"), cards_word(11, "ru")
    ('1 card', '3 Karten', '22 карты', '11 карт')
    """
    return translate(lang, "rt.cards_n", n=n)


def say(lang: str, key: str, **fields: Any) -> str:
    """The text ``key`` in ``lang`` (English if missing), formatted with ``fields``.

    A number ``n`` also fills ``{cards}`` as "n cards" in the language.
    """
    if "n" in fields:
        fields.setdefault("cards", cards_word(fields["n"], lang))
    return lookup("rt.", lang, key, fields)


def refusal(error: IllegalActionError, lang: str = "en") -> str:
    """Why an action was refused, in ``lang``."""
    key = "player_safe_refusal" if error.rule == "player_safe" else error.rule
    if has(lang, "rt." + key):
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
        lines.append(f"  {seat_label(seat, names):>12}: {cards_text(lang, stack)}")
    for event in game.events:
        t = getattr(event, "t", None)
        for line in describe(event, names, lang):
            lines.append(f"  {stamp(t) if t is not None else '':>8}  {line}")
    cards = ", ".join(f"{seat_label(s, names)} {k}" for s, k in enumerate(game.points()))
    lines.append(f"  {say(lang, 'final_cards')}: {cards}")
    return lines
