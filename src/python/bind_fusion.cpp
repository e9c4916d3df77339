// kiln._core's part for automatic fusion (include/kiln/fusion.hpp); the
// Python face is python/kiln/fusion.py.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <exception>
#include <optional>
#include <stdexcept>
#include <vector>

#include "fused_function.hpp"
#include "kiln/error.hpp"
#include "kiln/fusion.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {

namespace {

thread_local int fused_function_depth = 0;

}  // namespace

void enter_fused_function() { ++fused_function_depth; }
void leave_fused_function() { --fused_function_depth; }

void refuse_scalar_read_in_fused_function(const char* conversion) {
  if (fused_function_depth)
    throw TypeError(std::string("kiln.fuse: ") + conversion +
                    " cannot convert an array to a Python scalar inside a fused function: its kernels cannot "
                    "branch on array values (kiln.where chooses by value)");
}

namespace {

// `with kiln.fusion.configured(**changes)`: entering applies the changes over
// the settings current then, leaving puts those back (a stack, so one block
// may be entered again inside itself). Kept in C++ so that a kiln.fuse call
// pays two settings swaps, not a generator and two dicts of six attributes
// (about 5 us a call on the 2-core machine, more than a small kernel).
struct SettingsBlock {
  std::optional<bool> enabled, wait_for_compile, contract_fma;
  std::optional<int64_t> cpu_min_size;
  std::optional<int> max_ops, max_inputs;
  bool fused_function = false;  // kiln.fuse's block: see fused_function.hpp
  std::vector<fusion::Settings> previous;

  void enter() {
    fusion::Settings s = fusion::settings();
    previous.push_back(s);
    if (enabled) s.enabled = *enabled;
    if (wait_for_compile) s.wait_for_compile = *wait_for_compile;
    if (contract_fma) s.contract_fma = *contract_fma;
    if (cpu_min_size) s.cpu_min_size = *cpu_min_size;
    if (max_ops) s.max_ops = *max_ops;
    if (max_inputs) s.max_inputs = *max_inputs;
    try {
      fusion::set_settings(s);
    } catch (...) {
      previous.pop_back();  // a refused value leaves nothing to put back
      throw;
    }
    if (fused_function) enter_fused_function();
  }

  void leave() {
    if (previous.empty()) throw std::runtime_error("kiln.fusion.configured: left without being entered");
    fusion::Settings s = previous.back();
    previous.pop_back();
    if (fused_function) leave_fused_function();
    // What the block recorded runs under its settings; if that raises, the
    // settings from before the block are still put back.
    std::exception_ptr failure;
    try {
      fusion::flush();
    } catch (...) {
      failure = std::current_exception();
    }
    fusion::set_settings(s);
    if (failure) std::rethrow_exception(failure);
  }
};

}  // namespace

void bind_fusion(nb::module_& m) {
  nb::class_<fusion::Settings>(m, "_FusionSettings")
      .def(nb::init<>())
      .def_rw("enabled", &fusion::Settings::enabled)
      .def_rw("cpu_min_size", &fusion::Settings::cpu_min_size)
      .def_rw("wait_for_compile", &fusion::Settings::wait_for_compile)
      .def_rw("max_ops", &fusion::Settings::max_ops)
      .def_rw("max_inputs", &fusion::Settings::max_inputs)
      .def_rw("contract_fma", &fusion::Settings::contract_fma);
  nb::class_<SettingsBlock>(m, "_FusionSettingsBlock")
      .def(
          "__init__",
          [](SettingsBlock* b, std::optional<bool> enabled, std::optional<int64_t> cpu_min_size,
             std::optional<bool> wait_for_compile, std::optional<int> max_ops, std::optional<int> max_inputs,
             std::optional<bool> contract_fma, bool fused_function) {
            new (b) SettingsBlock{enabled, wait_for_compile, contract_fma, cpu_min_size, max_ops, max_inputs,
                                  fused_function, {}};
          },
          nb::kw_only(), "enabled"_a = nb::none(), "cpu_min_size"_a = nb::none(), "wait_for_compile"_a = nb::none(),
          "max_ops"_a = nb::none(), "max_inputs"_a = nb::none(), "contract_fma"_a = nb::none(), "fused_function"_a = false)
      .def("__enter__", &SettingsBlock::enter)
      .def("__exit__", [](SettingsBlock& b, nb::handle, nb::handle, nb::handle) { b.leave(); },
           nb::arg().none(), nb::arg().none(), nb::arg().none());
  m.def("_fusion_settings", &fusion::settings);
  m.def("_fusion_set_settings", &fusion::set_settings, "settings"_a);
  m.def("_fusion_flush", &fusion::flush, "Runs every recorded expression now.");
  m.def("_fusion_finish_compiles", &fusion::finish_compiles, nb::call_guard<nb::gil_scoped_release>());
  m.def("_fusion_stats", [] {
    fusion::Stats s = fusion::stats();
    nb::dict d;
    d["ops_recorded"] = s.ops_recorded;
    d["fused_launches"] = s.fused_launches;
    d["unfused_runs"] = s.unfused_runs;
    d["fused_reductions"] = s.fused_reductions;
    d["kernels_compiled"] = s.kernels_compiled;
    d["kernels_failed"] = s.kernels_failed;
    return d;
  });
  m.def("_fusion_last_failure", &fusion::last_failure);
  m.def("_fusion_is_pending", &fusion::is_pending, "a"_a);
  m.def("_fusion_source", &fusion::pending_source, "a"_a);
  m.def("_fusion_graph", &fusion::pending_graph, "a"_a);
}

}  // namespace kiln::python
