"""The Box-Cox log-likelihood (scipy.stats.boxcox_llf)."""
import math

import numpy as np

import kiln

from .. import special
from ._common import along


def _log_var(logx, axis):
    """log of the variance of x given log(x), without leaving log space
    (exp of the logs could overflow): the mean and the squared deviations
    are log-sum-exps."""
    n = logx.shape[axis]
    logmean = special.logsumexp(logx, axis=axis, keepdims=True) - math.log(n)
    logmean = kiln.broadcast_to(logmean, logx.shape)
    ones = kiln.ones_like(logx)
    log_dev, _ = special.logsumexp(kiln.stack((logx, logmean)), axis=0, b=kiln.stack((ones, -ones)),
                                   return_sign=True)
    return special.logsumexp(2 * log_dev, axis=axis) - math.log(n)


def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy="propagate"):
    """The Box-Cox log-likelihood of `data` for the parameter `lmb`, along
    `axis`: (lmb - 1) sum(log x) - N/2 log(var(y)), y the transformed data."""
    if nan_policy != "propagate":
        raise NotImplementedError("boxcox_llf: only nan_policy='propagate' is supported")
    data = kiln.asarray(data)
    dtype = np.result_type(np.dtype(data.dtype), lmb)
    if dtype.kind not in "fc":
        dtype = np.dtype(np.float64)
    data, axis = along(data.astype(dtype, copy=False), axis)
    n = data.shape[axis]
    if n == 0:
        shape = data.shape[:axis % data.ndim] + data.shape[axis % data.ndim + 1:]
        out = kiln.full(shape, math.nan, dtype=dtype, device=data.device)
    else:
        logdata = kiln.log(data)
        if lmb == 0:
            logvar = kiln.log(kiln.var(logdata, axis=axis))
        else:
            # The constant offset 1/lmb does not change the variance; leaving it
            # out (and factoring lmb out) keeps the digits.
            logvar = _log_var(lmb * logdata, axis) - 2 * math.log(abs(lmb))
        out = ((lmb - 1) * kiln.sum(logdata, axis=axis) - n / 2 * logvar).astype(dtype, copy=False)
    if keepdims:
        out = kiln.expand_dims(out, axis)
    return out
