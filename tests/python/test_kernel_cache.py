"""The disk cache of compiled kernels over time: its size limit with least
recently used removal, cache_info/clear_cache, and a directory kiln cannot
use (kernels then stay in memory, with one warning)."""
import os
import subprocess
import sys

import kiln

# Compiles kernels f<k> for k in argv[1] (a comma-separated list), in order,
# on the default device, and checks each ran.
COMPILE = r"""
import sys
import kiln
src = 'extern "C" __global__ void f%d(float* x) { x[threadIdx.x] = %d; }'
for k in map(int, sys.argv[1].split(",")):
    x = kiln.zeros(4, dtype=kiln.float32)
    kiln.RawKernel(src % (k, k), "f%d" % k)((1,), (4,), (x,))
    assert float(x[3]) == k
print(kiln.cache_info()["entries"])
"""


def run(kernels, **env):
    done = subprocess.run([sys.executable, "-c", COMPILE, ",".join(map(str, kernels))], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def entry_names(directory):
    return {p for p in os.listdir(directory) if p.endswith((".so", ".cubin"))}


def test_cache_info_and_clear_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    run([1, 2], KILN_CACHE_DIR=str(cache))
    monkeypatch.setenv("KILN_CACHE_DIR", str(cache))
    info = kiln.cache_info()
    assert info["directory"] == str(cache) and info["writable"]
    assert info["entries"] == len(entry_names(cache)) >= 2
    assert info["bytes"] == sum(os.path.getsize(cache / p) for p in entry_names(cache))
    assert info["max_bytes"] == 4 << 30
    others = set(os.listdir(cache)) - entry_names(cache)
    assert kiln.clear_cache() == info["entries"]
    assert kiln.cache_info()["entries"] == 0 and not entry_names(cache)
    assert set(os.listdir(cache)) == others  # identity records and the host runtime stay
    monkeypatch.setenv("KILN_CACHE_MAX_BYTES", "12345")
    assert kiln.cache_info()["max_bytes"] == 12345


def test_the_limit_removes_the_least_recently_used(tmp_path):
    cache = tmp_path / "cache"
    run([1, 2, 3], KILN_CACHE_DIR=str(cache))
    sizes = sorted(os.path.getsize(cache / p) for p in entry_names(cache))
    first = entry_names(cache)
    run([1], KILN_CACHE_DIR=str(cache))  # kernel 1 used again: now the most recent of the three
    assert entry_names(cache) == first  # a hit stores nothing
    # Room for about two entries: storing kernel 4 removes the least recently
    # used (2 and 3) down to 90% of the limit, and keeps 1 and 4.
    limit = sizes[-1] * 2 + sizes[-1] // 2
    run([4], KILN_CACHE_DIR=str(cache), KILN_CACHE_MAX_BYTES=str(limit))
    names = entry_names(cache)
    assert sum(os.path.getsize(cache / p) for p in names) <= limit
    assert len(names) == 2 and len(names & first) == 1
    # The one kept from before is kernel 1's: running it compiles nothing.
    before = {p: os.stat(cache / p).st_size for p in names}
    run([1, 4], KILN_CACHE_DIR=str(cache), KILN_CACHE_MAX_BYTES=str(limit))
    assert entry_names(cache) == names and {p: os.stat(cache / p).st_size for p in names} == before


def test_a_directory_kiln_cannot_use_keeps_kernels_in_memory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    done = run([1, 2, 1], KILN_CACHE_DIR=str(blocker / "cache"))  # under a file: no directory can be made
    warnings = [line for line in done.stderr.splitlines() if "cannot be used" in line]
    assert len(warnings) == 1 and str(blocker / "cache") in warnings[0] and "in this process only" in warnings[0]
    assert done.stdout.strip() == "0"


def test_a_bad_limit_is_said_once_and_the_default_used(tmp_path):
    done = run([1], KILN_CACHE_DIR=str(tmp_path / "cache"), KILN_CACHE_MAX_BYTES="lots")
    assert done.stderr.count("KILN_CACHE_MAX_BYTES=lots is not a number of bytes") == 1


# A CPU kernel that calls into the C library (snprintf), the math library
# (sin, vectorised over a block's threads: libmvec), libgcc (a 128-bit
# division) and the C++ runtime (a function-local static with a dynamic
# initialiser: __cxa_guard_acquire), run in a process that compiled it and
# again in one that loads it from the cache: a kernel's library links
# without those libraries and finds them in the process when it loads.
LIBRARY_CALLS = r"""
import math, sys
import kiln
src = r'''
__device__ double three() { char text[8]; snprintf(text, sizeof text, "%d", 3); return text[0] - '0'; }
struct Table { double scale; Table() : scale(three()) {} };
extern "C" __global__ void calls(double* x, unsigned long long* q) {
  static Table table;
  int i = threadIdx.x;
  x[i] = table.scale * sin(x[i]);
  q[i] = (unsigned long long)(((unsigned __int128)q[i] << 64) / 0xfedcba9876543ull);
}'''
x = kiln.asarray([0.5 * i for i in range(64)])
q = kiln.asarray([i + 1 for i in range(64)], dtype=kiln.uint64)
kiln.RawKernel(src, "calls")((1,), (64,), (x, q))
assert all(abs(float(x[i]) - 3 * math.sin(0.5 * i)) < 1e-12 for i in range(64))
assert all(int(q[i]) == ((i + 1) << 64) // 0xfedcba9876543 for i in range(64))
print(kiln.cache_info()["entries"])
"""


def test_a_cpu_kernel_calling_the_system_libraries_loads_from_the_cache(tmp_path):
    env = {**os.environ, "KILN_CACHE_DIR": str(tmp_path / "cache"), "KILN_DEVICE": "cpu"}
    for _ in range(2):  # compiled, then loaded from the cache by a fresh process
        done = subprocess.run([sys.executable, "-c", LIBRARY_CALLS], capture_output=True, text=True, timeout=300,
                              env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.strip() == "1"


def test_a_cached_cpu_library_that_does_not_load_is_compiled_again(tmp_path):
    # An entry whose checksum holds but whose library the process cannot
    # load (one linked for another system, say): the kernel is compiled and
    # linked again, through the compiler driver, and stored over it.
    import hashlib
    cache = tmp_path / "cache"
    run([5], KILN_CACHE_DIR=str(cache), KILN_DEVICE="cpu")
    entry, = [cache / p for p in entry_names(cache)]
    payload = b"\x7fELF not a library"
    entry.write_bytes(hashlib.sha256(payload).digest() + payload)
    run([5], KILN_CACHE_DIR=str(cache), KILN_DEVICE="cpu")  # the kernel runs: COMPILE checks its result
    assert entry_names(cache) == {entry.name} and b"not a library" not in entry.read_bytes()
