"""A match that moves one decision at a time: the one place a game goes forward.

Whoever drives a game (the table at one keyboard, ``umtali host``, a server that keeps
games for days, a tournament) does the same three things: ask :meth:`Progress.pending`
whose decision is due and what is asked, put the question to that seat, and hand the
answer to :meth:`Progress.decide`.  Everything that belongs to the game itself lives
here and nowhere else: the cut for the first deal, the dealer's choice of who takes
the extra card, the deal, the moves, the end of a hand and who deals next, a
session's next game, a bot standing in for a player who left, and what an undo may
take back.

Between any two decisions the progress is its record's text (:meth:`Progress.record`)
and nothing more: :meth:`Progress.load` gives back the same progress, so a driver can
store a game, drop every object, and go on with it days later in another process.

>>> from umtali.engine.record import PlayerInfo, PlayerKind
>>> players = (PlayerInfo(PlayerKind.HUMAN, "Ann"), PlayerInfo(PlayerKind.HUMAN, "Ben"))
>>> progress = Progress(Game(seed=3), players)
>>> asked = progress.pending()
>>> asked.kind, asked.player, asked.choices
(<Asked.DEAL: 'deal'>, 1, (1, 2))
>>> outcome = progress.decide(1, Deal(eleven=1))
>>> again = Progress.load(progress.record())
>>> again.pending() == progress.pending() and again.pending().kind is Asked.MOVE
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from umtali.engine.actions import Action, ActionKind
from umtali.engine.cards import Card
from umtali.engine.errors import IllegalAction
from umtali.engine.events import Event, public_events
from umtali.engine.hand import Hand
from umtali.engine.match import Game, HandResult, Session
from umtali.engine.record import PlayerInfo, format_record, load

#: The viewer a spectator is: they see both sides of the table and neither hand.
SPECTATOR = 0
#: Everyone an outcome is told to: player 1, player 2, and any spectator.
VIEWERS = (1, 2, SPECTATOR)

#: What an undo may take back, said where an undo is refused and in help.
UNDO_RULE = (
    "undo takes back your moves of this turn, but never a draw from the stock (it showed "
    "you a card) nor anything before it, and never your opponent's reply"
)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Public facts about the game around the hand being played."""

    hand_number: int = 1  # 1-based, within the game
    hands_per_game: int = 4
    totals: tuple[int, int] = (0, 0)  # points from the finished hands of this game
    #: Who dealt the hand in play (1 or 2; None where unknown): after a level hand
    #: the same dealer deals again, so the chance of winning the game depends on it.
    dealer: int | None = None

    @property
    def final_hand(self) -> bool:
        """This hand could end the game (the fourth, or a play-on hand).

        A game played to a target (Rummy's) has no known final hand.
        """
        return 0 < self.hands_per_game <= self.hand_number


def game_info(game: Game) -> GameInfo:
    """The public game context for the hand being played (or the next one to deal)."""
    # Results hold the finished hands only, so this is the hand in play (or next).
    return GameInfo(
        hand_number=len(game.results) + 1,
        hands_per_game=game.rules.hands_per_game,
        totals=game.totals,
        dealer=game.dealer,
    )


def hand_infos(game: Game) -> list[GameInfo]:
    """Each dealt hand's place in ``game``: its number, the totals before it, its dealer."""
    out = []
    a = b = 0
    results = game.results
    for n, hand in enumerate(game.hands):
        out.append(GameInfo(n + 1, game.rules.hands_per_game, (a, b), hand.deal.dealer))
        if n < len(results):
            a, b = a + results[n].scores[0], b + results[n].scores[1]
    return out


class Asked(str, Enum):
    """What a pending decision asks for."""

    #: Deal the next hand (the game's first, the next after a hand ended, or a
    #: session's next game's first): the dealer decides, and where the rules deal an
    #: extra card, says who takes it.
    DEAL = "deal"
    #: A move in the hand being played, by the player to move.
    MOVE = "move"
    #: Nothing: the match is over.
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision a match waits for, and everything public that goes with it."""

    kind: Asked
    player: int | None  # who decides; None once the match is over
    game: int  # the game's number in the match, from 1
    info: GameInfo  # the game around the hand being played or dealt
    #: For a deal: who may take the extra card (the dealer chooses), or () where the
    #: rules deal none.
    choices: tuple[int, ...] = ()
    #: For the game's first deal: the cards cut (player 1's, player 2's), if any.
    cut: tuple[Card, Card] | None = None
    #: For a move: every legal action.
    legal: tuple[Action, ...] = ()
    #: The bot that decides for this seat (a bot player's level, or the stand-in's);
    #: None where a person decides.
    bot: str | None = None


# ------------------------------------------------------------------ decisions


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer deals; ``eleven`` is who takes the extra card (None: the dealer)."""

    eleven: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """One move of the hand, as an Action or in notation."""

    action: Action | str


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the player's moves of this turn, as far as :data:`UNDO_RULE` allows."""


Decision = Deal | Move | Undo


class UndoRefused(IllegalAction):
    """An undo that the game does not allow now (the reason is the message)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one decision did; :meth:`news` tells what each viewer newly sees."""

    #: The move as applied (a single play names the card it went on); None for the rest.
    played: Action | None = None
    #: The actions an undo took back, in the order they were made.
    undone: tuple[Action, ...] = ()
    #: The hand this decision ended, if it ended one.
    hand_over: HandResult | None = None
    game_over: bool = False  # the decision ended a game
    match_over: bool = False  # ... and with it the match
    #: The hand the decision was made in (or dealt), and which of its events it made:
    #: the events from ``seen[0]`` up to ``seen[1]``.
    hand: Hand | None = None
    seen: tuple[int, int] = (0, 0)

    def news(self, viewer: int) -> tuple[Event, ...]:
        """The events ``viewer`` (1, 2 or :data:`SPECTATOR`) sees for the first time: a
        deal's first events, a move's own; none for an undo."""
        if self.hand is None:
            return ()
        start, stop = self.seen
        if viewer == SPECTATOR:
            return public_events(self.hand.events(1)[start:stop], 1)
        return self.hand.events(viewer)[start:stop]


def undo_point(actions: Sequence[tuple[int, Action]], player: int) -> int | None:
    """How many actions to keep to take back what ``player`` did this turn without
    unseeing anything: back to the start of the turn, or to just after the turn's draw
    from the stock (the card drawn was seen, and the stock's order with it).  None when
    there is nothing of this turn to take back: the opponent moved last (their reply
    was seen), or the turn so far is only a draw.
    """
    start = len(actions)
    while start and actions[start - 1][0] == player:
        start -= 1
    keep = start
    for i in range(start, len(actions)):
        if actions[i][1].kind is ActionKind.DRAW:
            keep = i + 1
    return keep if keep < len(actions) else None


class Progress:
    """A game or session between two players, moved one decision at a time.

    It holds the match and who sits in each seat, and nothing a driver needs to keep
    between decisions: :meth:`record` and :meth:`load` store and restore it whole.
    :meth:`decide` applies one decision, or raises :class:`IllegalAction` (an
    :class:`UndoRefused` for an undo) with the reason and changes nothing.
    """

    def __init__(
        self,
        match: Game | Session,
        players: tuple[PlayerInfo, PlayerInfo],
        copies: Sequence[str] = (),
    ) -> None:
        self.match = match
        self.players = players
        self.copies = tuple(copies)

    # ------------------------------------------------------------ storing

    @classmethod
    def load(cls, text: str, source: str = "record") -> Progress:
        """The progress a record holds; raises :class:`RecordError` naming the line."""
        data, match = load(text, source)
        return cls(match, data.players, copies=data.copies)

    def record(self) -> str:
        """The record of the match as it stands: everything needed to go on with it."""
        return format_record(self.match, self.players, self.copies)

    # ---------------------------------------------------------- questions

    @property
    def game(self) -> Game:
        """The game being played (a session's latest)."""
        match = self.match
        return match.game if isinstance(match, Session) else match

    @property
    def game_number(self) -> int:
        return len(self.match.games) if isinstance(self.match, Session) else 1

    @property
    def hand(self) -> Hand | None:
        """The hand being played, or the last one dealt; None before the game's first deal."""
        return self.game.hand

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    def bot_for(self, player: int) -> str | None:
        """The level of the bot deciding for ``player``'s seat; None for a person."""
        games = self.match.games if isinstance(self.match, Session) else [self.match]
        changes = [c for game in games for c in game.stand_ins if c.player == player]
        if changes and changes[-1].level is not None:  # the latest change of the seat holds
            return changes[-1].level
        info = self.players[player - 1]
        return info.level if info.is_bot else None

    @property
    def humans(self) -> tuple[bool, bool]:
        """Which seats a person plays now."""
        return (self.bot_for(1) is None, self.bot_for(2) is None)

    @property
    def undo_allowed(self) -> bool:
        """Undo is for practice against the bot, never between two people."""
        return self.humans.count(True) == 1

    def _due(self) -> tuple[Asked, int | None]:
        """What is asked now and of whom, without the rest of :meth:`pending`."""
        game = self.game
        hand = game.hand
        if hand is not None and not hand.is_over:
            return Asked.MOVE, hand.to_move
        if self.match.is_over:
            return Asked.OVER, None
        return Asked.DEAL, game.dealer

    def pending(self) -> Pending:
        """The decision the match waits for."""
        game = self.game
        number = self.game_number
        hand = game.hand
        if hand is not None and not hand.is_over:
            mover = hand.to_move
            assert mover is not None
            return Pending(
                Asked.MOVE,
                mover,
                number,
                game_info(game),
                legal=tuple(hand.legal()),
                bot=self.bot_for(mover),
            )
        if self.match.is_over:
            return Pending(Asked.OVER, None, number, game_info(game))
        if game.is_over:  # a session between games: the next game's dealer deals it
            number += 1
            dealer = game.dealer
            info = GameInfo(1, game.rules.hands_per_game, (0, 0), dealer)
        else:
            dealer = game.dealer
            info = game_info(game)
        choices = () if game.rules.up_card else (1, 2)
        cut = game.cut if number == 1 and not game.hands else None
        return Pending(
            Asked.DEAL, dealer, number, info, choices=choices, cut=cut, bot=self.bot_for(dealer)
        )

    # ------------------------------------------------------------- acting

    def decide(self, player: int, decision: Decision) -> Outcome:
        """Apply ``player``'s decision; raises IllegalAction, changing nothing, if it is
        not that player's to make or not allowed now."""
        kind, due = self._due()
        if due != player:
            if due is None:
                raise IllegalAction("the match is over")
            raise IllegalAction(f"it is player {due}'s decision, not player {player}'s")
        if isinstance(decision, Deal):
            if kind is not Asked.DEAL:
                raise IllegalAction("there is no hand to deal now: a hand is being played")
            return self._deal(decision)
        if kind is not Asked.MOVE:
            raise IllegalAction("no hand is being played: the dealer deals the next one first")
        if isinstance(decision, Undo):
            return self._undo(player)
        return self._move(player, decision)

    def stand_in(self, player: int, level: str | None) -> None:
        """A bot of ``level`` plays ``player``'s seat from now on (the player left), or
        with None, the player is back in it.  The record says where it happened; a
        seat already played as asked is left as it is."""
        if player in (1, 2) and self.bot_for(player) == (level or self._own_level(player)):
            return
        self.game.stand_in(player, level)

    def _own_level(self, player: int) -> str | None:
        """The level of a bot player; None for a person."""
        info = self.players[player - 1]
        return info.level if info.is_bot else None

    # ------------------------------------------------------------ the steps

    def _deal(self, decision: Deal) -> Outcome:
        eleven = decision.eleven
        if eleven is not None and eleven not in (1, 2):
            raise IllegalAction(f"player 1 or 2 takes the extra card, not {eleven!r}")
        match = self.match
        if isinstance(match, Session) and match.game.is_over:
            match.next_game()
        game = self.game
        if game.rules.up_card:
            hand = game.next_hand()
        else:
            hand = game.next_hand(eleven=game.dealer if eleven is None else eleven)
        return Outcome(hand=hand, seen=(0, _count(hand)))

    def _move(self, player: int, decision: Move) -> Outcome:
        hand = self.hand
        assert hand is not None
        before = _count(hand)
        played = hand.play(decision.action)
        seen = (before, _count(hand))
        if not hand.is_over:
            return Outcome(played, hand=hand, seen=seen)
        game = self.game
        return Outcome(
            played,
            hand_over=game.results[-1],
            game_over=game.is_over,
            match_over=self.match.is_over,
            hand=hand,
            seen=seen,
        )

    def _undo(self, player: int) -> Outcome:
        if not self.undo_allowed:
            raise UndoRefused("undo is for games against the bot only.")
        hand = self.hand
        assert hand is not None
        actions = [(e.player, e.action) for e in hand.events() if e.action is not None]
        keep = undo_point(actions, player)
        if keep is None:
            raise UndoRefused(f"There is nothing to undo: {UNDO_RULE}.")
        self.game.rewind(keep)
        return Outcome(undone=tuple(a for _, a in actions[keep:]))


def _count(hand: Hand) -> int:
    """How many events ``hand`` has made so far (the same for every viewer)."""
    return len(hand.events(1))


__all__ = [
    "SPECTATOR",
    "UNDO_RULE",
    "VIEWERS",
    "Asked",
    "Deal",
    "Decision",
    "GameInfo",
    "Move",
    "Outcome",
    "Pending",
    "Progress",
    "Undo",
    "UndoRefused",
    "game_info",
    "hand_infos",
    "undo_point",
]
