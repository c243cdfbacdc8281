"""The course: the ten lessons in the order they are taught.

>>> [lesson.key for lesson in LESSONS][:3]
['melds', 'jacks', 'off-theirs']
>>> lesson_named("4").title, lesson_named("the-rule").title
('The Rule', 'The Rule')
"""

from __future__ import annotations

from umtali.engine.errors import UmtaliError
from umtali.learn.course import Lesson
from umtali.learn.melding import JACKS, MELDS, MUST_PLAY, OFF_THEIRS, THE_RULE
from umtali.learn.turns import DISCARDS, GOING_OUT, LAST_TURN, SCORING, TAKE_TWO

LESSONS: tuple[Lesson, ...] = (
    MELDS,
    JACKS,
    OFF_THEIRS,
    THE_RULE,
    MUST_PLAY,
    TAKE_TWO,
    GOING_OUT,
    LAST_TURN,
    SCORING,
    DISCARDS,
)


class NoSuchLesson(UmtaliError):
    """A lesson asked for by a number or name the course does not have."""


def lesson_named(text: str) -> Lesson:
    """A lesson by its number in the course (from 1) or its key."""
    word = text.strip().lower()
    if word.isdigit() and word.isascii() and 1 <= int(word) <= len(LESSONS):
        return LESSONS[int(word) - 1]
    for lesson in LESSONS:
        if lesson.key == word:
            return lesson
    names = ", ".join(lesson.key for lesson in LESSONS)
    raise NoSuchLesson(
        f"there is no lesson {text.strip()[:40]!r}: give a number from 1 to {len(LESSONS)}, "
        f"or one of {names}"
    )
