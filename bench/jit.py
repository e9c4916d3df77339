"""Times kiln.cuda.jit beside Numba's cuda.jit (and the same kernel as a
RawKernel) on the GPU, and the N-Ways pair kernel on the CPU beside the lab's
serial @njit loop.

Writes bench/results/jit-<device>.json and the table between the
``jit-<device>`` markers in docs/benchmarks.md.

    python bench/jit.py --device cuda|cpu
"""
import os
import sys
import uuid

import numpy as np

import kiln
from kiln.rdf import ways
from kernels import fresh_process_seconds, per_launch, run_and_record
from run import _fmt, median_seconds

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "kernels"))
from numba_matmul import TPB, fast_matmul  # noqa: E402


# Plain functions, decorated by each library in turn.
def noop1(a):
    pass


def noop4(a, b, c, d):
    pass


# fast_matmul above, transcribed line by line to CUDA C: "the same kernel as a RawKernel".
FAST_MATMUL_CUDA_C = r"""
#define TPB 16
extern "C" __global__ void fast_matmul(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y, bpg = gridDim.x;
  float tmp = 0.0f;
  for (int i = 0; i < bpg; ++i) {
    sA[ty][tx] = 0;
    sB[ty][tx] = 0;
    if (y < n && tx + i * TPB < n) sA[ty][tx] = A[y * n + tx + i * TPB];
    if (x < n && ty + i * TPB < n) sB[ty][tx] = B[(ty + i * TPB) * n + x];
    __syncthreads();
    for (int j = 0; j < TPB; ++j) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < n && x < n) C[y * n + x] = tmp;
}
"""

cuda = kiln.cuda  # the name the kernels here read; jitted() rebinds it to Numba's for Numba

FIRST_JIT = r"""
import sys, time
import numpy as np
lib = sys.argv[1]
if lib == "numba":
    np.row_stack = np.vstack
    from numba import cuda
else:
    from kiln import cuda
x = cuda.device_array(1024, dtype=np.float32)
cuda.synchronize()
start = time.perf_counter()

@cuda.jit(cache=True)
def scale(a, f):  # TOKEN
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * f

scale[4, 256](x, np.float32(2))
cuda.synchronize()
print(time.perf_counter() - start)
"""


def numba_cuda():
    np.row_stack = np.vstack  # Numba reads it; NumPy 2.5 dropped it
    from numba import cuda as numba_cuda_module

    return numba_cuda_module


def jitted(lib, fn):
    """`fn` compiled by kiln.cuda.jit or Numba's cuda.jit: its module's `cuda`
    becomes that library's (both compile on the first launch, which follows)."""
    module = kiln.cuda if lib == "kiln" else numba_cuda()
    fn.__globals__["cuda"] = module
    return module.jit(fn)


def first_launch(lib, warm):
    def command(cache):
        script = os.path.join(cache, "first.py")  # a new kernel source per sample
        with open(script, "w") as f:
            f.write(FIRST_JIT.replace("TOKEN", uuid.uuid4().hex))
        return [sys.executable, script, lib]

    return fresh_process_seconds(command, warm, lib)


def gpu_rows():
    libs = ["kiln"]
    try:
        numba_cuda()
        libs.append("numba")
    except ImportError:
        pass
    rows = []

    def row(case, target, timings):
        rows.append({"case": case, "target": target, "bytes": 0,
                     "seconds": {k: v for k, v in timings.items() if v is not None}})
        print(f"{case:60s} " + "  ".join(f"{k} {_fmt(v)}" for k, v in rows[-1]["seconds"].items()))

    row("first launch of a new kernel, empty cache (fresh process)", "<= 0.3 s",
        {f"{lib} jit": first_launch(lib, warm=False) for lib in libs})
    row("the same kernel in a fresh process, warm cache", "<= 20 ms",
        {f"{lib} jit": first_launch(lib, warm=True) for lib in libs})
    for count, fn in ((1, noop1), (4, noop4)):
        timings = {}
        for lib in libs:
            kernel = jitted(lib, fn)
            a = cuda.device_array(1024, dtype=np.float32)
            launch = kernel[1, 32]

            def call(grid, block, args, launch=launch):
                launch(*args)

            timings[f"{lib} jit"] = per_launch(call, (a,) * count, cuda.synchronize)
        row(f"launch with {count} array argument{'s' if count > 1 else ''}, host time per call", "<= 4 us", timings)
    n = 2048
    rng = np.random.default_rng(0)
    A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    timings = {}
    for lib in libs:
        kernel = jitted(lib, fast_matmul)
        module = fast_matmul.__globals__["cuda"]
        dA, dB = module.to_device(A), module.to_device(B)
        dC = module.device_array((n, n), dtype=np.float32)
        launch = kernel[(n // TPB, n // TPB), (TPB, TPB)]
        timings[f"{lib} jit"] = median_seconds(lambda: (launch(dA, dB, dC), module.synchronize()))
    tiled = kiln.RawKernel(FAST_MATMUL_CUDA_C, "fast_matmul")
    kA, kB = kiln.asarray(A, device="cuda"), kiln.asarray(B, device="cuda")
    kC = kiln.empty((n, n), dtype="float32", device="cuda")
    timings["kiln RawKernel"] = median_seconds(
        lambda: (tiled((n // TPB, n // TPB), (TPB, TPB), (kA, kB, kC, n)), kiln.cuda.synchronize()))
    row(f"Numba's 16x16 shared-memory matmul, {n}x{n} float32 (kernel time)", "jit within 5% of RawKernel", timings)
    versions = {}
    if "numba" in libs:
        import numba

        versions["numba"] = numba.__version__
    return rows, kiln.cuda.Device(0).name, versions


def cpu_rows():
    """The lab's kernel as a kiln.cuda.jit kernel (kiln/rdf/ways.py) on the CPU's
    cores, beside the lab's serial @njit loop (bench/rdf.py), one frame."""
    from rdf import serial_lab_seconds, trajectory

    x, y, z, box = (a[:1] if a.ndim == 2 else a for a in trajectory())
    positions = [kiln.asarray(a, device="cpu") for a in (x, y, z)]
    timings = {"kiln jit (CPU)": median_seconds(lambda: ways.jit(*positions, box), min_time=2, repeats=3)}
    serial, versions = serial_lab_seconds(x, y, z, box)
    if serial is not None:
        timings["numba @njit serial"] = serial
    row = {"case": f"N-Ways all-pairs histogram, {x.shape[1]} atoms, 1 frame", "target": "reported", "bytes": 0,
           "seconds": timings}
    print(row["case"], "  ".join(f"{k} {_fmt(v)}" for k, v in timings.items()))
    return [row], "cpu", versions


if __name__ == "__main__":
    run_and_record(__doc__.splitlines()[0], "jit", gpu_rows, cpu_rows)
