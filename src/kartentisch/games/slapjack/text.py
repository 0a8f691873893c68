"""Slapjack games as readable text, in three languages."""

from __future__ import annotations

from collections.abc import Sequence

from kartentisch.engine import Event
from kartentisch.games.slapjack.engine import (
    CardGiven,
    CardTurned,
    GameEnded,
    OutOfCards,
    PileSplit,
    PileTurnedOver,
    PileWon,
    PlayerOut,
    SlapjackGame,
)
from kartentisch.i18n import card_text
from kartentisch.realtime.base import LateSlap
from kartentisch.realtime.records import seat_label
from kartentisch.realtime.texts import render_timed, say, stamp

__all__ = ["describe", "render", "stamp"]

TITLES = {"en": "Slapjack", "de": "Slapjack", "ru": "Слэпджек"}


def describe(event: Event, names: Sequence[str] | None, lang: str) -> list[str]:
    """What an event says, as lines (none for bookkeeping events)."""

    def who(seat: int) -> str:
        return seat_label(seat, names)

    if isinstance(event, CardTurned):
        return [say(lang, "card_turned", who=who(event.seat), card=card_text(lang, event.card))]
    if isinstance(event, PileWon):
        lines = [say(lang, "pile_won", who=who(event.seat), n=len(event.cards))]
        if event.comeback:
            lines.append(say(lang, "comeback", who=who(event.seat)))
        return lines
    if isinstance(event, CardGiven):
        card = card_text(lang, event.slapped)
        if event.to is None:
            return [say(lang, "false_slap_pile", who=who(event.seat), card=card)]
        if event.to == event.seat:
            return [say(lang, "false_slap_own", who=who(event.seat), card=card)]
        return [say(lang, "false_slap", who=who(event.seat), card=card, to=who(event.to))]
    if isinstance(event, PileSplit):
        shares = ", ".join(f"{who(s)} {k}" for s, k in enumerate(event.shares) if k)
        top = card_text(lang, event.cards[-1]) if event.cards else "-"
        return [say(lang, f"split_{event.reason}", who=who(event.seat), card=top, shares=shares)]
    if isinstance(event, OutOfCards):
        return [say(lang, "out_of_cards", who=who(event.seat))]
    if isinstance(event, PlayerOut):
        return [say(lang, f"player_out_{event.reason}", who=who(event.seat))]
    if isinstance(event, PileTurnedOver):
        return [say(lang, "turned_over", who=who(event.seat), n=event.cards)]
    if isinstance(event, LateSlap):
        return [say(lang, "late_slap", who=who(event.seat))]
    if isinstance(event, GameEnded):
        winners = ", ".join(who(s) for s in event.winners)
        best = max(event.cards) if event.cards else 0
        return [say(lang, f"end_{event.reason}", who=winners, n=best)]
    return []


def render(game: SlapjackGame, lang: str = "en") -> list[str]:
    """The stacks as dealt, every event with its game time, the cards at the end."""
    return render_timed(game, lang, TITLES, describe)
