"""Task systems (tasks.h): the library's heavy loops on threads of the
application. TaskPool is a host over Python threads: the loop bodies are C
functions, which cffi calls with the GIL released, so the ranges of a loop
run on several cores at once; the results are the same bits with any number
of workers and without a pool."""
import concurrent.futures

from ._call import binds, fail
from ._callbacks import TRAMPOLINES
from ._ffi import ffi, lib


class TaskPool:
    """A pool of `workers` threads (the stepping thread and workers - 1 more)
    to hand to System.set_task_system() or Lattice.set_task_system().

        with cdyn.TaskPool(2) as pool:
            sys.set_task_system(pool)
            sys.step(1e-3, steps=1000)
            sys.set_task_system(None)

    One pool may serve several systems used in turn from one thread."""

    @binds("cdyn_task_system_init")
    def __init__(self, workers):
        workers = int(workers)
        if not 1 <= workers <= 1024:
            raise ValueError("TaskPool: workers must be in 1 .. 1024, got %d" % workers)
        self.workers = workers
        self._executor = (concurrent.futures.ThreadPoolExecutor(workers - 1)
                          if workers > 1 else None)
        self._handle = ffi.new_handle(self)
        self._c = ffi.new("cdyn_task_system *")
        lib.cdyn_task_system_init(self._c)
        self._c.worker_count = workers
        self._c.enqueue = TRAMPOLINES["cdyn_task_enqueue_fn"]
        self._c.finish = TRAMPOLINES["cdyn_task_finish_fn"]
        self._c.user = self._handle

    def close(self):
        """Stops the threads (not while an object it was given steps)."""
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _run(self, task, count, min_range, context):
        n = min(self.workers, max(1, count // max(1, min_range)))
        cuts = [count * i // n for i in range(n + 1)]
        futures = []
        if self._executor is not None:
            try:
                futures = [self._executor.submit(task, cuts[i], cuts[i + 1], context)
                           for i in range(1, n)]
            except RuntimeError:  # shut down: run here
                futures = []
        task(cuts[0], cuts[1], context)
        done = {i for i, _ in enumerate(futures, 1)}
        for f in futures:
            f.result()
        for i in range(1, n):  # ranges no thread took
            if i not in done:
                task(cuts[i], cuts[i + 1], context)


@ffi.callback("cdyn_task_enqueue_fn")
def _enqueue(task, count, min_range, context, user):
    # Runs the whole loop before returning (NULL: finish is not called). The
    # library counts on every range having run: whatever fails here, the
    # ranges still run, on this thread.
    try:
        ffi.from_handle(user)._run(task, count, min_range, context)
    except BaseException:  # pragma: no cover - a pool that cannot run threads
        task(0, count, context)
    return ffi.NULL


@ffi.callback("cdyn_task_finish_fn")
def _finish(handle, user):  # pragma: no cover - enqueue returns NULL
    pass


TRAMPOLINES["cdyn_task_enqueue_fn"] = _enqueue
TRAMPOLINES["cdyn_task_finish_fn"] = _finish
# The library's own loop bodies, which the pool calls; never a Python
# function, so no trampoline.
TRAMPOLINES["cdyn_task_fn"] = None


def set_pool(obj, fname, pool):
    if pool is not None and not isinstance(pool, TaskPool):
        raise TypeError("set_task_system: expected a TaskPool or None, got %s"
                        % type(pool).__name__)
    st = getattr(lib, fname)(obj._checked(), pool._c if pool is not None else ffi.NULL)
    if st:
        fail(obj, st, fname)
    obj._task_pool = pool  # kept alive while the C object holds its handle


def pool_workers(obj, fname):
    out = ffi.new("cdyn_task_system *")
    out.size = ffi.sizeof("cdyn_task_system")
    st = getattr(lib, fname)(obj._checked(), out)
    if st:
        fail(obj, st, fname)
    return out.worker_count


class TasksMixin:
    """The System's task system."""

    @binds("cdyn_system_set_task_system")
    def set_task_system(self, pool):
        """Hands the heavy loops of the steps to `pool` (a TaskPool), or back
        to the calling thread (None). The same bits with any number of workers
        (and without a pool, but for long RATTLE rod chains, which are cut
        into segments only for a pool: round-off apart)."""
        set_pool(self, "cdyn_system_set_task_system", pool)

    @property
    @binds("cdyn_system_get_task_system")
    def task_workers(self):
        """The worker count of the task system in use (1 without one)."""
        return pool_workers(self, "cdyn_system_get_task_system")
