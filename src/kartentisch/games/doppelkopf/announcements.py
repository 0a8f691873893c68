"""Announcements (Gewinnansagen): who may say which word, and until when.

Seed 003 § Gewinnansagen and RULINGS: Re or Kontra first, then keine 90, 60,
30, schwarz, each once per party, only while the announcer still holds all
his own cards (``announcements="ten_cards"``); in a solo the soloist's Re is
implicit and the opponents may only say Kontra; after an Armut the two who
exchanged cards say nothing. TSR 6 (``announcements="ddv"``): Re/Kontra
while holding at least 11 of 12 cards, keine 90 at least 10, keine 60 9,
keine 30 8, schwarz 7; an answer (Re or Kontra only) one card later than
the other party's last word needed; with a Hochzeit everything waits for
the deciding trick and the counts drop by its number minus one. A word
includes the lower words of its party not yet said, each of which must
still be in time.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import filterfalse
from typing import TYPE_CHECKING, Final

from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import ANNOUNCEMENTS, Call
from kartentisch.games.doppelkopf.events import Announced
from kartentisch.games.doppelkopf.scoring import Announcement
from kartentisch.games.doppelkopf.state import AnnounceNeed, DealState, Offence

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.options import DoppelkopfOptions

__all__ = [
    "STAGE",
    "Verdict",
    "announce",
    "announcement_calls",
    "announcement_verdicts",
    "announcement_words",
    "counted_cards",
    "may_still_announce",
    "refusal",
]

#: The level of each word: Re/Kontra 0, then the stages 1–4.
STAGE: Final = {"re": 0, "kontra": 0, "no90": 1, "no60": 2, "no30": 3, "schwarz": 4}
_STAGE: Final = STAGE
#: The words of each party from Re or Kontra up: a word implies the ones before it.
_CHAIN: Final = {
    "re": ("re", "no90", "no60", "no30", "schwarz"),
    "kontra": ("kontra", "no90", "no60", "no30", "schwarz"),
}
_CALLS: Final = tuple(Call(w) for w in ANNOUNCEMENTS)
_PARTY_WORDS: Final = frozenset({"re", "kontra"})
_WORD_TEXT: Final = {
    "re": "Re",
    "kontra": "Kontra",
    "no90": "keine 90",
    "no60": "keine 60",
    "no30": "keine 30",
    "schwarz": "schwarz",
}


#: A verdict on one announcement: the party, the words it adds (the implied lower
#: ones first) and whether it is an offence (table mode); or why it is refused.
Verdict = tuple[str, list[str], bool] | IllegalActionError
#: The same before counting the cards in hand: the fewest cards the words need.
Ruling = tuple[str, list[str], bool, int] | IllegalActionError
#: The refusal when no explanation was asked for (legal actions); it is never raised.
_REFUSED: Final = IllegalActionError("announcement_refused", "this announcement is refused")


def _hochzeit_shift(deal: DealState) -> int:
    """DDV: a Hochzeit's deadlines drop by its deciding trick's number minus one
    (unless the option ``hochzeit_shift`` is off)."""
    if deal.game_type != "hochzeit" or not deal.options.hochzeit_shift:
        return 0
    return (deal.hochzeit_trick or 1) - 1


def announcement_floor(options: DoppelkopfOptions) -> int:
    """No announcement is in time with fewer cards in hand, whatever happens.

    House timing: every own card. DDV: see :func:`may_still_announce`, with the
    latest deciding trick a Hochzeit may have.
    """
    size = options.hand_size
    if options.announcements == "ten_cards":
        return size
    return size - 6 - (options.hochzeit_tricks - 1 if options.hochzeit_shift else 0)


def counted_cards(deal: DealState, seat: int) -> int:
    """The cards in hand a deadline counts for ``seat``: its own (``announcement_count
    = "cards"``), or as many as the tricks not yet begun (``tricks``: a word in time
    "with 11 cards" may be said until the first card of the second trick)."""
    if deal.count_tricks:
        return deal.hand_size - (deal.cards_played + 3) // 4
    play = deal.trick_play
    return len(play.hands[seat]) if play is not None else 0


def may_still_announce(deal: DealState, seat: int, cards: int) -> bool:
    """A cheap test before the full rules: may ``seat``, holding ``cards``, be in time?

    House timing needs every own card. DDV: the latest word, schwarz, needs
    ``size - 5`` cards, a reply to schwarz one card fewer; a Hochzeit shifts both.
    """
    if deal.announce_rules[1] == "ten_cards":  # (options.announcements)
        return cards == deal.hand_size
    return cards >= deal.hand_size - 6 - _hochzeit_shift(deal)


def refusal(deal: DealState, call: Call, seat: int) -> IllegalActionError | None:
    """Why ``seat`` may not announce ``call`` now (None if it may)."""
    (verdict,) = announcement_verdicts(deal, seat, (call.word,), explain=True)
    return verdict if isinstance(verdict, IllegalActionError) else None


def announcement_words(deal: DealState, word: str, seat: int) -> tuple[str, list[str], bool]:
    """The party, the words ``word`` adds (implied lower ones first) and whether it offends.

    Raises :class:`IllegalActionError` when the announcement is refused.
    """
    (verdict,) = announcement_verdicts(deal, seat, (word,), explain=True)
    if isinstance(verdict, IllegalActionError):
        raise verdict
    return verdict


def announcement_calls(deal: DealState, seat: int) -> list[Call]:
    """The announcements ``seat`` may make now, in the order of :data:`ANNOUNCEMENTS`.

    Whether a word is in time depends only on the cards in hand once the rest is
    fixed (the party, the words said, the seat's part in a solo or an Armut): the
    fewest cards each word needs is worked out once for that state and kept (shared
    by every deal under the same options), and by seat in ``deal.announce_by_seat``.
    """
    epoch = deal.announce_epoch
    re_party = deal.re_party
    hochzeit_trick = deal.hochzeit_trick
    # The seat's own last answer first: in play only these three change what it is.
    mine = deal.announce_by_seat[seat]
    if mine is not None and mine[0] == epoch and mine[1] is re_party and mine[2] == hochzeit_trick:
        kept = mine[3]
    else:
        kept = _needs(deal, seat)
        deal.announce_by_seat[seat] = (epoch, re_party, hochzeit_trick, kept)
    if deal.count_tricks:
        cards = counted_cards(deal, seat)
    else:  # (the common case inline: the seat's own cards)
        play = deal.trick_play
        assert play is not None
        cards = len(play.hands[seat])
    return [need[1] for need in kept if cards >= need[0]]


#: The announcements a seat may make, with the fewest cards each needs, by everything
#: the rules read: the options, the game, the seat's party and part, the words said
#: (shared by all deals: the same few states recur).
_NEEDS: Final[dict[tuple[object, ...], tuple[AnnounceNeed, ...]]] = {}
#: Each word's bit in the words a party has said.
_WORD_BIT: Final = {w: 1 << i for i, w in enumerate(ANNOUNCEMENTS)}


def _needs(deal: DealState, seat: int) -> tuple[AnnounceNeed, ...]:
    """The announcements ``seat`` may make, each with the fewest cards it needs."""
    party = deal.party_of(seat)
    said = 0  # the words of the seat's party, as bits
    top = -1  # the other party's highest word (its stage)
    for a in deal.announcements:
        if a.party == party:
            said |= _WORD_BIT[a.word]
        else:
            top = max(top, _STAGE[a.word])
    key = (
        deal.announce_rules,
        deal.phase,
        deal.game_type,
        deal.solo,
        deal.silent,
        deal.hochzeit_partner is None,
        deal.hochzeit_trick,
        party,
        seat == deal.soloist,
        seat == deal.armut_by or seat == deal.armut_partner,
        said,
        top,
    )
    kept = _NEEDS.get(key)
    if kept is None:
        rulings = _rulings(deal, seat, ANNOUNCEMENTS, explain=False)
        kept = tuple(
            (r[3], call, tuple(r[1]), r[2])
            for r, call in zip(rulings, _CALLS, strict=True)
            if type(r) is tuple
        )
        if len(_NEEDS) >= 4096:
            _NEEDS.clear()  # (a bound, never reached in practice)
        _NEEDS[key] = kept
    return kept


def _refuse_all(
    words: Sequence[str], seat: int, explain: bool, rule: str, message: str
) -> list[Ruling]:
    if not explain:
        return [_REFUSED] * len(words)
    return [IllegalActionError(rule, message, seat=seat, action=w) for w in words]


def announcement_verdicts(
    deal: DealState, seat: int, words: Sequence[str], *, explain: bool
) -> list[Verdict]:
    """A verdict on each of ``words`` said by ``seat`` now, one rule for all of them.

    With ``explain`` a refusal is the :class:`IllegalActionError` to raise;
    without, a shared placeholder (legal actions ask for many words at once).
    """
    rulings = _rulings(deal, seat, words, explain=explain)
    cards = counted_cards(deal, seat)
    out: list[Verdict] = []
    for word, ruling in zip(words, rulings, strict=True):
        if type(ruling) is not tuple:
            out.append(ruling)  # type: ignore[arg-type]
            continue
        party, adds, offence, need = ruling
        if cards >= need:
            out.append((party, adds, offence))
        elif not explain:
            out.append(_REFUSED)
        else:
            out.append(_late(deal, word, seat, adds, cards))
    return out


def _rulings(deal: DealState, seat: int, words: Sequence[str], *, explain: bool) -> list[Ruling]:
    """Each word's refusal by a rule that does not count cards, or the party, the
    words it adds, whether it offends and the fewest cards in hand it needs."""
    options = deal.options
    table_mode = options.table_mode
    house_timing = options.announcements == "ten_cards"
    play = deal.trick_play
    if deal.phase != "play" or play is None:
        return _refuse_all(
            words,
            seat,
            explain,
            "announce_in_play",
            "announcements come after the declarations, during play",
        )
    party = deal.party_of(seat)
    if party is None:
        return _refuse_all(
            words,
            seat,
            explain,
            "hochzeit_unclarified",
            "the Hochzeit partner is not found yet: nobody knows his party",
        )
    hochzeit_open = deal.game_type == "hochzeit" and deal.hochzeit_partner is None
    if hochzeit_open and not house_timing and not deal.solo:
        return _refuse_all(
            words,
            seat,
            explain,
            "hochzeit_unclarified",
            "announcements begin after the Hochzeit's deciding trick",
        )
    own = "re" if party == "re" else "kontra"
    house_solo = options.scoring == "house" and deal.solo and not deal.silent
    armut_pair = deal.game_type == "armut" and seat in (deal.armut_by, deal.armut_partner)
    if not explain and ((house_solo and seat == deal.soloist) or (armut_pair and not table_mode)):
        return [_REFUSED] * len(words)  # every word is refused, by one rule or another
    # The words said for this party, and its own words not said yet, lowest first.
    said = {a.word for a in deal.announcements if a.party == party} if deal.announcements else ()
    unsaid = list(filterfalse(said.__contains__, _CHAIN[own]))
    size = deal.hand_size
    shift = _hochzeit_shift(deal)
    reply = None if house_timing else reply_minimum(deal, party)
    out: list[Ruling] = []
    for word in words:
        offence = False
        if word != own and word in _PARTY_WORDS:
            if not table_mode:
                out.append(
                    IllegalActionError(
                        "wrong_party",
                        f"seat {seat} plays {own.capitalize()} and cannot say {word.capitalize()}",
                        seat=seat,
                        action=word,
                    )
                    if explain
                    else _REFUSED
                )
                continue
            offence = True
        if house_solo:
            if seat == deal.soloist:
                out.append(
                    IllegalActionError(
                        "solo_implicit_re",
                        "a solo holds an implicit Re; the soloist announces nothing",
                        seat=seat,
                        action=word,
                    )
                    if explain
                    else _REFUSED
                )
                continue
            if word != "kontra" and not offence:
                out.append(
                    IllegalActionError(
                        "solo_only_kontra",
                        "a solo has no stages: its opponents may only say Kontra",
                        seat=seat,
                        action=word,
                    )
                    if explain
                    else _REFUSED
                )
                continue
        if armut_pair:
            if not table_mode:
                out.append(
                    IllegalActionError(
                        "armut_no_announcements",
                        "after an Armut the two players who exchanged cards may not announce",
                        seat=seat,
                        action=word,
                    )
                    if explain
                    else _REFUSED
                )
                continue
            offence = True
        if word in said:
            what = (
                f"{word} has already been said for this party"
                if offence
                else f"{_WORD_TEXT[word]} has already been announced by this party (once per party)"
            )
            out.append(
                IllegalActionError("already_announced", what, seat=seat, action=word)
                if explain
                else _REFUSED
            )
            continue
        # A word adds the lower words of its party not said yet (an offence only itself).
        adds = [word] if offence else unsaid[: unsaid.index(word) + 1]
        out.append((party, adds, offence, _need(size, shift, reply, adds, house_timing)))
    return out


def _need(size: int, shift: int, reply: int | None, words: list[str], house: bool) -> int:
    """The fewest cards in hand with which all of ``words`` are still in time."""
    if house:
        return size
    need = 0
    for w in words:
        own_need = size - 1 - _STAGE[w] - shift
        if reply is not None and w in _PARTY_WORDS and words == [w]:
            own_need = min(own_need, reply)  # an answer, one card later
        need = max(need, own_need)
    return need


def announce(deal: DealState, word: str, seat: int) -> list[Event]:
    """Make the announcement (already checked) with the lower words it implies."""
    party, words, offence = _accepted(deal, word, seat)
    for w in words:
        deal.announcements.append(Announcement(seat, party, w))  # type: ignore[arg-type]
    deal.announce_epoch += 1
    if offence:
        deal.offences.append(Offence(seat, "announcement", deal.cards_played, word))
    return [Announced(seat, party, word, tuple(w for w in words if w != word))]


def _accepted(deal: DealState, word: str, seat: int) -> tuple[str, list[str], bool]:
    """:func:`announcement_words`, read from the table of what the seat may say when
    ``word`` is there and in time (the rules decide the same; else they are asked)."""
    party = deal.party_of(seat)
    if deal.phase == "play" and deal.trick_play is not None and party is not None:
        cards = counted_cards(deal, seat)
        for need, call, adds, offence in _needs(deal, seat):
            if call.word == word and cards >= need:
                return party, list(adds), offence
    return announcement_words(deal, word, seat)


def _late(
    deal: DealState, word: str, seat: int, words: list[str], cards: int
) -> IllegalActionError:
    """Why ``words`` (said as ``word`` by a seat holding ``cards``) come too late."""
    size = deal.hand_size
    if deal.options.announcement_count == "tricks":
        return _late_by_tricks(deal, word, seat, words)
    if deal.options.announcements == "ten_cards":
        return IllegalActionError(
            "announce_with_all_cards",
            f"announcements only while holding all {size} own cards (seat {seat} holds {cards})",
            seat=seat,
            action=word,
            cards=size,
        )
    shift = _hochzeit_shift(deal)
    late = [w for w in words if cards < size - 1 - _STAGE[w] - shift]
    w = late[0] if late else word  # (an answer too late even one card later)
    need = size - 1 - _STAGE[w] - shift
    return IllegalActionError(
        "announcement_deadline",
        f"{_WORD_TEXT[w]} needs at least {need} cards in hand (seat {seat} holds {cards})",
        seat=seat,
        action=word,
        cards=need,
    )


def _late_by_tricks(deal: DealState, word: str, seat: int, words: list[str]) -> IllegalActionError:
    """Deadlines counted by tricks: the first card of which trick ended the time."""
    size = deal.hand_size
    if deal.options.announcements == "ten_cards":
        need = size
    else:
        shift = _hochzeit_shift(deal)
        need = max(size - 1 - _STAGE[w] - shift for w in words)
        reply = reply_minimum(deal, deal.party_of(seat) or "")
        if reply is not None and words == [word] and word in _PARTY_WORDS:
            need = min(need, reply)
    trick = size - need + 1
    return IllegalActionError(
        "announcement_deadline_trick",
        f"{_WORD_TEXT[word]} was in time until the first card of trick {trick}",
        seat=seat,
        action=word,
        trick=trick,
    )


def reply_minimum(deal: DealState, party: str) -> int | None:
    """TSR: Re/Kontra answers the other party one card later than its last word needed
    (unless the option ``announcement_reply`` is off)."""
    if not deal.options.announcement_reply:
        return None
    size = deal.hand_size
    shift = _hochzeit_shift(deal)
    theirs = [a.word for a in deal.announcements if a.party != party]
    if not theirs:
        return None
    top = max(_STAGE[w] for w in theirs)
    return size - 1 - top - shift - 1
