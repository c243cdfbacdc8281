"""Bots: legal, repeatable, blind to what they may not see, and measurable."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from dealing import deal, deal_in, run

import umtali
from umtali.bots import EasyBot, ExpertBot, HardBot, NormalBot, Seat, make_bot
from umtali.bots.analysis import (
    RACE_SHORTLIST,
    RACE_Z,
    SHORTLIST,
    _shortlist_discards,
    _still_close,
    analyse,
)
from umtali.bots.arena import play_game, play_hand
from umtali.bots.fast import OwnTurns, Policy, quick_move, rollout, wary_move
from umtali.bots.knowledge import Knowledge
from umtali.bots.seat import Decision, GameInfo
from umtali.engine.actions import ActionKind
from umtali.engine.hand import Hand, machine_of
from umtali.engine.melds import meldable
from umtali.engine.moves import to_move
from umtali.engine.optional import OptionalState
from umtali.engine.view import PlayerView
from umtali.lab.tournament import (
    ExpertReaderBot,
    OracleBot,
    ReaderBot,
    bank_seed,
    play_match,
    summarise,
    wilson,
)


def checked_game(seats: list[Seat], seed: int, rules: str = "classic") -> int:
    """Play a game, asserting every decision is one of the legal actions; count them."""
    decisions = 0
    game = umtali.Game(rules, seed=seed)
    while not game.is_over:
        hand = game.next_hand()
        info = GameInfo(len(game.results) + 1, game.rules.hands_per_game, game.totals)
        while not hand.is_over:
            player = hand.to_move
            assert player is not None
            view = hand.view(player)
            decision = seats[player - 1].choose(view, info)
            assert decision.action in view.legal, decision
            assert decision.reason
            hand.play(decision.action)
            decisions += 1
    return decisions


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [
        lambda s: EasyBot(s),
        lambda s: NormalBot(),
        lambda s: HardBot(s, rollouts=12),
        lambda s: ExpertBot(s, budget=300, min_worlds=3),
    ],
    ids=["easy", "normal", "hard", "expert"],
)
def test_thousands_of_decisions_are_all_legal(make) -> None:  # type: ignore[no-untyped-def]
    # checked_game asserts that every one of these decisions is legal and has a reason.
    total = 0
    seed = 0
    while total < 3000:
        total += checked_game([make(seed), make(seed + 1)], seed)
        seed += 1


def optional(hand: umtali.Hand) -> OptionalState:
    """The optional-melding machine a family, practical or rummy hand holds."""
    return optional_state(machine_of(hand))


def optional_state(machine: object) -> OptionalState:
    assert isinstance(machine, OptionalState)
    return machine


def test_the_hard_bot_at_full_strength_plays_legally() -> None:
    # checked_game asserts each decision is legal; a whole game is at least four hands
    # of a discard or a going-out play from each player.
    assert checked_game([HardBot(1), NormalBot()], 4) >= 4 * 2


VARIANTS = ["family", "practical", "rummy"]


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS)
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_every_level_plays_every_variant(rules: str, level: str) -> None:
    decisions = 0
    searching = level in ("hard", "expert")
    for seed in range(3 if searching else 12):
        seats = [make_bot(level, seed), make_bot("normal" if level == "easy" else "easy", seed)]
        if level == "hard":
            seats[0] = HardBot(seed, rollouts=16)
        if level == "expert":
            seats[0] = ExpertBot(seed, budget=200, min_worlds=2)
        decisions += checked_game(seats, seed, rules)
    assert decisions > 100


@pytest.mark.parametrize("rules", VARIANTS)
def test_variant_worlds_agree_with_the_truth(rules: str) -> None:
    rng = random.Random(1)
    for hand, view, know in decision_points(rules, range(8)):
        player = view.player
        truth = machine_of(hand).hands[2 - player]
        assert know.opp_never == 0  # nothing is compulsory, so nothing is inferred
        assert truth & ~know.opp_known & ~know.unseen == 0
        world = know.sample_state(view, rng)
        assert world.cards_accounted()
        assert world.hands[player - 1] == machine_of(hand).hands[player - 1]
        assert optional_state(world).table() == optional(hand).table()
        assert world.legal_moves() == machine_of(hand).legal_moves()


def decision_points(
    rules: str, seeds: range
) -> Iterator[tuple[umtali.Hand, PlayerView, Knowledge]]:
    """Every decision of hands between two ``normal`` bots: the hand, the mover's view and
    what it proves (the hand goes on with ``normal``'s choice once the caller is done)."""
    for seed in seeds:
        hand = umtali.deal_hand(seed=seed, rules=rules)
        while not hand.is_over:
            player = hand.to_move
            assert player is not None
            view = hand.view(player)
            yield hand, view, Knowledge.of(view)
            hand.play(NormalBot().choose(view, GameInfo()).action)


def test_normal_beats_easy_at_every_variant() -> None:
    for rules in VARIANTS:
        wins = 0
        for seed in range(6):
            game = play_game(umtali.Game(rules, seed=seed), [NormalBot(), EasyBot(seed)])
            wins += game.winner == 1
        assert wins >= 5, rules


def test_same_seed_same_decisions() -> None:
    def log(seed: int) -> list[list[str]]:
        game = play_game(umtali.Game(seed=seed), [HardBot(seed, rollouts=24), EasyBot(seed)])
        return [h.actions() for h in game.hands]

    assert log(3) == log(3)
    assert log(3) != log(4)


@pytest.mark.parametrize("rules", ["classic", "family"])
def test_the_expert_gives_the_same_decisions_for_the_same_seed(rules: str) -> None:
    def log(seed: int) -> list[list[str]]:
        hand = umtali.deal_hand(seed=11, rules=rules)
        play_hand(hand, [ExpertBot(seed, budget=800), NormalBot()], GameInfo())
        return [hand.actions()]

    assert log(3) == log(3)


def test_the_inference_about_the_opponents_hand_is_never_wrong() -> None:
    rng = random.Random(0)
    checked = 0
    for seed in range(30):
        hand = umtali.deal_hand(seed=seed)
        while not hand.is_over:
            player = hand.to_move
            assert player is not None
            view = hand.view(player)
            know = Knowledge.of(view)
            truth = machine_of(hand).hands[2 - player]
            assert truth & know.opp_never == 0
            assert truth & ~know.opp_known & ~know.unseen == 0
            if know.opp_never:
                assert meldable(truth) == 0
                checked += 1
            world = know.sample_state(view, rng)
            assert world.hands[player - 1] == machine_of(hand).hands[player - 1]
            assert world.hands[2 - player].bit_count() == truth.bit_count()
            assert len(world.stock) == len(machine_of(hand).stock)
            assert world.cards_accounted()
            assert world.legal_moves() == machine_of(hand).legal_moves()
            hand.play(NormalBot().choose(view, GameInfo()).action)
    assert checked > 500


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_decisions_do_not_depend_on_hidden_cards(level: str) -> None:
    # Two deals that look the same to player 1: same hand, but player 2's cards
    # and the stock's order differ.  Player 1's whole first turn must match.
    base = umtali.deal_hand(seed=17, dealer=1, eleven=1)
    hidden = list(base.deal.p2) + list(base.deal.stock)
    random.Random(1).shuffle(hidden)
    other = umtali.deal_hand(
        base.deal.p1, hidden[:10], hidden[10:], dealer=1, eleven=1, seed=base.deal.seed
    )
    assert base.view(1) == other.view(1)
    bots = [make_bot(level, 5), make_bot(level, 5)]
    while base.to_move == 1:
        a = bots[0].choose(base.view(1), GameInfo())
        b = bots[1].choose(other.view(1), GameInfo())
        assert a == b
        base.play(a.action)
        other.play(b.action)
        assert base.view(1).hand == other.view(1).hand


def test_the_oracle_needs_the_whole_deal() -> None:
    hand = umtali.deal_hand(seed=2)
    oracle = OracleBot()
    with pytest.raises(TypeError):
        oracle.choose(hand.view(1), GameInfo())
    assert oracle.choose_full(hand, GameInfo()).action in hand.legal()


@pytest.mark.parametrize("reader", [ReaderBot, ExpertReaderBot], ids=["hard", "expert"])
def test_the_reader_is_told_the_opponents_hand_but_never_the_stock(
    reader: type[ReaderBot] | type[ExpertReaderBot],
) -> None:
    # Two deals with the same hands and the stock in another order: the reader's
    # first turns match, card for card.  It needs the whole deal to be told anything.
    base = umtali.deal_hand(seed=23, dealer=1, eleven=1)
    stock = list(base.deal.stock)
    random.Random(4).shuffle(stock)
    other = umtali.deal_hand(
        base.deal.p1, base.deal.p2, stock, dealer=1, eleven=1, seed=base.deal.seed
    )
    with pytest.raises(TypeError):
        reader(1).choose(base.view(1), GameInfo())
    readers = [reader(5), reader(5)]
    while base.to_move == 1:
        a, b = readers[0].choose_full(base, GameInfo()), readers[1].choose_full(other, GameInfo())
        assert a == b and a.action in base.legal()
        base.play(a.action)
        other.play(b.action)


def test_a_seat_that_sees_everything_is_told_the_game_too() -> None:
    """The readers play for the game as the bots do: the driver hands them the game's
    totals and hands left with the deal, not a first hand's."""
    seen: list[GameInfo] = []

    class Watcher(OracleBot):
        def choose_full(self, hand: Hand, info: GameInfo) -> Decision:
            seen.append(info)
            return super().choose_full(hand, info)

    info = GameInfo(hand_number=4, totals=(80, 55), dealer=2)
    hand = umtali.deal_hand(seed=9)
    play_hand(hand, [Watcher(), NormalBot()], info)
    assert seen and all(x == info for x in seen)


def test_a_small_duplicate_match_reports_sane_figures() -> None:
    results = [play_match("normal", "easy", i) for i in range(2)]
    for r in results:
        assert r.hands >= 8 and min(r.points) >= 0
        assert r.latency[0] and r.latency[1]
        assert sum(r.games_won) <= 2
    summary = summarise("normal", "easy", results, 1)
    low, high = summary["game_wilson95"]  # type: ignore[misc]
    assert 0 <= low <= summary["a_game_win_rate"] <= high <= 1
    low, high = summary["wilson95"]  # type: ignore[misc]
    assert 0 <= low <= summary["a_match_win_rate"] <= high <= 1
    assert summary["hands"] == sum(r.hands for r in results)


def test_a_match_plays_the_same_deals_with_the_seats_swapped() -> None:
    # Against itself a deterministic bot scores the same on both sides: margin 0.
    result = play_match("normal", "normal", 3)
    assert result.margin == 0 and result.score == 0.5


def test_the_deal_bank_is_fixed() -> None:
    assert bank_seed(0) == bank_seed(0) and bank_seed(0) != bank_seed(1)
    assert bank_seed(0, version=2) != bank_seed(0)
    assert bank_seed(7) == 974922449525953677  # version 1 of the bank, forever


def test_wilson_interval() -> None:
    low, high = wilson(60, 100)
    assert 0.50 < low < 0.51 and 0.69 < high < 0.70
    assert wilson(0, 0) == (0.0, 1.0)


#: Every variant with each rollout policy.  The replay is one piece of code whatever the
#: policy, so the quick run replays the quick policy in every variant and the wary one in
#: classic; CI replays the wary one in the longer variants too.
REPLAYED = [
    pytest.param(
        rules,
        policy,
        id=f"{rules}-{name}",
        marks=[pytest.mark.slow] if name == "wary" and rules != "classic" else [],
    )
    for rules in ("classic", "family", "practical", "rummy")
    for policy, name in ((quick_move, "quick"), (wary_move, "wary"))
]


@pytest.mark.parametrize(("rules", "policy"), REPLAYED)
def test_the_own_turn_replayed_plays_out_as_if_played_afresh(rules: str, policy: Policy) -> None:
    # The searchers work out the rest of their own turn after a candidate once and
    # replay it in the other deals: every playout must end exactly as before.
    replayed = 0
    rng = random.Random(1)
    for _, view, know in decision_points(rules, range(4)):
        me = view.player - 1
        moves = [to_move(a, view.rules) for a in view.legal]
        own = OwnTurns(me, [m[0] for m in moves], policy)
        for _ in range(3):
            world = know.sample_state(view, rng)
            for i, move in enumerate(moves):
                fresh, quick = world.clone(), world.clone()
                fresh.apply_move(move)
                quick.apply_move(move)
                replayed += own.finish(i, quick)
                assert rollout(quick, me, policy) == rollout(fresh, me, policy)
                assert quick.log == fresh.log
    assert replayed > 50


def wary_and_quick(p2_discard: str) -> tuple[str, str]:
    """The discards of the two rollout policies at player 1's second turn, with
    ``p2_discard`` on top of the pile."""
    hand = deal("AS 3D 6C 9H 10C KD 2H 5S 8D QC 4C", "2C 7D 9S JS 4H 5D 8S KH 3C QS", "7C 10D")
    run(hand, f"discard AS; draw; play JS; play QS; discard {p2_discard}; draw; play QC")
    state = machine_of(hand)
    return str(machine_of(hand).action_of(quick_move(state))), str(
        machine_of(hand).action_of(wary_move(state))
    )


def test_the_experts_rollouts_weigh_what_a_discard_gives_away() -> None:
    """Hard's rollout policy throws away the card least worth keeping; the expert's
    also weighs what the card would give the opponent.  With 5D on the pile the quick
    policy still throws the 5S on it (the opponent may take both fives), the wary one
    does not; on other cards it throws the 5S too, but never the 2H onto the 2C."""
    assert wary_and_quick("5D") == ("discard 5S", "discard 2H")
    assert wary_and_quick("9S") == ("discard 5S", "discard 5S")
    assert wary_and_quick("2C") == ("discard 5S", "discard 5S")


def test_the_experts_rollouts_keep_the_cards_that_score_when_laid() -> None:
    """A ten laid later scores five: the wary policy keeps the lone 10C that the quick
    one gives away as a possible forfeit, and gives the ace, which fits fewest cards."""
    hand = deal("AS 3D 6C 9H 10C KD 2H 5S 8D QC 4C", "2C 7D 9S JS 4H 5D 8S KH 3C QS")
    assert str(machine_of(hand).action_of(quick_move(machine_of(hand)))) == "discard 10C"
    assert str(machine_of(hand).action_of(wary_move(machine_of(hand)))) == "discard AS"


@pytest.mark.parametrize("rules", ["family", "practical", "rummy"])
def test_where_melding_is_optional_the_wary_policy_is_the_quick_one(rules: str) -> None:
    rng = random.Random(2)
    checked = 0
    for _, view, know in decision_points(rules, range(2)):
        state = know.sample_state(view, rng)
        assert wary_move(state.clone()) == quick_move(state.clone())
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    ("rules", "searched"), [("classic", RACE_SHORTLIST), ("family", SHORTLIST)]
)
def test_the_expert_searches_more_discards_where_its_candidates_race(
    rules: str, searched: int
) -> None:
    """Where play is compulsory a poor discard costs the race only its first deals,
    so more of normal's best discards are searched there."""
    sizes = set()
    for _, view, know in decision_points(rules, range(3)):
        discards = [a for a in view.legal if a.kind is ActionKind.DISCARD and not a.down]
        if len(discards) > RACE_SHORTLIST and len(discards) == len(view.legal):
            kept = _shortlist_discards(view, know, list(view.legal), NormalBot())
            assert set(kept) == set(NormalBot().rank_discards(view, know, discards)[:searched])
            sizes.add(len(kept))
    assert sizes == {searched}


def test_the_expert_drops_a_candidate_only_when_clearly_behind() -> None:
    """The race: a move the leader beats by more than RACE_Z standard errors on the
    same deals is dropped; one within that is kept, and so is the leader."""
    lead = [4, 6, 5, 7, 3, 5, 6, 4] * 4
    close = [x - (1 if i % 2 else -1) for i, x in enumerate(lead)]  # level on average
    behind = [x - 3 + (i % 3) for i, x in enumerate(lead)]  # two points worse, steadily
    assert _still_close([lead, close, behind], [0, 1, 2]) == [0, 1]
    assert _still_close([behind, lead], [0, 1]) == [1]
    # A lead of one point over deals that disagree by ten is no lead at all.
    noisy = [x + (10 if i % 2 else -12) for i, x in enumerate(lead)]
    assert _still_close([lead, noisy], [0, 1]) == [0, 1]
    assert RACE_Z > 1


def test_rummy_bots_weigh_cards_by_rummys_own_values() -> None:
    """In Rummy a king is ten points of deadwood and has no queen to marry, and a jack
    sits in runs: the lone king goes, the ten and jack stay together.  In Umtali the
    king waits for its queen and the lone ten (five points forfeit) goes."""
    other = "AC 2C 3C 4D 5D 6D 7H 8H 9H QC"
    rummy = run(deal_in("rummy", "KS 3D 7C 8C 10H JH 5S 6S 9D 2H", other, "4S", "4H"), "draw")
    assert str(NormalBot().choose(rummy.view(1), GameInfo()).action) == "discard KS"
    family = run(deal_in("family", "KS 3D 7C 8C 10H 4C 5S 6S 9D 2H", other, "4S", "4H"), "draw")
    assert str(NormalBot().choose(family.view(1), GameInfo()).action) == "discard 10H"


def test_the_expert_overrules_normals_move_only_when_the_search_is_sure() -> None:
    """Rummy's long hands leave each decision few deals, so there the expert keeps
    normal's move unless its search clearly beats it. Asked for a certainty no search
    gives, it plays exactly as normal; trusting the search alone, it does not."""
    sure = ExpertBot(1, budget=600, min_worlds=4, confidence=1e9)
    bold = ExpertBot(1, budget=600, min_worlds=4, confidence=0.0)
    searched = differs = 0
    for _, view, _ in decision_points("rummy", range(2)):
        usual = NormalBot().choose(view, GameInfo()).action
        decision = sure.choose(view, GameInfo())
        assert decision.action == usual
        searched += "nothing did clearly better" in decision.reason
        differs += bold.choose(view, GameInfo()).action != usual
    assert searched > 0 and differs > 0


@pytest.mark.parametrize(
    "bot",
    [HardBot(3, rollouts=24), ExpertBot(3, budget=300, min_worlds=3)],
    ids=["hard", "expert"],
)
def test_a_searching_bots_reason_says_its_number_in_words(bot: Seat) -> None:
    """A hint's numbers are the chance of winning the game and the hand's expected
    margin, said so: never a bare signed figure such as '(-31.6 points this hand)'."""
    hand = umtali.deal_hand(seed=4)
    while len(hand.legal()) < 2 or hand.legal()[0].kind is not ActionKind.DISCARD:
        hand.play(NormalBot().choose(hand.view(hand.to_move or 1), GameInfo()).action)
    reason = bot.choose(hand.view(hand.to_move or 1), GameInfo()).reason
    chance = r"you win the game (\d+%|over 99%|under 1%|certain|none) of the time from here"
    points = r"on average you end this hand about (level|\d+ points? (ahead|behind))"
    assert re.search(f"{chance} \\({points}\\)$", reason), reason
    assert not re.search(r"[+-]\d", reason)


def test_the_analysis_refuses_another_seats_knowledge() -> None:
    hand = umtali.deal_hand(seed=4)
    view = hand.view(1)
    with pytest.raises(ValueError, match="another seat's"):
        analyse(view, GameInfo(), know=Knowledge.of(hand.view(2)))
