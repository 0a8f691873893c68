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

from typing import TYPE_CHECKING, Final

from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import Call

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal

__all__ = ["STAGE", "announcement_words", "may_still_announce", "refusal"]

#: The level of each word: Re/Kontra 0, then the stages 1–4.
STAGE: Final = {"re": 0, "kontra": 0, "no90": 1, "no60": 2, "no30": 3, "schwarz": 4}
_STAGE: Final = STAGE
_WORD_TEXT: Final = {
    "re": "Re",
    "kontra": "Kontra",
    "no90": "keine 90",
    "no60": "keine 60",
    "no30": "keine 30",
    "schwarz": "schwarz",
}


def may_still_announce(deal: DoppelkopfDeal, seat: int, cards: int) -> bool:
    """A cheap test before the full rules: is any announcement still in time?"""
    size = deal.options.hand_size
    if deal.options.announcements == "ten_cards":
        return cards == size
    # DDV: schwarz with 7 of 12, a reply one card later, a Hochzeit two tricks more.
    return cards >= size - 8


def refusal(deal: DoppelkopfDeal, call: Call, seat: int) -> IllegalActionError | None:
    """Why ``seat`` may not announce ``call`` now (None if it may)."""
    try:
        announcement_words(deal, call.word, seat)
    except IllegalActionError as exc:
        return exc
    return None


def announcement_words(deal: DoppelkopfDeal, word: str, seat: int) -> tuple[str, list[str], bool]:
    """The party, the words ``word`` adds (implied lower ones first) and whether it offends.

    Raises :class:`IllegalActionError` when the announcement is refused.
    """
    options = deal.options
    house_timing = options.announcements == "ten_cards"
    if deal.phase != "play" or deal._play is None:
        raise IllegalActionError(
            "announce_in_play",
            "announcements come after the declarations, during play",
            seat=seat,
            action=word,
        )
    party = deal.party_of(seat)
    if party is None:
        raise IllegalActionError(
            "hochzeit_unclarified",
            "the Hochzeit partner is not found yet: nobody knows his party",
            seat=seat,
            action=word,
        )
    hochzeit_open = deal.game_type == "hochzeit" and deal.hochzeit_partner is None
    if hochzeit_open and not house_timing and not deal.solo:
        raise IllegalActionError(
            "hochzeit_unclarified",
            "announcements begin after the Hochzeit's deciding trick",
            seat=seat,
            action=word,
        )
    own = "re" if party == "re" else "kontra"
    said = {(a.party, a.word) for a in deal.announcements}
    offence = False
    if word in ("re", "kontra") and word != own:
        if not options.table_mode:
            raise IllegalActionError(
                "wrong_party",
                f"seat {seat} plays {own.capitalize()} and cannot say {word.capitalize()}",
                seat=seat,
                action=word,
            )
        offence = True
    house_solo = options.scoring == "house" and deal.solo and not deal.silent
    if house_solo:
        if seat == deal.soloist:
            raise IllegalActionError(
                "solo_implicit_re",
                "a solo holds an implicit Re; the soloist announces nothing",
                seat=seat,
                action=word,
            )
        if word != "kontra" and not offence:
            raise IllegalActionError(
                "solo_only_kontra",
                "a solo has no stages: its opponents may only say Kontra",
                seat=seat,
                action=word,
            )
    if deal.game_type == "armut" and seat in (deal.armut_by, deal.armut_partner):
        if not options.table_mode:
            raise IllegalActionError(
                "armut_no_announcements",
                "after an Armut the two players who exchanged cards may not announce",
                seat=seat,
                action=word,
            )
        offence = True
    if offence:
        if (party, word) in said:
            raise IllegalActionError(
                "already_announced",
                f"{word} has already been said for this party",
                seat=seat,
                action=word,
            )
        check_timing(deal, word, seat, party, [word])
        return party, [word], True
    chain = [own, "no90", "no60", "no30", "schwarz"][: _STAGE[word] + 1]
    if (party, word) in said:
        raise IllegalActionError(
            "already_announced",
            f"{_WORD_TEXT[word]} has already been announced by this party (once per party)",
            seat=seat,
            action=word,
        )
    missing = [w for w in chain if (party, w) not in said]
    check_timing(deal, word, seat, party, missing)
    return party, missing, False


def check_timing(deal: DoppelkopfDeal, word: str, seat: int, party: str, words: list[str]) -> None:
    play = deal._play
    assert play is not None
    cards = len(play.hands[seat])
    size = deal.options.hand_size
    if deal.options.announcements == "ten_cards":
        if cards < size:
            raise IllegalActionError(
                "announce_with_all_cards",
                f"announcements only while holding all {size} own cards "
                f"(seat {seat} holds {cards})",
                seat=seat,
                action=word,
                cards=size,
            )
        return
    shift = (deal.hochzeit_trick or 1) - 1 if deal.game_type == "hochzeit" else 0
    for w in words:
        need = size - 1 - _STAGE[w] - shift
        if cards >= need:
            continue
        if w in ("re", "kontra") and words == [w]:
            reply = reply_minimum(deal, party)
            if reply is not None and cards >= reply:
                continue
        raise IllegalActionError(
            "announcement_deadline",
            f"{_WORD_TEXT[w]} needs at least {need} cards in hand (seat {seat} holds {cards})",
            seat=seat,
            action=word,
            cards=need,
        )


def reply_minimum(deal: DoppelkopfDeal, party: str) -> int | None:
    """TSR: Re/Kontra answers the other party one card later than its last word needed."""
    size = deal.options.hand_size
    shift = (deal.hochzeit_trick or 1) - 1 if deal.game_type == "hochzeit" else 0
    theirs = [a.word for a in deal.announcements if a.party != party]
    if not theirs:
        return None
    top = max(_STAGE[w] for w in theirs)
    return size - 1 - top - shift - 1
