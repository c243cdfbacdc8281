"""The public Hand shows values only: what a caller does to an answer never changes the game.

Every public name of :class:`umtali.Hand` is read here (each method with the
arguments it takes), its answer is vandalised as far as Python lets it be, and
the hand is checked to be exactly as it was: that includes the copy of the machine
that :meth:`~umtali.Hand.state` lends a search, played on and written to.  The live
machine behind the hand has no public name: the engine's own modules reach it
through :func:`umtali.engine.hand.machine_of`, and a scan of the source checks that
nothing outside :mod:`umtali.engine` does.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import operator
import random
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

import umtali
from umtali.engine.hand import Hand, machine_of
from umtali.engine.rules import PRESETS
from umtali.engine.state import OVER, HandState

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
    "state": ((),),
}
#: Not a window: the one way to act.
NOT_WINDOWS = {"play"}

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
    "pile",
    "play",
    "played",
    "rules",
    "scores",
    "side",
    "state",
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
    """The answers that compare by value (a clone of the hand, or of its machine,
    compares by identity)."""
    return [(name, answer) for name, answer in answers if not isinstance(answer, (Hand, HandState))]


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
    if isinstance(value, HandState):  # a copy of the machine, lent to a search
        _vandalise_machine(value)
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


def _slots(machine: HandState) -> list[str]:
    names = {n for cls in type(machine).__mro__ for n in getattr(cls, "__slots__", ())}
    return [n for n in sorted(names) if hasattr(machine, n)]


def _vandalise_machine(machine: HandState) -> None:
    """Play on a machine a search was lent, then write into every list it holds, as
    far down as lists go."""
    if machine.phase != OVER:
        machine.apply_move(machine.legal_moves()[0])
    for name in _slots(machine):
        _scribble(getattr(machine, name))
        setattr(machine, name, None)


def _scribble(value: object) -> None:
    if isinstance(value, list):
        for item in value:
            _scribble(item)
        value.reverse()
        value.append(None)
        del value[:1]
    elif isinstance(value, (set, dict)):
        value.clear()


def _machine_state(hand: Hand) -> dict[str, object]:
    """The machine's every slot, copied: what it holds now, kept apart from it."""
    return copy.deepcopy(_live_state(hand))


def _live_state(hand: Hand) -> dict[str, object]:
    """The machine's every slot as it is: compared with a copy made earlier, it says
    whether anything changed (a fresh deep copy of it would compare the same way)."""
    machine = machine_of(hand)
    return {n: getattr(machine, n) for n in _slots(machine)}


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
    """What the hand once lent out (its machine, and the machine's own lists) has no
    public name; the hand itself numbers its players 1 and 2."""
    hand = umtali.deal_hand(seed=7)
    names = ("hands", "stock", "log", "sides", "table_points", "rebuilds", "mover", "dealer")
    for name in ("machine", *names):
        assert not hasattr(hand, name), name
    with pytest.raises(AttributeError):
        hand.machine = hand.state()  # type: ignore[attr-defined]
    pile = hand.pile
    assert isinstance(pile, tuple) and isinstance(hand.forfeited, tuple)
    assert hand.to_move in (1, 2) and hand.went_out is None


def test_a_search_plays_on_a_copy_of_the_machine() -> None:
    hand = umtali.deal_hand(seed=3)
    lent = hand.state()
    assert lent is not machine_of(hand) and lent.legal_moves() == machine_of(hand).legal_moves()
    before = _machine_state(hand)
    legal = hand.legal()
    _vandalise_machine(lent)
    assert _machine_state(hand) == before and hand.legal() == legal


ROOT = Path(umtali.__file__).parent
ENGINE = ROOT / "engine"
#: The names by which code reaches a hand's live machine.
LIVE = {"machine", "_machine", "machine_of"}


def _reaches_the_machine(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in LIVE:
            yield node.lineno, f".{node.attr}"
        elif isinstance(node, ast.Name) and node.id == "machine_of":  # a local `machine` is fine
            yield node.lineno, node.id
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in LIVE:
                    yield node.lineno, f"import {alias.name}"


def test_nothing_outside_the_engine_reaches_a_hands_machine() -> None:
    """Outside :mod:`umtali.engine` no module names the live machine (a search asks
    :meth:`~umtali.Hand.state` for a copy): no attribute ``.machine`` or ``._machine``,
    of a hand or of anything else (the scan cannot tell types, so it allows none), and
    no ``machine_of``."""
    found = [
        f"{path.relative_to(ROOT.parent)}:{line}: {what}"
        for path in sorted(ROOT.rglob("*.py"))
        if ENGINE not in path.parents
        for line, what in _reaches_the_machine(ast.parse(path.read_text(), str(path)))
    ]
    assert found == []
    # The scan sees what it looks for: the engine's own modules are found by it.
    audit = ENGINE / "audit.py"
    assert list(_reaches_the_machine(ast.parse(audit.read_text())))
