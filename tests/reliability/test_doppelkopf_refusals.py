"""Doppelkopf under random illegal input: both presets, 4 and 5 players, table mode on and off.

Random deals and sessions are played with illegal actions mixed in, phase by
phase: cards during the declarations or the Armut, words that belong to
another phase (an Armut answer while declaring, a declaration while
playing), declarations the hand or the round does not allow, wrong Armut
exchanges, cards not in hand or of another seat, revokes (refused unless
table mode accepts them), announcements that are late, of the wrong party or
repeated, take-backs without an offence, actions from out of turn, from the
seat that sits out or from no seat at all, objects that are no action, stale
actions and actions after the end. Each must be refused with its rule and
leave the deal exactly as the shadow deal that never saw it; every record
written, finished or not, replays to the same deal.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kartentisch.cards import Card, full_deck
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfMatch, DoppelkopfOptions
from kartentisch.games.doppelkopf.actions import ANNOUNCEMENTS, HOCHZEIT_RULES, Action
from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.games.doppelkopf.record import summarize
from kartentisch.realtime.actions import TimedAction

from .refusals import GARBAGE, Attempt, Refusals, fuzz_settings, replay_through_file, rules

PRESETS: dict[str, DoppelkopfOptions] = {
    f"{preset} {players}{' table' if table else ''}": DoppelkopfOptions.preset_named(
        preset, players=players, table_mode=table
    )
    for preset in ("house", "ddv", "freedoko")
    for players in (4, 5)
    for table in (False, True)
}

#: Actions of the other games: no Doppelkopf action either.
FOREIGN: tuple[object, ...] = (TimedAction(0, 0, "turn"), TimedAction(5, 1, "slap", True))
FREE = (*ANNOUNCEMENTS, "take_back")
#: Words of the declarations and the Armut, said in play: always refused.
NOT_IN_PLAY: tuple[Call, ...] = (
    Call("pass"),
    Call("vorbehalt"),
    Call("solo", "queens"),
    Call("hochzeit"),
    Call("armut"),
    Call("accept"),
    Call("refuse"),
    Call("redeal"),
    Call("scharfe", "aces"),
)
#: Words that belong to no declaration round.
ARMUT_WORDS: tuple[Call, ...] = (Call("accept"), Call("refuse"))


def declaration_calls(options: DoppelkopfOptions) -> list[Call]:
    """Every declaration in its canonical form (as the legal actions list them)."""
    calls = [Call("pass"), Call("vorbehalt"), Call("redeal"), Call("armut")]
    calls += [Call("scharfe", d) for d in ("aces", "kings", "aces kings")]
    if options.hochzeit == "choice":
        calls += [Call("hochzeit", r) for r in HOCHZEIT_RULES]
    else:
        calls.append(Call("hochzeit"))
    calls += [Call("solo", kind, ouvert) for kind in ALL_SOLI for ouvert in (False, True)]
    return calls


def deal_snapshot(deal: DoppelkopfDeal) -> dict[str, Any]:
    """Everything a player or an interface can see of a deal (and its hidden hands)."""
    seats = range(deal.num_seats)
    return {
        "record": deal.to_record(),
        "events": tuple(deal.events),
        "actions": list(deal.actions),
        "action_seats": list(deal.action_seats),
        "phase": deal.phase,
        "round": deal.declaration_round,
        "to_move": deal.to_move,
        "over": deal.is_over,
        "outcome": deal.outcome,
        "game_type": deal.game_type,
        "soloist": deal.soloist,
        "declarations": list(deal.declarations),
        "announcements": list(deal.announcements),
        "offenders": deal.offenders,
        "parties": [deal.party_of(s) for s in seats],
        "points": deal.points(),
        "augen": deal.augen(),
        "tricks": deal.tricks,
        "hands": [deal.hand(s) for s in seats],
        "legal": [deal.legal_actions(s) for s in seats],
        "legal_to_move": deal.legal_actions(),
        "following": deal.following_actions(),
        "observations": [deal.observation(s).to_dict() for s in seats],
    }


def match_snapshot(match: DoppelkopfMatch) -> dict[str, Any]:
    return {
        "record": match.to_record(),
        "events": tuple(match.events),
        "totals": match.totals(),
        "sheet": [row.to_dict() for row in match.sheet.rows],
        "next_dealer": match.next_dealer,
        "to_move": match.to_move,
        "legal": match.legal_actions(),
        "deals": len(match.history),
        "deal": deal_snapshot(match.deal),
    }


def _cards_not_in(hand: tuple[Card, ...]) -> list[Card]:
    return [c for c in full_deck() if c not in hand]


def deal_attempts(deal: DoppelkopfDeal) -> list[Attempt]:
    """Illegal actions for the deal as it stands, by kind (read from the shadow deal)."""
    n = deal.num_seats
    mover = deal.to_move
    playing = deal.playing
    sitting = [s for s in range(n) if s not in playing]
    out = [
        Attempt("malformed", junk, seat, rules("unknown_action"))
        for junk in (*GARBAGE, *FOREIGN)
        for seat in (None, playing[0])
    ]
    if deal.is_over:
        for action in (Card("QC"), Card("AS"), Call("pass"), Call("re"), Call("take_back")):
            for seat in (None, *playing):
                out.append(Attempt("after_the_end", action, seat, rules("deal_over")))
        return out
    assert mover is not None
    phase = deal.phase
    options = deal.options
    hand = deal.hand(mover)
    others = [s for s in playing if s != mover]
    nowhere = (*sitting, n, 99, -1)

    # The mover's own legal actions (not the free words) from any other seat.
    for action in deal.legal_actions():
        if isinstance(action, Call) and action.word in FREE:
            continue
        code = (
            "not_your_turn" if phase == "play" or isinstance(action, Call) else "declarations_first"
        )
        for seat in (*others, *nowhere):
            out.append(Attempt("wrong_seat", action, seat, rules(code)))

    # Free words (announcements, take-backs) any seat may say, when it may not.
    for seat in (*playing, *nowhere):
        legal = deal.legal_actions(seat)
        for word in FREE:
            call = Call(word)
            if call in legal:
                continue
            if seat not in playing:
                expect = rules("sits_out")
            elif word == "take_back":
                expect = rules("no_take_back" if not options.table_mode else "nothing_to_take_back")
            elif phase != "play":
                expect = rules("announce_in_play")
            else:
                expect = frozenset()
            out.append(Attempt("free_word_refused", call, seat, expect))

    if phase == "play":
        out += _play_attempts(deal, mover, hand, others)
    else:
        for seat in playing:
            for card in deal.hand(seat)[:4]:
                out.append(Attempt("card_too_early", card, seat, rules("declarations_first")))
                out.append(Attempt("card_too_early", card, None, rules("declarations_first")))
    if phase == "declare":
        legal = deal.legal_actions()
        for call in declaration_calls(options):
            if call not in legal:
                out.append(Attempt("declaration_refused", call, mover))
                out.append(Attempt("declaration_refused", call, None))
        for call in (*ARMUT_WORDS, Call("give", cards=hand[:3]), Call("return", cards=hand[:3])):
            out.append(Attempt("wrong_phase_word", call, mover, rules("not_now")))
    elif phase == "armut_answer":
        for call in (Call("pass"), Call("solo", "queens"), Call("give", cards=hand[:3])):
            out.append(Attempt("wrong_phase_word", call, None, rules("armut_answer")))
    elif phase in ("armut_give", "armut_return"):
        out += _exchange_attempts(deal, mover, hand)

    # The last action again, from the seat that made it.
    if deal.actions:
        stale, seat = deal.actions[-1], deal.action_seats[-1]
        exchange = isinstance(stale, Call) and stale.word in ("give", "return")
        if exchange or stale not in deal.legal_actions(seat):
            out.append(Attempt("stale", stale, seat))
    return out


def _play_attempts(
    deal: DoppelkopfDeal, mover: int, hand: tuple[Card, ...], others: list[int]
) -> list[Attempt]:
    out: list[Attempt] = []
    for card in _cards_not_in(hand):
        out.append(Attempt("not_in_hand", card, None, rules("not_in_hand")))
        out.append(Attempt("not_in_hand", card, mover, rules("not_in_hand")))
    for seat in others:
        for card in deal.hand(seat):
            out.append(Attempt("out_of_turn", card, seat, rules("not_your_turn")))
    if not deal.options.table_mode:
        following = set(deal.following_actions())
        for card in hand:
            if card not in following:
                out.append(Attempt("revoke", card, None, rules("must_follow_suit")))
                out.append(Attempt("revoke", card, mover, rules("must_follow_suit")))
    for call in NOT_IN_PLAY:
        out.append(Attempt("wrong_phase_word", call, None, rules("play_a_card")))
        out.append(Attempt("wrong_phase_word", call, others[0], rules("not_your_turn")))
    return out


def _exchange_attempts(deal: DoppelkopfDeal, mover: int, hand: tuple[Card, ...]) -> list[Attempt]:
    word = "give" if deal.phase == "armut_give" else "return"
    other = "return" if word == "give" else "give"
    trump = deal.order.suit_of
    trumps = [c for c in hand if trump[c] == 4]
    plain = [c for c in hand if trump[c] != 4]
    absent = _cards_not_in(hand)
    out = [
        Attempt("wrong_exchange", Call(w, cards=tuple(cs)), None, rules(code))
        for w, cs, code in (
            (other, hand[:3], "armut_exchange"),
            ("pass", (), "armut_exchange"),
            ("accept", (), "armut_exchange"),
            (word, (), "armut_three_cards"),
            (word, hand[:2], "armut_three_cards"),
            (word, hand[:4], "armut_three_cards"),
            (word, (*hand[:2], absent[0]), "not_in_hand"),
            (word, (absent[0], absent[0], absent[1]), "not_in_hand"),
        )
    ]
    if word == "give" and trumps and len(plain) >= 3:
        out.append(
            Attempt(
                "wrong_exchange",
                Call(word, cards=tuple(plain[:3])),
                None,
                rules("armut_all_trumps"),
            )
        )
    if word == "return" and trumps and len(plain) >= 3 and deal.options.armut_return != "any":
        cards = (trumps[0], *plain[:2])
        out.append(
            Attempt("wrong_exchange", Call(word, cards=cards), None, rules("armut_return_plain"))
        )
    return out


#: How likely a seat that may say a word says it (else it passes where it may).
DECLARING: tuple[tuple[str, float], ...] = (
    ("armut", 0.9),
    ("hochzeit", 0.6),
    ("scharfe", 0.4),
    ("redeal", 0.2),
    ("vorbehalt", 0.15),
    ("solo", 0.07),
)


def choose(deal: DoppelkopfDeal, rng: random.Random) -> tuple[Action, int | None]:
    """A legal action: mostly plain games, now and then a solo, a Hochzeit, an Armut, a word."""
    if deal.phase == "play" and rng.random() < 0.15:
        seat = rng.choice(deal.playing)
        words = [a for a in deal.legal_actions(seat) if isinstance(a, Call)]
        if words:
            return rng.choice(words), seat
    legal = deal.legal_actions()
    if deal.phase == "declare":
        for word, chance in DECLARING:
            calls = [a for a in legal if isinstance(a, Call) and a.word == word]
            if calls and rng.random() < chance:
                return rng.choice(calls), None
        if Call("pass") in legal:
            return Call("pass"), None
    if deal.phase == "armut_answer":
        return Call("accept" if rng.random() < 0.8 else "refuse"), None
    return rng.choice(legal), rng.choice([None, deal.to_move])


def new_deal(options: DoppelkopfOptions, seed: int) -> DoppelkopfDeal:
    """A shuffled deal; often one where a seat holds at most three trumps (an Armut)."""
    rng = random.Random(seed)
    dealer = rng.randrange(options.players)
    deal = DoppelkopfDeal.from_seed(rng, dealer=dealer, options=options)
    if not options.armut or rng.random() < 0.6:
        return deal
    size = options.hand_size
    trump = deal.order.suit_of
    cards = [c for hand in deal.initial_hands for c in hand]
    trumps = [c for c in cards if trump[c] == 4]
    plain = [c for c in cards if trump[c] != 4]
    poor = rng.choice(deal.playing)
    few = rng.randint(0, 3)
    rest = trumps[few:] + plain[size - few :]
    rng.shuffle(rest)
    hands: list[list[Card]] = []
    for seat in range(options.players):
        if seat == poor:
            hands.append(trumps[:few] + plain[: size - few])
        elif seat in deal.playing:
            hands.append(rest[:size])
            del rest[:size]
        else:
            hands.append([])
    return DoppelkopfDeal(hands, dealer=dealer, options=options)


def assert_same_deal(again: object, deal: DoppelkopfDeal) -> None:
    assert isinstance(again, DoppelkopfDeal)
    assert deal_snapshot(again) == deal_snapshot(deal)
    assert summarize(again) == summarize(deal)


@fuzz_settings(100)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**32 - 1),
    rate=st.sampled_from([0.25, 0.6, 1.0]),
)
def test_deals_refuse_illegal_actions_and_replay(preset: str, seed: int, rate: float) -> None:
    options = PRESETS[preset]
    deal, shadow = new_deal(options, seed), new_deal(options, seed)
    rng = random.Random(seed ^ 0xD0C0)
    refusals = Refusals(deal, shadow, deal_snapshot, rng)
    replay_at = rng.randrange(1, 40)
    while not deal.is_over:
        if rng.random() < rate:
            refusals.offer_some(deal_attempts(shadow), rng.randint(1, 3))
        for who in shadow.playing:
            assert all(shadow.can(a, who) for a in shadow.legal_actions(who))
        action, seat = choose(deal if rng.random() < 0.5 else shadow, rng)
        assert deal.apply(action, seat) == shadow.apply(action, seat)
        if len(deal.actions) == replay_at:
            assert_same_deal(replay_through_file(deal.to_record()), deal)
    refusals.offer_some(deal_attempts(shadow), 4)
    assert_same_deal(replay_through_file(deal.to_record()), deal)


@fuzz_settings(12)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1))
def test_sessions_refuse_illegal_actions_and_replay(preset: str, seed: int) -> None:
    options = PRESETS[preset]
    match = DoppelkopfMatch(options, seed=seed)
    shadow = DoppelkopfMatch(options, seed=seed)
    rng = random.Random(seed ^ 0x5E55)
    refusals = Refusals(match, shadow, match_snapshot, rng, ways=("apply",))
    between = [
        Attempt("no_deal_in_progress", action, seat, rules("no_deal"))
        for action in (Card("QC"), Call("pass"), Call("re"), None)
        for seat in (None, 0, 1)
    ]
    for _ in range(3):
        while not match.deal.is_over:
            if rng.random() < 0.3:
                refusals.offer_some(deal_attempts(shadow.deal), 1)
            action, seat = choose(shadow.deal, rng)
            assert match.apply(action, seat) == shadow.apply(action, seat)
        refusals.offer_some(between, 2)
        match.start_deal()
        shadow.start_deal()
    again = replay_through_file(match.to_record())
    assert isinstance(again, DoppelkopfMatch)
    assert again.totals() == match.totals()
    assert summarize(again) == summarize(match)
    for replayed, played in zip(again.deals, match.deals, strict=True):
        assert deal_snapshot(replayed) == deal_snapshot(played)


def test_every_kind_of_illegal_input_occurs() -> None:
    """The generators above offer every kind of illegal input somewhere."""
    kinds: set[str] = set()
    for options in PRESETS.values():
        for seed in range(12):
            deal = new_deal(options, seed)
            rng = random.Random(seed)
            while not deal.is_over:
                kinds |= {a.kind for a in deal_attempts(deal)}
                deal.apply(*choose(deal, rng))
            kinds |= {a.kind for a in deal_attempts(deal)}
    assert kinds == {
        "malformed",
        "wrong_seat",
        "free_word_refused",
        "card_too_early",
        "declaration_refused",
        "wrong_phase_word",
        "wrong_exchange",
        "not_in_hand",
        "out_of_turn",
        "revoke",
        "stale",
        "after_the_end",
    }


#: Word actions built directly with parts their word does not take (the notation
#: never reads them: a record holding one cannot be replayed).
JUNK_CALLS: tuple[Call, ...] = (
    Call("pass", "x"),
    Call("pass", ouvert=True),
    Call("vorbehalt", "x"),
    Call("redeal", "x"),
    Call("armut", "x"),
    Call("scharfe", "queens"),
    Call("scharfe", "aces", ouvert=True),
    Call("hochzeit", "chess"),
    Call("hochzeit", ouvert=True),
    Call("solo", "queens", cards=(Card("QC"),)),
    Call("accept", cards=(Card("QC"),)),
    Call("refuse", ouvert=True),
    Call("re", "junk"),
    Call("kontra", ouvert=True),
    Call("no90", cards=(Card("QC"),)),
    Call("take_back", "x"),
)


def test_calls_with_parts_their_word_does_not_take_are_refused() -> None:
    accepted: list[str] = []
    for preset in ("house 4", "house 4 table", "ddv 4"):
        for seed in range(6):
            deal = new_deal(PRESETS[preset], seed)
            rng = random.Random(seed)
            while not deal.is_over:
                for call in JUNK_CALLS:
                    for seat in (None, rng.choice(deal.playing)):
                        if deal.can(call, seat):
                            accepted.append(f"{preset} seed {seed} {deal.phase}: {call!r}")
                deal.apply(*choose(deal, rng))
    assert not accepted, f"{len(accepted)} accepted, e.g. {sorted(set(accepted))[:8]}"


def test_a_call_with_parts_its_word_does_not_take_is_named_malformed() -> None:
    deal = new_deal(PRESETS["house 4"], 0)
    rng = random.Random(0)
    while not deal.is_over:
        for call in JUNK_CALLS:
            with pytest.raises(IllegalActionError) as refused:
                deal.check(call)
            assert refused.value.rule == "malformed_call"
            assert repr(call) in refused.value.message or str(call) in refused.value.message
        deal.apply(*choose(deal, rng))
    assert_same_deal(replay_through_file(deal.to_record()), deal)
