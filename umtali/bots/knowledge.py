"""What a bot can work out from its view, as card-set ints.

Everything here is derived from public facts and the bot's own hand: the
unseen cards are those in neither this hand, nor on the table, nor face up on
the discard pile, nor known to be in the opponent's hand (taken openly).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from umtali.bots.policy import keep_value
from umtali.engine.cards import FULL_DECK, JACKS, mask_of
from umtali.engine.events import EventKind
from umtali.engine.melds import SOLO_ACCEPTS, meldable
from umtali.engine.optional import OptionalState, state_class
from umtali.engine.rules import RuleSet
from umtali.engine.state import DRAW_PHASE, PLAY_PHASE, HandState, Piece
from umtali.engine.view import Piece as ViewPiece
from umtali.engine.view import PlayerView, Step


def _raw(piece: ViewPiece) -> Piece:
    return (
        int(piece.kind),
        mask_of(piece.cards),
        piece.off.index if piece.off else -1,
        piece.takes,
    )


#: A discard is fair for a sampled hand when fewer than this many of the cards it
#: kept were less worth keeping (``hard`` searches the four discards its habit
#: ranks lowest, and mostly throws one of the first two).
FAIR_RANK = 2


@dataclass(frozen=True, slots=True)
class Reading:
    """A weighted reading of the opponent's hidden cards (see :mod:`umtali.bots.inference`).

    ``weights[i]`` is how likely card ``i`` is in their hand relative to an
    unremarkable unseen card (1.0); ``holds`` is the chance that a player
    who may lay melds when they like holds one back.  ``thrown`` is their
    last face-up discard (-1 for none): where play is compulsory a sampled hand
    that makes a meld with it is drawn again (they would have had to lay it), and
    one in which they would
    have thrown ``FAIR_RANK`` or more of the cards they kept before it (see
    :meth:`Knowledge.fair_discard`) is kept only ``odd_discard`` of the time.
    """

    weights: tuple[float, ...]
    holds: float = 1.0
    thrown: int = -1
    odd_discard: float = 1.0


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
    rules: RuleSet
    # Cards the opponent cannot hold: play is compulsory, so at the end of
    # their turn they kept no jack, no meld and no card the table then took.
    opp_never: int = 0
    # Cards the opponent is less likely to hold: ones that go with a card
    # they chose to discard (a player keeps pairs and neighbours).
    opp_unlikely: int = 0
    pile_cards: int = 0  # the face-up discards, as a card set

    @staticmethod
    def of(view: PlayerView) -> Knowledge:
        sides = tuple(tuple(_raw(p) for p in side) for side in view.sides)
        table = accept = 0
        for side in sides:
            for _, mask, _, acc in side:
                table |= mask
                accept |= acc
        hand = mask_of(view.hand)
        pile = tuple(c.index for c in view.discard_pile)
        known = mask_of(view.opponent_known)
        pile_cards = mask_of(view.discard_pile)
        seen = hand | table | known | pile_cards
        never, unlikely = _opponent_inference(view, sides)
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
            rules=view.rules,
            opp_never=never,
            opp_unlikely=unlikely & ~never,
            pile_cards=pile_cards,
        )

    def sample_opponent(
        self, rng: random.Random, tries: int = 24, read: Reading | None = None
    ) -> tuple[int, list[int]]:
        """A hand for the opponent consistent with the inference, and the other unseen cards.

        Cards are drawn with weights (by default the unlikely ones at half
        weight; a :class:`Reading` gives a weight to every card); a hand
        holding a meld, which the opponent would have had to lay, is drawn
        again.  Where melding is optional a reading may still say how often a
        player holds a meld back (``read.holds``): a hand with one is then
        kept only that often.
        """
        need = self.opp_size - self.opp_known.bit_count()
        pool = self.unseen & ~self.opp_never
        if pool.bit_count() < need:
            pool = self.unseen  # the inference cannot hold (a variant, an odd state)
        cards = [i for i in range(52) if pool >> i & 1]
        if read is None:
            weights = [0.5 if self.opp_unlikely >> i & 1 else 1.0 for i in cards]
        else:
            weights = [read.weights[i] for i in cards]
        hand = self.opp_known
        # Only where play is compulsory does holding a meld contradict the rules.
        rounds = tries if self.rules.mandatory_play or read is not None else 1
        for _ in range(rounds):
            keys = sorted(
                ((rng.random() ** (1.0 / w), i) for w, i in zip(weights, cards, strict=True)),
                reverse=True,
            )
            hand = self.opp_known
            for _, i in keys[:need]:
                hand |= 1 << i
            # Play being compulsory, the hand they threw their last discard from held
            # no meld: not with that card either, or they would have laid it.
            held = hand
            if read is not None and read.thrown >= 0 and self.rules.mandatory_play:
                held |= 1 << read.thrown
            if meldable(held):
                if read is not None and not self.rules.mandatory_play and rng.random() < read.holds:
                    break
                continue
            if read is None or read.thrown < 0 or self.fair_discard(hand, read.thrown):
                break
            if rng.random() < read.odd_discard:
                break
        rest = [i for i in range(52) if (self.unseen & ~hand) >> i & 1]
        rng.shuffle(rest)
        return hand, rest

    def fair_discard(self, hand: int, thrown: int) -> bool:
        """Would a player holding ``hand`` and ``thrown`` have thrown ``thrown``?

        Yes if fewer than ``FAIR_RANK`` cards of ``hand`` are less worth keeping
        (:func:`~umtali.bots.policy.keep_value`, as the opponent saw the cards:
        unseen are those in neither that hand nor on the table or the pile).
        """
        held = hand | 1 << thrown
        unseen = FULL_DECK & ~held & ~self.table & ~self.pile_cards
        bar = keep_value(1 << thrown, held, unseen, 0)
        worse = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            if keep_value(low, held, unseen, 0) < bar:
                worse += 1
                if worse >= FAIR_RANK:
                    return False
        return True

    def sample_state(
        self, view: PlayerView, rng: random.Random, read: Reading | None = None
    ) -> HandState:
        """One complete state consistent with everything this player knows.

        The unseen cards are dealt to the opponent's unknown cards (see
        :meth:`sample_opponent`), then at random to the face-down discard (if
        any) and the stock.
        """
        opp, rest = self.sample_opponent(rng, read=read)
        pile = list(self.pile)
        if self.pile_down:
            pile.append(rest.pop())
        hands = (self.hand, opp) if self.seat == 0 else (opp, self.hand)
        step = view.step
        phase = DRAW_PHASE if step is Step.DRAW else PLAY_PHASE
        mover = (view.to_move or 1) - 1
        state = state_class(self.rules).from_parts(
            self.rules,
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
        if mover == self.seat and isinstance(state, OptionalState):
            # This turn's take-next state, as the history shows it.
            state.taken, state.followed = _this_turn_takes(view)
        return state


def _this_turn_takes(view: PlayerView) -> tuple[int, bool]:
    """(the top discard taken this turn, whether the next was taken too) for the mover."""
    taken, followed = 0, False
    for e in reversed(view.events):
        if e.player != view.player:
            break
        if e.kind is EventKind.TAKE_NEXT:
            followed = True
        elif e.kind is EventKind.TAKE and view.taken is not None:
            taken = view.taken.bit
    return taken, followed


def _opponent_inference(view: PlayerView, sides: tuple[tuple[Piece, ...], ...]) -> tuple[int, int]:
    """(cards the opponent cannot hold, cards they are less likely to hold)."""
    me = view.player
    opponent_moved = any(e.player != me for e in view.events)
    unlikely = 0
    for e in view.events:
        if e.player != me and e.kind is EventKind.DISCARD and e.cards:
            unlikely |= SOLO_ACCEPTS[e.cards[0].index]
    if not opponent_moved or view.opponent_hand_size == 0 or not view.rules.mandatory_play:
        return 0, unlikely
    return JACKS | accepted_then(view, sides), unlikely


def accepted_then(view: PlayerView, sides: tuple[tuple[Piece, ...], ...]) -> int:
    """The cards the table took when the opponent's last turn ended."""
    me = view.player
    # Pieces this player has laid since the opponent's turn ended do not count.
    mine_since = 0
    for e in reversed(view.events):
        if e.player != me:
            break
        if e.kind is EventKind.MELD or e.kind is EventKind.PLAY:
            mine_since += 1
    accept_then = 0
    for seat, side in enumerate(sides):
        laid = side[: len(side) - mine_since] if seat == me - 1 else side
        for piece in laid:
            accept_then |= piece[3]
    return accept_then
