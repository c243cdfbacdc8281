"""The expert's reading of the opponent: weighted, drawn from public play only."""

from __future__ import annotations

import dataclasses
import random

import pytest

import umtali
from umtali.bots import ExpertBot, NormalBot
from umtali.bots.inference import (
    FLOOR,
    HIGH_AFTER_HIGH,
    HIGH_AFTER_LOW,
    NEAR,
    TIES,
    read_opponent,
)
from umtali.bots.knowledge import Knowledge, Reading
from umtali.bots.seat import GameInfo
from umtali.engine.cards import RANK_MASKS, Card, mask_of
from umtali.engine.events import Event, EventKind
from umtali.engine.hand import machine_of
from umtali.engine.melds import SOLO_ACCEPTS, meldable

VARIANTS = ["classic", "family", "practical", "rummy"]


def _views(rules: str, seed: int):  # type: ignore[no-untyped-def]
    """Every view of the player to move through a hand of normal against normal."""
    hand = umtali.deal_hand(seed=seed, rules=rules)
    while not hand.is_over:
        player = hand.to_move
        assert player is not None
        view = hand.view(player)
        yield hand, view
        hand.play(NormalBot().choose(view, GameInfo()).action)


@pytest.mark.parametrize("rules", VARIANTS)
def test_worlds_drawn_from_the_reading_agree_with_everything_seen(rules: str) -> None:
    rng = random.Random(2)
    for seed in range(4):
        for hand, view in _views(rules, seed):
            know = Knowledge.of(view)
            read = read_opponent(view, know)
            truth = machine_of(hand).hands[2 - view.player]
            # A weight lowers a card's chance, never rules out one the opponent may hold.
            assert all(read.weights[i] >= FLOOR for i in range(52) if truth >> i & 1)
            world = know.sample_state(view, rng, read)
            assert world.cards_accounted()
            assert world.hands[view.player - 1] == machine_of(hand).hands[view.player - 1]
            assert world.hands[2 - view.player].bit_count() == truth.bit_count()
            assert world.legal_moves() == machine_of(hand).legal_moves()


def _with_events(view: umtali.PlayerView, *events: Event) -> umtali.PlayerView:
    return dataclasses.replace(view, events=events)


def test_what_the_opponent_discarded_passed_and_took_moves_the_weights() -> None:
    # Where melding is optional the weights are set by hand (see the next test for classic).
    view = umtali.deal_hand(seed=5, rules="family").view(1)
    know = Knowledge.of(view)
    seven, four, king = Card.parse("7H"), Card.parse("4C"), Card.parse("KS")
    discarded = read_opponent(view, know)
    assert set(discarded.weights) == {1.0}  # nothing seen yet, nothing read
    # The view's events are what is read; the knowledge only brings the table.
    discarded = read_opponent(_with_events(view, Event(2, EventKind.DISCARD, 1, (seven,))), know)
    near = [i for i in range(52) if SOLO_ACCEPTS[seven.index] >> i & 1]
    assert near and all(discarded.weights[i] < 1.0 for i in near)
    assert discarded.weights[king.index] == 1.0
    passed = read_opponent(
        _with_events(
            view,
            Event(1, EventKind.DISCARD, 1, (four,)),
            Event(2, EventKind.DRAW, 2),
        ),
        know,
    )
    assert all(passed.weights[i] < 1.0 for i in range(52) if NEAR[four.index] >> i & 1)
    took = read_opponent(
        _with_events(
            view, Event(1, EventKind.DISCARD, 1, (four,)), Event(2, EventKind.TAKE, 2, (four,))
        ),
        know,
    )
    assert all(took.weights[i] > 1.0 for i in range(52) if NEAR[four.index] >> i & 1)
    # A face-down discard shows no card: passing it says nothing.
    blind = read_opponent(
        _with_events(
            view, Event(1, EventKind.DISCARD, 1, (), down=True), Event(2, EventKind.DRAW, 2)
        ),
        know,
    )
    assert set(blind.weights) == {1.0}


def test_where_play_is_compulsory_the_fitted_weights_read_the_play() -> None:
    view = umtali.deal_hand(seed=5).view(1)
    know = Knowledge.of(view)
    assert set(read_opponent(view, know).weights) == {1.0}  # nothing seen yet, nothing read
    seven, four, king = Card.parse("7H"), Card.parse("4C"), Card.parse("KS")
    mates, ones, twos = TIES[seven.index]
    assert mates == RANK_MASKS[seven.index % 13] & ~(1 << seven.index)
    assert ones == mask_of(Card.parse(c) for c in ("6H", "8H"))
    assert twos == mask_of(Card.parse(c) for c in ("5H", "9H"))

    def weights(*events: Event) -> tuple[float, ...]:
        return read_opponent(_with_events(view, *events), know).weights

    threw = weights(Event(2, EventKind.DISCARD, 1, (seven,)))
    # A player keeps pairs: a rank-mate of their discard is the least likely, a
    # neighbour in its suit less likely than an unrelated low card.
    plain = threw[Card.parse("3D").index]
    assert all(threw[i] < threw[j] < plain for i in _cards(mates) for j in _cards(ones))
    # After a low discard the high cards they may hold weigh more; after a high one, more still.
    assert threw[king.index] == pytest.approx(HIGH_AFTER_LOW * plain)
    threw_high = weights(Event(2, EventKind.DISCARD, 1, (Card.parse("QD"),)))
    assert threw_high[king.index] == pytest.approx(HIGH_AFTER_HIGH * threw_high[seven.index])
    # Their last two discards count for more than older ones.
    older = weights(
        Event(2, EventKind.DISCARD, 1, (seven,)),
        Event(2, EventKind.DISCARD, 2, (Card.parse("2S"),)),
        Event(2, EventKind.DISCARD, 3, (Card.parse("3S"),)),
    )
    assert threw[Card.parse("7C").index] < older[Card.parse("7C").index] < 1.0
    took = weights(Event(1, EventKind.DISCARD, 1, (four,)), Event(2, EventKind.TAKE, 2, (four,)))
    assert all(took[i] > 1.0 for i in _cards(TIES[four.index][0] | TIES[four.index][1]))
    passed = weights(Event(1, EventKind.DISCARD, 1, (four,)), Event(2, EventKind.DRAW, 2))
    assert all(passed[i] < 1.0 for i in _cards(TIES[four.index][0]))
    # A face-down discard shows no card: passing it says nothing.
    blind = weights(Event(1, EventKind.DISCARD, 1, (), down=True), Event(2, EventKind.DRAW, 2))
    assert set(blind) == {1.0}


def _cards(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


def test_where_melding_is_optional_a_held_meld_is_less_likely_but_possible() -> None:
    rng = random.Random(0)
    held = {"read": 0, "plain": 0}
    samples = 0
    for seed in range(3):
        for _, view in _views("family", seed):
            know = Knowledge.of(view)
            if view.opponent_hand_size < 6:
                continue
            read = read_opponent(view, know)
            for _ in range(10):
                samples += 1
                held["read"] += meldable(know.sample_opponent(rng, read=read)[0]) != 0
                held["plain"] += meldable(know.sample_opponent(rng)[0]) != 0
    assert samples > 100
    assert 0 < held["read"] < held["plain"]


def test_where_play_is_compulsory_a_sampled_hand_never_holds_a_meld() -> None:
    rng = random.Random(0)
    for _, view in _views("classic", 8):
        know = Knowledge.of(view)
        read = read_opponent(view, know)
        for _ in range(5):
            hand, _rest = know.sample_opponent(rng, read=read)
            if know.opp_never:
                assert meldable(hand) == 0


@pytest.mark.parametrize("rules", ["family", "rummy"])
def test_the_expert_decides_from_the_view_alone(rules: str) -> None:
    # Two deals that look the same to the player who moves first through their whole
    # turn: the up-card, the card they may draw and their hand agree; the opponent's
    # cards and the rest of the stock's order differ.
    base = umtali.deal_hand(seed=23, dealer=1, rules=rules)
    hidden = list(base.deal.p1) + list(base.deal.stock[2:])
    random.Random(4).shuffle(hidden)
    other = umtali.deal_hand(
        hidden[:10],
        base.deal.p2,
        [*base.deal.stock[:2], *hidden[10:]],
        dealer=1,
        rules=rules,
        seed=base.deal.seed,
    )
    assert base.to_move == 2 and base.deal.p1 != other.deal.p1
    bots = [ExpertBot(5, budget=1500), ExpertBot(5, budget=1500)]
    decided = 0
    while base.to_move == 2:
        assert base.view(2) == other.view(2)
        decided += 1
        a = bots[0].choose(base.view(2), GameInfo())
        b = bots[1].choose(other.view(2), GameInfo())
        assert a == b
        base.play(a.action)
        other.play(b.action)
    assert decided >= 2


def test_a_sampled_hand_must_explain_their_last_discard() -> None:
    view = umtali.deal_hand(seed=5).view(1)
    know = Knowledge.of(view)

    def cards(*names: str) -> int:
        return mask_of(Card.parse(n) for n in names)

    lone_two = Card.parse("2C").index
    # Throwing a lone two while keeping pairs and near-runs: fair.
    assert know.fair_discard(cards("7H", "7C", "3D", "4D", "9S", "9C"), lone_two)
    # Throwing a king whose queen is still out (worth keeping) while holding four lone
    # low cards, each worth less: not fair.
    king = Card.parse("KD").index
    assert not know.fair_discard(cards("2S", "9H", "4C", "6D", "7H", "7C"), king)
    # One card worth less than the one thrown is still fair (hard searches a few).
    assert know.fair_discard(cards("2S", "9H", "9C", "7H", "7C"), king)
    # With no odd discard allowed, nearly every sampled hand explains the discard (the
    # sampler gives up after a few dozen tries); without the reading, few do.
    rng = random.Random(3)
    thrown = Card.parse("8S").index
    read = Reading(tuple([1.0] * 52), thrown=thrown, odd_discard=0.0)
    read_fair = sum(
        know.fair_discard(know.sample_opponent(rng, read=read)[0], thrown) for _ in range(100)
    )
    plain_fair = sum(know.fair_discard(know.sample_opponent(rng)[0], thrown) for _ in range(100))
    assert read_fair >= 90 and plain_fair <= 40


def test_the_reading_names_their_last_face_up_discard_where_play_is_compulsory() -> None:
    view = umtali.deal_hand(seed=5).view(1)
    know = Knowledge.of(view)
    seven, four = Card.parse("7H"), Card.parse("4C")
    events = (Event(2, EventKind.DISCARD, 1, (seven,)), Event(2, EventKind.DISCARD, 2, (four,)))
    read = read_opponent(_with_events(view, *events), know)
    assert read.thrown == four.index and 0 < read.odd_discard < 1
    assert read_opponent(view, know).thrown == -1
    family = umtali.deal_hand(seed=5, rules="family").view(1)
    assert read_opponent(_with_events(family, *events), Knowledge.of(family)).thrown == -1


def test_a_sampled_hand_never_makes_a_meld_with_their_last_discard() -> None:
    """Play is compulsory: the hand they threw from held no meld, with the thrown card
    or without it, so no sampled hand may make one with it.  The odd-discard allowance
    (which keeps hands the habit would not explain) never keeps such a hand."""
    view = umtali.deal_hand(seed=5).view(1)
    know = Knowledge.of(view)
    rng = random.Random(8)
    for name in ("6H", "QD", "9C"):
        thrown = Card.parse(name).index
        # Every unseen card equally likely and every odd discard kept: only the rule works.
        read = Reading(tuple([1.0] * 52), thrown=thrown, odd_discard=1.0)
        hands = [know.sample_opponent(rng, read=read)[0] for _ in range(300)]
        assert not any(meldable(hand | 1 << thrown) for hand in hands), name
        # Without the reading the sampler knows no discard, and such hands turn up.
        plain = [know.sample_opponent(rng)[0] for _ in range(300)]
        assert any(meldable(hand | 1 << thrown) for hand in plain), name
