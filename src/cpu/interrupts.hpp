// Ctrl-C during a long kernel on the CPU. kiln's handler of SIGINT notes the
// signal and passes it on to the handler that was there before (Python's,
// which raises KeyboardInterrupt when the interpreter next runs), and a
// kernel launch skips its remaining blocks once it sees the note: the
// launch ends within a block's time with kiln::Interrupted.
#pragma once

namespace kiln::cpu {

// Installs the handler where it is not the current one (Python may have
// put its own back) and clears the note; returns what a launch watches.
const volatile int* watch_interrupts();

}  // namespace kiln::cpu
