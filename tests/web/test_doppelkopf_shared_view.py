"""Doppelkopf's views, the shared members made once per version: the same as before.

Every seat's :meth:`~DoppelkopfTable.view` and :meth:`~DoppelkopfTable.encoded_view`
at every version of seeded sessions (house rules, DDV with pigs, table mode, five at
the table; Armut, Hochzeit, silent and declared solos, announcements out of turn) is
held to the view made the way it was made before (:func:`reference_view`): each
seat's members from its whole observation, ``engine observation(seat)``; the
spectator's from the observation of a seat that holds no secret but its hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

from kartentisch.games.doppelkopf.actions import ANNOUNCEMENTS
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.web.adapter import table_game_type
from kartentisch.web.games.doppelkopf import DoppelkopfTable

KIND = table_game_type("doppelkopf")
NAMES = ["Ann", "Ben", "Cyd", "Dora", "Eve"]

#: (players, options) of the sessions.
SESSIONS: list[tuple[int, dict[str, Any]]] = [
    (4, {"games": 12}),
    (4, {"preset": "ddv", "schweinchen": "first_played", "games": 6}),
    (4, {"preset": "ddv", "schweinchen": "announced", "ouvert": True, "games": 5}),
    (4, {"table_mode": True, "schweinchen": "first_played", "games": 5}),
    (5, {"games": 10}),
    (5, {"preset": "ddv", "schweinchen": "first_played", "games": 6}),
]

#: The members a view takes from the table, not from the observation.
TABLE_MEMBERS = ("question", "answer", "auto", "bock", "sheet", "deals", "options", "result")


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def public_observation(game: DoppelkopfTable) -> DoppelkopfObservation:
    """The spectator's observation as it was: that of a seat with no secret but its hand."""
    deal = game.match.deal
    first = deal.observation(0)
    pair = {first.armut, first.armut_partner}
    for seat in first.playing:
        obs = deal.observation(seat)
        if seat not in pair and obs.soloist != seat:
            return obs
    raise AssertionError("every playing seat holds a secret")


def reference_view(game: DoppelkopfTable, seat: int | None, view: dict[str, Any]) -> dict[str, Any]:
    """The view as it was made before: the observation's members from the whole
    observation of ``seat`` (those of the table, :data:`TABLE_MEMBERS`, from ``view``)."""
    match = game.match
    deal = match.deal
    options = match.options
    sheet = match.sheet
    over = game.is_over
    obs = deal.observation(seat) if seat is not None else public_observation(game)
    mine = seat is not None
    n = options.players
    armut = None
    if obs.armut is not None:
        armut = {
            "seat": obs.armut,
            "partner": obs.armut_partner,
            "direction": obs.armut_direction or None,
            "trumps": obs.armut_trumps,
            "returned_trumps": obs.armut_returned_trumps,
            "size": max(3, obs.armut_trumps),
            "cards": _cards(obs.armut_cards) if mine else [],
            "returned": _cards(obs.armut_returned) if mine else [],
        }
    hochzeit = None
    if obs.hochzeit is not None:
        hochzeit = {
            "seat": obs.hochzeit,
            "rule": obs.hochzeit_rule or "first_trick",
            "partner": obs.hochzeit_partner,
        }
    return {
        "game": "doppelkopf",
        "seat": seat,
        "players": n,
        "names": list(game.names),
        "version": game.version,
        "deal_number": len(match.history),
        "game_number": min(sheet.games_played + (0 if deal.is_over else 1), game.games),
        "games": game.games,
        "dealer": obs.dealer,
        "playing": list(obs.playing),
        "phase": obs.phase,
        "declaration_round": obs.declaration_round,
        "question": view["question"],
        "answer": view["answer"],
        "auto": view["auto"],
        "to_move": None if over else obs.to_move,
        "hand": _cards(obs.hand) if mine else None,
        "legal": [str(a) for a in obs.legal_actions] if mine and not over else [],
        "hand_sizes": list(obs.hand_sizes),
        "trumps": _cards(obs.trumps),
        "declarations": [{"seat": s, "call": c} for s, c in obs.declarations],
        "game_type": obs.game_type,
        "ouvert": obs.ouvert,
        "soloist": obs.soloist,
        "open_hand": _cards(obs.open_hand),
        "hochzeit": hochzeit,
        "armut": armut,
        "scharfe": {"aces": obs.scharfe_aces, "kings": obs.scharfe_kings},
        "vorfuehrung": obs.vorfuehrung,
        "pigs": [{"seat": s, "kind": k} for s, k in obs.pigs],
        "trick": dict(obs.trick.to_dict()),
        "tricks": [dict(t.to_dict()) for t in obs.tricks],
        "trick_number": obs.trick_number,
        "tricks_per_deal": options.hand_size,
        "tricks_won": [sum(1 for t in obs.tricks if t.winner == s) for s in range(n)],
        "announcements": [
            {"seat": a.seat, "party": a.party, "word": a.word} for a in obs.announcements
        ],
        "party": obs.party if mine else None,
        "parties": [obs.revealed.get(s) for s in range(n)],
        "bock": view["bock"],
        "sheet": view["sheet"],
        "deals": view["deals"],
        "rules": {
            "preset": options.preset,
            "scoring": options.scoring,
            "declarations": options.declarations,
            "announcements": options.announcements,
            "hand_size": options.hand_size,
            "table_mode": options.table_mode,
        },
        "options": view["options"],
        "over": over,
        "result": view["result"],
    }


def choose(game: DoppelkopfTable, seat: int, rng: random.Random) -> str:
    """Random players who reach every game: Armut where they may, solos, Hochzeiten."""
    forced = game.forced_action(seat)
    if forced is not None:
        return forced
    legal = game.legal(seat)
    for call in legal:
        if call.startswith(("armut", "accept", "hochzeit")) and rng.random() < 0.8:
            return call
    if "vorbehalt" in legal:
        question = game.view(seat)["question"]
        wanted = any(r.startswith(("armut", "hochzeit")) for r in question["reservations"])
        return "vorbehalt" if rng.random() < (0.5 if wanted else 0.2) else "pass"
    if game.match.deal.phase == "declare":
        # A seat that may say Armut or Hochzeit in a later round keeps quiet now, and
        # solos are rare enough that the marriage round is often reached.
        question = game.view(seat)["question"] or {"reservations": []}
        later = any(r.startswith(("armut", "hochzeit")) for r in question["reservations"])
        solos = [a for a in legal if a.startswith("solo")]
        if solos and not later and rng.random() < 0.08:
            return rng.choice(solos)
        return "pass" if "pass" in legal else rng.choice(legal)
    return rng.choice(legal)


def check_version(game: DoppelkopfTable, rng: random.Random, counts: dict[str, int]) -> None:
    seats: list[int | None] = [*range(game.match.options.players), None]
    rng.shuffle(seats)  # (whichever view is made first makes the shared members)
    shared: dict[str, Any] | None = None
    for seat in seats:
        if rng.random() < 0.3:
            game.view(seat)
        view, text = game.encoded_view(seat)
        assert view == game.view(seat)
        assert text == json.dumps(view, ensure_ascii=False)
        reference = reference_view(game, seat, view)
        assert list(view) == list(reference)
        question = view["question"]
        if seat is None or game.is_over or game.match.deal.phase != "declare":
            assert (question, view["answer"], view["auto"]) == (None, None, False)
        else:
            assert view["auto"] == (game.forced_action(seat) is not None)
        public = {k: v for k, v in view.items() if k not in ("seat", "question", "answer")}
        public = {k: public[k] for k in ("bock", "sheet", "deals", "options", "result")}
        if shared is None:
            shared = public
        assert public == shared
        if seat is not None or view == reference:
            assert view == reference
            assert text == json.dumps(reference, ensure_ascii=False)
            counts["views"] += 1
            continue
        # The spectator's view is the public part: the seat it was once taken from may
        # have known of its own pigs, which the table had not been told of.
        differ = {k for k in view if view[k] != reference[k]}
        assert differ <= {"pigs", "trumps", "open_hand"}, differ
        deal = game.match.deal
        told = {(p["seat"], p["kind"]) for p in view["pigs"]}
        assert told < {(p["seat"], p["kind"]) for p in reference["pigs"]}
        assert told == {(s, k) for s, k in deal.pigs if k in deal.pigs_shown}
        counts["spectator_without_pigs"] += 1


def play_session(which: int, counts: dict[str, int]) -> set[str]:
    """Session ``which`` to its end, every version checked; the kinds of deal it had."""
    players, options = SESSIONS[which]
    rng = random.Random(1000 + which)
    game = KIND.create(KIND.normalize_options(options, seats=players), NAMES[:players], 40 + which)
    assert isinstance(game, DoppelkopfTable)
    check_version(game, rng, counts)
    while not game.is_over:
        if game.match.deal.phase == "play" and rng.random() < 0.1:
            other = rng.randrange(players)
            words = [a for a in game.legal(other) if a in ANNOUNCEMENTS]
            if words and other not in game.acting:
                game.act(other, rng.choice(words))  # an announcement out of turn
                check_version(game, rng, counts)
                continue
        seat = game.acting[0]
        game.act(seat, choose(game, seat, rng))
        check_version(game, rng, counts)
    seen: set[str] = set()
    for deal in game.match.deals:
        seen.add("silent solo" if deal.silent else deal.game_type)
        if deal.solo and not deal.silent:
            seen.add("declared solo")
        if deal.hochzeit_by is not None:
            seen.add("hochzeit")
        if deal.armut_by is not None:
            seen.add("armut")
        if deal.announcements:
            seen.add("announcement")
        if deal.pigs:
            seen.add("pigs")
    return seen


def test_views_as_before_at_every_version() -> None:
    counts = {"views": 0, "spectator_without_pigs": 0}
    seen: set[str] = set()
    for which in range(len(SESSIONS)):
        seen |= play_session(which, counts)
    assert counts["views"] > 1000
    # What the sessions are for: the games whose views differ most between the seats.
    wanted = {"normal", "silent solo", "declared solo", "hochzeit", "armut"}
    assert wanted | {"announcement", "pigs"} <= seen, (seen, counts)
