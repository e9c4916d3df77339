"""Libraries built on CuPy, judged by their own CuPy tests with kiln as
``cupy``: Dask's ``dask/array/tests/test_cupy_*.py`` and xarray's
``xarray/tests/test_cupy.py``, from the installed packages.

    python tests/conformance/downstream/run.py [--device cpu|cuda] [--record]

Each suite runs in a pytest process of its own with ``sitecustomize.py``
(beside this file) installing the name-only shim of
tests/conformance/programs/name_shim.py before anything imports, so the
suites' own ``importorskip("cupy")`` finds kiln. Nothing of theirs is
changed. Writes results-<device>.json and compares it with
baseline-<device>.json (``--record`` makes the run the baseline)."""
import argparse
import importlib.metadata
import importlib.util
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import suite_runner  # noqa: E402


def suites():
    """{name: [test files]} of the downstream suites installed here."""
    found = {}
    for package, pattern in (("dask", "array/tests/test_cupy_*.py"), ("xarray", "tests/test_cupy.py")):
        spec = importlib.util.find_spec(package)
        if spec is not None:
            files = sorted(pathlib.Path(spec.origin).parent.glob(pattern))
            if files:
                found[package] = [str(f) for f in files]
    return found


def part_of(test_id):
    """The suite a test belongs to ("dask/..." or "xarray/...")."""
    return test_id.split("/", 1)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    options = parser.parse_args()
    found = suites()
    if not found:
        print("neither dask nor xarray is installed: nothing to run")
        return 0
    env = suite_runner.device_env(options.device, PYTHONPATH=os.pathsep.join(
        p for p in (str(HERE), str(HERE.parent / "programs"), os.environ.get("PYTHONPATH")) if p))
    outcomes = {}
    with tempfile.TemporaryDirectory(prefix="kiln-downstream-") as reports:
        for name, files in found.items():
            found_outcomes, _ = suite_runner.run_pytest(files, HERE, env, pathlib.Path(reports) / f"junit-{name}.xml",
                                                        ["-W", "ignore"], label=name)
            outcomes.update({f"{name}/{test_id}": outcome for test_id, outcome in found_outcomes.items()})
    versions = {name: importlib.metadata.version(name) for name in found}
    result = {"device": options.device, **versions, "summary": suite_runner.summarise(outcomes, part_of),
              "outcomes": outcomes}
    return suite_runner.report(HERE, options.device, result, options.record)


if __name__ == "__main__":
    sys.exit(main())
