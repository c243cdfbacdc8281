"""What one player may see of a hand, and the table in public terms.

A :class:`PlayerView` is all a bot or a screen gets: the player's own hand,
both sides of the table, the discard pile's face-up top, the sizes of the
stock and the opponent's hand, and the public history (a stock draw shows
no card to the opponent; a take does).  It never holds the opponent's hand
or the stock's order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from umtali.engine.actions import Action
from umtali.engine.cards import BITS, CARDS, Card, by_rank_desc, cards_of
from umtali.engine.events import Event, events_of, public_events
from umtali.engine.melds import PieceKind
from umtali.engine.moves import (
    TAKE,
    TAKE_FROM,
    TAKE_NEXT,
    TAKE_TWO,
)
from umtali.engine.rules import CLASSIC, RuleSet
from umtali.engine.state import DRAW_PHASE, OVER, HandState


class Step(Enum):
    """Where the player to move is in their turn.

    ``DISCARD`` (nothing left to play) is told to the player to move alone: to the
    other seat and to a spectator that turn is ``PLAY`` until its discard (see
    :func:`shown_step`), for whether the mover could play more is their hand's
    business.
    """

    DRAW = "draw"
    PLAY = "play"
    DISCARD = "discard"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Piece:
    """One column on a side of the table: a meld, or a solo card."""

    kind: PieceKind
    cards: tuple[Card, ...]  # highest first, as the column is stacked
    off: Card | None = None  # the table card a solo addition was played off
    takes: int = 0  # the cards (a card set) this piece took as additions when laid

    def points(self, rules: RuleSet) -> int:
        if self.kind is PieceKind.MARRIAGE:
            return 2 * rules.marriage_card_points
        return sum(c.points for c in self.cards)

    def __str__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        if self.kind is PieceKind.SOLO:
            return cards if self.off is None else f"{cards} (off {self.off})"
        return f"{self.kind.label} {cards}"


@lru_cache(maxsize=8192)
def _piece(kind: int, mask: int, target: int, takes: int) -> Piece:
    # Pieces never change once laid, so each is built once and shared.
    return Piece(
        PieceKind(kind),
        tuple(by_rank_desc(cards_of(mask))),
        CARDS[target] if target >= 0 else None,
        takes,
    )


def pieces_of(state: HandState, player: int) -> tuple[Piece, ...]:
    """The pieces on a side (player 0 or 1), in the order they were laid."""
    return tuple(_piece(*piece) for piece in state.sides[player])


def step_of(state: HandState) -> Step:
    """The step of the turn, as the player to move (or the engine) knows it."""
    if state.phase == OVER:
        return Step.OVER
    if state.phase == DRAW_PHASE:
        return Step.DRAW
    if state.discarded or state.playable_moves():
        return Step.PLAY
    return Step.DISCARD


def shown_step(state: HandState, player: int) -> Step:
    """The step of the turn as player ``player`` (1 or 2) may know it: the mover's
    own step exactly; to the other seat, a turn past its draw is ``PLAY`` whether or
    not the mover has anything left to play (RULES.md, *What each player may know*).
    """
    if state.phase == OVER:
        return Step.OVER
    if state.phase == DRAW_PHASE:
        return Step.DRAW
    if state.mover == player - 1:
        return step_of(state)
    return Step.PLAY


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything player ``player`` (1 or 2) may know now, and nothing more."""

    player: int
    hand: tuple[Card, ...]
    sides: tuple[tuple[Piece, ...], tuple[Piece, ...]]  # sides[0] is player 1's
    discard_top: Card | None  # None when the pile is empty or its top is face down
    discard_down: bool
    discard_size: int
    # Every face-up card of the pile, bottom first: each was seen when discarded.
    discard_pile: tuple[Card, ...]
    stock_size: int
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]  # cards the opponent took from the pile and still holds
    to_move: int | None
    step: Step
    last_turn: bool
    went_out: int | None
    scores: tuple[int, int]
    events: tuple[Event, ...]  # what happened, oldest first, as this player saw it
    legal: tuple[Action, ...]  # empty unless it is this player's move
    # This turn's obligations, if it is this player's move: the two cards taken
    # together that must still be played, and a single taken card not to discard.
    must_play: tuple[Card, ...] = ()
    taken: Card | None = None
    turns: int = 0  # turns completed in this hand
    rules: RuleSet = CLASSIC
    # Set only in a public view (a spectator's): how many cards ``player`` holds unseen.
    hidden_hand: int | None = None

    @property
    def opponent(self) -> int:
        return 3 - self.player

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        """(player, what they did) in words, oldest first: ``events`` for people."""
        return tuple((e.player, str(e)) for e in self.events)

    @property
    def legal_actions(self) -> tuple[str, ...]:
        """The legal actions in notation (``legal``, as text for people)."""
        return tuple(str(a) for a in self.legal)


_TAKES = (TAKE, TAKE_TWO, TAKE_NEXT, TAKE_FROM)


def _known(state: HandState, opp: int) -> int:
    """The cards seat ``opp`` took from the pile and still holds (all public).

    The takes are read from the log once: the state remembers how far it read
    (``takes_read``), and a log only grows, so the next view reads only what is new.
    """
    log = state.log
    read = state.takes_read
    if read is not None and read[0] is log and read[1] <= len(log):
        _, start, took0, took1 = read
    else:
        start = took0 = took1 = 0
    end = len(log)
    for n in range(start, end):
        who, kind, mask, _ = log[n]
        if kind in _TAKES:
            if who:
                took1 |= mask
            else:
                took0 |= mask
    state.takes_read = (log, end, took0, took1)
    return (took1 if opp else took0) & state.hands[opp]


def view_of(state: HandState, player: int, legal: tuple[Action, ...]) -> PlayerView:
    """Build player ``player``'s (1 or 2) view; ``legal`` is their legal actions, if any."""
    me = player - 1
    opp = 1 - me
    known = _known(state, opp)
    top = None
    if state.pile and not state.pile_down:
        top = CARDS[state.pile[-1]]
    face_up = state.pile[:-1] if state.pile_down else state.pile
    over = state.phase == OVER
    mine = not over and state.mover == me
    return PlayerView(
        player=player,
        hand=tuple(cards_of(state.hands[me])),
        sides=(pieces_of(state, 0), pieces_of(state, 1)),
        discard_top=top,
        discard_down=bool(state.pile) and state.pile_down,
        discard_size=len(state.pile),
        discard_pile=tuple(CARDS[i] for i in face_up),
        stock_size=len(state.stock),
        opponent_hand_size=state.hands[opp].bit_count(),
        opponent_known=tuple(cards_of(known)),
        to_move=None if over else state.mover + 1,
        step=shown_step(state, player),
        last_turn=state.last_turn,
        went_out=state.out + 1 if state.out >= 0 else None,
        scores=(state.score(0), state.score(1)),
        events=events_of(state.log, player),
        legal=legal if mine else (),
        must_play=tuple(cards_of(state.req)) if mine else (),
        taken=CARDS[state.keep.bit_length() - 1] if mine and state.keep else None,
        turns=state.turns,
        rules=state.rules,
    )


class SeenMasks(NamedTuple):
    """A :class:`PlayerView` as card sets and counts, for a hot path that wants ints:
    the same facts, field for field (``hand``, ``sides``, ``discard_pile``,
    ``opponent_known``, ``must_play`` and ``taken`` are card sets; ``discard_top`` a
    card index or -1), less the pieces' shapes, the pile's order, the history and
    the legal actions.  Made by :func:`seen_masks`; a test checks it against the view.
    """

    player: int
    hand: int
    sides: tuple[int, int]  # the cards on player 1's side, and on player 2's
    discard_top: int
    discard_down: bool
    discard_size: int
    discard_pile: int
    stock_size: int
    opponent_hand_size: int
    opponent_known: int
    to_move: int | None
    step: Step
    last_turn: bool
    went_out: int | None
    scores: tuple[int, int]
    must_play: int
    taken: int
    turns: int


def _side_mask(side: list[tuple[int, int, int, int]]) -> int:
    cards = 0
    for piece in side:
        cards |= piece[1]
    return cards


def seen_masks(state: HandState, player: int) -> SeenMasks:
    """What player ``player`` (1 or 2) may see now, as :class:`SeenMasks`: what
    :func:`view_of` tells, without building cards, pieces or events."""
    me = player - 1
    opp = 1 - me
    pile = state.pile
    down = state.pile_down
    over = state.phase == OVER
    mine = not over and state.mover == me
    face_up = 0
    for i in pile:
        face_up |= BITS[i]
    top = -1
    if pile:
        if down:
            face_up &= ~BITS[pile[-1]]
        else:
            top = pile[-1]
    return SeenMasks(
        player,
        state.hands[me],
        (_side_mask(state.sides[0]), _side_mask(state.sides[1])),
        top,
        bool(pile) and down,
        len(pile),
        face_up,
        len(state.stock),
        state.hands[opp].bit_count(),
        _known(state, opp),
        None if over else state.mover + 1,
        shown_step(state, player),
        state.last_turn,
        state.out + 1 if state.out >= 0 else None,
        (state.score(0), state.score(1)),
        state.req if mine else 0,
        state.keep if mine else 0,
        state.turns,
    )


def public_view(view: PlayerView) -> PlayerView:
    """What anybody at the table may see, made from either player's view: both sides,
    the pile, the counts and the public history, with that player's hand, their
    stock draws and their face-down discard taken out (a spectator's table).  The
    cards held are counted in ``hidden_hand``; no move is legal, and the step of a
    turn is told as the other seat sees it (``DISCARD`` is ``PLAY``).
    """
    return replace(
        view,
        hand=(),
        hidden_hand=len(view.hand),
        events=public_events(view.events, view.player),
        step=Step.PLAY if view.step is Step.DISCARD else view.step,
        legal=(),
        must_play=(),
        taken=None,
    )
