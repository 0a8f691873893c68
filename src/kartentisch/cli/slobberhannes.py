"""Slobberhannes in the terminal: you at seat 0 against bots."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from rich.markup import escape
from rich.table import Table

from kartentisch.cards import Card
from kartentisch.cli.tableplay import TableGame, add_seat_arguments, card_text, start_game
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
from kartentisch.i18n import card_input, describe_refusal, t

__all__ = ["add_play_arguments", "play"]


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
    add_seat_arguments(parser, "slobberhannes")


class TerminalGame(TableGame[SlobberhannesMatch, SlobberhannesDeal]):
    """Drives a match: bots act by themselves, the human is asked for cards."""

    def run(self) -> int:
        match = self.match
        if match.draw is not None:
            last = match.draw.rounds[-1]
            cards = ", ".join(f"{self.names[s]} {card_text(c, self.lang)}" for s, c in last)
            self.say(t(self.lang, "draw", cards=cards, who=self.names[match.draw.leader]))
        while not match.is_over:
            deal = self._start_deal()
            self._deal_header(len(match.deals), deal.dealer, deal.leader)
            if not self._play_out(deal):
                return 0
            self._standings(deal)
            if not match.is_over and self._stop_here(t(self.lang, "next_deal")):
                return 0
        self._final()
        return 0

    def _start_deal(self) -> SlobberhannesDeal:
        match = self.match
        cut: int | None = None
        if match.options.cut:
            dealer = match.next_dealer
            cutter = (dealer - 1) % match.options.players
            cut = self._cut(cutter, len(match.options.deck()), insist=True)
        return match.start_deal(cut=cut)

    def _show_table(self, deal: SlobberhannesDeal) -> None:
        obs = deal.observation(self.human)
        totals = self.match.totals()
        self._trick_table(
            obs,
            t(self.lang, "penalties"),
            range(obs.players),
            lambda seat: f"{obs.penalties[seat]} ({totals[seat]})",
        )
        legal = set(obs.legal_actions)
        hand = " ".join(card_text(c, self.lang, dim=c not in legal) for c in obs.hand)
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
                other=card_text(other, self.lang),
                other_value=f"{other_value:.2f}",
            )
        self.say(t(self.lang, "hint", card=card_text(best, self.lang), reason=reason))

    def _prompt(self) -> str:
        return t(self.lang, "prompt_card")

    def _help(self) -> str:
        return t(self.lang, "help")

    def _try_action(self, deal: SlobberhannesDeal, text: str) -> list[Event] | None:
        try:
            card = Card.parse(card_input(self.lang, text))
            return self.match.apply(card, self.human)
        except NotationError:
            self.say(escape(t(self.lang, "bad_notation", text=text)))
        except IllegalActionError as exc:
            self.say(t(self.lang, "refused", reason=describe_refusal(exc, self.lang)))
        return None

    def _narrate(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, CardPlayed) and event.seat != self.human:
                self.say(self._played(event.seat, event.card))
            elif isinstance(event, TrickWon):
                self.say(self._trick_won(event.seat, event.trick, event.cards))
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
    return start_game(TerminalGame, SlobberhannesMatch, options, args, read)
