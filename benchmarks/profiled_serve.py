"""Run ``kartentisch serve`` under a profiler; write what it found when the server stops.

``python benchmarks/profiled_serve.py OUT [--cprofile] -- serve --port 8000 ...``

By default a sampling profiler: a timer on the process's CPU clock
(``ITIMER_PROF``, every ``--interval`` ms of CPU time) interrupts the server and
notes the Python stack it was in, so that each sample stands for the same CPU
time wherever it falls (time spent waiting for the network or for a CPU is not
sampled). C code (zlib, SQLite, the JSON encoder) counts for the Python
function that called it. ``OUT`` gets one line per distinct stack, outermost
frame first, as ``file:function;file:function;... count`` (the "folded" format
flame-graph tools read). With ``--cprofile`` it is cProfile instead, on the
process's CPU clock, and ``OUT`` is its statistics file (``pstats``); it times
every call, which slows the server down several times.

SIGUSR1 forgets the samples so far (the start, the tables' setup), SIGUSR2
stops sampling. The server stops on SIGINT (or SIGTERM); the profile is written then.
``benchmarks/web_load.py --profile OUT`` starts the server this way.

``python benchmarks/profiled_serve.py summary OUT...`` sums a sampled profile up by the
parts of the server's work (:data:`PARTS`).
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import runpy
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Final


def _where(frame: FrameType) -> str:
    code = frame.f_code
    path = Path(code.co_filename)
    return f"{path.parent.name}/{path.name}:{code.co_name}"


#: The parts of the server's work, each named by the frames that mark it (a prefix of
#: ``folder/file.py:function``); a sample counts for the first part, in this order, that
#: has a frame in its stack (JSON encoding made for a view counts as JSON encoding; the
#: engine's code that a view calls, as the view).
PARTS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("JSON encoding", ("json/encoder.py:", "json/__init__.py:dumps", "web/wire.py:")),
    ("JSON parsing", ("json/decoder.py:", "json/__init__.py:loads")),
    ("WebSocket frames, permessage-deflate", ("extensions/permessage_deflate.py:",)),
    ("storage (the writer's transactions)", ("storage/", "sqlalchemy/")),
    (
        "views per seat (the game adapter)",
        (
            "web/livetable.py:state_message",
            "web/sending.py:encoded_state",
            "web/livetable.py:summary",
            "games/slobberhannes.py:view",
            "games/slobberhannes.py:encoded_view",
            "games/slobberhannes.py:_shared_view",
            "games/doppelkopf.py:view",
            "games/doppelkopf.py:encoded_view",
            "games/doppelkopf.py:_shared_view",
            "games/slapjack.py:view",
            "realtime.py:live",
        ),
    ),
    (
        "the engine (an action applied)",
        (
            "games/slobberhannes.py:act",
            "games/doppelkopf.py:act",
            "games/slapjack.py:",
            "slobberhannes/",
            "doppelkopf/",
            "slapjack/",
            "kartentisch/cards.py:",
        ),
    ),
    (
        "presence, stand-ins, the table's driver",
        (
            "web/presence.py:tick",
            "web/driver.py:drive",
            "web/presence.py:next_tick",
            "web/driver.py:plan",
            "web/driver.py:forced",
            "web/presence.py:standin_due",
        ),
    ),
    (
        "sending: the writer task, Starlette, uvicorn, websockets",
        (
            "web/app.py:write",
            "web/seats.py:send",
            "websockets/websockets_sansio_impl.py:send",
            "starlette/websockets.py:send",
            "websockets/protocol.py:send",
            "websockets/frames.py:",
        ),
    ),
    (
        "receiving: uvicorn, websockets, Starlette, parsing the message",
        (
            "websockets/websockets_sansio_impl.py:",
            "websockets/protocol.py:",
            "starlette/websockets.py:",
            "web/protocol.py:",
        ),
    ),
    (
        "the table: its lock, checks, broadcast, log",
        (
            "web/livetable.py:",
            "web/tablemessages.py:",
            "web/sending.py:",
            "web/saving.py:",
            "web/gamelog.py:",
            "web/tablechat.py:",
            "web/tablehints.py:",
            "web/expiry.py:",
            "web/duemoves.py:",
            "web/app.py:read",
        ),
    ),
)


def summarize(folded: Path) -> list[tuple[str, int]]:
    """Samples per part of :data:`PARTS` (the rest: "event loop and other"), most first."""
    counts: collections.Counter[str] = collections.Counter()
    for line in folded.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        part = next(
            (name for name, marks in PARTS if any(f.startswith(marks) for f in frames)),
            "event loop and other",
        )
        counts[part] += int(count)
    return counts.most_common()


def print_summary(folded: Path) -> None:
    parts = summarize(folded)
    total = sum(n for _, n in parts)
    width = max(len(name) for name, _ in parts)
    print(f"{total} samples in {folded}")
    for name, n in parts:
        print(f"  {name:<{width}}  {n:6d}  {100 * n / total:5.1f} %")


def main() -> None:
    if sys.argv[1:2] == ["summary"]:
        for name in sys.argv[2:]:
            print_summary(Path(name))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", type=Path, help="where the profile goes")
    parser.add_argument("--cprofile", action="store_true", help="cProfile instead of sampling")
    parser.add_argument("--interval", type=float, default=1.0, help="ms of CPU between samples")
    parser.add_argument("serve", nargs=argparse.REMAINDER, help="-- and the CLI's arguments")
    args = parser.parse_args()
    rest = args.serve[1:] if args.serve[:1] == ["--"] else args.serve
    sys.argv = ["kartentisch", *rest]
    # SIGTERM ends the server as SIGINT does (uvicorn handles both), and the profile is written.
    if args.cprofile:
        profile = cProfile.Profile(time.process_time)
        try:
            profile.runcall(runpy.run_module, "kartentisch.cli.main", run_name="__main__")
        except (SystemExit, KeyboardInterrupt):
            pass
        finally:
            profile.dump_stats(args.out)
        return
    stacks: collections.Counter[tuple[str, ...]] = collections.Counter()

    def sample(_signum: int, frame: FrameType | None) -> None:
        names: list[str] = []
        while frame is not None:
            names.append(_where(frame))
            frame = frame.f_back
        stacks[tuple(reversed(names))] += 1

    def afresh(_signum: int, _frame: FrameType | None) -> None:
        stacks.clear()

    def stop(_signum: int, _frame: FrameType | None) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    interval = args.interval / 1000
    signal.signal(signal.SIGUSR1, afresh)
    signal.signal(signal.SIGUSR2, stop)
    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    try:
        runpy.run_module("kartentisch.cli.main", run_name="__main__")
    except (SystemExit, KeyboardInterrupt):
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        with args.out.open("w", encoding="utf-8") as out:
            for stack, count in stacks.most_common():
                out.write(f"{';'.join(stack)} {count}\n")


if __name__ == "__main__":
    main()
