"""The ``umtali`` command's options: what each subcommand takes, and the checks on them.

Only the parser lives here; :mod:`umtali.cli.main` runs what it parses.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeAlias

from umtali import __version__
from umtali.bots.levels import OPPONENT, names
from umtali.engine.rules import PRESETS

DEFAULT_BOT = OPPONENT.name  # the level a player meets unless they choose


#: What ``add_subparsers`` returns: where each command adds its parser.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umtali",
        description="Umtali, the two-player rummy from old Rhodesia, in the terminal.",
        epilog="Start a game with: umtali play    (umtali play --help for the options)\n"
        "New to Umtali? umtali learn teaches it in ten short lessons.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"umtali {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_command in COMMANDS:
        add_command(sub)
    return parser


def _play(sub: Commands) -> None:
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
        nargs="+",
        type=_name,
        metavar="NAME",
        help=f"the players' names (up to {MAX_NAME} characters each): two with --hotseat; "
        "against the bot, one, yours (the bot keeps its name, which says its level)",
    )
    play.add_argument(
        "--bot",
        choices=names(),
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


def _resume(sub: Commands) -> None:
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
    _display_options(resume)


def _replay(sub: Commands) -> None:
    replay = sub.add_parser(
        "replay",
        help="step through a recorded game, both hands face up",
        description=(
            "Step through a recorded game, both hands face up, each player in their own "
            "seat. Enter: next action | b: back | n: next hand | q: quit. Without a game, "
            "the saved games are listed, most recent first."
        ),
    )
    replay.add_argument(
        "file",
        nargs="?",
        help="a record file, a saved game's name, or its number in the list",
    )
    _display_options(replay, delay=False)  # nobody moves: there is no bot to wait for


def _watch(sub: Commands) -> None:
    watch = sub.add_parser(
        "watch",
        help="watch two bots play (Space: pause, s: step, +/-: speed, w: other hand, q: stop)",
        description=(
            "Two bots play a game while you watch from the first bot's seat: its hand "
            "face up, the other's face down. Space pauses, s steps one move, + and - "
            "change the speed, w turns to the other bot's hand, q stops. Nothing is saved."
        ),
    )
    watch.add_argument(
        "--bots",
        nargs=2,
        choices=names(),
        default=(DEFAULT_BOT, DEFAULT_BOT),
        metavar=("FIRST", "SECOND"),
        help=f"the two bots' levels ({', '.join(names())}; default {DEFAULT_BOT} {DEFAULT_BOT})",
    )
    watch.add_argument("--session", action="store_true", help="a session: best of three games")
    watch.add_argument(
        "--variant", choices=tuple(PRESETS), default="classic", help="the rules (default classic)"
    )
    watch.add_argument("--seed", type=int, help="a number that fixes the deals and the bots")
    _display_options(watch)


def _host(sub: Commands) -> None:
    host = sub.add_parser(
        "host",
        help="host a game for players at other terminals: they join with ssh",
        description=(
            "Host a game that each player joins from their own terminal with ssh (nothing "
            "else to install). It prints a single-seat invite code for each player, and the "
            "host key's fingerprint to check. Listens on this computer only unless --public "
            "or --listen is given. Needs the net extra: pip install 'umtali[net]'."
        ),
    )
    host.add_argument(
        "--variant", choices=tuple(PRESETS), default="classic", help="the rules (default classic)"
    )
    host.add_argument("--session", action="store_true", help="play a best-of-three session")
    host.add_argument("--seed", type=int, help="a number that fixes the deals")
    host.add_argument(
        "--names", nargs=2, type=_name, metavar=("FIRST", "SECOND"), help="the two names"
    )
    host.add_argument(
        "--bot", choices=names(), help="seat 2 is a bot of this level (seat 1 joins by ssh)"
    )
    host.add_argument(
        "--seat", type=int, choices=(1, 2), help="play this seat here, in this terminal"
    )
    host.add_argument("--port", type=_port, default=2222, help="the port (default 2222)")
    where = host.add_mutually_exclusive_group()
    where.add_argument("--listen", metavar="ADDRESS", help="listen on this address")
    where.add_argument(
        "--public", action="store_true", help="listen on every address (prefer a VPN or tunnel)"
    )
    host.add_argument(
        "--grace",
        type=_minutes,
        default=10.0,
        help="minutes a player may be away (or silent) before a bot takes the seat (10)",
    )
    host.add_argument("--spectators", action="store_true", help="also print a code for spectators")
    _display_options(host)


def _learn(sub: Commands) -> None:
    learn = sub.add_parser(
        "learn",
        help="learn to play: ten short lessons on dealt hands, each with a quiz",
        description=(
            "Learn Umtali: ten short lessons, each on a hand dealt for it, teach one idea at "
            "a time. You make the moves; a wrong one is explained. Each lesson ends with a "
            "quiz, and your progress is remembered."
        ),
    )
    learn.add_argument(
        "lesson", nargs="?", help="go straight to this lesson (a number, or its name)"
    )
    learn.add_argument(
        "--list", action="store_true", help="list the lessons and your progress, and stop"
    )
    _display_options(learn)


def _stats(sub: Commands) -> None:
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


def _review(sub: Commands) -> None:
    review = sub.add_parser(
        "review",
        help="the coach's review board: a recorded game's decisions, the graph, try again",
        description=(
            "Go through a recorded game's finished hands and weigh both players' decisions, "
            "in the order played: each against the strongest choice from what that player "
            "could see at the time (never the hidden cards as they lay), as the hint would "
            "have chosen it. At a terminal the review board opens: the graph of the chance "
            "of winning, the table as the player saw it, the move, the best move and why; "
            "any decision can be tried again. Labels: an inaccuracy gave up 3% or more of "
            "the chance of winning the game, a mistake 7%, a blunder 15%; a decision that "
            "gave up 10 points or more on average is at least an inaccuracy, whatever the "
            "chance. With --plain, or when the output is not a terminal, the same as text."
        ),
    )
    review.add_argument(
        "file",
        nargs="?",
        help="a record file, a saved game's name, or its number in umtali replay's list "
        "(none: the list)",
    )
    review.add_argument(
        "--player",
        type=int,
        choices=(1, 2),
        help="whose decisions to list and whose chance to graph (default: the first person)",
    )
    review.add_argument(
        "--threshold",
        type=float,
        default=3.0,
        help="list decisions that gave up at least this many percent of the chance to win "
        "(default 3: inaccuracies and worse; 10 points or more are listed too)",
    )
    review.add_argument("--ascii", action="store_true", help="plain ASCII marks")
    review.add_argument(
        "--plain", action="store_true", help="no review board: the review as text, line by line"
    )
    review.add_argument(
        "--json", action="store_true", help="write the whole analysis to standard output as JSON"
    )


def _serve(sub: Commands) -> None:
    serve = sub.add_parser(
        "serve",
        help="run a club: members play correspondence games over ssh, at any hour",
        description=(
            "A club where members play Umtali by correspondence over SSH: their SSH key is "
            "who they are. Set one up with 'umtali serve init', start it with 'umtali serve "
            "run', and invite a friend with 'umtali serve invite'. Needs the net extra: "
            "pip install 'umtali[net]'."
        ),
    )
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument(
        "--data", metavar="DIR", help="the data folder (default: umtali's, or $UMTALI_DATA_DIR)"
    )
    where.add_argument(
        "--db",
        metavar="URL",
        help="the club's database: a postgresql:// address, or a SQLite file "
        "(default DATA/club/club.sqlite3)",
    )
    steps = serve.add_subparsers(dest="step", metavar="STEP", required=True)
    init = steps.add_parser(
        "init", parents=[where], help="set up a new club and print its admin's invite"
    )
    init.add_argument("--admin-key", metavar="FILE", help="the admin's SSH public key (.pub)")
    init.add_argument("--admin-name", metavar="NAME", help="the admin's name, with --admin-key")
    run = steps.add_parser("run", parents=[where], help="run the club's SSH server")
    run.add_argument("--port", type=_port, default=2323, help="the port (default 2323)")
    run.add_argument(
        "--listen",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address to listen on (default 127.0.0.1: this computer only)",
    )
    run.add_argument(
        "--notify-command",
        metavar="CMD",
        help="run CMD MEMBER GAME MESSAGE (no shell) when it becomes a member's turn",
    )
    invite = steps.add_parser("invite", parents=[where], help="make an invite code")
    invite.add_argument("--admin", action="store_true", help="the newcomer will be an admin")
    steps.add_parser("migrate", parents=[where], help="bring the database to this umtali's schema")
    steps.add_parser("members", parents=[where], help="list the members")
    member = steps.add_parser(
        "member", parents=[where], help="rename, suspend, reinstate, remove a member; admin rights"
    )
    member.add_argument("name", help="the member's name")
    member.add_argument("action", choices=MEMBER_ACTIONS, help="what to do")
    member.add_argument("new", nargs="?", help="the new name (rename)")
    settings = steps.add_parser(
        "settings", parents=[where], help="show the club's settings, or change one"
    )
    settings.add_argument("key", nargs="?", help="the setting to change")
    settings.add_argument("value", nargs="?", help="its new value")
    export = steps.add_parser(
        "export",
        parents=[where],
        help="export the finished games of members who allowed it (records and index.jsonl)",
    )
    export.add_argument("folder", help="an empty or new folder")
    backup = steps.add_parser(
        "backup", parents=[where], help="write the whole club to a new file, at one moment"
    )
    backup.add_argument("file", help="a new file (a backup replaces nothing)")
    restore = steps.add_parser(
        "restore",
        parents=[where],
        help="put a backup into a new, empty club's database (SQLite or PostgreSQL)",
    )
    restore.add_argument("file", help="a file written by umtali serve backup")


#: What ``umtali serve member NAME ACTION`` can do.
MEMBER_ACTIONS = ("rename", "suspend", "reinstate", "remove", "admin", "unadmin")


def _rules(sub: Commands) -> None:
    sub.add_parser("rules", help="show the rules of Umtali")


def _bench(sub: Commands) -> None:
    # umtali.lab.bench parses its own arguments (see umtali.cli.main): this entry
    # only lists the command in umtali --help.
    sub.add_parser(
        "bench", help="measure the engine and the bots (umtali bench --help)", add_help=False
    )


#: Each command's parser, in the order ``umtali --help`` lists them.
COMMANDS: tuple[Callable[[Commands], None], ...] = (
    _play,
    _resume,
    _replay,
    _watch,
    _host,
    _serve,
    _learn,
    _stats,
    _review,
    _rules,
    _bench,
)


def _display_options(parser: argparse.ArgumentParser, delay: bool = True) -> None:
    """How the table is drawn; and, where a bot plays (``delay``), the pause after
    each of its moves."""
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
    if not delay:
        return
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
    return _between(
        text, 0, MAX_DELAY, f"is not a pause: give seconds from 0 to {MAX_DELAY:g}, like 0.5"
    )


def _between(text: str, low: float, high: float, otherwise: str) -> float:
    """``text`` as a number from ``low`` to ``high`` (never nan), else ``otherwise``."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not low <= number <= high:  # also false for nan
        raise argparse.ArgumentTypeError(f"{text!r} {otherwise}")
    return number


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a number up to 65535")
    return port


def _minutes(text: str) -> float:
    return _between(text, 0.1, 24 * 60, "is not a time: give minutes, from 0.1 to a day")
