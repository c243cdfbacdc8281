"""What the table takes where additions extend melds (family, practical, rummy).

There an addition goes onto **one** meld, the one the player announces, and
extends that meld only (practical's rule book: "they must announce which meld
it is being added to, this can not change").  A card can be wanted by up to
four melds at once, one of each way:

* ``RANK``: a group or pair on the table takes the rest of its rank;
* ``UP``: a run takes the card just above its top;
* ``DOWN``: a run takes the card just below its bottom;
* ``JACK``: in Umtali a lone jack takes the ten and the queen of its suit.

The table is kept as one card set per way, with their union and the cards laid,
so that laying a card is a few shifts and masks.  An addition that one meld
wants is the move ``(PLAY, card)``; one that several want is listed once per
way, as ``(ADD_RANK, card)``, ``(ADD_UP, card)`` and so on, and the player's
``on`` names which.  The way decides what the table takes next: a card added
up a run lets the run take the card above it, while the same card added to a
group leaves the run wanting it still (it is gone, so the run stops there).

>>> from umtali.engine.cards import Card
>>> table = lay_meld(EMPTY, PieceKind.RUN, Card.parse("4H").bit | Card.parse("3H").bit
...                  | Card.parse("2H").bit, True)[0]
>>> table = lay_meld(table, PieceKind.GROUP, Card.parse("5S").bit | Card.parse("5D").bit
...                  | Card.parse("5C").bit, True)[0]
>>> [(kind, str(Card.from_index(bit.bit_length() - 1))) for kind, bit in
...  additions(Card.parse("5H").bit, table)] == [(ADD_RANK, "5H"), (ADD_UP, "5H")]
True
"""

from __future__ import annotations

from umtali.engine.cards import BITS, JACK, JACKS, RANK_MASKS, indices
from umtali.engine.melds import PieceKind
from umtali.engine.moves import ADD_DOWN, ADD_JACK, ADD_RANK, ADD_UP, PLAY, Move
from umtali.engine.state import PLAYS

#: Positions in a :data:`Table`.
ACCEPT, RANK, UP, DOWN, JACK_OFF, LAID = range(6)
#: (everything taken, by rank, up a run, down a run, off a lone jack, cards laid).
Table = tuple[int, int, int, int, int, int]
EMPTY: Table = (0, 0, 0, 0, 0, 0)

#: A lone jack in Umtali: played alone, off nothing.
ALONE = PLAY
_WAYS = ((ADD_RANK, RANK), (ADD_UP, UP), (ADD_DOWN, DOWN), (ADD_JACK, JACK_OFF))
_SET_OF = dict(_WAYS)
_TEN_AND_QUEEN = RANK_MASKS[JACK - 1] | RANK_MASKS[JACK + 1]


def lay_meld(table: Table, kind: PieceKind, mask: int, jacks_alone: bool) -> tuple[Table, int]:
    """The table after laying a meld, and what the meld itself takes."""
    accept, rank, up, down, jack, laid = table
    laid |= mask
    new = 0
    if kind is PieceKind.RUN:
        low = (mask & -mask).bit_length() - 1
        high = mask.bit_length() - 1
        below = BITS[low - 1] & ~laid if low % 13 else 0
        above = BITS[high + 1] & ~laid if high % 13 != 12 else 0
        if jacks_alone:
            below &= ~JACKS
            above &= ~JACKS
        down |= below
        up |= above
        new = below | above
    elif kind is PieceKind.GROUP or kind is PieceKind.PAIR:
        low = (mask & -mask).bit_length() - 1
        new = RANK_MASKS[low % 13] & ~laid
        rank |= new
    return (accept | new, rank, up, down, jack, laid), new


def add_card(table: Table, bit: int, way: int, jacks_alone: bool) -> tuple[Table, int]:
    """The table after adding one card the ``way`` given, and what that card takes in turn.

    Added to a group, a card leaves the group taking the rest of its rank; added
    up (or down) a run, it takes the next card beyond it; added off a jack, it
    takes nothing.  ``ALONE`` lays a lone jack, which takes its ten and queen.
    """
    accept, rank, up, down, jack, laid = table
    i = bit.bit_length() - 1
    r = i % 13
    new = 0
    if way == ADD_RANK:
        new = RANK_MASKS[r] & ~laid & ~bit
        rank |= new
    elif way == ADD_UP:
        if r != 12:
            new = BITS[i + 1] & ~laid
            if jacks_alone:
                new &= ~JACKS
        up |= new
    elif way == ADD_DOWN:
        if r:
            new = BITS[i - 1] & ~laid
            if jacks_alone:
                new &= ~JACKS
        down |= new
    elif way == ALONE:
        new = (bit >> 1 | bit << 1) & ~laid
        jack |= new
    return (accept | new, rank, up, down, jack, laid | bit), new


def ways(table: Table, bit: int) -> list[int]:
    """The ways (``ADD_RANK`` …) in which melds on ``table`` take the card ``bit``."""
    return [way for way, place in _WAYS if table[place] & bit]


def several(table: Table) -> int:
    """The cards that more than one meld on ``table`` takes."""
    _, rank, up, down, jack, _ = table
    return rank & (up | down | jack) | up & (down | jack) | down & jack


def additions(free: int, table: Table) -> list[Move]:
    """The single plays of the cards ``free``: ``(PLAY, card)`` where one meld takes the
    card (or it is a lone jack), and one move per way where several do."""
    many = free & several(table)
    moves = PLAYS.of(free ^ many) if free ^ many else []
    for i in indices(many):
        bit = BITS[i]
        moves += [(way, bit) for way, place in _WAYS if table[place] & bit]
    return moves


def way_of(move: Move, table: Table, jacks_alone: bool) -> int:
    """How a single play joins the table: the move's own way, or for ``(PLAY, card)``
    the one meld that takes it (``ALONE`` for a lone jack)."""
    kind, bit = move
    if kind != PLAY:
        return kind
    if jacks_alone and bit & JACKS:
        return ALONE
    for way, place in _WAYS:
        if table[place] & bit:
            return way
    return ALONE  # nothing takes it: not a legal move, but laying it cannot fail


def taken(table: Table, way: int) -> int:
    """The cards ``table`` takes in one way."""
    return table[_SET_OF[way]]


def split_acceptance(kind: PieceKind, mask: int, acc: int, jacks_alone: bool) -> Table:
    """One piece's part of the table: what it takes (``acc``) sorted into the ways.

    A piece takes by rank what shares its rank, by ``UP`` what lies above its
    highest card and by ``DOWN`` what lies below its lowest; a lone jack takes
    its ten and queen off itself.
    """
    if kind is PieceKind.SOLO and jacks_alone and mask & JACKS:
        return (acc, 0, 0, 0, acc & _TEN_AND_QUEEN, mask)
    low = mask & -mask
    same = acc & RANK_MASKS[(low.bit_length() - 1) % 13]
    other = acc & ~same
    above = other & -(1 << mask.bit_length())  # the bits above the piece's highest card
    return (acc, same, above, other & ~above, 0, mask)


__all__ = [
    "ACCEPT",
    "ALONE",
    "EMPTY",
    "LAID",
    "Table",
    "add_card",
    "additions",
    "lay_meld",
    "several",
    "split_acceptance",
    "taken",
    "way_of",
    "ways",
]
