"""Analysis and hints for the page, computed in a worker process.

**Analysis of a deal** (the replay viewer's and a table's "analyse this deal"):
:func:`deal_analysis` analyses one deal of a record for one seat
(:mod:`kartentisch.analysis`: each decision's cost against the best one,
solver-backed for the cards) and adds what the page draws: the value of the
position after each of the seat's decisions with every hand known (the
chart; where the line drops, the deal was lost) and the costliest decision.

**A hint** (:func:`hint`): the strong bot's choice for a seat of a table, with
a one-line reason in the person's language (the expected values behind a
card where the bot searched).

Both run in :class:`AnalysisPool`: a pool of worker processes (one by
default: the tables keep the other core), with a bounded queue and a bounded
time per job, so a table's play never waits for them. Every result depends
on the record and a fixed seed only.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kartentisch.analysis import ANALYSERS, analyze
from kartentisch.analysis.doppelkopf_turn import (
    BotView,
    answer_and_next,
    bot_view,
    estimate_and_next,
)
from kartentisch.bots import make_bot
from kartentisch.bots.doppelkopf_bidding import Estimates
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.cards import Card
from kartentisch.errors import KartentischError
from kartentisch.games import get_game
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.games.doppelkopf.question import Answer
from kartentisch.games.doppelkopf.text import answer_text, call_text
from kartentisch.i18n import card_text, translate
from kartentisch.records import ReplayError
from kartentisch.web.adapter import table_game_type
from kartentisch.web.games.doppelkopf import DoppelkopfTable
from kartentisch.web.seats import TableError

__all__ = [
    "ANALYSIS_SEED",
    "AnalysisPool",
    "PoolSettings",
    "deal_analysis",
    "hint",
]

log = logging.getLogger("kartentisch.web")

#: The seed of every analysis and hint: the same record gives the same answer.
ANALYSIS_SEED: Final = 0
#: Deals sampled per decision for the seat's information (fewer than the command's
#: default: a page waits for the answer).
WEB_SAMPLES: Final = {"slobberhannes": 24, "doppelkopf": 12}


@dataclass(frozen=True)
class PoolSettings:
    """How many workers, how many jobs may wait, how long one may take (seconds)."""

    workers: int = 1
    queued: int = 8
    seconds: float = 120.0


class AnalysisPool:
    """Worker processes for analyses and hints, started on first use."""

    def __init__(self, settings: PoolSettings | None = None) -> None:
        self.settings = settings or PoolSettings()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._waiting = 0

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            # Spawned, not forked: the server's threads and sockets stay in the server.
            context = multiprocessing.get_context("spawn")
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.settings.workers, mp_context=context
            )
        return self._executor

    async def run(self, job: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        """``job(*args)`` in a worker; ``analysis_busy`` (503) when too many wait,
        ``analysis_timeout`` (503) when it takes longer than the settings allow, and the
        job's own refusal (a ``TableError`` it answered as ``{"refused": …}``)."""
        if self._waiting >= self.settings.workers + self.settings.queued:
            raise TableError("analysis_busy", 503)
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._pool(), _refusing, job, *args)
            try:
                answer = await asyncio.wait_for(future, self.settings.seconds)
            except TimeoutError:
                log.warning(
                    "a job took longer than %g s: its worker is replaced", self.settings.seconds
                )
                self._replace()
                raise TableError("analysis_timeout", 503) from None
            except concurrent.futures.process.BrokenProcessPool:
                self._replace()
                raise TableError("analysis_busy", 503) from None
        finally:
            self._waiting -= 1
        refused = answer.get("refused")
        if isinstance(refused, dict):
            raise TableError(refused["code"], refused["status"], **refused["params"])
        return answer

    def _replace(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            for process in list(getattr(executor, "_processes", {}).values()):
                process.terminate()
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


# -- the jobs (module functions: they travel to the worker by name) -------------------------


def _refusing(job: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``job(*args)``, a refusal it raises answered as ``{"refused": …}`` (an exception
    with its own arguments does not travel back from a worker whole)."""
    try:
        return job(*args)
    except TableError as exc:
        params = {k: v for k, v in exc.params.items() if isinstance(v, (str, int, float))}
        return {"refused": {"code": exc.code, "status": exc.status, "params": params}}


def deal_analysis(record: dict[str, Any], deal: int, seat: int, lang: str) -> dict[str, Any]:
    """Deal ``deal`` of ``record`` analysed for ``seat``: the decisions, each with its
    line of text in ``lang``, the chart's values and the costliest decision.

    Raises :class:`TableError` (``bad_record``, ``no_analysis``) naming what is wrong.
    """
    game = record.get("game")
    if game not in ANALYSERS:
        raise TableError("no_analysis", game=str(game)[:40])
    try:
        replayed = get_game(str(game)).replay(record)
        analysis = analyze(
            str(game),
            replayed,
            seat=seat,
            seed=ANALYSIS_SEED,
            samples=WEB_SAMPLES[str(game)],
            deal=_counted(replayed, deal),
        )
    except ReplayError as exc:
        raise TableError("bad_record", detail=str(exc)) from None
    except KartentischError as exc:
        raise TableError("bad_analysis", detail=str(exc)) from None
    data = analysis.to_json()
    decisions: list[dict[str, Any]] = data["decisions"]
    lines = analysis.text(lang)
    for decision, line in zip(decisions, lines, strict=False):
        decision["text"] = line
    curve, worst = _curve(str(game), decisions)
    estimated = any(
        (d.get("full_information") or {}).get("method") == "estimate" for d in decisions
    )
    return {
        "game": game,
        "deal": deal,
        "seat": seat,
        "decisions": decisions,
        "totals": data.get("totals", {}).get(str(seat), data.get("totals", {}).get(seat)),
        "summary": lines[len(decisions) :],
        "curve": curve,
        "worst": worst,
        "unit": "penalties" if game == "slobberhannes" else "points",
        "estimated": estimated,
    }


def _counted(replayed: Any, deal: int) -> int:
    """The page's deal ``deal`` (the n-th deal dealt) as the analysis counts it: a
    Doppelkopf session's history counts a misdeal too (table mode)."""
    history = getattr(replayed, "history", None)
    deals = getattr(replayed, "deals", None)
    if history is None or not isinstance(deals, list) or not 1 <= deal <= len(deals):
        return deal
    target = deals[deal - 1]
    return next(i for i, entry in enumerate(history, start=1) if entry is target)


def _curve(
    game: str, decisions: Sequence[dict[str, Any]]
) -> tuple[list[dict[str, Any]], int | None]:
    """The seat's result with every hand known, before its first card and after each of
    its cards (higher is better for the seat), and the decision that cost the most."""
    curve: list[dict[str, Any]] = []
    worst: int | None = None
    worst_cost = 0.0
    for index, decision in enumerate(decisions):
        full = decision.get("full_information")
        if not full:
            continue
        played = decision["played"]
        if game == "slobberhannes":
            # The chips taken so far and those still to come with best play: the deal's.
            paid = float(decision.get("paid", 0))
            values = {card: -(paid + float(v)) for card, v in full["values"].items()}
        else:
            values = {card: float(v) for card, v in full["points"].items()}
        if played not in values:
            continue
        if not curve:
            curve.append(
                {"decision": None, "trick": decision["trick"], "value": max(values.values())}
            )
        curve.append({"decision": index, "trick": decision["trick"], "value": values[played]})
        cost = float(full.get("cost") or 0)
        if cost > worst_cost:
            worst, worst_cost = index, cost
    return curve, worst


def hint(
    game: str,
    options: dict[str, Any],
    names: list[str],
    seed: int,
    actions: list[tuple[int, str]],
    seat: int,
    lang: str,
) -> dict[str, Any]:
    """The strong bot's choice for ``seat`` of the table game these make, with a reason."""
    kind = table_game_type(game)
    table = kind.replay(options, names, seed, actions)
    # What the game does for a bot by itself (a Slobberhannes cut), if anything.
    automatic = getattr(table, "bot_action", None)
    done: str | None = automatic(seat) if automatic is not None else None
    if done is not None:
        return {"action": done, "reason": translate(lang, "hint.reason_rule")}
    observation = table.observation(seat)
    bot = make_bot(game, "strong", random.Random(seed * 31 + seat + 7))
    if game == "doppelkopf":
        assert isinstance(bot, StrongDoppelkopfBot) and isinstance(table, DoppelkopfTable)
        question = table.question(seat)
        if question is not None:
            # A person answers once for every declaration round: the bot weighs the
            # whole answer, not this round's declaration alone.
            answer = bot.answer(observation, question)
            return {
                "action": str(answer),
                "reason": _answer_reason(answer, bot.last_estimates, lang)
                or translate(lang, "hint.reason_gesund" if answer.gesund else "hint.reason_rule"),
            }
        # The choice and its reason from one look (the bot draws its deals once).
        view = bot_view(observation, bot)
        reason = _estimate_reason(view, lang) or _reason(game, bot, observation, view, lang)
        return {"action": table.format_action(view.choice), "reason": reason}
    choice = bot.choose(observation)
    text = table.format_action(choice)
    return {"action": text, "reason": _reason(game, bot, observation, choice, lang)}


def _estimate_reason(view: BotView, lang: str) -> str | None:
    """Why a Doppelkopf declaration, Armut answer or announcement: its estimated points
    and the next best choice's (None where the choice was not estimated)."""
    if isinstance(view.choice, Card):
        return None
    found = estimate_and_next(view.estimates, view.choice)
    if found is None:
        return None
    value, other, other_value = found
    return _estimated(
        lang, _choice_text(view.choice, lang), value, _choice_text(other, lang), other_value
    )


def _answer_reason(answer: Answer, estimates: Estimates, lang: str) -> str | None:
    """Why this answer to the declaration question: its estimated points and the next
    best answer's (None where there was nothing to weigh it against)."""
    found = answer_and_next(estimates, answer)
    if found is None:
        return None
    value, other, other_value = found
    return _estimated(lang, answer_text(answer, lang), value, answer_text(other, lang), other_value)


def _estimated(lang: str, chosen: str, value: float, other: str, other_value: float) -> str:
    """ "{chosen}: {value} points expected …; next best {other}: {other_value}." """
    return translate(
        lang,
        "hint.reason_estimate",
        action=chosen,
        value=f"{value:+.1f}",
        other=other,
        other_value=f"{other_value:+.1f}",
    )


def _choice_text(action: Action | None, lang: str) -> str:
    if action is None:
        return translate(lang, "hint.nothing")
    if isinstance(action, Card):
        return card_text(lang, action)
    return call_text(action, lang)


def _reason(game: str, bot: Any, observation: Any, choice: Any, lang: str) -> str:
    """One line on why: the expected values of the best and the next best card where the
    bot searched; otherwise what kind of choice it is. (Doppelkopf: ``choice`` is the
    bot's view.)"""
    expected: dict[Any, float] = {}
    if game == "slobberhannes":
        evaluate = getattr(bot, "evaluate", None)
        if evaluate is not None and len(observation.legal_actions) > 1:
            # Lower is better (penalty chips): shown as they are.
            expected = {c: -v for c, v in evaluate(observation).items()}
    elif game == "doppelkopf":
        view: BotView = choice
        if view.method == "early-kept":
            return translate(lang, "hint.reason_early_kept")
        expected = dict(view.expected)
        choice = view.choice
    ranked = sorted(expected.items(), key=lambda item: -item[1])
    if ranked and choice in expected and len(ranked) > 1:
        other = next(card for card, _ in ranked if card != choice)
        key = "hint.reason_penalties" if game == "slobberhannes" else "hint.reason_points"
        sign = -1.0 if game == "slobberhannes" else 1.0
        return translate(
            lang,
            key,
            card=card_text(lang, choice),
            value=f"{sign * expected[choice]:.2f}",
            other=card_text(lang, other),
            other_value=f"{sign * expected[other]:.2f}",
        )
    if len(observation.legal_actions) == 1:
        return translate(lang, "hint.reason_forced")
    return translate(lang, "hint.reason_rule")
