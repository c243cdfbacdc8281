"""The ``umtali`` command: parse the arguments, build the table, run, return an exit code."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import resources

from umtali import __version__
from umtali.bots import LEVELS, Seat, make_bot
from umtali.engine.errors import UmtaliError
from umtali.engine.match import Game, Session

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
    play.add_argument("--names", nargs=2, metavar=("FIRST", "SECOND"), help="the players' names")
    play.add_argument(
        "--bot",
        choices=LEVELS,
        default=DEFAULT_BOT,
        help=f"the bot's level (default {DEFAULT_BOT})",
    )
    play.add_argument("--session", action="store_true", help="play a session: best of three games")
    play.add_argument("--seed", type=int, help="a number that fixes the deals (a repeatable game)")
    play.add_argument(
        "--ascii", action="store_true", help="suit letters (S H D C) instead of symbols"
    )
    play.add_argument(
        "--four-color",
        action="store_true",
        help="four suit colours (♠ plain, ♥ red, ♦ blue, ♣ green); NO_COLOR turns colour off",
    )
    play.add_argument(
        "--delay",
        type=float,
        default=0.6,
        help="seconds to pause after each of the bot's moves (default 0.6)",
    )
    sub.add_parser("rules", help="show the rules of Umtali")
    sub.add_parser("bench", help="measure the engine (see: umtali bench --help)", add_help=False)
    return parser


def rules_text() -> str:
    return resources.files("umtali").joinpath("RULES.md").read_text(encoding="utf-8")


def show_rules(console: object | None = None) -> None:
    from rich.console import Console
    from rich.markdown import Markdown

    out = console if isinstance(console, Console) else Console()
    text = Markdown(rules_text())
    if out.is_terminal and sys.stdin.isatty():
        with out.pager(styles=True):
            out.print(text)
    else:
        out.print(text)


def run_play(args: argparse.Namespace) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "umtali play needs an interactive terminal: its input or output is not one.\n"
            "Run it directly in a terminal window (umtali --help lists the other commands).",
            file=sys.stderr,
        )
        return 2
    from prompt_toolkit import PromptSession
    from rich.console import Console

    from umtali.ui.human import HumanSeat, QuitGame
    from umtali.ui.loop import TableLoop
    from umtali.ui.theme import Theme

    if args.delay < 0:
        print("--delay cannot be negative", file=sys.stderr)
        return 2
    console = Console()
    session: PromptSession[str] = PromptSession()
    theme = Theme(ascii=args.ascii, four_color=args.four_color)
    hint_bot = make_bot(DEFAULT_BOT)

    def rules() -> None:
        show_rules(console)

    if args.hotseat:
        names = tuple(args.names or ("Player 1", "Player 2"))
        seats: list[Seat] = [HumanSeat(n, console, session, hint_bot, rules) for n in names]
        humans = (True, True)
    else:
        you = args.names[0] if args.names else "You"
        bot = make_bot(args.bot, args.seed)
        bot.name = args.names[1] if args.names else f"Bot ({args.bot})"
        seats = [HumanSeat(you, console, session, hint_bot, rules), bot]
        humans = (True, False)
    loop = TableLoop(console, session, seats, humans, theme, delay=args.delay)
    try:
        if args.session:
            loop.play_session(Session(seed=args.seed))
        else:
            loop.play_game(Game(seed=args.seed))
    except QuitGame:
        console.print("You left the game.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "bench":
        from umtali import bench

        return bench.main(args[1:])
    parser = build_parser()
    parsed = parser.parse_args(args)
    try:
        if parsed.command == "play":
            return run_play(parsed)
        if parsed.command == "rules":
            show_rules()
            return 0
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except UmtaliError as err:
        print(f"umtali: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # never a traceback in front of a player
        if os.environ.get("UMTALI_DEBUG"):
            raise
        print(
            f"umtali: something went wrong ({type(err).__name__}: {err}).\n"
            "Run again with UMTALI_DEBUG=1 to see the details.",
            file=sys.stderr,
        )
        return 1
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
