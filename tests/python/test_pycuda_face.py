"""PyCUDA's face: kiln.pycuda.driver and kiln.pycuda.compiler.SourceModule, with PyCUDA's
tutorial code run on every device present (as the default device)."""
import numpy as np
import pytest

import kiln
import kiln.pycuda.driver as drv
from kiln.pycuda.compiler import SourceModule




DOUBLIFY = """
  __global__ void doublify(float *a)
  {
    int idx = threadIdx.x + threadIdx.y*4;
    a[idx] *= 2;
  }
"""


def test_tutorial_mem_alloc_memcpy_and_inout(current):
    import kiln.pycuda.autoinit  # noqa: F401  (PyCUDA's `import pycuda.autoinit`)

    a = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)
    a_gpu = drv.mem_alloc(a.nbytes)
    assert a_gpu.device == current and a_gpu.size == a.nbytes
    drv.memcpy_htod(a_gpu, a)
    func = SourceModule(DOUBLIFY).get_function("doublify")
    func(a_gpu, block=(4, 4, 1))
    a_doubled = np.empty_like(a)
    drv.memcpy_dtoh(a_doubled, a_gpu)
    np.testing.assert_array_equal(a_doubled, 2 * a)
    b = a.copy()
    func(drv.InOut(b), block=(4, 4, 1))
    np.testing.assert_array_equal(b, 2 * a)
    func.prepare("P")
    func.prepared_call((1, 1), (4, 4, 1), a_gpu)
    np.testing.assert_array_equal(drv.from_device(a_gpu, a.shape, a.dtype), 4 * a)
    assert func.prepared_timed_call((1, 1), (4, 4, 1), a_gpu)() >= 0
    drv.Context.synchronize()


def test_multiply_them_with_in_and_out(current):
    mod = SourceModule("""
    __global__ void multiply_them(float *dest, float *a, float *b)
    {
      const int i = threadIdx.x;
      dest[i] = a[i] * b[i];
    }
    """)
    multiply_them = mod.get_function("multiply_them")
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(400).astype(np.float32), rng.standard_normal(400).astype(np.float32)
    dest = np.zeros_like(a)
    elapsed = multiply_them(drv.Out(dest), drv.In(a), drv.In(b), block=(400, 1, 1), grid=(1, 1), time_kernel=True)
    np.testing.assert_array_equal(dest, a * b)
    assert elapsed >= 0


def test_globals_to_device_and_scalars(current):
    mod = SourceModule("""
    __constant__ float scale[4];
    __device__ int calls;
    __global__ void scale_by(float* x, int n) {
      if (threadIdx.x < n) x[threadIdx.x] *= scale[threadIdx.x];
      atomicAdd(&calls, 1);
    }
    """)
    scale, size = mod.get_global("scale")
    assert size == 16
    drv.memcpy_htod(scale, np.array([1, 2, 3, 4], dtype=np.float32))
    x = drv.to_device(np.ones(4, dtype=np.float32))
    mod.get_function("scale_by")(x, np.int32(3), block=(4, 1, 1))
    np.testing.assert_array_equal(drv.from_device(x, (4,), np.float32), [1, 2, 3, 1])
    calls, _ = mod.get_global("calls")
    assert drv.from_device(calls, (1,), np.int32)[0] == 4


# compute-sanitizer reports the driver's "not found" for the missing name as
# an API error, so `make gpu-check` runs this one without it.
def test_missing_global_names_itself(current):
    with pytest.raises(ValueError, match="no global variable named 'missing'"):
        SourceModule("__device__ int present;").get_global("missing")


def test_bad_calls(current):
    func = SourceModule(DOUBLIFY).get_function("doublify")
    a = drv.mem_alloc(64)
    with pytest.raises(TypeError, match="block="):
        func(a)
    with pytest.raises(TypeError, match="doublify takes 1 arguments, got 2"):
        func(a, a, block=(4, 4, 1))
    with pytest.raises(ValueError, match="do not fit"):
        drv.memcpy_htod(a, np.zeros(100, dtype=np.float32))
    a.free()
    with pytest.raises(ValueError, match="freed"):
        func(a, block=(4, 4, 1))
    with pytest.raises(kiln.CompileError, match="doublify"):
        SourceModule("__global__ void doublify(float* a) { a[0] = undefined_name; }").get_function("doublify")(
            drv.mem_alloc(4), block=(1, 1, 1))
