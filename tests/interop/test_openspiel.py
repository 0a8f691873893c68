"""The OpenSpiel games: registered, loadable by name, and passing OpenSpiel's checks."""

from __future__ import annotations

import json
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel games need the 'openspiel' extra")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from kartentisch.games.doppelkopf import Call  # noqa: E402
from kartentisch.games.slobberhannes import SlobberhannesDeal  # noqa: E402
from kartentisch.interop.encoding import (  # noqa: E402
    SLOBBERHANNES_CARDS,
    SlobberhannesTable,
    doppelkopf_action_id,
)
from kartentisch.interop.openspiel import (  # noqa: E402
    DOPPELKOPF_GAME,
    SLOBBERHANNES_GAME,
    TrickGameState,
    state_from_observation,
)

GAMES = [
    SLOBBERHANNES_GAME,
    f"{SLOBBERHANNES_GAME}(players=3)",
    f'{SLOBBERHANNES_GAME}(players=5,options={{"revokes":"penalty"}})',
    f"{SLOBBERHANNES_GAME}(preset=russian,dealer=1)",
    DOPPELKOPF_GAME,
    f"{DOPPELKOPF_GAME}(preset=ddv)",
    f"{DOPPELKOPF_GAME}(players=5,dealer=2)",
    f'{DOPPELKOPF_GAME}(options={{"table_mode":true}})',
]


def _random_states(game: object, sims: int, seed: int) -> list[TrickGameState]:
    """Every decision state of ``sims`` random games (and the terminal ones)."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(sims):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                out.append(state.clone())
                state.apply_action(int(rng.choice(state.legal_actions())))
        out.append(state)
    return out


def test_registered_and_loadable_by_name() -> None:
    assert {SLOBBERHANNES_GAME, DOPPELKOPF_GAME} <= set(pyspiel.registered_names())
    game = pyspiel.load_game("python_kartentisch_slobberhannes")
    assert game.num_players() == 4 and game.num_distinct_actions() == 32
    assert game.max_chance_outcomes() == 32 and game.max_game_length() == 32
    assert game.observation_tensor_size() == 313
    game = pyspiel.load_game("python_kartentisch_doppelkopf(preset=ddv)")
    assert game.num_distinct_actions() == 73 and game.max_chance_outcomes() == 24
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_kartentisch_doppelkopf(players=6)")


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_chance_node_deals_card_by_card() -> None:
    game = pyspiel.load_game(DOPPELKOPF_GAME)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 20 and all(p == pytest.approx(1 / 20) for _, p in outcomes)
    state.apply_action(outcomes[0][0])
    after = dict(state.chance_outcomes())
    assert after[outcomes[0][0]] == pytest.approx(1 / 39)  # one copy left of 39 cards
    assert sum(after.values()) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]) == "deal AC"


@pytest.mark.parametrize("name", [SLOBBERHANNES_GAME, DOPPELKOPF_GAME])
def test_observation_tensors(name: str) -> None:
    game = pyspiel.load_game(name)
    observation = make_observation(game)
    layout = game.layout
    high = layout.high()
    assert list(observation.dict) == [b.name for b in layout.blocks]
    for block in layout.blocks:
        assert observation.dict[block.name].shape == block.shape
    for state in _random_states(game, 2, 3):
        for player in range(game.num_players()):
            tensor = np.asarray(state.observation_tensor(player), dtype=np.float32)
            assert tensor.shape == (layout.size,)
            assert (tensor >= 0).all() and (tensor <= high).all()
            observation.set_from(state, player)
            assert (observation.tensor == tensor).all()
            if not state.is_terminal():
                assert (tensor == state.table.encode(player)).all()
            assert state.observation_string(player)


@pytest.mark.parametrize("name", [SLOBBERHANNES_GAME, f"{SLOBBERHANNES_GAME}(players=3)"])
def test_slobberhannes_resample_keeps_the_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    sampler = random.Random(1).random
    changed = 0
    for state in _random_states(game, 2, 5)[:-1]:
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.current_player() == state.current_player()
            changed += str(other) != str(state)
    assert changed  # the hidden hands were drawn again


def test_doppelkopf_resample_in_play() -> None:
    game = pyspiel.load_game(DOPPELKOPF_GAME)
    sampler = random.Random(2).random
    states = _random_states(game, 1, 8)[:-1]
    for state in states[:: max(1, len(states) // 8)]:
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)


def test_information_state_hides_other_hands() -> None:
    game = pyspiel.load_game(SLOBBERHANNES_GAME)
    state = _random_states(game, 1, 1)[5]
    text = state.information_state_string(0)
    own = sorted(state.table.deal.initial_hands[0])
    assert text.startswith("p0 hand: " + " ".join(map(str, own)))
    assert str(state.table.deal.initial_hands[1][0]) not in text.split(";")[0]


def test_clone_and_pickle_round_trip() -> None:
    game = pyspiel.load_game(DOPPELKOPF_GAME)
    states = _random_states(game, 3, 4)
    state = [s for s in states if not s.is_terminal() and s.table.deal.phase == "play"][5]
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)
    box = pickle.loads(pickle.dumps(state._box))
    assert box.table.history == state.table.history


def test_ismcts_plays_a_seat_from_an_engine_observation() -> None:
    deal = SlobberhannesDeal.from_seed(9, dealer=2)
    for _ in range(5):
        deal.apply(deal.legal_actions()[0])
    seat = deal.to_move
    assert seat is not None
    observation = deal.observation(seat)
    game = pyspiel.load_game(SLOBBERHANNES_GAME, {"dealer": 2})
    state = state_from_observation(game, observation, random.Random(0))
    assert state.current_player() == seat
    truth = game.new_initial_state()
    for s in range(4):
        for card in sorted(deal.initial_hands[s]):
            truth.apply_action(SLOBBERHANNES_CARDS.index(card))
    for _, action in SlobberhannesTable(deal).history:
        truth.apply_action(action)
    assert state.information_state_string(seat) == truth.information_state_string(seat)
    random_state = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, random_state), 2.0, 20, random_state=random_state
    )
    action = bot.step(state)
    assert SLOBBERHANNES_CARDS[action] in observation.legal_actions


@pytest.mark.parametrize(
    "name", [SLOBBERHANNES_GAME, DOPPELKOPF_GAME, f"{DOPPELKOPF_GAME}(preset=ddv,players=5)"]
)
def test_generate_playthrough(name: str) -> None:
    text = generate_playthrough.playthrough(name, None, seed=7)
    game = pyspiel.load_game(name)
    assert "GameType.provides_information_state_tensor = True" in text
    assert f"InformationStateTensorSize() = {game.information_state_tensor_size()}" in text
    assert "PublicObservationString() = " in text and "PrivateObservationString(0) = " in text
    assert "IsTerminal() = True" in text
    if name != SLOBBERHANNES_GAME:
        return  # (replaying a Doppelkopf record costs seconds)
    # The record replays: the same actions give the same text.
    actions = [int(line[8:]) for line in text.splitlines() if line.startswith("action: ")]
    again = generate_playthrough.playthrough(name, actions)
    assert again == text


def _observers(game: object) -> dict[str, object]:
    kinds = {
        "public": (False, True, pyspiel.PrivateInfoType.NONE),
        "private": (False, False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
        "all": (False, True, pyspiel.PrivateInfoType.ALL_PLAYERS),
        "public_recall": (True, True, pyspiel.PrivateInfoType.NONE),
        "private_recall": (True, False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
        "info": (True, True, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    }
    return {
        name: make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=recall, public_info=public, private_info=private
            ),
        )
        for name, (recall, public, private) in kinds.items()
    }


@pytest.mark.parametrize(
    "name", [SLOBBERHANNES_GAME, DOPPELKOPF_GAME, f"{DOPPELKOPF_GAME}(players=5)"]
)
def test_public_and_private_observers(name: str) -> None:
    game = pyspiel.load_game(name)
    obs = _observers(game)
    n = game.num_players()
    assert "hand" not in obs["public"].dict and "trick" in obs["public"].dict
    assert set(obs["private"].dict) >= {"hand"} and "trick" not in obs["private"].dict
    assert obs["all"].dict["hand"].shape == (n, *obs["private"].dict["hand"].shape)
    assert "history" in obs["public_recall"].dict and "dealt" not in obs["public_recall"].dict
    assert "dealt" in obs["private_recall"].dict and "history" not in obs["private_recall"].dict
    for state in _random_states(game, 2, 11):
        views = {}
        for kind in ("public", "all", "public_recall"):
            seen = []
            for player in range(n):
                obs[kind].set_from(state, player)
                seen.append((obs[kind].tensor.copy(), obs[kind].string_from(state, player)))
            # The same for every player: nothing of a player's own in it.
            assert all(np.array_equal(t, seen[0][0]) and s == seen[0][1] for t, s in seen)
            views[kind] = seen[0][0]
        for player in range(n):
            obs["private"].set_from(state, player)
            hand = obs["private"].dict["hand"]
            obs["all"].set_from(state, player)
            assert np.array_equal(obs["all"].dict["hand"][player], hand)
            if state._box is not None and not state.is_terminal():
                own = game.layout.views(state.table.encode(player))
                assert np.array_equal(hand, own["hand"])


@pytest.mark.parametrize(
    "name", [SLOBBERHANNES_GAME, DOPPELKOPF_GAME, f"{DOPPELKOPF_GAME}(preset=ddv)"]
)
def test_information_state_tensor_matches_the_string(name: str) -> None:
    """The tensor has perfect recall: equal strings, equal tensors, and the converse."""
    game = pyspiel.load_game(name)
    assert game.get_type().provides_information_state_tensor
    size = game.information_state_tensor_size()
    high = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    for state in _random_states(game, 3, 12):
        for player in range(game.num_players()):
            tensor = np.asarray(state.information_state_tensor(player), dtype=np.float32)
            assert tensor.shape == (size,) and (tensor >= 0).all()
            high.set_from(state, player)
            assert np.array_equal(high.tensor, tensor)
            key = tensor.tobytes()
            text = state.information_state_string(player)
            assert by_string.setdefault(text, key) == key
            assert by_tensor.setdefault(key, text) == text
    assert len(by_string) > 100


def test_resampled_states_keep_the_information_state_tensor() -> None:
    game = pyspiel.load_game(SLOBBERHANNES_GAME)
    sampler = random.Random(3).random
    for state in _random_states(game, 1, 13)[:-1:3]:
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)


@pytest.mark.parametrize(
    ("name", "bound"),
    [
        (SLOBBERHANNES_GAME, (-4, 0)),
        (f"{SLOBBERHANNES_GAME}(preset=russian)", (-3, 0)),
        (f'{SLOBBERHANNES_GAME}(options={{"revokes":"penalty"}})', (-11, 0)),
        (DOPPELKOPF_GAME, (-194560, 194560)),
        (f"{DOPPELKOPF_GAME}(preset=ddv)", (-87, 87)),
        (f'{DOPPELKOPF_GAME}(options={{"announcement_value":"add"}})', (-2040, 2040)),
    ],
)
def test_utility_bounds_from_the_rules(name: str, bound: tuple[int, int]) -> None:
    game = pyspiel.load_game(name)
    assert (game.min_utility(), game.max_utility()) == bound


def _announcing_deal(game: object, seed: int) -> TrickGameState:
    """Every seat passes its declarations and says the highest word it may (schwarz)."""
    words = [
        doppelkopf_action_id(Call(w)) for w in ("schwarz", "no30", "no60", "no90", "re", "kontra")
    ]
    passing = doppelkopf_action_id(Call("pass"))
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    while not state.is_terminal():
        legal = state.legal_actions()
        said = next((a for a in [passing, *words] if a in legal), None)
        state.apply_action(said if said is not None else rng.choice(legal))
    return state


@pytest.mark.parametrize(
    "options", [{}, {"table_mode": True}, {"announcement_value": "add"}, {"preset": "ddv"}]
)
def test_doppelkopf_returns_stay_within_the_bounds(options: dict[str, object]) -> None:
    """Deals where everybody announces: returns far above random play's, within bounds."""
    game = pyspiel.load_game(DOPPELKOPF_GAME, {"options": json.dumps(options)})
    highest = 0.0
    for seed in range(60):
        returns = _announcing_deal(game, seed).returns()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        highest = max(highest, *map(abs, returns))
    if not options:
        assert highest > 4000  # the old "largest seen" is no bound: ten words double ×1024
    assert highest >= game.max_utility() / 6  # and the bound is not far off
