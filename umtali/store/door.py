"""The one door every file opened for a player passes through.

Saved games and ``--record`` files, the profile, the lesson progress, the host key,
the note beside a hosted game, the bots' match records and the club's backups are read
and written here and nowhere else (a test scans the source for any other ``open``); the
club's SQLite file, which SQLite opens itself, is looked at here first
(:func:`check_place`).  The rules are the
same for every file, so the next feature cannot forget one:

* Only regular files are read.  A file is opened without waiting, so a FIFO never
  hangs the program; a FIFO, a device, a folder or a socket is refused, and a
  device is never even opened (its kind is looked at first).
* At most its kind's limit is read (:mod:`umtali.store.kinds` lists the kinds),
  checked before reading and while reading: a huge or endless file is refused.
* Nothing is written through a link: a new file is made only where nothing is (not
  even a dangling link), and a file is replaced only where a regular file stands.
* What the program did not create is never overwritten: a :class:`HeldFile` is
  rewritten only while its name still leads to the very file written before.
* Whatever is refused raises :class:`FileRefused`, one line that names the file and
  says what is wrong.

A :class:`HeldFile` (a game's record while it is played) is locked with ``flock`` on
its own descriptor, not through a lock file beside it: a second process that reaches
it by any name, a symbolic or a hard link, finds it locked, and the system lets the
lock go when the process ends, however it ends.  It is rewritten whole by a new file
that is locked before it is renamed into place, so its name never leads to a file
that is not locked.

>>> read_file(Path("no-such-file.jsonl"), PROFILE)
Traceback (most recent call last):
umtali.store.kinds.FileMissing: no-such-file.jsonl: cannot be read (No such file or directory)
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from umtali.store.kinds import (
    BACKUP,
    CLUB_DATABASE,
    EQUITY_TABLE,
    HOST_KEY,
    HOSTED_NOTE,
    LOCK_TABLE,
    MATCH_RECORD,
    PICTURE,
    PROFILE,
    PROGRESS,
    RECORD,
    FileBusy,
    FileMissing,
    FileRefused,
    Kind,
    amount,
    kind_of,
)
from umtali.store.locks import holder_in, try_lock

# The kinds and the refusals are imported from here with the door's functions: one
# place to go through.
__all__ = [
    "BACKUP",
    "CLUB_DATABASE",
    "EQUITY_TABLE",
    "HOSTED_NOTE",
    "HOST_KEY",
    "MATCH_RECORD",
    "PICTURE",
    "PROFILE",
    "PROGRESS",
    "RECORD",
    "FileBusy",
    "FileMissing",
    "FileRefused",
    "HeldFile",
    "Kind",
    "append_file",
    "check_place",
    "create_file",
    "create_file_from",
    "decode",
    "read_file",
    "read_stamped",
    "read_text_file",
    "remove_file",
    "replace_file",
]

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_OPEN = _NONBLOCK | _NOCTTY | _CLOEXEC | _BINARY
_CHUNK = 1 << 20


# ------------------------------------------------------------------ reading


def read_file(path: Path, kind: Kind, *, follow: bool = True) -> bytes:
    """What the regular file at ``path`` holds, at most ``kind.limit`` bytes.

    :class:`FileMissing` if nothing is there, :class:`FileRefused` for anything else
    that stops it (another kind of file, too large, unreadable).  With ``follow``
    false a link is refused too; read through a link, the file it leads to must
    still be a regular file, so a link to a device or a FIFO is refused.
    """
    return read_stamped(path, kind, follow=follow)[0]


def read_stamped(path: Path, kind: Kind, *, follow: bool = True) -> tuple[bytes, float]:
    """:func:`read_file`, and when the file read was last modified (for a list of
    saved games, most recent first)."""
    try:
        fd = _open_regular(path, os.O_RDONLY, kind, follow)
        try:
            return _read_all(fd, path, kind), os.fstat(fd).st_mtime
        finally:
            os.close(fd)
    except OSError as err:
        raise FileRefused(path, f"cannot be read ({_why(err)})") from None


def decode(path: Path, data: bytes, kind: Kind) -> str:
    """``data`` read from ``path`` as UTF-8 text; FileRefused if it is not text."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(path, f"not a text file, so not {kind.name}") from None


def read_text_file(path: Path, kind: Kind, *, follow: bool = True) -> str:
    """:func:`read_file` as UTF-8 text (FileRefused if it is not)."""
    return decode(path, read_file(path, kind, follow=follow), kind)


# ------------------------------------------------------------------ writing


def create_file(path: Path, data: bytes | str, mode: int = 0o600) -> None:
    """Make a new file at ``path`` holding ``data`` (its folder too, if need be).

    Only where nothing is: FileExistsError if anything is there, a dangling link
    included, so a link never makes the program create a file elsewhere.  The file
    takes its name whole or not at all (it is written beside it first), and is
    readable by its owner only unless ``mode`` says otherwise.  OSError if it cannot
    be written.
    """
    os.close(_new_whole(path, (_bytes(data),), mode, lock=False))


def create_file_from(path: Path, chunks: Iterable[bytes], kind: Kind) -> None:
    """:func:`create_file` for data made while it is written (a backup, table by
    table): at most ``kind.limit`` bytes, readable by its owner only.

    FileExistsError if anything is at ``path``; FileRefused past the limit.  Whatever
    stops it (the limit, or an error raised by ``chunks``) leaves nothing behind.
    """
    os.close(_new_whole(path, chunks, 0o600, lock=False, kind=kind))


def check_place(path: Path, kind: Kind) -> bool:
    """Whether a regular file stands at ``path`` (True) or nothing (False), looked
    at without following a link: where a program other than the door opens the
    file itself (SQLite its database), it is let through only where the door
    would let it.  FileRefused for anything else, a link or a folder."""
    try:
        return _check_replaceable(path, kind) is not None
    except OSError as err:
        raise FileRefused(path, f"cannot be reached ({_why(err)})") from None


def replace_file(path: Path, data: bytes | str, kind: Kind) -> None:
    """Write ``path`` whole in one step (a new file beside it, fsync, rename), where
    nothing is yet or a regular file stands: a kill at any moment leaves the old
    file or the new one, never half of one.

    FileRefused, and nothing written, where a link, a FIFO, a device or a folder
    stands; OSError if it cannot be written.  A file replaced keeps its permissions
    (a new one is its owner's only).
    """
    old = _check_replaceable(path, kind)
    fd, tmp = _temporary(path)
    try:
        if old is not None:
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
        _write_all(fd, _bytes(data))
        os.fsync(fd)
        _check_replaceable(path, kind)  # again at the last moment
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)


def append_file(path: Path, data: bytes | str, kind: Kind, *, mark: bytes = b"") -> None:
    """Add ``data`` at the end of the regular file at ``path``, which must begin with
    ``mark`` (the first bytes of every file of its kind).

    Never through a link.  FileMissing if it is gone, FileRefused if it is another
    kind of file or does not begin with ``mark``; OSError if it cannot be written.
    """
    fd = _open_regular(path, os.O_RDWR | os.O_APPEND, kind, follow=False)
    try:
        if mark and _read_upto(fd, len(mark)) != mark:
            raise FileRefused(path, f"not {kind.name}, so nothing is added to it")
        _write_all(fd, _bytes(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_file(path: Path) -> bool:
    """Delete the regular file at ``path``; anything else (a link, a folder), or
    nothing, is left as it is.  True if a file was deleted; OSError if it cannot be."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    os.unlink(path)
    return True


# ------------------------------------------------------------- a held file


class HeldFile:
    """A regular file held open and locked against every other process, whatever name
    it is reached by, and written only while its name still leads to it.

    Take one with :meth:`create` (a new file) or :meth:`take` (one that is there);
    :meth:`close` (or the end of the process) lets it go.
    """

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd
        self._id = _identity(os.fstat(fd))
        # Files this one was before a rewrite that another name (a hard link) still
        # leads to: they stay locked, so that name cannot open the game elsewhere.
        self._older: list[int] = []

    @classmethod
    def create(cls, path: Path, data: bytes) -> HeldFile:
        """A new file at ``path`` holding ``data`` (its folder too, if need be), held.

        It is written beside its name and locked first, then given the name only
        where nothing is, so the name never leads to half a file nor to an unlocked
        one.  FileExistsError if anything is there (a dangling link too); OSError
        if it cannot be written.
        """
        return cls(path, _new_whole(path, (data,), 0o600, lock=True))

    @classmethod
    def take(cls, path: Path, kind: Kind) -> HeldFile:
        """The regular file at ``path``, held; never through a link.

        FileMissing if nothing is there, FileRefused if it is not a regular file,
        FileBusy if another process holds it; OSError if it cannot be opened.
        """
        return cls._locked(path, _open_regular(path, os.O_RDWR | os.O_APPEND, kind, False))

    @classmethod
    def _locked(cls, path: Path, fd: int) -> HeldFile:
        try:
            if not try_lock(fd):
                raise FileBusy(path, _holder(fd))
            return cls(path, fd)
        except BaseException:
            os.close(fd)
            raise

    def read(self, kind: Kind) -> bytes:
        """All the file holds, at most ``kind.limit`` bytes (FileRefused if more)."""
        os.lseek(self._open(), 0, os.SEEK_SET)
        try:
            return _read_all(self._open(), self.path, kind)
        except OSError as err:
            raise FileRefused(self.path, f"cannot be read ({_why(err)})") from None

    @property
    def named(self) -> bool:
        """Whether ``path`` still leads to this file (not to another, nor a link)."""
        try:
            info = os.lstat(self.path)
        except OSError:
            return False
        return stat.S_ISREG(info.st_mode) and _identity(info) == self._id

    def append(self, data: bytes) -> None:
        """Add ``data`` at its end and flush it to the disk.

        FileMissing if its name leads nowhere now, FileRefused if it leads to
        something else (nothing is written then); OSError if it cannot be written.
        """
        self._still_named()
        _write_all(self._open(), data)
        os.fsync(self._open())

    def rewrite(self, data: bytes) -> None:
        """Write it whole in one step: a new file beside it, fsync, locked, and
        renamed over it only if its name still leads to it.

        FileMissing or FileRefused as :meth:`append`; OSError if it cannot be
        written (it is then as it was).
        """
        self._still_named()
        fd, tmp = _temporary(self.path)
        try:
            _write_all(fd, data)
            os.fsync(fd)
            if not try_lock(fd):  # nobody else knows this file yet
                raise FileBusy(tmp, _holder(fd))
            self._still_named()
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            os.close(fd)
            raise
        old, self._fd, self._id = self._open(), fd, _identity(os.fstat(fd))
        if os.fstat(old).st_nlink > 0:
            self._older.append(old)
        else:
            os.close(old)

    def remove(self) -> None:
        """Delete it while it is still held, if its name still leads to it; then let
        it go.  OSError if it cannot be deleted (it is let go all the same)."""
        try:
            if self._fd is not None and self.named:
                os.unlink(self.path)
        finally:
            self.close()

    def close(self) -> None:
        """Let it go: the lock goes with the last descriptor."""
        for fd in [*self._older, *([] if self._fd is None else [self._fd])]:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fd, self._older = None, []

    def _open(self) -> int:
        if self._fd is None:
            raise ValueError(f"{self.path} is no longer held")
        return self._fd

    def _still_named(self) -> None:
        try:
            info = os.lstat(self.path)
        except FileNotFoundError:
            raise FileMissing(self.path, "removed since it was last written") from None
        except OSError as err:
            raise FileRefused(self.path, f"cannot be reached ({_why(err)})") from None
        if not stat.S_ISREG(info.st_mode) or _identity(info) != self._id:
            what = "another file" if stat.S_ISREG(info.st_mode) else kind_of(info.st_mode)
            raise FileRefused(
                self.path, f"replaced by {what} since it was last written, so it is left alone"
            )


# ------------------------------------------------------------------ helpers


def _open_regular(path: Path, flags: int, kind: Kind, follow: bool) -> int:
    """An open descriptor on the regular file at ``path``; never waits on a FIFO, and
    never opens a device (its kind is looked at first, then checked on what opened).

    FileMissing if nothing is there, FileRefused if it is another kind of file;
    OSError if it cannot be opened.
    """
    try:
        _check_kind(path, os.stat(path) if follow else os.lstat(path), kind)
        fd = os.open(path, flags | _OPEN | (0 if follow else _NOFOLLOW))
    except (FileNotFoundError, NotADirectoryError) as err:  # nothing there, nor can be
        raise FileMissing(path, f"cannot be read ({_why(err)})") from None
    except OSError as err:
        if err.errno == errno.ELOOP and not follow:  # it became a link meanwhile
            raise FileRefused(path, f"not a regular file but a link, so not {kind.name}") from None
        raise
    try:
        _check_kind(path, os.fstat(fd), kind)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_kind(path: Path, info: os.stat_result, kind: Kind) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(
            path, f"not a regular file but {kind_of(info.st_mode)}, so not {kind.name}"
        )


def _check_replaceable(path: Path, kind: Kind) -> os.stat_result | None:
    """What stands at ``path``: nothing (None) or a regular file, else FileRefused."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    _check_kind(path, info, kind)
    return info


def _read_all(fd: int, path: Path, kind: Kind) -> bytes:
    """Everything from ``fd``'s place to its end; FileRefused past ``kind.limit``
    (checked before reading, and while reading, as a file may grow)."""
    size = os.fstat(fd).st_size
    if size > kind.limit:
        raise FileRefused(
            path, f"{amount(size)} is too large for {kind.name}: at most {amount(kind.limit)}"
        )
    chunks: list[bytes] = []
    total = 0
    while chunk := os.read(fd, min(_CHUNK, kind.limit + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > kind.limit:
            raise FileRefused(path, f"too large for {kind.name}: more than {amount(kind.limit)}")
    return b"".join(chunks)


def _read_upto(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size and (chunk := os.read(fd, size - len(data))):
        data += chunk
    return data


def _make_folder(folder: Path) -> None:
    """Make ``folder`` and those above it where they are missing; a file where a
    folder should be is NotADirectoryError (never FileExistsError, which says the
    file to be made is there already)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder)) from None


def _create(path: Path, mode: int) -> int:
    _make_folder(path.parent)
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
    return os.open(path, flags, mode)


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file beside ``path`` (``<name>.<random>.tmp``), open and empty."""
    while True:
        tmp = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return _create(tmp, 0o600), tmp
        except FileExistsError:
            continue


def _new_whole(
    path: Path, chunks: Iterable[bytes], mode: int, lock: bool, kind: Kind | None = None
) -> int:
    """Write ``chunks`` to a new file beside ``path`` (at most ``kind.limit`` bytes,
    with a kind), flush it (and with ``lock`` lock it), then give it the name
    ``path`` where nothing is; its open descriptor."""
    fd, tmp = _temporary(path)
    try:
        try:
            if mode != 0o600:
                os.chmod(tmp, mode)
            total = 0
            for chunk in chunks:
                total += len(chunk)
                if kind is not None and total > kind.limit:
                    raise FileRefused(
                        path, f"too large for {kind.name}: more than {amount(kind.limit)}"
                    )
                _write_all(fd, chunk)
            os.fsync(fd)
            if lock and not try_lock(fd):  # nobody else knows this file yet
                raise FileBusy(tmp, _holder(fd))
            _link_new(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except BaseException:
        os.close(fd)
        raise
    return fd


#: Where a file system has no hard links, ``os.link`` fails with one of these.
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.ENOSYS}


def _link_new(tmp: Path, path: Path) -> None:
    """Give the file ``tmp`` the name ``path`` too, only where nothing is (a hard
    link: atomic, and it never replaces anything, a dangling link included).  Where
    the file system has no hard links, an empty file takes the name first (made
    only where nothing is), and ``tmp`` is renamed over it."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as err:
        if err.errno not in _NO_LINKS:
            raise
        os.close(_create(path, 0o600))
        os.replace(tmp, path)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def _holder(fd: int) -> int | None:
    """The process that holds the lock on ``fd``'s file, where the system says it
    (Linux: its table of locks); else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        info = os.fstat(fd)
        table = read_file(Path("/proc/locks"), LOCK_TABLE)
    except (OSError, FileRefused):
        return None
    file = (os.major(info.st_dev), os.minor(info.st_dev), info.st_ino)
    return holder_in(table.decode("ascii", "replace"), file)
