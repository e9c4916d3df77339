// Generated kernels of fused graphs. A graph is flattened into steps over
// its distinct input arrays (broadcast to the result's shape, dimensions
// coalesced) and scalars; the steps, dtypes and layout class make the key
// (integers only: a hit builds no strings). The source is written once per
// key and compiled by the device's backend through kiln::RawKernel, on a
// worker thread unless the settings say to wait.
#include "fused_kernel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include <pthread.h>

#include "kiln/error.hpp"
#include "kiln/raw_kernel.hpp"
#include "kiln/registry.hpp"

namespace kiln::fusion {
namespace {

constexpr int kMaxScalars = 16;
constexpr int kSlotBytes = 16;  // one scalar of any dtype (complex128 is 16)
constexpr int64_t kStridedBlocks = 4096;  // GPU blocks of a strided fused kernel: about 4 waves on an H100

// A value the steps use: an input array, a scalar, or an earlier step.
enum class RefKind : int { Leaf = 0, Scalar = 1, Step = 2 };
struct Ref {
  RefKind kind;
  int index;
};

struct Flat {
  struct Leaf {
    Array array;
    Strides strides;  // broadcast to the result's shape, then coalesced
  };
  std::vector<Leaf> leaves;
  std::vector<const Node*> scalars;
  struct Step {
    const Node* node;
    Ref in[3];
  };
  std::vector<Step> steps;
  DType out_dtype = DType::Float64;
  Shape shape;          // coalesced
  Strides out_strides;  // coalesced
  bool contiguous = false;
  bool contract_fma = true;
  bool too_big = false;
  std::vector<int64_t> key;
};

bool same_leaf(const Flat::Leaf& l, const Array& a, const Strides& strides) {
  return l.array.buffer() == a.buffer() && l.array.offset() == a.offset() && l.array.dtype() == a.dtype() &&
         l.strides == strides;
}

Ref visit(const Node* n, const Shape& shape, Flat& f, std::unordered_map<const Node*, Ref>& seen) {
  auto it = seen.find(n);
  if (it != seen.end()) return it->second;
  Ref r{};
  switch (n->kind) {
    case Node::Kind::Leaf: {
      Strides s = broadcast_strides(n->leaf.shape(), n->leaf.strides(), shape);
      int k = 0;
      while (k < static_cast<int>(f.leaves.size()) && !same_leaf(f.leaves[k], n->leaf, s)) ++k;
      if (k == static_cast<int>(f.leaves.size())) f.leaves.push_back({n->leaf, std::move(s)});
      r = {RefKind::Leaf, k};
      break;
    }
    case Node::Kind::Scalar:
      f.scalars.push_back(n);
      r = {RefKind::Scalar, static_cast<int>(f.scalars.size()) - 1};
      break;
    case Node::Kind::Op: {
      Flat::Step step{n, {}};
      for (size_t j = 0; j < n->inputs.size(); ++j) step.in[j] = visit(n->inputs[j].get(), shape, f, seen);
      f.steps.push_back(step);
      r = {RefKind::Step, static_cast<int>(f.steps.size()) - 1};
      break;
    }
  }
  seen.emplace(n, r);
  return r;
}

// `out_strides`: the output's layout (a fresh result is C-contiguous).
Flat flatten(const Node& root, Device device, bool contract_fma, const Strides& out_strides) {
  Flat f;
  f.contract_fma = contract_fma;
  std::unordered_map<const Node*, Ref> seen;
  visit(&root, root.shape, f, seen);
  f.out_dtype = root.dtype;
  f.too_big = f.leaves.size() > static_cast<size_t>(kMaxFusedInputs) || f.scalars.size() > kMaxScalars;
  if (f.too_big) return f;

  f.shape = root.shape;
  f.out_strides = out_strides;
  std::vector<Strides*> all;
  for (auto& l : f.leaves) all.push_back(&l.strides);
  all.push_back(&f.out_strides);
  coalesce_dims(f.shape, all.data(), static_cast<int>(all.size()));
  if (f.shape.empty()) {
    // A one-element result: a one-dimensional loop of one.
    f.shape.push_back(1);
    for (Strides* s : all) s->push_back(0);
  }
  f.contiguous = f.shape.size() == 1 && f.out_strides[0] == static_cast<int64_t>(itemsize(root.dtype));
  for (auto& l : f.leaves)
    if (l.strides[0] != 0 && l.strides[0] != l.array.itemsize()) f.contiguous = false;

  auto& k = f.key;
  k.reserve(8 + 2 * f.leaves.size() + f.scalars.size() + 6 * f.steps.size());
  k.push_back(static_cast<int64_t>(device.kind));
  k.push_back(device.index);
  k.push_back(contract_fma);
  k.push_back(f.contiguous ? 0 : static_cast<int64_t>(f.shape.size()));
  k.push_back(static_cast<int64_t>(f.leaves.size()));
  for (auto& l : f.leaves) k.push_back(static_cast<int64_t>(l.array.dtype()) * 2 + (f.contiguous && l.strides[0] == 0));
  k.push_back(static_cast<int64_t>(f.scalars.size()));
  for (const Node* s : f.scalars) k.push_back(static_cast<int64_t>(s->dtype));
  for (auto& s : f.steps) {
    const int64_t op = s.node->cast ? kNumOps : static_cast<int64_t>(s.node->op);  // a cast: past every op
    k.push_back(op << 16 | static_cast<int64_t>(s.node->loop) << 8 | static_cast<int64_t>(s.node->dtype));
    for (size_t j = 0; j < s.node->inputs.size(); ++j)
      k.push_back(static_cast<int64_t>(s.in[j].kind) << 32 | s.in[j].index);
  }
  return f;
}

std::string ref_name(const Ref& r) {
  switch (r.kind) {
    case RefKind::Leaf: return "l" + std::to_string(r.index);
    case RefKind::Scalar: return "s" + std::to_string(r.index);
    case RefKind::Step: return "v" + std::to_string(r.index);
  }
  return "";
}

// Consecutive elements a GPU thread computes over dense operands: enough for
// 16-byte loads and stores of the widest of them, at most 4. (H200, 64M
// float32 sin(a)*2 + sqrt(abs(a)): a float4 per thread 149 us, four floats
// a grid stride apart 158 us, eight floats 181 us; a float4 copy 133 us.)
int vector_width(const Flat& f) {
  size_t widest = itemsize(f.out_dtype);
  for (const auto& l : f.leaves)
    if (l.strides[0] != 0) widest = std::max(widest, itemsize(l.array.dtype()));
  return static_cast<int>(std::clamp<size_t>(16 / widest, 1, 4));
}
// The most ops a graph a GPU reduction computes as it reads may have (a
// 64-op graph's module took tens of seconds to build).
constexpr int kMaxReducedOps = 16;

// Leaf k's element i, read through the parameter block `p` (the strided
// layout's offsets in `off`).
std::string leaf_read(const Flat& f, int k, const std::string& i) {
  const std::string t = detail::device_type(f.leaves[k].array.dtype()), K = std::to_string(k);
  if (!f.contiguous) return "*(const " + t + "*)(p.data[" + K + "] + off[" + K + "])";
  return "((const " + t + "*)p.data[" + K + "])[" + (f.leaves[k].strides[0] != 0 ? i : "0") + "]";
}
std::string scalar_read(const Flat& f, int j) {
  return "p.scalar<" + std::string(detail::device_type(f.scalars[j]->dtype)) + ">(" + std::to_string(j) + ")";
}
// The scalars as locals s0, s1, ... of a loop's function, read from `p`.
std::string scalar_locals(const Flat& f) {
  std::string s;
  for (size_t j = 0; j < f.scalars.size(); ++j)
    s += "  const " + std::string(detail::device_type(f.scalars[j]->dtype)) + " s" + std::to_string(j) + " = " +
         scalar_read(f, static_cast<int>(j)) + ";\n";
  return s;
}

// kiln_fused_value(...) with leaf k's value spelled `leaf(k)`, scalar j's
// `scalar(j)` and the zero `zero`.
template <class Leaf, class ScalarValue>
std::string value_call(const Flat& f, Leaf leaf, ScalarValue scalar, const std::string& zero) {
  std::string c = "kiln_fused_value(";
  for (size_t k = 0; k < f.leaves.size(); ++k) c += leaf(static_cast<int>(k)) + ", ";
  for (size_t j = 0; j < f.scalars.size(); ++j) c += scalar(static_cast<int>(j)) + ", ";
  return c + zero + ")";
}

// Built with std::string, not a stream: a wheel's statically linked C++
// library may share the process with another whose locale its number
// formatting trips over.
//
// The steps become one helper, kiln_fused_value(leaf values, scalars), and
// kiln_fused_element(p, i) gives element i of the result from the
// parameter block. The elementwise kernel's loops only load and store: over
// dense operands each GPU thread loads vector_width consecutive elements of
// every input in one load where aligned, computes them and stores them in
// one store, striding over the grid; the CPU's run an
// OpenMP simd loop; other layouts find each operand's offset per element.
std::string helpers_of(const Flat& f) {
  using detail::device_type;
  using std::to_string;
  const int nl = static_cast<int>(f.leaves.size()), nops = nl + 1;
  const int nd = f.contiguous ? 1 : static_cast<int>(f.shape.size());
  const int slots = std::max<int>(1, static_cast<int>(f.scalars.size()));
  const std::string out_t = device_type(f.out_dtype);
  auto leaf_t = [&](int k) { return std::string(device_type(f.leaves[k].array.dtype())); };

  std::string s = "#include <kiln/device/fused.cuh>\nusing namespace kiln::dev;\n";
  s += "typedef kiln_fused_args<" + to_string(nops) + ", " + to_string(nd) + ", " + to_string(slots) +
       "> kiln_fused_params;\n";
  s += "KILN_GENERATED_HELPER " + out_t + " kiln_fused_value(";
  for (int k = 0; k < nl; ++k) s += "const " + leaf_t(k) + " l" + to_string(k) + ", ";
  for (size_t j = 0; j < f.scalars.size(); ++j)
    s += "const " + std::string(device_type(f.scalars[j]->dtype)) + " s" + to_string(j) + ", ";
  s += "const long long zero) {\n";
  for (size_t j = 0; j < f.steps.size(); ++j) {
    const Node& n = *f.steps[j].node;
    if (n.cast) {
      s += "  const auto v" + to_string(j) + " = convert<" + device_type(n.dtype) + ">(" + ref_name(f.steps[j].in[0]) + ");\n";
      continue;
    }
    s += "  const auto v" + to_string(j) + " = " + (f.contract_fma ? "(" : "kiln_rounded(") + "op_" +
         op_name(n.op) + "::call(";
    for (size_t a = 0; a < n.inputs.size(); ++a) {
      const DType want = (n.op == OpId::where && a == 0) ? DType::Bool : n.loop;
      s += std::string(a ? ", " : "") + "convert<" + device_type(want) + ">(" + ref_name(f.steps[j].in[a]) + ")";
    }
    s += std::string(")") + (f.contract_fma ? ")" : ", zero)") + ";\n";
  }
  s += "  return convert<" + out_t + ">(v" + to_string(f.steps.size() - 1) + ");\n}\n";

  s += "KILN_GENERATED_HELPER " + out_t + " kiln_fused_element(const kiln_fused_params& p, long long i) {\n";
  if (!f.contiguous) s += "  long long off[" + to_string(nops) + "];\n  p.index.offsets(i, off);\n";
  s += "  return " + value_call(f, [&](int k) { return leaf_read(f, k, "i"); }, [&](int j) { return scalar_read(f, j); },
                              "p.zero") + ";\n}\n";

  // Elements [i, i + V) (a GPU reduction's vector read): over contiguous
  // operands each input's V values in one load where aligned.
  s += "template <int V> KILN_GENERATED_HELPER void kiln_fused_vector(const kiln_fused_params& p, long long i, " + out_t +
       " (&v)[V]) {\n";
  if (!f.contiguous) {
    s += "#pragma unroll\n  for (int e = 0; e < V; ++e) v[e] = kiln_fused_element(p, i + e);\n}\n";
    return s;
  }
  for (int k = 0; k < nl; ++k) {
    const std::string K = to_string(k), t = leaf_t(k);
    if (f.leaves[k].strides[0] != 0)
      s += "  " + t + " a" + K + "[V];\n  kiln_load_vector((const " + t + "*)p.data[" + K + "] + i, a" + K + ");\n";
    else
      s += "  const " + t + " b" + K + " = ((const " + t + "*)p.data[" + K + "])[0];\n";
  }
  s += "#pragma unroll\n  for (int e = 0; e < V; ++e) v[e] = " +
       value_call(f, [&](int k) { return (f.leaves[k].strides[0] != 0 ? "a" : "b") + to_string(k) + (f.leaves[k].strides[0] != 0 ? "[e]" : ""); },
                  [&](int j) { return scalar_read(f, j); }, "p.zero") +
       ";\n}\n";
  return s;
}

// On the CPU, elements [first, end) over strided operands a tile at a time
// (KILN_FUSED_TILE): each leaf's elements gathered into a contiguous tile,
// the value computed over the tiles by one simd loop, which calls the math
// functions' vector forms (kiln/device/libmvec.hpp), and the results
// written to `dst` (consecutive) or, with none, each to its place in the
// output. An element's scalar call cost a strided 16M-element expression
// 70 ms where the contiguous one took 8 (2-core machine).
std::string strided_tiles(const Flat& f) {
  using detail::device_type;
  using std::to_string;
  const int nl = static_cast<int>(f.leaves.size());
  const std::string out_t = device_type(f.out_dtype), NL = to_string(nl);
  std::string s = "#ifndef __CUDA_ARCH__\n"
                  "static void kiln_fused_tiles(const kiln_fused_params& p, long long first, long long end, " +
                  out_t + "* dst) {\n  const long long zero = p.zero;\n" + scalar_locals(f);
  s += "  kiln_strided_walk<" + to_string(f.shape.size()) + ", " + to_string(nl + 1) + "> w(p.index, first);\n"
       "  for (long long t = first; t < end; t += KILN_FUSED_TILE) {\n"
       "    const int m = end - t < KILN_FUSED_TILE ? (int)(end - t) : KILN_FUSED_TILE;\n";
  for (int k = 0; k < nl; ++k)
    s += "    " + std::string(device_type(f.leaves[k].array.dtype())) + " g" + to_string(k) + "[KILN_FUSED_TILE];\n";
  s += "    char* at[KILN_FUSED_TILE];\n    " + out_t + " r[KILN_FUSED_TILE];\n"
       "    for (int e = 0; e < m; ++e, w.next()) {\n";
  for (int k = 0; k < nl; ++k) {
    const std::string K = to_string(k);
    s += "      g" + K + "[e] = *(const " + device_type(f.leaves[k].array.dtype()) + "*)(p.data[" + K + "] + w.off[" + K +
         "]);\n";
  }
  s += "      at[e] = p.data[" + NL + "] + w.off[" + NL + "];\n    }\n"
       "    " + out_t + "* __restrict__ out = dst ? dst + (t - first) : r;\n"
       "    _Pragma(\"omp simd\") for (int e = 0; e < m; ++e) out[e] = " +
       value_call(f, [](int k) { return "g" + to_string(k) + "[e]"; }, [](int j) { return "s" + to_string(j); }, "zero") +
       ";\n    if (!dst)\n      for (int e = 0; e < m; ++e) *(" + out_t + "*)at[e] = r[e];\n  }\n}\n#endif\n";
  return s;
}

std::string elementwise_source(const Flat& f) {
  using detail::device_type;
  using std::to_string;
  const int nl = static_cast<int>(f.leaves.size());
  const std::string out_t = device_type(f.out_dtype), out_decl = "  " + out_t + "* __restrict__ out = (" + out_t + "*)";
  auto leaf_t = [&](int k) { return std::string(device_type(f.leaves[k].array.dtype())); };
  auto dense = [&](int k) { return f.leaves[k].strides[0] != 0; };
  // Element i of the value over strided operands (their offsets found first).
  const std::string strided_value =
      value_call(f, [&](int k) { return leaf_read(f, k, "i"); }, [&](int j) { return scalar_read(f, j); }, "zero");
  const std::string offsets = "long long off[" + to_string(nl + 1) + "];\n    p.index.offsets(i, off);\n";

  // Contiguous operands: the inputs, a broadcast input's one value and the
  // scalars as locals of the loop's function, read from `p`.
  std::string locals;
  for (int k = 0; k < nl; ++k) {
    const std::string K = to_string(k);
    locals += "  const " + leaf_t(k) + "* __restrict__ in" + K + " = (const " + leaf_t(k) + "*)p.data[" + K + "];\n";
    if (!dense(k)) locals += "  const " + leaf_t(k) + " b" + K + " = in" + K + "[0];\n";
  }
  locals += scalar_locals(f);
  // The call with each leaf's value spelled by `value(k)`.
  auto call = [&](auto value) { return value_call(f, value, [](int j) { return "s" + to_string(j); }, "zero"); };
  auto at = [&](const std::string& index) {
    return [&, index](int k) { return dense(k) ? "in" + to_string(k) + "[" + index + "]" : "b" + to_string(k); };
  };

  std::string s = helpers_of(f);
  if (!f.contiguous) s += strided_tiles(f);
  s += "KILN_GENERATED_KERNEL kiln_fused(const kiln_fused_params p) {\n"
       "  const long long n = p.index.size(), zero = p.zero;\n";
  if (!f.contiguous) {
    s += "#ifdef __CUDA_ARCH__\n  KILN_FUSED_LOOP(i, n) {\n    " + offsets + "    *(" + out_t + "*)(p.data[" +
         to_string(nl) + "] + off[" + to_string(nl) + "]) = " + strided_value + ";\n  }\n#else\n" +
         "  KILN_FUSED_BLOCK_RUN(begin, end, n);\n  if (begin < end) kiln_fused_tiles(p, begin, end, nullptr);\n#endif\n}\n";
  } else {
    s += locals + out_decl + "p.data[" + to_string(nl) + "];\n";
    const std::string V = to_string(vector_width(f));
    s += "#ifdef __CUDA_ARCH__\n"
         "  const long long stride = (long long)blockDim.x * gridDim.x * " + V + ";\n"
         "  long long i0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * " + V + ";\n"
         "  for (; i0 + " + V + " <= n; i0 += stride) {\n";
    for (int k = 0; k < nl; ++k) {
      if (!dense(k)) continue;
      const std::string K = to_string(k);
      s += "    " + leaf_t(k) + " u" + K + "[" + V + "];\n    kiln_load_vector(in" + K + " + i0, u" + K + ");\n";
    }
    s += "    " + out_t + " r[" + V + "];\n#pragma unroll\n    for (int e = 0; e < " + V + "; ++e) r[e] = " +
         call([&](int k) { return dense(k) ? "u" + to_string(k) + "[e]" : "b" + to_string(k); }) + ";\n"
         "    kiln_store_vector(out + i0, r);\n"
         "  }\n  for (long long i = i0; i < n; ++i) out[i] = " + call(at("i")) + ";  // the one part-filled vector\n";
    s += "#else\n  KILN_FUSED_LOOP(i, n) out[i] = " + call(at("i")) + ";\n#endif\n}\n";
  }

  // A CPU reduction's tile (ComputedInput::fill): elements [first, first +
  // count) into dst on the calling thread, called straight through
  // kiln_fused_fill_entry (a launch costs more than a tile's work).
  s += "#ifndef __CUDA_ARCH__\n"
       "static void kiln_fused_fill(const void* params, long long first, long long count, void* dst) {\n"
       "  const kiln_fused_params p = *(const kiln_fused_params*)params;\n"
       "  const long long n = first + count, zero = p.zero;\n" +
       out_decl + "dst;\n";
  if (!f.contiguous)
    s += "  kiln_fused_tiles(p, first, n, out);\n";
  else
    s += locals + "  _Pragma(\"omp simd\") for (long long i = first; i < n; ++i) out[i - first] = " + call(at("i")) + ";\n";
  s += "}\nextern \"C\" void (*const kiln_fused_fill_entry)(const void*, long long, long long, void*) = &kiln_fused_fill;\n"
       "#endif\n";
  return s;
}

const char* reduction_name(int reduction) {
  return reduction == kWideningSum ? "widening_sum" : reduce_name(static_cast<ReduceOp>(reduction));
}

// A GPU reduction `reduction` (a red_<name> of kiln/device/reduce.cuh) of
// the graph's value: the six kernels of kiln/device/reduce_kernels.cuh with
// an input that computes each element where it is read.
std::string reduction_source(const Flat& f, const char* reduction) {
  const std::string out_t = detail::device_type(f.out_dtype);
  return helpers_of(f) +
         "#include <kiln/device/reduce_kernels.cuh>\n"
         "typedef kiln_fused_input<" + out_t + ", kiln_fused_params> kiln_input;\n"
         "typedef red_" + std::string(reduction) + "<" + out_t + "> kiln_reduction;\n"
         "KILN_REDUCE_KERNELS(kiln_fused_reduce, kiln_reduction, (kiln_reduce_params p, const kiln_fused_params f),\n"
         "                    kiln_input{f})\n";
}

// ---- compiled kernels, by key -------------------------------------------------

struct KeyHash {
  size_t operator()(const std::vector<int64_t>& k) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t w : k) h = (h ^ static_cast<uint64_t>(w)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

// A generated module: the elementwise kernel, or a GPU reduction's six.
struct Entry {
  enum State : int { Compiling, Ready, Failed };
  std::atomic<int> state{Compiling};
  // Held while building: the worker and a caller that waits for the same
  // entry (wait_for_compile) build it once between them.
  std::mutex building;
  std::vector<RawKernel> kernels;
  std::vector<uintptr_t> handles;  // theirs on `device`, once Ready
  // The CPU's elementwise module: its kiln_fused_fill, once Ready.
  void (*fill)(const void* params, long long first, long long count, void* dst) = nullptr;
  Device device;
};

std::atomic<uint64_t> compiled_count{0}, failed_count{0};
std::mutex failure_mutex;
std::string last_failure_text;

void compile(Entry& e) {
  std::lock_guard<std::mutex> lock(e.building);
  if (e.state != Entry::Compiling) return;
  try {
    std::vector<uintptr_t> handles;
    for (const RawKernel& k : e.kernels) handles.push_back(k.handle(e.device));
    e.handles = std::move(handles);
    if (e.device.kind == DeviceKind::CPU && e.kernels.size() == 1)
      std::memcpy(&e.fill, e.kernels[0].module().global(e.device, "kiln_fused_fill_entry").first, sizeof e.fill);
    ++compiled_count;
    e.state = Entry::Ready;
  } catch (const std::exception& ex) {
    // A generated kernel that does not build is kiln's bug; the graph still
    // runs (op by op) and stats()/last_failure() tell.
    ++failed_count;
    std::lock_guard<std::mutex> lock(failure_mutex);
    last_failure_text = ex.what();
    e.state = Entry::Failed;
  }
}

// Compiles queued kernels one at a time off the caller's thread. A fork
// waits until no compile is in flight (a compile holds the compilers'
// locks, which a child could then never take) and the child forgets the
// parent's thread and its waits: it starts its own when it next queues work.
class Worker {
 public:
  Worker() { pthread_atfork(&before_fork, &after_fork_in_parent, &after_fork_in_child); }
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      queue_.clear();
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void push(std::shared_ptr<Entry> e) {
    std::lock_guard<std::mutex> lock(mutex_);
    // A graph's elementwise kernel (tens of ms to build) goes before the
    // GPU reductions' six-kernel modules (about 2 s each): until it is
    // built its graph runs op by op, while a reduction waiting for its
    // module only stores its input first.
    auto at = queue_.end();
    if (e->kernels.size() == 1)
      at = std::find_if(queue_.begin(), queue_.end(), [](const auto& q) { return q->kernels.size() > 1; });
    queue_.insert(at, std::move(e));
    start();
    wake_.notify_one();
  }
  // Waits for the queued elementwise kernels; returns the GPU reduction
  // modules it took off the queue instead (seconds each to build).
  std::vector<std::shared_ptr<Entry>> finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    std::vector<std::shared_ptr<Entry>> dropped;
    for (auto it = queue_.begin(); it != queue_.end();) {
      if ((*it)->kernels.size() > 1) {
        dropped.push_back(std::move(*it));
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
    if (queue_.empty() && !busy_) return dropped;
    start();  // a forked child's queue may wait for a thread
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
    return dropped;
  }
  static Worker& instance();

 private:
  static void before_fork() {
    Worker& w = instance();
    std::unique_lock<std::mutex> lock(w.mutex_);
    w.idle_.wait(lock, [&] { return !w.busy_; });
    lock.release();  // held across the fork, released on both sides
  }
  static void after_fork_in_parent() { instance().mutex_.unlock(); }
  static void after_fork_in_child() {
    Worker& w = instance();
    new (&w.thread_) std::thread();  // the parent's thread is not in this process: forget, never join
    // The condition variables still count the parent's thread as a waiter,
    // which would make the child's first notify wait for it forever: fresh
    // ones (no thread of the child uses them yet).
    new (&w.wake_) std::condition_variable();
    new (&w.idle_) std::condition_variable();
    w.mutex_.unlock();
  }
  // Starts the thread unless it runs (called with mutex_ held).
  void start() {
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  }
  void loop() {
    for (;;) {
      std::shared_ptr<Entry> e;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        e = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      compile(*e);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        busy_ = false;
      }
      idle_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::shared_ptr<Entry>> queue_;
  bool stop_ = false, busy_ = false;
  std::thread thread_;
};

Worker& Worker::instance() {
  static Worker w;
  return w;
}

std::mutex cache_mutex;
std::unordered_map<std::vector<int64_t>, std::shared_ptr<Entry>, KeyHash>& cache() {
  static std::unordered_map<std::vector<int64_t>, std::shared_ptr<Entry>, KeyHash> c;
  return c;
}

void describe_into(const Node& n, std::string& s) {
  switch (n.kind) {
    case Node::Kind::Leaf:
      s += std::string(name(n.dtype)) + shape_str(n.shape);
      return;
    case Node::Kind::Scalar:
      s += "scalar:" + std::string(name(n.dtype));
      return;
    case Node::Kind::Op:
      s += n.cast ? "astype<" + std::string(name(n.dtype)) + ">(" : std::string(op_name(n.op)) + "(";
      for (size_t j = 0; j < n.inputs.size(); ++j) {
        if (j) s += ", ";
        describe_into(*n.inputs[j], s);
      }
      s += ")";
      return;
  }
}

// The generated module for `key` on `device` (its source written by
// `source` on first sight), ready to launch, or null when it is not (a
// worker is compiling it, or it could not be built).
template <class Source>
Entry* ready_entry(const std::vector<int64_t>& key, Device device, Source source) {
  const bool wait = settings().wait_for_compile;
  std::shared_ptr<Entry> entry;
  bool created = false;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto& slot = cache()[key];
    if (!slot) {
      slot = std::make_shared<Entry>();
      slot->device = device;
      slot->kernels = source();
      created = true;
    }
    entry = slot;
  }
  if (entry->state == Entry::Compiling) {
    if (wait) compile(*entry);
    else if (created) Worker::instance().push(entry);
  }
  // A Ready entry lives as long as the cache, which drops only modules
  // never built (finish_compiles).
  return entry->state == Entry::Ready ? entry.get() : nullptr;
}

// A graph's parameter block (its elementwise kernel's, its reductions'
// input's), laid out as kiln_fused_args<NOPS, ND, NSLOTS>: data, zero,
// size, shape, strides, scalars; `out` is the output's data.
std::vector<int64_t> parameter_block(const Flat& f, char* out, int64_t size) {
  const int nl = static_cast<int>(f.leaves.size()), nops = nl + 1;
  const int nd = f.contiguous ? 1 : static_cast<int>(f.shape.size());
  const int slots = std::max<int>(1, static_cast<int>(f.scalars.size()));
  std::vector<int64_t> block(static_cast<size_t>(nops + 2 + nd + nops * nd + slots * kSlotBytes / 8), 0);
  int64_t* w = block.data();
  for (int k = 0; k < nl; ++k) {
    const Array& a = f.leaves[k].array;
    char* p = static_cast<char*>(a.buffer()->data_for_reading()) + a.offset();
    std::memcpy(w + k, &p, sizeof p);
  }
  std::memcpy(w + nl, &out, sizeof out);
  w += nops;
  *w++ = 0;  // zero
  *w++ = size;
  for (int d = 0; d < nd; ++d) *w++ = f.shape[d];
  for (int k = 0; k < nops; ++k)
    for (int d = 0; d < nd; ++d) *w++ = k < nl ? f.leaves[k].strides[d] : f.out_strides[d];
  unsigned char* scalars = reinterpret_cast<unsigned char*>(w);
  for (size_t j = 0; j < f.scalars.size(); ++j) f.scalars[j]->scalar.store(f.scalars[j]->dtype, scalars + j * kSlotBytes);
  return block;
}

// A reduction's computed input on the CPU: the elementwise module's tile
// function over the graph's parameter block.
struct TileFill {
  void (*fill)(const void* params, long long first, long long count, void* dst);
  const void* params;
  static void run(const void* context, int64_t first, int64_t n, void* dst) {
    const TileFill& t = *static_cast<const TileFill*>(context);
    t.fill(t.params, first, n, dst);
  }
};

Entry* elementwise_entry(const Flat& f, Device device) {
  return ready_entry(f.key, device, [&] { return std::vector<RawKernel>{RawKernel(elementwise_source(f), "kiln_fused")}; });
}

}  // namespace

void finish_compiles() {
  // A dropped module is built again when its reduction is next seen.
  std::vector<std::shared_ptr<Entry>> dropped = Worker::instance().finish();
  std::lock_guard<std::mutex> lock(cache_mutex);
  for (auto it = cache().begin(); it != cache().end();) {
    if (std::find(dropped.begin(), dropped.end(), it->second) != dropped.end()) it = cache().erase(it);
    else ++it;
  }
}

bool run_fused(const Node& root, const Array& out) {
  const Device device = out.device();
  Flat f = flatten(root, device, settings().contract_fma, out.strides());
  if (f.too_big) return false;
  const Entry* entry = elementwise_entry(f, device);
  if (!entry) return false;
  std::vector<int64_t> block = parameter_block(f, out.data(), out.size());

  const int64_t n = out.size();
  Dim3 grid, threads;
  if (device.kind == DeviceKind::CPU) {
    grid = Dim3(static_cast<unsigned>(std::min<int64_t>((n + 16383) / 16384, 256)));
  } else if (f.contiguous) {
    const int64_t per_block = 256 * vector_width(f);
    grid = Dim3(static_cast<unsigned>(std::min<int64_t>((n + per_block - 1) / per_block, int64_t{1} << 20)));
    threads = Dim3(256);
  } else {
    // Strided operands: a few waves of blocks striding over the elements. A
    // block an element-per-thread row took twice as long (H100, 8192^2
    // broadcast sum: 262,144 blocks 367 us, 2,112 striding blocks 185 us).
    grid = Dim3(static_cast<unsigned>(std::min<int64_t>((n + 255) / 256, kStridedBlocks)));
    threads = Dim3(256);
  }
  void* args[] = {block.data()};
  entry->kernels[0].launch(device, grid, threads, args);
  return true;
}

bool run_fused_reduce(const Node& root, Device device, int reduction, ReduceKernel kernel, ReduceArgs& args) {
  const ComputedInputForm form = kernel_table(device.kind).computed_reduce_input;
  if (form == ComputedInputForm::None) return false;
  Flat f = flatten(root, device, settings().contract_fma, contiguous_strides(root.shape, itemsize(root.dtype)));
  if (f.too_big) return false;
  std::vector<int64_t> block = parameter_block(f, nullptr, shape_size(root.shape));
  ComputedInput input;
  TileFill tiles{};
  if (form == ComputedInputForm::DeviceCode) {
    // The module evaluates the graph in each of its read paths, so its
    // build grows with the graph; a longer graph is stored and reduced.
    if (root.ops > kMaxReducedOps) return false;
    std::vector<int64_t> key = f.key;
    key.push_back(-1 - reduction);  // elementwise keys hold no negative word
    const Entry* e = ready_entry(key, device, [&] {
      RawModule module(reduction_source(f, reduction_name(reduction)));
      std::vector<RawKernel> kernels;
      for (const char* suffix : {"direct", "partial", "final", "columns", "columns_partial", "columns_final"})
        kernels.push_back(module.function(std::string("kiln_fused_reduce_") + suffix));
      return kernels;
    });
    if (!e) return false;
    input.kernels = e->handles.data();
    input.kernel_param = block.data();
  } else {
    const Entry* e = elementwise_entry(f, device);
    if (!e) return false;
    tiles = TileFill{e->fill, block.data()};
    input.fill = &TileFill::run;
    input.context = &tiles;
  }
  args.in = nullptr;
  args.computed = &input;
  kernel(args);
  args.computed = nullptr;
  return true;
}

std::string fused_source(const Node& root) {
  Flat f = flatten(root, Device::cpu(), settings().contract_fma,
                   contiguous_strides(root.shape, itemsize(root.dtype)));
  return f.too_big ? std::string() : elementwise_source(f);
}

std::string fused_reduction_source(const Node& root, int reduction) {
  Flat f = flatten(root, Device::cpu(), settings().contract_fma,
                   contiguous_strides(root.shape, itemsize(root.dtype)));
  return f.too_big ? std::string() : reduction_source(f, reduction_name(reduction));
}

std::string describe(const Node& root) {
  std::string s;
  describe_into(root, s);
  return s;
}

uint64_t kernels_compiled() { return compiled_count; }
uint64_t kernels_failed() { return failed_count; }

std::string last_failure() {
  std::lock_guard<std::mutex> lock(failure_mutex);
  return last_failure_text;
}

}  // namespace kiln::fusion
