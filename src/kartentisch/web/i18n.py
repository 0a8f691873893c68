"""Texts of the web app in German, English and Russian: the package's one catalog.

The catalogs are ``locale/<lang>/LC_MESSAGES/kartentisch_web.po``, read by
:mod:`kartentisch.i18n` (the same catalog the terminal reads). Message ids are
stable keys (``error.stale_version``, ``ui.your_turn`` …); the page receives a
language's whole catalog as JSON. Refusals of the engines are rendered from
their rule code by :func:`kartentisch.i18n.describe_refusal`, the same text the
CLI prints.

>>> translate("de", "error.stale_version", version=4)
'Der Tisch hat sich inzwischen geändert (jetzt Stand 4): bitte noch einmal.'
>>> negotiate("ru-RU,ru;q=0.9,en;q=0.5"), negotiate("fr, de;q=0.3"), negotiate(None)
('ru', 'de', 'en')
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from kartentisch.errors import IllegalActionError
from kartentisch.i18n import (
    DEFAULT_LANGUAGE,
    DOMAIN,
    LANGUAGES,
    catalog,
    describe_refusal,
    translate,
)

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "catalog",
    "negotiate",
    "refusal",
    "request_language",
    "translate",
]


def refusal(error: IllegalActionError, lang: str) -> str:
    """Why an action was refused, in ``lang``: the engine's rule code rendered."""
    return describe_refusal(error, lang)


def request_language(request: HTTPConnection) -> str:
    """The language a request asks for: ``?lang=``, else its ``Accept-Language``."""
    wanted = request.query_params.get("lang")
    if wanted in LANGUAGES:
        return str(wanted)
    return negotiate(request.headers.get("accept-language"))


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
