"""What the file door lets through, and how it says no.

Each kind of file a player has is one entry here, with the most bytes of it that
are ever read and why that many; every refusal is a :class:`FileRefused`, one line
that names the file and says what is wrong.  The door itself is
:mod:`umtali.store.door`.

>>> PROFILE.limit // MB
32
>>> str(FileRefused(Path("profile.jsonl"), amount(200 * MB) + " is too large"))
'profile.jsonl: 200 MB is too large'
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from umtali.engine.errors import UmtaliError

KB = 1024
MB = 1024 * KB


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of file the door lets through: what a refusal calls it, and the most
    bytes of it that are ever read."""

    name: str
    limit: int


#: A saved game or ``--record`` file: larger than any real record (a game of a
#: million actions is about 15 MB), small enough that a stray huge file is refused
#: before it is read.
RECORD = Kind("an Umtali record", 64 * MB)
#: ``profile.jsonl``: a finished game is a line of 300 to 500 bytes, so 32 MB is
#: some 70,000 games (twenty years of ten a day), read in about a second.
PROFILE = Kind("your profile", 32 * MB)
#: ``learn.jsonl``: a line of about 50 bytes for each lesson played or quiz
#: answered; 4 MB is 80,000 of them, far more than anyone plays ten lessons.
PROGRESS = Kind("your lesson progress", 4 * MB)
#: The SSH host key: an ed25519 key is about 400 bytes, the largest RSA key a
#: few KB.
HOST_KEY = Kind("an SSH host key", 64 * KB)
#: An SSH public key (``umtali serve init --admin-key``): one line of at most a few KB.
PUBLIC_KEY = Kind("an SSH public key", 64 * KB)
#: The note beside a hosted game's record: its hosting options, a hundred bytes.
HOSTED_NOTE = Kind("a hosted game's note", 4 * KB)
#: ``bench bots --record``: a match is a line of about 3 KB (each decision's time),
#: so 128 MB is some 40,000 matches, far past the longest run measured (800).
MATCH_RECORD = Kind("an umtali match record", 128 * MB)
#: ``bench equity``'s table (``umtali/bots/equity.json``): about 300 KB with Rummy's
#: race to 150, so 8 MB leaves room for finer tables.
EQUITY_TABLE = Kind("an equity table", 8 * MB)
#: The README's picture of the table (``python -m umtali.ui.snapshot``), written
#: only; it is about 40 KB.
PICTURE = Kind("a picture of the table", 4 * MB)
#: A club's backup (``umtali.store.transfer``): a finished correspondence game is a
#: few KB, so 1 GiB is some 200,000 games, far more than a club that fits one host
#: plays; a larger one is refused while it is written, not half kept.
BACKUP = Kind("a club backup", 1024 * MB)
#: A club's SQLite database: SQLite reads and writes it itself, so nothing of it is
#: read through the door (no limit); the door only looks at what stands at its name.
CLUB_DATABASE = Kind("a club database", 0)
#: The kernel's table of file locks (``/proc/locks``), read to name a lock's holder.
LOCK_TABLE = Kind("the lock table", 4 * MB)
#: ``umtali serve export``: the club's finished games, a record file each and an
#: index; written only, each file new, so an export never overwrites anything.
CLUB_EXPORT = Kind("a club's export", 64 * MB)


class FileRefused(UmtaliError):
    """A file the door will not read or write as asked: the message names it and
    says why; :attr:`reason` is the why alone, for a sentence of the caller's."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class FileMissing(FileRefused):
    """Nothing is there (a first game, a learner who has not begun): often no
    problem at all, so it is told apart from the other refusals."""


class FileBusy(FileRefused):
    """Another process holds the file's lock; :attr:`holder` is its number, where the
    system says it (Linux), else None."""

    def __init__(self, path: Path, holder: int | None) -> None:
        who = f" (process {holder})" if holder else ""
        super().__init__(path, f"locked by another program{who}")
        self.holder = holder


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, in words (from its mode)."""
    for test, name in (
        (stat.S_ISLNK, "a link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "something else"


def amount(size: int) -> str:
    """A size in words: bytes, KB or MB."""
    if size >= MB:
        return f"{size / MB:.0f} MB"
    if size >= KB:
        return f"{size / KB:.0f} KB"
    return f"{size} bytes"
