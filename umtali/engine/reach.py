"""Can these cards still be played this turn?  A small exact search.

Taking the top two discards is allowed only if both can be played during the
turn, and afterwards every choice must keep that possible.  Deciding it
means looking ahead through the player's choices, but only melds are real
choices: an addition or a jack never spoils anything (it is in no meld the
hand could form, and it only widens what the table accepts), so the search
plays all of those at once and branches on melds alone.
"""

from __future__ import annotations

from umtali.engine.cards import JACKS, indices
from umtali.engine.melds import MELDS, could_accept, is_pair, meldable, rule_melds


def free_cards(hand: int, accept: int) -> int:
    """Cards playable alone right now: jacks, and additions The Rule allows."""
    return hand & (JACKS | (accept & ~meldable(hand)))


def play_free(hand: int, accept: int) -> tuple[int, int]:
    """Play every free card until none is left; returns the new hand and acceptors
    (which may then also hold the cards played, no longer in the hand)."""
    free = free_cards(hand, accept)
    while free:
        hand &= ~free
        # What the cards take once down as solo cards.  could_accept adds the
        # cards themselves too, which no longer matters: they have left the hand.
        accept |= could_accept(free)
        free = free_cards(hand, accept)
    return hand, accept


def meld_accepts(mask: int) -> int:
    """What a meld laid from the hand takes once it is on the table."""
    return MELDS[mask][1]


def can_play_all(
    hand: int,
    accept: int,
    required: int,
    keep: int = 0,
    memo: dict[tuple[int, int], bool] | None = None,
) -> bool:
    """Whether some legal sequence of plays this turn lays every card in ``required``.

    ``accept`` is what the table takes now.  Going out with a pair counts
    (the pair is then the whole hand), including after discarding a third
    card that is not required and not ``keep``.
    """
    hand, accept = play_free(hand, accept)
    if not hand & required:
        return True
    if memo is None:
        memo = {}
    key = (hand, accept)
    known = memo.get(key)
    if known is not None:
        return known
    melds = rule_melds(hand)
    result = False
    if not melds:
        n = hand.bit_count()
        if n == 2:
            result = is_pair(hand)
        elif n == 3:
            result = any(is_pair(hand & ~(1 << i)) for i in indices(hand & ~required & ~keep))
    else:
        for m in melds:
            if can_play_all(hand & ~m, accept | meld_accepts(m), required, keep, memo):
                result = True
                break
    memo[key] = result
    return result


__all__ = ["can_play_all", "free_cards", "meld_accepts", "play_free"]
