"""The public Hand shows values only: what a caller does to an answer never changes the game.

Every public name of :class:`umtali.Hand` is read here (each method with the
arguments it takes), its answer is vandalised as far as Python lets it be, and
the hand is checked to be exactly as it was.  The machine behind the hand
(``hand.machine``) is the one internal route to the live state, for the engine's
own modules, the bots and the UI; it is the only name left out.
"""

from __future__ import annotations

import copy
import dataclasses
import operator
import random
from collections.abc import Callable
from enum import Enum
from typing import Any

import pytest

import umtali
from umtali.engine.hand import Hand
from umtali.engine.rules import PRESETS

#: How each public method is asked (every argument it may take); properties take none.
CALLS: dict[str, tuple[tuple[Any, ...], ...]] = {
    "hand_of": ((1,), (2,)),
    "cards_in_hand": ((1,), (2,)),
    "side": ((1,), (2,)),
    "view": ((1,), (2,)),
    "events": ((), (None,), (1,), (2,)),
    "legal": ((),),
    "legal_actions": ((),),
    "history": ((),),
    "played": ((),),
    "actions": ((),),
    "clone": ((),),
}
#: Not windows: the one internal route, and the one way to act.
NOT_WINDOWS = {"machine", "play"}

PUBLIC = {
    "actions",
    "cards_in_hand",
    "clone",
    "deal",
    "end",
    "events",
    "forfeited",
    "hand_of",
    "history",
    "is_over",
    "last_turn",
    "legal",
    "legal_actions",
    "machine",
    "pile",
    "play",
    "played",
    "rules",
    "scores",
    "side",
    "step",
    "to_move",
    "turns",
    "view",
    "went_out",
}


def public_names() -> set[str]:
    return {name for name in dir(Hand) if not name.startswith("_")}


def test_the_hand_shows_few_names() -> None:
    assert len(public_names()) <= 35
    assert public_names() == PUBLIC  # a new public name is a decision: add it here


def _answers(hand: Hand) -> list[tuple[str, object]]:
    """Every window's answer now, each asked afresh."""
    out: list[tuple[str, object]] = []
    for name in sorted(public_names() - NOT_WINDOWS):
        attr = getattr(type(hand), name)
        if isinstance(attr, property):
            out.append((name, getattr(hand, name)))
            continue
        method: Callable[..., object] = getattr(hand, name)
        for args in CALLS[name]:
            out.append((f"{name}{args}", method(*args)))
    return out


def _comparable(answers: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """The answers that compare by value (a clone of the hand compares by identity)."""
    return [(name, answer) for name, answer in answers if not isinstance(answer, Hand)]


def _is_frozen(value: object) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen


def _vandalise(value: object) -> None:
    """Change ``value`` in every way Python allows; fail on a type not known to be safe."""
    if value is None or isinstance(value, (bool, int, str, Enum)):
        return
    if isinstance(value, list):
        for item in value:
            _vandalise(item)
        value.reverse()
        value.append(None)
        del value[:1]
        return
    if isinstance(value, tuple):
        for item in value:
            _vandalise(item)
        if value:
            _refused(TypeError, operator.setitem, value, 0, None)
        return
    if isinstance(value, frozenset):
        for item in value:
            _vandalise(item)
        return
    if isinstance(value, Hand):  # a clone: playing on it leaves the original alone
        if not value.is_over:
            value.play(value.legal()[0])
        return
    assert _is_frozen(value), f"{type(value).__name__} is not a value"
    for field in dataclasses.fields(value):  # type: ignore[arg-type]
        _vandalise(getattr(value, field.name))
        _refused(dataclasses.FrozenInstanceError, setattr, value, field.name, None)


def _refused(error: type[Exception], change: Callable[..., object], *args: object) -> None:
    """Assert that ``change(*args)`` raises ``error``: pytest.raises says the same, but
    its set-up cost, paid a million times over here, was most of this file's time."""
    try:
        change(*args)
    except error:
        return
    raise AssertionError(f"{change.__name__}{args!r} did not raise {error.__name__}")


def _machine_state(hand: Hand) -> dict[str, object]:
    """The machine's every slot, copied: what it holds now, kept apart from it."""
    return copy.deepcopy(_live_state(hand))


def _live_state(hand: Hand) -> dict[str, object]:
    """The machine's every slot as it is: compared with a copy made earlier, it says
    whether anything changed (a fresh deep copy of it would compare the same way)."""
    machine = hand.machine
    names = {n for cls in type(machine).__mro__ for n in getattr(cls, "__slots__", ())}
    return {n: getattr(machine, n) for n in sorted(names) if hasattr(machine, n)}


def _positions(rules: str) -> list[Hand]:
    """Hands met in random play: fresh, mid-hand with melds down, and over."""
    rng = random.Random(5)
    found = []
    for seed in range(2):
        hand = umtali.deal_hand(seed=seed, rules=rules)
        found.append(hand.clone())
        step = 0
        while not hand.is_over:
            hand.play(rng.choice(hand.legal()))
            step += 1
            if step % 9 == 0:
                found.append(hand.clone())
        found.append(hand)
    return found


@pytest.mark.parametrize("rules", PRESETS)
def test_nothing_done_to_an_answer_changes_the_hand(rules: str) -> None:
    for hand in _positions(rules):
        _answers(hand)  # what the machine keeps from answering is kept now
        state = _machine_state(hand)
        before = _comparable(_answers(hand))
        for name, answer in _answers(hand):
            _vandalise(answer)
            assert _live_state(hand) == state, f"changing {name}'s answer changed the hand"
        assert _comparable(_answers(hand)) == before


def test_the_old_live_lists_are_gone() -> None:
    """What the hand once lent out (its machine's own lists) is reached only through
    ``hand.machine``; the hand itself numbers its players 1 and 2."""
    hand = umtali.deal_hand(seed=7)
    for name in ("hands", "stock", "log", "sides", "table_points", "rebuilds", "mover", "dealer"):
        assert not hasattr(hand, name), name
    pile = hand.pile
    assert isinstance(pile, tuple) and isinstance(hand.forfeited, tuple)
    assert hand.to_move in (1, 2) and hand.went_out is None
