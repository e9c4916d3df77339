"""kiln's extension loaded a second time in one process, under another
module name (an alias of the package, a vendored copy of the import): an
ImportError that names the first load, never an abort of the interpreter."""
import subprocess
import sys

SECOND_LOAD = r"""
import importlib.util
import kiln._core as core

spec = importlib.util.spec_from_file_location("vendored._core", core.__file__)
module = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(module)
except ImportError as error:
    print("ImportError:", error)
else:
    print("loaded twice")
import kiln
print(float(kiln.arange(4.0).sum()))  # the first load still works
"""


def test_a_second_load_raises_import_error_naming_the_first():
    done = subprocess.run([sys.executable, "-c", SECOND_LOAD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    first, last = done.stdout.strip().splitlines()[0], done.stdout.strip().splitlines()[-1]
    assert first.startswith("ImportError: kiln's extension is already loaded in this process as kiln._core (from ")
    assert "cannot be loaded again as vendored._core" in first
    assert last == "6.0"
