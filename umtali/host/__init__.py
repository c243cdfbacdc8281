"""``umtali host``: a game served over SSH, each player at their own terminal.

:mod:`~umtali.host.codes` makes the invite codes and keeps the door,
:mod:`~umtali.host.remote` is a seat's screen that outlives a dropped connection,
:mod:`~umtali.host.game` runs the game for the seats, and
:mod:`~umtali.host.ssh` speaks SSH (asyncssh, the optional ``net`` extra).
"""
