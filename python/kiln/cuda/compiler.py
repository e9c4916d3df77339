"""CuPy's ``cupy.cuda.compiler`` (``compile_with_cache``, ``CompileException``)
and Numba's ``numba.cuda.compiler`` (``compile_ptx``,
``compile_ptx_for_current_device``). Compiling goes through kiln's one
user-kernel path (kiln.RawModule), cached on disk like every kiln kernel;
Numba's PTX comes from the jit (kiln/_jit/dispatcher.py) through NVRTC."""
from .._core import CompileError as CompileException
from .._cupy_kernels.raw import RawModule

__all__ = ["CompileException", "compile_ptx", "compile_ptx_for_current_device", "compile_with_cache"]


def compile_ptx(pyfunc, sig, **options):
    """Numba's ``compile_ptx`` (see kiln/_jit/dispatcher.py)."""
    from .._jit.dispatcher import compile_ptx as make

    return make(pyfunc, sig, **options)


def compile_ptx_for_current_device(pyfunc, sig, **options):
    """Numba's ``compile_ptx_for_current_device``."""
    from .._jit.dispatcher import compile_ptx_for_current_device as make

    return make(pyfunc, sig, **options)


def compile_with_cache(source, options=(), arch=None, cache_dir=None, extra_source=None, backend="nvrtc", *,
                       enable_cooperative_groups=False, name_expressions=None, log_stream=None, jitify=False):
    """A module of `source` whose kernels ``get_function(name)`` returns. kiln
    compiles for each device's own architecture and keeps its own cache
    (``$KILN_CACHE_DIR``), so `arch` and `cache_dir` are accepted and not needed."""
    if extra_source is not None:
        source = extra_source + "\n" + source
    return RawModule(code=source, options=tuple(options), backend=backend,
                     enable_cooperative_groups=enable_cooperative_groups, name_expressions=name_expressions,
                     jitify=jitify)
