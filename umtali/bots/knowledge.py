"""What a bot can work out from its view, as card-set ints.

Everything here is derived from public facts and the bot's own hand: the
unseen cards are those in neither this hand, nor on the table, nor face up on
the discard pile, nor known to be in the opponent's hand (taken openly).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from umtali.engine.cards import FULL_DECK, Card, mask_of
from umtali.engine.melds import SOLO_ACCEPTS, PieceKind, accepts
from umtali.engine.rules import CLASSIC, RuleSet
from umtali.engine.state import DRAW_PHASE, PLAY_PHASE, HandState, Piece
from umtali.engine.view import PlayerView, Step


def _raw(piece_kind: PieceKind, cards: tuple[Card, ...], off: Card | None) -> Piece:
    mask = mask_of(cards)
    acc = (
        SOLO_ACCEPTS[cards[0].index] if piece_kind is PieceKind.SOLO else accepts(piece_kind, mask)
    )
    return (int(piece_kind), mask, off.index if off is not None else -1, acc)


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int  # 0 or 1
    hand: int
    sides: tuple[tuple[Piece, ...], tuple[Piece, ...]]
    table: int  # every card on the table
    accept: int  # every card the table takes
    pile: tuple[int, ...]  # face-up discards, bottom first
    pile_down: bool  # the top of the pile is a face-down card (unknown)
    opp_known: int  # cards the opponent holds that they took openly
    opp_size: int
    unseen: int  # cards whose place this player cannot know
    stock_size: int
    must_play: int
    taken: int

    @staticmethod
    def of(view: PlayerView) -> Knowledge:
        sides = tuple(tuple(_raw(p.kind, p.cards, p.off) for p in side) for side in view.sides)
        table = accept = 0
        for side in sides:
            for _, mask, _, acc in side:
                table |= mask
                accept |= acc
        hand = mask_of(view.hand)
        pile = tuple(c.index for c in view.discard_pile)
        known = mask_of(view.opponent_known)
        seen = hand | table | known | mask_of(view.discard_pile)
        return Knowledge(
            seat=view.player - 1,
            hand=hand,
            sides=(sides[0], sides[1]),
            table=table,
            accept=accept,
            pile=pile,
            pile_down=view.discard_down,
            opp_known=known,
            opp_size=view.opponent_hand_size,
            unseen=FULL_DECK & ~seen,
            stock_size=view.stock_size,
            must_play=mask_of(view.must_play),
            taken=view.taken.bit if view.taken is not None else 0,
        )

    def sample_state(
        self, view: PlayerView, rng: random.Random, rules: RuleSet = CLASSIC
    ) -> HandState:
        """One complete state consistent with everything this player knows.

        The unseen cards are dealt at random to the opponent's unknown cards,
        the face-down discard (if any) and the stock.
        """
        unseen = [i for i in range(52) if self.unseen >> i & 1]
        rng.shuffle(unseen)
        need = self.opp_size - self.opp_known.bit_count()
        opp = self.opp_known
        for i in unseen[:need]:
            opp |= 1 << i
        rest = unseen[need:]
        pile = list(self.pile)
        if self.pile_down:
            pile.append(rest.pop())
        hands = (self.hand, opp) if self.seat == 0 else (opp, self.hand)
        step = view.step
        phase = DRAW_PHASE if step is Step.DRAW else PLAY_PHASE
        mover = (view.to_move or 1) - 1
        return HandState.from_parts(
            rules,
            hands=hands,
            stock_top_first=rest[: self.stock_size],
            pile=pile,
            pile_down=self.pile_down,
            sides=(list(self.sides[0]), list(self.sides[1])),
            mover=mover,
            phase=phase,
            out=(view.went_out - 1) if view.went_out is not None else -1,
            last_turn=view.last_turn,
            turns=view.turns,
            req=self.must_play if mover == self.seat else 0,
            keep=self.taken if mover == self.seat else 0,
            seed=rng.getrandbits(32),
        )
