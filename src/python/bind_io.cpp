// kiln._core's part for files: DCD trajectories (include/kiln/dcd.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "kiln/dcd.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {

void bind_io(nb::module_& m) {
  nb::class_<dcd::Reader>(m, "_DCDReader")
      .def(nb::init<const std::string&>(), "path"_a)
      .def_prop_ro("frames", [](const dcd::Reader& r) { return r.header().frames; })
      .def_prop_ro("atoms", [](const dcd::Reader& r) { return r.header().atoms; })
      .def_prop_ro("titles", [](const dcd::Reader& r) { return r.header().titles; })
      .def_prop_ro("has_unit_cell", [](const dcd::Reader& r) { return r.header().has_unit_cell; })
      .def_prop_ro("timestep", [](const dcd::Reader& r) { return r.header().timestep; })
      .def_prop_ro("first_step", [](const dcd::Reader& r) { return r.header().first_step; })
      .def_prop_ro("steps_between_frames", [](const dcd::Reader& r) { return r.header().steps_between_frames; })
      .def("read", [](const dcd::Reader& r, int64_t first, int64_t count) {
        dcd::Frames f;
        {
          nb::gil_scoped_release release;
          f = r.read(first, count);
        }
        return nb::make_tuple(f.x, f.y, f.z, f.box);
      }, "first"_a, "count"_a);
  m.def("_write_dcd", [](const std::string& path, const Array& x, const Array& y, const Array& z,
                         std::optional<Array> box, const std::vector<std::string>& titles, float timestep) {
    dcd::write(path, x, y, z, box ? *box : Array(), titles, timestep);
  }, "path"_a, "x"_a, "y"_a, "z"_a, "box"_a.none(), "titles"_a, "timestep"_a);
}

}  // namespace kiln::python
