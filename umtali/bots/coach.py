"""The coach: what each of a player's decisions cost in the chance of winning the game.

For every decision with a real choice the coach runs the one analysis
(:mod:`umtali.bots.analysis`: the expert's search, which the hint runs too) on
the view the player had, with the move they made among the candidates, and
measures what their move gave up against the search's choice: in the chance
of winning the game, and in points, which a player understands too.  Asked
about the same position at the same budget the hint and the coach see the
same deals, so the move the hint gave is never the coach's mistake.

A decision that cost at least :data:`INACCURACY` of the chance of winning is
an inaccuracy, :data:`MISTAKE` a mistake, :data:`BLUNDER` a blunder; one that
gave up :data:`COSTLY_POINTS` points or more on average is at least an
inaccuracy, whatever it cost in chance (a gift made far ahead or far behind).  Each
hand and game gets an accuracy figure (:func:`accuracy`).  The reason given
for a flagged decision is built from what the player could see: the card
given that the opponent took at once and what they laid with it, the pair or
run broken, the points left in hand at risk of forfeit, the score with the
hands left.  Its words speak to the player ("your chance") by default; a
:class:`Voice` tells the same findings of a player by name (a review of the other
seat's decisions).  The findings keep their cards and moves as values, and are
worded when told: in the record's notation (``3S``) by default, or with the card
words a caller passes (a screen's ``3♠``), so a review names cards as its table
draws them while ``--json`` keeps the notation.

The coach reads only :class:`PlayerView` values and public events, so its
advice cannot depend on a card the player did not see; a test plants
different hidden cards behind the same view and checks the advice does not
change.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from umtali.bots.analysis import Analysis, analyse
from umtali.bots.policy import forced_choice
from umtali.bots.seat import GameInfo, possessive
from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card
from umtali.engine.events import Event, EventKind
from umtali.engine.hand import Hand, replay
from umtali.engine.view import PlayerView

#: A decision that gave up at least this share of the chance of winning the game is
#: an inaccuracy, a mistake, a blunder (where no equity table fits the rules, the
#: same numbers a hundred times over are points: 3, 7 and 15).
INACCURACY = 0.03
MISTAKE = 0.07
BLUNDER = 0.15
#: A decision that gave up at least this many points on average (against the best
#: move, on the same deals) is at least an inaccuracy, even where it cost little of the
#: chance: far ahead or far behind a gift barely moves the chance, yet it is a real
#: loss.  Ten points is a marriage's bonus, about a third of what the winner of a
#: classic hand scores (30 to 40), and two thirds of a typical hand's margin.
COSTLY_POINTS = 10.0
#: How fast a decision's accuracy falls with the chance it gave up: 100 for the best
#: move, about 74 for an inaccuracy's 3%, 50 for a mistake's 7%, 22 for a blunder's 15%.
ACCURACY_FALL = 0.1

#: How the coach's words write a card: ``str`` (the record's ``3S``) unless a caller
#: passes its own, such as a screen theme's ``plain`` (``3♠``, or ``3S`` under ``--ascii``).
CardWords = Callable[[Card], str]


@dataclass(frozen=True, slots=True)
class Voice:
    """Whom the coach's words are about: the mover, their possessive, the other seat.

    >>> fact = Fact("{me} led by 15; {them} took {0}; {mine} pair", ((Card.parse("3C"),),))
    >>> fact.words(Voice.named("Bot", "Ann"))
    "Bot led by 15; Ann took 3C; Bot's pair"
    """

    me: str = "you"
    mine: str = "your"
    them: str = "your opponent"
    to_them: str = "them"  # the other seat again, later in a sentence

    @staticmethod
    def named(name: str, other: str) -> Voice:
        """The mover told of by ``name``, the other seat by ``other``."""
        return Voice(name, possessive(name), other, other)


#: The coach speaking to the player whose decision it was.
YOU = Voice()


@dataclass(frozen=True, slots=True)
class Fact:
    """Something the mover could see, as words with places for who is meant
    (``{me}``, ``{mine}``, ``{them}``, ``{to_them}``), told to the player or of them
    by name, and for the cards it names (``{0}``, ``{1}``: each of ``cards``, a group
    said a space apart), written as the teller writes cards.

    >>> pair = Fact("it broke {mine} pair {0}", ((Card.parse("9D"), Card.parse("9C")),))
    >>> pair.words(), pair.words(card=lambda c: str(c).lower())
    ('it broke your pair 9D 9C', 'it broke your pair 9d 9c')
    """

    template: str
    #: The cards named, kept as cards: no notation is fixed until the words are made.
    cards: tuple[tuple[Card, ...], ...] = ()

    def words(self, voice: Voice = YOU, card: CardWords = str) -> str:
        named = (" ".join(card(c) for c in group) for group in self.cards)
        return self.template.format(
            *named, me=voice.me, mine=voice.mine, them=voice.them, to_them=voice.to_them
        )


class Label(Enum):
    """How costly a decision was."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def label_for(cost: float, chances: bool = True, points: float = 0.0) -> Label | None:
    """The label of a decision that gave up ``cost`` (a chance, or points) and
    ``points`` on average: by the chance, and at least an inaccuracy where the
    points reach :data:`COSTLY_POINTS` (where the cost is in points already, it
    alone counts).

    >>> label_for(0.01), label_for(0.01, points=12.0), label_for(0.08, points=12.0)
    (None, <Label.INACCURACY: 'inaccuracy'>, <Label.MISTAKE: 'mistake'>)
    """
    scale = 1.0 if chances else 100.0
    for label, line in (
        (Label.BLUNDER, BLUNDER),
        (Label.MISTAKE, MISTAKE),
        (Label.INACCURACY, INACCURACY),
    ):
        if cost >= line * scale:
            return label
    if chances and points >= COSTLY_POINTS:
        return Label.INACCURACY
    return None


def listed(cost: float, points: float, chances: bool, threshold: float = INACCURACY) -> bool:
    """Whether a review lists a decision that gave up ``cost`` and ``points``: at
    ``threshold`` of the chance (a hundred times as many points where the rules have
    no table of chances), or at :data:`COSTLY_POINTS` points."""
    if cost >= threshold * (1.0 if chances else 100.0):
        return True
    return chances and points >= COSTLY_POINTS


def accuracy(costs: list[float]) -> float:
    """The accuracy of decisions that gave up ``costs`` (chances of winning): 100 when
    every one was the best, falling by ACCURACY_FALL for each percent given up.

    >>> accuracy([0.0, 0.0]), round(accuracy([0.0, 0.07]), 1)
    (100.0, 74.8)
    """
    if not costs:
        return 100.0
    return sum(100 * math.exp(-ACCURACY_FALL * 100 * c) for c in costs) / len(costs)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One of the player's decisions, with what it cost and what could be seen."""

    hand: int  # 1-based number of the hand in its game
    turn: int  # 1-based number of the turn in the hand (both players' turns counted)
    played: Action
    best: Action
    cost: float  # the chance of winning the game given up (points, where ``chances`` is off)
    points: float  # the points given up, on average
    view: PlayerView
    info: GameInfo
    facts: tuple[Fact, ...] = ()
    chances: bool = True
    #: The best move's chance of winning and the played one's (None: points only).
    odds: tuple[float, float] | None = None
    #: Whether the move was searched (False: it needed no search, and gave up nothing).
    searched: bool = True

    @property
    def label(self) -> Label | None:
        return label_for(self.cost, self.chances, self.points)

    def reasons(self, voice: Voice = YOU, card: CardWords = str) -> tuple[Reason, ...]:
        """What was better, by how much, and why: the verdict's own findings, then the
        facts the player could see, each a clause of its own, told in ``voice``, its
        cards (and the better move's) written by ``card``."""
        facts = tuple(Reason(Clause.FACT, fact.words(voice, card)) for fact in self.facts)
        if self.played == self.best:
            said = "the best move here"
            if self.odds is not None:
                said += f": {_pct(self.odds[0])} to win the game"
            return (Reason(Clause.BEST, said), *facts)
        if self.chances:
            cost = f"{_pct(self.cost, 'about ', cut=True)} of {voice.mine} chance to win the game"
            cost += f" ({_points(self.points)})"
        else:
            cost = f"about {self.points:.1f} points this hand"
        cost = f"it cost {cost}"
        # The move is spelled as a screen's theme spells one (Theme.move), by ``card``.
        better = self.best.spelled(card)
        if self.odds is not None:
            best, mine = self.odds
            cost += f": {_pct(best)} to win with {better}, {_pct(mine)} as played"
        return (Reason(Clause.BETTER, f"better: {better}"), Reason(Clause.COST, cost), *facts)

    def reason(self, voice: Voice = YOU, card: CardWords = str) -> str:
        """What was better, by how much, and why, in words a player can use (its cards
        in the record's notation unless ``card`` writes them otherwise)."""
        return "; ".join(str(reason) for reason in self.reasons(voice, card))


class Clause(Enum):
    """What one clause of a verdict's reason tells."""

    BEST = "best"  # the move played was the search's choice
    BETTER = "better"  # the move the search preferred
    COST = "cost"  # what the move played gave up against it
    FACT = "fact"  # something the player could see: a card taken, the score


@dataclass(frozen=True, slots=True)
class Reason:
    """One clause of a verdict's reason: what it tells, and its words."""

    clause: Clause
    words: str

    @property
    def finding(self) -> bool:
        """The verdict's own finding (said at every decision), not a fact of the
        position (a review says each fact once a hand)."""
        return self.clause is not Clause.FACT

    def __str__(self) -> str:
        return self.words


def _pct(chance: float, about: str = "", cut: bool = False) -> str:
    """A chance in words: whole percents, tenths under ten; ``about`` goes before a
    figure, never before 'under'.  A cost is ``cut``, never rounded up, so 6.98% is not
    called 7.0%, the line of a mistake, nor 14.7% called 15%, a blunder's.

    >>> _pct(0.0698), _pct(0.0698, cut=True), _pct(0.147, cut=True), _pct(0.0004)
    ('7.0%', '6.9%', '14%', 'under 0.1%')
    """
    pct = 100 * chance
    if pct < 0.1:
        return "under 0.1%"
    if cut:  # the figure below pct at the precision shown
        pct = math.floor(pct * 10 + 1e-9) / 10 if pct < 10 else math.floor(pct + 1e-9)
    return about + (f"{pct:.1f}%" if pct < 10 else f"{pct:.0f}%")


def _points(points: float) -> str:
    near = round(points)
    if near == 0:
        return "about the same points"
    word = "points" if abs(near) != 1 else "point"
    return f"{abs(near)} {word} {'less' if near > 0 else 'more'} on average"


@dataclass(frozen=True, slots=True)
class HandReview:
    """The coach's review of one player's decisions in one hand."""

    hand: int
    #: What each decision with a real choice gave up, in order (0 for the best move).
    costs: tuple[float, ...]
    #: The decisions labelled inaccuracy or worse.
    verdicts: tuple[Verdict, ...]
    chances: bool = True
    #: The player's decisions a bot made for them (it stood in after they left): not
    #: weighed, since they are not the player's.
    stood_in: int = 0
    #: The hand the game was resigned in: unfinished, reviewed all the same.
    resigned: bool = False

    @property
    def weighed(self) -> int:
        return len(self.costs)

    @property
    def accuracy(self) -> float:
        return accuracy(list(self.costs)) if self.chances else 100.0


def is_choice(view: PlayerView) -> bool:
    """Whether the player really chose here (not a single or a forced action)."""
    actions = list(view.legal)
    if len(actions) < 2:
        return False
    return not view.rules.mandatory_play or forced_choice(actions) is None


def weigh(view: PlayerView, info: GameInfo, played: Action, budget: int | None = None) -> Analysis:
    """The analysis of one decision, with the move the player made among its candidates."""
    return analyse(view, info, budget=budget, include=played)


def review_hand(
    hand: Hand,
    player: int,
    number: int = 1,
    info: GameInfo | None = None,
    budget: int | None = None,
    threshold: float = INACCURACY,
    bot_played: Sequence[bool] = (),
) -> HandReview:
    """The player's decisions in a (finished) hand: what each cost, and the ones that
    gave up ``threshold`` or more of the chance of winning (an inaccuracy or worse by
    default; where the rules have no table of chances, a hundred times as many points),
    or :data:`COSTLY_POINTS` points.  ``bot_played`` marks the actions a bot played for
    the player (it stood in for them): those are passed over and counted."""
    costs: list[float] = []
    verdicts: list[Verdict] = []
    chances = True
    by_bot = 0
    for _, verdict in weigh_hand(hand, (player,), number, info, budget, {player: bot_played}):
        if verdict is None:
            by_bot += 1
            continue
        if verdict.searched:
            chances = verdict.chances
        costs.append(verdict.cost)
        if listed(verdict.cost, verdict.points, verdict.chances, threshold):
            verdicts.append(verdict)
    return HandReview(number, tuple(costs), tuple(verdicts), chances, by_bot)


def weigh_hand(
    hand: Hand,
    players: Sequence[int] = (1, 2),
    number: int = 1,
    info: GameInfo | None = None,
    budget: int | None = None,
    bot_played: Mapping[int, Sequence[bool]] | None = None,
) -> Iterator[tuple[int, Verdict | None]]:
    """Each decision with a real choice that ``players`` made in a (finished) hand, in
    the order played: (the player, its verdict), or (the player, None) where a bot
    stood in for them (``bot_played``: the actions a bot played, by player)."""
    info = info or GameInfo(number, hand.rules.hands_per_game)
    stood = bot_played or {}
    actions = hand.played()
    seen = {p: hand.view(p).events for p in players}  # the whole hand as each saw it
    state = replay(hand.deal, [], hand.rules)
    turn, mover = 0, None
    chances = True
    for n, action in enumerate(actions):
        if state.to_move != mover:  # a new turn begins
            turn, mover = turn + 1, state.to_move
        player = state.to_move
        if player is None or player not in players:
            state.play(action)
            continue
        marks = stood.get(player, ())
        if n < len(marks) and marks[n]:
            if is_choice(state.view(player)):
                yield player, None
        else:
            view = state.view(player)
            if is_choice(view):
                found = weigh(view, info, action, budget)
                cost, points = 0.0, 0.0
                if found.lines:  # a move that needed no search gives up nothing
                    chances = found.chances
                    cost, points = found.cost(action)
                facts = _facts(view, info, action, found.choice, turn, seen[player], hand)
                odds = _odds(found, action) if chances and found.lines else None
                verdict = Verdict(number, turn, action, found.choice, cost, points, view, info)
                yield (
                    player,
                    replace(
                        verdict, facts=facts, chances=chances, odds=odds, searched=bool(found.lines)
                    ),
                )
        state.play(action)


def _odds(found: Analysis, played: Action) -> tuple[float, float] | None:
    best, mine = found.line(found.choice), found.line(played)
    if best is None or mine is None:
        return None
    n = min(len(best.values), len(mine.values))
    clip = [sum(min(1.0, max(0.0, v)) for v in line.values[:n]) / n for line in (best, mine)]
    return clip[0], clip[1]


def _facts(
    view: PlayerView,
    info: GameInfo,
    played: Action,
    best: Action,
    turn: int,
    seen: tuple[Event, ...],
    hand: Hand,
) -> tuple[Fact, ...]:
    """Concrete reasons, from what the player could see then and saw after."""
    facts: list[Fact] = []
    me = view.player
    context = _score_fact(view, info)
    if played == best:  # nothing to find fault with: only the score is said
        return () if context is None else (context,)
    if played.kind is ActionKind.DISCARD and not played.down:
        card = played.cards[0]
        made = _taken_and_laid(card, me, turn, seen)
        if made is not None:
            facts.append(made)
        broken = _broke(card, view.hand, best)
        if broken is not None:
            facts.append(broken)
    if best.kind is ActionKind.DISCARD and best.down and not played.down:
        facts.append(Fact("going out there would have ended the hand before {them} went out"))
    lost = hand.forfeited if hand.went_out == 3 - me else ()
    kept = played.cards[0] if played.kind is ActionKind.DISCARD else None
    if lost and kept is not None and best.kind is ActionKind.DISCARD:
        thrown = best.cards[0]
        if _value(thrown, view) > _value(kept, view):
            points = sum(_value(c, view) for c in lost)
            facts.append(
                Fact(
                    f"{{me}} kept {{0}} in hand, and when {{them}} went out the {points} "
                    "points left in {mine} hand were forfeited to {to_them}",
                    ((thrown,),),
                )
            )
    if context is not None:
        facts.append(context)
    return tuple(facts)


def _value(card: Card, view: PlayerView) -> int:
    return view.rules.left_points(card.bit)


def _taken_and_laid(card: Card, me: int, turn: int, seen: tuple[Event, ...]) -> Fact | None:
    """'your opponent took 3C at once and laid 4C 3C 2C with it', where they did."""
    theirs = [e for e in seen if e.turn == turn + 1 and e.player != me]
    if not any(e.kind.is_take and card in e.cards for e in theirs):
        return None
    laid = next(
        (e for e in theirs if e.kind in (EventKind.MELD, EventKind.PLAY) and card in e.cards),
        None,
    )
    if laid is None:
        return Fact("{them} took {0} at once", ((card,),))
    return Fact("{them} took {0} at once and laid {1} with it", ((card,), laid.cards))


def _broke(card: Card, held: tuple[Card, ...], best: Action) -> Fact | None:
    """'it broke your pair of 7s' (or a run in the making), where the best move kept it."""
    if best.kind is ActionKind.DISCARD and card in best.cards:
        return None
    mates = [c for c in held if c != card and c.rank == card.rank]
    if mates:
        return Fact("it broke {mine} pair {0}", ((card, mates[0]),))
    near = [c for c in held if c.suit == card.suit and abs(c.rank - card.rank) == 1]
    if near:
        return Fact("it broke {mine} run in the making {0}", ((card, near[0]),))
    return None


def _score_context(view: PlayerView, info: GameInfo) -> str | None:
    """The score with the hands left, where it weighs, said to the player."""
    fact = _score_fact(view, info)
    return None if fact is None else fact.words()


def _score_fact(view: PlayerView, info: GameInfo) -> Fact | None:
    """The score with the hands left, where it weighs: a lead or a deficit of ten or
    more, or any in the last hand."""
    hands = view.rules.hands_per_game
    me = view.player
    lead = info.totals[me - 1] - info.totals[2 - me]
    left = max(1, hands - info.hand_number + 1)  # this hand counted
    if not hands or lead == 0 or (abs(lead) < 10 and left > 1):
        return None
    led = f"{{me}} led by {lead}" if lead > 0 else f"{{me}} trailed by {-lead}"
    if left == 1:
        return Fact(f"{led} points in the last hand")
    more = "1 more hand" if left == 2 else f"{left - 1} more hands"
    return Fact(f"{led} points, with this hand and {more} to play")


def try_again(verdict: Verdict, action: Action, budget: int | None = None) -> tuple[float, float]:
    """What ``action``, chosen again at ``verdict``'s decision, gives up against the
    search's choice: (chance, points), measured as the coach measures any move there
    (so the hint's move gives up nothing)."""
    found = weigh(verdict.view, verdict.info, action, budget)
    return found.cost(action) if found.lines else (0.0, 0.0)
