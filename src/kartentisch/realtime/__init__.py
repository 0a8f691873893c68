"""Real-time play: timestamped actions, the shared engine of the slap games, the referee.

- :mod:`~kartentisch.realtime.actions`: :class:`TimedAction` and its notation
  (docs/notation-realtime.md).
- :mod:`~kartentisch.realtime.base`: :class:`~kartentisch.realtime.base.TimedGame`,
  stacks and a centre pile, driven by timed actions; Slapjack and Irish Snap
  build on it.
- :mod:`~kartentisch.realtime.records`: exact replay of timed records, their summary.
- :mod:`~kartentisch.realtime.referee`: the fair-slap referee (docs/referee.md).
- :mod:`~kartentisch.realtime.clock`: clocks a game loop can be given.
- :mod:`~kartentisch.realtime.texts`: the games' texts in de, en and ru, a game as text.
- :mod:`~kartentisch.realtime.spec`: the games' registry entries.
"""

from kartentisch.realtime.actions import TimedAction

__all__ = ["TimedAction"]
