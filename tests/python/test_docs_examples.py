"""Every Python and C++ code block of the README and the user guide runs, so
the docs cannot rot: each Python block as a program of its own, each C++ block
compiled against the installed package and run. Shell blocks are commands
for a terminal (``make demo``) and are not run here."""
import pathlib
import re
import subprocess
import sys

import pytest

import kiln

REPO = pathlib.Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs" / "guide").glob("*.md"))]
FENCE = re.compile(r"^```(python|cpp)\n(.*?)^```", re.S | re.M)


def _blocks():
    found = []
    for path in DOCS:
        if path.is_file():
            for number, match in enumerate(FENCE.finditer(path.read_text())):
                found.append(pytest.param(match.group(1), match.group(2),
                                          id=f"{path.relative_to(REPO)}-{number}-{match.group(1)}"))
    return found


BLOCKS = _blocks()


def test_the_docs_have_blocks_to_run():
    if not (REPO / "docs" / "guide").is_dir():
        pytest.skip("the docs are not beside this test (an installed kiln)")
    assert len(BLOCKS) >= 15, len(BLOCKS)


@pytest.mark.parametrize("language, code", BLOCKS)
def test_the_code_block_runs(language, code, tmp_path):
    if language == "python":
        # From a file, as a reader runs it: the jit reads the kernels' source.
        program = tmp_path / "example.py"
        program.write_text(code)
        done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=600,
                              cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        return
    assert "int main(" in code, "a C++ block is a whole program, so that it can be run"
    source = tmp_path / "program.cpp"
    source.write_text(code)
    program = tmp_path / "program"
    built = subprocess.run([*kiln._core._host_compiler()[0], "-std=c++17", f"-I{kiln.get_include()}",
                            *(["-DKILN_WITH_CUDA"] if kiln._core._with_cuda else []), str(source), "-o",
                            str(program), f"-L{kiln.get_library_dir()}", "-lkiln",
                            f"-Wl,-rpath,{kiln.get_library_dir()}"], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
