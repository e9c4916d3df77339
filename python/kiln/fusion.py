"""``kiln.fusion``: the controls of automatic fusion.

With fusion on (the default), elementwise operations (arithmetic,
comparisons, math functions, casts between them, ``where``, broadcasting,
scalars) are recorded instead of run; a chain of them runs as one generated
kernel when its value is needed: by a non-elementwise operation, a copy to
the host, printing, a write into one of its inputs, a stream or device sync,
or ``flush()``. Errors (shapes that do not broadcast, dtypes without a loop)
are still raised by the call that causes them.

A graph seen for the first time runs op by op while a worker thread compiles
its kernel; later runs of the same structure (same ops, dtypes and layout
class, any sizes and scalar values) use it. On the CPU only results of at
least ``cpu_min_size`` elements are recorded: below that the caches hide the
memory passes fusion saves.

``KILN_FUSION=0`` in the environment starts with fusion off; ``KILN_FUSION=wait``
compiles a new graph's kernel before running it; ``KILN_FUSION_CPU_MIN_SIZE``
sets the CPU's threshold.
"""
import atexit

from . import _core

# A program's first run finishes building the kernels its expressions queued
# before it exits, so that its next run finds them in the disk cache.
atexit.register(_core._fusion_finish_compiles)

_FIELDS = ("enabled", "cpu_min_size", "wait_for_compile", "max_ops", "max_inputs", "contract_fma")


def settings():
    """The current settings as a dict (see ``configure``)."""
    s = _core._fusion_settings()
    return {name: getattr(s, name) for name in _FIELDS}


def _check_names(function, changes):
    """TypeError naming `function` for a setting that does not exist."""
    for name in changes:
        if name not in _FIELDS:
            raise TypeError(f"kiln.fusion.{function}: unknown setting {name!r} (settings: {', '.join(_FIELDS)})")


def configure(**changes):
    """Changes settings: ``enabled``, ``cpu_min_size`` (CPU results smaller
    than this run op by op), ``wait_for_compile``, ``max_ops`` and
    ``max_inputs`` (the largest graph one kernel takes), ``contract_fma``
    (GPU: let the compiler fuse a*b + c into one multiply-add). What was
    recorded before runs first. Returns the previous settings."""
    _check_names("configure", changes)
    s = _core._fusion_settings()
    previous = {name: getattr(s, name) for name in _FIELDS}
    for name, value in changes.items():
        setattr(s, name, value)
    _core._fusion_set_settings(s)
    return previous


def configured(**changes):
    """``with kiln.fusion.configured(enabled=False): ...``: settings for a
    block, applied over those current when it is entered; leaving it runs
    what it recorded and puts those back."""
    _check_names("configured", changes)
    return _core._FusionSettingsBlock(**changes)


def disabled():
    """``with kiln.fusion.disabled(): ...``: every operation runs at once."""
    return configured(enabled=False)


def is_enabled():
    return _core._fusion_settings().enabled


# The binding itself, no Python frame around it: code that flushes after
# every small op pays for the flush alone.
flush = _core._fusion_flush


def stats():
    """Counters since the process started: ops recorded, graphs run as one
    kernel, graphs run op by op, reductions that computed a pending graph's
    value as they read it (never storing it), kernels compiled, kernels that
    failed to build (their graphs run op by op; ``last_failure()`` says
    why)."""
    return _core._fusion_stats()


def last_failure():
    """The compiler's message for the last generated kernel that did not
    build ("" when none has failed)."""
    return _core._fusion_last_failure()


def is_pending(a):
    """Whether ``a``'s value is a recorded expression that has not run."""
    return _core._fusion_is_pending(a)


def inspect(a):
    """What ``a``'s pending expression will run as: a dict with ``graph``
    (the ops, one line) and ``source`` (the generated kernel's CUDA C; empty
    for a single op, which runs as kiln's own kernel), or None when ``a`` is
    not pending."""
    if not _core._fusion_is_pending(a):
        return None
    return {"graph": _core._fusion_graph(a), "source": _core._fusion_source(a)}
