// bincount and flatnonzero's compaction on the CPU. Counts are split over the cores, each counting into a
// private histogram that is summed at the end (when the histograms are small
// beside the input); weight sums run in order, so that they round exactly as
// NumPy's do.
#include <algorithm>
#include <vector>

#include "backend.hpp"
#include "parallel.hpp"

namespace kiln::cpu {
namespace {

constexpr int64_t kGrain = 1 << 16;  // values a core counts at least

void count(const BincountArgs& a) {
  int64_t* out = reinterpret_cast<int64_t*>(a.out);
  const int threads = max_threads();
  if (threads <= 1 || a.n < 2 * kGrain || a.bins * threads > a.n) {
    for (int64_t i = 0; i < a.n; ++i) ++out[a.x[i]];
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads, a.n / kGrain);
  std::vector<std::vector<int64_t>> partial(chunks, std::vector<int64_t>(a.bins));
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      int64_t* h = partial[c].data();
      for (int64_t i = a.n * c / chunks, stop = a.n * (c + 1) / chunks; i < stop; ++i) ++h[a.x[i]];
    }
  });
  for (const auto& h : partial)
    for (int64_t b = 0; b < a.bins; ++b) out[b] += h[b];
}

void sum_weights(const BincountArgs& a) {
  double* out = reinterpret_cast<double*>(a.out);
  for (int64_t i = 0; i < a.n; ++i) out[a.x[i]] += a.weights[i];
}

// Each core counts its slice's true bytes (the counting call, which leaves
// each slice's first output position in a.slices, and the total after
// them), then writes their positions from its slice's offset (the writing
// call): without a branch (every position is stored, the output pointer
// moves on only past a true one), which a mask of mixed values would
// mispredict half the time.
void compact_mask(MaskCompactArgs& a) {
  std::vector<int64_t>& starts = a.slices;
  if (!a.out)
    starts.assign(std::max<int64_t>(1, std::min<int64_t>(max_threads(), a.n / kGrain)) + 1, 0);
  const int64_t chunks = static_cast<int64_t>(starts.size()) - 1;
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      int64_t i = a.n * c / chunks;
      const int64_t hi = a.n * (c + 1) / chunks;
      if (!a.out) {
        int64_t trues = 0;
        for (; i < hi; ++i) trues += a.mask[i] != 0;
        starts[c + 1] = trues;
        continue;
      }
      int64_t* out = a.out + starts[c];
      int64_t* const stop = a.out + starts[c + 1];  // never written past: the next slice's
      for (; out < stop && i < hi; ++i) {
        *out = i;
        out += a.mask[i] != 0;
      }
    }
  });
  if (a.out) return;
  for (int64_t c = 0; c < chunks; ++c) starts[c + 1] += starts[c];
  a.count = starts[chunks];
}

}  // namespace

void register_counting_kernels(KernelTable& table) {
  table.bincount[0] = &count;
  table.bincount[1] = &sum_weights;
  table.compact_mask = &compact_mask;
}

}  // namespace kiln::cpu
