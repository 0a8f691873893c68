"""Slobberhannes in the terminal: you at seat 0 against bots."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kartentisch.bots import LEVELS, Bot, make_bot
from kartentisch.cards import Card, Suit
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError, NotationError
from kartentisch.games.slobberhannes.deal import (
    CardPlayed,
    PenaltyCharged,
    SlobberhannesDeal,
    TrickWon,
)
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.games.slobberhannes.options import PRESETS, SlobberhannesOptions
from kartentisch.games.slobberhannes.text import penalty_line
from kartentisch.i18n import describe_refusal, t
from kartentisch.records import write_record

__all__ = ["add_play_arguments", "play"]

BOT_NAMES = {
    "en": ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta"),
    "de": ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta"),
    "ru": ("Алексей", "Борис", "Владимир", "Геннадий", "Дмитрий", "Евгений", "Жанна"),
}


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, choices=range(3, 8), metavar="N", help="3 to 7 (default 4)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for deals and bots")
    parser.add_argument(
        "--save", metavar="FILE", help="write the match record to FILE after every deal"
    )
    parser.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    parser.add_argument("--revokes", choices=("forbidden", "penalty"), default=None)
    parser.add_argument("--partnership", action="store_true", help="2 against 2, partners opposite")
    parser.add_argument("--scoring", choices=("chips", "sheet"), default=None)
    parser.add_argument(
        "--bots", choices=LEVELS["slobberhannes"], default="heuristic", help="bot level"
    )
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument(
        "--hint", action="store_true", help="show the strong bot's suggestion on your turn"
    )


def _card_text(card: Card) -> str:
    colour = "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "default"
    return f"[bold {colour}]{card.symbol}[/]"


class TerminalGame:
    """Drives a match: bots act by themselves, the human is asked for cards."""

    def __init__(
        self,
        match: SlobberhannesMatch,
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

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def run(self) -> int:
        match = self.match
        if match.draw is not None:
            last = match.draw.rounds[-1]
            cards = ", ".join(f"{self.names[s]} {c.symbol}" for s, c in last)
            self.say(t(self.lang, "draw", cards=cards, who=self.names[match.draw.leader]))
        while not match.is_over:
            deal = self._start_deal()
            number = len(match.deals)
            self.say("")
            self.say(
                "[bold]"
                + t(
                    self.lang,
                    "deal_header",
                    number=number,
                    dealer=self.names[deal.dealer],
                    leader=self.names[deal.leader],
                )
                + "[/]"
            )
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                if seat == self.human:
                    events = self._human_turn(deal)
                    if events is None:
                        self._save()
                        self.say(t(self.lang, "bye"))
                        return 0
                else:
                    events = match.apply(self.bots[seat].choose(deal.observation(seat)))
                self._narrate(events)
            self._save()
            self._standings(deal)
            if not match.is_over and self._ask(t(self.lang, "next_deal")).strip().lower() in (
                "q",
                "quit",
            ):
                self.say(t(self.lang, "bye"))
                return 0
        self._final()
        return 0

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            return "q"

    def _start_deal(self) -> SlobberhannesDeal:
        match = self.match
        cut: int | None = None
        if match.options.cut:
            dealer = match.next_dealer
            cutter = (dealer - 1) % match.options.players
            size = len(match.options.deck())
            if cutter == self.human:
                while True:
                    answer = self._ask(t(self.lang, "cut_prompt", max=size - 1)).strip()
                    if answer.lower() in ("", "q"):
                        break
                    if answer.isdigit() and 1 <= int(answer) < size:
                        cut = int(answer)
                        break
            else:
                cut = self.cut_rng.randrange(1, size)
        return match.start_deal(cut=cut)

    def _show_table(self, deal: SlobberhannesDeal) -> None:
        obs = deal.observation(self.human)
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column(t(self.lang, "player"))
        table.add_column(t(self.lang, "trick_n", number=obs.trick_number))
        table.add_column(t(self.lang, "penalties"), justify="right")
        played = dict(zip(obs.trick.seats, obs.trick.cards, strict=True))
        totals = self.match.totals()
        for seat in range(obs.players):
            name = self.names[seat] + (" *" if seat == obs.trick.leader else "")
            card = _card_text(played[seat]) if seat in played else ""
            table.add_row(name, card, f"{obs.penalties[seat]} ({totals[seat]})")
        self.console.print(table)
        legal = set(obs.legal_actions)
        hand = " ".join(_card_text(c) if c in legal else f"[dim]{c.symbol}[/]" for c in obs.hand)
        self.say(f"{t(self.lang, 'your_hand')}: {hand}")

    def _hint(self, deal: SlobberhannesDeal) -> None:
        from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot

        obs = deal.observation(self.human)
        means = StrongSlobberhannesBot(len(deal.actions), samples=30).evaluate(obs)
        if not means:
            return
        ranked = sorted(means.items(), key=lambda item: (item[1], item[0]))
        best, value = ranked[0]
        if len(ranked) == 1:
            reason = t(self.lang, "hint_forced")
        else:
            other, other_value = ranked[1]
            reason = t(
                self.lang,
                "hint_reason",
                value=f"{value:.2f}",
                other=_card_text(other),
                other_value=f"{other_value:.2f}",
            )
        self.say(t(self.lang, "hint", card=_card_text(best), reason=reason))

    def _human_turn(self, deal: SlobberhannesDeal) -> list[Event] | None:
        self._show_table(deal)
        if self.hint:
            self._hint(deal)
        while True:
            text = self._ask(t(self.lang, "prompt_card")).strip()
            if text.lower() in ("q", "quit", "exit"):
                return None
            if text.lower() in ("h", "help", "?"):
                self.say(t(self.lang, "help"))
                continue
            if text.lower() in ("hand", "table", ""):
                self._show_table(deal)
                continue
            try:
                card = Card.parse(text)
                return self.match.apply(card, self.human)
            except NotationError:
                self.say(escape(t(self.lang, "bad_notation", text=text)))
            except IllegalActionError as exc:
                self.say(t(self.lang, "refused", reason=describe_refusal(exc, self.lang)))

    def _narrate(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, CardPlayed) and event.seat != self.human:
                self.say(
                    t(self.lang, "plays", who=self.names[event.seat], card=_card_text(event.card))
                )
            elif isinstance(event, TrickWon):
                cards = " ".join(_card_text(c) for c in event.cards)
                self.say(
                    t(
                        self.lang,
                        "wins_trick",
                        who=self.names[event.seat],
                        number=event.trick,
                        cards=cards,
                    )
                )
            elif isinstance(event, PenaltyCharged):
                self.say(
                    "  [yellow]"
                    + penalty_line(event.reason, self.names[event.seat], event.chips, self.lang)
                    + "[/]"
                )

    def _standings(self, deal: SlobberhannesDeal) -> None:
        match = self.match
        self.say(t(self.lang, "deal_result", number=len(match.deals)))
        table = Table(box=None)
        table.add_column(t(self.lang, "player"))
        table.add_column(t(self.lang, "this_deal"), justify="right")
        table.add_column(t(self.lang, "penalties"), justify="right")
        if match.options.scoring == "chips":
            table.add_column(t(self.lang, "chips"), justify="right")
        chips = match.chips()
        for seat, (now, total) in enumerate(zip(deal.points(), match.totals(), strict=True)):
            row = [self.names[seat], str(now), str(total)]
            if match.options.scoring == "chips":
                row.append(str(chips[seat]))
            table.add_row(*row)
        self.console.print(table)
        if match.options.partnership:
            sides = ", ".join(
                f"{' + '.join(self.names[s] for s in team)}: {total}"
                for team, total in zip(match.options.teams(), match.team_totals(), strict=True)
            )
            self.say(f"{t(self.lang, 'team')}: {sides}")

    def _final(self) -> None:
        result = self.match.result
        assert result is not None
        losers = ", ".join(self.names[s] for s in result.losers)
        if self.match.options.ending == "first_to_target":
            self.say(
                "[bold]"
                + t(self.lang, "match_lost", who=losers, target=self.match.options.target)
                + "[/]"
            )
        else:
            winners = ", ".join(self.names[s] for s in result.winners)
            self.say("[bold]" + t(self.lang, "match_won", who=winners) + "[/]")
        pay = ", ".join(f"{self.names[s]} {v:+d}" for s, v in enumerate(result.settlement))
        self.say(f"{t(self.lang, 'settlement')}: {pay}")

    def _save(self) -> None:
        if self.save:
            write_record(self.match.to_record(), self.save)
            self.say(f"[dim]{t(self.lang, 'saved', path=self.save)}[/]")


def play(args: argparse.Namespace, read: Callable[[str], str] | None = None) -> int:
    """Run ``kartentisch play slobberhannes`` from parsed arguments."""
    overrides: dict[str, object] = {"preset": args.preset}
    if args.players is not None:
        overrides["players"] = args.players
    if args.revokes is not None:
        overrides["revokes"] = args.revokes
    if args.partnership:
        overrides["partnership"] = True
    if args.scoring is not None:
        overrides["scoring"] = args.scoring
    options = SlobberhannesOptions.from_dict(overrides)
    lang = args.lang
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    names = [args.name or t(lang, "player_default"), *BOT_NAMES[lang][1 : options.players]]
    match = SlobberhannesMatch(options, seats=names, seed=seed, start=False)
    bot_rng = random.Random(seed + 1)
    bots = {
        s: make_bot("slobberhannes", args.bots, bot_rng.randrange(2**32))
        for s in range(1, options.players)
    }
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
    console = Console(highlight=False)
    return TerminalGame(
        match,
        bots,
        lang,
        args.save,
        console,
        read or _reader(console),
        hint=bool(getattr(args, "hint", False)),
    ).run()


def _reader(console: Console) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        console.print(prompt, end="", highlight=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return read
