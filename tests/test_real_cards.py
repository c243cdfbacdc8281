"""A game played with real cards, typed in by hand, loaded, reviewed and refused clearly.

The game below was typed the way a person at the table would write it down: who
dealt, both hands as dealt, the cards drawn from the stock in the order drawn, and
every move.  (It was transcribed once from a seeded game between two bots, so that
its moves are ones real players make.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import umtali
from umtali.bots import EasyBot
from umtali.bots.arena import play_game
from umtali.cli import main as cli
from umtali.engine.deal import Deal
from umtali.engine.events import EventKind
from umtali.engine.hand import machine_of
from umtali.engine.real_deal import by_hand
from umtali.engine.record import (
    TYPED_VERSION,
    PlayerInfo,
    RecordError,
    format_record,
    load,
    parse_record,
)

GAME = """\
umtali record 4
# Sunday at the farm, with Gran's old deck
rules classic
match game
player 1 human: Ann
player 2 human: Ben
game 1
hand 1 dealer 1 eleven 1
deal 1: KS 7D 9D 3S QC KC 2D 7S 2S AH 8C
deal 2: JC 10H 5C JS KH JH 3D 9C 8D 10D
drawn: 6H 8S AC AS 2C
1: meld KC QC
1: discard AH
2: draw
2: play JC
2: play JS
2: play JH
2: play 10H on JH
2: play 10D on 10H
2: discard 5C
1: draw
1: play 9D on 10D
1: discard KS
2: draw
2: play 9C on 9D
2: play 8D on 9D
2: discard KH
1: draw
1: meld 3S 2S AS
1: play 8S on 8D
1: play 7S on 8S
1: play 7D on 7S
1: play 8C on 8S
1: discard 2D down
2: draw
result: 32 27 out 1
hand 2 dealer 1 eleven 1
deal 1: AC JS 6C 2H 10H AS 10S AH 5H 2C 7S
deal 2: QS 10D 6H JH 2D 3H 9C 5S 10C 8C
drawn: 8H 9S QH 4S KS 4D
1: meld AS AH AC
1: play JS
1: play 10S on JS
1: play 10H on 10S
1: discard 7S
2: take
2: play 10D on 10S
2: play QS on JS
2: meld 10C 9C 8C
2: play JH
2: discard 3H
1: draw
1: discard 5H
2: take
2: discard 5S
1: draw
1: play 9S on 10S
1: discard 8H
2: draw
2: play QH on QS
2: discard 7S
1: draw
1: discard 4S
2: take
2: discard 5H
1: draw
1: play KS on QS
1: discard 6C down
1: meld 2H 2C
2: draw
2: play 2D on 2H
2: discard 6H down
2: meld 4S 4D
result: 26 30 out 1
hand 3 dealer 2 eleven 2
deal 1: KS JS 3C 9H QD 10C 7D 2C AD 4C
deal 2: 9D 4D 3D 7C 5H 9S QC 8D 8C 6C 7S
drawn: JD AC 2D 3S
2: meld 8C 7C 6C
2: discard QC
1: take
1: meld 4C 3C 2C
1: play JS
1: discard 7D
2: draw
2: play JD
2: discard 7S
1: draw
1: play QD on JD
1: play AC on 2C
1: play AD on AC
1: play QC on QD
1: discard 10C
2: draw
2: meld 4D 3D 2D
2: discard 9D
1: take
1: discard KS down
1: meld 9H 9D
2: draw
2: play 9S on 9H
result: 25 12 out 1
hand 4 dealer 1 eleven 1
deal 1: 4H 10S JD 2C 8S 8H 9H 5D JC 5S 9S
deal 2: 6C 7S KS 5C 4S 5H AD KH 8D JS
drawn: 6S 4D
1: meld 10S 9S 8S
1: play JD
1: play JC
1: discard 4H
2: take
2: play JS
2: play 7S on 8S
2: discard 5C
1: take
1: meld 5S 5D 5C
1: discard 2C
2: take
2: play 5H on 5S
2: play 4H on 5H
2: play 4S on 4H
2: discard KS
1: draw
1: play 6S on 7S
1: discard 9H
2: take
2: play 6C on 6S
2: discard 8D
1: take
1: meld 8H 8D
2: draw
2: play 4D on 4H
result: 31 11 out 1
"""


def line_of(text: str, start: str, nth: int = 0) -> int:
    """The number (from 1) of the ``nth`` line of ``text`` that starts with ``start``."""
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start)]
    return found[nth]


def without_comments(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))


def test_a_four_hand_classic_game_typed_in_loads_with_its_totals_and_winner() -> None:
    data, match = load(GAME, "farm.umtali")
    assert isinstance(match, umtali.Game) and by_hand(match)
    assert data.seed is None and data.players[0].name == "Ann"
    assert [r.scores for r in match.results] == [(32, 27), (26, 30), (25, 12), (31, 11)]
    assert [r.dealer for r in match.results] == [1, 1, 2, 1]  # the winner of a hand deals
    assert match.totals == (114, 80)
    assert match.is_over and match.winner == 1


def test_the_typed_game_writes_itself_back_exactly_and_reads_the_same() -> None:
    _, match = load(GAME, "farm.umtali")
    players = (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
    written = format_record(match, players)
    assert written == without_comments(GAME)  # the program writes what the person typed
    assert written.splitlines()[0] == f"umtali record {TYPED_VERSION}"
    assert "seed" not in written
    again, match2 = load(written, "again.umtali")
    assert again == parse_record(GAME, "farm.umtali")  # parse(write(x)) == x
    assert [h.deal for h in match2.hands] == [h.deal for h in match.hands]
    assert [h.played() for h in match2.hands] == [h.played() for h in match.hands]


def test_cards_may_be_typed_in_either_case_and_any_order() -> None:
    lower = GAME.replace("deal 1: KS 7D 9D", "deal 1: 9d 7d ks").replace(
        "1: meld KC QC", "1: meld qc kc"
    )
    _, match = load(lower, "lower.umtali")
    assert match.totals == (114, 80)


def test_cards_never_drawn_change_nothing_anyone_sees() -> None:
    """The unknown rest of the stock is filled in card order; any other order gives
    the same replay, the same result and the same view for each player."""
    _, match = load(GAME, "farm.umtali")
    for hand in match.hands:
        d = hand.deal
        drawn = len(d.drawn or ())
        other = Deal(
            d.p1_index,
            d.p2_index,
            d.stock_index[:drawn] + d.stock_index[drawn:][::-1],
            d.dealer,
            d.eleven,
            d.seed,
            d.drawn_index,
        )
        assert other.stock != d.stock
        again = umtali.replay(other, hand.played(), match.rules)
        assert again.scores == hand.scores and again.went_out == hand.went_out
        for player in (1, 2):
            assert again.events(player) == hand.events(player)


def test_umtali_review_reviews_a_game_played_with_real_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "farm.umtali"
    path.write_text(GAME, encoding="utf-8")
    assert cli.main(["review", str(path), "--ascii", "--threshold", "0"]) == 0
    out = capsys.readouterr().out
    assert "Review of Ann's decisions" in out
    assert len(re.findall(r"^Hand [1-4]: accuracy \d+%, \d+ decisions weighed", out, re.M)) == 4
    # Decisions are named by the move made, in the notation the game was typed in.
    named = r"^ *\d+\. turn +\d+ +(listed|[a-z]+) (draw|take|meld|play|discard) "
    assert re.search(named, out, re.M)
    assert cli.main(["review", str(path), "--ascii", "--player", "2"]) == 0
    assert "Review of Ben's decisions" in capsys.readouterr().out


def test_a_game_played_with_real_cards_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "unfinished.umtali"
    path.write_text(GAME[: GAME.index("1: take\n1: meld 8H 8D")], encoding="utf-8")
    assert cli.main(["resume", str(path)]) == 1
    assert "played with real cards" in capsys.readouterr().err


def _edit(old: str, new: str, nth: int = 0) -> Callable[[str], str]:
    def edit(text: str) -> str:
        at = -1
        for _ in range(nth + 1):
            at = text.index(old, at + 1)
        return text[:at] + new + text[at + len(old) :]

    return edit


# Each: an edit of the game, the line at fault (its start, and which such line), and
# what the message says.
REFUSALS = [
    # 9D is in player 1's hand already.
    (_edit("deal 2: JC", "deal 2: 9D"), ("deal 2:", 0), "9D is dealt twice: in player 1's hand"),
    (
        _edit("drawn: 6H", "drawn: JC"),
        ("drawn:", 0),
        "JC is drawn from the stock, but it is in player 2's hand",
    ),
    (_edit("drawn: 6H 8S", "drawn: 8S 8S"), ("drawn:", 0), "8S is drawn twice from the stock"),
    (
        _edit("drawn: 6H 8S AC AS 2C", "drawn: 6H 8S AC AS"),
        ("2: draw", 2),
        "too few cards drawn for the draws recorded",
    ),
    (
        _edit("drawn: 6H 8S AC AS 2C", "drawn: 6H 8S AC AS 2C 3C"),
        ("drawn:", 0),
        "lists 6 cards, but hand 1 draws only 5",
    ),
    (
        _edit("1: play 9D on 10D", "1: play 9D on JC"),
        ("1: play 9D on JC", 0),
        "'play 9D on JC' is not legal",
    ),
    (_edit("1: discard KS", "1: discard QS"), ("1: discard QS", 0), "'discard QS' is not legal"),
    (
        _edit("result: 25 12", "result: 25 13"),
        ("result: 25 13", 0),
        "result 25-13 out 1 does not match the replay",
    ),
    (
        _edit("deal 1: KS 7D ", "deal 1: KS "),
        ("deal 1:", 0),
        "player 1 is dealt 10 cards, but should hold 11",
    ),
    (
        _edit("hand 1 dealer 1 eleven 1", "hand 1 dealer 1"),
        ("hand 1", 0),
        "say who took the eleventh card",
    ),
    (
        _edit("hand 2 dealer 1 eleven 1", "hand 2 dealer 2 eleven 2"),
        ("hand 2", 0),
        "is dealt by player 2, but player 1 deals it",
    ),
    (
        _edit("hand 3 dealer 2 eleven 2", "hand 3 dealer 2 eleven 2 seed 7"),
        ("hand 3", 0),
        "hand 3 gives a seed, but its 'drawn:' line",
    ),
    (
        lambda t: _edit("drawn: JD", "stock: JD")(
            _edit("hand 3 dealer 2 eleven 2", "hand 3 dealer 2 eleven 2 seed 7")(t)
        ),
        ("hand 3", 0),
        "has a seed, but the record has none",
    ),
    (
        _edit("match game", "match game\nseed 5"),
        ("hand 1", 0),
        "has no seed, but the record has one",
    ),
    (_edit("drawn: 6H", "up: 6H\ndrawn: 6H"), ("up:", 0), "classic has no up-card"),
    (_edit("drawn: JD", "drawn: JD\ndrawn: JD"), ("drawn:", 3), "has a 'drawn:' line already"),
    (_edit("drawn: 6H", "stock: 6H"), ("stock:", 0), "gives the cards drawn"),
    (_edit("deal 1: KS", "deal 1: KX"), ("deal 1:", 0), "is not a card"),
]


@pytest.mark.parametrize("edit,fault,message", REFUSALS)
def test_each_fault_is_refused_naming_its_line(
    edit: Callable[[str], str], fault: tuple[str, int], message: str
) -> None:
    bad = edit(GAME)
    line = line_of(bad, *fault)
    with pytest.raises(RecordError) as refused:
        load(bad, "farm.umtali")
    assert str(refused.value).startswith(f"farm.umtali:{line}: ")
    assert message in str(refused.value)


def test_a_record_without_seed_or_hands_is_refused() -> None:
    header = GAME[: GAME.index("hand 1")]
    with pytest.raises(RecordError, match="no seed and no hand"):
        load(header, "f.umtali")
    with pytest.raises(RecordError, match="missing seed"):
        load(header.replace("umtali record 4", "umtali record 3"), "f.umtali")


def test_a_bad_record_is_one_message_at_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "bad.umtali"
    path.write_text(GAME.replace("drawn: 6H", "drawn: JC"), encoding="utf-8")
    assert cli.main(["review", str(path)]) == 1
    err = capsys.readouterr().err
    assert "bad.umtali:" in err and "JC is drawn from the stock" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2


# ------------------------------------------------- a stock rebuilt from the pile


def transcribe(game: umtali.Game) -> str:
    """The record a person would type of ``game``: each hand's deal, and the cards
    drawn (as they were drawn, a rebuilt stock's included), without the seed."""
    typed = umtali.Game(game.rules, seed=0, first_dealer=game.hands[0].deal.dealer)
    for hand in game.hands:
        d = hand.deal
        drawn = tuple(e.cards[0].index for e in hand.events() if e.kind is EventKind.DRAW)
        deal = Deal(d.p1_index, d.p2_index, d.stock_index, d.dealer, d.eleven, 0, drawn)
        again = typed.next_hand(deal=deal)
        for action in hand.played():
            again.play(action)
    return format_record(typed, (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben")))


@pytest.fixture(scope="module")
def rebuilt() -> tuple[umtali.Game, str]:
    """A family game (seed 1) whose second hand ran through the stock, and its record."""
    game = play_game(umtali.Game("family", seed=1), [EasyBot(1), EasyBot(2)])
    assert machine_of(game.hands[1]).rebuilds
    return game, transcribe(game)


def test_a_rebuilt_stock_takes_its_order_from_the_cards_drawn(
    rebuilt: tuple[umtali.Game, str],
) -> None:
    game, text = rebuilt
    assert "up: " in text and "eleven" not in text  # family turns up a card
    _, match = load(text, "family.umtali")
    assert isinstance(match, umtali.Game)
    assert match.totals == game.totals and match.winner == game.winner
    for hand, real in zip(game.hands, match.hands, strict=True):
        assert real.played() == hand.played() and real.scores == hand.scores
        drawn = real.deal.drawn or ()
        stock = len(real.deal.stock) - 1  # under the up-card
        later = drawn[stock:]
        # Each rebuilt stock, top first, begins with the cards drawn from it.
        for cards in machine_of(real).rebuilds:
            top = [umtali.Card.from_index(i) for i in cards[: len(later)]]
            assert list(later[: len(top)]) == top
            later = later[len(cards) :]
    assert format_record(match, (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))) == text


def test_a_draw_from_a_rebuilt_stock_that_was_not_in_it_is_refused(
    rebuilt: tuple[umtali.Game, str],
) -> None:
    game, text = rebuilt
    hand = game.hands[1]
    drawn_line = line_of(text, "drawn:", 1)
    cards = text.splitlines()[drawn_line - 1].split()[1:]
    stock = len(hand.deal.stock) - 1
    assert len(cards) > stock  # some were drawn from the rebuilt stock
    # A card still in player 1's hand at the end was never in the discard pile.
    kept = str(hand.cards_in_hand(1)[0]) if hand.cards_in_hand(1) else str(hand.forfeited[0])
    cards[stock] = kept
    lines = text.splitlines()
    lines[drawn_line - 1] = "drawn: " + " ".join(cards)
    with pytest.raises(RecordError) as refused:
        load("\n".join(lines) + "\n", "family.umtali")
    said = str(refused.value)
    assert said.startswith(f"family.umtali:{drawn_line}: card {stock + 1} drawn, {kept}")
    assert "rebuilt from the discard pile" in said


def test_the_guide_example_is_a_record_that_loads_and_its_error_is_the_one_quoted() -> None:
    guide = Path(__file__).resolve().parent.parent / "docs" / "guide.md"
    text = guide.read_text(encoding="utf-8")
    section = text[text.index("## Review a game played with real cards") :]
    example = section[section.index("```text\n") + 8 : section.index("```\n", 10)]
    example = example[: example.index("hand 2 ")]  # the rest is left out ("...")
    _, match = load(example, "farm.umtali")
    assert isinstance(match, umtali.Game) and match.results[0].scores == (32, 27)
    quoted = re.search(r"\(`(farm\.umtali:\d+: [^`]+)`\)", section)
    assert quoted is not None
    with pytest.raises(RecordError) as refused:
        load(example.replace("drawn: 6H", "drawn: JC"), "farm.umtali")
    assert str(refused.value) == " ".join(quoted.group(1).split())  # wrapped in the guide
