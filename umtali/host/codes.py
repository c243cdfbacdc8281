"""Invite codes, and the door they open.

A code is six syllables of a consonant and a vowel in three groups
(``bako-tesi-rumu``): easy to read out over the phone, and with about 37 bits of
chance behind it, far beyond guessing at the rate the door allows.  Each seat has
its own code (the same code lets its player back in after a dropped
connection); spectators may share one.  An address that gives :data:`TRIES`
wrong codes within :data:`WINDOW` seconds is shut out for :data:`LOCKOUT`
seconds, right codes included (else the shut-out would tell a guesser when a
guess was right); it is told how long, the host's terminal is told of every
wrong code and shut-out, and the host may lift one (``unlock``).  Every code
stops working when the game ends.

A guesser with many addresses gets no further: when :data:`DOOR_TRIES` wrong
codes come within :data:`WINDOW` seconds from any addresses at all, the door
takes no code for :data:`DOOR_LOCKOUT` seconds (the client is told so, the host's
terminal once).  While it is shut a code is not even compared, so the shut door
tells a guesser nothing, with one exception: a code opens its role again from an
address it has already opened it from.  A player whose connection dropped gets
back to their seat, and a stranger cannot use that, since only a code's own
player has passed the door with it.  At most :data:`DOOR_TRIES` guesses then
reach the codes in each shut-out's time, whoever sends them.
"""

from __future__ import annotations

import hmac
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

_CONSONANTS = "bdfghjklmnprstvz"
_VOWELS = "aeiou"

#: Wrong codes an address may give in WINDOW seconds; the next shuts it out.
TRIES = 5
WINDOW = 60.0
#: Seconds an address is shut out for.
LOCKOUT = 60.0
#: Wrong codes from all addresses together in WINDOW seconds; the next shuts the
#: door to every code (but a returning player's) for DOOR_LOCKOUT seconds.
DOOR_TRIES = 30
DOOR_LOCKOUT = 30.0
#: Addresses remembered at once (the oldest are forgotten first).
REMEMBERED = 10_000


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


@dataclass(frozen=True, slots=True)
class Role:
    """What a code opens: a seat (1 or 2), or a spectator's place (``seat`` None).

    >>> str(Role(2)), str(SPECTATOR)
    ('seat 2', 'spectator')
    """

    seat: int | None

    def __post_init__(self) -> None:
        if self.seat not in (1, 2, None):
            raise ValueError(f"a role is seat 1 or 2, or a spectator's place, not {self.seat!r}")

    def __str__(self) -> str:
        return f"seat {self.seat}" if self.seat is not None else "spectator"


SPECTATOR = Role(None)


@dataclass(frozen=True, slots=True)
class Admission:
    """The door's answer to a code: the role it opens (None: refused), and what the
    client is told before it is refused (why, and for how long), if anything."""

    role: Role | None
    banner: str = ""


class Doorman:
    """Which code opens which role of which game, and who is shut out for giving
    wrong ones.  One doorman may keep the door of several games (a load test serves
    a hundred from one host).  ``log`` is told of wrong codes and shut-outs."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        log: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.clock = clock
        self.log = log
        self._roles: dict[str, tuple[object, Role]] = {}
        self._wrong: dict[str, deque[float]] = {}
        self._shut: dict[str, float] = {}  # address -> when it may try again
        self._door_wrong: deque[tuple[float, str]] = deque()  # every address's
        self._door_shut = 0.0  # when the door takes codes again
        # address -> the codes that have let it in (for a player coming back).
        self._came: dict[str, set[str]] = {}
        self.open = True

    def issue(self, role: Role, game: object = None) -> str:
        code = new_code()
        while code in self._roles:
            code = new_code()
        self._roles[code] = (game, role)
        return code

    def game_of(self, code: str) -> object:
        """The game a valid code belongs to."""
        return self._roles[code][0]

    def shut_for(self, peer: str) -> float:
        """Seconds ``peer`` is still shut out for (0: it may try)."""
        until = self._shut.get(peer)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self._shut[peer]
            return 0.0
        return left

    def door_shut_for(self) -> float:
        """Seconds the door still takes no code for (0: it takes them)."""
        return max(0.0, self._door_shut - self.clock())

    def admit(self, code: str, peer: str) -> Admission:
        """What ``code`` opens for ``peer`` (a wrong try is counted, and may shut it out,
        or shut the door to everyone)."""
        left = self.shut_for(peer)
        if left:
            return Admission(None, _shut_words(left))
        door_shut = self.door_shut_for()
        if door_shut:
            # Only codes that let this address in before are compared: a guess from
            # anywhere is refused alike, right or wrong, and is not counted.
            came = self._came.get(peer, set())
            role = self._match(code, {c: r for c, r in self._roles.items() if c in came})
            return Admission(role) if role is not None else Admission(None, door_words(door_shut))
        role = self._match(code, self._roles)
        if role is None:
            return self._wrong_code(peer)
        self._came.setdefault(peer, set()).add(code)
        if len(self._came) > REMEMBERED:
            self._came.pop(next(iter(self._came)))
        return Admission(role)

    def _match(self, code: str, roles: dict[str, tuple[object, Role]]) -> Role | None:
        role = None
        for known, (_, its_role) in roles.items():
            # Every code is compared, in constant time: how long a refusal takes
            # says nothing about how close the guess was.
            if hmac.compare_digest(known.encode(), code.encode()[:64]) and self.open:
                role = its_role
        return role

    def _wrong_code(self, peer: str) -> Admission:
        now = self.clock()
        refused = self._address_counts(now, peer)
        if self._door_counts(now, peer) and not refused.banner:
            return Admission(None, door_words(DOOR_LOCKOUT))
        return refused

    def _address_counts(self, now: float, peer: str) -> Admission:
        """Count a wrong code against its address: the answer, which may shut it out."""
        tries = self._wrong.setdefault(peer, deque())
        tries.append(now)
        while tries and tries[0] < now - WINDOW:
            tries.popleft()
        if len(self._wrong) > REMEMBERED:  # many addresses: forget the oldest
            self._wrong.pop(next(iter(self._wrong)))
        if len(tries) < TRIES:
            self.log(f"a wrong code from {peer} ({len(tries)} of {TRIES} a minute)")
            return Admission(None)
        del self._wrong[peer]
        self._shut[peer] = now + LOCKOUT
        if len(self._shut) > REMEMBERED:
            self._shut.pop(next(iter(self._shut)))
        self.log(
            f"{peer} gave {TRIES} wrong codes: shut out for {LOCKOUT:g} s "
            f"('unlock {peer}' lets it in now)"
        )
        return Admission(None, _shut_words(LOCKOUT))

    def _door_counts(self, now: float, peer: str) -> bool:
        """Count a wrong code against the whole door; whether it shuts the door now."""
        tried = self._door_wrong
        tried.append((now, peer))
        while tried and tried[0][0] < now - WINDOW:
            tried.popleft()
        if len(tried) < DOOR_TRIES:
            return False
        addresses = len({address for _, address in tried})
        tried.clear()
        self._door_shut = now + DOOR_LOCKOUT
        self.log(
            f"{DOOR_TRIES} wrong codes within {WINDOW:g} s from {addresses} address"
            f"{'es' if addresses != 1 else ''}: no code is taken for {DOOR_LOCKOUT:g} s, "
            "but a player's from where they joined before ('unlock' opens the door now)"
        )
        return True

    def unlock(self, peer: str | None = None) -> list[str]:
        """Let ``peer`` (or every address, the door opened too) in again at once; the
        addresses let in."""
        if peer is None:
            freed = list(self._shut)
            self._shut.clear()
            self._wrong.clear()
            self._door_shut = 0.0
            self._door_wrong.clear()
            return freed
        self._wrong.pop(peer, None)
        return [peer] if self._shut.pop(peer, None) is not None else []

    def revoke(self, game: object) -> None:
        """That game is over: its codes open nothing any more."""
        for code in [c for c, (g, _) in self._roles.items() if g is game]:
            del self._roles[code]
            for codes in self._came.values():
                codes.discard(code)

    def close(self) -> None:
        """The host is closing: no code opens anything any more."""
        self.open = False
        self._roles.clear()
        self._came.clear()


def door_words(seconds: float) -> str:
    return (
        f"Too many wrong codes came from many addresses: this door takes no code for "
        f"{math.ceil(seconds)} s. Try again then."
    )


def _shut_words(seconds: float) -> str:
    return (
        f"Too many wrong codes came from your address: it may try again in "
        f"{math.ceil(seconds)} s. Check the code you were given."
    )
