"""Game records: a versioned text file that is both the save file and the score sheet.

A record holds the rules, the players, the seed, every hand's full deal and every
action in notation with the player who made it, and each finished hand's result
(:mod:`umtali.engine.record_data` gives the layout, line by line, and the values).
This module writes records, and is where callers find all of it: the values, the
writer (:func:`format_record`, :class:`RecordWriter`) and the reader's
:func:`parse_record`, :func:`restore` and :func:`load`
(:mod:`umtali.engine.record_read`), which replays a record through the engine and
refuses one cut short, edited by hand or written by a newer version with the line at
fault.  The values sit in a module of their own so that the writer and the reader
each import them, and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence

from umtali.engine.actions import Action
from umtali.engine.errors import RecordError as RecordError  # its home before errors.py
from umtali.engine.hand import Hand, machine_of
from umtali.engine.match import Game, Session, StandIn
from umtali.engine.moves import NOT_MOVES
from umtali.engine.real_deal import by_hand, typed_deal_lines

# The values and the reader, under the names callers have always imported from here.
from umtali.engine.record_data import FORMAT_VERSION as FORMAT_VERSION
from umtali.engine.record_data import MAGIC as MAGIC
from umtali.engine.record_data import SHUFFLED_VERSION as SHUFFLED_VERSION
from umtali.engine.record_data import STAND_IN, STAND_IN_ENDS
from umtali.engine.record_data import STAND_IN_VERSION as STAND_IN_VERSION
from umtali.engine.record_data import TYPED_VERSION as TYPED_VERSION
from umtali.engine.record_data import HandRecord as HandRecord
from umtali.engine.record_data import MatchKind as MatchKind
from umtali.engine.record_data import PlayerInfo as PlayerInfo
from umtali.engine.record_data import PlayerKind as PlayerKind
from umtali.engine.record_data import RecordData as RecordData
from umtali.engine.record_data import Step as Step
from umtali.engine.record_data import escape_name as escape_name
from umtali.engine.record_data import unescape_name as unescape_name
from umtali.engine.record_read import load as load
from umtali.engine.record_read import parse_record as parse_record
from umtali.engine.record_read import restore as restore

#: An action and the player (1 or 2) who played it.
Played = tuple[int, Action]


def played(hand: Hand) -> list[Played]:
    """(player, action) for every action of a hand, as a replay needs them."""
    return [(e.player, e.action) for e in hand.events() if e.action is not None]


def _header(
    match: Game | Session, players: tuple[PlayerInfo, PlayerInfo], copies: Sequence[str] = ()
) -> list[str]:
    real = by_hand(match)
    if any(game.stand_ins for game in _games(match)):
        version = STAND_IN_VERSION
    else:
        version = TYPED_VERSION if real else SHUFFLED_VERSION
    return [
        f"{MAGIC} {version}",
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


def _action_lines(
    hand: Hand,
    undone: Sequence[tuple[int, tuple[Action, ...]]] = (),
    stand_ins: Sequence[StandIn] = (),
) -> list[str]:
    """A hand's action lines, with a line for each undo where it was made (the actions
    it took back; they are not replayed) and for each change of who plays a seat."""
    actions = [_action_line(who, action) for who, action in played(hand)]
    last = len(actions)  # an undo later undone in part goes after what is left
    lines = []
    for n in range(last + 1):
        lines += [_undone_line(taken) for keep, taken in undone if min(keep, last) == n]
        lines += [_stand_in_line(s) for s in stand_ins if min(s.after, last) == n]
        if n < last:
            lines.append(actions[n])
    return lines


def _stand_in_line(change: StandIn) -> str:
    if change.level is None:
        return f"{STAND_IN} {change.player} {STAND_IN_ENDS}"
    return f"{STAND_IN} {change.player}: {change.level}"


def _game_lines(number: int, game: Game) -> list[str]:
    """A game's first line, and the changes of seat made before its first deal."""
    return [f"game {number}", *(_stand_in_line(s) for s in game.stand_ins_in(-1))]


def _hand_lines(game: Game, index: int) -> list[str]:
    """Hand ``index``'s action lines, its undos and changes of seat among them."""
    return _action_lines(game.hands[index], game.undone_in(index), game.stand_ins_in(index))


def _changes(match: Game | Session) -> int:
    """How many changes of seat ``match`` has made."""
    return sum(len(game.stand_ins) for game in _games(match))


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
        lines += _game_lines(g, game)
        for n, hand in enumerate(game.hands, 1):
            lines += _deal_lines(n, hand) + _hand_lines(game, n - 1)
            if hand.is_over:
                lines.append(_result_line(hand))
    return "\n".join(lines) + "\n"


class RecordWriter:
    """The lines a game's record gains as it goes on, so that saving a move costs the
    same whatever the game's length: the record is written whole once, and from then
    on only what each move adds is appended.

    :meth:`more` answers None when the record can no longer grow by appending (an
    undo took actions back, a bot took a seat: the header's version may change): then
    :meth:`whole` is written again.
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
        self._changes = 0  # changes of seat written

    def whole(self, match: Game | Session) -> str:
        """The full record; what follows it is then given by :meth:`more`."""
        self._game, self._hand, self._actions, self._result = -1, -1, [], False
        self._written = None
        self._changes = _changes(match)
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
        if _changes(match) != self._changes:
            return None
        games = _games(match)
        out: list[str] = []
        if self._game >= 0:
            hands = games[self._game].hands if self._game < len(games) else []
            if self._hand >= 0:
                if self._hand >= len(hands):
                    return None
                hand = hands[self._hand]
                undone = games[self._game].undone_in(self._hand)
                lines = _hand_lines(games[self._game], self._hand)
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
                out += _game_lines(g + 1, games[g])
                self._game, self._hand = g, -1
            for n in range(self._hand + 1, len(games[g].hands)):
                hand = games[g].hands[n]
                undone = games[g].undone_in(n)
                self._actions = _hand_lines(games[g], n)
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
        if _changes(match) != self._changes:
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
