// bincount and the mask compaction of flatnonzero and extract on the CPU. Counts are split over the cores, each counting into a
// private histogram that is summed at the end (when the histograms are small
// beside the input); weight sums run in order, so that they round exactly as
// NumPy's do.
#include <algorithm>
#include <cstdint>
#include <type_traits>
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

// Elements of `bytes` bytes, copied as one value.
template <int bytes> struct Element {
  unsigned char b[bytes];
};

// Writes slice [i, hi)'s true positions (Out = int64_t, values null) or the
// elements there to out[first, last), without a branch: every candidate is
// stored and the output pointer moves on only past a true one, which a mask
// of mixed values would mispredict half the time.
template <class Out>
void write_slice(const MaskCompactArgs& a, int64_t i, int64_t hi, int64_t first, int64_t last) {
  Out* out = static_cast<Out*>(a.out) + first;
  Out* const stop = static_cast<Out*>(a.out) + last;
  const Out* values = reinterpret_cast<const Out*>(a.values);
  for (; out < stop && i < hi; ++i) {
    if constexpr (std::is_same_v<Out, int64_t>) *out = i;
    else *out = values[i];
    out += a.mask[i] != 0;
  }
}

// Each core counts its slice's true bytes (the counting call, which leaves
// each slice's first output position in a.slices, and the total after
// them), then writes its positions or elements from its slice's offset (the
// writing call), never past the next slice's.
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
      const int64_t first = starts[c], last = starts[c + 1];
      if (!a.values) write_slice<int64_t>(a, i, hi, first, last);
      else if (a.itemsize == 1) write_slice<Element<1>>(a, i, hi, first, last);
      else if (a.itemsize == 2) write_slice<Element<2>>(a, i, hi, first, last);
      else if (a.itemsize == 4) write_slice<Element<4>>(a, i, hi, first, last);
      else if (a.itemsize == 8) write_slice<Element<8>>(a, i, hi, first, last);
      else write_slice<Element<16>>(a, i, hi, first, last);
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
