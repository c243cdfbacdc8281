"""A duplicate-match run kept on disk as it goes, so a long run can stop and go on.

The file is JSON Lines.  Its first line says which run it belongs to (the two
levels, the variant, the bank version, and the bots' decision fingerprint,
:func:`~umtali.lab.tournament.decision_print`); every later line is one
match's result, written the moment the match ends.  Going on with a run reads
the results already there and plays only the matches missing; since match
``i`` of a bank is the same wherever and whenever it is played, the figures
are those of one unbroken run (the decision times apart, which are measured
afresh each time).

A run killed mid-write leaves at most a torn last line: it is dropped, and
its match is played again.  Anything else wrong with the file is refused
with a :class:`RecordError` that says what, and the file is left as it is.
The file passes the file door (:mod:`umtali.store.door`): a FIFO, a device, a
link or a file too large is refused without waiting or reading it, and a line
is added only to a regular file whose first line is a match record's.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from umtali.lab.tournament import GAMES_PER_MATCH, MatchResult
from umtali.store.door import (
    MATCH_RECORD,
    FileMissing,
    FileRefused,
    append_file,
    create_file,
    read_text_file,
    replace_file,
)

FORMAT = "umtali-match-record-1"


class RecordError(ValueError):
    """The record file cannot be used for this run."""


@dataclass(frozen=True)
class RunKey:
    """What makes two runs' matches the same matches."""

    a: str
    b: str
    variant: str
    bank_version: int
    fingerprint: str


def _header(key: RunKey) -> str:
    return json.dumps({"format": FORMAT, **asdict(key)}) + "\n"


def _result(line: str) -> MatchResult:
    raw = json.loads(line)
    if not isinstance(raw, dict):
        raise ValueError("not an object")
    lat = raw["latency"]
    result = MatchResult(
        index=_int(raw["index"]),
        points=(_int(raw["points"][0]), _int(raw["points"][1])),
        hands=_int(raw["hands"]),
        games_won=(_int(raw["games_won"][0]), _int(raw["games_won"][1])),
        latency=([_float(x) for x in lat[0]], [_float(x) for x in lat[1]]),
    )
    won = result.games_won
    if (
        result.index < 0
        or result.hands < 1
        or min(result.points) < 0
        or min(won) < 0
        or sum(won) > GAMES_PER_MATCH
    ):
        raise ValueError("impossible values")
    return result


def _int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _text(value: Any) -> str:
    if type(value) is not str:
        raise ValueError(f"{value!r} is not a name")
    return value


def _float(value: Any) -> float:
    if type(value) not in (int, float) or not 0 <= value < math.inf:
        raise ValueError(f"{value!r} is not a time")
    return float(value)


def result_line(result: MatchResult) -> str:
    """One match as a line of the record (times kept to the microsecond)."""
    return (
        json.dumps(
            {
                "index": result.index,
                "points": list(result.points),
                "hands": result.hands,
                "games_won": list(result.games_won),
                "latency": [[round(x, 6) for x in side] for side in result.latency],
            }
        )
        + "\n"
    )


def open_record(path: Path, key: RunKey) -> dict[int, MatchResult]:
    """The matches already in the record at ``path`` (a new record, with its first
    line, where there is no file): by index.  Refuses a record of another run."""
    try:
        text = read_text_file(path, MATCH_RECORD, follow=False)
    except FileMissing:
        try:
            create_file(path, _header(key), mode=0o644)
        except OSError as err:
            raise RecordError(f"cannot start the record {path}: {err}") from err
        return {}
    except FileRefused as err:
        raise RecordError(f"cannot read the record {path}: {err.reason}") from None
    theirs, results, lines, torn = _parse(path, text)
    if theirs != key:
        differ = ", ".join(
            f"{k} {getattr(theirs, k)!r} not {v!r}"
            for k, v in asdict(key).items()
            if getattr(theirs, k) != v
        )
        raise RecordError(
            f"{path} records another run ({differ or 'its first line differs'}): "
            "give this run a file of its own"
        )
    if torn:
        # A run stopped in the middle of a line: drop the part, play that match again.
        try:
            replace_file(path, "".join(line + "\n" for line in lines), MATCH_RECORD)
        except (OSError, FileRefused) as err:
            raise RecordError(f"cannot mend the record {path}: {err}") from err
    return results


def read_record(path: Path) -> tuple[RunKey, dict[int, MatchResult]]:
    """The run a record at ``path`` belongs to and its finished matches, by index, read
    and left as they are (a torn last line is not a match)."""
    try:
        text = read_text_file(path, MATCH_RECORD, follow=False)
    except FileMissing:
        raise RecordError(f"there is no record {path}") from None
    except FileRefused as err:
        raise RecordError(f"cannot read the record {path}: {err.reason}") from None
    key, results, _, _ = _parse(path, text)
    return key, results


def _parse(path: Path, text: str) -> tuple[RunKey, dict[int, MatchResult], list[str], str]:
    """A record's run, its matches, its whole lines and what follows the last newline."""
    lines = text.split("\n")
    torn = lines.pop()  # what follows the last newline: empty unless a write was cut short
    try:
        header = json.loads(lines[0]) if lines else None
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordError(f"{path} is not an umtali match record")
    try:
        key = RunKey(
            a=_text(header["a"]),
            b=_text(header["b"]),
            variant=_text(header["variant"]),
            bank_version=_int(header["bank_version"]),
            fingerprint=_text(header["fingerprint"]),
        )
    except KeyError as err:
        raise RecordError(f"{path}, line 1: the first line lacks {err.args[0]!r}") from None
    except ValueError as err:
        raise RecordError(f"{path}, line 1: not a match record's first line ({err})") from None
    if set(header) != {"format", *asdict(key)}:
        raise RecordError(f"{path}, line 1: not a match record's first line")
    results: dict[int, MatchResult] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            result = _result(line)
        except (ValueError, KeyError, IndexError, TypeError, RecursionError) as err:
            raise RecordError(f"{path}, line {number}: not a match result ({err})") from err
        if result.index in results:
            raise RecordError(f"{path}, line {number}: match {result.index} is there twice")
        results[result.index] = result
    return key, results, lines, torn


def append(path: Path, result: MatchResult) -> None:
    """Add one finished match to the record: only to a regular file (not a FIFO, a
    device, a link) that begins as a match record does."""
    mark = _header_mark()
    try:
        append_file(path, result_line(result), MATCH_RECORD, mark=mark)
    except FileRefused as err:
        raise RecordError(f"cannot add match {result.index} to {path}: {err.reason}") from None
    except OSError as err:
        raise RecordError(f"cannot add match {result.index} to {path}: {err}") from err


def _header_mark() -> bytes:
    """The first bytes of every match record (its first line's start)."""
    return json.dumps({"format": FORMAT}).removesuffix("}").encode("utf-8")


__all__ = [
    "FORMAT",
    "RecordError",
    "RunKey",
    "append",
    "open_record",
    "read_record",
    "record_option",
    "result_line",
]


def record_option(parser: argparse.ArgumentParser, same: str = "") -> None:
    """The ``--record FILE`` option of a run of duplicate matches; ``same`` says what
    else must match for a stopped run to go on."""
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="keep each match's result in FILE as it ends; where FILE exists, play only "
        f"the matches it lacks (a stopped run goes on{same})",
    )


def stopped(record: Path | None) -> int:
    """Ctrl-C during a run: with a record, say where the finished matches are kept and
    return the shell's code for it (130); without one, stop as Ctrl-C does."""
    if record is None:
        raise KeyboardInterrupt
    print(
        f"\nStopped. The matches that ended are kept in {record}: "
        "the same command goes on from there.",
        file=sys.stderr,
    )
    return 130


def went_on(result: dict[str, Any], record: Path | None) -> None:
    """Say that a run went on from its record, where it did."""
    if result.get("resumed"):
        print(f"went on from {record}: {result['resumed']} matches were played before")
