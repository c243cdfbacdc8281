"""One analysis of a whole recorded game: both players' decisions, in the order played.

Every decision with a real choice, game by game and hand by hand, is numbered
1..N across the record and weighed by the coach (:mod:`umtali.bots.coach`) from
the view its player had: the move played, the best move, the mover's chance of
winning the game before it (with the best move) and after it (with the move
played), the points given up, a label and the reason.  Beside them: each hand's
scores, each game's totals and the result.  The review board, the line review,
the graph and ``--json`` all read this one value; none of them weighs anything
again.

A hand still in play is left out: its cards are still secret.  A resigned game's
last hand, though unfinished, is over for good: its decisions, the ones a player
most wants to see again, are reviewed too, the hand marked as resigned and with no
score (:class:`ResignedHand`).  Where no search was needed (a forced choice, a
move that needed no search) the chance is carried from the decision before, since
nothing was measured and nothing given up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from umtali.bots.coach import (
    INACCURACY,
    YOU,
    HandReview,
    Label,
    Verdict,
    Voice,
    is_choice,
    listed,
    weigh_hand,
)
from umtali.bots.equity import equity_for
from umtali.engine.actions import Action
from umtali.engine.cards import Card
from umtali.engine.hand import Hand, replay
from umtali.engine.match import Game, Session
from umtali.engine.progress import GameInfo, hand_infos
from umtali.engine.view import PlayerView

#: Told (decisions weighed, decisions in all) as the analysis goes: a terminal shows it.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the game, numbered across the record, with the coach's verdict."""

    number: int  # 1..N across the record
    game: int  # 1-based
    verdict: Verdict
    #: The mover's chance of winning the game with the best move, and with the move
    #: played (None where the rules have no table of chances).
    before: float | None
    after: float | None

    @property
    def seat(self) -> int:
        return self.verdict.view.player

    @property
    def hand(self) -> int:
        return self.verdict.hand

    @property
    def turn(self) -> int:
        return self.verdict.turn

    @property
    def view(self) -> PlayerView:
        return self.verdict.view

    @property
    def played(self) -> Action:
        return self.verdict.played

    @property
    def best(self) -> Action:
        return self.verdict.best

    @property
    def label(self) -> Label | None:
        return self.verdict.label

    @property
    def reason(self) -> str:
        """The reason in the record's notation (``3S``), for tools (``--json``); a
        screen words it with its theme's cards (:meth:`Verdict.reason`)."""
        return self.verdict.reason()

    def chance_for(self, seat: int) -> float | None:
        """``seat``'s chance of winning the game after this decision."""
        if self.after is None:
            return None
        return self.after if seat == self.seat else 1.0 - self.after


@dataclass(frozen=True, slots=True)
class HandScore:
    """A finished hand's scores, and what the decisions in it came to."""

    game: int
    hand: int
    scores: tuple[int, int]
    went_out: int | None
    forfeited: tuple[Card, ...]
    #: Each seat's choices a bot made for it (it stood in), not weighed.
    stood_in: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class ResignedHand:
    """The hand a game was resigned in: unfinished, so it has no score, but its
    decisions are reviewed with the others'."""

    game: int
    hand: int
    #: Each seat's choices a bot made for it (it stood in), not weighed.
    stood_in: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The whole record, analysed: its decisions in order and its scores."""

    names: tuple[str, str]
    decisions: tuple[Decision, ...]
    hands: tuple[HandScore, ...]
    #: Each game's totals over its finished hands, and its winner (None: not over).
    totals: tuple[tuple[int, int], ...]
    winners: tuple[int | None, ...]
    session: bool  # the record is a session of games (best of three)
    chances: bool  # valued by the chance of winning (False: by points alone)
    #: Who won the record (the session, or the one game); None while it goes on.
    winner: int | None = None
    seconds: float = 0.0
    #: The hand the record was resigned in, reviewed though unfinished (None: not
    #: resigned, or resigned once its last hand was over).
    resigned: ResignedHand | None = None

    def was_resigned_in(self, game: int, hand: int) -> bool:
        """Whether ``hand`` of ``game`` is the unfinished hand the game was resigned in."""
        r = self.resigned
        return r is not None and (r.game, r.hand) == (game, hand)

    def result(self) -> str:
        """The result in words: 'Ann won 125 to 106', or how it stands."""
        given_up = self.resigned
        if given_up is not None and self.winner is None:
            return self._given_up(given_up)
        if not self.totals:
            return "No hand was finished."
        if self.session:
            wins = (self.winners.count(1), self.winners.count(2))
            if self.winner is None:
                return f"The session stands at {wins[0]} games to {wins[1]}."
            won = self.winner
            return f"{self.names[won - 1]} won the session {max(wins)} games to {min(wins)}."
        a, b = self.totals[0]
        if self.winner is None:
            n = len(self.hands)
            return f"The game was not finished: {a} to {b} after {n} hand{'s' * (n != 1)}."
        name = self.names[self.winner - 1]
        return f"{name} won {max(a, b)} to {min(a, b)}."

    def _given_up(self, given_up: ResignedHand) -> str:
        """How a resigned record stands: where it was resigned, and the score then."""
        if self.session:
            wins = (self.winners.count(1), self.winners.count(2))
            return (
                f"The session was resigned in game {given_up.game}, hand {given_up.hand}, "
                f"at {wins[0]} games to {wins[1]}."
            )
        a, b = self.totals[0] if self.totals else (0, 0)
        return f"The game was resigned in hand {given_up.hand}, at {a} to {b}."

    def voice(self, decision: Decision, reviewer: int) -> Voice:
        """How the coach tells ``decision`` to the ``reviewer``: to them where it was
        theirs, else of the other seat by its name ("it cost Bot (normal) ...")."""
        if decision.seat == reviewer:
            return YOU
        return Voice.named(self.names[decision.seat - 1], "you")

    def hand_starts(self) -> list[int]:
        """The index of each hand's first decision (one per hand with decisions)."""
        starts: list[int] = []
        last: tuple[int, int] | None = None
        for i, d in enumerate(self.decisions):
            if (d.game, d.hand) != last:
                starts.append(i)
                last = (d.game, d.hand)
        return starts

    def reviewed(
        self, seat: int, threshold: float = INACCURACY
    ) -> tuple[list[tuple[int, HandReview]], list[int]]:
        """One seat's review, hand by hand, as the coach's line review shows it, and the
        numbers (across the record) of the decisions it lists, in order."""
        out: list[tuple[int, HandReview]] = []
        numbers: list[int] = []
        reviewed: list[HandScore | ResignedHand] = [*self.hands]
        if self.resigned is not None:  # the record's last hand, after the finished ones
            reviewed.append(self.resigned)
        for score in reviewed:
            mine = [
                d
                for d in self.decisions
                if (d.game, d.hand, d.seat) == (score.game, score.hand, seat)
            ]
            shown = [d for d in mine if _listed(d.verdict, threshold)]
            numbers += [d.number for d in shown]
            searched = [d.verdict.chances for d in mine if d.verdict.searched]
            review = HandReview(
                score.hand,
                tuple(d.verdict.cost for d in mine),
                tuple(d.verdict for d in shown),
                searched[-1] if searched else True,
                score.stood_in[seat - 1],
                isinstance(score, ResignedHand),
            )
            out.append((score.game, review))
        return out, numbers


def count_decisions(match: Game | Session, resigned: bool = False) -> int:
    """How many decisions :func:`analyse_match` will weigh (each a replay, no search)."""
    total = 0
    for _, _, hand, _ in _reviewed_hands(match, resigned):
        state = replay(hand.deal, [], hand.rules)
        for action in hand.played():
            mover = state.to_move
            if mover is not None and is_choice(state.view(mover)):
                total += 1
            state.play(action)
    return total


def analyse_match(
    match: Game | Session,
    names: tuple[str, str],
    budget: int | None = None,
    progress: Progress | None = None,
    resigned: bool = False,
) -> GameAnalysis:
    """Weigh every decision of both players in ``match``'s finished hands, in order,
    and where the game was ``resigned`` (the profile says so) in its last hand too."""
    start = time.perf_counter()
    total = count_decisions(match, resigned) if progress is not None else 0
    decisions: list[Decision] = []
    hands: list[HandScore] = []
    given_up: ResignedHand | None = None
    games = _games(match)
    chances = True
    for g, h, hand, info in _reviewed_hands(match, resigned):
        game = games[g - 1]
        table = equity_for(game.rules)
        stood = {p: game.stood_in(h - 1, p) for p in (1, 2)}
        by_bot = [0, 0]
        # Seat 1's chance before the hand's first decision: the game as it stands.
        carried = None if table is None else _level(table.after_hand(info, 1))
        for player, verdict in weigh_hand(hand, (1, 2), h, info, budget, stood):
            if verdict is None:
                by_bot[player - 1] += 1
                continue
            chances = chances and (verdict.chances or not verdict.searched)
            before, after = _chances(verdict, carried, player)
            if after is not None:
                carried = after if player == 1 else 1.0 - after
            decisions.append(Decision(len(decisions) + 1, g, verdict, before, after))
            if progress is not None:
                progress(len(decisions), total)
        stood_in = (by_bot[0], by_bot[1])
        if hand.is_over:
            hands.append(
                HandScore(g, h, hand.scores, hand.went_out, tuple(hand.forfeited), stood_in)
            )
        else:  # the hand it was resigned in: no score, and nobody went out
            given_up = ResignedHand(g, h, stood_in)
    if not chances:  # a graph of chances means nothing where none were measured
        decisions = [Decision(d.number, d.game, d.verdict, None, None) for d in decisions]
    return GameAnalysis(
        names,
        tuple(decisions),
        tuple(hands),
        tuple(game.totals for game in games if game.results),
        tuple(game.winner for game in games if game.results),
        isinstance(match, Session),
        chances,
        match.winner,
        time.perf_counter() - start,
        given_up,
    )


def _listed(verdict: Verdict, threshold: float) -> bool:
    return listed(verdict.cost, verdict.points, verdict.chances, threshold)


def _games(match: Game | Session) -> list[Game]:
    return match.games if isinstance(match, Session) else [match]


def _reviewed_hands(
    match: Game | Session, resigned: bool
) -> Iterator[tuple[int, int, Hand, GameInfo]]:
    """(game number, hand number, the hand, its place in the game) for each hand a
    review weighs: the finished ones, and where the game was ``resigned`` the record's
    last hand, over for good though unfinished.  Any other hand still in play is left
    out: its cards are still secret (a game going on elsewhere)."""
    games = _games(match)
    for g, game in enumerate(games, 1):
        last = len(game.hands)
        for h, (hand, info) in enumerate(zip(game.hands, hand_infos(game), strict=True), 1):
            given_up = resigned and g == len(games) and h == last
            if hand.is_over or given_up:
                yield g, h, hand, info


def _level(after_hand: Callable[[int], float]) -> float:
    """Seat 1's chance of winning the game before a hand: the hand level, as a start."""
    return min(1.0, max(0.0, after_hand(0)))


def _chances(
    verdict: Verdict, carried: float | None, player: int
) -> tuple[float | None, float | None]:
    """The mover's chance before (best move) and after (move played) the decision; where
    nothing was measured, the chance carried from the decision before."""
    if verdict.odds is not None:
        return verdict.odds
    if carried is None:
        return None, None
    mine = carried if player == 1 else 1.0 - carried
    return mine, mine
