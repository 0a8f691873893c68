"""Hand-built Slobberhannes deals with their full action lists.

Every script is written for dealer 3, so seat 0 leads. Because the rules are
the same at every seat, a script can be moved round the table: ``rotated``
gives each base seat's hand to the seat ``shift`` places to its left, and the
same action list then plays the same deal with every seat number shifted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kartentisch.cards import Card, parse_cards


def _hand(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


@dataclass(frozen=True)
class Script:
    """Hands by seat (dealer 3, seat 0 leads), the actions, and the penalties they cause."""

    name: str
    hands: tuple[tuple[Card, ...], ...]
    actions: tuple[Card, ...]
    #: Expected points per seat with the standard options (all-three bonus on).
    points: tuple[int, ...]
    #: Expected (seat, reason, trick) penalty events in order, standard options.
    penalties: tuple[tuple[int, str, int | None], ...]

    def rotated(self, shift: int) -> list[list[Card]]:
        n = len(self.hands)
        out: list[list[Card]] = [[] for _ in range(n)]
        for seat, hand in enumerate(self.hands):
            out[(seat + shift) % n] = list(hand)
        return out

    def points_rotated(self, shift: int) -> tuple[int, ...]:
        n = len(self.points)
        out = [0] * n
        for seat, p in enumerate(self.points):
            out[(seat + shift) % n] = p
        return tuple(out)

    def dealer_for(self, shift: int) -> int:
        return (3 + shift) % len(self.hands)


def _tricks(*tricks: str) -> tuple[Card, ...]:
    return tuple(c for t in tricks for c in parse_cards(t))


# Seed 004: the narrated Russian deal. Алексей 0, Борис 1, Владимир 2, Геннадий 3.
SEED004 = Script(
    name="seed004",
    hands=(
        _hand("AC QC 8C KS AH 9H 7H 10D"),  # Алексей
        _hand("KC 9C AS JS 7S 10H QD 8D"),  # Борис
        _hand("10C 7C 9S KH QH 8H JD 9D"),  # Владимир
        _hand("JC QS 10S 8S JH AD KD 7D"),  # Геннадий
    ),
    actions=_tricks(
        "8C 9C 7C JC",  # 1 Алексей leads, Геннадий's only club wins
        "10S KS AS 9S",  # 2 Геннадий leads, Борис's A♠ wins
        "10H QH JH AH",  # 3 Борис leads, Алексей's A♥ wins
        "10D QD JD KD",  # 4 Алексей leads, Геннадий's K♦ wins
        "7D QC 8D 9D",  # 5 Геннадий leads, Алексей drops Q♣, Владимир's 9♦ wins
        "10C AD AC KC",  # 6 Владимир leads, Алексей's A♣ wins
        "9H JS KH QS",  # 7 Алексей leads, Владимир's K♥ wins
        "8H 8S 7H 7S",  # 8 Владимир leads and wins the last trick
    ),
    points=(0, 0, 2, 1),
    penalties=((3, "first_trick", 1), (2, "queen_of_clubs", 5), (2, "last_trick", 8)),
)
SEED004_TRICK_WINNERS = (3, 1, 0, 3, 2, 0, 2, 2)

# Seed 001's example: Anna 0, Ben 1, Carla 2, Dan 3 (Dan deals, Anna leads).
SEED001 = Script(
    name="seed001",
    hands=(
        _hand("QC AS KS QS KH 8H KD 8D"),  # Anna: Q♣ is her only club
        _hand("9C 7C JS 10S QH 9H QD 7D"),  # Ben
        _hand("10C 8C 9S 8S JH 7H AD JD"),  # Carla
        _hand("AC KC JC 7S AH 10H 10D 9D"),  # Dan
    ),
    actions=_tricks(
        "8D 7D AD 10D",  # 1 Anna 8♦, Ben 7♦, Carla A♦, Dan 10♦: Carla pays
        "7H AH 8H 9H",  # 2 Carla leads, Dan wins and gets the lead
        "KC QC 7C 8C",  # 3 Dan leads K♣, Anna drops Q♣, Ben and Carla low: Dan pays
        "7S QS 10S 9S",  # 4 Dan leads, Anna wins
        "KD QD JD 9D",  # 5
        "KH QH JH 10H",  # 6
        "KS JS 8S AC",  # 7 Dan void in spades throws A♣
        "AS 9C 10C JC",  # 8 Anna wins the last trick
    ),
    points=(1, 0, 1, 1),
    penalties=((2, "first_trick", 1), (3, "queen_of_clubs", 3), (0, "last_trick", 8)),
)

# Seat 0 holds every club, seat 1 every spade, seat 2 every heart, seat 3 every
# diamond: the leader wins every trick, so seat 0 takes all three (4 chips).
ALL_THREE = Script(
    name="all_three",
    hands=(
        _hand("AC KC QC JC 10C 9C 8C 7C"),
        _hand("AS KS QS JS 10S 9S 8S 7S"),
        _hand("AH KH QH JH 10H 9H 8H 7H"),
        _hand("AD KD QD JD 10D 9D 8D 7D"),
    ),
    actions=_tricks(
        "7C 7S 7H 7D",
        "8C 8S 8H 8D",
        "9C 9S 9H 9D",
        "10C 10S 10H 10D",
        "JC JS JH JD",
        "QC QS QH QD",  # trick 6 holds Q♣
        "KC KS KH KD",
        "AC AS AH AD",
    ),
    points=(4, 0, 0, 0),
    penalties=(
        (0, "first_trick", 1),
        (0, "queen_of_clubs", 6),
        (0, "last_trick", 8),
        (0, "all_three", 8),
    ),
)

# Q♣ falls in the first trick, taken by seat 1 (2 chips), who then wins every
# spade trick and the last one: 4 chips (2 + last + all three).
QUEEN_FIRST_AND_LAST = Script(
    name="queen_first_and_last",
    hands=(
        _hand("KC QC JC 10C 9C 8C 7C 7S"),
        _hand("AC AS KS QS JS 10S 9S 8S"),
        _hand("AH KH QH JH 10H 9H 8H 7H"),
        _hand("AD KD QD JD 10D 9D 8D 7D"),
    ),
    actions=_tricks(
        "QC AC 7H 7D",
        "8S 8H 8D 7S",
        "9S 9H 9D 7C",
        "10S 10H 10D 8C",
        "JS JH JD 9C",
        "QS QH QD 10C",
        "KS KH KD JC",
        "AS AH AD KC",
    ),
    points=(0, 4, 0, 0),
    penalties=(
        (1, "first_trick", 1),
        (1, "queen_of_clubs", 1),
        (1, "last_trick", 8),
        (1, "all_three", 8),
    ),
)

# Q♣ falls in the first trick, taken by seat 1 (2 chips); seat 1 passes the
# lead with 7♦ and seat 3 takes every later trick, the last one included.
QUEEN_FIRST_ONLY = Script(
    name="queen_first_only",
    hands=(
        _hand("KC QC JC 10C 9C 8C 7C 8S"),
        _hand("AC AS KS QS JS 10S 9S 7D"),
        _hand("AH KH QH JH 10H 9H 8H 7H"),
        _hand("AD KD QD JD 10D 9D 8D 7S"),
    ),
    actions=_tricks(
        "QC AC 7H 7S",
        "7D 8H 8D 8S",
        "AD KC AS 9H",
        "KD JC KS 10H",
        "QD 10C QS JH",
        "JD 9C JS QH",
        "10D 8C 10S KH",
        "9D 7C 9S AH",
    ),
    points=(0, 2, 0, 1),
    penalties=((1, "first_trick", 1), (1, "queen_of_clubs", 1), (3, "last_trick", 8)),
)

# Seed 001's deal with two revokes by Ben (seat 1): 9♥ on the 8♦ lead although he
# holds 7♦ Q♦, then 7♦ on the 7♥ lead although he holds Q♥. Only playable with
# the option revokes: "penalty"; each revoke costs a chip at the end.
SEED001_REVOKES = Script(
    name="seed001_revokes",
    hands=SEED001.hands,
    actions=_tricks("8D 9H AD 10D", "7H AH 8H 7D") + SEED001.actions[8:],
    points=(1, 2, 1, 1),
    penalties=(
        (2, "first_trick", 1),
        (3, "queen_of_clubs", 3),
        (0, "last_trick", 8),
        (1, "revoke", None),
        (1, "revoke", None),
    ),
)

SCRIPTS: tuple[Script, ...] = (SEED004, SEED001, ALL_THREE, QUEEN_FIRST_AND_LAST, QUEEN_FIRST_ONLY)


def play(deal: object, actions: Sequence[Card]) -> None:
    """Apply every action to a deal or a match (``apply``)."""
    for card in actions:
        deal.apply(card)  # type: ignore[attr-defined]


#: A match that ends in its sixth deal (first dealer 3, so deal i is led by seat
#: i % 4). After five deals seats 0 and 3 both stand at 9. In deal 6 seat 0 takes
#: the first trick (10, at trick 1) and seat 3 the Q♣ trick and the last trick
#: (10 at trick 5, 11 at trick 8): seat 0 reached 10 first and loses.
FIRST_TO_TEN: tuple[Script, ...] = (
    ALL_THREE,
    SEED001,
    QUEEN_FIRST_AND_LAST,
    ALL_THREE,
    ALL_THREE,
    SEED004,
)
#: Totals after each deal of FIRST_TO_TEN.
FIRST_TO_TEN_TOTALS = (
    (4, 0, 0, 0),
    (5, 1, 0, 1),
    (5, 1, 0, 5),
    (5, 1, 0, 9),
    (9, 1, 0, 9),
    (10, 1, 0, 11),
)

#: With revokes "penalty": after five deals seats 1 and 2 stand at 9. In deal 6
#: (SEED001_REVOKES led by seat 1) seat 2 revokes twice in the first two tricks
#: but revokes are charged when the deal ends, after seat 1's last trick: seat 1
#: reaches 10 first and loses, although seat 2 ends on 11.
REVOKE_LAST: tuple[Script, ...] = (
    QUEEN_FIRST_AND_LAST,
    QUEEN_FIRST_AND_LAST,
    ALL_THREE,
    SEED001,
    QUEEN_FIRST_AND_LAST,
    SEED001_REVOKES,
)
REVOKE_LAST_TOTALS = (
    (0, 4, 0, 0),
    (0, 4, 4, 0),
    (0, 4, 8, 0),
    (0, 5, 9, 1),
    (0, 9, 9, 1),
    (1, 10, 11, 2),
)


def match_deals(scripts: Sequence[Script]) -> list[tuple[int, list[list[Card]], tuple[Card, ...]]]:
    """(dealer, hands, actions) for each deal of a match whose first dealer is 3."""
    return [
        (script.dealer_for(i % 4), script.rotated(i % 4), script.actions)
        for i, script in enumerate(scripts)
    ]


def record_json(record: dict[str, object]) -> str:
    """A record as JSON text with each hand and each trick on one line."""

    def dump(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    def deal_lines(part: dict[str, object], pad: str) -> list[str]:
        hands = part["hands"]
        actions = part["actions"]
        assert isinstance(hands, list) and isinstance(actions, list)
        size = len(hands)
        tricks = [actions[i : i + size] for i in range(0, len(actions), size)]
        return [
            f'{pad}"dealer": {dump(part["dealer"])},',
            f'{pad}"hands": [',
            ",\n".join(f"{pad}  {dump(h)}" for h in hands),
            f"{pad}],",
            f'{pad}"actions": [',
            ",\n".join(f"{pad}  {dump(t)[1:-1]}" for t in tricks),
            f"{pad}]",
        ]

    head = [f"  {dump(k)}: {dump(v)}," for k, v in record.items() if k not in DEAL_KEYS]
    if "deals" in record:
        deals = record["deals"]
        assert isinstance(deals, list)
        body = ['  "deals": [']
        body.append(
            ",\n".join("    {\n" + "\n".join(deal_lines(d, "      ")) + "\n    }" for d in deals)
        )
        body.append("  ]")
    else:
        body = deal_lines(record, "  ")
    return "{\n" + "\n".join(head + body) + "\n}\n"


DEAL_KEYS = ("dealer", "hands", "actions", "deals")


DATA = Path(__file__).resolve().parent.parent / "data"
