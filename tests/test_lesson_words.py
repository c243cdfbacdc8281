"""What the lessons say: a legal move that misses the point is told the point, words
said before the opponent moves stay true after, the lessons agree with the rule
book, and ``all`` works in a lesson as at the table."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from rich.text import Text
from test_tutorial import ScriptedScreen

from umtali.engine.actions import Action
from umtali.learn.course import Do, Lesson, Them, Try, same_move
from umtali.learn.lessons import LESSONS, lesson_named
from umtali.learn.teach import Teacher
from umtali.learn.tutor import LessonRun
from umtali.ui.theme import Theme

KEYS = [lesson.key for lesson in LESSONS]
RULES = Path(__file__).resolve().parents[1] / "RULES.md"
_CARD = r"(?:10|[2-9AJQK])[SHDC]"
NAMED = re.compile(rf"\b(?:meld|play|discard)(?: {_CARD}\b)+(?: down\b)?|\b(?:draw|take 2|take)\b")


def _steps(lesson: Lesson) -> list[LessonRun]:
    """The lesson at each step a learner who follows it meets (copies, to try moves on)."""
    seen: list[LessonRun] = []
    run = LessonRun(lesson)
    path: list[Action] = []
    while True:
        for _ in run.their_moves():
            pass
        if run.finished:
            return seen
        seen.append(_replayed(lesson, path))
        step = run.step
        if isinstance(step, Try):
            action = Action.parse(step.move)
        else:
            assert isinstance(step, Do)
            action = run.expected()[0] if step.want else run.view().legal[-1]
        assert run.play(action).ok
        path.append(action)


def _replayed(lesson: Lesson, path: list[Action]) -> LessonRun:
    run = LessonRun(lesson)
    for action in [None, *path]:
        if action is not None:
            run.play(action)
        for _ in run.their_moves():
            pass
    return run


def test_a_legal_move_that_misses_the_point_is_told_the_point_and_the_move() -> None:
    told = 0
    for lesson in LESSONS:
        for run in _steps(lesson):
            step = run.step
            if not isinstance(step, Do) or not step.want:
                continue
            legal = run.view().legal
            for action in legal:
                if step.reply_to(action) or any(same_move(action, w) for w in step.wanted()):
                    continue
                reply = run.play(action)
                assert not reply.ok
                assert reply.text.startswith(
                    f"That move is legal, but this lesson is about {lesson.point}; try "
                ), reply.text
                named = NAMED.findall(reply.text)
                assert named, reply.text
                for text in named:
                    move = Action.parse(text)
                    assert any(same_move(move, w) for w in step.wanted()), (lesson.key, text)
                    assert any(same_move(a, move) for a in legal), (lesson.key, text)
                told += 1
    assert told  # the lessons do have legal moves they answer this way


def test_a_lesson_names_its_point_in_words_of_its_own() -> None:
    points = [lesson.point for lesson in LESSONS]
    assert all(points) and len(set(points)) == len(points)


def test_lesson_two_tells_a_run_laid_early_what_it_waits_for() -> None:
    run = LessonRun(lesson_named("jacks"))
    reply = run.play(Action.parse("meld 7S 6S 5S"))
    assert not reply.ok
    assert reply.text == (
        "That move is legal, but this lesson is about jacks, and cards played off single "
        "cards; try play JD."
    )
    assert "not the one this lesson is about" not in reply.text


# --------------------------------------------- before and after the opponent


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_words_said_before_the_opponent_moves_stay_true_once_they_have(lesson: Lesson) -> None:
    """The full screen keeps a reply on show while the opponent's moves are played
    under it, so what the learner's last move is answered with may not announce the
    opponent's turn as still to come ("Your opponent plays next.")."""
    script = lesson.script
    for step, after in pairwise(script):
        if isinstance(step, Do | Try) and isinstance(after, Them):
            assert not re.search(r"\bnext\b|\bnow your opponent\b|\bwill\b", step.done, re.I), (
                lesson.key,
                step.done,
            )


def test_lesson_two_ends_the_turn_and_then_says_what_the_opponent_does(tmp_path: Path) -> None:
    lesson = lesson_named("jacks")
    screen = ScriptedScreen(["", "all", "discard 2D", "q", "y", "q"])
    Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0).run(lesson)
    text = screen.text()
    assert "Your opponent plays next." not in text
    ended = text.index("That discard ends your turn.")
    assert text.index("Your opponent's turn: they draw, and discard the K♦.") > ended


# ------------------------------------------------------ the rule book's words


def test_lesson_one_says_what_the_rules_say_of_cards_left_in_a_hand() -> None:
    rules = " ".join(RULES.read_text(encoding="utf-8").split())
    assert "Forfeited cards score for the player who went out" in rules
    assert "Cards on the discard pile or in the stock score for nobody." in rules
    outro = " ".join(lesson_named("melds").outro.split())
    assert "Cards on the discard pile or in the stock score for nobody." in outro
    assert "cards left in the other player's hand are forfeited" in outro
    assert "score for the player who went out" in outro


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_no_lesson_says_cards_in_a_hand_score_for_nobody(lesson: Lesson) -> None:
    texts = [lesson.intro, lesson.outro]
    texts += [s.say for s in lesson.script if isinstance(s, Do | Try | Them)]
    for text in texts:
        for said in re.split(r"(?<=[.!?])\s+", " ".join(text.split())):
            if re.search(r"\bscores? (?:for )?nobody\b", said):
                assert "hand" not in said, (lesson.key, said)


def test_lesson_one_shows_how_to_type_a_discard() -> None:
    step = lesson_named("melds").script[1]
    assert isinstance(step, Do)
    assert "discard and a card" not in step.say
    named = NAMED.findall(step.say)
    assert named and all(any(same_move(Action.parse(n), w) for w in step.wanted()) for n in named)


# ------------------------------------------------------------------- all


def test_all_makes_the_forced_plays_the_lesson_waits_for() -> None:
    run = LessonRun(lesson_named("jacks"))
    replies = run.play_forced()
    assert [r.text.split(":")[0] for r in replies] == [
        "play JD",
        "play 10D",
        "play 9D",
        "meld 7S 6S 5S",
    ]
    assert all(r.ok for r in replies)
    # The discard that ends the turn is the learner's choice: all stops there.
    assert run.ask() == "Nothing else can go down. Discard a card to end your turn."
    assert run.play_forced() == []


def test_all_stops_at_a_step_that_shows_a_refusal() -> None:
    run = LessonRun(lesson_named("the-rule"))
    for _ in run.their_moves():
        pass
    run.play(Action.parse("draw"))
    at = run.at
    assert run.play_forced() == [] and run.at == at  # the learner types play 10D


def test_all_on_a_screen_plays_and_says_so(tmp_path: Path) -> None:
    lesson = lesson_named("jacks")
    screen = ScriptedScreen(["", "all", "all", "undo", "q", "y", "q"])
    Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0).run(lesson)
    text = screen.text()
    assert "That is not a move" not in text
    assert "play JD: J♦ down: 5 points" in text
    assert "Nothing is forced here: choose a move yourself, or type hint." in text
    assert "undo belongs to a game at the table, not to a lesson." in text


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_all_typed_before_every_move_never_breaks_a_lesson(lesson: Lesson) -> None:
    """``all`` plays what is forced and the lesson takes; the learner's own moves do
    the rest, and the lesson ends as it does without it."""
    run = LessonRun(lesson)
    for _ in range(100):
        for _ in run.their_moves():
            pass
        if run.finished:
            break
        for reply in run.play_forced():
            assert reply.ok and reply.text
        for _ in run.their_moves():
            pass
        if run.finished:
            break
        step = run.step
        if isinstance(step, Try):
            action = Action.parse(step.move)
        else:
            assert isinstance(step, Do)
            action = run.expected()[0] if step.want else run.view().legal[-1]
        assert run.play(action).ok, (lesson.key, str(action))
    assert run.finished


def test_the_take_two_lesson_says_where_a_discard_goes_in_plain_words() -> None:
    outro = " ".join(lesson_named("take-two").outro.split())
    assert "lies on your opponent's" not in outro  # whose what? (issue 46)
    assert "goes onto the pile on top of your opponent's last discard" in outro
