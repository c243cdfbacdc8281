"""Where the benchmarks' jobs run: this process, local processes, or a Ray cluster.

A job is a call of a module-level function with plain arguments (a match of
the deal bank, a chunk of the soak), and it decides nothing by time or by
where it runs: so the results are the same however the jobs are spread,
and :func:`run_jobs` hands them back in the order the jobs were given.

Ray is optional (``pip install 'umtali[cluster]'``).  With ``ray=""`` the
jobs run on a Ray cluster started on this machine for the run; with an
address (``auto``, ``HOST:6379``, ``ray://HOST:10001``) on that cluster,
which is sent this package's code so its nodes play by the same rules.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

R = TypeVar("R")

CLUSTER_EXTRA = "pip install 'umtali[cluster]'"


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster could not be reached."""


def run_jobs(
    fn: Callable[..., R],
    jobs: Sequence[tuple[Any, ...]],
    workers: int = 1,
    ray: str | None = None,
    done: Callable[[R], None] | None = None,
) -> list[R]:
    """``fn(*job)`` for every job, in the jobs' order; ``done`` is given each result as
    its job ends (in the order they end).

    ``ray`` None runs on ``workers`` local processes (in this one when
    ``workers`` is 1); a string runs on Ray (see the module's notes).
    """
    if ray is not None:
        return _on_ray(fn, jobs, workers, ray, done)
    results: list[R] = []
    if workers <= 1:
        for job in jobs:
            results.append(fn(*job))
            if done is not None:
                done(results[-1])
        return results
    slots: list[R | None] = [None] * len(jobs)
    # A process pool that is torn down at once on an interrupt (Ctrl-C) or an
    # error: the workers ignore Ctrl-C themselves, so only this process stops,
    # and whatever its ``done`` has kept of the finished jobs stays kept.
    with multiprocessing.Pool(min(workers, max(1, len(jobs))), _ignore_interrupts) as pool:
        packed = [(fn, n, job) for n, job in enumerate(jobs)]
        for n, result in pool.imap_unordered(_numbered, packed):
            slots[n] = result
            if done is not None:
                done(result)
    return cast(list[R], slots)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _numbered(packed: tuple[Callable[..., R], int, tuple[Any, ...]]) -> tuple[int, R]:
    fn, n, job = packed
    return n, fn(*job)


def _on_ray(
    fn: Callable[..., R],
    jobs: Sequence[tuple[Any, ...]],
    workers: int,
    address: str,
    done: Callable[[R], None] | None,
) -> list[R]:
    try:
        import ray
    except ImportError as err:
        raise ClusterError(f"--ray needs Ray: {CLUSTER_EXTRA}") from err
    started = not ray.is_initialized()
    if started and address and not _answers(address):
        raise ClusterError(f"no Ray cluster answers at {address!r}")
    if started:
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        if address:
            # The cluster's nodes get this very package, so they play by these rules.
            options["runtime_env"] = {"py_modules": [str(Path(__file__).parent.parent)]}
        else:
            options["num_cpus"] = max(1, workers)
        try:
            ray.init(address=address or None, **options)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise ClusterError(f"could not reach the Ray cluster at {address!r}: {err}") from err
    try:
        remote = ray.remote(fn)
        refs = [remote.remote(*job) for job in jobs]
        place = {ref: n for n, ref in enumerate(refs)}
        slots: list[Any] = [None] * len(jobs)
        waiting = list(refs)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                slots[place[ref]] = ray.get(ref)
                if done is not None:
                    done(slots[place[ref]])
        return slots
    finally:
        if started:
            ray.shutdown()


def _answers(address: str, seconds: float = 3.0) -> bool:
    """Whether something listens at a ``HOST:PORT`` or ``ray://HOST:PORT`` address
    (Ray itself would wait minutes on a dead one).  ``auto`` and the like are left
    to Ray, which finds its cluster on its own."""
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if not sep or not port.isdigit():
        return True
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
            return True
    except OSError:
        return False


__all__ = ["CLUSTER_EXTRA", "ClusterError", "run_jobs"]
