#pragma once
// Automatic fusion of elementwise ops. With fusion on, an elementwise op
// (kiln/ops.hpp) checks its arguments, promotes and broadcasts as it always
// does, then records itself instead of running: its result is an Array over
// a pending Buffer. Pending results used as inputs of further elementwise
// ops join one expression graph; the graph runs as ONE generated kernel
// (kiln/device/fused.cuh, compiled by the device's backend like any
// RawModule) when anything needs its memory: a non-elementwise op, a copy to
// the host, a write into one of its inputs, a sync, flush().
//
// A pending result that dies unused (never read, never inlined into another
// graph) runs as it dies, so work costs what eager code spends on it.
//
// A reduction (sum, prod, min, max, any, all, and so mean) of a whole
// pending result computes its elements where it reads them: the value is
// never stored, and the reduction combines the elements in the order it
// would combine stored ones, so the result is the same bit for bit.
// Graphs are recorded and run by one thread at a time (Python's GIL; C++
// callers sharing arrays across threads serialise as they would for writes).
//
// Generated kernels are keyed by the graph's structure, dtypes and layout
// class, never by values or sizes, so a loop over one expression compiles
// once. The first time a graph is seen its ops run one by one while a
// worker thread compiles it (or it waits, with wait_for_compile).
#include <cstdint>
#include <string>

#include "kiln/array.hpp"

namespace kiln::fusion {

struct Settings {
  bool enabled = true;  // KILN_FUSION=0 in the environment starts with false
  // On the CPU, results smaller than this run op by op: a fused kernel saves
  // memory passes, which only pay on arrays larger than the caches.
  int64_t cpu_min_size = int64_t{1} << 16;
  // A graph seen for the first time: false runs it op by op now while a
  // worker compiles its kernel for later runs; true compiles and waits.
  bool wait_for_compile = false;
  // Longest chain of ops and most distinct input arrays one kernel takes;
  // a larger graph runs what it has first.
  int max_ops = 64;
  int max_inputs = 12;
  // GPU: let NVRTC contract a multiply in one op and an add in the next
  // into one fused multiply-add, rounded once where op-by-op code rounds
  // twice. Off, fused results match op-by-op results bit for bit. The
  // CPU's host compiler never contracts.
  bool contract_fma = false;
};
Settings settings();
void set_settings(const Settings& s);

// Runs every pending expression this thread recorded (syncs do too).
// Another thread's run when that thread flushes or their results are read.
void flush();

// Waits until the worker has built every elementwise kernel queued so far,
// so that they reach the disk cache: kiln's Python module calls it at exit,
// or a short program's next run would find its expressions' kernels missing
// and compile them again. GPU reductions' modules still queued are dropped
// (about 2 s each to build; a reduction stores its input until its module
// is built, here when it is next seen).
void finish_compiles();

struct Stats {
  uint64_t ops_recorded = 0;
  uint64_t fused_launches = 0;      // graphs run as one generated kernel
  uint64_t unfused_runs = 0;        // graphs run op by op (first sight, single op, CPU size)
  uint64_t fused_reductions = 0;    // reductions that computed a pending graph's value as they read it
  uint64_t kernels_compiled = 0;    // distinct generated kernels built
  uint64_t kernels_failed = 0;      // generated kernels that did not build (their graphs run op by op)
};
Stats stats();
// Why the last generated kernel that failed to build failed ("" if none has).
std::string last_failure();

// While one lives, this thread's elementwise ops run at once instead of
// being recorded (what running a graph op by op needs, and work done while
// other threads record: see settle).
class Suspend {
 public:
  Suspend();
  ~Suspend();
  Suspend(const Suspend&) = delete;
  Suspend& operator=(const Suspend&) = delete;
};

// Runs the expression pending behind `a` and those reading its memory (what
// asking for its memory does). Work on `a` that then runs under a Suspend
// touches no graph another thread may be recording: kiln's Python bindings
// do this before releasing the GIL for long work.
void settle(const Array& a);

// Whether `a` views a buffer whose expression has not run yet.
bool is_pending(const Array& a);
// The CUDA C++ source the expression pending behind `a` runs as (empty when
// `a` is not pending or its graph is a single op, which runs as kiln's own
// kernel), and a one-line description of its graph.
std::string pending_source(const Array& a);
std::string pending_graph(const Array& a);

}  // namespace kiln::fusion
