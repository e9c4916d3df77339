"""kiln.scipy.stats: SciPy's statistics of samples on kiln arrays, either
device (``cupyx.scipy.stats`` code ports by the import line)."""
from ._distributions import entropy
from ._morestats import boxcox_llf
from ._stats import kurtosis, moment, rankdata, sem, skew, trim_mean, variation, zmap, zscore

__all__ = ["boxcox_llf", "entropy", "kurtosis", "moment", "rankdata", "sem", "skew", "trim_mean", "variation",
           "zmap", "zscore"]
