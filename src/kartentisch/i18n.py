"""Every text a person sees, in German, English and Russian: one gettext catalog.

The catalogs are ``web/locale/<lang>/LC_MESSAGES/kartentisch_web.po``, read
with Babel and compiled in memory (no build step, no compiled files). The
terminal, the server and the page read the same catalog: the page receives a
language's whole catalog as JSON (``/api/i18n/<lang>``), the terminal and the
server look keys up here. Keys are stable and namespaced: ``term.*`` the
terminal, ``rule.*`` the refusals by the engines' rule codes, ``dk.*`` the
Doppelkopf words, ``explain.*`` the explanations of a deal's value, ``rt.*``
the slap games, ``an.*`` the analysis, ``ui.*``/``lobby.*``… the page.

A text counted by ``n`` may have plural forms: the keys ``KEY.one``,
``KEY.few`` and ``KEY.many`` (Russian uses all three; German and English
one and many); :func:`translate` and the page's ``t()`` pick the form by
``n`` when they exist (``KEY`` itself, if there is one, is the text for a
caller without ``n``).

Refusals from the engines (:class:`~kartentisch.errors.IllegalActionError`)
are rendered from their rule code, so every interface explains a refused
action in the player's language.

>>> t("en", "rule.must_follow_suit", suit="♣")
'you must follow ♣'
>>> t("de", "must_follow_suit", suit="♣")
'du musst ♣ bedienen'
>>> [translate("ru", "explain.points_n", n=n) for n in (1, 3, 11, 21)]
['1 очко', '3 очка', '11 очков', '21 очко']
"""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Iterable, Mapping
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Final

from babel.messages.pofile import read_po

from kartentisch.errors import IllegalActionError

if TYPE_CHECKING:
    from kartentisch.records import ReplayError

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "card_input",
    "card_text",
    "cards_text",
    "catalog",
    "describe_refusal",
    "describe_replay_error",
    "has",
    "lookup",
    "plural_form",
    "t",
    "translate",
]

LANGUAGES: Final = ("de", "en", "ru")
DOMAIN: Final = "kartentisch_web"
DEFAULT_LANGUAGE: Final = "en"
#: Plural form suffixes, in the order the catalogs use them.
PLURAL_FORMS: Final = ("one", "few", "many")


def _po_bytes(lang: str) -> bytes:
    resource = files("kartentisch").joinpath("web", "locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    return resource.read_bytes()


@functools.cache
def _own(lang: str) -> dict[str, str]:
    po = read_po(io.BytesIO(_po_bytes(lang)), locale=lang, domain=DOMAIN)
    out: dict[str, str] = {}
    for message in po:
        if message.id and isinstance(message.id, str) and message.string:
            out[message.id] = str(message.string)
    return out


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """Every message of ``lang`` as {key: text}, English where a translation is missing."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    out: dict[str, str] = {}
    if lang != DEFAULT_LANGUAGE:
        out.update(catalog(DEFAULT_LANGUAGE))
    out.update(_own(lang))
    return out


def own_catalog(lang: str) -> dict[str, str]:
    """The messages written in ``lang`` itself (no English filled in)."""
    return dict(_own(lang if lang in LANGUAGES else DEFAULT_LANGUAGE))


def plural_form(lang: str, n: int) -> str:
    """``one``, ``few`` or ``many``: the plural form of ``n`` in ``lang``.

    >>> [plural_form("ru", n) for n in (1, 2, 5, 11, 22, 111)]
    ['one', 'few', 'many', 'many', 'few', 'many']
    >>> plural_form("de", 1), plural_form("en", 0)
    ('one', 'many')
    """
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "many"


def _text(lang: str, key: str, fields: Mapping[str, Any]) -> str | None:
    messages = catalog(lang)
    n = fields.get("n")
    if isinstance(n, int) and not isinstance(n, bool) and f"{key}.one" in messages:
        form = plural_form(lang, n)
        return messages.get(f"{key}.{form}") or messages.get(f"{key}.many")
    return messages.get(key)


def has(lang: str, key: str) -> bool:
    """Whether the catalog has ``key`` (or its plural forms)."""
    messages = catalog(lang)
    return key in messages or f"{key}.one" in messages


def translate(lang: str, key: str, /, **fields: Any) -> str:
    """The message ``key`` in ``lang``, its ``{name}`` fields filled in (the key if unknown)."""
    text = _text(lang, key, fields)
    if text is None:
        return key
    if fields:
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            return text
    return text


#: Where :func:`t` looks for a key written without its namespace.
_SHORT: Final = ("term.", "rule.")


def t(lang: str, key: str, **fields: Any) -> str:
    """The message ``key`` in ``lang``; raises KeyError for a key the catalog lacks.

    The terminal's keys may be written without their namespace: ``your_hand``
    is ``term.your_hand``, ``must_follow_suit`` is ``rule.must_follow_suit``.
    """
    text = _text(lang, key, fields)
    if text is None and "." not in key:
        for prefix in _SHORT:
            text = _text(lang, prefix + key, fields)
            if text is not None:
                break
    if text is None:
        raise KeyError(f"no message {key!r}")
    return text.format(**fields) if fields else text


def lookup(prefix: str, lang: str, key: str, fields: Mapping[str, Any]) -> str:
    """The message ``prefix + key`` in ``lang``, formatted with ``fields``; the
    terminal's texts of each part of the package are read through this."""
    return t(lang, prefix + key, **fields)


def describe_refusal(error: IllegalActionError, lang: str = "en") -> str:
    """A refused action's reason in ``lang``, from its rule code (``rule.<code>``)."""
    from kartentisch.tricks import suit_label

    key = f"rule.{error.rule}"
    if has(lang, key):
        fields: dict[str, Any] = dict(error.params)
        if "suit" in fields:
            with contextlib.suppress(TypeError, ValueError):
                fields["suit"] = suit_label(int(fields["suit"]))
        if error.action is not None:
            fields.setdefault("card", card_text(lang, error.action))
        elif "card" in fields:
            fields["card"] = card_text(lang, fields["card"])
        try:
            return t(lang, key, **fields)
        except (KeyError, IndexError, ValueError):
            pass
    return error.message


def card_text(lang: str, card: object) -> str:
    """A card as ``lang`` writes it (its rank letter and suit symbol: ``QC`` is ``D♣``
    in German, ``Д♣`` in Russian); text that is no card is returned as it is.

    >>> asked = [("de", "QC"), ("ru", "AH"), ("en", "10D"), ("de", "pass")]
    >>> [card_text(lang, text) for lang, text in asked]
    ['D♣', 'Т♥', '10♦', 'pass']
    """
    from kartentisch.cards import Card
    from kartentisch.errors import NotationError

    if not isinstance(card, Card):
        try:
            card = Card(str(card))
        except (NotationError, ValueError, TypeError):
            return str(card)
    symbol = card.symbol
    rank, suit = symbol[:-1], symbol[-1]
    if rank in _COURT:
        rank = translate(lang, f"card.rank.{rank}")
    return rank + suit


def cards_text(lang: str, cards: Iterable[object]) -> str:
    """Cards as ``lang`` writes them, separated by spaces."""
    return " ".join(card_text(lang, c) for c in cards)


#: The court cards' and the ace's letters of the notation.
_COURT: Final = ("J", "Q", "K", "A")


def card_input(lang: str, text: str) -> str:
    """What a player typed, with the cards written in ``lang``'s letters turned into
    the notation (``DC`` is the queen of clubs in German, ``Т♥`` the ace of hearts in
    Russian); every other word as it is. The notation's own letters are always read.

    >>> asked = [("de", "DC"), ("de", "bh"), ("ru", "Т♥"), ("de", "KD"), ("de", "pass")]
    >>> [card_input(lang, text) for lang, text in asked]
    ['QC', 'JH', 'A♥', 'KD', 'pass']
    >>> card_input("de", "gib DC BS 10H")
    'gib QC JS 10H'
    """
    letters = {translate(lang, f"card.rank.{r}").upper(): r for r in _COURT}

    def one(word: str) -> str:
        if len(word) != 2:
            return word
        rank = letters.get(word[0].upper())
        if rank is None or rank == word[0].upper():
            return word
        suit = word[1]
        if suit.upper() in ("C", "S", "H", "D"):
            return rank + suit.upper()
        if suit in ("♣", "♠", "♥", "♦"):
            return rank + suit
        return word

    return " ".join(one(w) for w in text.split()) if text.strip() else text


def describe_replay_error(error: ReplayError, lang: str) -> str:
    """A refused action of a record in ``lang``: the deal, the action's number, the seat,
        the action (a card in the language's letters) and the rule's reason.

        >>> from kartentisch.errors import IllegalActionError

    if TYPE_CHECKING:
        from kartentisch.records import ReplayError
        >>> refusal = IllegalActionError("must_follow_suit", "must follow ♥", suit=2)
        >>> from kartentisch.records import ReplayError
        >>> error = ReplayError(refusal, position=5, seat=0, action="9D", deal=2, seat_name="Ann")
        >>> describe_replay_error(error, "de")
        'Spiel 2, Zug 5: Ann (Platz 1) spielt 9♦ — du musst ♥ bedienen'
    """
    where = translate(lang, "replay.refused_deal", deal=error.deal) if error.deal else ""
    if error.seat is None:
        who = ""
    elif error.seat_name:
        who = translate(lang, "replay.refused_seat", name=error.seat_name, n=error.seat + 1)
    else:
        who = translate(lang, "lobby.seat_n", n=error.seat + 1)
    return translate(
        lang,
        "replay.refused",
        where=where,
        position=error.position,
        who=who,
        action=card_text(lang, error.action),
        reason=describe_refusal(error.error, lang),
    )
