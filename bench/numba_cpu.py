"""Numba's CPU compiler, kiln's (kiln.numba.njit) beside real Numba's in one
run on one machine: the N-Ways lab's serial pair loop (nways_serial.py's
pair_gpu, unchanged) on one thread, its first call (compile included, a
10-atom input) and its run over N atoms x F frames; a pair-energy sum
over a prange loop, compiled without and with parallel=True (all cores);
and two array expressions (Numba's fused array-expression loops) over
--elements float64s, beside their floor: the bytes they move (two read,
one written) over a NumPy copy's bandwidth measured in the same run.

    python bench/numba_cpu.py [--atoms 6720] [--frames 10] [--numba-python PY]

--numba-python: an interpreter with real Numba installed (default: this one,
if it has Numba); its row is measured in a process of its own."""
import argparse
import json
import os
import math
import subprocess
import sys
import time

import numpy as np


def pair_gpu(d_x, d_y, d_z, d_g2, numatm, nconf, xbox, ybox, zbox, d_bin):
    box = min(xbox, ybox)
    box = min(box, zbox)
    _del = box / (2.0 * d_bin)
    cut = box * 0.5
    for frame in range(nconf):
        for id1 in range(numatm):
            for id2 in range(numatm):
                dx = d_x[frame * numatm + id1] - d_x[frame * numatm + id2]
                dy = d_y[frame * numatm + id1] - d_y[frame * numatm + id2]
                dz = d_z[frame * numatm + id1] - d_z[frame * numatm + id2]
                dx = dx - xbox * (round(dx / xbox))
                dy = dy - ybox * (round(dy / ybox))
                dz = dz - zbox * (round(dz / zbox))
                r = math.sqrt(dx * dx + dy * dy + dz * dz)
                if r < cut:
                    ig2 = int((r / _del))
                    d_g2[ig2] = d_g2[ig2] + 1
    return d_g2


def pair_energy(x, y, z):
    """Numba's parfors reduction: the sum over atom pairs of 1 / (r^2 + 1)."""
    total = 0.0
    for i in prange(x.shape[0]):
        for j in range(x.shape[0]):
            dx, dy, dz = x[i] - x[j], y[i] - y[j], z[i] - z[j]
            total += 1.0 / (dx * dx + dy * dy + dz * dz + 1.0)
    return total


def axpy(a, b):
    return a * 2.0 + b


def identity(a, b):
    return np.cos(a) ** 2 + np.sin(b) ** 2


def best_of(function, *args, repeat=7):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return min(times)


def measure(which, atoms, frames, elements):
    global prange
    if which == "kiln":
        from kiln.numba import njit, prange
    else:
        from numba import njit, prange
    rng = np.random.default_rng(1)
    x, y, z = (rng.random(atoms * frames) * 40 for _ in range(3))
    compiled = njit()(pair_gpu)
    counts = np.zeros(2000, np.int64)
    started = time.perf_counter()
    compiled(x[:10], y[:10], z[:10], counts, 10, 1, 40.0, 40.0, 40.0, 2000)
    first = time.perf_counter() - started
    counts[:] = 0
    started = time.perf_counter()
    compiled(x, y, z, counts, atoms, frames, 40.0, 40.0, 40.0, 2000)
    run = time.perf_counter() - started
    energy = {}
    for parallel in (False, True):
        compiled = njit(parallel=parallel)(pair_energy)
        compiled(x[:10], y[:10], z[:10])
        started = time.perf_counter()
        value = compiled(x[:atoms], y[:atoms], z[:atoms])
        energy["parallel" if parallel else "serial"] = (time.perf_counter() - started, value)
    a, b = rng.random(elements), rng.random(elements)
    expressions = {}
    for function in (axpy, identity):
        for parallel in (False, True):
            compiled = njit(parallel=parallel)(function)
            compiled(a, b)
            expressions[f"{function.__name__}_{'parallel' if parallel else 'serial'}_s"] = best_of(compiled, a, b)
    copy_s = best_of(np.copyto, b, a)  # 2 x 8 bytes an element moved
    return {"library": which, "first_call_s": first, "run_s": run, **expressions,
            "floor_s": copy_s * 1.5,  # 3 x 8 bytes an element at the copy's rate
            "ns_per_pair_frame": run / (atoms * atoms * frames) * 1e9, "total": int(counts.sum()),
            "energy_serial_s": energy["serial"][0], "energy_parallel_s": energy["parallel"][0],
            "energy": energy["parallel"][1], "threads": os.cpu_count()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--atoms", type=int, default=6720)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--elements", type=int, default=8_000_000)
    parser.add_argument("--numba-python", default=sys.executable)
    parser.add_argument("--one", choices=["kiln", "numba"], help=argparse.SUPPRESS)  # a row, in this process
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.atoms, args.frames, args.elements)))
        return
    rows = []
    for which, python in (("kiln", sys.executable), ("numba", args.numba_python)):
        done = subprocess.run([python, __file__, "--one", which, "--atoms", str(args.atoms), "--frames",
                               str(args.frames), "--elements", str(args.elements)], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{which}: did not run ({(done.stderr.strip().splitlines() or ['?'])[-1]})")
            continue
        rows.append(json.loads(done.stdout))
    print(f"pair loop, {args.atoms} atoms x {args.frames} frames, one thread")
    print(f"{'library':8} {'first call s':>12} {'run s':>8} {'ns/pair-frame':>14}  pairs counted")
    for r in rows:
        print(f"{r['library']:8} {r['first_call_s']:12.3f} {r['run_s']:8.3f} {r['ns_per_pair_frame']:14.2f}  {r['total']}")
    print(f"pair energy, {args.atoms} atoms, prange: serial and parallel=True ({os.cpu_count()} cores)")
    for r in rows:
        print(f"{r['library']:8} serial {r['energy_serial_s']:8.3f} s  parallel {r['energy_parallel_s']:8.3f} s  "
              f"({r['energy_serial_s'] / r['energy_parallel_s']:.2f}x)  energy {r['energy']:.6f}")
    print(f"array expressions, {args.elements} float64s, ms (floor: 24 bytes an element at a copy's rate)")
    print(f"{'library':8} {'a*2+b':>8} {'parallel':>9} {'cos2+sin2':>10} {'parallel':>9} {'floor':>7}")
    for r in rows:
        print(f"{r['library']:8} {r['axpy_serial_s'] * 1e3:8.2f} {r['axpy_parallel_s'] * 1e3:9.2f} "
              f"{r['identity_serial_s'] * 1e3:10.2f} {r['identity_parallel_s'] * 1e3:9.2f} {r['floor_s'] * 1e3:7.2f}")


if __name__ == "__main__":
    main()
