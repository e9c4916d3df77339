"""kiln.distributed: collectives between processes, with the interface of
CuPy's ``cupyx.distributed``.

    comm = kiln.distributed.init_process_group(n_devices, rank)
    comm.all_reduce(a, out, op="sum")

One process per device: each process selects its GPU first
(``kiln.cuda.Device(rank).use()``) and calls init_process_group with the
group's size and its rank; rank 0 serves a small rendezvous store at
``host:port`` (127.0.0.1:13333 unless given or set in
$KILN_DISTRIBUTED_HOST/PORT). Backends:

==========  ================================================================
``nccl``    GPU arrays through NCCL (the default where a GPU and NCCL work)
``host``    any arrays, their bytes passed through the store and combined on
            the host (the default without a GPU: CPU processes on one machine)
``mpi``     processes started by mpiexec, through mpi4py (CPU arrays without
            a copy; GPU arrays directly where MPI is CUDA-aware, else staged)
==========  ================================================================

One process driving several GPUs uses ``kiln.cuda.nccl.NcclCommunicator.initAll``
with ``kiln.cuda.nccl.groupStart()``/``groupEnd()``, as with CuPy.
"""
import os as _os

from ._communicator import Communicator  # noqa: F401

BACKENDS = ("nccl", "host", "mpi")


def _default_backend():
    """nccl where new arrays go to a GPU and NCCL loads, else host."""
    from .._ndarray.device import default_device

    if default_device().type == "cuda":
        from ..cuda import nccl

        if nccl.is_available():
            return "nccl"
    return "host"


def init_process_group(n_devices, rank, *, backend=None, host=None, port=None, use_mpi=False, timeout=None):
    """Joins this process to a group of ``n_devices`` ranks as ``rank`` and
    returns its communicator (cupyx.distributed's signature; ``backend`` None
    picks ``nccl`` on a GPU, else ``host``). ``use_mpi`` exchanges NCCL's
    group id through MPI instead of the store. ``timeout`` (seconds, default
    $KILN_DISTRIBUTED_TIMEOUT or 300) bounds each wait for the other ranks."""
    if not isinstance(n_devices, int) or isinstance(n_devices, bool) or n_devices < 1:
        raise ValueError(f"n_devices: expected a positive integer, got {n_devices!r}")
    if not isinstance(rank, int) or isinstance(rank, bool) or not 0 <= rank < n_devices:
        raise ValueError(f"rank: expected an integer in [0, {n_devices}), got {rank!r}")
    backend = _default_backend() if backend is None else backend
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "mpi":
        from ._mpi_backend import MPIBackend

        return MPIBackend(n_devices, rank)
    from ._store import Store, address

    timeout = float(timeout if timeout is not None else _os.environ.get("KILN_DISTRIBUTED_TIMEOUT", 300))
    store = Store(*address(host, port), serve=rank == 0, timeout=timeout)
    if backend == "nccl":
        from ._nccl_backend import NCCLBackend

        return NCCLBackend(n_devices, rank, store, use_mpi=use_mpi)
    from ._host_backend import HostBackend

    return HostBackend(n_devices, rank, store)


def __getattr__(name):
    """The backends' classes, imported on first use (they need NumPy)."""
    modules = {"NCCLBackend": "_nccl_backend", "HostBackend": "_host_backend", "MPIBackend": "_mpi_backend"}
    if name in modules:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{modules[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
