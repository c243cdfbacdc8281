"""What a club's admin does, on a real SQLite club: members, invites, settings, and
the export of the games members allowed (finished ones only)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clubhouse import add_member, new_club

from umtali.club import admin, members
from umtali.club.club import Club
from umtali.club.members import MemberError, Status
from umtali.club.settings import SettingError
from umtali.store.kinds import FileRefused


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return new_club(tmp_path)


def test_the_member_list_says_who_is_admin_active_and_how_many_games(club: Club) -> None:
    ann, ben = add_member(club, "Ann", admin=True), add_member(club, "Ben")
    add_member(club, "Cat")
    admin.remove(club, "Cat")
    # Before a rated game nobody has a rating (mu - 3 sigma would say 0.0).
    assert [r.rating_words for r in admin.member_list(club)] == ["not rated yet"] * 2
    game = club.accept(ben.id, club.challenge(ann.id, "Ben", "classic", "game", None).id)
    club.resign(ann.id, game.id)
    rows = admin.member_list(club)
    assert [(r.name, r.admin, r.status, r.games) for r in rows] == [
        ("Ann", True, Status.ACTIVE, 1),
        ("Ben", False, Status.ACTIVE, 1),
    ]
    assert rows[0].rating is not None and rows[1].rating is not None
    assert rows[1].rating > rows[0].rating  # Ben won
    assert re.fullmatch(r"-?\d+\.\d", rows[1].rating_words)


def test_rename_suspend_reinstate_and_admin_rights(club: Club) -> None:
    add_member(club, "Ann", admin=True)
    add_member(club, "Ben")
    assert admin.rename(club, "ben", "Benny").name == "Benny"
    with pytest.raises(MemberError, match="looks too like Ann"):
        admin.rename(club, "Benny", "ANN")
    assert admin.suspend(club, "Benny").status is Status.SUSPENDED
    assert admin.reinstate(club, "Benny").status is Status.ACTIVE
    assert admin.grant_admin(club, "Benny").admin
    assert not admin.take_admin(club, "Ann").admin
    with pytest.raises(admin.AdminError, match="Benny is the club's only admin"):
        admin.remove(club, "Benny")
    with pytest.raises(admin.AdminError, match="There is no member called Zed"):
        admin.suspend(club, "Zed")


def test_a_removed_members_keys_are_gone(club: Club, tmp_path: Path) -> None:
    member = add_member(club, "Ben")
    with club.db.transaction() as tx:
        members.add_key(tx, member.id, "SHA256:abc", "ssh-ed25519 AAAA", 0)
    assert club.identify("SHA256:abc") is not None
    admin.remove(club, "Ben")
    assert club.identify("SHA256:abc") is None
    with club.db.transaction() as tx:
        assert members.keys_of(tx, member.id) == []


def test_invites_are_made_listed_and_revoked(club: Club) -> None:
    first = admin.make_invite(club)
    second = admin.make_invite(club, admin=True)
    assert [i.code for i in admin.open_invites(club)] == [first.code, second.code]
    assert admin.open_invites(club)[1].admin
    admin.revoke_invite(club, first.code)
    assert not club.invite_good(first.code)
    with pytest.raises(admin.AdminError, match="no unused invite"):
        admin.revoke_invite(club, first.code)


def test_settings_are_shown_and_changed_with_their_checks(club: Club) -> None:
    assert admin.show_settings(club).spectators
    assert not admin.change_setting(club, "spectators", "no").spectators
    assert admin.change_setting(club, "turn_ms", "1d").turn_ms == 24 * 3600 * 1000
    with pytest.raises(SettingError):
        admin.change_setting(club, "turn_ms", "3 weeks")
    assert not admin.show_settings(club).spectators


def test_the_export_holds_the_finished_games_every_player_allowed(
    club: Club, tmp_path: Path
) -> None:
    ann, ben, cat = (add_member(club, n) for n in ("Ann", "Ben", "Cat"))
    for who in (ann, ben):
        with club.db.transaction() as tx:
            members.set_sharing(tx, who.id, True)

    def finished(one: int, two: str) -> int:
        game = club.accept(by_name(club, two), club.challenge(one, two, "classic", "game", None).id)
        club.resign(one, game.id)
        return game.id

    shared = finished(ann.id, "Ben")
    finished(ann.id, "Cat")  # Cat did not allow it
    practice = club.practice(ann.id, "easy", "family", "game")
    club.resign(ann.id, practice.id)
    club.resign(cat.id, club.practice(cat.id, "easy", "classic", "game").id)
    playing = club.accept(ben.id, club.challenge(ann.id, "Ben", "classic", "game", None).id)

    out = tmp_path / "export"
    done = admin.export(club, out)
    assert (done.games, done.withheld) == (2, 2)
    index = [json.loads(line) for line in (out / admin.INDEX).read_text().splitlines()]
    assert [entry["game"] for entry in index] == [shared, practice.id]
    assert index[0]["players"] == ["Ann", "Ben"] and index[0]["winner"] == "Ben"
    assert index[0]["ending"] == "resigned" and index[0]["kind"] == "game"
    assert index[1]["players"] == ["Ann", "easy bot"] and index[1]["variant"] == "family"
    for entry in index:
        record = (out / entry["record"]).read_text()
        assert record == club.game(entry["game"]).record
    assert not (out / f"game-{playing.id}.umtali").exists()  # never a game in progress
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [admin.INDEX, *(e["record"] for e in index)]
    )

    before = (out / admin.INDEX).read_bytes()
    with pytest.raises(FileRefused, match="never overwrites"):
        admin.export(club, out)
    assert (out / admin.INDEX).read_bytes() == before


def by_name(club: Club, name: str) -> int:
    with club.db.transaction() as tx:
        found = members.by_name(tx, name)
    assert found is not None
    return found.id
