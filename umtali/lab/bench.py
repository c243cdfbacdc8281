"""``umtali bench``: the benchmarks' one list, and the command line built from it.

``python -m umtali.lab.bench engine`` runs the same as ``umtali bench engine``.
Each command is one entry of :data:`REGISTRY`: its name, its line of help, the
function that adds its options and the one that runs it, both in its module of
:mod:`umtali.lab.benches`.  The parser, its help and the dispatch are all read
from the registry, so a new bench is a module there and one entry here.

>>> [bench.name for bench in REGISTRY][:4]
['engine', 'soak', 'bots', 'coach']
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from umtali.lab.benches import (
    bots,
    club,
    coach,
    engine,
    equity,
    fuzz,
    host,
    ladder,
    load,
    reading,
    research,
    research_speed,
    search,
    soak,
    startup,
)

#: A bench command's run: the parsed arguments and the parser (whose ``error`` refuses
#: nonsense with the usage, exit code 2) to the exit code.
Run = Callable[[argparse.Namespace, argparse.ArgumentParser], int]


@dataclass(frozen=True, slots=True)
class Bench:
    """One ``umtali bench`` command: its name and help, its options, and its run."""

    name: str
    help: str
    options: Callable[[argparse.ArgumentParser], None]
    run: Run


#: The ``umtali bench`` commands, in the order its help lists them.
REGISTRY: tuple[Bench, ...] = (
    Bench(
        "engine", "random hands per second, and the primitives' cost", engine.options, engine.run
    ),
    Bench("soak", "random and bot hands with every invariant checked", soak.options, soak.run),
    Bench("bots", "duplicate matches between two bot levels", bots.options, bots.run),
    Bench(
        "coach", "the coach's cost: reviewing easy's games against hard", coach.options, coach.run
    ),
    Bench(
        "reading",
        "how well the expert's deals place the opponent's hidden cards (log-loss a card)",
        reading.options,
        reading.run,
    ),
    Bench(
        "search",
        "what the expert's moves give up to the luck of its deals, at several budgets",
        search.options,
        search.run,
    ),
    Bench(
        "equity",
        "fit the game-equity table the bots and the coach read",
        equity.options,
        equity.run,
    ),
    Bench(
        "fuzz", "hostile lines typed at the real prompt, game after game", fuzz.options, fuzz.run
    ),
    Bench("ladder", "a round robin of the levels, and their ratings", ladder.options, ladder.run),
    Bench(
        "host",
        "many hosted games at once, each against an SSH client (needs [host-load])",
        host.options,
        host.run,
    ),
    Bench(
        "club",
        "a club's members playing their games at a steady rate, on SQLite or PostgreSQL",
        club.options,
        club.run,
    ),
    Bench(
        "load",
        "what a server pays to load a stored game and find its pending decision",
        load.options,
        load.run,
    ),
    Bench(
        "startup",
        "how long umtali --help, and umtali play to its first frame, take",
        startup.options,
        startup.run,
    ),
    Bench(
        "research",
        "OpenSpiel's ISMCTS against a bot level, in duplicate (needs [research])",
        research.options,
        research.run,
    ),
    Bench(
        "research-speed",
        "random play through our OpenSpiel game and PettingZoo env against gin rummy's",
        research_speed.options,
        research_speed.run,
    ),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umtali bench", description="Measure the Umtali engine and bots."
    )
    sub = parser.add_subparsers(dest="what", required=True)
    for bench in REGISTRY:
        bench.options(sub.add_parser(bench.name, help=bench.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from umtali.lab.workers import ClusterError

    try:
        return _main(argv)
    except ClusterError as err:
        print(f"umtali bench: {err}", file=sys.stderr)
        return 2


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = next(bench.run for bench in REGISTRY if bench.name == args.what)
    return run(args, parser)


if __name__ == "__main__":
    sys.exit(main())
