"""The ``umtali`` command: parse the arguments, run, return an exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from umtali import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umtali",
        description="Umtali, the two-player rummy from old Rhodesia, in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"umtali {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser(
        "bench",
        help="measure the engine (see: umtali bench --help)",
        add_help=False,
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "bench":
        from umtali import bench

        return bench.main(args[1:])
    parser = build_parser()
    parsed = parser.parse_args(args)
    if parsed.command is None:
        parser.print_help()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
