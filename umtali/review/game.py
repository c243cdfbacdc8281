"""``umtali review FILE``: the coach goes through a recorded game's finished hands.

For each of one player's decisions it says what the strongest choice was, from
what that player could see at the time (:mod:`umtali.bots.coach`), and flags the
ones that cost more than a threshold, with the points lost against best play.
A hand still in play is not reviewed: its cards are still secret.
"""

from __future__ import annotations

import time
from pathlib import Path

from umtali.bots.coach import DEALS, THRESHOLD, review_hand
from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.ui.coaching import Reviewed


def reviewed_player(players: tuple[PlayerInfo, PlayerInfo], asked: int | None) -> int:
    """Whose decisions to review: the one asked for, else the first human seat."""
    if asked is not None:
        return asked
    return (
        1 if players[0].kind is PlayerKind.HUMAN or players[1].kind is not PlayerKind.HUMAN else 2
    )


def review_match(
    match: Game | Session,
    player: int,
    seed: int = 0,
    deals: int = DEALS,
    threshold: float = THRESHOLD,
) -> tuple[list[Reviewed], float]:
    """(game, hand, costly verdicts, decisions weighed) for each finished hand, and the
    seconds it took."""
    start = time.perf_counter()
    games = match.games if isinstance(match, Session) else [match]
    out = []
    for g, game in enumerate(games, 1):
        for h, hand in enumerate(game.hands, 1):
            if hand.is_over:
                verdicts, weighed = review_hand(
                    hand, player, h, seed + 1000 * g + h, deals, threshold
                )
                out.append((g, h, verdicts, weighed))
    return out, time.perf_counter() - start


def review_file(path: Path, player: int | None, threshold: float, ascii_only: bool) -> int:
    """``umtali review FILE``: print the review of one seat's decisions."""
    from rich.console import Console

    from umtali.store.saves import read_saved
    from umtali.ui.coaching import render_review
    from umtali.ui.textsafe import visible
    from umtali.ui.theme import Theme

    saved = read_saved(path)
    seat = reviewed_player(saved.players, player)
    hands, _ = review_match(saved.match, seat, threshold=threshold)
    name = visible(saved.players[seat - 1].name)
    review = render_review(hands, name, Theme(ascii=ascii_only), threshold=threshold)
    Console(highlight=False).print(review)
    return 0
