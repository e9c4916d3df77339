#pragma once
// Properties of peaks in a 1-d signal (scipy.signal.peak_prominences and
// peak_widths): each peak's answer comes from walking outwards from it until
// the signal rises above (prominence) or falls below (width) a level, so a
// thread takes a peak and walks. kiln.scipy.signal finds the peaks themselves
// with array operations. Compiles under NVRTC and under the host compiler.

// x: n samples; peaks: count indices; half_window: wlen // 2, or -1 for the
// whole signal. Out: prominence, and the bases where the walks stopped at
// their lowest points.
extern "C" __global__ void kiln_peak_prominences(const double* x, long long n, const long long* peaks,
                                                 long long count, long long half_window, double* prominence,
                                                 long long* left_base, long long* right_base) {
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < count;
       p += (long long)blockDim.x * gridDim.x) {
    const long long peak = peaks[p];
    long long lo = 0, hi = n - 1;
    if (half_window >= 0) {
      lo = peak - half_window > lo ? peak - half_window : lo;
      hi = peak + half_window < hi ? peak + half_window : hi;
    }
    const double top = x[peak];
    // left: the lowest point before the signal rises above the peak
    long long base = peak;
    double low_left = top;
    for (long long i = peak; i >= lo && x[i] <= top; --i) {
      if (x[i] < low_left) low_left = x[i], base = i;
    }
    left_base[p] = base;
    base = peak;
    double low_right = top;
    for (long long i = peak; i <= hi && x[i] <= top; ++i) {
      if (x[i] < low_right) low_right = x[i], base = i;
    }
    right_base[p] = base;
    prominence[p] = top - (low_left > low_right ? low_left : low_right);
  }
}

// The width of each peak at top - rel_height * prominence, between the
// crossings of that level (interpolated linearly between samples), looked
// for no farther than the peak's bases.
extern "C" __global__ void kiln_peak_widths(const double* x, const long long* peaks, long long count,
                                            double rel_height, const double* prominence, const long long* left_base,
                                            const long long* right_base, double* width, double* height,
                                            double* left_crossing, double* right_crossing) {
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < count;
       p += (long long)blockDim.x * gridDim.x) {
    const long long peak = peaks[p];
    const double level = x[peak] - prominence[p] * rel_height;
    long long i = peak;
    while (left_base[p] < i && level < x[i]) --i;
    double left = (double)i;
    if (x[i] < level) left += (level - x[i]) / (x[i + 1] - x[i]);
    i = peak;
    while (i < right_base[p] && level < x[i]) ++i;
    double right = (double)i;
    if (x[i] < level) right -= (level - x[i]) / (x[i - 1] - x[i]);
    width[p] = right - left;
    height[p] = level;
    left_crossing[p] = left;
    right_crossing[p] = right;
  }
}
