// NCCL through dlopen: the entry points of nccl.h that kiln uses, declared
// here by their C signatures (NCCL's ABI has been stable since 2.0), so
// building kiln needs no NCCL headers.
#include "kiln/nccl.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "context.hpp"
#include "loaded_api.hpp"
#include "toolkit_library.hpp"

namespace kiln::nccl {
namespace {

using Comm = void*;  // ncclComm_t
using Result = int;  // ncclResult_t
struct RawId {
  char internal[128];
};

struct Nccl {
  Result (*get_version)(int*) = nullptr;
  Result (*get_unique_id)(RawId*) = nullptr;
  Result (*comm_init_rank)(Comm*, int, RawId, int) = nullptr;
  Result (*comm_init_all)(Comm*, int, const int*) = nullptr;
  Result (*comm_destroy)(Comm) = nullptr;
  Result (*comm_abort)(Comm) = nullptr;
  Result (*comm_get_async_error)(Comm, Result*) = nullptr;
  Result (*comm_count)(Comm, int*) = nullptr;
  Result (*comm_cu_device)(Comm, int*) = nullptr;
  Result (*comm_user_rank)(Comm, int*) = nullptr;
  const char* (*get_error_string)(Result) = nullptr;
  Result (*all_reduce)(const void*, void*, size_t, int, int, Comm, void*) = nullptr;
  Result (*reduce)(const void*, void*, size_t, int, int, int, Comm, void*) = nullptr;
  Result (*broadcast)(const void*, void*, size_t, int, int, Comm, void*) = nullptr;
  Result (*reduce_scatter)(const void*, void*, size_t, int, int, Comm, void*) = nullptr;
  Result (*all_gather)(const void*, void*, size_t, int, Comm, void*) = nullptr;
  Result (*send)(const void*, size_t, int, int, Comm, void*) = nullptr;
  Result (*recv)(void*, size_t, int, int, Comm, void*) = nullptr;
  Result (*group_start)() = nullptr;
  Result (*group_end)() = nullptr;
};

void* open_nccl() {
  // NVLink SHARP (multicast) stays off unless the user turns it on: a program
  // that uses it can take a shared host's GPUs out of service for a long time.
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  if (const char* path = std::getenv("KILN_NCCL_LIBRARY"); path && *path)
    if (void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)) return lib;
  return cuda::open_toolkit_library({"libnccl.so.2", "libnccl.so"});
}

const cuda::LoadedApi<Nccl>& load() {
  static const cuda::LoadedApi<Nccl> loaded = cuda::load_api<Nccl>(
      "NCCL",
      "NCCL (libnccl.so.2) could not be loaded: install it (the CUDA toolkit's, a system package, or the "
      "nvidia-nccl-cu13 wheel) or set KILN_NCCL_LIBRARY to its path",
      open_nccl, [](void* lib, Nccl& api) -> const char* {
        const char* missing = nullptr;
        auto resolve = [&](auto& fn, const char* name) { cuda::resolve_named(lib, fn, name, missing); };
        resolve(api.get_version, "ncclGetVersion");
        resolve(api.get_unique_id, "ncclGetUniqueId");
        resolve(api.comm_init_rank, "ncclCommInitRank");
        resolve(api.comm_init_all, "ncclCommInitAll");
        resolve(api.comm_destroy, "ncclCommDestroy");
        resolve(api.comm_abort, "ncclCommAbort");
        resolve(api.comm_get_async_error, "ncclCommGetAsyncError");
        resolve(api.comm_count, "ncclCommCount");
        resolve(api.comm_cu_device, "ncclCommCuDevice");
        resolve(api.comm_user_rank, "ncclCommUserRank");
        resolve(api.get_error_string, "ncclGetErrorString");
        resolve(api.all_reduce, "ncclAllReduce");
        resolve(api.reduce, "ncclReduce");
        resolve(api.broadcast, "ncclBroadcast");
        resolve(api.reduce_scatter, "ncclReduceScatter");
        resolve(api.all_gather, "ncclAllGather");
        resolve(api.send, "ncclSend");
        resolve(api.recv, "ncclRecv");
        resolve(api.group_start, "ncclGroupStart");
        resolve(api.group_end, "ncclGroupEnd");
        return missing;
      });
  return loaded;
}

const Nccl& api() { return cuda::api_or_throw(load()); }

void check(Result result, const char* what) {
  if (result == 0) return;
  throw NcclError(result, std::string(what) + " failed: " + api().get_error_string(result) + " (ncclResult_t " +
                              std::to_string(result) + ")");
}

void* stream_of(uintptr_t stream) { return reinterpret_cast<void*>(stream); }

}  // namespace

struct Communicator::State {
  Comm comm = nullptr;
  int device = 0;
  ~State() {
    if (comm) api().comm_destroy(comm);
  }
};

bool is_available() { return load().error.empty(); }
std::string unavailable_reason() { return load().error; }

int version() {
  int v = 0;
  check(api().get_version(&v), "ncclGetVersion");
  return v;
}

UniqueId unique_id() {
  RawId raw{};
  check(api().get_unique_id(&raw), "ncclGetUniqueId");
  UniqueId id;
  std::copy(std::begin(raw.internal), std::end(raw.internal), id.begin());
  return id;
}

void group_start() { check(api().group_start(), "ncclGroupStart"); }
void group_end() { check(api().group_end(), "ncclGroupEnd"); }

Communicator Communicator::init_rank(int device, int n_ranks, const UniqueId& id, int rank) {
  if (n_ranks < 1) throw ValueError("n_ranks: must be at least 1, got " + std::to_string(n_ranks));
  if (rank < 0 || rank >= n_ranks)
    throw ValueError("rank: must be in [0, " + std::to_string(n_ranks) + "), got " + std::to_string(rank));
  cuda::check_device(device);
  const Nccl& nccl = api();
  RawId raw;
  std::copy(id.begin(), id.end(), raw.internal);
  auto state = std::make_shared<State>();
  state->device = device;
  cuda::ContextScope scope(device);  // NCCL takes the GPU from the current context
  check(nccl.comm_init_rank(&state->comm, n_ranks, raw, rank), "ncclCommInitRank");
  return Communicator(state);
}

std::vector<Communicator> Communicator::init_all(const std::vector<int>& devices) {
  if (devices.empty()) throw ValueError("devices: give at least one device");
  for (int d : devices) cuda::check_device(d);
  std::vector<Comm> comms(devices.size(), nullptr);
  cuda::ContextScope scope(devices[0]);
  check(api().comm_init_all(comms.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
  std::vector<Communicator> out;
  for (size_t i = 0; i < devices.size(); ++i) {
    auto state = std::make_shared<State>();
    state->comm = comms[i];
    state->device = devices[i];
    out.push_back(Communicator(state));
  }
  return out;
}

const Communicator::State& Communicator::live(const char* what) const {
  if (!state_->comm) throw CudaError(std::string(what) + ": the communicator was destroyed");
  return *state_;
}

int Communicator::device() const { return state_->device; }
int Communicator::rank() const {
  int r = 0;
  check(api().comm_user_rank(live("rank").comm, &r), "ncclCommUserRank");
  return r;
}
int Communicator::size() const {
  int n = 0;
  check(api().comm_count(live("size").comm, &n), "ncclCommCount");
  return n;
}
uintptr_t Communicator::handle() const { return reinterpret_cast<uintptr_t>(state_->comm); }

void Communicator::destroy() {
  if (!state_->comm) return;
  Comm comm = state_->comm;
  state_->comm = nullptr;
  check(api().comm_destroy(comm), "ncclCommDestroy");
}
void Communicator::abort() {
  if (!state_->comm) return;
  Comm comm = state_->comm;
  state_->comm = nullptr;
  check(api().comm_abort(comm), "ncclCommAbort");
}
void Communicator::check_async_error() const {
  Result async = 0;
  check(api().comm_get_async_error(live("check_async_error").comm, &async), "ncclCommGetAsyncError");
  check(async, "an earlier NCCL operation");
}

// Each collective is queued with the communicator's device current, so that
// NCCL's stream and memory checks see the right context.
#define KILN_NCCL_CALL(what, call)                 \
  const State& s = live(what);                     \
  cuda::ContextScope scope(s.device);              \
  check(api().call, what)

void Communicator::all_reduce(uintptr_t send, uintptr_t recv, size_t count, int dtype, int op, uintptr_t stream) const {
  KILN_NCCL_CALL("ncclAllReduce", all_reduce(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv),
                                             count, dtype, op, s.comm, stream_of(stream)));
}
void Communicator::reduce(uintptr_t send, uintptr_t recv, size_t count, int dtype, int op, int root,
                          uintptr_t stream) const {
  KILN_NCCL_CALL("ncclReduce", reduce(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                                      dtype, op, root, s.comm, stream_of(stream)));
}
void Communicator::broadcast(uintptr_t send, uintptr_t recv, size_t count, int dtype, int root,
                             uintptr_t stream) const {
  KILN_NCCL_CALL("ncclBroadcast", broadcast(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv),
                                            count, dtype, root, s.comm, stream_of(stream)));
}
void Communicator::reduce_scatter(uintptr_t send, uintptr_t recv, size_t recv_count, int dtype, int op,
                                  uintptr_t stream) const {
  KILN_NCCL_CALL("ncclReduceScatter", reduce_scatter(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv),
                                                     recv_count, dtype, op, s.comm, stream_of(stream)));
}
void Communicator::all_gather(uintptr_t send, uintptr_t recv, size_t send_count, int dtype, uintptr_t stream) const {
  KILN_NCCL_CALL("ncclAllGather", all_gather(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv),
                                             send_count, dtype, s.comm, stream_of(stream)));
}
void Communicator::send(uintptr_t buffer, size_t count, int dtype, int peer, uintptr_t stream) const {
  KILN_NCCL_CALL("ncclSend", send(reinterpret_cast<const void*>(buffer), count, dtype, peer, s.comm, stream_of(stream)));
}
void Communicator::recv(uintptr_t buffer, size_t count, int dtype, int peer, uintptr_t stream) const {
  KILN_NCCL_CALL("ncclRecv", recv(reinterpret_cast<void*>(buffer), count, dtype, peer, s.comm, stream_of(stream)));
}
#undef KILN_NCCL_CALL

}  // namespace kiln::nccl
