from typing import Any

class Batch:
    """Slobberhannes deals stepped together (kartentisch.interop.vector)."""

    obs_size: int
    def __init__(
        self,
        num: int,
        players: int,
        hand_size: int,
        deck: bytes,
        packets: bytes,
        penalty_revokes: bool,
        all_three: bool,
        dealer: int,
        /,
    ) -> None: ...
    def reset(self, states: Any, /) -> None: ...
    def step(
        self,
        actions: Any,
        observation: Any,
        action_mask: Any,
        to_move: Any,
        rewards: Any,
        terminations: Any,
        threads: int = 1,
        /,
    ) -> None: ...
    def observe(self, observation: Any, action_mask: Any, to_move: Any, /) -> None: ...
    def scores(self, out: Any, /) -> None: ...
    def seed_sampler(self, seed: int, /) -> None: ...
    def sample(self, out: Any, /) -> None: ...
    def deal_one(self, i: int, seed: int, dealer: int, /) -> int: ...
    def play_one(self, i: int, action: int, /) -> int: ...
    def last_rewards(self) -> tuple[float, ...]: ...
    def observe_seat(self, i: int, seat: int, observation: Any, action_mask: Any, /) -> None: ...
