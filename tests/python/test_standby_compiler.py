"""The CPU backend's host compiler is started before the kernel it compiles
(src/cpu/standby_compiler.cpp): one waits on its standard input, and goes,
leaving nothing behind, when the process does. Each test runs in a fresh
process, whose compilers it can find among its children."""
import os
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

PRELUDE = r"""
import os, signal, sys
import numpy as np
import kiln

def waiting_compilers():
    '''(pid, object file) of this process's compilers waiting for a kernel.'''
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if parent == os.getpid() and any(a.endswith(b"/standby.cpp") for a in args):
            found.append((int(entry), args[args.index(b"-o") + 1].decode()))
    return found

def descendants(pid):
    found = [pid]
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found += descendants(int(entry))
        except (OSError, ValueError):
            pass
    return found

def scaled(k):
    '''A kernel new to the cache: out = k * x + 1, run and checked.'''
    kernel = kiln.RawKernel('extern "C" __global__ void scale(const double* x, double* out) '
                            '{ out[threadIdx.x] = %d.0 * x[threadIdx.x] + 1.0; }' % k, "scale")
    x = kiln.arange(8, dtype="float64", device="cpu")
    out = kiln.empty(8, dtype="float64", device="cpu")
    kernel((1,), (8,), (x, out))
    assert np.array_equal(kiln.asnumpy(out), k * np.arange(8.0) + 1), k
"""


def run(tmp_path, body, **settings):
    env = {**os.environ, "KILN_CACHE_DIR": str(tmp_path / "cache"), **settings}
    done = subprocess.run([sys.executable, "-c", PRELUDE + body], timeout=240, capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def gone(pid, path, seconds=60):
    """Whether process `pid` has ended (or is a zombie) and `path` is gone within `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                running = f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            running = False
        if not running and not os.path.exists(path):
            return True
        time.sleep(0.1)
    return False


def test_the_next_kernel_is_compiled_by_a_compiler_already_waiting(tmp_path):
    out = run(tmp_path, r"""
scaled(2)
[(first, first_object)] = waiting_compilers()
scaled(3)  # compiled by `first`, which then has ended and left no object
[(second, second_object)] = waiting_compilers()
assert second != first and not os.path.exists(first_object)
assert os.path.exists(f"/proc/{second}")
print(second, second_object)
""")
    pid, path = out.split()
    # The process ended without sending it a kernel: it fails at its main
    # file's check, and makes no output.
    assert gone(int(pid), path)


def test_a_waiting_compiler_that_was_killed_is_replaced(tmp_path):
    # A Ctrl-C at a terminal reaches the waiting compiler too.
    run(tmp_path, r"""
scaled(2)
[(waiting, path)] = waiting_compilers()
for pid in descendants(waiting):
    os.kill(pid, signal.SIGKILL)
scaled(5)
assert not os.path.exists(path)
""")


def test_compile_errors_name_the_kernel_source_and_not_the_compilers_main_file(tmp_path):
    run(tmp_path, r"""
for attempt in range(2):  # by a compiler started then, and by one that waited
    kernel = kiln.RawKernel('extern "C" __global__ void broken(int* p) {\n  *p = not_declared_%d;\n}\n' % attempt,
                            "broken")
    try:
        kernel((1,), (1,), (kiln.zeros(1, dtype="int32", device="cpu"),))
    except kiln.CompileError as e:
        message = str(e)
    else:
        raise AssertionError("compiled")
    assert "kernel.cu:2" in message and ">2:" in message, message
    assert "standby" not in message and "included from" not in message, message
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_compiles_without_compilers_started_ahead(tmp_path):
    # The child must not feed its parent's waiting compiler (both would
    # write to it); it compiles from files, as kiln did before, and the
    # parent's compiler still serves the parent. Modules are only compiled
    # here, not run: a child forked after a thread pool ran cannot use it.
    run(tmp_path, r"""
import kiln.pycuda.driver as drv
from kiln.pycuda.compiler import SourceModule

def global_of(k):
    address, _ = SourceModule('__device__ int value = %d;' % k).get_global("value")
    return int(drv.from_device(address, (1,), np.int32)[0])

assert global_of(1) == 1
[(waiting, path)] = waiting_compilers()
pid = os.fork()
if pid == 0:
    ok = global_of(2) == 2 and waiting_compilers() == []
    os._exit(0 if ok else 1)
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0
assert [p for p, _ in waiting_compilers()] == [waiting]
assert global_of(3) == 3
assert not os.path.exists(path)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_that_lives_on_does_not_hold_up_the_parents_compiles(tmp_path):
    # A compiler sees the end of its input only when every copy of the pipe's
    # write end is closed: a forked child closes its copies at once, so the
    # parent's next kernel is not kept waiting for the child to end.
    run(tmp_path, r"""
import time
scaled(2)
[(waiting, path)] = waiting_compilers()
pid = os.fork()
if pid == 0:
    time.sleep(120)
    os._exit(0)
try:
    start = time.perf_counter()
    scaled(3)  # fed to `waiting`
    assert time.perf_counter() - start < 60, "the parent's compile waited for its child"
finally:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
assert not os.path.exists(path)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_forks_while_another_thread_compiles_hold_up_neither_side(tmp_path):
    # Forks land at every point of a compile in another thread (a compiler
    # waiting, taken out to be fed, fed, being read): each child lives on a
    # while and then exits on its own, and neither the parent's compiles nor
    # the children wait for the other.
    run(tmp_path, r"""
import threading, time
done, failures = threading.Event(), []
def compile_many():
    try:
        for k in range(2, 14):
            scaled(k)
    except BaseException as error:
        failures.append(error)
    finally:
        done.set()
compiler = threading.Thread(target=compile_many)
start = time.perf_counter()
compiler.start()
children = []
while not done.is_set():
    pid = os.fork()
    if pid == 0:
        time.sleep(2)
        os._exit(0)
    children.append((pid, time.perf_counter()))
    time.sleep(0.05)
compiler.join()
assert not failures, failures
assert time.perf_counter() - start < 120, "the parent's compiles waited for its children"
for pid, forked in children:
    os.waitpid(pid, 0)
    assert time.perf_counter() - forked < 60, "a child did not end on its own"
assert len(children) >= 10, len(children)
""")


def test_a_waiting_compiler_preloads_the_prefault_library_before_the_users(tmp_path):
    # compiler_prefault.c's library faults the compiler's memory in while it
    # waits; a library the environment preloads still comes after it.
    run(tmp_path, r"""
scaled(2)
[(waiting, _)] = waiting_compilers()
with open(f"/proc/{waiting}/environ", "rb") as f:
    environment = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
ours, theirs = environment[b"LD_PRELOAD"].decode().split(":")
assert ours.endswith("/libkiln_compiler_prefault.so") and os.path.exists(ours), ours
assert theirs == "libm.so.6", theirs
scaled(3)
""", LD_PRELOAD="libm.so.6")


def test_a_compiler_cache_is_not_started_ahead(tmp_path):
    # ccache and the like preprocess the source and compile it again: a
    # kernel sent on standard input would be read twice. This stand-in only
    # runs the compiler, but its name is enough.
    cache = tmp_path / "bin" / "ccache"
    cache.parent.mkdir()
    cache.write_text('#!/bin/sh\nexec "$@"\n')
    cache.chmod(0o755)
    run(tmp_path, r"""
scaled(2)
scaled(3)
assert waiting_compilers() == []
""", CXX=f"{cache} g++")
