"""The pair-distance histogram, computed every way kiln offers. Each way takes
the trajectory on a device and returns the same int64 histogram (see
science.py for the conventions every way keeps, bit for bit).

- array_ops: array operations only, a block of rows against every atom at
  a time, kiln.bincount at the end;
- raw_kernel: the lab's all-pairs kernel as CUDA C, a kiln.RawKernel;
- jit: the same kernel in Python, kiln.cuda.jit;
- optimised: unique pairs only, in tiles staged through shared memory, a
  shared-memory histogram per block flushed once, and the divisions replaced
  by multiplications where that cannot change a bit;
- cpp_api: kiln's C++ API from a C++ program (kiln-rdf-histogram, built
  with kiln), which reads the trajectory from a DCD file and runs the
  optimised kernel; its time includes writing that file and starting it;
- serial: the lab's loop in NumPy, the reference.

On a GPU they run there; on the CPU the same kernels run on all cores.
"""
import math
import os
import subprocess
import tempfile

import numpy as np

import kiln
from kiln import cuda

from . import science

# The kernels in CUDA C (the lab's, and the optimised one), one source for
# the RawKernels here and for the C++ program of way cpp_api.
KERNELS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pair_kernels.cu")
with open(KERNELS_PATH) as _file:
    SOURCE = _file.read()

THREADS = 128
_kernels = {}


def _raw(name):
    if name not in _kernels:
        _kernels[name] = kiln.RawKernel(SOURCE, name, options=("--fmad=false",))
    return _kernels[name]


def _pair_all_jit(x, y, z, hist, lx, ly, lz, cut, width):
    """The lab's kernel in Python (kiln.cuda.jit)."""
    t = cuda.grid(1)
    frames = x.shape[0]
    atoms = x.shape[1]
    if t >= frames * atoms:
        return
    f = t // atoms
    i = t % atoms
    xi = x[f, i]
    yi = y[f, i]
    zi = z[f, i]
    for j in range(atoms):
        dx = xi - x[f, j]
        dy = yi - y[f, j]
        dz = zi - z[f, j]
        dx = dx - lx * round(dx / lx)
        dy = dy - ly * round(dy / ly)
        dz = dz - lz * round(dz / lz)
        r = math.sqrt((dx * dx + dy * dy) + dz * dz)
        if r < cut:
            cuda.atomic.add(hist, int(r / width), 1)


pair_all_jit = cuda.jit(_pair_all_jit, fma=False)


def _geometry(box, bins):
    cut, width = science.geometry(box, bins)
    return float(box[0]), float(box[1]), float(box[2]), cut, width


# Pairs an array_ops step holds (each temporary array is 8 bytes a pair).
ARRAY_STEP_PAIRS = 1 << 22


def array_ops(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    edges = [float(v) for v in box]
    cut, width = science.geometry(box, bins)
    hist = kiln.zeros(bins + 1, dtype="int64", device=x.device)  # bin `bins` takes the pairs beyond the cut
    rows = max(1, ARRAY_STEP_PAIRS // atoms)
    for f in range(frames):
        for start in range(0, atoms, rows):
            d = [c[f, start:start + rows, None] - c[f, None, :] for c in (x, y, z)]
            dx, dy, dz = (v - edge * kiln.rint(v / edge) for v, edge in zip(d, edges))
            r = kiln.sqrt((dx * dx + dy * dy) + dz * dz)
            index = kiln.where(r < cut, (r / width).astype("int64"), bins)
            hist += kiln.bincount(index.reshape(-1), minlength=bins + 1)
    return hist[:bins]


def raw_kernel(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    hist = kiln.zeros(bins, dtype="uint64", device=x.device)
    total = frames * atoms
    _raw("pair_all")((-(-total // THREADS),), (THREADS,), (x, y, z, hist, atoms, frames, *_geometry(box, bins)))
    return hist.astype("int64")


def jit(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    hist = kiln.zeros(bins, dtype="int64", device=x.device)
    pair_all_jit[-(-(frames * atoms) // THREADS), THREADS](x, y, z, hist, *_geometry(box, bins))
    return hist


def optimised(x, y, z, box, bins=science.BINS):
    frames, atoms = x.shape
    hist = kiln.zeros(bins, dtype="uint64", device=x.device)
    threads, blocks = _tile_launch(x.device)
    _raw("pair_unique")((blocks,), (threads,), (x, y, z, hist, atoms, frames, *_geometry(box, bins), bins),
                        shared_mem=3 * 8 * threads + 4 * bins)
    counts = hist.astype("int64")
    counts[0] += frames * atoms  # the self pairs the lab's loop counts
    return counts


def _tile_launch(device):
    """(threads, blocks) of the tiled kernel: on an H200, 128-thread tiles and
    8 blocks a multiprocessor measured fastest (1.42 ms; 256 threads 1.61, two
    rows a thread 1.67); on the CPU, a few blocks a core."""
    if device.type == "cuda":
        if device.index not in _multiprocessors:
            _multiprocessors[device.index] = kiln.cuda.Device(device.index).attributes["MultiProcessorCount"]
        return 128, 8 * _multiprocessors[device.index]
    return 64, 4 * (os.cpu_count() or 1)


_multiprocessors = {}


def cpp_api(x, y, z, box, bins=science.BINS):
    coordinates = [kiln.asnumpy(c) for c in (x, y, z)]
    if any((c.astype(np.float32) != c).any() for c in coordinates):
        raise ValueError("way cpp_api hands the positions over in a DCD file, which holds float32: "
                         "these positions are not float32 values")
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "trajectory.dcd")
        kiln.io.write_dcd(path, *coordinates, box=np.tile(np.asarray(box, dtype=np.float64), (x.shape[0], 1)))
        _, counts = histogram_program(path, x.device, bins)
    return kiln.asarray(counts, device=x.device)


def histogram_program(dcd, device, bins=science.BINS):
    """Runs kiln-rdf-histogram, the C++ program, on a DCD file on `device`:
    (the program's own seconds for the histogram, the int64 NumPy counts)."""
    program = os.path.join(os.path.dirname(os.path.abspath(kiln.__file__)), "bin", "kiln-rdf-histogram")
    if not os.path.exists(program):
        raise RuntimeError(f"{program} is missing: kiln-rdf-histogram is built and installed with kiln")
    threads, blocks = _tile_launch(device)
    name = "cpu" if device.type == "cpu" else f"cuda:{device.index}"
    run = subprocess.run([program, str(dcd), KERNELS_PATH, "--device", name, "--bins", str(bins), "--threads",
                          str(threads), "--blocks", str(blocks)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"kiln-rdf-histogram failed: {run.stderr.strip()}")
    timing, counts = run.stdout.split("\n", 1)
    return float(timing.split()[1]), np.array(counts.split(), dtype=np.int64)


def serial(x, y, z, box, bins=science.BINS):
    return kiln.asarray(science.histogram_reference(kiln.asnumpy(x), kiln.asnumpy(y), kiln.asnumpy(z), box, bins))


WAYS = {"array_ops": array_ops, "raw_kernel": raw_kernel, "jit": jit, "optimised": optimised, "cpp_api": cpp_api,
        "serial": serial}
