"""What a seat observes of an episode: strings and tensors, made from its view alone.

Every string and tensor here is built from :meth:`Episode.view` (during the deal,
from the cards dealt to that seat), so nothing a seat has not seen can reach it:
the opponent's hand, their stock draws, a face-down discard and the stock stay out.

**The observation tensor** (``OBS_SIZE`` = 9 × 52 + 15 = 483 floats) is nine planes
of 52 cards (bit ``13 * suit + rank``, suits S H D C, ranks A to K) and 15 numbers:

======================  =====================================================
``hand``                the cards this seat holds
``my_side``             the cards on this seat's side of the table
``their_side``          the cards on the opponent's side
``pile``                the face-up cards of the discard pile
``pile_top``            its top card, if face up (the one ``take`` takes)
``their_known``         cards the opponent holds that they took openly
``must_play``           the two cards taken by ``take 2`` still to play
``taken``               the card taken this turn that may not be discarded
``unseen``              cards this seat cannot place (opponent or stock)
``numbers`` (15)        my move; the step as my view has it (draw, play,
                        discard, over: ``discard`` on my own move only); last
                        turn; I went out; they went out; the pile's top lies
                        face down; stock size / 52; their hand size / 52; my
                        score / 100; their score / 100; turns / turn limit;
                        the deal still going on
======================  =====================================================

**The information-state tensor** (``INFO_SIZE`` = 483 + 4 × 52 = 691) adds what the
seat remembers of play: the cards the opponent threw face up, my face-up discards
they passed over (drawing from the stock instead), the cards they took from the
pile, and my own face-up discards.  It summarises the history, it does not replay
it (the order of events is lost); the information-state *string* is the whole
history as the seat saw it, and is what a search keys its nodes on.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from umtali.engine.cards import FULL_DECK, mask_of
from umtali.engine.events import EventKind
from umtali.engine.view import PlayerView, Step
from umtali.research.episode import Episode, card_list

PLANES: tuple[str, ...] = (
    "hand",
    "my_side",
    "their_side",
    "pile",
    "pile_top",
    "their_known",
    "must_play",
    "taken",
    "unseen",
)
HISTORY_PLANES: tuple[str, ...] = ("they_threw", "they_passed", "they_took", "i_threw")
NUMBERS = 15
OBS_SIZE = 52 * len(PLANES) + NUMBERS
INFO_SIZE = OBS_SIZE + 52 * len(HISTORY_PLANES)
_STEPS = (Step.DRAW, Step.PLAY, Step.DISCARD, Step.OVER)

Tensor = npt.NDArray[np.float32]


def pieces(tensor: Tensor, history: bool) -> dict[str, Tensor]:
    """Named views into a flat tensor (writing to one writes to the tensor)."""
    names = PLANES + (HISTORY_PLANES if history else ())
    out = {name: tensor[52 * n : 52 * (n + 1)] for n, name in enumerate(PLANES)}
    at = 52 * len(PLANES)
    out["numbers"] = tensor[at : at + NUMBERS]
    at += NUMBERS
    for name in names[len(PLANES) :]:
        out[name] = tensor[at : at + 52]
        at += 52
    return out


def _bits(plane: Tensor, mask: int) -> None:
    while mask:
        low = mask & -mask
        plane[low.bit_length() - 1] = 1.0
        mask ^= low


def _side(view: PlayerView, player: int) -> int:
    return mask_of(c for piece in view.sides[player - 1] for c in piece.cards)


def fill(named: Mapping[str, Tensor], episode: Episode, seat: int) -> None:
    """Write ``seat``'s observation of ``episode`` into ``named`` (from :func:`pieces`),
    every entry cleared first; the history planes only if ``named`` has them."""
    for part in named.values():
        part.fill(0.0)
    if episode.dealing:
        hand = episode.hand_of(seat)
        _bits(named["hand"], hand)
        _bits(named["unseen"], FULL_DECK & ~hand)
        named["numbers"][14] = 1.0
        return
    view = episode.view(seat)
    hand = mask_of(view.hand)
    mine, theirs = _side(view, view.player), _side(view, view.opponent)
    pile = mask_of(view.discard_pile)
    known = mask_of(view.opponent_known)
    for name, mask in (
        ("hand", hand),
        ("my_side", mine),
        ("their_side", theirs),
        ("pile", pile),
        ("pile_top", view.discard_top.bit if view.discard_top else 0),
        ("their_known", known),
        ("must_play", mask_of(view.must_play)),
        ("taken", view.taken.bit if view.taken else 0),
        ("unseen", FULL_DECK & ~(hand | mine | theirs | pile | known)),
    ):
        _bits(named[name], mask)
    numbers = named["numbers"]
    numbers[0] = float(view.to_move == view.player)
    numbers[1 + _STEPS.index(view.step)] = 1.0
    numbers[5] = float(view.last_turn)
    numbers[6] = float(view.went_out == view.player)
    numbers[7] = float(view.went_out == view.opponent)
    numbers[8] = float(view.discard_down)
    numbers[9] = view.stock_size / 52
    numbers[10] = view.opponent_hand_size / 52
    numbers[11] = view.scores[seat] / 100
    numbers[12] = view.scores[1 - seat] / 100
    numbers[13] = view.turns / view.rules.turn_limit
    if "they_threw" in named:
        _remembered(named, view)


def _remembered(named: Mapping[str, Tensor], view: PlayerView) -> None:
    """The history planes: what each seat threw, passed over and took."""
    me = view.player
    mine_up = -1  # my face-up discard, until the opponent draws or takes
    for e in view.events:
        if e.player == me:
            if e.kind is EventKind.DISCARD and e.cards and not e.down:
                mine_up = e.cards[0].index
                named["i_threw"][mine_up] = 1.0
            continue
        if e.kind is EventKind.DRAW and mine_up >= 0:
            named["they_passed"][mine_up] = 1.0
        elif e.kind is EventKind.DISCARD and e.cards and not e.down:
            named["they_threw"][e.cards[0].index] = 1.0
        elif e.kind.is_take:
            for card in e.cards:
                named["they_took"][card.index] = 1.0
        mine_up = -1


def observation_string(episode: Episode, seat: int) -> str:
    """What ``seat`` sees now, in a line (no history)."""
    rules = episode.rules.name
    if episode.dealing:
        return f"{rules} seat {seat} dealing: {card_list(episode.hand_of(seat))}"
    view = episode.view(seat)
    top = "face down" if view.discard_down else str(view.discard_top or "-")
    sides = [" ".join(str(p) for p in side) or "-" for side in view.sides]
    known = " ".join(str(c) for c in view.opponent_known) or "-"
    return (
        f"{rules} seat {seat} {view.step.value}"
        f"{' last turn' if view.last_turn else ''} | hand {card_list(mask_of(view.hand))}"
        f" | mine {sides[seat]} | theirs {sides[1 - seat]}"
        f" | pile {view.discard_size} top {top} | stock {view.stock_size}"
        f" | they hold {view.opponent_hand_size} known {known}"
        f" | score {view.scores[seat]}-{view.scores[1 - seat]}"
    )


def information_state_string(episode: Episode, seat: int) -> str:
    """Everything ``seat`` has seen, in order: its hand now and every event as it saw
    it (its hand now and its own moves give back the cards it was dealt)."""
    rules = episode.rules.name
    if episode.dealing:
        others = sum(1 for who in episode.order[: len(episode.dealt)] if who != seat)
        return f"{rules} seat {seat} dealt {card_list(episode.hand_of(seat))} | {others} elsewhere"
    view = episode.view(seat)
    lines = [f"{rules} seat {seat} hand {card_list(mask_of(view.hand))}"]
    lines += [f"{e.player}: {e}" for e in view.events]
    if episode.drawing:
        lines.append("(a card is being drawn)")
    return "\n".join(lines)


__all__ = [
    "HISTORY_PLANES",
    "INFO_SIZE",
    "NUMBERS",
    "OBS_SIZE",
    "PLANES",
    "fill",
    "information_state_string",
    "observation_string",
    "pieces",
]
