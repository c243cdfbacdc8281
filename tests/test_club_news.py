"""What reaches a member sitting in the club's lobby, and the hub that carries it,
from this process and from another.  Every test runs on SQLite and on PostgreSQL (the
``database_url`` fixture)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from umtali.club import members
from umtali.club.club import Club
from umtali.club.hub import Hub
from umtali.store.database import Database

NOW = 1_800_000_000_000


class Clock:
    def __init__(self) -> None:
        self.ms = NOW

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def club(database_url: str, clock: Clock) -> Iterator[Club]:
    db = Database.open(database_url)
    Club.migrate(db, NOW)
    seeds = iter(range(1000, 10**6))
    yield Club(db, clock=clock, seeds=lambda: next(seeds))
    db.close()


def _member(club: Club, name: str) -> members.Member:
    with club.db.transaction() as tx:
        code = members.make_invite(tx, None, club.now()).code
    return club.join(code, name, f"SHA256:{name}", f"ssh-ed25519 AAAA{name}")


# ------------------------------------------------------------------ offers


@pytest.mark.parametrize("what", ["challenge", "accept", "decline"])
def test_the_hub_hears_offers_changed_by_another_process(database_url: str, what: str) -> None:
    db = Database.open(database_url)
    Club.migrate(db, NOW)
    club = Club(db)
    ann, ben, carol = _member(club, "Ann"), _member(club, "Ben"), _member(club, "Carol")
    offer = club.challenge(ann.id, "Ben", "classic", "game", None) if what != "challenge" else None
    hub = Hub(club)
    heard: dict[str, list[int]] = {"Ann": [], "Ben": [], "Carol": []}
    stops = [hub.hear(m.id, heard[m.name].append) for m in (ann, ben, carol)]
    other = Club(Database.open(database_url))  # a second server process
    if offer is None:
        offer = other.challenge(ann.id, "Ben", "classic", "game", None)
    elif what == "accept":
        other.accept(ben.id, offer.id)
    else:
        other.refuse(ben.id, offer.id)
    assert heard == {"Ann": [], "Ben": [], "Carol": []}  # not before the poll
    hub.poll()
    assert heard == {"Ann": [offer.id], "Ben": [offer.id], "Carol": []}
    hub.poll()
    assert heard["Ann"] == [offer.id]  # told once
    seek = other.challenge(carol.id, None, "classic", "game", None)
    hub.poll()
    assert all(told[-1] == seek.id for told in heard.values())  # a seek is everyone's
    for stop in stops:
        stop()
    other.db.close()
    db.close()
