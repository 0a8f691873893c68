"""A wall clock read from a file: for tests of a server in its own process.

``kartentisch serve --clock-file PATH`` makes the server's wall clock (stored
times, correspondence deadlines, how long a table has waited) the number of
seconds since the epoch written in ``PATH``; a test moves time by writing the
file and sending the process ``SIGUSR1`` (:attr:`FileClock.moved_signal`), on
which every table looks at its deadlines again. A missing or unreadable file
reads as the real time. Never meant for a server people play on.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "clock"
>>> _ = path.write_text("86400.5")
>>> FileClock(path)()
86400.5
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

__all__ = ["FileClock"]


class FileClock:
    """Seconds since the epoch, as the file says (the real time without one)."""

    #: The signal that tells the server the clock was set.
    moved_signal = signal.SIGUSR1

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __call__(self) -> float:
        try:
            return float(self.path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            return time.time()
