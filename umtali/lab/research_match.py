"""One duplicate match between OpenSpiel's ISMCTS and one of our levels: a job.

``bench research`` plays a run of these (:mod:`umtali.lab.benches.research`), in
this process or spread over processes by :func:`umtali.lab.workers.run_jobs`, so
:func:`play_research_match` is a module-level function of plain arguments that
decides nothing by time or by where it runs.

Match ``index`` is one episode of our OpenSpiel game
(:mod:`umtali.research.openspiel_game`) played twice, ISMCTS in seat 0 and then in
seat 1, each chance outcome taken in both plays from the same seeded order:

* ``scope="game"``: the episode is a whole game.  The cut (the seat that deals
  first) comes from the match's seed; the cards of hand ``k`` come from a deck
  order made from the match's seed and ``k``, so both plays of hand ``k`` see
  the same deck, the deal and every stock draw.  Who deals hand ``k`` after the
  first (the winner of the last), and in classic who takes the eleventh card,
  follow the play, as the rules have it: where the two plays differ there, the
  same deck falls to the other seat, and the luck of the cards cancels less than
  in ``bench bots``, whose benchmark games fix the deal's order.
* ``scope="hand"``: the episode is one hand, its deck order from ``seed + index``
  (seat 0 deals).

The result is a :class:`~umtali.lab.tournament.MatchResult` with ISMCTS as A:
its points and the level's over both plays, the hands played, the games (or, for
``scope="hand"``, the hands) each won, and each side's seconds a move.
"""

from __future__ import annotations

import random
import time
from typing import Any

from umtali.lab.tournament import MatchResult


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run begun at ``seed``."""
    return seed + index


def deck_order(seed: int, number: int | None = None) -> list[int]:
    """The order in which chance gives the cards: of the hand of a match seeded
    ``seed`` (``number`` None), or of hand ``number`` of its game.

    >>> deck_order(7, 2) == deck_order(7, 2) != deck_order(7, 3)
    True
    """
    order = list(range(52))
    # A hand's order is the one ``bench research`` has always used; a game's hands
    # each get their own, from a string seed (hashed the same in every process).
    rng = random.Random(seed if number is None else f"umtali-research-{seed}-hand-{number}")
    rng.shuffle(order)
    return order


def first_dealer(seed: int) -> int:
    """The cut of a match's game: the seat (0 or 1) that deals the first hand."""
    return random.Random(f"umtali-research-{seed}-cut").randrange(2)


def play_research_match(
    index: int, seed: int, simulations: int, level: str, variant: str, scope: str
) -> MatchResult:
    """Match ``index`` of a run begun at ``seed``: one episode of ``scope`` played
    twice, ISMCTS (``simulations`` a move) against ``level``, the seats swapped."""
    from umtali.research.game_episode import GameEpisode
    from umtali.research.openspiel_bots import LevelBot, ismcts_bot
    from umtali.research.openspiel_game import load

    game = load(variant, scope=scope)
    ms = match_seed(seed, index)
    points = [0, 0]
    won = [0, 0]
    hands = 0
    lat: tuple[list[float], list[float]] = ([], [])
    for searcher in (0, 1):
        players: list[Any] = [ismcts_bot(game, simulations, seed=ms), LevelBot(level, ms)]
        if searcher:
            players.reverse()
        state = game.new_initial_state()
        episode = state.episode
        orders: dict[int | None, list[int]] = {}
        while not state.is_terminal():
            if state.is_chance_node():
                if isinstance(episode, GameEpisode) and episode.first < 0:
                    state.apply_action(first_dealer(ms))
                    continue
                number = episode.number if isinstance(episode, GameEpisode) else None
                if number not in orders:
                    orders[number] = deck_order(ms, number)
                # The deck's order decides: the same cards come in both plays.
                left = set(episode.chance_outcomes())
                state.apply_action(next(c for c in orders[number] if c in left))
                continue
            mover = state.current_player()
            start = time.perf_counter()
            action = players[mover].step(state)
            lat[0 if mover == searcher else 1].append(time.perf_counter() - start)
            state.apply_action(action)
        if isinstance(episode, GameEpisode):
            scores = episode.totals
            hands += len(episode.past)
        else:
            m = episode.hand_state
            assert m is not None
            scores = (m.score(0), m.score(1))
            hands += 1
        mine, theirs = scores[searcher], scores[1 - searcher]
        points[0] += mine
        points[1] += theirs
        if mine != theirs:
            won[0 if mine > theirs else 1] += 1
    return MatchResult(index, (points[0], points[1]), hands, (won[0], won[1]), lat)


__all__ = ["deck_order", "first_dealer", "match_seed", "play_research_match"]
