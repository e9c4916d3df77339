"""Records of NumPy structured dtypes, as Numba's kernels use them: a field
by attribute (``r.a``) or by a constant key (``r["a"]``, or ``r[0]`` for
the first field), read or written in place; a subarray field
(``("h", np.float32, 2)``) is an array view of the record's bytes; a field
of a nested structured dtype is a record itself. Typing (infer.py) and
C++ (emit.py, over include/kiln/device/jit_records.cuh) side by side."""
from .. import types as T


def field(typer, node, record, key):
    """(type, offset, dtype) of the field `key` (a name, or a position) of
    `record` (a RecordType); a TypingError where there is none, or where the
    field's type is not aligned in the record (the GPU faults on a
    misaligned load: Numba refuses it too)."""
    dtype = record.dtype
    if isinstance(key, int) and not isinstance(key, bool):
        if not -len(dtype.names) <= key < len(dtype.names):
            typer.typing(node, f"a record of {len(dtype.names)} fields has no field {key}")
        key = dtype.names[key]
    if not isinstance(key, str) or key not in dtype.fields:
        typer.typing(node, f"the record {dtype} has no field {key!r}")
    fdtype, offset = dtype.fields[key][:2]
    base = fdtype.subdtype[0] if fdtype.subdtype else fdtype
    if not T.is_record(base):
        if base.kind not in "biufc":
            typer.unsupported(node, f"the record field {key!r} of type {base} (fields of numbers, of arrays of "
                                    "numbers and of records are supported)")
        if offset % base.alignment or dtype.itemsize % base.alignment:
            typer.typing(node, f"the record field {key!r}: type {base} is not aligned (at offset {offset} of a "
                               f"{dtype.itemsize}-byte record; make the dtype with align=True)")
    if fdtype.subdtype:
        return T.ArrayType(base, len(fdtype.shape)), offset, fdtype
    return T.element_type(fdtype), offset, fdtype


def field_code(emitter, record_code, ty, offset, fdtype):
    """The C++ of a field at `offset` of the record `record_code` points at:
    a reference to a number, a pointer to a nested record, or a view."""
    if isinstance(ty, T.ArrayType):
        extents = ", ".join(f"{n}LL" for n in fdtype.shape)
        return f"kiln_contiguous_view<{T.c_name(ty.dtype)}>({record_code}, {offset}LL, {extents})"
    if isinstance(ty, T.RecordType):
        return f"(&kiln_field<{T.c_name(ty.dtype)}, {offset}>({record_code}))"
    return f"kiln_field<{T.c_name(ty)}, {offset}>({record_code})"
