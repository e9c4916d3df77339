"""kiln from many Python threads: long work lets other threads run (the GIL
is released around it), and threads mixing array ops, fusion and kernel
launches get correct results. ``KILN_THREAD_TEST_SECONDS`` sets how long the
mixed run lasts (a few seconds in CI; ``make gpu-check`` runs 30)."""
import os
import threading
import time

import numpy as np
import pytest

import kiln

SECONDS = float(os.environ.get("KILN_THREAD_TEST_SECONDS", "3"))

TWICE = r"""extern "C" __global__ void twice(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}"""


def ticks_during(work):
    """How often a thread that sleeps 1 ms at a time woke while `work` ran."""
    ticks, stop = [0], threading.Event()

    def ticker():
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    try:
        time.sleep(0.01)
        before = ticks[0]
        start = time.perf_counter()
        work()
        elapsed = time.perf_counter() - start
        return ticks[0] - before, elapsed
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("op", ["sort", "argsort", "matmul", "solve", "fft"])
def test_long_work_lets_other_threads_run(op):
    rng = np.random.default_rng(0)
    a = kiln.asarray(rng.standard_normal(1 << 22), device="cpu")
    m = kiln.asarray(rng.standard_normal((1200, 1200)), device="cpu")
    work = {"sort": lambda: kiln.sort(a), "argsort": lambda: kiln.argsort(a), "matmul": lambda: m @ m,
            "solve": lambda: kiln.linalg.solve(m, m), "fft": lambda: kiln.fft.fft(a)}[op]
    work()  # warm: libraries loaded, kernels compiled
    ticks, elapsed = ticks_during(work)
    if elapsed < 0.02:
        pytest.skip(f"{op} took {elapsed * 1e3:.1f} ms here: too short to tell")
    # Held, the GIL lets the ticker in about once per 5 ms switch interval.
    assert ticks >= elapsed / 0.005 * 2, (ticks, elapsed)


def test_threads_mixing_ops_and_kernels_get_correct_results(device):
    kernel = kiln.RawKernel(TWICE, "twice")
    errors, rounds = [], [0] * 8

    def work(seed):
        rng = np.random.default_rng(seed)
        end = time.time() + SECONDS
        try:
            while time.time() < end:
                n = int(rng.integers(1, 200_000))
                h = rng.standard_normal(n)
                a = kiln.asarray(h, device=device)
                np.testing.assert_allclose(kiln.asnumpy(kiln.sin(a) * 2 + kiln.sqrt(kiln.abs(a))),
                                           np.sin(h) * 2 + np.sqrt(np.abs(h)))
                np.testing.assert_allclose(float(kiln.sum(a * a)), float((h * h).sum()), rtol=1e-9)
                y = kiln.empty_like(a)
                kernel(((n + 255) // 256,), (256,), (a, y, np.int32(n)))
                np.testing.assert_array_equal(kiln.asnumpy(y), 2 * h)
                np.testing.assert_array_equal(kiln.asnumpy(kiln.sort(a)), np.sort(h))
                rows = n // 32
                if rows:
                    hm = h[: rows * 32].reshape(rows, 32)
                    km = a[: rows * 32].reshape(rows, 32)
                    np.testing.assert_allclose(kiln.asnumpy(km.T @ km), hm.T @ hm, rtol=1e-9, atol=1e-9)
                rounds[seed] += 1
        except Exception as e:  # reported by the main thread
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert all(r > 0 for r in rounds), rounds
