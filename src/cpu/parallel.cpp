#include "parallel.hpp"

#include <atomic>

#include "kiln/device.hpp"

namespace kiln::cpu {

namespace {
std::atomic<int> compilers_running{0};
}  // namespace

int max_threads() {
  static const int n = omp_get_max_threads();
  return n;
}

int loop_threads() { return std::max(1, max_threads() - compilers_running.load(std::memory_order_relaxed)); }

CompilerRunning::CompilerRunning() { compilers_running.fetch_add(1, std::memory_order_relaxed); }
CompilerRunning::~CompilerRunning() { compilers_running.fetch_sub(1, std::memory_order_relaxed); }

}  // namespace kiln::cpu

int kiln::cpu_thread_count() { return cpu::max_threads(); }
