"""kiln.show_config(): the versions, libraries, devices and kernel cache that
kiln is using, for bug reports (CuPy's cupy.show_config)."""
import platform
import sys

from .. import _core


def show_config(file=None):
    """Prints kiln's configuration to ``file`` (default stdout)."""
    from .package_paths import get_library_dir
    from .version import __version__
    from .._cuda.device import Device, device_count, is_available

    rows = [("kiln", f"{__version__} ({get_library_dir()})"),
            ("Python", f"{platform.python_version()} ({sys.executable})"),
            ("Platform", platform.platform())]
    try:
        import numpy

        rows.append(("NumPy", numpy.__version__))
    except ImportError:
        rows.append(("NumPy", "not installed"))
    rows.append(("CPU threads", str(_core._cpu_threads())))
    rows.append(("CPU BLAS/LAPACK", _core._blas_library_path() or "none found (set KILN_BLAS_LIBRARY)"))
    rows.append(("CPU FFT", _core._fft_library_path() or "none found (install FFTW or set KILN_FFT_LIBRARY)"))
    found = _core._cuda_libraries()
    if is_available():
        version = _core._cuda_driver_version()
        rows.append(("CUDA driver", f"{version // 1000}.{version % 1000 // 10} ({found.get('driver') or '?'})"))
    else:
        rows.append(("CUDA driver", f"none: {found.get('problem') or 'kiln was built without CUDA'}"))
    rows.append(("NVRTC", f"{found['nvrtc_version']} ({found['nvrtc']})" if found.get("nvrtc") else "not found"))
    rows.append(("CCCL headers", found.get("cccl_include") or "not found"))
    rows.append(("NVTX ranges", "yes" if _core._has_nvtx() else "no (built without the NVTX headers)"))
    for d in range(device_count() if is_available() else 0):
        dev = Device(d)
        rows.append((f"Device {d}", f"{dev.name}, compute capability {dev.compute_capability}, "
                                    f"{dev.mem_info[1] / 2**30:.1f} GiB"))
    cache = _core._kernel_cache_info()
    rows.append(("Kernel cache", f"{cache['directory']} ({cache['entries']} entries, {cache['bytes'] / 2**20:.1f} MiB "
                                 f"of {cache['max_bytes'] / 2**30:.1f} GiB"
                                 + ("" if cache["writable"] else "; not writable: kernels kept in memory") + ")"))
    width = max(len(k) for k, _ in rows)
    print("\n".join(f"{k:<{width}} : {v}" for k, v in rows), file=file or sys.stdout)
