"""The ``expert`` bot: ``hard``'s search, reading the opponent and deciding every move.

Like ``hard`` it plays each candidate out to the end of the hand in deals
sampled from its information set, and takes the action with the best
average margin (every candidate on the same deals).  It differs in five
ways:

* the deals are drawn from a **weighted reading** of the opponent's hand
  (:mod:`umtali.bots.inference`): what they discarded, passed and took, and
  where melding is optional what they could have laid and did not;
* where melding is optional it **searches the play too**: laying the best
  meld now against holding the cards back (discarding at once) and against
  the other melds, so it learns when a meld laid early only feeds the
  opponent's additions;
* its work is a fixed number of **simulated moves**, not of playouts, so a
  variant whose hands run long (Rummy) gets fewer deals, and each decision
  stays quick.  Moves, not seconds: the same seed always gives the same
  decisions;
* where play is compulsory its playouts use a **wary policy**
  (:func:`~umtali.bots.fast.wary_move`): a discard in a playout weighs what
  the card gives the opponent, so the playouts look more like real play;
* there too its candidates **race**: a move that trails the leader clearly
  is dropped after a few dozen deals, and the close ones get the deals it
  would have cost, several hundred where two moves are hard to tell apart.
  A poor candidate costs little, so it searches six discards, not four.

Rummy's moves are the cheapest of the optional variants, so it gets more of
them; even so its deals are few and their averages noisy, so there the
search replaces ``normal``'s move only when its best move leads it clearly.
"""

from __future__ import annotations

import math
import random

from umtali.bots.fast import OwnTurns, quick_move, wary_move
from umtali.bots.inference import read_opponent
from umtali.bots.knowledge import Knowledge, Reading
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
#: Where play is compulsory the candidates race (see ``ExpertBot._search``): from
#: deal RACE_FROM on, every RACE_STEP deals, a candidate that trails the leader by
#: more than RACE_Z standard errors is dropped; the close ones play on, to
#: RACE_WORLDS deals at most.
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


class ExpertBot:
    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        min_worlds: int = MIN_WORLDS,
        confidence: float | None = None,
    ) -> None:
        """``budget`` (simulated moves a decision), ``min_worlds`` (deals searched at
        the least) and ``confidence`` (standard errors by which the search must beat
        ``normal``'s habit; 0 trusts the search alone) default to the level's own; a
        script or a test may choose others."""
        self._rng = random.Random(seed)
        self.budget = budget
        self.min_worlds = min_worlds
        self.confidence = confidence
        self._normal = NormalBot()

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        actions = list(view.legal)
        if not actions:
            raise ValueError("it is not this player's move")
        if len(actions) == 1:
            return Decision(actions[0], "the only legal action")
        know = Knowledge.of(view)
        if view.rules.mandatory_play:
            found = compulsory_candidates(len(view.hand), actions)
            if isinstance(found, Decision):
                return found
            candidates = found
        else:
            if len(view.hand) == 1 and all(a.kind is ActionKind.DISCARD for a in actions):
                return self._normal.choose(view, info)
            candidates = self._open_candidates(view, know, actions)
        candidates = self._shortlist_discards(view, know, candidates)
        if len(candidates) == 1:
            return Decision(candidates[0], "the only move worth making")
        confidence = self.confidence
        if confidence is None:
            confidence = RUMMY_CONFIDENCE if view.rules.hand_scoring else 0.0
        usual = self._normal.choose(view, info).action if confidence else None
        return self._search(view, know, read_opponent(view, know), candidates, usual, confidence)

    def _shortlist_discards(
        self, view: PlayerView, know: Knowledge, candidates: list[Action]
    ) -> list[Action]:
        """Many discards differ by a point or two: the heuristic shortlists, search decides."""
        face_up = [a for a in candidates if a.kind is ActionKind.DISCARD and not a.down]
        limit = RACE_SHORTLIST if view.rules.mandatory_play else SHORTLIST
        if len(face_up) <= limit:
            return candidates
        keep = set(self._normal.rank_discards(view, know, face_up)[:limit])
        return [a for a in candidates if a.kind is not ActionKind.DISCARD or a.down or a in keep]

    def _open_candidates(
        self, view: PlayerView, know: Knowledge, actions: list[Action]
    ) -> list[Action]:
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
        ranked = sorted(plays, key=lambda a: (-a.mask.bit_count(), -_points(a), a.mask))
        if best is not None:
            first = state.action_of(best[0])
            ranked = [first] + [a for a in ranked if a != first]
        chosen = set(ranked[:PLAYS])
        return [
            a for a in actions if a.kind not in (ActionKind.MELD, ActionKind.PLAY) or a in chosen
        ]

    def _search(
        self,
        view: PlayerView,
        know: Knowledge,
        read: Reading,
        candidates: list[Action],
        usual: Action | None = None,
        confidence: float = 0.0,
    ) -> Decision:
        """The candidate with the best average margin over deals sampled from ``read``,
        or ``usual`` (``normal``'s move) where the best does not lead it by more than
        ``confidence`` standard errors.

        Where play is compulsory the candidates race: every few deals, one that
        trails the leader by more than ``RACE_Z`` standard errors is dropped, and
        the moves it would have cost go to deals for the close ones."""
        me = view.player - 1
        moves = [to_move(a, view.rules) for a in candidates]
        results: list[list[int]] = [[] for _ in candidates]
        budget = self.budget or _budget(view)
        racing = view.rules.mandatory_play
        policy = wary_move if racing else quick_move
        cap = RACE_WORLDS if racing else MAX_WORLDS
        own = OwnTurns(me, [move[0] for move in moves], policy)
        alive = list(range(len(candidates)))
        worlds = spent = 0
        while worlds < self.min_worlds or (spent < budget and worlds < cap and len(alive) > 1):
            world = know.sample_state(view, self._rng, read)
            for i in alive:
                state = world.clone()
                state.apply_move(moves[i])
                spent += own.finish(i, state)
                while state.phase != OVER:
                    state.apply_move(policy(state))
                    spent += 1
                results[i].append(state.score(me) - state.score(1 - me))
            worlds += 1
            if racing and worlds >= RACE_FROM and worlds % RACE_STEP == 0:
                alive = _still_close(results, alive)
        totals = [sum(results[i]) for i in range(len(candidates))]
        best = max(alive, key=lambda i: (totals[i], -i))
        if usual is not None and usual in candidates and candidates[best] != usual:
            kept = candidates.index(usual)
            if not _clear_lead(results[best], results[kept], confidence):
                return Decision(
                    usual,
                    f"the usual move: in {worlds} deals read from the play nothing was "
                    f"clearly better; {expected_margin(totals[kept] / worlds)}",
                )
        mean = totals[best] / worlds
        return Decision(
            candidates[best],
            f"the best of the moves tried in {worlds} deals read from the play: "
            f"{expected_margin(mean)}",
        )


def _budget(view: PlayerView) -> int:
    """The level's simulated moves a decision under ``view``'s rules."""
    if view.rules.mandatory_play:
        return BUDGET
    return RUMMY_BUDGET if view.rules.hand_scoring else OPEN_BUDGET


def _still_close(results: list[list[int]], alive: list[int]) -> list[int]:
    """The candidates of ``alive`` (all played on the same deals, ``results`` their
    margins) that the leader does not beat by more than ``RACE_Z`` standard errors."""
    lead = max(alive, key=lambda i: (sum(results[i]), -i))
    return [i for i in alive if i == lead or not _clear_lead(results[lead], results[i], RACE_Z)]


def _clear_lead(best: list[int], other: list[int], confidence: float) -> bool:
    """Does ``best`` beat ``other`` (margins on the same deals) by more than
    ``confidence`` standard errors of the mean difference?"""
    n = len(best)
    diffs = [x - y for x, y in zip(best, other, strict=True)]
    mean = sum(diffs) / n
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean > confidence * math.sqrt(spread / n)


def _points(action: Action) -> int:
    return plain_points(action.mask)


__all__ = ["BUDGET", "OPEN_BUDGET", "RUMMY_BUDGET", "RUMMY_CONFIDENCE", "ExpertBot"]
