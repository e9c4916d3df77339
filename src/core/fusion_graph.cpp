// Recording elementwise ops into graphs, and running a graph when its
// buffer's memory is asked for (kiln/fusion.hpp).
#include "fusion_graph.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "eager_op.hpp"
#include "fused_kernel.hpp"
#include "kiln/error.hpp"

namespace kiln::fusion {
namespace {

Settings initial_settings() {
  Settings s;
  // KILN_FUSION: 0/off, 1/on, or wait (compile a new graph's kernel before
  // running it: what tests of the fused kernels themselves want).
  if (const char* env = std::getenv("KILN_FUSION")) {
    if (std::strcmp(env, "0") == 0 || std::strcmp(env, "off") == 0) s.enabled = false;
    if (std::strcmp(env, "wait") == 0) s.wait_for_compile = true;
  }
  if (const char* env = std::getenv("KILN_FUSION_CPU_MIN_SIZE")) s.cpu_min_size = std::atoll(env);
  return s;
}

std::mutex settings_mutex;
Settings& current_settings() {
  static Settings s = initial_settings();
  return s;
}
// Bumped by every change of the settings: each op reads them, from a copy
// of its thread's that is refreshed only when this moved.
std::atomic<uint64_t> settings_version{1};

thread_local int suspended = 0;

// Guards every buffer's list of the pending expressions that read it.
std::mutex readers_mutex;

// The pending expressions this thread recorded, so that flush() and syncs
// can run them. Per thread: a sync in one thread (often with the GIL
// released) must not run graphs another thread is recording.
std::vector<std::weak_ptr<Pending>>& registry() {
  thread_local std::vector<std::weak_ptr<Pending>> r;
  return r;
}

std::atomic<uint64_t> ops_recorded{0}, fused_launches{0}, unfused_runs{0}, fused_reductions{0};

// Appends `p` to a list of weak references, first dropping the dead ones
// once the list reaches `prune_at`, so that lists of results that went
// away unread stay short.
void push_pruned(std::vector<std::weak_ptr<Pending>>& list, const std::shared_ptr<Pending>& p, size_t prune_at) {
  if (list.size() >= prune_at)
    list.erase(std::remove_if(list.begin(), list.end(), [](auto& w) { return w.expired(); }), list.end());
  list.push_back(p);
}

void remember(const std::shared_ptr<Pending>& p) { push_pruned(registry(), p, 64); }

// The pending expression whose whole value `a` is in C order, in any shape
// (a reshape, such as argmax's ravel, reads the elements in the same order).
const Pending* pending_in_c_order(const Array& a) {
  const BufferPtr& b = a.buffer();
  if (!b || !b->pending()) return nullptr;
  const Pending* p = b->pending().get();
  if (a.offset() != 0 || a.dtype() != p->dtype() || a.size() != shape_size(p->shape()) || !a.is_c_contiguous())
    return nullptr;
  return p;
}

// A whole pending buffer seen through `a` in its own shape: its graph can be
// inlined; any other view of it is read as a leaf.
const Pending* whole_pending(const Array& a) {
  const Pending* p = pending_in_c_order(a);
  return p && a.shape() == p->shape() ? p : nullptr;
}

void add_buffers(SmallVector<const Buffer*, 4>& into, const SmallVector<const Buffer*, 4>& from) {
  for (const Buffer* b : from)
    if (std::find(into.begin(), into.end(), b) == into.end()) into.push_back(b);
}

// Whether a leaf of the graph views `out`'s memory other than exactly as
// `out` does (element i of the result would read another element of out,
// perhaps already written).
bool reads_other_view(const Node& n, const Array& out) {
  if (n.kind == Node::Kind::Leaf) {
    const Array& a = n.leaf;
    return a.shares_buffer_with(out) &&
           !(a.offset() == out.offset() && a.shape() == out.shape() && a.strides() == out.strides() &&
             a.dtype() == out.dtype());
  }
  for (const NodePtr& in : n.inputs)
    if (reads_other_view(*in, out)) return true;
  return false;
}

// Pending results a graph may read as leaves, one reading the next: a loop
// whose graphs each outgrow max_ops leaves each result a leaf of the next,
// and reading (or dropping) the last would run thousands of graphs one
// inside another and overflow the stack. A leaf this deep runs now.
constexpr int kMaxChain = 16;

NodePtr leaf_node(const Array& a) {
  auto n = std::make_shared<Node>();
  if (a.buffer())
    if (std::shared_ptr<Pending> p = a.buffer()->pending()) {
      if (p->chain() >= kMaxChain) a.buffer()->data_for_reading();
      else n->chain = p->chain() + 1;
    }
  n->kind = Node::Kind::Leaf;
  n->dtype = a.dtype();
  n->shape = a.shape();
  n->leaf = a;
  n->leaf_buffers.push_back(a.buffer().get());
  return n;
}

// One op node's value from its inputs' values, types and shape as recorded.
Array run_node(const Node& node, const Operand* args, int count, Device device) {
  if (node.cast) return args[0].array().astype(node.dtype);
  return detail::run_resolved(node.op, args, count, {node.loop, node.dtype}, node.shape, device);
}

// The value the graph computes, run op by op with kiln's own kernels.
Array run_op_by_op(const NodePtr& node, Device device, std::unordered_map<const Node*, Array>& done) {
  auto it = done.find(node.get());
  if (it != done.end()) return it->second;
  std::vector<Operand> args;
  args.reserve(node->inputs.size());
  for (const NodePtr& in : node->inputs) {
    switch (in->kind) {
      case Node::Kind::Leaf: args.emplace_back(in->leaf); break;
      case Node::Kind::Scalar: args.emplace_back(in->scalar); break;
      case Node::Kind::Op: args.emplace_back(run_op_by_op(in, device, done)); break;
    }
  }
  Array result = run_node(*node, args.data(), static_cast<int>(args.size()), device);
  done.emplace(node.get(), result);
  return result;
}

// A graph of one op (its inputs leaves and scalars): no graph walk, and its
// operands on the stack (this is the path of every lone small op).
Array run_single_op(const Node& node, Device device) {
  OperandList args;
  for (const NodePtr& in : node.inputs) {
    if (in->kind == Node::Kind::Leaf) args.push(in->leaf);
    else args.push(in->scalar);
  }
  return run_node(node, args.data(), args.size(), device);
}

}  // namespace

Settings settings() {
  thread_local Settings copy;
  thread_local uint64_t copied = 0;
  if (settings_version.load(std::memory_order_acquire) != copied) {
    std::lock_guard<std::mutex> lock(settings_mutex);
    copy = current_settings();
    copied = settings_version.load(std::memory_order_relaxed);
  }
  return copy;
}

void set_settings(const Settings& s) {
  if (s.cpu_min_size < 0) throw ValueError("fusion settings: cpu_min_size must be >= 0");
  if (s.max_ops < 1) throw ValueError("fusion settings: max_ops must be >= 1");
  if (s.max_inputs < 1 || s.max_inputs > kMaxFusedInputs)
    throw ValueError("fusion settings: max_inputs must be in [1, " + std::to_string(kMaxFusedInputs) + "]");
  flush();  // what was recorded runs under the settings it was recorded with
  std::lock_guard<std::mutex> lock(settings_mutex);
  current_settings() = s;
  settings_version.fetch_add(1, std::memory_order_release);
}

Suspend::Suspend() { ++suspended; }
Suspend::~Suspend() { --suspended; }

void settle(const Array& a) {
  if (a.buffer()) a.buffer()->data();
}

namespace {

// Whether a result of `size` elements on `device` is recorded under `s`
// (the callers check `suspended` first, before taking the settings' lock).
bool records(const Settings& s, int64_t size, Device device) {
  return s.enabled && size != 0 && !(device.kind == DeviceKind::CPU && size < s.cpu_min_size);
}

bool is_shared(const Array& a) { return a.buffer() && a.buffer()->shared(); }

// Appends array `a` to `node`'s inputs: a whole pending result's graph
// inlined, or `a` read as a leaf.
void add_input(Node& node, const Array& a, const Settings& s) {
  NodePtr in;
  if (const Pending* p = whole_pending(a)) {
    in = p->root();
    // A graph grown past the limits runs what it has; its value is read.
    if (in->ops + node.ops > s.max_ops || static_cast<int>(in->leaf_buffers.size() + node.leaf_buffers.size()) > s.max_inputs)
      in = leaf_node(a);
    else
      p->mark_consumed();
  } else {
    in = leaf_node(a);
  }
  node.ops += in->kind == Node::Kind::Op ? in->ops : 0;
  node.chain = std::max(node.chain, in->chain);
  add_buffers(node.leaf_buffers, in->leaf_buffers);
  node.inputs.push_back(std::move(in));
}

// Lists a new pending value with the buffers it reads and this thread's
// recorded expressions.
void listen(const std::shared_ptr<Pending>& pending, const SmallVector<const Buffer*, 4>& reads) {
  for (const Buffer* b : reads) Pending::add_reader(*b, pending);
  remember(pending);
  ++ops_recorded;
}

// The graph node of `op` over `args` (resolved to `types`, broadcast to
// `shape`), the graphs of whole pending inputs inlined within `s`'s limits.
std::shared_ptr<Node> op_node(OpId op, const Operand* args, int count, const detail::LoopTypes& types,
                              const Shape& shape, const Settings& s) {
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::Op;
  node->op = op;
  node->loop = types.loop;
  node->dtype = types.output;
  node->shape = shape;
  node->ops = 1;
  node->inputs.reserve(count);
  for (int i = 0; i < count; ++i) {
    if (args[i].is_array()) {
      add_input(*node, args[i].array(), s);
      continue;
    }
    auto scalar = std::make_shared<Node>();
    scalar->kind = Node::Kind::Scalar;
    scalar->dtype = (op == OpId::where && i == 0) ? DType::Bool : types.loop;
    scalar->scalar = args[i].scalar();
    node->inputs.push_back(std::move(scalar));
  }
  return node;
}

// A fresh C-contiguous array over a buffer pending `pending`.
Array pending_array(std::shared_ptr<Pending> pending, DType dtype, const Shape& shape, Device device) {
  auto buffer = std::make_shared<Buffer>(static_cast<size_t>(shape_size(shape)) * itemsize(dtype), device,
                                         std::move(pending));
  return Array(std::move(buffer), dtype, shape, contiguous_strides(shape, itemsize(dtype)));
}

}  // namespace

std::optional<Array> record(OpId op, const Operand* args, int count, const detail::LoopTypes& types,
                            const Shape& shape, Device device, const Array* out) {
  if (suspended) return std::nullopt;
  const Settings s = settings();
  if (!records(s, shape_size(shape), device)) return std::nullopt;
  for (int i = 0; i < count; ++i)
    if (args[i].is_array() && is_shared(args[i].array())) return std::nullopt;
  const bool into_pending = out && out->buffer() && out->buffer()->pending();
  if (out) {
    if (out->dtype() != types.output || out->shape() != shape || !out->writeable()) return std::nullopt;
    if (into_pending) {
      // Anything else reading the buffer must see its value before this op;
      // an input viewing part of it would read the value being computed.
      if (!whole_pending(*out) || Pending::has_readers(*out->buffer())) return std::nullopt;
      for (int i = 0; i < count; ++i)
        if (args[i].is_array() && args[i].array().shares_buffer_with(*out) && !whole_pending(args[i].array()))
          return std::nullopt;
    }
  }

  if (!out) {
    // A lone op (no input pending): kept as its operands until another op
    // inlines it.
    SmallVector<const Buffer*, 4> reads;
    bool lone = true;
    for (int i = 0; i < count && lone; ++i) {
      if (!args[i].is_array()) continue;
      const Buffer* b = args[i].array().buffer().get();
      lone = !b->pending();
      if (lone && std::find(reads.begin(), reads.end(), b) == reads.end()) reads.push_back(b);
    }
    if (lone) {
      if (static_cast<int>(reads.size()) > s.max_inputs) return std::nullopt;
      auto pending = std::make_shared<Pending>(op, args, count, types, shape, device);
      listen(pending, reads);
      return pending_array(std::move(pending), types.output, shape, device);
    }
  }

  std::shared_ptr<Node> node = op_node(op, args, count, types, shape, s);
  if (static_cast<int>(node->leaf_buffers.size()) > s.max_inputs) {
    // Too many arrays for one kernel even with its inputs as leaves: run now.
    return std::nullopt;
  }
  if (into_pending && std::find(node->leaf_buffers.begin(), node->leaf_buffers.end(), out->buffer().get()) !=
                          node->leaf_buffers.end()) {
    // out's graph was too big to inline, so the op would read out's buffer
    // as a leaf while that buffer waits for the op itself: run now.
    return std::nullopt;
  }

  if (out && !into_pending) {
    // Into memory that exists (`a += b * c`): the graph runs now, in one
    // kernel writing `out`, when every input reading out's memory reads the
    // very element it writes; else op by op as eager code.
    if (node->ops < 2 || reads_other_view(*node, *out)) return std::nullopt;
    out->data();  // what else reads out's memory reads it before this write
    if (!run_fused(*node, *out)) return std::nullopt;  // not compiled yet: eager this time
    ++ops_recorded;
    ++fused_launches;
    return *out;
  }

  auto pending = std::make_shared<Pending>(node, device);
  listen(pending, node->leaf_buffers);
  if (out) {
    Pending::replace(*out->buffer(), pending);
    return *out;
  }
  return pending_array(std::move(pending), types.output, shape, device);
}

bool reduce_pending(const Array& x, int reduction, ReduceKernel kernel, ReduceArgs& args) {
  if (suspended || !settings().enabled) return false;
  const Pending* p = pending_in_c_order(x);
  if (!p || !run_fused_reduce(*p->root(), x.device(), reduction, kernel, args)) return false;
  // A result dropped now need not run (one kept runs when it is read, as
  // any pending result).
  p->mark_consumed();
  ++fused_reductions;
  return true;
}

std::optional<Array> record_cast(const Array& x, DType to) {
  if (suspended || x.dtype() == to || (!can_cast(x.dtype(), to) && to != DType::Bool)) return std::nullopt;
  const Settings s = settings();
  if (!records(s, x.size(), x.device()) || is_shared(x)) return std::nullopt;
  auto node = std::make_shared<Node>();
  node->kind = Node::Kind::Op;
  node->cast = true;
  node->loop = x.dtype();
  node->dtype = to;
  node->shape = x.shape();
  node->ops = 1;
  add_input(*node, x, s);
  if (static_cast<int>(node->leaf_buffers.size()) > s.max_inputs) return std::nullopt;
  auto pending = std::make_shared<Pending>(node, x.device());
  listen(pending, node->leaf_buffers);
  return pending_array(std::move(pending), to, x.shape(), x.device());
}

bool Pending::has_readers(const Buffer& b) {
  std::lock_guard<std::mutex> lock(readers_mutex);
  for (auto& w : b.readers_)
    if (auto r = w.lock())
      if (r->target_ && !r->started_) return true;
  return false;
}

void Pending::replace(const Buffer& b, const std::shared_ptr<Pending>& next) {
  if (b.pending_) b.pending_->target_ = nullptr;
  b.pending_ = next;
  next->target_ = &b;
}

void Pending::add_reader(const Buffer& b, const std::shared_ptr<Pending>& reader) {
  std::lock_guard<std::mutex> lock(readers_mutex);
  push_pruned(b.readers_, reader, 16);
}

const NodePtr& Pending::root() const {
  if (!root_ && lone_) root_ = op_node(lone_->op, lone_->args.data(), lone_->args.size(), lone_->types, shape_, settings());
  return root_;
}

bool Pending::run() {
  if (started_ || !target_) return false;
  started_ = true;
  struct Unstart {  // a run that throws leaves the expression pending
    bool& started;
    bool done = false;
    ~Unstart() { if (!done) started = false; }
  } unstart{started_};
  Suspend suspend;
  const Buffer* target = target_;
  BufferPtr memory;
  if (lone_) {
    memory = detail::run_resolved(lone_->op, lone_->args.data(), lone_->args.size(), lone_->types, shape_, device_)
                 .buffer();
    ++unfused_runs;
  } else {
    const Node& root = *root_;
    if (root.ops > 1) {
      memory = allocate(target->nbytes(), device_);
      Array out(memory, root.dtype, root.shape, contiguous_strides(root.shape, itemsize(root.dtype)));
      if (run_fused(root, out)) {
        ++fused_launches;
      } else {
        memory.reset();
      }
    }
    if (!memory) {
      if (root.ops == 1) {
        memory = run_single_op(root, device_).buffer();
      } else {
        std::unordered_map<const Node*, Array> done;
        memory = run_op_by_op(root_, device_, done).buffer();
      }
      ++unfused_runs;
    }
  }
  target->data_ = memory->data();
  target->backing_ = std::move(memory);  // the memory lives as long as the buffer
  unstart.done = true;
  return true;
}

void flush() {
  std::vector<std::weak_ptr<Pending>>& recorded = registry();
  if (recorded.empty()) return;
  std::vector<std::weak_ptr<Pending>> all;
  all.swap(recorded);
  for (auto& w : all)
    if (auto p = w.lock()) p->settle_target();
  // The list's memory serves the next ops' records (a loop that flushes
  // every op would otherwise allocate it again every op).
  all.clear();
  if (recorded.empty()) recorded.swap(all);
}

Stats stats() {
  Stats s;
  s.ops_recorded = ops_recorded;
  s.fused_launches = fused_launches;
  s.unfused_runs = unfused_runs;
  s.fused_reductions = fused_reductions;
  s.kernels_compiled = kernels_compiled();
  s.kernels_failed = kernels_failed();
  return s;
}

bool is_pending(const Array& a) { return a.buffer() && a.buffer()->pending(); }

std::string pending_source(const Array& a) {
  if (!is_pending(a)) return {};
  const Node& root = *a.buffer()->pending()->root();
  return root.ops > 1 ? fused_source(root) : std::string();
}

std::string pending_graph(const Array& a) {
  if (!is_pending(a)) return {};
  return describe(*a.buffer()->pending()->root());
}

}  // namespace kiln::fusion

namespace kiln {

Buffer::Buffer(size_t nbytes, Device device, std::shared_ptr<fusion::Pending> pending)
    : data_(nullptr), nbytes_(nbytes), device_(device), writeable_(true), pending_(std::move(pending)) {
  pending_->target_ = this;
}

Buffer::~Buffer() {
  if (pending_ && !pending_->consumed_ && !pending_->started_) {
    // A result dropped unused still costs what eager code spends on it, so
    // that `f(x); sync()` times f (a failure has no one left to report to).
    try {
      settle();
    } catch (...) {
    }
  }
  if (pending_) pending_->target_ = nullptr;
  if (release_) release_(data_);
}

void Buffer::compute() const {
  // Keep the expression alive while it runs; a failure leaves it pending.
  std::shared_ptr<fusion::Pending> p = pending_;
  // False while it runs further up this thread's stack (an input's
  // readers led back to it): it finishes there.
  if (p->run()) pending_.reset();
}

void Buffer::settle() const {
  if (pending_) {
    compute();
    if (pending_) return;
  }
  if (!readers_.empty() && !fusion::suspended) {
    // Whoever asked may write this memory: what reads it runs first. (Not
    // while an expression runs: it only reads its inputs and writes memory
    // of its own, and a reader could need the very buffer being computed.)
    std::vector<std::weak_ptr<fusion::Pending>> readers;
    {
      std::lock_guard<std::mutex> lock(fusion::readers_mutex);
      readers.swap(readers_);
    }
    for (auto& w : readers)
      if (auto r = w.lock()) r->settle_target();
  }
}

}  // namespace kiln
