"""Real-time play: timestamped actions, the shared engine of the slap games, the referee.

- :mod:`~kartentisch.realtime.actions`: :class:`TimedAction` and its notation.
- :mod:`~kartentisch.realtime.base`: :class:`TimedGame`, stacks and a centre pile.
- :mod:`~kartentisch.realtime.referee`: the fair-slap referee (docs/referee.md).
- :mod:`~kartentisch.realtime.clock`: clocks a game loop can be given.
"""

from kartentisch.realtime.actions import TimedAction

__all__ = ["TimedAction"]
