"""Research tooling, apart from what a player runs: ``umtali bench``.

The benchmarks, one module each in :mod:`~umtali.lab.benches`, listed once in
:data:`umtali.lab.bench.REGISTRY`; and what several of them share: the other
engines timed (:mod:`~umtali.lab.compare`), bot tournaments in duplicate
(:mod:`~umtali.lab.tournament`, their records :mod:`~umtali.lab.match_record`),
the rating ladder's fit (:mod:`~umtali.lab.ladder`), fuzzing
(:mod:`~umtali.lab.fuzzing`) and the local or Ray workers that run them
(:mod:`~umtali.lab.workers`).  Only the command line imports this package.
"""
