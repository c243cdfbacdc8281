"""Who may try an invite code at the club's door, and how often.

The codes themselves live in the club's database (:mod:`umtali.club.members`); the
limits on guessing them are ``umtali host``'s, kept by one
:class:`~umtali.host.codes.Doorman`: an address that gives too many wrong codes is
shut out for a while, and when :data:`~umtali.host.codes.DOOR_TRIES` wrong codes come
within the window from any addresses at all, no code is taken from anyone for
:data:`~umtali.host.codes.DOOR_LOCKOUT` seconds (a guesser with a thousand addresses
gets no further than one with five).  A shut door does not look a code up, so it
tells a guesser nothing.

Only a user name shaped like a code counts as a try: a member's SSH client sends their
local login name, which is never a wrong code.

>>> looks_like_code("bako-tesi-rumu"), looks_like_code("ann")
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from umtali.host.codes import Admission, Doorman, Role, door_words

#: What a valid invite opens: a newcomer's place (a seat in no game).
NEWCOMER = Role(None)

_CODE = re.compile(r"[a-z]{4}-[a-z]{4}-[a-z]{4}")


def looks_like_code(username: str) -> bool:
    return _CODE.fullmatch(username.strip().lower()) is not None


class InviteDoor(Doorman):
    """The doorman's limits, per address and across addresses, over codes the club's
    database knows."""

    def admit_invite(self, code: str, peer: str, good: Callable[[str], bool]) -> Admission:
        """Whether ``code`` from ``peer`` is an invite ``good`` (the database) knows;
        a wrong one is counted against ``peer`` and against the door."""
        left = self.shut_for(peer)
        if left:
            return self.admit(code, peer)  # the doorman says how long, counting nothing
        shut = self.door_shut_for()
        if shut:
            return Admission(None, door_words(shut))
        if good(code.strip().lower()):
            return Admission(NEWCOMER)
        return self._wrong_code(peer)
