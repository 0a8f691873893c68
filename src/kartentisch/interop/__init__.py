"""Bridges to reinforcement-learning and game-theory libraries.

* :mod:`kartentisch.interop.encoding` — the shared part: fixed-size action
  ids, observation arrays with a documented layout, and a turn-based
  *table* over one deal of Slobberhannes or Doppelkopf (needs numpy); it
  gathers ``encoding_common`` (what both games share),
  ``encoding_slobberhannes`` and ``encoding_doppelkopf``.
* :mod:`kartentisch.interop.pettingzoo` — PettingZoo AEC environments
  (extra ``rl``: pettingzoo, gymnasium, numpy).
* :mod:`kartentisch.interop.openspiel` — both trick games as OpenSpiel Python
  games, registered with pyspiel (extra ``openspiel``).

Nothing here is imported by ``import kartentisch``; each module imports its
library only when it is imported itself. See docs/ecosystem.md.
"""
