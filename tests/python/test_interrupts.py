"""Ctrl-C during a long kernel on the CPU: the launch stops at the next
block with KeyboardInterrupt, the blocks not yet started never run, and
kiln keeps working."""
import os
import subprocess
import sys

import pytest

LONG_LAUNCH = r"""
import os, signal, threading, time
import numpy as np
import kiln
spin = kiln.RawKernel('''extern "C" __global__ void spin(float* out, int iters) {
  float v = threadIdx.x + 1;
  for (int k = 0; k < iters; ++k) v = v * 1.0000001f + 1e-7f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}''', "spin")
blocks = 20000  # seconds of work on any machine
out = kiln.zeros(blocks * 64, dtype=kiln.float32, device="cpu")
spin((2,), (64,), (out, np.int32(10)))  # compiled first
sent = []
threading.Timer(0.3, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT))).start()
try:
    spin((blocks,), (64,), (out, np.int32(20000)))
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - sent[0])
host = kiln.asnumpy(out)
print("untouched blocks", int((host.reshape(blocks, 64) == 0).all(axis=1).sum()))
small = kiln.zeros(64, dtype=kiln.float32, device="cpu")
spin((1,), (64,), (small, np.int32(0)))
print("after", kiln.asnumpy(small)[:3].tolist())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
def test_ctrl_c_stops_a_long_cpu_kernel():
    done = subprocess.run([sys.executable, "-c", LONG_LAUNCH], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    interrupted, untouched, after = done.stdout.splitlines()
    assert interrupted.startswith("interrupted"), done.stdout
    assert int(untouched.split()[-1]) > 1000  # most of the grid never ran
    assert after == "after [1.0, 2.0, 3.0]"
    print(interrupted)  # the delay, for the record (not asserted: timings vary)


# Library work that is not a kernel launch: each runs for seconds on any
# machine, and Ctrl-C comes 0.2 s in.
LONG_CALL = r"""
import os, signal, sys, threading, time
import numpy as np
import kiln
setup, call = sys.argv[1], sys.argv[2]
exec(setup)
# A function, not exec(call): a KeyboardInterrupt out of exec's string code
# makes CPython end the process with SIGINT at exit, even when caught.
call = eval("lambda: " + call)
sent = []
threading.Timer(0.2, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT))).start()
try:
    call()
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - sent[0])
check = kiln.sort(kiln.asarray(np.array([3.0, 1.0, 2.0])))
print("after", kiln.asnumpy(check).tolist())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
@pytest.mark.parametrize(
    "setup, call",
    [
        ("x = kiln.asarray(np.random.default_rng(0).standard_normal(1 << 25))", "kiln.sort(x)"),
        ("x = kiln.asarray(np.random.default_rng(0).standard_normal((16384, 8192)))", "kiln.argsort(x, axis=1)"),
        ("a = kiln.ones((8192, 8192), dtype=kiln.float64, device='cpu')", "a @ a"),
    ],
    ids=["sort", "argsort-rows", "matmul"],
)
def test_ctrl_c_stops_long_library_work(setup, call):
    done = subprocess.run([sys.executable, "-c", LONG_CALL, setup, call], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "KILN_DEVICE": "cpu"})
    assert done.returncode == 0, done.stderr[-3000:]
    interrupted, after = done.stdout.splitlines()
    assert interrupted.startswith("interrupted"), done.stdout
    assert after == "after [1.0, 2.0, 3.0]"
    print(interrupted)  # the delay, for the record (not asserted: timings vary)


# A cuda::barrier wait that no thread can end (a GPU would hang): Ctrl-C
# ends it, as it ends a long launch.
STUCK_WAIT = r"""
import os, signal, threading, time
import kiln
stuck = kiln.RawKernel('''
#include <cuda/barrier>
extern "C" __global__ void stuck(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}''', "stuck")
out = kiln.zeros(2, dtype="int32", device="cpu")
sent = []
threading.Timer(0.3, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT))).start()
try:
    stuck((1,), (2,), (out,))
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - sent[0])
print("after", float((kiln.ones(3, device="cpu") * 2).sum()))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
def test_ctrl_c_ends_a_barrier_wait_no_thread_can_end():
    done = subprocess.run([sys.executable, "-c", STUCK_WAIT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    interrupted, after = done.stdout.splitlines()
    assert interrupted.startswith("interrupted"), done.stdout
    assert after == "after 6.0"
