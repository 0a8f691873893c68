"""Texts of the web app in German, English and Russian, from gettext catalogs.

The catalogs are ``locale/<lang>/LC_MESSAGES/kartentisch_web.po``, read with
Babel and compiled in memory, so the package ships no compiled files and
needs no build step. Message ids are stable keys (``error.stale_version``,
``ui.your_turn`` …); the page receives a language's whole catalog as JSON.
Refusals of the engines are rendered from their rule code by
:func:`kartentisch.i18n.describe_refusal`, the same text the CLI prints.

>>> translate("de", "error.stale_version", version=4)
'Der Tisch hat sich inzwischen geändert (jetzt Stand 4): bitte noch einmal.'
>>> negotiate("ru-RU,ru;q=0.9,en;q=0.5"), negotiate("fr, de;q=0.3"), negotiate(None)
('ru', 'de', 'en')
"""

from __future__ import annotations

import functools
import gettext
import io
from importlib.resources import files
from typing import Any, Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from kartentisch.errors import IllegalActionError
from kartentisch.i18n import LANGUAGES, describe_refusal

__all__ = ["DOMAIN", "LANGUAGES", "catalog", "negotiate", "refusal", "translate", "translations"]

DOMAIN: Final = "kartentisch_web"
DEFAULT_LANGUAGE: Final = "en"


def _po_bytes(lang: str) -> bytes:
    resource = files("kartentisch.web").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    return resource.read_bytes()


@functools.cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The gettext translations of ``lang`` (English fills what a catalog lacks)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    po = read_po(io.BytesIO(_po_bytes(lang)), locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, po)
    buffer.seek(0)
    result = gettext.GNUTranslations(buffer)
    if lang != DEFAULT_LANGUAGE:
        result.add_fallback(translations(DEFAULT_LANGUAGE))
    return result


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """Every message of ``lang`` as {key: text}, English where a translation is missing."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    out: dict[str, str] = {}
    if lang != DEFAULT_LANGUAGE:
        out.update(catalog(DEFAULT_LANGUAGE))
    po = read_po(io.BytesIO(_po_bytes(lang)), locale=lang, domain=DOMAIN)
    for message in po:
        if message.id and isinstance(message.id, str) and message.string:
            out[message.id] = str(message.string)
    return out


def translate(lang: str, key: str, /, **fields: Any) -> str:
    """The message ``key`` in ``lang``, its ``{name}`` fields filled in."""
    text = translations(lang).gettext(key)
    if fields:
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def refusal(error: IllegalActionError, lang: str) -> str:
    """Why an action was refused, in ``lang``: the engine's rule code rendered."""
    key = f"rule.{error.rule}"
    text = translations(lang).gettext(key)
    if text != key:
        return translate(lang, key, **error.params)
    return describe_refusal(error, lang)


def negotiate(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The best of de/en/ru for an ``Accept-Language`` header."""
    if not accept_language:
        return default
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")):
        pieces = part.strip().split(";")
        tag = pieces[0].strip().lower()[:2]
        quality = 1.0
        for param in pieces[1:]:
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag in LANGUAGES and quality > 0:
            ranked.append((-quality, position, tag))
    return min(ranked)[2] if ranked else default
