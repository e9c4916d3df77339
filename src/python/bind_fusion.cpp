// kiln._core's part for automatic fusion (include/kiln/fusion.hpp); the
// Python face is python/kiln/fusion.py.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "kiln/fusion.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {

void bind_fusion(nb::module_& m) {
  nb::class_<fusion::Settings>(m, "_FusionSettings")
      .def(nb::init<>())
      .def_rw("enabled", &fusion::Settings::enabled)
      .def_rw("cpu_min_size", &fusion::Settings::cpu_min_size)
      .def_rw("wait_for_compile", &fusion::Settings::wait_for_compile)
      .def_rw("max_ops", &fusion::Settings::max_ops)
      .def_rw("max_inputs", &fusion::Settings::max_inputs)
      .def_rw("contract_fma", &fusion::Settings::contract_fma);
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
