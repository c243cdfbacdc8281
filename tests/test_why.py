"""why: the bot's last turn explained from the player's seat, naming no hidden card."""

from __future__ import annotations

import re

import pytest
from dealing import deal, deal_in, run

import umtali
from umtali.bots import levels, make_bot
from umtali.bots.seat import GameInfo
from umtali.engine.cards import Card
from umtali.engine.view import PlayerView
from umtali.ui.theme import Theme
from umtali.ui.why import last_turn, why_lines

PLAIN = Theme(ascii=True)
CARD = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")


def seen_by(view: PlayerView) -> set[Card]:
    """Every card the player has seen: their hand, the table, the pile, the events."""
    seen = set(view.hand) | set(view.discard_pile) | set(view.opponent_known)
    for side in view.sides:
        for piece in side:
            seen |= set(piece.cards)
            if piece.off is not None:
                seen.add(piece.off)
    for event in view.events:
        seen |= set(event.cards)
        if event.onto is not None:
            seen.add(event.onto)
    return seen


def named(text: str) -> set[Card]:
    return {Card.parse(rank + suit) for rank, suit in CARD.findall(text)}


@pytest.mark.parametrize(
    ("variant", "seeds"),
    [
        ("classic", range(4)),
        # Classic's other eight hands, against hard, run in CI.
        pytest.param("classic", range(4, 12), marks=pytest.mark.slow),
        ("family", range(4)),
        ("practical", range(4)),
        ("rummy", range(4)),
    ],
    ids=["classic", "classic-more", "family", "practical", "rummy"],
)
def test_why_names_only_cards_the_player_has_seen_through_whole_games(
    variant: str, seeds: range
) -> None:
    checked = 0
    for seed in seeds:
        hand = umtali.deal_hand(seed=seed, rules=variant)
        # The words come from the player's view alone, so the quick bot serves in the
        # variants (their hands are long, and hard thinks for longer there).
        bot = make_bot("hard" if variant == "classic" else "normal", seed)
        while not hand.is_over:
            if hand.to_move == 2:
                hand.play(bot.choose(hand.view(2), GameInfo()).action)
                continue
            view = hand.view(1)
            text = "\n".join(why_lines(view, "hard", "Bot", PLAIN))
            assert named(text) <= seen_by(view), (seed, text)
            checked += 1
            hand.play(make_bot("normal", seed).choose(view, GameInfo()).action)
    assert checked > 30


def test_the_same_view_behind_other_hidden_cards_gets_the_same_answer() -> None:
    """The bot's hidden hand and the stock differ (a marker card moves between
    them); the player's view, and so why, are the same."""
    mine = "AS 3S 5S 7S 9S 2H 4H 6H 8H 10H QC"
    a = deal(mine, "AD 3D 5D 7D 9D 2C 4C 6C 8C KC", "KD JD")
    b = deal(mine, "AD 3D 5D 7D 9D 2C 4C 6C 8C KD", "KC JD")
    for hand in (a, b):
        run(hand, "discard QC; draw; discard 9D")
    assert a.view(1) == b.view(1)
    words = why_lines(a.view(1), "normal", "Bot", PLAIN)
    assert words == why_lines(b.view(1), "normal", "Bot", PLAIN)
    assert words[0].startswith("Bot drew from the stock: a blind draw")
    assert "your QC worth less to it" in words[0]
    assert "9D is worth 1 to whoever lays it" in words[1]
    assert "it does not go with the QC under it" in words[1]
    assert words[-1] == levels.named("normal").method
    assert "KD" not in "".join(words) and "KC" not in "".join(words)


def test_a_rummy_discard_is_told_in_rummys_values() -> None:
    """In Rummy a card is deadwood, not points laid, and only the top card can be taken."""
    hand = deal_in("rummy", RUMMY_MINE, "AD 3D 5D 7D 9D 2C 4C 6C 8C KC", "QH", "QC JD")
    run(hand, "draw; discard QC; draw; discard KC")
    words = why_lines(hand.view(1), "normal", "Bot", PLAIN)
    assert "KC counts 10 against whoever holds it when the other goes out" in words[1]
    assert "under it" not in words[1] and "lays it" not in words[1]
    family = deal_in("family", RUMMY_MINE, "AD 3D 5D 7D 9D 2C 4C 6C 8C KC", "QH", "QC JD")
    run(family, "draw; discard QC; draw; discard KC")
    words = why_lines(family.view(1), "normal", "Bot", PLAIN)
    assert "KC is worth 5 to whoever lays it; it goes with the QC under it" in words[1]


RUMMY_MINE = "AS 3S 5S 7S 9S 2H 4H 6H 8H 10H"


def test_a_card_taken_is_followed_to_where_it_went() -> None:
    hand = deal("AS 3S 5S 7S 9S 2H 4H 6H 8H 10H QC", "AD 3D 5D 7D 9D 2C 4C 6C 8C KC")
    run(hand, "discard QC; take; meld KC QC")
    assert last_turn(hand.view(1))[0].kind.is_take
    words = why_lines(hand.view(1), "hard", "Bot", PLAIN)
    assert "QC went down (melded KC QC)" in words[0]
    assert "every card that can go down must go down (20 points on its side)" in words[1]


def test_going_out_face_down_is_explained_and_a_person_is_not_asked() -> None:
    hand = deal("AS 3S 5S 7S JS 2H 4H 6H 8H 10H QC", "8D 7D 6D 9H 9C 9S KH 3D 3C 2C", "QH 5C")
    run(hand, "play JS; discard QC; draw; meld 8D 7D 6D; meld 9H 9C 9S; meld KH QH")
    run(hand, "discard 2C down; meld 3D 3C")
    words = why_lines(hand.view(1), "hard", "Bot", PLAIN)
    assert any("face down, so your last turn must draw from the stock" in w for w in words)
    assert "marriage" not in words[0]


def test_before_the_bot_moves_why_says_so() -> None:
    hand = umtali.deal_hand(seed=3)
    assert why_lines(hand.view(1), "hard", "Bot", PLAIN) == ["Bot has not moved yet in this hand."]


def test_every_bot_level_has_a_sentence_saying_how_it_chooses() -> None:
    from umtali.bots import LEVELS

    methods = {level.name: level.method for level in levels.player_levels() if level.method}
    assert set(methods) == set(LEVELS)


def test_the_easy_bot_s_choices_are_told_as_random_never_as_judged() -> None:
    """Issue 46: after the easy bot's turn, why said "It judged your QC worth less to
    it than an unseen card." and then that it picks at random."""
    mine = "AS 3S 5S 7S 9S 2H 4H 6H 8H 10H QC"
    hand = deal(mine, "AD 3D 5D 7D 9D 2C 4C 6C 8C KC", "KD JD")
    run(hand, "discard QC; draw; discard 9D")
    words = why_lines(hand.view(1), "easy", "Bot", PLAIN)
    assert words == [
        "Bot drew from the stock.",
        "Bot discarded 9D.",
        levels.named("easy").method,
    ]
