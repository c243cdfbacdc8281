"""Every lesson, along every path a learner can take through it: what the lesson
says at each moment must be true of the table at that moment.

A lesson accepts more than one move at some steps (a choice of discards, the
cards of an ``each`` step in any order, the moves that end a turn), and each
choice leads to a different table.  The walk below tries every move the
engine allows at every step, follows each one the lesson accepts, and checks
on each table reached that the instruction and the hint name only moves that
are legal there.  Tables reached twice (the same cards in the same places, by
moves in another order) are walked once, which keeps the walk small.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from umtali.engine.actions import Action, ActionKind
from umtali.learn.course import Do, Lesson, Try, same_move
from umtali.learn.lessons import LESSONS, lesson_named
from umtali.learn.tutor import LessonRun

KEYS = [lesson.key for lesson in LESSONS]

#: More tables than any lesson reaches: a walk that needs more is a lesson grown wild.
BOUND = 3000

_CARD = r"(?:10|[2-9AJQK])[SHDC]"
#: A move written out in a lesson's words: ``meld 8S 7S 6S``, ``discard 2H down``.
NAMED = re.compile(
    rf"\b(?:(?:meld|play|discard)(?: {_CARD}\b)+(?: on {_CARD}\b)?(?: down\b)?|take 2\b)"
)
SAYS_DISCARD = re.compile(r"\bdiscard\b", re.IGNORECASE)
SAYS_DRAW = re.compile(r"\bdraw\b", re.IGNORECASE)
SAYS_NOTHING_DOWN = re.compile(r"\bnothing (?:else |more )?(?:can go|goes) down\b", re.IGNORECASE)


def _settled(run: LessonRun) -> LessonRun:
    for _ in run.their_moves():
        pass
    return run


def _replay(lesson: Lesson, path: tuple[Action, ...]) -> LessonRun:
    run = _settled(LessonRun(lesson))
    for action in path:
        reply = run.play(action)
        assert reply.ok, (lesson.key, [str(a) for a in path], reply.text)
        _settled(run)
    return run


def _place(run: LessonRun) -> tuple[object, ...]:
    """The table and the lesson's step, whatever order the moves came in."""
    view = run.view()
    made = tuple(sorted(str(a) for a in run.made))
    return (
        run.at,
        made,
        tuple(sorted(str(c) for c in view.hand)),
        repr(view.sides),
        view.discard_pile,
        view.discard_top,
        view.to_move,
        view.step,
    )


def _accepted(lesson: Lesson, path: tuple[Action, ...], run: LessonRun) -> list[Action]:
    """Every move the lesson takes at this step."""
    step = run.step
    tried = [Action.parse(step.move)] if isinstance(step, Try) else list(run.view().legal)
    return [a for a in tried if _replay(lesson, path).play(a).ok]


def walk(lesson: Lesson) -> Iterator[tuple[tuple[Action, ...], LessonRun]]:
    """Each table a learner can reach in ``lesson`` by moves it accepts (the finished
    ones included), with the moves that reached it."""
    seen: set[tuple[object, ...]] = set()
    todo: list[tuple[Action, ...]] = [()]
    while todo:
        path = todo.pop()
        run = _replay(lesson, path)
        place = _place(run)
        if place in seen:
            continue
        seen.add(place)
        assert len(seen) <= BOUND, lesson.key
        yield path, run
        if not run.finished:
            moves = _accepted(lesson, path, run)
            assert moves, (lesson.key, [str(a) for a in path], "the learner is stuck")
            todo.extend((*path, a) for a in moves)


def _problems(run: LessonRun) -> list[str]:
    """What the instruction or the hint gets wrong about the table shown."""
    step = run.step
    legal = run.view().legal
    said = run.ask()
    wrong: list[str] = []

    def is_legal(text: str) -> bool:
        move = Action.parse(text)
        return any(same_move(a, move) for a in legal)

    shown = Action.parse(step.move) if isinstance(step, Try) else None
    for text in NAMED.findall(said) + NAMED.findall(run.hint()):
        if shown is not None and same_move(Action.parse(text), shown):
            continue  # the refusal a Try step shows: illegal on purpose
        if not is_legal(text):
            wrong.append(f"names {text!r}, which is not legal here")
    if isinstance(step, Do):
        kinds = {a.kind for a in legal}
        if SAYS_DISCARD.search(said) and ActionKind.DISCARD not in kinds:
            wrong.append("says discard, but no discard is legal")
        if SAYS_DRAW.search(said) and ActionKind.DRAW not in kinds:
            wrong.append("says draw, but drawing is not legal")
        if SAYS_NOTHING_DOWN.search(said) and kinds & {ActionKind.MELD, ActionKind.PLAY}:
            wrong.append("says nothing can go down, but something can")
    waits = run.expected() if isinstance(step, Do) and step.want else ()
    if waits and not any(any(same_move(a, w) for a in legal) for w in waits):
        wrong.append("waits for a move that is not legal")
    return wrong


@pytest.mark.parametrize("lesson", LESSONS, ids=KEYS)
def test_every_instruction_on_every_path_is_legal_where_it_is_given(lesson: Lesson) -> None:
    tables = 0
    for path, run in walk(lesson):
        tables += 1
        if run.finished:
            you, them = run.hand.scores
            assert "{" not in lesson.outro.format(you=you, them=them)
            continue
        wrong = _problems(run)
        assert not wrong, (lesson.key, [str(a) for a in path], run.ask(), wrong)
    asked = sum(isinstance(step, (Do, Try)) for step in lesson.script)
    assert tables > asked  # each step was reached, and the end


def test_the_walk_takes_every_branch_of_lesson_two() -> None:
    """Lesson 2's first discard is the learner's choice of five cards: each one
    leads to a table of its own, the 8C kept or not."""
    paths = [path for path, run in walk(lesson_named("jacks")) if run.finished]
    discards = {str(a) for path in paths for a in path if a.kind is ActionKind.DISCARD}
    assert {"discard 2D", "discard 8C", "discard 4C"} <= discards
    assert any(Action.parse("play 8C") in path for path in paths)


def test_lesson_two_asks_for_the_8c_before_the_discard() -> None:
    """The newcomer's report: after the 8S goes down, the 8C can go off it, so the
    lesson may not say discard; it names the play instead, and then the discard."""
    run = _replay(
        lesson_named("2"),
        tuple(
            Action.parse(m)
            for m in (
                "play JD",
                "play 10D",
                "play 9D",
                "meld 7S 6S 5S",
                "discard 2D",
                "draw",
                "play 8S",
            )
        ),
    )
    said = run.ask()
    assert "discard" not in said.lower() and "play 8C" in said and "8♣" in said
    assert run.hint() == "type play 8C"
    refused = run.play(Action.parse("discard 4C"))
    assert not refused.ok and "play 8C" in refused.text
    assert run.play(Action.parse("play 8C")).ok and not run.finished
    assert run.ask() == "Discard to end your turn."
    assert run.play(Action.parse("discard 4C")).ok and run.finished
