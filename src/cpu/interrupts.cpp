#include "interrupts.hpp"

#include "signal_chain.hpp"

#include <signal.h>

#include <mutex>

#include "kiln/error.hpp"

namespace kiln::cpu {
namespace {

volatile int interrupted = 0;
struct sigaction before;  // the handler kiln's passes SIGINT on to

void on_interrupt(int signal_number, siginfo_t* info, void* context) {
  interrupted = 1;
  if (call_previous_handler(before, signal_number, info, context)) return;
  if (!(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_DFL) {
    sigaction(SIGINT, &before, nullptr);  // what Ctrl-C did before: end the process
    raise(SIGINT);
  }
}

}  // namespace

const volatile int* watch_interrupts() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  struct sigaction current;
  if (sigaction(SIGINT, nullptr, &current) == 0 && !((current.sa_flags & SA_SIGINFO) &&
                                                     current.sa_sigaction == &on_interrupt)) {
    struct sigaction mine = {};
    mine.sa_sigaction = &on_interrupt;
    mine.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&mine.sa_mask);
    if (sigaction(SIGINT, &mine, &before) != 0) return nullptr;
  }
  interrupted = 0;
  return &interrupted;
}

void InterruptWatch::check(const std::string& what) const {
  if (stop()) throw Interrupted(what + " was interrupted on the CPU (SIGINT) and stopped part way: its output is incomplete");
}

}  // namespace kiln::cpu
