"""Doppelkopf scoring: house sheet (seed 003 + RULINGS) and DDV (TSR 7), worked by hand.

Games are built directly as :class:`ScoringTrick` tuples. ``neutral(n)``
deals a fixed layout of tricks (each below 40 Augen, no Fuchs or Dulle
caught, no Karlchen, no Rot geht rum) and gives Re the tricks worth exactly
``n`` Augen; tests then rearrange single tricks to make extra points happen.
The scorer trusts the engine's trick winners, so layouts need not be legal
play.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cards import Card, doppelkopf_deck, parse_cards
from kartentisch.games.doppelkopf import DoppelkopfMatch, DoppelkopfOptions
from kartentisch.games.doppelkopf.scoring import (
    Announcement,
    ExtraPoint,
    GameFacts,
    GameScore,
    ScoringError,
    ScoringTrick,
    score_game,
    trick_augen,
)

RE = frozenset({0, 2})
SEATS = (0, 1, 2, 3)
FOX, DULLE, KARLCHEN = Card("AD"), Card("10H"), Card("JC")
NORMAL_TRUMPS = frozenset(parse_cards("10H QC QS QH QD JC JS JH JD AD 10D KD"))
NORMAL_TRUMPS_9 = NORMAL_TRUMPS | {Card("9D")}
QUEENS = frozenset(parse_cards("QC QS QH QD"))
ALL_STAGES = ("no90", "no60", "no30", "schwarz")

#: 40 cards in 10 tricks: 21 10 16 29 27 36 18 34 20 29 Augen.
POOL40 = (
    "KC QC KS 10C",
    "QH JD QS JD",
    "10H JH JC JC",
    "KD AS QD AC",
    "10D JS AH KS",
    "AD 10S AS KD",
    "10C QD JH QC",
    "10H 10S KH 10D",
    "KH AH JS QH",
    "KC AD AC QS",
)
#: 48 cards in 12 tricks: 29 28 10 32 19 19 23 10 26 4 29 11 Augen.
POOL48 = (
    "AH KS QD AC",
    "KD QS 10C AD",
    "10D 9C 9D 9S",
    "AD 10C AC 9S",
    "QS AS JD QC",
    "10S QD KC JS",
    "9C 10S QC 10H",
    "9D KH KC JH",
    "JH QH 10H AS",
    "JS 9H JD 9H",
    "AH 10D KH KS",
    "QH KD JC JC",
)

Layout = list[tuple[tuple[Card, ...], int]]


@functools.cache
def _subsets(pool: tuple[str, ...]) -> dict[int, list[frozenset[int]]]:
    values = [trick_augen(parse_cards(t)) for t in pool]
    out: dict[int, list[frozenset[int]]] = {}
    for mask in range(1 << len(pool)):
        chosen = frozenset(i for i in range(len(pool)) if mask >> i & 1)
        out.setdefault(sum(values[i] for i in chosen), []).append(chosen)
    return out


def _arrange(
    cards: Sequence[Card], party: Sequence[int], seats: Sequence[int]
) -> tuple[tuple[Card, ...], int]:
    """The winner (first seat of ``party``) plays a Fuchs/Dulle if any, never Karlchen."""
    winner = party[0]
    ranked = sorted(cards, key=lambda c: (c not in (FOX, DULLE), c == KARLCHEN))
    hand = {winner: ranked[0]}
    rest = iter(ranked[1:])
    for s in seats:
        if s != winner:
            hand[s] = next(rest)
    return tuple(hand[s] for s in seats), winner


def neutral(
    re_augen: int,
    *,
    pool: tuple[str, ...] = POOL40,
    re: frozenset[int] = RE,
    seats: tuple[int, ...] = SEATS,
    re_tricks: Iterable[int] = (),
    kontra_tricks: Iterable[int] = (),
) -> Layout:
    """Re wins the tricks (0-based indices into ``pool``) worth exactly ``re_augen``."""
    must, never = set(re_tricks), set(kontra_tricks)
    for chosen in _subsets(pool).get(re_augen, []):
        if must <= chosen and not never & chosen:
            break
    else:
        raise AssertionError(f"no layout gives Re {re_augen} Augen")
    layout: Layout = []
    for i, text in enumerate(pool):
        party = [s for s in seats if (s in re) == (i in chosen)]
        layout.append(_arrange(parse_cards(text), party, seats))
    return layout


def place(layout: Layout, index: int, cards: str, winner: int) -> None:
    """Replace trick ``index``: ``cards`` in seat order 0, 1, 2, 3."""
    layout[index] = (tuple(parse_cards(cards)), winner)


def facts(
    layout: Layout,
    *,
    rules: str = "house",
    re: frozenset[int] = RE,
    seats: tuple[int, ...] = SEATS,
    table_size: int = 4,
    game_type: str = "normal",
    ouvert: bool = False,
    ann: Sequence[tuple[int, str]] = (),
    trumps: frozenset[Card] | None = None,
    scharfe_aces: bool = False,
    offenders: Iterable[int] = (),
    bock: int = 1,
    rot: str = "extra_point",
) -> GameFacts:
    solo = game_type not in ("normal", "hochzeit", "armut")
    if trumps is None:
        nines = any(c.rank == 9 for cards, _ in layout for c in cards)
        trumps = NORMAL_TRUMPS_9 if nines else NORMAL_TRUMPS
    return GameFacts(
        rules=rules,  # type: ignore[arg-type]
        seats=seats,
        table_size=table_size,
        re_party=re,
        game_type=game_type,
        solo=solo,
        ouvert=ouvert,
        announcements=tuple(
            Announcement(seat, "re" if seat in re else "kontra", word)  # type: ignore[arg-type]
            for seat, word in ann
        ),
        tricks=tuple(ScoringTrick(seats, cards, winner) for cards, winner in layout),
        trumps=trumps,
        scharfe_aces=scharfe_aces,
        offenders=frozenset(offenders),
        bock_multiplier=bock,
        rot_geht_rum=rot,  # type: ignore[arg-type]
    )


def score(layout: Layout, **kw: object) -> GameScore:
    return score_game(facts(layout, **kw))  # type: ignore[arg-type]


# -- the helpers themselves -------------------------------------------------------------


def test_pools_are_whole_decks() -> None:
    for pool, nines in ((POOL40, False), (POOL48, True)):
        cards = sorted(c for t in pool for c in parse_cards(t))
        assert cards == sorted(doppelkopf_deck(nines=nines))
        assert all(trick_augen(parse_cards(t)) < 40 for t in pool)


def test_neutral_layout_has_no_extras() -> None:
    for n in (0, 89, 120, 121, 151, 240):
        s = score(neutral(n))
        assert s.augen == {"re": n, "kontra": 240 - n}
        assert s.extras == ()


# -- house: who wins --------------------------------------------------------------------


class TestHouseNormal:
    def test_re_wins_with_121(self) -> None:
        s = score(neutral(121))
        assert (s.winner, s.stages, s.base, s.multiplier) == ("re", (), 10, 1)
        assert s.points == (10, 0, 10, 0)
        assert not s.bock_trigger

    def test_kontra_wins_with_121(self) -> None:
        s = score(neutral(119))
        assert (s.winner, s.base, s.points) == ("kontra", 20, (0, 20, 0, 20))

    def test_120_120_kontra_wins_and_triggers_bock(self) -> None:
        s = score(neutral(120))
        assert (s.winner, s.points, s.bock_trigger) == ("kontra", (0, 20, 0, 20), True)
        assert any("120:120" in line for line in s.lines)

    @pytest.mark.parametrize(
        ("re_augen", "winner", "stages", "base"),
        [
            (150, "re", (), 10),
            (151, "re", ("no90",), 20),
            (180, "re", ("no90",), 20),
            (181, "re", ("no90", "no60"), 30),
            (210, "re", ("no90", "no60"), 30),
            (211, "re", ("no90", "no60", "no30"), 40),
            (240, "re", ALL_STAGES, 50),
            (90, "kontra", (), 20),
            (89, "kontra", ("no90",), 30),
            (59, "kontra", ("no90", "no60"), 40),
            (29, "kontra", ("no90", "no60", "no30"), 50),
            (0, "kontra", ALL_STAGES, 60),
        ],
    )
    def test_stages(self, re_augen: int, winner: str, stages: tuple[str, ...], base: int) -> None:
        s = score(neutral(re_augen))
        assert (s.winner, s.stages, s.base) == (winner, stages, base)
        winners = (0, 2) if winner == "re" else (1, 3)
        assert s.points == tuple(base if seat in winners else 0 for seat in SEATS)

    @pytest.mark.parametrize("game_type", ["hochzeit", "armut"])
    def test_hochzeit_and_armut_score_like_normal_games(self, game_type: str) -> None:
        s = score(neutral(151), game_type=game_type, ann=[(0, "re")])
        assert s.points == (40, 0, 40, 0)  # (10 + 10) × 2

    def test_five_players_dealer_sits_out_with_zero(self) -> None:
        seats = (1, 2, 3, 4)
        layout = neutral(121, re=frozenset({1, 3}), seats=seats)
        s = score(layout, re=frozenset({1, 3}), seats=seats, table_size=5)
        assert s.points == (0, 10, 0, 10, 0)


# -- house: announcements ------------------------------------------------------------------

ANNOUNCEMENT_CASES = [
    # (announcements (seat, word), Re's Augen, winner, multiplier, value, Bock)
    ([(0, "re")], 121, "re", 2, 20, False),
    ([(0, "re")], 120, "kontra", 2, 40, True),
    ([(1, "kontra")], 119, "kontra", 2, 40, False),
    ([(1, "kontra")], 121, "re", 2, 20, True),
    ([(0, "re"), (1, "kontra")], 121, "re", 4, 40, True),
    ([(0, "re"), (3, "kontra")], 119, "kontra", 4, 80, True),
    # Re says no90 and reaches it: (10 + 10) × 4.
    ([(0, "re"), (2, "no90")], 151, "re", 4, 80, False),
    # Re says no90 but Kontra keeps 90: Re loses although it has 150.
    ([(0, "re"), (2, "no90")], 150, "kontra", 4, 80, True),
    # no90 alone implies Re: still two doublings.
    ([(2, "no90")], 151, "re", 4, 80, False),
    # Kontra says no90 and misses it: Re wins with only 100 Augen.
    ([(1, "kontra"), (3, "no90")], 100, "re", 4, 40, True),
    ([(1, "kontra"), (3, "no90")], 89, "kontra", 4, 120, False),
    # Re, no90, no60 and 181 Augen: (10 + 20) × 8.
    ([(0, "re"), (0, "no90"), (0, "no60")], 181, "re", 8, 240, False),
    # All five words and all tricks: (10 + 40) × 32.
    (
        [(0, "re"), (0, "no90"), (2, "no60"), (2, "no30"), (0, "schwarz")],
        240,
        "re",
        32,
        1600,
        False,
    ),
    # Schwarz announced, Kontra gets a trick: Kontra wins, (20 + 0) × 32.
    (
        [(0, "re"), (0, "no90"), (2, "no60"), (2, "no30"), (0, "schwarz")],
        211,
        "kontra",
        32,
        640,
        True,
    ),
    # Both parties miss their no90: the Augen decide; all four words count.
    ([(0, "re"), (0, "no90"), (1, "kontra"), (1, "no90")], 130, "re", 16, 160, True),
    ([(0, "re"), (0, "no90"), (1, "kontra"), (1, "no90")], 120, "kontra", 16, 320, True),
]


@pytest.mark.parametrize(
    ("ann", "re_augen", "winner", "multiplier", "value", "bock"), ANNOUNCEMENT_CASES
)
def test_house_announcements(
    ann: list[tuple[int, str]], re_augen: int, winner: str, multiplier: int, value: int, bock: bool
) -> None:
    s = score(neutral(re_augen), ann=ann)
    assert (s.winner, s.multiplier, s.bock_trigger) == (winner, multiplier, bock)
    winners = (0, 2) if winner == "re" else (1, 3)
    assert s.points == tuple(value if seat in winners else 0 for seat in SEATS)
    assert s.base * s.multiplier == value


class TestHouseBockMultiplier:
    def test_bock_doubles(self) -> None:
        assert score(neutral(121), bock=2).points == (20, 0, 20, 0)

    def test_doppelbock_with_announcement(self) -> None:
        s = score(neutral(121), bock=4, ann=[(0, "re")])
        assert (s.multiplier, s.points) == (8, (80, 0, 80, 0))


# -- house: extra points ----------------------------------------------------------------------


class TestHouseExtras:
    def test_fuchs_gefangen_won(self) -> None:
        layout = neutral(151, re_tricks=[5])
        place(layout, 5, "10S AD AS KD", winner=0)  # Kontra's seat 1 plays the Fuchs
        s = score(layout)
        assert s.extras == (ExtraPoint("re", "fuchs_gefangen", 6),)
        assert (s.base, s.points) == (30, (30, 0, 30, 0))  # 10 + 10 (no90) + 10

    def test_fuchs_gefangen_lost(self) -> None:
        layout = neutral(151, kontra_tricks=[5])
        place(layout, 5, "AD 10S AS KD", winner=1)  # Kontra catches Re's Fuchs
        s = score(layout)
        assert s.extras == (ExtraPoint("kontra", "fuchs_gefangen", 6),)
        assert (s.winner, s.base, s.points) == ("re", 10, (10, 0, 10, 0))  # 10 + 10 − 10

    def test_own_fuchs_is_not_caught(self) -> None:
        layout = neutral(151, re_tricks=[5])
        place(layout, 5, "10S KD AD AS", winner=0)  # partner seat 2 plays it
        assert score(layout).extras == ()

    def test_extras_can_make_the_winners_score_negative(self) -> None:
        layout = neutral(121, kontra_tricks=[5, 9])
        place(layout, 5, "AD 10S AS KD", winner=1)
        place(layout, 9, "KC AC AD QS", winner=3)
        s = score(layout)
        assert (s.winner, s.base, s.points) == ("re", -10, (-10, 0, -10, 0))

    def test_dulle_gefangen(self) -> None:
        layout = neutral(121, re_tricks=[7])
        place(layout, 7, "10S KH 10D 10H", winner=0)  # Kontra's seat 3 plays the Dulle
        s = score(layout)
        assert s.extras == (ExtraPoint("re", "dulle_gefangen", 8),)
        assert s.points == (20, 0, 20, 0)

    def test_no_dulle_gefangen_with_scharfe_aces(self) -> None:
        layout = neutral(121, re_tricks=[7])
        place(layout, 7, "10S KH 10D 10H", winner=0)
        trumps = NORMAL_TRUMPS | {Card("AH")}
        s = score(layout, scharfe_aces=True, trumps=trumps)
        assert (s.extras, s.points) == ((), (10, 0, 10, 0))

    def test_karlchen_won(self) -> None:
        layout = neutral(121, re_tricks=[2])
        layout.append(layout.pop(2))  # the jack trick becomes the last one
        place(layout, 9, "JC JH 10H JC", winner=0)  # seat 0's Karlchen takes it
        s = score(layout)
        assert s.extras == (ExtraPoint("re", "karlchen", 10),)
        assert s.points == (20, 0, 20, 0)

    def test_karlchen_for_the_winning_kontra(self) -> None:
        layout = neutral(100, kontra_tricks=[2])
        layout.append(layout.pop(2))
        place(layout, 9, "JH JC JC 10H", winner=1)
        s = score(layout)
        assert s.extras == (ExtraPoint("kontra", "karlchen", 10),)
        assert (s.winner, s.points) == ("kontra", (0, 30, 0, 30))  # 20 + 10

    def test_karlchen_must_win_the_last_trick(self) -> None:
        layout = neutral(121, re_tricks=[2])
        layout.append(layout.pop(2))
        place(layout, 9, "10H JH JC JC", winner=0)  # a Dulle takes it, not the Karlchen
        assert score(layout).extras == ()

    def _voller_stich(self, winner: int, re_augen: int) -> Layout:
        # Swap K♦ and 10♣ between tricks 1 and 6: trick 6 becomes 42 Augen.
        side = "re" if winner in RE else "kontra"
        layout = neutral(re_augen, **{f"{side}_tricks": [0, 5]})  # type: ignore[arg-type]
        place(layout, 0, "KC QC KS KD", winner=winner)
        cards = "AD 10S AS 10C" if winner == 0 else "10S AD AS 10C"
        place(layout, 5, cards, winner=winner)
        return layout

    def test_voller_stich_won(self) -> None:
        s = score(self._voller_stich(0, 151))
        assert s.augen == {"re": 151, "kontra": 89}
        assert s.extras == (ExtraPoint("re", "voller_stich", 6),)
        assert s.points == (30, 0, 30, 0)

    def test_voller_stich_lost(self) -> None:
        s = score(self._voller_stich(1, 154))
        assert s.augen == {"re": 154, "kontra": 86}
        assert s.extras == (ExtraPoint("kontra", "voller_stich", 6),)
        assert s.points == (10, 0, 10, 0)  # 10 + 10 − 10

    def _rot_geht_rum(self, winner: int, re_augen: int = 151) -> Layout:
        # Hearts A A K K in one trick; J♠ and Q♥ move to tricks 5 and 8.
        side = "re" if winner in RE else "kontra"
        layout = neutral(re_augen, **{f"{side}_tricks": [4, 7, 8]})  # type: ignore[arg-type]
        place(layout, 4, "10D JS JS KS", winner=winner)
        place(layout, 7, "10H 10S QH 10D" if winner == 0 else "10S 10H QH 10D", winner=winner)
        place(layout, 8, "AH AH KH KH", winner=winner)
        return layout

    def test_rot_geht_rum_extra_point(self) -> None:
        s = score(self._rot_geht_rum(0))
        assert s.augen["re"] == 151
        assert s.extras == (ExtraPoint("re", "rot_geht_rum", 9),)
        assert (s.points, s.bock_trigger) == ((30, 0, 30, 0), False)

    def test_rot_geht_rum_lost(self) -> None:
        s = score(self._rot_geht_rum(1, 159))
        assert s.augen == {"re": 159, "kontra": 81}
        assert s.extras == (ExtraPoint("kontra", "rot_geht_rum", 9),)
        assert s.points == (10, 0, 10, 0)

    def test_rot_geht_rum_as_bock_trigger(self) -> None:
        s = score(self._rot_geht_rum(0), rot="bock")
        assert (s.extras, s.points, s.bock_trigger) == ((), (20, 0, 20, 0), True)

    def test_rot_geht_rum_off(self) -> None:
        s = score(self._rot_geht_rum(0), rot="off")
        assert (s.extras, s.points, s.bock_trigger) == ((), (20, 0, 20, 0), False)

    def test_no_extras_in_a_solo(self) -> None:
        layout = neutral(151, re=frozenset({1}), re_tricks=[5])
        place(layout, 5, "AD 10S AS KD", winner=1)
        s = score(layout, re=frozenset({1}), game_type="trump")
        assert (s.extras, s.points) == ((), (0, 500, 0, 0))


# -- house: soli ----------------------------------------------------------------------------

SOLOIST = frozenset({1})


def solo(re_augen: int, game_type: str = "queens", **kw: object) -> GameScore:
    trumps = {"queens": QUEENS, "null": frozenset(), "trump": NORMAL_TRUMPS}[game_type]
    layout = neutral(re_augen, re=SOLOIST)
    return score(layout, re=SOLOIST, game_type=game_type, trumps=trumps, **kw)


class TestHouseSolo:
    @pytest.mark.parametrize(
        ("game_type", "re_augen", "points", "bock"),
        [
            ("queens", 121, 250, False),
            ("queens", 120, -500, True),  # 120:120: the opponents win
            ("queens", 30, -500, True),
            ("trump", 121, 500, False),
            ("trump", 119, -1000, True),
        ],
    )
    def test_won_and_lost(self, game_type: str, re_augen: int, points: int, bock: bool) -> None:
        s = solo(re_augen, game_type)
        assert s.points == (0, points, 0, 0)
        assert (s.stages, s.extras, s.bock_trigger) == ((), (), bock)

    def test_ouvert_won_needs_schwarz(self) -> None:
        s = solo(240, ouvert=True)
        assert (s.winner, s.multiplier, s.points) == ("re", 2, (0, 500, 0, 0))

    def test_ouvert_lost_with_one_opponent_trick(self) -> None:
        s = solo(230, ouvert=True)
        assert (s.winner, s.points, s.bock_trigger) == ("kontra", (0, -1000, 0, 0), True)

    def test_trumpfsolo_ouvert(self) -> None:
        assert solo(240, "trump", ouvert=True).points == (0, 1000, 0, 0)

    def test_kontra_doubles_and_a_won_solo_makes_bock(self) -> None:
        s = solo(121, ann=[(2, "kontra")])
        assert (s.multiplier, s.points, s.bock_trigger) == (2, (0, 500, 0, 0), True)

    def test_kontra_on_a_lost_solo(self) -> None:
        assert solo(100, ann=[(0, "kontra")]).points == (0, -1000, 0, 0)

    def test_ouvert_kontra_and_bock(self) -> None:
        s = solo(240, "trump", ouvert=True, ann=[(3, "kontra")], bock=2)
        assert (s.multiplier, s.points) == (8, (0, 4000, 0, 0))

    def test_nullsolo(self) -> None:
        assert solo(0, "null").points == (0, 250, 0, 0)
        lost = solo(10, "null")
        assert (lost.points, lost.bock_trigger) == ((0, -500, 0, 0), True)

    def test_nullsolo_ouvert(self) -> None:
        assert solo(0, "null", ouvert=True).points == (0, 500, 0, 0)

    @pytest.mark.parametrize("ann", [[(1, "re")], [(1, "no90")], [(0, "no90")]])
    def test_only_kontra_may_be_announced(self, ann: list[tuple[int, str]]) -> None:
        with pytest.raises(ScoringError, match="only the opponents' Kontra"):
            solo(121, ann=ann)


# -- house: falsch bedient / falsche Ansage (table mode) --------------------------------------


class TestHouseOffenders:
    def test_kontra_offends_re_wins_schwarz(self) -> None:
        # Re has only 100 Augen, but Kontra revoked: Re wins with all stages.
        s = score(neutral(100), offenders=[1], ann=[(0, "re")])
        assert (s.winner, s.stages) == ("re", ALL_STAGES)
        assert (s.base, s.multiplier, s.points) == (50, 2, (100, 0, 100, 0))
        assert not s.bock_trigger

    def test_offending_party_loses_its_extras(self) -> None:
        layout = neutral(151, re_tricks=[5], kontra_tricks=[7])
        place(layout, 5, "10S AD AS KD", winner=0)  # Re catches a Fuchs: dropped
        place(layout, 7, "10H 10S KH 10D", winner=1)  # Kontra catches a Dulle: kept
        s = score(layout, offenders=[2], ann=[(1, "kontra")])
        assert s.extras == (ExtraPoint("kontra", "dulle_gefangen", 8),)
        # (20 + 40 + 10) × 2 for Kontra
        assert (s.winner, s.base, s.points) == ("kontra", 70, (0, 140, 0, 140))
        assert not s.bock_trigger

    def test_offenders_announcements_all_count_and_make_bock(self) -> None:
        s = score(neutral(211), offenders=[0], ann=[(0, "re"), (2, "no90"), (1, "kontra")])
        assert (s.winner, s.multiplier, s.points) == ("kontra", 8, (0, 480, 0, 480))
        assert s.bock_trigger

    def test_a_wrong_announcement_by_the_offender_counts(self) -> None:
        # Seat 1 (Kontra) says "re": recorded for its own party as a falsche Ansage.
        f = facts(neutral(130), offenders=[1])
        wrong = Announcement(1, "kontra", "re")
        s = score_game(dataclasses.replace(f, announcements=(wrong,)))
        assert (s.winner, s.points) == ("re", (100, 0, 100, 0))  # (10 + 40) × 2

    def test_game_may_end_early(self) -> None:
        layout = neutral(121)[:4]
        s = score(layout, offenders=[3])
        assert (s.winner, s.points) == ("re", (50, 0, 50, 0))

    def test_soloist_offends(self) -> None:
        layout = neutral(211, re=SOLOIST)
        s = score(layout, re=SOLOIST, game_type="queens", trumps=QUEENS, offenders=[1])
        assert (s.points, s.bock_trigger) == ((0, -500, 0, 0), True)

    def test_opponent_offends_in_a_solo(self) -> None:
        layout = neutral(20, re=SOLOIST)
        s = score(layout, re=SOLOIST, game_type="queens", trumps=QUEENS, offenders=[3])
        assert s.points == (0, 250, 0, 0)

    def test_offenders_of_both_parties_are_refused(self) -> None:
        with pytest.raises(ScoringError, match="both parties"):
            score(neutral(121), offenders=[0, 1])


# -- checking the facts --------------------------------------------------------------------


class TestErrors:
    def test_incomplete_game_without_offenders(self) -> None:
        with pytest.raises(ScoringError, match="not the whole 40-card deck"):
            score(neutral(121)[:9])

    def test_card_played_three_times(self) -> None:
        layout = neutral(121)
        place(layout, 0, "KC QC KS KC", winner=0)
        place(layout, 9, "KC AD AC QS", winner=1)
        with pytest.raises(ScoringError, match="KC was played 3 times"):
            score(layout)

    def test_trick_from_a_seat_that_does_not_play(self) -> None:
        f = facts(neutral(121))
        bad = ScoringTrick((0, 1, 2, 4), f.tricks[0].cards, 0)
        with pytest.raises(ScoringError, match="trick 1"):
            score_game(dataclasses.replace(f, tricks=(bad, *f.tricks[1:])))

    @pytest.mark.parametrize(
        ("kw", "message"),
        [
            ({"re": frozenset({0})}, "two players"),
            ({"game_type": "chess"}, "unknown game type"),
            ({"ouvert": True}, "only a solo"),
            ({"bock": 6}, "power of the Bock factor"),
            ({"rules": "ddv", "bock": 0}, "power of the Bock factor"),
            ({"ann": [(0, "re"), (2, "re")]}, "twice"),
            ({"ann": [(1, "re")]}, "cannot say"),
            ({"table_size": 6}, "table_size"),
        ],
    )
    def test_inconsistent_facts(self, kw: dict[str, object], message: str) -> None:
        with pytest.raises(ScoringError, match=message):
            score(neutral(121), **kw)

    def test_announcement_for_the_other_party(self) -> None:
        f = facts(neutral(121))
        wrong = Announcement(1, "re", "re")
        with pytest.raises(ScoringError, match="seat 1 plays kontra"):
            score_game(dataclasses.replace(f, announcements=(wrong,)))


# -- DDV (TSR 7) ------------------------------------------------------------------------------


def ddv(re_augen: int, **kw: object) -> GameScore:
    re = kw.pop("re", RE)
    layout = neutral(re_augen, pool=POOL48, re=re)  # type: ignore[arg-type]
    return score(layout, rules="ddv", re=re, **kw)


def party_points(value: int, re: frozenset[int] = RE) -> tuple[int, ...]:
    return tuple(value if s in re else -value for s in SEATS)


class TestDDV:
    def test_no_announcements(self) -> None:
        s = ddv(121)
        assert (s.winner, s.base, s.multiplier, s.points) == ("re", 1, 1, party_points(1))

    def test_120_kontra_wins_gegen_die_alten(self) -> None:
        s = ddv(120)
        assert s.winner == "kontra"
        assert s.extras == (ExtraPoint("kontra", "gegen_die_alten", None),)
        assert s.points == party_points(-2)  # won 1 + gegen die Alten 1
        assert not s.bock_trigger

    def test_announced_game_with_stage(self) -> None:
        # Re: re, no90; Kontra: kontra; Re 160 : 80.
        # won 1 + no90 played 1 + Re 2 + Kontra 2 + no90 announced 1 = 7.
        s = ddv(160, ann=[(0, "re"), (2, "no90"), (1, "kontra")])
        assert (s.winner, s.stages, s.base) == ("re", ("no90",), 7)
        assert s.points == (7, -7, 7, -7)

    def test_re_misses_its_no90(self) -> None:
        # Re 140 : Kontra 100: Kontra keeps 90 and wins (TSR 7.1.3).
        # won 1 + Re 2 + no90 announced 1 + gegen die Alten 1 = 5.
        s = ddv(140, ann=[(0, "no90")])
        assert (s.winner, s.points) == ("kontra", (-5, 5, -5, 5))

    def test_120_against_no90(self) -> None:
        # As above with Kontra 125: + 1 for 120 Augen against "no90" = 6.
        s = ddv(115, ann=[(0, "re"), (0, "no90")])
        assert (s.winner, s.points) == ("kontra", (-6, 6, -6, 6))

    def test_only_kontra_announced_re_wins_with_120(self) -> None:
        s = ddv(120, ann=[(3, "kontra")])
        assert (s.winner, s.points) == ("re", (3, -3, 3, -3))  # won 1 + Kontra 2

    def test_only_kontra_announced_kontra_needs_121(self) -> None:
        s = ddv(119, ann=[(3, "kontra")])
        assert (s.winner, s.points) == ("kontra", (-4, 4, -4, 4))  # 1 + 2 + gegen die Alten

    def test_both_announced_re_needs_121(self) -> None:
        s = ddv(120, ann=[(0, "re"), (1, "kontra")])
        assert (s.winner, s.points) == ("kontra", (-6, 6, -6, 6))  # 1 + 2 + 2 + 1

    def test_defence_against_no90_with_90(self) -> None:
        # Kontra: kontra, no90; Re keeps 90 and wins: 1 + 2 + 1 = 4.
        s = ddv(90, ann=[(1, "kontra"), (1, "no90")])
        assert (s.winner, s.points) == ("re", (4, -4, 4, -4))

    def test_kontra_makes_its_no90(self) -> None:
        # Re 89: Kontra wins 1 + no90 played 1 + 2 + 1 + gegen die Alten 1 = 6.
        s = ddv(89, ann=[(1, "kontra"), (1, "no90")])
        assert (s.winner, s.stages, s.points) == ("kontra", ("no90",), (-6, 6, -6, 6))

    def test_schwarz_announced_and_made(self) -> None:
        # won 1 + 4 stages + Re 2 + four Absagen 4 = 11.
        s = ddv(240, ann=[(0, "schwarz")])
        assert (s.winner, s.stages, s.points) == ("re", ALL_STAGES, (11, -11, 11, -11))

    def test_schwarz_announced_one_trick_defends(self) -> None:
        # Kontra takes the 10-Augen trick: won 1 + Re 2 + four Absagen 4 + gegen die Alten 1.
        s = ddv(230, ann=[(0, "schwarz")])
        assert s.augen == {"re": 230, "kontra": 10}
        assert (s.winner, s.points) == ("kontra", (-8, 8, -8, 8))

    def test_both_miss_nobody_wins(self) -> None:
        # Re no90, Kontra no90, 140 : 100: nobody reaches 151 (TSR 7.1.4). Only
        # Re's "120 against no90" scores: +1 Re.
        s = ddv(140, ann=[(0, "no90"), (1, "no90")])
        assert (s.winner, s.points) == ("re", (1, -1, 1, -1))
        assert any("nobody wins" in line for line in s.lines)

    def test_both_miss_with_a_stage(self) -> None:
        # Re no60 (181 needed), Kontra no90, 180 : 60: nobody wins; Re has
        # "no90 played" +1 and "120 against no90" +1 → Re +2.
        s = ddv(180, ann=[(0, "no60"), (1, "no90")])
        assert s.points == (2, -2, 2, -2)

    def test_sonderpunkte(self) -> None:
        # Re 151 with a Fuchs caught by Re (+1) and a Doppelkopf for Kontra (−1):
        # won 1 + no90 played 1 + 1 − 1 = 2.
        layout = neutral(151, pool=POOL48, re_tricks=[1], kontra_tricks=[3, 4])
        place(layout, 1, "KD AD 10C QS", winner=0)  # Kontra's Fuchs caught by Re
        # Swap Q♠ (trick 5) and A♣ (trick 4): trick 4 has 40 Augen, Kontra's.
        place(layout, 3, "10C AD AC AS", winner=1)
        place(layout, 4, "QS 9S JD QC", winner=1)
        s = score(layout, rules="ddv")
        assert s.augen == {"re": 151, "kontra": 89}
        assert s.extras == (
            ExtraPoint("re", "fuchs_gefangen", 2),
            ExtraPoint("kontra", "doppelkopf", 4),
        )
        assert s.points == (2, -2, 2, -2)

    def test_karlchen(self) -> None:
        layout = neutral(121, pool=POOL48, re_tricks=[11])
        place(layout, 11, "JC KD QH JC", winner=0)
        s = score(layout, rules="ddv")
        assert s.extras == (ExtraPoint("re", "karlchen", 12),)
        assert s.points == party_points(2)

    def test_no_house_extras_under_ddv(self) -> None:
        layout = neutral(121, pool=POOL48, re_tricks=[6])
        place(layout, 6, "9C 10S QC 10H", winner=0)  # Kontra's Dulle, not a DDV point
        assert score(layout, rules="ddv").extras == ()

    def test_solo_won(self) -> None:
        # Queens solo with "re": 185 : 55. won 1 + no90 1 + no60 1 + Re 2 = 5; × 3.
        s = ddv(185, re=SOLOIST, game_type="queens", trumps=QUEENS, ann=[(1, "re")])
        assert (s.winner, s.base, s.points) == ("re", 5, (-5, 15, -5, -5))
        assert s.extras == ()

    def test_solo_lost(self) -> None:
        # The soloist keeps 100: won 1 for the opponents, no gegen die Alten in a solo.
        s = ddv(100, re=SOLOIST, game_type="queens", trumps=QUEENS)
        assert (s.winner, s.points) == ("kontra", (1, -3, 1, 1))

    def test_solo_lost_against_kontra(self) -> None:
        # Soloist 29 (< 30), Kontra announced: 1 + 3 stages + Kontra 2 = 6.
        s = ddv(29, re=SOLOIST, game_type="jacks", ann=[(2, "kontra")])
        assert s.points == (6, -18, 6, 6)

    def test_ouvert_counts_as_schwarz_announced(self) -> None:
        # Option combination: ouvert = Absage schwarz (with Re, no90, no60, no30).
        # won 1 + 4 stages + Re 2 + four Absagen 4 = 11; soloist × 3.
        s = ddv(240, re=SOLOIST, game_type="queens", trumps=QUEENS, ouvert=True)
        assert s.points == (-11, 33, -11, -11)
        # One opponent trick of 10 Augen: won 1 + Re 2 + four Absagen 4 = 7.
        lost = ddv(230, re=SOLOIST, game_type="queens", trumps=QUEENS, ouvert=True)
        assert (lost.winner, lost.points) == ("kontra", (7, -21, 7, 7))

    def test_nullsolo(self) -> None:
        won = ddv(0, re=SOLOIST, game_type="null", trumps=frozenset())
        assert won.points == (-1, 3, -1, -1)
        lost = ddv(4, re=SOLOIST, game_type="null", trumps=frozenset(), ann=[(0, "kontra")])
        assert lost.points == (3, -9, 3, 3)  # won 1 + Kontra 2
        ouvert = ddv(0, re=SOLOIST, game_type="null", trumps=frozenset(), ouvert=True)
        assert (ouvert.multiplier, ouvert.points) == (2, (-2, 6, -2, -2))

    def test_armut_is_a_normal_game(self) -> None:
        assert ddv(120, game_type="armut").points == (-2, 2, -2, 2)

    def test_offender(self) -> None:
        # Kontra revoked: Re wins as if Kontra were schwarz: 1 + 4 stages = 5.
        s = ddv(100, offenders=[3])
        assert (s.winner, s.stages, s.points) == ("re", ALL_STAGES, (5, -5, 5, -5))

    def test_five_players(self) -> None:
        seats = (0, 1, 3, 4)
        layout = neutral(121, pool=POOL48, re=frozenset({1, 4}), seats=seats)
        s = score(layout, rules="ddv", re=frozenset({1, 4}), seats=seats, table_size=5)
        assert s.points == (-1, 1, 0, -1, 1)


# -- properties ----------------------------------------------------------------------------------


@st.composite
def random_games(draw: st.DrawFn, rules: str) -> GameFacts:
    nines = rules == "ddv"
    deck = draw(st.permutations(doppelkopf_deck(nines=nines)))
    table_size = draw(st.sampled_from([4, 5]))
    seats = tuple(s for s in range(table_size) if s != 4)  # seat 4 (if any) sits out
    solo = draw(st.booleans())
    if solo:
        re = frozenset({draw(st.sampled_from(seats))})
        game_type = draw(st.sampled_from(["trump", "queens", "jacks", "no_trump"]))
    else:
        re = frozenset(draw(st.permutations(seats))[:2])
        game_type = draw(st.sampled_from(["normal", "hochzeit", "armut"]))
    tricks = []
    for i in range(0, len(deck), 4):
        leader = draw(st.integers(0, 3))
        order = seats[leader:] + seats[:leader]
        tricks.append(ScoringTrick(order, tuple(deck[i : i + 4]), draw(st.sampled_from(order))))
    announcements = []
    for party in ("re", "kontra"):
        members = [s for s in seats if (s in re) == (party == "re")]
        if solo and rules == "house":
            top = draw(st.integers(-1, 0)) if party == "kontra" else -1
        else:
            top = draw(st.integers(-1, 4))
        words = [party, "no90", "no60", "no30", "schwarz"][: top + 1]
        for word in words:
            announcements.append(Announcement(draw(st.sampled_from(members)), party, word))  # type: ignore[arg-type]
    return GameFacts(
        rules=rules,  # type: ignore[arg-type]
        seats=seats,
        table_size=table_size,
        re_party=re,
        game_type=game_type,
        solo=solo,
        ouvert=solo and rules == "house" and draw(st.booleans()),
        announcements=tuple(announcements),
        tricks=tuple(tricks),
        trumps=NORMAL_TRUMPS_9 if nines else NORMAL_TRUMPS,
        scharfe_aces=False,
        bock_multiplier=draw(st.sampled_from([1, 2, 4])) if rules == "house" else 1,
    )


@settings(max_examples=150, deadline=None)
@given(random_games("house"))
def test_house_points_go_to_winners_only(f: GameFacts) -> None:
    s = score_game(f)
    assert sum(s.augen.values()) == 240
    winners = {seat for seat in f.seats if f.party_of(seat) == s.winner}
    if f.solo:
        (soloist,) = f.re_party
        assert all(p == 0 for seat, p in enumerate(s.points) if seat != soloist)
        assert (s.points[soloist] > 0) == (s.winner == "re")
    else:
        assert all(p == 0 for seat, p in enumerate(s.points) if seat not in winners)
        assert len({s.points[seat] for seat in winners}) == 1
    assert s.base * s.multiplier in s.points
    assert s.multiplier % f.bock_multiplier == 0


@settings(max_examples=150, deadline=None)
@given(random_games("ddv"))
def test_ddv_is_zero_sum(f: GameFacts) -> None:
    s = score_game(f)
    assert sum(s.points) == 0
    assert sum(s.augen.values()) == 240
    if f.solo:
        (soloist,) = f.re_party
        others = {s.points[seat] for seat in f.seats if seat != soloist}
        assert len(others) == 1 and s.points[soloist] == -3 * others.pop()
    else:
        for party in ("re", "kontra"):
            assert len({s.points[seat] for seat in f.seats if f.party_of(seat) == party}) == 1
    assert not s.bock_trigger and s.multiplier == 1


def test_to_dict() -> None:
    d = score(neutral(151), ann=[(0, "re")]).to_dict()
    assert d["points"] == [40, 0, 40, 0]
    assert d["augen"] == {"re": 151, "kontra": 89}
    assert d["stages"] == ["no90"] and d["winner"] == "re"


# -- DDV points with Böcke (option ``bock`` on a DDV-scored table) ----------------------


class TestDdvBoecke:
    def _score(self, re_augen: int, **kw: object) -> GameScore:
        triggers = kw.pop("triggers", frozenset({"lost_announcement", "lost_solo", "tie"}))
        f = facts(neutral(re_augen), rules="ddv", **kw)  # type: ignore[arg-type]
        return score_game(dataclasses.replace(f, bock_triggers=triggers))  # type: ignore[arg-type]

    def test_a_bock_game_doubles_the_ddv_points(self) -> None:
        # Re 151: won 1 + keine 90 1 = 2 each; under one Bock 4, under a Doppelbock 8.
        assert self._score(151).points == (2, -2, 2, -2)
        assert self._score(151, bock=2).points == (4, -4, 4, -4)
        s = self._score(151, bock=4)
        assert (s.multiplier, s.points) == (4, (8, -8, 8, -8))
        assert "Böcke: ×4." in s.lines
        # A Bock factor of 3 (a power of it).
        assert self._score(151, bock=3).points == (6, -6, 6, -6)

    def test_triggers_under_ddv(self) -> None:
        # Kontra said and lost: a lost announcement starts Böcke.
        lost = self._score(151, ann=[(1, "kontra")])
        assert lost.bock_trigger and "Bock: a lost announcement." in lost.lines
        # 120:120 (Kontra wins under the TSR too).
        assert self._score(120).bock_trigger
        assert not self._score(151).bock_trigger
        # Without triggers given, DDV scoring starts none (the DDV preset).
        f = facts(neutral(120), rules="ddv")
        assert not score_game(f).bock_trigger
        assert not self._score(120, triggers=frozenset()).bock_trigger

    def test_nobody_won_their_announcements_are_lost(self) -> None:
        # Re said keine 90 and has 140, Kontra said keine 90 too: both miss (TSR 7.1.4).
        s = self._score(140, ann=[(0, "re"), (0, "no90"), (1, "kontra"), (1, "no90")])
        assert s.bock_trigger


def test_a_ddv_session_with_boecke() -> None:
    """The score sheet of a DDV-scored session with Böcke doubles the next round."""
    options = DoppelkopfOptions.from_dict({"preset": "ddv", "bock": True, "bock_triggers": ["tie"]})
    match = DoppelkopfMatch(options, first_dealer=3, start=False, seed=3)
    assert match.sheet.bock
    match.sheet.record_points((1, -1, 1, -1), bock_trigger=True)
    deal = match.start_deal()
    assert deal.bock_multiplier == 2
    while not deal.is_over:
        match.apply(deal.legal_actions()[0])
    if deal.score is not None:
        assert deal.score.multiplier % 2 == 0
        assert sum(deal.score.points) == 0


# -- Re/Kontra double, the stages add (``announcement_value="re_doubles"``) -------------


class TestReDoubles:
    def _score(self, re_augen: int, rules: str = "house", **kw: object) -> GameScore:
        f = facts(neutral(re_augen), rules=rules, **kw)  # type: ignore[arg-type]
        return score_game(dataclasses.replace(f, announcement_value="re_doubles"))

    def test_house_scoring(self) -> None:
        # Re (seats 0, 2) says Re and keine 90 and wins with 151: 10 + 10 (U9) + 10
        # (keine 90 adds) = 30, ×2 for Re = 60.
        s = self._score(151, ann=[(0, "no90")])
        assert (s.base, s.multiplier, s.points) == (30, 2, (60, 0, 60, 0))
        # Kontra said Kontra too: ×4.
        s = self._score(151, ann=[(0, "no90"), (1, "kontra")])
        assert (s.base, s.multiplier, s.points) == (30, 4, (120, 0, 120, 0))
        # Without stages it is plain doubling.
        assert self._score(151, ann=[(0, "re")]).points == (40, 0, 40, 0)
        # A missed keine 90: Kontra wins 20 + 10 (the stage said) = 30, ×2 = 60.
        s = self._score(140, ann=[(0, "no90")])
        assert s.winner == "kontra" and s.points == (0, 60, 0, 60)

    def test_ddv_scoring(self) -> None:
        # 1 (won) + 1 (U9) + 1 (keine 90 adds) = 3, ×2 for Re: 6 each.
        s = self._score(151, "ddv", ann=[(0, "no90")])
        assert s.points == (6, -6, 6, -6)
        s = self._score(151, "ddv", ann=[(0, "no90"), (1, "kontra")])
        assert s.points == (12, -12, 12, -12)
        # The same words adding (the TSR): 1 + 1 + 2 (Re) + 1 (keine 90) + 2 (Kontra) = 7.
        f = facts(neutral(151), rules="ddv", ann=[(0, "no90"), (1, "kontra")])
        assert score_game(f).points == (7, -7, 7, -7)

    def test_house_solo(self) -> None:
        # A house solo has no stages to announce: Kontra doubles as ever (250 × 2).
        f = facts(
            neutral(151, re=frozenset({0})),
            re=frozenset({0}),
            game_type="queens",
            ann=[(1, "kontra")],
        )
        s = score_game(dataclasses.replace(f, announcement_value="re_doubles"))
        assert (s.base, s.multiplier, s.points) == (250, 2, (500, 0, 0, 0))
