"""The house-rule score of a Doppelkopf game (``rules="house"``).

Seed 003 § Punkte zählen, § Solo, § Böcke, § Zusätzliche Einnahmen, § Falsch
bedient, with RULINGS.md § Doppelkopf: the winners of a normal game get (10 or
20 + 10 per stage ± 10 per extra point) × 2 per announcement × 2 per Bock; a
solo is worth 250/500 (won) or −500/−1000 (lost) to the soloist, × 2 ouvert,
× 2 Kontra, × 2 per Bock. Losers get 0. See docs/rules/doppelkopf-scoring.md.
"""

from __future__ import annotations

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
    is_below,
    other_party,
    plural,
    seat_list,
    stages_below,
    term,
)

# -- house rules ---------------------------------------------------------------------


def _house_normal_winner(g: CheckedGame, lines: list[str]) -> Party:
    a = g.augen
    missed = {p: _missed(g, p) for p in PARTIES}
    basic: Party = "re" if a["re"] >= 121 else "kontra"
    for p in PARTIES:
        if missed[p]:
            top = STAGES[max(g.announced[p]) - 1]
            lines.append(f"{p.capitalize()} announced {top} and missed it.")
    if missed["re"] != missed["kontra"]:
        winner: Party = "kontra" if missed["re"] else "re"
        lines.append(
            f"{winner.capitalize()} wins: a party that misses a stage it announced loses "
            "(RULINGS: Gewinnansagen)."
        )
        return winner
    if a["re"] == 120:
        lines.append("120:120 (geteilter Arsch): Kontra wins (seed 003 § Wer hats gewonnen?).")
    else:
        lines.append(f"{basic.capitalize()} wins (Re needs 121 Augen).")
    return basic


def _missed(g: CheckedGame, party: Party) -> bool:
    levels = g.announced[party]
    top = max(levels, default=0)
    if top == 0:
        return False
    o = other_party(party)
    return not is_below(top, g.augen[o], g.tricks_won[o])


def _house_solo_winner(g: CheckedGame, lines: list[str]) -> Party:
    f = g.facts
    a, n = g.augen, g.tricks_won
    if g.null:
        won = n["re"] == 0
        lines.append(
            "Nullsolo: the soloist "
            + ("took no trick and wins." if won else f"took {plural(n['re'], 'trick')} and loses.")
        )
    elif f.ouvert:
        won = n["kontra"] == 0
        lines.append(
            "Ouvert includes Schwarz: the opponents "
            + ("took no trick, the soloist wins." if won else "took a trick, the soloist loses.")
        )
    else:
        won = a["re"] >= 121
        lines.append(
            "The soloist "
            + ("wins" if won else "loses")
            + " (121 Augen needed; at 120:120 the opponents win)."
        )
    return "re" if won else "kontra"


def score_house(g: CheckedGame) -> GameScore:
    f = g.facts
    lines = [f"Augen: Re {g.augen['re']}, Kontra {g.augen['kontra']}."]
    if g.offending is not None:
        winner = other_party(g.offending)
        lines.append(
            f"{g.offending.capitalize()} offended ({seat_list(f.offenders)}: falsch bedient / "
            f"falsche Ansage): it is schwarz and loses its extra points; "
            f"{winner.capitalize()} wins (seed 003 § Falsch bedient)."
        )
    elif f.solo:
        winner = _house_solo_winner(g, lines)
    else:
        winner = _house_normal_winner(g, lines)
    loser = other_party(winner)
    if f.solo:
        return _house_solo_value(g, winner, lines)

    if g.offending is not None:
        stages: tuple[str, ...] = STAGES
    else:
        stages = stages_below(g.augen[loser], g.tricks_won[loser])
    found, red_tricks = extra_points(g)
    if winner == "kontra" and "gegen_die_alten" in f.counted_extras:
        # Not on the sheet (its Kontra wins 20 instead of 10): a table's extra point.
        found.append(ExtraPoint("kontra", "gegen_die_alten", None))
    extras = tuple(e for e in found if e.party != g.offending)
    lines.append(
        f"Stages reached by {winner.capitalize()}: "
        + (", ".join(stages) + f" (+{10 * len(stages)})." if stages else "none.")
    )
    lines.append(extras_line(extras, 10))
    own, their = count_extras(extras, winner), count_extras(extras, loser)
    game = 10 if winner == "re" else 20
    base = game + 10 * len(stages) + 10 * (own - their)
    said = announced_points(g)
    lines.append(
        f"Base: {game} ({winner.capitalize()} wins) {term(10 * len(stages))} (stages) "
        f"{term(10 * (own - their))} (extra points {own}:{their})"
        + (f" {term(said)} (announcements)" if said else "")
        + f" = {base + said}."
    )
    base += said
    multiplier = (1 << g.doublings if f.doubling else 1) * f.bock_multiplier
    lines.append(_announcement_line(g))
    if f.bock_multiplier > 1:
        lines.append(f"Böcke: ×{f.bock_multiplier}.")
    value = base * multiplier
    points = [0] * f.table_size
    winners = [s for s in f.seats if f.party_of(s) == winner]
    for s in winners:
        points[s] = value
    lines.append(f"Value: {base} × {multiplier} = {value} to {seat_list(winners)}; losers 0.")
    bock, why = _house_bock(g, winner, red_tricks)
    if bock:
        lines.append("Bock: " + why + ".")
    return GameScore(
        augen=dict(g.augen),
        winner=winner,
        stages=stages,
        extras=extras,
        multiplier=multiplier,
        base=base,
        points=tuple(points),
        bock_trigger=bock,
        lines=tuple(lines),
    )


def announced_points(g: CheckedGame, skip_solo_re: bool = False) -> int:
    """Announcements that add instead of doubling: 20 for each Re or Kontra (the solo's
    own Re skipped when ``skip_solo_re``), 10 for each stage announced, the lower
    levels a word implies included (TSR 7.2.3, ×10); the levels that double count 0."""
    total = 0
    doubles = g.facts.doubles
    for p in PARTIES:
        for level in g.announced[p]:
            if not (skip_solo_re and p == "re" and level == 0) and not doubles(level):
                total += 20 if level == 0 else 10
    return total


def _announcement_line(g: CheckedGame) -> str:
    parts = []
    for p in PARTIES:
        levels = sorted(g.announced[p])
        if g.facts.solo and p == "re":
            levels = [lv for lv in levels if lv > 0]
        if levels:
            words = [p if lv == 0 else STAGES[lv - 1] for lv in levels]
            parts.append(f"{p.capitalize()} " + ", ".join(words))
    if not parts:
        return "Announcements: none" + (" (×1)." if g.facts.doubling else ".")
    if not g.facts.doubling:
        added = term(announced_points(g, skip_solo_re=g.facts.solo))
        return f"Announcements: {'; '.join(parts)}: +20 (Re, Kontra), +10 (a stage) each, {added}."
    if g.facts.value_rule == "re_doubles":
        added = term(announced_points(g, skip_solo_re=g.facts.solo))
        return (
            f"Announcements: {'; '.join(parts)}: Re and Kontra ×2 each, ×{(1 << g.doublings)}; "
            f"+10 for each stage, {added}."
        )
    return f"Announcements: {'; '.join(parts)}: ×2 each, ×{(1 << g.doublings)}."


def _house_solo_value(g: CheckedGame, winner: Party, lines: list[str]) -> GameScore:
    f = g.facts
    trump = f.game_type == "trump"
    name = "Trumpfsolo" if trump else "solo"
    base = (500 if trump else 250) if winner == "re" else (-1000 if trump else -500)
    lines.append(f"{name.capitalize()} {'won' if winner == 're' else 'lost'}: {base}.")
    # Extra points in a solo (option ``solo_sonderpunkte``): 10 each to the soloist's figure.
    found, _ = extra_points(g)
    extras = tuple(e for e in found if e.party != g.offending)
    if f.solo_extras and f.game_type != "null":
        net = count_extras(extras, "re") - count_extras(extras, "kontra")
        lines.append(extras_line(extras, 10))
        base += 10 * net
    doubled = 1 << g.doublings if f.doubling else 1
    said = announced_points(g, skip_solo_re=True)
    if said:
        # Added to the result's side: the winner's value grows, the loss deepens.
        base += said if base > 0 else -said
    multiplier = (2 if f.ouvert else 1) * doubled * f.bock_multiplier
    if f.ouvert:
        lines.append("Ouvert: ×2.")
    if g.doublings or said:
        lines.append(_announcement_line(g))
    if f.bock_multiplier > 1:
        lines.append(f"Böcke: ×{f.bock_multiplier}.")
    value = base * multiplier
    points = [0] * f.table_size
    (soloist,) = f.re_party
    points[soloist] = value
    lines.append(f"Value: {base} × {multiplier} = {value} to the soloist (seat {soloist}).")
    bock, why = _house_bock(g, winner, 0)
    if bock:
        lines.append("Bock: " + why + ".")
    return GameScore(
        augen=dict(g.augen),
        winner=winner,
        stages=(),
        extras=extras,
        multiplier=multiplier,
        base=base,
        points=tuple(points),
        bock_trigger=bock,
        lines=tuple(lines),
    )


def bock_reasons(g: CheckedGame, winner: Party, red_tricks: int) -> tuple[str, ...]:
    """Why the game starts Bock games (seed 003 § Böcke; option ``bock_triggers``).

    The codes, in this order: ``lost_solo`` (a solo lost: its implied Re),
    ``lost_announcement`` or ``missed`` (the winner missed its announced stage),
    ``tie`` (120:120), ``schwarz`` (a party took no trick), ``rot_geht_rum``.
    """
    f = g.facts
    kinds = f.counted_bock_triggers
    loser = other_party(winner)
    reasons: list[str] = []
    if "lost_solo" in kinds and f.solo and loser == "re":
        reasons.append("lost_solo")
    elif "lost_announcement" in kinds and g.announced[loser]:
        reasons.append("lost_announcement")
    elif "lost_announcement" in kinds and g.offending is None and _missed(g, winner):
        reasons.append("missed")
    if "tie" in kinds and g.offending is None and g.complete and g.augen["re"] == 120:
        reasons.append("tie")
    if "schwarz" in kinds and g.offending is None and g.complete and g.tricks_won[loser] == 0:
        reasons.append("schwarz")
    if red_tricks and f.rot_geht_rum == "bock" and not f.solo:
        reasons.append("rot_geht_rum")
    return tuple(reasons)


_REASON_TEXT: Final = {
    "lost_solo": "a lost announcement (the solo's Re)",
    "lost_announcement": "a lost announcement",
    "tie": "120:120",
    "schwarz": "schwarz",
    "rot_geht_rum": "Rot geht rum",
}


def bock_text(reasons: tuple[str, ...], winner: Party) -> str:
    """The reasons of :func:`bock_reasons` as English words."""
    texts = [
        f"{winner.capitalize()} missed its announced stage" if r == "missed" else _REASON_TEXT[r]
        for r in reasons
    ]
    return ", ".join(texts)


def _house_bock(g: CheckedGame, winner: Party, red_tricks: int) -> tuple[bool, str]:
    """Seed 003 § Böcke: a lost announcement, 120:120; options: more triggers."""
    reasons = bock_reasons(g, winner, red_tricks)
    return bool(reasons), bock_text(reasons, winner)
