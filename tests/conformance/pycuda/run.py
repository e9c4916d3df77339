"""PyCUDA's own tests and examples against kiln, through a shim that only
maps names (pycuda_shim.py): the judge of kiln's PyCUDA face.

    python tests/conformance/pycuda/run.py [--source DIR] [--device cpu|cuda] [--record]

--source is a checkout of inducer/pycuda or its git directory (default:
$PYCUDA_SRC, else a clone at PINNED in ~/.cache/kiln/conformance). The
tests listed in out_of_scope.txt are deselected, each for the reason given
there. Writes results-<device>.json beside this file and prints the pass
rates per file; with --record the run becomes baseline-<device>.json,
otherwise a test that passed in the baseline and fails now is reported as a
regression (exit status 1).
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
PINNED = "19bed90"  # inducer/pycuda, the commit the baselines were recorded at
TEST_FILES = ["test_driver.py", "test_gpuarray.py", "test_cumath.py"]
SUITE_PARTS = ["test", "examples", "doc"]


def _is_git_dir(path):
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def fetch_suite(source, into):
    """The suite's parts (test/, examples/, doc/) at PINNED under `into`."""
    if source is None:
        source = pathlib.Path.home() / ".cache" / "kiln" / "conformance" / "pycuda"
        if not source.exists():
            subprocess.run(["git", "clone", "--quiet", "https://github.com/inducer/pycuda", str(source)], check=True)
    source = pathlib.Path(source)
    git_dir = source if _is_git_dir(source) else source / ".git" if (source / ".git").exists() else None
    if git_dir is not None:
        archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", PINNED, *SUITE_PARTS],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    else:
        for part in SUITE_PARTS:
            shutil.copytree(source / part, into / part)


def out_of_scope(device):
    """{test id: reason} from out_of_scope.txt: "[devices] id  # reason" lines,
    where [devices] ([cpu], [cuda] or [cpu,cuda]) says where the entry holds."""
    entries = {}
    for line in (HERE / "out_of_scope.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            entry, _, reason = line.partition("#")
            devices, _, test_id = entry.strip().partition("]")
            if device in devices.strip("[ ").split(","):
                entries[test_id.strip()] = reason.strip()
    return entries


def run_tests(work, device, excluded):
    """{test id: outcome} of PyCUDA's test files, each in a pytest process of
    its own (a crash loses one file, which is then recorded as crashed)."""
    for name in ("conftest.py", "pycuda_shim.py"):
        shutil.copy(HERE / name, work / "test" / name)
    deselect = [arg for test_id in excluded if "::" in test_id for arg in ("--deselect", test_id)]
    env = {**os.environ, "KILN_DEVICE": device}
    outcomes = {}
    for test_file in TEST_FILES:
        junit = work / f"junit-{test_file}.xml"
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                        f"--junitxml={junit}", *deselect, test_file], cwd=work / "test", env=env)
        if not junit.exists():
            outcomes[f"{test_file[:-3]}::(the file's pytest process crashed)"] = "failed"
            continue
        for case in ET.parse(junit).getroot().iter("testcase"):
            test_id = f"{case.get('classname')}::{case.get('name')}"  # test_gpuarray.TestGPUArray::test_abs
            kinds = {child.tag for child in case}
            outcomes[test_id] = "failed" if kinds & {"failure", "error"} else \
                "skipped" if "skipped" in kinds else "passed"
    return outcomes


def run_examples(work, device, excluded):
    """{examples/...: outcome}: each example run as a program through the shim."""
    env = {**os.environ, "KILN_DEVICE": device, "MPLBACKEND": "Agg",
           "PYTHONPATH": os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH")) if p)}
    outcomes = {}
    for path in sorted((work / "examples").rglob("*.py")):
        name = str(path.relative_to(work))
        if name in excluded:
            continue
        command = ("import pycuda_shim, runpy, sys; pycuda_shim.install(); "
                   f"sys.argv = [{str(path)!r}]; runpy.run_path({str(path)!r}, run_name='__main__')")
        try:
            done = subprocess.run([sys.executable, "-c", command], cwd=path.parent, env=env, capture_output=True,
                                  timeout=300)
            outcomes[name] = "passed" if done.returncode == 0 else "failed"
            if done.returncode:
                print(f"{name}: {done.stderr.decode(errors='replace').strip().splitlines()[-1:]}")
        except subprocess.TimeoutExpired:
            outcomes[name] = "failed"
            print(f"{name}: timed out")
    return outcomes


def tutorial_blocks(text):
    """The tutorial's literal blocks that are Python, in order (output blocks excluded)."""
    import ast

    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].rstrip().endswith("::"):
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            code = textwrap.dedent("\n".join(block)).strip()
            if code and not code.startswith("["):  # printed arrays are output
                try:
                    ast.parse(code)
                    blocks.append(code)
                except SyntaxError:
                    pass
        else:
            i += 1
    return blocks


def run_tutorial(work, device, excluded):
    """{doc/tutorial.rst::blockN: outcome}: the tutorial's snippets run in order in one program."""
    blocks = tutorial_blocks((work / "doc" / "tutorial.rst").read_text())
    script = "import pycuda_shim, json, traceback\npycuda_shim.install()\nresults = []\n"
    for k, code in enumerate(blocks):
        if f"doc/tutorial.rst::block{k}" in excluded:
            script += "results.append(None)\n"
            continue
        script += (f"try:\n    exec(compile({code!r}, 'tutorial block {k}', 'exec'))\n    results.append('passed')\n"
                   f"except Exception:\n    traceback.print_exc()\n    results.append('failed')\n")
    script += "print('RESULTS' + json.dumps(results))\n"
    env = {**os.environ, "KILN_DEVICE": device,
           "PYTHONPATH": os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-c", script], cwd=work, env=env, capture_output=True, text=True,
                          timeout=600)
    marker = [line for line in done.stdout.splitlines() if line.startswith("RESULTS")]
    if not marker:
        print(done.stderr[-2000:])
        return {"doc/tutorial.rst::(crashed)": "failed"}
    if "failed" in marker[0]:
        print(done.stderr[-3000:])
    return {f"doc/tutorial.rst::block{k}": outcome for k, outcome in enumerate(json.loads(marker[0][7:]))
            if outcome is not None}


def summarise(outcomes):
    """{file: {passed, failed, skipped}} with the totals under "all"."""
    table = {}
    for test_id, outcome in outcomes.items():
        for key in (test_id.split("::")[0].split(".")[0] if test_id.startswith("test_") else
                    "tutorial" if test_id.startswith("doc/") else "examples", "all"):
            row = table.setdefault(key, {"passed": 0, "failed": 0, "skipped": 0})
            row[outcome] += 1
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.environ.get("PYCUDA_SRC"))
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kiln-pycuda-") as tmp:
        work = pathlib.Path(tmp)
        fetch_suite(options.source, work)
        excluded = out_of_scope(options.device)
        outcomes = run_tests(work, options.device, excluded)
        outcomes.update(run_examples(work, options.device, excluded))
        outcomes.update(run_tutorial(work, options.device, excluded))
    table = summarise(outcomes)
    result = {"device": options.device, "pycuda": PINNED, "summary": table, "outcomes": outcomes}
    (HERE / f"results-{options.device}.json").write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    for name, row in sorted(table.items()):
        ran = row["passed"] + row["failed"]
        print(f"{name:<16} {row['passed']:>4} passed {row['failed']:>4} failed {row['skipped']:>4} skipped"
              f"  {100 * row['passed'] / ran if ran else 0:5.1f}% of those run")
    baseline_path = HERE / f"baseline-{options.device}.json"
    if options.record:
        baseline_path.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
        return 0
    if baseline_path.exists():
        before = json.loads(baseline_path.read_text())["outcomes"]
        regressions = sorted(t for t, o in before.items() if o == "passed" and outcomes.get(t) != "passed")
        for test_id in regressions:
            print(f"regression: {test_id} passed in the baseline, {outcomes.get(test_id, 'missing')} now")
        return 1 if regressions else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
