// CUDA C on the CPU: what a kernel source needs from the CUDA language when
// it is compiled by the host C++ compiler instead of NVRTC. kiln prepends this
// header to the kernel's source and adds an entry point per kernel that runs
// a whole grid: blocks spread over the cores with OpenMP, the threads of a
// block as fibers on one core, switched at barriers. A kernel without
// barriers runs its threads as a plain loop. A kernel that syncs its grid
// runs every block at once, each on an OS thread of its own, which meet at
// the grid barrier (a cooperative launch).
//
// __shared__ variables become thread_local: one OS thread runs one block at a
// time, and all of that block's fibers live on it.
//
// The grid's machinery (OpenMP's loop over blocks, fault recovery, fibers,
// warp meetings) is the same for every kernel, so it is compiled once per
// compiler and flags into a runtime object every kernel library links
// (host_compiler.cpp): the header is compiled there with
// KILN_HOST_RUNTIME_DEFINITIONS and elsewhere declares it only. Compiling
// it into each kernel's library took 0.13 s of the 0.18 s a small kernel
// took to compile. Its state is hidden, so each kernel library keeps its own.
#pragma once
// First, as in the embedded runtime text (host_launch.hpp, host_language.hpp,
// then this file): host_language.hpp keeps C++17's special math functions
// out of <cmath>, which must not be included before it.
#ifndef KILN_HOST_LAUNCH_HPP
#include "kiln/device/host_launch.hpp"
#endif
#ifndef KILN_HOST_LANGUAGE_HPP
#include "kiln/device/host_language.hpp"
#endif
#include <omp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#define __global__
#define __constant__
#define __managed__
#define __shared__ static thread_local
// (Not with the language's qualifiers: the C++ library spells GNU's attribute
// __noinline__, so this may come only after its headers.)
#define __noinline__ __attribute__((noinline))
// GNU's attribute, as nvcc's: alignas may not follow `static thread_local`
// (what __shared__ is here), as in `__shared__ __align__(16) float s[64]`.
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)

// Vector types and their make_ functions.
#define KILN_VECTOR_TYPES(X)                                                                            \
  X(char, char) X(uchar, unsigned char) X(short, short) X(ushort, unsigned short) X(int, int)         \
  X(uint, unsigned int) X(long, long) X(ulong, unsigned long) X(longlong, long long)                  \
  X(ulonglong, unsigned long long) X(float, float) X(double, double)
#define KILN_DEFINE_VECTOR(name, T)                                                                     \
  struct name##1 { T x; };                                                                             \
  struct alignas(2 * sizeof(T)) name##2 { T x, y; };                                                   \
  struct name##3 { T x, y, z; };                                                                       \
  struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) name##4 { T x, y, z, w; };                 \
  inline name##1 make_##name##1(T x) { return {x}; }                                                   \
  inline name##2 make_##name##2(T x, T y) { return {x, y}; }                                           \
  inline name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }                                  \
  inline name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }
KILN_VECTOR_TYPES(KILN_DEFINE_VECTOR)
#undef KILN_DEFINE_VECTOR
#undef KILN_VECTOR_TYPES

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  dim3() = default;
  constexpr dim3(unsigned int x_, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};

#pragma GCC visibility push(hidden)
// Inline variables: the kernel and the runtime object each define them, the
// link merges them into one per library. Local-dynamic, as they were while
// each kernel's library defined its own static ones: one lookup of the
// library's block finds them all.
#define KILN_HOST_STATE inline thread_local __attribute__((tls_model("local-dynamic")))
KILN_HOST_STATE uint3 threadIdx;
KILN_HOST_STATE uint3 blockIdx;
KILN_HOST_STATE dim3 blockDim;
KILN_HOST_STATE dim3 gridDim;
constexpr int warpSize = kiln_host::kWarpSize;

namespace kiln_host {

constexpr size_t kFiberStack = size_t{256} << 10;

KILN_HOST_STATE Launch* current_launch;

// extern __shared__ arrays all start here: one buffer per OS thread, stable
// for the thread's life, as each thread runs one block at a time. Defined
// with the runtime, like every function here that uses a standard container:
// an inline one would have each kernel instantiate the container anew.
char* dynamic_shared();
#ifdef KILN_HOST_RUNTIME_DEFINITIONS
char* dynamic_shared() {
  static thread_local std::vector<char> buffer(kMaxDynamicShared + 16);
  return reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(buffer.data()) + 15) & ~uintptr_t{15});
}
#endif

// ---- fibers ------------------------------------------------------------
// A context switch saves the callee-saved registers on the old stack and
// pops them from the new one (System V x86-64).
#if !defined(__x86_64__)
#error "kiln runs CUDA C on the CPU on x86-64 only so far (its fibers switch with x86-64 code)"
#endif
extern "C" void kiln_host_switch(void** save_sp, void* load_sp);
#ifdef KILN_HOST_RUNTIME_DEFINITIONS
asm(R"(
  .text
  .p2align 4
  .globl kiln_host_switch
  .hidden kiln_host_switch
  .type kiln_host_switch, @function
kiln_host_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size kiln_host_switch, .-kiln_host_switch
)");
#endif

struct Fiber {
  void* sp = nullptr;
  char* stack = nullptr;  // mmap'd, a guard page at the bottom
  uint3 thread;
  int state = 0;          // kRunnable, kAtBarrier, kAtWarp, kAtGrid, kWaiting, kDone
  // A warp intrinsic waiting for the rest of its warp: what this lane brings
  // (the operation, its value's bits, a lane or delta, the segment width, the
  // mask) and, once the warp has met, what it gets back.
  int warp_op = 0, warp_arg = 0, warp_width = 32;
  unsigned warp_mask = 0;
  unsigned long long warp_value = 0, warp_result = 0;
};
// kWaiting: the thread waits for others in a loop of its own (cuda::barrier's
// wait) and lets the block's other threads run a turn (wait_a_turn).
enum { kRunnable, kAtBarrier, kAtWarp, kAtGrid, kWaiting, kDone };

// The warp intrinsics: each lane of a 32-thread warp (threads numbered x
// fastest, as CUDA numbers them) stops at the call; when every lane of the
// warp that can get there has, the values are exchanged and all go on.
enum WarpOp { kShuffle, kShuffleUp, kShuffleDown, kShuffleXor, kBallot, kAny, kAll, kMatchAny, kMatchAll, kSyncWarp,
              kActiveMask };
constexpr int kWarpLanes = kWarpSize;

struct GridBarrier;

struct Block {
  void* scheduler_sp = nullptr;
  GridBarrier* grid = nullptr;  // where a cooperative launch's blocks meet; null in other launches
  std::vector<Fiber> fibers;
  int current = 0;
  void (*body)(void*) = nullptr;
  void* body_context = nullptr;
  int barrier_count = 0, last_count = 0;  // __syncthreads_count and friends
};
KILN_HOST_STATE Block* current_block;
// Set while a blockwise kernel (below) runs a block: it keeps threadIdx
// current in memory, so a fault can name the thread. Volatile, as the
// signal handler's reads are invisible to the compiler, which would keep
// these stores in registers or drop them.
KILN_HOST_STATE volatile bool thread_index_known;
inline void enter_thread(unsigned x, unsigned y, unsigned z) {
  volatile uint3& index = threadIdx;
  index.x = x, index.y = y, index.z = z;
}

void fail(const char* message);
bool meet_warps(Block& b, unsigned count);
bool meet_grid(Block& b, unsigned count);
// Runs the whole grid; returns 0, or -1 with launch->error set. `one_thread`
// runs the kernel for the current thread, `all_threads` for each thread of
// the current block in turn (a block without fibers); a kernel has one of
// them, the other null (run_grid).
int run_blocks(Launch* launch, void* body, void (*one_thread)(void*), void (*all_threads)(void*));

#ifdef KILN_HOST_RUNTIME_DEFINITIONS
thread_local Block block_fibers;  // this OS thread's fibers, reused by every launch

[[noreturn]] void fiber_main() {
  Block* b = current_block;
  b->body(b->body_context);
  b->fibers[b->current].state = kDone;
  kiln_host_switch(&b->fibers[b->current].sp, b->scheduler_sp);
  __builtin_unreachable();
}

char* new_stack() {
  void* p = mmap(nullptr, kFiberStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  mprotect(p, 4096, PROT_NONE);  // an overflow faults instead of corrupting a neighbour
  return static_cast<char*>(p);
}

// Gives the stacks of this OS thread's fibers back.
void release_stacks(Block& b) {
  for (Fiber& f : b.fibers)
    if (f.stack) munmap(f.stack, kFiberStack);
  b.fibers.clear();
}

// A fresh context whose first switch "returns" into fiber_main.
void reset(Fiber& f) {
  void** sp = reinterpret_cast<void**>(f.stack + kFiberStack);
  *--sp = nullptr;                                   // keeps the entry stack 16-byte aligned
  *--sp = reinterpret_cast<void*>(&fiber_main);      // ret target
  for (int r = 0; r < 6; ++r) *--sp = nullptr;       // rbp rbx r12-r15
  f.sp = sp;
  f.state = kRunnable;
}

// Runs one block's threads as fibers until all are done, or until the
// launch fails while they wait at the grid barrier (they are then
// abandoned: the next block resets them).
void run_fibers(Block& b, unsigned count) {
  if (b.fibers.size() < count) b.fibers.resize(count);
  unsigned i = 0;
  for (unsigned z = 0; z < blockDim.z; ++z)
    for (unsigned y = 0; y < blockDim.y; ++y)
      for (unsigned x = 0; x < blockDim.x; ++x, ++i) {
        Fiber& f = b.fibers[i];
        if (!f.stack && !(f.stack = new_stack())) return fail("could not allocate fiber stacks");
        f.thread = uint3{x, y, z};
        reset(f);
      }
  current_block = &b;
  for (;;) {
    for (unsigned k = 0; k < count; ++k) {
      Fiber& f = b.fibers[k];
      if (f.state != kRunnable) continue;
      b.current = static_cast<int>(k);
      threadIdx = f.thread;
      kiln_host_switch(&b.scheduler_sp, f.sp);
    }
    bool looping = false;  // threads that wait in loops of their own run again
    for (unsigned k = 0; k < count; ++k)
      if (b.fibers[k].state == kWaiting) {
        b.fibers[k].state = kRunnable;
        looping = true;
      }
    if (meet_warps(b, count)) continue;  // warp intrinsics first: their lanes may then reach a barrier
    if (looping) {
      // Until the others arrive, as on a GPU; a failed launch or Ctrl-C ends the wait.
      Launch* l = current_launch;
      if (l && l->interrupted && *l->interrupted) fail(kInterrupted);
      if (l && l->error[0]) break;
      continue;
    }
    bool waiting = false;
    for (unsigned k = 0; k < count; ++k)
      if (b.fibers[k].state == kAtBarrier) {
        b.fibers[k].state = kRunnable;
        waiting = true;
      }
    if (waiting) {
      b.last_count = b.barrier_count;
      b.barrier_count = 0;
    } else if (!meet_grid(b, count)) {
      break;  // all done, or the launch failed
    }
  }
  current_block = nullptr;
}

// Each warp's lanes stopped at warp intrinsics get their results; returns
// whether any did. Lanes that ended or wait at a block barrier take no part
// (as lanes outside a shuffle's mask do not).
bool meet_warps(Block& b, unsigned count) {
  bool met = false;
  for (unsigned first = 0; first < count; first += kWarpLanes) {
    const unsigned lanes = count - first < kWarpLanes ? count - first : kWarpLanes;
    Fiber* w = &b.fibers[first];
    unsigned arrived = 0;
    bool running = false;  // a lane in a waiting loop may yet come to the intrinsic
    for (unsigned i = 0; i < lanes; ++i) {
      if (w[i].state == kAtWarp) arrived |= 1u << i;
      running = running || w[i].state == kRunnable;
    }
    if (!arrived || running) continue;
    met = true;
    for (unsigned i = 0; i < lanes; ++i) {
      Fiber& f = w[i];
      if (f.state != kAtWarp) continue;
      const unsigned with = arrived & f.warp_mask;
      const int width = f.warp_width, segment = static_cast<int>(i) & ~(width - 1), offset = static_cast<int>(i) - segment;
      int source = -1;
      switch (f.warp_op) {
        case kShuffle: source = segment + (f.warp_arg & (width - 1)); break;
        case kShuffleUp: source = offset - f.warp_arg >= 0 ? static_cast<int>(i) - f.warp_arg : -1; break;
        case kShuffleDown: source = offset + f.warp_arg < width ? static_cast<int>(i) + f.warp_arg : -1; break;
        case kShuffleXor: {
          const int lane = static_cast<int>(i) ^ f.warp_arg;
          source = (lane & ~(width - 1)) == segment ? lane : -1;
          break;
        }
        default: break;
      }
      unsigned long long r = 0;
      switch (f.warp_op) {
        case kShuffle: case kShuffleUp: case kShuffleDown: case kShuffleXor:
          r = source >= 0 && source < static_cast<int>(lanes) && (arrived >> source & 1) ? w[source].warp_value
                                                                                            : f.warp_value;
          break;
        case kBallot: case kAny: case kAll: {
          unsigned votes = 0;
          for (unsigned j = 0; j < lanes; ++j)
            if ((with >> j & 1) && w[j].warp_value) votes |= 1u << j;
          r = f.warp_op == kBallot ? votes : f.warp_op == kAny ? votes != 0 : votes == with;
          break;
        }
        case kMatchAny: case kMatchAll: {
          unsigned same = 0;
          for (unsigned j = 0; j < lanes; ++j)
            if ((with >> j & 1) && w[j].warp_value == f.warp_value) same |= 1u << j;
          r = f.warp_op == kMatchAny ? same : (same == with ? with : 0);
          break;
        }
        case kActiveMask: {  // the lanes at this very call (its site is the value): a branch's side only
          for (unsigned j = 0; j < lanes; ++j)
            if ((arrived >> j & 1) && w[j].warp_op == kActiveMask && w[j].warp_value == f.warp_value) r |= 1u << j;
          break;
        }
        default: break;  // __syncwarp: only the meeting
      }
      f.warp_result = r;
      f.state = kRunnable;
    }
  }
  return met;
}

// The grid barrier of a cooperative launch: each block's OS thread arrives
// once all of the block's running threads have; the last of the blocks
// still running releases them all. A block that ends leaves the count, so
// the rest are not kept waiting for it (a GPU would hang).
struct GridBarrier {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t met = PTHREAD_COND_INITIALIZER;
  long long live;  // blocks still running
  long long arrived = 0;
  unsigned long long generation = 0;

  explicit GridBarrier(long long blocks) : live(blocks) {}
  ~GridBarrier() {
    pthread_cond_destroy(&met);
    pthread_mutex_destroy(&mutex);
  }
  void release() {  // with the mutex held
    arrived = 0;
    ++generation;
    pthread_cond_broadcast(&met);
  }
  // Returns once every running block has arrived; false when the launch
  // failed or Ctrl-C came meanwhile (the block then stops).
  bool arrive(Launch* launch) {
    pthread_mutex_lock(&mutex);
    const unsigned long long seen = generation;
    if (++arrived == live) release();
    while (generation == seen) {
      if (launch->interrupted && *launch->interrupted) fail(kInterrupted);
      if (launch->error[0]) {
        --arrived;
        break;
      }
      timespec until;  // woken to look at Ctrl-C now and then
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += 50000000;
      if (until.tv_nsec >= 1000000000) until.tv_sec += 1, until.tv_nsec -= 1000000000;
      pthread_cond_timedwait(&met, &mutex, &until);
    }
    pthread_mutex_unlock(&mutex);
    return !launch->error[0];
  }
  void leave() {
    pthread_mutex_lock(&mutex);
    --live;
    if (arrived > 0 && arrived == live) release();
    pthread_mutex_unlock(&mutex);
  }
};

// When none of the block's threads can run and some wait at the grid
// barrier: the block meets the grid, and those threads go on. Returns
// whether they do.
bool meet_grid(Block& b, unsigned count) {
  bool waiting = false;
  for (unsigned k = 0; k < count; ++k) waiting = waiting || b.fibers[k].state == kAtGrid;
  if (!waiting) return false;
  if (!b.grid) {
    fail("the kernel synced its grid in a launch that is not cooperative");
    return false;
  }
  if (!b.grid->arrive(current_launch)) return false;
  for (unsigned k = 0; k < count; ++k)
    if (b.fibers[k].state == kAtGrid) b.fibers[k].state = kRunnable;
  return true;
}

void fail(const char* message) {
  Launch* l = current_launch;
  if (l && !l->error[0]) {
    strncpy(l->error, message, sizeof l->error - 1);
  }
}

// A signal in this thread's block: the launch fails, naming the block and
// the thread that was running (the CPU's counterpart of a GPU's illegal
// address error).
void report_fault(int signal_number) {
  const char* what = signal_number == SIGSEGV ? "a segmentation fault (an access outside the memory it may use)"
                     : signal_number == SIGBUS ? "a bus error (a misaligned or unmapped access)"
                     : signal_number == SIGFPE ? "an arithmetic fault (an integer division by zero)"
                                               : "an illegal instruction";
  char message[sizeof current_launch->error];
  // A block run as fibers or blockwise knows its running thread; a plain loop
  // over the threads keeps the thread index in registers, so only the block
  // is known.
  if (current_block || thread_index_known)
    snprintf(message, sizeof message, "%s in block (%u, %u, %u), thread (%u, %u, %u)", what, blockIdx.x, blockIdx.y,
             blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
  else
    snprintf(message, sizeof message, "%s in block (%u, %u, %u)", what, blockIdx.x, blockIdx.y, blockIdx.z);
  if (current_launch && !current_launch->error[0]) current_launch->faulted = 1;
  fail(message);
}

#endif  // KILN_HOST_RUNTIME_DEFINITIONS

// Inline in the kernel: a barrier is met once a thread per block.
inline int barrier(int predicate) {
  Block* b = current_block;
  if (!b) {
    // A block of one thread runs without fibers: its barriers are met at once.
    if (blockDim.x * blockDim.y * blockDim.z == 1) return predicate ? 1 : 0;
    fail("__syncthreads was reached in a kernel run without fibers");
    return 0;
  }
  b->barrier_count += predicate ? 1 : 0;
  Fiber& f = b->fibers[b->current];
  f.state = kAtBarrier;
  kiln_host_switch(&f.sp, b->scheduler_sp);
  return b->last_count;
}

// Inline in the kernel: one turn of a loop that waits for the block's other
// threads (cuda::barrier's wait): they run, then this thread looks again.
// False where no other thread can run (a block run without fibers): the
// launch fails rather than loop forever.
inline bool wait_a_turn() {
  Block* b = current_block;
  if (!b) {
    fail("a thread waited for others (cuda::barrier) in a kernel run without fibers");
    return false;
  }
  Fiber& f = b->fibers[b->current];
  f.state = kWaiting;
  kiln_host_switch(&f.sp, b->scheduler_sp);
  return true;
}

// Inline in the kernel: the grid barrier (kiln/device/grid_sync.cuh).
inline void grid_sync() {
  Block* b = current_block;
  if (!b) {
    fail("the kernel synced its grid in a launch that is not cooperative");
    return;
  }
  Fiber& f = b->fibers[b->current];
  f.state = kAtGrid;
  kiln_host_switch(&f.sp, b->scheduler_sp);
}

// A kernel run without fibers has blocks of one thread: a warp of one lane.
unsigned long long lone_lane_exchange(int op, unsigned long long value, int arg, int width, unsigned mask);
#ifdef KILN_HOST_RUNTIME_DEFINITIONS
unsigned long long lone_lane_exchange(int op, unsigned long long value, int arg, int width, unsigned mask) {
  Block single;
  Fiber lane;
  lane.state = kAtWarp, lane.warp_op = op, lane.warp_value = value, lane.warp_arg = arg;
  lane.warp_width = width, lane.warp_mask = mask;
  single.fibers.push_back(lane);
  meet_warps(single, 1);
  return single.fibers[0].warp_result;
}
#endif

// This lane's part in a warp intrinsic (see meet_warps).
inline unsigned long long warp_exchange(int op, unsigned long long value, int arg, int width, unsigned mask) {
  Block* b = current_block;
  if (!b) return lone_lane_exchange(op, value, arg, width, mask);
  Fiber& f = b->fibers[b->current];
  f.warp_op = op, f.warp_value = value, f.warp_arg = arg, f.warp_width = width, f.warp_mask = mask;
  f.state = kAtWarp;
  kiln_host_switch(&f.sp, b->scheduler_sp);
  return f.warp_result;
}
template <class T> unsigned long long warp_bits(T v) {
  static_assert(sizeof(T) <= 8, "warp intrinsics exchange values of at most 8 bytes");
  unsigned long long bits = 0;
  memcpy(&bits, &v, sizeof v);
  return bits;
}
template <class T> T from_warp_bits(unsigned long long bits) {
  T v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

// The trailing parameter of a kernel that runs a whole block in one call,
// looping over its threads itself between its barriers: kiln.cuda.jit's CPU
// form of such kernels (python/kiln/_jit/blockwise.py) and CUDA C that
// src/cpu/barrier_regions.cpp rewrote. The launch passes no argument for it.
struct Blockwise {};

// A block's per-thread variables in such a kernel: `bytes` of this OS
// thread's scratch buffer (one block to an OS thread at a time), reused by
// every block, and `count` elements of T carved from it in turn.
char* block_scratch(size_t bytes);
#ifdef KILN_HOST_RUNTIME_DEFINITIONS
char* block_scratch(size_t bytes) {
  static thread_local std::vector<char> buffer;
  if (buffer.size() < bytes + 64) buffer.resize(bytes + 64);
  return reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(buffer.data()) + 63) & ~uintptr_t{63});
}
#endif
template <class T>
T* carve(char*& base, size_t count) {
  constexpr uintptr_t align = alignof(T) > 64 ? 64 : alignof(T);
  T* p = reinterpret_cast<T*>((reinterpret_cast<uintptr_t>(base) + align - 1) & ~(align - 1));
  base = reinterpret_cast<char*>(p + count);
  return p;
}

template <class T>
T argument(void** args, size_t i) {
  if constexpr (std::is_same_v<T, Blockwise>) return {};
  else return *static_cast<T*>(args[i]);
}

// The kernel's arguments, copied once from the launch's argument pointers
// into one slot each. Not a std::tuple: instantiating std::tuple and
// std::apply for each kernel's parameter types was a third of a small
// kernel's compile time.
template <size_t I, class T>
struct Slot {
  T value;
};
template <class Indices, class... T>
struct Arguments;
template <size_t... I, class... T>
struct Arguments<std::index_sequence<I...>, T...> : Slot<I, T>... {
  explicit Arguments(void** args) : Slot<I, T>{argument<T>(args, I)}... {}
  template <class... P>
  void call(void (*kernel)(P...)) { kernel(static_cast<Slot<I, T>&>(*this).value...); }  // each run gets copies
};
template <class... P>
Arguments<std::index_sequence_for<P...>, std::decay_t<P>...> arguments_of(void (*)(P...));

// Whether a kernel runs a whole block in one call (its last parameter is
// Blockwise).
template <class... P>
constexpr bool takes_blockwise(void (*)(P...)) {
  return (std::is_same_v<P, Blockwise> || ...);
}
template <auto Kernel>
inline constexpr bool blockwise = takes_blockwise(Kernel);

// One thread's run of the kernel. The kernel is a template argument, so a
// block's loop over its threads has it inlined (and the thread-local
// builtins' addresses hoisted out of the loop).
template <auto Kernel>
struct Body {
  decltype(arguments_of(Kernel)) args;
  void operator()() { args.call(Kernel); }
  static void run(void* self) { (*static_cast<Body*>(self))(); }
  // Each of the current block's threads in turn. Only the component that
  // changes is written: the inner loop stays a store, the inlined kernel
  // body and a compare.
  static void run_threads(void* self) {
    Body& body = *static_cast<Body*>(self);
    if constexpr (blockwise<Kernel>) {
      thread_index_known = true;
      body();
      thread_index_known = false;
      return;
    }
    const dim3 block = blockDim;
    for (unsigned z = 0; z < block.z; ++z) {
      threadIdx.z = z;
      for (unsigned y = 0; y < block.y; ++y) {
        threadIdx.y = y;
        for (unsigned x = 0; x < block.x; ++x) {
          threadIdx.x = x;
          body();
        }
      }
    }
  }
};

// The grid of `Kernel`, from a source with barriers or warp intrinsics
// (`Barriers`) or a grid sync (`Cooperative`). A block runs as fibers where
// the source has barriers and the kernel does not loop over its threads
// itself (blockwise), and in a cooperative launch; otherwise as one call of
// the loop over its threads. Only that form is compiled, as each has the
// kernel inlined (a small kernel's loop over threads took 10 ms of its 50 ms
// compile, its fibers' one-thread function 4 ms); run_block tells them
// apart by the function passed (a null all_threads: fibers).
template <auto Kernel, bool Barriers, bool Cooperative>
int run_grid(Launch* launch, void** args) {
  Body<Kernel> body{decltype(arguments_of(Kernel))(args)};
  constexpr bool fibers = Cooperative || (Barriers && !blockwise<Kernel>);
  void (*one_thread)(void*) = nullptr;
  void (*all_threads)(void*) = nullptr;
  if constexpr (fibers) one_thread = &Body<Kernel>::run;
  else all_threads = &Body<Kernel>::run_threads;
  return run_blocks(launch, &body, one_thread, all_threads);
}

#ifdef KILN_HOST_RUNTIME_DEFINITIONS
// What each OS thread of a launch sets before running blocks.
void enter_launch(Launch* launch, void* body, void (*one_thread)(void*)) {
  current_launch = launch;
  gridDim = dim3(launch->grid[0], launch->grid[1], launch->grid[2]);
  blockDim = dim3(launch->block[0], launch->block[1], launch->block[2]);
  block_fibers.body = one_thread;
  block_fibers.body_context = body;
}

// Block `lin` (its linear index) on this OS thread; a fault in it fails the
// launch, naming the block.
void run_block(Launch* launch, long long lin, void* body, void (*all_threads)(void*)) {
  const dim3 grid = gridDim;
  blockIdx = uint3{static_cast<unsigned>(lin % grid.x), static_cast<unsigned>(lin / grid.x % grid.y),
                   static_cast<unsigned>(lin / ((long long)grid.x * grid.y))};
  sigjmp_buf fault_exit;  // where libkiln's signal handler comes back to
  if (const int signal_number = sigsetjmp(fault_exit, 0)) {
    report_fault(signal_number);
    current_block = nullptr;  // the block's fibers are abandoned; the next block resets them
    thread_index_known = false;
    return;
  }
  if (launch->guard) launch->guard(&fault_exit);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  if (all_threads) {
    all_threads(body);
  } else if (threads > 1 || launch->cooperative) {
    run_fibers(block_fibers, threads);
  } else {  // a kernel compiled for fibers, in a block of one thread: no other thread to meet
    enter_thread(0, 0, 0);
    thread_index_known = true;
    block_fibers.body(body);
    thread_index_known = false;
  }
  if (launch->guard) launch->guard(nullptr);
}

int run_blocks(Launch* launch, void* body, void (*one_thread)(void*), void (*all_threads)(void*)) {
  const long long blocks = (long long)launch->grid[0] * launch->grid[1] * launch->grid[2];
  const int usual = omp_get_max_threads();  // the OS threads a launch of many blocks uses
  if (launch->cooperative) {
    // Every block at once, as a GPU's cooperative launch has them resident.
    GridBarrier barrier(blocks);
#pragma omp parallel num_threads(static_cast<int>(blocks))
    {
      enter_launch(launch, body, one_thread);
      if (omp_get_num_threads() != blocks) {
        fail("a cooperative launch could not have an OS thread for each of its blocks (is OMP_THREAD_LIMIT set?)");
      } else {
        block_fibers.grid = &barrier;
        if (!(launch->interrupted && *launch->interrupted)) run_block(launch, omp_get_thread_num(), body, all_threads);
        else fail(kInterrupted);
        block_fibers.grid = nullptr;
        barrier.leave();
        if (omp_get_thread_num() >= usual) release_stacks(block_fibers);  // only cooperative launches use them
      }
      current_launch = nullptr;
    }
    return launch->error[0] ? -1 : 0;
  }
  // One block (an @njit function's entry, a small launch) runs on the
  // calling thread itself, without a team: what its code sets of OpenMP's
  // per-thread settings (kiln.numba's set_num_threads and
  // set_parallel_chunksize) stays the caller's, as Numba's thread-local
  // settings do, and its parallel loops are a first level of parallelism.
  if (blocks == 1) {
    enter_launch(launch, body, one_thread);
    if (launch->interrupted && *launch->interrupted) fail(kInterrupted);
    else run_block(launch, 0, body, all_threads);
    current_launch = nullptr;
    return launch->error[0] ? -1 : 0;
  }
  // No more OS threads than blocks: waking 64 cores for a one-block launch
  // took 0.2 ms on a 64-core host (6 us on 16 cores).
#pragma omp parallel num_threads(blocks < usual ? static_cast<int>(blocks) : usual)
  {
    enter_launch(launch, body, one_thread);
    // Blocks are handed out a few at a time: one at a time costs more than a
    // short block's work, too many at a time leaves cores idle at the end.
    const long long chunk = blocks / (8LL * omp_get_num_threads()) + 1;
#pragma omp for schedule(dynamic, chunk)
    for (long long lin = 0; lin < blocks; ++lin) {
      if (launch->interrupted && *launch->interrupted) fail(kInterrupted);
      if (launch->error[0]) continue;
      run_block(launch, lin, body, all_threads);
    }
    current_launch = nullptr;
  }
  return launch->error[0] ? -1 : 0;
}

#endif  // KILN_HOST_RUNTIME_DEFINITIONS

// ---- atomics -----------------------------------------------------------
// CUDA's atomics (below) are plain inline functions of the precompiled
// runtime header. A template they called would be instantiated again in
// each kernel compiled against it (a dozen, about 3 ms of a small kernel's
// compile), so their compare-and-swap loop is this macro: `next`, an
// expression of `old`, stored into *p; returns the old value.
#define KILN_ATOMIC_LOOP(T, p, next)                                                             \
  T old, updated;                                                                                \
  __atomic_load(p, &old, __ATOMIC_RELAXED);                                                      \
  do updated = (next);                                                                           \
  while (!__atomic_compare_exchange(p, &old, &updated, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); \
  return old;

}  // namespace kiln_host
#pragma GCC visibility pop

inline void __syncthreads() { kiln_host::barrier(0); }
inline int __syncthreads_count(int p) { return kiln_host::barrier(p); }
inline int __syncthreads_and(int p) {
  const unsigned n = blockDim.x * blockDim.y * blockDim.z;
  return kiln_host::barrier(p) == static_cast<int>(n);
}
inline int __syncthreads_or(int p) { return kiln_host::barrier(p) != 0; }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// CUDA's atomics are overloads (so that atomicAdd(&u, 1) converts the 1).
#define KILN_ATOMIC_ADD(T) \
  inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
KILN_ATOMIC_ADD(int) KILN_ATOMIC_ADD(unsigned int) KILN_ATOMIC_ADD(unsigned long long) KILN_ATOMIC_ADD(long long)
#undef KILN_ATOMIC_ADD
inline float atomicAdd(float* p, float v) { KILN_ATOMIC_LOOP(float, p, old + v) }
inline double atomicAdd(double* p, double v) { KILN_ATOMIC_LOOP(double, p, old + v) }
inline int atomicSub(int* p, int v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }
inline unsigned atomicSub(unsigned* p, unsigned v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }
#define KILN_ATOMIC_BITS(T)                                                                        \
  inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }          \
  inline T atomicCAS(T* p, T c, T v) {                                                            \
    __atomic_compare_exchange(p, &c, &v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);              \
    return c;                                                                                     \
  }                                                                                               \
  inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }            \
  inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }              \
  inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }            \
  inline T atomicMin(T* p, T v) { KILN_ATOMIC_LOOP(T, p, v < old ? v : old) }                     \
  inline T atomicMax(T* p, T v) { KILN_ATOMIC_LOOP(T, p, v > old ? v : old) }
KILN_ATOMIC_BITS(int) KILN_ATOMIC_BITS(unsigned int) KILN_ATOMIC_BITS(unsigned long long)
KILN_ATOMIC_BITS(long long)
#undef KILN_ATOMIC_BITS
inline unsigned short atomicCAS(unsigned short* p, unsigned short c, unsigned short v) {
  __atomic_compare_exchange(p, &c, &v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return c;
}
inline float atomicExch(float* p, float v) {
  float old;
  __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
  return old;
}
inline unsigned atomicInc(unsigned* p, unsigned limit) { KILN_ATOMIC_LOOP(unsigned, p, old >= limit ? 0u : old + 1) }
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  KILN_ATOMIC_LOOP(unsigned, p, (old == 0 || old > limit) ? limit : old - 1)
}
#undef KILN_ATOMIC_LOOP

// Warp-level intrinsics: the lanes of a warp meet (kiln_host::meet_warps).
template <class T> T __shfl_sync(unsigned mask, T v, int lane, int width = warpSize) {
  return kiln_host::from_warp_bits<T>(kiln_host::warp_exchange(kiln_host::kShuffle, kiln_host::warp_bits(v), lane, width, mask));
}
template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = warpSize) {
  return kiln_host::from_warp_bits<T>(
      kiln_host::warp_exchange(kiln_host::kShuffleUp, kiln_host::warp_bits(v), static_cast<int>(delta), width, mask));
}
template <class T> T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = warpSize) {
  return kiln_host::from_warp_bits<T>(
      kiln_host::warp_exchange(kiln_host::kShuffleDown, kiln_host::warp_bits(v), static_cast<int>(delta), width, mask));
}
template <class T> T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = warpSize) {
  return kiln_host::from_warp_bits<T>(
      kiln_host::warp_exchange(kiln_host::kShuffleXor, kiln_host::warp_bits(v), lane_mask, width, mask));
}
inline unsigned __ballot_sync(unsigned mask, int p) {
  return static_cast<unsigned>(kiln_host::warp_exchange(kiln_host::kBallot, p != 0, 0, warpSize, mask));
}
inline int __any_sync(unsigned mask, int p) {
  return static_cast<int>(kiln_host::warp_exchange(kiln_host::kAny, p != 0, 0, warpSize, mask));
}
inline int __all_sync(unsigned mask, int p) {
  return static_cast<int>(kiln_host::warp_exchange(kiln_host::kAll, p != 0, 0, warpSize, mask));
}
inline void __syncwarp(unsigned mask = 0xffffffffu) { kiln_host::warp_exchange(kiln_host::kSyncWarp, 0, 0, warpSize, mask); }
// __activemask() names its call site (a static of its own per use), so that
// lanes stopped at different calls, as the two sides of a branch, are not
// counted together.
inline unsigned kiln_active_mask(const void* site) {
  return static_cast<unsigned>(
      kiln_host::warp_exchange(kiln_host::kActiveMask, reinterpret_cast<uintptr_t>(site), 0, warpSize, 0xffffffffu));
}
#define __activemask() kiln_active_mask([] { static const char kiln_site = 0; return &kiln_site; }())
template <class T> unsigned __match_any_sync(unsigned mask, T v) {
  return static_cast<unsigned>(kiln_host::warp_exchange(kiln_host::kMatchAny, kiln_host::warp_bits(v), 0, warpSize, mask));
}
template <class T> unsigned __match_all_sync(unsigned mask, T v, int* pred) {
  const unsigned r = static_cast<unsigned>(
      kiln_host::warp_exchange(kiln_host::kMatchAll, kiln_host::warp_bits(v), 0, warpSize, mask));
  *pred = r != 0;
  return r;
}
