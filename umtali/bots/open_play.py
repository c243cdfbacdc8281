"""Bot play where melding is optional (family, practical, rummy).

Works on an :class:`OptionalState` (a bot builds one from its view; its own
turn needs no hidden card).  The habits are the ``normal`` bot's: put down
what is worth most this turn, take from the discard pile only what scores
now, keep the cards that may yet meld.  "Worth" follows the scoring: in
Umtali a laid card scores its points (a marriage 20), in Rummy a card out of
the hand is that much less left to count against the player.
"""

from __future__ import annotations

from collections.abc import Sequence

from umtali.bots.policy import keep_value
from umtali.engine.cards import FULL_DECK, indices, plain_points, rummy_points
from umtali.engine.extend import ACCEPT, Table, several
from umtali.engine.melds import PieceKind
from umtali.engine.moves import (
    DISCARD,
    DISCARD_DOWN,
    DRAW,
    END,
    MELD,
    PLAY,
    SINGLE_PLAYS,
    TAKE,
    TAKE_FROM,
    TAKE_NEXT,
    Move,
)
from umtali.engine.optional import OptionalState
from umtali.engine.rules import RuleSet
from umtali.engine.state import DRAW_PHASE, HandState

Memo = dict[tuple[int, ...], tuple[int, int]]
#: Above this many cards in hand (practical's big takes) the turn is planned
#: greedily: the exact search grows with the subsets of the hand.
EXACT_LIMIT = 12
#: The rollout policy looks no deeper than this into the discard pile.
QUICK_DEPTH = 3
#: Turn plans remembered per rule set, at most: past it the memory starts afresh.
MEMO_LIMIT = 200_000

_memos: dict[tuple[int, int], tuple[RuleSet, Memo]] = {}


def turn_memo(state: OptionalState, left: int) -> Memo:
    """The plans already worked out under ``state``'s rules with ``left`` cards allowed
    after a final meld.  A plan depends on nothing else (the hand and the table are its
    key), so every search shares them: a playout's turns, and the deals of one search,
    meet the same hands and tables again and again."""
    rules = state.rules
    key = (id(rules), left)  # the entry holds the rule set: its id is not reused
    found = _memos.get(key)
    if found is None or len(found[1]) > MEMO_LIMIT:
        if len(_memos) > 8:
            _memos.clear()
        found = _memos[key] = (rules, {})
    return found[1]


def value_of(state: OptionalState, move: Move) -> int:
    """What laying ``move`` is worth under the state's scoring."""
    kind, mask = move
    if state.rules.hand_scoring:
        return rummy_points(mask)
    if kind == MELD and state.kind_of(mask) is PieceKind.MARRIAGE:
        return 2 * state.rules.marriage_card_points
    return plain_points(mask)


def best_plays(state: OptionalState, hand: int, table: Table) -> int:
    """The most a sequence of plays from ``hand`` on ``table`` is worth this turn."""
    left = state.cards_left_after_final()
    return _best(state, hand, table, left, turn_memo(state, left))[0]


def _best(state: OptionalState, hand: int, table: Table, left: int, memo: Memo) -> tuple[int, int]:
    """The most the plays from ``hand`` on ``table`` are worth, and minus the cards
    they leave; remembered in ``memo`` by hand and table."""
    start = (hand, *table)
    known = memo.get(start)
    if known is not None:
        return known
    # A card the table takes that is in no meld of the hand can only gain by
    # going down now: it spoils nothing and the table takes more after it.
    gained = 0
    while True:
        free = state.free_cards(hand, table[ACCEPT]) & ~state.meldable_cards(hand)
        free &= ~several(table)  # where two melds take a card, the search chooses
        if not free or hand.bit_count() <= 3:
            break
        for i in indices(free):
            move = (PLAY, 1 << i)
            gained += value_of(state, move)
            table = state.after(table, move)
            hand &= ~move[1]
    key = (hand, *table)
    known = memo.get(key)
    if known is None:
        if hand.bit_count() > EXACT_LIMIT:
            known = _greedy(state, hand, table, left)
        else:
            known = _search(state, hand, table, left, memo)
        memo[key] = known
    if gained:
        known = memo[start] = (gained + known[0], known[1])
    return known


def _greedy(state: OptionalState, hand: int, table: Table, left: int) -> tuple[int, int]:
    """Lay the biggest meld (or any addition) again and again: a quick lower bound."""
    total = 0
    while True:
        moves = state.plays_from(hand, table, left)
        if not moves:
            return (total, -hand.bit_count())
        move = max(moves, key=lambda m: (m[1].bit_count(), value_of(state, m), m[1]))
        total += value_of(state, move)
        table = state.after(table, move)
        hand &= ~move[1]


def _search(
    state: OptionalState, hand: int, table: Table, left: int, memo: Memo
) -> tuple[int, int]:
    best = (0, -hand.bit_count())
    for move in state.plays_from(hand, table, left):
        sub = _best(state, hand & ~move[1], state.after(table, move), left, memo)
        option = (sub[0] + value_of(state, move), sub[1])
        if option > best:
            best = option
    return best


def choose_play(state: OptionalState, moves: list[Move]) -> tuple[Move, int] | None:
    """The meld or addition that leads to the most this turn, and that total."""
    hand = state.hands[state.mover]
    table = state.table()
    left = state.cards_left_after_final()
    memo = turn_memo(state, left)
    best: tuple[tuple[int, int], Move] | None = None
    for move in moves:
        if move[0] != MELD and move[0] not in SINGLE_PLAYS:
            continue
        sub = _best(state, hand & ~move[1], state.after(table, move), left, memo)
        score = (sub[0] + value_of(state, move), sub[1])
        if best is None or score > best[0]:
            best = (score, move)
    return None if best is None else (best[1], best[0][0])


def draw_gain(state: OptionalState, cards: int) -> int:
    """How much more this turn's plays are worth with ``cards`` from the pile in hand."""
    hand = state.hands[state.mover]
    table = state.table()
    left = state.cards_left_after_final()
    memo = turn_memo(state, left)
    with_cards = _best(state, hand | cards, table, left, memo)[0]
    return with_cards - _best(state, hand, table, left, memo)[0]


def taken_with(pile: Sequence[int], card: int) -> int:
    """The cards a take from deep in the pile brings: ``card`` (a bit) and all above it."""
    cards = 0
    for i in pile[pile.index(card.bit_length() - 1) :]:
        cards |= 1 << i
    return cards


def choose_draw(state: OptionalState, moves: list[Move], depth: int = 52) -> Move:
    """Take from the discard pile what scores this turn (no deeper than ``depth``)."""
    pile = state.pile
    best: tuple[float, Move] | None = None
    for move in moves:
        kind, mask = move
        if kind == TAKE:
            worth = draw_gain(state, 1 << pile[-1]) - 0.5
        elif kind == TAKE_FROM:
            cards = taken_with(pile, mask)
            if cards.bit_count() > depth:
                continue
            # Every extra card kept is a card that may be forfeited or counted.
            worth = draw_gain(state, cards) - 1.5 * (cards.bit_count() - 1) - 0.5
        else:
            continue
        if worth > 0 and (best is None or worth > best[0]):
            best = (worth, move)
    if best is not None:
        return best[1]
    return (DRAW, 0) if (DRAW, 0) in moves else moves[0]


def choose_discard(state: HandState, moves: list[Move]) -> Move:
    """The card least worth keeping (the last card goes face down where allowed)."""
    hand = state.hands[state.mover]
    if hand & (hand - 1) == 0:
        down = [m for m in moves if m[0] == DISCARD_DOWN]
        return down[0] if down else moves[0]
    discards = [m for m in moves if m[0] == DISCARD]
    table = 0
    for side in state.sides:
        for piece in side:
            table |= piece[1]
    unseen = FULL_DECK & ~hand & ~table
    rummy = state.rules.hand_scoring
    return min(discards, key=lambda m: (keep_value(m[1], hand, unseen, 0, rummy), m[1]))


def quick_open_move(state: OptionalState, moves: list[Move]) -> Move:
    """The rollout policy for optional melding (and the fallback of the other bots)."""
    if len(moves) == 1:
        return moves[0]
    if state.phase == DRAW_PHASE:
        return choose_draw(state, moves, QUICK_DEPTH)
    for move in moves:
        if move[0] == TAKE_NEXT:
            return move  # it is offered only when it can be played: points now
    play = choose_play(state, moves)
    if play is not None:
        return play[0]
    for move in moves:
        if move[0] == END:
            return move
    return choose_discard(state, moves)


__all__ = ["best_plays", "choose_discard", "choose_draw", "choose_play", "quick_open_move"]
