"""What every conformance runner shares: bringing another library's suite
at a pinned commit, its out-of-scope list, running pytest over it with the
outcome of every test read back from JUnit XML, and the results compared
with (or recorded as) the baseline of the device."""
import collections
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET


def _is_git_dir(path):
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def fetch_suite(source, url, commit, parts, into):
    """`parts` (paths in the repository) at `commit` under `into`. `source` is
    a checkout or a git directory of the repository; None clones `url` into
    ~/.cache/kiln/conformance."""
    if source is None:
        source = pathlib.Path.home() / ".cache" / "kiln" / "conformance" / url.rstrip("/").rsplit("/", 1)[-1]
        if not source.exists():
            subprocess.run(["git", "clone", "--quiet", url, str(source)], check=True)
    source = pathlib.Path(source)
    git_dir = source if _is_git_dir(source) else source / ".git" if (source / ".git").exists() else None
    if git_dir is None:  # a plain copy of the repository's files (taken at `commit`)
        for part in parts:
            if (source / part).is_dir():
                shutil.copytree(source / part, into / part)
            else:
                (into / part).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source / part, into / part)
        return
    archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", commit, *parts],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def out_of_scope(path, device):
    """{test id or path prefix: reason} from an out_of_scope.txt of
    "[devices] id  # reason" lines, where [devices] ([cpu], [cuda] or
    [cpu,cuda]) says on which devices the entry holds."""
    entries = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            entry, _, reason = line.partition("#")
            devices, _, test_id = entry.strip().partition("]")
            if device in devices.strip("[ ").split(","):
                entries[test_id.strip()] = reason.strip()
    return entries


def _reason(case):
    """The exception a failed test case ended with, in one line: the last
    "E   Error: ..." line of its traceback (the underlying error when a helper
    re-raises it), else the failure's message."""
    for child in case:
        if child.tag in ("failure", "error"):
            errors = [line[1:].strip() for line in (child.text or "").splitlines()
                      if line.startswith("E ") and re.match(r"E\s+[\w.]+(Error|Exception|Warning)\b", line)]
            if errors:
                return errors[-1]
            return ((child.get("message") or "").splitlines() or [""])[0]
    return ""


def run_pytest(targets, cwd, env, junit, extra_args=(), timeout=None, label=None, python=None):
    """({test id: outcome}, {test id: reason}) of one pytest process over
    `targets`; the test id is "<JUnit classname>::<name>". A process that
    crashes or runs out of time before writing its report yields
    {"<label>::(crashed or timed out)": "failed"} (label: the targets).
    `python` is another interpreter to run pytest in."""
    junit = pathlib.Path(junit)
    junit.unlink(missing_ok=True)
    try:
        # Python's own tracebacks (--tb=native, in the report and in the
        # junit file alike): pytest's parse the test file's source for each
        # failure, which took time quadratic in the failures (minutes for
        # scipy_tests' thousands, over 25 minutes for the subtests of one of
        # Numba's 4,000-line files). The terminal report is thrown away.
        subprocess.run([python or sys.executable, "-m", "pytest", "-q", "--tb=native", "-rN", "-p", "no:cacheprovider",
                        "-o", "addopts=", f"--junitxml={junit}", *extra_args, *targets], cwd=cwd, env=env,
                       timeout=timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pass
    if not junit.exists():
        key = f"{label or ' '.join(targets)}::(crashed or timed out)"
        return {key: "failed"}, {key: "the pytest process ended without a report"}
    outcomes, reasons = {}, {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        outcomes[test_id] = "failed" if kinds & {"failure", "error"} else \
            "skipped" if "skipped" in kinds else "passed"
        if outcomes[test_id] == "failed":
            reasons[test_id] = _reason(case)
    return outcomes, reasons


def summarise(outcomes, part_of):
    """{part: {passed, failed, skipped}} with the totals under "all";
    part_of(test id) names the part a test belongs to."""
    table = {}
    for test_id, outcome in outcomes.items():
        for key in (part_of(test_id), "all"):
            row = table.setdefault(key, {"passed": 0, "failed": 0, "skipped": 0})
            row[outcome] += 1
    return table


def common_reasons(reasons, count=25):
    """The commonest failure reasons, numbers masked so that alike ones group."""
    counter = collections.Counter(re.sub(r"\d+", "N", reason)[:160] for reason in reasons.values())
    return counter.most_common(count)


def print_run(files, seconds, reasons):
    """The run's size and time, then its commonest failure reasons."""
    print(f"{files} files in {seconds:.0f} s")
    for reason, count in common_reasons(reasons):
        print(f"{count:5d}  {reason}")


def report(here, device, result, record, compared=lambda test_id: True):
    """Write results-<device>.json, print the table, and either record it as
    baseline-<device>.json or compare: exit status 1 when a test that passed
    in the baseline (among those `compared` selects) does not pass now."""
    here = pathlib.Path(here)
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    (here / f"results-{device}.json").write_text(text)
    for name, row in sorted(result["summary"].items()):
        ran = row["passed"] + row["failed"]
        print(f"{name:<24} {row['passed']:>6} passed {row['failed']:>6} failed {row['skipped']:>5} skipped"
              f"  {100 * row['passed'] / ran if ran else 0:5.1f}% of those run")
    baseline_path = here / f"baseline-{device}.json"
    if record:
        baseline_path.write_text(text)
        return 0
    if baseline_path.exists():
        before = json.loads(baseline_path.read_text())["outcomes"]
        outcomes = result["outcomes"]
        regressions = sorted(t for t, o in before.items() if o == "passed" and compared(t) and outcomes.get(t) != "passed")
        for test_id in regressions:
            print(f"regression: {test_id} passed in the baseline, {outcomes.get(test_id, 'missing')} now")
        return 1 if regressions else 0
    return 0


def device_env(device, **extra):
    return {**os.environ, "KILN_DEVICE": device, **extra}
