"""The ``normal`` bot: a careful club player's habits, written down.

* Draw: take two discards whenever allowed (both score now); take the top
  discard when it scores now or builds a likely meld; otherwise the stock.
* Play: the sequence of melds and additions that puts the most points on the
  table this turn (so a marriage's 20 beats three queens' 15).
* Discard: the card least worth keeping and least useful to the opponent,
  judged from the cards seen (dead cards are safe; a card that goes with what
  the opponent openly took, or with the card it would cover, is not).
* Going out: always, face down, unless in the game's final hand the hand's
  end would leave the bot behind.
* As dealer it keeps the extra card.
"""

from __future__ import annotations

import random

from umtali.bots.equity import equity_for
from umtali.bots.knowledge import Knowledge
from umtali.bots.open_play import choose_discard, choose_draw, choose_play
from umtali.bots.policy import best_turn, danger, going_out_discard, keep_value, meld_points
from umtali.bots.seat import Decision, GameInfo
from umtali.engine.actions import (
    DRAW_ACTION,
    END_ACTION,
    TAKE_ACTION,
    TAKE_NEXT_ACTION,
    TAKE_TWO_ACTION,
    Action,
    ActionKind,
)
from umtali.engine.cards import plain_points
from umtali.engine.melds import SOLO_ACCEPTS, accepts, is_pair, meld_kind
from umtali.engine.moves import DRAW, MELD
from umtali.engine.optional import END_MOVE, TAKE_NEXT_MOVE, OptionalState
from umtali.engine.view import PlayerView, Step

#: Points that going out may bring in as forfeits: a gap of that much in the final
#: hand is not better closed by playing on.
FORFEIT_HOPE = 5


class NormalBot:
    name = "normal"

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose(self, view: PlayerView, info: GameInfo) -> Decision:
        legal = list(view.legal)
        if not legal:
            raise ValueError("it is not this player's move")
        if len(legal) == 1:
            return Decision(legal[0], "the only legal action")
        know = Knowledge.of(view)
        if not view.rules.mandatory_play:
            return self._open(view, know, legal)
        if view.step is Step.DRAW:
            return self._draw(view, know, legal)
        plays = [a for a in legal if a.kind in (ActionKind.MELD, ActionKind.PLAY)]
        if plays:
            return self._play(know, plays)
        return self._discard(view, know, legal, info)

    # ------------------------------------------------- optional melding

    def _open(self, view: PlayerView, know: Knowledge, legal: list[Action]) -> Decision:
        """Family, practical and rummy: the same habits on the optional-melding machine."""
        # The bot's own turn needs no hidden card, so any consistent deal will do.
        state = know.sample_state(view, random.Random(0))
        assert isinstance(state, OptionalState)
        moves = state.legal_moves()
        if view.step is Step.DRAW:
            move = choose_draw(state, moves)
            if move[0] == DRAW:
                return Decision(DRAW_ACTION, "nothing on the discard pile scores this turn")
            return Decision(state.action_of(move), "the discard scores this turn")
        if TAKE_NEXT_MOVE in moves:
            return Decision(TAKE_NEXT_ACTION, "the next discard can be played this turn too")
        play = choose_play(state, moves)
        if play is not None:
            move, points = play
            what = "meld" if move[0] == MELD else "play"
            unit = "points out of the hand" if view.rules.hand_scoring else "points"
            return Decision(
                state.action_of(move),
                f"the {what} that leads to the most this turn ({points} {unit})",
            )
        if END_MOVE in moves:
            return Decision(END_ACTION, "nothing more to put down")
        hand = know.hand
        if hand.bit_count() == 1:
            return Decision(state.action_of(choose_discard(state, moves)), "going out")
        choice = self.rank_discards(view, know, legal)[0]
        return Decision(choice, f"{choice.cards[0]} is the card least worth keeping or giving")

    # ------------------------------------------------------------------ draw

    def _draw(self, view: PlayerView, know: Knowledge, legal: list[Action]) -> Decision:
        if TAKE_TWO_ACTION in legal:
            return Decision(TAKE_TWO_ACTION, "both top discards can be played this turn")
        if TAKE_ACTION in legal and view.discard_top is not None:
            top = view.discard_top
            now = best_turn(know.hand, know.accept)[0]
            with_top = best_turn(know.hand | top.bit, know.accept)[0]
            if with_top > now:
                return Decision(TAKE_ACTION, f"{top} scores this turn ({with_top - now} points)")
            build = keep_value(top.bit, know.hand | top.bit, know.unseen, self._later(know))
            if build >= 4.5:
                return Decision(TAKE_ACTION, f"{top} builds toward a meld")
        if DRAW_ACTION in legal:
            return Decision(DRAW_ACTION, "nothing on the discard pile helps")
        return Decision(legal[0], "the only draw left")

    @staticmethod
    def _later(know: Knowledge) -> int:
        """Cards that could become playable once an unseen neighbour is played."""
        later = 0
        reach = know.accept & know.unseen
        while reach:
            low = reach & -reach
            reach ^= low
            later |= SOLO_ACCEPTS[low.bit_length() - 1]
        return later

    # ------------------------------------------------------------------ play

    def _play(self, know: Knowledge, plays: list[Action]) -> Decision:
        best: tuple[tuple[int, int], Action] | None = None
        for action in plays:
            mask = action.mask
            hand = know.hand & ~mask
            if action.kind is ActionKind.MELD:
                kind = meld_kind(mask)
                assert kind is not None
                gain = meld_points(mask)
                acc = know.accept | accepts(kind, mask)
            else:
                gain = plain_points(mask)
                acc = know.accept | SOLO_ACCEPTS[mask.bit_length() - 1]
            rest = best_turn(hand, acc)
            score = (gain + rest[0], rest[1])
            if best is None or score > best[0]:
                best = (score, action)
        assert best is not None
        (points, _), action = best
        what = "meld" if action.kind is ActionKind.MELD else "play"
        return Decision(action, f"the {what} that leads to the most points this turn ({points})")

    # --------------------------------------------------------------- discard

    def _discard(
        self, view: PlayerView, know: Knowledge, actions: list[Action], info: GameInfo
    ) -> Decision:
        hand = know.hand
        if hand.bit_count() == 1:
            choice = going_out_discard(actions)
            return Decision(choice, "going out, face down so the last turn draws blind")
        before_pair = [a for a in actions if is_pair(hand & ~a.mask)]
        if before_pair and not self._going_out_loses(view, know, info):
            choice = going_out_discard(before_pair)
            return Decision(choice, "discarding down to a pair to go out, face down")
        ranked = self.rank_discards(view, know, actions)
        if before_pair:
            # Staying in on purpose: keep the way out (discard a card of the pair).
            ranked = [a for a in ranked if a not in before_pair] or ranked
        choice = ranked[0]
        return Decision(choice, f"{choice.cards[0]} is the card least worth keeping or giving")

    def rank_discards(
        self, view: PlayerView, know: Knowledge, actions: list[Action]
    ) -> list[Action]:
        """Face-up discards, best first: least worth keeping, least useful to the opponent."""
        hand = know.hand
        opp_unknown = know.opp_size - know.opp_known.bit_count()
        # Cards the opponent cannot hold are not "unseen" for the danger count.
        live = know.unseen & ~know.opp_never
        share = opp_unknown / max(1, live.bit_count())
        under = view.discard_top.bit if view.discard_top is not None else 0
        later = self._later(know)
        ranked = []
        for a in actions:
            if a.down or a.kind is not ActionKind.DISCARD:
                continue
            card = a.mask
            keep = keep_value(card, hand, know.unseen, later, view.rules.hand_scoring)
            risk = danger(card, know.opp_known, live, under, share)
            ranked.append((keep + risk, a.cards[0].index, a))
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in ranked]

    @staticmethod
    def _going_out_loses(view: PlayerView, know: Knowledge, info: GameInfo) -> bool:
        """Would ending the hand now leave the game lost (the chance of winning it from
        there none at all)?  Then the bot plays on to catch up instead.  In the game's
        final hand that is ending it behind; before it, a deficit too deep to make up."""
        table = equity_for(view.rules)
        if table is None:
            return False
        me = know.seat
        # Going out may bring in a forfeited card or two: a gap of that much is not
        # better closed by playing on.
        margin = view.scores[me] - view.scores[1 - me] + FORFEIT_HOPE
        return table.after_hand(info, me + 1)(margin) == 0.0
