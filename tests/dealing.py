"""Helpers that let a test deal exactly the cards it needs and play a script.

Tests import them by name (``from dealing import deal, run``); conftest.py holds no helpers.
"""

from __future__ import annotations

import random

import pytest

import umtali
from umtali.engine.cards import CARDS, Card
from umtali.engine.hand import machine_of


def deal(p1: str, p2: str, top: str = "", *, eleven: int = 1, seed: int = 0) -> umtali.Hand:
    """An explicit deal: the hands as text, ``top`` the first stock cards (top first).

    The rest of the deck follows ``top`` in an order fixed by ``seed``.
    """
    named = [Card.parse(t) for t in (p1 + " " + p2 + " " + top).split()]
    rest = [c for c in CARDS if c not in set(named)]
    random.Random(seed).shuffle(rest)
    stock = [Card.parse(t) for t in top.split()] + rest
    return umtali.deal_hand(p1.split(), p2.split(), stock, dealer=eleven, eleven=eleven, seed=seed)


def run(hand: umtali.Hand, script: str) -> umtali.Hand:
    """Play a script of actions separated by semicolons."""
    for text in script.split(";"):
        if text.strip():
            hand.play(text)
    return hand


def refused(hand: umtali.Hand, action: str) -> str:
    """Play an action that must be refused; return the reason, checking nothing changed."""
    before = (
        hand.actions(),
        machine_of(hand).hands[:],
        hand.pile[:],
        machine_of(hand).stock[:],
        hand.scores,
    )
    with pytest.raises(umtali.IllegalAction) as info:
        hand.play(action)
    assert (
        hand.actions(),
        machine_of(hand).hands[:],
        hand.pile[:],
        machine_of(hand).stock[:],
        hand.scores,
    ) == before
    return str(info.value)


def cards(text: str) -> set[str]:
    return set(text.split())


def deal_in(
    rules: str, p1: str, p2: str, up: str, top: str = "", *, dealer: int = 2, seed: int = 0
) -> umtali.Hand:
    """An explicit deal under rules with an up-card: ``up`` starts the discard pile.

    Player 1 is the non-dealer (with the default ``dealer=2``) and plays first;
    ``top`` are the next stock cards, top first.
    """
    named = [Card.parse(t) for t in (p1 + " " + p2 + " " + up + " " + top).split()]
    rest = [c for c in CARDS if c not in set(named)]
    random.Random(seed).shuffle(rest)
    stock = [Card.parse(t) for t in (up + " " + top).split()] + rest
    return umtali.deal_hand(p1.split(), p2.split(), stock, dealer=dealer, rules=rules, seed=seed)
