"""Meld shapes and acceptors: examples on both sides, and the bitmask code
checked against plain reference implementations written the slow, obvious way."""

from __future__ import annotations

from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ref_kind, ref_melds, ref_rule_melds

from umtali.engine.cards import (
    CARDS,
    RANK_MASKS,
    Card,
    indices,
    mask_of,
    per_card,
    plain_points,
)
from umtali.engine.melds import (
    MELDS,
    PieceKind,
    accepts,
    could_accept,
    is_pair,
    is_two_run,
    meld_kind,
    meldable,
    melds_in,
    rule_melds,
    rummy_meld_kind,
    rummy_meldable,
    rummy_melds_in,
)


def m(text: str) -> int:
    return mask_of(Card.parse(t) for t in text.split())


@pytest.mark.parametrize(
    "cards,kind",
    [
        ("4C 3C 2C", PieceKind.RUN),
        ("3C AC 2C", PieceKind.RUN),
        ("10H 9H 8H 7H 6H", PieceKind.RUN),
        ("KS QS", PieceKind.MARRIAGE),
        ("9S 9H 9D", PieceKind.GROUP),
        ("QS QH QD QC", PieceKind.GROUP),
        ("5C 5D", PieceKind.PAIR),
    ],
)
def test_meld_shapes_allowed(cards: str, kind: PieceKind) -> None:
    assert meld_kind(m(cards)) is kind


@pytest.mark.parametrize(
    "cards",
    [
        "4C 3C",  # two cards of a suit are no run
        "5C 3C 2C",  # a gap
        "4C 3C 2D",  # two suits
        "AS KS QS",  # the ace is low: K and A are not neighbours
        "QS JS 10S",  # no jack in a run
        "JS JH JD",  # no group of jacks
        "JS JH",  # no pair of jacks
        "KS QH",  # a marriage is one suit
        "KS KH QS",  # not a group and not a marriage
        "5C",  # one card is no meld
    ],
)
def test_meld_shapes_refused(cards: str) -> None:
    assert meld_kind(m(cards)) is None


@pytest.mark.parametrize(
    "kind,cards,takes,refuses",
    [
        (PieceKind.GROUP, "9S 9H 9D", "9C", "8S 10S"),
        (PieceKind.PAIR, "9S 9H", "9D 9C", "8S 10H"),
        (PieceKind.RUN, "6C 5C 4C", "7C 3C", "5H 6H 8C 2C"),
        (PieceKind.RUN, "3D 2D AD", "4D", "KD 2S"),
        (PieceKind.SOLO, "8H", "9H 7H 8S 8D 8C", "10H 6H 9S"),
        (PieceKind.SOLO, "JD", "10D QD JS JH JC", "10S KD"),
        (PieceKind.SOLO, "AS", "2S AH AD AC", "KS"),
        (PieceKind.SOLO, "KS", "QS KH", "AS"),
        (PieceKind.MARRIAGE, "KD QD", "", "JD KS QS 10D"),
    ],
)
def test_what_each_piece_takes(kind: PieceKind, cards: str, takes: str, refuses: str) -> None:
    acc = accepts(kind, m(cards))
    assert acc & m(takes) == m(takes)
    assert not acc & m(refuses)


def test_is_pair() -> None:
    assert is_pair(m("7S 7C"))
    assert not is_pair(m("7S 8S")) and not is_pair(m("JS JC")) and not is_pair(m("7S 7C 7D"))


hands = st.lists(st.sampled_from(CARDS), min_size=0, max_size=12, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_melds_in_matches_reference(hand: list[Card]) -> None:
    mask = mask_of(hand)
    found = melds_in(mask)
    assert len(found) == len(set(found))
    assert set(found) == ref_melds(hand)
    union = 0
    for meld in found:
        union |= meld
    assert meldable(mask) == union


@settings(max_examples=300, deadline=None)
@given(hands)
def test_rule_melds_match_reference(hand: list[Card]) -> None:
    mask = mask_of(hand)
    found = rule_melds(mask)
    assert set(found) == ref_rule_melds(hand)
    # Every card that can meld is in a meld The Rule allows: so the cards The Rule keeps
    # from being played alone are exactly the meldable ones.
    union = 0
    for meld in found:
        union |= meld
    assert union == meldable(mask)


# Hands dense in one suit and one rank, where runs and groups overlap most.
crowded = st.lists(
    st.sampled_from([c for c in CARDS if c.suit == 0 or c.rank in (3, 4)]),
    min_size=3,
    max_size=12,
    unique=True,
)


@settings(max_examples=300, deadline=None)
@given(crowded)
def test_rule_melds_match_reference_in_crowded_hands(hand: list[Card]) -> None:
    assert set(rule_melds(mask_of(hand))) == ref_rule_melds(hand)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=6, unique=True))
def test_meld_kind_matches_reference(cs: list[Card]) -> None:
    assert meld_kind(mask_of(cs)) is ref_kind(cs)


def test_the_meld_table_holds_exactly_the_sets_meld_kind_names() -> None:
    # Every meld lies within one suit or one rank, so these are all the candidates.
    candidates = {pattern << (13 * suit) for suit in range(4) for pattern in range(1 << 13)}
    for rank_cards in RANK_MASKS:
        bits = [b for b in (1 << i for i in range(52)) if b & rank_cards]
        candidates |= {sum(c) for n in range(5) for c in combinations(bits, n)}
    named = {mask for mask in candidates if meld_kind(mask) is not None}
    assert set(MELDS) == named
    for mask, (kind, takes, points) in MELDS.items():
        assert (kind, takes, points) == (meld_kind(mask), accepts(kind, mask), plain_points(mask))


@settings(max_examples=300, deadline=None)
@given(hands)
def test_could_accept_bounds_every_solo_acceptor(hand: list[Card]) -> None:
    bound = could_accept(mask_of(hand))
    for c in hand:
        solo = accepts(PieceKind.SOLO, c.bit)
        assert solo & ~bound == 0
        for other in CARDS:
            naturally = other != c and (
                other.rank == c.rank or (other.suit == c.suit and abs(other.rank - c.rank) == 1)
            )
            assert bool(solo & other.bit) == naturally


# ---- Rummy's melds (jacks ordinary, no marriages) and family's two-card run ----


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("QS JS 10S", PieceKind.RUN),
        ("KH QH JH", PieceKind.RUN),
        ("JS JH JD", PieceKind.GROUP),
        ("3C AC 2C", PieceKind.RUN),
        ("KS QS", None),
        ("5C 5D", None),
        ("AS KS QS", None),
        ("4C 3C 2D", None),
    ],
)
def test_rummy_meld_shapes(cards: str, kind: PieceKind | None) -> None:
    assert rummy_meld_kind(m(cards)) is kind


def test_a_two_card_run_is_two_neighbours_of_one_suit_without_a_jack() -> None:
    assert is_two_run(m("4C 3C")) and is_two_run(m("2H AH")) and is_two_run(m("KD QD"))
    for cards in (
        "4C 2C",
        "4C 3D",
        "QS JS",
        "JS 10S",
        "10S QS",
        "AS KS",
        "KS AH",
        "5C",
        "3C 4C 5C",
    ):
        assert not is_two_run(m(cards)), cards


def ref_rummy_kind(cs: list[Card]) -> PieceKind | None:
    if len(cs) < 3:
        return None
    if len({c.rank for c in cs}) == 1:
        return PieceKind.GROUP
    ranks = sorted(c.rank for c in cs)
    if len({c.suit for c in cs}) == 1 and all(b - a == 1 for a, b in pairwise(ranks)):
        return PieceKind.RUN
    return None


@settings(max_examples=300, deadline=None)
@given(hands)
def test_rummy_melds_match_reference(hand: list[Card]) -> None:
    mask = mask_of(hand)
    found = rummy_melds_in(mask)
    assert len(found) == len(set(found))
    reference = {
        mask_of(combo)
        for n in range(3, len(hand) + 1)
        for combo in combinations(hand, n)
        if ref_rummy_kind(list(combo)) is not None
    }
    assert set(found) == reference
    union = 0
    for meld in found:
        union |= meld
        assert rummy_meld_kind(meld) is ref_rummy_kind([c for c in CARDS if c.bit & meld])
    assert rummy_meldable(mask) == union


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CARDS), max_size=52, unique=True))
def test_per_card_lists_a_sets_values_lowest_first(cs: list[Card]) -> None:
    names = per_card(str(c) for c in CARDS)
    mask = mask_of(cs)
    expected = [str(c) for c in sorted(cs, key=lambda c: c.index)]
    assert names.of(mask) == expected
    assert names.of(mask) == expected  # and again, from the filled tables
    assert indices(mask) == sorted(c.index for c in cs)


def test_per_card_wants_one_value_per_card() -> None:
    with pytest.raises(ValueError, match="52, not 51"):
        per_card(range(51))
