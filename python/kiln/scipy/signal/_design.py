"""Filter design, analysis and windows (scipy.signal's butter, cheby1,
cheby2, ellip, bessel, iirfilter, firwin, firwin2, remez, firls, the
conversions between transfer-function, zero-pole-gain, state-space and
second-order-section forms, frequency responses of coefficients, partial
fractions, maximum-length sequences and scipy.signal.windows): small
arrays of coefficients computed once, on the host by SciPy itself, and
returned as kiln arrays so that the filters run on the signal's device.
Needs SciPy."""
import functools

import kiln

from .._host_arrays import to_host

DESIGNS = ["butter", "cheby1", "cheby2", "ellip", "bessel", "iirfilter", "iirdesign", "iirnotch", "iirpeak", "firwin",
           "firwin2", "kaiserord", "kaiser_beta", "kaiser_atten", "buttord", "cheb1ord", "cheb2ord", "ellipord",
           "tf2zpk", "zpk2tf", "tf2sos", "sos2tf", "zpk2sos", "sos2zpk", "get_window", "remez", "firls",
           "minimum_phase", "gammatone", "iircomb", "bilinear", "bilinear_zpk", "lp2lp", "lp2hp", "lp2bp",
           "lp2bs", "normalize", "tf2ss", "ss2tf", "zpk2ss", "cont2discrete", "savgol_coeffs", "max_len_seq",
           # analysis of coefficients: responses, partial fractions, roots
           "freqz", "sosfreqz", "freqz_sos", "freqz_zpk", "freqs", "freqs_zpk", "group_delay", "findfreqs",
           "residue", "residuez", "invres", "invresz", "unique_roots", "check_COLA", "check_NOLA",
           # linear time-invariant systems given as (num, den), (z, p, k) or (A, B, C, D) tuples:
           # their responses and pole placement
           "abcd_normalize", "bode", "freqresp", "impulse", "step", "lsim", "place_poles", "dbode",
           "dfreqresp", "dimpulse", "dstep", "dlsim"]
WINDOWS = ["barthann", "bartlett", "blackman", "blackmanharris", "bohman", "boxcar", "chebwin", "cosine",
           "exponential", "flattop", "gaussian", "general_cosine", "general_gaussian", "general_hamming",
           "hamming", "hann", "kaiser", "lanczos", "nuttall", "parzen", "taylor", "triang", "tukey",
           "get_window"]


def _to_kiln(value):
    import numpy

    if isinstance(value, numpy.ndarray):
        return kiln.asarray(value)
    if isinstance(value, tuple):
        return tuple(_to_kiln(v) for v in value)
    return value


def on_host(module, name):
    """SciPy's `module`.`name`, taking and returning kiln arrays."""
    try:
        scipy_module = __import__(f"scipy.{module}", fromlist=[name])
    except ImportError:
        scipy_module = None
    target = getattr(scipy_module, name, None)

    @functools.wraps(target or (lambda *a, **k: None))
    def designed(*args, **kwargs):
        if target is None:
            raise ImportError(f"kiln.scipy.{module}.{name} designs on the host with SciPy: pip install scipy")
        return _to_kiln(target(*to_host(args), **to_host(kwargs)))

    designed.__name__ = name
    designed.__module__ = f"kiln.scipy.{module}"
    return designed


def made_on_first_use(module, names, namespace):
    """A module's __getattr__ that wraps SciPy's `module`.`name` for each
    of `names` when first asked for (and keeps it in `namespace`), so that
    importing kiln.scipy.signal does not import SciPy."""
    def __getattr__(name):
        if name not in names:
            raise AttributeError(f"module 'kiln.scipy.{module}' has no attribute {name!r}")
        namespace[name] = on_host(module, name)
        return namespace[name]

    return __getattr__
