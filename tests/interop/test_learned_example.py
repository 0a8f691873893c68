"""The learned baseline (examples/train_slobberhannes.py): a few PPO updates on a
handful of games, the masked policy, and a tiny duplicate evaluation."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

LEARN = "needs the 'learn' extra: pip install 'kartentisch[learn]'"
np = pytest.importorskip("numpy", reason=LEARN)
torch = pytest.importorskip("torch", reason=LEARN)

from kartentisch.bots import make_bot  # noqa: E402
from kartentisch.interop.encoding import SLOBBERHANNES_CARDS  # noqa: E402
from kartentisch.interop.vector import SlobberhannesVectorEnv  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_slobberhannes.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_slobberhannes", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up while it runs)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


ex = load_example()


def tiny_config(**changes: Any) -> Any:
    settings: dict[str, Any] = {
        "seed": 3,
        "games": 8,
        "deals_per_rollout": 1,
        "hidden": 32,
        "eval_every": 1,
        "eval_games": 16,
        "minibatches": 2,
        "epochs": 2,
    }
    settings.update(changes)
    return ex.TrainConfig(**settings)


@pytest.mark.parametrize("opponents", ["self", "random", "mixed"])
def test_a_few_updates(opponents: str) -> None:
    result = ex.train(tiny_config(opponents=opponents), max_updates=3)
    assert result.updates == 3
    assert result.decisions == 3 * 32 * 8  # a deal is 32 decisions; 8 games
    assert [row["update"] for row in result.rows] == [1, 2, 3]
    for row in result.rows:
        # Three chips a deal (four with all three), shared by four seats.
        assert 0.0 <= row["eval_penalty"] <= 4.0
        assert row["eval_ci95"] >= 0.0
        assert 0.0 <= row["train_penalty"] <= 4.0
        assert math.isfinite(row["policy_loss"]) and math.isfinite(row["value_loss"])
        assert row["entropy"] > 0.0


def test_training_is_seeded() -> None:
    first = ex.train(tiny_config(), max_updates=2)
    second = ex.train(tiny_config(), max_updates=2)
    other = ex.train(tiny_config(seed=4), max_updates=2)
    keys = ("eval_penalty", "train_penalty", "policy_loss", "value_loss")
    assert [[r[k] for k in keys] for r in first.rows] == [[r[k] for k in keys] for r in second.rows]
    for name, tensor in first.agent.state_dict().items():
        assert torch.equal(tensor, second.agent.state_dict()[name])
    assert any(
        not torch.equal(t, other.agent.state_dict()[name])
        for name, t in first.agent.state_dict().items()
    )


def test_learner_seats() -> None:
    mixed = ex.learner_seats(tiny_config(opponents="mixed"), 8, 4)
    assert mixed[0].all() and mixed.sum(axis=1).tolist() == [4, 1] * 4
    alone = ex.learner_seats(tiny_config(opponents="random"), 8, 4)
    assert alone.sum(axis=1).tolist() == [1] * 8
    assert [int(np.flatnonzero(r)[0]) for r in alone] == [0, 1, 2, 3] * 2


def test_the_masked_policy_never_picks_an_illegal_card() -> None:
    torch.manual_seed(0)
    envs = SlobberhannesVectorEnv(64)
    obs, _ = envs.reset(seed=5)
    agent = ex.Agent(envs.observation_size, hidden=16)
    with torch.no_grad():  # the untrained actor prefers every card; the mask must win
        agent.actor[-1].bias.fill_(50.0)
    for _ in range(64):  # two deals in every game
        x = torch.from_numpy(obs["observation"])
        mask = torch.from_numpy(obs["action_mask"].astype(bool))
        with torch.no_grad():
            action, logp, entropy, _ = agent.act(x, mask)
            greedy = agent.greedy(x, mask)
            logits = agent.masked_logits(x, mask)
        assert mask[torch.arange(64), action].all()
        assert mask[torch.arange(64), greedy].all()
        assert torch.isfinite(logp).all() and torch.isfinite(entropy).all()
        assert torch.isneginf(logits[~mask]).all()
        obs, *_ = envs.step(action.numpy())  # raises on an illegal action


def test_the_player_sees_what_the_environment_encodes() -> None:
    envs = SlobberhannesVectorEnv(4, backend="python")
    obs, _ = envs.reset(seed=11)
    agent = ex.Agent(envs.observation_size, hidden=16)
    seen: list[Any] = []

    class Recording(ex.PolicyPlayer):  # type: ignore[misc,name-defined]
        def choose(self, observation: Any) -> Any:
            seen.append(observation)
            return super().choose(observation)

    player = Recording(agent)
    for i, table in enumerate(envs.tables):
        seat = int(obs["to_move"][i])
        card = player.choose(table.observation(seat))
        assert card in seen[-1].legal_actions
        assert np.array_equal(ex.encode_slobberhannes(seen[-1]), obs["observation"][i])
        legal = {SLOBBERHANNES_CARDS[a] for a in np.flatnonzero(obs["action_mask"][i])}
        assert set(seen[-1].legal_actions) == legal


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    config = tiny_config()
    result = ex.train(config, max_updates=1)
    ex.save_checkpoint(tmp_path / "policy.pt", result.agent, config, result)
    agent, data = ex.load_checkpoint(tmp_path / "policy.pt")
    assert data["updates"] == 1 and data["config"]["seed"] == config.seed
    x = torch.rand(10, agent.obs_size)
    mask = torch.rand(10, 32) < 0.5
    mask[:, 0] = True
    assert torch.equal(agent.greedy(x, mask), result.agent.greedy(x, mask))
    ex.write_curve(tmp_path / "curve.csv", result.rows)
    rows = ex.read_curve(tmp_path / "curve.csv")
    assert [r["eval_penalty"] for r in rows] == pytest.approx(
        [r["eval_penalty"] for r in result.rows]
    )


def test_duplicate_evaluation_plays_the_same_deals_for_both_sides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    agent = ex.Agent(313, hidden=16)
    # (deal number, rotation) → {seat: the hand it was dealt}, for every player
    hands: dict[tuple[int, int], dict[int, tuple[Any, ...]]] = {}
    focus_seat: dict[tuple[int, int], set[int]] = {}
    made = [0]  # focus players made: one per rotation, in order

    def key() -> tuple[int, int]:
        deal, rotation = divmod(made[0] - 1, 4)
        return deal, rotation

    def record(observation: Any) -> None:
        if not observation.tricks:  # a seat's first turn: its hand is still whole
            hands.setdefault(key(), {}).setdefault(observation.seat, tuple(observation.hand))

    class Focus(ex.PolicyPlayer):  # type: ignore[misc,name-defined]
        def choose(self, observation: Any) -> Any:
            record(observation)
            focus_seat.setdefault(key(), set()).add(observation.seat)
            return super().choose(observation)

    class Recorder:
        def __init__(self, bot: Any) -> None:
            self.bot, self.name = bot, bot.name

        def choose(self, observation: Any) -> Any:
            record(observation)
            return self.bot.choose(observation)

    def focus(seed: int) -> Any:
        made[0] += 1
        return Focus(agent, seed=seed)

    real_make_bot = make_bot
    monkeypatch.setattr(
        ex, "make_bot", lambda game, level, seed: Recorder(real_make_bot(game, level, seed))
    )
    result = ex.duplicate_match(focus, "heuristic", deals=3, seed=9)
    assert made[0] == 3 * 4
    assert result.deals == 3 and result.deal_keys == tuple(ex.duplicate_deals(9, 3, 4))
    for deal in range(3):
        by_rotation = [hands[(deal, r)] for r in range(4)]
        assert all(len(h) == 4 and all(len(c) == 8 for c in h.values()) for h in by_rotation)
        assert all(h == by_rotation[0] for h in by_rotation)  # the same cards every rotation
        # The policy held every hand of the deal, one per rotation (seat r in rotation r).
        assert [focus_seat[(deal, r)] for r in range(4)] == [{0}, {1}, {2}, {3}]
    assert result.margin.mean == pytest.approx(
        result.focus_penalty.mean - result.opponent_penalty.mean
    )
    for interval in (result.focus_penalty, result.opponent_penalty, result.margin):
        assert math.isfinite(interval.mean) and interval.ci95 >= 0.0
    # Seeded: the same match again gives the same figures.
    assert ex.duplicate_match(focus, "heuristic", deals=3, seed=9).to_dict() == result.to_dict()


def test_duplicate_deals_vary_with_the_seed() -> None:
    assert ex.duplicate_deals(1, 5, 4) == ex.duplicate_deals(1, 5, 4)
    assert ex.duplicate_deals(1, 5, 4) != ex.duplicate_deals(2, 5, 4)
    assert all(0 <= dealer < 4 for _, dealer in ex.duplicate_deals(1, 50, 4))


def test_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason=LEARN)
    rows = ex.train(tiny_config(), max_updates=2).rows
    png = tmp_path / "curve.png"
    ex.plot_curve(rows, png, references={"random": 0.78})
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
