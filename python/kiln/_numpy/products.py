"""Products of arrays: matmul and ``@``, dot, vdot, inner, outer, tensordot,
vecdot, einsum, trace, multi_dot and cross. Every contraction becomes one (batched) kiln
matmul, which is cuBLAS on the GPU and the CPU's BLAS for floating types."""
import builtins
import math
import operator
import string

from .. import _core
from .creation import asarray, operands, zeros_like
from .manipulation.joining import concatenate, stack
from .manipulation.shape import diagonal, moveaxis, permute_dims
from .._ndarray.outputs import into


def matmul(x1, x2, /, out=None, *, dtype=None):
    """NumPy's matmul: the matrix product of the last two axes, the others
    broadcast; a 1-D operand is a row (first) or a column (second)."""
    x1, x2 = operands(x1, x2)
    if dtype is not None:
        x1, x2 = x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)
    return into(_core.matmul(x1, x2), out)


def tensordot(a, b, /, axes=2):
    """The sum of products over ``axes`` of ``a`` and ``b``: the last ``axes``
    of a with the first of b for an int, else the two lists of axes."""
    a, b = operands(a, b)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot: axes must be non-negative")
        a_axes, b_axes = list(builtins.range(a.ndim - axes, a.ndim)), list(builtins.range(axes))
    else:
        a_axes, b_axes = ([x] if isinstance(x, int) else list(x) for x in axes)
    if len(a_axes) != len(b_axes):
        raise ValueError("tensordot: shape-mismatch for sum (the two lists of axes differ in length)")
    a_axes = [operator.index(x) % builtins.max(a.ndim, 1) for x in a_axes]
    b_axes = [operator.index(x) % builtins.max(b.ndim, 1) for x in b_axes]
    for i, j in zip(a_axes, b_axes):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: shape-mismatch for sum ({a.shape[i]} against {b.shape[j]})")
    a_free = [i for i in builtins.range(a.ndim) if i not in a_axes]
    b_free = [i for i in builtins.range(b.ndim) if i not in b_axes]
    inner = math.prod(a.shape[i] for i in a_axes)
    left = permute_dims(a, a_free + a_axes).reshape(math.prod(a.shape[i] for i in a_free), inner)
    right = permute_dims(b, b_axes + b_free).reshape(inner, math.prod(b.shape[i] for i in b_free))
    return _core.matmul(left, right).reshape(tuple(a.shape[i] for i in a_free) + tuple(b.shape[i] for i in b_free))


def dot(a, b, out=None):
    """NumPy's dot: a product for scalars, the inner product of vectors, the
    matrix product of matrices, else a sum over the last axis of ``a`` and
    the second-to-last of ``b`` (the last when ``b`` is 1-D)."""
    a, b = operands(a, b)
    if a.ndim == 0 or b.ndim == 0:
        result = _core.multiply(a, b)
    elif b.ndim <= 2:
        result = _core.matmul(a, b)
    else:
        result = tensordot(a, b, ([-1], [-2]))
    if out is not None and (not isinstance(out, _core.ndarray) or out.dtype != result.dtype
                            or out.shape != result.shape or not out.flags.c_contiguous):
        # NumPy's dot writes into out directly, so it takes only the exact result's layout.
        raise ValueError("dot: output array is not acceptable (must have the right datatype, number of "
                         "dimensions, and be a C-Array)")
    return into(result, out)


def vdot(a, b, /):
    """The dot product of the flattened arrays, the first conjugated."""
    a, b = operands(a, b)
    if a.size != b.size:
        raise ValueError(f"vdot: vectors have different lengths ({a.size} and {b.size})")
    a = a.reshape(-1)
    return _core.matmul(_core.conj(a) if a.dtype.kind == "c" else a, b.reshape(-1))


def inner(a, b, /):
    """Sums of products over the last axes of ``a`` and ``b``."""
    a, b = operands(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return _core.multiply(a, b)
    return tensordot(a, b, ([-1], [-1]))


def outer(a, b, /, out=None):
    """Every product of an element of the flattened ``a`` with one of ``b``."""
    a, b = operands(a, b)
    return into(_core.multiply(a.reshape(-1, 1), b.reshape(1, -1)), out)


def vecdot(x1, x2, /, *, axis=-1):
    """The array API's vecdot: sum over ``axis`` of conj(x1) * x2, the other axes broadcast."""
    x1, x2 = operands(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("vecdot: the inputs must have at least one dimension")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: the inputs differ along axis {axis} ({x1.shape[axis]} and {x2.shape[axis]})")
    left = _core.conj(moveaxis(x1, axis, -1))[..., None, :]
    right = moveaxis(x2, axis, -1)[..., :, None]
    return _core.matmul(left, right)[..., 0, 0]


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum of the diagonal ``offset`` of the matrices spanned by ``axis1`` and ``axis2``."""
    return into(_core.sum(diagonal(a, offset, axis1, axis2), -1, dtype), out)


def _einsum_terms(subscripts, operands):
    """Each operand's labels and the output's, with "..." spelled out as
    letters the subscripts do not use."""
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: {len(terms)} operand subscripts for {len(operands)} operands")
    if builtins.any(term.count("...") > 1 for term in terms + [output]):
        raise ValueError(f"einsum: more than one ellipsis in a term of {subscripts!r}")
    spare = [c for c in string.ascii_letters if c not in subscripts]
    ellipsis_ndim = 0
    for term, x in zip(terms, operands):
        if "..." in term:
            ellipsis_ndim = builtins.max(ellipsis_ndim, x.ndim - (len(term) - 3))
    broadcast = "".join(spare[:ellipsis_ndim])
    labels = []
    for term, x in zip(terms, operands):
        if "..." in term:
            term = term.replace("...", broadcast[ellipsis_ndim - (x.ndim - (len(term) - 3)):])
        if len(term) != x.ndim or not builtins.all(c in string.ascii_letters for c in term):
            raise ValueError(f"einsum: subscripts {term!r} do not fit an operand of {x.ndim} dimensions")
        for c in set(term):
            if len({n for d, n in zip(term, x.shape) if d == c}) > 1:
                raise ValueError(f"einsum: the repeated subscript {c!r} of {term!r} spans axes of different sizes")
        labels.append(term)
    if arrow:
        if broadcast and "..." not in output:
            raise ValueError("einsum: the operands have axes under '...' but the output subscripts have no '...'")
        output = output.replace("...", broadcast)
        if len(set(output)) != len(output) or builtins.any(c not in "".join(labels) for c in output):
            raise ValueError(f"einsum: bad output subscripts {output!r}")
    else:  # implicit: the labels seen once, in order, after the broadcast ones
        counts = {c: "".join(labels).count(c) for c in set("".join(labels))}
        output = broadcast + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in broadcast))
    return labels, output


def _reduce_single(x, labels, keep):
    """x with repeated labels reduced to their diagonal and labels not in
    ``keep`` summed away."""
    while True:
        repeated = next((c for c in labels if labels.count(c) > 1), None)
        if repeated is None:
            break
        i = labels.index(repeated)
        j = labels.index(repeated, i + 1)
        x = diagonal(x, 0, i, j)  # the diagonal goes last
        labels = [c for k, c in enumerate(labels) if k not in (i, j)] + [repeated]
    summed = [i for i, c in enumerate(labels) if c not in keep]
    if summed:  # in the operand's dtype, as NumPy's einsum sums (booleans: any)
        x = _core.any(x, tuple(summed)) if x.dtype.kind == "b" else _core.sum(x, tuple(summed), x.dtype)
        labels = [c for c in labels if c in keep]
    return x, labels


def _contract(a, a_labels, b, b_labels, keep):
    """One pairwise contraction as a batched matmul: labels in both and kept
    are the batch, in both and not kept are summed, the rest stay."""
    batch = [c for c in a_labels if c in b_labels and c in keep]
    summed = [c for c in a_labels if c in b_labels and c not in keep]
    left = [c for c in a_labels if c not in b_labels]
    right = [c for c in b_labels if c not in a_labels]
    size = {c: n for c, n in zip(a_labels + b_labels, a.shape + b.shape)}
    for c in batch + summed:
        na, nb = a.shape[a_labels.index(c)], b.shape[b_labels.index(c)]
        if na != nb and (c in summed or 1 not in (na, nb)):  # batch labels broadcast, as "..." does
            raise ValueError(f"einsum: operands differ in the size of {c!r} ({na} and {nb})")
    a = permute_dims(a, [a_labels.index(c) for c in batch + left + summed])
    b = permute_dims(b, [b_labels.index(c) for c in batch + summed + right])
    inner = math.prod(size[c] for c in summed)
    a = a.reshape(tuple(a.shape[:len(batch)]) + (math.prod(size[c] for c in left), inner))
    b = b.reshape(tuple(b.shape[:len(batch)]) + (inner, math.prod(size[c] for c in right)))
    product = _core.matmul(a, b)
    out_batch = tuple(product.shape[:len(batch)])
    return product.reshape(out_batch + tuple(size[c] for c in left + right)), batch + left + right


def _subscripts_from_lists(args):
    """NumPy's operand-list form, einsum(a, [0, 1], b, [1, 2], [0, 2]), as
    (subscripts string, operands): label k is the k-th ASCII letter, Ellipsis
    is "..."."""
    def term(sublist):
        out = []
        for k in sublist:
            if k is Ellipsis:
                out.append("...")
                continue
            k = operator.index(k)
            if not 0 <= k < len(string.ascii_letters):
                raise ValueError(f"einsum: subscript {k} is out of range (0 to {len(string.ascii_letters) - 1})")
            out.append(string.ascii_letters[k])
        return "".join(out)

    pairs, rest = args[:len(args) // 2 * 2], args[len(args) // 2 * 2:]
    terms = ",".join(term(sub) for sub in pairs[1::2])
    return terms + ("->" + term(rest[0]) if rest else ""), list(pairs[0::2])


def _broadcast_labels(operands, labels):
    """Operands with their length-1 axes broadcast (stride-0 views) to the
    length other operands give the same label, as NumPy's einsum does."""
    size = {}
    for x, term in zip(operands, labels):
        for c, n in zip(term, x.shape):
            if size.get(c, 1) == 1:
                size[c] = n
            elif n not in (1, size[c]):
                raise ValueError(f"einsum: operands differ in the size of {c!r} ({size[c]} and {n})")
    return [x if x.shape == tuple(size[c] for c in term) else x._broadcast_to(tuple(size[c] for c in term))
            for x, term in zip(operands, labels)]


def einsum(*args, out=None, dtype=None, optimize=False, casting="safe", order="K"):
    """NumPy's einsum, with a subscripts string ("->" or implicit, "..."
    allowed) or NumPy's operand-list form: each operand's diagonals and lone
    labels are reduced first, then operands are contracted left to right,
    each pair as one batched matmul. One operand that needs no sum gives a
    view of it, as NumPy's does."""
    if not args:
        raise ValueError("einsum: missing the subscripts and operands")
    subscripts, operands = (args[0], list(args[1:])) if isinstance(args[0], str) else _subscripts_from_lists(args)
    operands = [asarray(x) for x in operands]
    if not operands:
        raise ValueError("einsum: no operands")
    operands = [asarray(x, device=operands[0].device) for x in operands]
    labels, output = _einsum_terms(subscripts, operands)
    if len(operands) == 1 and out is None and set(labels[0]) <= set(output):
        x, x_labels = _reduce_single(operands[0], list(labels[0]), set(output))  # diagonals: views
        return permute_dims(x, [x_labels.index(c) for c in output]) if output else x
    # NumPy's einsum computes in the operands' common type (or dtype=).
    common = _core.result_type(*operands) if dtype is None else dtype
    operands = _broadcast_labels([x.astype(common, copy=False) for x in operands], labels)
    needed = [set(output).union(*(labels[j] for j in builtins.range(len(labels)) if j != i))
              for i in builtins.range(len(labels))]
    x, x_labels = _reduce_single(operands[0], list(labels[0]), needed[0])
    for i in builtins.range(1, len(operands)):
        y, y_labels = _reduce_single(operands[i], list(labels[i]), needed[i])
        later = set(output).union(*labels[i + 1:])
        x, x_labels = _contract(x, x_labels, y, y_labels, later)
    x, x_labels = _reduce_single(x, x_labels, set(output))
    return into(permute_dims(x, [x_labels.index(c) for c in output]) if output else x, out)


def multi_dot(arrays, *, out=None):
    """The product of a chain of matrices (the first may be a vector, and the
    last), multiplied left to right."""
    arrays = [asarray(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    result = arrays[0]
    for a in arrays[1:]:
        result = _core.matmul(result, asarray(a, device=result.device))
    return into(result, out)


def cross(a, b, /, *, axis=-1):
    """Cross products of the 3-element vectors along ``axis`` (the array API's cross)."""
    a, b = operands(a, b)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError("cross: both inputs must have 3 elements along axis")
    a, b = moveaxis(a, axis, -1), moveaxis(b, axis, -1)
    parts = [_core.subtract(_core.multiply(a[..., i], b[..., j]), _core.multiply(a[..., j], b[..., i]))
             for i, j in ((1, 2), (2, 0), (0, 1))]
    return moveaxis(stack(parts, axis=-1), -1, axis)


def numpy_cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's cross (``kiln.cross``): the vectors along ``axisa`` of ``a``
    and ``axisb`` of ``b``, 3 or (deprecated, as in NumPy 2) 2 elements, a
    2-element vector's z being 0; the products' vectors go along ``axisc``,
    and two 2-element vectors give the z component alone."""
    a, b = operands(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if 2 in (a.shape[-1], b.shape[-1]):
        import warnings

        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
        if a.shape[-1] == b.shape[-1] == 2:
            return _core.subtract(_core.multiply(a[..., 0], b[..., 1]), _core.multiply(a[..., 1], b[..., 0]))
        a, b = (concatenate([x, zeros_like(x[..., :1])], axis=-1) if x.shape[-1] == 2 else x for x in (a, b))
    return cross(a, b, axis=-1) if axisc == -1 else moveaxis(cross(a, b, axis=-1), -1, axisc)


def kron(a, b):
    """The Kronecker product: each element of ``a`` times all of ``b``, in
    blocks. Operands of different ranks get leading axes of one."""
    a, b = operands(a, b)
    ndim = builtins.max(a.ndim, b.ndim)
    a_shape, b_shape = (1,) * (ndim - a.ndim) + a.shape, (1,) * (ndim - b.ndim) + b.shape
    interleaved_a = tuple(d for n in a_shape for d in (n, 1))
    interleaved_b = tuple(d for n in b_shape for d in (1, n))
    blocks = a.reshape(interleaved_a) * b.reshape(interleaved_b)
    return blocks.reshape(tuple(m * n for m, n in zip(a_shape, b_shape)))
