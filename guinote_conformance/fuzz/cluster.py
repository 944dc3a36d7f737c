"""Where the batches run: local worker processes, or a Dask cluster (``compare --cluster``).

In: the number of jobs and the ``--cluster`` option (none; ``local``; or the address of a running
Dask scheduler, ``tcp://HOST:8786``). Out: a :class:`Backend`, whose ``executor`` is a
:class:`concurrent.futures.Executor` the batches are submitted to (:mod:`guinote_conformance.fuzz.driver`
submits them the same way to each), with the number of workers; and, for an error raised by a
batch's future, what went wrong in one line and the exit code (:func:`failure_of`).

* no ``--cluster``: a pool of ``--jobs`` local processes (:class:`~concurrent.futures.ProcessPoolExecutor`,
  started by ``spawn``), the embedded default;
* ``--cluster local``: a Dask ``LocalCluster`` of ``--jobs`` worker processes, one thread each;
* ``--cluster tcp://HOST:PORT``: the Dask scheduler there and its workers (``dask scheduler``,
  ``dask worker --nthreads 1`` on each machine, with this package and the engine installed).

Dask (``pip install 'guinote-conformance[cluster]'``) is imported only for ``--cluster``; without
it ``--cluster`` is a usage error that says what to install. A Dask worker that dies while it plays
a batch is replaced and the batch played again elsewhere (a batch is played the same wherever it
runs); a batch that has killed :data:`ALLOWED_FAILURES` + 1 workers, a pool process that died, or
a scheduler that is gone ends the run with its reason, never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.base.untrusted import bounded

#: How many workers one batch may kill before the run gives up on it (Dask's ``allowed-failures``).
ALLOWED_FAILURES = 2
#: Seconds to reach a Dask scheduler before the run gives up.
CONNECT_SECONDS = 10.0
INSTALL = "pip install 'guinote-conformance[cluster]'"
#: Dask's settings for the workers of a local cluster (and the client's scheduler): a batch that kills its
#: worker (an engine that ends the process) is tried on ALLOWED_FAILURES more; no statistical profiler
#: (it samples the worker's stack every 10 ms, holding the interpreter's lock: a tenth of the games);
#: fewer wake-ups of the event loops, which take the lock from the games (measured idle, 2 workers: the
#: client and its scheduler from 5.3 to 0.8 percent of a core, each worker from 2.2 to 0.3): the loop's
#: tick and the system and memory monitors less often, no work stealing (the batches are alike, and the
#: scheduler queues them until a worker is free).
WORKER_SETTINGS = {
    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
}
#: Seconds the number of Dask workers is kept before the scheduler is asked again.
WORKERS_SECONDS = 1.0


class BackendError(Exception):
    """The workers cannot be had or were lost: the message, and the exit code."""

    def __init__(self, message: str, code: ExitCode) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Backend:
    """The executor the batches go to, how many workers it has, and how to close it."""

    name: str
    executor: Executor
    workers: Callable[[], int]
    close: Callable[[], None] = field(default=lambda: None)
    #: the Dask client, with ``--cluster``
    client: Any = None


def open_backend(jobs: int, cluster: str | None) -> Backend:
    """The workers of a run (see the module's docstring); :class:`BackendError` if they cannot be had."""
    if not cluster:
        pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_end_with_parent)
        return Backend(f"{jobs} local processes", pool, lambda: jobs, lambda: pool.shutdown(cancel_futures=True))
    if cluster != "local" and not cluster.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
        raise BackendError(
            f"--cluster {cluster!r}: write local, or a scheduler's address (tcp://HOST:8786)", ExitCode.USAGE
        )
    dask = _import_dask()
    if cluster == "local":
        local = dask.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50)  # fmt: skip
        try:
            client = dask.Client(local)
        except BaseException:
            local.close()
            raise

        def close_local() -> None:
            with contextlib.suppress(Exception):
                client.close()
            with contextlib.suppress(Exception):
                local.close()

        return _dask_backend(f"a Dask LocalCluster of {jobs} workers", client, close_local)
    try:
        client = dask.Client(cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        raise BackendError(f"--cluster {cluster}: no Dask scheduler answers there: {bounded(str(error), 300)}",
                           ExitCode.USAGE) from None  # fmt: skip
    return _dask_backend(f"the Dask scheduler at {cluster}", client, lambda: _quietly(client.close))


def _end_with_parent() -> None:
    """In a pool process: end when the run's process ends (a ``kill -9`` of it leaves the pool's processes
    waiting for work that never comes, each holding its engine)."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - a pool process always has its parent
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _dask_backend(name: str, client: Any, close: Callable[[], None]) -> Backend:
    known = [0, -WORKERS_SECONDS]  # the workers, and when the scheduler said so

    def workers() -> int:  # (asked at every turn of the client's loop: the scheduler's answer grows with them)
        if time.monotonic() - known[1] >= WORKERS_SECONDS:
            try:
                known[0] = len(client.scheduler_info()["workers"])
            except Exception:  # the scheduler is gone: the batches' futures say so
                known[0] = 0
            known[1] = time.monotonic()
        return int(known[0])

    return Backend(name, client.get_executor(pure=False), workers, close, client)


def _quietly(call: Callable[[], object]) -> None:
    with contextlib.suppress(Exception):
        call()


def _import_dask() -> Any:
    """``distributed``, with the settings a run needs, or a :class:`BackendError` that says what to install."""
    try:
        import dask
        import distributed
    except ImportError as error:
        missing = f"--cluster needs Dask, which is not installed ({error}): {INSTALL}"
        raise BackendError(missing, ExitCode.USAGE) from None
    dask.config.set(WORKER_SETTINGS)
    # Dask (and tornado under it) log a lost scheduler or worker with tracebacks; the run says what it means in
    # one line. Each of Dask's loggers has a level of its own (its logging configuration), so each is set.
    for name in ["distributed", "tornado", *logging.root.manager.loggerDict]:
        if name.partition(".")[0] in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    return distributed


def failure_of(error: BaseException, backend: Backend, what: str) -> BackendError:
    """What an error raised by the future of a batch (``what`` names it) means, in one line."""
    from guinote_conformance.fuzz.batch import EngineUnavailableOnWorker

    if isinstance(error, EngineUnavailableOnWorker):
        return BackendError(str(error), ExitCode.ENGINE_UNAVAILABLE)
    if isinstance(error, BrokenProcessPool):
        return BackendError(f"a worker process died playing {what} (the engine under test may have ended it)",
                            ExitCode.ENGINE_UNAVAILABLE)  # fmt: skip
    kind = type(error).__name__
    if kind == "KilledWorker":
        return BackendError(
            f"{what} killed Dask workers one after the other, as many as the scheduler allows ({ALLOWED_FAILURES + 1} "
            "on a local cluster; the engine under test may end the process it runs in)",
            ExitCode.ENGINE_UNAVAILABLE,
        )
    if kind in ("CancelledError", "FutureCancelledError", "CommClosedError") or isinstance(error, OSError):
        return BackendError(f"{backend.name}: the connection to the Dask scheduler was lost ({kind}): the run did "
                            "not complete", ExitCode.RULE_FAILURES)  # fmt: skip
    return BackendError(f"a worker failed playing {what}: {kind}: {bounded(str(error), 500)}",
                        ExitCode.ENGINE_UNAVAILABLE)  # fmt: skip


__all__ = ["ALLOWED_FAILURES", "Backend", "BackendError", "failure_of", "open_backend"]
