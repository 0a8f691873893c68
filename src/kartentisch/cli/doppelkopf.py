"""Doppelkopf in the terminal: you at seat 0 against bots, on a running score sheet."""

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
from kartentisch.games.doppelkopf.actions import Call, parse_action
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.events import (
    Announced,
    AnnouncementTakenBack,
    ArmutAnswered,
    ArmutCardsPassed,
    ArmutOffered,
    CardPlayed,
    CardTakenBack,
    DealEnded,
    Declared,
    HochzeitAlone,
    HochzeitPartnerFound,
    PlayStarted,
    Redeal,
    TrickWon,
)
from kartentisch.games.doppelkopf.match import DoppelkopfMatch, SheetWritten
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.text import call_text, dk, game_name, refusal_text
from kartentisch.i18n import t
from kartentisch.records import write_record

__all__ = ["add_play_arguments", "play"]

BOT_NAMES = {
    "en": ("Anna", "Ben", "Carla", "Dan", "Eva"),
    "de": ("Anna", "Ben", "Carla", "Dan", "Eva"),
    "ru": ("Алексей", "Борис", "Владимир", "Геннадий", "Дмитрий"),
}
_PROMPT = {
    "en": "Your action (card, word, h for help): ",
    "de": "Deine Aktion (Karte, Wort, h für Hilfe): ",
    "ru": "Ваш ход (карта, слово, h — помощь): ",
}
_HELP = {
    "en": "Cards: QC, 10H, A♠. Words: pass (gesund), scharfe, solo queens [ouvert], "
    "hochzeit [first_trick|first_trump|first_nontrump], armut, vorbehalt, accept, refuse, "
    "give C C C, return C C C, redeal, re, kontra, no90, no60, no30, schwarz, take_back. "
    "'hand' shows the table, 'sheet' the score sheet, 'q' quits.",
    "de": "Karten: QC, 10H, A♠ (Q = Dame, J = Bube). Wörter: gesund, scharfe, solo damen "
    "[ouvert], hochzeit [fremd|trumpf|fehl], armut, vorbehalt, annehmen, ablehnen, "
    "gib C C C, zurück C C C, einmischen, re, kontra, keine90, keine60, keine30, schwarz, "
    "zurücknehmen. 'hand' zeigt den Tisch, 'sheet' die Liste, 'q' beendet.",
    "ru": "Карты: QC, 10H, A♠. Слова: pass, scharfe, solo queens [ouvert], hochzeit, armut, "
    "vorbehalt, accept, refuse, give C C C, return C C C, redeal, re, kontra, no90, no60, "
    "no30, schwarz, take_back. 'hand' — стол, 'sheet' — запись, 'q' — выход.",
}
_LEGAL = {"en": "You may", "de": "Möglich", "ru": "Можно"}
_NEXT = {
    "en": "Enter for the next game, q to quit: ",
    "de": "Enter für das nächste Spiel, q zum Beenden: ",
    "ru": "Enter — следующая игра, q — выход: ",
}
_KULANZ = {
    "en": "That card does not follow suit. Take it back (Kulanz)? [y/N] ",
    "de": "Die Karte bedient nicht. Zurücknehmen (Kulanz)? [j/N] ",
    "ru": "Карта не в масть. Взять назад? [y/N] ",
}


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", choices=("house", "ddv"), default="house", help="rule set (default house)"
    )
    parser.add_argument("--players", type=int, choices=(4, 5), default=4, help="4 or 5")
    parser.add_argument("--seed", type=int, default=None, help="seed for deals and bots")
    parser.add_argument("--save", metavar="FILE", help="write the session record to FILE")
    parser.add_argument(
        "--table-mode",
        action="store_true",
        help="accept revokes and wrong announcements (punished at the end; Kulanz)",
    )
    parser.add_argument(
        "--bots", choices=LEVELS["doppelkopf"], default="heuristic", help="bot level"
    )
    parser.add_argument("--name", default=None, help="your name at the table")


def _card_text(card: Card) -> str:
    colour = "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "default"
    return f"[bold {colour}]{card.symbol}[/]"


class TerminalGame:
    """Drives a session: bots act by themselves, the human is asked at his turn."""

    def __init__(
        self,
        match: DoppelkopfMatch,
        bots: dict[int, Bot],
        lang: str,
        save: str | None,
        console: Console,
        read: Callable[[str], str],
        human: int = 0,
    ) -> None:
        self.match = match
        self.bots = bots
        self.lang = lang
        self.save = save
        self.console = console
        self.read = read
        self.human = human
        self.names = tuple(escape(n) for n in match.seat_names)
        self.cut_rng = random.Random(match.seed)

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            return "q"

    def run(self) -> int:
        match = self.match
        while True:
            deal = self._start_deal()
            self._announce_deal(deal)
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
                    action = self.bots[seat].choose(deal.observation(seat))
                    events = match.apply(action, seat)
                self._narrate(events)
            self._save()
            if deal.outcome == "redeal":
                continue  # the same dealer deals again at once
            self._show_sheet()
            if self._ask(_NEXT[self.lang]).strip().lower() in ("q", "quit"):
                self.say(t(self.lang, "bye"))
                return 0

    def _start_deal(self) -> DoppelkopfDeal:
        match = self.match
        cut: int | None = None
        if match.options.players == 4:
            cutter = (match.next_dealer - 1) % 4
            size = match.options.deck_size
            if cutter == self.human:
                answer = self._ask(t(self.lang, "cut_prompt", max=size - 1)).strip()
                if answer.isdigit() and 1 <= int(answer) < size:
                    cut = int(answer)
            else:
                cut = self.cut_rng.randrange(1, size)
        return match.start_deal(cut=cut)

    def _announce_deal(self, deal: DoppelkopfDeal) -> None:
        number = len(self.match.history)
        self.say("")
        self.say(
            "[bold]"
            + t(
                self.lang,
                "deal_header",
                number=number,
                dealer=self.names[deal.dealer],
                leader=self.names[deal.ask_order[0]],
            )
            + "[/]"
        )
        if deal.bock_multiplier > 1:
            self.say("[yellow]" + dk(self.lang, "bock", m=deal.bock_multiplier) + "[/]")
        if self.human not in deal.playing:
            self.say(dk(self.lang, "sits_out", who=self.names[self.human]))

    def _show_table(self, deal: DoppelkopfDeal) -> None:
        obs = deal.observation(self.human)
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column(t(self.lang, "player"))
        table.add_column(t(self.lang, "trick_n", number=obs.trick_number))
        table.add_column(dk(self.lang, "points"), justify="right")
        played = dict(zip(obs.trick.seats, obs.trick.cards, strict=True))
        totals = self.match.totals()
        for seat in obs.playing:
            name = self.names[seat] + (" *" if seat == obs.trick.leader else "")
            party = obs.revealed.get(seat)
            if party:
                name += f" ({dk(self.lang, 'party_' + party)})"
            card = _card_text(played[seat]) if seat in played else ""
            table.add_row(name, card, str(totals[seat]))
        self.console.print(table)
        kind = game_name(obs.game_type, self.lang, ouvert=obs.ouvert)
        self.say(dk(self.lang, "game_is", game=kind))
        if obs.open_hand and obs.soloist is not None and obs.soloist != self.human:
            cards = " ".join(_card_text(c) for c in obs.open_hand)
            self.say(f"{self.names[obs.soloist]} (ouvert): {cards}")
        legal = {a for a in obs.legal_actions if isinstance(a, Card)}
        hand = " ".join(
            _card_text(c) if c in legal or not legal else f"[dim]{c.symbol}[/]" for c in obs.hand
        )
        self.say(f"{t(self.lang, 'your_hand')}: {hand}")
        words = [str(a) for a in obs.legal_actions if isinstance(a, Call)]
        if words:
            self.say(f"[dim]{_LEGAL[self.lang]}: {', '.join(words)}[/]")

    def _human_turn(self, deal: DoppelkopfDeal) -> list[Event] | None:
        self._show_table(deal)
        while True:
            text = self._ask(_PROMPT[self.lang]).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                return None
            if low in ("h", "help", "?"):
                self.say(escape(_HELP[self.lang]))
                continue
            if low in ("hand", "table", ""):
                self._show_table(deal)
                continue
            if low == "sheet":
                self._show_sheet()
                continue
            try:
                action = parse_action(text)
                revoke = (
                    isinstance(action, Card)
                    and deal.options.table_mode
                    and action not in deal.following_actions()
                )
                events = self.match.apply(action, self.human)
            except NotationError as exc:
                self.say(escape(str(exc)))
                continue
            except IllegalActionError as exc:
                self.say(escape(t(self.lang, "refused", reason=refusal_text(exc, self.lang))))
                continue
            if revoke and not deal.is_over:
                answer = self._ask(_KULANZ[self.lang]).strip().lower()
                if answer in ("y", "j", "yes", "ja", "д", "да"):
                    events.extend(self.match.apply(Call("take_back"), self.human))
            return events

    def _narrate(self, events: Sequence[Event]) -> None:
        lang = self.lang
        names = self.names
        for event in events:
            if isinstance(event, Declared):
                if event.seat != self.human or event.call != "pass":
                    self.say(
                        dk(
                            lang,
                            "declares",
                            who=names[event.seat],
                            what=call_text(event.call, lang),
                        )
                    )
            elif isinstance(event, ArmutOffered):
                key = "armut_offer_up" if event.direction == "up" else "armut_offer_down"
                self.say(
                    "[yellow]"
                    + dk(
                        lang,
                        key,
                        who=names[event.seat],
                        n=event.trumps,
                        partner=names[event.partner],
                    )
                    + "[/]"
                )
            elif isinstance(event, ArmutAnswered):
                word = "accept" if event.accepted else "refuse"
                self.say(f"{names[event.seat]}: {dk(lang, 'word_' + word)}")
            elif isinstance(event, ArmutCardsPassed):
                key = "armut_given" if event.kind == "give" else "armut_returned"
                self.say(dk(lang, key, who=names[event.seat], n=event.trumps))
            elif isinstance(event, Redeal):
                who = names[event.seat] if event.seat is not None else ""
                self.say("[yellow]" + dk(lang, f"redeal_{event.reason}", who=who) + "[/]")
            elif isinstance(event, PlayStarted):
                line = dk(
                    lang, "game_is", game=game_name(event.game_type, lang, ouvert=event.ouvert)
                )
                if event.soloist is not None:
                    line += ", " + dk(lang, "soloist", who=names[event.soloist])
                self.say(f"[bold]{line}[/] — {dk(lang, 'leads', who=names[event.leader])}")
                if event.scharfe_aces:
                    self.say(dk(lang, "scharfe_aces"))
                if event.scharfe_kings:
                    self.say(dk(lang, "scharfe_kings"))
            elif isinstance(event, Announced):
                what = dk(lang, f"word_{event.word}")
                self.say(
                    "[bold magenta]"
                    + dk(lang, "announces", who=names[event.seat], what=what)
                    + "[/]"
                )
            elif isinstance(event, CardPlayed) and event.seat != self.human:
                self.say(t(lang, "plays", who=names[event.seat], card=_card_text(event.card)))
            elif isinstance(event, CardTakenBack | AnnouncementTakenBack):
                what = (
                    _card_text(event.card)
                    if isinstance(event, CardTakenBack)
                    else dk(lang, f"word_{event.word}")
                )
                self.say(dk(lang, "took_back", who=names[event.seat], card=what))
            elif isinstance(event, TrickWon):
                cards = " ".join(_card_text(c) for c in event.cards)
                self.say(
                    t(lang, "wins_trick", who=names[event.seat], number=event.trick, cards=cards)
                    + f" ({event.augen})"
                )
            elif isinstance(event, HochzeitPartnerFound):
                self.say(
                    "[yellow]"
                    + dk(
                        lang,
                        "partner_found",
                        who=names[event.partner],
                        holder=names[event.holder],
                        trick=event.trick,
                    )
                    + "[/]"
                )
            elif isinstance(event, HochzeitAlone):
                self.say(
                    "[yellow]"
                    + dk(lang, "hochzeit_alone", holder=names[event.holder], trick=event.trick)
                    + "[/]"
                )
            elif isinstance(event, DealEnded):
                self._result(event)
            elif isinstance(event, SheetWritten) and event.row.kind == "miese":
                self.say("[red]" + dk(lang, "miese", who=names[event.row.dealer]) + "[/]")

    def _result(self, event: DealEnded) -> None:
        lang = self.lang
        names = self.names
        re = set(event.re_party)
        deal = self.match.deal
        self.say("")
        self.say(
            "[bold]"
            + dk(lang, "game_is", game=game_name(event.game_type, lang, ouvert=deal.ouvert))
            + "[/]"
        )
        self.say(
            dk(
                lang,
                "parties",
                re=", ".join(names[s] for s in sorted(re)),
                kontra=", ".join(names[s] for s in deal.playing if s not in re),
            )
        )
        self.say(dk(lang, "augen", re=event.augen["re"], kontra=event.augen["kontra"]))
        self.say("[bold]" + dk(lang, "winner", party=dk(lang, "party_" + event.winner)) + "[/]")
        if deal.score is not None:
            for line in deal.score.lines:
                self.say(f"  [dim]{escape(line)}[/]")

    def _show_sheet(self) -> None:
        sheet = self.match.sheet
        table = Table(title=dk(self.lang, "score_sheet"), box=None)
        table.add_column("#", justify="right")
        for name in self.names:
            table.add_column(name, justify="right")
        table.add_column("Bock", justify="right")
        for row in sheet.rows[-12:]:
            mark = " M" if row.kind == "miese" else ""
            cells = [
                f"{total} ({pts:+d})" if pts else str(total)
                for pts, total in zip(row.points, row.totals, strict=True)
            ]
            table.add_row(f"{row.number}{mark}", *cells, f"×{row.multiplier}")
        self.console.print(table)
        pending = sheet.pending_bocks
        if pending:
            self.say(
                "[yellow]"
                + dk(self.lang, "bock_queue", queue=", ".join(str(b) for b in pending))
                + f" — ×{sheet.current_multiplier}[/]"
            )
        else:
            self.say(dk(self.lang, "no_bock"))

    def _save(self) -> None:
        if self.save:
            write_record(self.match.to_record(), self.save)
            self.say(f"[dim]{t(self.lang, 'saved', path=escape(self.save))}[/]")


def play(args: argparse.Namespace, read: Callable[[str], str] | None = None) -> int:
    """Run ``kartentisch play doppelkopf`` from parsed arguments."""
    overrides: dict[str, object] = {"preset": args.rules, "players": args.players}
    if getattr(args, "table_mode", False):
        overrides["table_mode"] = True
    options = DoppelkopfOptions.from_dict(overrides)
    lang = args.lang
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    you = args.name or t(lang, "player_default")
    names = [you, *BOT_NAMES[lang][1 : options.players]]
    match = DoppelkopfMatch(options, seats=names, seed=seed, start=False)
    bot_rng = random.Random(seed + 1)
    bots = {
        s: make_bot("doppelkopf", args.bots, bot_rng.randrange(2**32))
        for s in range(1, options.players)
    }
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
    console = Console(highlight=False)
    return TerminalGame(match, bots, lang, args.save, console, read or _reader(console)).run()


def _reader(console: Console) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        console.print(prompt, end="", highlight=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return read
