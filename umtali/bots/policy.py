"""Evaluation pieces shared by the bots: turn search, keep values, danger.

All on card-set ints.  ``best_turn`` looks through the player's own turn
(no hidden cards are involved once the draw is made) for the plays that put
the most points down; the other functions value cards left in hand.
"""

from __future__ import annotations

from umtali.bots.seat import Decision
from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import (
    FIVES,
    JACK,
    JACKS,
    KING,
    QUEEN,
    RANK_MASKS,
    plain_points,
    rummy_points,
)
from umtali.engine.melds import (
    SOLO_ACCEPTS,
    PieceKind,
    accepts,
    is_pair,
    meld_kind,
    meldable,
    rule_melds,
)

MARRIAGE_POINTS = 20
#: What each point a card would cost if still held at the end takes off its keep value.
POINT_COST = 0.4


def forced_choice(actions: list[Action]) -> Decision | None:
    """A decision that needs no search, if there is one.

    A single play never spoils another and the order of plays changes
    nothing, so any single play may go first; melds that share no card all
    have to go down anyway.  Returns None when there is a real choice.
    """
    if len(actions) == 1:
        return Decision(actions[0], "the only legal action")
    plays = [a for a in actions if a.kind is ActionKind.PLAY]
    if plays:
        return Decision(plays[0], "a card that can only help to play")
    melds = [a for a in actions if a.kind is ActionKind.MELD]
    seen = 0
    for m in melds:
        if seen & m.mask:
            return None
        seen |= m.mask
    if melds:
        return Decision(melds[0], "a meld that has to go down")
    return None


def compulsory_candidates(hand_size: int, actions: list[Action]) -> Decision | list[Action]:
    """Where play is compulsory: a decision that needs no search, or the moves to search.

    A discard that may go face down takes the player out: face down is never
    worse (the last turn must draw blind), so only that twin of it is searched.
    """
    forced = forced_choice(actions)
    if forced is not None:
        return forced
    if hand_size == 1 and all(a.kind is ActionKind.DISCARD for a in actions):
        return Decision(going_out_discard(actions), "going out, face down")
    down = {a.cards for a in actions if a.down}
    return [a for a in actions if a.down or a.cards not in down]


def going_out_discard(discards: list[Action]) -> Action:
    """Of the discards that take a player out, the face-down one where there is one.

    A final discard face down forces the opponent's last turn to draw blind and
    takes the card out of play: it can only deny the opponent, never the player.
    """
    down = [a for a in discards if a.down]
    return down[0] if down else discards[0]


def meld_points(mask: int) -> int:
    kind = meld_kind(mask)
    return MARRIAGE_POINTS if kind is PieceKind.MARRIAGE else plain_points(mask)


def best_turn(
    hand: int, accept: int, memo: dict[tuple[int, int], tuple[int, int]] | None = None
) -> tuple[int, int]:
    """(points, cards left) of the best way to play out this hand this turn.

    Free cards (jacks, additions The Rule allows) are always played; melds
    are the choices.  A pair that is the whole hand is laid (going out).
    Ties in points prefer fewer cards left.
    """
    points = 0
    free = hand & (JACKS | (accept & ~meldable(hand)))
    while free:
        hand &= ~free
        points += plain_points(free)
        while free:
            low = free & -free
            free ^= low
            accept |= SOLO_ACCEPTS[low.bit_length() - 1]
        free = hand & (JACKS | (accept & ~meldable(hand)))
    if memo is None:
        memo = {}
    key = (hand, accept)
    cached = memo.get(key)
    if cached is None:
        best = (0, -hand.bit_count())
        if is_pair(hand):
            best = (plain_points(hand), 0)
        for m in rule_melds(hand):
            kind = meld_kind(m)
            assert kind is not None
            sub = best_turn(hand & ~m, accept | accepts(kind, m), memo)
            option = (sub[0] + meld_points(m), sub[1])
            if option > best:
                best = option
        memo[key] = best
        cached = best
    return (points + cached[0], cached[1])


def _near_cards(i: int, rummy: bool) -> tuple[tuple[int, float, int], ...]:
    """Card ``i``'s run neighbours as (card, weight, gap): one apart (gap 0) weigh
    3, two apart 1.5 while the card between them (gap) is unseen."""
    near = []
    for d, weight in ((1, 3.0), (2, 1.5)):
        for j in (i - d, i + d):
            if j // 13 == i // 13 and 0 <= j < 52 and (rummy or j % 13 != JACK):
                gap = (1 << ((i + j) // 2)) if d == 2 else 0
                near.append((1 << j, weight, gap))
    return tuple(near)


#: Per card index: Umtali's run neighbours, then Rummy's (jacks in runs).
_NEAR = (
    tuple(_near_cards(i, False) for i in range(52)),
    tuple(_near_cards(i, True) for i in range(52)),
)
#: Per card index: the marriage partner (the queen of a king, the king of a queen), or 0.
_PARTNER = tuple(
    (1 << (i - 1 if i % 13 == KING else i + 1)) if i % 13 in (KING, QUEEN) else 0 for i in range(52)
)
#: Per card index: what it costs to hold at the end, Umtali's way and Rummy's.
_HOLD_COST = (
    tuple(POINT_COST * plain_points(1 << i) for i in range(52)),
    tuple(POINT_COST * rummy_points(1 << i) for i in range(52)),
)


def keep_value(card: int, hand: int, unseen: int, accept_later: int, rummy: bool = False) -> float:
    """How much a card in hand is worth keeping (it is not playable now).

    Pairs and near-runs can still become melds while the missing cards are
    unseen; a king or queen is worth holding while its partner is unseen.
    With ``rummy`` the cards are Rummy's: a jack sits in runs between ten and
    queen, there are no marriages, and a card left in hand costs its Rummy
    value (a king ten, a two two) should the opponent go out.
    """
    i = card.bit_length() - 1
    others = hand & ~card
    value = 0.0
    rank = RANK_MASKS[i % 13]
    if others & rank:
        live = (unseen & rank).bit_count()
        value += 2.0 + 1.5 * live  # a pair: a group if a third comes, or a way out
    for near, weight, gap in _NEAR[rummy][i]:
        if others & near and (not gap or unseen & gap):
            value += weight
    if not rummy and unseen & _PARTNER[i]:
        value += 3.0
    if card & accept_later:
        value += 1.0  # a card next to one that may yet be played off the table
    # A card left in hand costs its points: forfeited in Umtali, counted in Rummy.
    return value - _HOLD_COST[rummy][i]


def danger(card: int, opp_known: int, unseen: int, under: int, opp_share: float) -> float:
    """How much discarding ``card`` could help the opponent.

    ``under`` is the card it would cover (the present top, or 0): two cards
    that go together invite a two-card take.  ``opp_share`` is the fraction
    of unseen cards likely to be in the opponent's hand.
    """
    i = card.bit_length() - 1
    near = SOLO_ACCEPTS[i]
    risk = 0.0
    if opp_known:  # (a lone card melds with nothing, so none known is no risk)
        if meldable(opp_known | card) & card:
            risk += 12.0  # it completes a meld with cards they openly took
        elif opp_known & near:
            risk += 5.0
    if under & near:
        risk += 4.0  # the opponent could take both
    rank = RANK_MASKS[i % 13]
    same = (unseen & rank).bit_count()
    neighbours = (unseen & near & ~rank).bit_count()
    risk += 6.0 * opp_share * opp_share * same * max(same - 1, 0) / 2
    risk += 3.0 * opp_share * neighbours
    if card & FIVES:
        risk += 0.5  # a high card they can use is worth more to them
    return risk
