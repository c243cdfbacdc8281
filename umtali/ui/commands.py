"""What the player types at the table: a move, or one of the table's commands.

Moves use the engine's notation, with short aliases: ``d`` draw, ``t`` take,
``t 2`` take two, ``tn`` take next, ``m`` meld, ``p`` play, ``x`` discard, ``e``
end.  A bare card plays it if it can be played (otherwise discards it, in the
discard step); bare cards that form a meld lay it.

Every other word is a table command, and :data:`COMMANDS` is their one registry:
each entry has the command's name and aliases, its row in the help (and the rule
sets that list it), whether Tab offers it, where it may be used, and the function
that answers it (in :mod:`umtali.ui.answers`; ``help``'s is here).  The parser,
the help, the completion and the human seat read nothing else, so a new command
is one entry here and its answer.

>>> [command.name for command in COMMANDS]
['all', 'hint', 'why', 'say', 'undo', 'help', 'table', 'score', 'rules', 'quit', 'resign']
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import KW_ONLY, dataclass
from enum import Enum

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from rich.table import Table
from rich.text import Text

from umtali.bots.forced import forced_action
from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card
from umtali.engine.errors import InvalidNotation
from umtali.engine.kinds import ARITY, WORDS
from umtali.engine.rules import RuleSet
from umtali.engine.view import PlayerView
from umtali.ui import answers
from umtali.ui.answers import Asked, AtTable
from umtali.ui.spoken import SpokenScreen

#: The moves' short words, each standing for the words of its kind of action (``t``
#: is take, and what follows it: ``t 2``, ``t 7H``).
ALIASES: dict[str, ActionKind] = {
    "d": ActionKind.DRAW,
    "t": ActionKind.TAKE,
    "m": ActionKind.MELD,
    "p": ActionKind.PLAY,
    "x": ActionKind.DISCARD,
    "t2": ActionKind.TAKE_TWO,
    "tn": ActionKind.TAKE_NEXT,
    "e": ActionKind.END,
}


def _always(rules: RuleSet) -> bool:
    return True


def _anywhere(view: PlayerView) -> bool:
    return True


def _forced(view: PlayerView) -> bool:
    return forced_action(view) is not None


@dataclass(frozen=True, slots=True)
class HelpRow:
    """One row of the help: what to type, what it does, and the rule sets that list it."""

    what: str
    why: str | Callable[[RuleSet], str]  # the words may depend on the rules
    listed: Callable[[RuleSet], bool] = _always

    def words(self, rules: RuleSet) -> str:
        return self.why if isinstance(self.why, str) else self.why(rules)


def _meld_words(rules: RuleSet) -> str:
    if not rules.jacks_alone:
        return "lay a run or a group (a jack is an ordinary card here)"
    if rules.final_two_run:
        return "lay a run, group or marriage; two cards only to go out"
    return "lay a run, group, marriage, or a pair that takes you out"


#: The help rows of the moves, in the engine's notation (listed before the commands).
MOVE_ROWS = (
    HelpRow("draw  (d)", "take the top card of the stock"),
    HelpRow("take  (t)", "take the top card of the discard pile"),
    HelpRow(
        "take 2  (t 2)",
        "take the top two discards (both must be played this turn)",
        lambda rules: rules.take_two,
    ),
    HelpRow(
        "take next  (tn)",
        "after playing the discard you took, take the next one too",
        lambda rules: rules.take_next,
    ),
    HelpRow(
        "take 7H  (t 7H)",
        "take 7H and every discard above it; 7H must be played",
        lambda rules: rules.take_deep,
    ),
    HelpRow(
        "end  (e)",
        "end your last turn (the cards left in your hand are forfeited)",
        lambda rules: not rules.mandatory_play and rules.last_turn,
    ),
    HelpRow("meld 7S 6S 5S  (m)", _meld_words),
    HelpRow("play JS  (p)", "play one card: a jack, or an addition (... on 10D to choose where)"),
    HelpRow("discard 4C  (x)", "discard and end your turn; add 'down' to go out face down"),
    HelpRow("7S 6S 5S", "cards alone: meld them, or play / discard a single card"),
)


class Where(Enum):
    """Where a table command may be used, at a player's move prompt."""

    ANY = "at any move prompt"
    MOVING = "while the table can be shown"  # it makes moves: refused, as a move is
    HOSTED = "with a player at another terminal"
    AGAINST_BOT = "against a bot"
    PLAIN = "on the plain screen"  # --plain: the table is said only when asked for


@dataclass(frozen=True, slots=True)
class TableCommand:
    """One command of the table, and all that the prompt, help and Tab know of it."""

    name: str
    answer: Callable[[Asked], None]
    _: KW_ONLY
    aliases: tuple[str, ...] = ()
    # Its row in the help; None where another command's row names it too.
    row: HelpRow | None = None
    tab: bool = True  # whether Tab offers it
    tab_when: Callable[[PlayerView], bool] = _anywhere  # and where (it would do something)
    where: Where = Where.ANY
    refusal: str = ""  # said where ``where`` does not hold
    # A command followed by a line of text (``say hello``) says this when the line is
    # missing; a command typed alone has none.
    text_missing: str = ""

    @property
    def words(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def moves(self) -> bool:
        """Whether it makes moves (so it waits, as a move does, for a table to show)."""
        return self.where is Where.MOVING

    def allowed(self, seat: AtTable) -> bool:
        """Whether ``seat`` may use it; else the seat is told :attr:`refusal`."""
        if self.where is Where.HOSTED:
            return seat.chat is not None
        if self.where is Where.AGAINST_BOT:
            return seat.opponent is not None
        if self.where is Where.PLAIN:
            return isinstance(seat.screen, SpokenScreen)
        return True

    def offered(self, seat: AtTable | None) -> bool:
        """Whether help and Tab name it to ``seat`` (None: a seat at the full-screen
        table).  A command for one kind of table (the plain screen, a hosted game) is
        offered at that one only: help never lists what would be refused."""
        if self.where not in (Where.PLAIN, Where.HOSTED):
            return True
        return seat is not None and self.allowed(seat)


def _help(asked: Asked) -> None:
    asked.screen.page(help_page(asked.view, asked.seat), "help")


#: The table's commands, in the order that help lists them and Tab offers them.
COMMANDS: tuple[TableCommand, ...] = (
    TableCommand(
        "all",
        answers.all_forced,
        aliases=("a",),
        row=HelpRow(
            "all  (a)",
            "make every play that is forced (stops at the first real choice)",
            lambda rules: rules.mandatory_play,
        ),
        where=Where.MOVING,
        tab_when=_forced,
    ),
    TableCommand("hint", answers.hint, row=HelpRow("hint", "what the bot would do here, and why")),
    TableCommand(
        "why",
        answers.why,
        row=HelpRow("why", "why the bot made the moves of its last turn"),
        where=Where.AGAINST_BOT,
        refusal="why explains the bot's moves; your opponent is a person.",
    ),
    TableCommand(
        "say",
        answers.say,
        row=HelpRow("say hello", "a line to the other player, when you play at two terminals"),
        tab=False,
        where=Where.HOSTED,
        refusal="say sends a line to a player at another terminal: none here.",
        text_missing="say what? Type say and a line for the other player",
    ),
    TableCommand(
        "undo",
        answers.undo,
        aliases=("u",),
        row=HelpRow("undo  (u)", "take back this turn's moves, up to a stock draw"),
        # Whether it may (against the bot, never past a stock draw) is the loop's to say.
    ),
    TableCommand(
        "help",
        _help,
        aliases=("h", "?"),
        row=HelpRow("score / rules / help", "the scores, the rules, this list"),
    ),
    TableCommand(
        "table",
        answers.table,
        row=HelpRow("table", "the whole table in words: both sides, the stock and the pile"),
        where=Where.PLAIN,
        refusal="The table is on the screen already (table says it in words with --plain).",
    ),
    TableCommand("score", answers.score, aliases=("scores",)),  # listed in help's row
    TableCommand("rules", answers.rules),  # listed in help's row
    TableCommand(
        "quit",
        answers.leave,
        aliases=("q", "exit"),
        row=HelpRow("quit  (q)", "leave the game, saved to resume (asks first)"),
    ),
    TableCommand(
        "resign",
        answers.resign,
        row=HelpRow("resign", "give the game up: it counts as a loss in your record (asks first)"),
    ),
)


def table_command(word: str) -> TableCommand | None:
    """The command that ``word`` names (or is an alias of), if any."""
    word = word.lower()
    return next((c for c in COMMANDS if word in c.words), None)


def leaves(line: str) -> bool:
    """Whether ``line`` is the command that leaves the game (``quit`` or an alias of
    it): every question the game asks honours it, not the move prompt alone."""
    command = table_command(line.strip()) if line.strip() else None
    return command is not None and command.answer is answers.leave


def help_rows(
    rules: RuleSet, offered: Callable[[TableCommand], bool] = lambda command: True
) -> list[tuple[str, str]]:
    """The help list for a rule set: its own moves, then the table's commands (those
    ``offered``)."""
    rows = [*MOVE_ROWS, *(c.row for c in COMMANDS if c.row is not None and offered(c))]
    return [(row.what, row.words(rules)) for row in rows if row.listed(rules)]


def help_page(view: PlayerView, seat: AtTable | None = None) -> Table:
    """The moves and commands of this variant (those for ``seat``'s screen), and what
    is legal now."""
    table = Table(show_header=False, box=None, padding=(0, 2))
    for what, why in help_rows(view.rules, lambda command: command.offered(seat)):
        table.add_row(Text(what, style="bold"), why)
    legal = ", ".join(view.legal_actions) or "nothing: wait for your turn"
    table.add_row("", "")
    table.add_row(Text("Legal now:", style="cyan"), legal)
    return table


# ----------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed line: either an action in notation, or a table command."""

    action: Action | None = None
    meta: str | None = None  # the table command's name
    text: str = ""  # what follows a command that takes a line (``say``)

    @property
    def table(self) -> TableCommand | None:
        """The table command, looked up in the registry."""
        return None if self.meta is None else table_command(self.meta)


def _expand(words: list[str]) -> list[str]:
    """``words`` with an alias at their head replaced by the words it stands for."""
    kind = ALIASES.get(words[0].lower())
    return words if kind is None else [*WORDS[kind], *words[1:]]


# The verbs that begin a move, and those that need cards after them (``take`` alone
# is a move), read off the engine's table of the notation's words.
_VERBS = tuple(dict.fromkeys(words[0] for words in WORDS.values()))
_NEEDS_CARDS = {
    WORDS[kind][0]: kind for kind in (ActionKind.MELD, ActionKind.PLAY, ActionKind.DISCARD)
}
_RANKS = ("10", *"23456789AJQKT")  # what a card's word begins with


def parse_command(text: str, view: PlayerView) -> Command:
    """Read a line typed at the prompt; raises InvalidNotation for nonsense."""
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidNotation("type an action (draw, meld 7S 6S 5S, discard 4C...) or 'help'")
    command = table_command(words[0])
    if command is not None and command.text_missing:
        said = text.strip()[len(words[0]) :].strip()
        if not said:
            raise InvalidNotation(command.text_missing)
        return Command(meta=command.name, text=said)
    if command is not None and len(words) == 1:
        return Command(meta=command.name)
    words = _expand(words)
    verb = words[0].lower()
    if verb in _VERBS:
        if len(words) == 1 and verb in _NEEDS_CARDS:
            raise InvalidNotation(_which_cards(verb, view))
        return Command(action=Action.parse_words(words))
    try:
        cards = [Card.parse(w) for w in words]
    except InvalidNotation as err:
        raise InvalidNotation(_not_a_command(text, words, err)) from None
    if len(cards) > 1:  # read as notation, so a card named twice is refused as one
        return Command(action=Action.parse_words([*WORDS[ActionKind.MELD], *words]))
    card = cards[0]
    play = Action(ActionKind.PLAY, (card,))
    discard = Action(ActionKind.DISCARD, (card,))
    if discard in view.legal and play not in view.legal:
        return Command(action=discard)
    return Command(action=play)


def _which_cards(verb: str, view: PlayerView) -> str:
    """A bare ``meld``, ``play`` or ``discard``: which cards, with the legal ones as examples."""
    kind = _NEEDS_CARDS[verb]
    legal = [str(a) for a in view.legal if a.kind is kind]
    shape = f"{verb} <card>" if kind in ARITY else f"{verb} <cards>"  # a meld's are many
    if not legal:
        return f"{verb} needs its cards ({shape}); none is legal now"
    more = f" and {len(legal) - 4} more" if len(legal) > 4 else ""
    return f"{verb} needs its cards ({shape}): legal now are {', '.join(legal[:4])}{more}"


def _not_a_command(text: str, words: list[str], err: InvalidNotation) -> str:
    """Why a line that is neither a command nor cards is refused: a near-miss of a
    word typed alone (a move or a command), a card mistyped, or nonsense."""
    head = words[0].lower()
    alone = [w for c in COMMANDS if not c.text_missing for w in c.words]
    near = did_you_mean(head, [*_VERBS, *alone])
    if near is not None:
        return f"{text.strip()!r} is not a command: did you mean {near}?"
    bad = next((w for w in words if not _is_card(w)), words[0])
    if bad.upper().startswith(_RANKS) and len(bad) <= 4:
        return str(err)  # a card mistyped: Card.parse names it and says how to write one
    return f"{text.strip()!r} is not a command: try draw, take, meld, play, discard, or help"


def did_you_mean(word: str, known: Iterable[str]) -> str | None:
    """The known word that ``word`` is a slip of the keys from (``discrad``, ``drwa``),
    or None: the one suggester for a word no prompt knows, at the table and in the
    club's lobby, so both forgive the same slips.

    >>> did_you_mean("chalenge", ["challenge", "accept"]), did_you_mean("zzz", ["draw"])
    ('challenge', None)
    """
    near = difflib.get_close_matches(word.lower(), list(known), n=1, cutoff=0.7)
    return near[0] if near else None


def _is_card(word: str) -> bool:
    try:
        Card.parse(word)
    except InvalidNotation:
        return False
    return True


# -------------------------------------------------------------- completion


def completions_for(view: PlayerView, seat: AtTable | None = None) -> list[str]:
    """What Tab offers: exactly the legal actions, then the table commands that would
    do something here (``all`` only where a play is forced; a command for one kind of
    screen only on ``seat``'s, where it is that kind; ``why`` only against a bot)."""
    return [
        *view.legal_actions,
        *(
            c.name
            for c in COMMANDS
            if c.tab
            and c.tab_when(view)
            and c.offered(seat)
            and (seat is None or c.allowed(seat))  # never a command ``seat`` is refused
        ),
    ]


class LegalCompleter(Completer):
    """Completes from the legal actions of the current view (read at each keystroke)."""

    def __init__(
        self, current: Callable[[], PlayerView | None], seat: AtTable | None = None
    ) -> None:
        self._current = current
        self._seat = seat

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        view = self._current()
        if view is None:
            return
        typed = document.text_before_cursor.lower()
        for option in _matching(completions_for(view, self._seat), typed):
            yield Completion(option, start_position=-len(document.text_before_cursor))


def _matching(options: Iterable[str], typed: str) -> list[str]:
    words = typed.split()
    if words and words[0] in ALIASES and (len(words) > 1 or typed.endswith(" ")):
        words = _expand(words)
    prefix = " ".join(words) + (" " if typed.endswith(" ") and words else "")
    return [o for o in options if o.lower().startswith(prefix)]
