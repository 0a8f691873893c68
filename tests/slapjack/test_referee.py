"""The fair-slap referee with simulated connections of different latency and jitter."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.games.irish_snap.engine import IrishSnapGame, PileTaken
from kartentisch.games.slapjack.engine import PileWon, SlapjackGame
from kartentisch.realtime.actions import TimedAction
from kartentisch.realtime.base import TimedGame
from kartentisch.realtime.referee import LatencyTracker, Referee, apply_released, step


@dataclass
class Connection:
    """A client line: each direction takes rtt/2 plus up to ``jitter`` ms extra."""

    rtt: int
    jitter: int
    rng: random.Random
    #: A cheating client holds every pong back this long.
    pong_delay: int = 0

    def down(self) -> int:
        return self.rtt // 2 + self.rng.randint(0, self.jitter)

    def up(self) -> int:
        return self.rtt - self.rtt // 2 + self.rng.randint(0, self.jitter)


class Server:
    """Events in server time: pings, pongs and slaps, fed to the referee in time order."""

    def __init__(self, lines: list[Connection], referee: Referee) -> None:
        self.lines = lines
        self.referee = referee
        self.inbox: list[tuple[int, int, str, str]] = []  # (arrival, seat, kind, data)

    def measure(self, start: int, pings: int = 10, interval: int = 1000) -> int:
        for k in range(pings):
            sent = start + k * interval
            for seat, line in enumerate(self.lines):
                nonce = self.referee.ping(seat, sent)
                back = sent + line.down() + line.pong_delay + line.up()
                self.inbox.append((back, seat, "pong", nonce))
            self.deliver(sent + interval - 1)
        return start + pings * interval

    def slap(self, seat: int, shown: int, reaction: int) -> None:
        """The server shows a card at ``shown``; ``seat`` reacts in ``reaction`` ms."""
        line = self.lines[seat]
        arrival = shown + line.down() + reaction + line.up()
        self.inbox.append((arrival, seat, "slap", ""))

    def deliver(self, until: int) -> list[TimedAction]:
        self.inbox.sort()
        out: list[TimedAction] = []
        while self.inbox and self.inbox[0][0] <= until:
            at, seat, kind, data = self.inbox.pop(0)
            out.extend(self.referee.release(at))
            if kind == "pong":
                self.referee.pong(seat, data, at)
            else:
                self.referee.submit(seat, "slap", at)
        out.extend(self.referee.release(until))
        return out


def test_latency_is_the_rolling_minimum_of_recent_pongs() -> None:
    tracker = LatencyTracker(samples=3, max_age_ms=10_000)
    assert tracker.min_rtt(0) is None
    for now, rtt in [(0, 50), (1000, 80), (2000, 70)]:
        tracker.add(rtt, now)
    assert tracker.min_rtt(2000) == 50
    tracker.add(90, 3000)  # 50 leaves the window
    assert tracker.min_rtt(3000) == 70
    assert tracker.min_rtt(20_000) is None  # all too old


def test_unknown_late_and_repeated_pongs_are_ignored() -> None:
    ref = Referee(2, rng=random.Random(0), ping_timeout_ms=1000)
    nonce = ref.ping(0, 0)
    assert ref.pong(1, nonce, 10) is None  # another seat's nonce
    assert ref.pong(0, "0000000000000000", 10) is None  # never sent
    assert ref.pong(0, nonce, 40) == 40
    assert ref.pong(0, nonce, 50) is None  # answered already
    late = ref.ping(0, 100)
    assert ref.pong(0, late, 1200) is None  # after the time-out
    assert ref.bad_pongs == [3, 1]
    assert ref.rtt(0, 1200) == 40 and ref.rtt(1, 1200) is None
    assert ref.correction(1, 1200) == 0


def test_a_faster_hand_on_a_slower_connection_wins() -> None:
    lines = [
        Connection(20, 0, random.Random(1)),  # fast line, slower hand
        Connection(180, 0, random.Random(2)),  # slow line, faster hand
    ]
    ref = Referee(2, rng=random.Random(3))
    server = Server(lines, ref)
    t = server.measure(0)
    assert ref.rtt(0, t) == 20 and ref.rtt(1, t) == 180
    jack_at = t + 500
    server.slap(0, jack_at, 300)  # arrives jack + 320
    server.slap(1, jack_at, 250)  # arrives jack + 430
    released = server.deliver(jack_at + 2000)
    assert [(a.seat, a.t - jack_at) for a in released] == [(1, 250), (0, 300)]


def test_without_the_referee_the_fast_line_would_have_won() -> None:
    lines = [Connection(20, 0, random.Random(1)), Connection(180, 0, random.Random(2))]
    ref = Referee(2, max_rtt_ms=0, rng=random.Random(3))  # no correction at all
    server = Server(lines, ref)
    t = server.measure(0)
    server.slap(0, t, 300)
    server.slap(1, t, 250)
    assert [a.seat for a in server.deliver(t + 2000)] == [0, 1]


def test_end_to_end_the_engine_gives_the_jack_to_the_faster_hand() -> None:
    game = SlapjackGame.from_tops(["5C", "KD", "JS"], dealer=2)
    lines = [
        Connection(30, 5, random.Random(1)),
        Connection(150, 5, random.Random(2)),
        Connection(80, 5, random.Random(3)),
    ]
    ref = Referee(3, rng=random.Random(4))
    server = Server(lines, ref)
    t = server.measure(0)
    for seat in range(3):  # server-side turns, not corrected
        ref.submit(seat, "turn", t + 1000 * seat, local=True)
    jack_at = t + 2000
    results = apply_released(game, ref.release(jack_at + 201))
    assert all(not isinstance(r, Exception) for _, r in results)
    assert game.top is not None and str(game.top) == "JS"
    server.slap(0, jack_at, 330)
    server.slap(1, jack_at, 280)  # the fastest hand, on the slowest line
    server.slap(2, jack_at, 300)
    results = apply_released(game, server.deliver(jack_at + 3000))
    assert [a.seat for a, _ in results] == [1, 2, 0]
    won = [e for e in game.events if isinstance(e, PileWon)]
    assert [w.seat for w in won] == [1]
    # The later slaps were harmless (late), not false slaps.
    assert [type(r).__name__ if isinstance(r, Exception) else r[0].type for _, r in results] == [
        "pile_won",
        "late_slap",
        "late_slap",
    ]


def test_exact_ties_go_by_seat_order() -> None:
    ref = Referee(3, rng=random.Random(0))
    ref.submit(2, "slap", 100)
    ref.submit(0, "slap", 100)
    assert [str(a) for a in ref.release(301)] == ["100 s0 slap", "100 s2 slap"]


def test_flooding_is_dropped() -> None:
    ref = Referee(2, rng=random.Random(0))
    assert ref.submit(0, "slap", 10) is not None
    for k in range(50):
        assert ref.submit(0, "slap", 11 + k) is None
    assert ref.submit(0, "turn", 70) is not None
    assert ref.submit(0, "turn", 71) is None  # at most two waiting per seat
    assert ref.dropped == [51, 0]
    assert ref.submit(1, "slap", 72) is not None  # others are not affected
    assert len(ref.release(1000)) == 3
    assert ref.submit(0, "slap", 1001) is not None  # free again once released


def test_lying_about_latency_gains_at_most_the_cap() -> None:
    cap = 150
    honest = Connection(40, 0, random.Random(1))
    liar = Connection(40, 0, random.Random(2), pong_delay=1000)  # claims a huge rtt
    ref = Referee(2, max_rtt_ms=cap, rng=random.Random(3))
    server = Server([honest, liar], ref)
    t = server.measure(0)
    assert ref.correction(1, t) == cap
    server.slap(0, t, 300)
    server.slap(1, t, 300 + cap - 40 - 1)  # slower by just under its gain: wins
    server.slap(0, t + 5000, 300)
    server.slap(1, t + 5000, 300 + cap - 40 + 1)  # slower by more: loses
    released = server.deliver(t + 10_000)
    assert [a.seat for a in released] == [1, 0, 0, 1]


def test_clock_going_back_is_refused() -> None:
    ref = Referee(1, rng=random.Random(0))
    ref.submit(0, "slap", 100)
    try:
        ref.release(50)
    except ValueError as exc:
        assert "went back" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected a ValueError")


def test_flush_keeps_the_order() -> None:
    ref = Referee(2, rng=random.Random(0))
    ref.submit(1, "slap", 100)
    ref.submit(0, "slap", 120)
    assert ref.release_time() == 301
    assert [a.seat for a in ref.flush()] == [1, 0]
    assert ref.pending == () and ref.release_time() is None


@settings(max_examples=100, deadline=None)
@given(
    rtts=st.lists(st.integers(0, 200), min_size=2, max_size=6),
    jitter=st.integers(0, 30),
    reactions=st.data(),
    seed=st.integers(0, 2**16),
)
def test_property_the_faster_hand_wins_when_it_is_faster_by_more_than_the_jitter(
    rtts: list[int], jitter: int, reactions: st.DataObject, seed: int
) -> None:
    rng = random.Random(seed)
    lines = [Connection(r, jitter, random.Random(rng.random())) for r in rtts]
    ref = Referee(len(lines), max_rtt_ms=200 + 2 * jitter, rng=random.Random(seed))
    server = Server(lines, ref)
    t = server.measure(0, pings=12)
    hands = reactions.draw(
        st.lists(st.integers(150, 900), min_size=len(lines), max_size=len(lines))
    )
    for seat, reaction in enumerate(hands):
        server.slap(seat, t, reaction)
    released = server.deliver(t + 5000)
    assert len(released) == len(lines)
    times = [(a.t, a.seat) for a in released]
    assert times == sorted(times)  # released in order, never back in time
    position = {a.seat: i for i, a in enumerate(released)}
    for a in range(len(lines)):
        for b in range(len(lines)):
            if hands[a] + 2 * jitter < hands[b]:
                assert position[a] < position[b], (hands, rtts)


@settings(max_examples=100, deadline=None)
@given(
    arrivals=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 400), st.booleans()), max_size=40
    ),
    corrections=st.lists(st.integers(0, 400), min_size=6, max_size=6),
    cap=st.integers(0, 250),
)
def test_property_release_is_monotone_and_complete(
    arrivals: list[tuple[int, int, bool]], corrections: list[int], cap: int
) -> None:
    ref = Referee(6, max_rtt_ms=cap, rng=random.Random(0), max_pending_per_seat=100)
    # Give each seat a measured round trip.
    nonces = [ref.ping(seat, 0) for seat in range(6)]
    for rtt, seat in sorted((rtt, seat) for seat, rtt in enumerate(corrections)):
        ref.pong(seat, nonces[seat], rtt)
    now = 400
    out: list[TimedAction] = []
    accepted = 0
    for seat, gap, is_turn in arrivals:
        now += gap
        out.extend(ref.release(now))
        if ref.submit(seat, "turn" if is_turn else "slap", now) is not None:
            accepted += 1
        # every waiting action is corrected by at most the cap
        assert all(a.arrived - a.corrected <= cap for a in ref.pending)
    out.extend(ref.release(now + cap + 1))
    assert len(out) == accepted and ref.pending == ()
    keys = [(a.t, a.seat) for a in out]
    assert keys == sorted(keys)


def test_irish_snap_time_out_is_judged_in_corrected_time() -> None:
    game = IrishSnapGame.from_tops(["AC", "5D"], dealer=1, options={"slap_timeout_ms": 1000})
    lines = [Connection(20, 0, random.Random(1)), Connection(190, 0, random.Random(2))]
    ref = Referee(2, rng=random.Random(3))
    server = Server(lines, ref)
    t = server.measure(0)
    ref.submit(0, "turn", t, local=True)  # A♣ on "Ace": a match at game time t
    results, _ = step(game, ref, t + 201)
    assert game.match_open and results[0][0].t == t
    server.slap(0, t, 300)
    server.slap(1, t, 900)  # 0.9 s reaction: arrives at t + 1090, after the deadline
    for now in range(t + 202, t + 1600, 50):  # the server ticks every 50 ms
        for action, _ in server_deliver_and_step(server, game, now):
            assert action.seat in (0, 1)
    taken = [e for e in game.events if isinstance(e, PileTaken)]
    # Seat 1 slapped within the time-out in corrected time: last, not too slow.
    assert [(e.seat, e.reason) for e in taken] == [(1, "last_slap")]


def server_deliver_and_step(
    server: Server, game: TimedGame, now: int
) -> list[tuple[TimedAction, object]]:
    server.inbox.sort()
    while server.inbox and server.inbox[0][0] <= now:
        at, seat, kind, data = server.inbox.pop(0)
        if kind == "pong":
            server.referee.pong(seat, data, at)
        else:
            server.referee.submit(seat, "slap", at)
    results, _ = step(game, server.referee, now)
    return list(results)
