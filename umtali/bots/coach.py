"""The coach: what each of a player's decisions was worth, from what they could see.

For a decision with a real choice, the coach deals the hidden cards many ways
consistent with the player's view (the same inference the ``hard`` bot uses:
never the cards as they really lay), plays each candidate out to the end of the
hand in every one of those deals with the quick rollout policy, and compares the
average margins.  All candidates are scored on the same deals, so the
difference between two of them is not drowned by the luck of the draw.  A
decision is flagged when the player's choice scored more than ``threshold``
points a hand below the best one.

The coach reads only :class:`PlayerView` values, so its advice cannot depend on
a card the player did not see; a test plants different hidden cards behind the
same view and checks the advice does not change.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from umtali.bots.fast import OwnTurns, rollout
from umtali.bots.knowledge import Knowledge
from umtali.bots.normal import NormalBot
from umtali.bots.policy import forced_choice
from umtali.bots.seat import GameInfo
from umtali.engine.actions import Action, ActionKind
from umtali.engine.hand import Hand, replay
from umtali.engine.moves import to_move
from umtali.engine.view import PlayerView

#: Rollouts per decision, shared among its candidates (each played out in the same
#: deals), but never fewer than MIN_DEALS deals.
DEALS = 360
MIN_DEALS = 30
#: Most candidates compared at one decision (the player's own choice always among them).
MOST = 8
#: A decision is flagged when it cost more than this many points a hand.
THRESHOLD = 2.0


@dataclass(frozen=True, slots=True)
class Assessment:
    """What each candidate of one decision scored, on average, in the sampled deals."""

    values: dict[Action, float]  # mean margin (the player's points less the opponent's)
    deals: int

    @property
    def best(self) -> Action:
        return max(self.values, key=lambda a: self.values[a])

    def cost(self, played: Action) -> float:
        """How much less than the best the ``played`` action scored (0 for the best)."""
        return self.values[self.best] - self.values[played]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One of the player's decisions, with what it cost."""

    hand: int  # 1-based number of the hand in its game
    turn: int  # 1-based number of the turn in the hand (both players' turns counted)
    played: Action
    best: Action
    cost: float
    view: PlayerView
    taken: bool = False  # a discard the opponent took straight away (as they then saw)

    def reason(self) -> str:
        """What was better, and why, in words a player can use."""
        p, b, cost = self.played, self.best, self.cost
        more = f"about {cost:.1f} points more this hand"
        if b.kind is ActionKind.DISCARD and b.down and not p.down:
            return f"better: go out, discarding {_cards(b)} face down ({more})"
        if p.kind is ActionKind.DISCARD and b.kind is ActionKind.DISCARD:
            if self.taken:
                return (
                    f"better: discard {_cards(b)} ({more}); your opponent took {_cards(p)} "
                    "straight away"
                )
            return (
                f"better: discard {_cards(b)} ({more}); {_cards(p)} was worth more kept, "
                "or to your opponent"
            )
        draws = {ActionKind.DRAW, ActionKind.TAKE, ActionKind.TAKE_TWO, ActionKind.TAKE_FROM}
        if p.kind in draws and b.kind in draws:
            return (
                f"better: {b} ({more}): weigh what the discard gives now against what a "
                "blind draw may bring"
            )
        return f"better: {b} ({more})"


def _cards(action: Action) -> str:
    return " ".join(str(c) for c in action.cards)


def candidates(view: PlayerView, played: Action | None = None) -> list[Action]:
    """The actions worth comparing here: all of them, or, where there are many, the
    ones ``normal`` ranks best (with the played one)."""
    actions = list(view.legal)
    down = {a.cards for a in actions if a.down}
    # A discard that may go face down is never worse face down: only that twin counts.
    actions = [a for a in actions if a.down or a.cards not in down or a == played]
    if len(actions) > MOST and all(a.kind is ActionKind.DISCARD for a in actions):
        ranked = NormalBot().rank_discards(view, Knowledge.of(view), actions)
        actions = ranked[:MOST]
    elif len(actions) > MOST:
        # Many melds and plays: those first offered, and what ``normal`` would do.
        sensible = NormalBot().choose(view, GameInfo()).action
        actions = [
            *actions[: MOST - 1],
            *([sensible] if sensible not in actions[: MOST - 1] else []),
        ]
    if played is not None and played not in actions:
        actions.append(played)
    return actions


def assess(
    view: PlayerView, choices: list[Action], rng: random.Random, deals: int = DEALS
) -> Assessment:
    """Each of ``choices`` played out in the same deals sampled from ``view``: ``deals``
    rollouts in all, shared among them."""
    me = view.player - 1
    deals = max(MIN_DEALS, deals // len(choices))
    know = Knowledge.of(view)
    moves = [to_move(a, view.rules) for a in choices]
    totals = [0.0] * len(choices)
    own = OwnTurns(me, [move[0] for move in moves])
    for _ in range(deals):
        world = know.sample_state(view, rng)
        for i, move in enumerate(moves):
            state = world.clone()
            state.apply_move(move)
            own.finish(i, state)
            totals[i] += rollout(state, me)
    return Assessment({a: t / deals for a, t in zip(choices, totals, strict=True)}, deals)


def is_choice(view: PlayerView) -> bool:
    """Whether the player really chose here (not a single or a forced action)."""
    actions = list(view.legal)
    if len(actions) < 2:
        return False
    return not view.rules.mandatory_play or forced_choice(actions) is None


def review_hand(
    hand: Hand,
    player: int,
    number: int = 1,
    seed: int = 0,
    deals: int = DEALS,
    threshold: float = THRESHOLD,
) -> tuple[list[Verdict], int]:
    """The player's costly decisions in a (finished) hand, and how many were weighed."""
    rng = random.Random(seed)
    actions = hand.played()
    verdicts: list[Verdict] = []
    weighed = 0
    state = replay(hand.deal, [], hand.rules)
    turn, mover = 0, None
    takes = {ActionKind.TAKE, ActionKind.TAKE_TWO, ActionKind.TAKE_FROM}
    for i, action in enumerate(actions):
        if state.to_move != mover:  # a new turn begins
            turn, mover = turn + 1, state.to_move
        if state.to_move == player:
            view = state.view(player)
            if is_choice(view):
                weighed += 1
                assessment = assess(view, candidates(view, action), rng, deals)
                cost = assessment.cost(action)
                if cost > threshold:
                    after = actions[i + 1] if i + 1 < len(actions) else None
                    # A face-up discard that the very next move took: the opponent had it.
                    taken = (
                        action.kind is ActionKind.DISCARD
                        and not action.down
                        and after is not None
                        and after.kind in takes
                    )
                    best = assessment.best
                    verdicts.append(Verdict(number, turn, action, best, cost, view, taken))
        state.play(action)
    return verdicts, weighed
