"""The one declaration question a person is asked per deal: Gesund, or Vorbehalt and which.

The engine asks its declarations in rounds, every seat in every round
(:mod:`~kartentisch.games.doppelkopf.declarations`; sheet order: Scharfe,
soli, Hochzeit / Armut; DDV order: gesund or Vorbehalt, then the
reservation named). A person at a table (the web page, the terminal) is asked
once per deal instead, as in the card rooms: "Gesund", or "Vorbehalt" and
what the reservation is. The answer then decides that seat's action in every
round of the deal, and the table gives those actions one by one, each an
ordinary engine action: the record keeps its notation, and the order of
precedence is the engine's, unchanged (a reservation that something said
earlier outranks, or that the Scharfe declared meanwhile spoil, becomes
``pass`` in its round). A round whose only answer is ``pass`` is never asked:
the table answers it.

The question is asked at the seat's first turn of the deal that has a
choice, and lists only what this hand can still say: Scharfe (in the Scharfe
round, with both ♥A and/or both ♥K), the soli the rules allow that outrank
what was claimed, a Hochzeit with both ♣Q (with its partner rule where the
holder chooses), an Armut when the hand qualifies now, the redeal with five
kings. A Scharfe may go with one other reservation (``vorbehalt scharfe
aces + hochzeit``); the redeal goes alone.

Answers are written ``gesund`` or ``vorbehalt RESERVATION`` with
RESERVATION one call of the notation, or a ``scharfe`` call, ``+`` and one
other call. They are not actions of the record: what is stored is the engine
action each round gets.

Seat 1 holds one ♥A and one ♥K: the Scharfe round is answered for it, and the
question comes in the solo round. It says Gesund; the marriage round is answered
for it too.

>>> from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
>>> deal = DoppelkopfDeal.from_seed(3, dealer=0)
>>> answers, seat = Answers(), deal.to_move
>>> answers.question(deal, seat), answers.forced(deal, seat)
(None, Call('pass'))
>>> def others_pass():
...     while deal.declaration_round is not None and deal.to_move != seat:
...         _ = deal.apply(PASS, deal.to_move)
>>> _ = deal.apply(answers.forced(deal, seat), seat)
>>> others_pass()
>>> question = answers.question(deal, seat)
>>> deal.declaration_round, question.gesund, question.scharfe, str(question.reservations[0])
('solo', True, (), 'solo trump')
>>> answer, action = answers.check(deal, seat, Answer.parse("gesund"))
>>> _ = deal.apply(action, seat)
>>> answers.keep(deal, seat, answer)
>>> others_pass()
>>> answers.question(deal, seat), answers.forced(deal, seat)
(None, Call('pass'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from kartentisch.errors import IllegalActionError, NotationError
from kartentisch.games.doppelkopf.actions import HOCHZEIT_RULES, Action, Call, parse_action
from kartentisch.games.doppelkopf.declarations import (
    may_declare_armut,
    scharfe_parts,
    solo_options,
)
from kartentisch.games.doppelkopf.trumps import QUEEN_OF_CLUBS

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
    from kartentisch.games.doppelkopf.options import DoppelkopfOptions

__all__ = ["Answer", "Answers", "Question", "offer", "round_action"]

PASS: Final = Call("pass")
VORBEHALT: Final = Call("vorbehalt")
REDEAL: Final = Call("redeal")
#: The calls a reservation may be (besides a Scharfe, which may go with one of them).
RESERVATION_WORDS: Final = frozenset({"solo", "hochzeit", "armut", "redeal"})
_GESUND: Final = frozenset({"gesund", "healthy", "пас", "здоров"})
_VORBEHALT: Final = frozenset({"vorbehalt", "reservation", "оговорка"})


def _rounds(options: DoppelkopfOptions) -> tuple[str, ...]:
    """The declaration rounds of these rules, in order (as the engine asks them)."""
    if options.declarations == "ddv":
        return ("vorbehalt", "reservation")
    return ("scharfe", "solo", "marriage") if options.scharfe else ("solo", "marriage")


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's answer for the deal: Gesund (nothing), or a Vorbehalt and what it is."""

    #: The Scharfe declared (``scharfe aces`` …), if any.
    scharfe: Call | None = None
    #: The reservation: a solo, a Hochzeit, an Armut or the redeal, if any.
    reservation: Call | None = None

    @property
    def gesund(self) -> bool:
        return self.scharfe is None and self.reservation is None

    def __str__(self) -> str:
        if self.gesund:
            return "gesund"
        parts = [str(c) for c in (self.scharfe, self.reservation) if c is not None]
        return "vorbehalt " + " + ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Answer | None:
        """Read an answer; None if ``text`` is no answer (an engine action, say).

        >>> str(Answer.parse("Vorbehalt scharfe asse + hochzeit fehl"))
        'vorbehalt scharfe aces + hochzeit first_nontrump'
        >>> Answer.parse("vorbehalt") is None, Answer.parse("pass") is None
        (True, True)
        >>> Answer.parse("vorbehalt re")
        Traceback (most recent call last):
        ...
        kartentisch.errors.NotationError: a Vorbehalt is a solo, a Hochzeit, an Armut, \
a redeal or Scharfe, not 're'
        """
        if not isinstance(text, str):
            return None
        words = text.strip().split(None, 1)
        if not words:
            return None
        head = words[0].lower()
        if head in _GESUND:
            if len(words) > 1:
                raise NotationError(f"'gesund' takes nothing after it, not {words[1]!r}")
            return cls()
        if head not in _VORBEHALT or len(words) == 1:
            return None
        scharfe: Call | None = None
        reservation: Call | None = None
        for part in words[1].split("+"):
            if not part.strip():
                raise NotationError(f"{text!r}: an empty part between the '+'")
            call = parse_action(part)
            if not isinstance(call, Call) or call.word not in RESERVATION_WORDS | {"scharfe"}:
                raise NotationError(
                    "a Vorbehalt is a solo, a Hochzeit, an Armut, a redeal or Scharfe, "
                    f"not {part.strip()!r}"
                )
            if call.word == "scharfe":
                if scharfe is not None:
                    raise NotationError(f"{text!r}: name the Scharfe once")
                scharfe = call
            else:
                if reservation is not None:
                    raise NotationError(
                        f"{text!r}: one reservation at a time ({reservation} or {call})"
                    )
                reservation = call
        if scharfe is not None and reservation == REDEAL:
            raise NotationError("a redeal voids the deal: it goes alone, without Scharfe")
        return cls(scharfe, reservation)


@dataclass(frozen=True, slots=True)
class Question:
    """What a seat may answer now."""

    #: "Gesund" is an answer (``pass`` is legal in this round).
    gesund: bool
    #: The first step is "Gesund or Vorbehalt?"; False when the seat has said Vorbehalt
    #: already (DDV order) and names it now.
    vorbehalt: bool
    #: The Scharfe this hand may declare (each may go with one reservation).
    scharfe: tuple[Call, ...]
    #: The reservations this hand may still make, in the order offered.
    reservations: tuple[Call, ...]

    @property
    def choice(self) -> bool:
        """Whether there is anything to answer but "Gesund"."""
        return bool(self.scharfe or self.reservations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "gesund": self.gesund,
            "vorbehalt": self.vorbehalt,
            "scharfe": [str(c) for c in self.scharfe],
            "reservations": [str(c) for c in self.reservations],
        }


def _calls(legal: Sequence[Action], *words: str) -> tuple[Call, ...]:
    return tuple(a for a in legal if isinstance(a, Call) and a.word in words)


def offer(deal: DoppelkopfDeal, seat: int) -> Question | None:
    """Everything ``seat`` could still declare this deal (None unless it is asked now).

    Soli, Hochzeit and Armut of a later round are offered as they stand now:
    a claim made meanwhile can only take them away (the order of
    precedence), never add one.
    """
    name = deal.declaration_round
    if name is None or deal.to_move != seat:
        return None
    legal = deal.legal_actions(seat)
    options = deal.options
    rounds = _rounds(options)
    ahead = rounds[rounds.index(name) :]
    solo_said = any(c.word == "solo" for _, c in deal.declarations)
    marriage = "marriage" in ahead and not solo_said
    both_alten = deal.hand(seat).count(QUEEN_OF_CLUBS) == 2
    found: list[Call] = []
    # Soli: claimable in this round as the engine lists them, or in a later one.
    if name in ("solo", "reservation"):
        found += _calls(legal, "solo")
    elif "solo" in ahead or name == "vorbehalt":
        found += solo_options(deal, seat)
    # Hochzeit.
    if name in ("marriage", "reservation"):
        found += _calls(legal, "hochzeit")
    elif both_alten and (marriage or name == "vorbehalt"):
        if options.hochzeit == "choice" and name != "vorbehalt":
            found += (Call("hochzeit", rule) for rule in HOCHZEIT_RULES)
        else:
            found.append(Call("hochzeit"))
    # Armut (sheet order only; the engine lists it in its round).
    if name == "marriage":
        found += _calls(legal, "armut")
    elif marriage and may_declare_armut(deal, seat):
        found.append(Call("armut"))
    if REDEAL in legal:
        found.append(REDEAL)
    # Without a stille Hochzeit both Alten must be declared: no "gesund" for them.
    silent_ok = options.stille_hochzeit or not both_alten or not (marriage or name == "vorbehalt")
    if deal.vorfuehrung == seat and any(c.word == "solo" for c in found):
        # Vorgeführt: a solo it must declare (or throw in); no "gesund", no other reservation.
        found = [c for c in found if c.word in ("solo", "redeal")]
        silent_ok = False
    return Question(
        gesund=PASS in legal and silent_ok,
        vorbehalt=name != "reservation",
        scharfe=_calls(legal, "scharfe") if name == "scharfe" else (),
        reservations=tuple(found),
    )


def round_action(deal: DoppelkopfDeal, seat: int, answer: Answer) -> Call | None:
    """The engine action ``answer`` gives ``seat`` in the round being asked.

    The part of the answer that belongs to this round if it is legal now, else
    ``pass``: a reservation outranked or spoilt meanwhile is not made. None if
    ``seat`` is not asked now (or, in the DDV naming round, the answer names
    nothing that can be said and ``pass`` is not allowed).
    """
    name = deal.declaration_round
    if name is None or deal.to_move != seat:
        return None
    legal = deal.legal_actions(seat)
    reservation = answer.reservation
    wanted: Call | None
    if reservation == REDEAL:
        wanted = REDEAL
    elif name == "scharfe":
        wanted = answer.scharfe
    elif name == "vorbehalt":
        wanted = VORBEHALT if reservation is not None else None
    elif name == "solo":
        wanted = reservation if reservation is not None and reservation.word == "solo" else None
    elif name == "marriage":
        wanted = (
            reservation
            if reservation is not None and reservation.word in ("hochzeit", "armut")
            else None
        )
    else:
        wanted = reservation
    if wanted is not None and wanted in legal:
        return wanted
    return PASS if PASS in legal else None


def _normal(
    call: Call | None, offered: Sequence[Call], deal: DoppelkopfDeal, seat: int
) -> Call | None:
    """``call`` as the question offers it: ``hochzeit`` with its default rule, a bare
    ``scharfe`` as the pairs held."""
    if call is None or call in offered:
        return call
    if call.word == "hochzeit" and not call.detail:
        named = Call("hochzeit", "first_trick")
        return named if named in offered else call
    if call.word == "scharfe" and not call.detail:
        return Call("scharfe", " ".join(sorted(scharfe_parts(deal.hand(seat), ""))))
    return call


def _only_pass(deal: DoppelkopfDeal, seat: int, question: Question) -> bool:
    """Whether ``pass`` is all ``seat`` can say now: the only legal action of the round,
    or the only answer left this deal."""
    if not question.gesund:
        return False
    return not question.choice or deal.legal_actions(seat) == [PASS]


def _names(calls: Sequence[Call]) -> str:
    return ", ".join(map(str, calls)) or "none"


class Answers:
    """Each seat's answer for the deal being played (a new deal forgets them).

    The table keeps one of these beside its match: :meth:`question` is what
    it asks a seat, :meth:`check` reads an answer into the action of the
    round asked now, :meth:`keep` remembers the answer once that action is
    applied, and :meth:`forced` is the action the table then gives for the
    seat in each later round (or for a round whose only answer is ``pass``).
    """

    def __init__(self) -> None:
        self._deal: DoppelkopfDeal | None = None
        self._given: dict[int, Answer] = {}

    def _of_deal(self, deal: DoppelkopfDeal) -> dict[int, Answer]:
        if deal is not self._deal:
            self._deal = deal
            self._given = {}
        return self._given

    def answer(self, deal: DoppelkopfDeal, seat: int) -> Answer | None:
        """The answer ``seat`` gave in ``deal``, if any."""
        return self._of_deal(deal).get(seat)

    def question(self, deal: DoppelkopfDeal, seat: int) -> Question | None:
        """The question ``seat`` must answer now; None if it need not (or may not) answer."""
        if seat in self._of_deal(deal):
            return None
        question = offer(deal, seat)
        if question is None or _only_pass(deal, seat, question):
            return None
        return question

    def forced(self, deal: DoppelkopfDeal, seat: int) -> Call | None:
        """The action the table gives for ``seat`` now without asking, if any: what
        its answer says for this round, or ``pass`` in a round where nothing else may be
        said (the question waits for a round with a choice)."""
        answer = self._of_deal(deal).get(seat)
        if answer is not None:
            return round_action(deal, seat, answer)
        question = offer(deal, seat)
        if question is not None and _only_pass(deal, seat, question):
            return PASS
        return None

    def check(self, deal: DoppelkopfDeal, seat: int, answer: Answer) -> tuple[Answer, Call]:
        """``answer`` as offered, and the engine action it gives now; raise
        :class:`IllegalActionError` if ``seat`` may not give it."""
        question = offer(deal, seat)
        if question is None:
            if deal.declaration_round is None:
                raise IllegalActionError(
                    "not_now",
                    "the declarations are over: there is nothing to answer",
                    seat=seat,
                    action=str(answer),
                )
            raise IllegalActionError(
                "not_your_turn",
                f"seat {deal.to_move} is asked now, not seat {seat}",
                seat=seat,
                action=str(answer),
            )
        if seat in self._of_deal(deal):
            raise IllegalActionError(
                "answered",
                f"seat {seat} has answered for this deal: {self._given[seat]}",
                seat=seat,
                action=str(answer),
            )
        if answer.gesund:
            if not question.gesund:
                raise IllegalActionError(
                    "name_reservation",
                    "you said Vorbehalt: name it (a solo or a Hochzeit)",
                    seat=seat,
                    action=str(answer),
                )
        else:
            scharfe = _normal(answer.scharfe, question.scharfe, deal, seat)
            reservation = _normal(answer.reservation, question.reservations, deal, seat)
            if scharfe is not None and scharfe not in question.scharfe:
                raise IllegalActionError(
                    "not_offered",
                    f"{scharfe} is not a declaration this hand can make now "
                    f"(Scharfe: {_names(question.scharfe)})",
                    seat=seat,
                    action=str(answer),
                )
            if reservation is not None and reservation not in question.reservations:
                raise IllegalActionError(
                    "not_offered",
                    f"{reservation} is not a reservation this hand can make now: "
                    f"{_names(question.reservations)}",
                    seat=seat,
                    action=str(answer),
                )
            answer = Answer(scharfe, reservation)
        action = round_action(deal, seat, answer)
        if action is None:  # pragma: no cover - every offered answer has an action now
            raise IllegalActionError(
                "not_offered", f"{answer} says nothing now", seat=seat, action=str(answer)
            )
        return answer, action

    def keep(self, deal: DoppelkopfDeal, seat: int, answer: Answer) -> None:
        """Remember ``answer`` of ``seat`` (once the action :meth:`check` gave is applied)."""
        if not deal.is_over:
            self._of_deal(deal)[seat] = answer
