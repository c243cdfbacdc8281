"""A quick policy on the full state, for the search bot's rollouts.

It plays like ``normal`` in spirit (take discards that score, put down the
most points, discard the card least worth keeping, go out face down) but
works straight on a :class:`HandState` with int moves, so thousands of
simulated hands fit in a fraction of a second.  In a rollout it stands in
for both players; it reads only the mover's own hand and the public table.
"""

from __future__ import annotations

from umtali.bots.open_play import QUICK_DEPTH, quick_open_move
from umtali.bots.policy import best_turn, keep_value, meld_points
from umtali.engine.cards import FULL_DECK
from umtali.engine.melds import accepts, is_pair, meld_kind
from umtali.engine.moves import DISCARD_DOWN, DRAW, MELD, PLAY, TAKE, TAKE_TWO, Move
from umtali.engine.optional import OptionalState
from umtali.engine.state import DRAW_PHASE, OVER, HandState


def table_cards(state: HandState) -> int:
    cards = 0
    for side in state.sides:
        for piece in side:
            cards |= piece[1]
    return cards


def quick_move(state: HandState, moves: list[Move] | None = None) -> Move:
    """The rollout policy's choice among ``moves`` (the legal moves by default)."""
    if moves is None:
        if isinstance(state, OptionalState) and state.phase == DRAW_PHASE:
            moves = state.draw_moves(QUICK_DEPTH)  # the policy takes no deeper
        else:
            moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if isinstance(state, OptionalState):
        return quick_open_move(state, moves)
    hand = state.hands[state.mover]
    if state.phase == DRAW_PHASE:
        kinds = {m[0] for m in moves}
        if TAKE_TWO in kinds:
            return (TAKE_TWO, 0)
        if TAKE in kinds:
            top = 1 << state.pile[-1]
            if best_turn(hand | top, state.accept)[0] > best_turn(hand, state.accept)[0]:
                return (TAKE, 0)
        return (DRAW, 0) if DRAW in kinds else moves[0]
    first = moves[0][0]
    if first in (MELD, PLAY):
        for m in moves:
            if m[0] == PLAY:
                return m  # single plays never spoil anything: take them first
        best = moves[0]
        best_value = (-1, 0)
        for m in moves:
            mask = m[1]
            kind = meld_kind(mask)
            assert kind is not None
            rest = best_turn(hand & ~mask, state.accept | accepts(kind, mask))
            value = (meld_points(mask) + rest[0], rest[1])
            if value > best_value:
                best, best_value = m, value
        return best
    # The discard.
    if hand & (hand - 1) == 0:
        return (DISCARD_DOWN, hand)
    for m in moves:
        if m[0] == DISCARD_DOWN and is_pair(hand & ~m[1]):
            return m  # face down to a pair: it goes out next, and the last turn draws blind
    unseen = FULL_DECK & ~hand & ~table_cards(state)
    return min(moves, key=lambda m: (keep_value(m[1], hand, unseen, 0), m[1]))


class OwnTurns:
    """The rest of the searcher's own turn after each candidate, worked out once.

    After a candidate that shows no hidden card (anything but a draw from the
    stock) the rest of the mover's turn depends only on their hand and the
    public table, so the quick policy makes the same moves in every sampled
    deal: they are found in the first deal and replayed in the others.  The
    playouts are exactly those of playing every move afresh, only quicker
    (practical's big takes from the pile make that turn the costly part).
    """

    def __init__(self, me: int, kinds: list[int]) -> None:
        self._me = me
        self._replay = [kind != DRAW for kind in kinds]
        self._turns: list[list[Move] | None] = [None] * len(kinds)

    def finish(self, i: int, state: HandState) -> int:
        """Play out the searcher's turn after candidate ``i`` (just applied to ``state``;
        nothing when it ended the turn); returns the moves made."""
        if not self._replay[i]:
            return 0
        known = self._turns[i]
        if known is None:
            known = []
            while state.phase != OVER and state.mover == self._me:
                move = quick_move(state)
                state.apply_move(move)
                known.append(move)
            self._turns[i] = known
        else:
            for move in known:
                state.apply_move(move)
        return len(known)


def rollout(state: HandState, player: int) -> int:
    """Play ``state`` out with the quick policy; ``player``'s final margin in points."""
    while state.phase != OVER:
        state.apply_move(quick_move(state))
    return state.score(player) - state.score(1 - player)
