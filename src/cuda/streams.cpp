// Streams and events, and each thread's current stream per device.
#include <atomic>
#include <unordered_map>

#include "context.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "kiln/fusion.hpp"

namespace kiln::cuda {

struct Stream::State {
  int device = 0;
  CUstream stream = nullptr;
  bool owned = false;
  ~State() {
    if (owned && driver_available()) {
      ContextScope scope(device);
      driver().cuStreamDestroy_v2(stream);
    }
  }
};

struct Event::State {
  int device = 0;
  CUevent event = nullptr;
  bool recorded = false;
  ~State() {
    if (event && driver_available()) {
      ContextScope scope(device);
      driver().cuEventDestroy_v2(event);
    }
  }
};

namespace {

thread_local std::unordered_map<int, Stream> tls_current_streams;
// Whether any thread ever set a current stream: until one does, every
// thread's is the null stream, found with no thread-local lookup (the
// handle is read on every launch and allocation).
std::atomic<bool> any_stream_set{false};

}  // namespace

Stream Stream::null(int device) {
  check_device(device);
  auto s = std::make_shared<State>();
  s->device = device;
  return Stream(s);
}

Stream Stream::create(int device, bool non_blocking) {
  ContextScope scope(device);
  auto s = std::make_shared<State>();
  s->device = device;
  check(driver().cuStreamCreate(&s->stream, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT),
        "cuStreamCreate");
  s->owned = true;
  return Stream(s);
}

Stream Stream::external(int device, uintptr_t handle) {
  check_device(device);
  auto s = std::make_shared<State>();
  s->device = device;
  s->stream = reinterpret_cast<CUstream>(handle);
  return Stream(s);
}

uintptr_t Stream::handle() const { return reinterpret_cast<uintptr_t>(state_->stream); }
int Stream::device() const { return state_->device; }

void Stream::synchronize() const {
  fusion::flush();  // what was recorded is part of the work waited for
  ContextScope scope(state_->device);
  check(driver().cuStreamSynchronize(state_->stream), "cuStreamSynchronize");
}

bool Stream::done() const {
  ContextScope scope(state_->device);
  CUresult r = driver().cuStreamQuery(state_->stream);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuStreamQuery");
  return true;
}

void Stream::wait(const Event& event) const {
  ContextScope scope(state_->device);
  check(driver().cuStreamWaitEvent(state_->stream, reinterpret_cast<CUevent>(event.handle()), 0),
        "cuStreamWaitEvent");
}

void Stream::launch_host_func(void (*fn)(void*), void* data) const {
  // The callback follows the work recorded before it: recorded (fused) work
  // launched later would run after it, and loading that kernel's module
  // while the callback waits for Python's lock never returns.
  fusion::flush();
  ContextScope scope(state_->device);
  check(driver().cuLaunchHostFunc(state_->stream, fn, data), "cuLaunchHostFunc");
}

Stream current_stream(int device) {
  auto it = tls_current_streams.find(device);
  if (it != tls_current_streams.end()) return it->second;
  return Stream::null(device);
}

uintptr_t current_stream_handle(int device) {
  if (!any_stream_set.load(std::memory_order_relaxed)) return 0;
  auto it = tls_current_streams.find(device);
  return it != tls_current_streams.end() ? it->second.handle() : 0;
}

void set_current_stream(const Stream& stream) {
  fusion::flush();  // recorded work runs on the stream it was recorded on
  any_stream_set.store(true, std::memory_order_relaxed);
  tls_current_streams.insert_or_assign(stream.device(), stream);
}

Event Event::create(int device, bool timing, bool blocking) {
  ContextScope scope(device);
  auto e = std::make_shared<State>();
  e->device = device;
  unsigned flags = (timing ? 0u : static_cast<unsigned>(CU_EVENT_DISABLE_TIMING)) |
                   (blocking ? static_cast<unsigned>(CU_EVENT_BLOCKING_SYNC) : 0u);
  check(driver().cuEventCreate(&e->event, flags), "cuEventCreate");
  return Event(e);
}

void Event::record(const Stream& stream) {
  if (stream.device() != state_->device)
    throw ValueError("stream: the event belongs to cuda:" + std::to_string(state_->device) +
                     " but the stream to cuda:" + std::to_string(stream.device()));
  fusion::flush();  // an event marks the work recorded before it
  ContextScope scope(state_->device);
  check(driver().cuEventRecord(state_->event, reinterpret_cast<CUstream>(stream.handle())), "cuEventRecord");
  state_->recorded = true;
}

void Event::synchronize() const {
  ContextScope scope(state_->device);
  check(driver().cuEventSynchronize(state_->event), "cuEventSynchronize");
}

bool Event::done() const {
  ContextScope scope(state_->device);
  CUresult r = driver().cuEventQuery(state_->event);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery");
  return true;
}

float Event::elapsed_ms_since(const Event& start) const {
  if (!start.state_->recorded || !state_->recorded)
    throw ValueError("elapsed time needs two recorded events");
  ContextScope scope(state_->device);
  float ms = 0;
  check(driver().cuEventElapsedTime(&ms, start.state_->event, state_->event), "cuEventElapsedTime");
  return ms;
}

uintptr_t Event::handle() const { return reinterpret_cast<uintptr_t>(state_->event); }
int Event::device() const { return state_->device; }

}  // namespace kiln::cuda
