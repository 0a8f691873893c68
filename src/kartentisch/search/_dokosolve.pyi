from collections.abc import Sequence

LATER_WINS: int

def solve(
    hands: Sequence[int],
    groups: Sequence[int],
    points: Sequence[int],
    bonus: int,
    party: int,
    leader: int,
    trick: Sequence[int],
    moves: Sequence[int],
    alpha: int,
    beta: int,
    stop: int,
    later: int = -1,
    later_last: int = 1,
) -> tuple[list[int], int]: ...
def buckets(
    hands: Sequence[int],
    groups: Sequence[int],
    points: Sequence[int],
    bonus: int,
    party: int,
    leader: int,
    trick: Sequence[int],
    moves: Sequence[int],
    thresholds: Sequence[int],
    stop: int,
    later: int = -1,
    later_last: int = 1,
) -> tuple[list[int], int]: ...
def moves(groups: Sequence[int], points: Sequence[int], legal: int, others: int) -> list[int]: ...
