"""The ``umtali bench`` commands, one module each, named as the command.

Each module has an ``options(parser)`` that adds the command's options and a
``run(args, parser)`` that measures, prints the figures (the last line one JSON
object) and returns the exit code; with them goes whatever only that bench
needs.  What several benches share stays in :mod:`umtali.lab` (tournaments,
workers, match records, the ladder's fit, the engines compared, the fuzzer), and
their common options in :mod:`._shared`.  The list of commands is
:data:`umtali.lab.bench.REGISTRY`: a new bench is a module here and one entry
there.
"""
