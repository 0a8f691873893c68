from collections.abc import Sequence

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
) -> tuple[list[int], int]: ...
def moves(groups: Sequence[int], points: Sequence[int], legal: int, others: int) -> list[int]: ...
