"""Research tooling, apart from what a player runs: ``umtali bench``.

Benchmarks (:mod:`~umtali.lab.bench`, :mod:`~umtali.lab.compare`), bot tournaments in
duplicate (:mod:`~umtali.lab.tournament`, their records :mod:`~umtali.lab.match_record`),
the rating ladder (:mod:`~umtali.lab.ladder`), fuzzing (:mod:`~umtali.lab.fuzzing`), the
hosted-game load test (:mod:`~umtali.lab.hostload`) and the local or Ray workers that
run them (:mod:`~umtali.lab.workers`).  Only the command line imports this package.
"""
