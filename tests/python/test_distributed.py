"""kiln.distributed and kiln.cuda.nccl: every collective of
cupyx.distributed's interface between real processes (spawned here, or
started by mpiexec), checked against NumPy folding the ranks' inputs in rank
order, over every dtype; the host backend on the CPU, NCCL on the GPUs (two
when the machine has them), MPI through mpi4py and Open MPI; NCCL's
communicators driven from one process; and the checks on bad arguments."""
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

import kiln
import kiln.distributed as kd

from conftest import ALL_DTYPES, random_array

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast stays off (shared GPU hosts)
UFUNCS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def inputs(dtype, n, shape):
    """Every rank's input, the same in every process."""
    return [random_array(shape, dtype, np.random.default_rng(100 + r), low=-3, high=4) for r in range(n)]


def check(got, want, dtype):
    got = kiln.asnumpy(got)
    assert got.dtype == np.dtype(dtype)
    if np.dtype(dtype).kind in "fc":
        rtol = {2: 4e-3, 4: 1e-5, 8: 1e-12}[np.dtype(dtype).itemsize // (2 if np.dtype(dtype).kind == "c" else 1)]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 10)
    else:
        np.testing.assert_array_equal(got, want)


def exercise(comm, device, dtypes):
    """Every collective over `dtypes`; raises on the first wrong value."""
    n, r = comm.n_devices, comm.rank
    for dtype in dtypes:
        xs = inputs(dtype, n, (5,))
        a = kiln.asarray(xs[r].copy(), device=device)  # (on the CPU asarray shares NumPy memory)
        ops = ["sum"] if np.dtype(dtype).kind == "c" else ["sum", "prod", "max", "min"]
        for op in ops:
            out = kiln.empty(5, dtype=dtype, device=device)
            comm.all_reduce(a, out, op=op)
            want = xs[0]
            for x in xs[1:]:
                want = UFUNCS[op](want, x)
            check(out, want, dtype)
        out = kiln.zeros(5, dtype=dtype, device=device)
        comm.reduce(a, out, root=n - 1, op="sum")
        if r == n - 1:
            check(out, sum(xs[1:], xs[0]) if dtype != "bool" else np.logical_or.reduce(xs), dtype)
        b = kiln.asarray(xs[r].copy(), device=device)
        comm.broadcast(b, root=1 % n)
        check(b, xs[1 % n], dtype)
        big = inputs(dtype, n, (3 * n,))
        out = kiln.empty(3, dtype=dtype, device=device)
        comm.reduce_scatter(kiln.asarray(big[r], device=device), out, 3, op="max" if dtype != "complex64" and
                            dtype != "complex128" else "sum")
        folded = big[0]
        for x in big[1:]:
            folded = (np.maximum if np.dtype(dtype).kind != "c" else np.add)(folded, x)
        check(out, folded[3 * r:3 * r + 3], dtype)
        gathered = kiln.empty(5 * n, dtype=dtype, device=device)
        comm.all_gather(a, gathered, 5)
        check(gathered, np.concatenate(xs), dtype)
        rows = kiln.zeros((n, 5), dtype=dtype, device=device)
        comm.gather(a, rows, root=0)
        if r == 0:
            check(rows, np.stack(xs), dtype)
        table = inputs(dtype, n, (n, 2))
        mine = kiln.empty(2, dtype=dtype, device=device)
        comm.scatter(kiln.asarray(table[0], device=device), mine, root=0)
        check(mine, table[0][r], dtype)
        swapped = kiln.empty((n, 2), dtype=dtype, device=device)
        comm.all_to_all(kiln.asarray(table[r], device=device), swapped)
        check(swapped, np.stack([table[s][r] for s in range(n)]), dtype)
        if n % 2 == 0:
            peer = r ^ 1
            got = kiln.empty(5, dtype=dtype, device=device)
            comm.send_recv(a, got, peer)
            check(got, xs[peer], dtype)
            if r % 2 == 0:
                comm.send(a, peer)
                comm.recv(got, peer)
            else:
                comm.recv(got, peer)
                comm.send(a, peer)
            check(got, xs[peer], dtype)
    comm.barrier()


def rank_main(rank, n, port, backend, device_kind, dtypes, results):
    try:
        if device_kind == "cuda":
            index = rank % kiln.cuda.device_count()
            kiln.cuda.Device(index).use()
            device = kiln.Device(f"cuda:{index}")
        else:
            device = kiln.Device("cpu")
        comm = kd.init_process_group(n, rank, backend=backend, port=port, timeout=120)
        exercise(comm, device, dtypes)
        comm.stop()
        results.put((rank, "ok"))
    except BaseException:
        results.put((rank, traceback.format_exc()))


def run_group(n, backend, device_kind, dtypes=ALL_DTYPES):
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    port = free_port()
    procs = [ctx.Process(target=rank_main, args=(r, n, port, backend, device_kind, dtypes, results))
             for r in range(n)]
    for p in procs:
        p.start()
    outcome = {}
    try:
        for _ in range(n):
            rank, text = results.get(timeout=300)
            outcome[rank] = text
    finally:
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()
    failed = {r: t for r, t in outcome.items() if t != "ok"}
    assert not failed, "\n".join(f"rank {r}:\n{t}" for r, t in failed.items())


@pytest.mark.parametrize("n", [2, 3])
def test_host_backend_between_cpu_processes(n):
    run_group(n, "host", "cpu")


def test_host_backend_stages_gpu_arrays():
    if not kiln.cuda.is_available():
        pytest.skip("no GPU")
    run_group(2, "host", "cuda", ["float32", "int64", "bool"])


def test_nccl_backend_one_process_per_gpu():
    if not kiln.cuda.is_available():
        pytest.skip("no GPU")
    n = min(kiln.cuda.device_count(), 2)
    run_group(n, "nccl", "cuda")


def test_nccl_communicators_of_one_process():
    """CuPy's single-process pattern: initAll, then one group of calls."""
    if not kiln.cuda.is_available():
        pytest.skip("no GPU")
    from kiln.cuda import nccl

    devices = list(range(kiln.cuda.device_count()))
    comms = nccl.NcclCommunicator.initAll(devices)
    assert [c.device_id() for c in comms] == devices
    assert [c.rank_id() for c in comms] == devices and all(c.size() == len(devices) for c in comms)
    arrays, outs = [], []
    for d in devices:
        with kiln.cuda.Device(d):
            arrays.append(kiln.arange(1000, dtype="float32", device=f"cuda:{d}") * (d + 1))
            outs.append(kiln.empty(1000, dtype="float32", device=f"cuda:{d}"))
    nccl.groupStart()
    for comm, a, out in zip(comms, arrays, outs):
        comm.allReduce(a.data.ptr, out.data.ptr, a.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                       kiln.cuda.get_current_stream(comm.device_id()).ptr)
    nccl.groupEnd()
    want = np.arange(1000, dtype=np.float32) * sum(d + 1 for d in devices)
    for out in outs:
        np.testing.assert_array_equal(kiln.asnumpy(out), want)
    for comm in comms:
        comm.destroy()


def test_nccl_module_without_a_gpu():
    """What cupy.cuda.nccl offers before any communicator: ids, version, constants."""
    from kiln.cuda import nccl

    if not nccl.is_available():
        pytest.skip("NCCL is not installed")
    assert nccl.get_version() >= 21000
    uid = nccl.get_unique_id()
    assert isinstance(uid, tuple) and len(uid) == 128 and all(-128 <= v < 128 for v in uid)
    assert (nccl.NCCL_FLOAT32, nccl.NCCL_FLOAT64, nccl.NCCL_SUM, nccl.NCCL_MAX) == (7, 8, 0, 2)
    assert issubclass(nccl.NcclError, kiln.cuda.CUDAError)
    if not kiln.cuda.is_available():
        with pytest.raises(kiln.cuda.CUDAError):
            nccl.NcclCommunicator(1, uid, 0)


def test_bad_arguments_name_themselves():
    comm = kd.init_process_group(1, 0, backend="host", port=free_port())
    try:
        a = kiln.ones(4)
        with pytest.raises(ValueError, match="op"):
            comm.all_reduce(a, kiln.empty(4), op="avg")
        with pytest.raises(TypeError, match="out_array"):
            comm.all_reduce(a, kiln.empty(4, dtype="int32"))
        with pytest.raises(ValueError, match="out_array"):
            comm.all_reduce(a, kiln.empty(5))
        with pytest.raises(ValueError, match="root"):
            comm.reduce(a, kiln.empty(4), root=1)
        with pytest.raises(TypeError, match="in_array"):
            comm.all_reduce(np.ones(4), kiln.empty(4))
        with pytest.raises(ValueError, match="contiguous"):
            comm.broadcast(kiln.ones(8)[::2])
        with pytest.raises(ValueError, match="count"):
            comm.all_gather(a, kiln.empty(4), -1)
        with pytest.raises(ValueError, match="first axis"):
            comm.all_to_all(kiln.ones((2, 2)), kiln.empty((2, 2)))
        out = kiln.empty(4)
        comm.all_reduce(a * 3, out)  # a group of one: the input itself
        np.testing.assert_array_equal(kiln.asnumpy(out), 3)
    finally:
        comm.stop()
    with pytest.raises(ValueError, match="rank"):
        kd.init_process_group(2, 2)
    with pytest.raises(ValueError, match="n_devices"):
        kd.init_process_group(0, 0)
    with pytest.raises(ValueError, match="backend"):
        kd.init_process_group(1, 0, backend="gloo")


def mpiexec():
    found = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return found


MPI_SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import kiln, kiln.distributed as kd
    from mpi4py import MPI
    import numpy as np
    from test_distributed import exercise
    device = {device!r}
    if device == "cuda":
        kiln.cuda.Device(MPI.COMM_WORLD.Get_rank() % kiln.cuda.device_count()).use()
        device = f"cuda:{{kiln.cuda.get_device_id()}}"
    comm = kd.init_process_group(MPI.COMM_WORLD.Get_size(), MPI.COMM_WORLD.Get_rank(), backend="mpi")
    exercise(comm, kiln.Device(device), {dtypes!r})
    # kiln arrays are mpi4py buffers themselves (through DLPack)
    a = kiln.full(3, MPI.COMM_WORLD.Get_rank() + 1.0, device=device)
    out = kiln.empty(3, device=device)
    if device == "cpu":
        MPI.COMM_WORLD.Allreduce(a, out)
        assert kiln.asnumpy(out).tolist() == [3.0] * 3, out
    comm.stop()
    print("rank", MPI.COMM_WORLD.Get_rank(), "ok")
""")


@pytest.mark.parametrize("device_kind", ["cpu", "cuda"])
def test_mpi_backend_under_mpiexec(device_kind, tmp_path):
    pytest.importorskip("mpi4py")
    if mpiexec() is None:
        pytest.skip("no mpiexec")
    if device_kind == "cuda" and not kiln.cuda.is_available():
        pytest.skip("no GPU")
    script = tmp_path / "mpi_ranks.py"
    dtypes = ALL_DTYPES if device_kind == "cpu" else ["float32", "int32", "bool", "complex128"]
    script.write_text(MPI_SCRIPT.format(tests=os.path.dirname(__file__), device=device_kind, dtypes=dtypes))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1",
               PRTE_MCA_rmaps_default_mapping_policy=":oversubscribe")
    done = subprocess.run([mpiexec(), "-n", "2", sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0 and done.stdout.count("ok") == 2, done.stdout[-3000:] + done.stderr[-3000:]
