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
from umtali.engine.errors import IllegalAction, InvalidNotation
from umtali.engine.errors import RecordError as RecordError  # its home before errors.py
from umtali.engine.hand import Hand
from umtali.engine.match import Game, Session
from umtali.engine.moves import NOT_MOVES
from umtali.engine.real_deal import NO_SEED, DrawCheck, by_hand, typed_deal, typed_deal_lines
from umtali.engine.rules import PRESETS, rules_named

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
                self._written = (hand, len(hand.machine.log), len(undone))
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
                self._written = (hand, len(hand.machine.log), len(undone))
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
        if sum(1 for entry in hand.machine.log[logged:] if entry[1] not in NOT_MOVES) != 1:
            return None
        line = _action_line(*played)
        self._actions.append(line)
        self._written = (hand, len(hand.machine.log), undos)
        out = line + "\n"
        if hand.is_over:
            out += _result_line(hand) + "\n"
            self._result = True
        return out


# ------------------------------------------------------------------ reading


def _cards(text: str, source: str, line: int) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(w) for w in text.split())
    except InvalidNotation as err:
        raise RecordError(f"{source}:{line}: {err}") from None


def _int(word: str, source: str, line: int, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise RecordError(f"{source}:{line}: {what} should be a number, not {word!r}") from None


def _hand_line(rest: str, version: int, source: str, n: int) -> HandRecord:
    """A ``hand`` line: ``N dealer D eleven E seed S``, or (a hand dealt with real
    cards, version 4 on) ``N dealer D``, with ``eleven E`` where the rules have no up-card."""
    words = rest.split()
    shape = words[1::2]
    seeded = len(words) == 7 and shape == ["dealer", "eleven", "seed"]
    typed = version >= 4 and len(words) in (3, 5) and shape in (["dealer"], ["dealer", "eleven"])
    if not (seeded or typed):
        real = " (with real cards: 'hand N dealer D eleven E')" if version >= 4 else ""
        raise RecordError(f"{source}:{n}: write 'hand N dealer D eleven E seed S'{real}")
    number, dealer, *more = (_int(w, source, n, "the hand line") for w in words[0::2])
    eleven = more[0] if more else 0
    seed = more[1] if seeded else None
    return HandRecord(number, dealer, eleven, seed, (), (), (), line=n, lines={"hand": n})


# A hand's deal, each line with what it is called: a shuffled hand's last line is its
# stock, a hand dealt with real cards has its up-card (if any) and the cards drawn.
_DEAL_LINES = ("deal 1:", "deal 2:", "stock:", "up:", "drawn:")


def _deal_line(hand: HandRecord, row: str, source: str, n: int) -> None:
    """Read one of a hand's deal lines into ``hand``."""
    key, _, text = row.partition(":")
    earlier = hand.lines.get(key)
    if earlier:
        raise RecordError(
            f"{source}:{n}: hand {hand.number} has a '{key}:' line already (line {earlier})"
        )
    real = hand.seed is None
    if key in ("up", "drawn") and not real:
        raise RecordError(
            f"{source}:{hand.line}: hand {hand.number} gives a seed, but its '{key}:' line "
            f"(line {n}) is for a hand dealt with real cards, whose hand line has none"
        )
    if key == "stock" and real:
        raise RecordError(
            f"{source}:{n}: a hand dealt with real cards gives the cards drawn "
            "('drawn: ...'), not the stock"
        )
    cards = _cards(text, source, n)
    hand.lines[key] = n
    if key == "up":
        if len(cards) != 1:
            raise RecordError(f"{source}:{n}: 'up:' names the one card turned up")
        hand.up = cards[0]
    elif key == "drawn":
        hand.drawn = cards
    elif key == "stock":
        hand.stock = cards
    elif key == "deal 1":
        hand.p1 = cards
    else:
        hand.p2 = cards


# The words a record may hold, each with its kind.
_PLAYER_KINDS = {k.value: k for k in PlayerKind}
_MATCH_KINDS = {k.value: k for k in MatchKind}


def parse_record(text: str, source: str = "record") -> RecordData:
    """Read a record's text (no replay yet); raises RecordError naming the line."""
    rows = [(n, raw.split("#", 1)[0].strip()) for n, raw in enumerate(text.splitlines(), 1)]
    rows = [(n, r) for n, r in rows if r]
    if not rows:
        raise RecordError(f"{source}: the file is empty, not an Umtali record")
    n, first = rows[0]
    if not first.startswith(MAGIC):
        raise RecordError(f"{source}:{n}: not an Umtali record (it should start {MAGIC!r})")
    version = _int(first[len(MAGIC) :].strip() or "?", source, n, "the record version")
    if version > FORMAT_VERSION:
        raise RecordError(
            f"{source}:{n}: record version {version} is newer than this umtali reads "
            f"({FORMAT_VERSION}): update umtali to open it"
        )
    if version < 1:
        raise RecordError(f"{source}:{n}: unknown record version {version}")
    header: dict[str, str] = {}
    players: dict[int, PlayerInfo] = {}
    copies: list[str] = []
    games: list[list[HandRecord]] = []
    hand: HandRecord | None = None
    for n, row in rows[1:]:
        key, _, rest = row.partition(" ")
        if key in ("rules", "match", "seed") and not games:
            header[key] = rest.strip()
        elif key == "player" and not games:
            head, sep, name = rest.partition(":")
            words = head.split()
            if not sep or len(words) < 2 or words[0] not in ("1", "2"):
                raise RecordError(f"{source}:{n}: write players as 'player 1 human: Name'")
            kind = _PLAYER_KINDS.get(words[1])
            bot = kind is PlayerKind.BOT
            if kind is None or bot != (len(words) == 3):
                raise RecordError(f"{source}:{n}: a player is 'human' or 'bot LEVEL'")
            name = unescape_name(name.strip()) if version >= 2 else name.strip()
            players[int(words[0])] = PlayerInfo(kind, name, words[2] if bot else "")
        elif key == "copy" and not games and version >= 3:
            copies.append(unescape_name(rest.strip()))
        elif key == "game":
            if _int(rest.strip(), source, n, "the game number") != len(games) + 1:
                raise RecordError(f"{source}:{n}: games must be numbered in order")
            games.append([])
            hand = None
        elif key == "hand":
            if not games:
                raise RecordError(f"{source}:{n}: a hand comes after a 'game' line")
            hand = _hand_line(rest, version, source, n)
            if hand.number != len(games[-1]) + 1:
                raise RecordError(f"{source}:{n}: hands must be numbered in order")
            games[-1].append(hand)
        elif hand is None:
            raise RecordError(f"{source}:{n}: unexpected line {row!r}")
        elif row.startswith(_DEAL_LINES):
            _deal_line(hand, row, source, n)
        elif row.startswith("result:"):
            words = row[7:].split()
            shape = words[2:] if len(words) > 2 else []
            if not (shape == ["dead"] or (len(shape) == 2 and shape[0] == "out")):
                raise RecordError(f"{source}:{n}: write 'result: A B out P' or 'result: A B dead'")
            who = _int(words[3], source, n, "who went out") if words[2] == "out" else None
            a = _int(words[0], source, n, "a score")
            b = _int(words[1], source, n, "a score")
            hand.result = (a, b, who, words[2])
            hand.lines["result"] = n
        elif row.startswith("undone:") and version >= 3:
            try:
                taken = tuple(Action.parse(t) for t in row[7:].split(";") if t.strip())
            except InvalidNotation as err:
                raise RecordError(f"{source}:{n}: {err}") from None
            hand.undone.append((len(hand.actions), taken))
        elif row[:2] in ("1:", "2:"):
            if hand.result is not None:
                raise RecordError(f"{source}:{n}: an action after the hand's result")
            hand.actions.append(Step(int(row[0]), row[2:].strip(), n))
        else:
            raise RecordError(f"{source}:{n}: unexpected line {row!r}")
    # A game played with real cards has no seed (version 4 on).
    needed = ("rules", "match") if version >= 4 else ("rules", "match", "seed")
    missing = [k for k in needed if k not in header]
    if missing or set(players) != {1, 2}:
        what = ", ".join(missing + (["both players"] if set(players) != {1, 2} else []))
        raise RecordError(f"{source}: the record's header is incomplete (missing {what})")
    if header["rules"] not in PRESETS:
        raise RecordError(f"{source}: unknown rules {header['rules']!r}")
    match = _MATCH_KINDS.get(header["match"])
    if match is None:
        raise RecordError(f"{source}: 'match' is 'game' or 'session', not {header['match']!r}")
    return RecordData(
        rules=header["rules"],
        match=match,
        seed=_int(header["seed"], source, 0, "the seed") if "seed" in header else None,
        players=(players[1], players[2]),
        games=games,
        copies=tuple(copies),
    )


def _new_match(data: RecordData, source: str) -> Game | Session:
    """The game or session a record starts: from its seed, or, for a game played with
    real cards, with the first hand's dealer (nothing is shuffled)."""
    rules = rules_named(data.rules)
    session = data.match is MatchKind.SESSION
    if data.seed is not None:
        return Session(rules, seed=data.seed) if session else Game(rules, seed=data.seed)
    first = data.games[0][0] if data.games and data.games[0] else None
    if first is None:
        raise RecordError(
            f"{source}: the record has no seed and no hand: a game played with real cards "
            "gives each hand's deal ('hand 1 dealer 1 eleven 1', 'deal 1: ...')"
        )
    if first.dealer not in (1, 2):
        raise RecordError(f"{source}:{first.line}: the dealer is player 1 or 2")
    if session:
        return Session(rules, seed=NO_SEED, first_dealer=first.dealer)
    return Game(rules, seed=NO_SEED, first_dealer=first.dealer)


def restore(data: RecordData, source: str = "record") -> Game | Session:
    """Rebuild the game or session a record describes by replaying it, checking as it goes."""
    match = _new_match(data, source)
    session = match if isinstance(match, Session) else None
    game = match.game if isinstance(match, Session) else match
    for g, hands in enumerate(data.games, 1):
        if g > 1:
            if session is None or not game.is_over or session.is_over:
                raise RecordError(f"{source}: game {g} cannot start: the match was not at its end")
            game = session.next_game()
        for rec in hands:
            _replay_hand(game, rec, data.seed is None, source)
    return match


def _deal_of(game: Game, rec: HandRecord, real: bool, source: str) -> Hand:
    """Deal the hand ``rec`` describes in ``game``, checking the record's deal."""
    where = f"{source}:{rec.line}"
    if real != (rec.seed is None):
        raise RecordError(
            f"{where}: hand {rec.number} "
            + (
                "has a seed, but the record has none: every hand of a game played with real "
                "cards is typed in ('hand N dealer D eleven E', without a seed)"
                if real
                else "has no seed, but the record has one: a game played with real cards "
                "has no 'seed' line"
            )
        )
    if real:
        cards = (rec.p1, rec.p2, rec.up, rec.drawn or ())
        numbers = (rec.number, rec.dealer, rec.eleven)
        return game.next_hand(deal=typed_deal(game.rules, numbers, cards, rec.lines, source))
    if rec.eleven not in (1, 2):
        raise RecordError(f"{where}: 'eleven' is 1 or 2")
    hand = game.next_hand(eleven=rec.eleven)
    d = hand.deal
    if (d.p1, d.p2, d.stock, d.seed) != (rec.p1, rec.p2, rec.stock, rec.seed):
        raise RecordError(
            f"{where}: the deal of hand {rec.number} is not the one the record's "
            "seed gives (was the file edited?)"
        )
    return hand


def _replay_hand(game: Game, rec: HandRecord, real: bool, source: str) -> None:
    """Deal and play one hand of a record in ``game``, checking it as it goes."""
    where = f"{source}:{rec.line}"
    if game.is_over:
        raise RecordError(f"{where}: hand {rec.number} comes after the game was over")
    if rec.dealer != game.dealer:
        raise RecordError(
            f"{where}: hand {rec.number} is dealt by player {rec.dealer}, "
            f"but player {game.dealer} deals it"
        )
    if game.hand is not None and not game.hand.is_over:
        raise RecordError(f"{where}: hand {rec.number} starts before the last one ended")
    hand = _deal_of(game, rec, real, source)
    draws = DrawCheck(hand, rec.number, rec.lines, source) if real else None
    game.undone.extend((len(game.hands) - 1, keep, taken) for keep, taken in rec.undone)
    for step in rec.actions:
        who, text, line = step.player, step.text, step.line
        if hand.is_over:
            raise RecordError(f"{source}:{line}: {text!r} comes after the hand ended")
        if who != hand.to_move:
            raise RecordError(
                f"{source}:{line}: {text!r} is marked for player {who}, "
                f"but it is player {hand.to_move}'s move"
            )
        try:
            action = Action.parse(text)
            if draws is not None:
                draws.before(action, line)
            hand.play(action)
        except (IllegalAction, InvalidNotation) as err:
            raise RecordError(f"{source}:{line}: {text!r} is not legal: {err}") from None
        if draws is not None:
            draws.after(line)
    if draws is not None:
        draws.finish(rec.line)
    if rec.result is not None:
        at = f"{source}:{rec.lines.get('result', rec.line)}"
        if not hand.is_over:
            raise RecordError(f"{at}: hand {rec.number} has a result but is not over")
        a, b, out, _ = rec.result
        if (a, b) != hand.scores or out != hand.went_out:
            said = f"out {out}" if out else "dead"
            got = f"out {hand.went_out}" if hand.went_out else "dead"
            raise RecordError(
                f"{at}: hand {rec.number}'s result {a}-{b} {said} does not match the "
                f"replay ({hand.scores[0]}-{hand.scores[1]} {got})"
            )


def load(text: str, source: str = "record") -> tuple[RecordData, Game | Session]:
    """Parse and replay a record; raises RecordError for any fault."""
    data = parse_record(text, source)
    return data, restore(data, source)
