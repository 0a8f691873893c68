"""Armut options: asked in turn (``armut_ask``), nobody takes it (``armut_refused``),
what the partner may return (``armut_return``), on the constructed deals of
test_hochzeit_armut (seat 1 is poor, dealer 3)."""

from __future__ import annotations

import dataclasses

import pytest

from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.events import ArmutOffered, Redeal

from .scripted import Script, act, play_cards, script
from .test_hochzeit_armut import ARMUT_DOWN, ARMUT_UP

IN_TURN = DoppelkopfOptions(armut_ask="in_turn")


def offered(
    case: tuple[list[str], str, str], options: DoppelkopfOptions
) -> tuple[DoppelkopfDeal, Script, str, str]:
    tricks, give, back = case
    sc = script(tricks, armut=(1, 2, give, back))
    deal = dataclasses.replace(sc, options=options).deal()
    for _ in range(9):
        act(deal, "pass")
    act(deal, "armut", "pass", "pass")
    assert deal.phase == "armut_answer"
    return deal, sc, give, back


def test_asked_in_turn_from_the_poor_players_left() -> None:
    deal, _sc, _give, _back = offered(ARMUT_UP, IN_TURN)
    offer = next(e for e in deal.events if isinstance(e, ArmutOffered))
    assert (offer.seat, offer.direction, offer.partner) == (1, "round", 2)
    assert deal.observation(0).armut_direction == "round"
    # Seat 2 refuses: seat 3 is asked, then seat 0; the last refusal voids the deal.
    act(deal, "refuse")
    assert deal.phase == "armut_answer" and deal.to_move == 3 and deal.armut_partner == 3
    with pytest.raises(IllegalActionError):
        deal.apply(Call("accept"), 2)  # not seat 2's turn any more
    act(deal, "refuse")
    assert deal.to_move == 0
    events = deal.apply(Call("refuse"))
    assert events[-1] == Redeal("armut_refused", 0)
    assert deal.outcome == "redeal" and deal.redeal_by == 0 and deal.points() == (0, 0, 0, 0)


def test_taken_in_turn_the_two_are_re() -> None:
    # The sheet: seat 2 (no Alte) takes seat 1's Armut "nach unten", the two are Kontra
    # and lose; in turn the same two are Re, and Re loses 10 less than Kontra would win.
    sheet, sc, give, back = offered(ARMUT_DOWN, DoppelkopfOptions())
    act(sheet, "accept", f"give {give}", f"return {back}")
    play_cards(sheet, sc.plays)
    assert sheet.re_party == {0, 3} and sheet.points() == (20, 0, 0, 20)
    turn, sc, give, back = offered(ARMUT_DOWN, IN_TURN)
    assert turn.to_move == 2
    act(turn, "accept", f"give {give}", f"return {back}")
    assert turn.re_party == {1, 2} and turn.game_type == "armut"
    play_cards(turn, sc.plays)
    assert turn.score is not None and turn.score.winner == "kontra"
    assert sheet.score is not None
    flipped = {"re": sheet.score.augen["kontra"], "kontra": sheet.score.augen["re"]}
    assert turn.score.augen == flipped
    # Kontra (seats 0 and 3) wins with the same 173 Augen: 20 + 10 for keine 90 = 30.
    assert turn.points() == (30, 0, 0, 30)


def test_nobody_takes_it_and_the_hands_are_played() -> None:
    deal, _sc, _give, _back = offered(ARMUT_UP, DoppelkopfOptions(armut_refused="play"))
    events = deal.apply(Call("refuse"))
    assert deal.phase == "play" and deal.game_type == "normal" and not deal.is_over
    assert deal.armut_by is None and deal.observation(0).armut is None
    assert deal.to_move == 0  # the dealer's left leads, as in any normal game
    assert not any(isinstance(e, Redeal) for e in events)
    # Played as dealt: seat 1 still holds its two trumps.
    assert deal.trumps_in(deal.hands[1]) == 2


def test_what_the_partner_may_return() -> None:
    give = ARMUT_UP[1]
    for rule, accepted in (("plain_first", False), ("any", True)):
        deal, _sc, _give, _back = offered(ARMUT_UP, DoppelkopfOptions(armut_return=rule))  # type: ignore[arg-type]
        act(deal, "accept", f"give {give}")
        hand = deal.hands[2]
        suit_of = deal.order.suit_of
        trump = next(c for c in hand if suit_of[c] == 4)
        plain = [c for c in hand if suit_of[c] != 4][:2]
        back = Call("return", cards=tuple(sorted((trump, *plain))))
        if accepted:
            deal.apply(back, 2)
            assert deal.phase == "play" and deal.armut_returned_trumps == 1
        else:
            with pytest.raises(IllegalActionError) as err:
                deal.apply(back, 2)
            assert err.value.rule == "armut_return_plain"
