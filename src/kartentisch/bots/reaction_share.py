"""How often a person of median speed wins against reaction bots, through the real referee.

A simulated table of four: seat 0 is a scripted person on a network line,
seats 1–3 are :class:`~kartentisch.bots.reaction.ReactionBot` s of one
level. Everything a real-time web table does that decides who slapped first
is the real thing here: the engine (:class:`SlapjackGame`,
:class:`IrishSnapGame`), the fair-slap :class:`~kartentisch.realtime.referee.Referee`
(pings and pongs over the line, corrected arrivals, the collection window,
:func:`~kartentisch.realtime.referee.step`), and the bots' own decisions and
reaction times. The bots act as the web table's runner has them act: on the
server, ``delay_ms`` after the card was shown, not corrected. The person
sees the card after the line's down trip, reacts after a reaction time of
the median person (:data:`~kartentisch.bots.reaction.MEDIAN_HUMAN`, device
delay included), and the slap travels up the line; it is refused as the
runner refuses it (a card that has gone, the rules).

A **contested** slap is a card both the person and at least one bot slapped:
in Slapjack a jack (first slap wins the pile), in Irish Snap a match all
four had to slap (the last slap takes the pile). The person's fair share is
1/4 of the Slapjack piles won and 1/4 of the Irish Snap piles taken.

Every draw comes from seeded :class:`random.Random` objects; game time is the
simulation's own, so a run is the same on every machine.

>>> result = simulate_share("club", game="slapjack", contested=50, seed=1)
>>> result.contested, 0.0 <= result.share <= 1.0
(50, True)
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kartentisch.bots.reaction import (
    MEDIAN_HUMAN,
    ReactionBot,
    ReactionProfile,
    canonical_level,
    sample_reaction_ms,
)
from kartentisch.cards import Rank
from kartentisch.errors import IllegalActionError, KartentischError
from kartentisch.games.irish_snap.engine import CardTurned as SnapCardTurned
from kartentisch.games.irish_snap.engine import IrishSnapGame, PileTaken
from kartentisch.games.slapjack.engine import CardTurned as JackCardTurned
from kartentisch.games.slapjack.engine import PileWon, SlapjackGame
from kartentisch.realtime.actions import TimedAction
from kartentisch.realtime.referee import DEFAULT_MAX_RTT_MS, Referee

__all__ = ["GAMES", "Line", "ShareResult", "simulate_share", "wilson_interval"]

GAMES: Final = ("slapjack", "irish-snap")
PLAYERS: Final = 4
PERSON: Final = 0
#: The web table's pace: a card is turned no sooner than this after the last one.
PACE_MS: Final = 900
#: The web table's ping interval.
PING_MS: Final = 2000
#: A game that has not ended after this many cards is left (Slapjack can run long).
MAX_CARDS_PER_GAME: Final = 400


@dataclass(frozen=True, slots=True)
class Line:
    """The person's connection: each way ``rtt_ms / 2`` plus 0 … ``jitter_ms`` extra."""

    rtt_ms: int = 60
    jitter_ms: int = 10

    def down(self, rng: random.Random) -> int:
        return self.rtt_ms // 2 + rng.randint(0, self.jitter_ms)

    def up(self, rng: random.Random) -> int:
        return self.rtt_ms - self.rtt_ms // 2 + rng.randint(0, self.jitter_ms)


@dataclass
class ShareResult:
    """What one simulation measured."""

    game: str
    level: str
    #: Cards both the person and at least one bot slapped (see the module text).
    contested: int = 0
    #: Of those, the ones the person won (Slapjack) or lost (Irish Snap).
    person: int = 0
    #: Cards that should not be slapped, as each bot saw them, and its slaps on them.
    bot_quiet_cards: int = 0
    bot_false_slaps: int = 0
    person_quiet_cards: int = 0
    person_false_slaps: int = 0
    #: The person's slaps refused as too late (the card or pile had gone).
    person_late: int = 0
    cards: int = 0
    games: int = 0
    #: The person's corrected reaction times minus their true ones (line jitter), summed.
    jitter_total_ms: int = 0
    person_slaps: int = 0

    @property
    def share(self) -> float:
        """The person's share of contested slaps: piles won (Slapjack) or taken (Irish Snap)."""
        return self.person / self.contested if self.contested else math.nan

    @property
    def bot_false_rate(self) -> float:
        return self.bot_false_slaps / self.bot_quiet_cards if self.bot_quiet_cards else math.nan

    @property
    def person_false_rate(self) -> float:
        return (
            self.person_false_slaps / self.person_quiet_cards
            if self.person_quiet_cards
            else math.nan
        )

    @property
    def mean_jitter_ms(self) -> float:
        return self.jitter_total_ms / self.person_slaps if self.person_slaps else math.nan


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials.

    >>> [round(x, 3) for x in wilson_interval(25, 100)]
    [0.175, 0.343]
    """
    if n <= 0:
        raise ValueError("an interval needs at least one trial")
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class _Table:
    """One simulated game: an event queue in game ms, the engine and the referee."""

    def __init__(
        self,
        game: str,
        level: str,
        seed: int,
        line: Line,
        person: ReactionProfile,
        result: ShareResult,
        max_rtt_ms: int,
        wanted: int,
    ) -> None:
        rng = random.Random(seed)
        self.engine: SlapjackGame | IrishSnapGame
        if game == "slapjack":
            self.engine = SlapjackGame.from_seed(rng.getrandbits(64), options={"players": PLAYERS})
        else:
            self.engine = IrishSnapGame.from_seed(rng.getrandbits(64), options={"players": PLAYERS})
        self.referee = Referee(
            PLAYERS, max_rtt_ms=max_rtt_ms, rng=random.Random(rng.getrandbits(64))
        )
        self.line = line
        self.line_rng = random.Random(rng.getrandbits(64))
        # The person decides like a bot of the median profile: same misses and false slaps.
        self.person = ReactionBot("club", random.Random(rng.getrandbits(64)))
        self.person.profile = person
        self.person_rng = random.Random(rng.getrandbits(64))
        self.bots = {
            s: ReactionBot(level, random.Random(rng.getrandbits(64))) for s in range(1, PLAYERS)
        }
        self.result = result
        self.queue: list[tuple[int, int, str, int, int]] = []  # (time, seq, kind, seat, key)
        self.seq = 0
        self.now = 0
        self.key = self.engine.turned
        self.shown_at = 0
        #: Arrival seq -> the card (pile key) the action was made on.
        self.pending: dict[int, int] = {}
        #: Per card (pile key): who went for it (bots and the person), who won or took the pile.
        self.slappers: dict[int, set[int]] = {}
        self.winner: dict[int, int] = {}
        #: Per card: whether it counts (a jack or match with all four in), and whether to slap it.
        self.target: dict[int, bool] = {}
        self.turn_due: int | None = None
        self.turn_slot: tuple[int, int, int] | None = None
        #: Cards turned in this game; the run stops at ``wanted`` contested slaps.
        self.cards = 0
        self.wanted = wanted
        self.deadline_at: int | None = None

    # -- the queue -------------------------------------------------------------

    def at(self, t: int, kind: str, seat: int = 0, key: int = 0) -> None:
        heapq.heappush(self.queue, (t, self.seq, kind, seat, key))
        self.seq += 1

    def run(self) -> None:
        # The line is measured before the first card, as a page answers pings on hello.
        for k in range(5):
            self.at(k * 200, "ping")
        self.at(1000, "start")
        started = False
        while (
            not self.engine.is_over
            and self.cards < MAX_CARDS_PER_GAME
            and self.result.contested < self.wanted
        ):
            wake = [t for t in (self.referee.release_time(), self._deadline()) if t is not None]
            if self.queue:
                wake.append(self.queue[0][0])
            if started and self.turn_due is not None:
                wake.append(self.turn_due)
            if not wake:
                break
            self.now = max(self.now, min(wake))
            while self.queue and self.queue[0][0] <= self.now:
                _, _, kind, seat, key = heapq.heappop(self.queue)
                if kind == "start":
                    started = True
                    self._track()  # the first turn is timed
                else:
                    self._event(kind, seat, key)
            if started and self.turn_due is not None and self.now >= self.turn_due:
                self.turn_due = None
                mover = self.engine.to_move
                if mover is not None:
                    self._submit(mover, "turn", self.engine.turned, local=True)
            release = self.referee.release_time()
            deadline = self._deadline()
            if (release is not None and self.now >= release) or (
                deadline is not None and self.now >= deadline
            ):
                self._tick()  # only then can the game change
        self._settle(self.key)
        self.result.games += 1

    def _deadline(self) -> int | None:
        """When time alone changes the game (an Irish Snap time-out), plus the window."""
        return self.deadline_at

    def _find_deadline(self) -> int | None:
        engine = self.engine
        if engine.is_over or not isinstance(engine, IrishSnapGame) or not engine.match_open:
            return None
        deadline = engine.observation(0).deadline
        return None if deadline is None else deadline + self.referee.max_rtt_ms + 1

    # -- what happens ------------------------------------------------------------

    def _event(self, kind: str, seat: int, key: int) -> None:
        if kind == "ping":
            nonce = self.referee.ping(PERSON, self.now)
            back = self.now + self.line.down(self.line_rng) + self.line.up(self.line_rng)
            self.at(back, "pong", PERSON, int(nonce, 16))
            self.at(self.now + PING_MS, "ping")
        elif kind == "pong":
            self.referee.pong(PERSON, f"{key:016x}", self.now)
        elif kind == "bot_slap":
            self._submit(seat, "slap", key, local=True)
        elif kind == "person_slap":
            self._person_arrives(key)

    def _submit(self, seat: int, kind: str, key: int, *, local: bool) -> bool:
        if key != self.engine.turned:
            return False  # the card has gone (the runner's stale check)
        arrival = self.referee.submit(
            seat, "slap" if kind == "slap" else "turn", self.now, local=local
        )
        if arrival is None:
            return False
        self.pending[arrival.seq] = key
        return True

    def _person_arrives(self, key: int) -> None:
        """The person's slap reaches the server: the runner's :meth:`act` checks."""
        engine = self.engine
        if engine.is_over:
            return
        if key != engine.turned:
            self.result.person_late += 1
            return
        try:
            engine.check(TimedAction(engine.next_time(PERSON), PERSON, "slap"), PERSON)
        except IllegalActionError as exc:
            if exc.rule == "empty_pile":
                self.result.person_late += 1
            return
        self._submit(PERSON, "slap", key, local=False)

    def _tick(self) -> None:
        """The runner's driver: release, apply (with the card check), let time run."""
        referee, engine = self.referee, self.engine
        ready = [a for a in referee.pending if self.now > a.corrected + referee.max_rtt_ms]
        released = referee.release(self.now)
        for arrival, action in zip(ready, released, strict=True):
            key = self.pending.pop(arrival.seq, None)
            if engine.is_over:
                break
            if key is not None and key != engine.turned:
                if action.seat == PERSON:
                    self.result.person_late += 1
                continue
            try:
                events = engine.apply(
                    TimedAction(
                        engine.next_time(action.seat, action.t),
                        action.seat,
                        action.type,
                        action.call,
                    )
                )
            except IllegalActionError as exc:
                if action.seat == PERSON and exc.rule == "empty_pile":
                    self.result.person_late += 1
                continue
            self._count(events)
        if not engine.is_over:
            self._count(engine.advance(referee.safe_time(self.now)))
        self._track()
        self.deadline_at = self._find_deadline()  # only a tick changes the game

    def _count(self, events: Sequence[object]) -> None:
        result = self.result
        for event in events:
            if isinstance(event, JackCardTurned | SnapCardTurned):
                result.cards += 1
                self.cards += 1
            elif isinstance(event, PileWon) or (
                isinstance(event, PileTaken) and event.reason in ("last_slap", "too_slow")
            ):
                # Slapjack: the first slap won the pile; Irish Snap: the last slap took it.
                self.winner[self.engine.turned] = event.seat

    def _settle(self, key: int) -> None:
        """The card ``key`` is over: count it if the person and a bot both went for it."""
        tried = self.slappers.pop(key, set())
        winner = self.winner.pop(key, None)
        if (
            not self.target.pop(key, False)
            or winner is None
            or self.result.contested >= self.wanted
        ):
            return
        if PERSON in tried and tried - {PERSON}:
            self.result.contested += 1
            self.result.person += winner == PERSON

    def _track(self) -> None:
        """A new card on top: every seat looks at it once; a new chance to turn is timed."""
        engine = self.engine
        if engine.is_over:
            return
        key = engine.turned
        if key != self.key:
            self._settle(self.key)
            self.key = key
            self.shown_at = self.now
            self._look(key)
        mover = engine.to_move
        slot = None if mover is None else (mover, engine.turned, len(engine.pile))
        if slot != self.turn_slot:
            self.turn_slot = slot
            self.turn_due = None
            if mover is not None:
                bot = self.bots.get(mover, self.person)
                earliest = self.shown_at + PACE_MS if key else 0
                self.turn_due = max(self.now + bot.turn_delay(), earliest)

    def _look(self, key: int) -> None:
        engine = self.engine
        if isinstance(engine, IrishSnapGame):
            slap_card = engine.match_open
            # A match all four must slap (nobody is safe yet): the fair share is 1/4.
            fair = slap_card and all(engine.observation(s).must_slap for s in range(PLAYERS))
        else:
            obs = engine.observation(PERSON)
            slap_card = obs.top is not None and obs.top.rank == Rank.JACK
            # A jack while all four are in: the fair share is 1/4.
            fair = slap_card and not any(obs.out)
        self.target[key] = fair
        target = slap_card
        result = self.result
        for seat, bot in self.bots.items():
            reaction = bot.react(engine.observation(seat))
            if not target:
                result.bot_quiet_cards += 1
                result.bot_false_slaps += reaction is not None
            if reaction is not None:
                self.slappers.setdefault(key, set()).add(seat)
                self.at(self.shown_at + reaction.delay_ms, "bot_slap", seat, key)
        reaction = self.person.react(engine.observation(PERSON))
        if not target:
            result.person_quiet_cards += 1
            result.person_false_slaps += reaction is not None
        if reaction is not None:
            down = self.line.down(self.line_rng)
            up = self.line.up(self.line_rng)
            rt = sample_reaction_ms(self.person.profile, self.person_rng)
            arrival = self.shown_at + down + rt + up
            rtt = self.referee.correction(PERSON, self.now)
            result.jitter_total_ms += down + up - rtt
            result.person_slaps += 1
            self.slappers.setdefault(key, set()).add(PERSON)
            self.at(arrival, "person_slap", PERSON, key)


def simulate_share(
    level: str,
    *,
    game: str = "slapjack",
    contested: int = 2000,
    seed: int = 0,
    line: Line | None = None,
    person: ReactionProfile = MEDIAN_HUMAN,
    max_rtt_ms: int = DEFAULT_MAX_RTT_MS,
) -> ShareResult:
    """Play games (seeds drawn from ``seed``) until ``contested`` slaps were contested.

    The person (seat 0) reacts like ``person`` over ``line``; three bots of
    ``level`` hold the other seats.
    """
    if game not in GAMES:
        raise KartentischError(f"the reaction simulation plays {', '.join(GAMES)}, not {game!r}")
    level = canonical_level(level)
    if contested < 1:
        raise KartentischError("the simulation needs at least one contested slap")
    result = ShareResult(game, level)
    seeds = random.Random(seed)
    line = line or Line()
    while result.contested < contested:
        table = _Table(
            game, level, seeds.getrandbits(64), line, person, result, max_rtt_ms, contested
        )
        table.run()
        if result.games > 100_000:  # pragma: no cover - a bug, not a slow run
            raise KartentischError("the simulation found too few contested slaps")
    return result
