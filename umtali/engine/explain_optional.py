"""Refusal messages for the optional-melding machine (family, practical, rummy).

Like :mod:`umtali.engine.explain_classic`, these run only once an action is known
to be illegal, and only say why.
"""

from __future__ import annotations

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import BITS, CARDS, JACKS, format_cards
from umtali.engine.explain_classic import drawn_already, not_a_meld
from umtali.engine.melds import is_pair, is_two_run
from umtali.engine.moves import Move
from umtali.engine.optional import OptionalState
from umtali.engine.state import DRAW_PHASE


def explain_optional(state: OptionalState, action: Action, legal: list[Move]) -> str:
    kind = action.kind
    if kind is ActionKind.TAKE_NEXT:
        return _take_next(state)
    if kind in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.TAKE_FROM):
        return _draw(state, action, legal)
    if kind is ActionKind.END and not state.last_turn:
        return "end is for the last turn: a turn ends with a discard"
    if state.phase == DRAW_PHASE:
        return f"{action}: draw first (draw or take)"
    hand = state.hands[state.mover]
    if kind is ActionKind.END:
        if state.req:
            return f"you must still play {format_cards(state.req)}, which you took this turn"
        return "end is not possible now"
    for card in action.cards:
        if not hand & card.bit:
            return f"{card} is not in your hand"
    if kind is ActionKind.MELD:
        return _meld(state, action, hand, legal)
    if kind is ActionKind.PLAY:
        card = action.cards[0]
        if not state.accept & card.bit and not (state.rules.jacks_alone and card.bit & JACKS):
            return f"{card} cannot be played: nothing on the table takes it"
        return _spoils(state, f"play {card}", hand & ~card.bit)
    return _discard(state, action, hand)


def _spoils(state: OptionalState, what: str, left: int) -> str:
    """Why a play the table allows is refused: it would leave the turn unable to end."""
    keep = state.keep
    if left == keep and state.rules.taken_kept:
        taken = format_cards(keep)
        return (
            f"{what} would leave you holding only {taken}, which you took this turn and may "
            f"not discard: keep another card to discard, or play {taken} first"
        )
    if state.req:
        return f"{what} would leave {format_cards(state.req)} unplayable, and you must play it"
    return f"{what} would leave your turn with no way to end"


def _draw(state: OptionalState, action: Action, legal: list[Move]) -> str:
    if state.phase != DRAW_PHASE:
        return drawn_already(state, legal)
    if action.kind is ActionKind.DRAW:
        return "the stock is empty and the discard pile has no cards to rebuild it"
    if not state.pile:
        return "the discard pile is empty: draw from the stock"
    if state.pile_down:
        return "the top discard is face down: draw from the stock"
    if action.kind is ActionKind.TAKE:
        return "take is not possible now"
    card = action.cards[0]
    if card.index not in state.pile:
        return f"{card} is not in the discard pile"
    if card.index == state.pile[-1]:
        return f"{card} is the top discard: write take"
    pile = state.pile
    whole = state.hands[state.mover]
    for index in pile[pile.index(card.index) :]:
        whole |= BITS[index]
    left = state.cards_left_after_final()
    if state.can_lay(whole, state.table(), card.bit, left):
        top = CARDS[pile[-1]]
        return (
            f"taking {card} brings {top} from the top with it, and you could then neither "
            f"play {top} nor discard it this turn (in {state.rules.name} the card that was on "
            "top may not be discarded)"
        )
    return (
        f"a card taken from under the top must be played this turn, and {card} could not be "
        "(with the cards above it and your hand)"
    )


def _take_next(state: OptionalState) -> str:
    if state.phase == DRAW_PHASE:
        return (
            "take the top discard first; once it is on the table you may take the next one, "
            "if you can play that too"
        )
    if not state.taken:
        return "take next follows a take from the discard pile, and you drew from the stock"
    if state.followed:
        return "you have already taken the next discard this turn"
    if state.hands[state.mover] & state.taken:
        taken = format_cards(state.taken)
        return f"play {taken} first: the next discard may be taken once the card you took is down"
    if not state.pile or state.pile_down:
        return "there is no discard left to take"
    top = CARDS[state.pile[-1]]
    return f"{top} could not be played this turn, so it may not be taken"


def _meld(state: OptionalState, action: Action, hand: int, legal: list[Move]) -> str:
    mask = action.mask
    rules = state.rules
    cards = format_cards(mask)
    if rules.jacks_alone and mask & JACKS:
        return f"jacks are never part of a meld: play {format_cards(mask & JACKS)} alone"
    two = mask.bit_count() == 2 and (is_pair(mask) or (rules.final_two_run and is_two_run(mask)))
    if two and rules.final_pair:
        left = (hand & ~mask).bit_count()
        if state.last_turn:
            return (
                f"a two-card meld is allowed only to go out: you would still hold {left} "
                f"card{'s' if left != 1 else ''}"
            )
        return (
            f"a two-card meld is allowed only to go out, with at most one card left to discard: "
            f"you would still hold {left}"
        )
    if state.kind_of(mask) is None:
        return not_a_meld(state, action, legal)
    if state.req & ~mask:
        return (
            f"after meld {cards}, {format_cards(state.req)} (which you took) could not be "
            "played this turn"
        )
    return _spoils(state, f"meld {cards}", hand & ~mask)


def _discard(state: OptionalState, action: Action, hand: int) -> str:
    card = action.cards[0]
    rules = state.rules
    if state.last_turn:
        return "this is your last turn: there is no discard; play what you can, then end"
    if state.req:
        return f"you took {format_cards(state.req)} this turn and must play it before you discard"
    if state.keep & card.bit and rules.taken_kept:
        return (
            f"you took {card} from the discard pile this turn: in {rules.name} you may not "
            "discard it this turn, not even as your last card"
        )
    if state.keep & card.bit and hand.bit_count() > 1:
        return (
            f"you took {card} from the discard pile this turn: you may not discard it "
            "(unless it is your last card)"
        )
    last = hand.bit_count() == 1
    if action.down and not last:
        return "only your last card, the one that takes you out, may go face down"
    if last and not rules.out_up:
        return f"going out, the last card goes face down: discard {card} down"
    if action.down and not rules.out_down:
        return f"in {rules.name} every discard is face up"
    return f"discard {card} is not legal now"
