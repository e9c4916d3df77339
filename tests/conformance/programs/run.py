"""Whole programs as their authors wrote them, run on kiln through the
name-only shim (name_shim.py): the N-Ways lab's three RDF programs
(openhackathons-org/gpubootcamp) on a DCD written with MDAnalysis, each
judged against an RDF this runner computes with NumPy.

    python tests/conformance/programs/run.py [--source DIR] [--device cpu|cuda]
                                             [--atoms 6720] [--frames 10] [--python PYTHON]

--source is a checkout or git directory of gpubootcamp (default: $GPUBOOTCAMP_SRC,
else a clone in ~/.cache/kiln/conformance). MDAnalysis is installed with pip where missing.
Prints one row per program (ran, seconds, relative L1 difference of its RDF
from the reference over the bins r > 0, where the serial program's own
pairs (i, i) fall in bin 0) and exits 1 if any program fails or disagrees."""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import suite_runner  # noqa: E402

URL = "https://github.com/openhackathons-org/gpubootcamp"
PINNED = "e64493e47"  # the commit the programs were taken at
LAB = "archived/hpc/nways/nways_labs/nways_MD/English/Python/source_code"
# Each program, and the RDF file it writes in its own directory.
PROGRAMS = {"cupy/cupy_rdf.py": "cupy_RDF.dat", "numba/numba_rdf.py": "numba_RDF.dat",
            "serial/nways_serial.py": "RDF.dat"}
NBIN = 2000  # the programs' own bin count
AGREEMENT = 1e-3


def write_trajectory(path, atoms, frames, side=40.0, seed=1):
    """A DCD of `frames` frames of `atoms` uniformly random positions in a cubic box."""
    import MDAnalysis

    universe = MDAnalysis.Universe.empty(atoms, trajectory=True)
    rng = np.random.default_rng(seed)
    with MDAnalysis.Writer(str(path), atoms) as writer:
        for _ in range(frames):
            universe.atoms.positions = rng.random((atoms, 3)) * side
            universe.dimensions = [side, side, side, 90, 90, 90]
            writer.write(universe.atoms)


def reference_rdf(path, frames):
    """g(r) per bin as the programs define it, from every unordered pair
    counted twice, computed here with NumPy in float64."""
    from MDAnalysis.lib.formats.libdcd import DCDFile

    dcd = DCDFile(str(path))
    counts = np.zeros(NBIN, np.int64)
    atoms = dcd.header["natoms"]
    for frame in range(frames):
        xyz, box = dcd.readframes(frame, frame + 1)[:2]
        sides = np.array([round(box[0][0], 8), round(box[0][2], 8), round(box[0][5], 8)])
        x = np.round(xyz[0].astype(np.float64), 8)
        cut, width = sides.min() * 0.5, sides.min() / (2.0 * NBIN)
        for start in range(0, atoms, 512):
            d = x[start:start + 512, None, :] - x[None, :, :]
            d -= sides * np.round(d / sides)
            r = np.sqrt((d * d).sum(-1))
            rows = np.arange(start, min(start + 512, atoms))[:, None]
            r = r[rows > np.arange(atoms)[None, :]]
            counts += 2 * np.bincount((r[r < cut] / width).astype(np.int64), minlength=NBIN)[:NBIN]
    volume = sides.prod()
    rho = atoms / volume
    edges = np.arange(NBIN + 1) * width
    ideal = 4.0 * np.pi * rho / 3.0 * (edges[1:] ** 3 - edges[:-1] ** 3)
    return counts / (frames * atoms * ideal)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.environ.get("GPUBOOTCAMP_SRC"))
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--atoms", type=int, default=6720)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--python", default=sys.executable, help="the Python that runs the programs")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per program")
    args = parser.parse_args()
    try:
        import MDAnalysis  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "MDAnalysis"], check=True)
    with tempfile.TemporaryDirectory(prefix="kiln-programs-") as work:
        work = pathlib.Path(work)
        suite_runner.fetch_suite(args.source, URL, PINNED, [LAB], work)
        root = work / LAB
        (root / "input").mkdir(exist_ok=True)
        trajectory = root / "input" / "alk.traj.dcd"
        write_trajectory(trajectory, args.atoms, args.frames)
        reference = reference_rdf(trajectory, args.frames)
        failed = False
        rows = []
        for program, output in PROGRAMS.items():
            where = root / program
            started = time.perf_counter()
            run = subprocess.run([args.python, str(HERE / "name_shim.py"), where.name], cwd=where.parent,
                                 env=suite_runner.device_env(args.device), capture_output=True, text=True,
                                 timeout=args.timeout)
            seconds = time.perf_counter() - started
            if run.returncode != 0:
                failed = True
                last = (run.stderr.strip().splitlines() or ["(no output)"])[-1]
                rows.append((program, "failed", f"{seconds:.1f}", last[:100]))
                continue
            rdf = np.loadtxt(where.parent / output)[:, 1]
            difference = np.abs(rdf[1:] - reference[1:]).sum() / np.abs(reference[1:]).sum()
            failed |= difference > AGREEMENT
            rows.append((program, "ran", f"{seconds:.1f}", f"{difference:.2e}"))
    print(f"\nN-Ways lab programs on {args.device} ({args.atoms} atoms, {args.frames} frames):")
    print(f"{'program':26} {'outcome':8} {'seconds':>8}  relative L1 difference / last error")
    for row in rows:
        print(f"{row[0]:26} {row[1]:8} {row[2]:>8}  {row[3]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
