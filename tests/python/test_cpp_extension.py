"""Users' own C++/CUDA extensions on kiln arrays: kiln.cpp_extension, the
casters of kiln/python/{nanobind,pybind11}.hpp, the installed C++ package
(find_package(kiln CONFIG)) and its headers."""
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import sysconfig

import numpy as np
import pytest

import kiln
from kiln import cpp_extension

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "extension")

ARRAY_FUNCTIONS = r"""
kiln::Array scaled(const kiln::Array& a, double factor) { return a * factor; }
void fill(const kiln::Array& a, double value) { a.assign(kiln::Scalar::from_double(value)); }
std::string describe(const kiln::Array& a) {
  return a.device().str() + " " + std::string(kiln::name(a.dtype())) + " " + std::to_string(a.ndim());
}
kiln::Array same(kiln::Array a) { return a; }
int check_positive(int n) {
  if (n <= 0) throw kiln::ValueError("n must be positive");
  return n;
}
"""

KERNEL = r"""
extern "C" __global__ void axpy(double a, const double* x, double* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    y[i] += a * x[i];
}
"""

LAUNCHER = r"""
void axpy(double a, const kiln::Array& x, const kiln::Array& y) {
  if (x.dtype() != kiln::DType::Float64 || y.dtype() != kiln::DType::Float64 || x.size() != y.size() ||
      !x.is_c_contiguous() || !y.is_c_contiguous())
    throw kiln::TypeError("axpy: x and y must be contiguous float64 arrays of one size");
  static const kiln::RawKernel kernel = kiln::extension::kernel("axpy");
  const long long n = x.size();
  kernel(x.device(), {static_cast<unsigned>((n + 255) / 256)}, {256}, 0, a, x, y, n);
}
"""


def run_python(code, cwd, timeout=300):
    """Runs `code` in a fresh interpreter in `cwd`; its stdout (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def cmake_build(source, build, *configure):
    """Configures and builds the CMake project `source` in `build`."""
    for command in (["cmake", "-S", str(source), "-B", str(build), *configure],
                    ["cmake", "--build", str(build), "-j", str(os.cpu_count() or 1)]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("extensions"))


@pytest.fixture(scope="module")
def arrays_ext(build_dir):
    return cpp_extension.load_inline("kiln_test_arrays", ARRAY_FUNCTIONS,
                                     functions={"scaled": "a * factor", "fill": None, "describe": None, "same": None,
                                                "check_positive": None},
                                     build_directory=build_dir)


@pytest.fixture(scope="module")
def kernel_ext(build_dir):
    return cpp_extension.load_inline("kiln_test_axpy", LAUNCHER, cuda_sources=KERNEL, functions=["axpy"],
                                     build_directory=build_dir)


def test_package_paths():
    assert os.path.isfile(os.path.join(kiln.get_include(), "kiln", "array.hpp"))
    assert os.path.isfile(os.path.join(kiln.get_include(), "kiln", "python", "nanobind.hpp"))
    assert os.path.isfile(os.path.join(kiln.get_cmake_dir(), "kilnConfig.cmake"))
    assert os.path.isfile(os.path.join(kiln.get_library_dir(), "libkiln.so"))


def test_functions_take_and_return_kiln_arrays(arrays_ext, device):
    x = kiln.asarray(np.arange(6.0).reshape(2, 3), device=device)
    out = arrays_ext.scaled(x, 2.5)
    assert isinstance(out, kiln.ndarray) and out.device == x.device and out.shape == (2, 3)
    np.testing.assert_array_equal(kiln.asnumpy(out), np.arange(6.0).reshape(2, 3) * 2.5)
    assert arrays_ext.describe(x) == f"{x.device} float64 2"
    assert arrays_ext.describe(x[:, 1]) == f"{x.device} float64 1"  # views as they are
    assert arrays_ext.same(x) is not x and kiln.shares_memory(arrays_ext.same(x), x)
    assert arrays_ext.scaled.__doc__.rstrip().endswith("a * factor")


def test_numpy_and_dlpack_arguments_arrive_without_a_copy(arrays_ext):
    a = np.zeros(5, np.float32)
    arrays_ext.fill(a, 3.0)  # written through the extension into NumPy's memory
    np.testing.assert_array_equal(a, 3.0)

    class OnlyDLPack:  # a producer kiln knows only through DLPack
        def __init__(self, arr):
            self.arr = arr

        def __dlpack__(self, **kwargs):
            return self.arr.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.arr.__dlpack_device__()

    b = np.zeros((2, 2))
    arrays_ext.fill(OnlyDLPack(b), 7.0)
    np.testing.assert_array_equal(b, 7.0)
    assert arrays_ext.describe([1, 2, 3]) == "cpu int64 1"  # other array-likes are copied


def test_bad_arguments_and_errors_raise(arrays_ext):
    with pytest.raises(TypeError):
        arrays_ext.scaled(object(), 1.0)
    with pytest.raises(TypeError):
        arrays_ext.scaled(kiln.arange(3.0), "x")
    with pytest.raises(ValueError, match="n must be positive"):
        arrays_ext.check_positive(-1)


def test_cuda_sources_run_on_the_arrays_device(kernel_ext, device):
    rng = np.random.default_rng(3)
    xs, ys = rng.standard_normal(1000), rng.standard_normal(1000)
    expected = ys + 2.0 * xs
    x, y = kiln.asarray(xs, device=device), kiln.asarray(ys, device=device)  # on the CPU, views of xs and ys
    kernel_ext.axpy(2.0, x, y)
    np.testing.assert_allclose(kiln.asnumpy(y), expected)
    with pytest.raises(TypeError, match="axpy: x and y"):
        kernel_ext.axpy(2.0, x, kiln.zeros(3, device=device))


def test_a_malformed_source_raises_compile_error_with_the_log(build_dir):
    with pytest.raises(kiln.CompileError, match=r"(?s)compiling kiln_test_broken failed.*inline\.cpp:2.*error"):
        cpp_extension.load_inline("kiln_test_broken", "int f() {\n  return undefined_name;\n}", functions=["f"],
                                  build_directory=build_dir)
    assert not [p for p in os.listdir(build_dir) if p.startswith("kiln_test_broken")]  # nothing half-built left


def test_bad_names_and_sources_raise():
    with pytest.raises(ValueError, match="name"):
        cpp_extension.load_inline("not a name", "")
    with pytest.raises(ValueError, match="functions"):
        cpp_extension.load_inline("kiln_test_x", "", functions=["f()"])
    with pytest.raises(ValueError, match="sources"):
        cpp_extension.load("kiln_test_x", ["kernel.f90"])
    with pytest.raises(TypeError, match="cpp_sources"):
        cpp_extension.load_inline("kiln_test_x", 3)


CACHED_RUN = r"""
import os, sys, time
from kiln import cpp_extension
start = time.perf_counter()
ext = cpp_extension.load_inline("kiln_test_arrays", sys.argv[2], functions={"scaled": "a * factor", "fill": None,
                                "describe": None, "same": None, "check_positive": None}, build_directory=sys.argv[1])
print(time.perf_counter() - start)
print(ext.describe(ext.scaled([1.0, 2.0], 2.0)))
"""


def test_a_fresh_process_loads_the_cached_build(arrays_ext, build_dir):
    # A rebuild would rename a new file into place: another inode. (A hit
    # marks the file used, so its time changes.)
    before = sorted((p, os.stat(os.path.join(build_dir, p)).st_ino) for p in os.listdir(build_dir))
    done = subprocess.run([sys.executable, "-c", CACHED_RUN, build_dir, ARRAY_FUNCTIONS], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[1] == "cpu float64 1"
    after = sorted((p, os.stat(os.path.join(build_dir, p)).st_ino) for p in os.listdir(build_dir))
    assert after == before  # nothing rebuilt


def test_the_example_extension_runs():
    done = subprocess.run([sys.executable, os.path.join(EXAMPLE, "run.py"), "--frames", "2", "--atoms", "300"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "cpu:" in done.stdout and "equal to NumPy's" in done.stdout


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_the_example_builds_with_cmake_from_the_installed_package(tmp_path):
    # A fresh directory, only the example's files and the installed kiln.
    source = tmp_path / "src"
    shutil.copytree(EXAMPLE, source)
    build = tmp_path / "build"
    cmake_build(source, build, f"-DPython_EXECUTABLE={sys.executable}")
    check = ("import numpy as np, kiln, rdf_extension as r\n"
             "pos = np.random.default_rng(0).uniform(0, 10, (2, 200, 3))\n"
             "c = r.pair_histogram(kiln.asarray(pos), (10.0, 10.0, 10.0), 5.0, 25)\n"
             "assert c.dtype == kiln.uint64 and c.shape == (25,)\n"
             "print(int(kiln.asnumpy(c).sum()))\n")
    counted = run_python(check, build)
    pos = np.random.default_rng(0).uniform(0, 10, (2, 200, 3))
    d = pos[:, :, None, :] - pos[:, None, :, :]
    d -= 10.0 * np.rint(d / 10.0)
    r = np.sqrt((d * d).sum(-1))
    assert int(counted) == int(((r < 5.0) & (r > 0)).sum())  # ordered pairs i != j


PYBIND11_MODULE_SOURCE = r"""
#include <kiln/python/pybind11.hpp>
#include <kiln/ops.hpp>
kiln::Array negated(const kiln::Array& a) { return kiln::negative(a); }
PYBIND11_MODULE(kiln_test_pybind11, m) { m.def("negated", &negated); }
"""


def test_the_pybind11_caster(tmp_path):
    pybind11 = pytest.importorskip("pybind11")
    src = tmp_path / "ext.cpp"
    src.write_text(PYBIND11_MODULE_SOURCE)
    out = tmp_path / ("kiln_test_pybind11" + sysconfig.get_config_var("EXT_SUFFIX"))
    command = [*kiln._core._host_compiler()[0], "-std=c++17", "-O1", "-shared", "-fPIC", "-fvisibility=hidden",
               *(["-DKILN_WITH_CUDA"] if kiln._core._with_cuda else []), f"-I{kiln.get_include()}",
               f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}", str(src), "-o", str(out),
               f"-L{kiln.get_library_dir()}", "-lkiln", f"-Wl,-rpath,{kiln.get_library_dir()}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    check = ("import numpy as np, kiln, kiln_test_pybind11 as m\n"
             "out = m.negated(kiln.arange(3.0))\n"
             "assert isinstance(out, kiln.ndarray), type(out)\n"
             "assert kiln.asnumpy(out).tolist() == [-0.0, -1.0, -2.0]\n"
             "assert kiln.asnumpy(m.negated(np.ones(2, np.int32))).tolist() == [-1, -1]\n")
    run_python(check, tmp_path)


def _public_headers():
    root = os.path.join(kiln.get_include(), "kiln")
    return sorted(os.path.relpath(p, kiln.get_include()) for p in glob.glob(os.path.join(root, "*.hpp")))


def test_each_public_header_compiles_on_its_own(tmp_path):
    import nanobind

    headers = _public_headers() + ["kiln/python/c_api.hpp", "kiln/python/nanobind.hpp"]
    compiler = kiln._core._host_compiler()[0]

    def check(header):
        src = tmp_path / (header.replace("/", "_") + ".cpp")
        src.write_text(f"#include <{header}>\n")
        return header, subprocess.run(
            [*compiler, "-std=c++17", "-fsyntax-only", *(["-DKILN_WITH_CUDA"] if kiln._core._with_cuda else []),
             f"-I{kiln.get_include()}", f"-I{nanobind.include_dir()}", f"-I{sysconfig.get_paths()['include']}",
             str(src)], capture_output=True, text=True, timeout=300)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        failed = {h: d.stderr[-1500:] for h, d in pool.map(check, headers) if d.returncode != 0}
    assert not failed, failed


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_the_cpp_program_builds_with_find_package(tmp_path):
    # examples/cpp against the installed package only: the program it builds
    # gives what the installed kiln-rdf-histogram gives.
    from kiln.rdf import ways

    source = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "examples", "cpp"), source)
    build = tmp_path / "build"
    cmake_build(source, build, f"-Dkiln_DIR={kiln.get_cmake_dir()}")
    rng = np.random.default_rng(5)
    xyz = [rng.uniform(0, 20, (2, 150)).astype(np.float32) for _ in range(3)]
    dcd = tmp_path / "t.dcd"
    kiln.io.write_dcd(str(dcd), *xyz, box=np.tile([20.0, 20.0, 20.0], (2, 1)))
    installed = ways.histogram_program(dcd, kiln.Device("cpu"), 100)[1]
    built = subprocess.run([str(build / "kiln-rdf-histogram"), str(dcd), ways.KERNELS_PATH, "--bins", "100"],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    np.testing.assert_array_equal(np.array(built.stdout.split("\n", 1)[1].split(), dtype=np.int64), installed)
    assert installed.sum() > 0


SETUP_PY = r"""
from setuptools import setup
from kiln.cpp_extension import BuildExtension, CUDAExtension
setup(name="kiln_test_setup", ext_modules=[CUDAExtension("kiln_test_setup", ["ext.cpp", "kernel.cu"])],
      cmdclass={"build_ext": BuildExtension})
"""

SETUP_EXT = r"""
#include <kiln/creation.hpp>
#include <kiln/extension.hpp>
#include <kiln/python/nanobind.hpp>
kiln::Array iota(int n) {
  kiln::Array out = kiln::empty({n}, kiln::DType::Int32, kiln::Device::cpu());
  kiln::extension::kernel("iota")(out.device(), {1}, {static_cast<unsigned>(n)}, 0, out);
  return out;
}
NB_MODULE(kiln_test_setup, m) { m.def("iota", &iota); }
"""


def test_a_setup_py_with_cuda_extension(tmp_path):
    pytest.importorskip("setuptools")
    (tmp_path / "setup.py").write_text(SETUP_PY)
    (tmp_path / "ext.cpp").write_text(SETUP_EXT)
    (tmp_path / "kernel.cu").write_text('extern "C" __global__ void iota(int* out) { out[threadIdx.x] = threadIdx.x; }')
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    check = "import kiln, kiln_test_setup as m; print(kiln.asnumpy(m.iota(5)).tolist())"
    assert run_python(check, tmp_path).strip() == "[0, 1, 2, 3, 4]"


CONCURRENT_BUILD = r"""
import sys
from kiln import cpp_extension
ext = cpp_extension.load_inline("kiln_test_race", "int answer() { return 42; }", functions=["answer"],
                                build_directory=sys.argv[1])
print(ext.answer())
"""


def test_processes_building_one_extension_at_once(tmp_path):
    # Each builds in a directory of its own and renames the result into
    # place: all import a whole module, none a partial one.
    runs = [subprocess.Popen([sys.executable, "-c", CONCURRENT_BUILD, str(tmp_path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(3)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err[-3000:]
        assert out.strip() == "42"
    built = [p for p in os.listdir(tmp_path) if p.startswith("kiln_test_race")]
    assert len(built) == 1 and built[0].endswith(sysconfig.get_config_var("EXT_SUFFIX"))  # no build directory left


def test_gpu_arrays_of_other_libraries_arrive_without_a_copy(arrays_ext):
    torch = pytest.importorskip("torch")
    if not (kiln.cuda.is_available() and torch.cuda.is_available()):
        pytest.skip("needs a GPU and PyTorch with CUDA")
    t = torch.zeros(6, dtype=torch.float64, device="cuda")
    assert arrays_ext.describe(t) == "cuda:0 float64 1"
    arrays_ext.fill(t, 5.0)  # through __cuda_array_interface__ into PyTorch's memory
    kiln.cuda.synchronize()
    assert t.cpu().tolist() == [5.0] * 6


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_the_example_is_a_scikit_build_core_package(tmp_path):
    pytest.importorskip("scikit_build_core")
    source = tmp_path / "src"
    shutil.copytree(EXAMPLE, source)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
                           "--target", str(tmp_path / "site"), str(source)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    check = ("import sys; sys.path.insert(0, 'site')\n"
             "import numpy as np, kiln, rdf_extension as r\n"
             "c = r.pair_histogram(np.zeros((1, 2, 3)), (1.0, 1.0, 1.0), 0.5, 4)\n"
             "print(kiln.asnumpy(c).tolist())\n")
    assert run_python(check, tmp_path).strip() == "[2, 0, 0, 0]"  # two atoms at one place: one pair, twice
