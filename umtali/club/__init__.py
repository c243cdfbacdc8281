"""The club: ``umtali serve``, where members play correspondence games over SSH.

The layers inside, from the bottom: :mod:`~umtali.club.schema` (the tables and their
migrations, on :mod:`umtali.store.database`), the club's records of people and games
(:mod:`~umtali.club.members`, :mod:`~umtali.club.games`, :mod:`~umtali.club.offers`),
its rules of time (:mod:`~umtali.club.clock`), and the SSH door and screens that members
meet.  A stored game is its record and the decisions appended to it: a server loads it,
decides, stores it, and holds nothing per game between two connections.
"""
