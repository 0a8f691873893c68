"""Vector environments: many deals stepped per call, NumPy arrays in and out.

>>> envs = SlobberhannesVectorEnv(3)
>>> obs, infos = envs.reset(seed=7)
>>> obs["observation"].shape, obs["action_mask"].shape, obs["to_move"].tolist()
((3, 313), (3, 32), [3, 2, 0])
>>> obs, rewards, terminations, truncations, infos = envs.step(envs.sample_actions())
>>> rewards.shape, terminations.tolist()
((3, 4), [False, False, False])

In the style of Gymnasium's vector API (and EnvPool): ``num_envs`` games side by
side, each a sequence of deals of one game, as the scalar PettingZoo
environment (:mod:`kartentisch.interop.pettingzoo`) plays them.

* ``reset(seed=s)`` → ``(observations, infos)``; ``step(actions)`` →
  ``(observations, rewards, terminations, truncations, infos)``.
* ``observations`` is a dict of arrays, one row per game, for the seat to move
  in that game: ``observation`` (float32, ``num_envs × layout size``: the
  vector of :mod:`kartentisch.interop.encoding`, seat rows relative to the seat
  to move), ``action_mask`` (int8, ``num_envs × num_actions``, 1 for each legal
  id) and ``to_move`` (int64, the seat to move).
* ``actions``: one action id per game (integers, ``num_envs``). An illegal one
  raises :class:`ValueError` before any game moves.
* ``rewards`` (float32, ``num_envs × num_players``): the change in every seat's
  score the step caused, as the scalar environment's ``rewards`` (minus the
  penalty chips in Slobberhannes, the sheet's points in Doppelkopf), so the
  rewards of a deal add up to its score.
* ``terminations`` (bool): the step ended the deal. ``truncations`` are always
  False (a deal is never cut short).
* **Autoreset, same step**: a game whose deal ended on a step is dealt its next
  deal at once; the observation returned for it is already the new deal's
  first (Gymnasium's ``AutoresetMode.SAME_STEP``; the final observation of the
  ended deal is not returned, the rewards are the ended deal's). Every step is
  thus one decision in every game.
* **Seeds**: game ``i`` draws from ``random.Random(s + i)`` exactly as the scalar
  environment draws from ``random.Random(seed)`` after ``reset(seed=seed)``: a
  dealer (unless fixed), then a 64-bit seed for the deal; its next deal
  continues the same generator, as the scalar environment's next ``reset()``
  without a seed. So game ``i`` of ``reset(seed=s)`` plays the deals that the
  scalar environment plays after ``reset(seed=s + i)`` and plain ``reset()``
  calls. ``reset()`` without a seed draws ``s`` from the operating system.
* The arrays returned belong to the caller (``copy=True``, the default); with
  ``copy=False`` they are the environment's own buffers, overwritten by the
  next call (faster).

Both games step all their games in compiled code (``backend="c"``, the default
where the extension is built; ``threads`` splits the games over threads, the GIL
released) or through the scalar tables (``backend="python"``, the reference the
tests compare them with). Doppelkopf is compiled for the two presets as they
are (``DoppelkopfOptions()``, the house rules, and
``DoppelkopfOptions.from_dict({"preset": "ddv"})``, ``interop/_vecdoko.c``); other options play
through :class:`~kartentisch.interop.encoding.DoppelkopfTable`, whose vectors
are read from the deal's state (:func:`~kartentisch.interop.incremental.doppelkopf_deal_vector`).
The compiled games draw ``sample_actions()`` in C (their own generator, seeded by
``reset``), the Python backend with NumPy: the same seed gives the same deals,
not the same sampled actions.
"""

from __future__ import annotations

import os
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Literal

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as exc:  # pragma: no cover - the extras install numpy
    raise ImportError(
        "kartentisch.interop.vector needs numpy: pip install 'kartentisch[rl]'"
    ) from exc

from kartentisch.games.doppelkopf import DoppelkopfOptions
from kartentisch.games.slobberhannes import SlobberhannesOptions
from kartentisch.interop.encoding import (
    DOPPELKOPF_ACTIONS,
    DOPPELKOPF_CARDS,
    SLOBBERHANNES_ACTIONS,
    SLOBBERHANNES_CARDS,
    DoppelkopfTable,
    Layout,
    SlobberhannesTable,
    Table,
    doppelkopf_layout,
    slobberhannes_layout,
)
from kartentisch.interop.incremental import doppelkopf_deal_vector

try:
    from kartentisch.interop import _vecslob
except ImportError:  # pragma: no cover - the C build is optional
    _vecslob = None  # type: ignore[assignment]
try:
    from kartentisch.interop import _vecdoko
except ImportError:  # pragma: no cover - the C build is optional
    _vecdoko = None  # type: ignore[assignment]

__all__ = [
    "AUTORESET_MODE",
    "DoppelkopfVectorEnv",
    "SlobberhannesVectorEnv",
    "VectorEnv",
    "compiled_available",
    "compiled_preset",
    "doppelkopf_batch",
    "slobberhannes_batch",
]

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Observations = dict[str, Any]
StepResult = tuple[Observations, FloatArray, BoolArray, BoolArray, dict[str, Any]]
Backend = Literal["auto", "c", "python"]

#: Gymnasium's name for the convention: the next deal starts on the step that ends one.
AUTORESET_MODE: Final = "same_step"


def compiled_available(game: str = "slobberhannes") -> bool:
    """Whether the compiled games of ``game`` (``slobberhannes`` or ``doppelkopf``,
    the house and the DDV preset) are built and allowed (``KARTENTISCH_PURE_PYTHON``
    refuses them)."""
    module = _vecdoko if game == "doppelkopf" else _vecslob
    return module is not None and not os.environ.get("KARTENTISCH_PURE_PYTHON")


def slobberhannes_batch(num: int, options: SlobberhannesOptions, dealer: int | None) -> Any:
    """``num`` compiled Slobberhannes games under ``options`` (``_vecslob.Batch``; the
    dealer fixed unless None), or None where the extension is not built."""
    if _vecslob is None:
        return None
    deck = bytes(SLOBBERHANNES_CARDS.index(c) for c in options.deck())
    return _vecslob.Batch(
        num,
        options.players,
        options.hand_size,
        deck,
        bytes(options.packets),
        options.revokes == "penalty",
        options.all_three_bonus,
        -1 if dealer is None else dealer,
    )


#: The DDV preset as it is (the compiled games play it, besides ``DoppelkopfOptions()``).
_DDV: Final = DoppelkopfOptions.from_dict({"preset": "ddv"})


def compiled_preset(options: DoppelkopfOptions) -> str | None:
    """The preset the compiled Doppelkopf games play for ``options`` (``house`` or
    ``ddv``: the preset as it is, nothing overridden), or None."""
    if options == DoppelkopfOptions():
        return "house"
    if options == _DDV:
        return "ddv"
    return None


def doppelkopf_batch(num: int, options: DoppelkopfOptions, dealer: int | None) -> Any:
    """``num`` compiled Doppelkopf games (``_vecdoko.Batch``; the house or the DDV preset
    as it is, see :func:`compiled_preset`), or None where the extension is not built."""
    if _vecdoko is None:
        return None
    preset = compiled_preset(options)
    if preset is None:
        raise ValueError("the compiled Doppelkopf games play the house and DDV presets only")
    deck = bytes(DOPPELKOPF_CARDS.index(c) for c in options.deck())
    return _vecdoko.Batch(num, deck, -1 if dealer is None else dealer, preset == "ddv")


def _generator_states(seeds: Sequence[int]) -> npt.NDArray[np.uint32]:
    """The state of ``random.Random(seed)`` for each game's seed: 624 words and the index."""
    out = np.empty((len(seeds), 625), dtype=np.uint32)
    for i, seed in enumerate(seeds):
        _, words, _ = random.Random(seed).getstate()
        out[i] = words
    return out


def _spaces() -> Any:
    try:
        from gymnasium import spaces
    except ModuleNotFoundError as exc:  # pragma: no cover - the rl extra installs it
        raise ImportError(
            "the spaces of kartentisch.interop.vector need Gymnasium: pip install 'kartentisch[rl]'"
        ) from exc
    return spaces


class VectorEnv(ABC):
    """``num_envs`` games of one trick game stepped together (see the module docstring)."""

    game: ClassVar[str]
    #: How a game that ends is started again: at once, on the same step.
    autoreset_mode: ClassVar[str] = AUTORESET_MODE

    def __init__(
        self,
        num_envs: int,
        *,
        num_players: int,
        num_actions: int,
        layout: Layout,
        dealer: int | None,
        copy: bool,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        if dealer is not None and not 0 <= dealer < num_players:
            raise ValueError(f"dealer must be a seat from 0 to {num_players - 1}, not {dealer!r}")
        self.num_envs = num_envs
        self.num_players = num_players
        self.num_actions = num_actions
        self.layout = layout
        self.dealer = dealer
        self.copy = copy
        #: The seed of the last reset: game ``i`` drew from ``random.Random(seed + i)``.
        self.seed: int | None = None
        #: Each game's seed of the last reset.
        self.seeds: list[int] = []
        self._obs: FloatArray = np.zeros((num_envs, layout.size), dtype=np.float32)
        self._mask: MaskArray = np.zeros((num_envs, num_actions), dtype=np.int8)
        self._to_move: IntArray = np.zeros(num_envs, dtype=np.int64)
        self._rewards: FloatArray = np.zeros((num_envs, num_players), dtype=np.float32)
        self._terminations: BoolArray = np.zeros(num_envs, dtype=np.bool_)
        self._truncations: BoolArray = np.zeros(num_envs, dtype=np.bool_)
        self._sampler = np.random.default_rng(0)
        self._ready = False

    @property
    @abstractmethod
    def backend(self) -> str:
        """``c`` or ``python``."""

    @property
    def observation_size(self) -> int:
        return self.layout.size

    @property
    def single_observation_space(self) -> Any:
        """One game's observations as a Gymnasium ``Dict`` space."""
        spaces = _spaces()
        high = self.layout.high()
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, shape=(self.layout.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
                "to_move": spaces.Discrete(self.num_players),
            }
        )

    @property
    def observation_space(self) -> Any:
        """The batch's observations as a Gymnasium ``Dict`` space (a row a game)."""
        spaces = _spaces()
        high = np.broadcast_to(self.layout.high(), (self.num_envs, self.layout.size))
        shape = (self.num_envs, self.num_actions)
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=shape, dtype=np.int8),
                "to_move": spaces.MultiDiscrete([self.num_players] * self.num_envs),
            }
        )

    @property
    def single_action_space(self) -> Any:
        return _spaces().Discrete(self.num_actions)

    @property
    def action_space(self) -> Any:
        return _spaces().MultiDiscrete([self.num_actions] * self.num_envs)

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal a fresh deal in every game: game ``i`` from ``random.Random(seed + i)``,
        or from ``random.Random(seed[i])`` given one seed a game.

        ``options`` is accepted for Gymnasium's signature and ignored."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        if isinstance(seed, int) and not isinstance(seed, bool):
            seeds = [seed + i for i in range(self.num_envs)]
        elif isinstance(seed, Sequence) and all(
            isinstance(s, int) and not isinstance(s, bool) for s in seed
        ):
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds given for {self.num_envs} games")
        else:
            raise TypeError(f"seed must be an integer or one integer a game, not {seed!r}")
        self.seed = seeds[0]
        self.seeds = seeds
        self._sampler = np.random.default_rng(abs(seeds[0]))
        self._reset(seeds)
        self._ready = True
        return self._observations(), {}

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Play ``actions[i]`` in game ``i`` for its seat to move (see the module docstring)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {acts.shape}")
        self._step(acts)
        rewards, terminations, truncations = self._rewards, self._terminations, self._truncations
        if self.copy:
            rewards, terminations = rewards.copy(), terminations.copy()
            truncations = truncations.copy()
        return self._observations(), rewards, terminations, truncations, {}

    def sample_actions(self) -> IntArray:
        """A legal action id per game, uniformly at random (seeded by :meth:`reset`)."""
        if not self._ready:
            raise RuntimeError("call reset() before sample_actions()")
        noise = self._sampler.random(self._mask.shape, dtype=np.float32) + 1.0
        out: IntArray = np.argmax(noise * self._mask, axis=1).astype(np.int64)
        return out

    @abstractmethod
    def scores(self) -> FloatArray:
        """Every seat's score of each game's deal so far (``num_envs × num_players``)."""

    def _observations(self) -> Observations:
        obs, mask, to_move = self._obs, self._mask, self._to_move
        if self.copy:
            obs, mask, to_move = obs.copy(), mask.copy(), to_move.copy()
        return {"observation": obs, "action_mask": mask, "to_move": to_move}

    @abstractmethod
    def _reset(self, seeds: list[int]) -> None: ...

    @abstractmethod
    def _step(self, actions: IntArray) -> None: ...

    def close(self) -> None:
        self._ready = False


class _TableVectorEnv(VectorEnv):
    """The reference backend: one scalar :class:`Table` per game, stepped in Python."""

    def __init__(
        self,
        num_envs: int,
        new_table: Callable[[int, int], Table],
        *,
        num_players: int,
        num_actions: int,
        layout: Layout,
        dealer: int | None,
        copy: bool,
    ) -> None:
        super().__init__(
            num_envs,
            num_players=num_players,
            num_actions=num_actions,
            layout=layout,
            dealer=dealer,
            copy=copy,
        )
        self._new_table = new_table
        self._rngs: list[random.Random] = []
        self.tables: list[Table] = []
        self._scores: list[tuple[float, ...]] = []

    @property
    def backend(self) -> str:
        return "python"

    def _deal(self, i: int) -> Table:
        """The next deal of game ``i``, drawn as the scalar environment's reset draws it."""
        rng = self._rngs[i]
        dealer = self.dealer
        if dealer is None:
            dealer = rng.randrange(self.num_players)
        return self._new_table(rng.getrandbits(64), dealer)

    def _write(self, i: int, table: Table) -> None:
        seat = table.to_move
        assert seat is not None
        self._obs[i] = table.encode(seat)
        mask = self._mask[i]
        mask[:] = 0
        mask[table.legal_ids()] = 1
        self._to_move[i] = seat

    def _reset(self, seeds: list[int]) -> None:
        self._rngs = [random.Random(s) for s in seeds]
        self.tables = [self._deal(i) for i in range(self.num_envs)]
        self._scores = [t.scores() for t in self.tables]
        for i, table in enumerate(self.tables):
            self._write(i, table)

    def _step(self, actions: IntArray) -> None:
        n = self.num_actions
        bad = (actions < 0) | (actions >= n)
        if not bad.any():
            bad = self._mask[np.arange(self.num_envs), actions] == 0
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"game {i}: action id {int(actions[i])} is not legal now")
        rewards, over = self._rewards, self._terminations
        for i, action in enumerate(actions.tolist()):
            table = self.tables[i]
            table.apply_id(action)
            scores = table.scores()
            before = self._scores[i]
            rewards[i] = [a - b for a, b in zip(scores, before, strict=True)]
            if table.to_move is None:
                over[i] = True
                table = self.tables[i] = self._deal(i)
                scores = table.scores()
            else:
                over[i] = False
            self._scores[i] = scores
            self._write(i, table)

    def scores(self) -> FloatArray:
        return np.array(self._scores, dtype=np.float32).reshape(self.num_envs, self.num_players)


class _CompiledOrTables(VectorEnv):
    """A game stepped in compiled code (``_batch``) or through the scalar tables
    (``_reference``, writing this environment's own buffers)."""

    _batch: Any
    _reference: _TableVectorEnv | None
    threads: int

    def _use_tables(self, new_table: Callable[[int, int], Table], *, python: bool = False) -> None:
        reference_type = _DoppelkopfTables if python else _TableVectorEnv
        self._reference = reference_type(
            self.num_envs,
            new_table,
            num_players=self.num_players,
            num_actions=self.num_actions,
            layout=self.layout,
            dealer=self.dealer,
            copy=False,
        )
        # One set of buffers: the reference writes this environment's arrays.
        self._reference._obs = self._obs
        self._reference._mask = self._mask
        self._reference._to_move = self._to_move
        self._reference._rewards = self._rewards
        self._reference._terminations = self._terminations

    @property
    def backend(self) -> str:
        return "c" if self._batch is not None else "python"

    @property
    def tables(self) -> list[Table]:
        """The deals under way (the Python backend only)."""
        if self._reference is None:
            raise RuntimeError("the compiled backend keeps no tables")
        return self._reference.tables

    def _reset(self, seeds: list[int]) -> None:
        if self._batch is None:
            assert self._reference is not None
            self._reference._reset(seeds)
            return
        self._batch.reset(_generator_states(seeds))
        self._batch.seed_sampler(abs(seeds[0]) % 2**64)
        self._batch.observe(self._obs, self._mask, self._to_move)

    def _step(self, actions: IntArray) -> None:
        if self._batch is None:
            assert self._reference is not None
            self._reference._step(actions)
            return
        self._batch.step(
            actions,
            self._obs,
            self._mask,
            self._to_move,
            self._rewards,
            self._terminations,
            self.threads,
        )

    def sample_actions(self) -> IntArray:
        if self._batch is None:
            return super().sample_actions()
        if not self._ready:
            raise RuntimeError("call reset() before sample_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        self._batch.sample(out)
        return out

    def scores(self) -> FloatArray:
        if self._batch is None:
            assert self._reference is not None
            return self._reference.scores()
        out = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        self._batch.scores(out)
        return out


def _check_backend(backend: str, module: Any) -> None:
    if backend not in ("auto", "c", "python"):
        raise ValueError(f"backend must be auto, c or python, not {backend!r}")
    if backend == "c" and module is None:
        raise RuntimeError("the compiled vector environment is not built")
    if backend == "c" and os.environ.get("KARTENTISCH_PURE_PYTHON"):
        raise RuntimeError(
            "the compiled vector environment is not allowed: KARTENTISCH_PURE_PYTHON is set"
        )


class SlobberhannesVectorEnv(_CompiledOrTables):
    """``num_envs`` games of Slobberhannes (``options`` as the scalar environment's).

    ``backend``: ``c`` (compiled; ``threads`` > 1 splits the games over that many
    threads), ``python`` (the scalar tables) or ``auto`` (``c`` where built).
    """

    game: ClassVar[str] = "slobberhannes"

    def __init__(
        self,
        num_envs: int,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
        *,
        dealer: int | None = None,
        backend: Backend = "auto",
        threads: int = 1,
        copy: bool = True,
    ) -> None:
        if not isinstance(options, SlobberhannesOptions):
            options = SlobberhannesOptions.from_dict(options)
        self.options = options
        _check_backend(backend, _vecslob)
        use_c = backend == "c" or (backend == "auto" and compiled_available())
        layout = slobberhannes_layout(options.players, options.hand_size)
        super().__init__(
            num_envs,
            num_players=options.players,
            num_actions=SLOBBERHANNES_ACTIONS,
            layout=layout,
            dealer=dealer,
            copy=copy,
        )
        self.threads = max(1, int(threads))
        self._batch = None
        self._reference = None
        if use_c:
            self._batch = slobberhannes_batch(num_envs, options, dealer)
            assert self._batch.obs_size == layout.size
        else:
            self._use_tables(self._new_table)

    def _new_table(self, seed: int, dealer: int) -> Table:
        return SlobberhannesTable.from_seed(seed, dealer=dealer, options=self.options)


class _DoppelkopfTables(_TableVectorEnv):
    """The scalar Doppelkopf tables, observed from the deal's state directly."""

    def _write(self, i: int, table: Table) -> None:
        # The vector read from the deal itself (incremental.doppelkopf_deal_vector):
        # the values of table.encode(seat), without the engine's observation object.
        assert isinstance(table, DoppelkopfTable)
        seat = table.to_move
        assert seat is not None
        self._obs[i] = doppelkopf_deal_vector(table.deal, seat, table.own_selection(seat))
        mask = self._mask[i]
        mask[:] = 0
        mask[table.legal_ids()] = 1
        self._to_move[i] = seat


class DoppelkopfVectorEnv(_CompiledOrTables):
    """``num_envs`` games of Doppelkopf, house rules by default (``options`` as the
    scalar environment's).

    ``backend``: ``c`` (compiled, the house or the DDV preset as it is:
    ``options`` as ``DoppelkopfOptions()`` or ``{"preset": "ddv"}``; ``threads`` > 1
    splits the games over that many threads), ``python`` (the scalar tables, any
    options) or ``auto`` (``c`` where built and the options are one of those two).
    """

    game: ClassVar[str] = "doppelkopf"

    def __init__(
        self,
        num_envs: int,
        options: DoppelkopfOptions | Mapping[str, Any] | None = None,
        *,
        dealer: int | None = None,
        backend: Backend = "auto",
        threads: int = 1,
        copy: bool = True,
    ) -> None:
        if not isinstance(options, DoppelkopfOptions):
            options = DoppelkopfOptions.from_dict(options)
        self.options = options
        _check_backend(backend, _vecdoko)
        supported = compiled_preset(options) is not None
        if backend == "c" and not supported:
            raise ValueError(
                "the compiled Doppelkopf games play the house and DDV presets only "
                "(as they are): use backend='python' for other options"
            )
        use_c = backend == "c" or (
            backend == "auto" and supported and compiled_available("doppelkopf")
        )
        layout = doppelkopf_layout(options.players, options.hand_size)
        super().__init__(
            num_envs,
            num_players=options.players,
            num_actions=DOPPELKOPF_ACTIONS,
            layout=layout,
            dealer=dealer,
            copy=copy,
        )
        self.threads = max(1, int(threads))
        self._batch = None
        self._reference = None
        if use_c:
            self._batch = doppelkopf_batch(num_envs, options, dealer)
            assert self._batch.obs_size == layout.size
        else:
            self._use_tables(self._doppelkopf_table, python=True)

    def _doppelkopf_table(self, seed: int, dealer: int) -> Table:
        return DoppelkopfTable.from_seed(seed, dealer=dealer, options=self.options)
