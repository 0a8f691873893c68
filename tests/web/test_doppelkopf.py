"""Doppelkopf at a web table: the adapter, and whole games over the WebSocket.

The leak checks compare every view with the truth: the game replayed from
the stored actions up to the view's version. A view may show the seat's own
hand (exactly), the cards played, the open hand of an ouvert soloist and, to
the two players of an Armut, the cards they passed; no other card of any
hand may appear anywhere in it.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.bots import LEVELS
from kartentisch.cli.main import main as cli_main
from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.games.doppelkopf.actions import ANNOUNCEMENTS, HOCHZEIT_RULES
from kartentisch.games.doppelkopf.scoring_base import GAME_TYPES
from kartentisch.web.adapter import TableGame, table_game_type
from kartentisch.web.games.doppelkopf import DoppelkopfTable
from kartentisch.web.i18n import catalog

from .helpers import AppFactory, next_error, next_state, until_my_turn

KIND = table_game_type("doppelkopf")
NAMES = ["Ann", "Ben", "Cyd", "Dora", "Eve"]
CARD = re.compile(r"^(10|[9JQKA])[CSHD]$")
#: A card code inside any text (a call such as "give QH 10D AD" holds three).
CARD_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[9JQKA])[CSHD](?![0-9A-Za-z])")
THREE_BOTS = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot", "level": "random"}]

Policy = Callable[[DoppelkopfTable, int, random.Random], str]


def new_game(seed: int = 11, players: int = 4, **options: Any) -> DoppelkopfTable:
    normalized = KIND.normalize_options(options, seats=players)
    game = KIND.create(normalized, NAMES[:players], seed)
    assert isinstance(game, DoppelkopfTable)
    return game


def randomly(game: DoppelkopfTable, seat: int, rng: random.Random) -> str:
    return rng.choice(game.legal(seat))


def offered(game: DoppelkopfTable, seat: int) -> list[str]:
    """The answers the seat's declaration question offers besides Gesund (none: not asked)."""
    question = game.view(seat)["question"]
    if question is None:
        return []
    return [f"vorbehalt {r}" for r in question["scharfe"] + question["reservations"]]


def healthy(game: DoppelkopfTable, seat: int, rng: random.Random) -> str:
    """Says Gesund once a deal (the table answers the other rounds) and plays the first
    legal card: normal games, silent soli, Hochzeiten."""
    forced = game.forced_action(seat)
    if forced is not None:
        return forced
    if game.view(seat)["question"] is not None:
        return "gesund"
    legal = game.legal(seat)
    cards = [a for a in legal if CARD.match(a)]
    return cards[0] if cards else legal[0]


def poor(game: DoppelkopfTable, seat: int, rng: random.Random) -> str:
    """Answers "Vorbehalt: Armut" where the hand may, and takes every Armut: the exchange."""
    if "vorbehalt armut" in offered(game, seat):
        return "vorbehalt armut"
    if "accept" in game.legal(seat):
        return "accept"
    return healthy(game, seat, rng)


def ouvert(game: DoppelkopfTable, seat: int, rng: random.Random) -> str:
    """The first seat asked answers "Vorbehalt: Trumpfsolo ouvert"."""
    if "vorbehalt solo trump ouvert" in offered(game, seat):
        return "vorbehalt solo trump ouvert"
    return healthy(game, seat, rng)


def step(game: DoppelkopfTable, policy: Policy, rng: random.Random) -> None:
    seat = game.acting[0]
    game.act(seat, policy(game, seat, rng))


# -- what a view may show ----------------------------------------------------------


def cards_in(value: Any) -> list[str]:
    return CARD_IN_TEXT.findall(json.dumps(value))


def assert_no_leak(view: dict[str, Any], truth: DoppelkopfTable, seat: int | None) -> None:
    """``view`` (of ``seat``, None: a spectator) shows no card the rules keep hidden from it."""
    deal = truth.match.deal
    players = truth.match.options.players
    hands = [[str(c) for c in deal.observation(s).hand] for s in range(players)]
    public = deal.observation(0)
    assert view["version"] == truth.version
    if seat is None:
        assert view["hand"] is None and view["legal"] == [] and view["party"] is None
    else:
        assert view["hand"] == hands[seat]
        for action in view["legal"]:
            assert set(cards_in(action)) <= set(hands[seat]), action
    # Played cards are public; they must be exactly what was played.
    assert view["trick"] == public.trick.to_dict()
    assert view["tricks"] == [t.to_dict() for t in public.tricks]
    # The ouvert soloist's hand is public once play starts, and is his hand.
    if view["open_hand"]:
        assert view["ouvert"] and view["phase"] in ("play", "done")
        assert view["open_hand"] == hands[view["soloist"]]
    else:
        assert not (public.ouvert and public.open_hand)
    # The Armut cards: only the two who exchanged them see them.
    armut = view["armut"]
    if armut is not None and (armut["cards"] or armut["returned"]):
        assert seat in (armut["seat"], armut["partner"])
        assert [str(c) for c in deal.observation(seat).armut_cards] == armut["cards"]
    if armut is not None and seat not in (armut["seat"], armut["partner"]):
        assert armut["cards"] == [] and armut["returned"] == []
    # Everything else holds no card at all (finished games: their tricks only).
    rest = {
        k: v
        for k, v in view.items()
        if k not in ("hand", "legal", "trick", "tricks", "open_hand", "armut", "trumps", "deals")
    }
    assert cards_in(rest) == [], cards_in(rest)
    if armut is not None:
        assert cards_in({k: v for k, v in armut.items() if k not in ("cards", "returned")}) == []
    for finished in view["deals"]:
        assert cards_in({k: v for k, v in finished.items() if k != "tricks"}) == []


# -- the adapter --------------------------------------------------------------------


def test_is_a_table_game_and_declarations_come_first() -> None:
    game = new_game()
    assert isinstance(game, TableGame)
    assert game.version == 0 and not game.is_over
    (seat,) = game.acting
    assert "pass" in game.legal(seat)
    assert all(game.legal(s) == [] for s in range(4) if s != seat)
    view = game.view(seat)
    assert view["phase"] == "declare" and view["declaration_round"] == "scharfe"
    assert view["game_type"] == "undecided" and view["games"] == 8
    other = (seat + 1) % 4
    with pytest.raises(IllegalActionError) as refused:
        game.act(other, "pass")
    assert refused.value.rule == "not_your_turn"
    with pytest.raises(IllegalActionError) as refused:
        game.act(seat, "QQ")
    assert refused.value.rule == "bad_notation"
    with pytest.raises(IllegalActionError) as refused:
        game.act(seat, view["hand"][0])
    assert refused.value.rule == "declarations_first"
    assert game.view(seat) == view
    game.act(seat, "Gesund")  # German words are read, the canonical word is stored
    assert game.actions == [(seat, "pass")] and game.version == 1


def test_the_hand_is_sorted_trumps_first() -> None:
    game = new_game(seed=5)
    view = game.view(0)
    trumps = set(view["trumps"])
    flags = [card in trumps for card in view["hand"]]
    assert flags == sorted(flags, reverse=True)  # every trump before every other card
    assert len(view["trumps"]) == 12  # the normal order before a game is chosen


def test_announcements_come_from_any_seat_and_do_not_pass_the_turn() -> None:
    game = new_game(seed=3)
    rng = random.Random(0)
    while game.view(None)["phase"] != "play":
        step(game, healthy, rng)
    mover = game.acting[0]
    waiting = [s for s in range(4) if s != mover]
    # Before anyone plays a card, every seat whose party is known may announce.
    speaker = next(s for s in waiting if {"re", "kontra"} & set(game.legal(s)))
    word = next(w for w in ("re", "kontra") if w in game.legal(speaker))
    assert not any(CARD.match(a) for a in game.legal(speaker))
    version = game.version
    game.act(speaker, word)
    assert game.version == version + 1 and game.acting == (mover,)
    assert game.view(None)["announcements"][-1] == {
        "seat": speaker,
        "party": "re" if word == "re" else "kontra",
        "word": word,
    }
    assert game.actions[-1] == (speaker, word)
    with pytest.raises(IllegalActionError) as refused:
        game.act(speaker, word)
    assert refused.value.rule == "already_announced"
    other = "kontra" if word == "re" else "re"
    with pytest.raises(IllegalActionError) as refused:
        game.act(speaker, other)
    assert refused.value.rule == "wrong_party"


def test_five_players_the_dealer_sits_out() -> None:
    game = new_game(seed=2, players=5)
    view = game.view(None)
    dealer = view["dealer"]
    assert len(view["playing"]) == 4 and dealer not in view["playing"]
    assert view["hand_sizes"][dealer] == 0
    out = game.view(dealer)
    assert out["hand"] == [] and out["legal"] == []
    with pytest.raises(IllegalActionError):
        game.act(dealer, "pass")
    rng = random.Random(2)
    while game.view(None)["phase"] != "play":
        step(game, healthy, rng)
    with pytest.raises(IllegalActionError) as refused:
        game.act(dealer, "re")
    assert refused.value.rule == "sits_out"


def test_replay_rebuilds_the_same_session() -> None:
    game = new_game(seed=99)
    rng = random.Random(4)
    for _ in range(140):  # several games, soli and Böcke among them
        step(game, randomly, rng)
    assert len(game.view(None)["deals"]) >= 2
    options = KIND.normalize_options({}, seats=4)
    again = KIND.replay(options, NAMES[:4], 99, game.actions)
    assert again.version == game.version == 140
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == game.view(seat)


def test_a_whole_session_to_the_end() -> None:
    game = new_game(seed=8, games=3)
    rng = random.Random(8)
    while not game.is_over:
        step(game, randomly, rng)
    assert game.acting == () and game.legal(0) == []
    view = game.view(1)
    rows = [r for r in view["sheet"]["rows"] if r["kind"] == "game"]
    assert len(rows) == 3 and view["over"] and view["game_number"] == 3
    assert view["result"]["totals"] == view["sheet"]["totals"]
    assert max(view["sheet"]["totals"]) == view["sheet"]["totals"][view["result"]["winners"][0]]
    played = [d for d in view["deals"] if d["outcome"] == "played"]
    assert [r["deal"] for r in rows] == [d["number"] for d in played]
    for deal, row in zip(played, rows, strict=True):
        assert deal["points"] == row["points"]
        assert deal["augen"]["re"] + deal["augen"]["kontra"] == 240
        assert sorted(deal["re"] + deal["kontra"]) == sorted(deal["playing"])
        assert deal["winner"] in ("re", "kontra") and len(deal["tricks"]) == 10
    with pytest.raises(IllegalActionError) as refused:
        game.act(0, "pass")
    assert refused.value.rule == "match_over"
    assert len(game.record(complete=False)["deals"]) == len(game.match.history)


def test_the_record_hides_the_deal_in_progress() -> None:
    game = new_game(seed=5)
    rng = random.Random(5)
    while not game.view(None)["deals"]:
        step(game, healthy, rng)
    partial = game.record(complete=False)
    full = game.record(complete=True)
    assert len(partial["deals"]) == len(full["deals"]) - 1
    assert "seed" not in partial and partial["seats"] == NAMES[:4] and partial["games"] == 8


def test_options_follow_the_seats_and_the_presets() -> None:
    assert KIND.normalize_options(None, seats=4) == {"preset": "house", "players": 4, "games": 8}
    assert KIND.normalize_options({"preset": "ddv"}, seats=5)["games"] == 10
    assert KIND.normalize_options({"games": 1, "nines": True}, seats=4)["nines"] is True
    for bad in (
        {"players": 4},
        {"games": 0},
        {"games": True},
        {"games": "4"},
        {"preset": "skat"},
        {"armut": "yes"},
        {"preset": "ddv", "armut": True},
        {"colour": "blue"},
    ):
        with pytest.raises(OptionError):
            KIND.normalize_options(bad, seats=5)
    description = KIND.describe()
    assert (description["min_seats"], description["max_seats"]) == (4, 5)
    assert set(description["presets"]) == {"house", "ddv", "freedoko"}
    assert description["bot_levels"] == list(LEVELS["doppelkopf"])
    assert description["bot_levels"][:2] == ["random", "heuristic"]
    json.dumps(description)


def test_duplicate_names_still_make_a_score_sheet() -> None:
    options = KIND.normalize_options({}, seats=4)
    game = KIND.create(options, ["Ann", "Ann", "Bot", "Bot"], 1)
    assert game.view(0)["names"] == ["Ann", "Ann", "Bot", "Bot"]
    assert game.match.seat_names == ("Ann", "Ann 2", "Bot", "Bot 2")


def poor_seeds(count: int) -> list[int]:
    """Seeds whose first deal has a hand with at most three trumps (an Armut)."""
    out = []
    for seed in range(500):
        view = new_game(seed=seed).view(0)
        trumps = set(view["trumps"])
        hands = [new_game(seed=seed).view(s)["hand"] for s in range(4)]
        if any(sum(c in trumps for c in hand) <= 3 for hand in hands):
            out.append(seed)
            if len(out) == count:
                return out
    raise AssertionError("no seed deals an Armut")


@pytest.mark.parametrize(
    ("policy", "seeds"),
    [(randomly, range(3)), (healthy, range(2)), (poor, poor_seeds(2)), (ouvert, range(2))],
)
def test_no_view_shows_a_hidden_card(policy: Policy, seeds: range | list[int]) -> None:
    shown = {"armut": False, "open_hand": False}
    for seed in seeds:
        game = new_game(seed=seed, games=2)
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            for seat in (None, 0, 1, 2, 3):
                view = game.view(seat)
                assert_no_leak(view, game, seat)
                shown["armut"] |= bool(view["armut"] and view["armut"]["cards"])
                shown["open_hand"] |= bool(view["open_hand"])
            step(game, policy, rng)
    # The policies reach what they are for: the exchange is seen, the open hand shown.
    assert shown["armut"] or policy is not poor
    assert shown["open_hand"] or policy is not ouvert


def test_the_leak_check_finds_a_leak() -> None:
    game = new_game(seed=4)
    other = game.view(1)["hand"]
    view = game.view(0)
    with pytest.raises(AssertionError):
        assert_no_leak({**view, "hand": other}, game, 0)
    with pytest.raises(AssertionError):
        assert_no_leak({**view, "declarations": [{"seat": 1, "call": other[0]}]}, game, 0)
    with pytest.raises(AssertionError):
        assert_no_leak({**game.view(None), "open_hand": other}, game, None)


def test_the_armut_cards_are_seen_by_the_two_only() -> None:
    for seed in range(300):
        game = new_game(seed=seed)
        rng = random.Random(seed)
        while game.view(None)["phase"] in ("declare", "armut_answer", "armut_give"):
            step(game, poor, rng)
        armut = game.view(None)["armut"]
        if armut is None or game.view(None)["phase"] != "armut_return":
            continue
        pair = (armut["seat"], armut["partner"])
        given = game.view(armut["partner"])["armut"]["cards"]
        assert len(given) == 3 and game.view(armut["seat"])["armut"]["cards"] == given
        assert set(given) <= set(game.view(armut["partner"])["hand"])
        for seat in (None, *(s for s in range(4) if s not in pair)):
            assert game.view(seat)["armut"]["cards"] == []
            assert game.view(seat)["armut"]["trumps"] == armut["trumps"]
        return
    pytest.fail("no seed gave an Armut")


def test_an_armut_of_more_than_three_cards_when_the_fuechse_do_not_count() -> None:
    """``armut_count_foxes`` off: the view says how many cards go each way, the poor
    player gives all his trumps and gets as many back, seen by the two only."""
    for seed in range(200):
        game = new_game(seed=seed, armut_count_foxes=False)
        rng = random.Random(seed)
        while game.view(None)["phase"] in ("declare", "armut_answer"):
            step(game, poor, rng)
        armut = game.view(None)["armut"]
        if armut is None or game.view(None)["phase"] != "armut_give" or armut["trumps"] <= 3:
            continue
        size = armut["trumps"]
        assert armut["size"] == size and all(
            game.view(s)["armut"]["size"] == size for s in range(4)
        )
        poor_seat, partner = armut["seat"], armut["partner"]
        hand = game.view(poor_seat)["hand"]
        trumps = [c for c in hand if c in game.view(poor_seat)["trumps"]]
        assert len(trumps) == size and hand.count("AD") >= 1
        gives = [a for a in game.legal(poor_seat) if a.startswith("give ")]
        assert gives and all(len(a.split()) == 1 + size for a in gives)
        game.act(poor_seat, gives[0])
        assert len(game.view(partner)["hand"]) == len(hand) + size
        back = [a for a in game.legal(partner) if a.startswith("return ")]
        assert back and all(len(a.split()) == 1 + size for a in back)
        game.act(partner, back[0])
        assert game.view(None)["phase"] == "play"
        assert len(game.view(poor_seat)["hand"]) == len(hand)
        assert len(game.view(poor_seat)["armut"]["returned"]) == size
        assert all(
            game.view(s)["armut"]["cards"] == [] for s in range(4) if s not in armut.values()
        )
        return
    pytest.fail("no seed gave an Armut of more than three trumps")


def test_the_ouvert_hand_is_public() -> None:
    game = new_game(seed=1)
    rng = random.Random(1)
    while game.view(None)["phase"] != "play":
        step(game, ouvert, rng)
    public = game.view(None)
    soloist = public["soloist"]
    assert public["ouvert"] and public["game_type"] == "trump"
    assert public["open_hand"] == game.view(soloist)["hand"]
    assert all(game.view(s)["open_hand"] == public["open_hand"] for s in range(4))


def test_a_silent_solo_stays_silent() -> None:
    for seed in range(400):
        game = new_game(seed=seed)
        hands = [game.view(s)["hand"] for s in range(4)]
        holder = next((s for s, h in enumerate(hands) if h.count("QC") == 2), None)
        if holder is None:
            continue
        rng = random.Random(seed)
        while game.view(None)["phase"] == "declare":
            # Everyone says Gesund, the holder of both Alten too: a silent solo.
            step(game, healthy, rng)
        if game.view(None)["phase"] != "play":
            continue
        assert game.view(holder)["game_type"] == "trump"
        for seat in (None, *(s for s in range(4) if s != holder)):
            view = game.view(seat)
            assert view["game_type"] == "normal" and view["soloist"] is None
        return
    pytest.fail("no seed gave both Alten to one hand")


# -- the one declaration question ------------------------------------------------------

Intent = tuple[str | None, str | None]


def intent(game: DoppelkopfTable, seat: int) -> Intent:
    """What a person means to declare this deal, (Scharfe, reservation), from the hand
    alone: drawn from a source seeded by the table's seed, the deal and the seat."""
    view = game.view(seat)
    hand, trumps = view["hand"], set(view["trumps"])
    options = game.match.options
    rng = random.Random(f"{game.match.seed}/{view['deal_number']}/{seat}")
    pairs = [p for p, card in (("aces", "AH"), ("kings", "KH")) if hand.count(card) == 2]
    scharfe = None
    if options.scharfe and options.declarations == "sheet" and pairs and rng.random() < 0.5:
        scharfe = "scharfe " + rng.choice([*pairs, " ".join(pairs)] if len(pairs) == 2 else pairs)
    choices: list[str | None] = [None, None]
    for kind in rng.sample(options.soli, 2):
        choices.append(f"solo {kind}{' ouvert' if options.ouvert and rng.random() < 0.3 else ''}")
    if hand.count("QC") == 2:
        rule = rng.choice(HOCHZEIT_RULES) if options.hochzeit == "choice" else None
        named = options.declarations == "sheet" and rule is not None
        choices += [f"hochzeit {rule}" if named else "hochzeit"] * 4
    if options.armut and sum(c in trumps for c in hand) <= options.armut_max_trumps:
        choices += ["armut"] * 4
    kings = sum(c.startswith("K") for c in hand)
    if options.kings_redeal and kings >= options.kings_redeal:
        choices += ["redeal"] * 2
    reservation = rng.choice(choices)
    return (None if reservation == "redeal" else scharfe), reservation


def by_hand(game: DoppelkopfTable, seat: int, wanted: Intent) -> str:
    """The engine action of the round being asked, as a person answering every round
    by hand would say it: the part of the intent that belongs to the round if the
    engine allows it now, else ``pass``."""
    legal = game.legal(seat)
    scharfe, reservation = wanted
    word = reservation.split()[0] if reservation else None
    if word == "redeal" and "redeal" in legal:
        return "redeal"
    said = {
        "scharfe": scharfe,
        "solo": reservation if word == "solo" else None,
        "marriage": reservation if word in ("hochzeit", "armut") else None,
        "vorbehalt": "vorbehalt" if reservation else None,
        "reservation": reservation,
    }[game.view(seat)["declaration_round"]]
    return said if said in legal else "pass"


def by_question(question: dict[str, Any], wanted: Intent) -> str:
    """The one answer a person gives to the question: the intent, as far as it is offered."""
    parts = [
        part
        for part, offer in zip(wanted, (question["scharfe"], question["reservations"]), strict=True)
        if part in offer
    ]
    return "vorbehalt " + " + ".join(parts) if parts else "gesund"


#: Seats played by people in the flow test; the last seat plays random engine actions.
PEOPLE = (0, 1, 2)


def play_session(
    seed: int, players: int, flow: bool, **options: Any
) -> tuple[DoppelkopfTable, list[str]]:
    """A short session: people at PEOPLE, random actions elsewhere (mostly pass in the
    declarations) and after the declarations. ``flow``: the people answer the one
    question and the table gives their other declaration rounds; else they answer every
    round by hand. Returns the game and the answers given."""
    game = new_game(seed=seed, players=players, games=2, **options)
    rng = random.Random(seed)
    answers: list[str] = []
    asked: set[tuple[int, int]] = set()
    for _ in range(2000):
        if game.is_over:
            return game, answers
        seat = game.acting[0]
        view = game.view(seat)
        if seat not in PEOPLE or view["phase"] != "declare":
            legal = game.legal(seat)
            # The random seat mostly says pass: a solo in every deal would leave no Hochzeit.
            calm = view["phase"] == "declare" and "pass" in legal and rng.random() < 0.8
            game.act(seat, "pass" if calm else rng.choice(legal))
            continue
        wanted = intent(game, seat)
        if not flow:
            game.act(seat, by_hand(game, seat, wanted))
            continue
        forced = game.forced_action(seat)
        if forced is not None:
            assert view["question"] is None and view["auto"]
            game.act(seat, forced)
            continue
        question = view["question"]
        assert question is not None and not view["auto"]
        # Asked once a deal, never a question whose only answer is Gesund.
        assert (view["deal_number"], seat) not in asked
        asked.add((view["deal_number"], seat))
        assert question["scharfe"] or question["reservations"]
        answer = by_question(question, wanted)
        game.act(seat, answer)
        assert game.view(seat)["question"] is None
        answers.append(answer)
    raise AssertionError("the session did not end")


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (5, {}), (4, {"preset": "ddv"}), (4, {"hochzeit": "first_trick", "ouvert": False})],
)
def test_the_one_question_gives_the_record_of_every_round_answered(
    players: int, options: dict[str, Any]
) -> None:
    made: Counter[str] = Counter()
    for seed in range(30):
        flowed, answers = play_session(seed, players, True, **options)
        by_rounds, _ = play_session(seed, players, False, **options)
        assert flowed.actions == by_rounds.actions, seed
        assert flowed.record(complete=True) == by_rounds.record(complete=True)
        for answer in answers:
            parts = answer.removeprefix("vorbehalt ").split(" + ")
            made.update(part.split()[0] for part in parts)
    # The answers reach every kind of declaration the rules have.
    kinds = {"gesund", "solo", "hochzeit"} | ({"armut", "scharfe"} if not options else set())
    assert kinds <= set(made), made


def test_a_record_made_through_the_question_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, answers = play_session(3, 4, True)
    assert answers
    path = tmp_path / "session.json"
    path.write_text(json.dumps(game.record(complete=True)), encoding="utf-8")
    assert cli_main(["replay", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["points"] == game.view(None)["sheet"]["totals"]


def test_one_heart_ace_is_never_asked_scharfe() -> None:
    one_ace = 0
    for seed in range(60):
        game = new_game(seed=seed)
        rng = random.Random(seed)
        while game.view(None)["phase"] == "declare":
            seat = game.acting[0]
            view = game.view(seat)
            hand, question = view["hand"], view["question"]
            pairs = hand.count("AH") == 2 or hand.count("KH") == 2
            five_kings = sum(c.startswith("K") for c in hand) >= 5
            if view["declaration_round"] == "scharfe" and not pairs and not five_kings:
                # Nothing but "pass" in this round: the table answers it, nobody is asked.
                assert question is None and view["auto"]
                assert game.forced_action(seat) == "pass"
                one_ace += hand.count("AH") == 1
            if question is not None:
                # Only what the hand can make: Scharfe with a pair, a Hochzeit with both Alten,
                # an Armut with at most three trumps.
                assert bool(question["scharfe"]) == (
                    pairs and view["declaration_round"] == "scharfe"
                )
                trumps = sum(c in view["trumps"] for c in hand)
                for reservation in question["reservations"]:
                    assert not reservation.startswith("hochzeit") or hand.count("QC") == 2
                    assert reservation != "armut" or trumps <= 3
                    assert reservation != "redeal" or five_kings
            step(game, healthy, rng)
    assert one_ace >= 10


def test_answers_are_refused_with_their_reason() -> None:
    game = new_game(seed=11)
    seat = game.acting[0]
    hand = game.view(seat)["hand"]
    for text, rule in [
        ("vorbehalt re", "bad_notation"),
        ("vorbehalt solo trump + solo queens", "bad_notation"),
        ("gesund now", "bad_notation"),
        ("vorbehalt solo chess", "bad_notation"),
    ]:
        with pytest.raises(IllegalActionError) as refused:
            game.act(seat, text)
        assert refused.value.rule == rule, text
    if hand.count("QC") < 2:
        with pytest.raises(IllegalActionError) as refused:
            game.act(seat, "vorbehalt hochzeit")
        assert refused.value.rule == "not_offered"
        assert "solo trump" in str(refused.value)
    with pytest.raises(IllegalActionError) as refused:
        game.act((seat + 1) % 4, "gesund")
    assert refused.value.rule == "not_your_turn"
    assert game.version == 0
    game.act(seat, "Vorbehalt Solo Damen")
    # The Scharfe round: nothing of the answer belongs to it.
    assert game.actions == [(seat, "pass")]
    assert game.view(seat)["answer"] == "vorbehalt solo queens"
    rng = random.Random(0)
    while game.acting[0] != seat:
        step(game, healthy, rng)
    view = game.view(seat)
    assert view["declaration_round"] == "solo" and view["question"] is None and view["auto"]
    assert game.forced_action(seat) == "solo queens"
    with pytest.raises(IllegalActionError) as refused:
        game.act(seat, "gesund")
    assert refused.value.rule == "answered"
    game.act(seat, "solo queens")
    assert game.actions[-1] == (seat, "solo queens")


# -- over the WebSocket --------------------------------------------------------------


def new_doko_table(
    client: TestClient, seats: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    body = {"game": "doppelkopf", "name": "Ann", "seats": seats or THREE_BOTS, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def hello(ws: Any, token: str | None = None, lang: str = "en") -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "lang": lang})
    return next_state(ws)


def choose(view: dict[str, Any]) -> str:
    """The human's policy: Gesund (once a deal), take an Armut, pass the suggested cards,
    play the first card."""
    legal: list[str] = view["legal"]
    cards = [a for a in legal if CARD.match(a)]
    if view["phase"] == "play":
        return cards[0]
    if view["question"] is not None:
        return "gesund"
    for word in ("pass", "accept"):
        if word in legal:
            return word
    return legal[0]


def play_one(
    ws: Any, state: dict[str, Any], log: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Act once at the human's turn; return the state it led to (skipping older ones)."""
    ws.send_json({"type": "act", "action": choose(state["view"]), "version": state["version"]})
    while True:
        message = next_state(ws)
        if log is not None:
            log.append(message)
        if message["version"] > state["version"]:
            return message


def test_a_whole_game_against_three_bots(client: TestClient) -> None:
    created = new_doko_table(client)
    assert created["table"]["status"] == "playing" and created["table"]["game"] == "doppelkopf"
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws, created["token"])
        assert state["table"]["you"] == 0 and len(state["view"]["hand"]) == 10
        acted = 0
        while True:
            state = until_my_turn(ws, 0, state)
            if state["view"]["sheet"]["rows"]:
                break
            state = play_one(ws, state)
            acted += 1
        view = state["view"]
        assert acted >= 10  # ten cards at least, and the declarations
        row = view["sheet"]["rows"][0]
        game = next(d for d in view["deals"] if d["number"] == row["deal"])
        assert game["outcome"] == "played" and len(game["tricks"]) == 10
        assert game["points"] == row["points"] == row["totals"]
        assert view["sheet"]["totals"] == row["totals"]
        assert game["augen"]["re"] + game["augen"]["kontra"] == 240
        assert {"game_type", "stages", "extras", "announcements", "multiplier", "base"} <= set(game)
        # The next game is dealt at once: the person's first turn in it, all cards in hand
        # (declaring, or already playing when the table answered the person's rounds).
        assert view["game_number"] == 2 and view["phase"] in ("declare", "play")
        assert len(view["hand"]) == 10


def test_gesund_once_a_deal_and_the_table_answers_the_rest(client: TestClient) -> None:
    created = new_doko_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws, created["token"])
        asked: Counter[int] = Counter()
        # Three deals at least, and two in which the person was asked: in some deals the
        # table answers every round for them (only "pass" is possible) or a bot's redeal
        # ends the declarations before their turn.
        while len(state["view"]["deals"]) < 3 or len(asked) < 2:
            assert len(state["view"]["deals"]) < 12, f"asked in {len(asked)} deals only"
            view = state["view"]
            gate = state["table"].get("between_deals")
            if gate is not None:
                # Between deals: say "next" once, as the person presses it; then wait.
                if 0 in gate["waiting"]:
                    ws.send_json({"type": "ready", "version": state["version"]})
                state = next_state(ws)
                continue
            if view["to_move"] != 0 or view["auto"]:
                state = next_state(ws)  # the table or a bot acts
                continue
            if view["phase"] == "declare":
                # A declaration turn shown to the person is the one question, asked once.
                assert view["question"] is not None and view["answer"] is None
                asked[view["deal_number"]] += 1
            state = play_one(ws, state)
            if view["phase"] == "declare" and state["view"]["deal_number"] == view["deal_number"]:
                assert state["view"]["question"] is None
                assert state["view"]["answer"] == "gesund" or state["view"]["phase"] != "declare"
    deals = state["view"]["deals"]
    assert max(asked.values()) == 1 and len(asked) >= 2
    passes = 0
    for deal in deals:
        said = [d["call"] for d in deal["declarations"] if d["seat"] == 0]
        assert set(said) <= {"pass"}, said
        passes += len(said)
    # More rounds were answered than the person was asked: the table gave the rest.
    assert passes > sum(asked[d["number"]] for d in deals)


def test_an_announcement_is_accepted_and_a_wrong_one_refused(client: TestClient) -> None:
    created = new_doko_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws, created["token"], lang="de")
        for _ in range(400):
            state = until_my_turn(ws, 0, state)
            view = state["view"]
            words = [w for w in ("re", "kontra") if w in view["legal"]]
            if view["phase"] == "play" and words:
                break
            state = play_one(ws, state)
        else:
            pytest.fail("the human never could announce")
        word = words[0]
        version = state["version"]
        ws.send_json({"type": "act", "action": word, "version": version})
        after = next_state(ws)
        assert after["version"] == version + 1
        assert after["view"]["to_move"] == 0  # an announcement does not pass the turn
        assert {"seat": 0, "party": view["party"], "word": word} in after["view"]["announcements"]
        assert word not in after["view"]["legal"]
        wrong = "kontra" if word == "re" else "re"
        ws.send_json({"type": "act", "action": wrong, "version": after["version"]})
        error = next_error(ws)
        assert error["code"] == "wrong_party" and error["version"] == after["version"]
        assert error["message"] == catalog("de")["rule.wrong_party"]
        assert error["message"] == "das ist die Ansage der anderen Partei"
        ws.send_json({"type": "act", "action": word, "version": after["version"]})
        error = next_error(ws)
        assert error["code"] == "already_announced" and "schon angesagt" in error["message"]
        assert client.get(f"/api/tables/{created['id']}").json()["table"]["version"] == version + 1


def test_a_stale_version_is_refused(client: TestClient) -> None:
    created = new_doko_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = until_my_turn(ws, 0, hello(ws, created["token"]))
        action = choose(state["view"])
        ws.send_json({"type": "act", "action": action, "version": state["version"] + 5})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "stale_version"
        assert error["version"] == state["version"]
        assert next_state(ws)["view"] == state["view"]
        ws.send_json({"type": "act", "action": action, "version": state["version"]})
        assert next_state(ws)["version"] == state["version"] + 1


def test_spectators_see_no_hand_and_cannot_act(client: TestClient) -> None:
    created = new_doko_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws)
        view = state["view"]
        assert state["table"]["you"] is None and view["seat"] is None
        assert view["hand"] is None and view["legal"] == [] and view["party"] is None
        assert view["hand_sizes"] == [10, 10, 10, 10]
        ws.send_json({"type": "act", "action": "pass", "version": state["version"]})
        assert next_error(ws)["code"] == "not_seated"


def test_no_message_shows_a_hidden_card(make_app: AppFactory) -> None:
    app = make_app()
    with TestClient(app) as client:
        created = new_doko_table(client)
        table_id = created["id"]
        url = f"/ws/tables/{table_id}"
        seen: list[tuple[int | None, dict[str, Any]]] = []
        with client.websocket_connect(url) as ws, client.websocket_connect(url) as watcher:
            state = hello(ws, created["token"])
            seen.append((0, state))
            seen.append((None, hello(watcher)))
            while not state["view"]["sheet"]["rows"]:
                while state["view"]["to_move"] != 0 and not state["view"]["sheet"]["rows"]:
                    state = next_state(ws)
                    seen.append((0, state))
                if state["view"]["sheet"]["rows"]:
                    break  # the first game is scored (the next deal waits for "next")
                log: list[dict[str, Any]] = []
                state = play_one(ws, state, log)
                seen.extend((0, m) for m in log)
            version = state["version"]
            while True:
                message = next_state(watcher)
                seen.append((None, message))
                if message["version"] >= version:
                    break
        table = app.state.manager.get(table_id)
        names = [s.name for s in table.seats]
        actions = table.game.actions
        truths: dict[int, DoppelkopfTable] = {}
        for seat, message in seen:
            v = message["version"]
            if v not in truths:
                replayed = KIND.replay(table.options, names, table.seed, actions[:v])
                assert isinstance(replayed, DoppelkopfTable)
                truths[v] = replayed
            assert_no_leak(message["view"], truths[v], seat)
        assert len(truths) > 40


def test_a_restart_resumes_the_table(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        created = new_doko_table(client)
        url = f"/ws/tables/{created['id']}"
        with client.websocket_connect(url) as ws:
            state = hello(ws, created["token"])
            for _ in range(8):
                state = play_one(ws, until_my_turn(ws, 0, state))
            before = until_my_turn(ws, 0, state)
    with TestClient(make_app()) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[created["id"]]["status"] == "playing"
        with client.websocket_connect(url) as ws:
            after = hello(ws, created["token"])
            assert after["version"] == before["version"]
            assert after["view"] == before["view"]
            ws.send_json(
                {"type": "act", "action": choose(after["view"]), "version": after["version"]}
            )
            assert next_state(ws)["version"] == after["version"] + 1


def test_five_seats_from_the_lobby(client: TestClient) -> None:
    seats = [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 4
    created = new_doko_table(client, seats=seats, options={"preset": "ddv", "games": 1})
    table = created["table"]
    assert table["options"]["players"] == 5 and table["options"]["games"] == 1
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        view = hello(ws, created["token"])["view"]
        assert len(view["playing"]) == 4 and view["rules"]["hand_size"] == 12
        assert view["hand"] == [] if view["dealer"] == 0 else len(view["hand"]) == 12
    refused = client.post(
        "/api/tables",
        json={"game": "doppelkopf", "name": "A", "options": {"preset": "ddv", "armut": True}},
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_options"
    default = client.post("/api/tables", json={"game": "doppelkopf", "name": "A"}).json()
    assert len(default["table"]["seats"]) == 4


# -- texts ---------------------------------------------------------------------------

#: Keys the page builds from the view's words (``t(`dk.game.${type}`)`` …).
DYNAMIC_KEYS = [
    *(f"dk.game.{g}" for g in (*GAME_TYPES, "undecided")),
    *(f"dk.word.{w}" for w in ANNOUNCEMENTS),
    *(f"dk.party.{p}" for p in ("re", "kontra")),
    *(
        f"dk.call.{w}"
        for w in [
            "pass",
            "vorbehalt",
            "armut",
            "redeal",
            "accept",
            "refuse",
            "take_back",
            "give",
            "return",
        ]
    ),
    *(f"dk.hochzeit.{r}" for r in ("first_trick", "first_trump", "first_nontrump")),
    *(f"dk.scharfe.{p}" for p in ("aces", "kings")),
    *(f"dk.round.{r}" for r in ("scharfe", "solo", "marriage", "vorbehalt", "reservation")),
    *(f"dk.redeal.{r}" for r in ("kings", "armut_refused")),
    *(f"dk.stage.{s}" for s in ("no90", "no60", "no30", "schwarz")),
    *(
        f"dk.extra.{e}"
        for e in [
            "fuchs_gefangen",
            "dulle_gefangen",
            "karlchen",
            "voller_stich",
            "rot_geht_rum",
            "doppelkopf",
            "gegen_die_alten",
        ]
    ),
    "dk.give_selected",
    "dk.return_selected",
    "dk.give_hint",
    "dk.return_hint",
    "dk.armut_up",
    "dk.armut_down",
    "dk.armut_cards",
    "dk.armut_returned",
]
#: Refusals of the Doppelkopf engine that have their own text in the catalogs.
RULES = [
    "wrong_party",
    "already_announced",
    "announce_with_all_cards",
    "announcement_deadline",
    "announce_in_play",
    "solo_outranked",
    "solo_implicit_re",
    "solo_only_kontra",
    "hochzeit_unclarified",
    "armut_no_announcements",
    "declarations_first",
    "play_a_card",
    "armut_all_trumps",
    "armut_three_cards",
    "armut_return_plain",
    "armut_too_many_trumps",
    "hochzeit_needs_both",
    "scharfe_needs_pair",
    "kings_redeal",
    "name_reservation",
    "nothing_to_take_back",
    "sits_out",
    "not_now",
    "not_offered",
    "answered",
]


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_every_doppelkopf_text_is_translated(lang: str) -> None:
    script = (files("kartentisch.web") / "static" / "games" / "doppelkopf.js").read_text("utf-8")
    keys = set(re.findall(r'\bt\("([\w.]+)"', script)) | set(DYNAMIC_KEYS)
    keys |= {f"rule.{code}" for code in RULES}
    description = KIND.describe()
    keys |= {f"preset.{p}" for p in description["presets"]}
    keys |= {f"level.{level}" for level in description["bot_levels"]}
    for option, spec in description["options"].items():
        keys.add(f"option.{option}")
        for choice in spec.get("choices", []):
            value = str(choice).lower() if isinstance(choice, bool) else choice
            keys.add(f"option.{option}.{value}")
    messages = catalog(lang)
    assert keys <= set(messages), sorted(keys - set(messages))
    if lang != "en":
        english = catalog("en")
        same = [k for k in keys if k.startswith("dk.game.") and messages[k] == english[k]]
        assert len(same) < 4, same  # translated, not copied
