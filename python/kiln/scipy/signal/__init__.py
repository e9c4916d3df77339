"""kiln.scipy.signal: SciPy's signal processing on kiln arrays, either
device (``cupyx.scipy.signal`` code ports by the import line): convolution
and correlation (direct and FFT), rational filters with SciPy's state
convention, median, order and Wiener filters, analytic signals,
detrending, symmetric first- and second-order IIR filters; filter design and windows come from SciPy on the host."""
from . import windows
from ._convolve import (choose_conv_method, convolve, convolve2d, correlate, correlate2d, correlation_lags,
                        fftconvolve, oaconvolve)
from ._czt import CZT, ZoomFFT, czt, czt_points, zoom_fft
from ._design import DESIGNS, made_on_first_use
from ._filters import detrend, hilbert, hilbert2, medfilt, medfilt2d, order_filter, wiener
from ._peaks import argrelextrema, argrelmax, argrelmin, find_peaks, peak_prominences, peak_widths
from ._resample import resample, resample_poly, upfirdn
from ._spectral import (coherence, csd, istft, lombscargle, periodogram, spectrogram, stft, vectorstrength,
                        welch)
from ._waveforms import chirp, gausspulse, sawtooth, square, unit_impulse
from ._lfilter import deconvolve, filtfilt, lfilter, lfilter_zi, lfiltic, sosfilt, sosfilt_zi, sosfiltfilt
from ._symiir import symiirorder1, symiirorder2

__getattr__ = made_on_first_use("signal", DESIGNS, globals())

__all__ = ["choose_conv_method", "convolve", "convolve2d", "correlate", "correlate2d", "correlation_lags",
           "deconvolve", "detrend", "fftconvolve", "filtfilt", "hilbert", "hilbert2", "lfilter", "lfilter_zi",
           "lfiltic", "medfilt", "medfilt2d", "oaconvolve", "order_filter", "sosfilt", "sosfilt_zi",
           "sosfiltfilt", "symiirorder1", "symiirorder2", "wiener", "windows", "chirp", "gausspulse", "sawtooth", "square", "unit_impulse",
           "coherence", "csd", "istft", "periodogram", "spectrogram", "stft", "vectorstrength", "welch", "lombscargle",
           "resample", "resample_poly", "upfirdn", "CZT", "ZoomFFT", "czt", "czt_points", "zoom_fft",
           "argrelextrema", "argrelmax", "argrelmin", "find_peaks", "peak_prominences", "peak_widths"]
__all__ += DESIGNS
