"""A club to measure, for ``umtali bench club``: members, and games in progress.

Members are made as the admin's tools make them (:func:`umtali.club.members.add`);
each game starts as an accepted challenge does (:func:`umtali.club.games.start`) and is
then moved a random number of decisions through :meth:`Club.play`, the one door a
member's move goes through, so its ``decisions`` rows, its record and what each member
has seen are exactly what play leaves behind.  A cheap bot chooses the members' moves.

Not a bench itself (hence the underscore).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from umtali.bots import make_bot
from umtali.club import games, members
from umtali.club import settings as club_settings
from umtali.club.club import Club
from umtali.club.games import Stored
from umtali.engine.progress import Asked, Deal, Decision, Move

#: The bot level that chooses the simulated members' moves (cheap: the bench measures
#: the club, not the bot).
LEVEL = "easy"


@dataclass(frozen=True, slots=True)
class Seeded:
    """What :func:`seed` made: the members' ids and how many decisions it stored."""

    member_ids: tuple[int, ...]
    games: int
    decisions: int


def choose(stored: Stored, seed: int) -> tuple[int, Decision] | None:
    """The decision due in ``stored`` and its seat, as the cheap bot makes it; None
    when no member is to decide.  A deal's 11th card goes to the dealer (Enter)."""
    progress = stored.progress()
    asked = progress.pending()
    if asked.kind is Asked.OVER or asked.player is None or asked.bot is not None:
        return None
    if asked.kind is Asked.DEAL:
        return asked.player, Deal(asked.player if asked.choices else None)
    hand = progress.hand
    assert hand is not None
    bot = make_bot(LEVEL, seed)
    return asked.player, Move(bot.choose(hand.view(asked.player), asked.info).action)


def seed(club: Club, member_count: int, game_count: int, most: int, rng: random.Random) -> Seeded:
    """``member_count`` members and ``game_count`` games between random pairs of them,
    each moved from 0 to ``most`` decisions (fewer where it ends first)."""
    with club.db.transaction() as tx:
        now = club.now()
        made = [members.add(tx, f"m{n}", now) for n in range(1, member_count + 1)]
        turn_ms = club_settings.load(tx).turn_ms
    ids = tuple(m.id for m in made)
    names = {m.id: m.name for m in made}
    decisions = 0
    for _ in range(game_count):
        one, two = rng.sample(ids, 2)
        with club.db.transaction() as tx:
            game = games.start(
                tx, rules="classic", kind="game", players=(one, two),
                names=(names[one], names[two]), bot=None, turn_ms=turn_ms,
                seed=rng.getrandbits(48), now=club.now(),
            )  # fmt: skip
        decisions += advance(club, game, rng.randint(0, most), rng)
    return Seeded(ids, game_count, decisions)


def advance(club: Club, game: Stored, count: int, rng: random.Random) -> int:
    """Move ``game`` up to ``count`` decisions; returns how many were stored."""
    done = 0
    while done < count and not game.over and game.to_move is not None:
        choice = choose(game, rng.getrandbits(32))
        if choice is None:
            break
        _, decision = choice
        game = club.play(game.to_move, game.id, game.seq, decision).game
        done += 1
    return done


__all__ = ["LEVEL", "Seeded", "advance", "choose", "seed"]
