"""Meld shapes and what each exposed card or meld accepts, as shifts and masks.

Everything here works on card sets (ints, see :mod:`umtali.engine.cards`).
Per-suit answers are looked up in tables of 8192 entries (one per 13-bit
suit pattern) built once at import, so the hot path never loops over ranks.

>>> from umtali.engine.cards import Card, mask_of, format_cards
>>> hand = mask_of(Card.parse(t) for t in "8S 7S 6S 9D 9C 9H 2C".split())
>>> format_cards(meldable(hand))
'9H 9D 9C 8S 7S 6S'
"""

from __future__ import annotations

from enum import IntEnum
from itertools import combinations

from umtali.engine.cards import JACK, KING, QUEEN, RANK_MASKS, SuitLists, plain_points

SUIT13 = (1 << 13) - 1
_NO_JACK13 = SUIT13 & ~(1 << JACK)
_ROYALS13 = (1 << KING) | (1 << QUEEN)


class PieceKind(IntEnum):
    """What a column on the table is; every card belongs to exactly one piece."""

    RUN = 0
    GROUP = 1
    MARRIAGE = 2
    PAIR = 3
    SOLO = 4

    @property
    def label(self) -> str:
        return self.name.lower()


def _runs13(m: int, ranks: int = _NO_JACK13) -> tuple[int, ...]:
    """Every run (3+ consecutive ranks among ``ranks``) inside a 13-bit suit pattern."""
    m &= ranks
    out = []
    for lo in range(13):
        run = 0
        for r in range(lo, 13):
            if not m >> r & 1:
                break
            run |= 1 << r
            if r - lo >= 2:
                out.append(run)
    return tuple(out)


def _meldable13(m: int) -> int:
    """Cards of one suit that sit in some run or in a marriage."""
    m &= _NO_JACK13
    starts = m & (m >> 1) & (m >> 2)
    out = starts | (starts << 1) | (starts << 2)
    if m & _ROYALS13 == _ROYALS13:
        out |= _ROYALS13
    return out


def _rummy_meldable13(m: int) -> int:
    """Cards of one suit that sit in some run, jacks included (Rummy)."""
    starts = m & (m >> 1) & (m >> 2)
    return starts | (starts << 1) | (starts << 2)


# The tables are made with map, which loops in C: a few milliseconds at import.
MELDABLE13: tuple[int, ...] = tuple(map(_meldable13, range(1 << 13)))
# The same, already shifted into each suit's place (a shift makes a new 52-bit int);
# shifting left by 13 * suit is multiplying by 1 << 13 * suit.
_MELDABLE_IN_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(map((1 << 13 * suit).__mul__, MELDABLE13)) for suit in range(4)
)
RUMMY_MELDABLE13: tuple[int, ...] = tuple(map(_rummy_meldable13, range(1 << 13)))


# One bit per suit at rank 0: multiplying a 13-bit pattern by it copies the pattern
# into all four suits (the copies cannot overlap, so nothing carries).
_SUIT_COPIES = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _spread(ranks13: int) -> int:
    """A 13-bit rank pattern copied into all four suits."""
    return ranks13 * _SUIT_COPIES


def group_ranks(hand: int, ranks: int = _NO_JACK13) -> int:
    """13-bit pattern of the ranks (among ``ranks``: jacks excluded) held three or four times."""
    a = hand & ranks
    b = (hand >> 13) & ranks
    c = (hand >> 26) & ranks
    d = (hand >> 39) & ranks
    return (a & b & (c | d)) | (c & d & (a | b))


def meldable(hand: int) -> int:
    """The cards of ``hand`` that can form a run, group or marriage with others in it.

    These are the cards The Rule forbids playing as additions.
    """
    a = hand & SUIT13
    b = (hand >> 13) & SUIT13
    c = (hand >> 26) & SUIT13
    d = hand >> 39
    s0, s1, s2, s3 = _MELDABLE_IN_SUIT
    out = s0[a] | s1[b] | s2[c] | s3[d]
    # group_ranks, inlined (this is the hottest function of the engine), with
    # the jacks masked out once at the end.
    g = ((a & b & (c | d)) | (c & d & (a | b))) & _NO_JACK13
    if g:
        out |= hand & g * _SUIT_COPIES
    return out


def _suit_melds(suit: int, m: int) -> tuple[int, ...]:
    """The runs, then the marriage, in one suit's 13-bit pattern, as card sets."""
    shift = 13 * suit
    out = [run << shift for run in _runs13(m)]
    if m & _ROYALS13 == _ROYALS13:
        out.append(_ROYALS13 << shift)
    return tuple(out)


_SUIT_MELDS: SuitLists[int] = SuitLists(_suit_melds)


def melds_in(hand: int) -> list[int]:
    """Every run, group and marriage that can be laid from ``hand``.

    Runs of every length and position are listed (a 4-card run also yields
    its two 3-card runs), and a four-card rank yields the group of four and
    each group of three: which one to lay is the player's choice.
    """
    out = _SUIT_MELDS.of(hand)
    _add_groups(out, hand, group_ranks(hand))
    return out


def rule_melds(hand: int) -> list[int]:
    """The melds The Rule lets a player lay from ``hand``: those of :func:`melds_in`
    that leave no card behind that belongs in their column.

    The Rule covers the whole column: a run or group laid from the hand takes in
    every card of the hand that extends it (the fourth of a group, the next card
    of the suit at either end of a run), unless that card can still form a run,
    group or marriage with the cards left in the hand.  Every card that can meld
    is in at least one such meld (its longest run, or its whole group), so the
    cards The Rule keeps from being played alone are still ``meldable(hand)``.

    >>> from umtali.engine.cards import Card, mask_of, format_cards
    >>> clubs = mask_of(Card.parse(t) for t in "5C 4C 3C 2C".split())
    >>> [format_cards(m) for m in rule_melds(clubs)]
    ['5C 4C 3C 2C']
    >>> twos = mask_of(Card.parse(t) for t in "2H 2D".split())
    >>> [format_cards(m) for m in rule_melds(clubs | twos)]
    ['5C 4C 3C 2C', '5C 4C 3C', '2H 2D 2C']
    """
    out = []
    for m in melds_in(hand):
        # The cards of the hand this meld would take as additions (a jack stands alone).
        extends = hand & MELDS[m][1] & _NOT_JACKS
        if not extends or not extends & ~meldable(hand ^ m):
            out.append(m)
    return out


def rummy_meldable(hand: int) -> int:
    """The cards of ``hand`` in some run or group, jacks being ordinary cards (Rummy)."""
    t = RUMMY_MELDABLE13
    out = t[hand & SUIT13] | t[(hand >> 13) & SUIT13] << 13
    out |= t[(hand >> 26) & SUIT13] << 26 | t[hand >> 39] << 39
    g = group_ranks(hand, SUIT13)
    if g:
        out |= hand & _spread(g)
    return out


def _rummy_suit_runs(suit: int, m: int) -> tuple[int, ...]:
    shift = 13 * suit
    return tuple(run << shift for run in _runs13(m, SUIT13))


_RUMMY_SUIT_RUNS: SuitLists[int] = SuitLists(_rummy_suit_runs)


def rummy_melds_in(hand: int) -> list[int]:
    """Every run and group that can be laid from ``hand`` in Rummy (no marriages)."""
    out = _RUMMY_SUIT_RUNS.of(hand)
    _add_groups(out, hand, group_ranks(hand, SUIT13))
    return out


def _add_groups(out: list[int], hand: int, g: int) -> None:
    """Append the groups of the ranks in ``g``: a four yields itself and its threes."""
    while g:
        low = g & -g
        g ^= low
        same = hand & RANK_MASKS[low.bit_length() - 1]
        out.append(same)
        if same.bit_count() == 4:
            rest = same
            while rest:
                one = rest & -rest
                rest ^= one
                out.append(same ^ one)


def rummy_meld_kind(mask: int) -> PieceKind | None:
    """RUN or GROUP for a Rummy meld (jacks ordinary, three cards at least), else None."""
    n = mask.bit_count()
    if n < 3:
        return None
    low = (mask & -mask).bit_length() - 1
    suit, rank = divmod(low, 13)
    if mask & RANK_MASKS[rank] == mask:
        return PieceKind.GROUP
    m = mask >> (13 * suit)
    if m > SUIT13:
        return None
    norm = m >> rank
    return PieceKind.RUN if norm & (norm + 1) == 0 else None


def is_two_run(mask: int) -> bool:
    """Two cards of one suit next to each other, neither a jack (a final meld in family)."""
    if mask.bit_count() != 2 or mask & RANK_MASKS[JACK]:
        return False
    low = mask & -mask
    return mask == low | low << 1 and (low.bit_length() - 1) % 13 != 12


_FULL = (1 << 52) - 1
_NOT_JACKS = _FULL & ~RANK_MASKS[JACK]
_NOT_ACES = _FULL & ~_spread(1)  # a left shift must not carry a king into an ace
_NOT_KINGS = _FULL & ~_spread(1 << 12)  # nor a right shift an ace into a king


def could_accept(cards: int) -> int:
    """Every card that any piece made from ``cards`` could ever accept.

    A meld accepts nothing its cards would not accept as solo cards (a group
    its rank, a run its suit neighbours), so the union of the solo
    acceptors is an upper bound, built here with shifts instead of a loop.
    """
    folded = (cards | cards >> 13 | cards >> 26 | cards >> 39) & SUIT13
    return folded * _SUIT_COPIES | (cards << 1) & _NOT_ACES | (cards >> 1) & _NOT_KINGS


def could_reach(hand: int, maybe: int, accept: int) -> int:
    """The cards of ``hand`` that might be played after ``maybe`` (cards that might be
    played now) on a table taking ``accept``: grown by what those could take once down,
    until nothing is added.  A quick bound, never a proof."""
    while True:
        grown = hand & (maybe | accept | could_accept(maybe))
        if grown == maybe:
            return maybe
        maybe = grown


def is_pair(mask: int) -> bool:
    """Two cards of one rank, jacks excepted."""
    if mask.bit_count() != 2:
        return False
    r = (mask & -mask).bit_length() - 1
    rank = r % 13
    return rank != JACK and mask & RANK_MASKS[rank] == mask


def meld_kind(mask: int) -> PieceKind | None:
    """The shape of a proposed meld, or None if the cards form none.

    A PAIR is returned for any two cards of one rank; whether a pair may be
    laid now (only when it takes the player out) is the state's business.
    """
    n = mask.bit_count()
    if n < 2 or mask & RANK_MASKS[JACK]:
        return None
    low = (mask & -mask).bit_length() - 1
    suit, rank = divmod(low, 13)
    if mask & RANK_MASKS[rank] == mask:
        if n == 2:
            return PieceKind.PAIR
        return PieceKind.GROUP if n <= 4 else None
    m = mask >> (13 * suit)
    if m > SUIT13:
        return None  # more than one suit
    if n == 2:
        return PieceKind.MARRIAGE if m == _ROYALS13 else None
    norm = m >> rank
    return PieceKind.RUN if norm & (norm + 1) == 0 else None


def _solo_accepts(index: int) -> int:
    rank = index % 13
    acc = RANK_MASKS[rank]
    if rank > 0:
        acc |= 1 << (index - 1)
    if rank < 12:
        acc |= 1 << (index + 1)
    return acc & ~(1 << index)


SOLO_ACCEPTS: tuple[int, ...] = tuple(_solo_accepts(i) for i in range(52))


def accepts(kind: PieceKind, mask: int) -> int:
    """The cards a piece on the table takes as additions.

    Groups and pairs take their rank; runs take the card just below their
    lowest and just above their highest; solo cards take their rank and
    their suit's neighbours; marriages take nothing.
    """
    low = (mask & -mask).bit_length() - 1
    if kind is PieceKind.SOLO:
        return SOLO_ACCEPTS[low]
    if kind is PieceKind.GROUP or kind is PieceKind.PAIR:
        return RANK_MASKS[low % 13] & ~mask
    if kind is PieceKind.RUN:
        rank = low % 13
        high = mask.bit_length() - 1
        acc = 0
        if rank > 0:
            acc |= 1 << (low - 1)
        if high % 13 < 12:
            acc |= 1 << (high + 1)
        return acc
    return 0


def _every_meld() -> dict[int, tuple[PieceKind, int, int]]:
    """Every card set that meld_kind names, with its kind, acceptors and plain value."""
    sets = [meld for suit in range(4) for meld in _suit_melds(suit, SUIT13)]
    for rank in range(13):
        if rank != JACK:
            cards = [1 << (13 * suit + rank) for suit in range(4)]
            sets += [sum(c) for n in (2, 3, 4) for c in combinations(cards, n)]
    table = {}
    for mask in sets:
        kind = meld_kind(mask)
        assert kind is not None
        table[mask] = (kind, accepts(kind, mask), plain_points(mask))
    return table


#: ``MELDS[mask]``: (kind, what it takes, plain value) of every run, group,
#: marriage and pair; laying a meld looks its shape up here.
MELDS: dict[int, tuple[PieceKind, int, int]] = _every_meld()
