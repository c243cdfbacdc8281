"""Why the classic machine refuses an action, in words a player can act on.

Each message names the rule that stands in the way and, where it helps,
what is legal instead.  The checks run only after an action has already
been found missing from the legal moves, so they never decide legality.
"""

from __future__ import annotations

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS, JACKS, Card, format_cards
from umtali.engine.melds import MELDS, PieceKind, meld_kind, meldable, melds_in, rule_melds
from umtali.engine.moves import DISCARD, DISCARD_DOWN, MELD, PLAY, SKIP_DRAW, Move, to_move
from umtali.engine.state import DRAW_PHASE, HandState


def explain_classic(state: HandState, action: Action, legal: list[Move]) -> str:
    """Why ``action`` is not among ``legal`` (the classic state's legal moves)."""
    kind = action.kind
    if kind in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.TAKE_TWO):
        return _explain_draw(state, kind, legal)
    if state.phase == DRAW_PHASE:
        return f"{action}: draw first ({choices(state, legal)})"
    hand = state.hands[state.mover]
    for card in action.cards:
        if not hand & card.bit:
            return f"{card} is not in your hand"
    if state.discarded:
        return f"you discarded down to a pair: meld {format_cards(hand)} to go out"
    if kind is ActionKind.MELD:
        return _explain_meld(state, action, hand, legal)
    if kind is ActionKind.PLAY:
        return _explain_play(state, action.cards[0], hand, legal)
    return _explain_discard(state, action, hand, legal)


def choices(state: HandState, legal: list[Move], limit: int = 8) -> str:
    """The legal moves in notation, ``limit`` of them at most."""
    parts = []
    for kind, mask in legal[:limit]:
        if kind == PLAY:
            target = state.find_target(mask)
            off = f" (off {CARDS[target]})" if target >= 0 else ""
            parts.append(f"play {format_cards(mask)}{off}")
        else:
            parts.append(str(state.action_of((kind, mask))))
    more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
    return ", ".join(parts) + more


def not_a_meld(state: HandState, action: Action, legal: list[Move]) -> str:
    """Cards that make no meld at all: which shape they miss, in a few words, and
    what is legal now (one line a player reads at once, the rule book's long
    sentence being on the ``rules`` page)."""
    cards = action.cards
    rummy = state.rules.melds == "rummy"
    suits = {c.suit for c in cards}
    ranks = {c.rank for c in cards}
    if len(cards) < 3 and not (len(ranks) == 1 and len(cards) == 2):
        kq = ranks == {11, 12} and not rummy  # a queen and a king, of two suits
        why = "a marriage is a king and queen of one suit" if kq else _two_cards(state)
    elif len(ranks) == 1:
        why = "a group is three or four of one rank"
    elif len(suits) == 1:
        why = "a run goes in sequence, ace low"
    else:
        why = "a run is of one suit, a group of one rank"
    # What may go down, rather than every discard the play step also allows.
    plays = [move for move in legal if move[0] in (MELD, PLAY)] or legal
    legal_now = choices(state, plays, limit=2)
    if len(plays) < len(legal):  # optional melding: the turn may also just end
        ends = any(move[0] in (DISCARD, DISCARD_DOWN) for move in legal)
        legal_now += ", or discard" if ends else ", or end"
    return f"{format_cards(action.mask)} is not a meld: {why}; legal now: {legal_now}"


def _two_cards(state: HandState) -> str:
    """What two cards of two ranks miss, as the rule set in force has it: a marriage
    is a meld of two where marriages count, and some rule sets let a two-card run go
    out like a pair."""
    rules = state.rules
    why = (
        "a meld takes three cards"
        if rules.melds == "rummy"
        else "a meld is three cards, or a marriage"
    )
    if rules.final_two_run:
        why += "; a two-card run only to go out"
    return why


def _taken_two(state: HandState) -> str:
    return format_cards(state.req)


def drawn_already(state: HandState, legal: list[Move]) -> str:
    """A second draw in one turn: what the turn allows now, each kind of move once with
    an example (``now meld or discard, such as meld KC QC or discard 4H``)."""
    examples: dict[str, str] = {}  # one move of each kind, in the order they are legal
    for move in legal:
        action = state.action_of(move)
        examples.setdefault(action.kind.value, str(action))
    if not examples:
        return "you have already drawn this turn"
    return (
        f"you have already drawn this turn: now {_either(list(examples))}, "
        f"such as {_either(list(examples.values()))}"
    )


def _either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _explain_draw(state: HandState, kind: ActionKind, legal: list[Move]) -> str:
    if state.phase != DRAW_PHASE:
        if state.turns == 0:
            return "you hold the extra card and play first: there is no draw on this turn"
        if state.last_turn and any(e[1] == SKIP_DRAW for e in state.log):
            return "there is no card left to draw: play your last turn from your hand"
        return drawn_already(state, legal)
    if kind is ActionKind.DRAW:
        return "the stock is empty and the discard pile has no cards to rebuild it"
    if not state.pile:
        return "the discard pile is empty: draw from the stock"
    if state.pile_down:
        return "the top discard is face down: draw from the stock"
    if kind is ActionKind.TAKE_TWO:
        if len(state.pile) < 2:
            return "take 2 needs two cards on the discard pile, and there is one"
        two = format_cards((1 << state.pile[-1]) | (1 << state.pile[-2]))
        return f"take 2 needs both cards to be playable this turn: {two} cannot both be played"
    return f"that draw is not possible now ({choices(state, legal)})"


def _explain_meld(state: HandState, action: Action, hand: int, legal: list[Move]) -> str:
    mask = action.mask
    cards = format_cards(mask)
    if mask & JACKS:
        jack = format_cards(mask & JACKS)
        return f"jacks are never part of a meld: play {jack} alone"
    shape = meld_kind(mask)
    if shape is None:
        return not_a_meld(state, action, legal)
    if shape is PieceKind.PAIR:
        left = (hand & ~mask).bit_count()
        extra = " (discard the other card first, then lay the pair)" if left == 1 else ""
        return (
            f"a pair may be laid only when it takes you out: you would still hold "
            f"{left} card{'s' if left != 1 else ''}{extra}"
        )
    if mask not in rule_melds(hand):
        left, whole = _column_left(hand, mask)
        belongs = "it belongs" if left.bit_count() == 1 else "they belong"
        return (
            f"meld {cards} would leave {format_cards(left)} in your hand, but {belongs} in "
            f"that column: The Rule lays the whole column (meld {format_cards(whole)})"
        )
    if state.req:
        return (
            f"you took {_taken_two(state)} from the discard pile: both must be played "
            f"this turn, and after meld {cards} they could not be"
        )
    return f"meld {cards} is not legal now"


def _column_left(hand: int, mask: int) -> tuple[int, int]:
    """The cards of ``hand`` that meld ``mask`` would wrongly leave behind, and the
    meld grown by them until it leaves none: what The Rule lays instead."""
    left = 0
    whole = mask
    while True:
        stray = hand & MELDS[whole][1] & ~JACKS & ~meldable(hand & ~whole)
        if not stray:
            return left, whole
        left |= stray
        whole |= stray


def _explain_play(state: HandState, card: Card, hand: int, legal: list[Move]) -> str:
    bit = card.bit
    if bit & meldable(hand):
        holding = [m for m in melds_in(hand) if m & bit]
        best = max(holding, key=lambda m: m.bit_count())
        shape = meld_kind(best)
        label = shape.label if shape is not None else "meld"
        return f"{card} is in the {label} {format_cards(best)} you hold: meld it first (The Rule)"
    if not state.accept & bit:
        return f"{card} cannot be played: nothing on the table takes it"
    return f"play {card} is not legal now ({choices(state, legal)})"


def _explain_discard(state: HandState, action: Action, hand: int, legal: list[Move]) -> str:
    card = action.cards[0]
    bit = card.bit
    playable = [m for m in legal if m[0] in (MELD, PLAY)]
    if playable:
        return f"you still have playable cards: {choices(state, playable)}"
    if state.req & bit:
        return (
            f"you took {_taken_two(state)} from the discard pile together: both must be "
            "played this turn, and neither may be discarded"
        )
    if state.keep & bit and hand.bit_count() > 1:
        return (
            f"you took {card} from the discard pile this turn: you may not discard it "
            "(unless it is your last card)"
        )
    # The same card the other way up.
    twin = to_move(Action(ActionKind.DISCARD, action.cards, down=not action.down))
    if twin in legal:  # the card may go, but the other way up (rule sets of your own)
        name = state.rules.name
        if not action.down:
            return f"in {name} the discard that takes you out goes face down: discard {card} down"
        if not state.rules.out_down:
            return f"in {name} every discard goes face up: discard {card}"
    if state.last_turn:
        return (
            "this is your last turn: you may discard only to go out "
            "(your last card, or one card to leave a pair to lay)"
        )
    if state.req:
        return (
            f"you took {_taken_two(state)} from the discard pile together and must still "
            "play them: the only discard allowed is one that leaves a pair to go out with"
        )
    if action.down and twin in legal:
        return (
            "only a discard that takes you out may go face down: your last card, "
            "or the card you discard before laying your last pair"
        )
    return f"discard {card} is not legal now ({choices(state, legal)})"
