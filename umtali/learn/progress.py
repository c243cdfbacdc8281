"""How far the learner has come: ``learn.jsonl`` in the data directory.

One line for each lesson played or quiz answered, appended and never
rewritten, so nothing already there is lost (a line cut short by a crash,
or damaged, is skipped and said).  What the menu shows is folded from the
lines: which lessons were played, and each quiz's best score.  The file passes
the file door (:mod:`umtali.store.door`): one that is not a regular file (a FIFO
would hang the menu) or is larger than :data:`~umtali.store.door.PROGRESS` allows
is said in one line and left as it is, and the lessons go on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from umtali.store.door import PROGRESS, FileMissing, FileRefused, read_file, replace_file
from umtali.store.saves import data_dir

#: A longer line is no line of ours.
MAX_LINE = 10_000


def progress_path() -> Path:
    return data_dir() / "learn.jsonl"


@dataclass(frozen=True, slots=True)
class Done:
    """What the learner did in one lesson: played it through, and the quiz's best."""

    played: bool = False
    best: int | None = None  # right answers, None if the quiz was never finished
    questions: int = 0


@dataclass(frozen=True, slots=True)
class Progress:
    lessons: dict[str, Done] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # lines that could not be read, in sentences

    def of(self, key: str) -> Done:
        return self.lessons.get(key, Done())

    def passed(self, key: str, pass_mark: int) -> bool:
        done = self.of(key)
        return done.best is not None and done.best >= pass_mark


def read_progress(path: Path | None = None) -> Progress:
    """The learner's progress; a missing file is a learner who has not begun."""
    path = path or progress_path()
    try:
        raw = read_file(path, PROGRESS)
    except FileMissing:
        return Progress()
    except FileRefused as err:
        return Progress({}, (f"{err}; the file is left as it is.",))
    lessons: dict[str, Done] = {}
    problems: list[str] = []
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            key, played, quiz = _entry(line)
        except (ValueError, TypeError, UnicodeDecodeError):
            problems.append(f"{path}, line {number}, is damaged and was left out.")
            continue
        old = lessons.get(key, Done())
        best, questions = old.best, old.questions
        if quiz is not None and (best is None or quiz[0] >= best or quiz[1] != questions):
            best, questions = quiz
        lessons[key] = Done(old.played or played, best, questions)
    return Progress(lessons, tuple(problems))


def _entry(line: bytes) -> tuple[str, bool, tuple[int, int] | None]:
    if len(line) > MAX_LINE:
        raise ValueError("too long")
    data = json.loads(line.decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not an object")
    key = data.get("lesson")
    played = data.get("played", False)
    quiz = data.get("quiz")
    if not isinstance(key, str) or not isinstance(played, bool):
        raise ValueError("no lesson")
    if quiz is None:
        return key, played, None
    if (
        not isinstance(quiz, list)
        or len(quiz) != 2
        or not all(type(n) is int for n in quiz)
        or not 0 <= quiz[0] <= quiz[1]
    ):
        raise ValueError("a quiz score is two counts")
    return key, played, (quiz[0], quiz[1])


def remember(
    key: str, played: bool, quiz: tuple[int, int] | None, path: Path | None = None
) -> None:
    """Add one line: ``key`` played through, and/or its quiz answered (right, asked).

    OSError if the file cannot be written, FileRefused if it cannot be read whole
    or is not a regular file (it is then left as it is); the lines already there
    are kept as they were, damaged ones too.
    """
    path = path or progress_path()
    try:
        old = read_file(path, PROGRESS, follow=False)
    except FileMissing:
        old = b""
    if old and not old.endswith(b"\n"):
        old += b"\n"  # a last line cut short stays a line of its own
    line: dict[str, object] = {"lesson": key, "played": played}
    if quiz is not None:
        line["quiz"] = list(quiz)
    replace_file(path, old + json.dumps(line).encode("utf-8") + b"\n", PROGRESS)
