"""A Slobberhannes deal's penalties in words: who paid what, for which trick or card.

The lines are ``{"key": "explain.sh.…", "params": {...}}`` of the package's
catalog, written by :func:`kartentisch.explain.render_lines` and by the page's
``explainDeal`` (see :mod:`kartentisch.explain`).

>>> from kartentisch.games.slobberhannes import SlobberhannesMatch
>>> from kartentisch.explain import render_lines
>>> match = SlobberhannesMatch({"target": 1}, seats=["Ann", "Ben", "Cy", "Dee"], seed=7)
>>> while not match.deal.is_over:
...     _ = match.apply(match.legal_actions()[0])
>>> text = render_lines("de", explain_deal(match.deal), match.seat_names)
>>> any("Kreuz-Dame" in line for line in text)
True
"""

from __future__ import annotations

from typing import Any

from kartentisch.games.slobberhannes.deal import SlobberhannesDeal

__all__ = ["explain_deal"]


def explain_deal(deal: SlobberhannesDeal) -> list[dict[str, Any]]:
    """One line per penalty (with its trick), then each seat's sum of the deal."""
    lines: list[dict[str, Any]] = []
    for p in deal.penalties():
        params: dict[str, Any] = {"who": {"seats": [p.seat]}, "chips": p.chips}
        if p.trick is not None:
            params["trick"] = p.trick
        lines.append({"key": f"explain.sh.{p.reason}", "params": params})
    for seat, points in enumerate(deal.points()):
        who = {"seats": [seat]}
        if points:
            lines.append({"key": "explain.sh.total", "params": {"who": who, "n": points}})
        else:
            lines.append({"key": "explain.sh.no_penalty", "params": {"who": who}})
    return lines
