"""Who may try an invite code at the club's door, and how often.

The codes themselves live in the club's database (:mod:`umtali.club.members`); what
this adds is ``umtali host``'s limits on guessing them (:class:`~umtali.host.codes.Doorman`:
an address that gives too many wrong codes is shut out for a while), and one more, across
addresses: when :data:`EVERYONE_TRIES` wrong codes come within the doorman's window from
any addresses at all, no code is taken from anyone for :data:`EVERYONE_LOCKOUT` seconds
(a guesser with a thousand addresses gets no further than one with five).  A shut door
does not look a code up, so it tells a guesser nothing.

Only a user name shaped like a code counts as a try: a member's SSH client sends their
local login name, which is never a wrong code.

>>> looks_like_code("bako-tesi-rumu"), looks_like_code("ann")
(True, False)
"""

from __future__ import annotations

import math
import re
import time
from collections import deque
from collections.abc import Callable

from umtali.host.codes import WINDOW, Admission, Doorman, Role

#: Wrong codes from all addresses together within the window; the next shuts the door.
EVERYONE_TRIES = 30
#: Seconds the door then takes no code from anyone.
EVERYONE_LOCKOUT = 30.0

#: What a valid invite opens: a newcomer's place (a seat in no game).
NEWCOMER = Role(None)

_CODE = re.compile(r"[a-z]{4}-[a-z]{4}-[a-z]{4}")


def looks_like_code(username: str) -> bool:
    return _CODE.fullmatch(username.strip().lower()) is not None


class InviteDoor(Doorman):
    """The doorman's per-address limits over codes the club's database knows, with a
    limit across addresses on top."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 log: Callable[[str], None] = lambda line: None) -> None:  # fmt: skip
        super().__init__(clock, log)
        self._all_wrong: deque[float] = deque()
        self._all_shut_until = 0.0

    def everyone_shut_for(self) -> float:
        """Seconds the door still takes no code from anyone (0: it takes them)."""
        return max(0.0, self._all_shut_until - self.clock())

    def admit_invite(self, code: str, peer: str, good: Callable[[str], bool]) -> Admission:
        """Whether ``code`` from ``peer`` is an invite ``good`` (the database) knows;
        a wrong one is counted against ``peer`` and against the door."""
        left = self.shut_for(peer)
        if left:
            return self.admit(code, peer)  # the doorman says how long, counting nothing
        shut = self.everyone_shut_for()
        if shut:
            return Admission(None, _everyone_words(shut))
        if good(code.strip().lower()):
            return Admission(NEWCOMER)
        refused = self._wrong_code(peer)
        if self._count_everywhere() and not refused.banner:
            return Admission(None, _everyone_words(EVERYONE_LOCKOUT))
        return refused

    def _count_everywhere(self) -> bool:
        now = self.clock()
        tries = self._all_wrong
        tries.append(now)
        while tries and tries[0] < now - WINDOW:
            tries.popleft()
        if len(tries) < EVERYONE_TRIES:
            return False
        tries.clear()
        self._all_shut_until = now + EVERYONE_LOCKOUT
        self.log(
            f"{EVERYONE_TRIES} wrong invite codes within {WINDOW:g} s: no code is taken "
            f"for {EVERYONE_LOCKOUT:g} s"
        )
        return True

    def unlock(self, peer: str | None = None) -> list[str]:
        if peer is None:
            self._all_wrong.clear()
            self._all_shut_until = 0.0
        return super().unlock(peer)


def _everyone_words(seconds: float) -> str:
    return (
        "Too many wrong invite codes came from many addresses: the club takes no code "
        f"for {math.ceil(seconds)} s. Check the code you were given."
    )
