"""Invite codes, and the door they open.

A code is six syllables of a consonant and a vowel in three groups
(``bako-tesi-rumu``): easy to read out over the phone, and with about 37 bits of
chance behind it, far beyond guessing at the rate the door allows.  Each seat has
its own code (the same code lets its player back in after a dropped
connection); spectators may share one.  A peer that gives wrong codes too often
is refused for a while, and every code stops working when the game ends.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable

_CONSONANTS = "bdfghjklmnprstvz"
_VOWELS = "aeiou"

#: Wrong codes a peer may give in WINDOW seconds before it is refused.
TRIES = 5
WINDOW = 60.0


def new_code(draw: Callable[[int], int] = secrets.randbelow) -> str:
    """A fresh code; ``draw(n)`` picks a number below ``n`` (a secure one by default).

    >>> import random
    >>> len(new_code(random.Random(1).randrange))
    14
    """
    syllables = [
        _CONSONANTS[draw(len(_CONSONANTS))] + _VOWELS[draw(len(_VOWELS))] for _ in range(6)
    ]
    return "-".join("".join(syllables[i : i + 2]) for i in range(0, 6, 2))


class Doorman:
    """Which code opens which role ("seat 1", "seat 2", "spectator") of which game,
    and who is refused for giving wrong ones.  One doorman may keep the door of
    several games (a load test serves fifty from one host)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._roles: dict[str, tuple[object, str]] = {}
        self._wrong: dict[str, deque[float]] = {}
        self.open = True

    def issue(self, role: str, game: object = None) -> str:
        code = new_code()
        while code in self._roles:
            code = new_code()
        self._roles[code] = (game, role)
        return code

    def game_of(self, code: str) -> object:
        """The game a valid code belongs to."""
        return self._roles[code][0]

    def refused(self, peer: str) -> bool:
        """Whether ``peer`` gave too many wrong codes lately."""
        tries = self._wrong.get(peer)
        if not tries:
            return False
        while tries and tries[0] < self.clock() - WINDOW:
            tries.popleft()
        return len(tries) >= TRIES

    def admit(self, code: str, peer: str) -> str | None:
        """The role ``code`` opens for ``peer``, or None (and a wrong try counted)."""
        if self.refused(peer):
            return None
        role = None
        for known, (_, its_role) in self._roles.items():
            # Every code is compared, in constant time: how long a refusal takes
            # says nothing about how close the guess was.
            if hmac.compare_digest(known.encode(), code.encode()[:64]) and self.open:
                role = its_role
        if role is None:
            self._wrong.setdefault(peer, deque()).append(self.clock())
            if len(self._wrong) > 10_000:  # many peers: forget the oldest
                self._wrong.pop(next(iter(self._wrong)))
        return role

    def revoke(self, game: object) -> None:
        """That game is over: its codes open nothing any more."""
        for code in [c for c, (g, _) in self._roles.items() if g is game]:
            del self._roles[code]

    def close(self) -> None:
        """The host is closing: no code opens anything any more."""
        self.open = False
        self._roles.clear()
