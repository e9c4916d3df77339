#include "parallel.hpp"

#include "kiln/device.hpp"

namespace kiln::cpu {

int max_threads() {
  static const int n = omp_get_max_threads();
  return n;
}

}  // namespace kiln::cpu

int kiln::cpu_thread_count() { return cpu::max_threads(); }
