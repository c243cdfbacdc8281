"""Where games are saved, and saving them so that no crash, full disk or second window
loses one.

Records live in the platform's user data directory (platformdirs), or in
``$UMTALI_DATA_DIR`` when that is set.  Every record passes the file door
(:mod:`umtali.store.door`).  A record is written whole once, atomically (a
temporary file beside it, fsync, rename); after that each move appends its few
lines and fsyncs them, so a save costs the same whatever the game's length.  A kill
at any instant leaves a whole record, at worst with its last line cut short, which
:func:`read_saved` drops.  When appending is impossible (an undo rewrote the hand,
or a save failed) the record is written whole again.

A record is written only to a new file or to a file that holds this game's record,
never through a link; and once written, only while its name still leads to the file
written before: a record never makes umtali overwrite any other file.

A game open in one umtali is locked against a second: the record file itself is
held with an exclusive ``flock`` (:class:`~umtali.store.door.HeldFile`), so a second
umtali is refused by whatever name, link or hard link, it reaches the game, and the
system lets the lock go when the process ends, however it ends.  No lock file is
left beside the record.  (``<record>.lock`` files left by earlier versions are left
alone: one might still be held by an older umtali playing that game.)  A save that
fails is reported once, tried again at every move, and reported again when it
succeeds; the player is never told a game is saved when it is not.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from umtali.engine.errors import UmtaliError
from umtali.engine.match import Game, Session
from umtali.engine.record import (
    Played,
    PlayerInfo,
    RecordData,
    RecordError,
    RecordWriter,
    match_kind,
)
from umtali.engine.record_read import load_saved, parse_record
from umtali.store.door import (
    RECORD,
    FileBusy,
    FileMissing,
    FileRefused,
    HeldFile,
    decode,
    read_stamped,
    remove_file,
    replace_file,
)

SUFFIX = ".umtali"


class GameInUse(UmtaliError):
    """The game is open in another umtali; the message names its process where it can."""


def data_dir() -> Path:
    override = os.environ.get("UMTALI_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("umtali", appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` in one step (temporary file, fsync, rename),
    through the file door: where nothing is, or over a regular file only."""
    replace_file(path, text, RECORD)


def new_record_path() -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = games_dir() / f"{stamp}"
    path = base.with_suffix(SUFFIX)
    n = 2
    while os.path.lexists(path):
        path = Path(f"{base}-{n}{SUFFIX}")
        n += 1
    return path


def refuse_existing(path: Path) -> None:
    """RecordError unless nothing is at ``path`` (not even a link): a new game's record
    is written only to a new file, so that it never overwrites another."""
    if os.path.lexists(path):
        raise RecordError(
            f"{path} is there already: a new game's record is written only to a new file, "
            "never over another (give a name that is not taken)"
        )


# ------------------------------------------------------------------ holding


def _in_use(path: Path, busy: FileBusy) -> GameInUse:
    who = f" (process {busy.holder})" if busy.holder else ""
    return GameInUse(
        f"{path.name} is open in another umtali{who}: carry on there, or quit it first"
    )


def _hold_saved(path: Path) -> HeldFile:
    """Hold the record at ``path`` against every other umtali (GameInUse if one has it)."""
    try:
        return HeldFile.take(path, RECORD)
    except FileBusy as busy:
        raise _in_use(path, busy) from None


def _holds_game(
    data: RecordData, match: Game | Session, players: tuple[PlayerInfo, PlayerInfo]
) -> bool:
    """Whether a record's header is that of ``match`` between ``players``: the same
    rules, seed, players and kind (a game or a session)."""
    return (
        data.players == players
        and data.rules == match.rules.name
        and data.seed == match.seed
        and data.match is match_kind(match)
    )


def _take_record(
    path: Path, match: Game | Session, players: tuple[PlayerInfo, PlayerInfo]
) -> HeldFile:
    """Hold the file at ``path``, which must be a record of this very game (its header
    says so); RecordError, the file left as it is, for anything else."""
    held = _hold_saved(path)
    try:
        text = decode(path, held.read(RECORD), RECORD)
        data = parse_record(text, str(path), header_only=True)  # whose game it is
        if not _holds_game(data, match, players):
            raise RecordError(
                f"{path} holds another game: a record is written only to a new file or to "
                "the record of its own game"
            )
    except (FileRefused, RecordError) as err:
        held.close()
        if isinstance(err, RecordError):
            raise
        raise RecordError(str(err)) from None
    return held


def _stale_temporaries(record: Path) -> None:
    """Remove temporary files a killed save left beside ``record``: it is held, or new
    (a name no other umtali is making: new names are new, and ``--record`` takes none
    that is there)."""
    with contextlib.suppress(OSError):
        for tmp in record.parent.glob(record.name + ".*.tmp"):
            with contextlib.suppress(OSError):
                remove_file(tmp)


# ------------------------------------------------------------------- saving


class RecordFile:
    """One record file, held while its game is played: written whole once, then
    appended to move by move."""

    def __init__(
        self, path: Path, players: tuple[PlayerInfo, PlayerInfo], copies: Sequence[str] = ()
    ) -> None:
        self.path = path
        self.players = players
        self.writer = RecordWriter(players, copies)
        self._file: HeldFile | None = None
        self._current = False  # whether the file holds all the writer has given
        self._held = False  # once held, only that file (or a new one) is written

    def hold(self, match: Game | Session) -> None:
        """Hold the record of this very game, where one is at the path (a new file is
        made, whole, by the first save).  Only until a file has been held: after
        that only it, or a new file where nothing is, is written.

        GameInUse if another umtali has it; an UmtaliError naming the file if
        something else is there (it is left as it is); OSError if it cannot be opened.
        """
        if self._file is not None or self._held:
            return
        try:
            self._file = _take_record(self.path, match, self.players)
        except FileMissing:  # a new record: what a killed first save left beside it goes
            _stale_temporaries(self.path)
            return
        self._held = True
        _stale_temporaries(self.path)

    def save(self, match: Game | Session, played: Played | None = None) -> None:
        """Bring the file up to date with ``match``; ``played`` is the action just
        played, where that is all that happened since the last save.

        OSError if it cannot be written; an UmtaliError if its name now leads to
        something other than the file written before (it is let go and left alone:
        a new file is made only where nothing is), or another umtali has it.
        """
        more = self.writer.more(match, played) if self._current else None
        self._current = False
        for attempt in (1, 2):
            self.hold(match)
            try:
                if self._file is None:
                    self._create(match)
                elif more is None:
                    self._file.rewrite(self.writer.whole(match).encode("utf-8"))
                elif more:
                    self._file.append(more.encode("utf-8"))
            except FileRefused as err:
                self.close()  # its name leads elsewhere now: let it go
                if isinstance(err, FileMissing) and attempt == 1:
                    more = None  # removed: a new file takes its place, written whole
                    continue
                raise
            self._current = True
            return

    def _create(self, match: Game | Session) -> None:
        """Make the file, whole and held, where nothing is."""
        try:
            self._file = HeldFile.create(self.path, self.writer.whole(match).encode("utf-8"))
        except FileExistsError:
            raise FileRefused(
                self.path, "something else took its place, so it is left alone"
            ) from None
        self._held = True
        _stale_temporaries(self.path)

    def remove(self) -> None:
        """Delete the file, if it is held and its name still leads to it."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.remove()
            self._file = None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _reason(err: Exception) -> str:
    if isinstance(err, FileRefused):
        return err.reason
    if isinstance(err, OSError):
        return err.strerror or str(err)
    return str(err)


class Autosaver:
    """Saves a game's record after every action to one or more files.

    The first file is the game's own save; others are records the player asked for.
    Each is a new file (made, whole, by the first save) or one that holds this game's
    record, held at once, before the game starts; anything else refuses the game (an
    UmtaliError naming the file), as does a file another umtali has
    (:class:`GameInUse`).  A file that cannot be
    written is reported once through ``warn`` and tried again at every save; when it
    works again ``tell`` says so.  :attr:`problems` holds what failed last, so the
    program never says a game is saved when it is not.
    """

    def __init__(
        self,
        match: Game | Session,
        players: tuple[PlayerInfo, PlayerInfo],
        paths: list[Path],
        warn: Callable[[str], None],
        tell: Callable[[str], None] | None = None,
    ) -> None:
        self.match = match
        # Every file names the records the player asked for, so that a resumed game
        # goes on writing them.
        copies = [str(path.resolve()) for path in paths[1:]]
        self.files = [RecordFile(path, players, copies) for path in paths]
        self.warn = warn
        self.tell = tell or warn
        self.problems: dict[Path, str] = {}
        try:
            for record in self.files:
                with contextlib.suppress(OSError):  # an unwritable folder: saving will say so
                    record.hold(match)
        except BaseException:
            self.close()
            raise

    @property
    def paths(self) -> list[Path]:
        return [f.path for f in self.files]

    @property
    def saved(self) -> bool:
        """Whether every file holds the game as it stands (after the last save)."""
        return not self.problems

    def save(self, played: Played | None = None) -> None:
        """Bring every file up to date; ``played`` is the action just played (and who
        played it), where the caller knows that is all that happened since."""
        for record in self.files:
            try:
                record.save(self.match, played)
            except (OSError, UmtaliError) as err:
                reason = _reason(err)
                if record.path not in self.problems:
                    self.warn(
                        f"Could not save the game to {record.path} ({reason}). It will be "
                        "saved as soon as that works again; nothing is lost while you play."
                    )
                self.problems[record.path] = reason
            else:
                if self.problems.pop(record.path, None) is not None:
                    self.tell(f"The game is saved again to {record.path}.")

    def close(self, discard: bool = False) -> None:
        """Let the files go (and with them their locks).  With ``discard`` the game's
        own save is deleted (a game left before its first move holds nothing to come
        back to); the records the player asked for are kept."""
        for n, record in enumerate(self.files):
            if discard and n == 0:
                record.remove()
            else:
                record.close()


# ------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class SavedGame:
    path: Path
    modified: float
    players: tuple[PlayerInfo, PlayerInfo]
    match: Game | Session
    copies: tuple[Path, ...] = ()  # the records the player asked for as well

    def describe(self) -> str:
        """One line that tells this game from the others: when it was last played, who,
        the variant, where it stands and the score so far, then its file's name."""
        return f"{self.summary()}  {self.path.name}"

    def summary(self) -> str:
        """``describe`` without the file's name: when, who, the variant and the score."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        names = f"{self.players[0].name} v {self.players[1].name}"
        m = self.match
        game = m.game if isinstance(m, Session) else m
        hand = len(game.hands)
        kind = f"session, game {len(m.games)}, " if isinstance(m, Session) else ""
        a, b = game.totals
        if game.hand is not None and not game.hand.is_over:
            a, b = a + game.hand.scores[0], b + game.hand.scores[1]
        return f"{when}  {names}  {m.rules.name}, {kind}hand {hand}, {a}-{b}"


def delete_game(saved: SavedGame) -> None:
    """Delete a saved game: GameInUse if an umtali has it open, FileRefused if its
    name now leads to something else (a link, a FIFO: left alone), OSError if it
    cannot be deleted."""
    _hold_saved(saved.path).remove()


def _record_text(path: Path, follow: bool = True) -> tuple[str, float]:
    """A record file's text and modification time, through the file door: a FIFO or
    device (never waited on), a folder, a file too large, or one not UTF-8 is refused
    (and with ``follow`` false, a link)."""
    try:
        data, modified = read_stamped(path, RECORD, follow=follow)
        return decode(path, data, RECORD), modified
    except FileRefused as err:
        raise RecordError(str(err)) from None


def read_saved(path: Path, follow: bool = True) -> SavedGame:
    """Load a record file; RecordError (naming the file) if it cannot be used (with
    ``follow`` false, if it is a link).

    A last line without its newline is a save cut short by a kill: if the record
    does not load with it, it loads without it.
    """
    text, modified = _record_text(path, follow)
    data, match = load_saved(text, str(path))
    return SavedGame(path, modified, data.players, match, tuple(Path(c) for c in data.copies))


def copies_to_keep(saved: SavedGame) -> tuple[list[Path], list[str]]:
    """The records a resumed game goes on writing besides its own file, and why any
    other is left alone.

    A copy is written again only if it is still there and still holds this game: a
    record could come from anyone, so its ``copy`` lines never make umtali create or
    overwrite another file.
    """
    keep: list[Path] = []
    skipped: list[str] = []
    here = saved.path.resolve()
    for copy in saved.copies:
        if copy.resolve() == here or copy in keep:
            continue
        try:
            other = read_saved(copy, follow=False)  # a record is never written through a link
        except RecordError as err:
            skipped.append(f"the record {copy} is not written any more: {err}")
            continue
        if not same_game(saved, other):
            skipped.append(f"the record {copy} now holds another game: it is left alone")
            continue
        keep.append(copy)
    return keep, skipped


def same_game(a: SavedGame, b: SavedGame) -> bool:
    """Whether two records are of one game: the same rules, seed, players and kind."""
    ma, mb = a.match, b.match
    return (
        a.players == b.players
        and ma.rules == mb.rules
        and ma.seed == mb.seed
        and isinstance(ma, Session) == isinstance(mb, Session)
    )


def find_record(which: str) -> Path | None:
    """The record a player names on the command line: the file at ``which`` where
    there is one, else the game of that name in the games folder (``.umtali`` may be
    left off); None where neither is.  Only the path is found here: whatever it
    leads to is read through the file door, which refuses what is no record.
    """
    if os.path.exists(which):
        return Path(which)
    bare = Path(which).name == which and which not in ("", ".", "..")
    if not bare:
        return None
    named = games_dir() / (which if which.endswith(SUFFIX) else which + SUFFIX)
    return named if os.path.exists(named) else None


def unfinished_games() -> tuple[list[SavedGame], list[str]]:
    """Saved games not yet over, most recent first, and the problems met on the way.

    One file that cannot be used never keeps the others from being listed.
    """
    found, problems = saved_games()
    return [saved for saved in found if not saved.match.is_over], problems


def saved_games() -> tuple[list[SavedGame], list[str]]:
    """Every game in the games folder, finished or not, most recent first, and the
    problems met on the way.

    One file that cannot be used never keeps the others from being listed.
    """
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
        except Exception as err:  # a fault of ours: name the file, list the rest
            problems.append(f"{path}: cannot be used ({type(err).__name__}: {err})")
            continue
        found.append(saved)
    found.sort(key=lambda s: s.modified, reverse=True)
    return found, problems
