"""Builders for Slapjack and Irish Snap test positions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kartentisch.cards import Card, Rank, full_deck
from kartentisch.games.irish_snap.engine import CALLS
from kartentisch.realtime.actions import TimedAction
from kartentisch.realtime.base import TimedGame, deal_sizes


def act(game: TimedGame, *texts: str) -> list[str]:
    """Apply actions written in the notation; return the types of the events caused."""
    out: list[str] = []
    for text in texts:
        out.extend(e.type for e in game.apply(TimedAction.parse(text)))
    return out


def turns(game: TimedGame, count: int, *, start: int, step: int = 1000) -> int:
    """Let the players to move turn ``count`` cards, ``step`` ms apart; returns the next time."""
    t = start
    for _ in range(count):
        mover = game.to_move
        assert mover is not None, "nobody to move"
        game.apply(TimedAction(t, mover, "turn"))
        t += step
    return t


def scripted_stacks(
    players: int,
    dealer: int,
    forced: Mapping[int, str] | None = None,
    *,
    avoid: str = "irish",
) -> list[list[Card]]:
    """Stacks whose cards come out in round-robin order with no slap signal.

    ``avoid="irish"``: no card matches its call (the calls run Ace … King, as
    long as nobody takes the pile); ``avoid="jacks"``: all jacks are kept for
    the end. ``forced`` fixes the card of some turn numbers (0-based).
    """
    fixed = {k: Card.parse(v) for k, v in (forced or {}).items()}
    sizes = deal_sizes(players, dealer)
    left = list(sizes)
    pool = [c for c in full_deck() if c not in set(fixed.values())]
    stacks: list[list[Card]] = [[] for _ in range(players)]
    seat = (dealer + 1) % players
    for i in range(52):
        while left[seat] == 0:
            seat = (seat + 1) % players
        if i in fixed:
            card = fixed[i]
        else:
            if avoid == "irish":
                choices = [c for c in pool if c.rank != CALLS[i % 13]]
            else:
                choices = [c for c in pool if c.rank != Rank.JACK] or pool
            card = choices[0] if choices else pool[0]
            pool.remove(card)
        stacks[seat].append(card)
        left[seat] -= 1
        seat = (seat + 1) % players
    return stacks


def order_of(stacks: Sequence[Sequence[Card]], dealer: int) -> list[Card]:
    """The cards in the order they are turned if nobody slaps (round robin)."""
    players = len(stacks)
    queues = [list(s) for s in stacks]
    out: list[Card] = []
    seat = (dealer + 1) % players
    while any(queues):
        while not queues[seat]:
            seat = (seat + 1) % players
        out.append(queues[seat].pop(0))
        seat = (seat + 1) % players
    return out
