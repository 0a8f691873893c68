"""The largest score one deal can give a seat, computed from the rules and options.

OpenSpiel asks every game for its utility bounds (``min_utility``,
``max_utility``): every return of a finished game must lie between them, and
algorithms scale by them (regret bounds, value normalisation), so a bound far
above any real score makes them slow; a bound below one is wrong. These are
bounds computed from the score formulas, term by term, each term at its
largest under the options (docs/ecosystem.md, *Utility bounds*, walks through
them). They are sound — no deal scores beyond them — and not always reached,
since not every largest term can occur in the same deal.

>>> slobberhannes_bounds(SlobberhannesOptions())
(-4, 0)
>>> doppelkopf_bounds(DoppelkopfOptions())
(-194560, 194560)
>>> doppelkopf_bounds(DoppelkopfOptions.from_dict({"preset": "ddv"}))
(-87, 87)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kartentisch.games.doppelkopf import DoppelkopfOptions
from kartentisch.games.slobberhannes import SlobberhannesOptions

__all__ = ["EXTRA_POINTS_MAX", "doppelkopf_bounds", "slobberhannes_bounds"]

#: How often each extra point (Sonderpunkt) can be scored in one game at most:
#: two foxes (♦A) and two Dullen (♥10) to catch, two Karlchen (♣J) in the last
#: trick, six tricks of 40 Augen or more (240 Augen in all), and the last-trick
#: points and Gegen die Alten once.
EXTRA_POINTS_MAX: Final[Mapping[str, int]] = {
    "fuchs_gefangen": 2,
    "fuchs_letzter_stich": 1,
    "dulle_gefangen": 2,
    "karlchen": 1,
    "karlchen_gefangen": 2,
    "doppelkopf": 6,
    "gegen_die_alten": 1,
}
#: Rot geht rum as an extra point: a trick of four plain hearts (at most 8 of
#: them: A, K, 9 and, without the Dullen, 10, two of each) — two tricks at most.
_RED_TRICKS_MAX: Final = 2
#: The four stages (keine 90, 60, 30, schwarz).
_STAGES: Final = 4


def slobberhannes_bounds(options: SlobberhannesOptions) -> tuple[int, int]:
    """(lowest, highest) score of a seat: minus the chips it can pay in one deal.

    A seat pays at most the three chips of the deal (the first trick, the trick
    with Q♣, the last trick), one more for taking all three (``all_three_bonus``)
    and, with ``revokes: "penalty"``, one for each revoke: at most one per trick
    but the last (a single card left cannot revoke). Nobody gains: the highest
    score is 0.
    """
    chips = 3 + int(options.all_three_bonus)
    if options.revokes == "penalty":
        chips += options.hand_size - 1
    return -chips, 0


def _extras(options: DoppelkopfOptions) -> int:
    """The most extra points one party can score in a game that is not a solo."""
    total = sum(EXTRA_POINTS_MAX.get(kind, 0) for kind in set(options.sonderpunkte))
    if options.scoring == "house" and options.rot_geht_rum == "extra_point":
        total += _RED_TRICKS_MAX
    return total


def doppelkopf_bounds(options: DoppelkopfOptions) -> tuple[int, int]:
    """(lowest, highest) score of a seat in one deal (symmetric: ``(-m, m)``).

    ``m`` is the largest value a game can have, times what a seat can write of
    it. Announcements double (``announcement_value``: ``double``, all ten words
    of both parties; ``re_doubles``, Re and Kontra) or add. House scoring
    (``scoring: "house"``): a normal game is worth (20 for Kontra's win + 10 per
    stage + 10 per extra point + the added announcements) × the doublings; a
    solo 1000 at most (a lost Trumpfsolo, the silent one too) + extra points
    (``solo_sonderpunkte``) + Kontra's 20 if added, × 2 ouvert × 2 for
    Kontra (the only word in a house solo). DDV scoring: 1 for the win + 8
    stages (both parties' when nobody wins) + the added announcements (Re and
    Kontra 2, each stage 1) + 8 points against announced stages + the extra
    points (in a solo only with ``solo_sonderpunkte``), × 2 for an ouvert
    Nullsolo × the doublings. A seat writes the value once, a soloist the
    solo's value three times under DDV scoring and with ``counting:
    "zero_sum"``, ``solo_factor`` times with ``winners`` / ``losers``. A deal
    starts without Bock (× 1).
    """
    rule = options.announcement_value
    doublings = {"double": 10, "re_doubles": 2, "add": 0}[rule]
    extras = _extras(options)
    solo_extras = extras if options.solo_sonderpunkte else 0
    solo_times = {"scoring": 1, "zero_sum": 3}.get(options.counting, options.solo_factor)
    if options.scoring == "house":
        added = {"double": 0, "re_doubles": 10 * 2 * _STAGES, "add": 20 * 2 + 10 * 2 * _STAGES}
        normal = (20 + 10 * _STAGES + 10 * extras + added[rule]) * 2**doublings
        kontra_adds = 20 if rule == "add" else 0
        solo = (1000 + 10 * solo_extras + kontra_adds) * (2 if options.ouvert else 1)
        solo *= 1 if rule == "add" else 2
    else:
        added_ddv = {"double": 0, "re_doubles": 2 * _STAGES, "add": 2 * 2 + 2 * _STAGES}
        points = 1 + 2 * _STAGES + added_ddv[rule] + 2 * _STAGES
        null_ouvert = options.ouvert and "null" in options.soli
        normal = (points + extras) * 2**doublings
        solo = (points + solo_extras) * (2 if null_ouvert else 1) * 2**doublings
        if options.counting == "scoring":
            solo_times = 3
    value = max(normal, solo * solo_times)
    return -value, value
