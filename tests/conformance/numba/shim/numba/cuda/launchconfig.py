"""Numba's launch-configuration capture (kernels compiled differently per
launch configuration) has no counterpart in kiln: each name raises."""


def _absent(*args, **kwargs):
    raise NotImplementedError("kiln has no launch-configuration capture (numba.cuda.launchconfig)")


current_launch_config = ensure_current_launch_config = capture_compile_config = _absent
