"""Doppelkopf in the terminal: you at seat 0 against bots, on a running score sheet."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table

from kartentisch.cards import Card
from kartentisch.cli.rulefiles import read_rules_file, refuse_flags_with_rules
from kartentisch.cli.tableplay import TableGame, add_seat_arguments, card_text, start_game
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError, KartentischError, NotationError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf.actions import Action, Call, parse_action
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
    PigsShown,
    PlayStarted,
    Redeal,
    TrickWon,
)
from kartentisch.games.doppelkopf.explain import explain_deal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch, SheetWritten
from kartentisch.games.doppelkopf.options import PRESETS, DoppelkopfOptions
from kartentisch.games.doppelkopf.question import Answer, Answers, Question
from kartentisch.games.doppelkopf.text import (
    answer_text,
    call_text,
    dk,
    game_name,
    refusal_text,
    typed_call,
)
from kartentisch.i18n import card_input, t

if TYPE_CHECKING:
    from kartentisch.analysis.doppelkopf_turn import BotView

__all__ = ["add_play_arguments", "play", "play_options"]

#: The keys of the declaration question, in each language's letters: gesund (пас), a
#: Vorbehalt (оговорка), and back from the list (zurück, назад).
_GESUND_KEYS = frozenset({"g", "healthy", "п"})
_VORBEHALT_KEYS = frozenset({"v", "vorbehalt", "reservation", "о"})
_BACK = frozenset({"b", "z", "back", "zurück", "zurueck", "н", "назад"})


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        metavar="FILE",
        default=None,
        help="a rule-set file (TOML or JSON, e.g. examples/rules/with-nines.toml); "
        "a preset's name (house, ddv) is read as --preset",
    )
    parser.add_argument(
        "--preset", choices=tuple(PRESETS), default=None, help="the preset (default house)"
    )
    parser.add_argument(
        "--players", type=int, choices=(4, 5), default=None, help="4 or 5 (default 4)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for deals and bots")
    parser.add_argument("--save", metavar="FILE", help="write the session record to FILE")
    parser.add_argument(
        "--table-mode",
        action="store_true",
        help="accept revokes and wrong announcements (punished at the end; Kulanz)",
    )
    add_seat_arguments(parser, "doppelkopf")


def _choice(call: Call, lang: str) -> str:
    """A possible declaration as the list shows it: what to type, named in the language
    when the language has no words of its own to type (Russian: ``козырное соло (solo trump)``)."""
    typed = typed_call(call, lang)
    name = call_text(call, lang)
    if name.lower() == typed.lower() or typed != str(call) or lang == "en":
        return typed
    return f"{name} ({typed})"


class TerminalGame(TableGame[DoppelkopfMatch, DoppelkopfDeal]):
    """Drives a session: bots act by themselves, the human is asked at his turn.

    The declarations are one question a deal (Gesund, or Vorbehalt and which:
    :mod:`kartentisch.games.doppelkopf.question`); the rounds the answer decides
    are declared for the human without asking, and so is a round with nothing
    to say but ``pass``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.answers = Answers()

    def run(self) -> int:
        while True:
            deal = self._start_deal()
            self._announce_deal(deal)
            if not self._play_out(deal):
                return 0
            if deal.outcome == "redeal":
                continue  # the same dealer deals again at once
            self._show_sheet()
            if self._stop_here(t(self.lang, "term.dk.next")):
                return 0

    def _start_deal(self) -> DoppelkopfDeal:
        match = self.match
        cut: int | None = None
        if match.options.players == 4:
            cutter = (match.next_dealer - 1) % 4
            cut = self._cut(cutter, match.options.deck_size, insist=False)
        return match.start_deal(cut=cut)

    def _announce_deal(self, deal: DoppelkopfDeal) -> None:
        self._deal_header(len(self.match.history), deal.dealer, deal.ask_order[0])
        if deal.bock_multiplier > 1:
            self.say("[yellow]" + dk(self.lang, "bock", m=deal.bock_multiplier) + "[/]")
        if self.human not in deal.playing:
            self.say(dk(self.lang, "sits_out", who=self.names[self.human]))

    def _human_turn(self, deal: DoppelkopfDeal) -> list[Event] | None:
        if deal.declaration_round is not None:
            forced = self.answers.forced(deal, self.human)
            if forced is not None:
                # Said by the table for the person (their one answer, or no other choice).
                events = self.match.apply(forced, self.human)
                for event in events:
                    # (a pass of the person's is not narrated otherwise; any other call is)
                    if (
                        isinstance(event, Declared)
                        and event.seat == self.human
                        and event.call == "pass"
                    ):
                        said = call_text(event.call, self.lang)
                        auto = t(self.lang, "log.by.auto")
                        self.say(
                            dk(self.lang, "declares", who=self.names[event.seat], what=said)
                            + f" ({auto})"
                        )
                return events
            question = self.answers.question(deal, self.human)
            if question is not None:
                return self._ask_question(deal, question)
        return super()._human_turn(deal)

    def _ask_question(self, deal: DoppelkopfDeal, question: Question) -> list[Event] | None:
        """Ask the one declaration question of the deal; its events, or None if the human quit."""
        lang = self.lang
        self._show_table(deal, words=False)
        if self.hint:
            self._hint(deal)
        naming = not question.vorbehalt
        while True:
            prompt = dk(lang, "q_which" if question.vorbehalt else "q_name")
            if naming:
                self._list_reservations(question)
            text = self._ask(prompt if naming else dk(lang, "q_ask")).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                return None
            if low in ("h", "help", "?"):
                self.say(escape(dk(lang, "q_help")))
                continue
            if low in ("hand", "table", ""):
                self._show_table(deal, words=False)
                continue
            if self._command(low):
                continue
            answer: Answer | None
            if naming and low in _BACK and question.vorbehalt:
                naming = False
                continue
            if not naming and low in _VORBEHALT_KEYS:
                naming = True
                continue
            if not naming and low in _GESUND_KEYS:
                answer = Answer()
            elif naming and low.replace(" ", "").replace("+", "").isdigit():
                answer = self._numbered(question, low)
                if answer is None:
                    self.say(dk(lang, "q_bad_number"))
                    continue
            else:
                try:
                    answer = Answer.parse(text)
                except NotationError as exc:
                    self.say(escape(str(exc)))
                    continue
                if answer is None:  # an engine action typed out: this round only
                    events = self._try_action(deal, text)
                    if events is not None:
                        return events
                    continue
            try:
                answer, action = self.answers.check(deal, self.human, answer)
            except IllegalActionError as exc:
                self.say(escape(t(lang, "refused", reason=refusal_text(exc, lang))))
                continue
            events = self.match.apply(action, self.human)
            self.answers.keep(deal, self.human, answer)
            return events

    def _choices(self, question: Question) -> list[Call | None]:
        """The numbered choices of the reservation list (None: nothing of these)."""
        choices: list[Call | None] = [*question.scharfe, *question.reservations]
        if not question.vorbehalt and question.gesund:
            choices.append(None)
        return choices

    def _list_reservations(self, question: Question) -> None:
        for number, call in enumerate(self._choices(question), 1):
            shown = dk(self.lang, "q_none") if call is None else call_text(call, self.lang)
            self.say(f"  {number:>2}  {escape(shown)}")

    def _numbered(self, question: Question, text: str) -> Answer | None:
        """The answer ``1`` or ``1+4`` names in the list; None if a number is not in it."""
        choices = self._choices(question)
        picked: list[Call | None] = []
        for part in text.split("+"):
            part = part.strip()
            if not part.isdigit() or not 1 <= int(part) <= len(choices):
                return None
            picked.append(choices[int(part) - 1])
        if None in picked:
            return Answer() if picked == [None] else None
        calls = [c for c in picked if c is not None]
        scharfe = [c for c in calls if c.word == "scharfe"]
        others = [c for c in calls if c.word != "scharfe"]
        if len(scharfe) > 1 or len(others) > 1:
            return None
        return Answer(scharfe[0] if scharfe else None, others[0] if others else None)

    def _show_table(self, deal: DoppelkopfDeal, words: bool = True) -> None:
        obs = deal.observation(self.human)
        totals = self.match.totals()

        def party(seat: int) -> str:
            revealed = obs.revealed.get(seat)
            return f" ({dk(self.lang, 'party_' + revealed)})" if revealed else ""

        self._trick_table(
            obs, dk(self.lang, "points"), obs.playing, lambda seat: str(totals[seat]), party
        )
        kind = game_name(obs.game_type, self.lang, ouvert=obs.ouvert)
        self.say(dk(self.lang, "game_is", game=kind))
        if obs.open_hand and obs.soloist is not None and obs.soloist != self.human:
            cards = " ".join(card_text(c, self.lang) for c in obs.open_hand)
            self.say(f"{self.names[obs.soloist]} (ouvert): {cards}")
        legal = {a for a in obs.legal_actions if isinstance(a, Card)}
        hand = " ".join(
            card_text(c, self.lang, dim=bool(legal) and c not in legal) for c in obs.hand
        )
        self.say(f"{t(self.lang, 'your_hand')}: {hand}")
        said = (
            [_choice(a, self.lang) for a in obs.legal_actions if isinstance(a, Call)]
            if words
            else []
        )
        if said:
            self.say(f"[dim]{t(self.lang, 'term.dk.legal')}: {', '.join(said)}[/]")

    def suggestions(self, deal: DoppelkopfDeal) -> list[tuple[Action | Answer, str]]:
        """The strong bot's advice for the human's turn: (action, reason), an
        announcement first where it would make one; at the declaration question the
        answer for every round of the deal."""
        from kartentisch.analysis.doppelkopf_turn import answer_and_next, bot_view
        from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot

        obs = deal.observation(self.human)
        if not obs.legal_actions:
            return []
        bot = StrongDoppelkopfBot(len(deal.actions))
        lang = self.lang
        question = self.answers.question(deal, self.human)
        if question is not None:
            answer = bot.answer(obs, question)
            found = answer_and_next(bot.last_estimates, answer)
            if found is None:
                return [(answer, t(lang, "hint_gesund" if answer.gesund else "hint_not_searched"))]
            estimate, next_answer, next_estimate = found
            why = t(
                lang,
                "hint_estimate",
                value=f"{estimate:+.1f}",
                other=escape(answer_text(next_answer, lang)),
                other_value=f"{next_estimate:+.1f}",
            )
            return [(answer, why)]
        view = bot_view(obs, bot)
        out: list[tuple[Action | Answer, str]] = []
        if view.card is None or view.announce is not None:
            said = view.announce or view.choice
            out.append((said, self._estimate_reason(view, said) or t(lang, "hint_not_searched")))
        if view.card is None:
            return out
        if view.method == "forced":
            reason = t(lang, "hint_forced")
        elif view.expected:
            value = view.expected[view.card]
            others = sorted(
                ((v, c) for c, v in view.expected.items() if c != view.card), reverse=True
            )
            other_value, other = others[0]
            reason = t(
                lang,
                "hint_points",
                value=f"{value:+.1f}",
                other=card_text(other, self.lang),
                other_value=f"{other_value:+.1f}",
            )
        elif view.method == "early-kept":
            reason = t(lang, "hint_early_kept")
        elif len(obs.hand) > bot.exact_tricks:
            reason = t(lang, "hint_early", n=bot.exact_tricks)
        else:
            reason = t(lang, "hint_not_searched")
        out.append((view.card, reason))
        return out

    def _estimate_reason(self, view: BotView, said: Action) -> str | None:
        """The estimated points of a declaration or an announcement and of the next best
        choice (None where it was not estimated)."""
        from kartentisch.analysis.doppelkopf_turn import estimate_and_next

        found = estimate_and_next(view.estimates, said)
        if found is None:
            return None
        value, other, other_value = found
        other_text = (
            t(self.lang, "hint_nothing")
            if other is None
            else card_text(other, self.lang)
            if isinstance(other, Card)
            else escape(call_text(other, self.lang))
        )
        return t(
            self.lang,
            "hint_estimate",
            value=f"{value:+.1f}",
            other=other_text,
            other_value=f"{other_value:+.1f}",
        )

    def _hint(self, deal: DoppelkopfDeal) -> None:
        for action, reason in self.suggestions(deal):
            shown = (
                card_text(action, self.lang)
                if isinstance(action, Card)
                else escape(answer_text(action, self.lang))
                if isinstance(action, Answer)
                else escape(call_text(action, self.lang))
            )
            self.say(t(self.lang, "hint", card=shown, reason=reason))

    def _prompt(self) -> str:
        return t(self.lang, "term.dk.prompt")

    def _help(self) -> str:
        return escape(t(self.lang, "term.dk.help"))

    def _command(self, word: str) -> bool:
        if word == "sheet":
            self._show_sheet()
            return True
        return False

    def _try_action(self, deal: DoppelkopfDeal, text: str) -> list[Event] | None:
        try:
            action = parse_action(card_input(self.lang, text))
            revoke = (
                isinstance(action, Card)
                and deal.options.table_mode
                and action not in deal.following_actions()
            )
            events = self.match.apply(action, self.human)
        except NotationError:
            self.say(escape(t(self.lang, "term.dk.bad_input", text=text)))
            return None
        except IllegalActionError as exc:
            self.say(escape(t(self.lang, "refused", reason=refusal_text(exc, self.lang))))
            return None
        if revoke and not deal.is_over:
            answer = self._ask(t(self.lang, "term.dk.kulanz")).strip().lower()
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
                key = f"armut_offer_{event.direction}"
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
                self.say(dk(lang, key, who=names[event.seat], n=event.trumps, k=event.count))
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
                for scharfe, held in (("aces", event.scharfe_aces), ("kings", event.scharfe_kings)):
                    if held:
                        self.say(dk(lang, "in_this_game", what=dk(lang, f"scharfe_{scharfe}")))
            elif isinstance(event, Announced):
                what = dk(lang, f"word_{event.word}")
                self.say(
                    "[bold magenta]"
                    + dk(lang, "announces", who=names[event.seat], what=what)
                    + "[/]"
                )
            elif isinstance(event, CardPlayed) and event.seat != self.human:
                self.say(self._played(event.seat, event.card))
            elif isinstance(event, CardTakenBack | AnnouncementTakenBack):
                what = (
                    card_text(event.card, lang)
                    if isinstance(event, CardTakenBack)
                    else dk(lang, f"word_{event.word}")
                )
                self.say(dk(lang, "took_back", who=names[event.seat], card=what))
            elif isinstance(event, TrickWon):
                self.say(
                    self._trick_won(event.seat, event.trick, event.cards) + f" ({event.augen})"
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
            elif isinstance(event, PigsShown):
                what = t(lang, f"dk.pig.{event.kind}")
                self.say(
                    "[yellow]" + dk(lang, "pigs_shown", who=names[event.seat], what=what) + "[/]"
                )
            elif isinstance(event, DealEnded):
                self._result(event)
            elif isinstance(event, SheetWritten) and event.row.kind == "miese":
                self.say("[red]" + dk(lang, "miese", who=names[event.row.dealer]) + "[/]")

    def _result(self, event: DealEnded) -> None:
        lang = self.lang
        names = self.names
        deal = self.match.deal
        self.say("")
        self.say(
            "[bold]"
            + dk(lang, "game_is", game=game_name(event.game_type, lang, ouvert=deal.ouvert))
            + "[/]"
        )
        self.say("[bold]" + dk(lang, "winner", party=dk(lang, "party_" + event.winner)) + "[/]")
        if deal.score is not None:
            for line in render_lines(lang, explain_deal(deal), names):
                self.say(f"  [dim]{escape(line)}[/]")

    def _show_sheet(self) -> None:
        sheet = self.match.sheet
        table = Table(title=dk(self.lang, "score_sheet"), box=None)
        table.add_column("#", justify="right")
        for name in self.names:
            table.add_column(name, justify="right")
        table.add_column(dk(self.lang, "bock_column"), justify="right")
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


def play_options(args: argparse.Namespace) -> DoppelkopfOptions:
    """The options ``play doppelkopf``'s flags name: a rule-set file (``--rules FILE``,
    with no other rule flag), or a preset (``--preset``, or its name as ``--rules``)
    with ``--players`` and ``--table-mode``."""
    preset, rules = getattr(args, "preset", None), getattr(args, "rules", None)
    players, table_mode = getattr(args, "players", None), getattr(args, "table_mode", False)
    if rules in PRESETS:  # (--rules ddv: the preset, as before rule-set files)
        if preset is not None and preset != rules:
            raise KartentischError(f"--rules {rules} and --preset {preset} name two presets")
        preset, rules = rules, None
    if rules is not None:
        refuse_flags_with_rules(
            {
                "--preset": preset is not None,
                "--players": players is not None,
                "--table-mode": bool(table_mode),
            }
        )
        options: DoppelkopfOptions = read_rules_file(rules, "doppelkopf").options_object()
        return options
    overrides: dict[str, object] = {"preset": preset or "house", "players": players or 4}
    if table_mode:
        overrides["table_mode"] = True
    return DoppelkopfOptions.from_dict(overrides)


def play(args: argparse.Namespace, read: Callable[[str], str] | None = None) -> int:
    """Run ``kartentisch play doppelkopf`` from parsed arguments."""
    return start_game(TerminalGame, DoppelkopfMatch, play_options(args), args, read)
