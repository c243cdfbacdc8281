"""The lobby: what a member meets on connecting, and where every club command lives.

The page shows the member's games (those waiting for them first, a bell where a move
came since they last looked), the challenges they received and sent, the open seeks,
and their own rating; the prompt under it takes a command from :data:`COMMANDS`, the
one list that help and completion read.  A game that moves while the member sits in
the lobby rings the bell at once (the hub wakes the prompt), and an offer made to
them or by them, or a seek, is shown at once too; what came to them is said in one
line each (:mod:`umtali.club.heard`), and the terminal's bell rings where they are
called to act.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from prompt_toolkit.completion import WordCompleter
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.bots.levels import names as level_names
from umtali.club import games, members, offers
from umtali.club.club import Club
from umtali.club.games import ClubGameError, Stored
from umtali.club.heard import Glance, heard
from umtali.club.hub import ANY_GAME, Address, Hub
from umtali.club.members import Member, MemberError
from umtali.club.settings import TURN_TIMES, turn_time, turn_words
from umtali.club.table import Changed, Sitting, Watch
from umtali.engine.errors import UmtaliError
from umtali.engine.rules import PRESETS
from umtali.store.database import Transaction
from umtali.ui.commands import did_you_mean
from umtali.ui.screen import Screen
from umtali.ui.text import as_sentence, visible
from umtali.ui.theme import DEFAULT_THEME, Theme

#: The mark beside a game that moved since the member last looked.
BELL = "*"


class Leave(Exception):
    """The member leaves the club (quit)."""


@runtime_checkable
class _Parting(Protocol):
    """A remote screen, whose client is told one last line after it closes."""

    parting: str | None


@dataclass(frozen=True, slots=True)
class LobbyCommand:
    name: str
    args: str
    about: str
    run: Callable[[Lobby, list[str]], None]


@dataclass
class Lobby:
    """One member's lobby on one connection."""

    club: Club
    member: Member
    screen: Screen
    fingerprint: str = ""
    watch: Watch | None = None
    theme: Theme = DEFAULT_THEME
    hear: Watch | None = None  # the hub's: offers to or by a member, and seeks
    address: Address | None = None  # where the server listens, if one does
    plain: bool = False  # the member asked for the plain screen (the way back says so)
    _waiting: bool = False
    _glance: Glance | None = None  # what the page showed last
    _mine: frozenset[int] = frozenset()  # the member's games, as the page last showed
    _offering = False  # whether the member has offers out (a new game may be theirs)

    def run(self) -> None:
        """The lobby until the member quits (or the connection ends)."""
        unwatch = self._watch_mine()
        self.screen.say(Text(self._greeting(), "bold"))
        woken = False
        drawn = ""  # the page last drawn, as text
        try:
            while True:
                before = self._glance
                page = self.page()
                # One change may wake the lobby more than once (its game's watch, its
                # offer's, another process's poll), and a game's every decision wakes
                # it: a wake that leaves the page reading as it did draws nothing, so
                # the lines just said stay on the screen, and a plain screen is not read
                # the same page again.  What concerns the member shows on the page.
                text = _as_text(page, self.screen.size()[0])
                if not woken or text != drawn:
                    self.screen.show(page)
                    self._tell(before)
                    drawn = text
                woken = False
                try:
                    self._waiting = True
                    line = self.screen.ask(
                        f"{visible(self.member.name)} @ lobby> ", completer=_COMPLETER
                    )
                except Changed:
                    woken = True
                    continue
                except KeyboardInterrupt:
                    self._farewell()
                    return
                except EOFError:
                    return  # the connection went (or the server ended it): none to tell
                finally:
                    self._waiting = False
                try:
                    self.command(line)
                except Leave:
                    self._farewell()
                    return
                except (UmtaliError, ValueError) as err:
                    self.screen.say(Text(as_sentence(str(err)), "red"))
        finally:
            unwatch()

    def _farewell(self) -> None:
        """Goodbye, with what waits and the way back: the last line the member's
        terminal keeps, after the session's screen is gone (said, on a screen without
        such a line)."""
        with self.club.db.transaction(read_only=True) as tx:
            waiting = len(games.games_of(tx, self.member.id))
        if waiting:
            said = f"Your {waiting} games wait" if waiting != 1 else "Your game waits"
            words = f"{said} for you" + ("; " if self.address is not None else ".")
        else:
            words = "Goodbye" + (": " if self.address is not None else ".")
        if self.address is not None:
            words += f"{self.address.ssh(plain=self.plain)} brings you back."
        if isinstance(self.screen, _Parting):
            self.screen.parting = words
        else:
            self.screen.say(Text(words))

    def _watch_mine(self) -> Callable[[], None]:
        """Be woken when any of the member's games changes (the bell)."""
        if self.watch is None:
            return lambda: None

        def wake(game_id: int) -> None:
            answer = getattr(self.screen, "answer", None)
            # A game of the member's moved, or a game began that may be their offer's.
            newest = max(self._mine, default=0)
            ours = game_id in self._mine or (self._offering and game_id > newest)
            if answer is not None and self._waiting and ours:
                answer(Changed())

        def offered(offer_id: int) -> None:
            answer = getattr(self.screen, "answer", None)
            if answer is not None and self._waiting:
                answer(Changed())

        unwatch = self.watch(ANY_GAME, wake)
        unhear = self.hear(self.member.id, offered) if self.hear is not None else None

        def stop() -> None:
            unwatch()
            if unhear is not None:
                unhear()

        return stop

    def _tell(self, before: Glance | None) -> None:
        """Say what came to the member since the page was last drawn, and ring the
        bell once if any of it calls them to act.  The bell goes on the plain screen
        too: a terminal sounds (or flashes) BEL and draws no character, so a screen
        reader has nothing to read out, and a member who cannot see the page's ``*``
        is the one a sound helps most."""
        if before is None or self._glance is None:
            return  # the first page: the greeting says what waits
        with self.club.db.transaction(read_only=True) as tx:
            news = heard(tx, self.member.id, before, self._glance)
        for item in news:
            self.screen.say(Text(item.line, "yellow"))
        ring = getattr(self.screen, "ring", None)
        if ring is not None and any(item.ring for item in news):
            ring()

    def _greeting(self) -> str:
        with self.club.db.transaction(read_only=True) as tx:
            waiting = games.waiting_for(tx, self.member.id)
            name = _club_name(tx)
        hello = f"Welcome to {name}, {visible(self.member.name)}."
        if waiting:
            return f"{hello} It is your turn in {waiting} game{'s' if waiting != 1 else ''}."
        return hello

    # -------------------------------------------------------------- page

    def page(self) -> RenderableType:
        """The lobby as it stands for this member."""
        club = self.club
        me = self.member.id
        with club.db.transaction(read_only=True) as tx:
            member = members.get(tx, me)
            mine = games.games_of(tx, me)
            bells = games.unseen_games(tx, me)
            got = offers.received(tx, me)
            made = offers.sent(tx, me)
            seeks = [s for s in offers.seeks(tx) if s.from_id != me]
            names = {m.id: m.name for m in members.everyone(tx, removed=True)}
            record = _won_lost(tx, me)
            finished = _finished_count(tx, me) if not mine else 0
        self.member = member
        self._mine = frozenset(g.id for g in mine)
        self._glance = Glance(
            {g.id: g for g in mine}, {o.id: o for o in [*got, *made, *seeks]}, frozenset(bells),
            names,
        )  # fmt: skip
        self._offering = bool(made)
        now = club.now()
        mine.sort(key=lambda g: (g.to_move != me, g.deadline or 0))
        parts: list[RenderableType] = []
        away = " · on holiday (clocks stopped)" if member.away else ""
        parts.append(Text(f"{visible(member.name)} · {record} · {_rating(member)}{away}", "bold"))
        if mine:
            table = Table(title="Your games", title_justify="left", box=None, pad_edge=False)
            for column in ("#", "against", "variant", "hand", "totals", "turn", "left"):
                table.add_column(column)
            for game in mine:
                table.add_row(*self._game_row(game, names, bells, now))
            parts.append(table)
        elif finished:
            games_word = "game" if finished == 1 else "games"
            parts.append(Text(f"No games in progress: finished lists your {finished} finished "
                              f"{games_word}; challenge NAME, seek, or practice for a new one.",
                              "dim"))  # fmt: skip
        else:
            parts.append(Text("No games yet: challenge NAME, seek, or practice.", "dim"))
        if got or made or seeks:
            table = Table(title="Offers", title_justify="left", box=None, pad_edge=False)
            for column in ("#", "from", "to", "variant", "turn time"):
                table.add_column(column)
            for offer in [*got, *made, *seeks]:
                table.add_row(
                    str(offer.id),
                    visible(names.get(offer.from_id, "?")),
                    visible(names.get(offer.to_id, "?")) if offer.to_id else "anyone",
                    f"{offer.rules} {offer.kind}",
                    turn_words(offer.turn_ms),
                )
            parts.append(table)
        parts.append(Text("open N · challenge NAME · seek · accept N · practice · help", "dim"))
        return Group(*parts)

    def _game_row(self, game: Stored, names: dict[int, str], bells: set[int],
                  now: int) -> tuple[str, ...]:  # fmt: skip
        me = self.member.id
        seat = game.seat_of(me) or 1
        other = game.players[2 - seat]
        against = visible(names.get(other, "?")) if other is not None else f"{game.bot} bot"
        progress = game.progress()
        info = progress.pending().info
        mine, theirs = info.totals[seat - 1], info.totals[2 - seat]
        if game.to_move == me:
            turn = "yours"
        elif game.to_move is None:
            turn = "bot"
        else:
            turn = "theirs"
        left = _short_left(game.deadline - now) if game.deadline is not None else ""
        bell = BELL if game.id in bells else ""
        return (f"{game.id}{bell}", against, game.rules, f"{info.hand_number}",
                f"{mine}-{theirs}", turn, left)  # fmt: skip

    # ---------------------------------------------------------- commands

    def command(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        if words[0].isdigit():
            words = ["open", *words]
        found = _BY_NAME.get(words[0].lower())
        if found is None:
            near = did_you_mean(words[0], _BY_NAME)
            hint = f"did you mean {near}?" if near is not None else "type help."
            raise MemberError(f"'{visible(words[0])}' is not a lobby command: {hint}")
        found.run(self, words[1:])

    def open_game(self, game_id: int, spectator: bool = False) -> None:
        Sitting(self.club, self.member, self.screen, game_id, self.watch, self.theme,
                spectator).run()  # fmt: skip


# ------------------------------------------------------------- commands


def _id(args: list[str], what: str) -> int:
    if not args or not args[0].lstrip("#").isdigit():
        raise MemberError(f"Say which {what}: its number.")
    return int(args[0].lstrip("#"))


def _terms(lobby: Lobby, args: list[str]) -> tuple[str, str, int | None]:
    """Variant, game or session, and turn time from words in any order.  A word that is
    none of them is told the club's own variants and the turn times allowed, each read
    from its one registry (the club's settings, :data:`TURN_TIMES`)."""
    rules, kind, turn = "classic", "game", None
    for word in args:
        low = word.lower()
        if low in PRESETS:
            rules = low  # one the club does not play is refused with the club's list
        elif low in ("game", "session"):
            kind = low
        elif low[:1].isdigit():
            turn = turn_time(low)  # a time not allowed: its error names those that are
        else:
            variants = ", ".join(lobby.club.settings().variants)
            raise MemberError(
                f"'{visible(word)}' is not a variant this club plays ({variants}), game or "
                f"session, or a turn time ({', '.join(TURN_TIMES)})."
            )
    return rules, kind, turn


def _open(lobby: Lobby, args: list[str]) -> None:
    game_id = _id(args, "game")
    stored = lobby.club.game(game_id)
    if stored.seat_of(lobby.member.id) is None:
        raise ClubGameError(f"You do not play in game {game_id}: watch {game_id} to watch it.")
    lobby.open_game(game_id)


def _watch(lobby: Lobby, args: list[str]) -> None:
    if not args:
        _list_playing(lobby)
        return
    game_id = _id(args, "game")
    if not lobby.club.settings().spectators:
        raise ClubGameError("This club does not allow watching games.")
    stored = lobby.club.game(game_id)
    if stored.over:
        raise ClubGameError(f"Game {game_id} is over: replay {game_id} shows it.")
    lobby.open_game(game_id, spectator=stored.seat_of(lobby.member.id) is None)


def _list_playing(lobby: Lobby) -> None:
    with lobby.club.db.transaction(read_only=True) as tx:
        now_playing = games.playing(tx)
        names = {m.id: m.name for m in members.everyone(tx, removed=True)}
    table = Table(title="Games being played (watch N)", title_justify="left", box=None)
    for column in ("#", "players", "variant", "moves"):
        table.add_column(column)
    for game in now_playing:
        who = [visible(names[p]) if p is not None else f"{game.bot} bot" for p in game.players]
        table.add_row(str(game.id), " v ".join(who), game.rules, str(game.seq))
    lobby.screen.page(table, "games being played")


def _challenge(lobby: Lobby, args: list[str]) -> None:
    if not args:
        raise MemberError("Say whom: challenge NAME [variant] [game|session] [turn time].")
    rules, kind, turn = _terms(lobby, args[1:])
    offer = lobby.club.challenge(lobby.member.id, args[0], rules, kind, turn)
    lobby.screen.say(Text(f"Challenge {offer.id} sent: {rules} {kind}, "
                          f"{turn_words(offer.turn_ms)} a turn."))  # fmt: skip


def _seek(lobby: Lobby, args: list[str]) -> None:
    rules, kind, turn = _terms(lobby, args)
    offer = lobby.club.challenge(lobby.member.id, None, rules, kind, turn)
    lobby.screen.say(Text(f"Seek {offer.id} is open to anyone: {rules} {kind}."))


def _accept(lobby: Lobby, args: list[str]) -> None:
    game = lobby.club.accept(lobby.member.id, _id(args, "offer"))
    lobby.screen.say(Text(f"Game {game.id} begins: open {game.id} to play."))


def _decline(lobby: Lobby, args: list[str]) -> None:
    offer = lobby.club.refuse(lobby.member.id, _id(args, "offer"))
    lobby.screen.say(Text(f"Offer {offer.id} {offer.status}."))


def _practice(lobby: Lobby, args: list[str]) -> None:
    levels = level_names()
    level = next((a.lower() for a in args if a.lower() in levels), "normal")
    rules, kind, _ = _terms(lobby, [a for a in args if a.lower() not in levels])
    game = lobby.club.practice(lobby.member.id, level, rules, kind)
    lobby.open_game(game.id)


def _resign(lobby: Lobby, args: list[str]) -> None:
    from umtali.ui.screen import ask_yes

    game_id = _id(args, "game")
    if ask_yes(lobby.screen, f"Resign game {game_id}? It counts as lost."):
        lobby.club.resign(lobby.member.id, game_id)


def _finished(lobby: Lobby, args: list[str]) -> None:
    with lobby.club.db.transaction(read_only=True) as tx:
        done = games.games_of(tx, lobby.member.id, over=True)
        names = {m.id: m.name for m in members.everyone(tx, removed=True)}
    table = Table(title="Your finished games (replay N, review N)", title_justify="left", box=None)
    for column in ("#", "against", "variant", "result", "how"):
        table.add_column(column)
    for game in done:
        seat = game.seat_of(lobby.member.id) or 1
        other = game.players[2 - seat]
        against = visible(names.get(other, "?")) if other is not None else f"{game.bot} bot"
        result = "won" if game.winner == seat else "lost"
        table.add_row(str(game.id), against, game.rules, result, game.ending or "")
    lobby.screen.page(table, "finished games")


def _ladder(lobby: Lobby, args: list[str]) -> None:
    with lobby.club.db.transaction(read_only=True) as tx:
        everyone = members.everyone(tx)
    # The rated by their rating; those not rated yet after them, with no place.
    ranked = sorted(everyone, key=lambda m: (not m.rated, -(m.mu - 3 * m.sigma)))
    table = Table(title="The club's ladder (club games only)", title_justify="left", box=None)
    for column in ("", "member", "rating", "games", "last seen"):
        table.add_column(column)
    for place, m in enumerate(ranked, start=1):
        table.add_row(str(place) if m.rated else "", visible(m.name), _rating(m, alone=True),
                      str(m.rated), _ago(lobby.club.now() - m.last_seen))  # fmt: skip
    lobby.screen.page(table, "ladder")


def _review(lobby: Lobby, args: list[str]) -> None:
    stored = _finished_game(lobby, args)
    seat = stored.seat_of(lobby.member.id) or 1
    from rich.console import Group

    from umtali.review.analysis import analyse_match
    from umtali.review.board_view import graph_numbers
    from umtali.ui.coaching import render_review
    from umtali.ui.retry import retry_by_number

    progress = stored.progress()
    lobby.screen.say(Text("The coach is weighing the game's decisions...", "dim"))
    names = (visible(progress.players[0].name), visible(progress.players[1].name))
    # Both players' decisions, numbered across the game, as ``umtali review --plain``
    # shows them; one prompt under them takes a number to try that decision again.
    analysis = analyse_match(progress.match, names, resigned=stored.resigned)
    hands, numbers = analysis.reviewed(seat)
    theme = lobby.theme
    review = render_review(hands, names[seat - 1], theme, retry=True, numbers=numbers)
    page = Group(*graph_numbers(analysis, seat, theme), Text(""), review)
    verdicts = [d.verdict for d in analysis.decisions]
    voices = [analysis.voice(d, seat) for d in analysis.decisions]
    title = f"review of game {stored.id}"
    retry_by_number(lobby.screen, verdicts, names, voices, theme, (page, title))


def _replay(lobby: Lobby, args: list[str]) -> None:
    stored = _finished_game(lobby, args)
    from umtali.ui.replay import ReplayViewer

    progress = stored.progress()
    viewer = ReplayViewer(
        progress.match, progress.players, lobby.screen, lobby.theme, stored.resigned
    )
    for line in viewer.run():
        lobby.screen.say(Text(line))


def _finished_game(lobby: Lobby, args: list[str]) -> Stored:
    stored = lobby.club.game(_id(args, "game"))
    if not stored.over:
        raise ClubGameError(f"Game {stored.id} is not over yet: its cards are still hidden.")
    if stored.seat_of(lobby.member.id) is None:
        raise ClubGameError(f"Game {stored.id} is not yours.")
    return stored


def _keys(lobby: Lobby, args: list[str]) -> None:
    club = lobby.club
    me = lobby.member.id
    if args and args[0] == "add":
        from umtali.club.keys import parse_public_key

        fingerprint, text = parse_public_key(" ".join(args[1:]))
        with club.db.transaction() as tx:
            members.add_key(tx, me, fingerprint, text, club.now())
        lobby.screen.say(Text(f"Key {fingerprint} added."))
        return
    if args and args[0] == "remove":
        key_id = _id(args[1:], "key")
        with club.db.transaction() as tx:
            members.remove_key(tx, me, key_id, lobby.fingerprint)
        lobby.screen.say(Text(f"Key {key_id} removed."))
        return
    with club.db.transaction() as tx:
        keys = members.keys_of(tx, me)
    table = Table(title="Your keys (keys add KEY · keys remove N)", title_justify="left", box=None)
    for column in ("#", "fingerprint", ""):
        table.add_column(column)
    for key in keys:
        here = "this connection" if key.fingerprint == lobby.fingerprint else ""
        table.add_row(str(key.id), key.fingerprint, here)
    lobby.screen.page(table, "keys")


def _holiday(lobby: Lobby, args: list[str]) -> None:
    on = not args or args[0].lower() in ("on", "start", "yes")
    until = lobby.club.away(lobby.member.id, on)
    if on:
        days = (until - lobby.club.now()) // (24 * 3600 * 1000)
        lobby.screen.say(Text(f"On holiday: your clocks are stopped (at most {days} days)."))
    else:
        lobby.screen.say(Text("Welcome back: your clocks run again, with the time you were away."))


def _share(lobby: Lobby, args: list[str]) -> None:
    on = not args or args[0].lower() in ("on", "yes")
    with lobby.club.db.transaction() as tx:
        members.set_sharing(tx, lobby.member.id, on)
    lobby.screen.say(Text(
        "Your finished games may go into the club's data set for research."
        if on else "Your games stay out of the club's data set."
    ))  # fmt: skip


def _admin(lobby: Lobby, args: list[str]) -> None:
    """The admin's work from a session: members, invites, the club's settings."""
    from umtali.club import admin

    club = lobby.club
    if not club.member(lobby.member.id).admin:
        raise MemberError("Only the club's admins may do that.")
    word = args[0].lower() if args else "help"
    rest = args[1:]
    if word == "members":
        table = Table(title="Members", title_justify="left", box=None)
        for column in ("name", "admin", "status", "games", "rating", "last seen"):
            table.add_column(column)
        for row in admin.member_list(club):
            table.add_row(visible(row.name), "yes" if row.admin else "", row.status.value,
                          str(row.games), row.rating_words,
                          _ago(club.now() - row.last_seen))  # fmt: skip
        lobby.screen.page(table, "members")
    elif word == "invite":
        invite = admin.make_invite(club, admin=rest[:1] == ["admin"], by=lobby.member.id)
        # The server knows where it listens; a lobby without one says the parts to fill in.
        join = (
            lobby.address.ssh(invite.code) if lobby.address else f"ssh -p PORT {invite.code}@HOST"
        )
        lobby.screen.say(Text(f"Invite code {invite.code}: good for one newcomer for a week "
                              f"({join})."))  # fmt: skip
    elif word == "invites":
        codes = ", ".join(i.code for i in admin.open_invites(club)) or "none"
        lobby.screen.say(Text(f"Open invites: {codes}."))
    elif word == "uninvite" and rest:
        admin.revoke_invite(club, rest[0])
        lobby.screen.say(Text(f"Invite {visible(rest[0])} is revoked."))
    elif word == "rename" and len(rest) == 2:
        member = admin.rename(club, rest[0], rest[1])
        lobby.screen.say(Text(f"{visible(rest[0])} is now called {visible(member.name)}."))
    elif word in admin.MEMBER_ACTIONS and len(rest) == 1:
        act, said = admin.MEMBER_ACTIONS[word]
        member = act(club, rest[0])
        lobby.screen.say(Text(f"{visible(member.name)} {said}."))
    elif word == "settings":
        current = admin.change_setting(club, rest[0], " ".join(rest[1:])) if len(rest) > 1 \
            else admin.show_settings(club)  # fmt: skip
        lobby.screen.say(Text(
            f"name: {current.name} · variants: {' '.join(current.variants)} · turn time: "
            f"{turn_words(current.turn_ms)} · timeout: {current.timeout.value} · spectators: "
            f"{'yes' if current.spectators else 'no'}"
        ))  # fmt: skip
    else:
        actions = "|".join(admin.MEMBER_ACTIONS)
        lobby.screen.say(Text(
            f"admin members · admin invite [admin] · admin invites · admin uninvite CODE · "
            f"admin rename NAME NEW · admin {actions} NAME · admin settings [KEY VALUE]"
        ))  # fmt: skip


def _help(lobby: Lobby, args: list[str]) -> None:
    table = Table(title="Lobby commands", title_justify="left", box=None)
    table.add_column("command", no_wrap=True)  # each form whole: the words wrap instead
    table.add_column("what it does")
    for command in COMMANDS:
        # Text, not markup: a string cell would take "[variant]" for a style tag.
        table.add_row(Text(f"{command.name} {command.args}".strip()), Text(command.about))
    variants = " ".join(lobby.club.settings().variants)
    choices = Text(f"variant: {variants} · turn time: {' '.join(TURN_TIMES)}", "dim")
    lobby.screen.page(Group(table, choices), "help")


def _quit(lobby: Lobby, args: list[str]) -> None:
    raise Leave()


#: Every lobby command, in the order help lists them.
COMMANDS: tuple[LobbyCommand, ...] = (
    LobbyCommand("open", "N", "open your game N (or type its number)", _open),
    LobbyCommand("challenge", "NAME [variant] [game|session] [turn time]",
                 "challenge a member", _challenge),
    LobbyCommand("seek", "[variant] [game|session] [turn time]", "an offer anyone may take",
                 _seek),
    LobbyCommand("accept", "N", "take a challenge or a seek", _accept),
    LobbyCommand("decline", "N", "decline a challenge, or withdraw your own offer", _decline),
    LobbyCommand("practice", "[level] [variant] [game|session]",
                 f"a game against a bot ({', '.join(level_names())})", _practice),
    LobbyCommand("watch", "[N]", "games being played, or watch game N (public cards)", _watch),
    LobbyCommand("resign", "N", "give up game N", _resign),
    LobbyCommand("finished", "", "your finished games", _finished),
    LobbyCommand("replay", "N", "step through a finished game", _replay),
    LobbyCommand("review", "N", "the coach's review of a finished game", _review),
    LobbyCommand("ladder", "", "the club's ratings", _ladder),
    LobbyCommand("keys", "[add KEY | remove N]", "the SSH keys that are you", _keys),
    LobbyCommand("holiday", "on|off", "stop your clocks (30 days a year)", _holiday),
    LobbyCommand("share", "on|off", "let your finished games into the club's data set", _share),
    LobbyCommand("admin", "...", "the club's members, invites and settings (admins)", _admin),
    LobbyCommand("help", "", "this list", _help),
    LobbyCommand("quit", "", "leave the club (your games wait)", _quit),
)  # fmt: skip
_BY_NAME = {c.name: c for c in COMMANDS}
_COMPLETER = WordCompleter([c.name for c in COMMANDS])


# --------------------------------------------------------------- words


def _club_name(tx: Transaction) -> str:
    from umtali.club import settings

    return settings.load(tx).name


def _won_lost(tx: Transaction, member_id: int) -> str:
    """A member's club record: games won and lost against members (practice apart)."""
    row = tx.one(
        "SELECT SUM(CASE WHEN (player1 = ? AND winner = 1) OR (player2 = ? AND winner = 2)"
        " THEN 1 ELSE 0 END), COUNT(*) FROM games WHERE status = 'over'"
        " AND player1 IS NOT NULL AND player2 IS NOT NULL AND (player1 = ? OR player2 = ?)",
        (member_id, member_id, member_id, member_id),
    )
    won, played = (int(row[0] or 0), int(row[1] or 0)) if row else (0, 0)
    return f"won {won}, lost {played - won}"


def _finished_count(tx: Transaction, member_id: int) -> int:
    """How many of the member's games are over (practice games too, as finished lists)."""
    row = tx.one(
        "SELECT COUNT(*) FROM games WHERE status = 'over' AND (player1 = ? OR player2 = ?)",
        (member_id, member_id),
    )
    return int(row[0]) if row else 0


def _rating(member: Member, alone: bool = False) -> str:
    """A member's club rating (openskill's conservative mu - 3 sigma), or that there is
    none yet: the lobby's line says it in full, the ladder's column ``alone`` (the number
    only).  Before a first club game the sum is 0.0, a number that was never earned."""
    if not member.rated:
        return "not rated yet" if alone else "not rated yet: play a club game"
    rating = f"{member.mu - 3 * member.sigma:.1f}"
    if alone:
        return rating
    games_word = "game" if member.rated == 1 else "games"
    return f"rating {rating} after {member.rated} {games_word}"


def _as_text(page: RenderableType, width: int) -> str:
    """``page`` as the words a screen ``width`` wide shows (no colour): what a wake
    compares to know whether the page changed for its reader."""
    out = io.StringIO()
    Console(width=width, file=out, color_system=None).print(page)
    return out.getvalue()


def _short_left(ms: int) -> str:
    if ms <= 0:
        return "now"
    hours = ms // 3_600_000
    if hours >= 48:
        return f"{hours // 24}d"
    if hours >= 1:
        return f"{hours}h"
    return f"{max(1, ms // 60_000)}m"


def _ago(ms: int) -> str:
    return "now" if ms < 3_600_000 else f"{_short_left(ms)} ago"


def run_member(club: Club, hub: Hub, member: Member, screen: Screen, fingerprint: str,
               plain: bool = False) -> None:  # fmt: skip
    """A member's connection: the lobby until they quit."""
    Lobby(
        club,
        member,
        screen,
        fingerprint,
        hub.watch,
        hear=hub.hear,
        address=hub.address,
        plain=plain,
    ).run()


__all__ = ["BELL", "COMMANDS", "Lobby", "LobbyCommand", "run_member"]
