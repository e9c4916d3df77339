"""PyCUDA's ``pycuda.tools``: contexts for tests, memory pools, C types of
dtypes and argument declarations, as kiln provides them."""
import builtins
import functools

import numpy as np

from . import driver

_C_TYPES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int", "int64": "long", "uint64": "unsigned long", "float32": "float",
    "float64": "double", "complex64": "pycuda::complex<float>", "complex128": "pycuda::complex<double>",
}
# Declared C types to dtypes (parse_c_arg's reading of "float *x").
_DTYPES = {
    "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8, "short": np.int16,
    "unsigned short": np.uint16, "int": np.int32, "unsigned int": np.uint32, "unsigned": np.uint32,
    "long": np.int64, "unsigned long": np.uint64, "long long": np.int64, "unsigned long long": np.uint64,
    "float": np.float32, "double": np.float64, "bool": np.bool_, "size_t": np.uintp, "ptrdiff_t": np.intp,
    "int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16, "int32_t": np.int32,
    "uint32_t": np.uint32, "int64_t": np.int64, "uint64_t": np.uint64,
    "pycuda::complex<float>": np.complex64, "pycuda::complex<double>": np.complex128,
    "complex<float>": np.complex64, "complex<double>": np.complex128,
}


def dtype_to_ctype(dtype, with_fp_tex_hack=False):
    dtype = np.dtype(dtype)
    try:
        return _C_TYPES[dtype.name]
    except KeyError:
        raise ValueError(f"unable to map dtype '{dtype}'") from None


class Argument:
    def __init__(self, dtype, name):
        self.dtype, self.name = np.dtype(dtype), name

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.dtype})"


class VectorArg(Argument):
    """A pointer argument (``float *x``)."""

    def declarator(self):
        return f"{dtype_to_ctype(self.dtype)} *{self.name}"

    struct_char = "P"


class ScalarArg(Argument):
    """A value argument ("float a")."""

    def declarator(self):
        return f"{dtype_to_ctype(self.dtype)} {self.name}"

    @property
    def struct_char(self):
        return self.dtype.char


def parse_c_arg(c_arg):
    """A VectorArg or ScalarArg from a C declaration such as ``float *x`` or ``int n``."""
    text = c_arg.replace("const", " ").replace("__restrict__", " ").strip()
    is_pointer = "*" in text
    words = text.replace("*", " ").split()
    if len(words) < 2:
        raise ValueError(f"cannot read the argument declaration {c_arg!r}")
    name, type_name = words[-1], " ".join(words[:-1])
    if type_name not in _DTYPES:
        raise ValueError(f"unknown type '{type_name}' in {c_arg!r}")
    return (VectorArg if is_pointer else ScalarArg)(_DTYPES[type_name], name)


def parse_arguments(arguments):
    """The Argument list of a comma-separated C declaration list (or a list of Arguments)."""
    if isinstance(arguments, str):
        return [parse_c_arg(a) for a in arguments.split(",") if a.strip()]
    return list(arguments)


def get_arg_type(c_arg):
    return parse_c_arg(c_arg).struct_char


def bitlog2(n):
    """The position of the highest set bit of n (floor(log2(n)))."""
    return int(n).bit_length() - 1


_memoized = []


def context_dependent_memoize(func):
    """Memoizes per device (kiln's contexts live as long as the process)."""
    cache = {}
    _memoized.append(cache)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        key = (str(driver._current()), args, tuple(sorted(kwargs.items())))
        if key not in cache:
            cache[key] = func(*args, **kwargs)
        return cache[key]

    return wrapper


def clear_context_caches():
    for cache in _memoized:
        cache.clear()


def get_default_device(default=0):
    return driver.Device(default)


def make_default_context(ctx_maker=None):
    """The context of the current device (the host when there is no GPU)."""
    device = driver.Device(0)
    return ctx_maker(device) if ctx_maker is not None else device.make_context()


def mark_cuda_test(inner_f):
    """Runs the test with a current context (kiln's is always current)."""
    return inner_f


def init_cuda_context_fixture():
    """A pytest fixture body: a current context for the test, then its caches cleared."""
    driver.init()
    make_default_context()
    yield
    clear_context_caches()


# Size classes of DeviceMemoryPool: a power of two and the next MANTISSA_BITS
# bits of the size, so a class wastes at most 1/2**MANTISSA_BITS of a block.
MANTISSA_BITS = 2


class DeviceMemoryPool:
    """PyCUDA's pool: freed allocations are held by size class and handed out
    again (kiln's own pool also caches device memory beneath it)."""

    def __init__(self, allocator=None):
        self._allocator = allocator or driver.mem_alloc
        self.active_blocks = 0
        self._held = {}  # size class -> allocations

    @staticmethod
    def bin_number(size):
        """The size class of `size` bytes: its exponent and mantissa bits."""
        size = builtins.max(int(size), 1)  # an empty allocation still gets a block
        if size < 1 << MANTISSA_BITS:
            return size
        exponent = bitlog2(size)
        mantissa = (size >> (exponent - MANTISSA_BITS)) & ((1 << MANTISSA_BITS) - 1)
        if size & ((1 << (exponent - MANTISSA_BITS)) - 1):  # bits below the mantissa: the next class
            mantissa += 1
            if mantissa >> MANTISSA_BITS:
                exponent, mantissa = exponent + 1, 0
        return (exponent << MANTISSA_BITS | mantissa) + (1 << MANTISSA_BITS)

    @staticmethod
    def alloc_size(bin_nr):
        """The bytes a block of size class `bin_nr` has (the largest size of the class)."""
        if bin_nr < 1 << MANTISSA_BITS:
            return bin_nr
        bin_nr -= 1 << MANTISSA_BITS
        exponent, mantissa = bin_nr >> MANTISSA_BITS, bin_nr & ((1 << MANTISSA_BITS) - 1)
        return ((1 << MANTISSA_BITS) | mantissa) << (exponent - MANTISSA_BITS)

    def allocate(self, size):
        bin_nr = self.bin_number(size)
        held = self._held.get(bin_nr)
        block = held.pop() if held else self._allocator(max(self.alloc_size(bin_nr), 1))
        self.active_blocks += 1
        return _PooledAllocation(self, block, bin_nr)

    __call__ = allocate

    @property
    def held_blocks(self):
        return sum(len(blocks) for blocks in self._held.values())

    def free_held(self):
        self._held.clear()

    def stop_holding(self):
        self.free_held()


class _PooledAllocation:
    """An allocation of a DeviceMemoryPool: back to the pool when freed."""

    def __init__(self, pool, allocation, bin_nr):
        self._pool, self._allocation, self._bin = pool, allocation, bin_nr
        self.size, self.device = allocation.size, allocation.device

    def __int__(self):
        return int(self._allocation)

    __index__ = __int__

    def free(self):
        if self._allocation is not None:
            self._pool._held.setdefault(self._bin, []).append(self._allocation)
            self._pool.active_blocks -= 1
            self._allocation = None

    def __del__(self):
        try:
            self.free()
        except Exception:  # the interpreter is shutting down
            pass


class PageLockedMemoryPool:
    """Page-locked host arrays (``allocate(shape, dtype)``)."""

    def allocate(self, shape, dtype, order="C"):
        return driver.pagelocked_empty(shape, dtype, order)


class DeviceData:
    """The current device's limits, as PyCUDA's tools describe them."""

    def __init__(self, dev=None):
        dev = dev or driver.Context.get_device()
        attributes = dev.get_attributes()
        attribute = driver.device_attribute
        self.max_threads = attributes[attribute.MAX_THREADS_PER_BLOCK]
        self.warp_size = attributes[attribute.WARP_SIZE]
        self.thread_blocks_per_mp = 8
        self.warps_per_mp = attributes.get(attribute.MAX_THREADS_PER_MULTIPROCESSOR, 2048) // self.warp_size
        self.registers = attributes[attribute.MAX_REGISTERS_PER_BLOCK]
        self.shared_memory = attributes[attribute.MAX_SHARED_MEMORY_PER_BLOCK]
        self.smem_granularity = 16
        self.smem_alloc_granularity = 128
        self.register_allocation_unit = "warp"
        self.max_registers_per_thread = 255
