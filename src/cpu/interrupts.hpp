// Ctrl-C during a long kernel on the CPU. kiln's handler of SIGINT notes the
// signal and passes it on to the handler that was there before (Python's,
// which raises KeyboardInterrupt when the interpreter next runs), and a
// kernel launch skips its remaining blocks once it sees the note: the
// launch ends within a block's time with kiln::Interrupted.
#pragma once

#include <string>

namespace kiln::cpu {

// Installs the handler where it is not the current one (Python may have
// put its own back) and clears the note; returns what a launch watches.
const volatile int* watch_interrupts();

// Ctrl-C over long work that is not a kernel launch (sorts, BLAS's gemm),
// done in pieces so that it can stop between them: `stop()` says
// whether SIGINT came since the watch began; `check(what)` throws
// kiln::Interrupted for it, naming the work.
class InterruptWatch {
 public:
  InterruptWatch() : flag_(watch_interrupts()) {}
  bool stop() const { return flag_ && *flag_; }
  void check(const std::string& what) const;

 private:
  const volatile int* flag_;
};

}  // namespace kiln::cpu
