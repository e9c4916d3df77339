"""The RDF pair histogram as a user's C++/CUDA extension on kiln arrays.

Builds rdf_extension (rdf_extension.cpp: C++ host code; pair_histogram.cu:
its kernel) with kiln.cpp_extension.load, the first time in a few seconds
and then from kiln's cache, and runs it on the CPU and, where there is one,
the GPU, checking the counts against NumPy.

    python examples/extension/run.py [--frames F] [--atoms N]
"""
import argparse
import os
import time

import numpy as np

import kiln
from kiln.cpp_extension import load

HERE = os.path.dirname(os.path.abspath(__file__))


def numpy_histogram(pos, box, cutoff, bins):
    """The same counts with NumPy: every pair i < j of every frame, twice."""
    counts = np.zeros(bins, np.uint64)
    lengths = np.asarray(box)
    i, j = np.triu_indices(pos.shape[1], 1)
    for frame in pos:
        d = frame[i] - frame[j]
        d -= lengths * np.rint(d / lengths)
        r = np.sqrt((d * d).sum(axis=1))
        b = (r[r < cutoff] / (cutoff / bins)).astype(np.int64)
        counts += 2 * np.bincount(b[b < bins], minlength=bins).astype(np.uint64)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--atoms", type=int, default=600)
    args = parser.parse_args()

    start = time.perf_counter()
    ext = load("rdf_extension", [os.path.join(HERE, "rdf_extension.cpp"), os.path.join(HERE, "pair_histogram.cu")])
    print(f"load: {time.perf_counter() - start:.2f} s")

    box, cutoff, bins = (12.0, 12.0, 12.0), 6.0, 60
    pos = np.random.default_rng(1).uniform(0.0, 12.0, (args.frames, args.atoms, 3))
    expected = numpy_histogram(pos, box, cutoff, bins)
    devices = ["cpu"] + (["cuda"] if kiln.cuda.is_available() else [])
    for device in devices:
        positions = kiln.asarray(pos, device=device)
        ext.pair_histogram(positions, box, cutoff, bins)  # compiles the kernel for this device (or loads it)
        start = time.perf_counter()
        counts = ext.pair_histogram(positions, box, cutoff, bins)
        got = kiln.asnumpy(counts)
        seconds = time.perf_counter() - start
        assert counts.device == kiln.Device(device) and counts.dtype == kiln.uint64
        assert np.array_equal(got, expected), f"{device}: the counts differ from NumPy's"
        print(f"{device}: {int(got.sum())} ordered pairs within {cutoff} in {seconds * 1e3:.2f} ms, equal to NumPy's")
    # NumPy arrays are taken as they are (on the CPU, without a copy).
    assert np.array_equal(kiln.asnumpy(ext.pair_histogram(pos, box, cutoff, bins)), expected)


if __name__ == "__main__":
    main()
