"""A learned Slobberhannes player: masked PPO on the vector environment.

A small proximal-policy-optimisation trainer in PyTorch, written for
kartentisch, in the single-file style of CleanRL: an actor and a critic (two
multi-layer perceptrons over the observation vector of
:mod:`kartentisch.interop.encoding`), rollouts from
:class:`~kartentisch.interop.vector.SlobberhannesVectorEnv`, generalised
advantage estimates, the clipped surrogate objective. Illegal cards get a
logit of minus infinity, so the policy never plays one.

**Who learns.** Every step of the vector environment is one decision in every
game, by whichever seat is to move. With ``--opponents self`` the one policy
plays all four seats of every game (self-play, parameters shared); with
``random`` one seat per game learns and the other three play uniformly random
legal cards; ``mixed`` (the default) does self-play in half the games and
plays against random opponents in the other half. A learning seat's reward
for a decision is the change in its score until its next decision (minus the
penalty chips charged to it), so the rewards of its eight decisions add up to
minus its chips for the deal. Every deal lasts exactly ``players × hand size``
steps and all games start together, so a rollout of whole deals needs no
bootstrapping.

**Learning curve.** Every ``--eval-every`` updates the greedy policy plays one
seat of ``--eval-games`` fixed deals against three random players (the same
deals every time); the CSV records its mean penalty per deal with a 95%
interval, beside the training statistics.

**Evaluation** (``evaluate``): duplicate deals as ``kartentisch simulate`` plays
them. Each deal is played once per rotation, the policy in one seat and three
bots of one level (``random``, ``heuristic``, …) in the others, so the policy
plays every hand of the same cards. The policy acts only from its seat's
observation (the engine's :meth:`observation`, encoded as the environment
encodes it). Reported per lineup: mean penalty chips per deal of the policy
and of the bots (95% intervals, one sample per deal) and the paired margin
policy − bots; lower is better. ``--reference LEVEL`` also plays the same
deals with that bot level in the policy's place, for comparison.

Run (needs ``pip install 'kartentisch[learn]'``)::

    python examples/train_slobberhannes.py train --minutes 25 --out runs/slob
    python examples/train_slobberhannes.py evaluate runs/slob/policy.pt --deals 2000 \
        --reference heuristic random --json runs/slob/evaluation.json
    python examples/train_slobberhannes.py plot runs/slob/curve.csv --png curve.png \
        --evaluation runs/slob/evaluation.json
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from kartentisch.bots import Bot, make_bot
from kartentisch.cards import Card
from kartentisch.games.slobberhannes import (
    SlobberhannesDeal,
    SlobberhannesObservation,
    SlobberhannesOptions,
)
from kartentisch.interop.encoding import (
    SLOBBERHANNES_ACTIONS,
    SLOBBERHANNES_CARDS,
    encode_slobberhannes,
)
from kartentisch.interop.vector import SlobberhannesVectorEnv

CARD_ID: dict[Card, int] = {card: i for i, card in enumerate(SLOBBERHANNES_CARDS)}
OPPONENTS = ("self", "random", "mixed")
CURVE_FIELDS = (
    "update",
    "decisions",
    "deals",
    "wall_s",
    "train_penalty",
    "eval_penalty",
    "eval_ci95",
    "policy_loss",
    "value_loss",
    "entropy",
    "approx_kl",
)


# -- the network ---------------------------------------------------------------------


def _layer(inputs: int, outputs: int, gain: float = math.sqrt(2)) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class Agent(nn.Module):
    """An actor (card logits) and a critic (expected score of the seat to move)."""

    def __init__(self, obs_size: int, hidden: int = 256, actions: int = SLOBBERHANNES_ACTIONS):
        super().__init__()
        self.obs_size, self.hidden, self.actions = obs_size, hidden, actions
        self.actor = nn.Sequential(
            _layer(obs_size, hidden),
            nn.Tanh(),
            _layer(hidden, hidden),
            nn.Tanh(),
            _layer(hidden, actions, gain=0.01),
        )
        self.critic = nn.Sequential(
            _layer(obs_size, hidden),
            nn.Tanh(),
            _layer(hidden, hidden),
            nn.Tanh(),
            _layer(hidden, 1, gain=1.0),
        )

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.critic(obs).squeeze(-1)
        return out

    def masked_logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The actor's logits with every illegal action at minus infinity."""
        logits: torch.Tensor = self.actor(obs)
        return logits.masked_fill(~mask, -math.inf)

    def act(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        action: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(action, its log-probability, the policy's entropy, the value); samples
        an action unless one is given."""
        log_probs = torch.log_softmax(self.masked_logits(obs, mask), dim=-1)
        probs = log_probs.exp()
        if action is None:
            action = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
        logp = log_probs.gather(-1, action.unsqueeze(-1)).squeeze(-1)
        # Illegal actions have probability 0 and log-probability -inf: leave them out.
        entropy = -(probs * log_probs.masked_fill(~mask, 0.0)).sum(-1)
        return action, logp, entropy, self.value(obs)

    def greedy(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The most probable legal action of each row."""
        return self.masked_logits(obs, mask).argmax(-1)


# -- training -------------------------------------------------------------------------


@dataclass
class TrainConfig:
    seed: int = 1
    games: int = 128
    deals_per_rollout: int = 2
    opponents: str = "mixed"
    minutes: float = 25.0
    max_decisions: int = 0
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 1.0
    gae_lambda: float = 0.95
    epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    entropy_coef: float = 0.01
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 256
    eval_every: int = 10
    eval_games: int = 1024
    eval_seed: int = 10_000
    threads: int = 1
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class TrainResult:
    agent: Agent
    rows: list[dict[str, float]]
    updates: int
    decisions: int
    wall_s: float


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def learner_seats(config: TrainConfig, games: int, players: int) -> npt.NDArray[np.bool_]:
    """Which seats of which games the policy plays *and learns from* (games × players).

    Against random opponents the learning seat goes round the table (game ``i``:
    seat ``i mod players``)."""
    learns = np.zeros((games, players), dtype=np.bool_)
    for i in range(games):
        if config.opponents == "self" or (config.opponents == "mixed" and i % 2 == 0):
            learns[i] = True
        else:
            learns[i, i % players] = True
    return learns


def evaluate_vs_random(
    agent: Agent, options: SlobberhannesOptions, games: int, seed: int
) -> tuple[float, float]:
    """The greedy policy in one seat of each of ``games`` deals (seat ``i mod n``
    in game ``i``), three random players in the others: mean penalty per deal and
    the half-width of its 95% interval. The same deals for the same seed."""
    envs = SlobberhannesVectorEnv(games, options)
    n = options.players
    steps = n * options.hand_size
    obs, _ = envs.reset(seed=seed)
    seat = np.arange(games) % n
    chips = np.zeros(games, dtype=np.float64)
    with torch.no_grad():
        for _ in range(steps):
            ours = obs["to_move"] == seat
            actions = envs.sample_actions()
            if ours.any():
                x = torch.from_numpy(obs["observation"][ours])
                m = torch.from_numpy(obs["action_mask"][ours].astype(np.bool_))
                actions[ours] = agent.greedy(x, m).numpy()
            obs, rewards, _, _, _ = envs.step(actions)
            chips -= rewards[np.arange(games), seat]
    return float(chips.mean()), float(1.96 * chips.std(ddof=1) / math.sqrt(games))


def train(
    config: TrainConfig,
    *,
    log: Callable[[dict[str, float]], None] | None = None,
    max_updates: int | None = None,
) -> TrainResult:
    """PPO with masked actions on ``config.games`` games until the time or
    decision budget (or ``max_updates``) is spent."""
    seed_everything(config.seed)
    torch.set_num_threads(config.threads)
    options = SlobberhannesOptions.from_dict(config.options)
    n = options.players
    envs = SlobberhannesVectorEnv(config.games, options, copy=False)
    steps = config.deals_per_rollout * n * options.hand_size
    agent = Agent(envs.observation_size, config.hidden)
    optimiser = torch.optim.Adam(agent.parameters(), lr=config.learning_rate, eps=1e-5)
    learns = learner_seats(config, config.games, n)
    g, size = config.games, envs.observation_size
    rows = np.arange(g)

    obs_buf = np.zeros((steps, g, size), dtype=np.float32)
    mask_buf = np.zeros((steps, g, SLOBBERHANNES_ACTIONS), dtype=np.bool_)
    act_buf = np.zeros((steps, g), dtype=np.int64)
    logp_buf = np.zeros((steps, g), dtype=np.float32)
    val_buf = np.zeros((steps, g), dtype=np.float32)
    learn_buf = np.zeros((steps, g), dtype=np.bool_)
    reward_buf = np.zeros((steps, g), dtype=np.float32)
    done_buf = np.zeros((steps, g), dtype=np.bool_)
    next_buf = np.zeros((steps, g), dtype=np.int64)

    obs, _ = envs.reset(seed=config.seed)
    start = time.perf_counter()
    budget_s = config.minutes * 60.0
    history: list[dict[str, float]] = []
    update = decisions = deals = 0
    while True:
        elapsed = time.perf_counter() - start
        if max_updates is not None and update >= max_updates:
            break
        if max_updates is None and config.minutes > 0 and elapsed >= budget_s:
            break
        if config.max_decisions and decisions >= config.max_decisions:
            break
        if config.anneal_lr and max_updates is None and config.minutes > 0:
            frac = max(0.0, 1.0 - elapsed / budget_s)
            optimiser.param_groups[0]["lr"] = config.learning_rate * max(frac, 0.05)

        # ---- a rollout of whole deals
        reward_buf[:] = 0.0
        done_buf[:] = False
        next_buf[:] = -1
        last = np.full((g, n), -1, dtype=np.int64)  # each seat's last decision this deal
        for t in range(steps):
            seat = obs["to_move"].copy()
            obs_buf[t] = obs["observation"]
            mask_buf[t] = obs["action_mask"]
            learn_buf[t] = learns[rows, seat]
            before = last[rows, seat]
            linked = before >= 0
            next_buf[before[linked], rows[linked]] = t
            last[rows, seat] = t
            with torch.no_grad():
                action, logp, _, value = agent.act(
                    torch.from_numpy(obs_buf[t]), torch.from_numpy(mask_buf[t])
                )
            actions = envs.sample_actions()  # the random opponents' cards
            actions[learn_buf[t]] = action.numpy()[learn_buf[t]]
            act_buf[t] = actions
            logp_buf[t], val_buf[t] = logp.numpy(), value.numpy()
            obs, rewards, ended, _, _ = envs.step(actions)
            # Each seat's reward goes to its latest decision.
            acted = last >= 0
            np.add.at(reward_buf, (last[acted], np.nonzero(acted)[0]), rewards[acted])
            if ended.any():
                over = np.flatnonzero(ended)
                for s in range(n):
                    acted_here = last[over, s] >= 0
                    done_buf[last[over, s][acted_here], over[acted_here]] = True
                last[over] = -1
        if not done_buf[steps - 1].all() or (last >= 0).any():
            raise RuntimeError("a rollout must end with every game's deal over")
        # Chips of the learning seats: their rewards add up to minus their chips.
        learner_chips = -float(reward_buf[learn_buf].sum())
        learner_deals = int(learns.sum()) * config.deals_per_rollout
        decisions += steps * g
        deals += config.deals_per_rollout * g

        # ---- advantages: each decision's successor is the same seat's next one
        adv_buf = np.zeros((steps, g), dtype=np.float32)
        for t in reversed(range(steps)):
            nxt = next_buf[t]
            has_next = (nxt >= 0) & ~done_buf[t]
            safe = np.where(has_next, nxt, 0)
            next_value = np.where(has_next, val_buf[safe, rows], 0.0)
            next_adv = np.where(has_next, adv_buf[safe, rows], 0.0)
            delta = reward_buf[t] + config.gamma * next_value - val_buf[t]
            adv_buf[t] = delta + config.gamma * config.gae_lambda * next_adv
        ret_buf = adv_buf + val_buf

        sel = learn_buf.reshape(-1)
        b_obs = torch.from_numpy(obs_buf.reshape(-1, size)[sel])
        b_mask = torch.from_numpy(mask_buf.reshape(-1, SLOBBERHANNES_ACTIONS)[sel])
        b_act = torch.from_numpy(act_buf.reshape(-1)[sel])
        b_logp = torch.from_numpy(logp_buf.reshape(-1)[sel])
        b_adv = torch.from_numpy(adv_buf.reshape(-1)[sel])
        b_ret = torch.from_numpy(ret_buf.reshape(-1)[sel])

        # ---- PPO epochs
        batch = b_obs.shape[0]
        minibatch = max(1, batch // config.minibatches)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0}
        for _ in range(config.epochs):
            order = torch.randperm(batch)
            for lo in range(0, batch, minibatch):
                idx = order[lo : lo + minibatch]
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                log_ratio = logp - b_logp[idx]
                ratio = log_ratio.exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - config.clip, 1 + config.clip)
                ).mean()
                value_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = (
                    policy_loss
                    - config.entropy_coef * entropy.mean()
                    + config.value_coef * value_loss
                )
                optimiser.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                nn.utils.clip_grad_norm_(agent.parameters(), config.max_grad_norm)
                optimiser.step()
                with torch.no_grad():
                    stats["approx_kl"] = float(((ratio - 1) - log_ratio).mean())
                stats["policy_loss"] = float(policy_loss.detach())
                stats["value_loss"] = float(value_loss.detach())
                stats["entropy"] = float(entropy.mean().detach())
        update += 1

        if update == 1 or update % config.eval_every == 0:
            row: dict[str, float] = {
                "update": update,
                "decisions": decisions,
                "deals": deals,
                "wall_s": round(time.perf_counter() - start, 2),
                "train_penalty": learner_chips / max(1, learner_deals),
                **stats,
            }
            mean, ci = evaluate_vs_random(agent, options, config.eval_games, config.eval_seed)
            row["eval_penalty"], row["eval_ci95"] = mean, ci
            history.append(row)
            if log is not None:
                log(row)
    wall = time.perf_counter() - start
    if history and history[-1]["update"] != update:
        mean, ci = evaluate_vs_random(agent, options, config.eval_games, config.eval_seed)
        history.append(
            {
                "update": update,
                "decisions": decisions,
                "deals": deals,
                "wall_s": round(wall, 2),
                "train_penalty": math.nan,
                "eval_penalty": mean,
                "eval_ci95": ci,
                "policy_loss": math.nan,
                "value_loss": math.nan,
                "entropy": math.nan,
                "approx_kl": math.nan,
            }
        )
    return TrainResult(agent, history, update, decisions, wall)


def save_checkpoint(path: Path, agent: Agent, config: TrainConfig, result: TrainResult) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "state_dict": agent.state_dict(),
            "obs_size": agent.obs_size,
            "hidden": agent.hidden,
            "config": asdict(config),
            "updates": result.updates,
            "decisions": result.decisions,
            "wall_s": result.wall_s,
        },
        path,
    )


def load_checkpoint(path: Path) -> tuple[Agent, dict[str, Any]]:
    data = torch.load(path, map_location="cpu", weights_only=True)
    agent = Agent(data["obs_size"], data["hidden"])
    agent.load_state_dict(data["state_dict"])
    agent.eval()
    return agent, data


def write_curve(path: Path, rows: Sequence[dict[str, float]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=CURVE_FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: row.get(k, "") for k in CURVE_FIELDS})


# -- playing the engine's deals -------------------------------------------------------


class PolicyPlayer:
    """A seat played by the trained policy, from that seat's observation only.

    The observation is encoded as the vector environment encodes it; the legal
    cards become the mask. ``greedy`` plays the most probable legal card, else
    a card is drawn from the policy with the player's own seeded generator."""

    name = "ppo"

    def __init__(self, agent: Agent, *, greedy: bool = True, seed: int = 0) -> None:
        self.agent = agent
        self.greedy = greedy
        self.generator = torch.Generator().manual_seed(seed)

    def choose(self, observation: SlobberhannesObservation) -> Card:
        legal = observation.legal_actions
        if not legal:
            raise ValueError("the policy was asked to act with no legal card")
        x = torch.from_numpy(encode_slobberhannes(observation)).unsqueeze(0)
        mask = torch.zeros((1, SLOBBERHANNES_ACTIONS), dtype=torch.bool)
        mask[0, [CARD_ID[c] for c in legal]] = True
        with torch.no_grad():
            if self.greedy:
                action = int(self.agent.greedy(x, mask)[0])
            else:
                action = int(self.agent.act(x, mask, generator=self.generator)[0][0])
        return SLOBBERHANNES_CARDS[action]


@dataclass(frozen=True)
class Interval:
    mean: float
    ci95: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Interval:
        mean = statistics.fmean(samples)
        sd = statistics.stdev(samples) if len(samples) > 1 else 0.0
        return cls(mean, 1.96 * sd / math.sqrt(len(samples)))

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.ci95:.3f}"

    def signed(self) -> str:
        return f"{self.mean:+.3f} ± {self.ci95:.3f}"


@dataclass(frozen=True)
class DuplicateResult:
    """One lineup (the focus player against three bots of ``opponent``)."""

    focus: str
    opponent: str
    deals: int
    seed: int
    focus_penalty: Interval
    opponent_penalty: Interval
    margin: Interval
    #: Per deal: (deal seed, dealer), the same for every rotation.
    deal_keys: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["deal_keys"]
        return out


def duplicate_deals(seed: int, deals: int, players: int) -> list[tuple[int, int]]:
    """(deal seed, dealer) of each evaluation deal, from ``seed`` alone."""
    rng = random.Random(seed)
    keys = []
    for _ in range(deals):
        deal_seed = rng.getrandbits(64)
        keys.append((deal_seed, random.Random(deal_seed).randrange(players)))
    return keys


def play_deal(
    deal_seed: int, dealer: int, players_by_seat: Sequence[Bot], options: SlobberhannesOptions
) -> tuple[int, ...]:
    """One deal on the engine; penalty chips by seat."""
    deal = SlobberhannesDeal.from_seed(deal_seed, dealer=dealer, options=options)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        deal.apply(players_by_seat[seat].choose(deal.observation(seat)))
    return deal.points()


def duplicate_match(
    focus: Callable[[int], Bot],
    opponent: str,
    *,
    deals: int,
    seed: int = 0,
    options: SlobberhannesOptions | None = None,
    focus_name: str = "ppo",
) -> DuplicateResult:
    """``deals`` duplicate deals: in rotation ``r`` the focus player sits at seat
    ``r`` and bots of level ``opponent`` at the others; every player is seeded
    from (seed, deal, rotation, position). ``focus(bot_seed)`` makes the focus
    player."""
    options = options or SlobberhannesOptions()
    n = options.players
    keys = duplicate_deals(seed, deals, n)
    focus_s: list[float] = []
    others_s: list[float] = []
    for k, (deal_seed, dealer) in enumerate(keys):
        mine: list[float] = []
        theirs: list[float] = []
        for rotation in range(n):
            players: list[Bot] = []
            for seat in range(n):
                position = (seat - rotation) % n  # position 0 is the focus player
                bot_seed = random.Random(f"{seed}/{k}/{rotation}/{position}").getrandbits(63)
                players.append(
                    focus(bot_seed)
                    if position == 0
                    else make_bot("slobberhannes", opponent, bot_seed)
                )
            chips = play_deal(deal_seed, dealer, players, options)
            mine.append(chips[rotation])
            theirs.extend(c for s, c in enumerate(chips) if s != rotation)
        focus_s.append(statistics.fmean(mine))
        others_s.append(statistics.fmean(theirs))
    return DuplicateResult(
        focus_name,
        opponent,
        deals,
        seed,
        Interval.of(focus_s),
        Interval.of(others_s),
        Interval.of([a - b for a, b in zip(focus_s, others_s, strict=True)]),
        tuple(keys),
    )


# -- the picture ----------------------------------------------------------------------


def plot_curve(
    rows: Sequence[dict[str, float]],
    png: Path,
    *,
    references: dict[str, float] | None = None,
    title: str = "Masked PPO on Slobberhannes",
) -> None:
    """The evaluation penalty (greedy policy vs three random players) against
    the decisions trained on, with its 95% band; ``references`` as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [float(r["decisions"]) / 1e6 for r in rows]
    ys = [float(r["eval_penalty"]) for r in rows]
    ci = [float(r["eval_ci95"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.plot(xs, ys, color="tab:blue", label="PPO policy (greedy) vs 3 random")
    ax.fill_between(
        xs,
        [y - c for y, c in zip(ys, ci, strict=True)],
        [y + c for y, c in zip(ys, ci, strict=True)],
        color="tab:blue",
        alpha=0.2,
        linewidth=0,
    )
    for (label, value), colour in zip(
        (references or {}).items(), ("tab:gray", "tab:orange", "tab:green"), strict=False
    ):
        ax.axhline(value, linestyle="--", color=colour, linewidth=1, label=label)
    ax.set_xlabel("decisions trained on (millions)")
    ax.set_ylabel("penalty chips per deal")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    plt.close(fig)


def read_curve(path: Path) -> list[dict[str, float]]:
    with path.open(newline="") as f:
        return [
            {k: float(v) if v else math.nan for k, v in row.items()} for row in csv.DictReader(f)
        ]


# -- the command line -----------------------------------------------------------------


def _train_command(args: argparse.Namespace) -> int:
    config = TrainConfig(
        seed=args.seed,
        games=args.games,
        deals_per_rollout=args.deals_per_rollout,
        opponents=args.opponents,
        minutes=args.minutes,
        max_decisions=args.max_decisions,
        learning_rate=args.lr,
        entropy_coef=args.entropy_coef,
        hidden=args.hidden,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"training: {json.dumps(asdict(config))}", flush=True)

    def log(row: dict[str, float]) -> None:
        print(
            f"update {int(row['update']):5d}  decisions {int(row['decisions']):>10,}  "
            f"{row['wall_s']:7.0f}s  vs random {row['eval_penalty']:.3f} ± {row['eval_ci95']:.3f}"
            f"  entropy {row['entropy']:.3f}",
            flush=True,
        )

    result = train(config, log=log, max_updates=args.updates)
    save_checkpoint(out / "policy.pt", result.agent, config, result)
    write_curve(out / "curve.csv", result.rows)
    print(
        f"{result.updates} updates, {result.decisions:,} decisions in {result.wall_s:.0f} s; "
        f"wrote {out / 'policy.pt'} and {out / 'curve.csv'}"
    )
    return 0


def _evaluate_command(args: argparse.Namespace) -> int:
    torch.set_num_threads(1)
    agent, data = load_checkpoint(Path(args.checkpoint))
    options = SlobberhannesOptions.from_dict(data["config"].get("options") or {})
    results: list[DuplicateResult] = []
    for level in args.against:

        def focus(bot_seed: int) -> Bot:
            return PolicyPlayer(agent, greedy=not args.sample, seed=bot_seed)

        started = time.perf_counter()
        result = duplicate_match(focus, level, deals=args.deals, seed=args.seed, options=options)
        results.append(result)
        print(_describe(result, time.perf_counter() - started), flush=True)
        for ref in args.reference:

            def reference(bot_seed: int, ref: str = ref) -> Bot:
                return make_bot("slobberhannes", ref, bot_seed)

            started = time.perf_counter()
            ref_result = duplicate_match(
                reference, level, deals=args.deals, seed=args.seed, options=options, focus_name=ref
            )
            results.append(ref_result)
            print(_describe(ref_result, time.perf_counter() - started), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps([r.to_dict() for r in results], indent=2) + "\n")
    return 0


def _describe(result: DuplicateResult, seconds: float) -> str:
    return (
        f"{result.focus} vs 3 {result.opponent}, {result.deals} duplicate deals (seed "
        f"{result.seed}, {seconds:.0f} s): penalty per deal {result.focus} "
        f"{result.focus_penalty}, {result.opponent} {result.opponent_penalty}; "
        f"{result.focus} − {result.opponent} (paired) {result.margin.signed()}"
    )


def _plot_command(args: argparse.Namespace) -> int:
    references: dict[str, float] = {}
    if args.evaluation:  # the bots in the policy's place against random players
        for entry in json.loads(Path(args.evaluation).read_text()):
            if entry["opponent"] == "random" and entry["focus"] != "ppo":
                label = f"{entry['focus']} bot vs 3 random ({entry['deals']} duplicate deals)"
                references[label] = entry["focus_penalty"]["mean"]
    for item in args.reference:
        label, _, value = item.rpartition("=")
        references[label] = float(value)
    plot_curve(read_curve(Path(args.csv)), Path(args.png), references=references)
    print(f"wrote {args.png}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    tr = sub.add_parser("train", help="train a policy; writes policy.pt and curve.csv")
    tr.add_argument("--out", default="runs/slobberhannes", help="output folder")
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--games", type=int, default=128, help="games stepped together")
    tr.add_argument("--deals-per-rollout", type=int, default=2)
    tr.add_argument("--opponents", choices=OPPONENTS, default="mixed")
    tr.add_argument("--minutes", type=float, default=25.0, help="wall-clock budget")
    tr.add_argument("--max-decisions", type=int, default=0, help="decision budget (0: none)")
    tr.add_argument("--updates", type=int, default=None, help="stop after this many updates")
    tr.add_argument("--lr", type=float, default=2.5e-4)
    tr.add_argument("--entropy-coef", type=float, default=0.01)
    tr.add_argument("--hidden", type=int, default=256)
    tr.add_argument("--eval-every", type=int, default=10, help="updates between curve points")
    tr.add_argument("--eval-games", type=int, default=1024)
    tr.set_defaults(run=_train_command)

    ev = sub.add_parser("evaluate", help="duplicate deals against the project's bots")
    ev.add_argument("checkpoint")
    ev.add_argument("--deals", type=int, default=1000)
    ev.add_argument("--seed", type=int, default=2026)
    ev.add_argument("--against", nargs="+", default=["random", "heuristic"])
    ev.add_argument(
        "--reference", nargs="*", default=[], help="bot levels to play the same deals in its place"
    )
    ev.add_argument("--sample", action="store_true", help="sample cards instead of greedy play")
    ev.add_argument("--json", help="also write the results as JSON")
    ev.set_defaults(run=_evaluate_command)

    pl = sub.add_parser("plot", help="draw the learning curve as a PNG")
    pl.add_argument("csv")
    pl.add_argument("--png", default="learning-curve.png")
    pl.add_argument("--reference", nargs="*", default=[], help="LABEL=VALUE dashed lines")
    pl.add_argument(
        "--evaluation", help="the JSON of `evaluate --json`: its reference bots as dashed lines"
    )
    pl.set_defaults(run=_plot_command)

    args = parser.parse_args(argv)
    if os.environ.get("OMP_NUM_THREADS") is None:
        torch.set_num_threads(1)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
