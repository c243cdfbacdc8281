"""``umtali learn`` on a screen: the course menu, a lesson's table, its quiz.

Everything shown goes through the :class:`~umtali.ui.screen.Screen` seam, so
the lessons play in the full-screen table, line by line with ``--plain``,
and on a recording screen in the tests.  Progress is written after each
lesson played and each quiz finished.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from rich import box
from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from umtali.engine.errors import InvalidNotation
from umtali.engine.hand import Hand
from umtali.engine.view import PlayerView
from umtali.learn.course import Count, Lesson, Them
from umtali.learn.lessons import LESSONS
from umtali.learn.progress import Progress, read_progress, remember
from umtali.learn.tutor import Answered, LessonRun, QuizRun
from umtali.store.door import FileRefused
from umtali.ui.commands import parse_command, table_command
from umtali.ui.layout import bounds, lines_of
from umtali.ui.narrate import phrase
from umtali.ui.render import TableInfo
from umtali.ui.screen import Screen, ask_yes
from umtali.ui.text import Trimmed, as_sentence
from umtali.ui.textsafe import to_ascii
from umtali.ui.theme import Theme

#: The words a learner may type besides moves, and what they do.
TUTOR_HELP = (
    ("hint", "the move the lesson is waiting for"),
    ("all", "make every play that is forced, while the lesson takes them"),
    ("read", "the lesson's text again"),
    ("rules", "the whole rule book"),
    ("help", "this list"),
    ("quit", "back to the list of lessons (the lesson starts again next time)"),
)
#: The table's commands a lesson answers itself, by any of the registry's words for them.
LESSON_COMMANDS = ("help", "rules", "quit")


def lesson_toolbar(mode: str, words: list[str], theme: Theme, width: int) -> str:
    """The line under a lesson's prompt: what to type and the words that work, in as
    few words as make it fit ``width`` (as the game's toolbar does); the words, ``quit``
    among them, go last to be cut."""
    dot = theme.dot
    name = "quiz" if mode == "count" else mode
    what = "type a number" if mode == "count" else f"type a move {dot} Tab: moves"
    short = "type a number" if mode == "count" else "type a move"
    listed = " ".join(words)
    for line in (
        f"{name}: {what} {dot} {listed}",
        f"{name}: {short} {dot} {listed}",
        f"{name}: {listed}",
        listed,
    ):
        if len(line) <= width - 2:
            return line
    return listed[: max(0, width - 3)] + theme.ellipsis


NAMES = ("You", "Opponent")


class _Leave(Exception):
    """The learner left the lesson (back to the menu)."""


class TutorCompleter(Completer):
    """Tab offers the legal moves of the table shown, then the tutor's words."""

    def __init__(self, current: Callable[[], PlayerView | None], words: Iterable[str]) -> None:
        self._current = current
        self._words = tuple(words)

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        view = self._current()
        options = [*(view.legal_actions if view is not None else ()), *self._words]
        typed = document.text_before_cursor.lower()
        for option in options:
            if option.startswith(typed):
                yield Completion(option, start_position=-len(document.text_before_cursor))


class Teacher:
    """Runs the course on ``screen``; ``rules`` is the rule book to page through."""

    def __init__(
        self,
        screen: Screen,
        theme: Theme,
        rules: RenderableType,
        path: Path | None = None,
        delay: float = 0.6,
    ) -> None:
        self.screen = screen
        self.theme = theme
        self.rules = rules
        self.path = path
        self.delay = delay
        self._view: PlayerView | None = None
        self.unsaved = ""  # why progress could not be written, if it could not

    # ------------------------------------------------------------ the menu

    def run(self, start: Lesson | None = None) -> None:
        """The menu until the learner leaves; ``start`` goes straight into a lesson."""
        progress = read_progress(self.path)
        for problem in progress.problems:
            self.screen.say(Text(problem, "yellow"))
        if start is not None:
            self.lesson(start)
        while True:
            progress = read_progress(self.path)
            nxt = next_lesson(progress)
            self.screen.show(course_menu(progress, self.theme))
            try:
                answer = self.screen.ask(
                    f"Lesson number (Enter: lesson {LESSONS.index(nxt) + 1}; q: leave): "
                )
            except (KeyboardInterrupt, EOFError):
                return
            word = answer.strip().lower()
            if word in ("q", "quit", "exit"):
                return
            if not word:
                self.lesson(nxt)
            elif word.isdigit() and word.isascii() and 1 <= int(word) <= len(LESSONS):
                self.lesson(LESSONS[int(word) - 1])
            else:
                self.screen.say(
                    Text(f"Type a lesson number, 1 to {len(LESSONS)}, or q to leave.", "red")
                )

    # ----------------------------------------------------------- a lesson

    def lesson(self, lesson: Lesson) -> None:
        number = LESSONS.index(lesson) + 1
        self._read(lesson.intro, number, lesson)
        try:
            if self._pause("Press Enter to deal, or q to go back:") == "q":
                return
            run = LessonRun(lesson)
            self._play(run, TableInfo(NAMES, label=f"Lesson {number}"))
            self._remember(lesson.key, True, None)
            you, them = run.hand.scores
            self._read(lesson.outro.format(you=you, them=them), number, lesson)
            if self._pause("Press Enter for the quiz, or q to go back:") == "q":
                return
            self._quiz(QuizRun(lesson), number)
        except _Leave:
            return

    def _play(self, run: LessonRun, info: TableInfo) -> None:
        said: list[Text] = []
        while True:
            if isinstance(run.step, Them):
                said = self._watch(run, info, said)
            view = self._view = run.view()
            self.screen.table(view, ended(info, run.hand))
            for message in said:
                self.screen.say(message)
            if run.finished:
                # The table as the lesson leaves it, the last moves and words with it.
                self._pause("That is the lesson's play. Press Enter to go on:")
                return
            self.screen.say(self._words(run.ask(), "bold cyan"))
            said = []
            line = self._ask("You> ", "lesson")
            word = line.strip().lower()
            if word == "hint":
                said.append(self._words(f"Hint: {run.hint()}.", "cyan"))
                continue
            if word == "read":
                self.screen.page(self._markdown(run.lesson.intro), run.lesson.title)
                continue
            meta = _lesson_command(word)
            if meta is not None:
                self._meta(meta)
                continue
            try:
                command = parse_command(line, view)
            except InvalidNotation as err:
                said.append(Text(f"{as_sentence(str(err))} (hint shows the move)", "red"))
                continue
            if command.meta == "all":
                said += self._all(run)
                continue
            if command.action is None:
                said.append(Text(not_here(command.meta), "red"))
                continue
            reply = run.play(command.action)
            said.append(self._words(reply.text, "green" if reply.ok else "red"))

    def _all(self, run: LessonRun) -> list[Text]:
        """``all``: the forced plays the lesson takes, each with its answer."""
        replies = run.play_forced()
        if not replies:
            return [Text("Nothing is forced here: choose a move yourself, or type hint.", "yellow")]
        return [self._words(reply.text, "green") for reply in replies]

    def _watch(self, run: LessonRun, info: TableInfo, said: list[Text]) -> list[Text]:
        """The opponent's scripted moves, one at a time; returns what is left to say."""
        step = run.step
        assert isinstance(step, Them)
        self.screen.table(run.view(), info)
        for message in said:
            self.screen.say(message)
        if step.say:
            self.screen.say(self._words(step.say, "italic"))
        for _ in run.their_moves():
            view = run.view()
            # The line screen prints the move under the table; the full screen's log has it.
            moved = phrase(view.events[-1], self.theme)
            self.screen.table(view, info, Text(f"Opponent {moved}.", "italic"))
            self.screen.wait(self.delay)
        return []

    # -------------------------------------------------------------- a quiz

    def _quiz(self, quiz: QuizRun, number: int) -> None:
        total = len(quiz.lesson.quiz)
        while not quiz.finished:
            asked = quiz.question
            view = self._view = quiz.view()
            assert quiz.hand is not None
            info = TableInfo(
                NAMES,
                label=f"Lesson {number} quiz {quiz.at + 1}/{total}",
                points=not isinstance(asked, Count),  # the answer is not on the table
            )
            info = ended(info, quiz.hand)
            first = self._answer(quiz, view, info, [])
            assert first is not None  # only a second try may be passed by
            told = first
            if not first.right:
                # Why, but not the answer yet: a learner who tries again with the reason
                # in mind learns more than one who reads the answer at once.  The first
                # answer is the one counted, so the score stays honest.
                again = self._words(
                    f"{first.verdict} Try once more (your first answer is the one counted), "
                    "or press Enter for the answer.",
                    "red",
                )
                second = self._answer(quiz, view, info, [again], True)
                told = second if second is not None else first
            quiz.settle(first)
            self.screen.table(view, info)
            self.screen.say(self._words(told.text, "green" if told.right else "red"))
            self._pause("Press Enter to go on:")
        self._remember(quiz.lesson.key, False, (quiz.score, total))
        verdict = "Passed!" if quiz.passed else f"{quiz.lesson.pass_mark} are needed to pass."
        if number == len(LESSONS):  # the course is done: the way on is a whole game
            verdict += (
                "\n\nThat was the last lesson. Play a whole game against the bot: "
                "`umtali play` (`umtali play --bot easy` for a gentler one)."
            )
        self.screen.show(
            self._panel(f"{quiz.score} of {total} right. {verdict}", f"Lesson {number}: quiz")
        )
        self._pause("Press Enter for the list of lessons:")

    def _answer(
        self,
        quiz: QuizRun,
        view: PlayerView,
        info: TableInfo,
        said: list[Text],
        again: bool = False,
    ) -> Answered | None:
        """The learner's answer to the question asked, judged but not counted; asked
        until it is a move (or a number) at all.  With ``again`` (a second try), an
        empty line passes (None): the learner asks for the answer."""
        asked = quiz.question
        while True:
            self.screen.table(view, info)
            for message in said:
                self.screen.say(message)
            facts = quiz.facts(self.theme.plain)
            if facts:
                self.screen.say(self._words(facts))
            self.screen.say(self._words(asked.ask, "bold cyan"))
            line = self._ask("Answer> ", "count" if isinstance(asked, Count) else "quiz")
            word = line.strip().lower()
            if again and not word:
                return None
            if word == "hint" or word == "read":
                said = [Text("No hints in the quiz: the lesson is over. Try!", "yellow")]
                continue
            meta = _lesson_command(word)
            if meta is not None:
                self._meta(meta)
                said = []
                continue
            try:
                if isinstance(asked, Count):
                    return quiz.judge_number(_number(line))
                action = parse_command(line, view).action
                if action is None:
                    raise InvalidNotation("type a move as your answer")
                return quiz.judge_move(action)
            except (InvalidNotation, ValueError) as err:
                said = [Text(as_sentence(str(err)), "red")]

    # ------------------------------------------------------------- helpers

    def _ask(self, prompt: str, mode: str) -> str:
        """A line from the learner; Ctrl-C asks whether to leave the lesson."""
        words = [w for w, _ in TUTOR_HELP] if mode == "lesson" else ["rules"]
        theme = self.theme
        try:
            return self.screen.ask(
                prompt,
                toolbar=lambda width: lesson_toolbar(mode, words, theme, width),
                completer=TutorCompleter(lambda: self._view, words),
            )
        except KeyboardInterrupt:
            if ask_yes(self.screen, "Leave this lesson?", interrupted=True):
                raise _Leave from None
            return ""
        except EOFError:
            raise _Leave from None

    def _meta(self, name: str) -> None:
        """Answer one of :data:`LESSON_COMMANDS`."""
        if name == "quit":
            if ask_yes(self.screen, "Leave this lesson?", interrupted=True):
                raise _Leave
        elif name == "rules":
            self.screen.page(self.rules, "rules")
        else:
            self.screen.page(tutor_help(), "help")

    def _pause(self, message: str) -> str:
        try:
            return self.screen.ask(message + " ").strip().lower()
        except (KeyboardInterrupt, EOFError):
            raise _Leave from None

    def _remember(self, key: str, played: bool, quiz: tuple[int, int] | None) -> None:
        try:
            remember(key, played, quiz, self.path)
        except (OSError, FileRefused) as err:
            why = err.reason if isinstance(err, FileRefused) else err.strerror or str(err)
            unsaved = f"Your progress could not be saved ({why})."
            if unsaved != self.unsaved:  # said once, not after every lesson
                self.unsaved = unsaved
                self.screen.say(Text(unsaved, "yellow"))

    def _read(self, text: str, number: int, lesson: Lesson) -> None:
        """Lesson ``number``'s text on a screen of its own; where the terminal is too
        short for it, in a page the learner scrolls, then its title under the question."""
        title = f"Lesson {number}: {lesson.title}"
        panel = self._panel(text, title)
        width, height = self.screen.size()
        # Measured in the column the screen draws it in (narrower on a wide terminal).
        if len(lines_of(panel, bounds(width)[1], None)) > height - 3:
            self.screen.page(panel, title)
            panel = self._panel(f"(The text of Lesson {number}: type read to see it again.)", title)
        self.screen.show(panel)

    def _words(self, text: str, style: str = "") -> Text:
        """A lesson's sentence as a message (its suit symbols as letters in ASCII)."""
        return Text(to_ascii(text) if self.theme.ascii else text, style)

    def _markdown(self, text: str) -> Markdown:
        return Markdown(to_ascii(text) if self.theme.ascii else text)

    def _panel(self, text: str, title: str) -> Panel:
        frame = box.ASCII if self.theme.ascii else box.ROUNDED
        return Panel(self._markdown(text), title=title, box=frame, expand=False)


def ended(info: TableInfo, hand: Hand) -> TableInfo:
    """``info`` for ``hand``'s table; once someone has gone out and the hand is over,
    with the cards forfeited to them, which the move log lists as a game's does."""
    if not hand.is_over or hand.went_out is None:
        return info
    return replace(info, forfeited=tuple(hand.forfeited))


def _lesson_command(word: str) -> str | None:
    """The name of the lesson command ``word`` asks for (``h`` is help), if it is one."""
    command = table_command(word)
    return command.name if command is not None and command.name in LESSON_COMMANDS else None


def not_here(meta: str | None) -> str:
    """The answer to a table command a lesson has no use for (``undo``, ``why``)."""
    if meta is None:
        return "That is not a move. Type a move, or hint."
    return f"{meta} belongs to a game at the table, not to a lesson. Type a move, or hint."


def _number(line: str) -> int:
    word = line.strip()
    if not (word.isdigit() and word.isascii() and len(word) <= 4):
        raise ValueError("type a number of points")
    return int(word)


def next_lesson(progress: Progress) -> Lesson:
    """The first lesson whose quiz is not passed yet (the first, for a newcomer)."""
    for lesson in LESSONS:
        if not progress.passed(lesson.key, lesson.pass_mark):
            return lesson
    return LESSONS[0]


def course_menu(progress: Progress, theme: Theme) -> RenderableType:
    """The lessons, with what the learner has done in each."""
    table = Table(box=None, padding=(0, 1), show_header=False)
    for number, lesson in enumerate(LESSONS, 1):
        done = progress.of(lesson.key)
        if progress.passed(lesson.key, lesson.pass_mark):
            status = Text(f"quiz {done.best}/{done.questions}, passed", "green")
        elif done.best is not None:
            status = Text(f"quiz {done.best}/{done.questions}", "yellow")
        elif done.played:
            status = Text("played", "yellow")
        else:
            status = Text("")
        table.add_row(f"{number:>2}.", lesson.title, status)
    passed = sum(progress.passed(lesson.key, lesson.pass_mark) for lesson in LESSONS)
    heading = Text(f"Learn Umtali {theme.dash} {passed} of {len(LESSONS)} lessons passed", "bold")
    return Group(heading, Text(""), table)


def tutor_help() -> Table:
    table = Table(show_header=False, box=None, padding=(0, 2))
    for word, what in TUTOR_HELP:
        table.add_row(Text(word, style="bold"), what)
    table.add_row("", "")
    table.add_row(Text("moves", style="bold"), "draw, take, take 2, meld 7S 6S 5S, play JD,")
    table.add_row("", "discard 4C, discard 4C down (cards: 10S, qd, AH...)")
    return table


def learn_table(
    plain: bool,
    theme: Theme,
    rules: RenderableType,
    show_rules: Callable[[Console], None],
    start: Lesson | None,
    delay: float,
) -> int:
    """``umtali learn``: the course on the full-screen table (or line by line)."""
    from umtali.play.table import make_screen

    screen, run = make_screen(plain, theme, show_rules)
    teacher = Teacher(screen, theme, rules, delay=delay)

    def body() -> tuple[int, list[str]]:
        teacher.run(start)
        return 0, [teacher.unsaved or "Your progress is saved: umtali learn goes on from it."]

    return run(body)


def print_course(ascii_only: bool) -> int:
    """``umtali learn --list``: the lessons and the learner's progress, printed."""
    theme = Theme(ascii=ascii_only)
    console = Console(highlight=False)
    progress = read_progress()
    for problem in progress.problems:
        console.print(Text(problem, "yellow"))
    console.print(Trimmed(course_menu(progress, theme)))  # no cell padding at line ends
    console.print(f"\nNext: umtali learn {LESSONS.index(next_lesson(progress)) + 1}")
    return 0
