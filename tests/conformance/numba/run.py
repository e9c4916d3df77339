"""Numba's own CUDA kernel tests (numba_cuda/numba/cuda/tests/cudapy) against
kiln, through a shim that only maps names (shim/numba: ``numba.cuda`` is
kiln.cuda, plus minimal stand-ins for Numba's test harness): the judge of
kiln's Numba face. With --simulator PYTHON the same files run on Numba's own
CUDA simulator (NUMBA_ENABLE_CUDASIM=1) in that interpreter's environment,
which must have numba-cuda PINNED installed: the baseline kiln's CPU backend
is measured against; with --numba PYTHON, on real Numba on a GPU (the
baseline of kiln's GPU run).

    python tests/conformance/numba/run.py [--source DIR] [--device cpu|cuda] [--record]
    python tests/conformance/numba/run.py --simulator .venv-numba/bin/python

--source is a checkout of NVIDIA/numba-cuda or its git directory (default:
$NUMBA_CUDA_SRC, else a clone at PINNED in ~/.cache/kiln/conformance). Files
and tests in out_of_scope.txt are left out, each for the reason given there.
Writes results-<device>.json (results-simulator.json) beside this file and
prints pass rates per file and the run's time; with --record the run becomes
the baseline, otherwise a test that passed in the baseline and fails now is
a regression (exit status 1).
"""
import argparse
import json
import os
import pathlib
import shutil
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import suite_runner  # noqa: E402

URL = "https://github.com/NVIDIA/numba-cuda"
PINNED = "v0.30.4"  # the numba-cuda release on PyPI the baselines were recorded against
TESTS = "numba_cuda/numba/cuda/tests/cudapy"
DATA = "numba_cuda/numba/cuda/tests/data"
HARNESS = "testing/conftest.py"  # numba-cuda's pytest fixture its CUDATestCase uses


def stage(source, work):
    """The shim's packages (numba, and cuda-python's names the tests import)
    with Numba's test files inside numba, at `work`."""
    fetched = work / "fetched"
    fetched.mkdir()
    suite_runner.fetch_suite(source, URL, PINNED, [TESTS, DATA, HARNESS], fetched)
    for package in ("numba", "cuda"):
        shutil.copytree(HERE / "shim" / package, work / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(fetched / TESTS, work / "numba" / "cuda" / "tests" / "cudapy")
    shutil.copytree(fetched / DATA, work / "numba" / "cuda" / "tests" / "data")
    return work / "numba" / "cuda" / "tests" / "cudapy"


def harness(work):
    return work / "fetched" / HARNESS


def test_files(directory, excluded):
    return [p.name for p in sorted(directory.glob("test_*.py")) if p.name not in excluded]


def normalise(test_id):
    """"numba.cuda.tests.cudapy.test_x.TestY::test_z" (kiln's staging) and
    "cuda.tests.cudapy.test_x.TestY::test_z" (the installed package's) read alike:
    "test_x.TestY::test_z"."""
    return test_id.split("cudapy.", 1)[-1]


def split_id(test_id):
    """(file, pytest node id within it) of a test id: ("test_x.py",
    "TestY::test_z") of "test_x.TestY::test_z", ("test_x.py", "test_z") of
    a module-level test's "test_x::test_z"."""
    module, _, name = test_id.partition("::")
    stem, _, test_class = module.partition(".")
    return stem + ".py", "::".join(part for part in (test_class, name) if part)


def run(files, cwd, env, work, deselect, python=None, only=None):
    """Each file in a pytest process of its own; `only` ({file: [test ids]}),
    where given, names the tests to run in each file."""
    outcomes, reasons = {}, {}
    for name in files:
        targets = [f"{name}::{test}" for test in only.get(name, [])] if only is not None else [name]
        if not targets:
            continue
        found, why = suite_runner.run_pytest(targets, cwd, env, work / f"junit-{name}.xml", deselect, timeout=600,
                                             label=name[:-3], python=python)
        outcomes.update({normalise(k): v for k, v in found.items()})
        reasons.update({normalise(k): v for k, v in why.items()})
    return outcomes, reasons


def merge(paths, label, record):
    """One result of the parts of a split run: outcomes and reasons joined,
    seconds added."""
    parts = [json.loads(pathlib.Path(p).read_text()) for p in paths]
    outcomes = {k: v for part in parts for k, v in part["outcomes"].items()}
    reasons = {k: v for part in parts for k, v in part["reasons"].items()}
    result = {"device": label, "numba-cuda": PINNED, "seconds": round(sum(p["seconds"] for p in parts), 1),
              "summary": suite_runner.summarise(outcomes, lambda t: t.split(".")[0]), "outcomes": outcomes,
              "reasons": reasons, "parts": len(parts)}
    return suite_runner.report(HERE, label, result, record)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.environ.get("NUMBA_CUDA_SRC"))
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--simulator", metavar="PYTHON", help="run on Numba's simulator in this interpreter")
    parser.add_argument("--numba", metavar="PYTHON", help="run on real Numba (a GPU) in this interpreter")
    parser.add_argument("--files", nargs="*", help="only these test files")
    parser.add_argument("--part", help="K/N: only the K-th of N equal slices of the files (to split a run "
                                       "across calls with a time limit)")
    parser.add_argument("--merge", nargs="+", metavar="RESULTS",
                        help="combine the results files of a run split with --part into one (for --record)")
    parser.add_argument("--work", help="the staging directory (default: ~/.cache/kiln/conformance/numba-<device>)")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--same-tests-as", metavar="RESULTS",
                        help="run only the tests that passed in RESULTS (baseline-simulator.json: time kiln on the "
                             "tests the simulator passes); results go to results-<device>-same-tests.json")
    options = parser.parse_args()
    numba_python = options.simulator or options.numba
    label = "simulator" if options.simulator else "numba-cuda" if options.numba else options.device
    only = None
    if options.same_tests_as:
        label += "-same-tests"
        only = {}
        for test_id, outcome in json.loads(pathlib.Path(options.same_tests_as).read_text())["outcomes"].items():
            if outcome == "passed":
                file, node = split_id(test_id)
                only.setdefault(file, []).append(node)
    if options.merge:
        return merge(options.merge, label, options.record)
    excluded = suite_runner.out_of_scope(HERE / "out_of_scope.txt", "cpu" if options.simulator else
                                         "cuda" if options.numba else options.device)
    deselect = [arg for test_id in excluded if "::" in test_id for arg in ("--deselect", test_id)]
    started = time.perf_counter()
    # One staging directory, emptied each run: the kernels' sources name their
    # files (#line), so the same paths let a second run find them in kiln's cache.
    work = pathlib.Path(options.work or pathlib.Path.home() / ".cache" / "kiln" / "conformance" / f"numba-{label}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    tests = stage(options.source, work)
    files = [f for f in test_files(tests, excluded) if not options.files or f in options.files]
    if options.part:
        k, n = (int(x) for x in options.part.split("/"))
        files = files[(k - 1) * len(files) // n:k * len(files) // n]
    if numba_python:
        # The same files as a package of their own (their absolute imports
        # reach the installed numba-cuda, the same release).
        copy = work / "simulator" / "numba_cuda_tests" / "cudapy"
        shutil.copytree(tests, copy)
        (copy.parent / "__init__.py").write_text("")
        (copy / "__init__.py").write_text("")
        shutil.copy(harness(work), copy / "conftest.py")
        env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1" if options.simulator else "0"}
        outcomes, reasons = run(files, copy, env, work, [a.replace(str(tests), str(copy)) for a in deselect],
                                python=numba_python, only=only)
    else:
        # The shim's directory first on the path, so that no installed Numba is found.
        env = suite_runner.device_env(options.device, PYTHONPATH=os.pathsep.join(
            p for p in (str(work), os.environ.get("PYTHONPATH")) if p))
        outcomes, reasons = run(files, tests, env, work, deselect, only=only)
    elapsed = time.perf_counter() - started
    result = {"device": label, "numba-cuda": PINNED, "seconds": round(elapsed, 1),
              "summary": suite_runner.summarise(outcomes, lambda t: t.split(".")[0]), "outcomes": outcomes,
              "reasons": reasons}
    # A run of some files (--files, --part) is compared with the baseline on those files only
    ran = set(files)
    status = suite_runner.report(HERE, label, result, options.record,
                                 compared=lambda test_id: split_id(test_id)[0] in ran)
    suite_runner.print_run(len(files), elapsed, reasons)
    return status


if __name__ == "__main__":
    sys.exit(main())
