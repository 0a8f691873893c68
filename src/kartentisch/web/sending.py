"""The sending of a live table's state to its connections.

Each connection is sent its own seat's view (spectators the public view). A
:class:`StateSender` makes each seat's message once per broadcast, the parts
that every seat's message shares (the summary, the game log's new entries,
what the game's view shares) encoded once (:mod:`kartentisch.web.wire`).
While a change is being stored nothing is sent (the broadcast is held back
until the commit). A hello that changes nothing the others see (a
spectator's, a seat's second connection's) is answered to that connection
alone, and the spectator count follows within
:attr:`ServerSettings.spectator_update` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from kartentisch.web.seats import Connection
from kartentisch.web.statepatch import Overlay, reuse_equal
from kartentisch.web.wire import Encoded, SplitObject, dumps, object_text

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["StateSender"]


class _SharedParts:
    """What every seat's state message of one broadcast shares, encoded once."""

    __slots__ = ("_log_text", "_table", "log", "summary")

    def __init__(self, summary: dict[str, Any], log: dict[str, Any] | None) -> None:
        self.summary = summary
        self._table: SplitObject | None = None
        self.log = log
        self._log_text: str | None = None

    @property
    def table(self) -> SplitObject:
        """The summary's text but for ``you`` (made when a whole state is first sent)."""
        if self._table is None:
            self._table = SplitObject(self.summary, "you")
        return self._table

    def log_text(self) -> str:
        if self._log_text is None:
            self._log_text = dumps(self.log)
        return self._log_text


class StateSender:
    """Sends a table's state to its connections."""

    def __init__(self) -> None:
        #: The summary of the last broadcast (its parts are reused while they are equal).
        self.summary_sent: dict[str, Any] | None = None
        # -- spectators (their hellos are answered to them alone) --
        #: The spectator count everyone was last sent; the update waiting to tell a new one.
        self.spectators_told = 0
        self.spectator_update: asyncio.TimerHandle | None = None

    def encoded_state(
        self, table: LiveTable, seat: int | None, shared: _SharedParts, *, whole: bool = True
    ) -> Encoded:
        """:meth:`LiveTable.state_message` for ``seat`` with its JSON text, the parts that every
        seat's message shares (the summary, the log, what the game's view shares)
        encoded once (:mod:`kartentisch.web.wire`).

        ``whole=False``: the text is made only if asked for before the message is
        sealed (a connection that takes patches is sent a patch instead, made of the
        message, not of its text).
        """
        game = table.game
        view: dict[str, Any] | None
        view_text: str | None = None
        encoded_view = getattr(game, "encoded_view", None) if game is not None else None
        if game is None:
            view, view_text = None, "null"
        elif encoded_view is not None and whole:
            view, view_text = encoded_view(seat)
        else:
            view = game.view(seat)
        message: dict[str, Any] = {
            "type": "state",
            "version": table.version,
            "view": view,
            # (the summary with this seat: its patch is made once for every seat)
            "table": Overlay(shared.summary, "you", seat),
        }
        live: dict[str, Any] | None = None
        if shared.log is not None:
            message["log"] = shared.log
        if table.runner is not None:
            live = message["live"] = table.runner.live(seat)

        def text() -> str:
            nonlocal view_text
            if view_text is None:
                view_text = encoded_view(seat)[1] if encoded_view is not None else dumps(view)
            items = [
                ("type", '"state"'),
                ("version", dumps(table.version)),
                ("view", view_text),
                ("table", shared.table.text(seat)),
            ]
            if shared.log is not None:
                items.append(("log", shared.log_text()))
            if live is not None:
                items.append(("live", dumps(live)))
            return object_text(items)

        return Encoded(message, text() if whole else text)

    def broadcast(self, table: LiveTable) -> None:
        """Send every joined connection its own seat's state.

        While a change is being stored nothing is sent (it would tell of
        what is not stored yet); the broadcast after the commit sends it.
        Each seat's message is made once; the game log's new entries (the
        same for everyone) ride along, and a connection that has just said
        hello gets the log from where its own copy ends.
        """
        if table.saving.pending:
            table.saving.held_back = True
            if table.storage_waiting:
                table.saving.tell_wait(table)  # a connection that came meanwhile hears why
            return
        if (
            table.driver.forced(table) is not None
            and table.driver.task is not None
            and not table.driver.task.done()
        ):
            # The table answers for a person at once (its driver, next): everyone hears of
            # both together; a state in between would offer a turn that is not theirs.
            table.changed.set()
            return
        table.saving.held_back = False
        self.spectators_told = table.spectator_count
        log: dict[str, Any] | None = None
        if table.gamelog.kept(table):
            log = table.gamelog.part(min(table.gamelog.sent, len(table.gamelog.entries)))
            table.gamelog.sent = len(table.gamelog.entries)
        cache: dict[int | None, Encoded] = {}
        shared: _SharedParts | None = None
        for conn in list(table.connections):
            message: dict[str, Any] | None = cache.get(conn.seat)
            if message is None:
                if shared is None:
                    summary = table.summary()
                    # (what did not change is the same object: patches pass it over)
                    reuse_equal(self.summary_sent, summary)
                    self.summary_sent = summary
                    shared = _SharedParts(summary, log)
                # (A connection that takes patches needs the state's text only when the
                # patch would be long: it is made then, while the parts are the same.)
                whole = not conn.patches or conn.last_state is None
                message = cache[conn.seat] = self.encoded_state(
                    table, conn.seat, shared, whole=whole
                )
            wanted = table.gamelog.wanted.pop(conn, None)
            if wanted is not None and log is not None:
                epoch, held = wanted
                start = (
                    held
                    if epoch == table.gamelog.epoch and held <= len(table.gamelog.entries)
                    else 0
                )
                if start != log["from"]:
                    message = {**message, "log": table.gamelog.part(start)}
            conn.send(message)
        for made in cache.values():
            made.sealed()  # (the game moves on: a text asked for later is made of the message)
        if table.runner is not None:
            table.runner.notify()

    def send_state(self, table: LiveTable, conn: Connection) -> None:
        """Send ``conn`` alone its state (after its hello), with the log it lacks."""
        pending_log = table.gamelog.kept(table) and table.gamelog.sent < len(table.gamelog.entries)
        driving = table.driver.task is not None and not table.driver.task.done()
        forced = driving and table.driver.forced(table) is not None
        if table.saving.pending or pending_log or forced:
            self.broadcast(table)  # the others are owed this state too (or it waits for a commit)
            return
        log: dict[str, Any] | None = None
        wanted = table.gamelog.wanted.pop(conn, None)
        if table.gamelog.kept(table):
            epoch, held = wanted or (None, 0)
            start = (
                held if epoch == table.gamelog.epoch and held <= len(table.gamelog.entries) else 0
            )
            log = table.gamelog.part(start)
        conn.send(table.state_message(conn.seat, log=log))

    def spectators_changed(self, table: LiveTable) -> None:
        """The spectator count changed without a broadcast: tell it within
        ``ServerSettings.spectator_update`` seconds (one update for any number of changes)."""
        delay = table.manager.settings.spectator_update
        if delay is None or self.spectator_update is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.spectator_update = loop.call_later(delay, self.tell_spectators, table)

    def tell_spectators(self, table: LiveTable) -> None:
        self.spectator_update = None
        if table.withdrawn or not table.connections:
            return
        if table.spectator_count != self.spectators_told:
            self.broadcast(table)
