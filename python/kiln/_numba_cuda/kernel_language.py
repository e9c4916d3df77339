"""Numba's kernel language as names: ``cuda.grid``, ``cuda.threadIdx.x``,
``cuda.shared.array``, ``cuda.atomic.add``, ``cuda.syncthreads`` and the rest.

These are markers: kiln.cuda.jit recognises them in a kernel's source and
translates them to CUDA C++. Called from ordinary Python they raise.
"""


def _only_in_kernels(name):
    def marker(*args, **kwargs):
        raise RuntimeError(f"cuda.{name} can only be used inside a kiln.cuda.jit kernel")

    marker.__name__ = name
    return marker


class Dim3:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, axis):
        raise AttributeError(f"cuda.{self._name}.{axis} can only be used inside a kiln.cuda.jit kernel")


class _Namespace:
    def __init__(self, name, members):
        for member in members:
            setattr(self, member, _only_in_kernels(f"{name}.{member}"))


threadIdx, blockIdx, blockDim, gridDim = (Dim3(n) for n in ("threadIdx", "blockIdx", "blockDim", "gridDim"))
class _KernelValue:
    """A value only a running kernel has (``cuda.laneid``, ``cuda.warpsize``)."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"<cuda.{self._name}: read inside a kiln.cuda.jit kernel>"


laneid, warpsize = _KernelValue("laneid"), _KernelValue("warpsize")
shared = _Namespace("shared", ["array"])
# Numba's half-precision functions (cuda.fp16.hadd...): float16 in, float16 (or bool) out.
fp16 = _Namespace("fp16", ["hadd", "hsub", "hmul", "hdiv", "hneg", "habs", "hfma", "heq", "hne", "hge", "hgt", "hle",
                           "hlt", "hmax", "hmin", "hsin", "hcos", "hlog", "hlog10", "hlog2", "hexp", "hexp10", "hexp2",
                           "hsqrt", "hrsqrt", "hceil", "hfloor", "hrcp", "hrint", "htrunc"])
local = _Namespace("local", ["array"])
# Cooperative groups: cg.this_grid() is the grid, whose sync() is a barrier
# across all its blocks (the kernel then launches cooperatively).
cg = _Namespace("cg", ["this_grid"])
const = _Namespace("const", ["array_like"])
atomic = _Namespace("atomic", ["add", "sub", "max", "min", "nanmax", "nanmin", "and_", "or_", "xor", "exch",
                               "inc", "dec", "cas", "compare_and_swap"])
# CuPy's spelling of a shared array (cupyx.jit.shared_memory(dtype, size)):
# size None or 0 is the dynamic shared memory sized at launch.
shared_memory = _only_in_kernels("shared_memory")
grid = _only_in_kernels("grid")
gridsize = _only_in_kernels("gridsize")
syncthreads = _only_in_kernels("syncthreads")
syncthreads_count = _only_in_kernels("syncthreads_count")
syncthreads_and = _only_in_kernels("syncthreads_and")
syncthreads_or = _only_in_kernels("syncthreads_or")
syncwarp = _only_in_kernels("syncwarp")
threadfence = _only_in_kernels("threadfence")
threadfence_block = _only_in_kernels("threadfence_block")
threadfence_system = _only_in_kernels("threadfence_system")
shfl_sync = _only_in_kernels("shfl_sync")
shfl_up_sync = _only_in_kernels("shfl_up_sync")
shfl_down_sync = _only_in_kernels("shfl_down_sync")
shfl_xor_sync = _only_in_kernels("shfl_xor_sync")
all_sync = _only_in_kernels("all_sync")
any_sync = _only_in_kernels("any_sync")
ballot_sync = _only_in_kernels("ballot_sync")
eq_sync = _only_in_kernels("eq_sync")
activemask = _only_in_kernels("activemask")
lanemask_lt = _only_in_kernels("lanemask_lt")
match_any_sync = _only_in_kernels("match_any_sync")
match_all_sync = _only_in_kernels("match_all_sync")
fma = _only_in_kernels("fma")
cbrt = _only_in_kernels("cbrt")
popc = _only_in_kernels("popc")
brev = _only_in_kernels("brev")
clz = _only_in_kernels("clz")
ffs = _only_in_kernels("ffs")
selp = _only_in_kernels("selp")
# Numba's arrays over raw pointers (numba.np.numpy_support.carray/farray):
# carray(ptr, shape, dtype=...) views the memory a CPointer argument points at.
carray = _only_in_kernels("carray")
farray = _only_in_kernels("farray")


def literal_unroll(container):
    """Numba's ``literal_unroll``: ``for x in literal_unroll(t)`` runs the
    loop's body once for each item of the tuple `t`, each with the item's own
    type (the jit unrolls it: kiln/_jit/function.py). Outside kernels it is
    the container itself, as in Numba."""
    return container


def literally(value):
    """Numba's ``literally``: Numba compiles the function again for the
    value as a literal type. kiln specialises on types alone and a value's
    code is the same either way, so in a compiled function and in Python it
    is the value."""
    return value


def prange(*args):
    """Numba's ``prange``: in Python, ``range``; in a compiled function, a
    loop whose iterations are independent, which a ``parallel=True``
    function splits over the CPU's threads (kiln/_jit/emit.py) and any
    other runs as ``range``."""
    return range(*args)
