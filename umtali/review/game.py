"""``umtali review FILE``: the coach goes through a recorded game's finished hands.

For each of one player's decisions it says what the strongest choice was, from
what that player could see at the time (:mod:`umtali.bots.coach`), and flags the
ones that cost more than a threshold, with the points lost against best play.
A hand still in play is not reviewed: its cards are still secret.
"""

from __future__ import annotations

import time
from pathlib import Path

from umtali.bots.coach import INACCURACY, review_hand
from umtali.engine.match import Game, Session
from umtali.engine.progress import hand_infos as infos
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
    budget: int | None = None,
    threshold: float = INACCURACY,
) -> tuple[list[Reviewed], float]:
    """(game number, the coach's review) for each finished hand, and the seconds it took."""
    start = time.perf_counter()
    games = match.games if isinstance(match, Session) else [match]
    out = []
    for g, game in enumerate(games, 1):
        for h, (hand, info) in enumerate(zip(game.hands, infos(game), strict=True), 1):
            if hand.is_over:
                bots = game.stood_in(h - 1, player)
                out.append((g, review_hand(hand, player, h, info, budget, threshold, bots)))
    return out, time.perf_counter() - start


def review_file(path: Path, player: int | None, threshold: float, ascii_only: bool) -> int:
    """``umtali review FILE``: print the review of one seat's decisions; at a terminal,
    offer its flagged decisions to try again."""
    import sys

    from prompt_toolkit import PromptSession
    from rich.console import Console

    from umtali.store.saves import read_saved
    from umtali.ui.coaching import flagged, render_review
    from umtali.ui.gate import GatedInput
    from umtali.ui.retry import retry_loop
    from umtali.ui.screen import LineScreen
    from umtali.ui.textsafe import visible
    from umtali.ui.theme import Theme

    saved = read_saved(path)
    seat = reviewed_player(saved.players, player)
    hands, _ = review_match(saved.match, seat, threshold=threshold)
    name = visible(saved.players[seat - 1].name)
    theme = Theme(ascii=ascii_only)
    console = Console(highlight=False)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    console.print(render_review(hands, name, theme, retry=interactive))
    if interactive:
        session: PromptSession[str] = PromptSession(input=GatedInput.terminal())
        names = (visible(saved.players[0].name), visible(saved.players[1].name))
        retry_loop(LineScreen(console, session, theme), flagged(hands), names)
    return 0
