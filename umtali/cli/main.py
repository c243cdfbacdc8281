"""The ``umtali`` command: parse the arguments, build the table, run, return an exit code."""

from __future__ import annotations

import argparse
import math
import os
import sys
import textwrap
from collections.abc import MutableMapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from umtali.bots.levels import find, names
from umtali.cli.options import build_parser
from umtali.engine.errors import UmtaliError
from umtali.ui.textsafe import speaks_unicode, visible

if TYPE_CHECKING:
    from rich.console import RenderableType

    from umtali.engine.match import Game, Session
    from umtali.engine.record import PlayerInfo
    from umtali.host.launch import HostOptions
    from umtali.store.saves import SavedGame
    from umtali.ui.theme import Theme

# Each command imports what it needs when it runs (the engine, the table, rich), so
# that ``umtali --help`` and a mistyped option answer at once.


def rules_text() -> str:
    """RULES.md, as the package ships it."""
    from umtali.ui.rulebook import rules_text as text

    return text()


def _rule_book(ascii_only: bool) -> RenderableType:
    """The rule book for a page in the game, parsed when first drawn."""
    from umtali.ui.rulebook import RuleBook

    return RuleBook(ascii_only)


def show_rules(console: object | None = None, ascii_only: bool = False) -> None:
    from rich.console import Console

    out = console if isinstance(console, Console) else Console()
    from umtali.ui.rulebook import rules_markdown

    text = rules_markdown(ascii_only)
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


def _need_terminal(command: str, plain: bool | None = None) -> bool:
    """Whether ``command`` may go on: the full-screen table needs a terminal to read
    keys from and draw on; ``plain`` mode (None: the command has none) reads lines and
    prints them, so a script's pipe does for either end."""
    if plain or (_isatty(sys.stdin) and _isatty(sys.stdout)):
        return True
    other = (
        " or add --plain to read moves from a pipe and print the game as text"
        if (plain is not None)
        else ""
    )
    print(
        f"umtali {command} needs an interactive terminal: its input or output is not one.\n"
        f"Run it directly in a terminal window{other} (umtali --help lists the other commands).",
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
    from umtali.play.table import play_table

    theme = _theme(args)
    return play_table(
        args.plain,
        theme,
        _rule_book(theme.ascii),
        lambda console: show_rules(console, theme.ascii),
        players,
        match,
        paths,
        seed,
        args.delay,
        daily,
    )


def _new_match(variant: str, seed: int | None, session: bool) -> Game | Session:
    """A new game, or with ``session`` a best-of-three session, of ``variant``."""
    from umtali.engine.match import Game, Session

    return Session(variant, seed=seed) if session else Game(variant, seed=seed)


def run_play(args: argparse.Namespace) -> int:
    from umtali.engine.record import PlayerInfo, PlayerKind
    from umtali.store.saves import new_record_path, refuse_existing

    given = len(args.names or ())
    if given > 2 or (args.hotseat and given == 1) or (not args.hotseat and given == 2):
        wanted = "two names, one for each player" if args.hotseat else "one name, yours"
        print(f"umtali play: --names takes {wanted}", file=sys.stderr)
        return 2
    if args.record:
        refuse_existing(Path(args.record))  # before anything: a record never overwrites
    if not _need_terminal("play", args.plain):
        return 2

    if args.hotseat:
        names = args.names or ("Player 1", "Player 2")
        players = (PlayerInfo(PlayerKind.HUMAN, names[0]), PlayerInfo(PlayerKind.HUMAN, names[1]))
    else:
        # Against the bot, --names names the person; the bot keeps the name that says
        # its level (a second name would hide which bot it is).
        you = args.names[0] if args.names else "You"
        them = f"Bot ({args.bot})"
        players = (PlayerInfo(PlayerKind.HUMAN, you), PlayerInfo(PlayerKind.BOT, them, args.bot))
    seed, daily = args.seed, ""
    if args.daily:
        from umtali.play.daily import daily_seed
        from umtali.store.profile import environ_clock

        today = environ_clock().date()
        seed, daily = daily_seed(today, args.variant), today.isoformat()
        under_way = _daily_under_way(args, players, seed, daily)
        if under_way is not None:
            return under_way
    match = _new_match(args.variant, seed, args.session)
    paths = [new_record_path()]
    if args.record:
        paths.append(Path(args.record))
    return _table(args, players, match, paths, seed, daily)


def _daily_under_way(
    args: argparse.Namespace, players: tuple[PlayerInfo, PlayerInfo], seed: int, daily: str
) -> int | None:
    """Where today's deal is saved unfinished, go on with it (or, if it was begun with
    other players, say how to reach it) and return the exit code; else None."""
    from umtali.play.daily import saved_deal
    from umtali.store.resumable import resumable_games
    from umtali.store.saves import copies_to_keep

    games, _ = resumable_games()
    saved = saved_deal(games, seed, args.variant, args.session)
    if saved is None:
        return None
    if saved.players != players:
        print(
            _fitted(
                f"umtali: today's deal is already under way in {visible(saved.path.name)} "
                f"({visible(saved.summary())}): umtali resume continues it, and umtali resume "
                "--delete deletes it (umtali resume lists it with its number).",
                sys.stderr,
            ),
            file=sys.stderr,
        )
        return 1
    copies, skipped = copies_to_keep(saved)
    for why in skipped:
        print(visible(why), file=sys.stderr)
    print(f"Today's deal goes on from where you left it ({visible(saved.path.name)}).")
    paths = [saved.path, *copies, *([Path(args.record)] if args.record else [])]
    return _table(args, saved.players, saved.match, paths, seed, daily)


def _columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to (COLUMNS where it is set)."""
    from rich.console import Console

    return Console(file=stream).width


def _fitted(text: str, stream: TextIO) -> str:
    """``text`` broken between words to the terminal's width where ``stream`` is a
    terminal (which would otherwise break a long line mid-word), else as it is."""
    if not stream.isatty():
        return text
    width = _columns(stream)
    return textwrap.fill(text, max(width - 1, 20), break_long_words=False, break_on_hyphens=False)


def _listed(number: str, summary: str, name: str, said: str, width: float) -> str:
    """One saved game of the resume list: on one line where it fits the terminal, else
    its summary broken between words and its file's name whole on a line of its own
    (a terminal would cut the name where the row ends)."""
    line = f"{number}{summary}  {name}{said}"
    if len(line) < width:
        return line
    indent = " " * len(number)
    rows = textwrap.wrap(
        f"{number}{summary}{said}",
        max(int(width) - 1, 20),
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join([*rows, indent + name])


def run_resume(args: argparse.Namespace) -> int:
    from umtali.store.resumable import resumable_games, was_resigned
    from umtali.store.saves import copies_to_keep, find_record, games_dir, read_saved

    if args.delete is not None:
        return _delete(args.delete)
    which = args.which
    number = _number(which)
    if which is not None and number is None:
        path = find_record(which)
        if path is None:
            print(
                f"umtali: {visible(which)!r} is neither a game number from the list (umtali resume "
                "lists them) nor a record file",
                file=sys.stderr,
            )
            return 1
        saved = read_saved(path)
        if saved.match.is_over:
            print(
                f"{visible(which)}: that game is finished (umtali replay shows it).",
                file=sys.stderr,
            )
            return 1
        if was_resigned(saved):
            print(
                f"{visible(which)}: that game was resigned (umtali replay and umtali review "
                "open it).",
                file=sys.stderr,
            )
            return 1
    else:
        games, problems = resumable_games()
        for problem in problems:
            print(f"skipped: {visible(problem)}", file=sys.stderr)
        if not games:
            print(f"There is no unfinished game to resume (looked in {games_dir()}).")
            return 0
        if which is None and len(games) > 1:
            _list_games("Unfinished games, most recent first:", games)
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
    from umtali.engine.real_deal import by_hand

    if by_hand(saved.match):  # nothing here could deal its next hand as the table did
        print(
            visible(
                f"{saved.path}: that game was played with real cards: umtali review and "
                "umtali replay read it, but it cannot be resumed here."
            ),
            file=sys.stderr,
        )
        return 1
    unplayable = _cannot_seat(saved.players)
    if unplayable:
        print(visible(f"{saved.path}: {unplayable}"), file=sys.stderr)
        return 1
    copies, skipped = copies_to_keep(saved)
    for why in skipped:
        print(visible(why), file=sys.stderr)
    from umtali.host.launch import hosted_options

    hosted = hosted_options(saved.path)
    if hosted is not None:  # a hosted game is hosted again, with new invite codes
        if _no_net() or (hosted.seat is not None and not _need_terminal("resume")):
            return 2
        return _host(args, saved.players, saved.match, [saved.path, *copies], None, hosted)
    if not _need_terminal("resume", args.plain):
        return 2
    return _table(
        args,
        saved.players,
        saved.match,
        [saved.path, *copies],
        None,
        _daily_of(saved.path, saved.match),
    )


def _list_games(heading: str, games: Sequence[SavedGame], shown: float = math.inf) -> None:
    """Print ``heading`` and the first ``shown`` of ``games``, numbered from 1 (the
    number a command takes), one a line: the list of ``resume`` and of ``replay``."""
    from umtali.store.resumable import resigned_ids, was_resigned

    print(heading)
    # Piped, each game stays one line; on a terminal, it fits the width.
    width = _columns(sys.stdout) if sys.stdout.isatty() else math.inf
    resigned = resigned_ids()
    for n, g in enumerate(games, 1):
        if n > shown:
            older = len(games) - n + 1
            print(f"  ...and {older} older game{'s' if older != 1 else ''}, numbered from {n} on.")
            break
        daily = _daily_of(g.path, g.match)
        said = f"  (the daily deal of {daily})" if daily else ""
        if g.match.is_over:
            said += "  (finished)"
        elif was_resigned(g, resigned):
            said += "  (resigned)"
        print(_listed(f"  {n}. ", visible(g.summary()), visible(g.path.name), said, width))


def _daily_of(path: Path, match: Game | Session) -> str:
    """The date of the deal of the day a saved game is, from its seed and the day its
    save was started (its name), or ''."""
    from datetime import datetime

    from umtali.play.daily import daily_of

    try:
        started = datetime.strptime(path.stem[:8], "%Y%m%d").date()
    except ValueError:
        return ""
    return daily_of(match.seed, match.rules.name, started)


def _delete(which: str) -> int:
    """umtali resume --delete N: remove unfinished game N of the list, saying which."""
    from umtali.store.resumable import resumable_games
    from umtali.store.saves import delete_game

    games, _ = resumable_games()
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
    except UmtaliError as err:  # open in another umtali, or no longer a regular file
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
        if player.is_bot and find(player.level) is None:
            return (
                f"player {number} is a bot of level {player.level!r}, which this umtali does not "
                f"have ({', '.join(names())})"
            )
    if all(player.is_bot for player in players):
        return "this game has no human player (both seats are bots): umtali replay shows it"
    return ""


#: How many saved games ``umtali replay`` lists (the older are numbered on, unlisted).
RECENT = 10


def _record_chosen(which: str, command: str) -> Path | None:
    """The record ``which`` names for ``command``: a number from ``umtali replay``'s
    list, a record file, or a saved game's name; None (said why) if none is there."""
    from umtali.store.saves import find_record, games_dir, saved_games

    number = _number(which)
    if number is not None:
        games, _ = saved_games()
        if 1 <= number <= len(games):
            return games[number - 1].path
        print(
            f"There is no saved game number {visible(which)}: umtali replay lists them.",
            file=sys.stderr,
        )
        return None
    path = find_record(which)
    if path is None:
        print(
            _fitted(
                f"umtali {command}: {visible(which)!r} is neither a record file nor the name of "
                f"a game saved in {visible(str(games_dir()))} (umtali replay lists them)",
                sys.stderr,
            ),
            file=sys.stderr,
        )
    return path


def _recent_games(command: str = "replay") -> Path | None:
    """``umtali replay`` (or ``review``) with no file: the only saved game, or None once
    the recent ones are listed (or it is said that there is none)."""
    from umtali.store.saves import games_dir, saved_games

    games, problems = saved_games()
    for problem in problems:
        print(f"skipped: {visible(problem)}", file=sys.stderr)
    if not games:
        print(f"There is no saved game to {command} (looked in {games_dir()}).")
        return None
    if len(games) == 1:
        return games[0].path
    _list_games("Saved games, most recent first:", games, RECENT)
    print(f"{command.capitalize()} one with: umtali {command} NUMBER (or its file's name)")
    return None


def _game_chosen(file: str | None, command: str) -> Path | int:
    """The saved game ``command`` (replay or review) goes over: ``file`` as the player
    named it, or with none the only saved game; else the exit status, once the list of
    saved games is shown (0) or what was named is not found (1)."""
    if file is None:
        path = _recent_games(command)
        return 0 if path is None else path
    chosen = _record_chosen(file, command)
    return 1 if chosen is None else chosen


def run_replay(args: argparse.Namespace) -> int:
    from umtali.store.saves import read_saved

    path = _game_chosen(args.file, "replay")
    if not isinstance(path, Path):
        return path
    saved = read_saved(path)
    if not _need_terminal("replay", args.plain):
        return 2
    from umtali.play.table import make_screen
    from umtali.ui.replay import ReplayViewer

    theme = _theme(args)
    screen, run = make_screen(args.plain, theme, lambda console: None)
    from umtali.store.resumable import was_resigned

    viewer = ReplayViewer(saved.match, saved.players, screen, theme, was_resigned(saved))

    def body() -> tuple[int, list[str]]:
        return 0, viewer.run()

    return run(body)


def run_review(args: argparse.Namespace) -> int:
    if not (args.threshold >= 0 and math.isfinite(args.threshold)):
        print(f"umtali: --threshold {args.threshold}: 0 or more percent", file=sys.stderr)
        return 2
    from umtali.review.game import review_saved
    from umtali.store.resumable import was_resigned
    from umtali.store.saves import read_saved

    path = _game_chosen(args.file, "review")
    if not isinstance(path, Path):
        return path
    saved = read_saved(path)
    # The profile, not the record, says a game was resigned: its last hand is then
    # over for good, and reviewed with the rest, as replay shows it.
    return review_saved(
        saved,
        args.player,
        args.threshold / 100,
        args.ascii,
        args.json,
        args.plain,
        was_resigned(saved),
    )


def run_stats(args: argparse.Namespace) -> int:
    from umtali.stats.report import show_stats

    return show_stats(args.ascii)


def run_watch(args: argparse.Namespace) -> int:
    if not _need_terminal("watch", args.plain):
        return 2
    from umtali.play.table import watch_table

    match = _new_match(args.variant, args.seed, args.session)
    levels = (args.bots[0], args.bots[1])
    return watch_table(args.plain, _theme(args), levels, match, args.seed, args.delay)


def _no_net(command: str = "host") -> bool:
    """Whether asyncssh is missing (and if so, say how to install it)."""
    import importlib.util

    if importlib.util.find_spec("asyncssh") is not None:
        return False
    print(
        f"umtali {command} needs the net extra (asyncssh): pip install 'umtali[net]'",
        file=sys.stderr,
    )
    return True


def run_host(args: argparse.Namespace) -> int:
    if _no_net():
        return 2
    if args.seat == 2 and args.bot:
        print("umtali: --bot plays seat 2, so you cannot sit there (--seat 1)", file=sys.stderr)
        return 2
    if args.seat is not None and not _need_terminal("host --seat"):
        return 2
    from umtali.engine.record import PlayerInfo, PlayerKind
    from umtali.host.launch import HostOptions
    from umtali.store.saves import new_record_path

    names = args.names or ("Player 1", "Player 2")
    second = (
        PlayerInfo(PlayerKind.BOT, names[1], args.bot)
        if args.bot
        else PlayerInfo(PlayerKind.HUMAN, names[1])
    )
    players = (PlayerInfo(PlayerKind.HUMAN, names[0]), second)
    seed = args.seed
    match = _new_match(args.variant, seed, args.session)
    listen = args.listen or ("0.0.0.0" if args.public else "127.0.0.1")
    options = HostOptions(listen, args.port, args.seat, args.grace * 60, args.spectators)
    return _host(args, players, match, [new_record_path()], seed, options)


def _host(
    args: argparse.Namespace,
    players: tuple[PlayerInfo, PlayerInfo],
    match: Game | Session,
    paths: list[Path],
    seed: int | None,
    options: HostOptions,
) -> int:
    from umtali.host.launch import host_game
    from umtali.play.table import make_screen

    theme = _theme(args)
    return host_game(
        match,
        players,
        theme,
        _rule_book(theme.ascii),
        paths,
        seed,
        replace(options, delay=args.delay),  # this run's, even for a game resumed
        lambda: make_screen(args.plain, theme, lambda c: show_rules(c, theme.ascii)),
    )


def run_learn(args: argparse.Namespace) -> int:
    from umtali.learn.lessons import lesson_named

    start = lesson_named(args.lesson) if args.lesson is not None else None
    if args.list:
        from umtali.learn.teach import print_course

        return print_course(args.ascii)
    if not _need_terminal("learn", args.plain):
        return 2
    from umtali.learn.teach import learn_table

    theme = _theme(args)
    return learn_table(
        args.plain,
        theme,
        _rule_book(theme.ascii),
        lambda c: show_rules(c, theme.ascii),
        start,
        args.delay,
    )


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
        from umtali.lab import bench

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
        if parsed.command == "learn":
            return run_learn(parsed)
        if parsed.command == "host":
            return run_host(parsed)
        if parsed.command == "serve":
            if parsed.step in ("init", "run") and _no_net("serve"):
                return 2
            from umtali.cli.serve import run_serve

            return run_serve(parsed)
        if parsed.command == "rules":
            show_rules(ascii_only=ascii_only)
            return 0
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except UmtaliError as err:
        print(_fitted(f"umtali: {visible(str(err))}", sys.stderr), file=sys.stderr)
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
