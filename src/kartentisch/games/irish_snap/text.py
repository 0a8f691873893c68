"""Irish Snap games as readable text, in three languages."""

from __future__ import annotations

from collections.abc import Sequence

from kartentisch.engine import Event
from kartentisch.games.irish_snap.engine import (
    CardTurned,
    GameEnded,
    IrishSnapGame,
    PileTaken,
    PlayerSafe,
    Slapped,
)
from kartentisch.i18n import card_text
from kartentisch.realtime.base import LateSlap
from kartentisch.realtime.records import seat_label
from kartentisch.realtime.texts import render_timed, say

__all__ = ["describe", "render"]

TITLES = {"en": "Irish Snap", "de": "Irish Snap", "ru": "Ирландский снэп"}


def describe(event: Event, names: Sequence[str] | None, lang: str) -> list[str]:
    """What an event says, as lines (none for bookkeeping events)."""

    def who(seat: int) -> str:
        return seat_label(seat, names)

    if isinstance(event, CardTurned):
        call = event.call.name_in(lang)
        lines = [
            say(
                lang,
                "card_called",
                who=who(event.seat),
                card=card_text(lang, event.card),
                call=call,
            )
        ]
        if event.match:
            lines.append(say(lang, "match", card=card_text(lang, event.card), call=call))
        return lines
    if isinstance(event, Slapped):
        return [say(lang, "slapped", who=who(event.seat), n=event.order)]
    if isinstance(event, PileTaken):
        top = card_text(lang, event.cards[-1]) if event.cards else "-"
        return [
            say(lang, f"taken_{event.reason}", who=who(event.seat), n=len(event.cards), card=top),
            say(lang, "count_restarts", who=who(event.seat)),
        ]
    if isinstance(event, PlayerSafe):
        return [say(lang, "player_safe", who=who(event.seat))]
    if isinstance(event, LateSlap):
        return [say(lang, "late_slap", who=who(event.seat))]
    if isinstance(event, GameEnded):
        return [say(lang, "irish_end", who=who(event.loser))]
    return []


def render(game: IrishSnapGame, lang: str = "en") -> list[str]:
    """The stacks as dealt, every event with its game time, the cards at the end."""
    return render_timed(game, lang, TITLES, describe)
