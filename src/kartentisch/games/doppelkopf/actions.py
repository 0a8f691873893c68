"""Doppelkopf actions and their notation (docs/notation.md).

An action is a :class:`~kartentisch.cards.Card` (a card played) or a
:class:`Call`: a word for a declaration, a reservation, the Armut exchange
or an announcement. Both round-trip through text, case-insensitively, with
German aliases:

>>> parse_action("QC"), parse_action("Solo Damen ouvert"), parse_action("keine 90")
(Card('QC'), Call('solo queens ouvert'), Call('no90'))
>>> str(parse_action("gib 10d ad qh")), str(parse_action("hochzeit fehl"))
('give QH 10D AD', 'hochzeit first_nontrump')
>>> parse_action("solo chess")
Traceback (most recent call last):
...
kartentisch.errors.NotationError: unknown solo kind 'chess': use trump, queens, jacks, clubs, \
spades, hearts, diamonds, no_trump, null, fleischlos, kings, queens_jacks, kings_queens, \
kings_jacks, koehler
>>> parse_action("Solo Damen-Buben"), parse_action("solo könige")
(Call('solo queens_jacks'), Call('solo kings'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from kartentisch.cards import Card, parse_cards
from kartentisch.errors import NotationError
from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.games.doppelkopf.scoring_base import WORDS as ANNOUNCEMENT_WORDS

__all__ = [
    "ANNOUNCEMENTS",
    "HOCHZEIT_RULES",
    "WORDS",
    "Action",
    "Call",
    "format_action",
    "parse_action",
]

#: The announcements in their order: Re or Kontra first, then the stages.
ANNOUNCEMENTS: Final[tuple[str, ...]] = ANNOUNCEMENT_WORDS
#: How the partner of a Hochzeit is found (seed 003, RULINGS).
HOCHZEIT_RULES: Final = ("first_trick", "first_trump", "first_nontrump")
#: Every word of the notation.
WORDS: Final = (
    "pass",
    "vorbehalt",
    "scharfe",
    "solo",
    "hochzeit",
    "armut",
    "accept",
    "refuse",
    "give",
    "return",
    "redeal",
    "take_back",
    *ANNOUNCEMENTS,
)


@dataclass(frozen=True, slots=True)
class Call:
    """A spoken action: ``word`` and, where the word takes them, its details.

    ``detail`` is the solo kind (``solo``), the partner rule (``hochzeit``) or
    ``aces``/``kings``/``aces kings`` (``scharfe``; empty: all held);
    ``cards`` are the cards of ``give``/``return``.
    """

    word: str
    detail: str = ""
    ouvert: bool = False
    cards: tuple[Card, ...] = ()

    @property
    def is_announcement(self) -> bool:
        return self.word in _ANNOUNCEMENT_SET

    def __str__(self) -> str:
        parts = [self.word]
        if self.detail:
            parts.append(self.detail)
        if self.ouvert:
            parts.append("ouvert")
        if self.cards:
            parts.extend(map(str, self.cards))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Call({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read a word action (not a card); see :func:`parse_action`."""
        action = parse_action(text)
        if not isinstance(action, Call):
            raise NotationError(f"{text!r} is a card, not a word")
        return action


Action = Card | Call

_ANNOUNCEMENT_SET: Final = frozenset(ANNOUNCEMENTS)

#: Aliases (after lower-casing and joining spaces/hyphens with "_") → word.
_WORD_ALIASES: Final[dict[str, str]] = {
    **{w: w for w in WORDS},
    "gesund": "pass",
    "weiter": "pass",
    "nichts": "pass",
    "reservation": "vorbehalt",
    "hochzeit": "hochzeit",
    "marriage": "hochzeit",
    "armut": "armut",
    "poverty": "armut",
    "mangelnder_trumpf": "armut",
    "annehmen": "accept",
    "ja": "accept",
    "yes": "accept",
    "ablehnen": "refuse",
    "decline": "refuse",
    "gib": "give",
    "geben": "give",
    "abgeben": "give",
    "zurück": "return",
    "zurueck": "return",
    "zurückgeben": "return",
    "einmischen": "redeal",
    "schmeißen": "redeal",
    "schmeissen": "redeal",
    "takeback": "take_back",
    "zurücknehmen": "take_back",
    "zuruecknehmen": "take_back",
    "kulanz": "take_back",
    "contra": "kontra",
    "keine_90": "no90",
    "keine90": "no90",
    "k90": "no90",
    "u9": "no90",
    "unter_90": "no90",
    "no_90": "no90",
    "keine_60": "no60",
    "keine60": "no60",
    "k60": "no60",
    "u6": "no60",
    "unter_60": "no60",
    "no_60": "no60",
    "keine_30": "no30",
    "keine30": "no30",
    "k30": "no30",
    "u3": "no30",
    "unter_30": "no30",
    "no_30": "no30",
    "black": "schwarz",
    "keine_0": "schwarz",
    "no0": "schwarz",
    # Russian (the terminal's words in Russian; docs/notation.md)
    "пас": "pass",
    "здоров": "pass",
    "оговорка": "vorbehalt",
    "острые": "scharfe",
    "соло": "solo",
    "свадьба": "hochzeit",
    "бедность": "armut",
    "принять": "accept",
    "принимаю": "accept",
    "отказ": "refuse",
    "отказаться": "refuse",
    "отдать": "give",
    "вернуть": "return",
    "пересдача": "redeal",
    "взять_назад": "take_back",
    "отменить": "take_back",
    "ре": "re",
    "контра": "kontra",
    "без_90": "no90",
    "без90": "no90",
    "без_60": "no60",
    "без60": "no60",
    "без_30": "no30",
    "без30": "no30",
    "шварц": "schwarz",
}
_SOLO_ALIASES: Final[dict[str, str]] = {
    **{k: k for k in ALL_SOLI},
    "trumpf": "trump",
    "trumpfsolo": "trump",
    "damen": "queens",
    "ober": "queens",
    "obersolo": "queens",
    "damensolo": "queens",
    "buben": "jacks",
    "unter": "jacks",
    "untersolo": "jacks",
    "bubensolo": "jacks",
    "kreuz": "clubs",
    "eichel": "clubs",
    "pik": "spades",
    "grün": "spades",
    "gruen": "spades",
    "laub": "spades",
    "herz": "hearts",
    "rot": "hearts",
    "karo": "diamonds",
    "schell": "diamonds",
    "schellen": "diamonds",
    "ohne": "no_trump",
    "ohne_trumpf": "no_trump",
    "notrump": "no_trump",
    "nullsolo": "null",
    "koenige": "kings",
    "könige": "kings",
    "koenigssolo": "kings",
    "königssolo": "kings",
    "damen_buben": "queens_jacks",
    "damenbuben": "queens_jacks",
    "koenige_damen": "kings_queens",
    "könige_damen": "kings_queens",
    "koenige_buben": "kings_jacks",
    "könige_buben": "kings_jacks",
    "köhler": "koehler",
    "fleischloser": "fleischlos",
    "meatless": "fleischlos",
    "козырное": "trump",
    "козыри": "trump",
    "дамы": "queens",
    "дам": "queens",
    "валеты": "jacks",
    "валетов": "jacks",
    "трефы": "clubs",
    "треф": "clubs",
    "пики": "spades",
    "пик": "spades",
    "червы": "hearts",
    "червей": "hearts",
    "бубны": "diamonds",
    "бубен": "diamonds",
    "без_козырей": "no_trump",
    "нулевое": "null",
    "короли": "kings",
    "королей": "kings",
    "дамы_валеты": "queens_jacks",
    "короли_дамы": "kings_queens",
    "короли_валеты": "kings_jacks",
    "кёлер": "koehler",
    "келер": "koehler",
    "без_мяса": "fleischlos",
}
_HOCHZEIT_ALIASES: Final[dict[str, str]] = {
    **{k: k for k in HOCHZEIT_RULES},
    "first": "first_trick",
    "fremd": "first_trick",
    "erster": "first_trick",
    "erster_fremder": "first_trick",
    "trump": "first_trump",
    "trumpf": "first_trump",
    "nontrump": "first_nontrump",
    "fehl": "first_nontrump",
    "первая": "first_trick",
    "чужая": "first_trick",
    "козырная": "first_trump",
    "некозырная": "first_nontrump",
}
_SCHARFE_ALIASES: Final[dict[str, str]] = {
    "aces": "aces",
    "asse": "aces",
    "ace": "aces",
    "kings": "kings",
    "könige": "kings",
    "koenige": "kings",
    "king": "kings",
    "тузы": "aces",
    "короли": "kings",
}
_SPLIT: Final = re.compile(r"[\s,]+")
_CACHE: dict[str, Action] = {}


def _key(token: str) -> str:
    return token.strip().lower().replace("-", "_")


def _word(tokens: list[str]) -> tuple[str, list[str]]:
    """The word at the head of ``tokens`` (two-token aliases such as ``keine 90``)."""
    if len(tokens) >= 2:
        joined = _key(tokens[0]) + "_" + _key(tokens[1])
        if joined in _WORD_ALIASES:
            return _WORD_ALIASES[joined], tokens[2:]
    head = _key(tokens[0])
    if head in _WORD_ALIASES:
        return _WORD_ALIASES[head], tokens[1:]
    raise NotationError(
        f"cannot read {' '.join(tokens)!r}: write a card (QC, 10H) or a word ({', '.join(WORDS)})"
    )


def parse_action(text: str) -> Action:
    """Read a card or a word action, case-insensitively (results are cached)."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be written as text, not {type(text).__name__}")
    cached = _CACHE.get(text)
    if cached is not None:
        return cached
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if not tokens:
        raise NotationError("an empty action: write a card (QC, 10H) or a word such as re or pass")
    head = _key(tokens[0])
    action: Action
    if len(tokens) == 1 and head not in _WORD_ALIASES:
        try:
            action = Card.parse(tokens[0])
        except NotationError:
            _word(tokens)  # raises the word error
            raise
    else:
        word, rest = _word(tokens)
        action = _call(word, rest, text)
    if len(_CACHE) < 4096:
        _CACHE[text] = action
    return action


def _call(word: str, rest: list[str], text: str) -> Call:
    if word == "solo":
        if not rest:
            raise NotationError(
                f"{text!r}: name the solo, e.g. 'solo queens' or 'solo trump ouvert'"
            )
        ouvert = _key(rest[-1]) in ("ouvert", "offen", "open", "открытое", "открыто")
        body = rest[:-1] if ouvert else rest
        kind = _SOLO_ALIASES.get("_".join(_key(t) for t in body))
        if kind is None:
            raise NotationError(f"unknown solo kind {' '.join(body)!r}: use {', '.join(ALL_SOLI)}")
        return Call("solo", kind, ouvert)
    if word == "hochzeit":
        if not rest:
            return Call("hochzeit")
        rule = _HOCHZEIT_ALIASES.get("_".join(_key(t) for t in rest))
        if rule is None:
            raise NotationError(
                f"unknown Hochzeit rule {' '.join(rest)!r}: use {', '.join(HOCHZEIT_RULES)}"
            )
        return Call("hochzeit", rule)
    if word == "scharfe":
        parts = set()
        for token in rest:
            part = _SCHARFE_ALIASES.get(_key(token))
            if part is None:
                raise NotationError(f"scharfe takes 'aces' and/or 'kings', not {token!r}")
            parts.add(part)
        return Call("scharfe", " ".join(sorted(parts)))
    if word in ("give", "return"):
        cards = tuple(parse_cards(rest))
        if not cards:
            raise NotationError(f"{text!r}: name the cards, e.g. '{word} 10D AD QH'")
        return Call(word, cards=tuple(sorted(cards)))
    if rest:
        raise NotationError(f"{word!r} takes nothing after it, not {' '.join(rest)!r}")
    return Call(word)


def format_action(action: Action) -> str:
    """The canonical text of an action (what records store)."""
    return str(action)
