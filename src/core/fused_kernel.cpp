// Generated kernels of fused graphs. A graph is flattened into steps over
// its distinct input arrays (broadcast to the result's shape, dimensions
// coalesced) and scalars; the steps, dtypes and layout class make the key
// (integers only: a hit builds no strings). The source is written once per
// key and compiled by the device's backend through kiln::RawKernel, on a
// worker thread unless the settings say to wait.
#include "fused_kernel.hpp"

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
    k.push_back(static_cast<int64_t>(s.node->op) << 16 | static_cast<int64_t>(s.node->loop) << 8 |
                static_cast<int64_t>(s.node->dtype));
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

constexpr int kUnroll = 4;  // elements a GPU thread loads at once over dense operands

// Built with std::string, not a stream: a wheel's statically linked C++
// library may share the process with another whose locale its number
// formatting trips over.
//
// The steps become one helper, kiln_fused_value(leaf values, scalars); the
// kernel's loops only load and store: over dense operands the GPU's threads
// load kUnroll elements of every input before computing any (as
// ElementwiseKernel's loop does), the CPU's run an OpenMP simd loop; other
// layouts find each operand's offset per element.
std::string source_of(const Flat& f) {
  using detail::device_type;
  using std::to_string;
  const int nl = static_cast<int>(f.leaves.size()), nops = nl + 1;
  const int nd = f.contiguous ? 1 : static_cast<int>(f.shape.size());
  const int slots = std::max<int>(1, static_cast<int>(f.scalars.size()));
  const std::string out_t = device_type(f.out_dtype);
  auto leaf_t = [&](int k) { return std::string(device_type(f.leaves[k].array.dtype())); };
  auto dense = [&](int k) { return f.leaves[k].strides[0] != 0; };

  std::string s = "#include <kiln/device/fused.cuh>\nusing namespace kiln::dev;\n";
  s += "KILN_GENERATED_HELPER " + out_t + " kiln_fused_value(";
  for (int k = 0; k < nl; ++k) s += "const " + leaf_t(k) + " l" + to_string(k) + ", ";
  for (size_t j = 0; j < f.scalars.size(); ++j)
    s += "const " + std::string(device_type(f.scalars[j]->dtype)) + " s" + to_string(j) + ", ";
  s += "const long long zero) {\n";
  for (size_t j = 0; j < f.steps.size(); ++j) {
    const Node& n = *f.steps[j].node;
    s += "  const auto v" + to_string(j) + " = " + (f.contract_fma ? "(" : "kiln_rounded(") + "op_" +
         op_name(n.op) + "::call(";
    for (size_t a = 0; a < n.inputs.size(); ++a) {
      const DType want = (n.op == OpId::where && a == 0) ? DType::Bool : n.loop;
      s += std::string(a ? ", " : "") + "convert<" + device_type(want) + ">(" + ref_name(f.steps[j].in[a]) + ")";
    }
    s += std::string(")") + (f.contract_fma ? ")" : ", zero)") + ";\n";
  }
  s += "  return convert<" + out_t + ">(v" + to_string(f.steps.size() - 1) + ");\n}\n";

  s += "KILN_GENERATED_KERNEL kiln_fused(const kiln_fused_args<" + to_string(nops) + ", " + to_string(nd) + ", " +
       to_string(slots) + "> p) {\n  const long long n = p.index.size(), zero = p.zero;\n";
  for (int k = 0; k < nl; ++k)
    s += "  const " + leaf_t(k) + "* __restrict__ in" + to_string(k) + " = (const " + leaf_t(k) + "*)p.data[" +
         to_string(k) + "];\n";
  s += "  " + out_t + "* __restrict__ out = (" + out_t + "*)p.data[" + to_string(nl) + "];\n";
  for (size_t j = 0; j < f.scalars.size(); ++j) {
    const std::string t = device_type(f.scalars[j]->dtype), J = to_string(j);
    s += "  const " + t + " s" + J + " = p.scalar<" + t + ">(" + J + ");\n";
  }
  // The call with each leaf's value spelled by `value(k)`.
  auto call = [&](auto value) {
    std::string c = "kiln_fused_value(";
    for (int k = 0; k < nl; ++k) c += value(k) + ", ";
    for (size_t j = 0; j < f.scalars.size(); ++j) c += "s" + to_string(j) + ", ";
    return c + "zero)";
  };
  if (f.contiguous) {
    for (int k = 0; k < nl; ++k)  // a broadcast input's one value
      if (!dense(k)) s += "  const " + leaf_t(k) + " b" + to_string(k) + " = in" + to_string(k) + "[0];\n";
    auto at = [&](const std::string& index) {
      return [&, index](int k) { return dense(k) ? "in" + to_string(k) + "[" + index + "]" : "b" + to_string(k); };
    };
    const std::string u = to_string(kUnroll);
    s += "#ifdef __CUDA_ARCH__\n"
         "  const long long stride = (long long)blockDim.x * gridDim.x;\n"
         "  long long i0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  for (; i0 + " + to_string(kUnroll - 1) + " * stride < n; i0 += " + u + " * stride) {\n";
    for (int k = 0; k < nl; ++k) {
      if (!dense(k)) continue;
      const std::string K = to_string(k);
      s += "    " + leaf_t(k) + " u" + K + "[" + u + "];\n";
      for (int e = 0; e < kUnroll; ++e)
        s += "    u" + K + "[" + to_string(e) + "] = in" + K + "[i0 + " + to_string(e) + " * stride];\n";
    }
    for (int e = 0; e < kUnroll; ++e) {
      const std::string E = to_string(e);
      s += "    out[i0 + " + E + " * stride] = " +
           call([&](int k) { return dense(k) ? "u" + to_string(k) + "[" + E + "]" : "b" + to_string(k); }) + ";\n";
    }
    s += "  }\n  for (long long i = i0; i < n; i += stride) out[i] = " + call(at("i")) + ";\n"
         "#else\n  KILN_FUSED_LOOP(i, n) out[i] = " + call(at("i")) + ";\n#endif\n";
  } else {
    s += "  KILN_FUSED_LOOP(i, n) {\n    long long off[" + to_string(nops) + "];\n    p.index.offsets(i, off);\n";
    s += "    *(" + out_t + "*)((char*)out + off[" + to_string(nl) + "]) = " + call([&](int k) {
      return "*(const " + leaf_t(k) + "*)((const char*)in" + to_string(k) + " + off[" + to_string(k) + "])";
    }) + ";\n  }\n";
  }
  s += "}\n";
  return s;
}

// ---- compiled kernels, by key -------------------------------------------------

struct KeyHash {
  size_t operator()(const std::vector<int64_t>& k) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t w : k) h = (h ^ static_cast<uint64_t>(w)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

struct Entry {
  enum State : int { Compiling, Ready, Failed };
  std::atomic<int> state{Compiling};
  std::optional<RawKernel> kernel;
  Device device;
};

std::atomic<uint64_t> compiled_count{0}, failed_count{0};
std::mutex failure_mutex;
std::string last_failure_text;

void compile(Entry& e) {
  try {
    e.kernel->handle(e.device);
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
    queue_.push_back(std::move(e));
    start();
    wake_.notify_one();
  }
  void finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (queue_.empty() && !busy_) return;
    start();  // a forked child's queue may wait for a thread
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
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
      s += std::string(op_name(n.op)) + "(";
      for (size_t j = 0; j < n.inputs.size(); ++j) {
        if (j) s += ", ";
        describe_into(*n.inputs[j], s);
      }
      s += ")";
      return;
  }
}

}  // namespace

void finish_compiles() { Worker::instance().finish(); }

bool run_fused(const Node& root, const Array& out) {
  const Settings settings_now = settings();
  const Device device = out.device();
  Flat f = flatten(root, device, settings_now.contract_fma, out.strides());
  if (f.too_big) return false;

  std::shared_ptr<Entry> entry;
  bool created = false;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto& slot = cache()[f.key];
    if (!slot) {
      slot = std::make_shared<Entry>();
      slot->device = device;
      slot->kernel.emplace(source_of(f), "kiln_fused");
      created = true;
    }
    entry = slot;
  }
  if (entry->state == Entry::Compiling) {
    if (settings_now.wait_for_compile) compile(*entry);  // the module serialises a racing worker
    else if (created) Worker::instance().push(entry);
  }
  if (entry->state != Entry::Ready) return false;

  // The parameter block, laid out as kiln_fused_args<NOPS, ND, NSLOTS>:
  // data, zero, size, shape, strides, scalars.
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
  char* o = out.data();
  std::memcpy(w + nl, &o, sizeof o);
  w += nops;
  *w++ = 0;  // zero
  *w++ = out.size();
  for (int d = 0; d < nd; ++d) *w++ = f.shape[d];
  for (int k = 0; k < nops; ++k)
    for (int d = 0; d < nd; ++d) *w++ = k < nl ? f.leaves[k].strides[d] : f.out_strides[d];
  unsigned char* scalars = reinterpret_cast<unsigned char*>(w);
  for (size_t j = 0; j < f.scalars.size(); ++j) f.scalars[j]->scalar.store(f.scalars[j]->dtype, scalars + j * kSlotBytes);

  const int64_t n = out.size();
  Dim3 grid, threads;
  if (device.kind == DeviceKind::CPU) {
    grid = Dim3(static_cast<unsigned>(std::min<int64_t>((n + 16383) / 16384, 256)));
  } else if (f.contiguous) {
    const int64_t per_block = 256 * kUnroll;
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
  entry->kernel->launch(device, grid, threads, args);
  return true;
}

std::string fused_source(const Node& root) {
  Flat f = flatten(root, Device::cpu(), settings().contract_fma,
                   contiguous_strides(root.shape, itemsize(root.dtype)));
  return f.too_big ? std::string() : source_of(f);
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
