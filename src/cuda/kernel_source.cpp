#include "kernel_source.hpp"

#include <algorithm>
#include <string>

namespace kiln::cuda {
namespace {

const char* layout_suffix(Layout l) {
  switch (l) {
    case Layout::Strided: return "strided";
    case Layout::Contiguous32: return "contig32";
    case Layout::Contiguous64: return "contig64";
    case Layout::Vector: return "vector";
    case Layout::Strided2: return "strided2";
    case Layout::Transpose: return "transpose";
  }
  return "";
}

// Input k read as `from_memory`, or from the parameters where it was passed
// by value (step -1).
std::string input(const std::string& t, int k, const std::string& from_memory) {
  return "(p.step[" + std::to_string(k) + "] < 0 ? *(const " + t + "*)(p.value + " +
         std::to_string(kValueSlotBytes * k) + ") : " + from_memory + ")";
}

// Input k's one value where it repeats (broadcast, or by value).
std::string one_value(const std::string& t, int k) {
  return input(t, k, "*(const " + t + "*)p.data[" + std::to_string(k) + "]");
}

// Input k's element i in the contiguous layouts.
std::string contiguous_input(const std::string& t, int k) {
  const std::string j = std::to_string(k);
  return input(t, k, "((const " + t + "*)p.data[" + j + "])[i * p.step[" + j + "]]");
}

// The vector body: each thread handles whole groups of `width` elements with
// one aligned load per input and one store, then a scalar loop the tail.
std::string vector_body(const KernelSpec& s, int width) {
  const int out = s.nin;
  const std::string w = std::to_string(width);
  auto vec_type = [&](DType dt) {
    return "struct __align__(" + std::to_string(itemsize(dt) * width) + ") { " + device_type(dt) + " v[" + w + "]; }";
  };
  std::string k = "extern \"C\" __global__ void " + s.name + "(kiln_dense_params p, long long n) {\n";
  for (int j = 0; j < s.nin; ++j) k += "  typedef " + vec_type(s.in[j]) + " vec" + std::to_string(j) + ";\n";
  k += "  typedef " + vec_type(s.out) + " vec_out;\n";
  k += "  const long long groups = n / " + w + ", stride = (long long)gridDim.x * blockDim.x;\n"
       "  const long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
       "  for (long long g = first; g < groups; g += stride) {\n";
  for (int j = 0; j < s.nin; ++j) {
    std::string t = device_type(s.in[j]), idx = std::to_string(j);
    // A broadcast input (step 0) or one by value (-1) repeats its one value.
    k += "    vec" + idx + " a" + idx + ";\n"
         "    if (p.step[" + idx + "] > 0) a" + idx + " = ((const vec" + idx + "*)p.data[" + idx + "])[g];\n"
         "    else {\n"
         "      const " + t + " one = " + one_value(t, j) + ";\n"
         "      for (int e = 0; e < " + w + "; ++e) a" + idx + ".v[e] = one;\n"
         "    }\n";
  }
  k += "    vec_out r;\n"
       "#pragma unroll\n"
       "    for (int e = 0; e < " + w + "; ++e) {\n";
  for (int j = 0; j < s.nin; ++j)
    k += "      const " + std::string(device_type(s.in[j])) + " x" + std::to_string(j) + " = a" + std::to_string(j) + ".v[e];\n";
  k += "      r.v[e] = " + s.expr + ";\n"
       "    }\n"
       "    ((vec_out*)p.data[" + std::to_string(out) + "])[g] = r;\n"
       "  }\n"
       "  for (long long i = groups * " + w + " + first; i < n; i += stride) {\n";
  for (int j = 0; j < s.nin; ++j) {
    std::string t = device_type(s.in[j]), idx = std::to_string(j);
    k += "    const " + t + " x" + idx + " = " + contiguous_input(t, j) + ";\n";
  }
  k += "    ((" + std::string(device_type(s.out)) + "*)p.data[" + std::to_string(out) + "])[i] = " + s.expr + ";\n"
       "  }\n}\n";
  return k;
}

// The byte address of operand k at (row r, column c) of the Transpose layout.
std::string at_2d(int k, const char* r, const char* c) {
  const std::string j = std::to_string(k);
  return "(p.data[" + j + "] + " + r + " * p.strides[" + j + "][0] + " + c + " * p.strides[" + j + "][1])";
}

// Reads a tile with threadIdx.x walking the input's rows (its fast dimension),
// writes it with threadIdx.x walking the output's columns; the padded row
// keeps both walks free of shared-memory bank conflicts.
std::string transpose_body(const KernelSpec& s) {
  const std::string t = device_type(s.in[0]), tile = std::to_string(kTransposeTile);
  return "extern \"C\" __global__ void " + s.name + "(kiln_params p, long long) {\n"
         "  __shared__ " + t + " tile[" + tile + "][" + tile + " + 1];\n"
         "  const long long rows = p.shape[0], cols = p.shape[1];\n"
         "  for (long long r0 = (long long)blockIdx.y * " + tile + "; r0 < rows; r0 += (long long)gridDim.y * " + tile + ")\n"
         "    for (long long c0 = (long long)blockIdx.x * " + tile + "; c0 < cols; c0 += (long long)gridDim.x * " + tile + ") {\n"
         "      for (int j = threadIdx.y; j < " + tile + "; j += blockDim.y) {\n"
         "        const long long r = r0 + threadIdx.x, c = c0 + j;\n"
         "        if (r < rows && c < cols) tile[threadIdx.x][j] = *(const " + t + "*)" + at_2d(0, "r", "c") + ";\n"
         "      }\n"
         "      __syncthreads();\n"
         "      for (int j = threadIdx.y; j < " + tile + "; j += blockDim.y) {\n"
         "        const long long r = r0 + j, c = c0 + threadIdx.x;\n"
         "        if (r < rows && c < cols) {\n"
         "          const " + t + " x0 = tile[j][threadIdx.x];\n"
         "          *(" + device_type(s.out) + "*)" + at_2d(1, "r", "c") + " = " + s.expr + ";\n"
         "        }\n"
         "      }\n"
         "      __syncthreads();\n"
         "    }\n}\n";
}

}  // namespace

std::string kernel_prelude() {
  return "#include \"kiln/device/ops.cuh\"\n"
         "using namespace kiln::dev;\n"
         "#define KILN_MAX_DIMS " + std::to_string(kMaxKernelDims) + "\n"
         "struct kiln_params {\n"
         "  char* data[4];\n"
         "  long long step[4];\n"
         "  long long shape[KILN_MAX_DIMS];\n"
         "  long long strides[4][KILN_MAX_DIMS];\n"
         "  unsigned char value[48];\n"
         "  int ndim;\n"
         "};\n"
         "struct kiln_dense_params {\n"
         "  char* data[4];\n"
         "  long long step[4];\n"
         "  unsigned char value[48];\n"
         "};\n";
}

int vector_width(const KernelSpec& s) {
  size_t widest = itemsize(s.out);
  for (int j = 0; j < s.nin; ++j) widest = std::max(widest, itemsize(s.in[j]));
  return static_cast<int>(kVectorBytes / widest);
}

std::string kernel_body(const KernelSpec& s) {
  if (s.layout == Layout::Vector) return vector_body(s, vector_width(s));
  if (s.layout == Layout::Transpose) return transpose_body(s);
  const bool strided = s.layout == Layout::Strided || s.layout == Layout::Strided2;
  const std::string index = s.layout == Layout::Contiguous32 ? "unsigned int" : "long long";
  const int out = s.nin;
  std::string k = "extern \"C\" __global__ void " + s.name + "(" + (strided ? "kiln_params" : "kiln_dense_params") +
                  " p, " + index + " n) {\n";
  k += "  for (" + index + " i = (" + index + ")blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (" + index +
       ")gridDim.x * blockDim.x) {\n";
  if (s.layout == Layout::Strided2) {
    k += "    const long long c = i % p.shape[1], r = i / p.shape[1];\n"
         "    long long off[4];\n"
         "    for (int k = 0; k <= " + std::to_string(out) + "; ++k) off[k] = r * p.strides[k][0] + c * p.strides[k][1];\n";
  } else if (strided) {  // the outermost coordinate is what is left: no division for it
    k += "    long long off[4] = {0, 0, 0, 0};\n"
         "    long long rem = i;\n"
         "    for (int d = p.ndim - 1; d >= 0; --d) {\n"
         "      const long long c = d == 0 ? rem : rem % p.shape[d];\n"
         "      if (d > 0) rem /= p.shape[d];\n"
         "      for (int k = 0; k <= " + std::to_string(out) + "; ++k) off[k] += c * p.strides[k][d];\n"
         "    }\n";
  }
  for (int j = 0; j < s.nin; ++j) {
    std::string t = device_type(s.in[j]), x = "x" + std::to_string(j), idx = std::to_string(j);
    const std::string value = strided ? input(t, j, "*(const " + t + "*)(p.data[" + idx + "] + off[" + idx + "])")
                                      : contiguous_input(t, j);
    k += "    const " + t + " " + x + " = " + value + ";\n";
  }
  std::string t = device_type(s.out), o = std::to_string(out);
  if (strided) k += "    *(" + t + "*)(p.data[" + o + "] + off[" + o + "]) = " + s.expr + ";\n";
  else k += "    ((" + t + "*)p.data[" + o + "])[i] = " + s.expr + ";\n";
  k += "  }\n}\n";
  return k;
}

KernelSpec elementwise_spec(OpId op, DType loop, Layout layout) {
  KernelSpec s;
  s.nin = op_arity(op);
  for (int j = 0; j < s.nin; ++j) s.in[j] = (op == OpId::where && j == 0) ? DType::Bool : loop;
  s.out = loop_output_dtype(op, loop);
  s.name = std::string("kiln_") + op_name(op) + "_" + std::string(name(loop)) + "_" + layout_suffix(layout);
  s.expr = std::string("op_") + op_name(op) + "::call(";
  for (int j = 0; j < s.nin; ++j) s.expr += (j ? ", x" : "x") + std::to_string(j);
  s.expr += ")";
  s.layout = layout;
  return s;
}

KernelSpec cast_spec(DType from, DType to, Layout layout) {
  KernelSpec s;
  s.nin = 1;
  s.in[0] = from;
  s.out = to;
  s.name = "kiln_cast_" + std::string(name(from)) + "_" + std::string(name(to)) + "_" + layout_suffix(layout);
  s.expr = std::string("convert<") + device_type(to) + ">(x0)";
  s.layout = layout;
  return s;
}

KernelSpec fill_spec(DType dt, Layout layout) {
  KernelSpec s;
  s.out = dt;
  s.name = "kiln_fill_" + std::string(name(dt)) + "_" + layout_suffix(layout);
  s.expr = std::string("*(const ") + device_type(dt) + "*)p.value";
  s.layout = layout;
  return s;
}

KernelSpec iota_spec(DType dt) {
  KernelSpec s;
  s.out = dt;
  s.name = "kiln_iota_" + std::string(name(dt));
  std::string t = device_type(dt);
  std::string start = "*(const " + t + "*)p.value",
              step = "*(const " + t + "*)(p.value + " + std::to_string(kValueSlotBytes) + ")";
  // Integers step exactly in 64 bits; floats compute start + i * step as NumPy does.
  if (is_integer(dt) || dt == DType::Bool)
    s.expr = "(" + t + ")((long long)(" + start + ") + (long long)i * (long long)(" + step + "))";
  else if (dt == DType::Float16)
    s.expr = "to_half(to_float(" + start + ") + (float)i * to_float(" + step + "))";
  else
    s.expr = "(" + t + ")(" + start + " + (" + t + ")i * " + step + ")";
  s.layout = Layout::Contiguous64;
  return s;
}

}  // namespace kiln::cuda

namespace kiln::cuda {

std::string reduce_source(const char* op, DType dt, const std::string& name) {
  const std::string t = device_type(dt);
  return "#include \"kiln/device/reduce_kernels.cuh\"\n"
         "using namespace kiln::dev;\n"
         "typedef red_" + std::string(op) + "<" + t + "> kiln_reduction;\n"
         "KILN_REDUCE_KERNELS(" + name + ", kiln_reduction, (kiln_reduce_params p), kiln_memory_input<" + t + ">{p.in})\n";
}

// Tiles of up to 16 KiB, at most 16 items a thread: CUB tunes its own scans to about
// as many items, enough work per tile that look-back waits stay short.
int scan_tile_items(DType dt) { return std::clamp(64 / static_cast<int>(itemsize(dt)), 1, 16); }

std::string scan_source(bool multiply, DType dt, const std::string& name) {
  const std::string t = device_type(dt), dims = std::to_string(kMaxKernelDims);
  const std::string f = multiply ? "op_multiply" : "op_add";
  return "#include <cub/block/block_exchange.cuh>\n"
         "#include <cub/block/block_scan.cuh>\n"
         "#include <cub/agent/single_pass_scan_operators.cuh>\n"
         "#include \"kiln/device/ops.cuh\"\n"
         "using namespace kiln::dev;\n"
         "struct kiln_scan_params {\n"
         "  const char* in; char* out;\n"
         "  long long outer_shape[" + dims + "], in_outer[" + dims + "], out_outer[" + dims + "];\n"
         "  long long length, in_axis, out_axis, outer_size;\n"
         "  int outer_ndim;\n"
         "};\n"
         "typedef " + t + " T;\n"
         "struct ScanOp { __device__ T operator()(const T& a, const T& b) const { return " + f + "::call(a, b); } };\n"
         "__device__ T identity() { return convert<T>(" + (multiply ? "1" : "0") + "); }\n"
         "constexpr int kThreads = " + std::to_string(kScanThreads) + ", kItems = " +
         std::to_string(scan_tile_items(dt)) + ", kTile = kThreads * kItems;\n"
         "typedef cub::BlockExchange<T, kThreads, kItems> Exchange;\n"
         "typedef cub::BlockScan<T, kThreads, cub::BLOCK_SCAN_WARP_SCANS> Scan;\n"
         "typedef cub::ScanTileState<T> TileState;\n"
         "typedef cub::TilePrefixCallbackOp<T, ScanOp, TileState> Prefix;\n"
         "__device__ void line_offsets(const kiln_scan_params& p, long long line, long long* in_off, long long* out_off) {\n"
         "  *in_off = 0; *out_off = 0;\n"
         "  for (int d = p.outer_ndim - 1; d >= 0; --d) {\n"
         "    long long c = line % p.outer_shape[d]; line /= p.outer_shape[d];\n"
         "    *in_off += c * p.in_outer[d]; *out_off += c * p.out_outer[d];\n"
         "  }\n"
         "}\n"
         "__device__ TileState tile_state(void* storage, unsigned long long bytes, int tiles) {\n"
         "  TileState s;\n"
         "  s.Init(tiles, storage, bytes);\n"
         "  return s;\n"
         "}\n"
         // The host sizes the tile state from a bound; a wrong bound stops here
         // with an error instead of writing past the buffer.
         "extern \"C\" __global__ void " + name + "_init(void* storage, unsigned long long bytes, int tiles) {\n"
         "  size_t need = 0;\n"
         "  TileState::AllocationSize(tiles, need);\n"
         "  if (need > bytes) __trap();\n"
         "  tile_state(storage, bytes, tiles).InitializeStatus(tiles);\n"
         "}\n"
         // One tile of kTile elements of one line per block, in a single pass:
         // a tile's prefix comes from the tiles before it in its line through
         // decoupled look-back (Merrill & Garland 2016), with CUB's block scan
         // and tile-status machinery. The first tile of each line starts afresh.
         "extern \"C\" __global__ void " + name + "_tiles(kiln_scan_params p, void* storage, unsigned long long bytes,\n"
         "                                              int tiles, long long tiles_per_line) {\n"
         "  __shared__ union {\n"
         "    typename Exchange::TempStorage exchange;\n"
         "    struct { typename Scan::TempStorage scan; typename Prefix::TempStorage prefix; } scan;\n"
         "  } tmp;\n"
         "  const int tile = blockIdx.x;\n"
         "  const long long line = tile / tiles_per_line, t = tile % tiles_per_line;\n"
         "  long long in_off, out_off;\n"
         "  line_offsets(p, line, &in_off, &out_off);\n"
         // Warp-striped: each warp reads kItems runs of 32 neighbours.
         "  const long long first = t * kTile + (threadIdx.x / 32) * 32 * kItems + threadIdx.x % 32;\n"
         "  T items[kItems];\n"
         "#pragma unroll\n"
         "  for (int k = 0; k < kItems; ++k) {\n"
         "    long long i = first + k * 32;\n"
         "    items[k] = i < p.length ? *(const T*)(p.in + in_off + i * p.in_axis) : identity();\n"
         "  }\n"
         "  Exchange(tmp.exchange).WarpStripedToBlocked(items);\n"
         "  __syncthreads();\n"
         "  TileState state = tile_state(storage, bytes, tiles);\n"
         "  if (t == 0) {\n"
         "    T total;\n"
         "    Scan(tmp.scan.scan).InclusiveScan(items, items, ScanOp(), total);\n"
         // Every first tile publishes its total, so that a look-back window
         // reaching back into an earlier line never waits on it.
         "    if (threadIdx.x == 0) state.SetInclusive(tile, total);\n"
         "  } else {\n"
         "    Prefix prefix(state, tmp.scan.prefix, ScanOp(), tile);\n"
         "    Scan(tmp.scan.scan).InclusiveScan(items, items, ScanOp(), prefix);\n"
         "  }\n"
         "  __syncthreads();\n"
         "  Exchange(tmp.exchange).BlockedToWarpStriped(items);\n"
         "#pragma unroll\n"
         "  for (int k = 0; k < kItems; ++k) {\n"
         "    long long i = first + k * 32;\n"
         "    if (i < p.length) *(T*)(p.out + out_off + i * p.out_axis) = items[k];\n"
         "  }\n"
         "}\n"
         // Lines whose elements lie further apart than the lines themselves
         // (scans over a leading axis), or short lines: a thread per line, so
         // that neighbouring threads read neighbouring elements.
         "extern \"C\" __global__ void " + name + "_columns(kiln_scan_params p) {\n"
         "  for (long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x; line < p.outer_size;\n"
         "       line += (long long)gridDim.x * blockDim.x) {\n"
         "    long long in_off, out_off;\n"
         "    line_offsets(p, line, &in_off, &out_off);\n"
         "    T acc = identity();\n"
         "    for (long long i = 0; i < p.length; ++i) {\n"
         "      acc = ScanOp()(acc, *(const T*)(p.in + in_off + i * p.in_axis));\n"
         "      *(T*)(p.out + out_off + i * p.out_axis) = acc;\n"
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace kiln::cuda
