// The N-Ways lab's pair-distance histogram through kiln's C++ API: way
// cpp_api of kiln-rdf. It reads a DCD trajectory with kiln::dcd, puts the
// positions on the device as float64, runs the optimised unique-pairs kernel
// of pair_kernels.cu with kiln::RawKernel (NVRTC on a GPU, the host compiler
// on the CPU) and prints the histogram of ordered pairs, self pairs in bin 0
// as the lab counts them.
//
//   kiln-rdf-histogram TRAJ.dcd pair_kernels.cu [--device cpu|cuda[:N]] [--frames N]
//                      [--bins B] [--threads T] [--blocks G]
//
// Output: "seconds S" (the histogram's time: transfer, kernel, copy back),
// then one count per line. Errors go to stderr with exit status 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "kiln/creation.hpp"
#include "kiln/dcd.hpp"
#include "kiln/raw_kernel.hpp"
#ifdef KILN_WITH_CUDA
#include "kiln/cuda.hpp"
#endif

namespace {

struct Options {
  std::string dcd, kernels, device = "cpu";
  long frames = -1, bins = 2000, threads = 0, blocks = 0;
};

long number(const char* text, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < 1) throw std::invalid_argument(std::string(what) + " must be a positive integer");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) {
      if (i + 1 >= argc) throw std::invalid_argument(std::string(what) + " needs a value");
      return argv[++i];
    };
    if (a == "--device") o.device = value("--device");
    else if (a == "--frames") o.frames = number(value("--frames"), "--frames");
    else if (a == "--bins") o.bins = number(value("--bins"), "--bins");
    else if (a == "--threads") o.threads = number(value("--threads"), "--threads");
    else if (a == "--blocks") o.blocks = number(value("--blocks"), "--blocks");
    else if (positional == 0 && a[0] != '-') o.dcd = a, ++positional;
    else if (positional == 1 && a[0] != '-') o.kernels = a, ++positional;
    else throw std::invalid_argument("unknown argument " + a);
  }
  if (positional != 2) throw std::invalid_argument("usage: kiln-rdf-histogram TRAJ.dcd pair_kernels.cu [options]");
  return o;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The launch shape kiln-rdf uses (see _tile_launch in kiln/rdf/ways.py).
void default_shape(const kiln::Device& device, Options& o) {
  long per_unit = 4, units = static_cast<long>(std::thread::hardware_concurrency());
  long threads = 64;
#ifdef KILN_WITH_CUDA
  if (device.kind == kiln::DeviceKind::CUDA) {
    per_unit = 8;
    units = kiln::cuda::device_info(device.index).multiprocessors;
    threads = 128;
  }
#endif
  if (!o.threads) o.threads = threads;
  if (!o.blocks) o.blocks = per_unit * (units > 0 ? units : 1);
}

int run(int argc, char** argv) {
  Options o = parse(argc, argv);
  const kiln::Device device = kiln::Device::parse(o.device);
  default_shape(device, o);
  kiln::dcd::Reader reader(o.dcd);
  const kiln::dcd::Header& header = reader.header();
  if (!header.has_unit_cell) throw std::runtime_error(o.dcd + " has no unit cell, so the box is unknown");
  const long frames = o.frames < 0 ? static_cast<long>(header.frames) : std::min<long>(o.frames, header.frames);
  if (frames < 1) throw std::runtime_error(o.dcd + " has no frames to analyse");
  const kiln::dcd::Frames data = reader.read(0, frames);
  const kiln::Array box = data.box.astype(kiln::DType::Float64);
  const double* edges = reinterpret_cast<const double*>(box.data());  // frame 0's box, as the lab takes it
  const double lx = edges[0], ly = edges[1], lz = edges[2];
  const double edge = std::min(lx, std::min(ly, lz));
  const double cut = edge * 0.5, width = edge / (2.0 * o.bins);
  const int atoms = static_cast<int>(header.atoms), frame_count = static_cast<int>(frames), bins = static_cast<int>(o.bins);

  kiln::RawKernel kernel(read_text(o.kernels), "pair_unique", {"--fmad=false"});
  const unsigned threads = static_cast<unsigned>(o.threads);
  auto histogram = [&](int frames_to_count) {
    const kiln::Array x = data.x.astype(kiln::DType::Float64).to(device);
    const kiln::Array y = data.y.astype(kiln::DType::Float64).to(device);
    const kiln::Array z = data.z.astype(kiln::DType::Float64).to(device);
    const kiln::Array hist = kiln::zeros({o.bins}, kiln::DType::UInt64, device);
    const size_t shared = 3 * sizeof(double) * threads + sizeof(unsigned) * o.bins;  // a tile, the histogram
    kernel(device, {static_cast<unsigned>(o.blocks)}, {threads}, shared, x, y, z, hist,
           atoms, frames_to_count, lx, ly, lz, cut, width, bins);
    return hist.to(kiln::Device::cpu());  // waits for the kernel
  };
  histogram(1);  // compiles (or loads from the cache) and warms up on one frame
  const auto start = std::chrono::steady_clock::now();
  const kiln::Array counts = histogram(frame_count);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto* c = reinterpret_cast<const unsigned long long*>(counts.data());
  std::printf("seconds %.9f\n", seconds);
  for (int b = 0; b < bins; ++b)
    std::printf("%llu\n", c[b] + (b == 0 ? static_cast<unsigned long long>(atoms) * frame_count : 0ULL));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kiln-rdf-histogram: %s\n", e.what());
    return 1;
  }
}
