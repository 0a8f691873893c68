"""What the terminal games have in common: you at seat 0 against bots.

:class:`TableGame` holds the table (the match, the bots, the console and
the prompt), plays a deal to its end seat by seat, asks the human for an
action and saves the record; each game adds how it shows the table, reads
an action and tells what happened.
"""

from __future__ import annotations

import argparse
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final, Generic, Protocol, TypeVar

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kartentisch.bots import LEVELS, Bot, make_bot
from kartentisch.cards import Card, Suit
from kartentisch.engine import Event
from kartentisch.i18n import card_text as i18n_card_text
from kartentisch.i18n import t
from kartentisch.records import write_record

__all__ = [
    "BOT_NAMES",
    "TableGame",
    "add_seat_arguments",
    "card_text",
    "choose_seed",
    "make_bots",
    "reader",
    "seat_names",
    "start_game",
]

#: The bots' names by language; seat ``s`` takes the name at index ``s``.
BOT_NAMES: Final = {
    "en": ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta"),
    "de": ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta"),
    "ru": ("Алексей", "Борис", "Владимир", "Геннадий", "Дмитрий", "Евгений", "Жанна"),
}


def add_seat_arguments(parser: argparse.ArgumentParser, game: str) -> None:
    """The options a game at the table ends with: the bots' level, your name, hints."""
    parser.add_argument("--bots", choices=LEVELS[game], default="heuristic", help="bot level")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument(
        "--hint", action="store_true", help="show the strong bot's suggestion on your turn"
    )


def card_text(card: Card, lang: str = "en", *, dim: bool = False) -> str:
    """A card in rich markup in ``lang``'s letters, the red suits in red (``dim``: greyed).

    >>> card_text(Card.parse("QH"))
    '[bold red]Q♥[/]'
    >>> card_text(Card.parse("10S"), "de"), card_text(Card.parse("QS"), "de", dim=True)
    ('[bold default]10♠[/]', '[dim]D♠[/]')
    """
    shown = i18n_card_text(lang, card)
    if dim:
        return f"[dim]{shown}[/]"
    colour = "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "default"
    return f"[bold {colour}]{shown}[/]"


def reader(console: Console) -> Callable[[str], str]:
    """Prompt on ``console`` and read a line from stdin (EOFError at its end)."""

    def read(prompt: str) -> str:
        console.print(prompt, end="", highlight=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return read


def choose_seed(seed: int | None) -> int:
    """The seed asked for, or a fresh one from the system."""
    return seed if seed is not None else random.SystemRandom().randrange(2**32)


def seat_names(name: str | None, lang: str, players: int) -> list[str]:
    """The human's name at seat 0, then the bots' names.

    >>> seat_names(None, "en", 4)
    ['Player', 'Ben', 'Carla', 'Dan']
    >>> seat_names("Ida", "de", 3)
    ['Ida', 'Ben', 'Carla']
    """
    return [name or t(lang, "player_default"), *BOT_NAMES[lang][1:players]]


def make_bots(game: str, level: str, seed: int, players: int) -> dict[int, Bot]:
    """A bot of ``level`` at every seat but 0, each seeded from ``seed``."""
    bot_rng = random.Random(seed + 1)
    return {s: make_bot(game, level, bot_rng.randrange(2**32)) for s in range(1, players)}


class TableMatch(Protocol):
    """What :class:`TableGame` uses of a match."""

    @property
    def game(self) -> str: ...

    @property
    def seat_names(self) -> tuple[str, ...]: ...

    @property
    def seed(self) -> int | None: ...

    def apply(self, action: Any, seat: int | None = None) -> list[Event]: ...

    def to_record(self) -> dict[str, Any]: ...


class TableDeal(Protocol):
    """What :class:`TableGame` uses of a deal."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int | None: ...

    def observation(self, seat: int) -> Any: ...


M = TypeVar("M", bound=TableMatch)
D = TypeVar("D", bound=TableDeal)


class TableGame(ABC, Generic[M, D]):
    """Drives a match: bots act by themselves, the human is asked at his turn."""

    def __init__(
        self,
        match: M,
        bots: dict[int, Bot],
        lang: str,
        save: str | None,
        console: Console,
        read: Callable[[str], str],
        human: int = 0,
        hint: bool = False,
    ) -> None:
        self.match = match
        self.bots = bots
        self.lang = lang
        self.save = save
        self.console = console
        self.read = read
        self.human = human
        self.hint = hint
        # Names are shown inside rich markup: escape what people typed.
        self.names = tuple(escape(name) for name in match.seat_names)
        # Bots' cuts come from their own source, so the deals stay those of the seed.
        self.cut_rng = random.Random(match.seed)

    @abstractmethod
    def run(self) -> int:
        """Play until the match ends or the human quits; the exit status."""

    @abstractmethod
    def _show_table(self, deal: D) -> None: ...

    @abstractmethod
    def _hint(self, deal: D) -> None: ...

    @abstractmethod
    def _prompt(self) -> str:
        """The question at the human's turn."""

    @abstractmethod
    def _help(self) -> str:
        """The answer to ``h`` (rich markup)."""

    @abstractmethod
    def _try_action(self, deal: D, text: str) -> list[Event] | None:
        """Carry out what the human typed; None (having said why) if it was refused."""

    @abstractmethod
    def _narrate(self, events: Sequence[Event]) -> None: ...

    def _command(self, word: str) -> bool:
        """Answer a word of the game's own at the prompt; False if it is none."""
        return False

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            return "q"

    def _stop_here(self, prompt: str) -> bool:
        """Ask whether to go on; True, having said goodbye, when the human quits."""
        if self._ask(prompt).strip().lower() in ("q", "quit"):
            self.say(t(self.lang, "bye"))
            return True
        return False

    def _cut(self, cutter: int, size: int, *, insist: bool) -> int | None:
        """Where ``cutter`` cuts a deck of ``size``: asked of the human (again
        after a wrong answer if ``insist``, until he leaves it empty or says q),
        drawn for a bot; None for no cut."""
        if cutter != self.human:
            return self.cut_rng.randrange(1, size)
        while True:
            answer = self._ask(t(self.lang, "cut_prompt", max=size - 1)).strip()
            if answer.isdigit() and 1 <= int(answer) < size:
                return int(answer)
            if not insist or answer.lower() in ("", "q"):
                return None

    def _deal_header(self, number: int, dealer: int, leader: int) -> None:
        self.say("")
        self.say(
            "[bold]"
            + t(
                self.lang,
                "deal_header",
                number=number,
                dealer=self.names[dealer],
                leader=self.names[leader],
            )
            + "[/]"
        )

    def _play_out(self, deal: D) -> bool:
        """Play ``deal`` to its end and save the record; False if the human quit."""
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if seat == self.human:
                events = self._human_turn(deal)
                if events is None:
                    self._save()
                    self.say(t(self.lang, "bye"))
                    return False
            else:
                action = self.bots[seat].choose(deal.observation(seat))
                events = self.match.apply(action, seat)
            self._narrate(events)
        self._save()
        return True

    def _human_turn(self, deal: D) -> list[Event] | None:
        self._show_table(deal)
        if self.hint:
            self._hint(deal)
        while True:
            text = self._ask(self._prompt()).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                return None
            if low in ("h", "help", "?"):
                self.say(self._help())
                continue
            if low in ("hand", "table", ""):
                self._show_table(deal)
                continue
            if self._command(low):
                continue
            events = self._try_action(deal, text)
            if events is not None:
                return events

    def _trick_table(
        self,
        obs: Any,
        heading: str,
        seats: Iterable[int],
        score: Callable[[int], str],
        note: Callable[[int], str] = lambda seat: "",
    ) -> None:
        """Print the trick in ``obs``: each of ``seats`` with a * for the leader
        and its ``note``, its card, and its ``score`` under ``heading``."""
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column(t(self.lang, "player"))
        table.add_column(t(self.lang, "trick_n", number=obs.trick_number))
        table.add_column(heading, justify="right")
        played = dict(zip(obs.trick.seats, obs.trick.cards, strict=True))
        for seat in seats:
            name = self.names[seat] + (" *" if seat == obs.trick.leader else "") + note(seat)
            card = card_text(played[seat], self.lang) if seat in played else ""
            table.add_row(name, card, score(seat))
        self.console.print(table)

    def _played(self, seat: int, card: Card) -> str:
        return t(self.lang, "plays", who=self.names[seat], card=card_text(card, self.lang))

    def _trick_won(self, seat: int, number: int, cards: Sequence[Card]) -> str:
        shown = " ".join(card_text(c, self.lang) for c in cards)
        return t(self.lang, "wins_trick", who=self.names[seat], number=number, cards=shown)

    def _save(self) -> None:
        if self.save:
            write_record(self.match.to_record(), self.save)
            self.say(f"[dim]{t(self.lang, 'saved', path=escape(self.save))}[/]")


class SeatCount(Protocol):
    """What :func:`start_game` uses of a game's options."""

    @property
    def players(self) -> int: ...


def start_game(
    game: type[TableGame[M, Any]],
    new_match: Callable[..., M],
    options: SeatCount,
    args: argparse.Namespace,
    read: Callable[[str], str] | None,
) -> int:
    """Seat the human at a new match with bots as ``args`` say and play it;
    the exit status. ``read`` answers the prompts (default: stdin)."""
    seed = choose_seed(args.seed)
    names = seat_names(args.name, args.lang, options.players)
    match = new_match(options, seats=names, seed=seed, start=False)
    bots = make_bots(match.game, args.bots, seed, options.players)
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
    console = Console(highlight=False)
    return game(
        match,
        bots,
        args.lang,
        args.save,
        console,
        read or reader(console),
        hint=bool(getattr(args, "hint", False)),
    ).run()
