"""A short tour of kiln on the best device present (`make demo`)."""
import time

import numpy as np

import kiln as cp


def timed(fn, repeat=5):
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    device = cp.cpu  # the CUDA backend (next issue) makes cuda:0 the default when a GPU works
    print(f"kiln {cp.__version__} on {device} ({cp._core._cpu_threads()} threads)\n")

    print("1. Arrays speak NumPy: dtypes, promotion, broadcasting")
    x = cp.arange(12, dtype=cp.int16).reshape(3, 4)
    print(x)
    print("x * 2.5        ->", (x * 2.5).dtype, "(a Python float promotes int16 to float64)")
    print("x + int8 array ->", (x + cp.ones(4, dtype=cp.int8)).dtype)
    print("x[::-1, 1::2] is a view:", (x[::-1, 1::2]).tolist())

    print("\n2. Elementwise math and reductions")
    t = cp.linspace(0, 2 * cp.pi, 9, dtype=cp.float32)
    print("sin(t)          =", cp.round(cp.sin(t), 3))
    print("sum, mean, std  =", float(cp.sum(t)), float(cp.mean(t)), float(cp.std(t)))
    print("argmax(sin t)   =", int(cp.argmax(cp.sin(t))))
    print("cumulative_sum  =", cp.cumulative_sum(cp.arange(1, 6)))

    print("\n3. Zero-copy with NumPy on the CPU")
    host = np.arange(6.0)
    view = cp.asarray(host)
    host[0] = 42.0
    print("kiln sees the NumPy write:", float(view[0]), "| back to NumPy:", cp.asnumpy(view * 2))

    print("\n4. Speed beside NumPy (16M float32, best of 5)")
    a = np.random.default_rng(0).random(1 << 24, dtype=np.float32)
    b = a.copy()
    ka, kb = cp.asarray(a), cp.asarray(b)
    print(f"{'op':18s}{'numpy':>12s}{'kiln':>12s}{'speed-up':>10s}")
    for name, np_fn, k_fn in (
        ("a + b", lambda: a + b, lambda: ka + kb),
        ("sin(a)", lambda: np.sin(a), lambda: cp.sin(ka)),
        ("sum(a)", lambda: np.sum(a), lambda: cp.sum(ka)),
    ):
        tn, tk = timed(np_fn), timed(k_fn)
        print(f"{name:18s}{tn * 1e3:10.2f}ms{tk * 1e3:10.2f}ms{tn / tk:9.1f}x")
    small_a, small_b = cp.asarray(a[:1000]), cp.asarray(b[:1000])
    per_call = timed(lambda: [small_a + small_b for _ in range(1000)]) / 1000
    print(f"a + b on 1000 elements: {per_call * 1e6:.2f} us a call")

    print("\nThe same arrays and ops are available from C++: #include <kiln/kiln.hpp>.")


if __name__ == "__main__":
    main()
