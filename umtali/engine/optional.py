"""One hand under optional melding: the ``family``, ``practical`` and ``rummy`` presets.

The classic machine (:mod:`umtali.engine.state`) makes every playable card
compulsory; here a player lays what they choose and ends the play step by
discarding (or, on a last turn, by ending it).  What differs between the
presets is read from the :class:`RuleSet`: the melds (Umtali's, with lone
jacks and marriages, or Rummy's), what may be drawn from the discard pile,
the two-card meld that may take a player out, how the last card is
discarded, whether a last turn follows, and how a hand is scored.

Additions *extend* melds: a run takes the next card of its suit at either
end, a group the rest of its rank, and in Umtali a jack takes the ten and
queen of its suit.  An addition goes onto one meld, the one the player names;
:mod:`umtali.engine.extend` keeps what the table takes, one card set per way.
"""

from __future__ import annotations

from typing import TypeVar

from umtali.engine.actions import Action
from umtali.engine.cards import (
    BITS,
    JACKS,
    RANK_MASKS,
    SUIT_MASKS,
    indices,
    plain_points,
    rummy_points,
)
from umtali.engine.extend import (
    ACCEPT,
    Table,
    add_card,
    additions,
    lay_meld,
    several,
    split_acceptance,
    way_of,
)
from umtali.engine.melds import (
    PieceKind,
    could_reach,
    is_pair,
    is_two_run,
    meld_kind,
    meldable,
    melds_in,
    rummy_meld_kind,
    rummy_meldable,
    rummy_melds_in,
)
from umtali.engine.moves import (
    ADD_JACK,
    ADD_RANK,
    ADD_UP,
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
    to_action,
)
from umtali.engine.rules import RuleSet
from umtali.engine.state import (
    DISCARDS,
    DRAW_MOVE,
    DRAW_PHASE,
    OVER,
    PLAY_PHASE,
    TAKE_MOVE,
    HandEnd,
    HandState,
)

TAKE_NEXT_MOVE: Move = (TAKE_NEXT, 0)
END_MOVE: Move = (END, 0)


_O = TypeVar("_O", bound="OptionalState")


class OptionalState(HandState):
    """A hand in which melding is optional (see the module docstring)."""

    __slots__ = (
        "acc_down",
        "acc_jack",
        "acc_rank",
        "acc_up",
        "followed",
        "laid",
        "start_pieces",
        "taken",
        "went_rummy",
    )

    # What the table takes, one card set per way (see :mod:`umtali.engine.extend`),
    # and the cards on it.
    acc_rank: int
    acc_up: int
    acc_down: int
    acc_jack: int
    laid: int
    taken: int  # the top discard taken this turn (family's take next)
    followed: bool  # the next discard was taken too
    start_pieces: int  # pieces on the mover's side when the turn began
    went_rummy: bool

    def start(self) -> None:
        self.acc_rank = self.acc_up = self.acc_down = self.acc_jack = 0
        self.laid = 0
        self.taken = 0
        self.followed = False
        self.start_pieces = 0
        self.went_rummy = False

    def derive_table(self) -> None:
        """Rebuild the table's card sets from the pieces on it (see ``from_parts``)."""
        sets = [0] * 6
        jacks_alone = self.rules.jacks_alone
        for side in self.sides:
            for kind, mask, _, acc in side:
                part = split_acceptance(PieceKind(kind), mask, acc, jacks_alone)
                for place in range(6):
                    sets[place] |= part[place]
        self._set_table((sets[0], sets[1], sets[2], sets[3], sets[4], sets[5]))
        self.start_pieces = len(self.sides[self.mover])

    def _set_table(self, table: Table) -> None:
        (self.accept, self.acc_rank, self.acc_up, self.acc_down, self.acc_jack, self.laid) = table

    def clone(self: _O) -> _O:
        c = HandState.clone(self)
        c.acc_rank = self.acc_rank
        c.acc_up = self.acc_up
        c.acc_down = self.acc_down
        c.acc_jack = self.acc_jack
        c.laid = self.laid
        c.taken = self.taken
        c.followed = self.followed
        c.start_pieces = self.start_pieces
        c.went_rummy = self.went_rummy
        return c

    # ------------------------------------------------------------ melds

    def kind_of(self, mask: int) -> PieceKind | None:
        """The shape of ``mask`` as a meld under these rules (two-card finals included)."""
        if not self.rules.jacks_alone:
            return rummy_meld_kind(mask)
        kind = meld_kind(mask)
        if kind is None and self.rules.final_two_run and is_two_run(mask):
            return PieceKind.RUN
        return kind

    def plays_from(self, hand: int, table: Table, left: int) -> list[Move]:
        """Melds (two-card finals leaving at most ``left`` cards) and additions open
        to ``hand`` on ``table``, as moves: a search's view of one turn."""
        melds = self._melds(hand)
        moves: list[Move] = [(MELD, m) for m in melds]
        # A marriage is also a two-card run, a final where those go out: list it once.
        moves.extend((MELD, m) for m in self._finals(hand, left) if m not in melds)
        moves += additions(self.free_cards(hand, table[ACCEPT]), table)
        return moves

    def after(self, table: Table, move: Move) -> Table:
        """The table once ``move`` (a meld or a single play) is laid on it."""
        kind, mask = move
        jacks_alone = self.rules.jacks_alone
        if kind in SINGLE_PLAYS:
            return add_card(table, mask, way_of(move, table, jacks_alone), jacks_alone)[0]
        shape = self.kind_of(mask)
        assert shape is not None
        return lay_meld(table, shape, mask, jacks_alone)[0]

    def table(self) -> Table:
        """What the table takes now, by way, and the cards on it (see :mod:`extend`)."""
        return (self.accept, self.acc_rank, self.acc_up, self.acc_down, self.acc_jack, self.laid)

    def _melds(self, hand: int) -> list[int]:
        return melds_in(hand) if self.rules.jacks_alone else rummy_melds_in(hand)

    def meldable_cards(self, hand: int) -> int:
        return meldable(hand) if self.rules.jacks_alone else rummy_meldable(hand)

    def _is_final(self, mask: int) -> bool:
        rules = self.rules
        if not rules.final_pair:
            return False
        if is_pair(mask):
            return True
        return rules.final_two_run and is_two_run(mask)

    def _finals(self, hand: int, left: int) -> list[int]:
        """Two-card melds (pairs; two-card runs where allowed) leaving at most ``left`` cards."""
        if not self.rules.final_pair or hand.bit_count() > 2 + left:
            return []
        cards = indices(hand)
        out = []
        for a in range(len(cards)):
            for b in range(a + 1, len(cards)):
                m = (1 << cards[a]) | (1 << cards[b])
                if self._is_final(m):
                    out.append(m)
        return out

    def _partners(self, hand: int, card: int) -> int:
        """The cards of ``hand`` that make a two-card going-out meld with ``card``: only a
        card of its rank or suit can."""
        if not self.rules.final_pair:
            return 0
        i = card.bit_length() - 1
        partners = hand & ~card & (RANK_MASKS[i % 13] | SUIT_MASKS[i // 13])
        return sum(BITS[j] for j in indices(partners) if self._is_final(card | BITS[j]))

    def free_cards(self, hand: int, accept: int) -> int:
        free = hand & accept
        if self.rules.jacks_alone:
            free |= hand & JACKS
        return free

    # ------------------------------------------------------------ reach

    def can_lay(self, hand: int, table: Table, card: int, left: int) -> bool:
        """Whether ``card`` (a bit in ``hand``) can be laid this turn by some sequence of plays."""
        return self._reach(hand, table, card, left, {})

    def _reach(
        self, hand: int, table: Table, card: int, left: int, memo: dict[tuple[int, ...], bool]
    ) -> bool:
        if not hand & card:
            return True
        free = self.free_cards(hand, table[0])
        if free & card:
            return True
        # An addition in no meld of the hand, taken by one meld only and no partner of
        # the card in a two-card meld, spoils nothing: it only shrinks the hand and
        # widens the table.  Lay every such card at once instead of trying their orders.
        # (The partners stay in hand, so they are found once.)
        partners = self._partners(hand, card)
        while safe := free & ~self.meldable_cards(hand) & ~several(table) & ~partners:
            for i in indices(safe):
                table = self.after(table, (PLAY, BITS[i]))
            hand &= ~safe
            free = self.free_cards(hand, table[0])
            if free & card:
                return True
        melds = self._melds(hand)
        for m in melds:
            if m & card:
                return True
        # A two-card meld holding the card takes the player out once at most ``left``
        # other cards remain: cards that widen nothing on the table may be laid just
        # to bring the hand down to it.
        finals = partners != 0
        if finals and hand.bit_count() <= 2 + left:
            return True
        # A quick bound first: the cards that melds and additions might ever lay.  A card
        # outside it goes down only in a two-card meld that goes out, and every other card
        # outside it is still in hand then, so there must be few enough of them.
        maybe = could_reach(hand, self._maybe_now(hand, table[ACCEPT]), table[ACCEPT])
        if not card & maybe and (not finals or (hand & ~maybe).bit_count() > 2 + left):
            return False
        key = (hand, *table)
        known = memo.get(key)
        if known is not None:
            return known
        memo[key] = False
        jacks_alone = self.rules.jacks_alone
        for move in additions(free, table):
            after = self.after(table, move)
            if (finals or after[ACCEPT] != table[ACCEPT]) and self._reach(
                hand & ~move[1], after, card, left, memo
            ):
                memo[key] = True
                return True
        for m in melds:
            kind = self.kind_of(m)
            assert kind is not None
            after, new = lay_meld(table, kind, m, jacks_alone)
            if (finals or new) and self._reach(hand & ~m, after, card, left, memo):
                memo[key] = True
                return True
        return False

    def _maybe_now(self, hand: int, accept: int) -> int:
        """The cards of ``hand`` that might go down first: in a meld, alone, or onto ``accept``."""
        return hand & (
            accept | self.meldable_cards(hand) | (JACKS if self.rules.jacks_alone else 0)
        )

    def _maybe_playable(self, hand: int) -> int:
        """A quick superset of the cards of ``hand`` that could be laid this turn."""
        accept = self.accept
        maybe = could_reach(hand, self._maybe_now(hand, accept), accept)
        # Cards outside it can still go down in a two-card meld that goes out,
        # leaving at most one card: with three or fewer of them, any might.
        stuck = hand & ~maybe
        if stuck and stuck.bit_count() <= 3 and self.rules.final_pair:
            return hand
        return maybe

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == PLAY_PHASE:
            return self._play_moves()
        if phase == DRAW_PHASE:
            return self.draw_moves()
        return []

    def draw_moves(self, most: int = 52) -> list[Move]:
        """The legal draws, in :meth:`legal_moves`' order, leaving out the takes from
        the pile that bring more than ``most`` cards (a policy that never makes them
        need not pay for proving them legal)."""
        pile = self.pile
        moves: list[Move] = [DRAW_MOVE] if self.stock or len(pile) >= 2 else []
        if pile and not self.pile_down:
            moves.append(TAKE_MOVE)
            if self.rules.take_deep and len(pile) >= 2:
                moves.extend(self._deep_takes(most))
        return moves

    def _deep_takes(self, most: int) -> list[Move]:
        hand = self.hands[self.mover]
        table = self.table()
        left = self.cards_left_after_final()
        out = []
        top = above = 1 << self.pile[-1]
        for depth in range(2, min(len(self.pile), most) + 1):
            bit = 1 << self.pile[-depth]
            above |= bit
            whole = hand | above
            if self._maybe_playable(whole) & bit and self.finishes(whole, table, bit, top, left):
                out.append((TAKE_FROM, bit))
        return out

    def finishes(self, hand: int, table: Table, req: int, keep: int, left: int) -> bool:
        """Whether this turn can still end as the rules require: every card of ``req``
        laid, and then either an empty hand or a card to discard that may be discarded.

        Only where the card just taken (``keep``) may never be discarded can the
        second part fail: the player must not be left holding that card alone, with
        nothing to lay it on.
        """
        if req and not self.can_lay(hand, table, req, left):
            return False
        if not (hand & keep and self.rules.taken_kept and not self.last_turn):
            return True
        if not req:
            return hand != keep or bool(self.free_cards(hand, table[ACCEPT]))
        # Lay the required card keeping back one other card to discard at the end (so
        # no two-card meld may leave a card beside it), or else lay every card.
        spare = hand & ~keep & ~req
        return any(self.can_lay(hand ^ BITS[i], table, req, 0) for i in indices(spare)) or (
            self._can_empty(hand, table, left, {})
        )

    def _can_empty(
        self, hand: int, table: Table, left: int, memo: dict[tuple[int, ...], bool]
    ) -> bool:
        """Whether every card of ``hand`` can be laid this turn."""
        if not hand:
            return True
        key = (hand, *table)
        known = memo.get(key)
        if known is None:
            memo[key] = known = any(
                self._can_empty(hand & ~move[1], self.after(table, move), left, memo)
                for move in self.plays_from(hand, table, left)
            )
        return known

    def cards_left_after_final(self) -> int:
        """How many cards a two-card going-out meld may leave: one to discard, if a
        discard can follow it."""
        return 0 if self.last_turn and not self.rules.last_turn_discard else 1

    def playable_moves(self) -> list[Move]:
        """The melds and additions open now (ignoring what a take obliges)."""
        return self.plays_from(self.hands[self.mover], self.table(), self.cards_left_after_final())

    def _play_moves(self) -> list[Move]:
        hand = self.hands[self.mover]
        moves = self.playable_moves()
        req = self.req
        keep = self.keep
        if moves and (req or (keep and self.rules.taken_kept)):
            # Keep only the plays after which the turn can still end: the card that must
            # go down still can, and the card taken is not left alone in the hand.
            table = self.table()
            left = self.cards_left_after_final()
            moves = [
                move
                for move in moves
                if not (req & ~move[1] or hand & ~move[1] == keep)
                or self.finishes(
                    hand & ~move[1], self.after(table, move), req & ~move[1], keep, left
                )
            ]
        if self.rules.take_next and self._can_follow(hand):
            moves.append(TAKE_NEXT_MOVE)
        if req:
            return moves
        if self.last_turn:
            if self.rules.last_turn_discard and hand & (hand - 1) == 0:
                moves.extend(self._last_card(hand))
            if moves:
                moves.append(END_MOVE)
            return moves
        if hand & (hand - 1) == 0:
            if hand != keep or not self.rules.taken_kept:
                moves.extend(self._last_card(hand))
        else:
            moves += DISCARDS.of(hand & ~keep)
        return moves

    def _last_card(self, hand: int) -> list[Move]:
        rules = self.rules
        if not rules.out_up:
            return [(DISCARD_DOWN, hand)]
        if not rules.out_down:
            return [(DISCARD, hand)]
        return [(DISCARD, hand), (DISCARD_DOWN, hand)]

    def _can_follow(self, hand: int) -> bool:
        """Family: the taken top card is on the table and the next discard is playable."""
        if not self.taken or self.followed or hand & self.taken:
            return False
        pile = self.pile
        if not pile or self.pile_down:
            return False
        bit = 1 << pile[-1]
        whole = hand | bit
        left = self.cards_left_after_final()
        return bool(self._maybe_playable(whole) & bit) and self.can_lay(
            whole, self.table(), bit, left
        )

    # ------------------------------------------------------------ moving

    def apply_move(self, move: Move, target: int | None = None) -> None:
        kind, mask = move
        p = self.mover
        if kind in SINGLE_PLAYS:
            way = way_of(move, self.table(), self.rules.jacks_alone)
            if target is None:
                target = self.find_target(mask) if kind == PLAY else self.target_for(mask, way)
            self._lay(p, PieceKind.SOLO, mask, target, way)
        elif kind == MELD:
            shape = self.kind_of(mask)
            assert shape is not None
            self._lay(p, shape, mask, -1)
        elif kind in (DISCARD, DISCARD_DOWN):
            hand = self._discard(p, kind, mask)
            if not hand:
                self._went_out()
            else:
                self._next_turn()
        elif kind == DRAW:
            if not self.stock:
                self._rebuild_stock()
            card = self.stock.pop()
            self.hands[p] |= 1 << card
            self.phase = PLAY_PHASE
            self.log.append((p, DRAW, 0, card))
        elif kind == TAKE:
            bit = 1 << self.pile.pop()
            self.hands[p] |= bit
            self.keep = self.taken = bit
            self.phase = PLAY_PHASE
            self.log.append((p, TAKE, bit, -1))
        elif kind == TAKE_FROM:
            top = 1 << self.pile[-1]
            cards = 0
            while True:
                bit = 1 << self.pile.pop()
                cards |= bit
                if bit == mask:
                    break
            self.hands[p] |= cards
            self.keep = top
            self.req = mask
            self.phase = PLAY_PHASE
            self.log.append((p, TAKE_FROM, cards, mask.bit_length() - 1))
        elif kind == TAKE_NEXT:
            bit = 1 << self.pile.pop()
            self.hands[p] |= bit
            self.req = bit
            self.followed = True
            self.log.append((p, TAKE_NEXT, bit, -1))
        else:  # END
            self.log.append((p, END, 0, -1))
            self._finish(HandEnd.OUT)
            return
        if self.last_turn and self.phase == PLAY_PHASE and not self.legal_moves():
            self._finish(HandEnd.OUT)

    def _lay(self, p: int, kind: PieceKind, mask: int, target: int, way: int = 0) -> None:
        self.hands[p] &= ~mask
        jacks_alone = self.rules.jacks_alone
        if kind is PieceKind.SOLO:
            table, acc = add_card(self.table(), mask, way, jacks_alone)
        else:
            table, acc = lay_meld(self.table(), kind, mask, jacks_alone)
        self._set_table(table)
        self.sides[p].append((kind, mask, target, acc))
        if kind is PieceKind.MARRIAGE:
            self.table_points[p] += 2 * self.rules.marriage_card_points
        else:
            self.table_points[p] += plain_points(mask)
        self.req &= ~mask
        self.log.append((p, MELD if kind is not PieceKind.SOLO else PLAY, mask, target))
        if not self.hands[p]:
            self._went_out()

    def target_for(self, bit: int, way: int) -> int:
        """The table card an addition the ``way`` given goes onto: the run's end card it
        sits next to, the jack, or the lowest card of the group (own side first)."""
        index = bit.bit_length() - 1
        if way == ADD_UP:
            return index - 1
        if way != ADD_RANK:
            return index + 1 if way != ADD_JACK else index - index % 13 + 10
        same = RANK_MASKS[index % 13]
        for side in (self.sides[self.mover], self.sides[1 - self.mover]):
            for _, cards, _, acc in side:
                if acc & bit and cards & same:
                    return (cards & -cards).bit_length() - 1
        return -1

    def action_of(self, move: Move) -> Action:
        """A move as an Action; an addition several melds take names the one it goes on."""
        kind, mask = move
        if kind in SINGLE_PLAYS and kind != PLAY:
            return to_action(move, self.target_for(mask, kind))
        return to_action(move)

    def find_target(self, bit: int) -> int:
        """A table card that takes ``bit`` (own side first); -1 for a lone jack or none."""
        if self.rules.jacks_alone and bit & JACKS:
            return -1
        index = bit.bit_length() - 1
        for side in (self.sides[self.mover], self.sides[1 - self.mover]):
            for kind, cards, _, acc in side:
                if acc & bit:
                    if kind == PieceKind.SOLO:
                        return cards.bit_length() - 1
                    if cards & RANK_MASKS[index % 13]:
                        return (cards & -cards).bit_length() - 1
                    return index + 1 if cards >> (index + 1) & 1 else index - 1
        return -1

    def _went_out(self) -> None:
        if not self.rules.last_turn:
            self.out = self.mover
            self.went_rummy = self.start_pieces == 0
            self._finish(HandEnd.OUT)
            return
        HandState._went_out(self)

    def _next_turn(self) -> None:
        self.taken = 0
        self.followed = False
        HandState._next_turn(self)
        self.start_pieces = len(self.sides[self.mover])

    def score(self, player: int) -> int:
        if not self.rules.hand_scoring:
            return HandState.score(self, player)
        if self.phase != OVER or player != self.out:
            return 0
        points = rummy_points(self.forfeit)
        return 2 * points if self.went_rummy else points


def state_class(rules: RuleSet) -> type[HandState]:
    """The phase machine a rule set is played on."""
    return HandState if rules.mandatory_play else OptionalState


__all__ = [
    "END",
    "TAKE_FROM",
    "TAKE_NEXT",
    "OptionalState",
    "Table",
    "state_class",
]
