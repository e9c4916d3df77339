// Elementwise dispatch: promotion, broadcasting, output allocation, then one
// call into the device's kernel table.
#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/ops.hpp"
#include "kiln/reductions.hpp"
#include "kiln/registry.hpp"
#include "fusion_graph.hpp"
#include "eager_op.hpp"
#include "op_types.hpp"
#include "strided_plan.hpp"

namespace kiln {
namespace {

constexpr const char* kOpNames[] = {
#define KILN_OP_NAME(name, arity) #name,
    KILN_ELEMENTWISE_OPS(KILN_OP_NAME)
#undef KILN_OP_NAME
};
constexpr int kOpArity[] = {
#define KILN_OP_ARITY(name, arity) arity,
    KILN_ELEMENTWISE_OPS(KILN_OP_ARITY)
#undef KILN_OP_ARITY
};

// where(cond, x, y) promotes only x and y.
int first_promoted(OpId op) { return op == OpId::where ? 1 : 0; }

Device common_device(OpId op, const Operand* args, int count, const Array* out) {
  const Array* first = nullptr;
  for (int i = 0; i < count; ++i) {
    const Operand& a = args[i];
    if (!a.is_array()) continue;
    if (!first) first = &a.array();
    else if (a.array().device() != first->device())
      throw TypeError(std::string("kiln.") + op_name(op) + ": arrays are on different devices (" +
                      first->device().str() + " and " + a.array().device().str() + ")");
  }
  if (out && first && out->device() != first->device())
    throw TypeError(std::string("kiln.") + op_name(op) + ": out is on " + out->device().str() +
                    " but the inputs are on " + first->device().str());
  return first ? first->device() : (out ? out->device() : Device::cpu());
}

// Integer power has no answer for negative exponents; NumPy raises.
void check_integer_exponent(const Operand& exponent_operand, DType loop) {
  if (kind(loop) != DTypeKind::SignedInt) return;
  if (!exponent_operand.is_array()) {
    const Scalar& e = exponent_operand.scalar();
    if (e.kind == ScalarKind::Int && !e.is_unsigned_big && e.i < 0)
      throw ValueError("Integers to negative integer powers are not allowed.");
    return;
  }
  const Array& exponent = exponent_operand.array();
  if (kind(exponent.dtype()) != DTypeKind::SignedInt || exponent.size() == 0) return;
  // Devices without a min kernel yet (CUDA, for now) check a host copy.
  bool has_min = kernel_table(exponent.device().kind).reduce[static_cast<int>(ReduceOp::min)][static_cast<int>(exponent.dtype())];
  Scalar smallest = min(has_min ? exponent : exponent.to(Device::cpu())).item();
  if (smallest.i < 0) throw ValueError("Integers to negative integer powers are not allowed.");
}

// NumPy 2 compares an array with a Python int outside its dtype's range by
// value: every element lies on the same side of it.
Array compare_out_of_range(OpId op, const Operand* args, int scalar_index, const Array* out) {
  const Array& x = args[1 - scalar_index].array();
  bool scalar_below = args[scalar_index].scalar().below_range();
  // The answer of "x OP s" with s below x's range; above it, the ordering flips.
  bool x_greater = scalar_below;
  if (scalar_index == 0) {
    // s OP x: mirror the operator.
    switch (op) {
      case OpId::less: op = OpId::greater; break;
      case OpId::less_equal: op = OpId::greater_equal; break;
      case OpId::greater: op = OpId::less; break;
      case OpId::greater_equal: op = OpId::less_equal; break;
      default: break;
    }
  }
  bool value = false;
  switch (op) {
    case OpId::equal: value = false; break;
    case OpId::not_equal: value = true; break;
    case OpId::greater: case OpId::greater_equal: value = x_greater; break;
    default: value = !x_greater; break;  // less, less_equal
  }
  Array result = full(x.shape(), Scalar::from_bool(value), DType::Bool, x.device());
  if (!out) return result;
  out->assign(result);
  return *out;
}

// NEP 50 promotion of args[begin, end): arrays and typed scalars first, then
// Python scalars in the kind they bring.
DType promote_operands(const Operand* args, int begin, int end) {
  std::optional<DType> acc;
  ScalarKind weak_kind = ScalarKind::Bool;
  bool any_weak = false;
  for (int i = begin; i < end; ++i) {
    if (args[i].is_array()) {
      DType d = args[i].array().dtype();
      acc = acc ? promote_types(*acc, d) : d;
    } else if (!args[i].scalar().weak) {
      DType d = args[i].scalar().dtype;
      acc = acc ? promote_types(*acc, d) : d;
    } else {
      weak_kind = std::max(weak_kind, args[i].scalar().kind);
      any_weak = true;
    }
  }
  if (!acc) return default_dtype(weak_kind);
  if (!any_weak) return *acc;
  DType out = *acc;
  for (int i = begin; i < end; ++i)
    if (!args[i].is_array() && args[i].scalar().weak) out = promote_weak(out, args[i].scalar().kind);
  return out;
}

// The loop for `op` over args[begin, end): NumPy's search by the inputs'
// own dtypes where every input has one (a weak Python scalar has none, and
// its promotion decides alone).
detail::LoopTypes resolve_operands_loop(OpId op, const Operand* args, int begin, int end) {
  const DType promoted = promote_operands(args, begin, end);
  DType inputs[kMaxOperands];
  int count = 0;
  for (int i = begin; i < end; ++i) {
    if (args[i].is_array()) inputs[count++] = args[i].array().dtype();
    else if (!args[i].scalar().weak) inputs[count++] = args[i].scalar().dtype;
    else return detail::resolve_loop(op, promoted);
  }
  return detail::resolve_loop(op, promoted, inputs, count);
}

bool same_view(const Array& a, const Array& b) {
  return a.shares_buffer_with(b) && a.offset() == b.offset() && a.strides() == b.strides() &&
         a.shape() == b.shape() && a.dtype() == b.dtype();
}

// True when writing `out` could change `in` before the kernel has read it.
bool overlaps(const Array& in, const Array& out) {
  if (!in.shares_buffer_with(out) || in.size() == 0 || out.size() == 0) return false;
  return !same_view(in, out);
}

}  // namespace

const char* op_name(OpId op) { return kOpNames[static_cast<int>(op)]; }
int op_arity(OpId op) { return kOpArity[static_cast<int>(op)]; }

DType result_type(const std::vector<DType>& dtypes, const std::vector<Scalar>& scalars) {
  if (dtypes.empty() && scalars.empty()) throw ValueError("result_type: at least one array or dtype is required");
  std::vector<Operand> operands;
  for (DType d : dtypes) operands.emplace_back(Scalar().typed(d));
  for (const Scalar& s : scalars) operands.emplace_back(s);
  return promote_operands(operands.data(), 0, static_cast<int>(operands.size()));
}

DType result_dtype(OpId op, const std::vector<Operand>& args) {
  return resolve_operands_loop(op, args.data(), first_promoted(op), static_cast<int>(args.size())).output;
}

namespace {

// The backend's loop for `op` in dtype `loop`; TypeError naming both where it has none.
ElementwiseKernel elementwise_kernel(OpId op, DType loop, Device device) {
  const ElementwiseKernel kernel = kernel_table(device.kind).elementwise[static_cast<int>(op)][static_cast<int>(loop)];
  if (!kernel)
    throw TypeError(std::string("kiln.") + op_name(op) + " has no kernel for " + std::string(name(loop)) + " on " +
                    device.str());
  return kernel;
}

}  // namespace

Array apply(OpId op, const Operand* args, int count, const Array* out) {
  const int arity = op_arity(op);
  if (count != arity)
    throw TypeError(std::string("kiln.") + op_name(op) + " takes " + std::to_string(arity) +
                    " arguments, got " + std::to_string(count));
  const Device device = common_device(op, args, count, out);

  const detail::LoopTypes types = resolve_operands_loop(op, args, first_promoted(op), arity);
  if (detail::is_comparison(op) && is_integer(types.loop)) {
    for (int i = 0; i < arity; ++i)
      if (!args[i].is_array() && !args[i].scalar().fits(types.loop))
        return compare_out_of_range(op, args, i, out);
  }
  if (is_integer(types.loop))
    for (int i = 0; i < arity; ++i)
      if (!args[i].is_array()) args[i].scalar().check_fits(types.loop);

  elementwise_kernel(op, types.loop, device);  // refused here, at the call, when there is none

  // The arrays' broadcast shape (scalars broadcast to anything).
  Shape shape;
  bool any_array = false;
  for (int i = 0; i < arity; ++i) {
    if (!args[i].is_array()) continue;
    shape = any_array ? broadcast_shapes(shape, args[i].array().shape()) : args[i].array().shape();
    any_array = true;
  }

  // With fusion on, the op is recorded here and runs later inside one
  // generated kernel (integer power first checks its exponents' values).
  if (!(op == OpId::power && is_integer(types.loop)))
    if (auto pending = fusion::record(op, args, arity, types, shape, device, out)) return std::move(*pending);
  return detail::run_resolved(op, args, arity, types, shape, device, out);
}

namespace detail {

Array run_resolved(OpId op, const Operand* args, int arity, const LoopTypes& types, Shape shape, Device device,
                   const Array* out) {
  const ElementwiseKernel kernel = elementwise_kernel(op, types.loop, device);
  // Inputs in the loop dtype (the condition of where in bool). Arrays already
  // in that dtype are used in place; `made` holds the ones built here. A
  // scalar goes to the kernel by value (`inputs` null): no device array, no
  // fill launch. (Optional: most ops make none, and an Array costs to build.)
  std::optional<Array> made[3];
  const Array* inputs[3];
  alignas(16) unsigned char scalar_bytes[3][16];
  const void* by_value[kMaxOperands] = {};
  for (int i = 0; i < arity; ++i) {
    DType want = (op == OpId::where && i == 0) ? DType::Bool : types.loop;
    if (args[i].is_array()) {
      const Array& a = args[i].array();
      if (a.dtype() == want) {
        inputs[i] = &a;
      } else {
        inputs[i] = &made[i].emplace(a.astype(want));
      }
    } else {
      args[i].scalar().store(want, scalar_bytes[i]);
      by_value[i] = scalar_bytes[i];
      inputs[i] = nullptr;
    }
  }
  if (op == OpId::power && is_integer(types.loop)) check_integer_exponent(args[1], types.loop);

  Array result;
  bool write_back = false;
  if (out) {
    if (!out->writeable()) throw ValueError(std::string("kiln.") + op_name(op) + ": out is read-only");
    bool fits_out = false;
    try {
      fits_out = broadcast_shapes(shape, out->shape()) == out->shape();
    } catch (const ValueError&) {
    }
    if (!fits_out)
      throw ValueError(std::string("kiln.") + op_name(op) + ": out has shape " + shape_str(out->shape()) +
                       " but the result has shape " + shape_str(shape));
    if (!can_cast(types.output, out->dtype(), Casting::SameKind))
      throw TypeError(std::string("kiln.") + op_name(op) + ": cannot cast the result from " +
                      std::string(name(types.output)) + " to out's dtype " +
                      std::string(name(out->dtype())) + " with casting rule 'same_kind'");
    shape = out->shape();
    write_back = out->dtype() != types.output;
    result = write_back ? Array::empty(shape, types.output, device) : *out;
    for (int i = 0; i < arity; ++i) {
      if (inputs[i] && overlaps(*inputs[i], result)) {
        inputs[i] = &made[i].emplace(inputs[i]->copy());
      }
    }
  } else {
    result = Array::empty(shape, types.output, device);
  }

  if (result.size() > 0) {
    const Array* operands[kMaxOperands];
    for (int i = 0; i < arity; ++i) operands[i] = inputs[i];
    operands[arity] = &result;
    detail::StridedPlan plan(operands, arity + 1, shape, by_value, device.index);
    kernel(plan.args());
  }
  if (write_back) {
    out->assign(result);
    return *out;
  }
  return result;
}

}  // namespace detail

#define KILN_DEFINE_OP_1(name) \
  Array name(const Operand& x, const Array* out) { return apply(OpId::name, {x}, out); }
#define KILN_DEFINE_OP_2(name)                                                  \
  Array name(const Operand& x1, const Operand& x2, const Array* out) {          \
    return apply(OpId::name, {x1, x2}, out);                                    \
  }
#define KILN_DEFINE_OP_3(name)                                                          \
  Array name(const Operand& x1, const Operand& x2, const Operand& x3, const Array* out) { \
    return apply(OpId::name, {x1, x2, x3}, out);                                        \
  }
#define KILN_DEFINE_OP(name, arity) KILN_DEFINE_OP_##arity(name)
KILN_ELEMENTWISE_OPS(KILN_DEFINE_OP)
#undef KILN_DEFINE_OP

Array power_operator(const Array& a, const Operand& b, const Array* out) {
  if (!b.is_array() && b.scalar().weak && a.dtype() != DType::Bool &&
      (b.scalar().kind == ScalarKind::Int || b.scalar().kind == ScalarKind::Float)) {
    const Scalar& e = b.scalar();
    const double value = e.kind == ScalarKind::Int ? static_cast<double>(e.i) : e.f;
    // An int array to the float 2.0 is float64: not a square of the ints.
    if (value == 2.0 && (e.kind == ScalarKind::Int || is_inexact(a.dtype()))) return square(a, out);
    if (is_inexact(a.dtype()) && value == 0.5) return sqrt(a, out);
    if (is_inexact(a.dtype()) && value == -1.0) return reciprocal(a, out);
  }
  return power(a, b, out);
}

Array round(const Operand& x, int decimals, const Array* out) {
  DType dt = x.is_array() ? x.array().dtype() : x.scalar().own_dtype();
  if (dt == DType::Bool) {
    // NumPy rounds bool through rint (float16) and refuses other decimals.
    if (decimals != 0) throw TypeError("round: a bool array can only be rounded with decimals=0");
    return rint(x, out);
  }
  if (!is_inexact(dt)) {
    // Integers are already round at decimals >= 0; below that NumPy rounds
    // half to even in the integer's own dtype.
    Array a = x.is_array() ? x.array() : full({}, x.scalar(), dt);
    if (decimals >= 0) {
      if (out) { out->assign(a); return *out; }
      return a.copy();
    }
    double scale = 1.0;
    for (int i = 0; i < -decimals; ++i) scale *= 10.0;
    Array r = multiply(rint(divide(a, scale)), scale).astype(dt);
    if (out) { out->assign(r); return *out; }
    return r;
  }
  if (decimals == 0) return rint(x, out);
  double scale = 1.0;
  for (int i = 0; i < (decimals > 0 ? decimals : -decimals); ++i) scale *= 10.0;
  // NumPy: rint(x * 10**d) / 10**d, or rint(x / 10**-d) * 10**-d.
  Array r = decimals > 0 ? divide(rint(multiply(x, scale)), scale)
                         : multiply(rint(divide(x, scale)), scale);
  if (r.dtype() != dt) r = r.astype(dt);
  if (out) { out->assign(r); return *out; }
  return r;
}

}  // namespace kiln
