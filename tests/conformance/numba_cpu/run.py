"""Numba's own CPU tests (numba/tests in Numba's release on PyPI: the files
about the language users write, listed in FILES) against kiln.numba, through
the name-only shim the CUDA runner uses (tests/conformance/numba/shim:
``numba`` is kiln.numba, ``numba.core.types`` kiln's Numba types, plus
stand-ins for Numba's test harness). With --numba PYTHON the same files run
on real Numba in that interpreter's environment (Numba PINNED installed): the
baseline kiln is measured against, on the same machine.

    python tests/conformance/numba_cpu/run.py [--source DIR] [--record]
    python tests/conformance/numba_cpu/run.py --numba .venv-numba-cpu/bin/python [--record]

--source is a directory holding Numba's package (the ``numba`` directory of
an installed Numba PINNED, or of its wheel unpacked); by default the wheel
is downloaded from PyPI into ~/.cache/kiln/conformance. Files and tests in
out_of_scope.txt are left out, each for the reason given there. Writes
results-<label>.json beside this file (label: cpu, or numba) and prints pass
rates per file; with --record the run becomes the baseline, otherwise a test
that passed in the baseline and fails now is a regression (exit status 1).
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import suite_runner  # noqa: E402

PINNED = "0.68.1"  # the Numba release on PyPI the baselines were recorded against
SHIM = HERE.parent / "numba" / "shim"
# The files about the language users write (the list), and Numba's
# ufunc builders and documentation examples.
FILES = ["test_builtins.py", "test_mathlib.py", "test_operators.py", "test_range.py", "test_tuples.py",
         "test_flow_control.py", "test_array_attr.py", "test_array_return.py", "test_array_exprs.py",
         "test_array_iterators.py", "test_array_reductions.py", "test_indexing.py", "test_dyn_array.py",
         "test_array_manipulation.py", "test_np_functions.py", "test_array_methods.py", "test_parfors.py",
         "test_random.py", "test_sort.py", "test_linalg.py", "test_ufuncs.py"]
DIRECTORIES = ["npyufunc", "doc_examples"]
# Numba's test files that are the harness, not tests: the shim has its own.
HARNESS = {"support.py", "__init__.py"}
# Numba's sorting algorithms in Python, which test_sort compiles and checks
# against (its pure-Python modules, staged as they are, as the tests are).
ALGORITHMS = ["misc/quicksort.py", "misc/mergesort.py", "misc/timsort.py"]


def numba_package(source):
    """The directory of Numba's package PINNED: `source`, or the wheel from
    PyPI unpacked into the cache."""
    if source:
        return pathlib.Path(source)
    cache = pathlib.Path.home() / ".cache" / "kiln" / "conformance" / f"numba-{PINNED}"
    if not all((cache / "numba" / f).is_file() for f in ["tests/__init__.py"] + ALGORITHMS):
        wheels = cache / "wheel"
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--dest", str(wheels), f"numba=={PINNED}"], check=True)
        with zipfile.ZipFile(next(wheels.glob("numba-*.whl"))) as wheel:
            wheel.extractall(cache, [n for n in wheel.namelist()
                                     if n.startswith("numba/tests/") or n[len("numba/"):] in ALGORITHMS])
    return cache / "numba"


def stage(package, work):
    """The shim's packages with Numba's test files (and the helper modules
    they import) inside its numba package, at `work`; the tests' directory."""
    for name in ("numba", "cuda"):
        shutil.copytree(SHIM / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    tests = work / "numba" / "tests"
    for path in sorted((package / "tests").glob("*.py")):
        if path.name not in HARNESS:
            shutil.copy(path, tests / path.name)
    for directory in DIRECTORIES:
        shutil.copytree(package / "tests" / directory, tests / directory, ignore=shutil.ignore_patterns("__pycache__"))
    (work / "numba" / "misc").mkdir()
    (work / "numba" / "misc" / "__init__.py").write_text("")
    for algorithm in ALGORITHMS:
        shutil.copy(package / algorithm, work / "numba" / algorithm)
    return tests


def test_files(tests, excluded, chosen):
    files = FILES + [f"{d}/{p.name}" for d in DIRECTORIES for p in sorted((tests / d).glob("test_*.py"))]
    return [f for f in files if f not in excluded and (not chosen or f in chosen)]


def normalise(test_id):
    """The id of a test within numba/tests, whichever directory pytest
    named the package from: "npyufunc.test_ufunc.TestX::test_y" of
    "numba.tests.npyufunc.test_ufunc.TestX::test_y" and of
    ".venv.lib.python3.11.site-packages.numba.tests.npyufunc.test_ufunc.TestX::test_y"."""
    return test_id.split("numba.tests.", 1)[-1]


def part_of(test_id):
    """The file a test id ("npyufunc.test_ufunc.TestX::test_y") is in:
    "npyufunc.test_ufunc"; a file that failed to be collected is its own."""
    module, _, name = test_id.partition("::")
    module = module or normalise(name)
    return ".".join(p for p in module.split(".") if not p[:1].isupper())


def run(files, cwd, env, work, deselect, python, jobs):
    """Each file in a pytest process of its own, `jobs` at a time."""
    def one(name):
        return suite_runner.run_pytest([name], cwd, env, work / f"junit-{name.replace('/', '-')}.xml", deselect,
                                       timeout=3600, label=name[:-3], python=python)

    outcomes, reasons = {}, {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for found, why in pool.map(one, files):
            outcomes.update({normalise(k): v for k, v in found.items()})
            reasons.update({normalise(k): v for k, v in why.items()})
    return outcomes, reasons


def merge(paths, label, record):
    """One result of runs of some files each: a file's tests as the last
    run of it had them."""
    parts = [json.loads(pathlib.Path(p).read_text()) for p in paths]
    outcomes, reasons = {}, {}
    for part in parts:
        found = {normalise(k): v for k, v in part["outcomes"].items()}
        files = {part_of(k) for k in found}
        outcomes = {k: v for k, v in outcomes.items() if part_of(k) not in files}
        outcomes.update(found)
        reasons.update({normalise(k): v for k, v in part["reasons"].items()})
    reasons = {k: v for k, v in reasons.items() if outcomes.get(k) == "failed"}
    result = {"device": label, "numba": PINNED, "seconds": round(sum(p["seconds"] for p in parts), 1),
              "summary": suite_runner.summarise(outcomes, part_of), "outcomes": outcomes, "reasons": reasons,
              "parts": len(parts)}
    return suite_runner.report(HERE, label, result, record)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", help="a directory holding Numba's package PINNED (default: the wheel from PyPI)")
    parser.add_argument("--numba", metavar="PYTHON", help="run on real Numba in this interpreter")
    parser.add_argument("--files", nargs="*", help="only these test files (as FILES names them)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="pytest processes at once")
    parser.add_argument("--work", help="the staging directory (default: ~/.cache/kiln/conformance/numba-cpu-<label>)")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--merge", nargs="+", metavar="RESULTS",
                        help="combine results files (of runs of some files each; a later one's outcome of a test "
                             "wins) into results-<label>.json, or the baseline with --record")
    options = parser.parse_args()
    label = "numba" if options.numba else "cpu"
    if options.merge:
        return merge(options.merge, label, options.record)
    excluded = suite_runner.out_of_scope(HERE / "out_of_scope.txt", label)
    deselect = [arg for test_id in excluded if "::" in test_id for arg in ("--deselect", test_id)]
    started = time.perf_counter()
    work = pathlib.Path(options.work or pathlib.Path.home() / ".cache" / "kiln" / "conformance" /
                        f"numba-cpu-{label}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    if options.numba:
        # Real Numba runs its own copy of the same files, in its own package.
        tests = pathlib.Path(subprocess.run([options.numba, "-c", "import numba.tests, os; "
                                             "print(os.path.dirname(numba.tests.__file__))"],
                                            check=True, capture_output=True, text=True).stdout.strip())
        env = dict(os.environ)
    else:
        tests = stage(numba_package(options.source), work)
        # The shim's directory first on the path, so that no installed Numba is found.
        env = suite_runner.device_env("cpu", PYTHONPATH=os.pathsep.join(
            p for p in (str(work), os.environ.get("PYTHONPATH")) if p))
    files = test_files(tests, excluded, options.files)
    outcomes, reasons = run(files, tests, env, work, deselect, options.numba, options.jobs)
    elapsed = time.perf_counter() - started
    result = {"device": label, "numba": PINNED, "seconds": round(elapsed, 1),
              "summary": suite_runner.summarise(outcomes, part_of), "outcomes": outcomes, "reasons": reasons}
    ran = {f[:-3].replace("/", ".") for f in files}
    status = suite_runner.report(HERE, label, result, options.record, compared=lambda t: part_of(t) in ran)
    suite_runner.print_run(len(files), elapsed, reasons)
    return status


if __name__ == "__main__":
    sys.exit(main())
