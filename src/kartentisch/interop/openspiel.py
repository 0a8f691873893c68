"""Slobberhannes and Doppelkopf as OpenSpiel Python games.

Importing this module registers two games with pyspiel::

    import pyspiel
    import kartentisch.interop.openspiel  # registers the games

    game = pyspiel.load_game("python_kartentisch_slobberhannes")
    game = pyspiel.load_game("python_kartentisch_doppelkopf(preset=ddv)")

**Parameters** (both games): ``players`` (Slobberhannes 3–7, Doppelkopf 4
or 5; default 4), ``preset`` (``standard``/``russian``, or ``house``/``ddv``),
``dealer`` (a seat; default ``-1``: the last seat, so that seat 0 leads or
is asked first) and ``options`` (a JSON object of further rule options, e.g.
``{"revokes": "penalty"}``; default empty).

**Chance**: the deal is dealt card by card at the start: chance node ``k``
gives one card to the ``k // hand_size``-th seat that plays (seats in table
order), each remaining card equally likely (in Doppelkopf a card with both
copies left is twice as likely). Chance outcome ids are the card ids of the
action space (:mod:`kartentisch.interop.encoding`).

**Players' actions** are the ids of :mod:`kartentisch.interop.encoding`; the
game is sequential with terminal rewards: at the end each seat gets its score
(minus the penalty chips in Slobberhannes, the sheet's points in
Doppelkopf). Both games are registered as general-sum (the DDV Doppelkopf
scores are zero-sum, the house scores and Slobberhannes are not).

**Observations**: the observation tensor is the layout of
:mod:`kartentisch.interop.encoding` (the named pieces are its blocks); the
observation string is the seat's engine observation as compact JSON. The
information state string (perfect recall) is the seat's dealt hand and
every action as the seat saw it (an Armut exchange the seat took no part in
shows only its number of trumps). There is no information state tensor.

:meth:`TrickGameState.resample_from_infostate` draws a state the seat
cannot tell apart from this one (OpenSpiel's ISMCTS uses it): exact for
Slobberhannes; for Doppelkopf a best effort (rejection sampling; it raises
:class:`RuntimeError` when no consistent deal is found, e.g. after an Armut
exchange the seat did not see).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

try:
    import pyspiel
except ModuleNotFoundError as exc:
    raise ImportError(
        "kartentisch.interop.openspiel needs OpenSpiel: pip install 'kartentisch[openspiel]'"
    ) from exc

from kartentisch.cards import Card
from kartentisch.games.doppelkopf import DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.slobberhannes import SlobberhannesDeal, SlobberhannesOptions
from kartentisch.interop.bounds import doppelkopf_bounds, slobberhannes_bounds
from kartentisch.interop.encoding import (
    DOPPELKOPF_ACTIONS,
    DOPPELKOPF_CARDS,
    SLOBBERHANNES_ACTIONS,
    SLOBBERHANNES_CARDS,
    Block,
    DoppelkopfTable,
    FloatArray,
    Layout,
    PrivateInfo,
    SlobberhannesTable,
    Table,
    Viewer,
    doppelkopf_action_name,
    doppelkopf_layout,
    encode_view,
    slobberhannes_action_name,
    slobberhannes_layout,
    view_layout,
)
from kartentisch.search.determinize import InfoSet

__all__ = [
    "DOPPELKOPF_GAME",
    "SLOBBERHANNES_GAME",
    "TrickGame",
    "TrickGameState",
    "TrickObserver",
    "state_from_observation",
]

SLOBBERHANNES_GAME: Final = "python_kartentisch_slobberhannes"
DOPPELKOPF_GAME: Final = "python_kartentisch_doppelkopf"

#: Decisions besides the cards: declarations, the Armut (up to three answers and
#: 2 × 5 picks: five when the Füchse do not count), and each playing seat's
#: announcements (each word at most once).
_DOPPELKOPF_EXTRA_MOVES: Final = 16 + 13 + 4 * 6


@dataclass(frozen=True, slots=True)
class _Spec:
    """What a state needs to know of its game (immutable, cheap to copy and pickle)."""

    game: str
    options: Mapping[str, Any]
    dealer: int
    seats: tuple[int, ...]  # the seats dealt to, in dealing order
    hand_size: int
    deck: tuple[int, ...]  # the card ids of the deck (an id twice for two copies)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self

    def new_table(self, hands: Sequence[Sequence[Card]]) -> Table:
        if self.game == "slobberhannes":
            return SlobberhannesTable(
                SlobberhannesDeal(hands, dealer=self.dealer, options=self.options)
            )
        return DoppelkopfTable(DoppelkopfDeal(hands, dealer=self.dealer, options=self.options))

    def card(self, action: int) -> Card:
        cards = SLOBBERHANNES_CARDS if self.game == "slobberhannes" else DOPPELKOPF_CARDS
        return cards[action]

    def card_id(self, card: Card) -> int:
        cards = SLOBBERHANNES_CARDS if self.game == "slobberhannes" else DOPPELKOPF_CARDS
        return cards.index(card)


class _TableBox:
    """Holds a state's table: copied with :meth:`Table.copy`, pickled as its actions."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def __deepcopy__(self, memo: dict[int, Any]) -> _TableBox:
        return _TableBox(self.table.copy())

    def __reduce__(self) -> tuple[Callable[..., _TableBox], tuple[Any, ...]]:
        return (_rebuild_box, (self.table.game, _hands_of(self.table), self.table.history))


def _hands_of(table: Table) -> tuple[Any, ...]:
    deal = table.deal
    return (
        deal.options.to_dict(),
        deal.dealer,
        [[str(c) for c in hand] for hand in deal.initial_hands],
    )


def _rebuild_box(game: str, hands: tuple[Any, ...], history: list[tuple[int, int]]) -> _TableBox:
    options, dealer, cards = hands
    spec_hands = [[Card(c) for c in hand] for hand in cards]
    table: Table
    if game == "slobberhannes":
        table = SlobberhannesTable(SlobberhannesDeal(spec_hands, dealer=dealer, options=options))
    else:
        table = DoppelkopfTable(DoppelkopfDeal(spec_hands, dealer=dealer, options=options))
    for _, action in history:
        table.apply_id(action)
    return _TableBox(table)


def _parameters(params: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Rule options from the game parameters: preset, players, then the JSON options."""
    merged = {**defaults, **params}
    extra = merged.get("options") or ""
    try:
        values = json.loads(extra) if extra else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"parameter options must be a JSON object: {exc}") from None
    if not isinstance(values, dict):
        raise ValueError("parameter options must be a JSON object of option values")
    return {"preset": merged["preset"], "players": merged["players"], **values}


class TrickGame(pyspiel.Game):  # type: ignore[misc]
    """One of the two trick games; made by ``pyspiel.load_game`` with its parameters."""

    def __init__(
        self,
        game_type: Any,
        params: Mapping[str, Any],
        spec: _Spec,
        layout: Layout,
        num_actions: int,
        utility: tuple[int, int],
        max_game_length: int,
    ) -> None:
        self.spec = spec
        self.layout = layout
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions,
            max_chance_outcomes=num_actions
            if spec.game == "slobberhannes"
            else len(DOPPELKOPF_CARDS),
            num_players=_table_size(spec),
            min_utility=float(utility[0]),
            max_utility=float(utility[1]),
            utility_sum=None,
            max_game_length=max_game_length,
        )
        super().__init__(game_type, info, dict(params))

    def new_initial_state(self) -> TrickGameState:
        return TrickGameState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TrickObserver:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return TrickObserver(self, iig_obs_type, params)

    def recall_blocks(self, *, public: bool, private: PrivateInfo) -> list[Block]:
        """The blocks a perfect-recall view adds to the observation's (docs/ecosystem.md)."""
        spec = self.spec
        n = _table_size(spec)
        cards = len(SLOBBERHANNES_CARDS) if spec.game == "slobberhannes" else len(DOPPELKOPF_CARDS)
        copies = 1 if spec.game == "slobberhannes" else 2
        moves = int(self.max_game_length())
        actions = int(self.num_distinct_actions())
        blocks: list[Block] = []
        if private == "single":
            blocks.append(Block("dealt", (cards,), copies, "own cards as dealt", private=True))
        elif private == "all":
            doc = "row s: the cards dealt to seat s"
            blocks.append(Block("dealt", (n, cards), copies, doc, seats=True, private=True))
        if public:
            deck = len(spec.deck)
            blocks.append(Block("dealt_count", (1,), deck, "cards dealt so far (0 … the deck)"))
            blocks.append(
                Block(
                    "history",
                    (moves, n + actions),
                    1,
                    "row k: the k-th action, the seat that took it (first n columns) "
                    "and its id unless hidden (an Armut pick)",
                )
            )
        if private != "none" and spec.game == "doppelkopf":
            blocks.append(
                Block(
                    "hidden",
                    (moves, cards),
                    1,
                    "row k: the card id of the k-th action if an Armut pick the seat knows",
                    private=True,
                )
            )
        return blocks


def _table_size(spec: _Spec) -> int:
    return int(spec.options["players"])


class TrickGameState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal being dealt (chance), then the table of the deal."""

    def __init__(self, game: TrickGame) -> None:
        super().__init__(game)
        self._spec = game.spec
        self._dealt: list[int] = []
        self._box: _TableBox | None = None

    # -- OpenSpiel's state API -------------------------------------------------------

    @property
    def table(self) -> Table:
        """The table of the deal (once dealt)."""
        if self._box is None:
            raise RuntimeError("the cards are still being dealt")
        return self._box.table

    def current_player(self) -> int:
        if self._box is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._box.table.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = Counter(self._spec.deck)
        left.subtract(self._dealt)
        total = sum(left.values())
        return [(card, count / total) for card, count in sorted(left.items()) if count]

    def _apply_action(self, action: int) -> None:
        if self._box is not None:
            self._box.table.apply_id(action)
            return
        self._dealt.append(action)
        if len(self._dealt) == len(self._spec.deck):
            self._box = _TableBox(self._spec.new_table(self._hands(self._dealt)))

    def _hands(self, dealt: Sequence[int]) -> list[list[Card]]:
        spec = self._spec
        hands: list[list[Card]] = [[] for _ in range(_table_size(spec))]
        for k, action in enumerate(dealt):
            hands[spec.seats[k // spec.hand_size]].append(spec.card(action))
        return hands

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._spec.card(action)}"
        if self._spec.game == "slobberhannes":
            return slobberhannes_action_name(action)
        return doppelkopf_action_name(action)

    def is_terminal(self) -> bool:
        return self._box is not None and self._box.table.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * _table_size(self._spec)
        return list(self.table.scores())

    def __str__(self) -> str:
        spec = self._spec
        if self._box is None:
            return f"dealer {spec.dealer}; dealt: " + " ".join(
                str(spec.card(a)) for a in self._dealt
            )
        table = self._box.table
        hands = " | ".join(" ".join(str(c) for c in hand) for hand in table.deal.initial_hands)
        return f"dealer {spec.dealer}; hands: {hands}; actions: {table.history_text(-1)}"

    # -- the seat's views ------------------------------------------------------------

    def own_dealt(self, player: int) -> list[Card]:
        """The cards dealt to ``player`` so far, sorted."""
        spec = self._spec
        cards = [
            spec.card(a)
            for k, a in enumerate(self._dealt)
            if spec.seats[k // spec.hand_size] == player
        ]
        return sorted(cards)

    def information_string(self, player: int) -> str:
        """The information state string of ``player`` (perfect recall)."""
        hand = " ".join(str(c) for c in self.own_dealt(player))
        if self._box is None:
            return f"p{player} dealt {len(self._dealt)}: {hand}"
        return f"p{player} hand: {hand}; {self._box.table.history_text(player)}"

    def public_text(self, recall: bool) -> str:
        """What every seat sees, as text (the public observer's string)."""
        spec = self._spec
        head = f"dealer {spec.dealer}; dealt {len(self._dealt)}"
        if self._box is None:
            return head
        table = self._box.table
        if recall:
            return f"{head}; {table.history_text(-1)}"
        data = table.observation(0).to_dict()
        for key in (*_PRIVATE_KEYS[spec.game], "options"):
            data.pop(key, None)
        return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)

    def private_text(self, player: int, recall: bool) -> str:
        """What only ``player`` knows, as text (the private observer's string)."""
        hand = " ".join(str(c) for c in self.own_dealt(player))
        if self._box is None:
            return f"p{player} dealt: {hand}"
        table = self._box.table
        if recall:
            seen = table.known_actions("public")
            known = table.known_actions(player)
            picks = [
                f"{k}:{table.action_name(a)}"
                for k, (s, a) in enumerate(zip(seen, known, strict=True))
                if s is None and a is not None
            ]
            return f"p{player} dealt: {hand}" + (f"; picks {' '.join(picks)}" if picks else "")
        observation = table.observation(player).to_dict()
        data = {k: v for k, v in observation.items() if k in _PRIVATE_KEYS[self._spec.game]}
        if isinstance(table, DoppelkopfTable):
            data["selection"] = [str(c) for c in table.own_selection(player)]
        return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)

    def observation_text(self, player: int) -> str:
        if self._box is None:
            return self.information_string(player)
        return self._box.table.describe(player)

    def encode(self, player: int) -> FloatArray:
        if self._box is not None:
            return self._box.table.encode(player)
        layout: Layout = self.get_game().layout
        out = layout.zeros()
        views = layout.views(out)
        ids = SLOBBERHANNES_CARDS if self._spec.game == "slobberhannes" else DOPPELKOPF_CARDS
        for card in self.own_dealt(player):
            views["hand"][ids.index(card)] += 1
        n = _table_size(self._spec)
        views["dealer"][(self._spec.dealer - player) % n] = 1
        return out

    # -- resampling ------------------------------------------------------------------

    def resample_from_infostate(
        self, player: int, probability_sampler: Callable[[], float] | None = None
    ) -> TrickGameState:
        """A state with the same information state for ``player``, hidden cards redrawn.

        ``probability_sampler`` (any callable returning a float in [0, 1), such
        as ``pyspiel.UniformProbabilitySampler``) seeds the draw.
        """
        seed = probability_sampler() if probability_sampler is not None else random.random()
        rng = random.Random(int(seed * 2**62))
        if self._box is None:
            return self._redeal_partial(player, rng)
        target = self.information_string(player)
        for _ in range(200):
            try:
                state = self._replayed(player, self._sample_hands(player, rng), rng)
            except ValueError:  # hands the engine refuses (a card three times …)
                continue
            if state is not None and state.information_string(player) == target:
                return state
        raise RuntimeError(f"no deal consistent with what seat {player} has seen was found")

    def _redeal_partial(self, player: int, rng: random.Random) -> TrickGameState:
        spec = self._spec
        unseen = Counter(spec.deck)
        mine = [a for k, a in enumerate(self._dealt) if spec.seats[k // spec.hand_size] == player]
        unseen.subtract(mine)
        pool = list(unseen.elements())
        rng.shuffle(pool)
        state = self.get_game().new_initial_state()
        for k, action in enumerate(self._dealt):
            state.apply_action(action if spec.seats[k // spec.hand_size] == player else pool.pop())
        return state  # type: ignore[no-any-return]

    def _sample_hands(self, player: int, rng: random.Random) -> list[list[Card]]:
        """Initial hands by seat: ``player``'s own, the others drawn from what it saw."""
        spec = self._spec
        obs = self.table.observation(player)
        n = _table_size(spec)
        played: list[list[Card]] = [[] for _ in range(n)]
        for trick in (*obs.tricks, obs.trick):
            for seat, card in zip(trick.seats, trick.cards, strict=True):
                played[seat].append(card)
        own = self.own_dealt(player)
        current = _sample_current(spec, obs, rng)
        if current is None:  # any unseen cards (before the play, or after an Armut)
            unseen = Counter(spec.card(a) for a in spec.deck)
            unseen.subtract(own)
            for seat in spec.seats:
                if seat != player:
                    unseen.subtract(played[seat])
            pool = list(unseen.elements())
            rng.shuffle(pool)
            current = {}
            for seat in spec.seats:
                if seat != player:
                    need = spec.hand_size - len(played[seat])
                    current[seat], pool = pool[:need], pool[need:]
        hands: list[list[Card]] = [[] for _ in range(n)]
        for seat in spec.seats:
            hands[seat] = own if seat == player else [*current[seat], *played[seat]]
        return hands

    def _replayed(
        self, player: int, hands: Sequence[Sequence[Card]], rng: random.Random
    ) -> TrickGameState | None:
        """The history replayed on ``hands``; exchanges hidden from ``player`` are redrawn."""
        spec = self._spec
        ids = SLOBBERHANNES_CARDS if spec.game == "slobberhannes" else DOPPELKOPF_CARDS
        state: TrickGameState = self.get_game().new_initial_state()
        for seat in spec.seats:
            for card in sorted(hands[seat]):
                state.apply_action(ids.index(card))
        table = self.table
        hidden = getattr(table, "hidden", {})
        for index, (seat, action) in enumerate(table.history):
            legal = state.table.legal_ids()
            if index in hidden and seat != player and action not in legal and legal:
                action = rng.choice(legal)
            if action not in legal:
                return None
            state.apply_action(action)
        return state


def _sample_current(spec: _Spec, obs: Any, rng: random.Random) -> dict[int, list[Card]] | None:
    """The other seats' current hands drawn from ``obs`` by the search's samplers.

    None where no sampler applies (Doppelkopf before the play or with an Armut).
    """
    if spec.game == "slobberhannes":
        sampled = InfoSet(obs).sample_hands(rng)
        return {seat: list(sampled[seat]) for seat in spec.seats}
    if obs.phase != "play" or obs.armut is not None:
        return None
    from kartentisch.search.doppelkopf_determinize import DoppelkopfInfoSet

    info = DoppelkopfInfoSet(obs)
    if info.order is None:
        return None
    return info.sample_hands(rng)


_PRIVATE_INFO: Final[Mapping[Any, PrivateInfo]] = {
    pyspiel.PrivateInfoType.NONE: "none",
    pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
    pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
}
#: The keys of an engine observation that hold the observing seat's own knowledge.
_PRIVATE_KEYS: Final[Mapping[str, frozenset[str]]] = {
    "slobberhannes": frozenset({"seat", "hand", "legal_actions"}),
    "doppelkopf": frozenset(
        {
            "seat",
            "hand",
            "legal_actions",
            "party",
            "game_type",
            "soloist",
            "trumps",
            "armut_cards",
            "armut_returned",
            "pigs",
        }
    ),
}


class TrickObserver:
    """OpenSpiel's Python observer for every :class:`pyspiel.IIGObservationType`.

    ``public_info``: the public blocks of the layout (and, with perfect recall,
    the count of cards dealt and every action as the table saw it);
    ``private_info``: ``SINGLE_PLAYER`` the seat's own private blocks (and its
    dealt hand), ``ALL_PLAYERS`` every seat's, ``NONE`` none. The seat's rows are
    relative to the observing seat with ``SINGLE_PLAYER``, absolute otherwise (the
    view is then the same for every player). ``perfect_recall`` adds the blocks of
    :meth:`TrickGame.recall_blocks`. See docs/ecosystem.md, *Observers*.
    """

    def __init__(
        self, game: TrickGame, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private: PrivateInfo = _PRIVATE_INFO[iig_obs_type.private_info]
        n = _table_size(game.spec)
        self.base = view_layout(game.layout, n, public=self.public, private=self.private)
        blocks = list(self.base.blocks)
        if self.perfect_recall:
            blocks += game.recall_blocks(public=self.public, private=self.private)
        self.layout = Layout(blocks)
        self.tensor: FloatArray | None = self.layout.zeros() if self.layout.size else None
        self.dict: dict[str, FloatArray] = (
            self.layout.views(self.tensor) if self.tensor is not None else {}
        )

    def set_from(self, state: TrickGameState, player: int) -> None:
        if self.tensor is None:
            return
        self.tensor.fill(0)
        views = self.dict
        spec = state._spec
        n = _table_size(spec)
        base = {b.name: views[b.name] for b in self.base.blocks}
        encode_view(state.get_game().layout, state.encode, n, player, base, private=self.private)
        if not self.perfect_recall:
            return
        single = self.private == "single"
        if "dealt" in views:
            for seat in range(n) if not single else (player,):
                row = views["dealt"] if single else views["dealt"][seat]
                for card in state.own_dealt(seat):
                    row[spec.card_id(card)] += 1
        if "dealt_count" in views:
            views["dealt_count"][0] = len(state._dealt)
        if state._box is None:
            return
        table = state._box.table
        if "history" in views:
            history = views["history"]
            public = table.known_actions("public")
            for k, ((seat, _), action) in enumerate(zip(table.history, public, strict=True)):
                history[k, (seat - player) % n if single else seat] = 1
                if action is not None:
                    history[k, n + action] = 1
        if "hidden" in views:
            hidden = views["hidden"]
            viewer: Viewer = player if single else "all"
            public = table.known_actions("public")
            known = table.known_actions(viewer)
            for k, (seen, action) in enumerate(zip(public, known, strict=True)):
                if seen is None and action is not None:
                    hidden[k, action] = 1

    def string_from(self, state: TrickGameState, player: int) -> str:
        if self.public and self.private == "single":
            if self.perfect_recall:
                return state.information_string(player)
            return state.observation_text(player)
        parts: list[str] = []
        if self.public:
            parts.append(state.public_text(self.perfect_recall))
        if self.private == "single":
            parts.append(state.private_text(player, self.perfect_recall))
        elif self.private == "all":
            n = _table_size(state._spec)
            parts.extend(state.private_text(seat, self.perfect_recall) for seat in range(n))
        return " | ".join(parts)


# -- the two games ---------------------------------------------------------------------

_SLOBBERHANNES_PARAMS: Final[dict[str, Any]] = {
    "players": 4,
    "preset": "standard",
    "dealer": -1,
    "options": "",
}
_DOPPELKOPF_PARAMS: Final[dict[str, Any]] = {
    "players": 4,
    "preset": "house",
    "dealer": -1,
    "options": "",
}


def _game_type(short_name: str, long_name: str, players: tuple[int, int], params: Any) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


SLOBBERHANNES_TYPE: Final = _game_type(
    SLOBBERHANNES_GAME, "Kartentisch Slobberhannes", (3, 7), _SLOBBERHANNES_PARAMS
)
DOPPELKOPF_TYPE: Final = _game_type(
    DOPPELKOPF_GAME, "Kartentisch Doppelkopf", (4, 5), _DOPPELKOPF_PARAMS
)


def _dealer(params: Mapping[str, Any], defaults: Mapping[str, Any], players: int) -> int:
    dealer = int({**defaults, **params}["dealer"])
    if dealer == -1:
        return players - 1
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat from 0 to {players - 1} (or -1), not {dealer}")
    return dealer


class SlobberhannesGame(TrickGame):
    """``python_kartentisch_slobberhannes``: one deal, minus the chips as returns."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = SlobberhannesOptions.from_dict(_parameters(params, _SLOBBERHANNES_PARAMS))
        n = options.players
        spec = _Spec(
            "slobberhannes",
            options.to_dict(),
            _dealer(params, _SLOBBERHANNES_PARAMS, n),
            tuple(range(n)),
            options.hand_size,
            tuple(sorted(SLOBBERHANNES_CARDS.index(c) for c in options.deck())),
        )
        super().__init__(
            SLOBBERHANNES_TYPE,
            params,
            spec,
            slobberhannes_layout(n, options.hand_size),
            SLOBBERHANNES_ACTIONS,
            slobberhannes_bounds(options),
            len(options.deck()),
        )


class DoppelkopfGame(TrickGame):
    """``python_kartentisch_doppelkopf``: one deal, the sheet's points as returns."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = DoppelkopfOptions.from_dict(_parameters(params, _DOPPELKOPF_PARAMS))
        n = options.players
        dealer = _dealer(params, _DOPPELKOPF_PARAMS, n)
        playing = tuple(s for s in range(n) if n == 4 or s != dealer)
        spec = _Spec(
            "doppelkopf",
            options.to_dict(),
            dealer,
            playing,
            options.hand_size,
            tuple(sorted(DOPPELKOPF_CARDS.index(c) for c in options.deck())),
        )
        super().__init__(
            DOPPELKOPF_TYPE,
            params,
            spec,
            doppelkopf_layout(n, options.hand_size),
            DOPPELKOPF_ACTIONS,
            doppelkopf_bounds(options),
            _DOPPELKOPF_EXTRA_MOVES + 4 * options.hand_size,
        )


pyspiel.register_game(SLOBBERHANNES_TYPE, SlobberhannesGame)
pyspiel.register_game(DOPPELKOPF_TYPE, DoppelkopfGame)


# -- from the engine ---------------------------------------------------------------------


def state_from_observation(game: TrickGame, observation: Any, rng: random.Random) -> TrickGameState:
    """A Slobberhannes state the observing seat cannot tell from the real one.

    The other hands are drawn as :class:`~kartentisch.search.determinize.InfoSet`
    does (sizes and shown voids respected); the cards played are replayed in
    order. ``game`` must have the observation's dealer and options. This lets
    an OpenSpiel bot (such as ISMCTS) play a seat of an engine deal from the
    seat's observation only.
    """
    spec = game.spec
    if spec.game != "slobberhannes":
        raise ValueError("state_from_observation supports Slobberhannes")
    if observation.dealer != spec.dealer:
        raise ValueError(
            f"the game deals from seat {spec.dealer}, the deal from {observation.dealer}"
        )
    current = InfoSet(observation).sample_hands(rng)
    plays = [
        (seat, card)
        for trick in (*observation.tricks, observation.trick)
        for seat, card in zip(trick.seats, trick.cards, strict=True)
    ]
    state = game.new_initial_state()
    for seat in spec.seats:
        own = [c for s, c in plays if s == seat]
        for card in sorted([*current[seat], *own]):
            state.apply_action(SLOBBERHANNES_CARDS.index(card))
    for _, card in plays:
        state.apply_action(SLOBBERHANNES_CARDS.index(card))
    return state
