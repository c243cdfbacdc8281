"""What a member sitting in the lobby is told: the difference between two glances.

Each time the lobby draws its page it keeps a :class:`Glance` of what the page showed
(the member's games, the offers).  When it draws again (the hub woke it, or the member
typed a line) :func:`heard` compares the two and says, in one line each, what came to
the member and was not of their own doing: a game that became theirs to move, a game
that ended (a resignation, a loss on time, a last move), a challenge received, a seek,
an offer of theirs taken or declined, a challenge withdrawn.  The lines that call the
member to act ring the terminal's bell (:attr:`Heard.ring`).

It compares what was shown, and never reads back a line it said: the words are made
here from the stored games and offers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from umtali.club import games, offers
from umtali.club.games import Stored
from umtali.club.offers import Offer
from umtali.club.settings import turn_words
from umtali.store.database import Transaction
from umtali.ui.text import visible


@dataclass(frozen=True, slots=True)
class Glance:
    """What the lobby's page showed one member."""

    games: Mapping[int, Stored] = field(default_factory=dict)  # theirs, being played
    offers: Mapping[int, Offer] = field(default_factory=dict)  # received, sent, seeks
    unseen: frozenset[int] = frozenset()  # their games moved since they last looked
    names: Mapping[int, str] = field(default_factory=dict)  # every member, by id


@dataclass(frozen=True, slots=True)
class Heard:
    """One line for the member; ``ring``: it calls them to act (the bell)."""

    line: str
    ring: bool = False


def heard(tx: Transaction, me: int, before: Glance, after: Glance) -> list[Heard]:
    """What changed for member ``me`` between two glances at their lobby, in words."""
    said: list[Heard] = []
    for game_id, game in after.games.items():
        was = before.games.get(game_id)
        if was is None:
            said.extend(_begun(game, me, after))
        elif game.to_move == me and was.to_move != me and game_id in after.unseen:
            mover = _other(game, me, after, first=True)
            said.append(Heard(f"{mover} moved in game {game_id}: your turn.", ring=True))
    for game_id in before.games.keys() - after.games.keys():
        ended = games.get(tx, game_id)
        if ended.over and game_id in after.unseen:  # not shown at its table already
            said.extend(_ended(ended, me, after))
    for offer_id, offer in after.offers.items():
        if offer_id not in before.offers:
            said.extend(_offered(offer, me, after))
    for offer_id in before.offers.keys() - after.offers.keys():
        said.extend(_closed(offers.get(tx, offer_id), me, after))
    return said


def _other(game: Stored, me: int, glance: Glance, first: bool = False) -> str:
    """The member's opponent in ``game``, by name (a practice game's: its bot, with a
    capital where it begins the line: ``first``)."""
    seat = game.seat_of(me) or 1
    other = game.players[2 - seat]
    if other is None:
        return f"{'The' if first else 'the'} {game.bot} bot"
    return visible(glance.names.get(other, "?"))


def _begun(game: Stored, me: int, glance: Glance) -> list[Heard]:
    """A game that was not on the page: one the member's offer began, if another member
    took it (the challenger sits in seat 1; a game the member began is not news)."""
    one, two = game.players
    if one != me or two is None:
        return []
    if game.to_move == me:
        return [Heard(f"{_other(game, me, glance)} took your offer: game {game.id} begins, "
                      "and it is your turn.", ring=True)]  # fmt: skip
    return [Heard(f"{_other(game, me, glance)} took your offer: game {game.id} begins.")]


def _ended(game: Stored, me: int, glance: Glance) -> list[Heard]:
    """A game of the member's that ended while they were not at its table."""
    seat = game.seat_of(me)
    if seat is None or game.winner is None:
        return []
    other = _other(game, me, glance)
    won = game.winner == seat
    result = "you win" if won else f"{other} wins"
    ending = game.ending or ""
    if ending == "resigned":
        # The member's own resignation is not news to them.
        return [Heard(f"{other} resigned game {game.id}: you win.")] if won else []
    if ending.startswith("forfeit"):
        why = ending.partition(": ")[2] or "time ran out"
        loser = _other(game, me, glance, first=True) if won else "You"
        return [Heard(f"{loser} forfeited game {game.id} ({why}): {result}.")]
    return [Heard(f"Game {game.id} is over: {result}.")]


def _offered(offer: Offer, me: int, glance: Glance) -> list[Heard]:
    """An offer that was not on the page: a challenge to the member, or a seek."""
    if offer.from_id == me:
        return []
    who = visible(glance.names.get(offer.from_id, "?"))
    terms = f"{offer.rules} {offer.kind}, {turn_words(offer.turn_ms)} a turn"
    if offer.to_id == me:
        return [Heard(f"{who} challenges you: {terms} (accept {offer.id} or decline "
                      f"{offer.id}).", ring=True)]  # fmt: skip
    return [Heard(f"{who} seeks a game anyone may take: {terms} (accept {offer.id}).")]


def _closed(offer: Offer, me: int, glance: Glance) -> list[Heard]:
    """An offer gone from the page by another member's doing: a challenge to the
    member withdrawn, or one of theirs declined (one taken begins a game, told so)."""
    who = visible(glance.names.get(offer.from_id if offer.to_id == me else offer.to_id or 0, "?"))
    if offer.to_id == me and offer.status == "withdrawn":
        return [Heard(f"{who} withdrew challenge {offer.id}.")]
    if offer.from_id == me and offer.status == "declined":
        return [Heard(f"{who} declined your challenge {offer.id}.")]
    return []


__all__ = ["Glance", "Heard", "heard"]
