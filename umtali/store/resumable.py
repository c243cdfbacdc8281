"""The saved games ``umtali resume`` offers: unfinished, and not given up.

A resigned game's record is kept, so that ``umtali replay`` and ``umtali review``
can open it, but it is over for its player: the profile holds it as a loss
(:mod:`umtali.store.profile`), under the id of its record and its number in a
session.  The record itself stays exactly as play wrote it, so a resignation
needs no new line in the record's format; the profile is what says it.
"""

from __future__ import annotations

from umtali.engine.match import Session
from umtali.store.profile import game_id, read_profile
from umtali.store.saves import SavedGame, unfinished_games


def resigned_ids() -> frozenset[str]:
    """The ids of the games the profile holds as resigned (none where it cannot be read)."""
    return frozenset(entry.id for entry in read_profile().entries if entry.resigned)


def was_resigned(saved: SavedGame, resigned: frozenset[str] | None = None) -> bool:
    """Whether the game ``saved`` stands at was resigned (``resigned``: the ids, where
    the caller has read them already)."""
    ids = resigned_ids() if resigned is None else resigned
    number = len(saved.match.games) if isinstance(saved.match, Session) else 1
    return game_id(saved.path, number) in ids


def resumable_games() -> tuple[list[SavedGame], list[str]]:
    """The saved games a player can go on with, most recent first, and the problems met
    on the way: the unfinished ones, less those resigned."""
    games, problems = unfinished_games()
    resigned = resigned_ids()
    return [g for g in games if not was_resigned(g, resigned)], problems
