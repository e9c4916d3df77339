// kiln._core's NCCL part (kiln.cuda.nccl and kiln.distributed build on it):
// communicators over device addresses. Every call that can wait on other
// ranks lets the GIL go, so other threads (and a store serving the ranks'
// rendezvous) keep running.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "kiln/nccl.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {

void bind_nccl(nb::module_& m) {
  using kiln::nccl::Communicator;
  using kiln::nccl::UniqueId;
  nb::exception<kiln::nccl::NcclError>(m, "NcclError", m.attr("CUDAError"));
  m.def("_nccl_available", &kiln::nccl::is_available);
  m.def("_nccl_unavailable_reason", &kiln::nccl::unavailable_reason);
  m.def("_nccl_version", &kiln::nccl::version);
  m.def("_nccl_unique_id", [] {
    UniqueId id = kiln::nccl::unique_id();
    return nb::bytes(id.data(), id.size());
  });
  m.def("_nccl_group_start", &kiln::nccl::group_start, nb::call_guard<nb::gil_scoped_release>());
  m.def("_nccl_group_end", &kiln::nccl::group_end, nb::call_guard<nb::gil_scoped_release>());
  nb::class_<Communicator>(m, "_NcclCommunicator")
      .def_static(
          "init_rank",
          [](int device, int n_ranks, nb::bytes id, int rank) {
            if (id.size() != sizeof(UniqueId))
              throw kiln::ValueError("commId: an NCCL unique id has " + std::to_string(sizeof(UniqueId)) +
                                     " bytes, got " + std::to_string(id.size()));
            UniqueId raw;
            std::copy(id.c_str(), id.c_str() + id.size(), raw.begin());
            nb::gil_scoped_release released;
            return Communicator::init_rank(device, n_ranks, raw, rank);
          },
          "device"_a, "n_ranks"_a, "unique_id"_a, "rank"_a)
      .def_static("init_all", &Communicator::init_all, "devices"_a, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("device", &Communicator::device)
      .def_prop_ro("rank", &Communicator::rank)
      .def_prop_ro("size", &Communicator::size)
      .def_prop_ro("handle", &Communicator::handle)
      .def("destroy", &Communicator::destroy, nb::call_guard<nb::gil_scoped_release>())
      .def("abort", &Communicator::abort, nb::call_guard<nb::gil_scoped_release>())
      .def("check_async_error", &Communicator::check_async_error)
      .def("all_reduce", &Communicator::all_reduce, nb::call_guard<nb::gil_scoped_release>())
      .def("reduce", &Communicator::reduce, nb::call_guard<nb::gil_scoped_release>())
      .def("broadcast", &Communicator::broadcast, nb::call_guard<nb::gil_scoped_release>())
      .def("reduce_scatter", &Communicator::reduce_scatter, nb::call_guard<nb::gil_scoped_release>())
      .def("all_gather", &Communicator::all_gather, nb::call_guard<nb::gil_scoped_release>())
      .def("send", &Communicator::send, nb::call_guard<nb::gil_scoped_release>())
      .def("recv", &Communicator::recv, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace kiln::python
