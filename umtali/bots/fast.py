"""Quick policies on the full state, for the search bots' rollouts.

:func:`quick_move` plays like ``normal`` in spirit (take discards that score,
put down the most points, discard the card least worth keeping, go out face
down) but works straight on a :class:`HandState` with int moves, so
thousands of simulated hands fit in a fraction of a second.
:func:`wary_move`, the expert's, differs only in the discard where play is
compulsory: it also weighs what the card would give the opponent, and holds
on to high cards, which score when they are laid.  In a rollout a policy
stands in for both players; it reads only the mover's own hand, the public
table and the cards seen on the pile.
"""

from __future__ import annotations

from collections.abc import Callable

from umtali.bots.open_play import QUICK_DEPTH, quick_open_move
from umtali.bots.policy import best_turn, danger, keep_value, meld_points
from umtali.engine.cards import FULL_DECK, plain_points
from umtali.engine.melds import accepts, is_pair, meld_kind
from umtali.engine.moves import DISCARD_DOWN, DRAW, MELD, PLAY, TAKE, TAKE_TWO, Move
from umtali.engine.optional import OptionalState
from umtali.engine.state import DRAW_PHASE, OVER, HandState

#: A rollout policy: the move it makes in a state (among ``moves``, by default the legal ones).
Policy = Callable[[HandState], Move]

#: The wary discard: how much each point of :func:`danger` counts against
#: giving a card away, and how much each of a card's points counts for keeping
#: it (on top of :func:`keep_value`, which charges a card's points as a
#: possible forfeit).  Tuned by playing the policy itself as a bot: with these it
#: won 1.8 and 2.3 points a hand more than :func:`quick_move` over two sets of
#: 3,000 first hands dealt twice, the seats swapped.
WARY_DANGER = 3.0
SCORES_LATER = 0.8
_LATER = tuple(SCORES_LATER * plain_points(1 << i) for i in range(52))


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
    out = _going_out(hand, moves)
    if out is not None:
        return out
    unseen = FULL_DECK & ~hand & ~table_cards(state)
    return min(moves, key=lambda m: (keep_value(m[1], hand, unseen, 0), m[1]))


def _going_out(hand: int, moves: list[Move]) -> Move | None:
    """The discard that takes the mover out (face down), if one does."""
    if hand & (hand - 1) == 0:
        return (DISCARD_DOWN, hand)
    for m in moves:
        if m[0] == DISCARD_DOWN and is_pair(hand & ~m[1]):
            return m  # face down to a pair: it goes out next, and the last turn draws blind
    return None


def wary_move(state: HandState, moves: list[Move] | None = None) -> Move:
    """The expert's rollout policy: :func:`quick_move`, but where play is compulsory
    its discard weighs what the card gives the opponent (a card that goes with the
    one it covers, or with the unseen cards they may hold) and what it scores if
    kept and laid later.  The cards on the pile have been seen, so they count
    as neither unseen nor live."""
    if isinstance(state, OptionalState) or state.phase == DRAW_PHASE:
        return quick_move(state, moves)
    if moves is None:
        moves = state.legal_moves()
    if len(moves) == 1 or moves[0][0] in (MELD, PLAY):
        return quick_move(state, moves)
    hand = state.hands[state.mover]
    out = _going_out(hand, moves)
    if out is not None:
        return out
    seen = hand | table_cards(state)
    for card in state.pile:
        seen |= 1 << card
    unseen = FULL_DECK & ~seen
    share = state.hands[1 - state.mover].bit_count() / max(1, unseen.bit_count())
    under = 1 << state.pile[-1] if state.pile and not state.pile_down else 0

    def cost(m: Move) -> tuple[float, int]:
        card = m[1]
        keep = keep_value(card, hand, unseen, 0) + _LATER[card.bit_length() - 1]
        return (keep + WARY_DANGER * danger(card, 0, unseen, under, share), card)

    return min(moves, key=cost)


class OwnTurns:
    """The rest of the searcher's own turn after each candidate, worked out once.

    After a candidate that shows no hidden card (anything but a draw from the
    stock) the rest of the mover's turn depends only on their hand and the
    public table, so the policy makes the same moves in every sampled
    deal: they are found in the first deal and replayed in the others.  The
    playouts are exactly those of playing every move afresh with ``policy``
    (:func:`quick_move` by default), only quicker (practical's big takes from
    the pile make that turn the costly part).
    """

    def __init__(self, me: int, kinds: list[int], policy: Policy = quick_move) -> None:
        self._me = me
        self._policy = policy
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
                move = self._policy(state)
                state.apply_move(move)
                known.append(move)
            self._turns[i] = known
        else:
            for move in known:
                state.apply_move(move)
        return len(known)


def rollout(state: HandState, player: int, policy: Policy = quick_move) -> int:
    """Play ``state`` out with ``policy``; ``player``'s final margin in points."""
    while state.phase != OVER:
        state.apply_move(policy(state))
    return state.score(player) - state.score(1 - player)
