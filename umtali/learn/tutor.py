"""Playing a lesson and its quiz: a typed move in, what the tutor says back.

No terminal here: :class:`LessonRun` and :class:`QuizRun` take the learner's
moves as :class:`~umtali.Action` values (or a typed number) and answer with a
:class:`Reply`, so a test plays a whole lesson, right and wrong moves, as the
screen would.  The engine decides what is legal and says why a move is
refused; the lesson says why a legal move is not the one it teaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from umtali.bots.forced import forced_action
from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card
from umtali.engine.errors import IllegalAction
from umtali.engine.hand import Hand
from umtali.engine.view import PlayerView
from umtali.learn.course import LEARNER, Count, Do, Lesson, Question, Them, Try, same_move
from umtali.ui.text import as_sentence


@dataclass(frozen=True, slots=True)
class Reply:
    """What the tutor says to a move: ``ok`` when it counted (made, or refused as
    the lesson meant), else it did not and the learner tries again."""

    text: str
    ok: bool


_DOWN = (ActionKind.MELD, ActionKind.PLAY)


def _cards_of(actions: tuple[Action, ...]) -> list[Card]:
    """The cards of ``actions``, each once, in order."""
    return list(dict.fromkeys(c for a in actions for c in a.cards))


def added_up(made: Sequence[Action]) -> str:
    """The points of the cards of ``made`` added up in the order they went down:
    ``5 (10♦) + 1 (7♥) = 6``."""
    cards = [card for action in made for card in action.cards]
    terms = " + ".join(f"{card.points} ({card.symbol()})" for card in cards)
    return f"{terms} = {sum(card.points for card in cards)}"


class LessonRun:
    """One lesson's table, from its deal to the end of its script."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.hand: Hand = lesson.setup.hand()
        self.at = 0  # the step being played
        self._made: list[Action] = []  # of the current Do with ``each``

    @property
    def finished(self) -> bool:
        return self.at >= len(self.lesson.script)

    @property
    def step(self) -> Do | Try | Them | None:
        return None if self.finished else self.lesson.script[self.at]

    def view(self) -> PlayerView:
        return self.hand.view(LEARNER)

    @property
    def made(self) -> tuple[Action, ...]:
        """The learner's moves made so far at this step (of an ``each`` step, or of
        the turn a step ends)."""
        return tuple(self._made)

    def their_moves(self) -> Iterator[Action]:
        """Play the opponent's scripted moves (if it is their step), yielding after
        each so the table can be shown between them."""
        while isinstance(self.step, Them):
            for move in self.step.moves:
                yield self.hand.play(move)
            self.at += 1

    def ask(self) -> str:
        """What the learner is asked to do now, as the position stands."""
        step = self.step
        if isinstance(step, Do) and not step.want:
            still = self._still_down()
            if still:
                cards = " ".join(c.symbol() for c in _cards_of(still))
                return (
                    f"Before your turn can end: {cards} can still go down, and every card "
                    f"that can go down must. Type {' or '.join(str(a) for a in still[:4])}."
                )
        return step.say if isinstance(step, (Do, Try)) else ""

    def hint(self) -> str:
        """The move the lesson is waiting for, in the notation to type."""
        step = self.step
        if isinstance(step, Try):
            return f"type {step.move}"
        if isinstance(step, Do):
            if not step.want:
                still = self._still_down()
                if still:
                    return "type " + " or ".join(str(a) for a in still)
                return "any of these will do: " + ", ".join(self.view().legal_actions)
            return "type " + " or ".join(str(a) for a in self.expected())
        return ""

    def expected(self) -> tuple[Action, ...]:
        """The moves the step waits for that are legal now (the move a :class:`Try`
        shows refused, for that step)."""
        step = self.step
        if isinstance(step, Try):
            return (Action.parse(step.move),)
        if not isinstance(step, Do):
            return ()
        legal = self.view().legal
        if not step.want:
            return legal
        left = self._left(step)
        now = tuple(w for w in left if any(same_move(a, w) for a in legal))
        return now or tuple(left)

    def unwanted(self, action: Action) -> str:
        """What the lesson says to a legal move it does not want now."""
        step = self.step
        assert isinstance(step, Do)
        said = step.reply_to(action)
        if said:
            return said
        moves = " or ".join(str(a) for a in self.expected())
        return f"That move is legal, but this lesson is about {self.lesson.point}; try {moves}."

    def _still_down(self) -> tuple[Action, ...]:
        """The plays and melds the learner can still make this turn."""
        return tuple(a for a in self.view().legal if a.kind in _DOWN)

    def _left(self, step: Do) -> list[Action]:
        return [w for w in step.wanted() if not any(same_move(m, w) for m in self._made)]

    def play(self, action: Action) -> Reply:
        """The learner's move for the current step."""
        step = self.step
        if isinstance(step, Try):
            return self._try(step, action)
        if not isinstance(step, Do):
            raise RuntimeError("the opponent's moves come first (their_moves)")
        trial = self.hand.clone()
        try:
            applied = trial.play(action)
        except IllegalAction as refusal:
            return Reply(as_sentence(str(refusal)), False)
        left = self._left(step)
        if left and not any(same_move(applied, w) for w in left):
            return Reply(self.unwanted(applied), False)
        self.hand = trial
        self._made.append(applied)
        if step.each and len(left) > 1:
            return Reply(f"Good: {applied}. {len(left) - 1} more to go.", True)
        if not step.want and self.hand.to_move == LEARNER and not self.hand.is_over:
            return Reply(f"Good: {applied}.", True)  # the turn goes on: ask() says what next
        added = added_up(self._made)
        self._next()
        you, them = self.hand.scores
        done = step.done.format(you=you, them=them, added=added)
        return Reply(done or "Good.", True)

    def play_forced(self) -> list[Reply]:
        """``all``: the plays the position forces, one after another, while the lesson
        takes them (it stops at a real choice, at a step that shows a refusal, and
        at the opponent's turn)."""
        replies: list[Reply] = []
        while isinstance(step := self.step, Do):
            forced = forced_action(self.view())
            if forced is None:
                break
            if step.want:
                legal = self.view().legal
                wanted = [w for w in self.expected() if any(same_move(a, w) for a in legal)]
                if not wanted:
                    break
                forced = wanted[0]
            reply = self.play(forced)
            if not reply.ok:
                break
            replies.append(Reply(f"{forced}: {reply.text}", True))
        return replies

    def _try(self, step: Try, action: Action) -> Reply:
        wanted = Action.parse(step.move)
        try:
            self.hand.clone().play(action)
        except IllegalAction as refusal:
            if not same_move(action, wanted):
                return Reply(f"{as_sentence(str(refusal))} Now type {wanted}.", False)
            self._next()
            return Reply(f"Refused: {as_sentence(str(refusal))} {step.done}".strip(), True)
        return Reply(f"That one is legal. Type {wanted} to see what the game says.", False)

    def _next(self) -> None:
        self.at += 1
        self._made = []


@dataclass(frozen=True, slots=True)
class Answered:
    """One quiz answer: whether it was right, and what the tutor says."""

    right: bool
    text: str
    # The verdict alone, without the right answer or the explanation: what a learner
    # who may try again is told first.
    verdict: str = ""


class QuizRun:
    """A lesson's quiz: one answer a question, counted."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.at = 0
        self.score = 0
        self.hand: Hand | None = None
        self._deal()

    def _deal(self) -> None:
        self.hand = self.question.setup.hand() if not self.finished else None

    @property
    def finished(self) -> bool:
        return self.at >= len(self.lesson.quiz)

    @property
    def question(self) -> Question | Count:
        return self.lesson.quiz[self.at]

    @property
    def passed(self) -> bool:
        return self.score >= self.lesson.pass_mark

    def view(self) -> PlayerView:
        assert self.hand is not None
        return self.hand.view(LEARNER)

    def facts(self, name: Callable[[Card], str] = str) -> str:
        """What the table cannot show of a hand that is over: who went out, and the
        cards forfeited to them (shown to both players when a hand ends)."""
        hand = self.hand
        if hand is None or not hand.is_over or hand.went_out is None:
            return ""
        lost = " ".join(name(c) for c in hand.forfeited)
        if hand.went_out == LEARNER:
            out, forfeited = "You went out", f"your opponent forfeited to you: {lost}"
        else:
            out, forfeited = "Your opponent went out", f"you forfeited to them: {lost}"
        if not lost:
            forfeited = "nothing was forfeited"
        return f"The hand is over. {out}; {forfeited}."

    def answer_move(self, action: Action) -> Answered:
        """An answer to a :class:`Question` (a move), counted: on to the next question."""
        return self.settle(self.judge_move(action))

    def answer_number(self, number: int) -> Answered:
        """An answer to a :class:`Count` (points), counted: on to the next question."""
        return self.settle(self.judge_number(number))

    def judge_move(self, action: Action) -> Answered:
        """Whether ``action`` answers the :class:`Question` asked, and why; nothing is
        counted (a learner may try again before :meth:`settle`)."""
        question = self.question
        assert isinstance(question, Question) and self.hand is not None
        try:
            applied = self.hand.clone().play(action)
        except IllegalAction as refusal:
            verdict = f"Not legal: {as_sentence(str(refusal))}"
            return Answered(False, f"{verdict} {question.explain}", verdict)
        if any(same_move(applied, r) for r in question.rights()):
            return Answered(True, f"Right. {question.explain}", "Right.")
        best = " or ".join(question.right)
        text = f"Legal, but not the answer: {best}. {question.explain}"
        return Answered(False, text, "Legal, but not the answer.")

    def judge_number(self, number: int) -> Answered:
        """Whether ``number`` answers the :class:`Count` asked; nothing is counted."""
        question = self.question
        assert isinstance(question, Count)
        points = question.answer()
        explained = question.explain.format(answer=points)
        if number == points:
            return Answered(True, f"Right. {explained}", "Right.")
        return Answered(False, f"Not quite: {points}. {explained}", "Not quite.")

    def settle(self, answered: Answered) -> Answered:
        """Count ``answered`` (the first answer to the question asked) and deal the next."""
        self.score += answered.right
        self.at += 1
        self._deal()
        return answered
