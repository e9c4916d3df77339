#include "kernel_faults.hpp"

#include "signal_chain.hpp"

#include <setjmp.h>
#include <signal.h>

#include <cstdlib>
#include <mutex>

namespace kiln::cpu {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
struct sigaction previous[sizeof kSignals / sizeof kSignals[0]];

thread_local sigjmp_buf* way_back = nullptr;
// A fault on a fiber's guard page (a kernel's stack overflow) leaves no stack
// to handle it on: each guarded thread has a stack of its own for handlers.
thread_local bool has_signal_stack = false;
constexpr size_t kSignalStackBytes = 64 << 10;

void on_fault(int signal_number, siginfo_t* info, void* context) {
  if (sigjmp_buf* back = way_back) {
    way_back = nullptr;
    siglongjmp(*back, signal_number);  // the signal stays unblocked: SA_NODEFER
  }
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    if (kSignals[i] == signal_number && call_previous_handler(previous[i], signal_number, info, context)) return;
  }
  signal(signal_number, SIG_DFL);  // returning re-runs the faulting instruction, now fatal as it would have been
}

void install_handlers() {
  struct sigaction action = {};
  action.sa_sigaction = &on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) sigaction(kSignals[i], &action, &previous[i]);
}

}  // namespace

void guard_thread_against_faults(void* jump_buffer) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  if (jump_buffer && !has_signal_stack) {
    stack_t stack = {};
    stack.ss_sp = std::malloc(kSignalStackBytes);  // kept for the thread's life (a pool thread's)
    stack.ss_size = kSignalStackBytes;
    has_signal_stack = stack.ss_sp && sigaltstack(&stack, nullptr) == 0;
  }
  way_back = static_cast<sigjmp_buf*>(jump_buffer);
}

}  // namespace kiln::cpu
