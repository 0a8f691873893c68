"""A Doppelkopf game's value in words: who won and why, and what each seat gets.

:func:`explain_game` reads the facts of a finished game and the engine's score
of it (:func:`~kartentisch.games.doppelkopf.scoring.score_game`) and returns the
explanation as language-neutral lines ``{"key": ..., "params": {...}}``: the
keys are ``explain.*`` entries of the package's catalog, and
:func:`kartentisch.explain.render_lines` (the terminal, the server) and
``explainDeal`` in the page's ``static/explain.js`` write them in a language.
The values come from the score itself (winner, stages, extra points with their
tricks, multiplier, base, points); what the score does not carry (why a party
won, which announcements doubled, why Böcke follow) is read from the facts with
the rules of the two score formulas (seed 003, TSR 7; see
docs/rules/doppelkopf-scoring.md). The tests check on random games that the
items add up to the score's points.

>>> from kartentisch.games.doppelkopf.match import DoppelkopfMatch
>>> from kartentisch.explain import render_lines
>>> match = DoppelkopfMatch({"scoring": "house"}, seed=3)
>>> deal = match.deal
>>> while not deal.is_over:
...     _ = match.apply(deal.legal_actions()[0])
>>> lines = explain_deal(deal)
>>> lines[1]["key"], render_lines("en", lines, ["Ann", "Ben", "Cy", "Dee"])[0]
('explain.augen', 'Trump solo: Ben plays alone against Ann, Cy, Dee')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from kartentisch.cards import Suit
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.scoring import (
    PARTIES,
    GameFacts,
    GameScore,
    Party,
    bock_reasons,
    ddv_bock_reasons,
    prepare_game,
    stages_below,
)

__all__ = ["Line", "explain_deal", "explain_game", "explain_miese", "explain_redeal"]

#: One line of an explanation: a catalog key and its parameters.
Line = dict[str, Any]

_LIMIT: Final[Mapping[str, int]] = {"no90": 90, "no60": 60, "no30": 30}
_LEVEL_WORD: Final = ("re", "no90", "no60", "no30", "schwarz")
_WORD_LEVEL: Final[Mapping[str, int]] = {
    "re": 0,
    "kontra": 0,
    "no90": 1,
    "no60": 2,
    "no30": 3,
    "schwarz": 4,
}
#: DDV: Augen a party needs after announcing a stage, and to defeat the other's (TSR 7.1.2/3).
_TARGET: Final[Mapping[int, int]] = {1: 151, 2: 181, 3: 211}
_DEFENCE: Final[Mapping[int, int]] = {1: 90, 2: 60, 3: 30}
#: DDV: Augen "against" an announced stage for a point (TSR 7.2.2 e/f).
_AGAINST: Final[Mapping[int, int]] = {1: 120, 2: 90, 3: 60, 4: 30}


def _line(key: str, **params: Any) -> Line:
    return {"key": key, "params": params}


def _tx(key: str, **params: Any) -> dict[str, Any]:
    """A parameter that is itself a text of the catalog."""
    return {"t": key, "params": params} if params else {"t": key}


def _party(party: Party) -> dict[str, Any]:
    return _tx(f"dk.party.{party}")


def _seats(seats: Iterable[int]) -> dict[str, Any]:
    return {"seats": sorted(seats)}


def _signed(n: int) -> dict[str, Any]:
    return {"signed": n}


def _other(party: Party) -> Party:
    return "kontra" if party == "re" else "re"


def _word(party: Party, level: int) -> dict[str, Any]:
    word = party if level == 0 else _LEVEL_WORD[level]
    return _tx(f"dk.word.{word}")


class _Facts:
    """What the explanation reads from the facts: parties, Augen, tricks, announcements."""

    def __init__(self, facts: GameFacts, score: GameScore) -> None:
        self.facts = facts
        self.score = score
        self.parties: dict[int, Party] = {s: facts.party_of(s) for s in facts.seats}
        self.augen: dict[Party, int] = {p: score.augen[p] for p in PARTIES}
        self.tricks: dict[Party, int] = {p: 0 for p in PARTIES}
        for trick in facts.tricks:
            self.tricks[self.parties[trick.winner]] += 1
        explicit: dict[Party, set[int]] = {"re": set(), "kontra": set()}
        self.by: dict[Party, set[int]] = {"re": set(), "kontra": set()}
        for a in facts.announcements:
            explicit[a.party].add(_WORD_LEVEL[a.word])
            self.by[a.party].add(a.seat)
        self.announced: dict[Party, list[int]] = {
            p: list(range(max(explicit[p]) + 1)) if explicit[p] else [] for p in PARTIES
        }
        #: The levels the announcements named (an ouvert solo's schwarz not among them).
        self.declared: dict[Party, list[int]] = {p: list(v) for p, v in self.announced.items()}
        if facts.rules == "ddv" and facts.solo and facts.ouvert and facts.game_type != "null":
            self.announced["re"] = list(range(5))  # seed 003 § Soli: ouvert includes schwarz
        offending = {facts.party_of(s) for s in facts.offenders}
        self.offending: Party | None = offending.pop() if len(offending) == 1 else None
        self.complete = len(facts.tricks) * 4 in (40, 48)

    def missed(self, party: Party) -> bool:
        """Whether ``party`` announced a stage the other party did not fall below."""
        top = max(self.announced[party], default=0)
        if top == 0:
            return False
        o = _other(party)
        return _LEVEL_WORD[top] not in stages_below(self.augen[o], self.tricks[o])


def explain_game(facts: GameFacts, score: GameScore) -> list[Line]:
    """The lines that explain ``score``, the engine's score of ``facts``."""
    f = _Facts(facts, score)
    re = sorted(s for s, p in f.parties.items() if p == "re")
    kontra = sorted(s for s, p in f.parties.items() if p == "kontra")
    lines = [
        _line("explain.parties", re=_seats(re), kontra=_seats(kontra))
        if not facts.solo
        else _line(
            "explain.solo_game",
            game=_tx(f"dk.game.{facts.game_type}"),
            who=_seats(re),
            kontra=_seats(kontra),
        ),
        _line(
            "explain.augen",
            re=f.augen["re"],
            kontra=f.augen["kontra"],
            re_tricks=f.tricks["re"],
            kontra_tricks=f.tricks["kontra"],
        ),
    ]
    if facts.rules == "ddv":
        lines += _ddv(f)
    elif facts.solo:
        lines += _house_solo(f)
    else:
        lines += _house_normal(f)
    if facts.counting != "scoring":
        lines = _recounted(lines, facts, score)
    sitting = [s for s in range(facts.table_size) if s not in facts.seats]
    if sitting:
        lines.append(_line("explain.sat_out", who=_seats(sitting)))
    return lines


#: The lines in which a score formula writes its value to the seats.
_WRITTEN: Final = frozenset(
    {
        "explain.winners_get",
        "explain.losers_zero",
        "explain.soloist_gets",
        "explain.solo_opponents_zero",
        "explain.ddv.each",
        "explain.ddv.solo",
    }
)


def _recounted(lines: list[Line], facts: GameFacts, score: GameScore) -> list[Line]:
    """The formula's lines with what each seat writes under ``counting`` instead."""
    at = next((i for i, line in enumerate(lines) if line["key"] in _WRITTEN), len(lines))
    kept = [line for line in lines if line["key"] not in _WRITTEN]
    new = [_line(f"explain.counting.{facts.counting}")]
    soloist = next(iter(facts.re_party)) if facts.solo else None
    groups: dict[int, list[int]] = {}
    for seat in facts.seats:
        if seat != soloist:
            groups.setdefault(score.points[seat], []).append(seat)
    if soloist is not None:
        times = 3 if facts.counting == "zero_sum" else facts.solo_factor
        new.append(
            _line(
                "explain.counting.soloist",
                who=_seats([soloist]),
                times=times,
                value=_signed(score.points[soloist]),
            )
        )
    for points, seats in groups.items():
        new.append(_line("explain.counting.each", who=_seats(seats), value=_signed(points)))
    return kept[:at] + new + kept[at:]


def explain_deal(deal: DoppelkopfDeal) -> list[Line]:
    """The explanation of a finished deal: its score, or why it was thrown in."""
    if deal.outcome == "redeal":
        return explain_redeal(deal.redeal_reason or "misdeal", deal.redeal_by)
    score = deal.score
    if score is None:
        return []
    return explain_game(deal.facts(), score)


def explain_redeal(reason: str, seat: int | None) -> list[Line]:
    """A thrown-in deal: why, and that nobody scores."""
    who = _seats([seat]) if seat is not None else "—"
    return [
        _line(f"explain.redeal.{reason}", who=who),
        _line("explain.redeal.no_points"),
    ]


def explain_miese(dealer: int) -> list[Line]:
    """The 100 Miese of a dealer whose third deal in a row failed."""
    return [_line("explain.miese", who=_seats([dealer]))]


# -- the winner -----------------------------------------------------------------------


def _offended(f: _Facts, winner: Party) -> Line:
    assert f.offending is not None
    return _line(
        "explain.win.offended",
        party=_party(f.offending),
        who=_seats(f.facts.offenders),
        winner=_party(winner),
    )


def _basic_win(f: _Facts, winner: Party) -> Line:
    if f.augen["re"] == 120 and f.augen["kontra"] == 120:
        return _line("explain.win.tie")
    if winner == "re":
        return _line("explain.win.re", augen=f.augen["re"])
    return _line("explain.win.kontra", augen=f.augen["re"], kontra=f.augen["kontra"])


def _solo_win(f: _Facts, winner: Party) -> Line:
    facts = f.facts
    won = winner == "re"
    if facts.game_type == "null":
        key = "explain.win.null_won" if won else "explain.win.null_lost"
        return _line(key, n=f.tricks["re"])
    if facts.ouvert and facts.rules == "house":
        return _line("explain.win.ouvert_won" if won else "explain.win.ouvert_lost")
    return _line(
        "explain.win.solo_won" if won else "explain.win.solo_lost",
        augen=f.augen["re"],
    )


# -- house rules ----------------------------------------------------------------------


def _stage_lines(
    loser: Party, stages: Iterable[str], unit: int, party: Party, *, offence: bool = False
) -> list[Line]:
    out = []
    for stage in stages:
        if offence:  # an offending party counts as schwarz: every stage, whatever its Augen
            out.append(
                _line(
                    "explain.stage.offence",
                    loser=_party(loser),
                    stage=_tx(f"dk.stage.{stage}"),
                    party=_party(party),
                    points=_signed(unit),
                )
            )
        elif stage == "schwarz":
            out.append(
                _line(
                    "explain.stage.schwarz",
                    loser=_party(loser),
                    party=_party(party),
                    points=_signed(unit),
                )
            )
        else:
            out.append(
                _line(
                    "explain.stage.below",
                    loser=_party(loser),
                    limit=_LIMIT[stage],
                    stage=_tx(f"dk.stage.{stage}"),
                    party=_party(party),
                    points=_signed(unit),
                )
            )
    return out


def _extra_line(name: str, trick: int | None, party: Party, points: int) -> Line:
    extra = _tx(f"dk.extra.{name}")
    if trick is None:
        return _line("explain.extra_game", extra=extra, party=_party(party), points=_signed(points))
    return _line(
        "explain.extra",
        extra=extra,
        trick=trick,
        party=_party(party),
        points=_signed(points),
    )


def _added_lines(
    f: _Facts, winner: Party, unit: int, *, skip_solo_re: bool
) -> tuple[list[Line], int]:
    """Announcements that add: 2 × ``unit`` for Re or Kontra, ``unit`` for a stage, all
    for the winner (DDV scoring: unit 1; house scoring, ``announcement_value="add"``:
    10); the lines and the sum."""
    out = []
    total = 0
    doubles = f.facts.doubles
    for p in PARTIES:
        for level in f.announced[p]:
            if (skip_solo_re and p == "re" and level == 0) or doubles(level):
                continue
            points = (2 if level == 0 else 1) * unit
            total += points
            out.append(
                _line(
                    "explain.ddv.announced",
                    who=_seats(f.by[p]) if f.by[p] else _party(p),
                    word=_word(p, level),
                    party=_party(winner),
                    points=_signed(points),
                )
            )
    return out, total


def _announcement_lines(
    f: _Facts, *, skip_solo_re: bool, declared: bool = False
) -> tuple[list[Line], int]:
    """The announcements as doublings: the lines and the factor (``declared``: the
    levels named, without an ouvert solo's schwarz)."""
    out = []
    factor = 1
    for p in PARTIES:
        levels = f.declared[p] if declared else f.announced[p]
        if skip_solo_re and p == "re":
            levels = [lv for lv in levels if lv > 0]
        levels = [lv for lv in levels if f.facts.doubles(lv)]
        if not levels:
            continue
        times = 1 << len(levels)
        factor *= times
        out.append(
            _line(
                "explain.announced",
                party=_party(p),
                words={"list": [_word(p, lv) for lv in levels]},
                who=_seats(f.by[p]),
                factor=times,
            )
        )
    return out, factor


def _bock_lines(f: _Facts, winner: Party) -> list[Line]:
    facts = f.facts
    out: list[Line] = []
    if facts.bock_multiplier > 1:
        out.append(_line("explain.bock", m=facts.bock_multiplier))
    return out


def _bock_trigger(f: _Facts, winner: Party, nobody: bool = False) -> list[Line]:
    """Why this game brings Böcke (seed 003 § Böcke), when the score says it does
    (``nobody``: a DDV game that nobody won)."""
    if not f.score.bock_trigger:
        return []
    facts = f.facts
    game = prepare_game(facts)
    if facts.rules == "ddv":
        reasons = ddv_bock_reasons(game, winner, nobody, _red_tricks(facts))
    else:
        reasons = bock_reasons(game, winner, _red_tricks(facts))
    texts = {
        "lost_solo": "explain.bock_reason.lost_announcement",
        "lost_announcement": "explain.bock_reason.lost_announcement",
        "tie": "explain.bock_reason.tie",
        "schwarz": "explain.bock_reason.schwarz",
        "rot_geht_rum": "explain.bock_reason.rot_geht_rum",
    }
    said = [
        _tx("explain.bock_reason.missed", party=_party(winner)) if r == "missed" else _tx(texts[r])
        for r in reasons
    ]
    return [_line("explain.bock_trigger", reasons={"list": said})]


def _red_tricks(facts: GameFacts) -> int:
    return sum(
        1
        for t in facts.tricks
        if all(c.suit == Suit.HEARTS and c not in facts.trumps for c in t.cards)
    )


def _house_normal(f: _Facts) -> list[Line]:
    facts, score = f.facts, f.score
    winner: Party = score.winner
    loser = _other(winner)
    out: list[Line] = []
    if f.offending is not None:
        out.append(_offended(f, winner))
    else:
        missed = {p: f.missed(p) for p in PARTIES}
        for p in PARTIES:
            if missed[p]:
                top = max(f.announced[p])
                out.append(_line("explain.missed", party=_party(p), word=_word(p, top)))
        if missed["re"] != missed["kontra"]:
            out.append(_line("explain.win.by_missed", winner=_party(winner)))
        else:
            out.append(_basic_win(f, winner))
    game = 10 if winner == "re" else 20
    out.append(_line(f"explain.house.won_{winner}", points=game))
    out += _stage_lines(loser, score.stages, 10, winner, offence=f.offending is not None)
    if not score.stages:
        out.append(_line("explain.no_stages", loser=_party(loser)))
    for e in score.extras:
        out.append(_extra_line(e.name, e.trick, e.party, 10 if e.party == winner else -10))
    if not score.extras:
        out.append(_line("explain.no_extras"))
    added, _ = _added_lines(f, winner, 10, skip_solo_re=False)
    doubled, _ = _announcement_lines(f, skip_solo_re=False)
    if added:  # (the words that add: all of them, or the stages only)
        out += added
        out.append(_line("explain.base_sum", base=score.base))
    elif not facts.doubling:
        out.append(_line("explain.no_announcements"))
        out.append(_line("explain.base_sum", base=score.base))
    else:
        out.append(_line("explain.base", base=score.base))
    out += doubled
    if facts.doubling and not doubled and not added:
        out.append(_line("explain.no_announcements"))
    out += _bock_lines(f, winner)
    value = score.base * score.multiplier
    out.append(_line("explain.value", base=score.base, multiplier=score.multiplier, value=value))
    winners = [s for s in facts.seats if f.parties[s] == winner]
    losers = [s for s in facts.seats if f.parties[s] != winner]
    out.append(_line("explain.winners_get", who=_seats(winners), value=value))
    out.append(_line("explain.losers_zero", who=_seats(losers)))
    out += _bock_trigger(f, winner)
    return out


def _house_solo(f: _Facts) -> list[Line]:
    facts, score = f.facts, f.score
    winner: Party = score.winner
    out: list[Line] = []
    out.append(_offended(f, winner) if f.offending is not None else _solo_win(f, winner))
    key = "explain.solo.won" if winner == "re" else "explain.solo.lost"
    # Extra points (option solo_sonderpunkte): 10 each to the soloist's figure.
    net = 10 * (
        sum(1 for e in score.extras if e.party == "re")
        - sum(1 for e in score.extras if e.party == "kontra")
    )
    doubled, _ = _announcement_lines(f, skip_solo_re=True)
    said, added = _added_lines(f, winner, 10, skip_solo_re=True)
    with_extras = score.base - net
    game = with_extras - added if with_extras > 0 else with_extras + added
    out.append(_line(key, game=_tx(f"dk.game.{facts.game_type}"), points=game))
    for e in score.extras:
        out.append(_extra_line(e.name, e.trick, e.party, 10))
    if facts.ouvert:
        out.append(_line("explain.ouvert", factor=2))
    out += said
    if said:
        out.append(_line("explain.base_sum", base=score.base))
    out += doubled
    out += _bock_lines(f, winner)
    value = score.base * score.multiplier
    out.append(_line("explain.value", base=score.base, multiplier=score.multiplier, value=value))
    soloist = [s for s in facts.seats if f.parties[s] == "re"]
    others = [s for s in facts.seats if f.parties[s] == "kontra"]
    out.append(_line("explain.soloist_gets", who=_seats(soloist), value=value))
    out.append(_line("explain.solo_opponents_zero", who=_seats(others)))
    out += _bock_trigger(f, winner)
    return out


# -- DDV -------------------------------------------------------------------------------


def _ddv_goal(
    f: _Facts, party: Party, augen: Mapping[Party, int], won: Mapping[Party, int]
) -> tuple[Line, bool]:
    """What ``party`` needed to win (TSR 7.1.2 / 7.1.3) as a line, and whether it did."""
    o = _other(party)
    own_top = max(f.announced[party], default=0)
    their_top = max(f.announced[o], default=0)
    if own_top == 4:
        return _line("explain.ddv.goal_schwarz", party=_party(party)), won[o] == 0
    if own_top > 0:
        need = _TARGET[own_top]
    elif their_top == 4:
        line = _line("explain.ddv.goal_a_trick", party=_party(party), n=won[party])
        return line, won[party] > 0
    elif their_top > 0:
        need = _DEFENCE[their_top]
    else:
        said_own = 0 in f.announced[party]
        said_their = 0 in f.announced[o]
        if party == "re":
            need = 120 if said_their and not said_own else 121
        else:
            need = 121 if said_own and not said_their else 120
    line = _line("explain.ddv.goal", party=_party(party), augen=augen[party], need=need)
    return line, augen[party] >= need


def _ddv(f: _Facts) -> list[Line]:
    facts, score = f.facts, f.score
    out: list[Line] = []
    augen = dict(f.augen)
    won = dict(f.tricks)
    null = facts.game_type == "null"
    nobody = False
    if f.offending is not None:
        winner: Party = _other(f.offending)
        augen = {winner: 240, f.offending: 0}
        won = {winner: len(facts.tricks) or 1, f.offending: 0}
        out.append(_offended(f, winner))
    elif null:
        winner = score.winner
        out.append(_solo_win(f, winner))
    else:
        winner = score.winner
        goals = {p: _ddv_goal(f, p, augen, won) for p in PARTIES}
        nobody = not any(reached for _, reached in goals.values())
        if nobody:
            out += [goals["re"][0], goals["kontra"][0], _line("explain.ddv.nobody")]
        else:
            out.append(goals[winner][0])
            out.append(_line("explain.ddv.wins", party=_party(winner)))
    if not nobody:
        loser = _other(winner)
        out.append(_line("explain.ddv.won", party=_party(winner), points=_signed(1)))
        if not null:
            below = stages_below(augen[loser], won[loser])
            out += _stage_lines(loser, below, 1, winner, offence=f.offending is not None)
        # (the words that double: the value, below)
        out += _added_lines(f, winner, 1, skip_solo_re=False)[0]
    elif not null:
        for p in PARTIES:
            o = _other(p)
            out += _stage_lines(o, stages_below(augen[o], won[o]), 1, p)
    if not null:
        for p in PARTIES:
            o = _other(p)
            levels = f.announced[o]
            if facts.against_points == "highest":
                levels = levels[-1:]
            for level in levels:
                if level and augen[p] >= _AGAINST[level]:
                    out.append(
                        _line(
                            "explain.ddv.against",
                            party=_party(p),
                            augen=_AGAINST[level],
                            word=_word(o, level),
                            points=_signed(1),
                        )
                    )
    for e in score.extras:
        out.append(_extra_line(e.name, e.trick, e.party, 1))
    if not facts.solo and not score.extras:
        out.append(_line("explain.no_extras"))
    if facts.ouvert and null:
        out.append(_line("explain.ouvert", factor=2))
    if facts.doubling:
        said, _ = _announcement_lines(f, skip_solo_re=False, declared=True)
        out += said
    out += _bock_lines(f, winner)
    seats = facts.seats
    re_value = next(score.points[s] for s in seats if f.parties[s] == "kontra") * -1
    if facts.solo:
        soloist = [s for s in seats if f.parties[s] == "re"]
        out.append(
            _line(
                "explain.ddv.solo",
                who=_seats(soloist),
                value=_signed(re_value),
                total=_signed(3 * re_value),
                others=_signed(-re_value),
            )
        )
    else:
        out.append(_line("explain.ddv.each", re=_signed(re_value), kontra=_signed(-re_value)))
    out += _bock_trigger(f, winner, nobody)
    return out
