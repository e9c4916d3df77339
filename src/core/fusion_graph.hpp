#pragma once
// The expression graphs automatic fusion records (kiln/fusion.hpp): nodes
// are immutable and shared, so a graph that inlines a pending result keeps
// the value it had when it was used, whatever happens to that result's
// buffer later.
#include <memory>
#include <optional>
#include <vector>

#include "kiln/array.hpp"
#include "kiln/fusion.hpp"
#include "kiln/ops.hpp"
#include "kiln/registry.hpp"
#include "kiln/small_vector.hpp"
#include "op_types.hpp"

namespace kiln::fusion {

struct Node {
  enum class Kind : uint8_t { Leaf, Scalar, Op };
  Kind kind = Kind::Leaf;
  OpId op{};
  bool cast = false;             // Op: astype to `dtype` (one input; `op` unused)
  DType dtype = DType::Float64;  // the value's dtype
  DType loop = DType::Float64;   // Op: the dtype its inputs are converted to
  Shape shape;                   // the value's shape
  std::vector<std::shared_ptr<const Node>> inputs;  // Op
  Array leaf;                    // Leaf: an array read in place
  Scalar scalar;                 // Scalar: the argument as the op was given it
  int ops = 0;                   // Op nodes under and at this one, repeats counted
  // How deep the pending results read as leaves go (a leaf's own graph may
  // read pending leaves, and so on): running the graph runs them first, one
  // inside another, so the depth is bounded (kMaxChain in fusion_graph.cpp).
  int chain = 0;
  // Distinct buffers the graph reads (inline: a lone op's record allocates
  // no list).
  SmallVector<const Buffer*, 4> leaf_buffers;
};
using NodePtr = std::shared_ptr<const Node>;

// Up to kMaxOperands operands held in place (no allocation), for running an
// op with operands that are not in a caller's list.
class OperandList {
 public:
  OperandList() = default;
  OperandList(const Operand* args, int count) {
    for (int i = 0; i < count; ++i) push(args[i]);
  }
  OperandList(const OperandList& o) : OperandList(o.data(), o.size()) {}
  OperandList& operator=(const OperandList&) = delete;
  ~OperandList() {
    for (int i = 0; i < count_; ++i) data()[i].~Operand();
  }
  void push(const Operand& o) { new (&data()[count_++]) Operand(o); }
  const Operand* data() const { return reinterpret_cast<const Operand*>(storage_); }
  Operand* data() { return reinterpret_cast<Operand*>(storage_); }
  int size() const { return count_; }

 private:
  alignas(Operand) unsigned char storage_[kMaxOperands * sizeof(Operand)];
  int count_ = 0;
};

// What a pending Buffer will hold, C-contiguous: a graph's value, or one op
// over arrays that are not pending themselves and scalars (a lone op, kept
// as its operands: most small ops are never read by another, and building
// graph nodes for each was most of what recording one cost). A lone op's
// graph is built when another op inlines it.
class Pending {
 public:
  Pending(NodePtr root, Device device)
      : root_(std::move(root)), dtype_(root_->dtype), shape_(root_->shape), chain_(root_->chain), device_(device) {}
  Pending(OpId op, const Operand* args, int count, const detail::LoopTypes& types, const Shape& shape, Device device)
      : dtype_(types.output), shape_(shape), device_(device), lone_(std::in_place, op, types, args, count) {}
  // The graph (built the first time for a lone op).
  const NodePtr& root() const;
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int chain() const { return chain_; }
  Device device() const { return device_; }
  // Computes the value into the buffer this is pending for; false when it
  // has already started.
  bool run();
  // Runs this expression now if its buffer still waits for it.
  void settle_target() const {
    if (target_) target_->data_for_reading();
  }
  // Notes that `reader` reads `b`: writing `b` must run `reader` first.
  static void add_reader(const Buffer& b, const std::shared_ptr<Pending>& reader);
  // Whether a pending expression that has not run reads `b`.
  static bool has_readers(const Buffer& b);
  // Makes `next` the expression pending `b` will hold, in place of its own.
  static void replace(const Buffer& b, const std::shared_ptr<Pending>& next);
  // Notes that its value is computed elsewhere (inlined into another graph,
  // or read by a reduction): a buffer that dies before running need not run.
  void mark_consumed() const { consumed_ = true; }

 private:
  friend class kiln::Buffer;
  struct LoneOp {
    LoneOp(OpId op, const detail::LoopTypes& types, const Operand* args, int count)
        : op(op), types(types), args(args, count) {}
    OpId op;
    detail::LoopTypes types;
    OperandList args;
  };
  mutable NodePtr root_;  // built from lone_ by root() where that is set
  DType dtype_;
  Shape shape_;
  int chain_ = 0;
  Device device_;
  std::optional<LoneOp> lone_;
  const Buffer* target_ = nullptr;  // set by the pending Buffer, cleared when it dies
  bool started_ = false;
  mutable bool consumed_ = false;  // see mark_consumed
};

// The pending result of `op` over `args` (checked, promoted and resolved to
// `types` by the caller, broadcast to `shape`), or nothing when the op must
// run now: fusion off or suspended, an empty or (on the CPU) small result,
// an input in memory others may write (Buffer::shared).
// With `out`, the op is recorded only in place of a whole pending result
// that nothing else reads yet (`x *= 2` after `x = a + b`): that buffer's
// expression grows, and `*out` is returned.
std::optional<Array> record(OpId op, const Operand* args, int count, const detail::LoopTypes& types,
                            const Shape& shape, Device device, const Array* out = nullptr);

// The pending result of x.astype(to), or nothing when the cast must run
// now: as record() refuses, and casts that can change a value (only safe
// casts and casts to bool are recorded: generated code converts as kiln's
// cast kernels do exactly there).
std::optional<Array> record_cast(const Array& x, DType to);

// Reduces the expression pending behind `x` (when `x` views its whole
// result) with `kernel`, reduction `reduction` of run_fused_reduce, without
// storing its value; `args` describes `x` except its data. False when the
// value must be stored and reduced as usual: `x` is not pending, fusion is
// off, or the generated code is not ready yet.
bool reduce_pending(const Array& x, int reduction, ReduceKernel kernel, ReduceArgs& args);

}  // namespace kiln::fusion
