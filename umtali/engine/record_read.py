"""Reading a record: its text parsed line by line, then replayed through the engine.

:func:`parse_record` reads the lines (:mod:`umtali.engine.record_data` describes them)
without playing anything; :func:`restore` deals and plays every hand, checking each
deal, move and result as it goes, so that a record cut short, edited by hand or typed
in wrongly is refused with the line at fault, as a :class:`RecordError`, and never
half believed.  It builds on :mod:`umtali.engine.record_data`, never on the writer;
``umtali.engine.record`` offers the same three functions: most callers import them
from there.
"""

from __future__ import annotations

from umtali.engine.actions import Action
from umtali.engine.cards import Card
from umtali.engine.errors import IllegalAction, InvalidNotation, RecordError
from umtali.engine.hand import Hand
from umtali.engine.match import Game, Session, StandIn
from umtali.engine.real_deal import NO_SEED, DrawCheck, typed_deal
from umtali.engine.record_data import (
    FORMAT_VERSION,
    MAGIC,
    STAND_IN,
    STAND_IN_ENDS,
    STAND_IN_VERSION,
    HandRecord,
    MatchKind,
    PlayerInfo,
    PlayerKind,
    RecordData,
    Step,
    unescape_name,
)
from umtali.engine.rules import PRESETS, rules_named


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


def _stand_in(rest: str, index: int, after: int, source: str, n: int) -> StandIn:
    """A ``stand-in`` line's change of seat: ``2: LEVEL`` (a bot takes player 2's seat)
    or ``2 ends`` (the player is back), made in hand ``index`` after ``after`` actions."""
    head, sep, level = rest.partition(":")
    words = head.split()
    level = level.strip()
    if words[:1] in (["1"], ["2"]):
        if sep and len(words) == 1 and level and level.replace("-", "").isalnum():
            return StandIn(index, after, int(words[0]), level)
        if not sep and words[1:] == [STAND_IN_ENDS]:
            return StandIn(index, after, int(words[0]), None)
    raise RecordError(
        f"{source}:{n}: write a stand-in as '{STAND_IN} 2: LEVEL' (a bot takes the seat) "
        f"or '{STAND_IN} 2 {STAND_IN_ENDS}' (the player is back)"
    )


# The words a record may hold, each with its kind.
_PLAYER_KINDS = {k.value: k for k in PlayerKind}
_MATCH_KINDS = {k.value: k for k in MatchKind}


def parse_record(text: str, source: str = "record", header_only: bool = False) -> RecordData:
    """Read a record's text (no replay yet); raises RecordError naming the line.
    ``header_only`` stops at the first game: whose record it is, not what was played."""
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
    stand_ins: list[tuple[int, StandIn]] = []
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
            if header_only:
                break
            if _int(rest.strip(), source, n, "the game number") != len(games) + 1:
                raise RecordError(f"{source}:{n}: games must be numbered in order")
            games.append([])
            hand = None
        elif key == STAND_IN and games and version >= STAND_IN_VERSION:
            index = len(games[-1]) - 1 if hand is not None else -1
            after = len(hand.actions) if hand is not None else 0
            stand_ins.append((len(games) - 1, _stand_in(rest, index, after, source, n)))
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
        stand_ins=stand_ins,
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
    games = match.games if isinstance(match, Session) else [match]
    for g, change in data.stand_ins:
        games[g].stand_ins.append(change)
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


def load_saved(text: str, source: str = "record") -> tuple[RecordData, Game | Session]:
    """:func:`load` for a save file, whose last line may have been cut short by a kill
    (it lacks its newline): if the record does not load with that line, it loads
    without it."""
    try:
        return load(text, source)
    except RecordError:
        whole = text.rfind("\n") + 1  # where the line cut short begins
        if not text or text.endswith("\n") or not whole:
            raise
        return load(text[:whole], source)
