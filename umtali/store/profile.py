"""Your record: every finished game, one line each, in a local profile.

The profile is a text file of JSON lines in the data folder (``profile.jsonl``).
A finished game is added once, under the id of its saved record and its number
in a session, so a game resumed and finished, or a session's games finished in
several sittings, are each counted exactly once.  A game left unfinished counts
for nothing, unless its player resigned it: then it is a loss.

A line that cannot be read (a damaged file, an edit by hand) is reported with
the file and line and skipped; it stays in the file, nothing else is lost, and
the next game is still added.  The file passes the file door
(:mod:`umtali.store.door`): one that is not a regular file (a FIFO, a link to a
device) or is larger than :data:`~umtali.store.door.PROFILE` allows is said in
one line and left as it is, and the game goes on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from pathlib import Path

from umtali.engine.match import Game
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.store.door import PROFILE, FileMissing, FileRefused, read_file, replace_file
from umtali.store.saves import data_dir

#: Lines longer than this are not a game of ours.
MAX_LINE = 100_000


def profile_path() -> Path:
    return data_dir() / "profile.jsonl"


class GameMode(str, Enum):
    """How a game in the profile was played; the value is the profile's word."""

    BOT = "bot"  # against a bot
    HOTSEAT = "hotseat"  # two people at one keyboard
    NET = "net"  # a hosted game, each player at a screen of their own

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One finished (or resigned) game, from the profile owner's seat ``you``.

    The owner is the human seat against a bot; at one keyboard (hot seat) it is
    the first player, who is usually the one whose machine it is.
    """

    id: str
    finished: str  # ISO date and time, local
    variant: str
    mode: GameMode  # (its word is taken too)
    names: tuple[str, str]
    kinds: tuple[PlayerKind, PlayerKind]  # (their words are taken too)
    levels: tuple[str, str]  # a bot's level, else ""
    you: int  # 1 or 2
    hands: tuple[tuple[int, int], ...]  # each hand's scores
    winner: int  # 1 or 2
    resigned: bool = False
    daily: str = ""  # the date of the deal of the day it was, else ""

    def __post_init__(self) -> None:
        # The words a profile line holds become kinds here: an unknown word is a
        # ValueError, which makes the line one the profile cannot read.
        object.__setattr__(self, "mode", GameMode(self.mode))
        object.__setattr__(self, "kinds", (PlayerKind(self.kinds[0]), PlayerKind(self.kinds[1])))

    @property
    def won(self) -> bool:
        return self.winner == self.you

    @property
    def opponent(self) -> str:
        """Who the owner played: a bot by its level, a person by name."""
        them = 2 - self.you
        if self.kinds[them] is PlayerKind.BOT:
            return f"Bot ({self.levels[them]})"
        return self.names[them]

    @property
    def rated(self) -> bool:
        """Games against a bot count for the rating (the bots are its fixed ladder)."""
        return self.kinds[2 - self.you] is PlayerKind.BOT

    def yours(self) -> list[int]:
        """The owner's score in each hand."""
        return [scores[self.you - 1] for scores in self.hands]

    def to_json(self) -> str:
        return json.dumps(
            {
                "id": self.id,
                "finished": self.finished,
                "variant": self.variant,
                "mode": self.mode.value,
                "names": list(self.names),
                "kinds": [kind.value for kind in self.kinds],
                "levels": list(self.levels),
                "you": self.you,
                "hands": [list(h) for h in self.hands],
                "winner": self.winner,
                "resigned": self.resigned,
                "daily": self.daily,
            },
            ensure_ascii=False,
        )

    @staticmethod
    def from_json(text: str) -> GameEntry:
        """Raises ValueError (or KeyError, TypeError) for anything but an entry."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")

        def kinds(words: tuple[str, str]) -> tuple[PlayerKind, PlayerKind]:
            known = {k.value: k for k in PlayerKind}
            if not set(words) <= set(known):
                raise ValueError("kinds: human or bot")
            return (known[words[0]], known[words[1]])

        def pair(key: str, kind: type) -> tuple:  # type: ignore[type-arg]
            value = data[key]
            if not (isinstance(value, list) and len(value) == 2):
                raise ValueError(f"{key}: not a pair")
            if not all(isinstance(v, kind) for v in value):
                raise ValueError(f"{key}: not {kind.__name__}s")
            return (value[0], value[1])

        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise ValueError("hands: not a list of scores")
        scores = []
        for h in hands:
            if not (isinstance(h, list) and len(h) == 2 and all(type(v) is int for v in h)):
                raise ValueError("hands: not a list of scores")
            scores.append((h[0], h[1]))
        entry = GameEntry(
            id=_text(data, "id"),
            finished=_text(data, "finished"),
            variant=_text(data, "variant"),
            mode=GameMode(_text(data, "mode")),
            names=pair("names", str),
            kinds=kinds(pair("kinds", str)),
            levels=pair("levels", str),
            you=data["you"],
            hands=tuple(scores),
            winner=data["winner"],
            resigned=bool(data.get("resigned", False)),
            daily=str(data.get("daily", "")),
        )
        datetime.fromisoformat(entry.finished)
        if any(type(v) is not int or v not in (1, 2) for v in (entry.you, entry.winner)):
            raise ValueError("you and winner must be 1 or 2")
        return entry


def _text(data: dict[str, object], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"{key}: not text")
    return value


def entry_for(
    game: Game,
    players: tuple[PlayerInfo, PlayerInfo],
    game_id: str,
    when: datetime,
    resigned_by: int | None = None,
    daily: str = "",
    mode: GameMode | None = None,
    you: int | None = None,
) -> GameEntry:
    """The profile's entry for a finished game, or one resigned by ``resigned_by``;
    ``you`` is the seat of this profile's owner (by default the first person)."""
    kinds = (players[0].kind, players[1].kind)
    if you is None:
        you = 1 if kinds[0] is PlayerKind.HUMAN else 2
    if resigned_by is not None:
        winner = 3 - resigned_by
    elif game.winner is None:
        raise ValueError("only a finished or resigned game has an entry in the profile")
    else:
        winner = game.winner
    hands = tuple(r.scores for r in game.results)
    if game.hand is not None and not game.hand.is_over:
        hands += (game.hand.scores,)  # a resigned hand: the points laid so far
    return GameEntry(
        id=game_id,
        finished=when.isoformat(timespec="seconds"),
        variant=game.rules.name,
        mode=mode or (GameMode.HOTSEAT if not any(p.is_bot for p in players) else GameMode.BOT),
        names=(players[0].name, players[1].name),
        kinds=kinds,
        levels=(players[0].level or "", players[1].level or ""),
        you=you,
        hands=hands or ((0, 0),),
        winner=winner,
        resigned=resigned_by is not None,
        daily=daily,
    )


@dataclass(frozen=True, slots=True)
class Profile:
    entries: tuple[GameEntry, ...]
    problems: tuple[str, ...]  # lines that could not be read, each said in a sentence


def read_profile(path: Path | None = None) -> Profile:
    """The profile's entries, oldest first; a missing file is an empty profile."""
    path = path or profile_path()
    try:
        raw = read_file(path, PROFILE)
    except FileMissing:
        return Profile((), ())
    except FileRefused as err:
        return Profile((), (f"{err}; the file is left as it is.",))
    return _parse(raw, path)


def _parse(raw: bytes, path: Path) -> Profile:
    entries: list[GameEntry] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            if len(line) > MAX_LINE:
                raise ValueError("too long")
            entry = GameEntry.from_json(line.decode("utf-8"))
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            problems.append(f"{path}, line {number}, is damaged and was left out.")
            continue
        if entry.id not in seen:
            seen.add(entry.id)
            entries.append(entry)
    return Profile(tuple(entries), tuple(problems))


def add_game(entry: GameEntry, path: Path | None = None) -> bool:
    """Add ``entry`` unless a game of its id is there already; True if it was added.

    The file is rewritten whole and atomically, damaged lines and all, so adding
    never loses what was there.  OSError if it cannot be written; FileRefused (the
    file left as it is) if it cannot be read whole, or is not a regular file.
    """
    path = path or profile_path()
    try:
        old = read_file(path, PROFILE, follow=False)
    except FileMissing:
        old = b""
    if entry.id in {e.id for e in _parse(old, path).entries}:
        return False
    if old and not old.endswith(b"\n"):
        old += b"\n"  # a last line cut short stays a line of its own
    replace_file(path, old + entry.to_json().encode("utf-8") + b"\n", PROFILE)
    return True


def game_id(record: Path, number: int) -> str:
    """A game's id: its saved record's name and its number in the session (1 for a
    single game), the same however often it is resumed."""
    return f"{record.stem}#{number}"


def environ_clock() -> datetime:
    """Now, or the time in ``UMTALI_NOW`` (ISO), so tests can fix the clock; a value
    that is not a time is ignored."""
    fixed = os.environ.get("UMTALI_NOW", "")
    try:
        return datetime.fromisoformat(fixed)
    except ValueError:
        return datetime.now()
