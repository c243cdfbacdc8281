"""Locks on open files: taking one without waiting, and finding who holds one.

A lock is taken on an open file (``flock``), not on its name, so it holds against
every name the file has, a symbolic or a hard link; the system lets it go when the
process ends, however it ends.  Who holds a lock is read from the kernel's own table
(``/proc/locks`` on Linux), matched by the file's device and inode.

>>> holder_in("1: FLOCK  ADVISORY  WRITE 1234 fe:00:77 0 EOF", (0xFE, 0, 77))
1234
>>> holder_in("1: FLOCK  ADVISORY  WRITE 1234 fe:00:77 0 EOF", (0xFE, 0, 78)) is None
True
"""

from __future__ import annotations

import sys


def try_lock(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False if it is held.

    The lock belongs to the open file, not to its name, so it holds against every
    name the file has; and it conflicts between two opens even in one process.
    """
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


def holder_in(table: str, file: tuple[int, int, int]) -> int | None:
    """The process holding a lock on ``file`` (its device's major and minor numbers,
    and its inode) in ``table``, the text of ``/proc/locks``; None if none is named."""
    # A line: "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5309185 0 EOF"; a process waiting
    # for the lock has "->" after the number.
    for line in table.splitlines():
        words = line.split()
        if len(words) < 6 or words[1] == "->":
            continue
        try:
            major, minor, inode = words[5].split(":")
            found = (int(major, 16), int(minor, 16), int(inode))
            pid = int(words[4])
        except ValueError:
            continue
        if found == file:
            return pid if pid > 0 else None
    return None
