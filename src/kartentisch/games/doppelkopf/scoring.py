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
    ExtraPoint,
    GameFacts,
    GameScore,
    Party,
    ScoringError,
    ScoringTrick,
    Word,
    augen_of,
    other_party,
    prepare_game,
    stages_below,
    trick_augen,
)
from kartentisch.games.doppelkopf.scoring_base import PARTIES as PARTIES
from kartentisch.games.doppelkopf.scoring_base import RotGehtRum as RotGehtRum
from kartentisch.games.doppelkopf.scoring_base import Rules as Rules
from kartentisch.games.doppelkopf.scoring_ddv import score_ddv
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
    "ExtraPoint",
    "GameFacts",
    "GameScore",
    "Party",
    "ScoringError",
    "ScoringTrick",
    "Word",
    "augen_of",
    "bock_reasons",
    "other_party",
    "prepare_game",
    "score_game",
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
    return score_house(game) if game.house else score_ddv(game)
