// A user's extension module on kiln arrays: C++ host code that checks its
// arguments, allocates the result on the arrays' device and launches the
// CUDA kernel of pair_histogram.cu there, on the CPU or a GPU alike.
// Built by kiln.cpp_extension.load (see run.py) or by CMake against the
// installed kiln (CMakeLists.txt).
#include <nanobind/stl/tuple.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include <kiln/creation.hpp>
#include <kiln/extension.hpp>
#include <kiln/python/nanobind.hpp>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// counts[b]: ordered pairs of atoms (summed over frames) whose minimum-image
// distance lies in [b * width, (b + 1) * width), width = cutoff / bins.
kiln::Array pair_histogram(const kiln::Array& positions, std::tuple<double, double, double> box, double cutoff,
                           int bins) {
  if (positions.ndim() != 3 || positions.shape()[2] != 3)
    throw nb::value_error("positions must have shape (frames, atoms, 3)");
  if (bins < 1) throw nb::value_error("bins must be positive");
  const auto [lx, ly, lz] = box;
  if (!(lx > 0 && ly > 0 && lz > 0)) throw nb::value_error("box lengths must be positive");
  if (!(cutoff > 0)) throw nb::value_error("cutoff must be positive");
  // The kernel walks raw memory: float64, row-major (a copy only when the
  // argument is not already that).
  const kiln::Array pos = positions.as_contiguous(kiln::DType::Float64);
  const kiln::Device device = pos.device();
  const kiln::Array counts = kiln::zeros({bins}, kiln::DType::UInt64, device);
  const int frames = static_cast<int>(pos.shape()[0]), atoms = static_cast<int>(pos.shape()[1]);
  if (frames == 0 || atoms < 2) return counts;
  static const kiln::RawKernel kernel = kiln::extension::kernel("pair_histogram");
  const unsigned threads = 128;
  const long long work = static_cast<long long>(frames) * atoms;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>((work + threads - 1) / threads, 4096));
  // Queued on kiln's current stream of that device (on the CPU, run now).
  kernel(device, {blocks}, {threads}, 0, pos, counts, atoms, frames, lx, ly, lz, cutoff, cutoff / bins, bins);
  return counts;
}

}  // namespace

NB_MODULE(rdf_extension, m) {
  m.doc() = "The RDF pair histogram as a kiln extension";
  m.def("pair_histogram", &pair_histogram, "positions"_a, "box"_a, "cutoff"_a, "bins"_a,
        "Histogram of ordered atom pairs by minimum-image distance, on the positions' device.");
}
