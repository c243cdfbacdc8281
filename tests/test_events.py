"""The typed event stream: what each seat sees, turn by turn, and the words made from it."""

from __future__ import annotations

import random

import pytest
from dealing import deal, run

import umtali
from umtali.bots.knowledge import Knowledge
from umtali.engine.cards import Card
from umtali.engine.events import NOT_PLAYED, Event, EventKind
from umtali.engine.hand import machine_of
from umtali.ui.narrate import phrase
from umtali.ui.theme import DEFAULT_THEME, Theme


def C(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def test_each_event_says_who_what_which_cards_from_where_and_the_turn() -> None:
    hand = deal("9C 9D 9H 5S 2C 3D 4H 7C 8D QH KS", "AS 2S 3S 6H 7H 8H JD 10C 4C 5C", "6C")
    run(hand, "meld 9H 9D 9C; discard 2C; take; meld 3S 2S AS; play JD")
    ev = hand.events()
    assert ev[0] == Event(1, EventKind.MELD, 1, C("9H 9D 9C"))
    assert ev[1] == Event(1, EventKind.DISCARD, 1, C("2C"))
    assert ev[2] == Event(2, EventKind.TAKE, 2, C("2C"))
    assert ev[3] == Event(2, EventKind.MELD, 2, C("3S 2S AS"))
    assert ev[4] == Event(2, EventKind.PLAY, 2, C("JD"))  # a jack goes off nothing
    assert [e.source for e in ev] == ["hand", "hand", "pile", "hand", "hand"]
    assert not any(e.down or e.hidden for e in ev)


def test_the_opponents_stock_draw_and_face_down_discard_show_no_card() -> None:
    hand = deal("9C 9D 9H 5S 2C 3D 4H 7C 8D QH KS", "AS 2S 3S 6H 7H 8H JD 10C 4C 5C", "6C")
    run(hand, "meld 9H 9D 9C; discard 2C; draw")
    drew = hand.events(viewer=2)[-1]
    assert drew.kind is EventKind.DRAW and drew.cards == C("6C") and not drew.hidden
    seen = hand.events(viewer=1)[-1]
    assert seen.kind is EventKind.DRAW and seen.cards == () and seen.hidden
    assert str(seen) == "draw" and "6C" not in str(hand.view(1).history)
    assert hand.view(1).events == hand.events(viewer=1)
    # The whole stream, seen by nobody in particular, shows every card (for study).
    assert hand.events()[-1].cards == C("6C")


def test_a_face_down_discard_is_hidden_from_the_other_seat_only() -> None:
    hand = umtali.deal_hand(
        ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "4D"],
        ["KH", "QS", "2H", "5H", "7C", "9C", "2D", "6D", "8D", "AC"],
    )
    hand.play("meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
    assert umtali.Action.parse("discard 4D down") in hand.legal()
    hand.play(umtali.Action.parse("discard 4D down"))
    mine, theirs = hand.events(viewer=1)[-1], hand.events(viewer=2)[-1]
    assert mine.down and mine.cards == C("4D") and not mine.hidden
    assert theirs.down and theirs.cards == () and theirs.hidden
    assert phrase(theirs, DEFAULT_THEME) == "discarded face down"


def test_history_words_are_made_from_the_events() -> None:
    rng = random.Random(5)
    for seed in range(6):
        hand = umtali.deal_hand(
            seed=seed, rules=("classic", "family", "practical", "rummy")[seed % 4]
        )
        while not hand.is_over:
            hand.play(rng.choice(hand.legal()))
        assert hand.history() == [(e.player, str(e)) for e in hand.events()]
        for viewer in (1, 2):
            view = hand.view(viewer)
            assert view.history == tuple((e.player, str(e)) for e in view.events)
        turns = [e.turn for e in hand.events()]
        assert turns == sorted(turns) and turns[0] == 1
        players = {e.turn: e.player for e in hand.events()}
        assert all(players[t] != players[t + 1] for t in players if t + 1 in players)


def test_narration_reads_events_not_words() -> None:
    theme = Theme(ascii=True)
    hand = deal("9C 9D 9H 5S 2C 3D 4H 7C 8D QH KS", "AS 2S 3S 6H 7H 8H JD 10C 4C 5C", "6C")
    run(hand, "meld 9H 9D 9C; discard 2C; draw")
    assert phrase(hand.events(viewer=1)[-1], theme) == "drew from the stock"
    assert phrase(hand.events(viewer=2)[-1], theme) == "drew 6C"
    assert phrase(hand.events()[0], theme) == "melded 9H 9D 9C"
    assert phrase(hand.events()[0], DEFAULT_THEME) == "melded 9♥ 9♦ 9♣"
    assert phrase(hand.events()[1], theme) == "discarded 2C"
    # A reworded description would change nothing the narration or the bots read.
    assert all(e.kind not in NOT_PLAYED for e in hand.events())


def test_the_bots_inference_reads_the_opponents_face_up_discards_from_events() -> None:
    hand = deal("9C 9D 9H 5S 2C 3D 4H 7C 8D QH KS", "AS 2S 3S 6H 7H 8H JD 10C 4C 5C", "6C")
    run(hand, "meld 9H 9D 9C; discard 2C")
    know = Knowledge.of(hand.view(2))
    # The opponent let 2C go, so the cards 2C would take are thought less likely in their hand.
    assert know.opp_unlikely & Card.parse("3C").bit


def test_the_actions_a_record_keeps_are_read_from_the_events() -> None:
    rng = random.Random(11)
    for seed in range(8):
        rules = ("classic", "family", "practical", "rummy")[seed % 4]
        hand = umtali.deal_hand(seed=seed, rules=rules)
        while not hand.is_over:
            hand.play(rng.choice(hand.legal()))
        played = hand.played()
        assert [str(a) for a in played] == hand.actions()
        assert len(played) == sum(e.kind not in NOT_PLAYED for e in hand.events())
        assert machine_of(umtali.replay(hand.deal, played, rules)).log == machine_of(hand).log
    # A viewer's event whose card is hidden says so instead of guessing an action.
    hidden = Event(2, EventKind.DISCARD, 4, (), down=True)
    assert hidden.hidden and hidden.action is None
    assert Event(2, EventKind.DRAW, 4).action == umtali.Action.parse("draw")


@pytest.mark.parametrize(
    "variant,seeds",
    [
        ("classic", range(10)),
        ("family", range(10)),
        ("rummy", range(10)),
        ("practical", range(115, 125)),
    ],
)
def test_play_returns_the_action_as_the_events_have_it(variant: str, seeds: range) -> None:
    """What ``play`` returns is what the record writes (a listener saves it as given),
    even where a play typed without its target is followed by the table's own entry
    (practical seed 120: the opponent's last turn has nothing to draw)."""
    for seed in seeds:
        rng = random.Random(seed)
        hand = umtali.deal_hand(seed=seed, rules=variant)
        while not hand.is_over:
            text = rng.choice(hand.legal_actions())
            if " on " in text and rng.random() < 0.5:
                short = text.split(" on ")[0]
                try:
                    hand.clone().play(short)
                    text = short
                except umtali.IllegalAction:
                    pass
            assert hand.play(text) == hand.played()[-1], (seed, text)


def test_one_table_ties_each_move_kind_to_its_action_and_its_event() -> None:
    from umtali.engine.actions import ActionKind
    from umtali.engine.cards import mask_of
    from umtali.engine.kinds import ACTION_OF_EVENT, ARITY, EVENT_OF_MOVE, KINDS
    from umtali.engine.moves import MoveKind, to_action

    assert sorted(m for m, _, _ in KINDS) == list(MoveKind)  # each move kind, once
    assert {a for _, a, _ in KINDS if a is not None} == set(ActionKind)
    assert {e for _, _, e in KINDS} == set(EventKind)
    cards = {
        n: tuple(Card.parse(w) for w in words.split())
        for n, words in enumerate(["", "5H", "7S 6S 5S"])
    }
    for move, action, event in KINDS:
        assert EVENT_OF_MOVE[move] is event
        if action is None:
            assert event in NOT_PLAYED
            continue
        mask = mask_of(cards[2 if action is ActionKind.MELD else ARITY[action]])
        assert to_action((move, mask)).kind is action
        assert ACTION_OF_EVENT[event] is action
    # And every event of a game played gives back an action of the kind the table says.
    from umtali.bots import EasyBot, NormalBot
    from umtali.bots.arena import play_game

    game = umtali.Game(seed=2)
    for hand in play_game(game, [NormalBot(), EasyBot(2)]).hands:
        for e in hand.events():
            if e.action is not None:
                assert e.action.kind is ACTION_OF_EVENT[e.kind]
