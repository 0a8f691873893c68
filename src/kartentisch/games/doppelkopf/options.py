"""Doppelkopf rule options and the two presets (see docs/rules/doppelkopf.md).

``house`` (the default) is the house-rule sheet of seed 003 with the rulings
of RULINGS.md; ``ddv`` is the tournament rules (Turnierspielregeln) of the
Deutscher Doppelkopf-Verband. A record's options name a preset and the
options that differ from it.

>>> DoppelkopfOptions().deck_size, DoppelkopfOptions.from_dict({"preset": "ddv"}).deck_size
(40, 48)
>>> DoppelkopfOptions.from_dict({"preset": "ddv", "players": 5}).to_dict()
{'preset': 'ddv', 'players': 5}
>>> DoppelkopfOptions.from_dict({"armut": "yes"})
Traceback (most recent call last):
...
kartentisch.errors.OptionError: option armut must be true or false, not 'yes'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from kartentisch.cards import Card, doppelkopf_deck
from kartentisch.errors import OptionError
from kartentisch.games.doppelkopf.scoring import (
    BOCK_TRIGGERS,
    DDV_SONDERPUNKTE,
    HOUSE_BOCK_TRIGGERS,
    HOUSE_SONDERPUNKTE,
    SOLO_GAME_TYPES,
    SONDERPUNKTE,
)
from kartentisch.options import (
    Option,
    OptionSchema,
    options_from_dict,
    options_to_dict,
    options_written_out,
)

__all__ = [
    "ALL_SOLI",
    "DDV_SOLI",
    "GROUPS",
    "HOUSE_SOLI",
    "PRESETS",
    "SCHEMA",
    "DoppelkopfOptions",
]

Rules = Literal["house", "ddv"]
Declarations = Literal["sheet", "ddv"]
SoloStyle = Literal["literal", "ddv"]
SoloPriority = Literal["rank", "ddv"]
HochzeitRule = Literal["choice", "first_trick"]
HochzeitAlone = Literal["solo", "redeal"]
ArmutAsk = Literal["sheet", "in_turn"]
HochzeitExtras = Literal["all", "after_found"]
ArmutRefused = Literal["redeal", "play"]
ArmutReturn = Literal["plain_first", "any"]
Timing = Literal["ten_cards", "ddv"]
AnnouncementCount = Literal["cards", "tricks"]
SoloLead = Literal["dealer_left", "soloist"]
RotGehtRum = Literal["extra_point", "bock", "off"]
AnnouncementValue = Literal["double", "add", "re_doubles"]
DulleOrder = Literal["first", "second", "second_except_last"]
AgainstPoints = Literal["each", "highest"]
BockStacking = Literal["stack", "append"]
Schweinchen = Literal["off", "announced", "first_played", "silent"]
Counting = Literal["scoring", "zero_sum", "winners", "losers"]

#: Every solo kind the engine knows, in the sheet's ranking (highest first);
#: ``fleischlos`` (DDV) ranks with ``no_trump``. They are the solo game types
#: of the scoring, which lists them in this order.
ALL_SOLI: Final = SOLO_GAME_TYPES
#: Seed 003 § Soli: nine kinds, Trumpfsolo highest, Nullsolo lowest.
#: (The kinds added later stand after them in :data:`ALL_SOLI`.)
HOUSE_SOLI: Final = ALL_SOLI[:9]
#: TSR: Damen-, Buben-, Farbsoli (♦ = the normal trump order) and the Fleischlose.
DDV_SOLI: Final = ("queens", "jacks", "clubs", "spades", "hearts", "diamonds", "fleischlos")

#: FreeDoko: the picture soli (combined ones too), the suit soli with the normal trumps
#: (the ♦ solo is the normal order) and the Fleischlose; no Trumpf- or Nullsolo.
FREEDOKO_SOLI: Final = (
    "queens",
    "jacks",
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    "fleischlos",
    "kings",
    "queens_jacks",
    "kings_queens",
    "kings_jacks",
    "koehler",
)
#: FreeDoko's extra points: Fuchs gefangen, Fuchs im letzten Stich, Karlchen, Karlchen
#: gefangen, Doppelkopf, and Kontra's win against the Alten.
FREEDOKO_SONDERPUNKTE: Final = (
    "fuchs_gefangen",
    "fuchs_letzter_stich",
    "karlchen",
    "karlchen_gefangen",
    "doppelkopf",
    "gegen_die_alten",
)

#: Named option sets. A record's options may name a preset and override fields.
PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "house": {},
    "ddv": {
        "nines": True,
        "scoring": "ddv",
        "declarations": "ddv",
        "scharfe": False,
        "soli": DDV_SOLI,
        "ouvert": False,
        "solo_style": "ddv",
        "solo_priority": "ddv",
        "pflichtsolo": True,
        "hochzeit": "first_trick",
        "armut": False,
        "kings_redeal": 0,
        "announcements": "ddv",
        "announcement_value": "add",
        "rot_geht_rum": "off",
        "sonderpunkte": DDV_SONDERPUNKTE,
        "bock": False,
    },
    # FreeDoko's built-in rules (its source's Rule::reset_to_hardcoded, 0.7 series), on
    # these options; docs/rules/doppelkopf.md, "The FreeDoko preset", lists each rule
    # and what has no counterpart here.
    "freedoko": {
        "nines": True,
        "dulle_order": "second",
        "schweinchen": "announced",
        "schweinchen_solo": True,
        "scoring": "ddv",
        "counting": "winners",
        "scharfe": False,
        "soli": FREEDOKO_SOLI,
        "ouvert": False,
        "solo_style": "ddv",
        "solo_priority": "ddv",
        "lustsolo_lead": "soloist",
        "hochzeit_tricks": 12,
        "armut_ask": "in_turn",
        "armut_return": "any",
        "kings_redeal": 0,
        "nines_redeal": 5,
        "announcements": "ddv",
        "announcement_value": "re_doubles",
        "rot_geht_rum": "off",
        "sonderpunkte": FREEDOKO_SONDERPUNKTE,
        "bock_triggers": ("tie",),
    },
}

#: The groups of the options, in the order a rule set shows them.
GROUPS: Final = (
    "deck",
    "trumps",
    "declarations",
    "soli",
    "hochzeit",
    "armut",
    "schmeissen",
    "announcements",
    "extras",
    "bock",
    "counting",
    "table",
)

#: Every option, its type and range: what every path (lobby, records, command line) checks.
SCHEMA: Final = OptionSchema(
    "Doppelkopf",
    (
        Option("players", "whole", low=4, high=5, group="deck"),
        Option("nines", "flag", group="deck"),
        Option("dullen", "flag", group="trumps"),
        Option(
            "dulle_order",
            "choice",
            choices=("first", "second", "second_except_last"),
            group="trumps",
        ),
        Option(
            "schweinchen",
            "choice",
            choices=("off", "announced", "first_played", "silent"),
            group="trumps",
        ),
        Option("superschweinchen", "flag", group="trumps"),
        Option("hyperschweinchen", "flag", group="trumps"),
        Option("schweinchen_solo", "flag", group="trumps"),
        Option("scoring", "choice", choices=("house", "ddv"), group="counting"),
        Option(
            "counting",
            "choice",
            choices=("scoring", "zero_sum", "winners", "losers"),
            group="counting",
        ),
        Option("solo_factor", "whole", low=1, high=3, group="counting"),
        Option("declarations", "choice", choices=("sheet", "ddv"), group="declarations"),
        Option("scharfe", "flag", group="declarations"),
        Option("soli", "kinds", choices=ALL_SOLI, code="soli", group="soli"),
        Option("ouvert", "flag", group="soli"),
        Option("solo_style", "choice", choices=("literal", "ddv"), group="soli"),
        Option("solo_priority", "choice", choices=("rank", "ddv"), group="soli"),
        Option("pflichtsolo", "flag", group="soli"),
        Option("pflichtsolo_count", "whole", low=1, high=4, group="soli"),
        Option("vorfuehrung", "flag", group="soli"),
        Option("lustsolo_lead", "choice", choices=("dealer_left", "soloist"), group="soli"),
        Option("hochzeit", "choice", choices=("choice", "first_trick"), group="hochzeit"),
        Option("hochzeit_tricks", "whole", low=1, high=12, group="hochzeit"),
        Option("hochzeit_alone", "choice", choices=("solo", "redeal"), group="hochzeit"),
        Option("stille_hochzeit", "flag", group="hochzeit"),
        Option("armut", "flag", group="armut"),
        # The poor player gives three cards holding all his trumps (seed 003).
        Option("armut_max_trumps", "whole", low=0, high=3, group="armut"),
        Option("armut_count_foxes", "flag", group="armut"),
        Option("armut_ask", "choice", choices=("sheet", "in_turn"), group="armut"),
        Option("armut_refused", "choice", choices=("redeal", "play"), group="armut"),
        Option("armut_return", "choice", choices=("plain_first", "any"), group="armut"),
        Option("kings_redeal", "whole", low=0, high=8, group="schmeissen"),
        Option("nines_redeal", "whole", low=0, high=8, group="schmeissen"),
        Option("nines_kings_redeal", "whole", low=0, high=12, group="schmeissen"),
        Option("few_trumps_redeal", "whole", low=0, high=6, group="schmeissen"),
        Option("low_augen_redeal", "whole", low=0, high=90, group="schmeissen"),
        Option("fox_redeal", "flag", group="schmeissen"),
        Option("announcements", "choice", choices=("ten_cards", "ddv"), group="announcements"),
        Option("announcement_count", "choice", choices=("cards", "tricks"), group="announcements"),
        Option(
            "announcement_value",
            "choice",
            choices=("double", "add", "re_doubles"),
            group="announcements",
        ),
        Option("against_points", "choice", choices=("each", "highest"), group="announcements"),
        Option("announcement_reply", "flag", group="announcements"),
        Option("hochzeit_shift", "flag", group="announcements"),
        Option("table_mode", "flag", group="table"),
        Option("rot_geht_rum", "choice", choices=("extra_point", "bock", "off"), group="extras"),
        Option("sonderpunkte", "kinds", choices=SONDERPUNKTE, code="choice", group="extras"),
        Option("solo_sonderpunkte", "flag", group="extras"),
        Option("hochzeit_sonderpunkte", "choice", choices=("all", "after_found"), group="extras"),
        Option("bock", "flag", group="bock"),
        Option("bock_triggers", "kinds", choices=BOCK_TRIGGERS, code="choice", group="bock"),
        Option("bock_rounds", "whole", low=1, high=4, group="bock"),
        Option("bock_stacking", "choice", choices=("stack", "append"), group="bock"),
        Option("bock_factor", "whole", low=2, high=4, group="bock"),
    ),
    groups=GROUPS,
)


@functools.cache
def _deck(nines: bool) -> tuple[Card, ...]:
    return tuple(doppelkopf_deck(nines=nines))


@functools.cache
def _deck_cards(nines: bool) -> frozenset[Card]:
    return frozenset(_deck(nines))


@dataclass(frozen=True, slots=True)
class DoppelkopfOptions:
    """Every Doppelkopf rule option with its default (the house-rule sheet).

    ``players``: 4, or 5 (the dealer sits each deal out and scores 0).
    ``nines``: play with the 48-card deck (12 cards each, packets 3-3-3-3)
    instead of 40 cards (10 each, packets 3-4-3).
    ``dullen``: the ♥10s (Dullen) are the highest trumps; off, a ♥10 is a plain
    heart (between the ace and the king).
    ``dulle_order``: of the two Dullen in one trick the ``first`` played wins (as
    of any two equal cards), the ``second``, or the second except in the last
    trick (``second_except_last``).
    ``schweinchen``: both ♦A in one hand are the highest trumps (Schweinchen) in a
    game with the normal trump order: ``off``; ``announced`` (the table is told who
    holds them as play begins), ``first_played`` (told when the first is played) or
    ``silent`` (never told). ``superschweinchen``: with Schweinchen in the game, both
    ♦10 in one hand rise above them; ``hyperschweinchen``: both ♦9 (without the
    nines both ♦K) above those. ``schweinchen_solo``: the Schweinchen also in a
    Trumpfsolo (in a silent solo, which the table takes for a normal game, always).
    ``scoring``: which score formula, ``house`` (seed 003) or ``ddv`` (plus/minus).
    ``counting``: how the value is written to the seats: as the formula writes it
    (``scoring``), ``zero_sum`` (the losers pay the winners, a soloist three
    times), ``winners`` (only the winners write it) or ``losers`` (only the losers,
    as a debt). ``solo_factor``: in the last two, the soloist writes this many
    times the value of one opponent.
    ``declarations``: ``sheet`` asks Scharfe, then soli, then Hochzeit/Armut,
    seat by seat from the dealer's left; ``ddv`` asks "gesund"/"Vorbehalt" and
    then the reservations (Pflichtsolo, Lustsolo, Hochzeit).
    ``scharfe``: scharfe Herz-Asse/-Könige may be declared.
    ``soli``: the solo kinds that may be played; ``ouvert``: soli may be ouvert.
    ``solo_style``: ``literal`` suit soli (only that suit is trump, A 10 K Q J)
    or ``ddv`` (the suit takes ♦'s place in the normal trump order).
    ``solo_priority``: ``rank`` (the higher solo wins, equal ones by seat) or
    ``ddv`` (Pflichtsolo before Lustsolo, then seat order).
    ``pflichtsolo``: a player's first solo of a session is a Pflichtsolo: the
    soloist leads and the same dealer deals again. ``pflichtsolo_count``: how many
    of his soli each player owes as Pflichtsoli (TSR: one). ``vorfuehrung``: when a
    session (of a known length) has no more games left than Pflichtsoli owed, the
    next player who owes one is "vorgeführt": he must declare a solo.
    ``lustsolo_lead``: who leads a Lustsolo (a solo that is not a Pflichtsolo):
    the seat on the dealer's left (the sheet, TSR) or the soloist.
    ``hochzeit``: ``choice`` (the holder names first trick / first trump trick /
    first non-trump trick) or ``first_trick`` only; ``hochzeit_tricks``: the
    partner must be found within this many tricks, else the holder plays alone
    (``hochzeit_alone``: ``solo``, as a Trumpfsolo) or the cards are dealt again
    (``redeal``).
    ``stille_hochzeit``: the holder of both Alten may keep quiet and play a silent
    solo; off, he must declare the Hochzeit (or a solo).
    ``armut``: mangelnder Trumpf may be declared with at most
    ``armut_max_trumps`` trumps (0 to 3: the three cards given hold them all).
    ``armut_count_foxes``: a Fuchs counts towards that limit (the sheet); off, a
    single Fuchs does not (two do), and the poor player gives every trump he
    holds (up to four: three and the Fuchs), the partner returning as many cards.
    ``armut_ask``: who is asked to take it: as the sheet says (the other Alte's
    holder, else a player without one) or ``in_turn`` (each player from the poor
    player's left until one accepts; the two are Re). ``armut_refused``: when
    nobody takes it the cards are dealt again (``redeal``) or the hands are
    played as dealt, a normal game (``play``). ``armut_return``: the partner
    returns trumps only when he lacks other cards (``plain_first``, the sheet)
    or any three cards (``any``).
    ``kings_redeal``: a hand with at least this many kings may ask for a redeal
    (0: never); the other reasons to throw in (Schmeißen), each 0 or off for
    never: ``nines_redeal`` (at least this many nines), ``nines_kings_redeal``
    (nines and kings together), ``few_trumps_redeal`` (fewer trumps than this),
    ``low_augen_redeal`` (fewer Augen than this), ``fox_redeal`` (the ♦A is the
    hand's highest trump).
    ``announcements``: ``ten_cards`` (only with all own cards in hand) or
    ``ddv`` (deadlines by cards in hand, replies one card later). Under ``ddv``:
    ``announcement_reply`` (a party may answer with Re/Kontra alone one card later
    than the other party's last word needed) and ``hochzeit_shift`` (a Hochzeit's
    deadlines move by its deciding trick), both on as in the TSR.
    ``announcement_count``: a deadline "with n cards in hand" counts the
    announcer's own cards (``cards``, the sheet and the TSR) or the tricks
    (``tricks``): it is in time until the first card of trick (size − n + 1) is
    played, for every player alike ("until the first card of the second trick").
    ``announcement_value``: ``double`` (each announcement, and each word a higher
    one implies, doubles the game's value: the sheet), ``add`` (TSR 7.2.3: Re and
    Kontra add 2 each, each stage 1; 20 and 10 under house scoring) or
    ``re_doubles`` (Re and Kontra double, each stage adds 1, 10 under house
    scoring: FreeDoko's way).
    ``against_points``: under DDV scoring, a point for reaching 120, 90, 60 or 30
    against each of the other party's announced stages (TSR 7.2.2) or against its
    highest only.
    ``table_mode``: a revoke or a wrong announcement is accepted and punished
    at the end (the Kulanzregel lets a player take it back).
    ``rot_geht_rum``: an extra point, a Bock trigger, or nothing.
    ``sonderpunkte``: the extra points counted in a game that is not a solo, each
    on or off: ``fuchs_gefangen``, ``fuchs_letzter_stich`` (the ♦A wins the last
    trick), ``karlchen`` (the ♣J wins the last trick), ``karlchen_gefangen`` (a
    ♣J of the other party is won in the last trick), ``doppelkopf`` (a trick of
    40 Augen or more), ``dulle_gefangen`` and ``gegen_die_alten`` (Kontra wins).
    ``solo_sonderpunkte``: they count in a solo too (not in a Nullsolo; the sheet
    and the TSR have none in a solo). ``hochzeit_sonderpunkte``: in a Hochzeit
    those of every trick count (``all``) or only those from the trick that found
    the partner on (``after_found``).
    ``bock``: Bock games are played (the session's multiplier; under either scoring).
    ``bock_triggers``: what starts them: ``lost_announcement`` (lost or missed),
    ``lost_solo``, ``tie`` (120:120), ``schwarz`` (a party without a trick).
    ``bock_rounds``: each trigger brings this many rounds of Bock games (one game
    per player at the table each). ``bock_stacking``: ``stack`` (streams that
    overlap multiply: Doppelbock ×4) or ``append`` (a new stream waits until the
    ones before it are played; every Bock game ×2). ``bock_factor``: what one Bock
    multiplies by (2 to 4; the sheet's ×2).
    """

    preset: str = "house"
    players: int = 4
    nines: bool = False
    dullen: bool = True
    dulle_order: DulleOrder = "first"
    schweinchen: Schweinchen = "off"
    superschweinchen: bool = False
    hyperschweinchen: bool = False
    schweinchen_solo: bool = False
    scoring: Rules = "house"
    counting: Counting = "scoring"
    solo_factor: int = 3
    declarations: Declarations = "sheet"
    scharfe: bool = True
    soli: tuple[str, ...] = HOUSE_SOLI
    ouvert: bool = True
    solo_style: SoloStyle = "literal"
    solo_priority: SoloPriority = "rank"
    pflichtsolo: bool = False
    pflichtsolo_count: int = 1
    vorfuehrung: bool = False
    lustsolo_lead: SoloLead = "dealer_left"
    hochzeit: HochzeitRule = "choice"
    hochzeit_tricks: int = 3
    hochzeit_alone: HochzeitAlone = "solo"
    stille_hochzeit: bool = True
    armut: bool = True
    armut_max_trumps: int = 3
    armut_count_foxes: bool = True
    armut_ask: ArmutAsk = "sheet"
    armut_refused: ArmutRefused = "redeal"
    armut_return: ArmutReturn = "plain_first"
    kings_redeal: int = 5
    nines_redeal: int = 0
    nines_kings_redeal: int = 0
    few_trumps_redeal: int = 0
    low_augen_redeal: int = 0
    fox_redeal: bool = False
    announcements: Timing = "ten_cards"
    announcement_count: AnnouncementCount = "cards"
    announcement_value: AnnouncementValue = "double"
    against_points: AgainstPoints = "each"
    announcement_reply: bool = True
    hochzeit_shift: bool = True
    table_mode: bool = False
    rot_geht_rum: RotGehtRum = "extra_point"
    sonderpunkte: tuple[str, ...] = HOUSE_SONDERPUNKTE
    solo_sonderpunkte: bool = False
    hochzeit_sonderpunkte: HochzeitExtras = "all"
    bock: bool = True
    bock_triggers: tuple[str, ...] = HOUSE_BOCK_TRIGGERS
    bock_rounds: int = 1
    bock_stacking: BockStacking = "stack"
    bock_factor: int = 2

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise OptionError(
                f"unknown preset {self.preset!r}: choose one of {', '.join(PRESETS)}",
                "unknown_preset",
                preset=str(self.preset)[:40],
            )
        SCHEMA.validate(self)
        # Sets: kept in the schema's order, so that equal sets are equal options.
        for name, order in (("sonderpunkte", SONDERPUNKTE), ("bock_triggers", BOCK_TRIGGERS)):
            value = getattr(self, name)
            canonical = tuple(k for k in order if k in value)
            if canonical != value:
                object.__setattr__(self, name, canonical)
        if self.declarations == "ddv":
            for name in ("armut", "scharfe"):
                if getattr(self, name):
                    raise OptionError(
                        f"option {name} needs the sheet's order of declarations "
                        "(declarations: sheet); the DDV order has no place for it",
                        "needs_sheet_order",
                        option=name,
                    )

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any] | None = None, **overrides: Any
    ) -> DoppelkopfOptions:
        """Options from a record's ``options`` object: a preset, then its overrides."""
        if not data and not overrides:
            # Any empty value gives the defaults here, not only an empty mapping.
            return _DEFAULT
        return options_from_dict(
            cls,
            data,
            overrides,
            presets=PRESETS,
            default_preset="house",
            default=_DEFAULT,
            schema=SCHEMA,
        )

    @classmethod
    def preset_named(cls, name: str, **overrides: Any) -> DoppelkopfOptions:
        """The options of preset ``name`` (``house`` or ``ddv``) with ``overrides``."""
        return cls.from_dict({"preset": name, **overrides})

    def to_dict(self) -> dict[str, Any]:
        """The preset and every option that differs from it (a table's options)."""
        return options_to_dict(self, PRESETS)

    def to_record(self) -> dict[str, Any]:
        """Every option written out, with the preset's name (what a record stores: it
        replays the same whatever a later version's presets say)."""
        return options_written_out(self)

    # -- derived ------------------------------------------------------------

    def deck(self) -> tuple[Card, ...]:
        """The 40 (or 48) cards, high to low within each suit, two of each."""
        return _deck(self.nines)

    def deck_cards(self) -> frozenset[Card]:
        """The distinct cards of :meth:`deck`, as a set."""
        return _deck_cards(self.nines)

    @property
    def deck_size(self) -> int:
        return 48 if self.nines else 40

    @property
    def hand_size(self) -> int:
        """Cards in each playing hand: 10, or 12 with the nines."""
        return 12 if self.nines else 10

    @property
    def packets(self) -> tuple[int, ...]:
        """Seed 003: 3-4-3; with the nines (TSR 3.3): four times three."""
        return (3, 3, 3, 3) if self.nines else (3, 4, 3)

    @property
    def schmeissen(self) -> bool:
        """Whether any hand may be thrown in (a reason to throw in is on)."""
        return bool(
            self.kings_redeal
            or self.nines_redeal
            or self.nines_kings_redeal
            or self.few_trumps_redeal
            or self.low_augen_redeal
            or self.fox_redeal
        )

    @property
    def is_ddv(self) -> bool:
        return self.scoring == "ddv"


_DEFAULT: Final = DoppelkopfOptions()
