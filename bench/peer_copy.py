"""Copies from one GPU to another: kiln beside CuPy and PyTorch, a new array on
cuda:1 from one on cuda:0 (each library's own spelling), contiguous and
strided, in GB/s of data moved. Needs two GPUs.

Writes bench/results/peer-copy-cuda.json and the docs/benchmarks.md section
of the same name.

    python bench/peer_copy.py [--no-doc]
"""
import argparse
import datetime
import platform

import numpy as np

import kiln
from linalg_batched import write_table
from run import machine, median_seconds, save_result

SIDE = 16384  # 16384 x 16384 float32: 1 GiB


def libraries():
    """(name, put on cuda:0, copy to cuda:1, wait for both GPUs) for each library present."""
    libs = [("kiln", lambda h: kiln.asarray(h, device="cuda:0"), lambda a: a.to_device("cuda:1"),
             lambda: (kiln.cuda.Device(0).synchronize(), kiln.cuda.Device(1).synchronize()))]
    try:
        import cupy

        def cupy_put(h):
            with cupy.cuda.Device(0):
                return cupy.asarray(h)

        def cupy_copy(a):
            # ndarray.copy copies to the current device (cupy.asarray would
            # return the array itself, wherever it lives).
            with cupy.cuda.Device(1):
                return a.copy()

        def cupy_wait():
            for d in (0, 1):
                cupy.cuda.Device(d).synchronize()

        libs.append(("cupy", cupy_put, cupy_copy, cupy_wait))
    except ImportError:
        pass
    try:
        import torch

        libs.append(("torch", lambda h: torch.from_numpy(h).to("cuda:0"), lambda a: a.to("cuda:1"),
                     lambda: (torch.cuda.synchronize(0), torch.cuda.synchronize(1))))
    except ImportError:
        pass
    return libs


CASES = [
    ("contiguous, 1 GiB float32", lambda a: a, SIDE * SIDE * 4),
    ("every other column (a[:, ::2]), 512 MiB float32", lambda a: a[:, ::2], SIDE * SIDE * 2),
    ("contiguous, 4 MiB float32", lambda a: a[:1024], 1024 * SIDE * 4),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    if kiln.cuda.device_count() < 2:
        raise SystemExit("peer_copy.py needs two GPUs")
    host = np.random.default_rng(0).random((SIDE, SIDE), dtype=np.float32)
    libs = libraries()
    rows = []
    for case, view, nbytes in CASES:
        row = {"case": f"cuda:0 -> cuda:1, {case}", "bytes": nbytes, "seconds": {}}
        for lib, put, copy, wait in libs:
            try:
                source = view(put(host))
                moved = copy(source)
                where = moved.device
                assert str(where) in ("cuda:1", "<CUDA Device 1>") or getattr(where, "id", None) == 1, where
                np.testing.assert_array_equal(np.asarray(kiln.asnumpy(moved) if lib == "kiln" else
                                                         (moved.get() if lib == "cupy" else moved.cpu().numpy())),
                                              view(host))
                del moved

                def timed():
                    copy(source)
                    wait()

                row["seconds"][lib] = median_seconds(timed, min_time=1.0, repeats=7)
            except Exception as e:  # a library that cannot make this copy is reported, not fatal
                print(f"  {lib}: {type(e).__name__}: {e}")
        rows.append(row)
        print(f"{row['case']:60s} " + "  ".join(f"{lib} {nbytes / t / 1e9:7.1f} GB/s"
                                                for lib, t in row["seconds"].items()), flush=True)
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "device": " + ".join(kiln.cuda.Device(d).name for d in (0, 1))
        + (", peer access possible" if kiln.cuda.runtime.deviceCanAccessPeer(0, 1) else ", no peer access"),
        "versions": {"kiln": kiln.__version__} | {lib: __import__(lib).__version__ for lib, *_ in libs[1:]}
        | {"python": platform.python_version()},
        "rows": rows,
    }
    save_result(result, "peer-copy-cuda")
    if not args.no_doc:
        write_table(result, [lib for lib, *_ in libs], "peer-copy-cuda", gigabytes_per_second)


def gigabytes_per_second(row, seconds):
    """A copy's cell: the data it moved per second (the ratio column stays kiln's time over the best peer's)."""
    return f"{row['bytes'] / seconds / 1e9:.1f} GB/s"


if __name__ == "__main__":
    main()
