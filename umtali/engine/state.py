"""One hand of classic Umtali as a phase machine over card-set ints.

This is the engine's hot path.  A *move* is a plain ``(kind, mask)`` tuple
of ints; :meth:`HandState.legal_moves` lists them and
:meth:`HandState.apply_move` plays one without checking it (callers that
take moves from ``legal_moves`` need no check; :class:`umtali.Hand` checks
and explains).  ``clone()`` copies a few ints and short lists.

Players are 0 and 1 here; the public facade numbers them 1 and 2.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import TypeVar

from umtali.engine.actions import Action
from umtali.engine.cards import (
    BITS,
    CARD_POINTS,
    FULL_DECK,
    JACK,
    JACKS,
    RANK_MASKS,
    SuitLists,
    indices,
    per_card,
    plain_points,
)
from umtali.engine.deal import told_stock
from umtali.engine.events import LogEntry
from umtali.engine.melds import (
    MELDS,
    SOLO_ACCEPTS,
    PieceKind,
    could_reach,
    is_pair,
    meldable,
    melds_in,
    rule_melds,
)
from umtali.engine.moves import (
    DISCARD,
    DISCARD_DOWN,
    DRAW,
    MELD,
    PLAY,
    REBUILD,
    SKIP_DRAW,
    TAKE,
    TAKE_TWO,
    Move,
    to_action,
)
from umtali.engine.rand import shuffle
from umtali.engine.reach import can_play_all, meld_accepts
from umtali.engine.rules import RuleSet

# Phases.
DRAW_PHASE, PLAY_PHASE, OVER = range(3)


class HandEnd(Enum):
    """How a hand ended: a player went out, or the hand died (no card left to draw, or
    past the turn limit that stops two players who never meld)."""

    OUT = "out"
    NO_CARDS = "dead: no card left to draw"
    TURN_LIMIT = "dead: turn limit"

    @property
    def dead(self) -> bool:
        """Nobody went out."""
        return self is not HandEnd.OUT


# Moves are made once and shared, so listing the legal moves allocates little.
DRAW_MOVE: Move = (DRAW, 0)
TAKE_MOVE: Move = (TAKE, 0)
TAKE_TWO_MOVE: Move = (TAKE_TWO, 0)
PLAY_MOVES: tuple[Move, ...] = tuple((PLAY, 1 << i) for i in range(52))
DISCARD_MOVES: tuple[Move, ...] = tuple((DISCARD, 1 << i) for i in range(52))
DISCARD_DOWN_MOVES: tuple[Move, ...] = tuple((DISCARD_DOWN, 1 << i) for i in range(52))
PLAYS: SuitLists[Move] = per_card(PLAY_MOVES)
# Piece kinds as plain names: an enum's attribute lookup is slow on the hot path.
_RUN = PieceKind.RUN
_SOLO = PieceKind.SOLO
_MARRIAGE = PieceKind.MARRIAGE
DISCARDS: SuitLists[Move] = per_card(DISCARD_MOVES)
# A piece on the table: (kind, cards, target card index or -1, what it accepts).
Piece = tuple[int, int, int, int]
# A log entry (see umtali.engine.events): (player, kind, cards, detail): detail is
# the card drawn for a stock draw (private to the drawer), the target index for a
# play, the deepest card of a practical take, or a rebuilt stock's size.


# A machine's own type, so that a copy of an optional-melding state is typed as one.
_S = TypeVar("_S", bound="HandState")


class HandState:
    """The full state of one hand, hidden cards included.

    Mutable, but only through :meth:`apply_move`; :meth:`clone` is cheap.
    """

    __slots__ = (
        "accept",
        "dealer",
        "discarded",
        "end",
        "first",
        "forfeit",
        "hands",
        "keep",
        "last_turn",
        "log",
        "mel",
        "mel_of",
        "mover",
        "out",
        "phase",
        "pile",
        "pile_down",
        "rebuilds",
        "req",
        "rules",
        "seed",
        "sides",
        "stock",
        "table_points",
        "takes_read",
        "told",
        "turns",
    )

    rules: RuleSet
    hands: list[int]
    stock: list[int]
    pile: list[int]
    sides: list[list[Piece]]
    table_points: list[int]
    log: list[LogEntry]
    # meldable(mel_of), kept because a solo play leaves it unchanged.
    mel: int
    mel_of: int
    rebuilds: list[tuple[int, ...]]
    # The cards a record says were drawn from rebuilt stocks, in order (a game played
    # with real cards); None: a rebuilt stock is shuffled from the seed.
    told: tuple[int, ...] | None
    end: HandEnd | None  # None while the hand goes on
    # A views' cache (see view.py's _taken): the log it read, how far, and the cards
    # each seat took from the pile in that part; None until a view asks.
    takes_read: tuple[list[LogEntry], int, int, int] | None

    def __init__(
        self,
        rules: RuleSet,
        hands: tuple[int, int],
        stock_top_first: list[int],
        dealer: int,
        first: int,
        seed: int,
    ) -> None:
        self.rules = rules
        self.hands = [hands[0], hands[1]]
        self.stock = stock_top_first[::-1]  # top of the stock is the list's end
        self.pile = []
        self.pile_down = False
        self.sides = [[], []]
        self.accept = 0
        self.table_points = [0, 0]
        self.dealer = dealer
        self.first = first
        self.seed = seed
        self.mover = first
        # The player holding the extra card starts without drawing; with an
        # up-card the first player draws as on every turn.
        self.phase = DRAW_PHASE if rules.up_card else PLAY_PHASE
        self.req = 0
        self.keep = 0
        self.discarded = False
        self.out = -1
        self.last_turn = False
        self.turns = 0
        self.forfeit = 0
        self.end = None
        self.log = []
        self.rebuilds = []
        self.told = None
        self.takes_read = None
        self.mel_of = -1
        self.mel = 0
        self.start()

    def start(self) -> None:
        """Hook: a machine that keeps more state than this one sets it up here."""

    @classmethod
    def from_parts(
        cls: type[_S],
        rules: RuleSet,
        *,
        hands: tuple[int, int],
        stock_top_first: list[int],
        pile: list[int],
        pile_down: bool,
        sides: tuple[list[Piece], list[Piece]],
        mover: int,
        phase: int,
        out: int = -1,
        last_turn: bool = False,
        turns: int = 0,
        req: int = 0,
        keep: int = 0,
        seed: int = 0,
    ) -> _S:
        """A state assembled from its parts, for a search that fills in hidden cards.

        Scores and acceptors are derived from ``sides``; the log starts empty.
        """
        state = cls(rules, hands, stock_top_first, 0, mover, seed)
        state.pile = pile[:]
        state.pile_down = pile_down
        state.sides = [list(sides[0]), list(sides[1])]
        for seat in (0, 1):
            for kind, mask, _, acc in state.sides[seat]:
                state.accept |= acc
                if kind == PieceKind.MARRIAGE:
                    state.table_points[seat] += 2 * rules.marriage_card_points
                else:
                    state.table_points[seat] += plain_points(mask)
        state.mover = mover
        state.phase = phase
        state.out = out
        state.last_turn = last_turn
        state.turns = turns
        state.req = req
        state.keep = keep
        state.derive_table()
        return state

    def derive_table(self) -> None:
        """Hook for machines that keep more table state than ``accept`` (from ``from_parts``)."""

    def deal_up_card(self) -> None:
        """Turn the stock's top card up to start the discard pile (rules with an up-card)."""
        if self.rules.up_card and self.stock and not self.pile:
            self.pile.append(self.stock.pop())

    # ------------------------------------------------------------------ copy

    def clone(self: _S) -> _S:
        """An independent copy (lists copied, pieces and ints shared)."""
        c = object.__new__(type(self))
        c.rules = self.rules
        c.hands = self.hands[:]
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.pile_down = self.pile_down
        c.sides = [self.sides[0][:], self.sides[1][:]]
        c.accept = self.accept
        c.table_points = self.table_points[:]
        c.dealer = self.dealer
        c.first = self.first
        c.seed = self.seed
        c.mover = self.mover
        c.phase = self.phase
        c.req = self.req
        c.keep = self.keep
        c.discarded = self.discarded
        c.out = self.out
        c.last_turn = self.last_turn
        c.turns = self.turns
        c.forfeit = self.forfeit
        c.end = self.end
        c.log = self.log[:]
        c.rebuilds = self.rebuilds[:]
        c.told = self.told
        c.takes_read = None  # it names this state's log, not the copy's
        c.mel_of = self.mel_of
        c.mel = self.mel
        return c

    # ------------------------------------------------------------ questions

    def can_take_two(self) -> bool:
        """Both top discards could be played this turn by the player to move."""
        pile = self.pile
        if len(pile) < 2 or self.pile_down:
            return False
        return self._both_playable(pile[-1], pile[-2])

    def _both_playable(self, top: int, under: int) -> bool:
        """Whether cards ``top`` and ``under``, taken, could both be played this turn."""
        top_bit = BITS[top]
        under_bit = BITS[under]
        two = top_bit | under_bit
        hand = self.hands[self.mover] | two
        # Quick refusals, sound but not complete; the search below decides.
        # A card that is not a jack and that the table does not take is played
        # with or after a card of its rank or a suit neighbour (in a meld, off
        # it, or as a going-out pair), so it needs one in the hand.
        if not (hand & SOLO_ACCEPTS[top] or top % 13 == JACK or self.accept & top_bit):
            return False
        if not (hand & SOLO_ACCEPTS[under] or under % 13 == JACK or self.accept & under_bit):
            return False
        accept = self.accept
        alone = JACKS | accept
        # Cards that might be played one way or another: jacks, cards the table
        # takes, cards in a meld, and (repeatedly) what those could take once down.
        mel = meldable(hand)
        maybe = hand & (alone | mel)
        if not maybe:
            # Nothing can be played, so the two must be a pair that takes the
            # player out, after discarding the one other card if there is one.
            return hand.bit_count() <= 3 and is_pair(two)
        maybe = could_reach(hand, maybe, accept)
        # The rest can leave the hand only in the pair that takes the player out,
        # after at most one discard.  So if a taken card is among them, there may
        # be at most three of them, and the taken card needs a rank-mate to pair with.
        stuck = hand & ~maybe
        stuck_taken = stuck & two
        if stuck_taken:
            if stuck.bit_count() > 3:
                return False
            if stuck_taken == two:
                if not is_pair(two):
                    return False
            elif not hand & ~stuck_taken & RANK_MASKS[(stuck_taken.bit_length() - 1) % 13]:
                return False
        # Quick yeses.  A card free now (a jack, or one the table takes and no
        # meld could hold) stays free whatever else is laid, and any meld in
        # the hand can be laid first.  So the take is good if each taken card
        # is free or in a meld, and two taken cards in melds are in one meld or
        # in two that do not overlap.  (The Rule may forbid a meld that leaves
        # behind a card of its column; the cards it leaves meld with nothing
        # else, so the meld grown by them is laid instead, and it still misses
        # a meld it did not overlap.)
        need = two & ~(alone & ~mel)
        if not need & ~mel:
            if need & (need - 1) == 0:
                return True
            tops = []
            unders = []
            for m in melds_in(hand):
                if m & need == need:
                    return True
                if m >> top & 1:
                    tops.append(m)
                elif m >> under & 1:
                    unders.append(m)
            if any(not t & u for t in tops for u in unders):
                return True
        return can_play_all(hand, accept, two)

    def legal_moves(self) -> list[Move]:
        """Every legal move now; empty once the hand is over."""
        phase = self.phase
        if phase == PLAY_PHASE:
            hand = self.hands[self.mover]
            if self.discarded:
                return [(MELD, hand)]  # discarded down to a pair: lay it and go out
            if hand == self.mel_of:
                mel = self.mel
            else:
                mel = self.mel = meldable(hand)
                self.mel_of = hand
            # (With no meld, the complement of the meld mask would only copy the acceptors.)
            free = hand & (JACKS | (self.accept & ~mel) if mel else JACKS | self.accept)
            if mel or free:
                if not self.req:
                    if mel:
                        # The melds and the solo cards (a hand holding a meld is no pair).
                        listed: list[Move] = [(MELD, m) for m in rule_melds(hand)]
                        if free:
                            listed += PLAYS.of(free)
                        return listed
                    if hand.bit_count() > 2:
                        # Only solo cards to play (the commonest case with anything to play).
                        if free.bit_count() > 1:
                            return PLAYS.of(free)
                        return [PLAY_MOVES[free.bit_length() - 1]]
                return self._plays(hand, mel, free)
            held = hand.bit_count()
            if held == 2 and is_pair(hand):
                return self._plays(hand, mel, free)
            # Nothing can be played (the usual case at the end of a turn).
            if held > 1 and not (self.last_turn or self.req):
                keep = self.keep
                if held == 3:
                    return self._three_card_discards(hand, keep)
                return DISCARDS.of(hand & ~keep if keep else hand)
            return self._discard_moves(hand)
        if phase == DRAW_PHASE:
            pile = self.pile
            if len(pile) >= 2:
                if self.pile_down:
                    return [DRAW_MOVE]  # the stock, rebuilt from the pile if need be
                if self.rules.take_two and self._both_playable(pile[-1], pile[-2]):
                    return [DRAW_MOVE, TAKE_MOVE, TAKE_TWO_MOVE]
                return [DRAW_MOVE, TAKE_MOVE]
            moves: list[Move] = [DRAW_MOVE] if self.stock else []
            if pile and not self.pile_down:
                moves.append(TAKE_MOVE)
            return moves
        return []

    def action_of(self, move: Move) -> Action:
        """A move as an Action (the engine picks a play's target)."""
        return to_action(move)

    def playable_moves(self) -> list[Move]:
        """The melds and solo plays open now (ignoring the take-two promise)."""
        hand = self.hands[self.mover]
        mel = meldable(hand)
        return self._playable(hand, mel, hand & (JACKS | (self.accept & ~mel)))

    def _playable(self, hand: int, mel: int, free: int) -> list[Move]:
        moves: list[Move] = [(MELD, m) for m in rule_melds(hand)] if mel else []
        if free:
            moves += PLAYS.of(free)
        if hand.bit_count() == 2 and is_pair(hand):
            moves.append((MELD, hand))  # a pair that is the whole hand takes the player out
        return moves

    def _plays(self, hand: int, mel: int, free: int) -> list[Move]:
        """The legal moves when something can be played (``mel`` and ``free`` of ``hand``)."""
        moves = self._playable(hand, mel, free)
        req = self.req
        if req:
            accept = self.accept
            memo: dict[tuple[int, int], bool] = {}
            moves = [
                (k, m)
                for k, m in moves
                if k == PLAY
                or m == hand
                or can_play_all(hand & ~m, accept | meld_accepts(m), req, 0, memo)
            ]
            if not moves:
                return self._discard_moves(hand)
        return moves

    def _discard_moves(self, hand: int) -> list[Move]:
        rules = self.rules
        if hand & (hand - 1) == 0:
            # The last card: discarding it goes out, face up or face down as the rules allow.
            if rules.out_up and rules.out_down:
                return [(DISCARD, hand), (DISCARD_DOWN, hand)]
            return [(DISCARD_DOWN if rules.out_down else DISCARD, hand)]
        held = hand.bit_count()
        if not (self.last_turn or self.req):
            if held == 3:
                return self._three_card_discards(hand, self.keep)
            return DISCARDS.of(hand & ~self.keep)
        # Only a discard that leaves a pair to go out with.
        if held != 3:
            return []
        out = self._before_pair(hand, self.keep | self.req)
        ups = [DISCARD_MOVES[i] for i in out] if rules.out_up else []
        return ups + [DISCARD_DOWN_MOVES[i] for i in out] if rules.out_down else ups

    @staticmethod
    def _before_pair(hand: int, barred: int) -> list[int]:
        """The cards of a three-card hand (not in ``barred``) whose discard leaves a pair."""
        return [i for i in indices(hand & ~barred) if is_pair(hand ^ BITS[i])]

    def _three_card_discards(self, hand: int, barred: int) -> list[Move]:
        """The discards from three cards (none of ``barred``).  One that leaves a pair is
        the final discard (the pair is laid next to go out), so it goes face up or face
        down as the last card may: either way in classic (the rule book's lesson game,
        hand 3)."""
        rules = self.rules
        listed = DISCARDS.of(hand & ~barred)
        if rules.out_up and rules.out_down:
            return listed + [DISCARD_DOWN_MOVES[i] for i in self._before_pair(hand, barred)]
        finals = set(self._before_pair(hand, barred))
        if not rules.out_up:
            listed = [m for m in listed if m[1].bit_length() - 1 not in finals]
        if rules.out_down:
            listed += [DISCARD_DOWN_MOVES[i] for i in sorted(finals)]
        return listed

    def score(self, player: int) -> int:
        """Points on ``player``'s side, plus forfeits once the hand is over."""
        pts = self.table_points[player]
        if player == self.out and self.forfeit:
            pts += plain_points(self.forfeit)
        return pts

    def cards_accounted(self) -> bool:
        """Whether every one of the 52 cards is in exactly one place.

        The places are the two hands, the stock, the discard pile, both sides
        of the table and (once a hand is over) the forfeited cards.
        """
        seen = self.hands[0] | self.hands[1] | self.forfeit
        total = self.hands[0].bit_count() + self.hands[1].bit_count()
        total += self.forfeit.bit_count()
        for i in self.stock + self.pile:
            seen |= 1 << i
        total += len(self.stock) + len(self.pile)
        for side in self.sides:
            for piece in side:
                seen |= piece[1]
                total += piece[1].bit_count()
        return total == 52 and seen == FULL_DECK

    # --------------------------------------------------------------- moving

    def apply_move(self, move: Move, target: int | None = None) -> None:
        """Play ``move``, which must be legal (see :meth:`legal_moves`).

        For a solo play, ``target`` names the table card it goes off (the
        caller has checked that card takes it); by default one is found.
        """
        kind, mask = move
        p = self.mover
        if kind >= DISCARD:
            hand = self._discard(p, kind, mask)
            if not hand:
                self._went_out()
            elif hand.bit_count() == 2 and is_pair(hand):
                self.discarded = True
            else:
                self._next_turn()
        elif kind == PLAY:
            if target is None:
                target = self.find_target(mask)
            held = self.hands[p]
            hand = self.hands[p] = held ^ mask
            if held == self.mel_of and not mask & self.mel:
                # The card was in no meld, so the rest form the same melds.
                self.mel_of = hand
            index = mask.bit_length() - 1
            acc = SOLO_ACCEPTS[index]
            self.sides[p].append((_SOLO, mask, target, acc))
            self.accept |= acc
            self.table_points[p] += CARD_POINTS[index]
            if self.req:
                self.req &= ~mask
            self.log.append((p, PLAY, mask, target))
            if not hand:
                self._went_out()
        elif kind == DRAW:
            stock = self.stock
            if not stock:
                self._rebuild_stock()
                stock = self.stock
            card = stock.pop()
            self.hands[p] |= BITS[card]
            self.phase = PLAY_PHASE
            self.log.append((p, DRAW, 0, card))
        elif kind == TAKE:
            bit = BITS[self.pile.pop()]
            self.hands[p] |= bit
            self.keep = bit
            self.phase = PLAY_PHASE
            self.log.append((p, TAKE, bit, -1))
        elif kind == MELD:
            self.hands[p] ^= mask
            pk, acc, points = MELDS[mask]
            self.sides[p].append((pk, mask, -1, acc))
            self.accept |= acc
            if pk == _MARRIAGE:
                points = 2 * self.rules.marriage_card_points
            self.table_points[p] += points
            if self.req:
                self.req &= ~mask
            self.log.append((p, MELD, mask, -1))
            if not self.hands[p]:
                self._went_out()
        else:
            two = (1 << self.pile.pop()) | (1 << self.pile.pop())
            self.hands[p] |= two
            self.req = two
            self.phase = PLAY_PHASE
            self.log.append((p, TAKE_TWO, two, -1))
        if self.last_turn and self.phase == PLAY_PHASE and not self.legal_moves():
            self._finish(HandEnd.OUT)

    def _discard(self, p: int, kind: int, mask: int) -> int:
        """Put the card ``mask`` on the pile, face up or down; returns the hand left."""
        hand = self.hands[p] ^ mask  # the card is in the hand: a legal move
        self.hands[p] = hand
        self.pile.append(mask.bit_length() - 1)
        self.pile_down = kind == DISCARD_DOWN
        self.log.append((p, kind, mask, -1))
        return hand

    def find_target(self, bit: int) -> int:
        """A card on the table that takes ``bit`` (own side first); -1 for a jack or none."""
        if bit & JACKS:
            return -1
        sides = self.sides
        mover = self.mover
        for side in (sides[mover], sides[1 - mover]):
            for piece in side:
                if piece[3] & bit:
                    kind = piece[0]
                    cards = piece[1]
                    if kind == _RUN:
                        # the run's end card the new card sits next to
                        index = bit.bit_length() - 1
                        return index + 1 if cards >> (index + 1) & 1 else index - 1
                    if kind == _SOLO:
                        return cards.bit_length() - 1
                    return (cards & -cards).bit_length() - 1
        return -1

    def piece_holding(self, index: int) -> Piece | None:
        """The piece on either side that holds card ``index``."""
        bit = 1 << index
        for side in self.sides:
            for piece in side:
                if piece[1] & bit:
                    return piece
        return None

    def _rebuild_stock(self) -> None:
        top = self.pile.pop()
        cards = self.pile
        if self.told is None:
            shuffle(cards, random.Random(f"umtali-rebuild:{self.seed}:{len(self.rebuilds)}"))
        else:
            # Every earlier rebuilt stock was drawn to its end before this one was made.
            cards = told_stock(cards, self.told[sum(map(len, self.rebuilds)) :])
        self.stock = cards
        self.pile = [top]
        # Stored top first, the way a stock is written in a deal.
        self.rebuilds.append(tuple(reversed(cards)))
        self.log.append((self.mover, REBUILD, 0, len(cards)))

    def _went_out(self) -> None:
        if self.last_turn:
            self._finish(HandEnd.OUT)  # both players went out
            return
        self.out = self.mover
        self.last_turn = True
        self._next_turn()

    def _next_turn(self) -> None:
        # Only a normal turn or the turn someone went out on gets here: a last
        # turn can end only by going out or by running out of moves.
        turns = self.turns = self.turns + 1
        if turns >= self.rules.turn_limit and self.out < 0:
            self._finish(HandEnd.TURN_LIMIT)
            return
        self.mover ^= 1
        self.phase = DRAW_PHASE
        self.req = 0
        self.keep = 0
        self.discarded = False
        if not self.stock and len(self.pile) < 2 and not (self.pile and not self.pile_down):
            if self.last_turn:
                # Nothing left to draw: the last turn is played from the hand.
                self.phase = PLAY_PHASE
                self.log.append((self.mover, SKIP_DRAW, 0, -1))
            else:
                self._finish(HandEnd.NO_CARDS)

    def _finish(self, reason: HandEnd) -> None:
        if self.out >= 0:
            loser = 1 - self.out
            self.forfeit = self.hands[loser]
            self.hands[loser] = 0
        self.end = reason
        self.phase = OVER
        self.last_turn = False
        self.req = 0
        self.keep = 0
        self.discarded = False
