"""The one analysis: the search behind the expert bot, the hint, the stand-in and the coach.

For a decision with a real choice it deals the cards the player cannot see
many ways, drawn from a weighted reading of the opponent's hand
(:mod:`umtali.bots.inference`), plays each candidate out to the end of the
hand in every one of those deals, and values each ending by the chance of
winning the game from there (:mod:`umtali.bots.equity`), with the hand's
points breaking ties.  Every candidate is played in the same deals, so the
difference between two of them is not drowned by the luck of the draw, and
the deals are drawn from a generator seeded by the position itself: the
hint and the coach, asked about the same position at the same budget, see
the same deals and agree.

Where play is compulsory the candidates race: one that trails the leader
clearly is dropped after a few dozen deals, and the close ones get the deals
it would have cost.  Where melding is optional the search weighs laying a
meld against holding it back.  In Rummy, whose hands run long and whose few
deals are noisy, the search replaces ``normal``'s habit only when its best
move leads the habit clearly.

The work is a number of simulated moves, not of seconds: the same position
always gives the same analysis.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

from umtali.bots.equity import equity_for, in_words, margin_value, valuer
from umtali.bots.fast import OwnTurns, quick_move, wary_move
from umtali.bots.inference import read_opponent
from umtali.bots.knowledge import Knowledge
from umtali.bots.normal import NormalBot
from umtali.bots.open_play import choose_play, draw_gain, taken_with
from umtali.bots.policy import compulsory_candidates
from umtali.bots.seat import Decision, GameInfo, expected_margin
from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import plain_points
from umtali.engine.moves import to_move
from umtali.engine.optional import OptionalState
from umtali.engine.state import OVER
from umtali.engine.view import PlayerView

#: Simulated moves per decision, shared among the candidates.  A move where play is
#: compulsory costs about a quarter of one where melding is optional (which plans laying);
#: Rummy's moves (no finals, no take-next, one card from the pile) cost less than
#: family's, and its long, noisy hands need all the deals they can get.
BUDGET = 24_000
OPEN_BUDGET = 4_500
RUMMY_BUDGET = 12_000
MIN_WORLDS = 8
MAX_WORLDS = 160
#: Where play is compulsory the candidates race: from deal RACE_FROM on, every
#: RACE_STEP deals, a candidate that trails the leader by more than RACE_Z standard
#: errors is dropped; the close ones play on, to RACE_WORLDS deals at most.
RACE_FROM = 32
RACE_STEP = 16
RACE_Z = 2.0
RACE_WORLDS = 600
SHORTLIST = 4  # discards searched, of those the heuristic ranks best
RACE_SHORTLIST = 6  # where the candidates race, a poor one costs only its first deals
PLAYS = 3  # melds and additions searched where melding is optional
DEEP_SHORTLIST = 2  # practical's takes from deep in the pile searched
#: Where hands run long (Rummy) a decision sees few deals and their averages are
#: noisy: the search overrules ``normal``'s habit only when its best move leads the
#: habit by more than this many standard errors over the deals.
RUMMY_CONFIDENCE = 1.0


@dataclass(frozen=True, slots=True)
class Line:
    """One candidate as the search played it: its value and margin in each deal it was
    played in (the first deals; a candidate dropped from the race played fewer)."""

    action: Action
    values: tuple[float, ...]
    margins: tuple[int, ...]

    @property
    def value(self) -> float:
        return sum(self.values) / len(self.values)

    @property
    def margin(self) -> float:
        return sum(self.margins) / len(self.margins)


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the search found at one decision: the move it plays, why, and each
    candidate's line (none where the move needed no search)."""

    choice: Action
    reason: str
    lines: tuple[Line, ...] = ()
    #: The values are chances of winning the game (with a millionth of a point for
    #: each point of margin); False where no equity table fits the rules (points).
    chances: bool = True

    @property
    def decision(self) -> Decision:
        return Decision(self.choice, self.reason)

    @property
    def deals(self) -> int:
        return max((len(line.values) for line in self.lines), default=0)

    def line(self, action: Action) -> Line | None:
        return next((line for line in self.lines if line.action == action), None)

    def cost(self, played: Action) -> tuple[float, float]:
        """What ``played`` gave up against the search's choice: (value, points), each
        measured on the deals both were played in; never below nothing."""
        if played == self.choice:
            return 0.0, 0.0
        best, mine = self.line(self.choice), self.line(played)
        if best is None or mine is None:
            raise ValueError(f"{played} was not among the moves analysed")
        n = min(len(best.values), len(mine.values))
        value = (sum(best.values[:n]) - sum(mine.values[:n])) / n
        points = (sum(best.margins[:n]) - sum(mine.margins[:n])) / n
        return max(0.0, value), points


def position_seed(view: PlayerView, salt: int = 0) -> int:
    """A seed drawn from the position itself (the seat, its hand, and everything that
    happened as it saw it): the same position always gets the same deals."""
    events = [
        (e.player, e.kind.name, [c.index for c in e.cards], e.down, e.count) for e in view.events
    ]
    text = repr((salt, view.player, [c.index for c in view.hand], events, view.turns))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def analyse(
    view: PlayerView,
    info: GameInfo,
    *,
    budget: int | None = None,
    salt: int = 0,
    include: Action | None = None,
    min_worlds: int = MIN_WORLDS,
    confidence: float | None = None,
    points_only: bool = False,
    know: Knowledge | None = None,
    race: bool = True,
    max_worlds: int | None = None,
) -> Analysis:
    """The search at one decision of ``view``'s player.

    ``budget`` (simulated moves, by default the level's own for the rules), ``salt``
    (mixed into the position's seed: a bot's own), ``min_worlds`` (deals searched at
    the least) and ``confidence`` (standard errors by which the search must beat
    ``normal``'s habit; None: Rummy's own, 0 trusts the search alone) may be chosen
    by a script or a test; ``include`` adds a move to the candidates (the coach's:
    the move the player made); ``points_only`` values a hand by its margin alone, as
    the search did before it played for the game (the lab's yardstick); ``know`` is what
    the deals are drawn from (by default what ``view`` proves; only a lab seat that
    sees everything is ever told more).  A yardstick may play every candidate on every deal
    (``race`` False) and to more deals (``max_worlds``)."""
    actions = list(view.legal)
    if not actions:
        raise ValueError("it is not this player's move")
    normal = NormalBot()
    if know is None:
        know = Knowledge.of(view)
    elif know.seat != view.player - 1:
        raise ValueError("the knowledge is another seat's")
    early = _early(view, info, know, actions, normal)
    if isinstance(early, Decision):
        if include is None or include == early.action:
            return Analysis(early.action, early.reason)
        candidates = [early.action, include]
        usual: Action | None = None
        sure = 0.0
    else:
        candidates = early
        if include is not None and include not in candidates:
            candidates.append(include)
        if confidence is None:
            confidence = RUMMY_CONFIDENCE if view.rules.hand_scoring else 0.0
        sure = confidence
        usual = normal.choose(view, info).action if sure else None
    rng = random.Random(position_seed(view, salt))
    search = Search(
        budget or budget_for(view), min_worlds, usual, sure, points_only, race, max_worlds
    )
    return search.run(view, info, know, candidates, rng)


def _early(
    view: PlayerView, info: GameInfo, know: Knowledge, actions: list[Action], normal: NormalBot
) -> Decision | list[Action]:
    """A move that needs no search, or the candidates worth searching."""
    if len(actions) == 1:
        return Decision(actions[0], "the only legal action")
    if view.rules.mandatory_play:
        found = compulsory_candidates(len(view.hand), actions)
        if isinstance(found, Decision):
            return found
        candidates = found
    else:
        if len(view.hand) == 1 and all(a.kind is ActionKind.DISCARD for a in actions):
            return normal.choose(view, info)
        candidates = _open_candidates(view, know, actions)
    candidates = _shortlist_discards(view, know, candidates, normal)
    if len(candidates) == 1:
        return Decision(candidates[0], "the only move worth making")
    return candidates


def _shortlist_discards(
    view: PlayerView, know: Knowledge, candidates: list[Action], normal: NormalBot
) -> list[Action]:
    """Many discards differ by a point or two: the heuristic shortlists, search decides."""
    face_up = [a for a in candidates if a.kind is ActionKind.DISCARD and not a.down]
    limit = RACE_SHORTLIST if view.rules.mandatory_play else SHORTLIST
    if len(face_up) <= limit:
        return candidates
    keep = set(normal.rank_discards(view, know, face_up)[:limit])
    return [a for a in candidates if a.kind is not ActionKind.DISCARD or a.down or a in keep]


def _open_candidates(view: PlayerView, know: Knowledge, actions: list[Action]) -> list[Action]:
    """Optional melding: the moves worth searching at this point of the turn."""
    state = know.sample_state(view, random.Random(0))  # the own turn needs no hidden card
    assert isinstance(state, OptionalState)
    deep = [a for a in actions if a.kind is ActionKind.TAKE_FROM]
    if len(deep) > DEEP_SHORTLIST:
        # Practical: of the takes from deep in the pile, the ones that score most
        # this turn (each brings every card above it too).
        gains = {a: draw_gain(state, taken_with(know.pile, a.mask)) for a in deep}
        keep = sorted(deep, key=lambda a: (-gains[a], a.mask))[:DEEP_SHORTLIST]
        actions = [a for a in actions if a.kind is not ActionKind.TAKE_FROM or a in keep]
    plays = [a for a in actions if a.kind in (ActionKind.MELD, ActionKind.PLAY)]
    if len(plays) <= PLAYS:
        return actions
    # The play that leads to the most this turn, and the biggest others.
    moves = state.legal_moves()
    best = choose_play(state, moves)
    ranked = sorted(plays, key=lambda a: (-a.mask.bit_count(), -plain_points(a.mask), a.mask))
    if best is not None:
        first = state.action_of(best[0])
        ranked = [first] + [a for a in ranked if a != first]
    chosen = set(ranked[:PLAYS])
    return [a for a in actions if a.kind not in (ActionKind.MELD, ActionKind.PLAY) or a in chosen]


@dataclass(frozen=True, slots=True)
class Search:
    """How one search is run: its budget of simulated moves, the fewest deals it plays,
    and ``normal``'s move with the standard errors by which the best must lead it
    (no move, or 0: the best is played); whether the candidates race where play is
    compulsory, and the most deals (None: the level's own)."""

    budget: int
    min_worlds: int = MIN_WORLDS
    usual: Action | None = None
    confidence: float = 0.0
    points_only: bool = False
    race: bool = True
    max_worlds: int | None = None

    def run(
        self,
        view: PlayerView,
        info: GameInfo,
        know: Knowledge,
        candidates: list[Action],
        rng: random.Random,
    ) -> Analysis:
        """Play every candidate out in the same deals; the best by value, or the usual
        move where the best does not lead it clearly."""
        me = view.player - 1
        budget, usual, confidence = self.budget, self.usual, self.confidence
        read = read_opponent(view, know)
        value_of = margin_value if self.points_only else valuer(view.rules, info, view.player)
        moves = [to_move(a, view.rules) for a in candidates]
        values: list[list[float]] = [[] for _ in candidates]
        margins: list[list[int]] = [[] for _ in candidates]
        compulsory = view.rules.mandatory_play
        policy = wary_move if compulsory else quick_move
        racing = compulsory and self.race
        cap = self.max_worlds or worlds_for(view)
        own = OwnTurns(me, [move[0] for move in moves], policy)
        alive = list(range(len(candidates)))
        worlds = spent = 0
        while worlds < self.min_worlds or (spent < budget and worlds < cap and len(alive) > 1):
            world = know.sample_state(view, rng, read)
            for i in alive:
                state = world.clone()
                state.apply_move(moves[i])
                spent += own.finish(i, state)
                while state.phase != OVER:
                    state.apply_move(policy(state))
                    spent += 1
                margin = state.score(me) - state.score(1 - me)
                margins[i].append(margin)
                values[i].append(value_of(margin))
            worlds += 1
            if racing and worlds >= RACE_FROM and worlds % RACE_STEP == 0:
                alive = _still_close(values, alive)
        lines = tuple(
            Line(a, tuple(v), tuple(m)) for a, v, m in zip(candidates, values, margins, strict=True)
        )
        chances = equity_for(view.rules) is not None and not self.points_only
        best = max(alive, key=lambda i: (sum(values[i]), -i))
        if usual is not None and usual in candidates and candidates[best] != usual:
            kept = candidates.index(usual)
            if not _clear_lead(values[best], values[kept], confidence):
                said = _outlook(lines[kept], chances)
                return Analysis(
                    usual,
                    f"the usual move: played out against {worlds} guesses at the cards you "
                    f"cannot see, nothing did clearly better; {said}",
                    lines,
                    chances,
                )
        return Analysis(
            candidates[best],
            f"it did best of the moves played out against {worlds} guesses at the cards "
            f"you cannot see: {_outlook(lines[best], chances)}",
            lines,
            chances,
        )


def _outlook(line: Line, chances: bool) -> str:
    """What a line's numbers mean, in words a player reads at a glance."""
    points = expected_margin(line.margin)
    if not chances:
        return points
    chance = sum(min(1.0, max(0.0, round(v, 4))) for v in line.values) / len(line.values)
    return f"you win the game {in_words(chance)} of the time from here ({points})"


def worlds_for(view: PlayerView) -> int:
    """The level's most deals a decision under ``view``'s rules."""
    return RACE_WORLDS if view.rules.mandatory_play else MAX_WORLDS


def budget_for(view: PlayerView) -> int:
    """The level's simulated moves a decision under ``view``'s rules."""
    if view.rules.mandatory_play:
        return BUDGET
    return RUMMY_BUDGET if view.rules.hand_scoring else OPEN_BUDGET


def _still_close(values: list[list[float]], alive: list[int]) -> list[int]:
    """The candidates of ``alive`` (all played on the same deals) that the leader does
    not beat by more than ``RACE_Z`` standard errors."""
    lead = max(alive, key=lambda i: (sum(values[i]), -i))
    return [i for i in alive if i == lead or not _clear_lead(values[lead], values[i], RACE_Z)]


def _clear_lead(best: list[float], other: list[float], confidence: float) -> bool:
    """Does ``best`` beat ``other`` (values on the same deals) by more than
    ``confidence`` standard errors of the mean difference?"""
    n = min(len(best), len(other))
    diffs = [x - y for x, y in zip(best[:n], other[:n], strict=True)]
    mean = sum(diffs) / n
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean > confidence * math.sqrt(spread / n)
