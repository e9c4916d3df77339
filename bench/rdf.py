"""Times the N-Ways RDF histogram (6720 atoms x 10 frames, 2000 bins) every
way kiln offers, beside the same kernels run by CuPy (the RawKernel) and Numba
(the jit kernel) on the GPU, and beside the lab's serial @njit on the CPU.

    python bench/rdf.py --device cuda|cpu
"""
import numpy as np

import kiln
from kernels import run_and_record
from run import _fmt, median_seconds
from kiln.rdf import liquid, science, ways

THREADS = ways.THREADS


def trajectory():
    x, y, z, box = liquid.generate()
    return x.astype(np.float64), y.astype(np.float64), z.astype(np.float64), np.array([box] * 3)


def gpu_rows():
    x, y, z, box = trajectory()
    frames, atoms = x.shape
    positions = [kiln.asarray(a, device="cuda") for a in (x, y, z)]
    rows, versions = [], {}

    def timed(fn):
        return median_seconds(lambda: (fn(), kiln.cuda.synchronize()), min_time=2.0, repeats=7)

    raw = {"kiln": timed(lambda: ways.raw_kernel(*positions, box))}
    jit = {"kiln": timed(lambda: ways.jit(*positions, box))}
    geometry = (float(box[0]), float(box[1]), float(box[2]), *science.geometry(box))
    try:
        import cupy

        versions["cupy"] = cupy.__version__
        kernel = cupy.RawKernel(ways.ALL_PAIRS, "pair_all", options=("--fmad=false",))
        cx, cy, cz = (cupy.asarray(a) for a in (x, y, z))
        hist = cupy.zeros(science.BINS, dtype=cupy.uint64)
        grid = (-(-(frames * atoms) // THREADS),)
        raw["cupy"] = median_seconds(lambda: (hist.fill(0), kernel(grid, (THREADS,), (
            cx, cy, cz, hist, np.int32(atoms), np.int32(frames), *geometry)),
            cupy.cuda.Device().synchronize()), min_time=2.0, repeats=7)
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
        hist = numba_cuda.to_device(np.zeros(science.BINS, dtype=np.int64))
        launch = kernel[-(-(frames * atoms) // THREADS), THREADS]
        jit["numba"] = median_seconds(lambda: (launch(nx, ny, nz, hist, *geometry), numba_cuda.synchronize()),
                                      min_time=2.0, repeats=7)
        ways._pair_all_jit.__globals__["cuda"] = kiln.cuda
    except ImportError:
        pass
    case = f"{atoms} atoms x {frames} frames, 2000 bins"
    rows.append({"case": f"(b) the lab's all-pairs kernel as a RawKernel, {case}", "target": "within 5% of CuPy",
                 "bytes": 0, "seconds": raw})
    rows.append({"case": f"(c) the same kernel with cuda.jit, {case}", "target": "within 5% of Numba", "bytes": 0,
                 "seconds": jit})
    rows.append({"case": f"(d) unique pairs, shared-memory histograms, {case}", "target": "<= 2 ms", "bytes": 0,
                 "seconds": {"kiln": timed(lambda: ways.optimised(*positions, box))}})
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
    positions = [kiln.asarray(a, device="cpu") for a in (x, y, z)]
    seconds = {"kiln (d) optimised": median_seconds(lambda: ways.optimised(*positions, box), min_time=3, repeats=3)}
    serial, versions = serial_lab_seconds(x, y, z, box)
    if serial is not None:
        seconds["numba @njit serial (the lab's)"] = serial
    row = {"case": f"RDF histogram, {atoms} atoms x {frames} frames, 2000 bins", "target": "reported", "bytes": 0,
           "seconds": seconds}
    print(row["case"], "  ".join(f"{k} {_fmt(v)}" for k, v in seconds.items()))
    return [row], "cpu", versions


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
