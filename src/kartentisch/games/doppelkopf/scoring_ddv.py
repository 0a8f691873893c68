"""The DDV score of a Doppelkopf game (``rules="ddv"``).

The DDV Turnierspielregeln (TSR 7): plus/minus game points, the same value for
every player of a party with opposite signs, a soloist three times (zero-sum).
See docs/rules/doppelkopf-scoring.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kartentisch.games.doppelkopf.scoring_base import (
    PARTIES,
    STAGES,
    CheckedGame,
    ExtraPoint,
    GameScore,
    Party,
    count_extras,
    extra_points,
    extras_line,
    other_party,
    seat_list,
    signed,
    stages_below,
)
from kartentisch.games.doppelkopf.scoring_house import bock_reasons, bock_text

#: Augen a party needs to win after announcing a stage (TSR 7.1.2/7.1.3 Nr. 5–7).
_TARGET: Final[Mapping[int, int]] = {1: 151, 2: 181, 3: 211}
#: Augen that defeat the opponents' announced stage (TSR 7.1.2/7.1.3 Nr. 9–11).
_DEFENCE: Final[Mapping[int, int]] = {1: 90, 2: 60, 3: 30}
#: Augen reached "against" an announced stage for a point (TSR 7.2.2 e/f).
_AGAINST: Final[Mapping[int, int]] = {1: 120, 2: 90, 3: 60, 4: 30}


# -- DDV (TSR 7) -------------------------------------------------------------------------


def _ddv_wins(
    g: CheckedGame, party: Party, augen: Mapping[Party, int], won: Mapping[Party, int]
) -> bool:
    """TSR 7.1.2 (Re) / 7.1.3 (Kontra): whether ``party`` reached its goal."""
    o = other_party(party)
    own_top = max(g.announced[party], default=0)
    their_top = max(g.announced[o], default=0)
    if own_top == 4:
        return won[o] == 0
    if own_top > 0:
        return augen[party] >= _TARGET[own_top]
    if their_top == 4:
        return won[party] > 0
    if their_top > 0:
        return augen[party] >= _DEFENCE[their_top]
    said_own = 0 in g.announced[party]
    said_their = 0 in g.announced[o]
    if party == "re":
        need = 120 if said_their and not said_own else 121
    else:
        need = 121 if said_own and not said_their else 120
    return augen[party] >= need


def against_levels(g: CheckedGame, party: Party) -> list[int]:
    """The announced levels of ``party`` the other party may score against: all of
    them, or its highest only (``against_points``)."""
    levels = sorted(g.announced[party])
    if g.facts.against_points == "highest":
        return levels[-1:]
    return levels


def ddv_bock_reasons(
    g: CheckedGame, winner: Party, nobody: bool, red_tricks: int
) -> tuple[str, ...]:
    """Why a game under DDV scoring starts Bock games (a table that adds Böcke to the
    DDV points, option ``bock``): the house triggers; when nobody won (TSR 7.1.4) both
    parties lost what they announced. Without triggers given (``bock_triggers`` None)
    DDV scoring starts none."""
    f = g.facts
    if f.bock_triggers is None or (not f.bock_triggers and f.rot_geht_rum != "bock"):
        return ()
    reasons = bock_reasons(g, winner, red_tricks)
    counts = "lost_announcement" in g.facts.counted_bock_triggers
    lost = "lost_announcement" in reasons or "lost_solo" in reasons
    if nobody and counts and not lost and g.announced[winner]:
        reasons = ("lost_announcement", *reasons)
    return reasons


def score_ddv(g: CheckedGame) -> GameScore:
    f = g.facts
    lines = [f"Augen: Re {g.augen['re']}, Kontra {g.augen['kontra']}."]
    # The Augen and tricks the result is judged on (an offending party counts as schwarz).
    augen: dict[Party, int] = dict(g.augen)
    won: dict[Party, int] = dict(g.tricks_won)
    winner: Party | None
    if g.offending is not None:
        winner = other_party(g.offending)
        augen = {winner: 240, g.offending: 0}
        won = {winner: len(f.tricks) or 1, g.offending: 0}
        lines.append(
            f"{g.offending.capitalize()} offended ({seat_list(f.offenders)}): it is scored as "
            f"schwarz and loses its extra points; {winner.capitalize()} wins "
            "(seed 003 § Falsch bedient, table mode)."
        )
    elif g.null:
        winner = "re" if won["re"] == 0 else "kontra"
        lines.append(
            "Nullsolo: the soloist "
            + ("took no trick and wins." if winner == "re" else "took a trick and loses.")
        )
    else:
        re_wins = _ddv_wins(g, "re", augen, won)
        kontra_wins = _ddv_wins(g, "kontra", augen, won)
        winner = "re" if re_wins else "kontra" if kontra_wins else None
        if winner is None:
            lines.append("Both parties missed their announced targets: nobody wins (TSR 7.1.4).")
        else:
            lines.append(f"{winner.capitalize()} wins (TSR 7.1.{2 if winner == 're' else 3}).")

    items: list[tuple[Party, int, str]] = []  # (party, points, what)
    stages: tuple[str, ...] = ()
    if winner is not None:
        loser = other_party(winner)
        items.append((winner, 1, "won"))
        if not g.null:
            stages = stages_below(augen[loser], won[loser])
        for stage in stages:
            items.append((winner, 1, f"stage {stage}"))
        for p in PARTIES:
            for level in sorted(g.announced[p]):
                if f.doubles(level):
                    continue  # it doubles the value instead (below)
                word = p if level == 0 else STAGES[level - 1]
                items.append((winner, 2 if level == 0 else 1, f"{p.capitalize()} announced {word}"))
    elif not g.null:
        for p in PARTIES:
            o = other_party(p)
            for stage in stages_below(augen[o], won[o]):
                items.append((p, 1, f"stage {stage}"))
        leader: Party = "re" if augen["re"] > augen["kontra"] else "kontra"
        stages = stages_below(augen[other_party(leader)], won[other_party(leader)])
    if not g.null:
        for p in PARTIES:
            o = other_party(p)
            for level in against_levels(g, o):
                if level and augen[p] >= _AGAINST[level]:
                    items.append((p, 1, f"{_AGAINST[level]} Augen against {STAGES[level - 1]}"))

    found, red_tricks = extra_points(g)
    extras = [e for e in found if e.party != g.offending]
    if not f.solo and winner == "kontra" and "gegen_die_alten" in f.counted_extras:
        extras.append(ExtraPoint("kontra", "gegen_die_alten", None))
    nobody = winner is None
    if winner is None:
        winner = "re" if augen["re"] > augen["kontra"] else "kontra"
    for p, pts, what in items:
        lines.append(f"{what[0].upper()}{what[1:]}: {signed(pts)} for {p.capitalize()}.")
    if not f.solo or f.solo_extras:
        lines.append(extras_line(extras, 1))

    re_value = sum(pts if p == "re" else -pts for p, pts, _ in items)
    re_value += count_extras(extras, "re") - count_extras(extras, "kontra")
    multiplier = 2 if f.ouvert and g.null else 1
    if multiplier == 2:
        lines.append("Ouvert Nullsolo: ×2 (seed 003 § Solo).")
    if f.doubling and g.doublings:
        multiplier <<= g.doublings
        each = "Re and Kontra" if f.value_rule == "re_doubles" else "Announcements"
        lines.append(f"{each}: ×2 each, ×{1 << g.doublings}.")
    if f.bock_multiplier > 1:
        multiplier *= f.bock_multiplier
        lines.append(f"Böcke: ×{f.bock_multiplier}.")
    base = re_value if winner == "re" else -re_value
    re_value *= multiplier
    points = [0] * f.table_size
    for s in f.seats:
        points[s] = re_value if f.party_of(s) == "re" else -re_value
    if f.solo:
        (soloist,) = f.re_party
        points[soloist] = 3 * re_value
        lines.append(
            f"Solo: the soloist (seat {soloist}) scores 3 × {signed(re_value)}, "
            f"each opponent {signed(-re_value)} (TSR 7.2.4)."
        )
    else:
        lines.append(f"Re {signed(re_value)} each, Kontra {signed(-re_value)} each.")
    reasons = ddv_bock_reasons(g, winner, nobody, red_tricks)
    if reasons:
        lines.append("Bock: " + bock_text(reasons, winner) + ".")
    return GameScore(
        augen=dict(g.augen),
        winner=winner,
        stages=stages,
        extras=tuple(extras),
        multiplier=multiplier,
        base=base,
        points=tuple(points),
        bock_trigger=bool(reasons),
        lines=tuple(lines),
    )
