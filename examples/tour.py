"""A short tour of kiln on the best device present (`make demo`)."""
import time

import numpy as np

import kiln as cp
import kiln.pycuda.driver as drv
from kiln.pycuda.compiler import SourceModule


@cp.cuda.jit
def add_one(a):
    x, y = cp.cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] += 1


def timed(fn, sync=lambda: None, repeat=5):
    fn()
    sync()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    device = cp.default_device()  # cuda:0 when a GPU works, else the CPU
    on_gpu = device.type == "cuda"
    sync = cp.cuda.synchronize if on_gpu else (lambda: None)
    where = cp.cuda.Device().name if on_gpu else f"{cp._core._cpu_threads()} CPU threads"
    print(f"kiln {cp.__version__} on {device} ({where})\n")

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

    if on_gpu:
        print("\n3. Host and device: asarray copies NumPy data to the GPU, asnumpy brings it back")
        g = cp.asarray(np.arange(6.0))
        print("on", g.device, "->", cp.asnumpy(g * 2))
    else:
        print("\n3. Zero-copy with NumPy on the CPU")
        host = np.arange(6.0)
        view = cp.asarray(host)
        host[0] = 42.0
        print("kiln sees the NumPy write:", float(view[0]), "| back to NumPy:", cp.asnumpy(view * 2))

    print(f"\n4. Speed beside NumPy (16M float32, best of 5; kiln on {device})")
    a = np.random.default_rng(0).random(1 << 24, dtype=np.float32)
    b = a.copy()
    ka, kb = cp.asarray(a), cp.asarray(b)
    print(f"{'op':18s}{'numpy':>12s}{'kiln':>12s}{'speed-up':>10s}")
    for name, np_fn, k_fn in (
        ("a + b", lambda: a + b, lambda: ka + kb),
        ("sin(a)", lambda: np.sin(a), lambda: cp.sin(ka)),
        ("sum(a)", lambda: np.sum(a), lambda: cp.sum(ka)),
    ):
        tn, tk = timed(np_fn), timed(k_fn, sync)
        print(f"{name:18s}{tn * 1e3:10.2f}ms{tk * 1e3:10.2f}ms{tn / tk:9.1f}x")
    small_a, small_b = cp.asarray(a[:1000]), cp.asarray(b[:1000])
    per_call = timed(lambda: [small_a + small_b for _ in range(1000)], sync) / 1000
    print(f"a + b on 1000 elements: {per_call * 1e6:.2f} us a call")

    print("\n5. Kernels from strings: CuPy's and PyCUDA's, the same CUDA C on "
          + ("the GPU" if on_gpu else "the CPU (compiled by the host C++ compiler)"))
    add = cp.RawKernel(r"""
    extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = x[i] + y[i];
    }""", "vector_add")
    x, y = cp.arange(5, dtype=cp.float32), cp.ones(5, dtype=cp.float32)
    out = cp.empty(5, dtype=cp.float32)
    add((1,), (32,), (x, y, out, 5))  # the int becomes the `int n` the kernel declares
    print("RawKernel vector_add        ->", out)
    squared_diff = cp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    print("ElementwiseKernel (x - 2)^2 ->", squared_diff(x, 2))
    l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    print("ReductionKernel |rows|      ->", l2norm(cp.arange(6, dtype=cp.float32).reshape(2, 3), axis=1))
    multiply_them = SourceModule("""
    __global__ void multiply_them(float *dest, float *a, float *b) {
      const int i = threadIdx.x;
      dest[i] = a[i] * b[i];
    }""").get_function("multiply_them")
    a4, b4 = np.arange(4, dtype=np.float32), np.full(4, 3, dtype=np.float32)
    dest = np.zeros_like(a4)
    multiply_them(drv.Out(dest), drv.In(a4), drv.In(b4), block=(4, 1, 1), grid=(1, 1))
    print("PyCUDA multiply_them        ->", dest)

    print("\n6. Kernels in Python: Numba's @cuda.jit, after `from kiln import cuda`")
    d = cp.cuda.to_device(np.zeros((3, 4)))
    add_one[(1, 1), (8, 8)](d)
    print("add_one over a 3x4 array ->", d.copy_to_host().tolist())

    print("\n7. Your own C++ and CUDA on kiln arrays: kiln.cpp_extension (built once, then cached)")
    from kiln.cpp_extension import load_inline

    start = time.perf_counter()
    ext = load_inline("tour_extension", r"""
    kiln::Array scaled_add(const kiln::Array& x, const kiln::Array& y, float a) {
      kiln::Array out = kiln::empty(x.shape(), kiln::DType::Float32, x.device());
      static const kiln::RawKernel kernel = kiln::extension::kernel("scaled_add");
      const int n = static_cast<int>(x.size());
      kernel(x.device(), {static_cast<unsigned>((n + 255) / 256)}, {256}, 0, x, y, out, a, n);
      return out;  // C++ host code and a CUDA kernel, on the arrays' device
    }""", cuda_sources=r"""
    extern "C" __global__ void scaled_add(const float* x, const float* y, float* out, float a, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = a * x[i] + y[i];
    }""", functions=["scaled_add"])
    x, y = cp.arange(5, dtype=cp.float32), cp.ones(5, dtype=cp.float32)
    print(f"load_inline ({time.perf_counter() - start:.2f} s) -> scaled_add(x, y, 2) =", ext.scaled_add(x, y, 2.0))
    print("The same arrays and ops are available from C++ programs: find_package(kiln), #include <kiln/kiln.hpp>.")


if __name__ == "__main__":
    main()
