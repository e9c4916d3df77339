#pragma once
// kiln's signal handlers (kernel faults, Ctrl-C) pass a signal they do not
// keep on to the handler that was installed before theirs.
#include <signal.h>

namespace kiln::cpu {

// Calls `before`'s handler when it is a function; false when it is the
// default action or ignores the signal (the caller decides what follows).
inline bool call_previous_handler(const struct sigaction& before, int signal_number, siginfo_t* info,
                                  void* context) {
  if (before.sa_flags & SA_SIGINFO) {
    if (!before.sa_sigaction) return false;
    before.sa_sigaction(signal_number, info, context);
    return true;
  }
  if (!before.sa_handler || before.sa_handler == SIG_DFL || before.sa_handler == SIG_IGN) return false;
  before.sa_handler(signal_number);
  return true;
}

}  // namespace kiln::cpu
