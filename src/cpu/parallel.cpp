#include "parallel.hpp"

namespace kiln::cpu {

int max_threads() {
  static const int n = omp_get_max_threads();
  return n;
}

}  // namespace kiln::cpu
