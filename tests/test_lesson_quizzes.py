"""The quizzes are fair: a question has the answers its words allow, and asks only
what the course has taught by then."""

from __future__ import annotations

import re

import pytest

from umtali.engine.actions import Action
from umtali.learn.course import Do, Lesson, Question, Them, Try, same_move
from umtali.learn.lessons import LESSONS, lesson_named
from umtali.learn.tutor import QuizRun

KEYS = [lesson.key for lesson in LESSONS]

#: Every legal move a question marks wrong, and the words of the question that rule
#: it out.  A question not listed has one legal answer, or accepts every legal one.
#: Whoever changes a question or its table re-reads this list: the test below fails
#: until it names exactly the legal moves the question marks wrong.
RULED_OUT: dict[tuple[str, int], dict[str, str]] = {
    ("melds", 0): {"meld QS QH QD": "scores more"},  # 15 against the marriage's 20
    ("melds", 1): {"play JD": "meld"},  # a jack alone is no meld
    ("jacks", 0): {"meld 3S 2S AS": "always playable"},  # the run needs its cards
    ("off-theirs", 1): {"play JS": "extends it"},  # a jack goes down alone
    ("the-rule", 0): {"meld 5C 4C 3C 2C": "scores most"},  # 4, with a pair stuck, not 6
    ("take-two", 0): {"draw": "for sure"},  # the stock's card is unknown
    ("take-two", 1): {"draw": "for sure", "take": "the most cards"},  # the 6S alone stays
    ("going-out", 0): {
        "discard 9H": "gives your opponent the least",  # face up, it may be taken
        "discard 6D": "goes out",  # keeps 6C 9H: not out
        "discard 6C": "goes out",
    },
    ("last-turn", 1): {"draw": "for sure"},
    # Each breaks a habit: feeds the 6S, keeps a pair or two in a row, or is worth 5.
    ("discards", 0): {
        f"discard {card}": "all four habits"
        for card in ("7S", "QS", "5H", "6H", "9D", "10D", "QD", "9C", "KC")
    },
    ("discards", 1): {
        f"discard {card}": "all four habits"
        for card in ("7S", "8S", "KS", "5H", "6H", "9D", "10D", "9C", "KC")
    },
}


def _questions() -> list[tuple[str, int, Question]]:
    return [
        (lesson.key, n, question)
        for lesson in LESSONS
        for n, question in enumerate(lesson.quiz)
        if isinstance(question, Question)
    ]


@pytest.mark.parametrize(
    ("key", "n", "question"), _questions(), ids=[f"{k}-{n + 1}" for k, n, _ in _questions()]
)
def test_a_question_marks_wrong_only_the_legal_moves_its_words_rule_out(
    key: str, n: int, question: Question
) -> None:
    legal = question.setup.hand().legal()
    wrong = {str(a) for a in legal if not any(same_move(a, r) for r in question.rights())}
    ruled_out = RULED_OUT.get((key, n), {})
    assert wrong == set(ruled_out), (key, n + 1, question.ask)
    for move, words in ruled_out.items():
        assert words in question.ask, (key, n + 1, move, words)


def test_every_ruled_out_question_is_a_quiz_question() -> None:
    asked = {(key, n) for key, n, _ in _questions()}
    assert set(RULED_OUT) <= asked


def test_the_jacks_quiz_asks_for_the_card_that_is_always_playable() -> None:
    """The newcomer's report: "which card can you play first?" marked the legal run
    A-2-3S wrong.  The question now asks for what only the jack is."""
    quiz = QuizRun(lesson_named("jacks"))
    assert "first" not in quiz.question.ask and "always playable" in quiz.question.ask
    answered = quiz.answer_move(Action.parse("play JC"))
    assert answered.right


# ------------------------------------------------- taught before it is asked


#: Rules a quiz may lean on: how an explanation or a refusal states it, and how a
#: lesson's text teaches it.
FACTS: tuple[tuple[str, str, str], ...] = (
    (
        "a jack never joins a column",
        r"\bjacks?\b[^.]*\bnever\b[^.]*\b(?:joins?|part of|belongs?)\b",
        r"\bjacks?\b[^.]*\bnever joins\b[^.]*\b(?:column|run)\b",
    ),
    (
        "a jack is always playable",
        r"\balways playable\b",
        r"\bjack\W* is always playable\b",
    ),
    (
        "a pair goes down only to go out",
        r"\bpair\b[^.]*\b(?:only when|takes? you out)\b",
        r"\bpair\b[^.]*\b(?:only when it takes you out|very last play)\b",
    ),
    ("aces are low", r"\baces? (?:are|is) low\b", r"\baces are low\b"),
    ("a marriage scores 20", r"\b20\b", r"\b20 for the pair\b"),
    ("ten to king score 5", r"\b(?:5 each|worth 5|at 5)\b", r"\b10, J, Q or K is worth 5\b"),
    (
        "nothing goes off a marriage",
        r"\bnothing (?:goes )?off a marriage\b",
        r"\boff a \*\*marriage\*\*: nothing\b",
    ),
    (
        "a group takes a card of its rank",
        r"\bgroup takes another card of its rank\b",
        r"\boff a \*\*group\*\*: another card of its rank\b",
    ),
    ("The Rule", r"\bThe Rule\b", r"\*\*The Rule\.\*\*"),
    (
        "what can go down must",
        r"\b(?:so it must|must go down)\b",
        r"\b(?:every card that can go down must|must put down every card)\b",
    ),
    ("taking two discards", r"\btake 2\b", r"`take 2`"),
    ("a discard may go face down", r"\bface down\b", r"\*\*face down\*\*"),
    ("forfeits", r"\bforfeit", r"\*\*forfeited\*\*|\bforfeited to you\b"),
    ("two in a row on the pile", r"\btwo in a row\b", r"\btwo in a row on the pile\b"),
)

#: Wrong answers a learner is likely to try, whose refusal states a rule.
TEMPTING: dict[tuple[str, int], tuple[str, ...]] = {
    ("melds", 1): ("meld 9D 10D JD", "meld KC AC 2C"),
    ("jacks", 0): ("play QC",),
    ("off-theirs", 1): ("meld 7S JS",),
}


def _taught(lesson: Lesson) -> str:
    """Everything a lesson shows every learner: its texts and its script's words."""
    words = [lesson.intro, lesson.outro]
    for step in lesson.script:
        if isinstance(step, (Do, Try)):
            words += [step.say, step.done]
        elif isinstance(step, Them):
            words.append(step.say)
    return "\n".join(words)


def _at(lesson: Lesson, n: int) -> QuizRun:
    """``lesson``'s quiz at its question ``n``, the questions before it answered."""
    quiz = QuizRun(lesson)
    for question in lesson.quiz[:n]:
        if isinstance(question, Question):
            quiz.answer_move(question.rights()[0])
        else:
            quiz.answer_number(question.answer())
    return quiz


def _asked(lesson: Lesson) -> list[str]:
    """What a lesson's quiz says: its questions, explanations and the refusals of
    the tempting wrong answers."""
    said: list[str] = []
    for n, question in enumerate(lesson.quiz):
        said += [question.ask, question.explain]
        for move in TEMPTING.get((lesson.key, n), ()):
            said.append(_at(lesson, n).answer_move(Action.parse(move)).text)
    return said


@pytest.mark.parametrize("number", range(len(LESSONS)), ids=KEYS)
def test_a_quiz_leans_only_on_rules_taught_by_its_lesson_or_an_earlier_one(number: int) -> None:
    lesson = LESSONS[number]
    taught = "\n".join(_taught(earlier) for earlier in LESSONS[: number + 1])
    for said in _asked(lesson):
        for name, used, teaches in FACTS:
            if re.search(used, said, re.IGNORECASE):
                assert re.search(teaches, taught, re.IGNORECASE), (lesson.key, name, said)


def test_every_fact_is_leant_on_and_taught_somewhere() -> None:
    """The list of facts is not dead: each is used by a quiz and found in a lesson."""
    taught = "\n".join(_taught(lesson) for lesson in LESSONS)
    asked = "\n".join(s for lesson in LESSONS for s in _asked(lesson))
    for name, used, teaches in FACTS:
        assert re.search(used, asked, re.IGNORECASE), name
        assert re.search(teaches, taught, re.IGNORECASE), name


def test_lesson_one_teaches_that_a_jack_joins_no_run_before_its_quiz_says_so() -> None:
    """The newcomer's report: the quiz refused 9-10-JD "because jacks are never part
    of a meld", which lesson 1 never said."""
    lesson = lesson_named("melds")
    assert re.search(FACTS[0][2], _taught(lesson), re.IGNORECASE)
    quiz = QuizRun(lesson)
    quiz.answer_move(Action.parse("meld KH QH"))
    answered = quiz.answer_move(Action.parse("meld 9D 10D JD"))
    assert not answered.right and "jack" in answered.text
