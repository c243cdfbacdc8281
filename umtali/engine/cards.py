"""Cards, their notation, and the 52-bit card sets the hot path runs on.

A card's *index* is ``13 * suit + rank`` with ranks 0 (ace) to 12 (king) and
suits in the order spades, hearts, diamonds, clubs.  A set of cards is an int
whose bit ``index`` is set for each card in it, so a suit is 13 adjacent bits.

>>> Card.parse("10h")
Card.parse('10H')
>>> str(Card.parse("q♠"))
'QS'
>>> [str(c) for c in cards_of(mask_of([Card.parse("AS"), Card.parse("KC")]))]
['AS', 'KC']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Generic, TypeVar

from umtali.engine.errors import InvalidNotation

T = TypeVar("T")

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"

ACE, TEN, JACK, QUEEN, KING = 0, 9, 10, 11, 12

_RANK_BY_TEXT = {name: r for r, name in enumerate(RANK_NAMES)}
_RANK_BY_TEXT["T"] = TEN
_SUIT_BY_TEXT = {ch: s for s, ch in enumerate(SUIT_LETTERS)}
_SUIT_BY_TEXT.update({ch: s for s, ch in enumerate(SUIT_SYMBOLS)})
# Text-style variants of the symbols some terminals and keyboards produce.
_SUIT_BY_TEXT.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


class Suit(IntEnum):
    """The four suits, in the order their 13-bit blocks sit in a card set."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; ``rank`` runs 0 (ace) to 12 (king)."""

    suit: Suit
    rank: int

    @property
    def index(self) -> int:
        return 13 * self.suit + self.rank

    @property
    def bit(self) -> int:
        return 1 << (13 * self.suit + self.rank)

    @property
    def points(self) -> int:
        """Plain value: 10, J, Q and K are worth 5, ace to 9 are worth 1."""
        return 5 if self.rank >= TEN else 1

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank]

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def symbol(self) -> str:
        """The card with its suit symbol, as the table shows it: ``10♥``."""
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    @staticmethod
    def from_index(index: int) -> Card:
        return CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card: rank (A 2..10 J Q K, or T for 10) then suit (S H D C or a symbol).

        Case and surrounding spaces do not matter.
        """
        t = text.strip().upper()
        if len(t) < 2 or t[-1] not in _SUIT_BY_TEXT or t[:-1] not in _RANK_BY_TEXT:
            raise InvalidNotation(
                f"{text.strip()!r} is not a card: write a rank (A 2-10 J Q K) "
                "and a suit (S H D C), like 10S, QD or AH"
            )
        return CARDS[13 * _SUIT_BY_TEXT[t[-1]] + _RANK_BY_TEXT[t[:-1]]]


CARDS: tuple[Card, ...] = tuple(Card(Suit(s), r) for s in range(4) for r in range(13))
FULL_DECK = (1 << 52) - 1


def mask_of(cards: Iterable[Card]) -> int:
    """The card set holding these cards."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


#: ``BITS[i]``: the set of card ``i`` alone (made once: a shift makes a new int).
BITS: tuple[int, ...] = tuple(1 << i for i in range(52))


def mask_of_indices(indices: Iterable[int]) -> int:
    """The card set holding the cards with these indices, each given once."""
    return sum(map(BITS.__getitem__, indices))  # distinct bits: adding them is or-ing


def by_pattern(empty: T, add: Callable[[T, int], T]) -> tuple[T, ...]:
    """A value for each of the 8192 patterns of one suit's ranks (bit r: rank r),
    from the empty pattern's and how adding a rank above the others changes it.

    Built by doubling, as the patterns come: those whose highest rank is ``r`` are
    the ones below ``1 << r`` with ``r`` added, so each value takes one step (and
    the tables cost a millisecond at import, not tens).

    >>> by_pattern(0, lambda count, rank: count + 1)[0b1011]
    3
    """
    table = [empty]
    for rank in range(13):
        table += [add(value, rank) for value in table]
    return tuple(table)


# The ranks present in each 13-bit suit pattern, lowest first.
_SUIT_INDICES: tuple[tuple[int, ...], ...] = by_pattern((), lambda ranks, r: (*ranks, r))


class SuitLists(Generic[T]):
    """Answers per suit, listed for a whole card set by four table lookups.

    ``build(suit, pattern)`` gives the answers for one suit's 13-bit pattern;
    each is computed the first time that pattern is met in that suit and kept.
    :meth:`of` joins the four suits' answers, spades first.  The hot path
    lists moves this way (every discard, every addition, every meld) instead
    of looping over a set's bits.
    """

    __slots__ = ("_build", "_suits")

    def __init__(self, build: Callable[[int, int], tuple[T, ...]]) -> None:
        self._build = build
        self._suits: list[list[tuple[T, ...] | None]] = []
        for suit in range(4):
            table: list[tuple[T, ...] | None] = [None] * (1 << 13)
            table[0] = build(suit, 0)
            self._suits.append(table)

    def _fill(self, suit: int, pattern: int) -> tuple[T, ...]:
        got = self._suits[suit][pattern] = self._build(suit, pattern)
        return got

    def of(self, mask: int) -> list[T]:
        """The answers for ``mask``'s four suits, one after another."""
        s0, s1, s2, s3 = self._suits
        p = mask & 0x1FFF
        a = s0[p]
        if a is None:
            a = self._fill(0, p)
        p = (mask >> 13) & 0x1FFF
        b = s1[p]
        if b is None:
            b = self._fill(1, p)
        p = (mask >> 26) & 0x1FFF
        c = s2[p]
        if c is None:
            c = self._fill(2, p)
        p = mask >> 39
        d = s3[p]
        if d is None:
            d = self._fill(3, p)
        return [*a, *b, *c, *d]


def per_card(values: Iterable[T]) -> SuitLists[T]:
    """One value per card index: ``per_card(v).of(mask)`` lists the values of
    the cards in ``mask``, lowest index first."""
    table = tuple(values)
    if len(table) != 52:
        raise ValueError(f"one value per card: 52, not {len(table)}")

    def build(suit: int, pattern: int) -> tuple[T, ...]:
        return tuple(table[13 * suit + r] for r in _SUIT_INDICES[pattern])

    return SuitLists(build)


#: ``indices(mask)``: the card indices in a set, lowest first.
indices = per_card(range(52)).of


def cards_of(mask: int) -> list[Card]:
    """The cards of a set, in index order (by suit, then rank)."""
    return [CARDS[i] for i in indices(mask)]


def by_rank_desc(cards: Iterable[Card]) -> list[Card]:
    """Highest rank first (ties by suit order): how a meld's column is stacked."""
    return sorted(cards, key=lambda c: (-c.rank, c.suit))


def format_cards(mask: int) -> str:
    """A card set as text, highest first: ``'7S 6S 5S'``."""
    return " ".join(str(c) for c in by_rank_desc(cards_of(mask)))


def plain_points(mask: int) -> int:
    """Plain value of a card set (no marriage bonus)."""
    fives = (mask & FIVES).bit_count()
    return 5 * fives + (mask.bit_count() - fives)


RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
JACKS = RANK_MASKS[JACK]
FIVES = RANK_MASKS[TEN] | RANK_MASKS[JACK] | RANK_MASKS[QUEEN] | RANK_MASKS[KING]
#: Each card's plain value, by index.
CARD_POINTS: tuple[int, ...] = tuple(plain_points(1 << i) for i in range(52))


#: The Rummy value of each pattern of one suit's thirteen cards (bit r: rank r).
_SUIT_RUMMY: tuple[int, ...] = by_pattern(0, lambda total, r: total + min(r + 1, 10))


def rummy_points(mask: int) -> int:
    """Rummy value of a card set: ace 1, two to ten their number, J Q K 10 each.

    >>> rummy_points(mask_of(Card.parse(c) for c in "AS 9H JD KC".split()))
    30
    """
    t = _SUIT_RUMMY
    return t[mask & 0x1FFF] + t[(mask >> 13) & 0x1FFF] + t[(mask >> 26) & 0x1FFF] + t[mask >> 39]
