"""Lessons one to five: putting cards down.

Melds and their points, jacks and single additions, playing off the
opponent's cards, The Rule, and compulsory play.  Every deal and answer here
is played by the engine in the tests; the words are ours.
"""

from __future__ import annotations

from umtali.learn.course import OPPONENT, Count, Do, Lesson, Question, Setup, Them, Try

MELDS = Lesson(
    key="melds",
    title="Melds and points",
    point="laying runs, groups and marriages",
    intro="""\
In Umtali every card you put down on your side of the table scores for you.
You put cards down in **columns**:

- a **run**: three or more cards in order in one suit, such as 8♠ 7♠ 6♠
  (aces are low: A 2 3 ... 10 J Q K, and a king and an ace are not neighbours);
- a **group**: three or four cards of one rank, such as 9♦ 9♣ 9♥;
- a **marriage**: the king and queen of one suit.

A **jack** never joins a column, not even a run such as 10♦ 9♦ 8♦: a jack
always goes down alone (lesson 2 shows how).

**Points:** a 10, J, Q or K is worth 5, any other card 1. A king and queen laid
together as a marriage are worth 10 each: 20 for the pair.

You hold eleven cards and play first, so you do not draw this turn. Type
`meld` and the cards, in any order: `meld 8S 7S 6S`.""",
    setup=Setup(
        you="8S 7S 6S 9D 9C 9H KH QH 2C 4D 10C",
        them="5S 5H 5D 2H 7D 3C 10H QS AC 6H",
        stock="8D",
    ),
    script=(
        Do(
            "Lay your three columns: the run of spades, the three 9s and the marriage K♥ Q♥.",
            want=("meld 8S 7S 6S", "meld 9D 9C 9H", "meld KH QH"),
            each=True,
            done="The run scores 3, the 9s 3 and the marriage 20: {you} points on your side.",
        ),
        Do(
            "Nothing else can go down. End your turn with a discard: type discard and "
            "the card, such as discard 2C.",
            want=("discard 2C", "discard 4D"),
            replies=(
                (
                    "discard 10C",
                    "Legal, but the 10♣ is worth 5 to whoever puts it down: let a 1-point card go.",
                ),
            ),
            done="Your discard starts the pile, and ends your turn.",
        ),
        Them(("draw", "meld 5S 5H 5D", "discard QS"), "Your opponent draws and lays three 5s."),
    ),
    outro="""\
Your side scores {you}, your opponent's {them}: a marriage is the richest column there
is. Cards on the discard pile or in the stock score for nobody. When a player goes
out, the cards left in the other player's hand are forfeited: they score for the
player who went out (lesson 8 shows how).""",
    quiz=(
        Question(
            Setup(you="KH QH QS QD 7C 3D 9S 4H 2S AD 6C", them="5S 5H 8D 2H 7D 3C 10H KS AC 6H"),
            "Your queen of hearts can marry or join the other queens. Lay the column "
            "that scores more.",
            right=("meld KH QH",),
            explain="The marriage scores 20, three queens 15. The Q♠ Q♦ stay in your "
            "hand: two queens make no column.",
        ),
        Question(
            Setup(you="AC 2C KC 9D 10D JD 5H 6H 7H 3S 8C", them="5S 4H 8D 2H 7D 3C 10H KS QS 6D"),
            "One meld hides in this hand. Lay it.",
            right=("meld 7H 6H 5H",),
            explain="Aces are low, so K A 2 is no run; a jack never joins a run, so "
            "9-10-J♦ is none either.",
        ),
        Count(
            Setup(
                you="JH 10H 9H 4S 3S 2S KD QD 7C 5D AC",
                them="5S 4H 8D 2H 7D 3C 10S KS QS 6D",
                before=("play JH", "play 10H", "play 9H", "meld 4S 3S 2S", "meld KD QD"),
            ),
            "How many points does your side of the table score?",
            whose=1,
            explain="J♥ and 10♥ are 5 each, 9♥ 1, the run 3 and the marriage 20.",
        ),
    ),
)

JACKS = Lesson(
    key="jacks",
    title="Jacks and single cards",
    point="jacks, and cards played off single cards",
    intro="""\
A **jack** is always playable, and always alone: it never joins a run, a group
or a marriage. So you can never keep a jack, nor discard one.

A card played **off** a card or column already on the table is an **addition**.
It goes on your side as a single card of its own:

- off a **single card** (a jack, or an earlier addition): a card of its rank, or
  its neighbour in the suit (off J♦: 10♦, Q♦ or another jack);
- off a **run**: the next card of its suit just above its top or just below its
  bottom, and nothing else;
- off a **group**: another card of its rank;
- off a **marriage**: nothing at all.

Each addition is a single card itself, so more can be played off it.
Type `play` and the card: `play JD`.""",
    setup=Setup(
        you="JD 10D 9D 7S 6S 5S 4C 4H 2D 3H 8C",
        them="2S 3S AH KC QH 6D 7H 5C AD 2H",
        stock="KD 8S",
    ),
    script=(
        Do(
            "A jack always goes down, alone. Play yours: play JD.",
            want=("play JD",),
            done="J♦ down: 5 points, and a single card that takes cards of its own.",
        ),
        Do(
            "Which of your cards goes off the J♦? Play it.",
            want=("play 10D",),
            replies=(
                ("meld 7S 6S 5S", "Your run must go down too, but first: what goes off the J♦?"),
            ),
            done="The 10♦ sits on your side as a single card: 5 more points.",
        ),
        Do(
            "And what goes off the 10♦ now?",
            want=("play 9D",),
            replies=(("meld 7S 6S 5S", "The run comes next: what goes off the 10♦ first?"),),
            done="One card after another: each addition takes the next.",
        ),
        Do(
            "Lay your run as well: every card that can go down must.",
            want=("meld 7S 6S 5S",),
        ),
        Do(
            "Nothing else can go down. Discard a card to end your turn.",
            done="That discard ends your turn.",
        ),
        Them(("draw", "discard KD"), "Your opponent's turn: they draw, and discard the K♦."),
        Do(
            "Draw from the stock: draw.",
            want=("draw",),
            replies=(
                (
                    "take",
                    "You could take the K♦, but nothing takes it, and a card you take may "
                    "not be your discard this turn. Draw instead.",
                ),
            ),
        ),
        Do(
            "You drew the 8♠. Where can it go? Play it.",
            want=("play 8S",),
            done="Off a run, only the card just above its top or just below its bottom "
            "goes: the 8♠ (or a 4♠). It sits on your side as a single card.",
        ),
        Do("Discard to end your turn."),
    ),
    outro="""\
A jack, the cards off it, and the cards off those all score, each on its own.
Keep an eye on every single card on the table: each one takes cards.""",
    quiz=(
        Question(
            Setup(
                you="JC QC 5D 8H 2S KD 4H AS 6C 7D 3S",
                them="9S 4S 5H 2H 7S 3C 10H 8S QS 6D",
            ),
            "One of your cards is always playable, whatever else you hold and whatever "
            "the table shows. Play it.",
            right=("play JC",),
            explain="A jack is always playable; the Q♣ can go off it only once it is down.",
        ),
        Question(
            Setup(
                you="4C 4H 4D 5C 8H 2S KD QS AS 6C 7D",
                them="9S 3H 5H 2H 7H 3C 10H 8S KS 6D",
                stock="2C 4S",
                before=("meld 4C 4H 4D", "discard QS", "draw", "discard 6D", "draw"),
            ),
            "You drew the 4♠. Play it where it goes.",
            right=("play 4S",),
            explain="A group takes another card of its rank: the 4♠ goes off your three "
            "4s, as a single card on your side.",
        ),
        Question(
            Setup(
                you="KH QH JH 5C 8D 2S 3D 9S AS 6C 7D",
                them="9C 3H 5H 2H 7S 3C 10H 8S KS 6D",
                before=("meld KH QH",),
            ),
            "The marriage K♥ Q♥ is down. Play the card that goes down next.",
            right=("play JH",),
            explain="Nothing goes off a marriage: the J♥ goes down because a jack always "
            "does, alone.",
        ),
    ),
)

OFF_THEIRS = Lesson(
    key="off-theirs",
    title="Playing off your opponent's cards",
    point="playing off your opponent's cards",
    intro="""\
Additions may go off **any** card or column on the table: yours, or your
opponent's. The card always goes on **your** side, and scores for you.

So the table is shared: every run your opponent lays is one you can build on,
and every card you lay is one they can use.""",
    setup=Setup(
        you="7H 3H 10D 9C KS 2S 4D 5D 8D AC",
        them="6H 5H 4H JC 10C 2D 7S 9S KH AD 6D",
        stock="4C",
        first=OPPONENT,
    ),
    script=(
        Them(
            ("meld 6H 5H 4H", "play JC", "play 10C", "discard KH"),
            "Your opponent plays first: a run, a jack, and the 10♣ off the jack.",
        ),
        Do(
            "Your turn. Draw from the stock: draw.",
            want=("draw",),
            replies=(("take", "Nothing takes the K♥: draw from the stock."),),
        ),
        Do(
            "Four of your cards go off your opponent's cards. Find them, and play each.",
            want=("play 7H", "play 3H", "play 10D", "play 9C"),
            each=True,
            done="All four went onto your side, and score for you: {added}.",
        ),
        Do("Nothing more goes down. Discard to end your turn."),
    ),
    outro="""\
The 7♥ and 3♥ went off their run, the 10♦ off their 10♣ (same rank), and the
9♣ off the 10♣ (one below it in the suit). Build on every card on the table.""",
    quiz=(
        Question(
            Setup(
                you="8S 2D KC 5H 3C AD 7C 4S 10H 6D",
                them="8C 8D 8H 2S QH 9H JS 4H 3H 6S KD",
                stock="AH",
                first=OPPONENT,
                before=("meld 8C 8D 8H", "play JS", "discard 2S", "draw"),
            ),
            "Your opponent has three 8s and a J♠. Which of your cards goes off their side?",
            right=("play 8S",),
            explain="A group takes another card of its rank. The J♠ would take a 10♠, "
            "a Q♠ or a jack, none of which you hold.",
        ),
        Question(
            Setup(
                you="7S JS 2D KC 5H 3C AD 4D 10H 6D",
                them="10S 9S 8S 2S QH 9H 5C 4H 3H 6C KD",
                stock="AH",
                first=OPPONENT,
                before=("meld 10S 9S 8S", "discard 2S", "draw"),
            ),
            "Your opponent's run is 10♠ 9♠ 8♠. Play the card that extends it.",
            right=("play 7S",),
            explain="A jack never joins a run: the J♠ goes down alone, off nothing. The "
            "run takes only the 7♠ below it (above the 10 comes a jack).",
        ),
    ),
)

THE_RULE = Lesson(
    key="the-rule",
    title="The Rule",
    point="The Rule (a card that makes a column in your hand goes into it)",
    intro="""\
**The Rule.** If a card can make a run, group or marriage with other cards in
your hand, it must go down in that column: you may not play it off the table
as an addition.

The Rule covers the **whole column**: a run or group you lay takes in every card
of your hand that extends it (the fourth of a group, the next card of the suit
at either end), unless that card can make another column with the cards you
keep. Where a card could go into two columns (Q♥ with K♥, or with Q♠ Q♦),
you choose.""",
    setup=Setup(
        you="10D 10S 10H 5C 4C 3C 2C 8H 6S KD",
        them="JD 9S 9C 7D AH 2H 4S 6D QC KH 8C",
        stock="QS",
        first=OPPONENT,
    ),
    script=(
        Them(("play JD", "discard 8C"), "Your opponent lays the J♦."),
        Do("Draw from the stock.", want=("draw",)),
        Try(
            "Your 10♦ could go off their J♦. Try it: play 10D.",
            move="play 10D",
            done="Your three 10s make a group, so the 10♦ must go into it.",
        ),
        Do("Lay the three 10s as a group.", want=("meld 10D 10S 10H",), done="15 points."),
        Try(
            "Now your clubs. Try laying only three of them: meld 5C 4C 3C.",
            move="meld 5C 4C 3C",
            done="The whole column goes down together.",
        ),
        Do("Lay the whole run of clubs.", want=("meld 5C 4C 3C 2C",), done="4 points."),
        Do("Nothing else goes down. Discard to end your turn."),
    ),
    outro="""\
Columns first: a card that makes a column in your hand goes into it, and a
column takes every card of yours that extends it.""",
    quiz=(
        Question(
            Setup(you="5C 4C 3C 2C 2H 2D KS 7H 9D QH AS", them="6S 4H 8D 3H 7D 3S 10H 8S QS 6D"),
            "The 2♣ can end your run or join your 2s: you choose. Lay the first column "
            "of the play that scores most.",
            right=("meld 5C 4C 3C", "meld 2C 2H 2D"),
            explain="Three and three score 6. The run of four scores 4 and leaves "
            "2♥ 2♦ stuck in your hand as a pair.",
        ),
        Question(
            Setup(
                you="KS QS 5H 8D 2C 3D 9S AS 6C 7H",
                them="JS 10H 5C 2H 7S 3C 9H 8S KD 6D QH",
                stock="AH",
                first=OPPONENT,
                before=("play JS", "discard QH", "draw"),
            ),
            "Your Q♠ could go off the J♠, or marry your K♠. Play it the way the rules say.",
            right=("meld KS QS",),
            explain="The Q♠ makes a marriage with the K♠ in your hand, so The Rule puts it "
            "there: 20 points, not 5.",
        ),
    ),
)

MUST_PLAY = Lesson(
    key="must-play",
    title="You must play what you can",
    point="putting down every card you can",
    intro="""\
**You must put down every card you can.** Your play ends only when no card
left in your hand can be played; then you discard. You choose the order and,
where there is a choice, the columns.

A card that becomes playable during your turn (off a card you just put down)
must go down too. And since a jack is always playable, you can never keep or
discard one.""",
    setup=Setup(
        you="10S 10C 9C JH 2D 6H KC 3S AH 5D",
        them="9S 8S 7S 4D 2H QS 4C 7D 6C AD 5S",
        stock="QD",
        first=OPPONENT,
    ),
    script=(
        Them(("meld 9S 8S 7S", "discard 4D"), "Your opponent lays a run of spades."),
        Do("Draw from the stock.", want=("draw",)),
        Try(
            "Suppose you would rather keep your cards. Try to end your turn now: discard 2D.",
            move="discard 2D",
            done="Everything that can go down must go down first.",
        ),
        Do(
            "Put down every card you can, one at a time, in any order that works.",
            want=("play 10S", "play 10C", "play 9C", "play JH"),
            each=True,
            done="10♠ off their run, 10♣ off your 10♠, 9♣ off your 10♣, and the J♥.",
        ),
        Do("Now nothing can go down: discard."),
    ),
    outro="""\
Compulsory play makes Umtali a race: what you hold, you lay as soon as you
can. At the table, `all` makes the plays that leave you no choice.""",
    quiz=(
        Question(
            Setup(
                you="JC 4D 9H 2S KD 7C 3H AS 6C 8D QH",
                them="10S 4S 5H 2H 7S 3C 10H 8S KS 6D",
            ),
            "You would like to keep the J♣ for later. What must you do with it?",
            right=("play JC",),
            explain="A jack is always playable, so it must go down: never kept, never discarded.",
        ),
        Question(
            Setup(
                you="5H 6H 7H 2S KD 7C 3D AS 9C 8D QC",
                them="10S 4S 5S 2H JS 3C 10H 8S KS 6D",
            ),
            "Lay the run in your hand: all of it that must go down.",
            right=("meld 7H 6H 5H",),
            explain="Three in order in one suit: the run of hearts.",
        ),
        Question(
            Setup(
                you="10H 9H 2S KD 7C 3D AS 4C 8D QC",
                them="JH 5H 4S 2H 6S 3C 10S 8S KC 6D 7D",
                stock="5C",
                first=OPPONENT,
                before=("play JH", "discard 7D", "draw"),
            ),
            "Only one of your cards can go down now, but it opens the way for another. Play it.",
            right=("play 10H",),
            explain="The 10♥ goes off their J♥; then the 9♥ can go off your 10♥, and so it must.",
        ),
    ),
)
