# find_package(kiln CONFIG): kiln's C++ package, installed inside the Python
# package (kiln.get_cmake_dir() says where). Targets:
#   kiln::kiln    libkiln.so and the public headers (kiln/array.hpp, ...)
#   kiln::python  what a Python extension module on kiln arrays needs besides
#                 its binding library: kiln::kiln and the casters' headers
#                 (kiln/python/nanobind.hpp, kiln/python/pybind11.hpp)
include("${CMAKE_CURRENT_LIST_DIR}/kilnTargets.cmake")
if(NOT TARGET kiln::python)
  add_library(kiln::python INTERFACE IMPORTED)
  set_property(TARGET kiln::python PROPERTY INTERFACE_LINK_LIBRARIES kiln::kiln)
endif()
get_filename_component(kiln_PYTHON_PACKAGE_DIR "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(kiln_INCLUDE_DIR "${kiln_PYTHON_PACKAGE_DIR}/include")

# kiln_add_kernels(<target> <file.cu>... [OPTIONS <option>...]): the CUDA C
# kernels of <target> (an extension module or program linking kiln::kiln),
# embedded in a generated C++ file that defines kiln::extension::kernels()
# (kiln/extension.hpp). They compile when first launched, for the device of
# the launch (NVRTC on a GPU, the host compiler on the CPU); OPTIONS are
# NVRTC-style (-D, -I, -U reach the host compiler too). Runs Python with
# kiln installed (Python_EXECUTABLE, found if not set).
function(kiln_add_kernels target)
  cmake_parse_arguments(ARG "" "" "OPTIONS" ${ARGN})
  if(NOT Python_EXECUTABLE)
    find_package(Python REQUIRED COMPONENTS Interpreter)
  endif()
  set(files)
  foreach(f IN LISTS ARG_UNPARSED_ARGUMENTS)
    get_filename_component(f "${f}" ABSOLUTE)
    list(APPEND files "${f}")
  endforeach()
  set(options)
  foreach(o IN LISTS ARG_OPTIONS)
    list(APPEND options --option "${o}")
  endforeach()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_kiln_kernels.cpp")
  add_custom_command(OUTPUT "${out}"
    COMMAND "${Python_EXECUTABLE}" -m kiln.cpp_extension embed-kernels "${out}" ${options} ${files}
    DEPENDS ${files} VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
