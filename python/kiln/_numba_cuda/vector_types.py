"""CUDA's vector types in kernels, by Numba's names: ``cuda.float32x4(a, b, c, d)``
(alias ``cuda.float4``), ``cuda.int16x2`` (``short2``)... for int8 to uint64,
float32 and float64 with 1 to 4 components read as ``.x .y .z .w``. A vector
is built from numbers and smaller vectors whose components add up to its own
(``float32x3(v2, 1.0)``), each converted to its base type.

``vector_types`` maps each name to its VectorType (``name``, ``base_type``,
``num_elements``, ``attr_names``, ``user_facing_object``), as Numba's does;
the user-facing objects are what kernels call (kiln/_jit/constructs/vectors.py).
"""
from . import types as _types

ATTRIBUTE_NAMES = ("x", "y", "z", "w")
_BASES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
# CUDA's C names of the base types (char4, ulonglong2, double3...), as an LP64 C compiler sizes them
_C_NAMES = {"char": "int8", "short": "int16", "int": "int32", "long": "int64", "longlong": "int64",
            "uchar": "uint8", "ushort": "uint16", "uint": "uint32", "ulong": "uint64", "ulonglong": "uint64",
            "float": "float32", "double": "float64"}


class VectorConstructor:
    """``cuda.float32x4`` and its aliases: called in a kernel it makes a vector."""

    def __init__(self, name):
        self.__name__ = self.name = name
        self.aliases = []

    def __call__(self, *args):
        raise RuntimeError(f"cuda.{self.name} can only be used inside a kiln.cuda.jit kernel")

    def __repr__(self):
        return f"<cuda.{self.name}>"


class VectorType:
    def __init__(self, name, base_type, attr_names, user_facing_object):
        self.name, self.base_type, self.attr_names = name, base_type, attr_names
        self.user_facing_object = user_facing_object

    @property
    def num_elements(self):
        return len(self.attr_names)

    def __repr__(self):
        return self.name


vector_types = {}
for _base in _BASES:
    for _n in (1, 2, 3, 4):
        _name = f"{_base}x{_n}"
        vector_types[_name] = VectorType(_name, getattr(_types, _base), ATTRIBUTE_NAMES[:_n], VectorConstructor(_name))
for _alias, _base in _C_NAMES.items():
    for _n in (1, 2, 3, 4):
        vector_types[f"{_base}x{_n}"].user_facing_object.aliases.append(f"{_alias}{_n}")

# every constructor by its name and its aliases (what kiln.cuda exports)
constructors = {name: vty.user_facing_object for name, vty in vector_types.items()}
constructors.update({alias: vty.user_facing_object for vty in vector_types.values()
                     for alias in vty.user_facing_object.aliases})
