"""``umtali review FILE``: the coach goes through a recorded game's finished hands.

Both players' decisions are weighed once (:mod:`umtali.review.analysis`), each from
what its player could see at the time (:mod:`umtali.bots.coach`).  At a terminal
the review board opens (:mod:`umtali.review.board`); otherwise, or with
``--plain``, the review is printed: the result, the chance after each decision,
and one player's flagged decisions, with the points lost against best play;
``--json`` writes the analysis for other tools.  A hand still in play is not
reviewed: its cards are still secret; but the hand a game was resigned in is over
for good, and is reviewed with the rest (the command line says which game was
resigned: the profile knows it, not the record).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TextIO

from umtali.bots.coach import INACCURACY, review_hand
from umtali.engine.match import Game, Session
from umtali.engine.progress import hand_infos as infos
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.ui.coaching import Reviewed

if TYPE_CHECKING:
    from umtali.review.analysis import GameAnalysis, Progress
    from umtali.store.saves import SavedGame
    from umtali.ui.theme import Theme


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


def review_saved(
    saved: SavedGame,
    player: int | None,
    threshold: float,
    ascii_only: bool,
    as_json: bool = False,
    plain: bool = False,
    resigned: bool = False,
) -> int:
    """``umtali review FILE``: weigh both players' decisions (in the last hand too,
    unfinished, where the game was ``resigned``); at a terminal open the review board,
    else (``plain``, or no terminal) print the review as text and, at a terminal, take
    a decision's number to try it again; ``as_json``: the analysis as JSON on standard
    output."""
    import json
    import os
    import sys

    from rich.console import Console

    from umtali.review.analysis import analyse_match
    from umtali.review.export import analysis_json
    from umtali.ui.textsafe import visible
    from umtali.ui.theme import Theme

    seat = reviewed_player(saved.players, player)
    names = (visible(saved.players[0].name), visible(saved.players[1].name))
    shows_progress = not as_json and sys.stderr.isatty()
    progress = _progress_line(sys.stderr) if shows_progress else None
    analysis = analyse_match(saved.match, names, progress=progress, resigned=resigned)
    if shows_progress:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
    if as_json:
        json.dump(analysis_json(analysis), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    theme = Theme(ascii=ascii_only)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    dumb = os.environ.get("TERM", "") in ("dumb", "unknown")
    if not analysis.decisions:
        # Nothing to step through: one line, and back to the shell (no board that waits).
        print(f"{names[0]} v {names[1]}: {analysis.result()} There is no decision to review.")
        return 0
    if interactive and not plain and not dumb:
        from umtali.review.board import run_board
        from umtali.ui.gate import GatedInput

        console = Console(highlight=False)
        run_board(analysis, seat, theme, GatedInput.terminal(), console.color_system)
        console.print(f"{names[0]} v {names[1]}: {analysis.result()}")
        return 0
    return _review_lines(analysis, seat, threshold, theme, interactive)


def _progress_line(stream: TextIO) -> Progress:
    """A line that says how far the coach has got, rewritten in place."""

    def tell(done: int, total: int) -> None:
        stream.write(f"\rThe coach is weighing decision {done} of {total}...")
        stream.flush()

    return tell


def _review_lines(
    analysis: GameAnalysis, seat: int, threshold: float, theme: Theme, interactive: bool
) -> int:
    """The review as text: the result, the chance after each decision, one seat's listed
    decisions; at a terminal, one prompt that takes a decision's number to try it again."""
    from prompt_toolkit import PromptSession
    from rich.console import Console

    from umtali.review.board_view import graph_numbers
    from umtali.ui.coaching import render_review
    from umtali.ui.gate import GatedInput
    from umtali.ui.retry import retry_by_number
    from umtali.ui.screen import LineScreen

    console = Console(highlight=False)
    for line in graph_numbers(analysis, seat, theme):
        console.print(line)
    console.print()
    hands, numbers = analysis.reviewed(seat, threshold)
    name = analysis.names[seat - 1]
    console.print(render_review(hands, name, theme, retry=interactive, numbers=numbers))
    if interactive and analysis.decisions:
        session: PromptSession[str] = PromptSession(input=GatedInput.terminal())
        verdicts = [d.verdict for d in analysis.decisions]
        voices = [analysis.voice(d, seat) for d in analysis.decisions]
        screen = LineScreen(console, session, theme)
        retry_by_number(screen, verdicts, analysis.names, voices, theme)
    return 0
