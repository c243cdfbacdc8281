"""What reaches a member sitting in the club's lobby: offers made to them, games that
became theirs to move or ended, each said once in a line, with the bell where they are
called to act; and the hub that carries it, from this process and from another.

A lobby runs on a scripted screen while the other member acts through the club, as
they would from their own connection: the hub wakes the waiting prompt.  Every test
runs on SQLite and on PostgreSQL (the ``database_url`` fixture)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from clubhouse import START_MS, Clock, joined
from rich.console import Console

from umtali.bots import make_bot
from umtali.club import admin, members
from umtali.club.club import Club
from umtali.club.games import Stored
from umtali.club.hub import Hub
from umtali.club.lobby import Lobby
from umtali.engine.progress import Asked, Deal, Move
from umtali.store.database import Database

NOW = START_MS


#: A step of the script: a line the member types, or what happens elsewhere while
#: their prompt waits (another member's doing); after it, the prompt is answered by
#: the hub's wake if one came, else the member leaves.
Step = str | Callable[[], object]


class _Waiting:
    """A lobby's screen whose member waits at the prompt while the script acts; it
    keeps what it showed, and counts the bells."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = iter(steps)
        self.console = Console(width=120, record=True, color_system=None)
        self.rings = 0
        self.woken = 0
        self._woke: BaseException | None = None

    interactive = True

    def size(self) -> tuple[int, int]:
        return 120, 40

    def table(self, view: object, info: object, note: object = None) -> None:
        self.console.print("(a table)")

    def show(self, renderable: object) -> None:
        self.console.print(renderable)

    def blank(self) -> None:
        pass

    def say(self, message: object) -> None:
        self.console.print(message)

    def page(self, renderable: object, title: str) -> None:
        self.console.print(renderable)

    def wait(self, seconds: float) -> None:
        pass

    def ring(self) -> None:
        self.rings += 1

    def answer(self, answer: BaseException) -> None:
        """The hub's wake (from the club call the script made)."""
        self._woke = answer

    def ask(self, message: str, toolbar: object = None, completer: object = None) -> str:
        self.console.print(message)
        step = next(self.steps, "quit")
        if isinstance(step, str):
            return step
        self._woke = None
        step()
        woke, self._woke = self._woke, None
        if woke is None:
            return "quit"  # nothing woke the prompt: the member gives up
        self.woken += 1
        raise woke

    def text(self) -> str:
        return self.console.export_text(clear=False)


def _lobby(club: Club, hub: Hub, member: members.Member, steps: list[Step]) -> _Waiting:
    screen = _Waiting(steps)
    Lobby(club, club.member(member.id), screen, watch=hub.watch, hear=hub.hear).run()  # type: ignore[arg-type]
    return screen


def _game(club: Club) -> tuple[members.Member, members.Member, Stored]:
    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    offer = club.challenge(ann.id, "Ben", "classic", "game", None)
    return ann, ben, club.accept(ben.id, offer.id)


def _play_until(club: Club, game_id: int, whose: int) -> Stored:
    """Play the game (a normal bot choosing for each member) until it is ``whose``
    turn; nothing is played if it is already."""
    n = 0
    while True:
        stored = club.game(game_id)
        if stored.to_move == whose or stored.over:
            return stored
        progress = stored.progress()
        asked = progress.pending()
        assert asked.player is not None
        if asked.kind is Asked.DEAL:
            decision: Deal | Move = Deal(asked.player if asked.choices else None)
        else:
            hand = progress.hand
            assert hand is not None
            bot = make_bot("normal", n)
            decision = Move(bot.choose(hand.view(asked.player), asked.info).action)
        member = stored.players[asked.player - 1]
        assert member is not None
        club.play(member, game_id, stored.seq, decision)
        n += 1


# ------------------------------------------------------------------ offers


def test_a_challenge_reaches_the_lobby_at_once_with_one_line_and_the_bell(club: Club) -> None:
    """The play-test: Ben's challenge did not reach Ann's idle lobby until she pressed
    Enter."""
    hub = Hub(club)
    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    challenge = lambda: club.challenge(ben.id, "Ann", "classic", "game", 24 * 3600 * 1000)  # noqa: E731
    screen = _lobby(club, hub, ann, [challenge, "quit"])
    assert screen.woken == 1
    assert "Ben challenges you: classic game, 1 day a turn (accept 1 or decline 1)." in (
        screen.text()
    )
    assert screen.rings == 1


def test_a_change_that_wakes_the_lobby_twice_draws_its_page_once(club: Club) -> None:
    """The re-test: the club tells a lobby of a challenge made here at once, and the
    hub's poll tells it again; the second wake redrew the page, which on the full
    screen wiped the line just said after a fraction of a second."""
    hub = Hub(club)
    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    challenge = lambda: club.challenge(ben.id, "Ann", "classic", "game", 24 * 3600 * 1000)  # noqa: E731
    screen = _lobby(club, hub, ann, [challenge, hub.poll, "quit"])
    assert screen.woken == 2
    text = screen.text()
    assert text.count("Ben challenges you") == 1
    assert text.count("Offers") == 1  # the page with the challenge, drawn once
    # After the second wake the prompt is asked again, under the line just said.
    said = "Ben challenges you: classic game, 1 day a turn (accept 1 or decline 1)."
    assert f"{said}\nAnn @ lobby> \nAnn @ lobby> " in text


def test_a_seek_reaches_every_lobby_and_an_offer_declined_reaches_its_maker(club: Club) -> None:
    hub = Hub(club)
    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    seek = lambda: club.challenge(ben.id, None, "family", "game", None)  # noqa: E731
    screen = _lobby(club, hub, ann, [seek, "quit"])
    assert "Ben seeks a game anyone may take: family game, 3 days a turn (accept 1)." in (
        screen.text()
    )
    assert screen.rings == 0  # a seek calls nobody in particular
    mine = club.challenge(ann.id, "Ben", "classic", "session", None)
    declined = lambda: club.refuse(ben.id, mine.id)  # noqa: E731
    withdrawn = lambda: club.refuse(ben.id, 1)  # noqa: E731
    screen = _lobby(club, hub, ann, [declined, withdrawn, "quit"])
    assert screen.woken == 2  # the seek's withdrawal redraws Ann's offers too
    assert f"Ben declined your challenge {mine.id}." in screen.text()
    assert "seeks" not in screen.text() and screen.rings == 0


def test_an_offer_taken_begins_a_game_that_the_maker_s_lobby_tells(club: Club) -> None:
    hub = Hub(club)
    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    offer = club.challenge(ann.id, "Ben", "classic", "game", None)
    taken: list[Stored] = []
    screen = _lobby(club, hub, ann, [lambda: taken.append(club.accept(ben.id, offer.id))])
    game = taken[0]
    mine = game.to_move == ann.id
    begins = f"Ben took your offer: game {game.id} begins"
    assert (begins + (", and it is your turn." if mine else ".")) in screen.text()
    assert screen.rings == (1 if mine else 0)


@pytest.mark.parametrize("what", ["challenge", "accept", "decline"])
def test_the_hub_hears_offers_changed_by_another_process(database_url: str, what: str) -> None:
    db = Database.open(database_url)
    Club.migrate(db, NOW)
    club = Club(db)
    ann, ben, carol = joined(club, "Ann"), joined(club, "Ben"), joined(club, "Carol")
    offer = club.challenge(ann.id, "Ben", "classic", "game", None) if what != "challenge" else None
    hub = Hub(club)
    heard: dict[str, list[int]] = {"Ann": [], "Ben": [], "Carol": []}
    stops = [hub.hear(m.id, heard[m.name].append) for m in (ann, ben, carol)]
    other = Club(Database.open(database_url))  # a second server process
    if offer is None:
        offer = other.challenge(ann.id, "Ben", "classic", "game", None)
    elif what == "accept":
        other.accept(ben.id, offer.id)
    else:
        other.refuse(ben.id, offer.id)
    assert heard == {"Ann": [], "Ben": [], "Carol": []}  # not before the poll
    hub.poll()
    assert heard == {"Ann": [offer.id], "Ben": [offer.id], "Carol": []}
    hub.poll()
    assert heard["Ann"] == [offer.id]  # told once
    seek = other.challenge(carol.id, None, "classic", "game", None)
    hub.poll()
    assert all(told[-1] == seek.id for told in heard.values())  # a seek is everyone's
    for stop in stops:
        stop()
    other.db.close()
    db.close()


# ------------------------------------------------------------------- games


def test_a_resignation_is_told_once_to_the_other_player_and_not_to_the_resigner(
    club: Club,
) -> None:
    hub = Hub(club)
    ann, ben, game = _game(club)
    resign = lambda: club.resign(ben.id, game.id)  # noqa: E731
    screen = _lobby(club, hub, ann, [resign, "", "quit"])
    assert screen.text().count(f"Ben resigned game {game.id}: you win.") == 1
    assert screen.rings == 0
    other = club.practice(ben.id, "easy", "classic", "game")
    screen = _lobby(club, hub, ben, [f"resign {other.id}", "y", "", "quit"])
    assert club.game(other.id).over and "resigned" not in screen.text()


@pytest.mark.parametrize("late", ["Ben", "Ann"])
def test_a_game_lost_on_time_is_told_to_the_player_in_the_lobby(
    club: Club, clock: Clock, late: str
) -> None:
    hub = Hub(club)
    admin.change_setting(club, "timeout", "forfeit")
    ann, ben, game = _game(club)
    game = _play_until(club, game.id, ben.id if late == "Ben" else ann.id)

    def time_runs_out() -> None:
        clock.ms += game.turn_ms + 1
        assert club.sweep() == 1

    screen = _lobby(club, hub, ann, [time_runs_out, "", "quit"])
    told = (
        f"Ben forfeited game {game.id} (time ran out): you win."
        if late == "Ben"
        else f"You forfeited game {game.id} (time ran out): Ben wins."
    )
    assert screen.text().count(told) == 1 and screen.rings == 0


def test_a_game_that_becomes_yours_says_so_and_rings_once_and_your_own_move_is_silent(
    club: Club,
) -> None:
    hub = Hub(club)
    ann, ben, game = _game(club)
    game = _play_until(club, game.id, ben.id)
    bens_turn = lambda: _play_until(club, game.id, ann.id)  # noqa: E731
    screen = _lobby(club, hub, ann, [bens_turn, "", "quit"])
    assert screen.text().count(f"Ben moved in game {game.id}: your turn.") == 1
    assert screen.rings == 1
    # Ann plays her turn herself (as at her table, through the club): no news, no bell.
    anns_turn = lambda: _play_until(club, game.id, ben.id)  # noqa: E731
    screen = _lobby(club, hub, ann, ["", anns_turn, "", "quit"])
    assert "moved in game" not in screen.text() and screen.rings == 0


def test_a_decision_that_leaves_the_page_as_it_was_draws_nothing(club: Club) -> None:
    """Ben's draw, in the middle of his turn, changes nothing Ann's lobby shows: her
    page is not drawn again (a plain screen read it out anew for every decision)."""
    hub = Hub(club)
    ann, ben, game = _game(club)
    game = _play_until(club, game.id, ben.id)
    if game.progress().pending().kind is Asked.DEAL:  # Ben deals: Ann takes the 11th card
        club.play(ben.id, game.id, game.seq, Deal(1))
        game = _play_until(club, game.id, ben.id)
    assert game.progress().pending().kind is Asked.MOVE
    hand = game.progress().hand
    assert hand is not None
    draw = next(a for a in hand.legal_actions() if str(a) == "draw")
    game = club.play(ben.id, game.id, game.seq, Move(draw)).game  # Ann's page: 1* already
    after = game.progress().hand
    assert after is not None
    # A meld goes on Ben's side: his turn goes on, and Ann's page reads as it did.
    meld = next(a for a in after.legal_actions() if not str(a).startswith("discard"))
    one = lambda: club.play(ben.id, game.id, game.seq, Move(meld))  # noqa: E731
    screen = _lobby(club, hub, ann, [one, "quit"])
    assert screen.woken == 1 and club.game(game.id).to_move == ben.id
    assert screen.text().count("Your games") == 1, screen.text()


def test_no_games_in_progress_points_to_the_finished_ones(club: Club) -> None:
    hub = Hub(club)
    ann = joined(club, "Ann")
    screen = _lobby(club, hub, ann, ["quit"])
    assert "No games yet: challenge NAME, seek, or practice." in screen.text()
    game = club.practice(ann.id, "easy", "classic", "game")
    club.resign(ann.id, game.id)
    screen = _lobby(club, hub, ann, ["quit"])
    assert "No games yet" not in screen.text()
    assert "No games in progress: finished lists your 1 finished game;" in screen.text()


# --------------------------------------------------------------- the bell


def test_the_plain_screen_rings_the_bell_after_the_lines_before_it() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.text import Text

    from umtali.club.plain import RemoteLines
    from umtali.ui.theme import Theme

    loop = asyncio.new_event_loop()
    sent: list[str] = []
    try:
        with create_pipe_input() as pipe:
            lines = RemoteLines(loop, sent.append, pipe, DummyOutput(), Theme(), lambda: 80)
            lines.say(Text("Ben moved in game 3: your turn."))
            lines.ring()
            loop.run_until_complete(asyncio.sleep(0))
    finally:
        loop.close()
    assert "".join(sent).endswith("your turn.\r\n\a")


def test_the_full_screen_rings_the_bell_on_its_own_output_from_its_loop() -> None:
    import io

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    from umtali.ui.app import AppScreen
    from umtali.ui.gate import LOCAL, GatedInput
    from umtali.ui.theme import Theme

    written = io.StringIO()
    output = Vt100_Output(written, lambda: Size(rows=24, columns=80), enable_bell=True)
    loop = asyncio.new_event_loop()
    try:
        with GatedInput(lines=LOCAL) as pipe:
            screen = AppScreen(Theme(ascii=True), None, input=pipe, output=output)
            screen.app.loop = loop  # as while the application runs
            screen.ring()
            assert "\a" not in written.getvalue()  # the worker thread writes nothing
            loop.run_until_complete(asyncio.sleep(0))
    finally:
        loop.close()
    assert written.getvalue().count("\a") == 1


def test_a_club_of_the_first_schema_migrates_and_its_open_offer_is_taken(
    database_url: str,
) -> None:
    """A club made before offers were logged (schema 1), with a challenge open: the
    program refuses it until ``umtali serve migrate``, and then the challenge is taken
    as any other, its change logged for the other processes' lobbies."""
    from umtali.club.schema import MIGRATIONS
    from umtali.store.database import DatabaseError

    db = Database.open(database_url)
    try:
        db.migrate(MIGRATIONS[:1], NOW)
        with db.transaction() as tx:
            for name in ("Ann", "Ben"):
                tx.execute(
                    "INSERT INTO members (name, fold, joined_at, last_seen) VALUES (?, ?, ?, ?)",
                    (name, name.lower(), NOW, NOW),
                )
            tx.execute(
                "INSERT INTO offers (from_id, to_id, rules, kind, turn_ms, made_at)"
                " VALUES (1, 2, 'classic', 'game', 86400000, ?)",
                (NOW,),
            )
        with pytest.raises(DatabaseError, match="umtali serve migrate"):
            Club.open(database_url)
        assert Club.migrate(db, NOW) == [2]
    finally:
        db.close()
    club = Club.open(database_url)
    try:
        game = club.accept(2, 1)
        assert set(game.players) == {1, 2}
        with club.db.transaction(read_only=True) as tx:
            assert tx.all("SELECT offer_id, status FROM offer_changes") == [(1, "accepted")]
    finally:
        club.db.close()
