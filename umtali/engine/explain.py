"""Why an action is refused: the checks every machine shares, then the machine's own.

The words for each machine live in one module each (:mod:`.explain_classic`,
:mod:`.explain_optional`); they run only once an action is known to be
illegal, and only say why.
"""

from __future__ import annotations

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS, JACKS, Card
from umtali.engine.explain_classic import explain_classic
from umtali.engine.explain_optional import explain_optional
from umtali.engine.moves import Move
from umtali.engine.optional import OptionalState
from umtali.engine.state import OVER, HandState


def explain(state: HandState, action: Action, legal: list[Move]) -> str:
    """Why ``action`` is not among ``legal`` (the state's legal moves)."""
    if state.phase == OVER:
        return "the hand is over"
    foreign = _not_in_these_rules(state, action.kind)
    if foreign:
        return foreign
    if isinstance(state, OptionalState):
        return explain_optional(state, action, legal)
    return explain_classic(state, action, legal)


def _not_in_these_rules(state: HandState, kind: ActionKind) -> str:
    """Why an action that belongs to other rules is refused here, or ''."""
    rules = state.rules
    name = rules.name
    if kind is ActionKind.TAKE_TWO and not rules.take_two:
        return f"there is no take 2 in {name}: {rules.take_words}"
    if kind is ActionKind.TAKE_NEXT and not rules.take_next:
        return f"take next is a family rule; in {name}, {rules.take_words}"
    if kind is ActionKind.TAKE_FROM and not rules.take_deep:
        return f"only practical takes a card from under the top; in {name}, {rules.take_words}"
    if kind is ActionKind.END and rules.mandatory_play:
        return (
            f"there is no end in {name}: a turn ends with a discard, "
            "or when nothing is left to play"
        )
    if kind is ActionKind.END and not rules.last_turn:
        return f"there is no end in {name}: a turn ends with a discard, or by going out"
    return ""


def target_refusal(state: HandState, card: Card, named: Card) -> str:
    """Why ``play card on named`` is refused whatever else is legal, or ''."""
    if card.bit & JACKS and state.rules.jacks_alone:
        return f"a jack is played alone: write play {card}"
    piece = state.piece_holding(named.index)
    if piece is None:
        return f"{named} is not on the table"
    if not piece[3] & card.bit:
        target = state.find_target(card.bit)
        hint = f"; it can go off {CARDS[target]}" if target >= 0 else ""
        return f"{named} does not take {card}{hint}"
    return ""


def ambiguous_play(card: Card, choices: list[Action]) -> str:
    """A bare ``play`` of a card that more than one meld takes: name them."""
    return f"{card} goes on more than one meld: say which, {' or '.join(map(str, choices))}"
