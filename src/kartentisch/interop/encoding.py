"""Action ids, observation arrays and turn-based tables shared by the bridges.

Both the PettingZoo environments and the OpenSpiel games see a deal through a
:class:`Table`: a turn-based view of one engine deal with a fixed-size integer
action space, per-seat observation arrays and the deal's scores.

**Action ids** (fixed per game, whatever the options):

* Slobberhannes — 32 ids, one per card of the 32-card piquet deck in
  :data:`SLOBBERHANNES_CARDS` order (♣ ♠ ♥ ♦, each A K Q J 10 9 8 7: id 0 is
  A♣, id 2 is Q♣, id 31 is 7♦). With 3, 5, 6 or 7 players the cards taken out
  of the deck are simply never legal.
* Doppelkopf — 73 ids: 0–23 one per distinct card (♣ ♠ ♥ ♦, each A K Q J 10
  9, :data:`DOPPELKOPF_CARDS`; the two copies of a card share its id, and
  the nines are never legal without the ``nines`` option), then 24–72 the
  words of :data:`DOPPELKOPF_WORDS` (declarations, the Armut answer,
  announcements). The Armut exchange (``give``/``return`` three cards, or
  all the poor player's trumps when the Füchse do not count and they are
  more) is made card by card: in those phases the card ids pick the cards in
  ascending id order, and the last pick passes them.

**Turns**: the seat to move acts; it may also announce (Re, Kontra, keine 90 …)
on its own turn, before its card. Announcements out of turn and the
table-mode Kulanz take-back are not offered (a turn-based game has no place
for them; a take-back would also let a seat undo and redo forever).

**Scores** (:meth:`Table.scores`): Doppelkopf — the sheet's points of the deal
(:meth:`DoppelkopfDeal.points`); Slobberhannes — *minus* the penalty chips
paid (a chip is a point against), so that higher is better in both games.

**Observations**: :meth:`Table.encode` turns the engine's observation of one
seat (:meth:`GameState.observation`, never another hand) into a float32
vector laid out as :func:`slobberhannes_layout` / :func:`doppelkopf_layout`
describe. Seats in it are *relative*: row 0 is the observing seat, row 1 the
seat on its left (next in play order), and so on.

This module gathers the names of three: :mod:`~kartentisch.interop.encoding_common`
(layouts, views, the :class:`Table` both games' tables derive from),
:mod:`~kartentisch.interop.encoding_slobberhannes` and
:mod:`~kartentisch.interop.encoding_doppelkopf` (each game's ids, layout,
encoder and table).
"""

from __future__ import annotations

from kartentisch.interop.encoding_common import (
    Block,
    FloatArray,
    Layout,
    MaskArray,
    PrivateInfo,
    Table,
    Viewer,
    encode_view,
    view_layout,
)
from kartentisch.interop.encoding_doppelkopf import (
    DECLARATION_ROUNDS,
    DOPPELKOPF_ACTIONS,
    DOPPELKOPF_CARDS,
    DOPPELKOPF_PHASES,
    DOPPELKOPF_WORD_IDS,
    DOPPELKOPF_WORDS,
    SEEN_GAME_TYPES,
    DoppelkopfTable,
    doppelkopf_action_id,
    doppelkopf_action_name,
    doppelkopf_layout,
    encode_doppelkopf,
)
from kartentisch.interop.encoding_slobberhannes import (
    SLOBBERHANNES_ACTIONS,
    SLOBBERHANNES_CARDS,
    SlobberhannesTable,
    encode_slobberhannes,
    slobberhannes_action_name,
    slobberhannes_layout,
)

__all__ = [
    "DECLARATION_ROUNDS",
    "DOPPELKOPF_ACTIONS",
    "DOPPELKOPF_CARDS",
    "DOPPELKOPF_PHASES",
    "DOPPELKOPF_WORDS",
    "DOPPELKOPF_WORD_IDS",
    "SEEN_GAME_TYPES",
    "SLOBBERHANNES_ACTIONS",
    "SLOBBERHANNES_CARDS",
    "Block",
    "DoppelkopfTable",
    "FloatArray",
    "Layout",
    "MaskArray",
    "PrivateInfo",
    "SlobberhannesTable",
    "Table",
    "Viewer",
    "doppelkopf_action_id",
    "doppelkopf_action_name",
    "doppelkopf_layout",
    "encode_doppelkopf",
    "encode_slobberhannes",
    "encode_view",
    "slobberhannes_action_name",
    "slobberhannes_layout",
    "view_layout",
]
