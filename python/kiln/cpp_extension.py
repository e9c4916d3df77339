"""Users' own C++ extension modules on kiln arrays, as PyTorch's
``torch.utils.cpp_extension`` builds them for tensors.

``load(name, sources)`` and ``load_inline(name, cpp_sources, cuda_sources,
functions)`` compile C++ with the host compiler into a Python module bound
with nanobind and linked to kiln's own ``libkiln.so`` (so the extension
shares kiln's devices, streams, memory pools and caches), import it and
return it. Its functions take and return ``kiln::Array`` (the casters of
``kiln/python/nanobind.hpp``): kiln arrays, NumPy arrays and DLPack / CUDA
array interface objects arrive without a copy.

CUDA sources (``.cu`` files, ``cuda_sources``) hold kernels. They are not
compiled into the module: they are compiled when first launched, for the
device of the launch (NVRTC on a GPU, the host compiler on the CPU), and
cached like every kiln kernel, so one build runs on a machine with a GPU or
without one. C++ code launches them through ``kiln::extension::kernel(name)``
(``kiln/extension.hpp``).

Builds are cached under kiln's cache directory (``$KILN_CACHE_DIR``, else
``~/.cache/kiln``) in ``extensions/``, keyed by the sources, the flags, the
compiler, Python's ABI and kiln's own build; processes building the same
extension at once each build and the last rename wins, never a partial file.
A build that fails raises ``kiln.CompileError`` with the compiler's log.

``CppExtension``/``CUDAExtension`` and ``BuildExtension`` do the same for a
``setup.py``; ``examples/extension`` shows the CMake route
(``find_package(kiln CONFIG)``).

``python -m kiln.cpp_extension embed-kernels OUT.cpp [--option OPT]... FILE.cu...``
writes the C++ file that defines ``kiln::extension::kernels()`` from CUDA
sources (CMake's ``kiln_add_kernels`` runs it).
"""
import concurrent.futures
import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import sysconfig
import tempfile

from . import _core
from ._installation.package_paths import get_include, get_library_dir
from ._installation.version import __version__

_CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C")
_CUDA_SUFFIXES = (".cu",)
_FLAGS = ["-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-DNDEBUG"]

# What an inline extension's C++ sees first.
_INLINE_PRELUDE = """#include <kiln/kiln.hpp>
#include <kiln/extension.hpp>
#include <kiln/python/nanobind.hpp>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
"""


def _nanobind():
    try:
        import nanobind
    except ImportError:
        raise ImportError("kiln.cpp_extension binds extensions with nanobind: pip install nanobind") from None
    return nanobind


def include_paths():
    """The directories an extension's C++ includes from: kiln's headers,
    nanobind's (with its robin_map) and Python's."""
    nb = _nanobind()
    return [get_include(), nb.include_dir(), os.path.join(os.path.dirname(nb.include_dir()), "ext", "robin_map",
                                                          "include"), sysconfig.get_paths()["include"]]


def _defines(name):
    out = [f"-DKILN_EXTENSION_NAME={name}"]
    if _core._with_cuda:  # libkiln's public headers declare kiln::cuda only then
        out.append("-DKILN_WITH_CUDA")
    return out


def _link_flags():
    return [f"-L{get_library_dir()}", "-lkiln", f"-Wl,-rpath,{get_library_dir()}"]


def _extension_directory():
    return os.path.join(_core._kernel_cache_directory(), "extensions")


def _build_identity():
    """What a build depends on besides its sources and flags: kiln's build
    (libkiln's file), the compiler, Python's ABI, nanobind."""
    lib = os.path.join(get_library_dir(), "libkiln.so")
    st = os.stat(lib)
    command, identity = _core._host_compiler()
    return "\n".join([__version__, f"{st.st_size} {st.st_mtime_ns}", " ".join(command), identity,
                      sysconfig.get_config_var("EXT_SUFFIX") or "", sys.version, _nanobind().__version__])


def _run(command, what, verbose):
    if verbose:
        print(" ".join(command), file=sys.stderr)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise _core.CompileError(f"kiln.cpp_extension: {what} failed (exit status {done.returncode}):\n"
                                 f"{' '.join(command)}\n{done.stderr}{done.stdout}")
    if verbose and (done.stderr or done.stdout):
        print(done.stderr + done.stdout, file=sys.stderr)


def _publish(build_dir, built, final):
    """Moves `built` to `final` in one rename (readers see the whole file or none)."""
    os.replace(built, final)
    for leftover in os.listdir(build_dir):
        os.remove(os.path.join(build_dir, leftover))
    os.rmdir(build_dir)


def _nanobind_object(compiler, identity, verbose):
    """nanobind's runtime library compiled once per compiler, Python and
    nanobind version (`identity`, from _build_identity): every extension
    links the same object."""
    nb = _nanobind()
    key = hashlib.sha256(identity.encode()).hexdigest()[:20]
    root = _extension_directory()
    final = os.path.join(root, f"nanobind-{key}.o")
    if os.path.exists(final):
        _mark_used(final)
        return final
    os.makedirs(root, mode=0o700, exist_ok=True)
    build_dir = tempfile.mkdtemp(prefix="nanobind-", dir=root)
    obj = os.path.join(build_dir, "nanobind.o")
    _run([*compiler, *_FLAGS, "-Os", *[f"-I{p}" for p in include_paths()], "-c",
          os.path.join(nb.source_dir(), "nb_combined.cpp"), "-o", obj], "compiling nanobind", verbose)
    _publish(build_dir, obj, final)
    return final


def _raw_string(text):
    """`text` as a C++ raw string literal whose delimiter does not occur in it."""
    k = 0
    while f"){'kiln' + str(k)}\"" in text:
        k += 1
    return f'R"kiln{k}({text})kiln{k}"'


def kernels_source(cuda_texts, options=()):
    """The C++ that defines ``kiln::extension::kernels()``: one module of the
    CUDA sources `cuda_texts` (joined in order) with NVRTC-style `options`."""
    parts = " + ".join(f"std::string({_raw_string(t)})" for t in cuda_texts) or "std::string()"
    opts = ", ".join(_raw_string(o) for o in options)
    return ("#include <string>\n#include <kiln/extension.hpp>\n\n"
            "const kiln::RawModule& kiln::extension::kernels() {\n"
            f"  static const kiln::RawModule module({parts}, {{{opts}}});\n"
            "  return module;\n}\n")


def _bindings(name, functions):
    """NB_MODULE defining one Python function per C++ function of `functions`
    (names, or a dict of names to docstrings)."""
    if isinstance(functions, str):
        functions = [functions]
    docs = functions if isinstance(functions, dict) else {f: None for f in functions}
    lines = [f"NB_MODULE({name}, m) {{"]
    for fn, doc in docs.items():
        if not isinstance(fn, str) or not re.fullmatch(r"[A-Za-z_]\w*", fn):
            raise ValueError(f"functions: {fn!r} is not a C++ function name")
        lines.append(f'  m.def("{fn}", &{fn}' + (f", {_raw_string(doc)}" if doc else "") + ");")
    return "\n".join(lines + ["}\n"])


def _as_list(value, what):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    try:
        out = list(value)
    except TypeError:
        raise TypeError(f"{what} must be a string or a list of strings") from None
    if not all(isinstance(v, str) for v in out):
        raise TypeError(f"{what} must be a string or a list of strings")
    return out


def _check_name(name):
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise ValueError(f"name: {name!r} is not a valid module name (a C identifier)")


def _build(name, cpp_texts, cuda_texts, extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths,
           build_directory, verbose):
    """The path of the built module, building it unless a build with the
    same key is cached."""
    compiler = _core._host_compiler()[0]
    cflags = [*_FLAGS, *_defines(name), *[f"-I{p}" for p in [*extra_include_paths, *include_paths()]],
              *extra_cflags]
    units = list(cpp_texts)
    if cuda_texts:
        units.append(kernels_source(cuda_texts, extra_cuda_cflags))
    identity = _build_identity()
    key = hashlib.sha256("\0".join([identity, name, *cflags, *extra_ldflags, "units", *units]).encode())
    root = build_directory or _extension_directory()
    final = os.path.join(root, f"{name}-{key.hexdigest()[:24]}{sysconfig.get_config_var('EXT_SUFFIX')}")
    if os.path.exists(final):
        _mark_used(final)
        return final
    os.makedirs(root, mode=0o700, exist_ok=True)
    nanobind_obj = _nanobind_object(compiler, identity, verbose)
    build_dir = tempfile.mkdtemp(prefix=f"{name}-", dir=root)
    objects = []
    jobs = []
    for k, text in enumerate(units):
        src = os.path.join(build_dir, f"unit{k}.cpp")
        with open(src, "w") as f:
            f.write(text)
        objects.append(src[:-4] + ".o")
        jobs.append([*compiler, *cflags, "-c", src, "-o", objects[-1]])
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(len(jobs), os.cpu_count() or 1))) as pool:
            for job in pool.map(lambda c: _run(c, f"compiling {name}", verbose), jobs):
                pass
        out = os.path.join(build_dir, name + ".so")
        _run([*compiler, "-shared", *objects, nanobind_obj, "-o", out, *_link_flags(), *extra_ldflags],
             f"linking {name}", verbose)
    except BaseException:
        for leftover in os.listdir(build_dir):
            os.remove(os.path.join(build_dir, leftover))
        os.rmdir(build_dir)
        raise
    _publish(build_dir, out, final)
    if build_directory is None:
        _core._trim_kernel_cache()  # builds count towards the cache's limit
    return final


def _mark_used(path):
    """A cached build in use is the last the cache's limit removes."""
    try:
        os.utime(path)
    except OSError:
        pass


def _import(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


def load(name, sources, *, extra_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
         extra_include_paths=None, build_directory=None, verbose=False):
    """Builds (or finds cached) and imports the extension module `name` from
    the files `sources`: C++ files (``.cpp``, ``.cc``, ``.cxx``), one of
    which defines ``NB_MODULE(name, m)`` (``KILN_EXTENSION_NAME`` is defined
    as `name`), and CUDA files (``.cu``) of kernels, launched from the C++
    through ``kiln::extension::kernel``. `extra_cuda_cflags` are the
    kernels' NVRTC-style options (``-D``, ``-I`` and ``-U`` reach the host
    compiler too)."""
    _check_name(name)
    paths = _as_list(sources, "sources")
    cpp, cuda = [], []
    for path in paths:
        if path.endswith(_CUDA_SUFFIXES):
            kind = cuda
        elif path.endswith(_CPP_SUFFIXES):
            kind = cpp
        else:
            raise ValueError(f"sources: {path!r} is neither C++ ({', '.join(_CPP_SUFFIXES)}) nor CUDA (.cu)")
        with open(path) as f:
            kind.append(f"#line 1 \"{os.path.abspath(path)}\"\n" + f.read() if kind is cpp else f.read())
    if not cpp:
        raise ValueError("sources: no C++ file, so nothing defines the module")
    include_dirs = sorted({os.path.dirname(os.path.abspath(p)) for p in paths})
    path = _build(name, cpp, cuda, _as_list(extra_cflags, "extra_cflags"),
                  _as_list(extra_cuda_cflags, "extra_cuda_cflags"), _as_list(extra_ldflags, "extra_ldflags"),
                  [*_as_list(extra_include_paths, "extra_include_paths"), *include_dirs], build_directory, verbose)
    return _import(name, path)


def load_inline(name, cpp_sources, cuda_sources=None, functions=None, *, extra_cflags=None, extra_cuda_cflags=None,
                extra_ldflags=None, extra_include_paths=None, build_directory=None, verbose=False):
    """Like ``load`` with the sources as strings. `cpp_sources` follow
    kiln's and nanobind's headers (kiln/kiln.hpp, kiln/extension.hpp, the
    kiln::Array caster, nanobind's STL casters); with `functions` (names, or
    names to docstrings) the module binding them is generated, else the C++
    defines ``NB_MODULE(name, m)`` itself. `cuda_sources` hold kernels, as
    ``.cu`` files do for ``load``."""
    _check_name(name)
    cpp = _as_list(cpp_sources, "cpp_sources")
    text = _INLINE_PRELUDE + "#line 1 \"inline.cpp\"\n" + "\n".join(cpp)
    if functions is not None:
        text += "\n" + _bindings(name, functions)
    path = _build(name, [text], _as_list(cuda_sources, "cuda_sources"), _as_list(extra_cflags, "extra_cflags"),
                  _as_list(extra_cuda_cflags, "extra_cuda_cflags"), _as_list(extra_ldflags, "extra_ldflags"),
                  _as_list(extra_include_paths, "extra_include_paths"), build_directory, verbose)
    return _import(name, path)


def CppExtension(name, sources, *args, **kwargs):
    """A ``setuptools.Extension`` for a ``setup.py`` (with ``BuildExtension``
    as its ``build_ext``): `sources` are C++ files and CUDA (``.cu``) kernel
    files as for ``load``; kiln's and nanobind's headers, nanobind's runtime
    and libkiln are added."""
    from setuptools import Extension

    nb = _nanobind()
    kwargs["include_dirs"] = [*kwargs.get("include_dirs", []), *include_paths()]
    kwargs["library_dirs"] = [*kwargs.get("library_dirs", []), get_library_dir()]
    kwargs["runtime_library_dirs"] = [*kwargs.get("runtime_library_dirs", []), get_library_dir()]
    kwargs["libraries"] = [*kwargs.get("libraries", []), "kiln"]
    kwargs["extra_compile_args"] = [*_FLAGS, *_defines(name.rsplit(".", 1)[-1]),
                                    *kwargs.get("extra_compile_args", [])]
    kwargs["language"] = "c++"
    return Extension(name, [*sources, os.path.join(nb.source_dir(), "nb_combined.cpp")], *args, **kwargs)


# Kernels go through kiln's run-time compilers on either device, so a CUDA
# extension is built as a C++ one.
CUDAExtension = CppExtension


def _build_extension_class():
    from setuptools.command.build_ext import build_ext

    class BuildExtension(build_ext):
        """``build_ext`` that turns each extension's ``.cu`` sources into the
        C++ file defining ``kiln::extension::kernels()``."""

        def build_extensions(self):
            for ext in self.extensions:
                cuda = [s for s in ext.sources if s.endswith(_CUDA_SUFFIXES)]
                if not cuda:
                    continue
                texts = []
                for path in cuda:
                    with open(path) as f:
                        texts.append(f.read())
                generated = os.path.join(self.build_temp, ext.name.replace(".", "_") + "_kernels.cpp")
                os.makedirs(self.build_temp, exist_ok=True)
                with open(generated, "w") as f:
                    f.write(kernels_source(texts))
                ext.sources = [s for s in ext.sources if s not in cuda] + [generated]
            super().build_extensions()

    return BuildExtension


def __getattr__(attr):
    if attr == "BuildExtension":  # setuptools is imported only by setup.py users
        return _build_extension_class()
    raise AttributeError(f"module 'kiln.cpp_extension' has no attribute {attr!r}")


def _main(argv):
    if len(argv) < 3 or argv[0] != "embed-kernels":
        print(__doc__.rsplit("\n\n", 2)[-2], file=sys.stderr)
        return 2
    out, rest, options, files = argv[1], argv[2:], [], []
    while rest:
        word = rest.pop(0)
        if word == "--option" and rest:
            options.append(rest.pop(0))
        else:
            files.append(word)
    texts = []
    for path in files:
        with open(path) as f:
            texts.append(f.read())
    with open(out, "w") as f:
        f.write(kernels_source(texts, options))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
