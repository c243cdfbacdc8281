"""The ``hard`` bot: perfect-information Monte Carlo over the information set.

For a decision with a real choice it samples complete deals consistent with
everything it has seen (:meth:`Knowledge.sample_opponent` applies what the
rules reveal about the opponent's hand), plays each candidate action out to
the end of the hand in every sampled deal with the quick rollout policy, and
takes the action with the best average chance of winning the game
(:mod:`umtali.bots.equity`), the hand's points breaking ties.  Every candidate is scored
on the same deals, and the choice is one action for the whole information
set: no sampled deal's hidden cards ever decide a move on their own.

The work per decision is a fixed number of rollouts, not a time budget, so
the same seed always gives the same decisions.
"""

from __future__ import annotations

import random

from umtali.bots.equity import equity_for, in_words, valuer
from umtali.bots.fast import OwnTurns, rollout
from umtali.bots.knowledge import Knowledge
from umtali.bots.normal import NormalBot
from umtali.bots.open_play import draw_gain, taken_with
from umtali.bots.policy import compulsory_candidates
from umtali.bots.seat import Decision, GameInfo, expected_margin
from umtali.engine.actions import Action, ActionKind
from umtali.engine.moves import to_move
from umtali.engine.optional import OptionalState
from umtali.engine.view import PlayerView

ROLLOUTS = 240  # per decision, shared among the candidates
MIN_WORLDS = 8
SHORTLIST = 4  # discards searched, of those the heuristic ranks best
DEEP_SHORTLIST = 2  # practical's takes from deep in the pile searched


class HardBot:
    name = "hard"

    def __init__(self, seed: int | None = None, rollouts: int = ROLLOUTS) -> None:
        self._rng = random.Random(seed)
        self.rollouts = rollouts
        self._normal = NormalBot()

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        return self.choose_knowing(view, info, Knowledge.of(view))

    def choose_knowing(self, view: PlayerView, info: GameInfo, know: Knowledge) -> Decision:
        """The choice, with the deals sampled from ``know`` (what ``view`` proves, unless
        a benchmark's research seat says more)."""
        actions = list(view.legal)
        if not actions:
            raise ValueError("it is not this player's move")
        if not view.rules.mandatory_play:
            return self._open(view, info, actions, know)
        candidates = compulsory_candidates(len(view.hand), actions)
        if isinstance(candidates, Decision):
            return candidates
        if len(candidates) > SHORTLIST and all(a.kind is ActionKind.DISCARD for a in candidates):
            # Many discards differ by a point or two; rollouts cannot tell them
            # apart one by one, so the heuristic shortlists and search decides.
            ranked = self._normal.rank_discards(view, know, candidates)
            candidates = ranked[:SHORTLIST]
        return self._search(view, info, know, candidates)

    def _open(
        self, view: PlayerView, info: GameInfo, actions: list[Action], know: Knowledge
    ) -> Decision:
        """Optional melding: ``normal`` lays the cards; the search picks draws and discards."""
        if len(actions) == 1:
            return Decision(actions[0], "the only legal action")
        kinds = {a.kind for a in actions}
        if kinds & {ActionKind.MELD, ActionKind.PLAY, ActionKind.TAKE_NEXT, ActionKind.END}:
            return self._normal.choose(view, info)
        if len(view.hand) == 1:
            return self._normal.choose(view, info)
        candidates = actions
        if kinds == {ActionKind.DISCARD} and len(candidates) > SHORTLIST:
            candidates = self._normal.rank_discards(view, know, candidates)[:SHORTLIST]
        deep = [a for a in actions if a.kind is ActionKind.TAKE_FROM]
        if len(deep) > DEEP_SHORTLIST:
            # Practical: of the takes from deep in the pile, search the ones that
            # score most this turn (each brings every card above it too).
            state = know.sample_state(view, random.Random(0))
            assert isinstance(state, OptionalState)
            gains = {a: draw_gain(state, taken_with(know.pile, a.mask)) for a in deep}
            keep = sorted(deep, key=lambda a: -gains[a])[:DEEP_SHORTLIST]
            candidates = [a for a in actions if a.kind is not ActionKind.TAKE_FROM or a in keep]
        return self._search(view, info, know, candidates)

    def _search(
        self, view: PlayerView, info: GameInfo, know: Knowledge, candidates: list[Action]
    ) -> Decision:
        me = view.player - 1
        worlds = max(MIN_WORLDS, self.rollouts // len(candidates))
        moves = [to_move(a, view.rules) for a in candidates]
        value_of = valuer(view.rules, info, view.player)
        totals = [0.0] * len(candidates)
        margins = [0] * len(candidates)
        own = OwnTurns(me, [move[0] for move in moves])
        for _ in range(worlds):
            world = know.sample_state(view, self._rng)
            for i, move in enumerate(moves):
                state = world.clone()
                state.apply_move(move)
                own.finish(i, state)
                margin = rollout(state, me)
                margins[i] += margin
                totals[i] += value_of(margin)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        points = expected_margin(margins[best] / worlds)
        if equity_for(view.rules) is not None:
            chance = in_words(min(1.0, max(0.0, totals[best] / worlds)))
            points = f"you win the game {chance} of the time from here ({points})"
        return Decision(
            candidates[best], f"the best of the moves tried in {worlds} possible deals: {points}"
        )
