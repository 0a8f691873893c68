"""Explanations as data: lines of catalog keys and parameters, written in a language.

A game's explanation of a deal's value (``explain_deal`` of Doppelkopf and
Slobberhannes) is a list of lines ``{"key": "explain.…", "params": {...}}``.
The same lines are written by :func:`render_line` here (terminal, server) and
by ``explainDeal`` in the page's ``static/explain.js``. A parameter is

* a number or a string, written as it is;
* ``{"seats": [0, 2]}``: the names of those seats, joined by commas;
* ``{"t": key, "params": {...}}``: another text of the catalog;
* ``{"list": [param, …]}``: the parameters written and joined by commas;
* ``{"signed": n}``: the number with its sign, ``+10`` or ``−10``.

>>> line = {"key": "explain.value", "params": {"base": 20, "multiplier": 2, "value": 40}}
>>> render_line("de", line)
'Wert: 20 × 2 = 40'
>>> render_param("en", {"list": [{"seats": [0, 2]}, {"signed": -3}]}, ["Ann", "Ben", "Cy"])
'Ann, Cy, −3'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kartentisch.i18n import translate

__all__ = ["render_line", "render_lines", "render_param"]


def _name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"#{seat + 1}"


def render_param(lang: str, value: Any, names: Sequence[str] | None = None) -> str:
    """One parameter of a line, written in ``lang``."""
    if isinstance(value, Mapping):
        if "seats" in value:
            return ", ".join(_name(int(s), names) for s in value["seats"])
        if "t" in value:
            return render_line(lang, {"key": value["t"], "params": value.get("params", {})}, names)
        if "list" in value:
            return ", ".join(render_param(lang, v, names) for v in value["list"])
        if "signed" in value:
            n = int(value["signed"])
            return f"+{n}" if n >= 0 else f"−{-n}"
    return str(value)


def render_line(lang: str, line: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """A line ``{"key", "params"}`` in ``lang``; a number ``n`` picks the plural form."""
    params = line.get("params") or {}
    fields = {k: v if k == "n" else render_param(lang, v, names) for k, v in params.items()}
    return translate(lang, str(line["key"]), **fields)


def render_lines(
    lang: str, lines: Sequence[Mapping[str, Any]], names: Sequence[str] | None = None
) -> list[str]:
    """Every line in ``lang``."""
    return [render_line(lang, line, names) for line in lines]
