"""umtali learn: every lesson played through, right moves and wrong, and every quiz
answer checked against the engine."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.completion import Completer
from rich.console import Console, RenderableType
from rich.text import Text

from umtali.bots.coach import weigh
from umtali.bots.seat import GameInfo
from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import CARDS
from umtali.engine.view import PlayerView
from umtali.learn.course import Count, Do, Lesson, Question, Try, same_move
from umtali.learn.lessons import LESSONS, NoSuchLesson, lesson_named
from umtali.learn.progress import Done, read_progress, remember
from umtali.learn.teach import Teacher, course_menu, next_lesson
from umtali.learn.turns import DISCARDS
from umtali.learn.tutor import LessonRun, QuizRun
from umtali.ui.render import TableInfo, render_table
from umtali.ui.screen import Toolbar
from umtali.ui.theme import Theme

KEYS = [lesson.key for lesson in LESSONS]


def _right_moves(run: LessonRun) -> Iterator[Action]:
    """The moves a learner who follows the lesson types, one for each prompt."""
    step = run.step
    if isinstance(step, Try):
        yield Action.parse(step.move)
    elif isinstance(step, Do):
        wanted = step.wanted() or (run.view().legal[-1],)
        yield from wanted if step.each else wanted[:1]


def play_through(lesson: Lesson) -> LessonRun:
    run = LessonRun(lesson)
    while True:
        for _ in run.their_moves():
            pass
        if run.finished:
            return run
        for action in list(_right_moves(run)):
            reply = run.play(action)
            assert reply.ok, (lesson.key, run.at, str(action), reply.text)


def test_the_course_covers_the_ten_ideas_the_issue_lists_in_order() -> None:
    assert KEYS == [
        "melds",
        "jacks",
        "off-theirs",
        "the-rule",
        "must-play",
        "take-two",
        "going-out",
        "last-turn",
        "scoring",
        "discards",
    ]
    assert len(set(KEYS)) == len(KEYS)


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_each_lesson_plays_through_with_the_right_moves(lesson: Lesson) -> None:
    run = play_through(lesson)
    you, them = run.hand.scores
    assert "{" not in lesson.outro.format(you=you, them=them)
    # Every step was played, and the learner's side is on the table.
    assert run.finished and run.at == len(lesson.script)


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_each_lesson_answers_wrong_moves_and_changes_nothing(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    while not run.finished:
        for _ in run.their_moves():
            pass
        if run.finished:
            break
        step = run.step
        before = (run.hand.actions(), run.at)
        legal = list(run.view().legal)
        assert legal, (lesson.key, run.at)
        # An illegal move: a card the learner does not hold, discarded.
        missing = next(c for c in CARDS if c not in run.view().hand)
        refused = run.play(Action(ActionKind.DISCARD, (missing,)))
        assert not refused.ok and refused.text
        assert (run.hand.actions(), run.at) == before
        if isinstance(step, Do) and step.want:
            for action in legal:
                if any(same_move(action, w) for w in step.wanted()):
                    continue
                reply = run.play(action)
                assert not reply.ok and reply.text == run.unwanted(action)
                assert (run.hand.actions(), run.at) == before
        if isinstance(step, Try):
            # A legal move is not the refusal the step shows: it is not played.
            reply = run.play(legal[0])
            assert not reply.ok and "legal" in reply.text
            assert (run.hand.actions(), run.at) == before
        for action in list(_right_moves(run)):
            assert run.play(action).ok


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_each_reply_a_lesson_has_ready_is_for_a_legal_move_at_its_step(lesson: Lesson) -> None:
    """An explanation written for a legal move that is not wanted must be reachable."""
    run = LessonRun(lesson)
    while not run.finished:
        for _ in run.their_moves():
            pass
        step = run.step
        if isinstance(step, Do):
            legal = run.view().legal
            for text, _ in step.replies:
                move = Action.parse(text)
                assert any(same_move(a, move) for a in legal), (lesson.key, text)
                assert not any(same_move(move, w) for w in step.wanted())
        if isinstance(step, (Do, Try)):
            for action in list(_right_moves(run)):
                run.play(action)


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_each_quiz_answer_is_legal_and_each_question_has_a_wrong_answer(lesson: Lesson) -> None:
    assert 2 <= len(lesson.quiz) <= 3
    for question in lesson.quiz:
        hand = question.setup.hand()
        assert hand.to_move == 1 or hand.is_over, (lesson.key, question.ask)
        if isinstance(question, Question):
            legal = hand.legal()
            for right in question.rights():
                assert any(same_move(a, right) for a in legal), (lesson.key, str(right))
        else:
            assert question.answer() == hand.scores[question.whose - 1]


def _wrong(question: Question | Count, view: PlayerView) -> Action | int:
    if isinstance(question, Count):
        return question.answer() + 1
    rights = question.rights()
    legal = [a for a in view.legal if not any(same_move(a, r) for r in rights)]
    if legal:
        return legal[0]
    missing = next(c for c in CARDS if c not in view.hand)
    return Action(ActionKind.DISCARD, (missing,))


def _answer(quiz: QuizRun, answer: Action | int) -> bool:
    if isinstance(answer, int):
        return quiz.answer_number(answer).right
    return quiz.answer_move(answer).right


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_a_quiz_counts_right_answers_and_passes_on_its_mark(lesson: Lesson) -> None:
    right = QuizRun(lesson)
    while not right.finished:
        question = right.question
        answer: Action | int = (
            question.answer() if isinstance(question, Count) else question.rights()[0]
        )
        assert _answer(right, answer)
    assert right.score == len(lesson.quiz) and right.passed
    wrong = QuizRun(lesson)
    while not wrong.finished:
        assert not _answer(wrong, _wrong(wrong.question, wrong.view()))
    assert wrong.score == 0 and not wrong.passed


def test_an_illegal_quiz_answer_is_wrong_and_says_why() -> None:
    quiz = QuizRun(lesson_named("jacks"))
    answered = quiz.answer_move(Action.parse("play QC"))
    assert not answered.right and answered.text.startswith("Not legal:")
    assert quiz.at == 1


def test_a_count_question_explains_with_the_engines_number() -> None:
    lesson = lesson_named("last-turn")
    quiz = QuizRun(lesson)
    quiz.answer_move(Action.parse("meld 6H 6D"))
    quiz.answer_move(Action.parse("take"))
    assert quiz.facts().startswith(
        "The hand is over. Your opponent went out; you forfeited to them: "
    )
    count = quiz.question
    assert isinstance(count, Count)
    answered = quiz.answer_number(count.answer())
    assert answered.right and str(count.answer()) in answered.text


def test_the_facts_of_a_finished_hand_say_who_gets_the_forfeits() -> None:
    quiz = QuizRun(lesson_named("scoring"))
    quiz.answer_number(0)
    facts = quiz.facts()
    assert facts.startswith("The hand is over. You went out; your opponent forfeited to you: ")
    hand = quiz.hand
    assert hand is not None and all(str(c) in facts for c in hand.forfeited)


def test_a_hint_names_the_move_the_lesson_waits_for() -> None:
    run = LessonRun(lesson_named("the-rule"))
    list(run.their_moves())
    assert run.hint() == "type draw"
    run.play(Action.parse("draw"))
    assert run.hint() == "type play 10D"


def test_the_rule_lesson_shows_the_engines_refusal() -> None:
    run = LessonRun(lesson_named("the-rule"))
    list(run.their_moves())
    run.play(Action.parse("draw"))
    reply = run.play(Action.parse("play 10D"))
    assert reply.ok and reply.text.startswith("Refused:") and "The Rule" in reply.text
    # Another illegal move is explained too, and the lesson waits for the one it shows.
    other = run.play(Action.parse("meld 5C 4C 3C"))
    assert not other.ok


def test_lessons_are_named_by_number_or_key() -> None:
    assert lesson_named("1") is LESSONS[0] and lesson_named(" Discards ") is DISCARDS
    for bad in ("0", "11", "", "x" * 500, "٣"):
        with pytest.raises(NoSuchLesson):
            lesson_named(bad)


def test_the_strategy_lesson_agrees_with_the_coach() -> None:
    """What lesson 10 calls costly, the coach (which sees only the learner's view)
    finds gives up more than the lesson's best answer."""
    run = LessonRun(DISCARDS)
    run.play(Action.parse("draw"))
    step = run.step
    assert isinstance(step, Do)
    positions = [(run.hand.view(1), step.wanted(), ("discard KH", "discard 10C"))]
    first = DISCARDS.quiz[0]
    assert isinstance(first, Question)
    positions.append((first.setup.hand().view(1), first.rights(), ("discard 7S",)))
    for view, rights, costly in positions:
        best_right = min(weigh(view, GameInfo(), r).cost(r)[0] for r in rights)
        for bad in costly:
            move = Action.parse(bad)
            assert weigh(view, GameInfo(), move).cost(move)[0] > best_right, bad


# ------------------------------------------------------------------ progress


def test_progress_remembers_lessons_played_and_the_best_quiz(tmp_path: Path) -> None:
    path = tmp_path / "learn.jsonl"
    assert read_progress(path).lessons == {}
    remember("melds", True, None, path)
    remember("melds", False, (1, 3), path)
    remember("melds", False, (3, 3), path)
    remember("melds", False, (2, 3), path)
    remember("jacks", True, None, path)
    progress = read_progress(path)
    assert progress.of("melds") == Done(True, 3, 3)
    assert progress.of("jacks") == Done(True, None, 0)
    assert progress.passed("melds", 2) and not progress.passed("jacks", 2)
    assert next_lesson(progress) is LESSONS[1]


def test_damaged_progress_lines_are_skipped_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "learn.jsonl"
    remember("melds", False, (3, 3), path)
    with path.open("ab") as f:
        f.write(
            b'{"lesson": "jacks", "quiz": [5, 2]}\n\xff\xfe\n[1]\n{"lesson": 3}\n{"lesson": "ja'
        )
    remember("jacks", True, None, path)
    progress = read_progress(path)
    assert progress.of("melds").best == 3 and progress.of("jacks").played
    assert len(progress.problems) == 5
    assert path.read_bytes().count(b"\n") == 7  # nothing was thrown away


def test_the_menu_shows_what_was_done() -> None:
    from umtali.learn.progress import Progress

    progress = Progress({"melds": Done(True, 3, 3), "jacks": Done(True, 1, 3)})
    out = Console(width=80, record=True, file=io.StringIO(), color_system=None)
    out.print(course_menu(progress, Theme()))
    text = out.export_text()
    assert "1 of 10 lessons passed" in text
    assert "quiz 3/3, passed" in text and "quiz 1/3" in text


# ------------------------------------------------------------ on a screen


class ScriptedScreen:
    """A Screen that answers from a list and keeps everything shown as text."""

    def __init__(self, answers: list[str], theme: Theme | None = None) -> None:
        self.answers = list(answers)
        self.theme = theme or Theme()
        self.out = Console(width=80, record=True, file=io.StringIO(), color_system=None)
        self.asked: list[str] = []

    @property
    def interactive(self) -> bool:
        return True

    def size(self) -> tuple[int, int]:
        return 80, 24

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        self.out.print(render_table(view, info, self.theme, 80, 24))
        if note is not None:
            self.out.print(note)

    def show(self, renderable: RenderableType) -> None:
        self.out.print(renderable)

    def blank(self) -> None:
        pass

    def say(self, message: RenderableType) -> None:
        self.out.print(message)

    def ask(
        self, message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        self.asked.append(message)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def page(self, renderable: RenderableType, title: str) -> None:
        self.out.print(Text(f"[page {title}]"))

    def wait(self, seconds: float) -> None:
        pass

    def text(self) -> str:
        return self.out.export_text()


def test_a_learner_plays_lesson_one_and_its_quiz_on_a_screen(tmp_path: Path) -> None:
    path = tmp_path / "learn.jsonl"
    answers = [
        "",  # the menu: Enter starts the next lesson, the first
        "",  # the lesson's text read
        "hint",
        "meld 8S 7S",  # not a meld: the engine says why
        "play KH",  # The Rule: the king is in a marriage
        "8s 7s 6s",
        "m 9d 9c 9h",
        "read",
        "kh qh",
        "discard 10C",  # legal, but the lesson explains why not
        "x 2c",
        "",  # the play is over
        "",  # the outro read: on to the quiz
        "meld qh qs qd",  # wrong
        "",  # no second try: the answer, please
        "",
        "7h 6h 5h",  # right
        "",
        "thirty",  # not a number: asked again, not counted
        "34",
        "",
        "",  # the quiz's result
        "q",  # leave the menu
    ]
    screen = ScriptedScreen(answers)
    Teacher(screen, Theme(), Text("RULES"), path, delay=0).run()
    text = screen.text()
    assert "Hint: type meld 8S 7S 6S or meld 9H 9D 9C or meld KH QH." in text
    assert "8S 7S is not a meld" in text
    assert "(The Rule)" in text
    assert "[page Melds and points]" in text
    assert "worth 5 to whoever puts it down" in text
    assert "26 points on your side" in text
    assert "Your opponent draws and lays three 5s." in text
    assert "Legal, but not the answer: meld KH QH." in text
    assert "Type a number of points." in text  # a sentence, as at the table
    assert "2 of 3 right. Passed!" in text
    assert "? points" in text  # the count question hides the scores it asks for
    assert screen.answers == []
    assert read_progress(path).of("melds") == Done(True, 2, 3)


def test_leaving_a_lesson_half_way_keeps_no_progress_and_returns_to_the_menu(
    tmp_path: Path,
) -> None:
    path = tmp_path / "learn.jsonl"
    plain = Theme(ascii=True)
    screen = ScriptedScreen(["4", "", "quit", "y", "q"], plain)
    Teacher(screen, plain, Text("RULES"), path, delay=0).run()
    assert not path.exists()
    assert screen.asked[-1].startswith("Lesson number (Enter: lesson 1")
    assert "♠" not in screen.text() and "♦" not in screen.text()


def typed_for(lesson: Lesson) -> list[str]:
    """What a learner who does everything right types, from the lesson's text to
    the quiz's result."""
    typed = [""]  # the lesson's text read
    run = LessonRun(lesson)
    while True:
        for _ in run.their_moves():
            pass
        if run.finished:
            break
        for action in list(_right_moves(run)):
            typed.append(str(action))
            run.play(action)
    typed += ["", ""]  # the play is over; the outro read
    for question in lesson.quiz:
        if isinstance(question, Count):
            typed.append(str(question.answer()))
        else:
            typed.append(question.right[0])
        typed.append("")
    return [*typed, ""]  # the quiz's result


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_each_lesson_and_its_quiz_play_on_a_screen(lesson: Lesson, tmp_path: Path) -> None:
    path = tmp_path / "learn.jsonl"
    screen = ScriptedScreen([*typed_for(lesson), "q"])
    Teacher(screen, Theme(), Text("RULES"), path, delay=0).run(lesson)
    assert screen.answers == []
    total = len(lesson.quiz)
    assert f"{total} of {total} right. Passed!" in screen.text()
    assert read_progress(path).of(lesson.key) == Done(True, total, total)


def test_progress_that_cannot_be_written_is_said_and_the_lesson_goes_on(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    lesson = lesson_named("must-play")
    screen = ScriptedScreen([*typed_for(lesson), "q"])
    teacher = Teacher(screen, Theme(), Text("RULES"), blocked / "learn.jsonl", delay=0)
    teacher.run(lesson)
    assert teacher.unsaved.startswith("Your progress could not be saved")
    assert screen.answers == [] and "Passed!" in screen.text()


JUNK = [
    "",
    " ",
    "q",
    "n",
    "y",
    "hint",
    "read",
    "rules",
    "help",
    "quit",
    "why",
    "undo",
    "resign",
    "all",
    "42",
    "-1",
    "99999999999999999999",
    "draw",
    "take",
    "take 2",
    "take next",
    "end",
    "meld",
    "play",
    "discard",
    "play JD on 10D",
    "meld 8S 7S 6S",
    "discard 2C down",
    "x" * 5000,
    "\x00\x1b[2J\x07",
    "ÄÖ ♠♥ 🂡",
    "10S 10S",
    "play 11S",
    "meld KH QH QH",
]


@pytest.mark.parametrize("seed", range(len(LESSONS)))
def test_hostile_lines_in_lessons_and_quizzes_never_break_the_tutor(
    seed: int, tmp_path: Path
) -> None:
    """Random lines, legal moves among them, typed at every question: the course
    answers each and ends cleanly when the input runs out."""
    rng = random.Random(seed)
    screen = ScriptedScreen([])
    teacher = Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0)

    def answer(
        message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        screen.asked.append(message)
        if len(screen.asked) > 400:
            raise EOFError
        view = teacher._view
        if view is not None and view.legal and rng.random() < 0.5:
            return str(rng.choice(view.legal))
        return rng.choice([*JUNK, str(rng.randrange(60))])

    screen.ask = answer  # type: ignore[method-assign]
    teacher.run(LESSONS[seed])
    assert screen.asked[0].startswith("Press Enter to deal")
    assert read_progress(tmp_path / "learn.jsonl").problems == ()


def test_a_lesson_answers_the_tables_words_for_help_rules_and_quit_by_every_alias() -> None:
    from umtali.learn.teach import _lesson_command

    assert [_lesson_command(w) for w in ("help", "h", "?", "rules", "quit", "q", "exit")] == [
        "help",
        "help",
        "help",
        "rules",
        "quit",
        "quit",
        "quit",
    ]
    assert [_lesson_command(w) for w in ("hint", "undo", "why", "draw")] == [None] * 4


def test_the_lesson_toolbar_shortens_to_fit_keeping_every_word(tmp_path: Path) -> None:
    screen = ScriptedScreen(["", "", "hint"])
    bars: list[Toolbar] = []
    asked = screen.ask

    def ask(
        message: str, toolbar: Toolbar | None = None, completer: Completer | None = None
    ) -> str:
        if toolbar is not None:
            bars.append(toolbar)
        return asked(message, toolbar, completer)

    screen.ask = ask  # type: ignore[method-assign]
    Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0).run(LESSONS[0])
    assert bars
    for width in range(40, 121):
        bar = bars[0](width)
        assert len(bar) <= width - 2, (width, bar)
        if width >= 64:  # the table's narrowest: every word whole, quit among them
            assert bar.endswith("hint all read rules help quit"), (width, bar)
    assert "Tab: moves" in bars[0](120)


def test_the_points_played_off_their_cards_are_added_in_the_order_played() -> None:
    run = LessonRun(lesson_named("off-theirs"))
    for _ in run.their_moves():
        pass
    assert run.play(Action.parse("draw")).ok
    for move in ("play 10D", "play 9C", "play 7H", "play 3H"):
        reply = run.play(Action.parse(move))
        assert reply.ok, reply.text
    assert reply.text.endswith(": 5 (10♦) + 1 (9♣) + 1 (7♥) + 1 (3♥) = 8."), reply.text


class LoggingScreen(ScriptedScreen):
    """A ScriptedScreen that keeps the move log the full-screen table shows under each
    table, as the layout makes it (the forfeits after the hand's last turn)."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__(answers)
        self.logs: list[str] = []

    def table(self, view: PlayerView, info: TableInfo, note: Text | None = None) -> None:
        from umtali.ui.narrate import Forfeit, move_log

        super().table(view, info, note)
        forfeit = None
        if view.went_out is not None and info.forfeited:
            forfeit = Forfeit(3 - view.went_out, info.forfeited, view.rules)
        log = move_log(view.events, info.names, self.theme, 79, 12, forfeit)
        self.logs.append("\n".join(line.plain for line in log))


@pytest.mark.parametrize("key", ["going-out", "last-turn", "scoring"])
def test_lessons_seven_to_nine_list_the_forfeits_in_the_move_log(key: str, tmp_path: Path) -> None:
    lesson = lesson_named(key)
    screen = LoggingScreen([*typed_for(lesson), "q"])
    Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0).run(lesson)
    assert screen.answers == []
    forfeits = [log for log in screen.logs if "forfeited" in log]
    assert forfeits, key
    assert re.search(r"(?m)^ (You|Opponent): forfeited .+ \(\d+ points?\) to ", forfeits[0])


def test_the_tenth_lesson_ends_by_suggesting_a_game(tmp_path: Path) -> None:
    for lesson in (LESSONS[-1], LESSONS[-2]):
        screen = ScriptedScreen([*typed_for(lesson), "q"])
        Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0).run(lesson)
        said = " ".join(screen.text().split())
        assert ("That was the last lesson" in said) == (lesson is LESSONS[-1])
        assert ("umtali play" in said) == (lesson is LESSONS[-1])


def test_a_wrong_quiz_answer_says_why_and_may_be_tried_once_more(tmp_path: Path) -> None:
    answers = ["", "", "m 8s 7s 6s", "m 9h 9d 9c", "kh qh", "x 2c", "", ""]  # lesson 1
    answers += ["meld qh qs qd", "meld kh qh", "", "7h 6h 5h", "", "34", "", "", "q"]
    screen = ScriptedScreen(answers)
    Teacher(screen, Theme(), Text("RULES"), tmp_path / "learn.jsonl", delay=0).run()
    text = " ".join(screen.text().split())
    wrong = text.index("Legal, but not the answer. Try once more")
    assert "meld KH QH" not in text[wrong - 200 : wrong + 120]  # the answer is not given yet
    assert "Right. The marriage scores 20" in text[wrong:]
    assert "2 of 3 right." in text  # the first answer is the one counted
    assert screen.answers == []


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_a_lesson_s_refusal_is_a_sentence_as_at_the_table(lesson: Lesson) -> None:
    """Issue 46: a lesson said "you still have playable cards..." where the game says
    "You still have...": both say a refusal through ui.text.as_sentence."""
    run = LessonRun(lesson)
    said = []
    while not run.finished:
        for _ in run.their_moves():
            pass
        if run.finished:
            break
        view = run.view()
        for card in view.hand:  # every discard: those refused are said
            reply = run.play(Action(ActionKind.DISCARD, (card,)))
            if not reply.ok:
                said.append(reply.text)
            if run.view() != view:
                break
        if run.view() == view:
            for action in list(_right_moves(run)):
                run.play(action)
    for text in said:
        assert not text[:1].islower(), text
    if lesson.key == "must-play":
        assert any(text.startswith("You still have playable cards") for text in said), said
