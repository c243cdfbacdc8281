"""Naive reference implementations of the meld rules, for the tests to check the
bitmask code against: written the slow, obvious way, from the rule text alone."""

from __future__ import annotations

from itertools import combinations, pairwise

from umtali.engine.cards import JACK, KING, QUEEN, Card, mask_of
from umtali.engine.melds import PieceKind

OVERLAPPED = (PieceKind.RUN, PieceKind.GROUP, PieceKind.MARRIAGE)


def ref_kind(cs: list[Card]) -> PieceKind | None:
    """The shape of a set of cards under Umtali's meld rules (jacks in none)."""
    if len(cs) < 2 or any(c.rank == JACK for c in cs):
        return None
    ranks = sorted(c.rank for c in cs)
    if len({c.rank for c in cs}) == 1:
        return PieceKind.PAIR if len(cs) == 2 else PieceKind.GROUP if len(cs) <= 4 else None
    if len({c.suit for c in cs}) != 1:
        return None
    if len(cs) == 2:
        return PieceKind.MARRIAGE if ranks == [QUEEN, KING] else None
    ok = all(b - a == 1 for a, b in pairwise(ranks))
    return PieceKind.RUN if ok else None


def ref_melds(hand: list[Card]) -> set[int]:
    """Every run, group and marriage inside ``hand``, as card sets."""
    out = set()
    for n in range(2, len(hand) + 1):
        for combo in combinations(hand, n):
            if ref_kind(list(combo)) in OVERLAPPED:
                out.add(mask_of(combo))
    return out


def ref_rule_melds(hand: list[Card]) -> set[int]:
    """The melds The Rule allows: none may leave in the hand a card that would extend it
    (the same kind of meld with that card added) unless that card still melds with the
    cards left."""
    out = set()
    for meld in ref_melds(hand):
        cards = [c for c in hand if c.bit & meld]
        kind = ref_kind(cards)
        rest = [c for c in hand if not c.bit & meld]
        extends = [c for c in rest if kind in (PieceKind.RUN, PieceKind.GROUP)]
        extends = [c for c in extends if ref_kind([*cards, c]) is kind]
        if all(any(c.bit & other for other in ref_melds(rest)) for c in extends):
            out.add(meld)
    return out
