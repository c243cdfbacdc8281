"""Invariant checks for any hand in any state: the engine's self-audit.

The random-playout tests call :func:`audit` after every action, and a soak
benchmark can do the same at scale.  Each check returns plain sentences
describing what is wrong, so a failure reads like a bug report.

The invariants:

* every one of the 52 cards is in exactly one place;
* the running scores equal the scores recomputed from the table (and the
  forfeits, once the hand is over);
* what ``legal_actions()`` lists and what ``play`` accepts agree, probed
  with candidate actions both legal and not, and a refusal changes nothing;
* the legal moves are the same when worked out afresh, without what the
  state keeps from earlier answers (the melds of a hand);
* the takes from the discard pile that are offered (classic's top two,
  family's next card, practical's deep takes) are exactly those a plain search
  over the turn allows, with none of the engine's quick refusals;
* neither player's view holds a card of the opponent's hand that was not
  taken openly from the discard pile, nor any unseen card of the stock (a
  view carries the stock's size, never its order);
* the hand has not run past its turn limit.
"""

from __future__ import annotations

import random

from umtali.engine.actions import Action
from umtali.engine.cards import CARDS, Card, format_cards, plain_points, rummy_points
from umtali.engine.errors import IllegalAction
from umtali.engine.hand import Hand, machine_of
from umtali.engine.melds import PieceKind, is_pair, meldable, melds_in, rummy_melds_in
from umtali.engine.moves import DRAW, MELD, PLAY, TAKE, TAKE_FROM, Move, move_text
from umtali.engine.optional import TAKE_NEXT_MOVE, OptionalState
from umtali.engine.reach import can_play_all
from umtali.engine.state import DRAW_PHASE, OVER, PLAY_PHASE, TAKE_TWO_MOVE
from umtali.engine.view import PlayerView


def audit(hand: Hand, rng: random.Random, probes: int = 2) -> list[str]:
    """Every invariant violated by ``hand`` now (an empty list when sound)."""
    problems = check_cards(hand) + check_scores(hand) + check_views(hand)
    problems += check_takes(hand) + check_fresh(hand) + check_agreement(hand, rng, probes)
    if hand.turns > hand.rules.turn_limit:
        problems.append(f"the hand ran to {hand.turns} turns, past its limit")
    return problems


def check_fresh(hand: Hand) -> list[str]:
    """What the state keeps (a hand's melds) against meldable itself, and the
    legal moves against those of a copy that has forgotten what it kept."""
    problems = []
    machine = machine_of(hand)
    if machine.mel_of >= 0 and machine.mel != meldable(machine.mel_of):
        problems.append("the kept melds of a hand are not meldable(hand): a kept answer is stale")
    fresh = machine.clone()
    fresh.mel_of = -1
    if fresh.legal_moves() != machine.legal_moves():
        problems.append("the legal moves differ when worked out afresh: a kept answer is stale")
    return problems


def check_takes(hand: Hand) -> list[str]:
    """Takes offered from the discard pile against a plain search of the turn."""
    machine = machine_of(hand)
    pile = machine.pile
    if machine.phase == OVER or machine.pile_down or not pile:
        return []
    moves = set(machine.legal_moves())
    held = machine.hands[machine.mover]
    top = 1 << pile[-1]
    drawing = machine.phase == DRAW_PHASE and len(pile) >= 2
    want: dict[Move, bool] = {}
    if not isinstance(machine, OptionalState):
        if drawing:
            two = top | 1 << pile[-2]
            want[TAKE_TWO_MOVE] = can_play_all(held | two, machine.accept, two)
    elif hand.rules.take_deep and drawing:
        whole = held | top
        for index in reversed(pile[:-1]):
            whole |= 1 << index
            want[(TAKE_FROM, 1 << index)] = _lays(machine, whole, 1 << index, top)
    elif hand.rules.take_next and machine.phase == PLAY_PHASE:
        can = machine.taken and not machine.followed and not held & machine.taken
        want[TAKE_NEXT_MOVE] = bool(can) and _lays(machine, held | top, top, machine.keep)
    return [
        f"{'offered' if move in moves else 'refused'} {move_text(move)}, "
        f"which a search of the turn {'refuses' if move in moves else 'allows'}"
        for move, allowed in want.items()
        if (move in moves) != allowed
    ]


def _lays(hand: OptionalState, whole: int, card: int, keep: int) -> bool:
    return hand.finishes(whole, hand.table(), card, keep, hand.cards_left_after_final())


def check_cards(hand: Hand) -> list[str]:
    if machine_of(hand).cards_accounted():
        return []
    return ["the 52 cards are not each in exactly one place"]


def check_scores(hand: Hand) -> list[str]:
    if hand.rules.hand_scoring:
        return _check_hand_scores(hand)
    problems = []
    machine = machine_of(hand)
    for seat in (0, 1):
        points = 0
        for kind, mask, _, _ in machine.sides[seat]:
            if kind == PieceKind.MARRIAGE:
                points += 2 * hand.rules.marriage_card_points
            else:
                points += plain_points(mask)
        if seat == machine.out and machine.phase == OVER:
            points += plain_points(machine.forfeit)
        if points != machine.score(seat):
            problems.append(
                f"player {seat + 1} has {machine.score(seat)} points but the table says {points}"
            )
    return problems


def _check_hand_scores(hand: Hand) -> list[str]:
    """Rummy: only the player who went out scores, the other hand's value, doubled for rummy."""
    expect = [0, 0]
    machine = machine_of(hand)
    if machine.phase == OVER and machine.out >= 0:
        out = machine.out
        log = machine.log
        # Their last turn began with their last draw; anything laid before it spoils rummy.
        start = max((n for n, e in enumerate(log) if e[0] == out and e[1] in _DRAWS), default=0)
        before = any(e[0] == out and e[1] in (MELD, PLAY) for e in log[:start])
        value = rummy_points(machine.forfeit)
        expect[out] = value if before else 2 * value
    scores = hand.scores
    return [
        f"player {seat + 1} has {scores[seat]} points but the hands say {expect[seat]}"
        for seat in (0, 1)
        if scores[seat] != expect[seat]
    ]


_DRAWS = (DRAW, TAKE, 9, 10)  # 9 and 10: take next / take <card> (optional machine)


def _cards_in_view(view: PlayerView) -> set[Card]:
    seen = set(view.hand) | set(view.opponent_known)
    for side in view.sides:
        for piece in side:
            seen.update(piece.cards)
            if piece.off is not None:
                seen.add(piece.off)
    if view.discard_top is not None:
        seen.add(view.discard_top)
    for event in view.events:
        seen.update(event.cards)
        if event.onto is not None:
            seen.add(event.onto)
    return seen


def check_views(hand: Hand) -> list[str]:
    problems = []
    # Cards shuffled back into the stock from the discard pile were seen face
    # up by both players, so only the rest of the stock must stay unseen.
    recycled = {CARDS[i] for cards in machine_of(hand).rebuilds for i in cards}
    stock = {CARDS[i] for i in machine_of(hand).stock} - recycled
    for player in (1, 2):
        view = hand.view(player)
        seen = _cards_in_view(view)
        opponent = set(hand.cards_in_hand(3 - player))
        # A recycled card shows in the history as the old discard it was; that
        # says nothing about who drew it from the new stock.
        leaked = (seen & opponent) - set(view.opponent_known) - recycled
        if leaked:
            problems.append(f"player {player}'s view shows the opponent's {_names(leaked)}")
        if seen & stock:
            problems.append(f"player {player}'s view shows stock cards {_names(seen & stock)}")
        if list(view.hand) != hand.cards_in_hand(player):
            problems.append(f"player {player}'s view has the wrong hand")
    return problems


def _names(cards: set[Card]) -> str:
    return " ".join(sorted(str(c) for c in cards))


def candidate_actions(hand: Hand, rng: random.Random) -> list[str]:
    """Actions worth trying now: every draw, each card played or discarded, real
    melds, and a few random card sets that are mostly not melds."""
    machine = machine_of(hand)
    cards = hand.cards_in_hand(machine.mover + 1)
    out = ["draw", "take", "take 2", "take next", "end"]
    out += [f"take {c}" for c in hand.pile[-4:-1]]
    for c in cards:
        out += [f"play {c}", f"discard {c}", f"discard {c} down"]
    mask = machine.hands[machine.mover]
    finder = melds_in if hand.rules.jacks_alone else rummy_melds_in
    out += [f"meld {format_cards(m)}" for m in finder(mask)]
    if is_pair(mask):
        out.append(f"meld {format_cards(mask)}")
    if len(cards) <= 3:
        out += [f"meld {a} {b}" for a in cards for b in cards if a < b]
    for _ in range(2):
        if len(cards) >= 2:
            some = rng.sample(cards, rng.randint(2, min(4, len(cards))))
            out.append("meld " + " ".join(str(c) for c in some))
    return out


def _fingerprint(hand: Hand) -> tuple[object, ...]:
    machine = machine_of(hand)
    return (
        tuple(machine.hands),
        tuple(machine.stock),
        tuple(machine.pile),
        machine.pile_down,
        len(machine.log),
        machine.phase,
        machine.mover,
        hand.scores,
    )


def check_agreement(hand: Hand, rng: random.Random, probes: int) -> list[str]:
    """Probe ``play`` with candidates: accepted exactly when ``legal_actions`` lists them."""
    if hand.is_over:
        return []
    legal = set(hand.legal_actions())
    problems = []
    candidates = candidate_actions(hand, rng)
    picks = rng.sample(candidates, min(probes, len(candidates)))
    picks.append(rng.choice(sorted(legal)))
    for text in picks:
        canonical = str(Action.parse(text))
        if canonical in legal:
            trial = hand.clone()
            try:
                trial.play(text)
            except IllegalAction as refusal:
                problems.append(f"{text!r} is listed as legal but refused: {refusal}")
        else:
            before = _fingerprint(hand)
            try:
                hand.play(text)
            except IllegalAction:
                if _fingerprint(hand) != before:
                    problems.append(f"refusing {text!r} changed the hand")
            else:
                problems.append(f"{text!r} was accepted but is not listed as legal")
                break  # the hand has moved on; later probes would mislead
    return problems


__all__ = ["audit", "candidate_actions"]
