"""Lessons six to ten: the turn around the table, and the end of a hand.

Taking two discards; going out with a pair and a face-down discard; the last
turn and its forfeits; scoring a hand; and what to discard.  As with the
first five, the engine plays every deal and answer in the tests.
"""

from __future__ import annotations

from umtali.learn.course import OPPONENT, Count, Do, Lesson, Question, Setup, Them, Try

#: Player 2 goes out at once, face down and with a pair (lesson 8 and its quiz).
_OUT_AT_ONCE = (
    "meld 8S 7S 6S",
    "meld 9D 9C 9H",
    "meld KH QH",
    "discard 2H down",
    "meld 3D 3C",
)
_GOES_OUT = "8S 7S 6S 9D 9C 9H KH QH 3D 3C 2H"

TAKE_TWO = Lesson(
    key="take-two",
    title="Drawing, and taking two discards",
    point="taking the top two discards",
    intro="""\
At the start of your turn you take exactly one of:

- the top card of the **stock** (`draw`);
- the top card of the **discard pile** (`take`): you may not discard that card
  again this turn, unless it is your last card and takes you out;
- the top **two** cards of the discard pile (`take 2`), but only if you can put
  **both** down this turn, each alone, with cards from your hand, or one off the
  other. Then both must go down: you may discard neither.

The pile is face up, so what it offers is there for both of you to see.""",
    setup=Setup(
        you="10D 8D 2S 4H 6C 7S AH QC 3D 5S",
        them="KC 9D 2H 3C 5H 7D 9S AS 6S 10H KH",
        stock="QH 4S",
        first=OPPONENT,
        before=("discard KC", "draw", "discard 8D", "draw", "discard 9D"),
    ),
    script=(
        Do(
            "On the pile: their 9♦, and under it the 8♦ you let go. With your 10♦ they "
            "make a run. Take both: take 2.",
            want=("take 2",),
            replies=(
                (
                    "take",
                    "Taking only the 9♦ leaves it stuck: 10♦ 9♦ is no run without the 8♦. "
                    "Take both.",
                ),
                ("draw", "The stock is a gamble; the pile gives you a run for sure. Take both."),
            ),
        ),
        Try(
            "Cards taken two at a time must both go down. Try to discard one: discard 9D.",
            move="discard 9D",
            done="They go down first.",
        ),
        Do("Lay the run.", want=("meld 10D 9D 8D",), done="10♦ 9♦ 8♦: 7 points."),
        Do("Discard to end your turn."),
    ),
    outro="""\
Take two when both cards go down this turn. Remember the other side of it:
the card you discard goes onto the pile on top of your opponent's last
discard, and on their turn they may take those two.""",
    quiz=(
        Question(
            Setup(
                you="7S 7H 2D 4C 9H KS 5D AC 3S 10C",
                them="7C 8S 6H 2H 4D QD 9C 3H 5S KC AD",
                first=OPPONENT,
                before=("discard 7C",),
            ),
            "Your opponent discarded the 7♣. Choose the draw that makes a column for sure.",
            right=("take",),
            explain="The 7♣ makes a group with your 7♠ 7♥: 3 points for sure, and three "
            "cards out of your hand.",
        ),
        Question(
            Setup(
                you="8S 7S 5S 2D 4C 9H KD AC 3H 10C",
                them="KC 6S 2H 4D QD 9C 3S 6D AD 10H 7C",
                stock="QH 5H",
                first=OPPONENT,
                before=("discard KC", "draw", "discard 7S", "draw", "discard 6S"),
            ),
            "On the pile: their 6♠ on your 7♠. Choose the draw that puts the most cards "
            "down for sure.",
            right=("take 2",),
            explain="Both go down this turn, in the run 8♠ 7♠ 6♠ 5♠: take 2.",
        ),
    ),
)

GOING_OUT = Lesson(
    key="going-out",
    title="Going out",
    point="going out, with a pair and a face-down discard",
    intro="""\
You **go out** when your hand is empty during your turn:

- by putting every card down;
- by discarding your last card;
- by laying a **pair** as your very last play. A pair (two of a rank) goes down
  only when it takes you out. Left with a pair and one card you cannot play,
  discard that card, then lay the pair.

The discard that takes you out (your last card, or the one before the pair)
may go **face down**: `discard 2H down`. Your opponent then cannot take it.
When you go out, your opponent gets one last turn.""",
    setup=Setup(
        you="8S 7S 6S 9D 9C 9H KH QH 3D 3C 2H",
        them="4C 5D 10S QC AS 2C 7H 8D 6D KS",
        stock="5S",
    ),
    script=(
        Do(
            "Lay your run, your 9s and your marriage.",
            want=("meld 8S 7S 6S", "meld 9D 9C 9H", "meld KH QH"),
            each=True,
        ),
        Do(
            "You hold 3♦ 3♣ 2♥. Discard the 2♥, face down (discard 2H down), and the pair "
            "will take you out.",
            want=("discard 2H down",),
            replies=(
                (
                    "discard 2H",
                    "Face up is legal, but then your opponent may take the 2♥ on their "
                    "last turn. Face down, they draw blind: add down.",
                ),
                ("discard 3D", "Legal, but you would keep 3♣ 2♥ and not go out."),
                ("discard 3C", "Legal, but you would keep 3♦ 2♥ and not go out."),
            ),
        ),
        Do(
            "Now lay the pair: meld 3D 3C.",
            want=("meld 3D 3C",),
            done="You are out! Your opponent gets one last turn.",
        ),
        Them(
            ("draw", "play 5S", "play 5D", "play 6D"),
            "Their last turn. Your discard is face down, so they draw from the stock.",
        ),
    ),
    outro="""\
Your opponent put down the 5♠, then the 5♦ off it and the 6♦ off that; every
card left in their hand is forfeited to you. Going out first, and face down,
is how hands are won.""",
    quiz=(
        Question(
            Setup(
                you="KC KD KH 4S 3S 2S AS JD 6D 6C 9H",
                them="5S 10D 8C 7C 2H 3H 5D QH 10S 9C",
                before=("meld KC KD KH", "meld 4S 3S 2S AS", "play JD"),
            ),
            "You hold 6♦ 6♣ 9♥. Make the move that goes out and gives your opponent the least.",
            right=("discard 9H down",),
            explain="Discard the 9♥ face down, then the pair takes you out; face down, "
            "your opponent cannot take the 9♥.",
        ),
        Question(
            Setup(
                you="KC KD 8S 7S 6S 9D 9C 9H 5H 5D 5C",
                them="4S 10D 8C 7C 2H 3H 4D QH 10S QC",
                before=("meld 8S 7S 6S", "meld 9D 9C 9H", "meld 5H 5D 5C"),
            ),
            "You hold K♣ K♦ and nothing else. What now?",
            right=("meld KC KD",),
            explain="A pair that takes you out is playable, and what is playable must go "
            "down: you are out, with no discard.",
        ),
    ),
)

LAST_TURN = Lesson(
    key="last-turn",
    title="The last turn and forfeits",
    point="the last turn, and the cards it forfeits",
    intro="""\
When your opponent goes out, you get **one last turn**:

- if their last discard was face down, you must draw from the stock;
  otherwise you may draw in any of the usual ways;
- you put down everything you can, and may go out the same ways they can;
- you may **not** discard otherwise. Every card left in your hand is
  **forfeited**: it scores for your opponent at its plain value.""",
    setup=Setup(
        you="5S 9S 7C 2D 4H 6C AC 10C KD 8H",
        them=_GOES_OUT,
        stock="10S",
        first=OPPONENT,
    ),
    script=(
        Them(_OUT_AT_ONCE, "Your opponent plays first, and goes out at once."),
        Try(
            "Your last turn. The pile's top card is face down: try to take it.",
            move="take",
            done="A face-down discard cannot be taken.",
        ),
        Do("Draw from the stock.", want=("draw",)),
        Do(
            "Put down everything you can: what stays in your hand goes to your opponent.",
            want=("play 5S", "play 9S", "play 10S", "play 10C"),
            each=True,
            done="Nothing more can go down, and you may not discard: the hand is over. "
            "Your opponent scores {them}, your cards forfeited to them included.",
        ),
    ),
    outro="""\
Nothing more could go down, so the hand ended: the seven cards you kept were
forfeited, 1 point each and 5 for the K♦. Had you held a pair at the end, it
would have taken you out, and nothing would have been forfeited.""",
    quiz=(
        Question(
            Setup(
                you="5S 9S 10H 10C 4S 6H 6D JC JD QC",
                them=_GOES_OUT,
                stock="QD",
                first=OPPONENT,
                before=(
                    *_OUT_AT_ONCE,
                    "draw",
                    "play 5S",
                    "play 4S",
                    "play 9S",
                    "play JC",
                    "play JD",
                    "play 10C",
                    "play QC",
                    "play QD",
                    "play 10H",
                ),
            ),
            "Your last turn: you hold 6♥ 6♦. What now?",
            right=("meld 6H 6D",),
            explain="The pair takes you out on your last turn too: nothing is forfeited.",
        ),
        Question(
            Setup(
                you="7C 7H 2D 4H AC 10C KD 5H 3S 8D",
                them="8S 7S 6S 9D 9C 9H KH QH 3D 3C 7D",
                first=OPPONENT,
                before=(
                    "meld 8S 7S 6S",
                    "meld 9D 9C 9H",
                    "meld KH QH",
                    "discard 7D",
                    "meld 3D 3C",
                ),
            ),
            "Your opponent went out, discarding the 7♦ face up. Choose the draw that "
            "makes a column for sure.",
            right=("take",),
            explain="A face-up discard may be taken on the last turn: 7♦ 7♣ 7♥ is a group.",
        ),
        Count(
            Setup(
                you="5S 9S 7C 2D 4H 6C AC 10C KD 8H",
                them=_GOES_OUT,
                stock="10S",
                first=OPPONENT,
                before=(
                    *_OUT_AT_ONCE,
                    "draw",
                    "play 5S",
                    "play 9S",
                    "play 10S",
                    "play 10C",
                ),
            ),
            "The lesson's hand again: how many points did your opponent score in all?",
            whose=2,
            explain="Their table (the run, the 9s, the marriage and the pair) and your "
            "forfeited cards at plain value: {answer}.",
        ),
    ),
)

SCORING = Lesson(
    key="scoring",
    title="Scoring a hand",
    point="scoring a hand",
    intro="""\
When the hand ends, each player scores every card on their own side of the
table: 5 for a 10, J, Q or K, 1 for any other card, and 20 for a marriage.
Cards forfeited on the last turn score for the player who went out, at their
plain value. The discard pile and the stock score for nobody.

A **game** is four hands, and the higher total wins. A **session** is three
games: the first to win two wins it. Finish this hand and watch the score.""",
    setup=Setup(
        you="JH 10H 4S 3S 2S KD QD 9C 5D 8C 6H",
        them="7S 7D 7H 2D 3D 4C 10S QC AH 5H",
        stock="6S 7C AS",
        before=(
            "play JH",
            "play 10H",
            "meld 4S 3S 2S",
            "meld KD QD",
            "discard 6H",
            "draw",
            "meld 7S 7D 7H",
            "play 10S",
            "discard QC",
        ),
    ),
    script=(
        Do("Draw from the stock.", want=("draw",)),
        Do("The 7♣ makes a run with your 9♣ 8♣. Lay it.", want=("meld 9C 8C 7C",)),
        Do(
            "One card left: discard it face down to go out.",
            want=("discard 5D down",),
            replies=(("discard 5D", "Face up works, but face down they draw blind: add down."),),
        ),
        Them(
            ("draw", "play AS", "play AH"),
            "Their last turn: they draw, put down what they can, and forfeit the rest.",
        ),
    ),
    outro="""\
Your side: J♥ and 10♥ (5 each), the run of spades, the marriage, the run of
clubs, and your opponent's five forfeited cards, 1 each. This hand: you {you},
your opponent {them}.""",
    quiz=(
        Count(
            Setup(
                you="10S 10C 9C JH 2D 6H KC 3S AH 5D",
                them="9S 8S 7S 4D 2H QS 4C 7D 6C AD 5S",
                stock="QD",
                first=OPPONENT,
                before=(
                    "meld 9S 8S 7S",
                    "discard 4D",
                    "draw",
                    "play 10S",
                    "play 10C",
                    "play 9C",
                    "play JH",
                ),
            ),
            "How many points does your side of the table score?",
            whose=1,
            explain="10♠ 10♣ and J♥ are 5 each, and the 9♣ is 1: {answer}.",
        ),
        Count(
            Setup(
                you="8S 7S 6S 9D 9C 9H KH QH 3D 3C 2H",
                them="4C 5D 10S QC AS 2C 7H 8D 6D KS",
                stock="5S",
                before=(*_OUT_AT_ONCE, "draw", "play 5S", "play 5D", "play 6D"),
            ),
            "You went out with a pair; your opponent put down three cards. How many "
            "points do you score, forfeits included?",
            whose=1,
            explain="Your run 3, your 9s 3, the marriage 20 and the pair 2, and their eight "
            "forfeited cards (10♠, Q♣ and K♠ at 5): {answer}.",
        ),
        Count(
            Setup(
                you="8S 7S 6S 9D 9C 9H KH QH 3D 3C 2H",
                them="4C 5D 10S QC AS 2C 7H 8D 6D KS",
                stock="5S",
                before=(*_OUT_AT_ONCE, "draw", "play 5S", "play 5D", "play 6D"),
            ),
            "And your opponent?",
            whose=2,
            explain="Only the three cards they put down: forfeited cards score for the player who "
            "went out, never for the one who held them.",
        ),
    ),
)

DISCARDS = Lesson(
    key="discards",
    title="What to discard",
    point="choosing your discard",
    intro="""\
Every discard may be taken. A few habits:

- **Do not feed what your opponent has shown.** Cards they took from the pile
  are public: the table lists them under their hand. A K♥ thrown to a player
  holding the Q♥ is a 20-point marriage for them.
- **Keep what could make a column**: a pair, or two in a row in a suit.
- **Let 1-point cards go before 5-point ones**: a 10, J, Q or K is worth 5 to
  whoever lays it.
- **Mind the card under yours**: two in a row on the pile can be taken together.""",
    setup=Setup(
        you="QH 2S 5H 6H 9C 9D 10C 3D 8S AC 4C",
        them="7D 4S 2H 3C 8H 10S AD 6C 5S KS",
        stock="KH",
        before=("discard QH", "take", "discard 7D"),
    ),
    script=(
        Do(
            "Earlier you threw the Q♥; your opponent took it, and holds it. Draw from the stock.",
            want=("draw",),
            replies=(("take", "Nothing takes the 7♦: draw from the stock."),),
        ),
        Do(
            "You drew the K♥. Choose your discard: think what each card could still do, "
            "for you and for your opponent.",
            want=("discard 2S", "discard 3D", "discard AC", "discard 4C", "discard 8S"),
            replies=(
                (
                    "discard KH",
                    "Your opponent holds the Q♥: the K♥ would give them a marriage, 20 points.",
                ),
                (
                    "discard 10C",
                    "The 10♣ is worth 5 to whoever lays it: let a 1-point card go.",
                ),
                ("discard 5H", "5♥ 6♥ wait for a 4♥ or a 7♥ to make a run: keep them."),
                ("discard 6H", "5♥ 6♥ wait for a 4♥ or a 7♥ to make a run: keep them."),
                ("discard 9C", "Your pair of 9s waits for a third: keep it."),
                ("discard 9D", "Your pair of 9s waits for a third: keep it."),
            ),
            done="A lone 1-point card: little use to you, little to them.",
        ),
        Them(("draw", "discard 2H")),
    ),
    outro="""\
The K♥ you hold is safe while the Q♥ is theirs: if they lay the Q♥ off
something, your K♥ may follow it. Keep weighing each card both ways.""",
    quiz=(
        Question(
            Setup(
                you="7S 2D 9C 9D 5H 6H KC QD 3S 10D AC",
                them="6S 4D 2H 3C 8H 10S AD 5C KS 8D",
                stock="4H QS",
                before=("discard 3S", "draw", "discard 6S", "draw"),
            ),
            "Their 6♠ is on top of the pile. Choose a discard that keeps all four habits.",
            right=("discard 2D", "discard AC"),
            explain="The 7♠ on the 6♠ makes two in a row: a 5♠ or 8♠ in their hand, and "
            "they take both. The 2♦ and A♣ are lone 1-point cards.",
        ),
        Question(
            Setup(
                you="10D 3C 5H 6H 9C 9D KS KC 7S 8S 2D",
                them="6S 4D 2H 4C 8H 10S AD 5C QS 8D",
            ),
            "Nothing goes down this turn. Choose a discard that keeps all four habits.",
            right=("discard 3C", "discard 2D"),
            explain="Your pairs and two-in-a-rows wait for a third card, and the 10♦ is "
            "worth 5 to whoever lays it: let a lone 1-point card go.",
        ),
    ),
)
