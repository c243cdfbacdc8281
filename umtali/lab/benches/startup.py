"""``umtali bench startup``: how quickly Umtali starts, ``umtali --help`` and
``umtali play`` to its first frame.

Each run is a fresh interpreter (``python -m umtali``), as a player's command is.
The first screen is timed in a pseudo-terminal of 80 by 24: from starting
``umtali play --seed 1`` to the moment the full-screen table has written the
game's first words (the cut for the deal) to it.

The runs keep their compiled bytecode in a folder of their own, filled by one
untimed run of each: what is timed is a start once Python has compiled the
program, as an installed one is (``PYTHONDONTWRITEBYTECODE`` would otherwise
make every run compile Umtali again).  The game gets a data folder of its own
too, so nothing is saved where the player's games are, and nothing is written
outside a temporary folder.

Needs a POSIX pseudo-terminal (the standard library's :mod:`pty`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

#: What the table writes in its first frame of every game: the words of the cut.
FIRST_WORDS = b"Cut for the deal"

#: The first screen's command (after ``python -m umtali``): a repeatable deal.
PLAY = ("play", "--seed", "1")

#: The pseudo-terminal's size: a common window.
ROWS, COLUMNS = 24, 80


def missing() -> str | None:
    """What the benchmark needs and this system lacks, in words; None if nothing."""
    try:
        import fcntl  # noqa: F401
        import pty  # noqa: F401
        import resource  # noqa: F401
        import termios  # noqa: F401
    except ImportError:
        return "umtali bench startup needs a POSIX pseudo-terminal (Linux, macOS, BSD)"
    return None


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "umtali", *args]


def environment(scratch: Path) -> dict[str, str]:
    """The runs' environment: this one, with the bytecode and the games kept under
    ``scratch``, and a terminal that draws the full-screen table."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        PYTHONPYCACHEPREFIX=str(scratch / "bytecode"),
        UMTALI_DATA_DIR=str(scratch / "data"),
        TERM="xterm-256color",
    )
    return env


class Took(NamedTuple):
    """How long a run took: on the clock, and the processor time it used (which a
    busy machine disturbs less)."""

    wall: float
    cpu: float


def _children_cpu() -> float:
    """Processor seconds used so far by the children this process has waited for."""
    import resource  # POSIX only: see missing()

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_help(env: dict[str, str]) -> Took:
    """How long ``umtali --help`` takes, start to exit."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        _command("--help"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    took = Took(time.perf_counter() - start, _children_cpu() - cpu)
    if done.returncode != 0:
        raise RuntimeError(f"umtali --help ended with {done.returncode}: {done.stderr!r}")
    return took


def time_first_screen(env: dict[str, str], timeout: float = 30.0) -> Took:
    """How long from starting ``umtali play --seed 1`` in a pseudo-terminal to its
    first frame (:data:`FIRST_WORDS` written); the game is then stopped at once, so
    its processor time is that of the start (and the moment it takes to stop it)."""
    import fcntl  # POSIX only: see missing()
    import pty
    import termios

    master, child_end = pty.openpty()
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    cpu = _children_cpu()
    start = time.perf_counter()
    child = subprocess.Popen(
        _command(*PLAY),
        stdin=child_end,
        stdout=child_end,
        stderr=child_end,
        env=env,
        start_new_session=True,  # its own terminal and process group
    )
    os.close(child_end)
    try:
        wall = start_to_words(master, start, timeout)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        os.close(master)
    return Took(wall, _children_cpu() - cpu)


def start_to_words(master: int, start: float, timeout: float) -> float:
    """Read the terminal ``master`` until :data:`FIRST_WORDS` arrive; the seconds since
    ``start`` when they did."""
    seen = b""
    while True:
        left = start + timeout - time.perf_counter()
        if left <= 0 or not select.select([master], [], [], left)[0]:
            raise RuntimeError(f"umtali play wrote no first frame within {timeout:g} s")
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the terminal closed: the program ended
            chunk = b""
        if not chunk:
            raise RuntimeError(f"umtali play ended before its first frame: {seen[-300:]!r}")
        seen += chunk
        if FIRST_WORDS in seen:
            return time.perf_counter() - start


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with ``share`` of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def bench_startup(runs: int) -> dict[str, object]:
    """``runs`` timings of each (taking turns, after one untimed run of each to fill
    the bytecode folder and warm the disk cache): the median and p90 in milliseconds,
    and the median processor time."""
    helps: list[Took] = []
    screens: list[Took] = []
    with tempfile.TemporaryDirectory(prefix="umtali-startup-") as scratch:
        env = environment(Path(scratch))
        time_help(env)
        time_first_screen(env)
        for _ in range(runs):
            helps.append(time_help(env))
            screens.append(time_first_screen(env))
    figures: dict[str, object] = {"benchmark": "startup", "runs": runs}
    for name, timings in (("help", helps), ("first_screen", screens)):
        walls = [t.wall for t in timings]
        figures[f"{name}_median_ms"] = round(1000 * statistics.median(walls), 1)
        figures[f"{name}_p90_ms"] = round(1000 * percentile(walls, 0.9), 1)
        figures[f"{name}_cpu_median_ms"] = round(1000 * statistics.median(t.cpu for t in timings))
    return figures


def options(startup: argparse.ArgumentParser) -> None:
    startup.add_argument("--runs", type=int, default=10, help="runs of each (default 10)")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    lacking = missing()
    if lacking is not None:
        print(f"umtali: {lacking}", file=sys.stderr)
        return 2
    timed = bench_startup(args.runs)
    print(
        f"startup, {timed['runs']} runs each: umtali --help median {timed['help_median_ms']} "
        f"ms, p90 {timed['help_p90_ms']} ms ({timed['help_cpu_median_ms']} ms of CPU); "
        f"umtali play to its first frame median {timed['first_screen_median_ms']} ms, p90 "
        f"{timed['first_screen_p90_ms']} ms ({timed['first_screen_cpu_median_ms']} ms of CPU)"
    )
    print(json.dumps(timed))
    return 0
