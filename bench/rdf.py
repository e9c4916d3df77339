"""Times the N-Ways RDF histogram (6720 atoms x 10 frames, 2000 bins) every
way kiln offers, beside the same kernels run by CuPy (the RawKernel) and Numba
(the jit kernel) on the GPU, and beside the lab's serial @njit on the CPU.

    python bench/rdf.py --device cuda|cpu
"""
import os
import statistics
import tempfile
import time

import numpy as np

import kiln
from kernels import run_and_record
from run import _fmt, median_seconds
from kiln.rdf import liquid, science, ways

THREADS = ways.THREADS


def trajectory():
    x, y, z, box = liquid.generate()
    return x.astype(np.float64), y.astype(np.float64), z.astype(np.float64), np.array([box] * 3)


# The lab's kernels spend their time in global atomics on a 16 KB histogram,
# and their speed depends on where the histogram lies: on an H200 the same
# kernel took 14.3 to 22.6 ms as the histogram moved by 128-byte steps within
# one allocation (the L2 slices its lines hash to). Each library's kernel is
# therefore timed with its histogram at the same offsets into an allocation of
# its own, and the mean over those placements is reported.
PLACEMENTS = [k * 1152 for k in range(16)]  # bytes: 1 KiB + 128 B apart, every alignment class


def over_placements(allocate, launch, synchronize):
    """Mean over PLACEMENTS of the median time of `launch(hist)`, hist a view of
    science.BINS elements at each offset into `allocate(1 << 20)`."""
    buffer = allocate(1 << 20)
    times = []
    for offset in PLACEMENTS:
        hist = buffer[offset // 8: offset // 8 + science.BINS]
        times.append(median_seconds(lambda: (launch(hist), synchronize()), min_time=0.2, repeats=5))
    return sum(times) / len(times)


def gpu_rows():
    x, y, z, box = trajectory()
    frames, atoms = x.shape
    positions = [kiln.asarray(a, device="cuda") for a in (x, y, z)]
    rows, versions = [], {}
    geometry = (float(box[0]), float(box[1]), float(box[2]), *science.geometry(box))
    grid = -(-(frames * atoms) // THREADS)
    kiln_buffer = lambda n: kiln.zeros(n, dtype="uint64", device="cuda")  # noqa: E731
    raw = {"kiln": over_placements(kiln_buffer, lambda h: ways._raw("pair_all")(
        (grid,), (THREADS,), (*positions, h, atoms, frames, *geometry)), kiln.cuda.synchronize)}
    jit = {"kiln": over_placements(lambda n: kiln.zeros(n, dtype="int64", device="cuda"), lambda h: ways.pair_all_jit[
        grid, THREADS](*positions, h, *geometry), kiln.cuda.synchronize)}
    try:
        import cupy

        versions["cupy"] = cupy.__version__
        kernel = cupy.RawKernel(ways.SOURCE, "pair_all", options=("--fmad=false",))
        cx, cy, cz = (cupy.asarray(a) for a in (x, y, z))
        raw["cupy"] = over_placements(lambda n: cupy.zeros(n, dtype=cupy.uint64), lambda h: kernel(
            (grid,), (THREADS,), (cx, cy, cz, h, np.int32(atoms), np.int32(frames), *geometry)),
            cupy.cuda.Device().synchronize)
    except ImportError:
        pass
    try:
        np.row_stack = np.vstack  # Numba reads it; NumPy 2.5 dropped it
        import numba
        from numba import cuda as numba_cuda

        versions["numba"] = numba.__version__
        ways._pair_all_jit.__globals__["cuda"] = numba_cuda  # kiln's kernel is translated already
        kernel = numba_cuda.jit(ways._pair_all_jit)
        nx, ny, nz = (numba_cuda.to_device(a) for a in (x, y, z))
        jit["numba"] = over_placements(lambda n: numba_cuda.to_device(np.zeros(n, dtype=np.int64)),
                                       lambda h: kernel[grid, THREADS](nx, ny, nz, h, *geometry),
                                       numba_cuda.synchronize)
        ways._pair_all_jit.__globals__["cuda"] = kiln.cuda
    except ImportError:
        pass
    case = f"{atoms} atoms x {frames} frames, 2000 bins"
    placed = f"mean over {len(PLACEMENTS)} histogram placements"
    rows.append({"case": f"(b) the lab's all-pairs kernel as a RawKernel, {case}, {placed}",
                 "target": "within 5% of CuPy", "bytes": 0, "seconds": raw})
    rows.append({"case": f"(c) the same kernel with cuda.jit, {case}, {placed}", "target": "within 5% of Numba",
                 "bytes": 0, "seconds": jit})
    rows += way_rows(x, y, z, box, "cuda", repeats=7)
    for row in rows:
        print(f"{row['case']:80s} " + "  ".join(f"{k} {_fmt(v)}" for k, v in row["seconds"].items()))
    return rows, kiln.cuda.Device(0).name, versions


def serial_lab_seconds(x, y, z, box):
    """(seconds, {"numba": version}) of the lab's serial @njit loop, or (None, {}) without Numba."""
    try:
        np.row_stack = np.vstack  # Numba reads it; NumPy 2.5 dropped it
        import numba
    except ImportError:
        return None, {}
    serial = numba.njit(_serial_lab)
    hist = np.zeros(science.BINS, dtype=np.int64)
    geometry = (float(box[0]), float(box[1]), float(box[2]), *science.geometry(box))
    return median_seconds(lambda: serial(x, y, z, hist, *geometry), min_time=3, repeats=3), {
        "numba": numba.__version__}


def cpu_rows():
    x, y, z, box = trajectory()
    frames, atoms = x.shape
    rows = way_rows(x, y, z, box, "cpu", repeats=1)
    serial, versions = serial_lab_seconds(x, y, z, box)
    if serial is not None:
        rows.append({"case": f"the lab's serial loop as Numba @njit, {atoms} atoms x {frames} frames, 2000 bins",
                     "target": "reported", "bytes": 0, "seconds": {"numba": serial}})
    for row in rows:
        print(f"{row['case']:80s} " + "  ".join(f"{k} {_fmt(v)}" for k, v in row["seconds"].items()))
    return rows, "cpu", versions


# The ways timed end to end on each device; the lab's kernels (b) and (c) are
# timed on the GPU beside CuPy and Numba instead (see gpu_rows).
WAY_CASES = [("array_ops", "(a) array operations and kiln.bincount"),
             ("raw_kernel", "(b) the lab's all-pairs kernel as a RawKernel"),
             ("jit", "(c) the same kernel with kiln.cuda.jit"),
             ("optimised", "(d) unique pairs in shared-memory tiles")]


def way_rows(x, y, z, box, device, repeats):
    frames, atoms = x.shape
    case = f"{atoms} atoms x {frames} frames, 2000 bins"
    positions = [kiln.asarray(a, device=device) for a in (x, y, z)]
    rows = []
    for name, label in WAY_CASES:
        if device == "cuda" and name in ("raw_kernel", "jit"):
            continue
        target = "<= 2 ms" if (name, device) == ("optimised", "cuda") else "reported"
        rows.append({"case": f"{label}, {case}", "target": target, "bytes": 0,
                     "seconds": {"kiln": way_seconds(ways.WAYS[name], positions, box, repeats)}})
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "trajectory.dcd")
        kiln.io.write_dcd(path, x, y, z, box=np.tile(box, (frames, 1)))
        program = statistics.median(ways.histogram_program(path, positions[0].device)[0] for _ in range(max(repeats, 3)))
    rows.append({"case": f"(e) kiln-rdf-histogram, the C++ program (its own timing), {case}", "target": "reported",
                 "bytes": 0, "seconds": {"kiln": program}})
    return rows


def way_seconds(way, positions, box, repeats):
    """Median of `repeats` calls of `way`, after a warm-up on one frame."""
    way(*(p[:1] for p in positions), box)
    kiln.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        way(*positions, box)
        kiln.cuda.synchronize()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _serial_lab(x, y, z, hist, lx, ly, lz, cut, width):
    """The lab's serial loop (every frame, every ordered pair)."""
    for f in range(x.shape[0]):
        for i in range(x.shape[1]):
            for j in range(x.shape[1]):
                dx = x[f, i] - x[f, j]
                dy = y[f, i] - y[f, j]
                dz = z[f, i] - z[f, j]
                dx = dx - lx * round(dx / lx)
                dy = dy - ly * round(dy / ly)
                dz = dz - lz * round(dz / lz)
                r = np.sqrt((dx * dx + dy * dy) + dz * dz)
                if r < cut:
                    hist[int(r / width)] += 1


if __name__ == "__main__":
    run_and_record(__doc__.splitlines()[0], "rdf", gpu_rows, cpu_rows)
