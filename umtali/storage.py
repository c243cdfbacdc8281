"""Where games are saved, and saving them so that no crash can lose one.

Records live in the platform's user data directory (platformdirs), or in
``$UMTALI_DATA_DIR`` when that is set.  Every save writes a temporary file
beside the record and atomically renames it over the old one, so a kill at
any instant leaves either the old record or the new one, never half of one.
A directory that cannot be written gets one warning; the game goes on.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo, RecordError, format_record, load

SUFFIX = ".umtali"


def data_dir() -> Path:
    override = os.environ.get("UMTALI_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("umtali", appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def new_record_path() -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = games_dir() / f"{stamp}"
    path = base.with_suffix(SUFFIX)
    n = 2
    while path.exists():
        path = Path(f"{base}-{n}{SUFFIX}")
        n += 1
    return path


class Autosaver:
    """Saves a game's record after every action to one or more files.

    A file that cannot be written is reported once through ``warn`` and then
    left alone; the game itself never stops for want of a disk.
    """

    def __init__(
        self,
        match: Game | Session,
        players: tuple[PlayerInfo, PlayerInfo],
        paths: list[Path],
        warn: Callable[[str], None],
    ) -> None:
        self.match = match
        self.players = players
        self.paths = list(paths)
        self.warn = warn
        self._failed: set[Path] = set()

    def save(self) -> None:
        text = format_record(self.match, self.players)
        for path in self.paths:
            if path in self._failed:
                continue
            try:
                write_atomically(path, text)
            except OSError as err:
                self._failed.add(path)
                self.warn(
                    f"Could not save the game to {path} ({err.strerror or err}); "
                    "playing on without saving there."
                )


@dataclass(frozen=True, slots=True)
class SavedGame:
    path: Path
    modified: float
    players: tuple[PlayerInfo, PlayerInfo]
    match: Game | Session

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        names = f"{self.players[0].name} v {self.players[1].name}"
        m = self.match
        game = m.game if isinstance(m, Session) else m
        hand = len(game.hands)
        kind = f"session, game {len(m.games)}, " if isinstance(m, Session) else ""
        return f"{when}  {names}  ({kind}hand {hand})  {self.path.name}"


def read_saved(path: Path) -> SavedGame:
    """Load a record file; RecordError (naming the file) if it cannot be used."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file, so not an Umtali record") from None
    except OSError as err:
        raise RecordError(f"{path}: cannot be read ({err.strerror or err})") from None
    data, match = load(text, str(path))
    return SavedGame(path, path.stat().st_mtime, data.players, match)


def unfinished_games() -> tuple[list[SavedGame], list[str]]:
    """Saved games not yet over, most recent first, and the problems met on the way."""
    found: list[SavedGame] = []
    problems: list[str] = []
    folder = games_dir()
    if not folder.is_dir():
        return found, problems
    for path in folder.glob(f"*{SUFFIX}"):
        try:
            saved = read_saved(path)
        except RecordError as err:
            problems.append(str(err))
            continue
        if not saved.match.is_over:
            found.append(saved)
    found.sort(key=lambda s: s.modified, reverse=True)
    return found, problems
