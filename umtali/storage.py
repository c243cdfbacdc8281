"""Where games are saved, and saving them so that no crash, full disk or second window
loses one.

Records live in the platform's user data directory (platformdirs), or in
``$UMTALI_DATA_DIR`` when that is set.  A record is written whole once, atomically
(a temporary file beside it, fsync, rename); after that each move appends its few
lines and fsyncs them, so a save costs the same whatever the game's length.  A kill
at any instant leaves a whole record, at worst with its last line cut short, which
:func:`read_saved` drops.  When appending is impossible (an undo rewrote the hand,
or a save failed) the record is written whole again.

A game open in one umtali is locked against a second: the lock is an exclusive
``flock`` on ``<record>.lock``, which the system lets go when the process ends,
however it ends.  A save that fails is reported once, tried again at every move, and
reported again when it succeeds; the player is never told a game is saved when it is
not.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from umtali.engine.errors import UmtaliError
from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo, RecordError, RecordWriter, load

SUFFIX = ".umtali"
#: Larger than any real record (a 1,000,000-action game is about 15 MB), small
#: enough that a stray huge file is refused before it is read.
MAX_RECORD_BYTES = 64 * 1024 * 1024


class GameInUse(UmtaliError):
    """The game is open in another umtali; the message names its process."""


def data_dir() -> Path:
    override = os.environ.get("UMTALI_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("umtali", appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` in one step (temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def new_record_path() -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = games_dir() / f"{stamp}"
    path = base.with_suffix(SUFFIX)
    n = 2
    while path.exists():
        path = Path(f"{base}-{n}{SUFFIX}")
        n += 1
    return path


# ------------------------------------------------------------------ locking


def _try_lock(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False if it is held."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class GameLock:
    """The lock that keeps a record to one umtali at a time."""

    def __init__(self, record: Path) -> None:
        self.path = record.with_name(record.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock; GameInUse if another process holds it (OSError if the folder
        cannot be written, which saving will report in its turn)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            record = self.path.name.removesuffix(".lock")
            raise GameInUse(
                f"{record} is open in another umtali{who}: carry on there, or quit it first"
            )
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd

    def release(self, remove: bool = False) -> None:
        if self._fd is None:
            return
        if remove:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        os.close(self._fd)  # closing lets the lock go
        self._fd = None


def _stale_temporaries(record: Path) -> None:
    """Remove temporary files a killed save left beside ``record`` (its lock is held)."""
    with contextlib.suppress(OSError):
        for tmp in record.parent.glob(record.name + ".*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()


# ------------------------------------------------------------------- saving


class RecordFile:
    """One record file, written whole once and then appended to move by move."""

    def __init__(
        self, path: Path, players: tuple[PlayerInfo, PlayerInfo], copies: Sequence[str] = ()
    ) -> None:
        self.path = path
        self.writer = RecordWriter(players, copies)
        self._fd: int | None = None  # open for appending once the whole record is down

    def save(self, match: Game | Session) -> None:
        """Bring the file up to date with ``match``; OSError if it cannot be written."""
        more = None if self._fd is None else self.writer.more(match)
        try:
            if more is None:
                self.close()
                write_atomically(self.path, self.writer.whole(match))
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            elif more:
                assert self._fd is not None
                data = more.encode("utf-8")
                while data:
                    data = data[os.write(self._fd, data) :]
                os.fsync(self._fd)
        except OSError:
            self.close()  # what is on disk is unknown now: the next save writes it whole
            raise

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class Autosaver:
    """Saves a game's record after every action to one or more files.

    The first file is the game's own save; others are records the player asked for.
    Each is locked against a second umtali (:class:`GameInUse` if one has it).  A file
    that cannot be written is reported once through ``warn`` and tried again at every
    save; when it works again ``tell`` says so.  :attr:`problems` holds what failed
    last, so the program never says a game is saved when it is not.
    """

    def __init__(
        self,
        match: Game | Session,
        players: tuple[PlayerInfo, PlayerInfo],
        paths: list[Path],
        warn: Callable[[str], None],
        tell: Callable[[str], None] | None = None,
    ) -> None:
        self.match = match
        # Every file names the records the player asked for, so that a resumed game
        # goes on writing them.
        copies = [str(path.resolve()) for path in paths[1:]]
        self.files = [RecordFile(path, players, copies) for path in paths]
        self.warn = warn
        self.tell = tell or warn
        self.problems: dict[Path, str] = {}
        self._locks: list[GameLock] = []
        for path in paths:
            lock = GameLock(path)
            try:
                lock.acquire()
            except GameInUse:
                self.close()
                raise
            except OSError:
                continue  # an unwritable folder: saving there will say so
            self._locks.append(lock)
            _stale_temporaries(path)

    @property
    def paths(self) -> list[Path]:
        return [f.path for f in self.files]

    @property
    def saved(self) -> bool:
        """Whether every file holds the game as it stands (after the last save)."""
        return not self.problems

    def save(self) -> None:
        for record in self.files:
            try:
                record.save(self.match)
            except OSError as err:
                reason = err.strerror or str(err)
                if record.path not in self.problems:
                    self.warn(
                        f"Could not save the game to {record.path} ({reason}). It will be "
                        "saved as soon as that works again; nothing is lost while you play."
                    )
                self.problems[record.path] = reason
            else:
                if self.problems.pop(record.path, None) is not None:
                    self.tell(f"The game is saved again to {record.path}.")

    def close(self, resigned: bool = False) -> None:
        """Let the files and their locks go (a finished game's locks are removed).
        A resigned game is over too: its own save is deleted, so that resume no
        longer offers it (the records the player asked for are kept)."""
        for record in self.files:
            record.close()
        if resigned and self.files:
            with contextlib.suppress(OSError):
                self.files[0].path.unlink()
        for lock in self._locks:
            lock.release(remove=self.match.is_over or resigned)
        self._locks = []


# ------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class SavedGame:
    path: Path
    modified: float
    players: tuple[PlayerInfo, PlayerInfo]
    match: Game | Session
    copies: tuple[Path, ...] = ()  # the records the player asked for as well

    def describe(self) -> str:
        """One line that tells this game from the others: when it was last played, who,
        the variant, where it stands and the score so far."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        names = f"{self.players[0].name} v {self.players[1].name}"
        m = self.match
        game = m.game if isinstance(m, Session) else m
        hand = len(game.hands)
        kind = f"session, game {len(m.games)}, " if isinstance(m, Session) else ""
        a, b = game.totals
        if game.hand is not None and not game.hand.is_over:
            a, b = a + game.hand.scores[0], b + game.hand.scores[1]
        return f"{when}  {names}  {m.rules.name}, {kind}hand {hand}, {a}-{b}  {self.path.name}"


def delete_game(saved: SavedGame) -> None:
    """Delete a saved game (GameInUse if an umtali has it open; OSError if it cannot)."""
    lock = GameLock(saved.path)
    lock.acquire()
    try:
        saved.path.unlink()
    finally:
        lock.release(remove=True)


def _record_text(path: Path) -> tuple[str, float]:
    """A record file's text and modification time, refusing what is not one: a FIFO or
    device (never waited on), a directory, a file too large, or one not UTF-8."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise RecordError(f"{path}: cannot be read ({err.strerror or err})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{path}: not a regular file, so not an Umtali record")
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError(
                f"{path}: {info.st_size / 2**20:.0f} MB is too large for an Umtali record "
                f"(at most {MAX_RECORD_BYTES // 2**20} MB)"
            )
        chunks = []
        size = 0
        while size <= MAX_RECORD_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise RecordError(f"{path}: cannot be read ({err.strerror or err})") from None
    finally:
        os.close(fd)
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: too large for an Umtali record")
    try:
        return b"".join(chunks).decode("utf-8"), info.st_mtime
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file, so not an Umtali record") from None


def read_saved(path: Path) -> SavedGame:
    """Load a record file; RecordError (naming the file) if it cannot be used.

    A last line without its newline is a save cut short by a kill: if the record
    does not load with it, it loads without it.
    """
    text, modified = _record_text(path)
    try:
        data, match = load(text, str(path))
    except RecordError:
        cut = text.rfind("\n") + 1
        if not text or text.endswith("\n") or not cut:
            raise
        data, match = load(text[:cut], str(path))
    return SavedGame(path, modified, data.players, match, tuple(Path(c) for c in data.copies))


def copies_to_keep(saved: SavedGame) -> tuple[list[Path], list[str]]:
    """The records a resumed game goes on writing besides its own file, and why any
    other is left alone.

    A copy is written again only if it is still there and still holds this game: a
    record could come from anyone, so its ``copy`` lines never make umtali create or
    overwrite another file.
    """
    keep: list[Path] = []
    skipped: list[str] = []
    here = saved.path.resolve()
    for copy in saved.copies:
        if copy.resolve() == here or copy in keep:
            continue
        try:
            other = read_saved(copy)
        except RecordError as err:
            skipped.append(f"the record {copy} is not written any more: {err}")
            continue
        if not same_game(saved, other):
            skipped.append(f"the record {copy} now holds another game: it is left alone")
            continue
        keep.append(copy)
    return keep, skipped


def same_game(a: SavedGame, b: SavedGame) -> bool:
    """Whether two records are of one game: the same rules, seed, players and kind."""
    ma, mb = a.match, b.match
    return (
        a.players == b.players
        and ma.rules == mb.rules
        and ma.seed == mb.seed
        and isinstance(ma, Session) == isinstance(mb, Session)
    )


def unfinished_games() -> tuple[list[SavedGame], list[str]]:
    """Saved games not yet over, most recent first, and the problems met on the way.

    One file that cannot be used never keeps the others from being listed.
    """
    found: list[SavedGame] = []
    problems: list[str] = []
    folder = games_dir()
    if not folder.is_dir():
        return found, problems
    for path in folder.glob(f"*{SUFFIX}"):
        try:
            saved = read_saved(path)
        except RecordError as err:
            problems.append(str(err))
            continue
        except Exception as err:  # a fault of ours: name the file, list the rest
            problems.append(f"{path}: cannot be used ({type(err).__name__}: {err})")
            continue
        if not saved.match.is_over:
            found.append(saved)
    found.sort(key=lambda s: s.modified, reverse=True)
    return found, problems
