"""kiln.scipy beside CuPy's cupyx.scipy on the GPU (or SciPy on the CPU):
the scipy issue's rows. SpMV of a CSR matrix with 10M entries, 100 steps of
cg on the 2-D Poisson matrix of 2048 x 2048 unknowns (4M), gaussian_filter
of a 4096 x 4096 image, fftconvolve of 1M by 10k samples, erfinv of 64M
float32.

Writes bench/results/scipy-<device>.json and the docs/benchmarks.md section
of the same name, with kiln's time over the best peer's.

    python bench/scipy_routines.py [--device cuda|cpu] [--no-doc]
"""
import argparse
import datetime
import platform

import numpy as np
import scipy.sparse as host_sparse

import kiln
from run import machine, save_result, seconds_per_library
from linalg_batched import write_table


def poisson(side):
    line = host_sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(side, side))
    return host_sparse.kronsum(line, line, format="csr")


def csr_on(sp, convert, matrix):
    """`matrix` (SciPy's CSR) as namespace `sp`'s, its arrays placed by `convert`."""
    return sp.sparse.csr_matrix((convert(matrix.data), convert(matrix.indices), convert(matrix.indptr)),
                                shape=matrix.shape)


def libraries(device):
    """(name, asarray, scipy-like namespace, synchronize) for each library on `device`."""
    import kiln.scipy.ndimage
    import kiln.scipy.signal
    import kiln.scipy.sparse
    import kiln.scipy.sparse.linalg
    import kiln.scipy.special

    kiln_scipy = kiln.scipy
    if device == "cpu":
        import scipy

        import scipy.ndimage
        import scipy.signal
        import scipy.sparse.linalg
        import scipy.special

        return [("scipy", np.asarray, scipy, lambda: None),
                ("kiln", lambda a: kiln.asarray(a, device="cpu"), kiln_scipy, lambda: None)]
    libs = [("kiln", lambda a: kiln.asarray(a, device="cuda"), kiln_scipy, kiln.cuda.synchronize)]
    try:
        import cupy
        import cupyx.scipy.ndimage
        import cupyx.scipy.signal
        import cupyx.scipy.sparse.linalg
        import cupyx.scipy.special

        libs.append(("cupy", cupy.asarray, cupyx.scipy, cupy.cuda.Device().synchronize))
    except ImportError:
        pass
    return libs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda")
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    # Ten entries a row at random columns (SciPy's random() would draw its
    # places from all 10**12 of them).
    n = 1_000_000
    spmv_matrix = host_sparse.csr_matrix((rng.random(10 * n), (np.repeat(np.arange(n), 10),
                                                              rng.integers(0, n, 10 * n))), shape=(n, n))
    spmv_vector = rng.random(n)
    laplacian = poisson(2048)
    rhs = rng.random(laplacian.shape[0])
    image = rng.random((4096, 4096)).astype(np.float32)
    uniform = (rng.random(64 << 20).astype(np.float32) * 2 - 1) * 0.999
    signal, taps = rng.standard_normal(1 << 20), rng.standard_normal(10_000)
    libs = libraries(args.device)
    rows = []
    for case, make, run in [
        (f"SpMV, CSR {spmv_matrix.nnz / 1e6:.0f}M entries, float64",
         lambda sp, conv: (csr_on(sp, conv, spmv_matrix), conv(spmv_vector)),
         lambda sp, data: data[0] @ data[1]),
        ("cg, 100 steps, 2-D Poisson 2048x2048 (4M unknowns)",
         lambda sp, conv: (csr_on(sp, conv, laplacian), conv(rhs)),
         lambda sp, data: sp.sparse.linalg.cg(data[0], data[1], maxiter=100, rtol=1e-30)),
        ("gaussian_filter, 4096x4096 float32, sigma 2",
         lambda sp, conv: conv(image), lambda sp, data: sp.ndimage.gaussian_filter(data, 2.0)),
        ("fftconvolve, 1M x 10k float64", lambda sp, conv: (conv(signal), conv(taps)),
         lambda sp, data: sp.signal.fftconvolve(data[0], data[1])),
        ("erfinv, 64M float32", lambda sp, conv: conv(uniform), lambda sp, data: sp.special.erfinv(data)),
    ]:
        row = {"case": case, "seconds": seconds_per_library(libs, lambda convert, sp: make(sp, convert), run, 1.0, 5)}
        rows.append(row)
        print(f"{case:52s} " + "  ".join(f"{lib} {t * 1e3:9.3f} ms" for lib, t in row["seconds"].items()),
              flush=True)
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "device": args.device if args.device == "cpu" else kiln.cuda.Device(0).name,
        "versions": {lib: getattr(__import__(lib.split(".")[0]), "__version__", "?") for lib, _, _, _ in libs}
        | {"python": platform.python_version()},
        "rows": rows,
    }
    section = f"scipy-{args.device}"
    save_result(result, section)
    if not args.no_doc:
        write_table(result, [lib for lib, _, _, _ in libs], section)


if __name__ == "__main__":
    main()
