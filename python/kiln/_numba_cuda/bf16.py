"""Numba's ``numba.cuda.bf16``: the bfloat16 type and the functions of
CUDA's cuda_bf16.h by Numba's names, for kernels (arithmetic ``hadd``...,
comparisons ``heq``..., ``hmax``/``hmin``, NaN and infinity tests, math
``hsqrt``..., conversions with a rounding mode ``int32_to_bfloat16_rz``...,
bit casts ``bfloat16_as_int16``). Kernels compute them in float and round
once, on the GPU and the CPU alike (include/kiln/device/jit_bfloat16.cuh).

``bfloat16(x)`` in a kernel converts to bfloat16 (to nearest); on the host it
makes an ``ml_dtypes.bfloat16`` scalar, NumPy's bfloat16, which kernels
using bfloat16 need installed (kiln types kernels with NumPy dtypes).
"""
from .kernel_language import _only_in_kernels
from .types import Type

ROUNDINGS = ("rn", "rz", "rd", "ru")
_INTEGERS = ("int16", "uint16", "int32", "uint32", "int64", "uint64")


def _dtype():
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError("bfloat16 needs the ml_dtypes package (NumPy's bfloat16 dtype): pip install ml_dtypes") \
            from None
    import numpy

    return numpy.dtype(ml_dtypes.bfloat16)


class BFloat16(Type):
    """Numba's bfloat16 type; ``dtype`` is ml_dtypes' NumPy dtype."""

    def __init__(self):
        super().__init__("bfloat16")

    @property
    def dtype(self):
        return _dtype()

    def _cast(self, value):
        return _dtype().type(value)


bfloat16 = BFloat16()

# name -> (argument kinds, result kind): "b" a bfloat16, a NumPy type name otherwise
FUNCTIONS = {}
for _name in ("habs", "hneg", "htrunc", "hceil", "hfloor", "hrint", "hsqrt", "hrsqrt", "hrcp", "hlog", "hlog2",
              "hlog10", "hcos", "hsin", "htanh", "hexp", "hexp2", "hexp10"):
    FUNCTIONS[_name] = (("b",), "b")
for _name in ("hadd", "hsub", "hmul", "hdiv", "hadd_rn", "hsub_rn", "hmul_rn", "hadd_sat", "hsub_sat", "hmul_sat",
              "hmax", "hmin", "hmax_nan", "hmin_nan"):
    FUNCTIONS[_name] = (("b", "b"), "b")
for _name in ("hfma", "hfma_sat", "hfma_relu"):
    FUNCTIONS[_name] = (("b", "b", "b"), "b")
for _name in ("heq", "hne", "hge", "hgt", "hle", "hlt"):
    FUNCTIONS[_name] = (("b", "b"), "bool")
FUNCTIONS.update({"hisnan": (("b",), "bool"), "hisinf": (("b",), "int32"),
                  "bfloat16_to_int8_rz": (("b",), "int8"), "bfloat16_to_uint8_rz": (("b",), "uint8"),
                  "bfloat16_as_int16": (("b",), "int16"), "bfloat16_as_uint16": (("b",), "uint16"),
                  "int16_as_bfloat16": (("int16",), "b"), "uint16_as_bfloat16": (("uint16",), "b"),
                  "bfloat16_to_float32": (("b",), "float32"), "float32_to_bfloat16": (("float32",), "b"),
                  "float64_to_bfloat16": (("float64",), "b")})
for _mode in ROUNDINGS:
    FUNCTIONS[f"float32_to_bfloat16_{_mode}"] = (("float32",), "b")
    for _int in _INTEGERS:
        FUNCTIONS[f"bfloat16_to_{_int}_{_mode}"] = (("b",), _int)
        FUNCTIONS[f"{_int}_to_bfloat16_{_mode}"] = ((_int,), "b")

globals().update({name: _only_in_kernels(f"bf16.{name}") for name in FUNCTIONS})
__all__ = ["bfloat16", *FUNCTIONS]
