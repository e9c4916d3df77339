#include "strided_loop.hpp"

#include <algorithm>

#include "parallel.hpp"

namespace kiln::cpu {

void run_strided(const StridedArgs& a, InnerLoop loop, int64_t grain) {
  const int nd = a.ndim;
  const int nargs = a.nargs;
  int64_t inner_strides[kMaxOperands] = {};
  for (int k = 0; k < nargs; ++k) inner_strides[k] = nd ? a.strides[k][nd - 1] : 0;
  if (nd <= 1) {
    parallel_for(a.size, grain, [&](int64_t begin, int64_t end) {
      char* p[kMaxOperands];
      for (int k = 0; k < nargs; ++k) p[k] = a.data[k] + begin * inner_strides[k];
      loop(p, inner_strides, end - begin);
    });
    return;
  }
  const int64_t inner = a.shape[nd - 1];
  parallel_for(a.size, grain, [&](int64_t begin, int64_t end) {
    int64_t idx[kMaxDims];
    int64_t rem = begin;
    for (int d = nd - 1; d >= 0; --d) {
      idx[d] = rem % a.shape[d];
      rem /= a.shape[d];
    }
    char* p[kMaxOperands];
    while (begin < end) {
      for (int k = 0; k < nargs; ++k) {
        char* q = a.data[k];
        for (int d = 0; d < nd; ++d) q += idx[d] * a.strides[k][d];
        p[k] = q;
      }
      int64_t run = std::min(inner - idx[nd - 1], end - begin);
      loop(p, inner_strides, run);
      begin += run;
      idx[nd - 1] += run;
      for (int d = nd - 1; d > 0 && idx[d] == a.shape[d]; --d) {
        idx[d] = 0;
        ++idx[d - 1];
      }
    }
  });
}

}  // namespace kiln::cpu
