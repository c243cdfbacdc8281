"""The club's store and rules of play: members, games moved one stored decision at a
time, races between drivers, time, holidays, news and what each seat may see.

Every test runs on SQLite and on a real PostgreSQL (the ``database_url`` fixture)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import pytest
from clubhouse import Clock, joined
from rich.console import Console

from umtali.bots import make_bot
from umtali.club import games, members
from umtali.club.club import Club, Notice
from umtali.club.games import Stale
from umtali.club.members import MemberError
from umtali.club.settings import DAY, HOUR, TIMEOUTS_MOST
from umtali.engine.actions import Action, ActionKind
from umtali.engine.errors import IllegalAction
from umtali.engine.progress import SPECTATOR, Asked, Deal, Decision, Move


def _pair(club: Club, **terms: object) -> tuple[members.Member, members.Member, games.Stored]:
    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    offer = club.challenge(ann.id, "Ben", str(terms.get("rules", "classic")), "game", None)
    return ann, ben, club.accept(ben.id, offer.id)


def _choice(stored: games.Stored, n: int) -> tuple[int, Decision]:
    """What a member would decide now (a normal bot chooses for them)."""
    progress = stored.progress()
    asked = progress.pending()
    assert asked.player is not None
    if asked.kind is Asked.DEAL:
        return asked.player, Deal(asked.player if asked.choices else None)
    hand = progress.hand
    assert hand is not None
    bot = make_bot("normal", n)
    return asked.player, Move(bot.choose(hand.view(asked.player), asked.info).action)


# ---------------------------------------------------------------- members


def test_a_newcomer_joins_with_a_code_once_and_is_known_by_their_key_after(club: Club) -> None:
    with club.db.transaction() as tx:
        code = members.make_invite(tx, None, club.now()).code
    ann = club.join(code, "Ann", "SHA256:k1", "ssh-ed25519 AAAA1")
    assert club.identify("SHA256:k1") == club.member(ann.id)
    assert club.identify("SHA256:other") is None
    with pytest.raises(MemberError, match="used"):
        club.join(code, "Ben", "SHA256:k2", "ssh-ed25519 AAAA2")  # a code is good once


@pytest.mark.parametrize(
    ("taken", "wanted", "why"),
    [
        ("Ann", "ann", "taken|looks"),
        ("Bill", "BiII", "looks too like Bill"),  # capital i for l
        ("Bob0", "BobO", "looks too like Bob0"),
        ("Ann", "Аnn", "letters, digits"),  # a Cyrillic A
        ("Ann", "An n", "letters, digits"),
        ("Ann", "x" * 21, "at most 20"),
        ("Ann", "1234", "at least one letter"),
    ],
)
def test_a_name_is_refused_when_it_is_taken_looks_like_one_or_is_not_plain(
    club: Club, taken: str, wanted: str, why: str
) -> None:
    joined(club, taken)
    with pytest.raises(MemberError, match=why):
        joined(club, wanted)


def test_a_name_that_is_plain_and_unlike_the_others_is_taken(club: Club) -> None:
    joined(club, "Ann")
    assert joined(club, "Ann_2").name == "Ann_2"


def test_a_removed_member_is_no_longer_known_by_their_key(club: Club) -> None:
    ann = joined(club, "Ann")
    with club.db.transaction() as tx:
        members.set_status(tx, ann.id, members.Status.SUSPENDED)
    assert club.identify("SHA256:Ann") is None
    with club.db.transaction() as tx:
        members.set_status(tx, ann.id, members.Status.ACTIVE)
    assert club.identify("SHA256:Ann") is not None
    with club.db.transaction() as tx:
        members.set_status(tx, ann.id, members.Status.REMOVED)
        assert members.keys_of(tx, ann.id) == []
    assert club.identify("SHA256:Ann") is None


def test_a_member_keeps_more_keys_but_never_removes_the_last_or_the_one_in_use(club: Club) -> None:
    ann = joined(club, "Ann")
    with club.db.transaction() as tx:
        only = members.keys_of(tx, ann.id)[0]
        with pytest.raises(MemberError, match="only key"):
            members.remove_key(tx, ann.id, only.id, None)
        members.add_key(tx, ann.id, "SHA256:laptop", "ssh-ed25519 AAAAl", club.now())
        with pytest.raises(MemberError, match="connected with"):
            members.remove_key(tx, ann.id, only.id, only.fingerprint)
        members.remove_key(tx, ann.id, only.id, "SHA256:laptop")
    assert club.identify("SHA256:laptop") is not None
    assert club.identify("SHA256:Ann") is None


# ------------------------------------------------------------------ games


def test_two_members_play_a_whole_game_one_stored_decision_at_a_time(club: Club) -> None:
    ann, ben, game = _pair(club)
    told: list[Notice] = []
    club.notify.append(told.append)
    n = 0
    while not game.over:
        player, decision = _choice(game, n)
        member = game.players[player - 1]
        assert member is not None and game.to_move == member
        decided = club.play(member, game.id, game.seq, decision)
        assert decided.game.seq == game.seq + 1
        game = decided.game
        n += 1
    assert game.winner in (1, 2) and game.ending == "played out"
    assert game.progress().is_over
    with club.db.transaction() as tx:
        rows = tx.all("SELECT seq FROM decisions WHERE game_id = ? ORDER BY seq", (game.id,))
    assert [r[0] for r in rows] == list(range(1, n + 1))  # every decision, once, in order
    winner, loser = (ann, ben) if game.winner == 1 else (ben, ann)
    assert club.member(winner.id).mu > 25 > club.member(loser.id).mu  # the club's ladder
    assert told and {t.member for t in told} == {"Ann", "Ben"}


def test_a_decision_made_on_a_stale_game_or_out_of_turn_changes_nothing(club: Club) -> None:
    _ann, _ben, game = _pair(club)
    player, decision = _choice(game, 0)
    mover = game.players[player - 1]
    other = game.players[2 - player]
    assert mover is not None and other is not None
    with pytest.raises(IllegalAction):
        club.play(other, game.id, game.seq, decision)
    club.play(mover, game.id, game.seq, decision)
    with pytest.raises(Stale):
        club.play(mover, game.id, game.seq, decision)  # the same move again, from the old seq
    assert club.game(game.id).seq == 1


def test_two_connections_racing_with_one_move_store_it_once(club: Club) -> None:
    _ann, _ben, game = _pair(club)
    player, decision = _choice(game, 0)
    mover = game.players[player - 1]
    assert mover is not None
    results: list[str] = []
    start = threading.Barrier(4)

    def try_it() -> None:
        start.wait()
        try:
            club.play(mover, game.id, 0, decision)
            results.append("stored")
        except Stale:
            results.append("stale")

    threads = [threading.Thread(target=try_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["stale", "stale", "stale", "stored"]
    assert club.game(game.id).seq == 1


def test_a_practice_game_against_a_bot_is_stored_and_the_bot_answers_at_once(club: Club) -> None:
    ann = joined(club, "Ann")
    game = club.practice(ann.id, "easy", "classic", "game")
    n = 0
    while not game.over:
        assert game.to_move == ann.id  # the bot has always answered already
        _, decision = _choice(game, n)
        game = club.play(ann.id, game.id, game.seq, decision).game
        game = club.game(game.id)
        n += 1
    assert game.winner in (1, 2)
    assert club.member(ann.id).rated == 0  # practice is not rated


# ------------------------------------------------------------------- time


def _to_timeout(club: Club, clock: Clock, game: games.Stored) -> games.Stored:
    clock.pass_(game.turn_ms + 1)
    assert club.sweep() == 1
    return club.game(game.id)


def test_a_turn_whose_time_ran_out_is_played_by_the_bot_and_the_record_says_so(
    club: Club, clock: Clock
) -> None:
    ann, _ben, game = _pair(club)
    late = game.to_move
    assert late is not None and game.deadline == clock() + 3 * DAY
    clock.pass_(3 * DAY - 1)
    assert club.sweep() == 0  # not yet
    game = _to_timeout(club, clock, club.game(game.id))
    assert game.to_move != late and not game.over
    seat = 1 if late == ann.id else 2
    assert game.timeouts[seat - 1] == 1
    assert f"stand-in {seat}: expert" in game.record and f"stand-in {seat} ends" in game.record
    with club.db.transaction() as tx:
        news = games.news_since(tx, game, game.progress(), 3 - seat, 0)
    assert [n.text for n in news][:1] == ["stand-in expert"]


def test_three_turns_in_a_row_run_out_and_the_game_is_forfeited(club: Club, clock: Clock) -> None:
    _ann, _ben, game = _pair(club)
    late = game.to_move
    n = 0
    for _ in range(TIMEOUTS_MOST):
        while game.to_move != late:  # the other member plays their turns in time
            player, decision = _choice(game, n)
            member = game.players[player - 1]
            assert member is not None
            game = club.play(member, game.id, game.seq, decision).game
            n += 1
        game = _to_timeout(club, clock, game)
        if game.over:
            break
    assert game.over and game.ending is not None and "forfeit" in game.ending
    assert game.players[game.winner - 1 if game.winner else 0] != late


def test_a_member_who_plays_in_time_starts_the_count_again(club: Club, clock: Clock) -> None:
    ann, _ben, game = _pair(club)
    late = game.to_move
    seat = 1 if late == ann.id else 2
    game = _to_timeout(club, clock, game)
    n = 0
    while game.to_move != late:
        player, decision = _choice(game, n)
        member = game.players[player - 1]
        assert member is not None
        game = club.play(member, game.id, game.seq, decision).game
        n += 1
    player, decision = _choice(game, n)
    game = club.play(late, game.id, game.seq, decision).game  # type: ignore[arg-type]
    assert game.timeouts[seat - 1] == 0


def test_a_member_on_holiday_keeps_their_time(club: Club, clock: Clock) -> None:
    _ann, _ben, game = _pair(club)
    late = game.to_move
    assert late is not None
    deadline = game.deadline
    assert deadline is not None
    clock.pass_(DAY)
    club.away(late, True)
    clock.pass_(10 * DAY)
    assert club.sweep() == 0  # the clock is stopped
    club.away(late, False)
    assert club.game(game.id).deadline == deadline + 10 * DAY
    clock.pass_(2 * DAY - HOUR)
    assert club.sweep() == 0


def test_a_holiday_ends_when_the_years_thirty_days_are_used(club: Club, clock: Clock) -> None:
    ann = joined(club, "Ann")
    club.away(ann.id, True)
    clock.pass_(31 * DAY)
    club.sweep()
    assert not club.member(ann.id).away
    with pytest.raises(Exception, match="30 days"):
        club.away(ann.id, True)


# ----------------------------------------------------------- who sees what


def test_news_since_a_member_last_looked_shows_what_their_seat_may_see(club: Club) -> None:
    _ann, _ben, game = _pair(club)
    n = 0
    while True:  # play until a stock draw has happened
        player, decision = _choice(game, n)
        member = game.players[player - 1]
        assert member is not None
        game = club.play(member, game.id, game.seq, decision).game
        n += 1
        action = decision.action if isinstance(decision, Move) else None
        if n > 6 and isinstance(action, Action) and action.kind is ActionKind.DRAW:
            drawer = player
            break
    progress = game.progress()
    with club.db.transaction() as tx:
        theirs = games.news_since(tx, game, progress, drawer, n - 1)
        other = games.news_since(tx, game, progress, 3 - drawer, n - 1)
        watcher = games.news_since(tx, game, progress, SPECTATOR, n - 1)
    drawn = theirs[0].events[0].cards
    assert drawn  # the drawer sees the card drawn
    assert not other[0].events[0].cards and not watcher[0].events[0].cards


def test_a_spectator_table_shows_no_card_of_either_hand(club: Club) -> None:
    from umtali.club.table import Sitting
    from umtali.engine.view import public_view

    _ann, _ben, game = _pair(club)
    for n in range(5):
        player, decision = _choice(game, n)
        member = game.players[player - 1]
        assert member is not None
        game = club.play(member, game.id, game.seq, decision).game
    carol = joined(club, "Carol")
    screen = _Scripted(lambda message: "lobby")
    Sitting(club, carol, screen, game.id, spectator=True).run()
    hand = game.progress().hand
    assert hand is not None
    held = [str(c) for p in (1, 2) for c in hand.cards_in_hand(p)]
    text = screen.text()
    assert "8 cards" in text and "to play" in text
    shown_view = public_view(hand.view(1))
    assert not shown_view.hand
    for card in held:
        assert card not in text.replace(" ", "")


# ---------------------------------------------------------------- screens


class _Scripted:
    """A screen whose person answers with ``answer(message)``; it keeps what it showed."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer_with = answer
        self.console = Console(width=100, record=True, color_system=None)

    interactive = True

    def size(self) -> tuple[int, int]:
        return 100, 40

    def table(self, view: object, info: object, note: object = None) -> None:
        from umtali.ui.render import render_table
        from umtali.ui.theme import Theme

        self.console.print(render_table(view, info, Theme(ascii=True), 100, 40))  # type: ignore[arg-type]
        if note is not None:
            self.console.print(note)

    def show(self, renderable: object) -> None:
        self.console.print(renderable)

    def blank(self) -> None:
        pass

    def say(self, message: object) -> None:
        self.console.print(message)

    def ask(self, message: str, toolbar: object = None, completer: object = None) -> str:
        self.console.print(message)
        return self.answer_with(message)

    def page(self, renderable: object, title: str) -> None:
        self.console.print(renderable)

    def wait(self, seconds: float) -> None:
        pass

    def text(self) -> str:
        return self.console.export_text(clear=False)


def test_a_member_plays_their_turn_from_the_lobby_and_leaves_the_game_waiting(
    club: Club,
) -> None:
    from umtali.club.lobby import Lobby

    _ann, _ben, game = _pair(club)
    first = game.players[game.progress().pending().player - 1]  # type: ignore[operator]
    me = club.member(first)  # type: ignore[arg-type]
    said: list[str] = []

    def person(message: str) -> str:
        said.append(message)
        if "lobby>" in message:
            return "quit" if len(said) > 3 else str(game.id)
        stored = club.game(game.id)
        if stored.to_move == me.id:
            if "extra" in message:
                return ""
            return str(_choice(stored, len(said))[1].action)  # type: ignore[union-attr]
        return "lobby"  # the other member's turn: back to the lobby

    screen = _Scripted(person)
    Lobby(club, me, screen).run()
    after = club.game(game.id)
    assert after.to_move != me.id and after.seq >= 2  # the whole turn was stored
    assert "to play" in screen.text()
    assert "It is your turn in 1 game" in screen.text()


def test_an_admin_manages_the_club_from_the_lobby_and_a_member_may_not(club: Club) -> None:
    from umtali.club.lobby import Lobby

    with club.db.transaction() as tx:
        code = members.make_invite(tx, None, club.now(), admin=True).code
    ann = club.join(code, "Ann", "SHA256:Ann", "ssh-ed25519 AAAAAnn")
    ben = joined(club, "Ben")
    script = iter(
        ["admin members", "admin invite", "admin suspend ben", "admin settings turn_ms 1d", "quit"]
    )
    screen = _Scripted(lambda message: next(script))
    Lobby(club, ann, screen).run()
    assert "Invite code" in screen.text() and "Ben is suspended" in screen.text()
    assert re.search(r"Ann +yes +active +0 +not rated yet", screen.text())  # never 0.0
    assert club.identify("SHA256:Ben") is None
    assert club.settings().turn_ms == DAY
    refused = _Scripted(lambda message: next(again))
    again = iter(["admin members", "quit"])
    with club.db.transaction() as tx:
        members.set_status(tx, ben.id, members.Status.ACTIVE)
    Lobby(club, club.member(ben.id), refused).run()
    assert "Only the club's admins may do that." in refused.text()


def test_the_ladder_and_the_lobby_say_a_rating_alike(club: Club) -> None:
    """A member with no club game yet is 'not rated yet' on the ladder as in the lobby's
    line (never 'rating 0.0'), and comes after the rated, who have places."""
    from umtali.club.lobby import Lobby

    ann, ben = joined(club, "Ann"), joined(club, "Ben")
    with club.db.transaction() as tx:  # Ben has played one rated game and lost it
        tx.execute(
            "UPDATE members SET mu = ?, sigma = ?, rated = 1 WHERE id = ?", (22.0, 7.0, ben.id)
        )
    script = iter(["ladder", "quit"])
    screen = _Scripted(lambda message: next(script))
    Lobby(club, ann, screen).run()
    text = screen.text()
    assert "not rated yet: play a club game" in text  # the lobby's line
    rows = [line.split() for line in text.splitlines()]
    assert ["1", "Ben", "1.0", "1", "now"] in rows
    assert ["Ann", "not", "rated", "yet", "0", "now"] in rows
    assert "0.0" not in text


def test_any_line_typed_in_the_lobby_gets_an_answer_and_loses_nothing(club: Club) -> None:
    """A fuzz: lines made of the lobby's words and odd ones, typed by a member with a
    game under way; every one is answered (or leads to a table that is left), none
    ends the session with an unexpected error, and the game is as it was or moved on."""
    import random

    from umtali.club.lobby import COMMANDS, Lobby

    ann, _ben, game = _pair(club)
    rng = random.Random(45)
    words = [c.name for c in COMMANDS] + [
        "1", "2", "999", "-1", "ben", "ann", "classic", "rummy", "session", "1d", "0h",
        "easy", "on", "off", "add", "remove", "ssh-ed25519 AAAA", "é\x00\u202e", "x" * 300,
        "settings", "members", "turn_ms", "suspend",
    ]  # fmt: skip
    lines = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 4))) for _ in range(150)]
    script = iter([*lines, "quit"])

    def person(message: str) -> str:
        if "lobby>" in message:
            return next(script, "quit")
        if "[y/N]" in message:
            return "n"
        return "lobby"  # at a table, a question or a prompt: back to the lobby

    before = club.game(game.id).seq
    screen = _Scripted(person)
    Lobby(club, ann, screen).run()  # returns: nothing escaped the lobby's answers
    assert club.game(game.id).seq >= before
    assert club.identify("SHA256:Ann") is not None


@pytest.mark.parametrize("gone", [KeyboardInterrupt, EOFError])
def test_ctrl_c_or_a_hang_up_at_resign_keeps_the_game(club: Club, gone: type) -> None:
    """The play-test's worst find: Ctrl-C, or the connection dropping, at the lobby's
    "Resign game N?" resigned it.  Only y does."""
    from umtali.club.lobby import Lobby

    ann = joined(club, "Ann")
    game = club.practice(ann.id, "easy", "classic", "game")
    answers = iter([f"resign {game.id}", gone, f"resign {game.id}", "n", "quit"])

    def answer(message: str) -> str:
        said = next(answers)
        if isinstance(said, type):
            raise said()
        return str(said)

    Lobby(club, club.member(ann.id), _Scripted(answer)).run()
    assert not club.game(game.id).over


def test_a_resigned_club_game_is_replayed_and_reviewed_to_the_resignation(club: Club) -> None:
    """The hand a game was resigned in never ends, but the game is over: the lobby's
    replay goes to the resignation and its review weighs that hand's decisions too."""
    from umtali.club.lobby import Lobby

    ann = joined(club, "Ann")
    game = club.practice(ann.id, "easy", "classic", "game")
    for n in range(4):
        _, decision = _choice(game, n)
        game = club.game(club.play(ann.id, game.id, game.seq, decision).game.id)
    game = club.resign(ann.id, game.id)
    assert game.resigned and not game.progress().match.hands[-1].is_over
    answers = iter([f"replay {game.id}", *[""] * 12, "q", f"review {game.id}", "", "quit"])
    screen = _Scripted(lambda message: next(answers))
    Lobby(club, club.member(ann.id), screen).run()
    text = screen.text()
    assert "The game was resigned here." in text, text[-3000:]
    assert "The game was resigned in hand 1, at 0 to 0." in text, text[-3000:]
    assert re.search(r"Hand 1 \(resigned\): accuracy \d+%, [1-9]\d* decisions? weighed", text)


def test_the_lobby_s_review_shows_both_players_decisions_numbered_with_one_prompt(
    club: Club,
) -> None:
    from umtali.club.lobby import Lobby

    ann = joined(club, "Ann")
    game = club.practice(ann.id, "easy", "classic", "game")
    n = 0
    while not game.over:
        _, decision = _choice(game, n)
        game = club.game(club.play(ann.id, game.id, game.seq, decision).game.id)
        n += 1
    answers = iter([f"review {game.id}", "1", "", "", "quit"])
    screen = _Scripted(lambda message: next(answers))
    Lobby(club, club.member(ann.id), screen).run()
    text = screen.text()
    numbered = re.findall(r"(?m)^\s*\d+\. hand \d+ turn +\d+ (\w[^:]*): ", text)
    players = {p.name for p in club.game(game.id).progress().players}
    assert players == set(numbered) and "Ann" in players, text[:2000]
    assert "Type a decision's number (1-" in text and "What would you play" in text
    assert "The best: " in text


def test_a_club_game_s_end_names_it_as_the_club_s_game_and_where_to_see_it_again(
    club: Club,
) -> None:
    """The play-test: the end said "Winner of game 1" (the game's number in its match)
    and then "Ben wins game 3" (the club's number) with nothing to tell them apart."""
    from umtali.club.table import Sitting

    ann = joined(club, "Ann")
    for _ in range(2):  # the club's game 3 is the first game of its own match
        club.practice(ann.id, "easy", "classic", "game")
    game = club.resign(ann.id, club.practice(ann.id, "easy", "classic", "game").id)
    assert game.id == 3 and game.progress().game_number == 1
    player = _Scripted(lambda message: "")
    Sitting(club, club.member(ann.id), player, game.id).run()
    assert (
        "Ann resigned: easy bot wins club game 3. Type replay 3 or review 3 in the lobby "
        "to see it again." in " ".join(player.text().split())
    )
    watcher = _Scripted(lambda message: "")
    Sitting(club, joined(club, "Cat"), watcher, game.id, spectator=True).run()
    assert "Ann resigned: easy bot wins club game 3." in watcher.text()
    assert "replay 3" not in watcher.text()  # not the spectator's game to replay


def test_a_word_a_challenge_cannot_take_is_told_the_club_s_variants_and_turn_times(
    club: Club,
) -> None:
    """The play-test: '4d' was told it is not "a turn time (1h to 14d)", which it is
    within, and the variants named were all four, not the ones the club plays."""
    from umtali.club import admin
    from umtali.club.lobby import Lobby

    ann, _cat = joined(club, "Ann"), joined(club, "Cat")
    admin.change_setting(club, "variants", "classic family")
    script = iter(["challenge Cat family 4d", "seek bogus", "quit"])
    screen = _Scripted(lambda message: next(script))
    Lobby(club, ann, screen).run()
    text = " ".join(screen.text().split())
    assert "A turn time is one of 1h, 6h, 12h, 1d, 2d, 3d, 5d, 7d, 14d, not '4d'." in text
    assert (
        "'bogus' is not a variant this club plays (classic, family), game or session, "
        "or a turn time (1h, 6h, 12h, 1d, 2d, 3d, 5d, 7d, 14d)." in text
    )


def test_the_lobby_s_help_shows_every_command_whole_and_a_slip_gets_a_suggestion(
    club: Club,
) -> None:
    """The play-test: help showed ``challenge NAME   [1h..14d]``, a gap where the variant
    and game or session belong (rich took ``[variant]`` for a style), and a typo got no
    suggestion where the table's prompt gives one."""
    from umtali.club import admin
    from umtali.club.lobby import Lobby

    ann = joined(club, "Ann")
    admin.change_setting(club, "variants", "classic rummy")
    script = iter(["help", "chalenge Ben", "xyzzy", "quit"])
    screen = _Scripted(lambda message: next(script))
    Lobby(club, ann, screen).run()
    text = screen.text()
    assert re.search(r"(?m)^ *challenge NAME \[variant\] \[game\|session\] \[turn time\] ", text)
    assert re.search(r"(?m)^ *seek \[variant\] \[game\|session\] \[turn time\] ", text)
    assert re.search(r"(?m)^ *practice \[level\] \[variant\] \[game\|session\] ", text)
    assert re.search(r"(?m)^ *keys \[add KEY \| remove N\] ", text)
    assert "variant: classic rummy · turn time: 1h 6h 12h 1d 2d 3d 5d 7d 14d" in text
    assert "'chalenge' is not a lobby command: did you mean challenge?" in text
    assert "'xyzzy' is not a lobby command: type help." in text


class _Remote(_Scripted):
    """A remote member's screen, whose client keeps a last line after it closes."""

    parting: str | None = None


@pytest.mark.parametrize("leave", ["quit", KeyboardInterrupt, EOFError])
def test_leaving_the_lobby_says_goodbye_with_what_waits_and_the_way_back(
    club: Club, leave: object
) -> None:
    """The play-test: quit or Ctrl-C left only "Connection to 127.0.0.1 closed."; a
    connection that went (or a server that stopped) has nobody to tell."""
    from umtali.club.hub import Address
    from umtali.club.lobby import Lobby

    ann, _ben, _game = _pair(club)
    club.practice(ann.id, "easy", "classic", "game")

    def answer(message: str) -> str:
        if isinstance(leave, type):
            raise leave()
        return str(leave)

    screen = _Remote(answer)
    Lobby(club, ann, screen, address=Address("club.example", 2323)).run()
    if leave is EOFError:
        assert screen.parting is None
    else:
        assert (
            screen.parting == "Your 2 games wait for you; ssh -p 2323 club.example brings you back."
        )
    # A member of the plain screen is given the way back to it.
    plain = _Remote(lambda message: "quit")
    Lobby(club, ann, plain, address=Address("club.example", 2323), plain=True).run()
    assert plain.parting is not None
    assert plain.parting.endswith("; ssh -t -p 2323 club.example plain brings you back.")
    alone = _Scripted(lambda message: "quit")  # no server, no last line: said
    Lobby(club, joined(club, "Cat"), alone).run()
    assert alone.text().endswith("Goodbye.\n")


def test_the_lobby_s_invite_names_the_server_s_port_and_host(club: Club) -> None:
    from umtali.club.hub import Address
    from umtali.club.lobby import Lobby

    with club.db.transaction() as tx:
        code = members.make_invite(tx, None, club.now(), admin=True).code
    ann = club.join(code, "Ann", "SHA256:Ann", "ssh-ed25519 AAAAAnn")
    script = iter(["admin invite", "quit"])
    screen = _Scripted(lambda message: next(script))
    Lobby(club, ann, screen, address=Address("club.example", 2323)).run()
    text = " ".join(screen.text().split())
    made = re.search(r"\(ssh -p 2323 (\w{4}-\w{4}-\w{4})@club\.example\)\.", text)
    assert made is not None and club.invite_good(made.group(1))
