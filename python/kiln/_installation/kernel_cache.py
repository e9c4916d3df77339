"""kiln's disk cache of compiled kernels and users' extension builds
(``$KILN_CACHE_DIR``, default ``~/.cache/kiln``): what it holds, and emptying
it. It keeps to ``$KILN_CACHE_MAX_BYTES`` (default 4 GiB) by removing the
least recently used entries; where it cannot be written, kiln says so once
and keeps compiled kernels in memory for the process."""
from .. import _core


def cache_info():
    """The kernel cache as a dict: ``directory``, ``entries`` (compiled
    kernels and extension builds), ``bytes``, ``max_bytes`` (the limit) and
    ``writable``."""
    return _core._kernel_cache_info()


def clear_cache():
    """Removes every compiled kernel and extension build from the disk cache
    (processes using one keep theirs; later ones compile again). Returns how
    many entries were removed."""
    return _core._clear_kernel_cache()
