// kernel_cache_directory and NVTX marks and ranges (see kiln/config.hpp;
// cuda_libraries is the CUDA backend's, in its libraries_found.cpp).
#include "kiln/config.hpp"

#include "disk_cache.hpp"
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define KILN_HAVE_NVTX 1
#endif

namespace kiln {

std::string kernel_cache_directory() { return detail::cache_directory(); }

KernelCacheInfo kernel_cache_info() { return detail::cache_usage(); }

uint64_t clear_kernel_cache() { return detail::clear_cache(); }

void trim_kernel_cache() { detail::trim_cache(); }

#ifdef KILN_HAVE_NVTX
namespace {
// An event's message and colour (`argb` 0 leaves it to the tool).
nvtxEventAttributes_t event_attributes(const std::string& message, uint32_t argb) {
  nvtxEventAttributes_t a = {};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message.c_str();
  if (argb) {
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
  }
  return a;
}
}  // namespace

void range_push(const std::string& message, uint32_t argb) {
  nvtxEventAttributes_t a = event_attributes(message, argb);
  nvtxRangePushEx(&a);
}
void range_pop() { nvtxRangePop(); }
void mark(const std::string& message, uint32_t argb) {
  nvtxEventAttributes_t a = event_attributes(message, argb);
  nvtxMarkEx(&a);
}
bool has_nvtx() { return true; }
#else
void range_push(const std::string&, uint32_t) {}
void range_pop() {}
void mark(const std::string&, uint32_t) {}
bool has_nvtx() { return false; }
#endif

}  // namespace kiln
