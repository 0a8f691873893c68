from collections.abc import Sequence

def solve(
    hands: Sequence[int],
    tricks: int,
    bonus: int,
    trick_no: int,
    first: int,
    queen: int,
    pos: int,
    seat: int,
    ledmask: int,
    bestbit: int,
    trickbits: int,
    winner: int,
    moves: Sequence[int],
    stop_at_zero: bool,
) -> tuple[list[int], int]: ...
def moves(hand: int, ledmask: int, remaining: int) -> list[int]: ...
