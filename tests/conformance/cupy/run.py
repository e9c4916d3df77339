"""CuPy's own tests against kiln, through a shim that only maps names
(cupy_shim.py): the judge of kiln's CuPy face.

    python tests/conformance/cupy/run.py [--source DIR] [--device cpu|cuda] [--record]
                                         [--only DIR ...] [--fold RESULTS_JSON] [--reasons]

--source is a checkout of cupy/cupy or its git directory (default:
$CUPY_SRC, else a clone in ~/.cache/kiln/conformance). Each directory of
tests/cupy_tests and tests/cupyx_tests (and each one's top-level files) runs in a pytest process
of its own. Tests and directories listed in out_of_scope.txt are left out,
each for the reason given there, and so (unless --slow) are the tests CuPy
marks slow. Writes results-<device>.json beside this
file and prints the pass rates per directory; with --record the run becomes
baseline-<device>.json, otherwise a test that passed in the baseline and
fails now is reported as a regression (exit status 1). --only runs some
directories (a fast slice; with --record its outcomes replace those
directories' in the baseline); --fold takes the --only directories' outcomes
from another machine's results file instead of running them; --reasons
prints the commonest failures.
"""
import argparse
import json
import os
import pathlib
import re
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import suite_runner  # noqa: E402

URL = "https://github.com/cupy/cupy"
PINNED = "6b6d9563c"  # cupy/cupy, the commit the baselines were recorded at
SUITE_PARTS = ["tests/cupy_tests", "tests/cupyx_tests", "cupy/testing"]
TIMEOUT_PER_DIRECTORY = 3600


def directories(work):
    """The suite's parts, one pytest process each: every directory under
    tests/cupy_tests and tests/cupyx_tests, and each one's top-level test
    files together."""
    parts = []
    for suite in ("cupy_tests", "cupyx_tests"):
        root = work / "tests" / suite
        parts += [f"{suite}/{p.name}" for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith("_")]
        parts.append(f"{suite}/test_*.py")
    return parts


def part_of(test_id):
    """'cupy_tests.math_tests.test_sumprod.TestSum::test_x' -> 'cupy_tests/math_tests'
    (a collection error's id has the module in its name, a crashed part's is the part)."""
    found = re.search(r"(cupyx?_tests)[./](\w+)", test_id)
    if found is None:
        return "(unknown)"
    return f"{found[1]}/{found[2]}" if found[2].endswith("_tests") else f"{found[1]}/test_*.py"


def run(work, device, part, excluded, slow):
    tests = work / "tests"
    targets = sorted(str(p.relative_to(tests)) for p in tests.glob(part)) if "*" in part else [part]
    targets = [t for t in targets if t not in excluded]
    ignore = [arg for entry in excluded if "::" not in entry and entry.startswith(part.split("*")[0])
              for arg in ("--ignore", entry)]
    deselect = [arg for entry in excluded if "::" in entry for arg in ("--deselect", entry)]
    env = suite_runner.device_env(device, KILN_CUPY_SOURCE=str(work), PYTHONPATH=str(HERE))
    return suite_runner.run_pytest(targets, tests, env, work / f"junit-{part.replace('/', '-')}.xml",
                                   ["--continue-on-collection-errors", *ignore, *deselect, *([] if slow else ["-m", "not slow"])], TIMEOUT_PER_DIRECTORY, label=part)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.environ.get("CUPY_SRC"))
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--only", nargs="*", help="run these parts only (e.g. cupy_tests/creation_tests)")
    parser.add_argument("--slow", action="store_true",
                        help="also run the tests CuPy marks slow (arrays of 4 GiB and more), which CuPy's own "
                             "regular CI leaves out")
    parser.add_argument("--reasons", action="store_true", help="print the commonest failure reasons")
    parser.add_argument("--fold", metavar="RESULTS_JSON",
                        help="run nothing: take the --only parts' outcomes from a results file (another "
                             "machine's run) and, with --record, fold them into the baseline")
    options = parser.parse_args()
    if options.fold:
        if not options.only:
            parser.error("--fold needs --only (the parts to take from the file)")
        found = json.loads(pathlib.Path(options.fold).read_text())["outcomes"]
        outcomes = {t: o for t, o in found.items() if _in_parts(t, options.only)}
        result = {"device": options.device, "cupy": PINNED, "summary": suite_runner.summarise(outcomes, part_of),
                  "outcomes": outcomes}
        return _finish_slice(options, result)
    outcomes, reasons = {}, {}
    with tempfile.TemporaryDirectory(prefix="kiln-cupy-") as tmp:
        work = pathlib.Path(tmp)
        suite_runner.fetch_suite(options.source, URL, PINNED, SUITE_PARTS, work)
        for name in ("conftest.py", "cupy_shim.py"):
            (work / "tests" / name).write_text((HERE / name).read_text())
        excluded = suite_runner.out_of_scope(HERE / "out_of_scope.txt", options.device)
        for part in options.only or directories(work):
            found, why = run(work, options.device, part, excluded, options.slow)
            outcomes.update(found)
            reasons.update(why)
            row = suite_runner.summarise(found, part_of).get("all", {"passed": 0, "failed": 0, "skipped": 0})
            print(f"{part}: {row['passed']} passed, {row['failed']} failed, {row['skipped']} skipped", flush=True)
            partial = {"device": options.device, "cupy": PINNED, "partial": True, "outcomes": outcomes}
            (HERE / f"results-{options.device}.json").write_text(json.dumps(partial) + "\n")
    if options.reasons:
        for reason, count in suite_runner.common_reasons(reasons, 60):
            print(f"{count:6} {reason}")
    result = {"device": options.device, "cupy": PINNED, "summary": suite_runner.summarise(outcomes, part_of),
              "outcomes": outcomes}
    if options.only:
        return _finish_slice(options, result)
    return suite_runner.report(HERE, options.device, result, options.record)


def _in_parts(test_id, parts):
    """Whether a test id lies under one of the parts (directories or files of CuPy's tests/)."""
    return any(part.replace("/", ".").removesuffix(".py").replace("*", "") in test_id.replace("::", ".")
               for part in parts)


def _finish_slice(options, result):
    """A slice is compared with the baseline's same parts; with --record its
    outcomes replace those parts' in the baseline (the rest is kept)."""
    if not options.record:
        return suite_runner.report(HERE, options.device, result, False, lambda t: _in_parts(t, options.only))
    baseline = HERE / f"baseline-{options.device}.json"
    kept = json.loads(baseline.read_text())["outcomes"] if baseline.exists() else {}
    outcomes = {t: o for t, o in kept.items() if not _in_parts(t, options.only)}
    outcomes.update(result["outcomes"])
    folded = {"device": options.device, "cupy": PINNED, "summary": suite_runner.summarise(outcomes, part_of),
              "outcomes": outcomes}
    return suite_runner.report(HERE, options.device, folded, True)


if __name__ == "__main__":
    sys.exit(main())
