"""kiln: a GPU computing toolkit for Python and C++ that also runs without a GPU.

``import kiln as cp`` gives a NumPy/CuPy-style namespace whose arrays live on a
device (``kiln.cpu`` today). Operations dispatch in C++ to the device's
precompiled kernels.
"""
from . import _core
from ._ndarray import public_namespace as _public_namespace
from ._installation.version import __version__  # noqa: F401
from ._core import CompileError, Device, KernelError, ndarray, bincount, can_cast, promote_types, result_type
from ._ndarray.device import cpu, default_device
from ._ndarray.dtypes import common_type, dtype, finfo, iinfo, isdtype
from ._numpy.creation import (
    arange, array, asanyarray, asarray, ascontiguousarray, asfortranarray, copy, empty, empty_like, eye, full,
    full_like, geomspace, identity, linspace, logspace, ones, ones_like, require, zeros, zeros_like,
)
from ._numpy.math.elementwise import *  # noqa: F401,F403
from ._numpy.math.elementwise import clip, imag, real, where
from ._numpy.statistics.reductions import (
    all, amax, amin, any, argmax, argmin, cumprod, cumsum, cumulative_prod, cumulative_sum,
    max, mean, min, prod, std, sum, var,
)
from ._cupy_kernels.raw import RawKernel, RawModule  # noqa: F401
from ._cupy_kernels.elementwise import ElementwiseKernel  # noqa: F401
from . import io  # noqa: F401
from ._ndarray.dlpack import from_dlpack  # noqa: F401
from ._installation.config import show_config  # noqa: F401
from . import profiler, random  # noqa: F401
from ._cupy_kernels.reduction import ReductionKernel  # noqa: F401
from ._numpy.manipulation.shape import (
    astype, broadcast_arrays, broadcast_shapes, broadcast_to, diagonal, expand_dims, matrix_transpose,
    moveaxis, permute_dims, ravel, reshape, squeeze, swapaxes, transpose,
)
from ._ndarray.namespace_info import __array_namespace_info__  # noqa: F401
from ._numpy.manipulation.joining import (  # noqa: F401
    array_split, atleast_1d, atleast_2d, atleast_3d, concat, concatenate, dstack, hstack, split, stack, unstack,
    vstack,
)
from ._numpy.manipulation.rearranging import (  # noqa: F401
    diag, diagflat, diff, flip, fliplr, flipud, meshgrid, repeat, resize, roll, rot90, tile, tri, tril, triu,
    vander,
)
from ._numpy.indexing.index_tricks import (  # noqa: F401
    c_, diag_indices, diag_indices_from, fill_diagonal, fromfunction, index_exp, indices, ix_, mask_indices, mgrid,
    ndenumerate, ndindex, ogrid, r_, ravel_multi_index, s_, tril_indices, tril_indices_from, triu_indices,
    triu_indices_from, unravel_index,
)
from ._numpy.logic import allclose, array_equal, array_equiv, isclose  # noqa: F401
from ._numpy.packing import packbits, unpackbits  # noqa: F401
from ._numpy.manipulation.padding import pad  # noqa: F401
from ._ndarray.syncdetect import DeviceSynchronized, allow_synchronize  # noqa: F401
from ._numpy.windows import bartlett, blackman, hamming, hanning, kaiser  # noqa: F401
from ._numpy.indexing.gathering import put, take, take_along_axis  # noqa: F401
from ._numpy.indexing.nonzero import argwhere, compress, count_nonzero, extract, flatnonzero, nonzero  # noqa: F401
from ._numpy.statistics.nan_reductions import (  # noqa: F401
    nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar,
)
from ._numpy.products import dot, einsum, inner, kron, matmul, outer, tensordot, trace, vdot, vecdot  # noqa: F401
from ._numpy.products import numpy_cross as cross  # noqa: F401  (NumPy's; linalg.cross is the array API's)
from . import cusolver, exceptions, fft, fusion, lib, linalg, scipy  # noqa: F401
from ._numpy.manipulation.adding_removing import (  # noqa: F401
    append, column_stack, delete, dsplit, hsplit, insert, rollaxis, row_stack, trim_zeros, vsplit,
)
from ._numpy.indexing.selection import choose, copyto, place, put_along_axis, putmask, select  # noqa: F401
from ._numpy.functional import apply_along_axis, apply_over_axes, piecewise, vectorize  # noqa: F401
from ._numpy.memory_overlap import byte_bounds, may_share_memory, shares_memory  # noqa: F401
from ._numpy.math.calculus import ediff1d, gradient, trapezoid, unwrap  # noqa: F401
from ._numpy.polynomials import (  # noqa: F401
    poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval, roots,
)
from ._numpy.sorting import argpartition, argsort, lexsort, partition, searchsorted, sort, sort_complex  # noqa: F401
from ._cupy_kernels.fuse import fuse  # noqa: F401
from ._installation.package_paths import get_cmake_dir, get_include, get_library_dir  # noqa: F401
from ._installation.kernel_cache import cache_info, clear_cache  # noqa: F401
from ._numpy.sets import (  # noqa: F401
    intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all, unique_counts, unique_inverse, unique_values,
)
from ._numpy.statistics.histograms import digitize, histogram, histogram_bin_edges  # noqa: F401
from ._numpy.math.convolution import convolve, correlate  # noqa: F401
from ._numpy.math.interpolation import interp  # noqa: F401
from ._numpy.statistics.order_and_moments import (  # noqa: F401
    average, corrcoef, cov, median, nanmedian, nanpercentile, nanquantile, percentile, ptp, quantile,
)
from ._ndarray import methods as _array, dtypes as _dtypes  # noqa: F401  (installs ndarray's Python methods)
from ._installation import blas_candidates as _blas_candidates
from . import cuda
from .cuda import get_default_memory_pool, get_default_pinned_memory_pool

from ._numpy.array_queries import asnumpy, get_array_module, isfortran, iterable, ndim, shape, size  # noqa: F401
from ._numpy.constants import e, euler_gamma, inf, nan, newaxis, pi  # noqa: F401

__array_api_version__ = "2024.12"


# NumPy's scalar type hierarchy and dtype predicates, which CuPy re-exports
# as they are; loaded from NumPy on first use (``import kiln`` stays NumPy-free).
# The scalar types themselves (kiln.float32 and its aliases) are NumPy's too,
# as CuPy's are (_dtypes.SCALAR_TYPE_NAMES).
_FROM_NUMPY = ("generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
               "complexfloating", "character", "flexible", "issubdtype", "issubsctype",
               "min_scalar_type", "obj2sctype", "sctypeDict", "typecodes", "ScalarType",
               "little_endian", "format_parser", "errstate", "seterr", "geterr")


def __getattr__(name):
    if name in _FROM_NUMPY:
        import numpy

        return getattr(numpy, name)
    if name in _dtypes.SCALAR_TYPE_NAMES:
        globals()[name] = _dtypes.scalar_type(name)
        return globals()[name]
    import importlib

    # Modules imported when first named, as CuPy's and cupyx's are: cupyx.jit,
    # numpy.polynomial's face, cupy.testing, cupyx.cusparse/cusolver/profiler, and the
    # Numba and PyCUDA dialects.
    if name in ("jit", "polynomial", "testing", "cusparse", "cusolver", "profiler", "numba", "pycuda"):
        return importlib.import_module(f"{__name__}.{name}")
    from ._numpy import host_numpy as _host_numpy

    if name in _host_numpy.TO_KILN or name in _host_numpy.AS_IS:
        return getattr(_host_numpy, name)
    raise AttributeError(f"module 'kiln' has no attribute {name!r}")

from ._ndarray.advanced_indexing import getitem as _advanced_getitem, setitem as _advanced_setitem  # noqa: E402
from ._ndarray.object_comparison import compare as _compare_with_object  # noqa: E402

_blas_candidates.register()
_public_namespace.register(__import__("sys").modules[__name__])
_core._install_hooks(_dtypes._ALL, _dtypes.normalize, asarray, _advanced_getitem, _advanced_setitem,
                     _array._construct, _compare_with_object)
__import__("atexit").register(_core._clear_hooks)
