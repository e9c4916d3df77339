#include "kernel_source.hpp"

#include <string>

namespace kiln::cuda {
namespace {

const char* layout_suffix(Layout l) {
  switch (l) {
    case Layout::Strided: return "strided";
    case Layout::Contiguous32: return "contig32";
    case Layout::Contiguous64: return "contig64";
  }
  return "";
}

}  // namespace

const char* device_type(DType dt) {
  switch (dt) {
    case DType::Bool: return "bool";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Int16: return "int16";
    case DType::UInt16: return "uint16";
    case DType::Int32: return "int32";
    case DType::UInt32: return "uint32";
    case DType::Int64: return "int64";
    case DType::UInt64: return "uint64";
    case DType::Float16: return "half";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
  }
  return "";
}

std::string kernel_prelude() {
  return "#include \"kiln/device/ops.cuh\"\n"
         "using namespace kiln::dev;\n"
         "#define KILN_MAX_DIMS " + std::to_string(kMaxKernelDims) + "\n"
         "struct kiln_params {\n"
         "  char* data[4];\n"
         "  long long step[4];\n"
         "  long long shape[KILN_MAX_DIMS];\n"
         "  long long strides[4][KILN_MAX_DIMS];\n"
         "  unsigned char value[32];\n"
         "  int ndim;\n"
         "};\n";
}

std::string kernel_body(const KernelSpec& s) {
  const bool strided = s.layout == Layout::Strided;
  const std::string index = s.layout == Layout::Contiguous32 ? "unsigned int" : "long long";
  const int out = s.nin;
  std::string k = "extern \"C\" __global__ void " + s.name + "(kiln_params p, " + index + " n) {\n";
  k += "  for (" + index + " i = (" + index + ")blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (" + index +
       ")gridDim.x * blockDim.x) {\n";
  if (strided) {
    k += "    long long off[4] = {0, 0, 0, 0};\n"
         "    long long rem = i;\n"
         "    for (int d = p.ndim - 1; d >= 0; --d) {\n"
         "      long long c = rem % p.shape[d];\n"
         "      rem /= p.shape[d];\n"
         "      for (int k = 0; k <= " + std::to_string(out) + "; ++k) off[k] += c * p.strides[k][d];\n"
         "    }\n";
  }
  for (int j = 0; j < s.nin; ++j) {
    std::string t = device_type(s.in[j]), x = "x" + std::to_string(j), idx = std::to_string(j);
    if (strided) k += "    const " + t + " " + x + " = *(const " + t + "*)(p.data[" + idx + "] + off[" + idx + "]);\n";
    else k += "    const " + t + " " + x + " = ((const " + t + "*)p.data[" + idx + "])[i * p.step[" + idx + "]];\n";
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
  std::string start = "*(const " + t + "*)p.value", step = "*(const " + t + "*)(p.value + 16)";
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
