"""``umtali review``: a finished or saved game read back by the coach, hand by hand."""
