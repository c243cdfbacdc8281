"""Notation for cards and actions: what is read, what is refused, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import umtali
from umtali import Action, ActionKind, Card
from umtali.engine.cards import CARDS


@pytest.mark.parametrize(
    "text,card",
    [
        ("10S", "10S"),
        ("ts", "10S"),
        ("qd", "QD"),
        ("A♥", "AH"),
        ("k♣", "KC"),
        (" 7h ", "7H"),
        ("J♦", "JD"),
        ("2♠", "2S"),
    ],
)
def test_cards_read_in_every_accepted_form(text: str, card: str) -> None:
    assert str(Card.parse(text)) == card


@pytest.mark.parametrize("text", ["", "1S", "11H", "QX", "Q", "S", "10", "QQS", "♥A"])
def test_bad_cards_are_refused_with_the_text_quoted(text: str) -> None:
    with pytest.raises(umtali.InvalidNotation, match="is not a card"):
        Card.parse(text)


@given(st.sampled_from(CARDS))
def test_card_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol()) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("draw", "draw"),
        ("TAKE", "take"),
        ("take 2", "take 2"),
        ("meld 5s 7s 6s", "meld 7S 6S 5S"),
        ("meld KH, QH", "meld KH QH"),
        ("play jd", "play JD"),
        ("play 10d on jd", "play 10D on JD"),
        ("discard 4c", "discard 4C"),
        ("discard 4c down", "discard 4C down"),
    ],
)
def test_actions_read_and_print_canonically(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "draw 2",
        "take 3",
        "meld",
        "meld 5S",
        "meld 5S 5S 5H",
        "play",
        "play 5S 6S",
        "play 5S in 6S",
        "discard",
        "discard 4C up",
        "discard 4C 5C",
        "meld 5S QX",
    ],
)
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(umtali.InvalidNotation):
        Action.parse(text)


def test_a_malformed_action_played_is_an_illegal_action_and_changes_nothing() -> None:
    hand = umtali.deal_hand(seed=1)
    before = hand.actions()
    with pytest.raises(umtali.IllegalAction) as info:
        hand.play("discrad 4C")
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, umtali.InvalidNotation)
    assert "'discrad 4C' is not an action" in str(info.value)
    assert hand.actions() == before


card_lists = st.lists(st.sampled_from(CARDS), min_size=2, max_size=6, unique=True)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(list(ActionKind)))
    if kind in (
        ActionKind.DRAW,
        ActionKind.TAKE,
        ActionKind.TAKE_TWO,
        ActionKind.TAKE_NEXT,
        ActionKind.END,
    ):
        return Action(kind)
    if kind is ActionKind.MELD:
        return Action(kind, tuple(draw(card_lists)))
    card = draw(st.sampled_from(CARDS))
    if kind is ActionKind.PLAY:
        others = [c for c in CARDS if c != card]
        return Action(kind, (card,), draw(st.none() | st.sampled_from(others)))
    if kind is ActionKind.TAKE_FROM:
        return Action(kind, (card,))
    return Action(kind, (card,), down=draw(st.booleans()))


@given(actions())
def test_action_round_trip(action: Action) -> None:
    assert Action.parse(str(action)) == action
    assert Action.parse(str(action).lower()) == action
    assert eval(repr(action)) == action


@pytest.mark.parametrize(
    "text,reason",
    [
        ("play AS on AS", "AS cannot be played on itself"),
        ("meld 5C 5C 5D", "a meld cannot name the same card twice"),
        ("meld 5C", "a meld has at least two cards"),
    ],
)
def test_an_action_that_cannot_exist_is_a_notation_error(text: str, reason: str) -> None:
    with pytest.raises(umtali.InvalidNotation) as info:
        Action.parse(text)
    assert str(info.value) == f"{text!r}: {reason}"
