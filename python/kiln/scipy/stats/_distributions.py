"""Entropy of distributions (scipy.stats.entropy)."""
import math

import kiln

from .. import special


def _normalize(p, axis):
    """`p` scaled to sum to one along `axis`."""
    return p / kiln.sum(p, axis=axis, keepdims=True)


def entropy(pk, qk=None, base=None, axis=0):
    """Shannon entropy of the distribution `pk` along `axis`, or the
    Kullback-Leibler divergence of `pk` from `qk` when `qk` is given; `pk`
    and `qk` need not be normalised. In units of `base` (natural log by
    default)."""
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    pk = kiln.asarray(pk)
    if pk.dtype.kind == "c" or (qk is not None and kiln.asarray(qk).dtype.kind == "c"):
        raise TypeError("entropy: complex arguments are not supported")
    pk = 1.0 * pk
    if axis is None:
        pk, axis = pk.reshape(-1), 0
    pk = _normalize(pk, axis)
    if qk is None:
        terms = special.entr(pk)
    else:
        qk = kiln.asarray(qk)
        if axis is not None and qk.ndim != pk.ndim and qk.size == pk.size:
            qk = qk.reshape(pk.shape)
        try:
            pk, qk = kiln.broadcast_arrays(pk, 1.0 * qk)
        except ValueError:
            raise ValueError(f"entropy: qk of shape {qk.shape} does not broadcast with pk of shape "
                             f"{pk.shape}") from None
        terms = special.rel_entr(pk, _normalize(qk, axis))
    s = kiln.sum(terms, axis=axis)
    if base is not None:
        s = s / math.log(base)
    return s
