"""``--notify-command``: tell a member it is their turn, by whatever means the admin has.

The server sends nothing itself.  When it becomes a member's turn, the admin's command
is run with three arguments (the member's name, the game's number, and a one-line
message), with no shell between, so nothing in a name or a message is ever run.  It
runs in the background, at most :data:`RUNNING` at a time and each for at most
:data:`TIMEOUT` seconds; one that fails or runs too long is logged in one line, and
play goes on either way.
"""

from __future__ import annotations

import shlex
import subprocess
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from umtali.club.club import Notice

#: Seconds the command may run.
TIMEOUT = 10.0
#: Commands run at once; more wait their turn.
RUNNING = 2
#: Notices waiting at most; past this, new ones are dropped (and logged).
WAITING = 200


class Notifier:
    """Runs ``command`` for each :class:`~umtali.club.club.Notice` it is given."""

    def __init__(self, command: str, log: Callable[[str], None]) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the notify command is empty")
        self.log = log
        self._pool = ThreadPoolExecutor(RUNNING, thread_name_prefix="umtali-notify")
        self._waiting = threading.Semaphore(WAITING)

    def __call__(self, notice: Notice) -> None:
        if not self._waiting.acquire(blocking=False):
            self.log(f"notify-command: too many waiting, {notice.member} not told of game "
                     f"{notice.game_id}")  # fmt: skip
            return
        try:
            self._pool.submit(self._run, notice)
        except RuntimeError:  # the server is stopping
            self._waiting.release()

    def _run(self, notice: Notice) -> None:
        try:
            argv = [*self.argv, notice.member, str(notice.game_id), notice.message]
            done = subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=TIMEOUT,
                check=False,
            )
            if done.returncode != 0:
                said = done.stderr.decode("utf-8", "replace").strip().splitlines()
                why = f": {said[-1][:200]}" if said else ""
                self.log(f"notify-command failed for {notice.member} (game {notice.game_id}): "
                         f"exit {done.returncode}{why}")  # fmt: skip
        except subprocess.TimeoutExpired:
            self.log(f"notify-command for {notice.member} (game {notice.game_id}) ran past "
                     f"{TIMEOUT:g} s: stopped")  # fmt: skip
        except OSError as err:
            self.log(f"notify-command cannot be run: {err.strerror or err}")
        finally:
            self._waiting.release()

    def close(self) -> None:
        """Wait for the commands running (each ends within the timeout)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
