"""Times three Numba kernels on kiln's CPU backend (debug mode off and on)
beside Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), the place Numba users
run kernels without a GPU: a 16x16 shared-memory matmul of 256x256, an
atomic histogram of 1M values (a grid-stride loop) and a 5-point 2-D
stencil on 512x512. The same kernel source runs under both, each library in
a process of its own; kiln's kernels are compiled (and cached) before the
timing, as the simulator compiles nothing.

Writes bench/results/simulator-cpu.json and the table between the
``simulator-cpu`` markers in docs/benchmarks.md.

    python bench/simulator.py   (NUMBA_SIMULATOR_PYTHON: an interpreter with numba-cuda)
"""
import json
import os
import subprocess
import sys
import tempfile

from kernels import run_and_record

MATMUL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "kernels", "numba_matmul.py")
# numba-cuda's interpreter: $NUMBA_SIMULATOR_PYTHON, else the one make conformance-numba makes
SIMULATOR_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".venv-numba", "bin", "python")

# The kernels and their timing, run as `python - <lib> <dir>`: lib is
# "simulator" (Numba's simulator) or "kiln"/"kiln-debug"; dir holds the
# matmul's module. Prints {case: seconds}.
PROGRAM = r'''
import json, sys, time
import numpy as np
lib = sys.argv[1]
if lib == "simulator":
    np.row_stack = np.vstack  # Numba reads it; NumPy 2.4 dropped it
    from numba import cuda
else:
    from kiln import cuda
debug = lib == "kiln-debug"
sys.path.insert(0, sys.argv[2])  # examples/kernels/numba_matmul.py, importing this library's cuda
from numba_matmul import fast_matmul

def histogram(values, bins, counts):
    start = cuda.grid(1)
    for i in range(start, values.size, cuda.gridsize(1)):
        b = int(values[i] * bins)
        if b >= bins:
            b = bins - 1
        cuda.atomic.add(counts, b, 1)

def stencil(a, out):
    i, j = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) - a[i, j]

jit = cuda.jit(debug=True) if debug else cuda.jit
rng = np.random.default_rng(0)
A = rng.random((256, 256), dtype=np.float32); B = rng.random((256, 256), dtype=np.float32)
dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((256, 256), dtype=np.float32)
host_values = rng.random(1 << 20)
values = cuda.to_device(host_values); counts = cuda.to_device(np.zeros(64, dtype=np.int64))
grid = cuda.to_device(rng.random((512, 512))); out = cuda.device_array((512, 512))
cases = {
    "matmul": (jit(fast_matmul), (16, 16), (16, 16), (dA, dB, dC)),
    "histogram": (jit(histogram), 64, 128, (values, 64, counts)),
    "stencil": (jit(stencil), (32, 32), (16, 16), (grid, out)),
}
seconds = {}
for name, (kernel, blocks, threads, args) in cases.items():
    kernel[blocks, threads](*args)  # compiles kiln's kernel; warms the simulator
    cuda.synchronize()
    runs = 1 if lib == "simulator" else 5
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        kernel[blocks, threads](*args)
        cuda.synchronize()
        times.append(time.perf_counter() - start)
    seconds[name] = sorted(times)[len(times) // 2]
np.testing.assert_allclose(dC.copy_to_host(), A @ B, rtol=1e-4)
counts = cuda.to_device(np.zeros(64, dtype=np.int64))
cases["histogram"][0][64, 128](values, 64, counts)
np.testing.assert_array_equal(counts.copy_to_host(), np.bincount(np.minimum((host_values * 64).astype(int), 63),
                                                                   minlength=64))
print(json.dumps(seconds))
'''

CASES = {"matmul": "16x16 shared-memory matmul, 256x256 float32",
         "histogram": "atomic histogram of 1M float64 values, 64 bins (grid-stride loop)",
         "stencil": "5-point 2-D stencil, 512x512 float64"}


def run(python, lib, env):
    """The PROGRAM's timings under `lib`, with Numba's documented matmul
    (examples/kernels/numba_matmul.py) made to import that library's cuda."""
    with tempfile.TemporaryDirectory() as kernels:
        with open(MATMUL) as f:
            source = f.read()
        if lib == "simulator":
            source = source.replace("from kiln import cuda", "from numba import cuda")
        with open(os.path.join(kernels, "numba_matmul.py"), "w") as f:
            f.write(source)
        out = subprocess.run([python, "-", lib, kernels], input=PROGRAM, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"{lib} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def gpu_rows():
    raise SystemExit("Numba's simulator runs on the CPU: run bench/simulator.py --device cpu")


def cpu_rows():
    simulator = os.environ.get("NUMBA_SIMULATOR_PYTHON", SIMULATOR_PYTHON)
    kiln_env = dict(os.environ, KILN_DEVICE="cpu")
    timings = {"kiln CPU": run(sys.executable, "kiln", kiln_env),
               "kiln CPU, debug mode": run(sys.executable, "kiln-debug", kiln_env),
               "Numba simulator": run(simulator, "simulator", dict(os.environ, NUMBA_ENABLE_CUDASIM="1"))}
    version = subprocess.run([simulator, "-c", "import numba_cuda; print(numba_cuda.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    rows = []
    for case, label in CASES.items():
        seconds = {lib: t[case] for lib, t in timings.items()}
        ratio = seconds["Numba simulator"] / max(seconds["kiln CPU, debug mode"], seconds["kiln CPU"])
        rows.append({"case": f"{label}: simulator / slower kiln = {ratio:,.0f}x", "target": ">= 100x",
                     "bytes": 0, "seconds": seconds})
        print(rows[-1]["case"], seconds)
    return rows, "cpu", {"numba-cuda (simulator)": version}


if __name__ == "__main__":
    run_and_record(__doc__.splitlines()[0], "simulator", gpu_rows, cpu_rows)
