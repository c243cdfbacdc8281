"""What a lesson is made of: a dealt position, a script of moves, and a quiz.

A lesson is data.  Its table comes from an explicit deal and the moves played
before the learner takes over (every one of them checked by the engine as it
is played), so each position is one a real game can reach.  The script then
alternates between what the learner is asked to do (:class:`Do`, or
:class:`Try` for a move the game will refuse) and the opponent's scripted
moves (:class:`Them`).  The quiz asks for a move (:class:`Question`) or a
number (:class:`Count`) on positions of its own.

The learner is always player 1, the scripted opponent player 2.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from umtali.engine.actions import Action
from umtali.engine.cards import CARDS, Card
from umtali.engine.hand import Hand, deal_hand

#: The learner's seat and the scripted opponent's.
LEARNER = 1
OPPONENT = 2


@dataclass(frozen=True, slots=True)
class Setup:
    """A classic position: the two hands as dealt, the first cards of the stock
    (top first; the rest of the deck follows in a fixed order), who holds the
    extra card and plays first, and the moves already played (both players')."""

    you: str
    them: str
    stock: str = ""
    first: int = LEARNER
    before: tuple[str, ...] = ()

    def hand(self) -> Hand:
        """The position, dealt and played up to where the learner takes over."""
        named = [Card.parse(t) for t in f"{self.you} {self.them} {self.stock}".split()]
        rest = [c for c in CARDS if c not in set(named)]
        # Always the same order under the named cards: a lesson plays the same every time.
        random.Random(len(named)).shuffle(rest)
        top = [Card.parse(t) for t in self.stock.split()]
        hand = deal_hand(
            self.you.split(),
            self.them.split(),
            top + rest,
            dealer=self.first,
            eleven=self.first,
            seed=0,
        )
        for action in self.before:
            hand.play(action)
        return hand


@dataclass(frozen=True, slots=True)
class Do:
    """The learner's move: one of ``want`` (every one of them, in any order, with
    ``each``).  Where ``want`` is empty the learner ends the turn: any legal
    moves, until it is no longer theirs.

    ``say`` asks for it; ``done`` is said once it is made (``{you}`` and ``{them}``
    in it are the hand's scores, ``{added}`` the points of the cards the step put
    down, added up in the order the learner played them).  With ``want``
    empty, ``say`` is said only while a discard is legal: while cards can
    still go down, the tutor names them instead, so the words follow the
    position whatever the learner did before.  A legal move that is not
    wanted is not played: ``replies`` may say why for a particular one (keyed
    by its notation, as the engine writes it), else ``other`` does, or, where
    it is empty, the tutor says what the lesson is about and the move it
    waits for.
    """

    say: str
    want: tuple[str, ...] = ()
    done: str = ""
    each: bool = False
    replies: tuple[tuple[str, str], ...] = ()
    other: str = ""

    def wanted(self) -> tuple[Action, ...]:
        return tuple(Action.parse(w) for w in self.want)

    def reply_to(self, action: Action) -> str:
        """What the lesson says to ``action``, a legal move it does not want ("" for
        the tutor's own words)."""
        for text, reply in self.replies:
            if same_move(action, Action.parse(text)):
                return reply
        return self.other


@dataclass(frozen=True, slots=True)
class Try:
    """A move the game refuses, typed by the learner to see the reason: ``move``."""

    say: str
    move: str
    done: str = ""


@dataclass(frozen=True, slots=True)
class Them:
    """The scripted opponent's moves, played one by one for the learner to watch."""

    moves: tuple[str, ...]
    say: str = ""


Step = Do | Try | Them


@dataclass(frozen=True, slots=True)
class Question:
    """Find a move on ``setup``'s table: right answers are ``right``; a legal move
    not among them is wrong, and so is an illegal one.  ``explain`` follows
    either way."""

    setup: Setup
    ask: str
    right: tuple[str, ...]
    explain: str

    def rights(self) -> tuple[Action, ...]:
        return tuple(Action.parse(r) for r in self.right)


@dataclass(frozen=True, slots=True)
class Count:
    """How many points one side of ``setup``'s table scores (as the engine counts
    them, at the end of the hand where it is over): ``whose`` is 1 for the
    learner's side, 2 for the opponent's."""

    setup: Setup
    ask: str
    whose: int
    explain: str

    def answer(self) -> int:
        hand = self.setup.hand()
        return hand.scores[self.whose - 1]


Quiz = Question | Count


@dataclass(frozen=True, slots=True)
class Lesson:
    """One idea (``point``), taught on one deal: read ``intro``, play ``script``
    from ``setup``, read ``outro``, answer the ``quiz``."""

    key: str  # the name progress is remembered by; never changes
    title: str
    point: str  # what the lesson teaches, to end "this lesson is about ..."
    intro: str
    setup: Setup
    script: tuple[Step, ...]
    outro: str
    quiz: tuple[Quiz, ...]

    @property
    def pass_mark(self) -> int:
        """Right answers needed to pass the quiz: all but one, for three or more."""
        return max(1, len(self.quiz) - 1) if len(self.quiz) >= 3 else len(self.quiz)


def same_move(played: Action, wanted: Action) -> bool:
    """Whether ``played`` is ``wanted``; a wanted play that names no card to go on
    matches the play wherever the engine put it."""
    if wanted.target is None and played.target is not None:
        played = Action(played.kind, played.cards, None, played.down)
    return played == wanted
