"""Stacks of small matrices: kiln.linalg beside CuPy and PyTorch on the GPU
(or NumPy and PyTorch on the CPU), float64, for 10,000 4x4, 1,000 32x32 and
100 256x256 matrices, each decomposition of the stack in one call.

Writes bench/results/linalg-<device>.json and the docs/benchmarks.md section
of the same name, with kiln's time over the best peer's.

    python bench/linalg_batched.py [--device cuda|cpu] [--no-doc]
"""
import argparse
import datetime
import platform

import numpy as np

import kiln
from run import _fmt, anchors, machine, replace_doc_section, save_result, seconds_per_library

STACKS = [(10_000, 4), (1_000, 32), (100, 256)]


def _linalg(xp):
    return xp.linalg


# Each routine as NumPy's spelling; PyTorch's linalg takes the same calls
# except where noted.
ROUTINES = {
    "solve": (lambda xp, a, b, pd: _linalg(xp).solve(a, b)),
    "inv": (lambda xp, a, b, pd: _linalg(xp).inv(a)),
    "det": (lambda xp, a, b, pd: _linalg(xp).det(a)),
    "slogdet": (lambda xp, a, b, pd: _linalg(xp).slogdet(a)),
    "cholesky": (lambda xp, a, b, pd: _linalg(xp).cholesky(pd)),
    "qr": (lambda xp, a, b, pd: _linalg(xp).qr(a)),
    "eigh": (lambda xp, a, b, pd: _linalg(xp).eigh(pd)),
    "svd": (lambda xp, a, b, pd: _linalg(xp).svd(a, full_matrices=False)),
}


def stack(batch, n, rng):
    a = rng.random((batch, n, n)) + n * np.eye(n)
    b = rng.random((batch, n, 1))
    g = rng.random((batch, n, n))
    pd = g @ np.swapaxes(g, -1, -2) + n * np.eye(n)
    return a, b, pd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda")
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    libs = anchors(args.device)
    rng = np.random.default_rng(0)
    rows = []
    for batch, n in STACKS:
        data = stack(batch, n, rng)
        for routine, call in ROUTINES.items():
            row = {"case": f"{routine}, {batch:,} {n}x{n} float64",
                   "seconds": seconds_per_library(libs, lambda convert, xp: [convert(t) for t in data],
                                                  lambda xp, operands: call(xp, *operands), 0.3, 7)}
            rows.append(row)
            print(f"{row['case']:36s} " + "  ".join(f"{lib} {t * 1e3:9.3f} ms" for lib, t in row["seconds"].items()),
                  flush=True)
    result = {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "device": args.device if args.device == "cpu" else kiln.cuda.Device(0).name,
        "versions": {lib: getattr(xp, "__version__", "?") for lib, _, xp, _ in libs} | {"python": platform.python_version()},
        "rows": rows,
    }
    section = f"linalg-{args.device}"
    save_result(result, section)
    if not args.no_doc:
        write_table(result, [lib for lib, _, _, _ in libs], section)


def write_table(result, libs, section, cell=lambda row, seconds: _fmt(seconds)):
    """The docs table: a cell per library (its time, or what `cell` makes of
    it) and kiln's time over the fastest other library's."""
    lines = [
        f"Measured {result['date']} on {result['device']} (host: {result['machine']}); "
        + ", ".join(f"{k} {v}" for k, v in result["versions"].items()) + ".",
        "",
        "| case | " + " | ".join(libs) + " | kiln / best peer |",
        "|---|" + "---:|" * (len(libs) + 1),
    ]
    for row in result["rows"]:
        s = row["seconds"]
        peers = [s[lib] for lib in libs if lib != "kiln" and lib in s]
        ratio = f"{s['kiln'] / min(peers):.2f}" if peers and "kiln" in s else "n/a"
        cells = " | ".join(cell(row, s[lib]) if lib in s else "n/a" for lib in libs)
        lines.append(f"| {row['case']} | {cells} | {ratio} |")
    replace_doc_section(section, "\n".join(lines))


if __name__ == "__main__":
    main()
