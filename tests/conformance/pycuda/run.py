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

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import suite_runner  # noqa: E402

URL = "https://github.com/inducer/pycuda"
PINNED = "19bed90"  # inducer/pycuda, the commit the baselines were recorded at
TEST_FILES = ["test_driver.py", "test_gpuarray.py", "test_cumath.py"]
SUITE_PARTS = ["test", "examples", "doc"]


def fetch_suite(source, into):
    """The suite's parts (test/, examples/, doc/) at PINNED under `into`."""
    suite_runner.fetch_suite(source, URL, PINNED, SUITE_PARTS, into)


def run_tests(work, device, excluded):
    """{test id: outcome} of PyCUDA's test files, each in a pytest process of
    its own (a crash loses one file, which is then recorded as crashed)."""
    for name in ("conftest.py", "pycuda_shim.py"):
        shutil.copy(HERE / name, work / "test" / name)
    deselect = [arg for test_id in excluded if "::" in test_id for arg in ("--deselect", test_id)]
    outcomes = {}
    for test_file in TEST_FILES:
        found, _ = suite_runner.run_pytest([test_file], work / "test", suite_runner.device_env(device),
                                           work / f"junit-{test_file}.xml", deselect, label=test_file[:-3])
        outcomes.update(found)
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


def part_of(test_id):
    """The file a test belongs to ("test_gpuarray"), or "tutorial", or "examples"."""
    return test_id.split("::")[0].split(".")[0] if test_id.startswith("test_") else \
        "tutorial" if test_id.startswith("doc/") else "examples"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.environ.get("PYCUDA_SRC"))
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kiln-pycuda-") as tmp:
        work = pathlib.Path(tmp)
        fetch_suite(options.source, work)
        excluded = suite_runner.out_of_scope(HERE / "out_of_scope.txt", options.device)
        outcomes = run_tests(work, options.device, excluded)
        outcomes.update(run_examples(work, options.device, excluded))
        outcomes.update(run_tutorial(work, options.device, excluded))
    result = {"device": options.device, "pycuda": PINNED, "summary": suite_runner.summarise(outcomes, part_of),
              "outcomes": outcomes}
    return suite_runner.report(HERE, options.device, result, options.record)


if __name__ == "__main__":
    sys.exit(main())
