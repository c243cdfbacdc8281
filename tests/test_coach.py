"""The coach: it flags the costly decision and not the good one, never reads a hidden
card, and reviews a recorded game's finished hands."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from dealing import deal, run
from test_hostile import run_cli

import umtali
from umtali.bots import make_bot
from umtali.bots.arena import play_game
from umtali.bots.coach import assess, candidates, review_hand
from umtali.engine.actions import Action
from umtali.engine.record import PlayerInfo, format_record
from umtali.review.game import review_match
from umtali.ui.coaching import render_review

ANN = "KS KH 2C 4D 6S 8H 10C 3D 5S 7H 9C"  # two kings, no meld
BEN = "KC 3H 5C 7S 9D 2S 4H 6C 8D 10S"  # the third king, which Ben throws
TO_THE_KING = "discard 2C; draw; discard KC"  # Ann to draw, KC on the pile


def test_taking_the_third_king_is_best_and_a_blind_draw_is_flagged() -> None:
    hand = run(deal(ANN, BEN, top="AH"), TO_THE_KING)
    view = hand.view(1)
    values = assess(view, candidates(view), random.Random(1)).values
    assert max(values, key=lambda a: values[a]) == Action.parse("take")

    # (The first turn's discard is weighed too; only the third turn is looked at here.)
    drew, _ = review_hand(run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; draw"), 1)
    [verdict] = [v for v in drew if v.turn == 3]
    assert (str(verdict.played), str(verdict.best)) == ("draw", "take")
    assert verdict.cost > 2 and verdict.reason().startswith("better: take")

    took, weighed = review_hand(run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; take"), 1)
    assert not [v for v in took if v.turn == 3] and weighed == 2  # the discard, the take


def test_the_advice_is_the_same_whatever_the_hidden_cards_are() -> None:
    # Ben's hidden cards and the stock differ; Ann's view is the same.
    one = run(deal(ANN, BEN, top="AH", seed=1), TO_THE_KING)
    other = run(deal(ANN, BEN.replace("9D", "9H"), top="AS", seed=2), TO_THE_KING)
    assert (
        one.cards_in_hand(2) != other.cards_in_hand(2) and one.machine.stock != other.machine.stock
    )
    assert one.view(1) == other.view(1)
    a = assess(one.view(1), candidates(one.view(1)), random.Random(5))
    b = assess(other.view(1), candidates(other.view(1)), random.Random(5))
    assert a == b


@pytest.mark.slow  # a whole game played, then reviewed twice
def test_a_careless_player_loses_more_to_best_play_than_a_careful_one() -> None:
    game = play_game(umtali.Game(seed=7), [make_bot("easy", 1), make_bot("hard", 2)])
    hands, _ = review_match(game, 1)
    careless = sum(v.cost for _, _, verdicts, _ in hands for v in verdicts)
    hands, _ = review_match(game, 2)
    careful = sum(v.cost for _, _, verdicts, _ in hands for v in verdicts)
    assert careless > careful + 10


def test_a_hand_still_in_play_is_not_reviewed() -> None:
    game = umtali.Game(seed=2)
    game.next_hand()
    run(game.hands[-1], "")
    hands, _ = review_match(game, 1)
    assert hands == []
    assert "no finished hand" in str(render_review(hands, "Ann", umtali_theme()))


def umtali_theme():  # type: ignore[no-untyped-def]
    from umtali.ui.theme import Theme

    return Theme(ascii=True)


@pytest.mark.slow  # reviews a whole game in a subprocess
def test_umtali_review_of_a_record(tmp_path: Path) -> None:
    game = play_game(umtali.Game(seed=7), [make_bot("easy", 1), make_bot("normal", 2)])
    players = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (normal)", "normal"))
    path = tmp_path / "g.umtali"
    path.write_text(format_record(game, players), encoding="utf-8")
    done = run_cli("review", str(path), "--ascii", data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Review of Ann's decisions" in done.stdout
    assert "points lost against best play" in done.stdout and "better:" in done.stdout
    refused = run_cli("review", str(path), "--threshold", "nan", data=tmp_path)
    assert refused.returncode == 2 and "give points" in refused.stderr


def test_review_after_a_hand_at_the_table_opens_the_coach() -> None:
    from prompting import table

    reviewed: list[str] = []

    def feeder(view_of):  # type: ignore[no-untyped-def]
        from prompting import scripted_player

        play = scripted_player([])(view_of)
        asked = {"done": False}

        def feed(message: str) -> str:
            if "type review for the coach" in message and not asked["done"]:
                asked["done"] = True
                return "review\r"
            return play(message)

        return feed

    loop, console, _session, pipe_cm = table(feeder)
    loop.screen.page = lambda renderable, title: reviewed.append(title)  # type: ignore[method-assign]
    try:
        loop.play_game(umtali.Game(seed=5))
    finally:
        pipe_cm.__exit__(None, None, None)
    assert reviewed == ["review"]
    assert "The coach is weighing your decisions" in console.export_text()


def test_the_review_speaks_to_you_or_names_the_player() -> None:
    game = play_game(umtali.Game(seed=7), [make_bot("easy", 1), make_bot("normal", 2)])
    hands, _ = review_match(game, 1, deals=60)
    theme = umtali_theme()
    assert "Review of your decisions" in _text(render_review(hands[:1], "You", theme))
    assert "what Ann could see" in _text(render_review(hands[:1], "Ann", theme))


@pytest.mark.parametrize("width", [64, 80, 120])
def test_the_review_leaves_no_spaces_at_the_ends_of_its_lines(width: int) -> None:
    import io

    from rich.console import Console

    game = play_game(umtali.Game(seed=7), [make_bot("easy", 1), make_bot("normal", 2)])
    hands, _ = review_match(game, 1, deals=60)
    assert any(verdicts for _, _, verdicts, _ in hands)  # a table of verdicts is drawn
    console = Console(width=width, file=io.StringIO(), color_system="standard")
    console.print(render_review(hands, "Ann", umtali_theme()))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) > 8
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    assert [line for line in plain if line != line.rstrip()] == []
    assert any(line.startswith("turn ") for line in plain)


def _text(renderable: object) -> str:
    import io

    from rich.console import Console

    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return " ".join(console.export_text().split())


def test_a_discard_taken_straight_away_is_said_to_have_been_taken() -> None:
    # Every decision listed (threshold below any cost), to look at each one's words.
    hand = run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; take")
    bens = {v.turn: v for v in review_hand(hand, 2, threshold=-1e9)[0]}
    assert bens[2].played == Action.parse("discard KC") and bens[2].taken
    anns = {v.turn: v for v in review_hand(hand, 1, threshold=-1e9)[0]}
    assert anns[1].played == Action.parse("discard 2C") and not anns[1].taken  # Ben drew
    from dataclasses import replace

    worse = replace(bens[2], best=Action.parse("discard 2S"), cost=5.0)
    assert worse.reason() == (
        "better: discard 2S (about 5.0 points more this hand); your opponent took KC straight away"
    )
    assert "worth more kept" in replace(worse, taken=False).reason()
