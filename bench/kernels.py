"""Times kernels written as CUDA C strings: kiln's RawKernel, ElementwiseKernel
and ReductionKernel beside CuPy's on the GPU, and the CPU runtime for CUDA C
beside NumPy and kiln's built-in ops.

Writes bench/results/kernels-<device>.json and the table between the
``kernels-<device>`` markers in docs/benchmarks.md.

    python bench/kernels.py --device cuda|cpu
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import numpy as np

import kiln
from run import ROOT, _fmt, machine, median_seconds, replace_doc_section, save_result

NOOP = r'extern "C" __global__ void noop(float* x, int n) {}'
NOOP_NO_ARGUMENTS = r'extern "C" __global__ void noop0() {}'
VECTOR_ADD = r"""
extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}
"""
SIN_SQRT = ("float32 x", "float32 y", "y = sinf(x) * 2 + sqrtf(fabsf(x))", "sin_sqrt")
L2 = ("float32 x", "float32 y", "x * x", "a + b", "y = sqrtf(a)", "0", "l2norm")
QUEUED = 100  # launches timed per wait in the overhead rows

# A fresh process: the context first (not counted), then a RawKernel from
# construction to the end of its first launch.
FIRST_LAUNCH = r"""
import sys, time
import numpy as np
lib, token = sys.argv[1], sys.argv[2]
source = "// " + token + "\n" + sys.argv[3]
if lib == "kiln":
    import kiln as xp
    x = xp.zeros(1024, dtype="float32", device="cuda")
    sync = xp.cuda.synchronize
else:
    import cupy as xp
    x = xp.zeros(1024, dtype="float32")
    sync = xp.cuda.Device().synchronize
sync()
start = time.perf_counter()
kernel = xp.RawKernel(source, "vector_add")
kernel((4,), (256,), (x, x, x, np.int32(1024)))
sync()
print(time.perf_counter() - start)
"""


def gpu_libs():
    libs = {"kiln": kiln}
    try:
        import cupy

        libs["cupy"] = cupy
    except ImportError:
        pass
    return libs


def per_launch(kernel, args, sync, samples=50):
    """Host time of one launch: QUEUED launches are timed without waiting for
    the device (too few to fill the driver's queue, so the host never waits
    on the GPU), then the device is waited for outside the timing."""
    times = []
    for _ in range(samples + 2):
        sync()
        start = time.perf_counter()
        for _ in range(QUEUED):
            kernel((1,), (32,), args)
        times.append((time.perf_counter() - start) / QUEUED)
    sync()
    return statistics.median(times[2:])


def fresh_process_seconds(command_in, warm, label):
    """Median over three fresh processes of the seconds each prints. Every
    sample gets an empty cache directory (kiln's, CuPy's and Numba's);
    `command_in(directory)` writes what it needs there and returns the
    command. warm: the timed run follows one that filled the cache."""
    samples = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, KILN_CACHE_DIR=cache, CUPY_CACHE_DIR=cache, NUMBA_CACHE_DIR=cache)
            command = command_in(cache)
            for _ in range(2 if warm else 1):
                out = subprocess.run(command, env=env, capture_output=True, text=True)
            if out.returncode != 0:
                print(f"  {label}: {out.stderr.strip().splitlines()[-1:]}")
                return None
            samples.append(float(out.stdout))
    return statistics.median(samples)


def first_launch(lib, warm):
    # A new token per sample: a source no cache has seen.
    return fresh_process_seconds(lambda cache: [sys.executable, "-c", FIRST_LAUNCH, lib, uuid.uuid4().hex, VECTOR_ADD],
                                 warm, lib)


def gpu_rows():
    libs = gpu_libs()
    n = 64 << 20
    host = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    rows = []

    def row(case, target, timings, nbytes=0):
        rows.append({"case": case, "target": target, "bytes": nbytes,
                     "seconds": {k: v for k, v in timings.items() if v is not None}})
        print(f"{case:60s} " + "  ".join(f"{k} {_fmt(v)}" for k, v in rows[-1]["seconds"].items()))

    launch = {}
    for name, xp in libs.items():
        x = xp.zeros(1024, dtype="float32") if name == "cupy" else kiln.zeros(1024, dtype="float32", device="cuda")
        sync = xp.cuda.Device().synchronize if name == "cupy" else kiln.cuda.synchronize
        launch[name] = per_launch(xp.RawKernel(NOOP, "noop"), (x, np.int32(1024)), sync)
    if "cupy" in libs:  # the driver's own cost, called from Python with nothing to convert
        cupy = libs["cupy"]
        function = cupy.RawKernel(NOOP_NO_ARGUMENTS, "noop0").kernel.ptr
        stream = cupy.cuda.get_current_stream().ptr

        def driver_only(grid, block, args):
            cupy.cuda.driver.launchKernel(function, 1, 1, 1, 32, 1, 1, 0, stream, 0, 0)

        launch["cuLaunchKernel alone (floor)"] = per_launch(driver_only, (), cupy.cuda.Device().synchronize)
    row(f"RawKernel launch, host time per call ({QUEUED} timed, then a wait)", "<= 3 us", launch)
    row("first launch of a new RawKernel, empty cache (fresh process)", "<= 0.2 s",
        {name: first_launch(name, warm=False) for name in libs})
    row("the same RawKernel in a fresh process, warm cache (module load included)", "<= 10 ms",
        {name: first_launch(name, warm=True) for name in libs})
    elementwise, reduction = {}, {}
    for name, xp in libs.items():
        x = xp.asarray(host) if name == "cupy" else kiln.asarray(host, device="cuda")
        sync = xp.cuda.Device().synchronize if name == "cupy" else kiln.cuda.synchronize
        sin_sqrt, l2 = xp.ElementwiseKernel(*SIN_SQRT), xp.ReductionKernel(*L2)
        elementwise[name] = median_seconds(lambda: (sin_sqrt(x), sync()))
        reduction[name] = median_seconds(lambda: (l2(x), sync()))
    row("ElementwiseKernel y = sinf(x)*2 + sqrtf(fabsf(x)), 64M float32", "<= 0.2 ms", elementwise, 2 * host.nbytes)
    row("ReductionKernel sqrt(sum(x*x)), 64M float32", "", reduction, host.nbytes)
    versions = {name: xp.__version__ for name, xp in libs.items()}
    return rows, kiln.cuda.Device(0).name, versions


def cpu_rows():
    rows = []
    rng = np.random.default_rng(0)

    def row(case, target, timings, nbytes=0):
        rows.append({"case": case, "target": target, "bytes": nbytes, "seconds": timings})
        print(f"{case:60s} " + "  ".join(f"{k} {_fmt(v)}" for k, v in timings.items()))

    side = 1024
    a, b = rng.random((side, side), dtype=np.float32), rng.random((side, side), dtype=np.float32)
    ka, kb = kiln.asarray(a, device="cpu"), kiln.asarray(b, device="cpu")
    kc = kiln.empty((side, side), dtype="float32", device="cpu")
    tiled = kiln.RawModule(path=os.path.join(ROOT, "examples", "kernels", "matmul.cu")).get_function("matmul_tiled")
    grid = (side // 16, side // 16)
    tiled(grid, (16, 16), (ka, kb, kc, side))
    np.testing.assert_allclose(kc.get(), a @ b, rtol=1e-4)
    row(f"16x16-tiled matmul kernel (__syncthreads), {side}x{side} float32", "reported",
        {"kiln RawKernel": _best_of(lambda: tiled(grid, (16, 16), (ka, kb, kc, side))),
         "numpy matmul": _best_of(lambda: a @ b)})
    n = 16 << 20
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    kx, ky = kiln.asarray(x, device="cpu"), kiln.asarray(y, device="cpu")
    kout = kiln.empty(n, dtype="float32", device="cpu")
    add = kiln.RawKernel(VECTOR_ADD, "vector_add")
    add_elementwise = kiln.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "add_elementwise")
    row(f"x + y without barriers, {n >> 20}M float32", "<= 2x built-in",
        {"kiln RawKernel": median_seconds(lambda: add((n // 256,), (256,), (kx, ky, kout, n))),
         "kiln ElementwiseKernel": median_seconds(lambda: add_elementwise(kx, ky, kout)),
         "kiln built-in add": median_seconds(lambda: kiln.add(kx, ky, out=kout)),
         "numpy add": median_seconds(lambda: np.add(x, y, out=x))}, 3 * n * 4)
    noop = kiln.RawKernel(NOOP, "noop")
    row("RawKernel launch of an empty kernel, one block", "", {"kiln RawKernel": per_launch(noop, (kx, 1), lambda: None)})
    return rows, "cpu", {"numpy": np.__version__}


def _best_of(fn, runs=3):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def write_table(result, section):
    columns = list(dict.fromkeys(lib for row in result["rows"] for lib in row["seconds"]))
    where = (f"{result['device']} (host: {result['machine']})" if result["device"] != "cpu"
             else f"{result['machine']} (kiln using {result['threads']} threads)")
    lines = [
        f"Measured {result['date']} on {where}; "
        + ", ".join(f"{k} {v}" for k, v in result["versions"].items()) + ".",
        "",
        "| case | " + " | ".join(columns) + " | target |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    for row in result["rows"]:
        cells = " | ".join(_fmt(row["seconds"][c]) if c in row["seconds"] else "n/a" for c in columns)
        lines.append(f"| {row['case']} | {cells} | {row['target']} |")
    replace_doc_section(section, "\n".join(lines))


def run_and_record(description, prefix, gpu_rows, cpu_rows):
    """The command line of a benchmark whose rows are timed per library:
    runs `gpu_rows` or `cpu_rows`, writes bench/results/<section>.json and
    the docs table (or only the table, from a saved result)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    parser.add_argument("--section", help=f"results file and docs section (default: {prefix}-<device>)")
    parser.add_argument("--from-json", metavar="PATH",
                        help="write the docs table from a saved result (e.g. one taken on another machine)")
    args = parser.parse_args()
    section = args.section or f"{prefix}-{args.device}"
    if args.from_json:
        with open(args.from_json) as f:
            write_table(json.load(f), section)
        return
    rows, device, versions = gpu_rows() if args.device == "cuda" else cpu_rows()
    result = {
        "date": datetime.date.today().isoformat(), "machine": machine(), "device": device,
        "threads": kiln._core._cpu_threads(), "versions": {"kiln": kiln.__version__, **versions,
                                                          "python": platform.python_version()},
        "rows": rows,
    }
    save_result(result, section)
    if not args.no_doc:
        write_table(result, section)


if __name__ == "__main__":
    run_and_record(__doc__.splitlines()[0], "kernels", gpu_rows, cpu_rows)
