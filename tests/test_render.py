"""The table as a player sees it, rendered to plain text and compared with golden files.

Set UPDATE_GOLDEN=1 to rewrite the files after an intended change (and read them).
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from dealing import deal, run
from rich.console import Console, RenderableType

import umtali
from umtali.bots import NormalBot
from umtali.bots.seat import GameInfo
from umtali.engine.match import HandResult, next_dealer
from umtali.engine.view import Step
from umtali.ui.render import (
    MIN_HEIGHT,
    MIN_WIDTH,
    TableInfo,
    render_game_end,
    render_hand_end,
    render_table,
    step_text,
)
from umtali.ui.theme import Theme

GOLDEN = Path(__file__).parent / "golden"
NAMES = ("Ann", "Ben")


def text_of(renderable: RenderableType, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def hand_end_of(hand: umtali.Hand, info: TableInfo, dealer: int | None) -> RenderableType:
    """The end-of-hand panel for a finished hand, as the loop draws it."""
    sides = (hand.side(1), hand.side(2))
    return render_hand_end(
        sides, hand.scores, hand.went_out, hand.forfeited, info, dealer, Theme(), hand.rules
    )


def busy_hand() -> umtali.Hand:
    hand = umtali.deal_hand(seed=21)
    rng = random.Random(3)
    for _ in range(40):
        hand.play(rng.choice(hand.legal_actions()))
    return hand


def test_opening_table() -> None:
    hand = umtali.deal_hand(seed=7)
    view = hand.view(1)
    check_golden("opening", text_of(render_table(view, TableInfo(NAMES), Theme(), 80, 24)))


def test_busy_mid_hand_table() -> None:
    hand = busy_hand()
    view = hand.view(hand.to_move or 1)
    info = TableInfo(NAMES, totals=(10, 7), hand_number=2)
    text = text_of(render_table(view, info, Theme(), 80, 24))
    check_golden("busy", text)
    assert len(text.splitlines()) <= 24 - 3  # room for a message, the prompt and toolbar


def test_busy_table_in_ascii_and_wide() -> None:
    view = busy_hand().view(1)
    text = text_of(render_table(view, TableInfo(NAMES), Theme(ascii=True), 120, 40), 120)
    check_golden("busy_ascii_wide", text)
    assert "♠" not in text and "♥" not in text


def test_face_down_discard() -> None:
    hand = deal(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D",
        "JS KH QH 2H 3H 4H 7C 7D 7H 9D",
        top="KC",
    )
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D down")
    text = text_of(render_table(hand.view(2), TableInfo(NAMES), Theme(), 80, 24))
    check_golden("face_down", text)
    assert "face down" in text and "4♦" not in text


def test_end_of_hand_panel() -> None:
    hand = deal(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D",
        "JS KH QH 2H 3H 4H 7C 7D 7H 9D",
        top="KC",
    )
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D down")
    run(hand, "draw; play JS; meld KH QH; meld 4H 3H 2H; meld 7H 7D 7C")
    result = HandResult(1, 1, hand.scores, hand.went_out, tuple(hand.forfeited), hand.end)
    panel = hand_end_of(hand, TableInfo(NAMES, totals=(12, 30), hand_number=3), next_dealer(result))
    text = text_of(panel)
    check_golden("hand_end", text)
    assert "forfeited by Ben" in text and "marriage K♥ Q♥ (20: 10 each)" in text


def test_end_of_game_panel() -> None:
    text = text_of(render_game_end([(20, 31), (15, 9), (8, 8), (30, 12)], NAMES, 1, 1, (1, 0)))
    check_golden("game_end", text)
    assert "Winner of game 1: Ann" in text


@pytest.mark.parametrize("size", [(MIN_WIDTH - 1, 24), (80, MIN_HEIGHT - 1), (30, 10)])
def test_a_tiny_terminal_gets_a_size_message_not_a_broken_table(size: tuple[int, int]) -> None:
    view = busy_hand().view(1)
    text = text_of(render_table(view, TableInfo(NAMES), Theme(), *size), size[0])
    assert f"needs at least {MIN_WIDTH}×{MIN_HEIGHT}" in text
    assert "Stock" not in text


def test_the_table_never_shows_the_opponents_hand() -> None:
    hand = busy_hand()
    text = text_of(render_table(hand.view(1), TableInfo(NAMES), Theme(ascii=True), 80, 24))
    shown = set(text.split())
    for card in hand.cards_in_hand(2):
        if card not in hand.view(1).opponent_known:
            assert Theme(ascii=True).plain(card) not in shown


def test_a_crowded_table_still_fits_80_by_24() -> None:
    hand = deal(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 4D",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        top="KC",
    )
    run(hand, "meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS; discard 4D; draw")
    run(hand, "meld 10H 9H 8H 7H 6H 5H 4H 3H 2H AH; discard KC")
    assert hand.is_over
    text = text_of(render_table(hand.view(1), TableInfo(NAMES), Theme(), 80, 24))
    assert len(text.splitlines()) <= 24 - 3
    assert "⋮" in text  # the ten-card runs are shortened to fit


def test_the_end_of_hand_panel_fits_80_by_24_after_a_long_hand() -> None:
    worst = 0
    for seed in range(60):
        hand = umtali.deal_hand(seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            hand.play(rng.choice(hand.legal_actions()))
        panel = hand_end_of(hand, TableInfo(NAMES), 1)
        worst = max(worst, len(text_of(panel).splitlines()))
    assert worst <= 24 - 2  # room for the prompt under it


def test_practical_fans_the_whole_discard_pile() -> None:
    hand = umtali.deal_hand(seed=12, rules="practical")
    rng = random.Random(1)
    while len(hand.pile) < 6 or hand.to_move != 1 or hand.step.value != "draw":
        actions = [a for a in hand.legal_actions() if not a.startswith("take")]
        hand.play(rng.choice(actions))
    text = text_of(render_table(hand.view(1), TableInfo(NAMES), Theme(), 80, 24))
    check_golden("practical_pile", text)
    pile_line = next(line for line in text.splitlines() if line.startswith("  Pile "))
    shown = [Theme().plain(c) for c in hand.view(1).discard_pile]
    assert pile_line.split()[1:] == shown
    assert "· practical" in text and len(text.splitlines()) <= 24 - 3
    # Family shows only the top of its pile, as classic does.
    family = umtali.deal_hand(seed=12, rules="family")
    assert "Pile " not in text_of(render_table(family.view(1), TableInfo(NAMES), Theme(), 80, 24))


def test_rummy_end_of_hand_counts_the_cards_left() -> None:
    for seed in range(20):
        hand = umtali.deal_hand(seed=seed, rules="rummy")
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            plays = [a for a in legal if a.startswith(("meld", "play"))]
            hand.play(rng.choice(plays or legal))
        if hand.went_out is not None and hand.forfeited:
            break
    assert hand.went_out is not None
    panel = hand_end_of(hand, TableInfo(NAMES), 2)
    text = text_of(panel)
    check_golden("rummy_hand_end", text)
    value = sum(min(c.rank + 1, 10) for c in hand.forfeited)
    assert f"Left in {NAMES[2 - hand.went_out]}'s hand" in text and f"= {value}" in text


def test_labels_say_what_they_count_and_whose_they_are() -> None:
    hand = umtali.deal_hand(
        ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "4D"],
        ["KH", "QS", "2H", "5H", "7C", "9C", "2D", "6D", "8D", "AC"],
    )
    hand.play("meld 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")
    theme = Theme()
    table = text_of(render_table(hand.view(2), TableInfo(NAMES), theme, 80, 24))
    assert " 1 card " in table and "1 cards" not in table  # Ann holds 4D alone
    assert "14 points · 14 in the game" in table  # the headers count points
    assert "Ben (you)" in table
    # A replay shows both hands face up, and nobody at the table is "you".
    shown = render_table(
        hand.view(2), TableInfo(NAMES), theme, 80, 24, reveal=hand.cards_in_hand(1)
    )
    assert "(you)" not in text_of(shown)
    # Rummy's hand end counts what is left in the loser's hand: "your hand", not "You's".
    rummy = umtali.deal_hand(seed=0, rules="rummy")
    rng = random.Random(0)
    while not rummy.is_over:  # laying whatever can be laid, so someone goes out
        legal = rummy.legal_actions()
        rummy.play(rng.choice([a for a in legal if a.startswith(("meld", "play"))] or legal))
    assert rummy.went_out is not None
    names = ("Bot", "You") if rummy.went_out == 1 else ("You", "Bot")
    end = text_of(hand_end_of(rummy, TableInfo(names), None))
    assert "Left in your hand" in end and "You's" not in end


def test_a_replay_or_a_watched_game_names_whose_turn_it_is() -> None:
    hand = umtali.deal_hand(seed=4)
    seat = hand.to_move or 1
    view = hand.view(seat)
    name = NAMES[seat - 1]
    mine = text_of(render_table(view, TableInfo(NAMES), Theme(), 80, 24))
    replayed = text_of(
        render_table(view, TableInfo(NAMES), Theme(), 80, 24, reveal=hand.cards_in_hand(3 - seat))
    )
    watched = text_of(render_table(view, TableInfo(NAMES, seat="watched"), Theme(), 80, 24))
    assert "Your turn" in mine
    for text in (replayed, watched):
        assert "Your turn" not in text and f"{name}'s turn" in text
    assert f"{name} (watched)" in watched


def test_the_last_turn_is_said_once() -> None:
    hand = umtali.deal_hand(seed=0)
    view = hand.view(1)
    while not (view.last_turn and view.step is Step.DISCARD):
        hand.play(NormalBot().choose(view, GameInfo()).action)
        view = hand.view(hand.to_move or 1)
    said = step_text(view, ("Ann", "Ben"))
    assert said == "Your last turn: discard only to go out"
    assert said.lower().count("last turn") == 1


def test_the_daily_deal_is_labelled_on_the_table() -> None:
    view = umtali.deal_hand(seed=4).view(1)
    daily = text_of(render_table(view, TableInfo(NAMES, daily=True), Theme(), 64, 20), 64)
    assert "Daily deal · hand 1" in daily and "game 1" not in daily
    usual = text_of(render_table(view, TableInfo(NAMES), Theme(), 64, 20), 64)
    assert "Daily deal" not in usual and "Hand 1 · game 1" in usual


def test_a_taken_card_that_must_go_down_is_said_alike_by_status_line_and_toolbar() -> None:
    from test_family import pile_8h_7h

    from umtali.ui.human import toolbar

    # Family: 7H taken and laid, then 8H taken next: it must be played this turn.
    hand = run(pile_8h_7h("family"), "take; meld 7H 6H 5H; take next")
    view = hand.view(1)
    assert step_text(view, ("Ann", "Ben")) == "Your turn: play — 8H must go down this turn"
    bar = toolbar(view, Theme(), 80)
    assert bar.startswith("play: 8H must go down this turn; then discard")
    assert "as you choose" not in bar
    for width in range(40, 121):
        assert len(toolbar(view, Theme(), width)) <= width - 2
    # Once it is down, the choice is the player's again.
    run(hand, "play 8H")
    assert "as you choose" in toolbar(hand.view(1), Theme(), 80)


def test_the_toolbar_says_in_plain_words_how_many_cards_must_go_down() -> None:
    from umtali.ui.human import toolbar

    hand = umtali.deal_hand(seed=1)  # its fifth decision leaves one card to play
    for _ in range(4):
        hand.play(hand.legal()[0])
    view = hand.view(hand.to_move or 1)
    bar = toolbar(view, Theme(), 80)
    assert bar.startswith("play: 1 playable card must go down ('all' plays it)"), bar
    hand = umtali.deal_hand(seed=1)
    for _ in range(3):
        hand.play(hand.legal()[0])
    bar = toolbar(hand.view(hand.to_move or 1), Theme(), 80)
    assert bar.startswith("play: 2 playable cards must go down ('all' plays them)"), bar
    bar = toolbar(umtali.deal_hand(seed=1).view(1), Theme(), 80)
    assert bar.startswith("play: 4 playable cards; choose, and play on while you can"), bar
