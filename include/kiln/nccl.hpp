#pragma once
// NCCL collectives between GPUs, on buffers given by device address (what
// cupy.cuda.nccl offers, and what kiln.distributed builds on). NCCL is loaded
// with dlopen on first use ($KILN_NCCL_LIBRARY, libnccl.so.2 on the loader's
// path, the CUDA toolkit's lib and lib64); without it every call throws
// kiln::CudaError saying so. The data type and reduction codes are NCCL's
// (ncclDataType_t, ncclRedOp_t); a failed call throws NcclError.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kiln/error.hpp"

namespace kiln::nccl {

// An NCCL call returned `status` (an ncclResult_t) other than success.
struct NcclError : CudaError {
  NcclError(int status, const std::string& message) : CudaError(message), status(status) {}
  int status;
};

bool is_available();
std::string unavailable_reason();
int version();  // e.g. 22809 for 2.28.9

// The 128 opaque bytes one rank makes and every rank passes to Communicator::init_rank.
using UniqueId = std::array<char, 128>;
UniqueId unique_id();

// Collectives in a group run as one operation (needed where one thread
// drives several GPUs); groups nest.
void group_start();
void group_end();

class Communicator {
 public:
  // This process's rank of `n_ranks` on `device`; blocks until every rank has joined.
  static Communicator init_rank(int device, int n_ranks, const UniqueId& id, int rank);
  // One communicator per device, all in this process (ncclCommInitAll).
  static std::vector<Communicator> init_all(const std::vector<int>& devices);

  int device() const;
  int rank() const;
  int size() const;
  uintptr_t handle() const;
  // Frees NCCL's resources once the queued work is done (destroy) or at once (abort).
  void destroy();
  void abort();
  // NcclError if an asynchronous error (a peer died, a network failure) was seen.
  void check_async_error() const;

  // Buffers are device addresses, counts are elements, `stream` is a CUstream of this communicator's device (0: the null stream).
  void all_reduce(uintptr_t send, uintptr_t recv, size_t count, int dtype, int op, uintptr_t stream) const;
  void reduce(uintptr_t send, uintptr_t recv, size_t count, int dtype, int op, int root, uintptr_t stream) const;
  void broadcast(uintptr_t send, uintptr_t recv, size_t count, int dtype, int root, uintptr_t stream) const;
  void reduce_scatter(uintptr_t send, uintptr_t recv, size_t recv_count, int dtype, int op, uintptr_t stream) const;
  void all_gather(uintptr_t send, uintptr_t recv, size_t send_count, int dtype, uintptr_t stream) const;
  void send(uintptr_t buffer, size_t count, int dtype, int peer, uintptr_t stream) const;
  void recv(uintptr_t buffer, size_t count, int dtype, int peer, uintptr_t stream) const;

  struct State;

 private:
  explicit Communicator(std::shared_ptr<State> state) : state_(std::move(state)) {}
  const State& live(const char* what) const;
  std::shared_ptr<State> state_;
};

}  // namespace kiln::nccl
