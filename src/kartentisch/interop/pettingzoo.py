"""PettingZoo AEC environments: one deal of Slobberhannes or Doppelkopf per episode.

>>> env = slobberhannes_env(dealer=3)
>>> env.reset(seed=7)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_0', 32)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((313,), 8)

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). The agent to act
is the engine's seat to move; it observes only its own seat
(``observation``: the float32 vector of
:mod:`kartentisch.interop.encoding`, ``action_mask``: int8, 1 for each
legal action id). Every other agent's mask is all zeros. Rewards are the
change in each seat's score (:meth:`~kartentisch.interop.encoding.Table.scores`)
caused by the step, so an episode's rewards add up to the deal's score:
minus the penalty chips in Slobberhannes, the sheet's points in Doppelkopf.
The episode ends (every agent terminates) when the deal is over.

``reset(seed=s)`` makes the deal (and the dealer, unless fixed) reproducible;
later resets without a seed continue the same seeded sequence of deals.
``reset(options={"dealer": d})`` fixes the dealer of that deal; other keys
are ignored. In the bare environments (:func:`raw_env`) an illegal action
raises :class:`~kartentisch.errors.IllegalActionError` (a :class:`ValueError`);
the wrapped ones (:func:`env`, :func:`slobberhannes_env`, :func:`doppelkopf_env`)
end the episode instead, as PettingZoo's classic games do. ``state()`` is the
whole deal as one vector; :func:`parallel_env` is the ParallelEnv form.

Where the compiled games of :mod:`kartentisch.interop.vector` play the options
(Slobberhannes, any options; Doppelkopf, the house and the DDV preset as they
are), a deal plays on one
compiled game (``backend="c"``, the default ``"auto"`` where built); otherwise,
with ``backend="python"`` or with ``KARTENTISCH_PURE_PYTHON`` set, on the
engine's :class:`~kartentisch.interop.encoding.Table`. Both give the same
deals for the same seeds, the same observations, masks, rewards and agent
order (tested step by step). The compiled game keeps no table: the first use
of :attr:`TrickGameEnv.table` (``state()`` and ``render()`` use it too) builds
it by replaying the deal from its seed and the actions taken, and the rest of
that deal then plays on that table.
"""

from __future__ import annotations

import os
import random
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import turn_based_aec_to_parallel, wrappers
except ModuleNotFoundError as exc:
    raise ImportError(
        "kartentisch.interop.pettingzoo needs PettingZoo, Gymnasium and numpy: "
        "pip install 'kartentisch[rl]'"
    ) from exc

from kartentisch.games.doppelkopf import DoppelkopfOptions
from kartentisch.games.slobberhannes import SlobberhannesOptions
from kartentisch.interop.bounds import doppelkopf_bounds, slobberhannes_bounds
from kartentisch.interop.encoding import (
    DOPPELKOPF_ACTIONS,
    SLOBBERHANNES_ACTIONS,
    DoppelkopfTable,
    Layout,
    SlobberhannesTable,
    Table,
    doppelkopf_layout,
    slobberhannes_layout,
    view_layout,
)
from kartentisch.interop.incremental import (
    SlobberhannesVectors,
    doppelkopf_deal_vector,
    slobberhannes_mask,
)
from kartentisch.interop.vector import (
    compiled_available,
    compiled_preset,
    doppelkopf_batch,
    slobberhannes_batch,
)

__all__ = [
    "GAMES",
    "DoppelkopfEnv",
    "SlobberhannesEnv",
    "TrickGameEnv",
    "doppelkopf_env",
    "env",
    "parallel_env",
    "raw_env",
    "slobberhannes_env",
]

Observation = dict[str, Any]
Backend = Literal["auto", "c", "python"]

#: The observation's and the mask's dtypes, made once, for the compiled game's
#: ``observe_new`` (it makes both arrays with ``np.empty``, a dtype object given).
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)
_empty = np.empty


class _PythonEnvBase:
    """``last`` and ``step`` by the Python methods (where ``_shortway`` is not built)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self._last_python(observe)  # type: ignore[attr-defined,no-any-return]

    def step(self, action: Any) -> None:
        self._step_python(action)  # type: ignore[attr-defined]


try:
    from kartentisch.interop import _shortway
except ImportError:  # pragma: no cover - built with the package's C extensions
    _shortway = None  # type: ignore[assignment]

#: The bases whose ``last`` and ``step`` take the compiled game's short way without a
#: Python frame (``_shortway``, C), handing everything else to ``_last_python`` and
#: ``_step_python``; the same in Python where it is not built or not allowed.
_EnvBase: type[Any]
_WrapperBase: type[Any]
if _shortway is not None and not os.environ.get("KARTENTISCH_PURE_PYTHON"):
    _EnvBase, _WrapperBase = _shortway.EnvBase, _shortway.WrapperBase
else:
    _EnvBase = _WrapperBase = _PythonEnvBase


def _use_compiled(backend: str, game: str, supported: bool) -> bool:
    """Whether an environment plays on the compiled game (``backend``: auto, c or python)."""
    if backend not in ("auto", "c", "python"):
        raise ValueError(f"backend must be auto, c or python, not {backend!r}")
    if backend == "c":
        if not supported:
            raise ValueError(
                f"the compiled {game} game does not play these options: use backend='python'"
            )
        if not compiled_available(game):
            raise RuntimeError(f"the compiled {game} game is not built (or not allowed)")
        return True
    return backend == "auto" and supported and compiled_available(game)


class TrickGameEnv(_EnvBase, AECEnv):  # type: ignore[misc]
    """The AEC environment shared by both games (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }
    #: The lowest score of a deal (the reward :func:`env` gives for an illegal action).
    lowest_score: float = 0.0

    def __init__(
        self,
        num_seats: int,
        layout: Layout,
        num_actions: int,
        *,
        dealer: int | None,
        render_mode: str | None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if dealer is not None and not 0 <= dealer < num_seats:
            raise ValueError(f"dealer must be a seat from 0 to {num_seats - 1}, not {dealer!r}")
        self.render_mode = render_mode
        self.dealer = dealer
        self.num_seats = num_seats
        self.num_actions = num_actions
        self.possible_agents: list[str] = [f"player_{i}" for i in range(num_seats)]
        self.agents: list[str] = []
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        high = layout.high()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, high, shape=(layout.size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        state = view_layout(layout, num_seats, public=True, private="all")
        self.state_space = spaces.Box(0.0, state.high(), shape=(state.size,), dtype=np.float32)
        self._rng = random.Random()
        self._table: Table | None = None
        #: The compiled game (one game of a ``Batch``) where it plays these options, else None.
        self._batch: Any = None
        self._fast = False  # this deal plays on ``_batch`` (no table built yet)
        self._deal_seed = 0
        self._deal_dealer = 0
        self._actions: list[int] = []  # the action ids of the deal, for the lazy table
        self._obs_size = layout.size
        #: ``last`` (and the wrappers of :func:`env`) may inline ``observe`` where no
        #: subclass overrides it.
        self._inline_observe = type(self).observe is TrickGameEnv.observe
        #: The compiled game (``_batch``) where this deal takes its short way in C
        #: (``aec_last``, ``aec_step``), else None: on the compiled game, built with NumPy's
        #: headers, where no subclass overrides ``observe``, ``step`` or
        #: ``_accumulate_rewards``.
        self._short: Any = None
        self._scores: tuple[float, ...] = (0.0,) * num_seats
        self._points: tuple[int, ...] = (0,) * num_seats  # the deal's, behind the scores
        self.rewards: dict[str, float] = {}
        self._no_rewards: dict[str, float] = {}  # every agent 0.0, copied for a step
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    @abstractmethod
    def _new_table(self, seed: int, dealer: int) -> Table:
        """A fresh table for one deal."""

    @property
    def backend(self) -> str:
        """``c`` where the deals play on the compiled game, else ``python`` (the engine)."""
        return "c" if self._batch is not None else "python"

    @property
    def table(self) -> Table:
        """The deal being played (after :meth:`reset`).

        On the compiled game no table is kept: the first use of ``table`` (also
        through :meth:`state` and :meth:`render`) builds it, the deal replayed
        from its seed and the actions taken, and the rest of that deal plays on
        the engine's table (so changes made to it count); the next :meth:`reset`
        goes back to the compiled game."""
        if self._table is None:
            if not self._fast:
                raise RuntimeError("call reset() before using the environment")
            table = self._new_table(self._deal_seed, self._deal_dealer)
            for action in self._actions:
                table.apply_id(action)
            self._table = table
            self._fast = False
            self._short = None
            self._scores = table.scores()
            self._points = table.deal.points()
        return self._table

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self.dealer
        if options and options.get("dealer") is not None:
            dealer = int(options["dealer"])
        if dealer is None:
            dealer = self._rng.randrange(self.num_seats)
        deal_seed = self._rng.getrandbits(64)
        self.agents = list(self.possible_agents)
        self._no_rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards = self._no_rewards.copy()
        self._cumulative_rewards = self._no_rewards.copy()
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        seat: int | None
        if self._batch is not None:
            # The compiled game deals what _new_table would: no table until asked for.
            self._table = None
            self._fast = True
            self._deal_seed = deal_seed
            self._deal_dealer = dealer
            self._actions = []
            seat = self._batch.deal_one(0, deal_seed, dealer)
            cls = type(self)
            short = (
                _EnvBase is not _PythonEnvBase
                and hasattr(self._batch, "aec_step")
                and self._inline_observe
                and cls.step is TrickGameEnv.step
                and cls._accumulate_rewards is AECEnv._accumulate_rewards
            )
            self._short = self._batch if short else None
        else:
            table = self._table = self._new_table(deal_seed, dealer)
            self._scores = table.scores()
            self._points = table.deal.points()
            seat = table.to_move
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        if self._fast:  # new arrays, written by the compiled game
            return self._batch.observe_new(  # type: ignore[no-any-return]
                0, self._seat_of[agent], _empty, _FLOAT32, _INT8
            )
        return self._observe_table(agent)

    def _last_python(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``last()`` (as :meth:`AECEnv.last`; on the compiled game with :meth:`observe`
        inlined, unless a subclass overrides ``observe``) where the base's C way does
        not take it."""
        if observe and self._short:  # in C: the same, observe inlined
            return self._short.aec_last(self, None)  # type: ignore[no-any-return]
        agent = self.agent_selection
        if observe:
            if self._fast and self._inline_observe:
                observation: Any = self._batch.observe_new(
                    0, self._seat_of[agent], _empty, _FLOAT32, _INT8
                )
            else:
                observation = self.observe(agent)
        else:
            observation = None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _observe_table(self, agent: str) -> Observation:
        """``observe`` on the engine's table."""
        table = self.table
        seat = self._seat_of[agent]
        mask = table.mask() if seat == table.to_move else np.zeros(self.num_actions, np.int8)
        return {"observation": table.encode(seat), "action_mask": mask}

    def _step_python(self, action: int | None) -> None:
        """``step(action)`` where the base's C way does not take it."""
        if self._short and self._short.aec_step(self, action, None, None):
            return  # a legal action taken in C, as below
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if action is None:
                raise ValueError(f"{agent} is to act: give an action id, not None")
            action = int(action)
        if self._fast:
            code: int = self._batch.play_one(0, action)
            if code >= 0:
                # Played: code is the next seat (num_seats: the deal is over), +256 if scored.
                self._cumulative_rewards[agent] = 0.0
                self._actions.append(action)
                if code < 256:
                    self.rewards = self._no_rewards.copy()
                else:
                    self.rewards = dict(zip(self.agents, self._batch.last_rewards(), strict=True))
                    self._accumulate_rewards()
                    code -= 256
                if code == self.num_seats:
                    self.terminations = dict.fromkeys(self.agents, True)
                else:
                    self.agent_selection = self.possible_agents[code]
                return
            # Not legal: the engine's table refuses it (with its error) below.
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        table.apply_id(action)
        self._applied(self._seat_of[agent], action)
        points = table.deal.points()
        if points == self._points:
            # Nobody scored (most steps): every reward is 0, nothing to accumulate.
            self.rewards = self._no_rewards.copy()
        else:
            self._points = points
            scores = table.scores()
            self.rewards = {
                name: scores[self._seat_of[name]] - self._scores[self._seat_of[name]]
                for name in self.agents
            }
            self._scores = scores
            self._accumulate_rewards()
        seat = table.to_move
        if seat is None:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[seat]

    def _applied(self, seat: int, action: int) -> None:
        """Seat ``seat``'s action ``action`` was applied to the table (for subclasses
        that keep observations up to date as the deal goes on)."""

    def state(self) -> Any:
        """The whole deal as one vector (every hand; :attr:`state_space`): the public
        blocks of the layout, seat rows absolute, then each private block for every
        seat (``Table.view``), for centralised critics."""
        return self.table.view()

    def render(self) -> str | None:
        """``ansi``: the deal as text; ``human``: the same printed to the terminal."""
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @abstractmethod
    def _render_text(self) -> str: ...

    def close(self) -> None:
        self._table = None
        self._fast = False
        self._short = None


class SlobberhannesEnv(TrickGameEnv):
    """Slobberhannes for 3–7 players (``options``: a preset name and/or option values)."""

    metadata: ClassVar[dict[str, Any]] = {
        **TrickGameEnv.metadata,
        "name": "kartentisch_slobberhannes_v0",
    }

    def __init__(
        self,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
        *,
        dealer: int | None = None,
        render_mode: str | None = None,
        backend: Backend = "auto",
    ) -> None:
        if not isinstance(options, SlobberhannesOptions):
            options = SlobberhannesOptions.from_dict(options)
        self.options = options
        self.lowest_score = float(slobberhannes_bounds(options)[0])
        layout = slobberhannes_layout(options.players, options.hand_size)
        super().__init__(
            options.players,
            layout,
            SLOBBERHANNES_ACTIONS,
            dealer=dealer,
            render_mode=render_mode,
        )
        if _use_compiled(backend, "slobberhannes", True):
            self._batch = slobberhannes_batch(1, options, dealer)

    def _new_table(self, seed: int, dealer: int) -> Table:
        table = SlobberhannesTable.from_seed(seed, dealer=dealer, options=self.options)
        self._vectors = SlobberhannesVectors(table.deal)
        return table

    def _observe_table(self, agent: str) -> Observation:
        # The vectors are kept up to date card by card (interop/incremental.py):
        # the same values as encode_slobberhannes, without building them anew.
        seat = self._seat_of[agent]
        deal = self.table.deal
        vectors = self._vectors
        if vectors.deal is not deal or vectors.actions != len(deal.actions):
            # The table was played on without step(): take the deal over afresh.
            vectors = self._vectors = SlobberhannesVectors(deal)
        if seat == deal.to_move:
            mask = slobberhannes_mask(deal.legal_actions())
        else:
            mask = np.zeros(SLOBBERHANNES_ACTIONS, np.int8)
        return {"observation": self._vectors.vector(seat), "action_mask": mask}

    def _applied(self, seat: int, action: int) -> None:
        self._vectors.played(seat, action)

    def _render_text(self) -> str:
        from kartentisch.games.slobberhannes.text import render

        table = self.table
        assert isinstance(table, SlobberhannesTable)
        return "\n".join(render(table.deal))


class DoppelkopfEnv(TrickGameEnv):
    """Doppelkopf, house rules by default; ``options={"preset": "ddv"}`` for the DDV rules."""

    metadata: ClassVar[dict[str, Any]] = {
        **TrickGameEnv.metadata,
        "name": "kartentisch_doppelkopf_v0",
    }

    def __init__(
        self,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
        *,
        dealer: int | None = None,
        render_mode: str | None = None,
        backend: Backend = "auto",
    ) -> None:
        if not isinstance(options, DoppelkopfOptions):
            options = DoppelkopfOptions.from_dict(options)
        self.options = options
        self.lowest_score = float(doppelkopf_bounds(options)[0])
        layout = doppelkopf_layout(options.players, options.hand_size)
        super().__init__(
            options.players,
            layout,
            DOPPELKOPF_ACTIONS,
            dealer=dealer,
            render_mode=render_mode,
        )
        if _use_compiled(backend, "doppelkopf", compiled_preset(options) is not None):
            self._batch = doppelkopf_batch(1, options, dealer)

    def _new_table(self, seed: int, dealer: int) -> Table:
        return DoppelkopfTable.from_seed(seed, dealer=dealer, options=self.options)

    def _observe_table(self, agent: str) -> Observation:
        # encode_doppelkopf's values, read from the deal's state by flat offsets
        # (interop/incremental.py), without building the engine's observation.
        seat = self._seat_of[agent]
        table = self.table
        assert isinstance(table, DoppelkopfTable)
        vector = doppelkopf_deal_vector(table.deal, seat, table.own_selection(seat))
        mask = table.mask() if seat == table.to_move else np.zeros(self.num_actions, np.int8)
        return {"observation": vector, "action_mask": mask}

    def _render_text(self) -> str:
        from kartentisch.games.doppelkopf.text import render

        table = self.table
        assert isinstance(table, DoppelkopfTable)
        return "\n".join(render(table.deal))


#: The environments by game name (:func:`raw_env`'s ``game``).
GAMES: dict[str, type[SlobberhannesEnv] | type[DoppelkopfEnv]] = {
    "slobberhannes": SlobberhannesEnv,
    "doppelkopf": DoppelkopfEnv,
}


#: The attributes a loop reads at every step. PettingZoo's wrappers find them by
#: ``__getattr__``, wrapper by wrapper, down to the environment; the wrappers below
#: read them from the environment directly (no wrapper defines them).
_STEP_ATTRIBUTES: tuple[str, ...] = (
    "agent_selection",
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "_cumulative_rewards",
)


def _direct(name: str, *, guarded: bool) -> property:
    """A property reading ``name`` from the bare environment (``guarded``: only
    after ``reset``, as OrderEnforcingWrapper's ``__getattr__`` checks)."""

    def get(self: Any) -> Any:
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._bare, name)

    def put(self: Any, value: Any) -> None:
        setattr(self._bare, name, value)

    return property(get, put)


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's TerminateIllegalWrapper, the step's attributes read directly."""

    def __init__(self, env: TrickGameEnv, illegal_reward: float) -> None:
        self._bare = env
        super().__init__(env, illegal_reward=illegal_reward)


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's AssertOutOfBoundsWrapper, the step's attributes read directly."""

    def __init__(self, env: Any) -> None:
        self._bare = env.unwrapped
        super().__init__(env)


class _OrderEnforcing(_WrapperBase, wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's OrderEnforcingWrapper around the two others, with a short way
    through all three for what a loop does at every step.

    ``observe``, ``last`` and ``step`` do what the three wrappers do one after the
    other; where that is more than the common case (before a reset, an agent
    that is done, an action out of bounds or not legal, after an illegal one)
    they hand over to the wrappers themselves. Legal means what the mask the
    agent was given says, as for TerminateIllegalWrapper. On the compiled game,
    ``last`` makes the observation itself, as the bare environment's ``observe``
    would (unless a subclass overrides it: then it is called); ``step`` hands a
    legal action to the bare environment's ``step``. The short way needs
    TerminateIllegalWrapper's bookkeeping as PettingZoo 1.25–1.27 keep it (the
    last observation of the agent to act); without it every call goes through
    the wrappers.
    """

    def __init__(self, env: Any) -> None:
        bare: TrickGameEnv = env.unwrapped
        self._bare = bare
        illegal = env.env
        self._illegal: _TerminateIllegal | None = (
            illegal
            if isinstance(illegal, _TerminateIllegal)
            and all(hasattr(illegal, a) for a in ("_prev_obs", "_prev_info", "_terminated"))
            else None
        )
        super().__init__(env)

    def __str__(self) -> str:
        return str(self.env)

    def observe(self, agent: str) -> Any:
        illegal = self._illegal
        if illegal is None or not self._has_reset:
            return super().observe(agent)
        bare = self._bare
        obs = bare.observe(agent)
        if agent == bare.agent_selection:  # as TerminateIllegalWrapper.observe
            illegal._prev_obs = obs
            illegal._prev_info = bare.infos.get(agent, {})
        return obs

    def _last_python(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``last()`` where the base's C way does not take it."""
        illegal = self._illegal
        if illegal is None or not self._has_reset:
            return wrappers.OrderEnforcingWrapper.last(self, observe)  # type: ignore[no-any-return]
        bare = self._bare
        if observe and bare._short:  # the same in C
            return bare._short.aec_last(bare, illegal)  # type: ignore[no-any-return]
        agent = bare.agent_selection
        info = bare.infos[agent]
        obs: Any = None
        if observe:  # as self.observe(agent): the agent to act's observation noted
            if bare._fast and bare._inline_observe:  # bare.observe(agent), inlined
                obs = bare._batch.observe_new(0, bare._seat_of[agent], _empty, _FLOAT32, _INT8)
            else:
                obs = bare.observe(agent)
            illegal._prev_obs = obs
            illegal._prev_info = info
        return (
            obs,
            bare._cumulative_rewards[agent],
            bare.terminations[agent],
            bare.truncations[agent],
            info,
        )

    def _step_python(self, action: Any) -> None:
        """``step(action)`` where the base's C way does not take it."""
        illegal = self._illegal
        bare = self._bare
        if illegal is not None and bare._short and self._has_reset:
            # The same as below in C: 1 taken, 2 noted here and the bare step to take it.
            taken = bare._short.aec_step(bare, action, self, illegal)
            if taken == 1:
                return
            if taken == 2:
                bare.step(action)
                return
        if illegal is not None and type(action) is int and self._has_reset:
            prev = illegal._prev_obs
            if (
                type(prev) is dict
                and not illegal._terminated
                and bare.agents
                and 0 <= action < bare.num_actions
            ):
                agent = bare.agent_selection
                if (
                    not bare.terminations[agent]
                    and not bare.truncations[agent]
                    and prev["action_mask"][action]
                ):
                    # In bounds, legal, the agent to act alive: what the three wrappers
                    # do then is to note the step, forget the observation and step.
                    self._has_updated = True
                    illegal._prev_obs = None
                    illegal._prev_info = None
                    bare.step(action)
                    return
        wrappers.OrderEnforcingWrapper.step(self, action)


for _name in _STEP_ATTRIBUTES:
    setattr(_TerminateIllegal, _name, _direct(_name, guarded=False))
    setattr(_AssertOutOfBounds, _name, _direct(_name, guarded=False))
    setattr(_OrderEnforcing, _name, _direct(_name, guarded=_name != "_cumulative_rewards"))


def _wrap(env: TrickGameEnv) -> Any:
    """PettingZoo's wrappers for classic games: an illegal action ends the deal, the
    actor scoring the game's lowest score; action bounds checked; call order enforced.

    They are PettingZoo's TerminateIllegalWrapper, AssertOutOfBoundsWrapper and
    OrderEnforcingWrapper (subclasses: the attributes read at every step are
    looked up directly rather than through each wrapper's ``__getattr__``)."""
    inner = _TerminateIllegal(env, illegal_reward=env.lowest_score)
    return _OrderEnforcing(_AssertOutOfBounds(inner))


def raw_env(
    game: str = "slobberhannes",
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    render_mode: str | None = None,
    backend: Backend = "auto",
) -> TrickGameEnv:
    """The bare environment of ``game`` (``slobberhannes`` or ``doppelkopf``).

    An illegal action raises :class:`~kartentisch.errors.IllegalActionError`.
    """
    if game not in GAMES:
        raise ValueError(f"game must be one of {sorted(GAMES)}, not {game!r}")
    return GAMES[game](options, dealer=dealer, render_mode=render_mode, backend=backend)


def env(
    game: str = "slobberhannes",
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    render_mode: str | None = None,
    backend: Backend = "auto",
) -> Any:
    """:func:`raw_env` wrapped as PettingZoo's classic games are.

    TerminateIllegalWrapper (an illegal action ends the episode: its agent gets
    the game's lowest score as reward, the others 0), AssertOutOfBoundsWrapper,
    OrderEnforcingWrapper.
    """
    return _wrap(raw_env(game, options, dealer=dealer, render_mode=render_mode, backend=backend))


def parallel_env(
    game: str = "slobberhannes",
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    render_mode: str | None = None,
    backend: Backend = "auto",
) -> Any:
    """:func:`env` as a PettingZoo ParallelEnv (``turn_based_aec_to_parallel``): each
    step takes the action of the agent to move from the actions given."""
    return turn_based_aec_to_parallel(
        env(game, options, dealer=dealer, render_mode=render_mode, backend=backend)
    )


def slobberhannes_env(
    options: SlobberhannesOptions | Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    render_mode: str | None = None,
    backend: Backend = "auto",
) -> Any:
    """A wrapped :class:`SlobberhannesEnv` (as :func:`env` wraps it)."""
    return _wrap(SlobberhannesEnv(options, dealer=dealer, render_mode=render_mode, backend=backend))


def doppelkopf_env(
    options: DoppelkopfOptions | Mapping[str, Any] | None = None,
    *,
    dealer: int | None = None,
    render_mode: str | None = None,
    backend: Backend = "auto",
) -> Any:
    """A wrapped :class:`DoppelkopfEnv` (as :func:`env` wraps it)."""
    return _wrap(DoppelkopfEnv(options, dealer=dealer, render_mode=render_mode, backend=backend))
