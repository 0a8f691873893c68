"""Slapjack and Irish Snap in the terminal: you at seat 0 against reaction bots.

The game runs in real time. A loop waits for keys (one key at a time when
stdin is a terminal, in cbreak mode; otherwise line by line), lets the bots
act at their sampled reaction times, turns your card automatically after a
delay if you don't, and lets game time close the windows. Keys: SPACE slaps,
``c`` slaps with the call "Slapjack!", ENTER or ``t`` turns your card, ``q``
quits; EOF quits too. The clock and the keys are injected, so a whole game
runs in a test without sleeping.
"""

from __future__ import annotations

import argparse
import heapq
import os
import queue
import random
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape

from kartentisch.bots.reaction import ALIASES, DEFAULT_LEVEL, LEVELS, ReactionBot
from kartentisch.cards import Card, Rank, Suit
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.games.irish_snap.engine import CardTurned as IrishCardTurned
from kartentisch.games.irish_snap.engine import IrishSnapGame, IrishSnapOptions
from kartentisch.games.irish_snap.text import describe as describe_irish
from kartentisch.games.slapjack.engine import CardTurned, SlapjackGame, SlapjackOptions
from kartentisch.games.slapjack.text import describe as describe_slapjack
from kartentisch.i18n import card_text
from kartentisch.realtime.actions import ActionType, TimedAction
from kartentisch.realtime.clock import Clock, ManualClock, MonotonicClock
from kartentisch.realtime.texts import refusal, say
from kartentisch.records import write_record

__all__ = [
    "KeySource",
    "ScriptedKeys",
    "SlapTable",
    "TerminalKeys",
    "add_play_arguments",
    "play",
]

BOT_NAMES = {
    "en": ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta", "Hugo", "Ida", "Jan"),
    "de": ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta", "Hugo", "Ida", "Jan"),
    "ru": (
        "Алексей",
        "Борис",
        "Владимир",
        "Геннадий",
        "Дмитрий",
        "Евгений",
        "Жанна",
        "Зоя",
        "Ирина",
        "Кирилл",
    ),
}
#: The longest the loop waits for a key before it looks at the clock again (seconds).
MAX_WAIT_S = 0.25


# -- keys ----------------------------------------------------------------------


class KeySource(Protocol):
    """Keys pressed by the player. ``get`` raises EOFError when input has ended."""

    def get(self, timeout: float) -> str | None:
        """The next key, or None if none came within ``timeout`` seconds."""
        ...

    def close(self) -> None: ...


_EOF = object()


class TerminalKeys:
    """Keys from stdin, read by a background thread.

    On a terminal, stdin is put into cbreak mode (each key arrives at once,
    not echoed) and restored by :meth:`close`; otherwise lines are read and
    each character of a line is a key, followed by ENTER.
    """

    def __init__(self, stream: Any = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._queue: queue.Queue[object] = queue.Queue()
        self._saved: Any = None
        self._fd: int | None = None
        try:
            is_tty = self._stream.isatty()
        except (AttributeError, ValueError):
            is_tty = False
        if is_tty:
            try:
                import termios
                import tty

                self._fd = self._stream.fileno()
                self._saved = termios.tcgetattr(self._fd)
                tty.setcbreak(self._fd)
            except (ImportError, OSError):  # pragma: no cover - not a POSIX terminal
                self._fd = None
        target = self._read_keys if self._fd is not None else self._read_lines
        threading.Thread(target=target, name="kartentisch-keys", daemon=True).start()

    def _read_keys(self) -> None:
        assert self._fd is not None
        while True:
            try:
                data = os.read(self._fd, 1)
            except OSError:
                data = b""
            if not data or data == b"\x04":
                self._queue.put(_EOF)
                return
            self._queue.put(data.decode("utf-8", errors="ignore"))

    def _read_lines(self) -> None:
        while True:
            try:
                line = self._stream.readline()
            except (OSError, ValueError):
                line = ""
            if not line:
                self._queue.put(_EOF)
                return
            for ch in line.rstrip("\r\n"):
                self._queue.put(ch)
            self._queue.put("\n")

    def get(self, timeout: float) -> str | None:
        try:
            item = self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _EOF:
            self._queue.put(_EOF)
            raise EOFError
        assert isinstance(item, str)
        return item

    def close(self) -> None:
        if self._fd is not None and self._saved is not None:
            import termios

            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None


class ScriptedKeys:
    """Keys at given game times, on a :class:`ManualClock` (for tests).

    ``get`` moves the clock: to the next key if it comes within the timeout,
    else by the timeout. After the script: EOF if ``eof``, else silence.
    """

    def __init__(self, clock: ManualClock, script: Sequence[tuple[int, str]], eof: bool = True):
        self.clock = clock
        self.script = sorted(script, key=lambda item: item[0])
        self.eof = eof
        self.closed = False

    def get(self, timeout: float) -> str | None:
        now = self.clock.now_ms()
        if self.script:
            at, key = self.script[0]
            if at <= now + timeout * 1000:
                self.script.pop(0)
                self.clock.advance_to(at)
                return key
        elif self.eof:
            raise EOFError
        self.clock.sleep(timeout)
        return None

    def close(self) -> None:
        self.closed = True


# -- the table -----------------------------------------------------------------


@dataclass(order=True)
class _Planned:
    t: int
    seat: int
    seq: int
    type: ActionType = field(compare=False)
    call: bool = field(compare=False, default=False)
    #: The card (by number turned) a slap is meant for; a turn's state version.
    card: int = field(compare=False, default=0)


def _card_text(card: Card, lang: str) -> str:
    colour = "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "default"
    style = f"bold {colour}" + (" reverse" if card.rank == Rank.JACK else "")
    return f"[{style}]{card_text(lang, card)}[/]"


class SlapTable:
    """Runs one real-time game: bots react on their own, the human by keys."""

    def __init__(
        self,
        game: SlapjackGame | IrishSnapGame,
        bots: dict[int, ReactionBot],
        *,
        lang: str,
        console: Console,
        keys: KeySource,
        clock: Clock,
        names: Sequence[str],
        human: int = 0,
        auto_turn_ms: int = 1500,
        pace_ms: int = 900,
        save: str | None = None,
    ) -> None:
        self.game = game
        self.bots = bots
        self.lang = lang
        self.console = console
        self.keys = keys
        self.clock = clock
        self.names = tuple(names)
        self.human = human
        self.auto_turn_ms = auto_turn_ms
        self.pace_ms = pace_ms
        self.save = save
        self.irish = isinstance(game, IrishSnapGame)
        self._plan: list[_Planned] = []
        self._seq = 0
        self._turn: _Planned | None = None
        self._turn_slot: tuple[int, int, int] | None = None
        self._reacted = 0
        self._card_time = 0
        self._version = -1

    # -- output --------------------------------------------------------------

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def _narrate(self, events: Sequence[Event]) -> None:
        describe = describe_irish if self.irish else describe_slapjack
        for event in events:
            if isinstance(event, CardTurned | IrishCardTurned):
                self._card_time = event.t
            t = getattr(event, "t", self.game.clock)
            for text in describe(event, self.names, self.lang):
                line = escape(text)
                if isinstance(event, CardTurned | IrishCardTurned):
                    line = line.replace(
                        card_text(self.lang, event.card), _card_text(event.card, self.lang)
                    )
                    if isinstance(event, IrishCardTurned) and event.match:
                        line = f"[bold yellow]{line}[/]"
                elif event.type in ("pile_won", "pile_taken", "game_ended"):
                    line = f"[bold]{line}[/]"
                self.say(f"[dim]{t / 1000:6.1f}s[/]  {line}")
            if isinstance(event, CardTurned | IrishCardTurned):
                self._status()

    def _status(self) -> None:
        game = self.game
        top = game.top
        parts = []
        for seat, size in enumerate(game.stack_sizes()):
            mark = ""
            if isinstance(game, SlapjackGame) and game.out[seat]:
                mark = f" ({say(self.lang, 'out_mark')})"
            elif isinstance(game, IrishSnapGame) and game.safe[seat]:
                mark = f" ({say(self.lang, 'safe_mark')})"
            name = escape(self.names[seat])
            if seat == self.human:
                name = f"[bold]{name}[/]"
            parts.append(f"{name} {size}{mark}")
        line = say(
            self.lang,
            "status",
            pile=len(game.pile),
            top=_card_text(top, self.lang) if top is not None else "-",
        )
        if isinstance(game, IrishSnapGame):
            line += f" · {say(self.lang, 'next_call')}: {game.next_call.name_in(self.lang)}"
        self.say(f"          [cyan]{line}[/] │ " + " · ".join(parts))

    # -- planning ------------------------------------------------------------

    def _schedule(self, item: _Planned) -> None:
        heapq.heappush(self._plan, item)

    def _new_item(self, t: int, seat: int, type: ActionType, call: bool, card: int) -> _Planned:
        self._seq += 1
        return _Planned(t, seat, self._seq, type, call, card)

    def _replan(self, now: int) -> None:
        """After every change: bots look at a new card, the next turn is timed."""
        game = self.game
        version = len(game.events)
        if version == self._version or game.is_over:
            return
        self._version = version
        if game.turned != self._reacted:
            # Each bot looks once at each new card (a match is open from the turn on).
            self._reacted = game.turned
            for seat, bot in self.bots.items():
                reaction = bot.react(game.observation(seat))
                if reaction is not None:
                    self._schedule(
                        self._new_item(
                            self._card_time + reaction.delay_ms,
                            seat,
                            "slap",
                            reaction.call,
                            game.turned,
                        )
                    )
        mover = game.to_move
        if mover is None:
            self._turn = None
            return
        slot = (mover, game.turned, len(game.pile))
        if self._turn is not None and self._turn_slot == slot:
            return
        self._turn_slot = slot
        earliest = self._card_time + self.pace_ms if game.turned else 0
        if mover in self.bots:
            t = max(now + self.bots[mover].turn_delay(), earliest)
        else:
            self._hint_human()
            if self.auto_turn_ms <= 0:
                self._turn = None
                return
            t = max(now, self._card_time) + self.auto_turn_ms
        self._turn = self._new_item(t, mover, "turn", False, game.turned)
        self._schedule(self._turn)

    def _hint_human(self) -> None:
        game = self.game
        if isinstance(game, SlapjackGame) and game.observation(self.human).needs_turnover:
            self.say(f"[bold]{say(self.lang, 'your_turnover')}[/]")
        else:
            self.say(f"[bold]{say(self.lang, 'your_turn')}[/]")

    def _next_due(self) -> int | None:
        while self._plan and not self._valid(self._plan[0]):
            heapq.heappop(self._plan)
        return self._plan[0].t if self._plan else None

    def _valid(self, item: _Planned) -> bool:
        if item.type == "turn":
            return item is self._turn
        return item.card == self.game.turned

    # -- acting --------------------------------------------------------------

    def _apply(self, seat: int, type: ActionType, call: bool, t: int) -> IllegalActionError | None:
        game = self.game
        action = TimedAction(game.next_time(seat, t), seat, type, call)
        try:
            events = game.apply(action)
        except IllegalActionError as exc:
            return exc
        self._narrate(events)
        return None

    def _run_due(self, now: int) -> None:
        """Everything planned up to ``now``, in time order, then time itself."""
        while not self.game.is_over:
            due = self._next_due()
            if due is None or due > now:
                break
            item = heapq.heappop(self._plan)
            if item.type == "turn":
                self._turn = None
            if self._apply(item.seat, item.type, item.call, item.t) is not None:
                self._version = -1  # refused: look at the table again
            self._replan(now)
        if not self.game.is_over:
            self._narrate(self.game.advance(now))
        self._replan(now)

    def _key(self, key: str, now: int) -> bool:
        """Handle one key; False to quit."""
        game = self.game
        if key in ("q", "Q"):
            return False
        if key in ("h", "H", "?"):
            self._help()
            return True
        if key in (" ", "s", "S", "c", "C"):
            call = key in ("c", "C") and not self.irish
            error = self._apply(self.human, "slap", call, now)
        elif key in ("\n", "\r", "t", "T"):
            if game.to_move != self.human:
                return True
            self._turn = None
            error = self._apply(self.human, "turn", False, now)
        else:
            return True
        if error is not None:
            self._version = -1
            if error.rule != "game_over":
                reason = refusal(error, self.lang)
                self.say(f"[dim]{escape(say(self.lang, 'refused', reason=reason))}[/]")
        self._replan(now)
        return True

    def _help(self) -> None:
        self.say(escape(say(self.lang, "keys_irish" if self.irish else "keys_slapjack")))
        if self.auto_turn_ms > 0:
            self.say(say(self.lang, "auto_turn", seconds=self.auto_turn_ms / 1000))

    def run(self) -> int:
        game = self.game
        n = game.num_seats
        title = "Irish Snap" if self.irish else "Slapjack"
        header = say(
            self.lang,
            "header",
            game=title,
            players=n,
            dealer=self.names[game.dealer],
            first=self.names[(game.dealer + 1) % n],
        )
        self.say(f"[bold]{escape(header)}[/]")
        self._help()
        try:
            self._replan(self.clock.now_ms())
            while not game.is_over:
                now = self.clock.now_ms()
                self._run_due(now)
                if game.is_over:
                    break
                due = self._next_due()
                wait_ms = MAX_WAIT_S * 1000 if due is None else max(1, due - now)
                try:
                    key = self.keys.get(min(MAX_WAIT_S, wait_ms / 1000))
                except EOFError:
                    break
                if key is not None:
                    now = self.clock.now_ms()
                    self._run_due(now)
                    if game.is_over:
                        break
                    if not self._key(key, now):
                        break
        finally:
            self.keys.close()
        if game.is_over:
            self._final()
        else:
            self.say(say(self.lang, "bye"))
        self._save()
        return 0

    def _final(self) -> None:
        cards = " · ".join(f"{self.names[s]} {k}" for s, k in enumerate(self.game.stack_sizes()))
        self.say(f"[bold]{escape(say(self.lang, 'final_cards') + ': ' + cards)}[/]")

    def _save(self) -> None:
        if self.save:
            write_record(self.game.to_record(), self.save)
            self.say(f"[dim]{escape(say(self.lang, 'saved', path=self.save))}[/]")


# -- command line --------------------------------------------------------------


def add_play_arguments(parser: argparse.ArgumentParser, game: str = "slapjack") -> None:
    parser.add_argument(
        "--players",
        type=int,
        choices=range(2, 11),
        metavar="N",
        default=4,
        help="2 to 10 (default 4)",
    )
    parser.add_argument(
        "--bots",
        choices=[*LEVELS, *ALIASES],
        default=DEFAULT_LEVEL,
        help=f"bot level: {', '.join(LEVELS)} (default {DEFAULT_LEVEL}, the median person)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the deal and the bots")
    parser.add_argument("--save", metavar="FILE", help="write the game record to FILE at the end")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument(
        "--auto-turn",
        type=int,
        default=1500,
        metavar="MS",
        help="your card is turned for you after MS ms (0: only by key; default 1500)",
    )
    parser.add_argument(
        "--pace",
        type=int,
        default=900,
        metavar="MS",
        help="bots wait at least MS ms after a card before turning the next (default 900)",
    )
    if game == "slapjack":
        parser.add_argument(
            "--call", action="store_true", help='variant: every slap must come with "Slapjack!"'
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=None,
            metavar="SECONDS",
            help="variant: the game ends after SECONDS; most cards wins",
        )
    else:
        parser.add_argument(
            "--slap-timeout",
            type=int,
            default=2000,
            metavar="MS",
            help="on a match, who has not slapped after MS ms is last (default 2000)",
        )


def build_table(
    args: argparse.Namespace,
    game_name: str,
    *,
    console: Console,
    keys: KeySource,
    clock: Clock,
) -> SlapTable:
    """The game, the bots and the table from parsed arguments."""
    lang = getattr(args, "lang", "en")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    n = args.players
    names = [args.name or say(lang, "you"), *BOT_NAMES.get(lang, BOT_NAMES["en"])[1:n]]
    game: SlapjackGame | IrishSnapGame
    if game_name == "slapjack":
        limit = args.time_limit
        options = SlapjackOptions(
            players=n,
            call=bool(args.call),
            time_limit_ms=None if limit is None else max(1, round(limit * 1000)),
        )
        game = SlapjackGame.from_seed(seed, options=options, seats=names)
    else:
        irish = IrishSnapOptions(players=n, slap_timeout_ms=max(1, args.slap_timeout))
        game = IrishSnapGame.from_seed(seed, options=irish, seats=names)
    bot_rng = random.Random(seed + 1)
    bots = {s: ReactionBot(args.bots, bot_rng.randrange(2**32)) for s in range(1, n)}
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
    return SlapTable(
        game,
        bots,
        lang=lang,
        console=console,
        keys=keys,
        clock=clock,
        names=names,
        auto_turn_ms=max(0, args.auto_turn),
        pace_ms=max(0, args.pace),
        save=args.save,
    )


def play(
    args: argparse.Namespace,
    game_name: str = "slapjack",
    *,
    console: Console | None = None,
    keys: KeySource | None = None,
    clock: Clock | None = None,
) -> int:
    """Run ``kartentisch play slapjack|irish-snap`` from parsed arguments."""
    console = console or Console(highlight=False)
    clock = clock or MonotonicClock()
    keys = keys or TerminalKeys()
    table = build_table(args, game_name, console=console, keys=keys, clock=clock)
    try:
        return table.run()
    except KeyboardInterrupt:
        table._save()
        raise
