"""Game analysis: what each decision of a record cost, with full and with the seat's information.

Each game that can be analysed has a module here, found by the game's name
through :data:`ANALYSERS` and imported when asked for: it replays a record
decision by decision and values each choice of a seat twice — with every hand
known (an exact solver) and with only what that seat had seen (the strong
bot's Perfect-Information Monte Carlo) — and prints the result as text or
JSON (:class:`Analysis`). :func:`analyze` runs the analyser of a game.

* :mod:`kartentisch.analysis.slobberhannes`: every card, in penalty chips.
* :mod:`kartentisch.analysis.doppelkopf`: the cards in game points and Augen
  (exact in the last tricks, estimated before), the declarations and
  announcements with the strong bot's choice (not solved).
"""

from __future__ import annotations

from kartentisch.analysis.base import ANALYSERS, Analysis, analyze, check_seat, seat_names
from kartentisch.analysis.slobberhannes import Decision, analyze_slobberhannes

__all__ = [
    "ANALYSERS",
    "Analysis",
    "Decision",
    "analyze",
    "analyze_slobberhannes",
    "check_seat",
    "seat_names",
]
