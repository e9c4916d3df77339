#pragma once
// Host compilers started before the kernel they compile. Of a small jit
// kernel's compile on the 2-core machine (81 ms), 32 went to starting the
// compiler and loading the precompiled runtime header. A compiler started
// ahead does both on another core while the caller runs on, then waits on
// its standard input for the kernel's text.
#include <string>
#include <vector>

namespace kiln::cpu {

// What the main file of such a compiler holds: it includes standard input,
// which the compiler reads after the precompiled header (-include) has
// loaded, and it fails a compile whose text never came (the process that
// started it ended), which then leaves no output behind.
extern const char* const kStandbyMainText;

struct CompilerOutput {
  std::string path;  // the file made, the caller's to remove; "" where the compile failed
  std::string log;   // the compiler's messages, without the main file's name
  int status = 0;    // the compiler's exit status, as waitpid gives it
};

// Whether this process compiles on compilers started ahead: not a forked
// child, which compiles as before (one in the suite hung reading a pipe it
// had from its parent).
bool compiles_ahead();

// Compiles `text` (C++) with `args` (the compiler and its flags), the main
// file `main_file` (which holds kStandbyMainText) and then `after` (what
// else makes the output: "-c" for an object; objects, "-shared" and
// libraries for a library) into a file: by the compiler the previous call
// with the same arguments started, or by one started now; then starts the
// next. CompileError where the compiler cannot be run.
CompilerOutput compile_ahead(const std::vector<std::string>& args, const std::string& main_file,
                             const std::vector<std::string>& after, const std::string& text);

}  // namespace kiln::cpu
