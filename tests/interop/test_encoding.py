"""The shared encoding of kartentisch.interop: action ids, observation arrays, tables."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="the interop encoding needs numpy (extra 'rl')")

from kartentisch.cards import Card  # noqa: E402
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal  # noqa: E402
from kartentisch.games.slobberhannes import SlobberhannesDeal  # noqa: E402
from kartentisch.interop.encoding import (  # noqa: E402
    DOPPELKOPF_ACTIONS,
    DOPPELKOPF_CARDS,
    DOPPELKOPF_WORDS,
    SLOBBERHANNES_ACTIONS,
    SLOBBERHANNES_CARDS,
    DoppelkopfTable,
    SlobberhannesTable,
    Table,
    doppelkopf_action_id,
    doppelkopf_action_name,
    doppelkopf_layout,
    slobberhannes_layout,
)

DOPPELKOPF_OPTIONS = [
    {},
    {"preset": "ddv"},
    {"players": 5},
    {"table_mode": True},
    {"preset": "ddv", "players": 5},
]


def play_randomly(table: Table, rng: random.Random) -> list[int]:
    """Play ``table`` to the end with random legal ids; check the ids on the way."""
    taken = []
    while not table.is_over:
        legal = table.legal_ids()
        assert legal, "a seat to move always has a legal action"
        assert legal == sorted(set(legal))
        assert all(0 <= a < table.num_actions for a in legal)
        mask = table.mask()
        assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(legal)
        action = rng.choice(legal)
        table.apply_id(action)
        taken.append(action)
    assert table.legal_ids() == []
    return taken


def test_documented_action_ids() -> None:
    assert SLOBBERHANNES_ACTIONS == 32 and DOPPELKOPF_ACTIONS == 73
    assert SLOBBERHANNES_CARDS[0] == Card("AC") and SLOBBERHANNES_CARDS[2] == Card("QC")
    assert SLOBBERHANNES_CARDS[31] == Card("7D")
    assert len(DOPPELKOPF_CARDS) == 24 and DOPPELKOPF_CARDS[:6] == tuple(
        Card(c) for c in ("AC", "KC", "QC", "JC", "10C", "9C")
    )
    assert len(DOPPELKOPF_WORDS) == 49 and len(set(DOPPELKOPF_WORDS)) == 49
    assert doppelkopf_action_id(Card("QC")) == 2
    assert doppelkopf_action_id(Call("pass")) == 24
    assert doppelkopf_action_id(Call("re")) == 57
    assert doppelkopf_action_id(Call("schwarz")) == 62
    assert doppelkopf_action_id(Call("take_back")) is None
    # The solo kinds added later follow the words; the ids before them stayed.
    assert doppelkopf_action_id(Call("solo", "fleischlos", True)) == 56
    assert doppelkopf_action_id(Call("solo", "kings")) == 63
    assert doppelkopf_action_id(Call("solo", "koehler", True)) == 72
    assert doppelkopf_action_name(doppelkopf_action_id(Call("solo", "queens", True)) or 0) == (
        "solo queens ouvert"
    )


def test_layouts() -> None:
    layout = slobberhannes_layout(4, 8)
    assert layout.size == 313 == layout.high().size
    assert [b.name for b in layout.blocks][:3] == ["hand", "trick", "played"]
    assert layout.offsets["trick"] == 32 and layout.block("trick").shape == (4, 32)
    assert doppelkopf_layout(4, 10).size == 630
    assert doppelkopf_layout(5, 12).size > doppelkopf_layout(4, 12).size
    assert "| `hand` |" in layout.describe()


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_slobberhannes_table_plays_out(players: int) -> None:
    rng = random.Random(players)
    for seed in range(5):
        table = SlobberhannesTable.from_seed(
            seed, dealer=seed % players, options={"players": players}
        )
        layout = table.layout
        high = layout.high()
        while not table.is_over:
            for seat in range(players):
                vector = table.encode(seat)
                assert vector.dtype == np.float32 and vector.shape == (layout.size,)
                assert (vector >= 0).all() and (vector <= high).all()
            table.apply_id(rng.choice(table.legal_ids()))
        assert table.scores() == tuple(-p for p in table.deal.points())
        assert len(table.history) == len(table.deal.options.deck())


def test_slobberhannes_encoding_is_relative_and_private() -> None:
    deal = SlobberhannesDeal.from_seed(3, dealer=3)
    table = SlobberhannesTable(deal)
    views = table.layout.views(table.encode(1))
    hand = {SLOBBERHANNES_CARDS[i] for i in np.flatnonzero(views["hand"])}
    assert hand == set(deal.hand(1))
    assert views["dealer"].tolist() == [0, 0, 1, 0]  # seat 3 is two to the left of seat 1
    assert views["to_move"].tolist() == [0, 0, 0, 1]  # seat 0 leads: three to the left
    # Another deal with the same hand for seat 1 (the others swapped) looks the same to it.
    hands = [list(deal.hand(s)) for s in range(4)]
    hands[0], hands[2] = hands[2], hands[0]
    other = SlobberhannesTable(SlobberhannesDeal(hands, dealer=3))
    assert (other.encode(1) == table.encode(1)).all()
    assert not (other.encode(0) == table.encode(0)).all()


def test_illegal_id_is_refused() -> None:
    table = SlobberhannesTable.from_seed(1, dealer=0)
    illegal = next(a for a in range(32) if a not in table.legal_ids())
    with pytest.raises(ValueError, match="not legal"):
        table.apply_id(illegal)
    assert table.history == []


@pytest.mark.parametrize("options", DOPPELKOPF_OPTIONS, ids=str)
def test_doppelkopf_table_plays_out(options: dict[str, object]) -> None:
    rng = random.Random(7)
    for seed in range(6):
        table = DoppelkopfTable.from_seed(seed, dealer=seed % 4, options=options)
        layout = table.layout
        high = layout.high()
        while not table.is_over:
            seat = table.to_move
            assert seat is not None
            vector = table.encode(seat)
            assert vector.shape == (layout.size,)
            assert (vector >= 0).all() and (vector <= high).all()
            table.apply_id(rng.choice(table.legal_ids()))
        assert table.scores() == tuple(float(p) for p in table.deal.points())
        copy = table.copy()
        assert copy.history == table.history and copy.scores() == table.scores()


def _armut_table() -> DoppelkopfTable:
    """A house-rules deal steered into an Armut, stopped when the poor seat must give."""
    armut, accept, passing = (doppelkopf_action_id(Call(w)) for w in ("armut", "accept", "pass"))
    for seed in range(400):
        table = DoppelkopfTable.from_seed(seed, dealer=3)
        while table.deal.phase in ("declare", "armut_answer"):
            legal = table.legal_ids()
            choice = next((a for a in (armut, accept, passing) if a in legal), legal[0])
            table.apply_id(choice)
        if table.deal.phase == "armut_give":
            return table
    raise AssertionError("no Armut in 400 deals")


def test_doppelkopf_armut_exchange_is_picked_card_by_card() -> None:
    table = _armut_table()
    deal = table.deal
    poor, partner = deal.armut_by, deal.armut_partner
    assert poor is not None and partner is not None and table.to_move == poor
    hand_ids = {doppelkopf_action_id(c) for c in deal.hand(poor)}
    picks = []
    for _ in range(3):
        legal = table.legal_ids()
        assert legal and set(legal) <= hand_ids
        assert all(a >= max(picks, default=0) for a in legal)
        assert table.to_move == poor and deal.phase == "armut_give"
        picks.append(legal[0])
        table.apply_id(legal[0])
        views = table.layout.views(table.encode(poor))
        assert views["selection"].sum() == len(picks) % 3
    assert deal.phase == "armut_return" and table.to_move == partner
    given = sorted(doppelkopf_action_id(c) for c in deal.armut_given)
    assert given == picks
    seen_by_poor = table.history_text(poor)
    seen_by_partner = table.history_text(partner)
    other = next(s for s in deal.playing if s not in (poor, partner))
    seen_by_other = table.history_text(other)
    assert f"{poor}:+{doppelkopf_action_name(picks[0])}" in seen_by_poor
    assert f"{poor}:+?" in seen_by_partner and f"{poor}:give " in seen_by_partner
    assert "trumps)" in seen_by_other
    hidden = [t for t in seen_by_other.split() if t.startswith(f"{poor}:+")]
    assert hidden == [f"{poor}:+?"] * 3
    for _ in range(3):
        table.apply_id(table.legal_ids()[0])
    assert deal.phase == "play"
    play_randomly(table, random.Random(1))


def test_doppelkopf_take_back_and_out_of_turn_words_are_not_offered() -> None:
    table = DoppelkopfTable.from_seed(2, dealer=0, options={"table_mode": True})
    rng = random.Random(2)
    while not table.is_over:
        seat = table.to_move
        engine = table.deal.legal_actions(seat)
        ids = table.legal_ids()
        names = {doppelkopf_action_name(a) for a in ids}
        assert "take_back" not in names
        if table.deal.phase == "play":
            assert names == {str(a) for a in engine if str(a) != "take_back"}
        table.apply_id(rng.choice(ids))


def test_import_kartentisch_imports_no_optional_library() -> None:
    code = (
        "import sys, kartentisch, kartentisch.interop, kartentisch.tournament, "
        "kartentisch.games.doppelkopf, kartentisch.games.slobberhannes\n"
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel') "
        "if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_engine_deal_under_way_is_taken_over() -> None:
    deal = SlobberhannesDeal.from_seed(5, dealer=1)
    for _ in range(6):
        deal.apply(deal.legal_actions()[0])
    table = SlobberhannesTable(deal)
    assert [a for _, a in table.history] == [SLOBBERHANNES_CARDS.index(c) for c in deal.actions]
    assert table.history[0][0] == 2  # the dealer's left leads
    with pytest.raises(ValueError):
        DoppelkopfTable(_played(DoppelkopfDeal.from_seed(1, dealer=0)))


def _played(deal: DoppelkopfDeal) -> DoppelkopfDeal:
    deal.apply(deal.legal_actions()[0])
    return deal
