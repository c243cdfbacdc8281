"""The coach: it flags the costly decision and not the good one, never reads a hidden
card, and reviews a recorded game's finished hands."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from dealing import deal, run
from test_hostile import run_cli

import umtali
from umtali.bots import make_bot
from umtali.bots.analysis import analyse
from umtali.bots.arena import play_game
from umtali.bots.coach import review_hand, weigh
from umtali.bots.seat import GameInfo
from umtali.engine.actions import Action
from umtali.engine.hand import machine_of
from umtali.engine.record import PlayerInfo, format_record
from umtali.review.game import review_match
from umtali.ui.coaching import Reviewed, render_review

ANN = "KS KH 2C 4D 6S 8H 10C 3D 5S 7H 9C"  # two kings, no meld
BEN = "KC 3H 5C 7S 9D 2S 4H 6C 8D 10S"  # the third king, which Ben throws
TO_THE_KING = "discard 2C; draw; discard KC"  # Ann to draw, KC on the pile


def test_taking_the_third_king_is_best_and_a_blind_draw_is_flagged() -> None:
    hand = run(deal(ANN, BEN, top="AH"), TO_THE_KING)
    assert analyse(hand.view(1), GameInfo()).choice == Action.parse("take")

    # (The first turn's discard is weighed too; only the third turn is looked at here.)
    drew = review_hand(run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; draw"), 1)
    [verdict] = [v for v in drew.verdicts if v.turn == 3]
    assert (str(verdict.played), str(verdict.best)) == ("draw", "take")
    assert verdict.cost >= 0.03 and verdict.label is not None and verdict.points > 2
    assert verdict.reason().startswith("better: take; it cost about")

    took = review_hand(run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; take"), 1)
    assert not [v for v in took.verdicts if v.turn == 3] and took.weighed == 2
    assert took.costs[1] == 0.0 and took.accuracy > drew.accuracy


def test_the_advice_is_the_same_whatever_the_hidden_cards_are() -> None:
    # Ben's hidden cards and the stock differ; Ann's view is the same.
    one = run(deal(ANN, BEN, top="AH", seed=1), TO_THE_KING)
    other = run(deal(ANN, BEN.replace("9D", "9H"), top="AS", seed=2), TO_THE_KING)
    assert (
        one.cards_in_hand(2) != other.cards_in_hand(2)
        and machine_of(one).stock != machine_of(other).stock
    )
    assert one.view(1) == other.view(1)
    draw = Action.parse("draw")
    assert weigh(one.view(1), GameInfo(), draw) == weigh(other.view(1), GameInfo(), draw)


@pytest.mark.slow  # a whole game played, then reviewed twice
def test_a_careless_player_loses_more_to_best_play_than_a_careful_one() -> None:
    game = play_game(umtali.Game(seed=7), [make_bot("easy", 1), make_bot("hard", 2)])
    hands, _ = review_match(game, 1)
    careless = [c for _, review in hands for c in review.costs]
    hands, _ = review_match(game, 2)
    careful = [c for _, review in hands for c in review.costs]
    assert sum(careless) > sum(careful) + 0.2
    from umtali.bots.coach import accuracy

    assert accuracy(careless) + 5 < accuracy(careful)


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
    assert "In all: accuracy" in done.stdout and "better:" in done.stdout
    assert "decision's number" not in done.stdout  # no terminal, no question
    refused = run_cli("review", str(path), "--threshold", "nan", data=tmp_path)
    assert refused.returncode == 2 and "0 or more percent" in refused.stderr


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


@functools.cache
def _easy_players_review() -> tuple[Reviewed, ...]:
    """Ann's review, at budget 3000, of a game she played as ``easy`` against ``normal``.
    Four tests read it (how it is drawn, not what it weighs); it is weighed once per
    worker, and handed out as a tuple of frozen values, which no reader can change."""
    game = play_game(umtali.Game(seed=7), [make_bot("easy", 1), make_bot("normal", 2)])
    return tuple(review_match(game, 1, budget=3000)[0])


def test_the_review_speaks_to_you_or_names_the_player() -> None:
    hands = _easy_players_review()
    theme = umtali_theme()
    assert "Review of your decisions" in _text(render_review(hands[:1], "You", theme))
    assert "what Ann could see" in _text(render_review(hands[:1], "Ann", theme))


@pytest.mark.parametrize("width", [64, 80, 120])
def test_the_review_leaves_no_spaces_at_the_ends_of_its_lines(width: int) -> None:
    import io

    from rich.console import Console

    hands = _easy_players_review()
    assert any(review.verdicts for _, review in hands)  # a table of verdicts is drawn
    console = Console(width=width, file=io.StringIO(), color_system="standard")
    console.print(render_review(hands, "Ann", umtali_theme()))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) > 8
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    assert [line for line in plain if line != line.rstrip()] == []
    assert any(re.match(r"\d+\. turn \d+ ", line) for line in plain)


def _text(renderable: object) -> str:
    import io

    from rich.console import Console

    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return " ".join(console.export_text().split())


def test_a_discard_the_opponent_took_is_said_with_what_it_made() -> None:
    """Ben throws the king that makes Ann's three kings: the coach says she took it at
    once and what she laid with it, from what Ben saw."""
    hand = run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; take")
    hand.play(umtali.bot("normal").choose(hand).action)  # Ann lays what she must
    bens = {v.turn: v for v in review_hand(hand, 2, threshold=0).verdicts}
    said = bens[2].reason()
    assert bens[2].played == Action.parse("discard KC")
    assert "your opponent took KC at once and laid" in said and "KS" in said, said
    anns = {v.turn: v for v in review_hand(hand, 1, threshold=0).verdicts}
    assert "took" not in anns[1].reason()  # Ben drew from the stock after Ann's 2C


#: A card in the record's notation (``KC``, ``10S``), which a player's screen never shows.
RECORDED_CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def test_the_coach_names_cards_as_the_table_draws_them() -> None:
    """Ben's review, on a screen, names the king Ann took and the better discard with
    the theme's suit symbols, as the table and its move log do: never ``KC``."""
    from umtali.ui.spoken import unboxed
    from umtali.ui.theme import Theme

    hand = run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; take")
    hand.play(umtali.bot("normal").choose(hand).action)
    review = review_hand(hand, 2, threshold=0)
    bens = {v.turn: v for v in review.verdicts}
    theme = Theme()
    # The review's page, and the same page said line by line on the plain screen.
    page = render_review([(1, review)], "You", theme)
    for shown in (_text(page), _text(unboxed(page))):
        assert "took K♣ at once" in shown and not RECORDED_CARD.search(shown), shown
    said = bens[2].reason(card=theme.plain)
    assert "your opponent took K♣ at once and laid" in said and "K♠" in said, said
    assert f"better: {theme.move(bens[2].best)}" in said and "♣" in said
    assert not RECORDED_CARD.search(said), said
    # Under --ascii the table's cards are letters: the words are the same.
    assert bens[2].reason(card=Theme(ascii=True).plain) == bens[2].reason()


def _hinted_and_reviewed(games: list[tuple[int, str]]) -> int:
    """Positions from real games: a player who always plays the hint (the adviser at a
    small budget) is reviewed at that budget, and no decision costs anything.  How
    many decisions were weighed."""
    from umtali.bots.expert import ExpertBot
    from umtali.bots.levels import ADVISER
    from umtali.review.game import review_match

    budget = 1000
    weighed = 0
    for seed, variant in games:
        hinted = ExpertBot(None, budget=budget)
        assert ADVISER.make(None).salt == hinted.salt  # the hint's own seed
        game = play_game(umtali.Game(variant, seed=seed), [hinted, make_bot("normal", seed)])
        hands, _ = review_match(game, 1, budget=budget, threshold=0)
        costs = [c for _, review in hands for c in review.costs]
        weighed += len(costs)
        assert costs and max(costs) == 0.0, (variant, seed)
    return weighed


@pytest.mark.slow  # eight games played by the adviser, each reviewed: the quick run has two
def test_the_hints_move_is_never_the_coachs_mistake() -> None:
    games = [(seed, "classic") for seed in range(3, 9)] + [(9, "family"), (10, "practical")]
    assert _hinted_and_reviewed(games) > 250


def test_the_hints_move_is_never_the_coachs_mistake_in_a_classic_and_a_practical_game() -> None:
    """The same check on two of those games, classic's and practical's (whose takes
    and optional melds family shares): 76 decisions."""
    assert _hinted_and_reviewed([(3, "classic"), (10, "practical")]) > 60


def test_trying_a_decision_again_says_whether_the_new_move_is_as_good() -> None:
    from umtali.ui.retry import retry_one

    hand = run(deal(ANN, BEN, top="AH"), TO_THE_KING + "; draw")
    [verdict] = [v for v in review_hand(hand, 1).verdicts if v.turn == 3]
    for typed, answer in (
        (["take"], "Yes: take is the best move here."),
        (["draw"], "That is the move you made"),
        (["meld KS KH", "take"], "Yes: take"),  # refused first, then chosen
        ([""], None),
    ):
        screen = ScriptedScreen(typed)
        retry_one(screen, verdict, ("Ann", "Ben"))
        assert screen.tables == 1 and "turn 3: you drew from the stock" in screen.said[0]
        assert screen.said[-1] == "The best: take, with " + screen.said[-1].split("with ")[1]
        if answer is not None:
            assert any(line.startswith(answer) for line in screen.said), screen.said
    refused = ScriptedScreen(["meld KS KH", ""])
    retry_one(refused, verdict, ("Ann", "Ben"))
    assert any("not a move here" in line for line in refused.said)


class ScriptedScreen:
    """A screen that answers from a script and keeps what it was told, as text."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.said: list[str] = []
        self.tables = 0
        self.interactive = True

    def table(self, view: object, info: object, note: object = None) -> None:
        self.tables += 1

    def say(self, message: object) -> None:
        self.said.append(_text(message))

    def ask(self, message: str, toolbar: object = None, completer: object = None) -> str:
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)
