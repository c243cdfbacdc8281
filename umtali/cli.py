"""The ``umtali`` command: parse the arguments, build the table, run, return an exit code."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import MutableMapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from umtali import __version__
from umtali.bots import LEVELS
from umtali.engine.errors import UmtaliError
from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo
from umtali.engine.rules import PRESETS
from umtali.textsafe import speaks_unicode, to_ascii, visible

if TYPE_CHECKING:
    from umtali.ui.theme import Theme

DEFAULT_BOT = "hard"  # the strongest level, and it answers in well under a second


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umtali",
        description="Umtali, the two-player rummy from old Rhodesia, in the terminal.",
        epilog="Start a game with: umtali play    (umtali play --help for the options)",
    )
    parser.add_argument("--version", action="version", version=f"umtali {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = sub.add_parser(
        "play",
        help="play a game: against the bot, or two people at one keyboard",
        description=(
            "Play Umtali in this terminal. By default you play one game of four hands "
            "against the bot. Type 'help' at the prompt for the commands; Tab completes "
            "the legal moves."
        ),
    )
    play.add_argument(
        "--hotseat", action="store_true", help="two people take turns at one keyboard"
    )
    play.add_argument(
        "--names",
        nargs=2,
        type=_name,
        metavar=("FIRST", "SECOND"),
        help=f"the players' names (up to {MAX_NAME} characters each)",
    )
    play.add_argument(
        "--bot",
        choices=LEVELS,
        default=DEFAULT_BOT,
        help=f"the bot's level (default {DEFAULT_BOT})",
    )
    play.add_argument("--session", action="store_true", help="play a session: best of three games")
    play.add_argument(
        "--variant",
        choices=tuple(PRESETS),
        default="classic",
        help="the rules: classic (the old rule book, the default), family, practical, "
        "or plain rummy; see umtali rules",
    )
    deals = play.add_mutually_exclusive_group()
    deals.add_argument("--seed", type=int, help="a number that fixes the deals (a repeatable game)")
    deals.add_argument(
        "--daily",
        action="store_true",
        help="the deal of the day: everyone who plays it today gets the same cards (and the "
        "same bot), to compare scores",
    )
    _display_options(play)
    play.add_argument(
        "--record",
        metavar="FILE",
        help="also write the game's record to FILE (it is always saved for umtali resume)",
    )
    resume = sub.add_parser(
        "resume",
        help="continue an unfinished game",
        description=(
            "Continue the most recent unfinished game. When several are unfinished they "
            "are listed; pick one by its number or give a record file."
        ),
    )
    resume.add_argument("which", nargs="?", help="a number from the list, or a record file")
    resume.add_argument(
        "--delete", metavar="N", help="delete unfinished game N of the list instead of playing it"
    )
    replay = sub.add_parser(
        "replay",
        help="step through a recorded game, both hands face up",
        description="Enter: next action | b: back | n: next hand | q: quit",
    )
    replay.add_argument("file", help="a record file (see umtali resume for saved games)")
    watch = sub.add_parser(
        "watch",
        help="watch two bots play (Space: pause, s: step, +/-: speed, q: stop)",
        description=(
            "Two bots play a game while you watch from the first bot's seat: its hand "
            "face up, the other's face down. Space pauses, s steps one move, + and - "
            "change the speed, q stops. Nothing is saved."
        ),
    )
    watch.add_argument(
        "--bots",
        nargs=2,
        choices=LEVELS,
        default=(DEFAULT_BOT, DEFAULT_BOT),
        metavar=("FIRST", "SECOND"),
        help=f"the two bots' levels ({', '.join(LEVELS)}; default {DEFAULT_BOT} {DEFAULT_BOT})",
    )
    watch.add_argument("--session", action="store_true", help="a session: best of three games")
    watch.add_argument(
        "--variant", choices=tuple(PRESETS), default="classic", help="the rules (default classic)"
    )
    watch.add_argument("--seed", type=int, help="a number that fixes the deals and the bots")
    for command in (resume, replay, watch):
        _display_options(command)
    stats = sub.add_parser(
        "stats",
        help="your record: results by opponent and variant, streaks, your rating",
        description=(
            "Your record: every game finished here (or resigned), by opponent and by "
            "variant, the best hand, streaks, the deal of the day, and your rating against "
            "the bot ladder with a chart of it."
        ),
    )
    stats.add_argument("--ascii", action="store_true", help="plain ASCII marks instead of symbols")
    review = sub.add_parser(
        "review",
        help="the coach: a recorded game's costly decisions, from what the player could see",
        description=(
            "Go through a recorded game's finished hands and, for one player's decisions, "
            "compare each with the strongest choice from what that player could see at the "
            "time (never the hidden cards as they lay). Costly decisions are listed with the "
            "points they lost."
        ),
    )
    review.add_argument("file", help="a record file (umtali resume lists saved games)")
    review.add_argument(
        "--player", type=int, choices=(1, 2), help="whose decisions (default: the first person)"
    )
    review.add_argument(
        "--threshold",
        type=float,
        default=2.0,
        help="flag decisions that cost more than this many points (default 2)",
    )
    review.add_argument("--ascii", action="store_true", help="plain ASCII marks")
    sub.add_parser("rules", help="show the rules of Umtali")
    sub.add_parser(
        "bench", help="measure the engine and the bots (umtali bench --help)", add_help=False
    )
    return parser


def _display_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ascii", action="store_true", help="suit letters (S H D C) instead of symbols"
    )
    parser.add_argument(
        "--four-color",
        action="store_true",
        help="four suit colours (spades plain, hearts red, diamonds blue, clubs green); "
        "NO_COLOR turns colour off",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="no full-screen table: print the table between prompts, line by line "
        "(for screen readers and scripts)",
    )
    parser.add_argument(
        "--delay",
        type=_delay,
        default=0.6,
        help=f"seconds to pause after each of the bot's moves, 0 to {MAX_DELAY:g} (default 0.6)",
    )


MAX_DELAY = 10.0
MAX_NAME = 40


def _name(text: str) -> str:
    """A player's name: printable, not blank, at most MAX_NAME characters."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError("a name cannot be blank")
    if not name.isprintable():
        raise argparse.ArgumentTypeError(
            f"{text!r}: a name cannot hold control characters (such as a new line)"
        )
    if len(name) > MAX_NAME:
        raise argparse.ArgumentTypeError(
            f"{name[:20]!r}...: a name can have at most {MAX_NAME} characters"
        )
    return name


def _delay(text: str) -> float:
    """A pause in seconds: a finite number from 0 to MAX_DELAY (argparse names the option)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_DELAY:  # also false for nan
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a pause: give seconds from 0 to {MAX_DELAY:g}, like 0.5"
        )
    return seconds


def rules_text() -> str:
    return resources.files("umtali").joinpath("RULES.md").read_text(encoding="utf-8")


def show_rules(console: object | None = None, ascii_only: bool = False) -> None:
    from rich.console import Console
    from rich.markdown import Markdown

    out = console if isinstance(console, Console) else Console()
    text = Markdown(to_ascii(rules_text()) if ascii_only else rules_text())
    if out.is_terminal and _isatty(sys.stdin):
        styled = pager_shows_styles(os.environ)
        with out.pager(styles=styled):
            out.print(text)
    else:
        out.print(text)


def pager_shows_styles(env: MutableMapping[str, str]) -> bool:
    """Whether the pager the rules open in will show colours and bold, and if it is
    ``less``, tell it to (``-R``, else it prints raw escape codes).  Any other pager
    gets plain text: never escape codes on the screen.
    """
    command = (env.get("MANPAGER") or env.get("PAGER") or "less").split()
    if not command or Path(command[0]).name != "less":
        return False
    options = env.get("LESS", "").split()
    shows_raw = any(
        word.lower() == "--raw-control-chars"
        or (not word.startswith("--") and (word.startswith("-") or n == 0) and "R" in word.upper())
        for n, word in enumerate(options)
    )
    if not shows_raw:
        env["LESS"] = " ".join([*options, "-R"])
    return True


def _isatty(stream: object) -> bool:
    """Whether a standard stream is a terminal (it may be closed, or None)."""
    try:
        return bool(stream is not None and stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def _need_terminal(command: str) -> bool:
    if _isatty(sys.stdin) and _isatty(sys.stdout):
        return True
    print(
        f"umtali {command} needs an interactive terminal: its input or output is not one.\n"
        "Run it directly in a terminal window (umtali --help lists the other commands).",
        file=sys.stderr,
    )
    return False


def _theme(args: argparse.Namespace) -> Theme:
    from umtali.ui.theme import Theme

    return Theme(ascii=args.ascii, four_color=args.four_color)


def _table(
    args: argparse.Namespace,
    players: tuple[PlayerInfo, PlayerInfo],
    match: Game | Session,
    paths: list[Path],
    seed: int | None,
    daily: str = "",
) -> int:
    """Seat the players, save after every move to ``paths``, and play ``match`` on."""
    from umtali.start import play_table

    theme = _theme(args)
    return play_table(
        args.plain,
        theme,
        rules_text(),
        lambda console: show_rules(console, theme.ascii),
        players,
        match,
        paths,
        seed,
        args.delay,
        daily,
    )


def run_play(args: argparse.Namespace) -> int:
    if not _need_terminal("play"):
        return 2
    from umtali.storage import new_record_path

    if args.hotseat:
        names = args.names or ("Player 1", "Player 2")
        players = (PlayerInfo("human", names[0]), PlayerInfo("human", names[1]))
    else:
        you = args.names[0] if args.names else "You"
        them = args.names[1] if args.names else f"Bot ({args.bot})"
        players = (PlayerInfo("human", you), PlayerInfo("bot", them, args.bot))
    seed, daily = args.seed, ""
    if args.daily:
        from umtali.daily import daily_seed
        from umtali.profile import environ_clock

        today = environ_clock().date()
        seed, daily = daily_seed(today, args.variant), today.isoformat()
    match: Game | Session = (
        Session(args.variant, seed=seed) if args.session else Game(args.variant, seed=seed)
    )
    paths = [new_record_path()]
    if args.record:
        paths.append(Path(args.record))
    return _table(args, players, match, paths, seed, daily)


def run_resume(args: argparse.Namespace) -> int:
    from umtali.storage import copies_to_keep, games_dir, read_saved, unfinished_games

    if args.delete is not None:
        return _delete(args.delete)
    which = args.which
    number = _number(which)
    if which is not None and number is None:
        if not Path(which).exists():
            print(
                f"umtali: {visible(which)!r} is neither a game number from the list (umtali resume "
                "lists them) nor a record file",
                file=sys.stderr,
            )
            return 1
        saved = read_saved(Path(which))
        if saved.match.is_over:
            print(
                f"{visible(which)}: that game is finished (umtali replay shows it).",
                file=sys.stderr,
            )
            return 1
    else:
        games, problems = unfinished_games()
        for problem in problems:
            print(f"skipped: {visible(problem)}", file=sys.stderr)
        if not games:
            print(f"There is no unfinished game to resume (looked in {games_dir()}).")
            return 0
        if which is None and len(games) > 1:
            print("Unfinished games, most recent first:")
            for n, g in enumerate(games, 1):
                print(f"  {n}. {visible(g.describe())}")
            print("Continue one with: umtali resume NUMBER")
            return 0
        index = 1 if number is None else number
        if not 1 <= index <= len(games):
            print(
                f"There is no unfinished game number {visible(str(which))}: umtali resume "
                "lists them.",
                file=sys.stderr,
            )
            return 1
        saved = games[index - 1]
    unplayable = _cannot_seat(saved.players)
    if unplayable:
        print(visible(f"{saved.path}: {unplayable}"), file=sys.stderr)
        return 1
    if not _need_terminal("resume"):
        return 2
    copies, skipped = copies_to_keep(saved)
    for why in skipped:
        print(visible(why), file=sys.stderr)
    return _table(
        args,
        saved.players,
        saved.match,
        [saved.path, *copies],
        None,
        _daily_of(saved.path, saved.match),
    )


def _daily_of(path: Path, match: Game | Session) -> str:
    """The date of the deal of the day a saved game is, from its seed and the day its
    save was started (its name), or ''."""
    from datetime import datetime

    from umtali.daily import daily_of

    try:
        started = datetime.strptime(path.stem[:8], "%Y%m%d").date()
    except ValueError:
        return ""
    return daily_of(match.seed, match.rules.name, started)


def _delete(which: str) -> int:
    """umtali resume --delete N: remove unfinished game N of the list, saying which."""
    from umtali.storage import GameInUse, delete_game, unfinished_games

    games, _ = unfinished_games()
    number = _number(which)
    if number is None or not 1 <= number <= len(games):
        print(
            f"There is no unfinished game number {visible(which)}: umtali resume lists them.",
            file=sys.stderr,
        )
        return 1
    saved = games[number - 1]
    try:
        delete_game(saved)
    except GameInUse as err:
        print(visible(str(err)), file=sys.stderr)
        return 1
    except OSError as err:
        print(f"{visible(str(saved.path))} could not be deleted: {err.strerror}", file=sys.stderr)
        return 1
    print(f"Deleted: {visible(saved.describe())}")
    return 0


def _number(text: str | None) -> int | None:
    """``text`` as a game number from the resume list, or None if it is not a plain number."""
    if text is None or not text.strip().lstrip("+-").isascii():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _cannot_seat(players: tuple[PlayerInfo, PlayerInfo]) -> str:
    """Why a saved game cannot be played on here, or ''."""
    for number, player in enumerate(players, 1):
        if player.kind == "bot" and player.level not in LEVELS:
            return (
                f"player {number} is a bot of level {player.level!r}, which this umtali does not "
                f"have ({', '.join(LEVELS)})"
            )
    if all(player.kind == "bot" for player in players):
        return "this game has no human player (both seats are bots): umtali replay shows it"
    return ""


def run_replay(args: argparse.Namespace) -> int:
    from umtali.storage import read_saved

    saved = read_saved(Path(args.file))
    if not _need_terminal("replay"):
        return 2
    from umtali.start import make_screen
    from umtali.ui.replay import ReplayViewer

    theme = _theme(args)
    screen, run = make_screen(args.plain, theme, lambda console: None)
    viewer = ReplayViewer(saved.match, saved.players, screen, theme)

    def body() -> tuple[int, list[str]]:
        return 0, viewer.run()

    return run(body)


def run_review(args: argparse.Namespace) -> int:
    from rich.console import Console

    from umtali.review import review_match, reviewed_player
    from umtali.storage import read_saved
    from umtali.ui.coaching import render_review

    if not (args.threshold >= 0 and math.isfinite(args.threshold)):
        print(f"umtali: --threshold {args.threshold}: give points, 0 or more", file=sys.stderr)
        return 2
    saved = read_saved(Path(args.file))
    player = reviewed_player(saved.players, args.player)
    hands, _ = review_match(saved.match, player, threshold=args.threshold)
    theme = _theme(argparse.Namespace(ascii=args.ascii, four_color=False))
    Console(highlight=False).print(
        render_review(
            hands, visible(saved.players[player - 1].name), theme, threshold=args.threshold
        )
    )
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from rich.console import Console

    from umtali.profile import environ_clock, read_profile
    from umtali.stats import render_stats
    from umtali.ui.text import shown

    profile = read_profile()
    console = Console(highlight=False)
    for problem in profile.problems:
        console.print(shown(problem, "yellow"))
    theme = _theme(argparse.Namespace(ascii=args.ascii, four_color=False))
    today = environ_clock().date()
    console.print(render_stats(profile.entries, theme, console.width, today))
    return 0


def run_watch(args: argparse.Namespace) -> int:
    if not _need_terminal("watch"):
        return 2
    from umtali.start import watch_table

    match: Game | Session = (
        Session(args.variant, seed=args.seed)
        if args.session
        else Game(args.variant, seed=args.seed)
    )
    levels = (args.bots[0], args.bots[1])
    return watch_table(args.plain, _theme(args), levels, match, args.seed, args.delay)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _run(args)
    except BrokenPipeError:
        # The output went to a pipe that closed early (``umtali bench | head``).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _run(args: list[str]) -> int:
    if args and args[0] == "bench":
        from umtali import bench

        try:
            return bench.main(args[1:])
        except KeyboardInterrupt:
            print("\nInterrupted.", file=sys.stderr)
            return 130
    ascii_only = not speaks_unicode(sys.stdout)
    if ascii_only:
        # A terminal without Unicode: everything is drawn in ASCII, and a character
        # that slipped through becomes '?' rather than an error.
        for stream in (sys.stdout, sys.stderr):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="replace")
    parser = build_parser()
    parsed = parser.parse_args(args)
    if ascii_only and hasattr(parsed, "ascii"):
        parsed.ascii = True
    try:
        if parsed.command == "play":
            return run_play(parsed)
        if parsed.command == "resume":
            return run_resume(parsed)
        if parsed.command == "replay":
            return run_replay(parsed)
        if parsed.command == "watch":
            return run_watch(parsed)
        if parsed.command == "stats":
            return run_stats(parsed)
        if parsed.command == "review":
            return run_review(parsed)
        if parsed.command == "rules":
            show_rules(ascii_only=ascii_only)
            return 0
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except UmtaliError as err:
        print(f"umtali: {visible(str(err))}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except Exception as err:  # never a traceback in front of a player
        if os.environ.get("UMTALI_DEBUG"):
            raise
        print(
            f"umtali: something went wrong ({type(err).__name__}: {visible(str(err))}).\n"
            "A game in play is saved after every move: umtali resume continues it.\n"
            "Run again with UMTALI_DEBUG=1 to see the details.",
            file=sys.stderr,
        )
        return 1
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
