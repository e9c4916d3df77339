// cuSPARSE's SpMV under compute-sanitizer racecheck, with no kiln code: the
// reproducer for the hazards that racecheck reports inside NVIDIA's
// csrmv_v3_kernel and coomv_kernel when kiln's suite runs under the tool
// (docs/reliability.md). One algorithm per run; every shape, density,
// operation and value type in turn, each announced by a "CASE" line before
// its product, so a report belongs to the last CASE printed before it. The
// product is checked against a host loop, so a report is not a wrong result.
//
//   nvcc -O2 -arch=sm_90 cusparse_spmv_racecheck.cu -lcusparse -o spmv
//   compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 0 ./spmv csr1
//
// argv[1]: csr1, csr2 (CUSPARSE_SPMV_CSR_ALG1/2), coo1 or coo2; or mm1, mm2,
// mm3: the same products by SpMM (CUSPARSE_SPMM_CSR_ALG1/2/3) with x and y
// as matrices of one column, the other way cuSPARSE offers to multiply.
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CHECK(call)                                                              \
  do {                                                                           \
    if (auto status = (call)) {                                                  \
      std::printf("%s failed (%d), line %d\n", #call, int(status), __LINE__);   \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

struct Complex {
  double re, im;
};
Complex operator*(Complex a, Complex b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
Complex& operator+=(Complex& a, Complex b) { return a.re += b.re, a.im += b.im, a; }
Complex minus(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
template <class Real> Real minus(Real a, Real b) { return a - b; }
double magnitude(Complex a) { return std::hypot(a.re, a.im); }
double magnitude(double a) { return std::fabs(a); }

template <class T> struct Traits;
template <> struct Traits<float> {
  static constexpr cudaDataType type = CUDA_R_32F;
  static constexpr const char* name = "float32";
  static float from(double v) { return float(v); }
};
template <> struct Traits<double> {
  static constexpr cudaDataType type = CUDA_R_64F;
  static constexpr const char* name = "float64";
  static double from(double v) { return v; }
};
template <> struct Traits<Complex> {
  static constexpr cudaDataType type = CUDA_C_64F;
  static constexpr const char* name = "complex128";
  static Complex from(double v) { return {v, -v / 2}; }
};

template <class T>
T* to_device(const std::vector<T>& host) {
  T* device = nullptr;
  CHECK(cudaMalloc(&device, sizeof(T) * (host.size() + 1)));
  CHECK(cudaMemcpy(device, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
  return device;
}

// The product by cusparseSpMV with `chosen`.
template <class T>
void spmv(cusparseHandle_t handle, const char* algorithm, bool transpose, cusparseSpMatDescr_t matrix, int x_size,
          int y_size, T* d_x, T* d_y, cudaDataType type, cusparseSpMVAlg_t chosen);

// The product by cusparseSpMM, x and y matrices of one column; false (and
// a SKIP line) where cuSPARSE refuses the algorithm for this case.
template <class T>
bool multiply_as_matrices(cusparseHandle_t handle, const char* algorithm, bool transpose, cusparseSpMatDescr_t matrix,
                          int x_size, int y_size, T* d_x, T* d_y, cudaDataType type);

// y = op(A) x for a random rows x cols matrix of the given density.
template <class T>
void product(cusparseHandle_t handle, const char* algorithm, bool transpose, int rows, int cols, double density) {
  std::mt19937 rng(rows * 7919 + cols);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<int> starts(rows + 1, 0), entry_rows, entry_cols;
  std::vector<T> values;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c)
      if (uniform(rng) < density) {
        entry_rows.push_back(r);
        entry_cols.push_back(c);
        values.push_back(Traits<T>::from(uniform(rng) - 0.5));
      }
    starts[r + 1] = int(entry_cols.size());
  }
  const int nnz = int(values.size()), x_size = transpose ? rows : cols, y_size = transpose ? cols : rows;
  std::vector<T> x(x_size), y(y_size), expected(y_size, Traits<T>::from(0));
  for (T& v : x) v = Traits<T>::from(uniform(rng));
  for (int k = 0; k < nnz; ++k) {
    const int r = entry_rows[k], c = entry_cols[k];
    if (transpose) expected[c] += values[k] * x[r];
    else expected[r] += values[k] * x[c];
  }
  int *d_starts = to_device(starts), *d_rows = to_device(entry_rows), *d_cols = to_device(entry_cols);
  T *d_values = to_device(values), *d_x = to_device(x), *d_y = to_device(y);

  const cudaDataType type = Traits<T>::type;
  cusparseSpMatDescr_t matrix;
  cusparseSpMVAlg_t chosen;
  if (std::strncmp(algorithm, "coo", 3) != 0) {
    CHECK(cusparseCreateCsr(&matrix, rows, cols, nnz, d_starts, d_cols, d_values, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
    chosen = algorithm[3] == '1' ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;  // unused by mm
  } else {
    CHECK(cusparseCreateCoo(&matrix, rows, cols, nnz, d_rows, d_cols, d_values, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, type));
    chosen = algorithm[3] == '1' ? CUSPARSE_SPMV_COO_ALG1 : CUSPARSE_SPMV_COO_ALG2;
  }
  std::printf("CASE %s %s %s %dx%d density %.2f nnz %d\n", algorithm, transpose ? "T" : "N", Traits<T>::name, rows,
              cols, density, nnz);
  std::fflush(stdout);
  bool done = true;
  if (algorithm[0] == 'm') done = multiply_as_matrices(handle, algorithm, transpose, matrix, x_size, y_size, d_x, d_y, type);
  else spmv(handle, algorithm, transpose, matrix, x_size, y_size, d_x, d_y, type, chosen);
  if (done) {
    CHECK(cudaMemcpy(y.data(), d_y, sizeof(T) * y_size, cudaMemcpyDeviceToHost));
    double error = 0;
    for (int i = 0; i < y_size; ++i) error = std::fmax(error, magnitude(minus(y[i], expected[i])));
    if (error > (sizeof(T) == 4 ? 1e-4 : 1e-12) * (1 + nnz)) std::printf("WRONG RESULT: max error %g\n", error);
  }
  cusparseDestroySpMat(matrix);
  for (void* p : {(void*)d_starts, (void*)d_rows, (void*)d_cols, (void*)d_values, (void*)d_x, (void*)d_y})
    cudaFree(p);
}

template <class T>
T one() {
  T alpha;  // Traits<Complex>::from(1) is 1 - i/2
  std::memset(&alpha, 0, sizeof alpha);
  if constexpr (sizeof(T) == 16) alpha.re = 1;
  else alpha = 1;
  return alpha;
}

template <class T>
void spmv(cusparseHandle_t handle, const char* algorithm, bool transpose, cusparseSpMatDescr_t matrix, int x_size,
          int y_size, T* d_x, T* d_y, cudaDataType type, cusparseSpMVAlg_t chosen) {
  cusparseDnVecDescr_t vx, vy;
  CHECK(cusparseCreateDnVec(&vx, x_size, d_x, type));
  CHECK(cusparseCreateDnVec(&vy, y_size, d_y, type));
  T alpha = one<T>(), beta;
  std::memset(&beta, 0, sizeof beta);
  const cusparseOperation_t op = transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t bytes = 0;
  CHECK(cusparseSpMV_bufferSize(handle, op, &alpha, matrix, vx, &beta, vy, type, chosen, &bytes));
  void* work = nullptr;
  CHECK(cudaMalloc(&work, bytes + 8));
  CHECK(cusparseSpMV(handle, op, &alpha, matrix, vx, &beta, vy, type, chosen, work));
  CHECK(cudaDeviceSynchronize());
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cudaFree(work);
}

template <class T>
bool multiply_as_matrices(cusparseHandle_t handle, const char* algorithm, bool transpose, cusparseSpMatDescr_t matrix,
                          int x_size, int y_size, T* d_x, T* d_y, cudaDataType type) {
  const cusparseSpMMAlg_t chosen = algorithm[2] == '1'   ? CUSPARSE_SPMM_CSR_ALG1
                                   : algorithm[2] == '2' ? CUSPARSE_SPMM_CSR_ALG2
                                                         : CUSPARSE_SPMM_CSR_ALG3;
  cusparseDnMatDescr_t mx, my;
  CHECK(cusparseCreateDnMat(&mx, x_size, 1, x_size, d_x, type, CUSPARSE_ORDER_COL));
  CHECK(cusparseCreateDnMat(&my, y_size, 1, y_size, d_y, type, CUSPARSE_ORDER_COL));
  T alpha = one<T>(), beta;
  std::memset(&beta, 0, sizeof beta);
  const cusparseOperation_t op = transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t bytes = 0;
  bool done = false;
  if (auto status = cusparseSpMM_bufferSize(handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, mx, &beta,
                                            my, type, chosen, &bytes)) {
    std::printf("SKIP: cuSPARSE refuses this case (%d)\n", int(status));
  } else {
    void* work = nullptr;
    CHECK(cudaMalloc(&work, bytes + 8));
    if (auto status = cusparseSpMM(handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matrix, mx, &beta, my, type,
                                   chosen, work))
      std::printf("SKIP: cuSPARSE refuses this case (%d)\n", int(status));
    else
      done = true;
    CHECK(cudaDeviceSynchronize());
    cudaFree(work);
  }
  cusparseDestroyDnMat(mx);
  cusparseDestroyDnMat(my);
  return done;
}

int main(int argc, char** argv) {
  const char* known[] = {"csr1", "csr2", "coo1", "coo2", "mm1", "mm2", "mm3"};
  bool ok = argc == 2;
  if (ok) {
    ok = false;
    for (const char* k : known) ok = ok || std::strcmp(argv[1], k) == 0;
  }
  if (!ok) {
    std::printf("usage: %s csr1|csr2|coo1|coo2|mm1|mm2|mm3\n", argv[0]);
    return 2;
  }
  cusparseHandle_t handle;
  CHECK(cusparseCreate(&handle));
  const int shapes[][2] = {{6, 5}, {5, 7}, {8, 9}, {20, 30}, {64, 64}, {300, 170}, {1000, 1000}, {3, 2000}};
  for (const auto& shape : shapes)
    for (double density : {0.4, 0.1})
      for (bool transpose : {false, true}) {
        product<float>(handle, argv[1], transpose, shape[0], shape[1], density);
        product<double>(handle, argv[1], transpose, shape[0], shape[1], density);
        product<Complex>(handle, argv[1], transpose, shape[0], shape[1], density);
      }
  std::printf("CASE end\n");
  return 0;
}
