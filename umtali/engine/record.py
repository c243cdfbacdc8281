"""Game records: a versioned text file that is both the save file and the score sheet.

A record holds the rules, the players, the seed, every hand's full deal
(both hands and the stock, top first) and every action in notation with the
player who made it, and each finished hand's result.  Loading one rebuilds
the game by replaying it through the engine from the seed, and checks every
recorded deal and result against the replay, so a record that was cut short,
edited by hand, or written by a newer version is refused with the line at
fault instead of being half believed.

The layout, one fact per line (``#`` starts a comment)::

    umtali record 1
    rules classic
    match game            (or: session)
    seed 8211
    player 1 human: Ann
    player 2 bot hard: Bot (hard)
    game 1
    hand 1 dealer 1 eleven 1 seed 77
    deal 1: AS 2S ...
    deal 2: ...
    stock: ...
    1: meld KS QS
    2: draw
    result: 23 17 out 1

A game played with real cards (version 4) has no ``seed`` line: each hand gives its
deal as typed in, ``hand 1 dealer 1 eleven 1`` and then ``deal 1:``, ``deal 2:``,
``up:`` (where the rules turn up a card) and ``drawn:``, the cards drawn from the
stock in order (see :mod:`umtali.engine.real_deal`).  A shuffled game's record is
still written as version 3, so older versions read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from urllib.parse import unquote

from umtali.engine.actions import Action
from umtali.engine.cards import Card
from umtali.engine.errors import RecordError as RecordError  # its home before errors.py
from umtali.engine.hand import Hand, machine_of
from umtali.engine.match import Game, Session
from umtali.engine.moves import NOT_MOVES
from umtali.engine.real_deal import by_hand, typed_deal_lines

#: The newest version this umtali reads: 4 added games played with real cards (deals
#: typed in, no seed); 3 added ``copy`` lines (the extra records a game is also written
#: to); 2 escaped names (see :func:`escape_name`).  Every older version still loads.
FORMAT_VERSION = 4
#: A record is written as the oldest version that holds it: a shuffled game's as 3.
SHUFFLED_VERSION = 3
MAGIC = "umtali record"


class PlayerKind(str, Enum):
    """Who sits in a seat; the value is the record's (and the profile's) word."""

    HUMAN = "human"
    BOT = "bot"

    def __str__(self) -> str:
        return self.value


class MatchKind(str, Enum):
    """What a record holds: one game, or a session of games; the value is the record's word."""

    GAME = "game"
    SESSION = "session"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    kind: PlayerKind  # its word ("human", "bot") is taken too
    name: str
    level: str = ""  # the bot's level

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PlayerKind(self.kind))

    @property
    def is_bot(self) -> bool:
        return self.kind is PlayerKind.BOT

    def line(self, number: int) -> str:
        level = f" {self.level}" if self.is_bot else ""
        return f"player {number} {self.kind.value}{level}: {escape_name(self.name)}"


def escape_name(name: str) -> str:
    r"""A name as a record line holds it: ``%``, ``#`` (a comment), control and format
    characters (a new line would end the line) and spaces at either end are written as
    ``%XX`` (their UTF-8 bytes), so any name comes back exactly.

    >>> escape_name("Ann#1\nrules rummy")
    'Ann%231%0Arules rummy'
    >>> unescape_name(escape_name(" 50% Zoë ")) == " 50% Zoë "
    True
    """
    out = []
    last = len(name) - 1
    for n, ch in enumerate(name):
        edge_space = ch.isspace() and (n == 0 or n == last)
        if ch in "%#" or edge_space or not ch.isprintable():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def unescape_name(text: str) -> str:
    """The name :func:`escape_name` wrote (a stray ``%`` is left as it is)."""
    return unquote(text, errors="replace")


@dataclass(frozen=True, slots=True)
class Step:
    """One action line of a record: who played it, as written, and where (the line is
    where, not what: records that differ only in comments and blank lines are equal)."""

    player: int
    text: str
    line: int = field(default=0, compare=False)


@dataclass
class HandRecord:
    number: int
    dealer: int
    eleven: int  # 0 where a hand typed in from real cards leaves it out
    seed: int | None  # None: dealt with real cards, typed in
    p1: tuple[Card, ...]
    p2: tuple[Card, ...]
    stock: tuple[Card, ...]
    actions: list[Step] = field(default_factory=list)
    # Undos: how many actions were kept, and those taken back (not replayed).
    undone: list[tuple[int, tuple[Action, ...]]] = field(default_factory=list)
    result: tuple[int, int, int | None, str] | None = None  # scores, went out, end
    line: int = field(default=0, compare=False)
    # A hand dealt with real cards: the up-card (where the rules have one) and the
    # cards drawn from the stock, in order.
    up: Card | None = None
    drawn: tuple[Card, ...] | None = None
    lines: dict[str, int] = field(default_factory=dict, compare=False)  # where each line was


@dataclass
class RecordData:
    rules: str
    match: MatchKind
    seed: int | None  # None: a game played with real cards
    players: tuple[PlayerInfo, PlayerInfo]
    games: list[list[HandRecord]] = field(default_factory=list)
    # Records the game is also written to (``umtali play --record FILE``), absolute.
    copies: tuple[str, ...] = ()


# ------------------------------------------------------------------ writing

#: An action and the player (1 or 2) who played it.
Played = tuple[int, Action]


def played(hand: Hand) -> list[Played]:
    """(player, action) for every action of a hand, as a replay needs them."""
    return [(e.player, e.action) for e in hand.events() if e.action is not None]


def _header(
    match: Game | Session, players: tuple[PlayerInfo, PlayerInfo], copies: Sequence[str] = ()
) -> list[str]:
    real = by_hand(match)
    return [
        f"{MAGIC} {FORMAT_VERSION if real else SHUFFLED_VERSION}",
        f"rules {match.rules.name}",
        f"match {match_kind(match).value}",
        *([] if real else [f"seed {match.seed}"]),
        players[0].line(1),
        players[1].line(2),
        *(f"copy {escape_name(path)}" for path in copies),
    ]


def _deal_lines(number: int, hand: Hand) -> list[str]:
    d = hand.deal
    if d.drawn is not None:
        return typed_deal_lines(number, d, hand.rules)
    return [
        f"hand {number} dealer {d.dealer} eleven {d.eleven} seed {d.seed}",
        "deal 1: " + " ".join(map(str, d.p1)),
        "deal 2: " + " ".join(map(str, d.p2)),
        "stock: " + " ".join(map(str, d.stock)),
    ]


def _action_lines(hand: Hand, undone: Sequence[tuple[int, tuple[Action, ...]]] = ()) -> list[str]:
    """A hand's action lines, with a line for each undo where it was made (the actions
    it took back; they are not replayed)."""
    actions = [_action_line(who, action) for who, action in played(hand)]
    last = len(actions)  # an undo later undone in part goes after what is left
    lines = []
    for n in range(last + 1):
        lines += [_undone_line(taken) for keep, taken in undone if min(keep, last) == n]
        if n < last:
            lines.append(actions[n])
    return lines


def _action_line(player: int, action: Action) -> str:
    return f"{player}: {action}"


def _undone_line(taken: Sequence[Action]) -> str:
    return "undone: " + "; ".join(map(str, taken))


def _result_line(hand: Hand) -> str:
    a, b = hand.scores
    out = f"out {hand.went_out}" if hand.went_out else "dead"
    return f"result: {a} {b} {out}"


def match_kind(match: Game | Session) -> MatchKind:
    """Whether ``match`` is a single game or a session."""
    return MatchKind.SESSION if isinstance(match, Session) else MatchKind.GAME


def _games(match: Game | Session) -> list[Game]:
    return match.games if isinstance(match, Session) else [match]


def format_record(
    match: Game | Session, players: tuple[PlayerInfo, PlayerInfo], copies: Sequence[str] = ()
) -> str:
    """The record of a game or session as it stands (finished or not)."""
    lines = _header(match, players, copies)
    for g, game in enumerate(_games(match), 1):
        lines.append(f"game {g}")
        for n, hand in enumerate(game.hands, 1):
            lines += _deal_lines(n, hand) + _action_lines(hand, game.undone_in(n - 1))
            if hand.is_over:
                lines.append(_result_line(hand))
    return "\n".join(lines) + "\n"


class RecordWriter:
    """The lines a game's record gains as it goes on, so that saving a move costs the
    same whatever the game's length: the record is written whole once, and from then
    on only what each move adds is appended.

    :meth:`more` answers None when the record can no longer grow by appending (an
    undo took actions back): then :meth:`whole` is written again.
    """

    def __init__(self, players: tuple[PlayerInfo, PlayerInfo], copies: Sequence[str] = ()) -> None:
        self.players = players
        self.copies = tuple(copies)
        self._game = -1  # index of the last game written
        self._hand = -1  # index (in that game) of the last hand written
        self._actions: list[str] = []  # that hand's action lines written so far
        self._result = False  # and whether its result was written
        # That very hand, how much of its log and how many of its undos were written:
        # what lets one played action be appended without reading the hand again.
        self._written: tuple[Hand, int, int] | None = None

    def whole(self, match: Game | Session) -> str:
        """The full record; what follows it is then given by :meth:`more`."""
        self._game, self._hand, self._actions, self._result = -1, -1, [], False
        self._written = None
        return (
            "\n".join(_header(match, self.players, self.copies)) + "\n" + (self.more(match) or "")
        )

    def more(self, match: Game | Session, played: Played | None = None) -> str | None:
        """The lines added since the last :meth:`whole` or :meth:`more`, or None.

        ``played`` is the action just played and its player, where the caller was told
        of one (a listener of the driver): when it is all that happened since, its line
        is written from it, and the hand's lines are not made again.
        """
        if played is not None:
            appended = self._one_action(match, played)
            if appended is not None:
                return appended
        games = _games(match)
        out: list[str] = []
        if self._game >= 0:
            hands = games[self._game].hands if self._game < len(games) else []
            if self._hand >= 0:
                if self._hand >= len(hands):
                    return None
                hand = hands[self._hand]
                undone = games[self._game].undone_in(self._hand)
                lines = _action_lines(hand, undone)
                if lines[: len(self._actions)] != self._actions or (
                    self._result and not hand.is_over
                ):
                    return None
                out += lines[len(self._actions) :]
                self._actions = lines
                self._written = (hand, len(machine_of(hand).log), len(undone))
                if hand.is_over and not self._result:
                    out.append(_result_line(hand))
                    self._result = True
        for g in range(max(self._game, 0), len(games)):
            if g > self._game:
                out.append(f"game {g + 1}")
                self._game, self._hand = g, -1
            for n in range(self._hand + 1, len(games[g].hands)):
                hand = games[g].hands[n]
                undone = games[g].undone_in(n)
                self._actions = _action_lines(hand, undone)
                self._written = (hand, len(machine_of(hand).log), len(undone))
                out += _deal_lines(n + 1, hand) + self._actions
                self._result = hand.is_over
                if hand.is_over:
                    out.append(_result_line(hand))
                self._hand = n
        return "".join(line + "\n" for line in out)

    def _one_action(self, match: Game | Session, played: Played) -> str | None:
        """The lines ``played`` adds, if it is the one thing that happened since the last
        write (the same hand, still the last, no undo, one more move in its log); else
        None, and :meth:`more` looks at the whole hand."""
        games = _games(match)
        if self._written is None or self._result or self._game != len(games) - 1:
            return None
        game = games[self._game]
        hand, logged, undos = self._written
        if self._hand != len(game.hands) - 1 or game.hands[self._hand] is not hand:
            return None
        if undos != len(game.undone_in(self._hand)):
            return None
        if sum(1 for entry in machine_of(hand).log[logged:] if entry[1] not in NOT_MOVES) != 1:
            return None
        line = _action_line(*played)
        self._actions.append(line)
        self._written = (hand, len(machine_of(hand).log), undos)
        out = line + "\n"
        if hand.is_over:
            out += _result_line(hand) + "\n"
            self._result = True
        return out


# ------------------------------------------------------------------ reading
# The reader (:mod:`umtali.engine.record_read`) builds on the values above, so it is
# imported when first used; these are its entry points under the names callers know.


def parse_record(text: str, source: str = "record") -> RecordData:
    """Read a record's text (no replay yet); raises RecordError naming the line."""
    from umtali.engine import record_read

    return record_read.parse_record(text, source)


def restore(data: RecordData, source: str = "record") -> Game | Session:
    """Rebuild the game or session a record describes by replaying it, checking as it goes."""
    from umtali.engine import record_read

    return record_read.restore(data, source)


def load(text: str, source: str = "record") -> tuple[RecordData, Game | Session]:
    """Parse and replay a record; raises RecordError for any fault."""
    from umtali.engine import record_read

    return record_read.load(text, source)
