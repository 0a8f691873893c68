"""The result of one Doppelkopf game: Augen, winner, stages, extra points, score.

Two score formulas (see docs/rules/doppelkopf-scoring.md for every rule and
its source):

* ``house`` — seed 003 § Punkte zählen, § Solo, § Böcke, § Zusätzliche
  Einnahmen, § Falsch bedient, with RULINGS.md § Doppelkopf: the winners of a
  normal game get (10 or 20 + 10 per stage ± 10 per extra point) × 2 per
  announcement × 2 per Bock; a solo is worth 250/500 (won) or −500/−1000
  (lost) to the soloist, × 2 ouvert, × 2 Kontra, × 2 per Bock. Losers get 0.
* ``ddv`` — the DDV Turnierspielregeln (TSR 7): plus/minus game points, the
  same value for every player of a party with opposite signs, a soloist
  three times (zero-sum).

The option ``counting`` then writes the value to the seats in another way:
``zero_sum`` (the losers pay the winners, a soloist ×3), ``winners`` (only the
winners write it) or ``losers`` (only the losers, as a debt); see
:func:`count_points`.

:func:`score_game` takes the facts of a finished game (who played which card
in which trick, who is Re, what was announced) and returns a
:class:`GameScore` with the points per seat and an explanation.

>>> from kartentisch.cards import Card, parse_cards
>>> augen_of(Card("AD")), augen_of(Card("9H")), trick_augen(parse_cards("AC 10C KC QC"))
(11, 0, 28)
>>> stages_below(89, 1), stages_below(0, 0), stages_below(120, 3)
(('no90',), ('no90', 'no60', 'no30', 'schwarz'), ())
"""

from __future__ import annotations

from kartentisch.games.doppelkopf.scoring_base import (
    AUGEN,
    BOCK_TRIGGERS,
    DDV_SONDERPUNKTE,
    EXTRA_NAMES,
    GAME_TYPES,
    HOUSE_BOCK_TRIGGERS,
    HOUSE_SONDERPUNKTE,
    NORMAL_GAME_TYPES,
    SOLO_GAME_TYPES,
    SONDERPUNKTE,
    STAGES,
    WORDS,
    Announcement,
    Counting,
    ExtraPoint,
    GameFacts,
    GameScore,
    Party,
    ScoringError,
    ScoringTrick,
    Word,
    augen_of,
    is_power,
    other_party,
    prepare_game,
    prepare_outcome,
    stages_below,
    trick_augen,
)
from kartentisch.games.doppelkopf.scoring_base import PARTIES as PARTIES
from kartentisch.games.doppelkopf.scoring_base import RotGehtRum as RotGehtRum
from kartentisch.games.doppelkopf.scoring_base import Rules as Rules
from kartentisch.games.doppelkopf.scoring_ddv import ddv_bock_reasons, score_ddv
from kartentisch.games.doppelkopf.scoring_house import bock_reasons, score_house

__all__ = [
    "AUGEN",
    "BOCK_TRIGGERS",
    "DDV_SONDERPUNKTE",
    "EXTRA_NAMES",
    "GAME_TYPES",
    "HOUSE_BOCK_TRIGGERS",
    "HOUSE_SONDERPUNKTE",
    "NORMAL_GAME_TYPES",
    "SOLO_GAME_TYPES",
    "SONDERPUNKTE",
    "STAGES",
    "WORDS",
    "Announcement",
    "Counting",
    "ExtraPoint",
    "GameFacts",
    "GameScore",
    "Party",
    "ScoringError",
    "ScoringTrick",
    "Word",
    "augen_of",
    "bock_reasons",
    "count_points",
    "ddv_bock_reasons",
    "is_power",
    "other_party",
    "prepare_game",
    "score_game",
    "score_outcome",
    "stages_below",
    "trick_augen",
]


def score_game(facts: GameFacts, *, complete: bool | None = None) -> GameScore:
    """Score a finished game by the house sheet or the DDV rules (``facts.rules``).

    Raises :class:`ScoringError` naming what is wrong when the facts are
    inconsistent (a card played three times, a trick without a seat, an
    announcement the rules do not have …). The engine, whose facts hold by
    construction, passes ``complete`` (whether every card was played) and the
    checks are skipped.
    """
    game = prepare_game(facts, complete)
    score = score_house(game) if game.house else score_ddv(game)
    return count_points(facts, score)


def score_outcome(facts: GameFacts, re_augen: int, re_tricks: int, kontra_tricks: int) -> GameScore:
    """Score the game of ``facts`` as if it ended with these totals (a search's view):
    ``facts.tricks`` are the tricks played so far and their extra points count; the
    rest of the deal is only its Augen and tricks per party. Not checked.

    >>> facts = GameFacts(
    ...     "house", (0, 1, 2, 3), 4, frozenset({0, 2}), "normal", False, False, (), (),
    ...     frozenset(), False,
    ... )
    >>> [score_outcome(facts, a, 5, 5).points for a in (121, 120, 59)]
    [(10, 0, 10, 0), (0, 20, 0, 20), (0, 40, 0, 40)]
    """
    game = prepare_outcome(facts, re_augen, re_tricks, kontra_tricks)
    score = score_house(game) if game.house else score_ddv(game)
    return count_points(facts, score)


def count_points(facts: GameFacts, score: GameScore) -> GameScore:
    """The score with its points written as ``facts.counting`` says.

    The unit is the value of one Re player against one Kontra player: under
    house scoring the winners' value (a solo: the soloist's figure, 250 or 500 won,
    −500 or −1000 lost, against each opponent), under DDV scoring a Re player's
    points. ``zero_sum``: Re ± the unit, Kontra ∓, a soloist three units.
    ``winners``: the side with the unit in its favour writes it, the other 0.
    ``losers``: the other side writes it as a debt, the winners 0. A soloist
    writes ``solo_factor`` units in those two. A seat sitting out keeps 0.

    >>> facts = GameFacts(
    ...     "ddv", (0, 1, 2, 3), 4, frozenset({0}), "queens", True, False, (), (), frozenset(),
    ...     False, counting="winners", solo_factor=2,
    ... )
    >>> won = GameScore({"re": 240, "kontra": 0}, "re", (), (), 1, 5, (15, -5, -5, -5), False, ())
    >>> count_points(facts, won).points
    (10, 0, 0, 0)
    >>> import dataclasses
    >>> count_points(dataclasses.replace(facts, counting="losers"), won).points
    (0, -5, -5, -5)
    """
    mode = facts.counting
    if mode == "scoring":
        return score
    if not 1 <= facts.solo_factor <= 3:
        raise ScoringError(f"solo_factor must be 1 to 3, not {facts.solo_factor}")
    unit = _re_unit(facts, score)
    points = [0] * facts.table_size
    for seat in facts.seats:
        re = seat in facts.re_party
        mine = unit if re else -unit
        times = 1
        if facts.solo and re:
            times = 3 if mode == "zero_sum" else facts.solo_factor
        favoured = (mode == "winners" and mine > 0) or (mode == "losers" and mine < 0)
        if mode == "zero_sum" or favoured:
            points[seat] = times * mine
    line = {
        "zero_sum": "zero-sum: the losers pay the winners",
        "winners": "the winners write their value, the losers 0",
        "losers": "the losers write their value as a debt, the winners 0",
    }[mode]
    detail = (
        f"; the soloist {3 if mode == 'zero_sum' else facts.solo_factor} × the unit"
        if facts.solo
        else ""
    )
    lines = (*score.lines, f"Counted {line} (unit {unit}{detail}): {list(points)}.")
    return GameScore(
        augen=score.augen,
        winner=score.winner,
        stages=score.stages,
        extras=score.extras,
        multiplier=score.multiplier,
        base=score.base,
        points=tuple(points),
        bock_trigger=score.bock_trigger,
        lines=lines,
    )


def _re_unit(facts: GameFacts, score: GameScore) -> int:
    """What one Re player gets from one Kontra player, by the formula's own points."""
    if facts.rules == "house":
        if facts.solo:
            (soloist,) = facts.re_party
            return score.points[soloist]
        winner = next(s for s in facts.seats if facts.party_of(s) == score.winner)
        value = score.points[winner]
        return value if score.winner == "re" else -value
    kontra = next((s for s in facts.seats if s not in facts.re_party), None)
    return 0 if kontra is None else -score.points[kontra]
