#include "standby_compiler.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "../core/own_directory.hpp"
#include "child_process.hpp"
#include "kiln/error.hpp"

namespace kiln::cpu {

const char* const kStandbyMainText =
    "#include \"/dev/stdin\"\n"
    "#ifndef KILN_STANDBY_FED\n"
    "#error the process that started this compiler ended before it sent a kernel\n"
    "#endif\n";

namespace {

// Follows the kernel's text, for the main file's check.
const char* const kFed = "\n#define KILN_STANDBY_FED\n";

struct Standby {
  std::vector<std::string> command;  // without the output
  pid_t pid = -1;                    // the compiler driver; -1: none
  int input = -1;                    // the write end of its standard input
  int messages = -1;                 // the read end of its standard output and error
  std::string output;
};

// One compiler waits per main file (one per runtime directory). One
// replaced by a compiler with other arguments is sent nothing: it fails at
// the main file's check and is reaped later, its messages read then (closed
// before it wrote them, the pipe would kill it by SIGPIPE first).
struct Standbys {
  std::mutex mutex;
  std::map<std::string, Standby> waiting;
  std::vector<Standby> retired;
};

// Every pipe end this process holds to a compiler started ahead, however far
// that compiler has got (waiting, taken out to be fed, retired), as fd + 1
// (0: a free slot). A forked child closes them all: a compiler sees the end
// of its input only when every copy of the write end is closed, so a child's
// copy would keep the parent's compile waiting for the child to end. The
// slots are atomics, read by the child with no lock whatever another thread
// of the parent was doing at the fork. (A child never compiles ahead:
// compiles_ahead.)
constexpr int kHeldEndSlots = 64;
std::atomic<int> held_ends[kHeldEndSlots];

void hold(int fd) {
  for (std::atomic<int>& slot : held_ends) {
    int free_slot = 0;
    if (slot.compare_exchange_strong(free_slot, fd + 1)) return;
  }
  // More ends than slots: a child keeps this one, as before this list.
}

void close_fd(int& fd) {
  if (fd < 0) return;
  for (std::atomic<int>& slot : held_ends) {
    int held = fd + 1;
    if (slot.compare_exchange_strong(held, 0)) break;
  }
  close(fd);
  fd = -1;
}

void close_held_ends_in_child() {
  for (std::atomic<int>& slot : held_ends)
    if (const int held = slot.exchange(0)) close(held - 1);
}

Standbys* standbys() {
  static Standbys* s = [] {
    pthread_atfork(nullptr, nullptr, &close_held_ends_in_child);
    return new Standbys;  // kept to the end: compilers still waiting then see their input close with the process
  }();
  return s;
}

// compiler_prefault.c's library, installed beside libkiln (or in the build
// tree); "" where there is none, and compilers then start without it.
const std::string& prefault_library() {
  // KILN_COMPILER_PREFAULT_BUILD_PATH: set by CMake
  static const std::string path = detail::companion_file("libkiln_compiler_prefault.so", KILN_COMPILER_PREFAULT_BUILD_PATH);
  return path;
}

// The compiler's environment: this process's, with the prefault library
// preloaded before any the environment preloads.
std::vector<std::string> preloading_settings() {
  if (prefault_library().empty()) return {};
  const char* preloaded = std::getenv("LD_PRELOAD");
  return {"LD_PRELOAD=" + prefault_library() + (preloaded && *preloaded ? std::string(":") + preloaded : "")};
}

// The command of a compiler started ahead, without its output. -pipe: the
// assembler starts with the compiler and reads what it writes.
std::vector<std::string> command_of(const std::vector<std::string>& args, const std::string& main_file,
                                    const std::vector<std::string>& after) {
  std::vector<std::string> command = args;
  command.insert(command.end(), {"-pipe", "-x", "c++", main_file});
  command.insert(command.end(), after.begin(), after.end());
  return command;
}

Standby start(const std::vector<std::string>& command) {
  Standby s;
  s.command = command;
  // A name no file has, taken by making one and removing it: a compiler
  // sent no text makes no output, but one that links would leave a file
  // made for it in place.
  s.output = "/tmp/kiln-output-XXXXXX";
  const int fd = mkstemp(s.output.data());
  if (fd < 0) throw CompileError("could not create an output file for the host compiler in /tmp");
  close(fd);
  unlink(s.output.c_str());
  int input[2], messages[2];
  if (pipe2(input, O_CLOEXEC) != 0) {
    throw CompileError(std::string("could not make a pipe to the host compiler: ") + std::strerror(errno));
  }
  if (pipe2(messages, O_CLOEXEC) != 0) {
    close(input[0]);
    close(input[1]);
    throw CompileError(std::string("could not make a pipe from the host compiler: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[0], 0);
  posix_spawn_file_actions_adddup2(&actions, messages[1], 1);
  posix_spawn_file_actions_adddup2(&actions, messages[1], 2);
  std::vector<std::string> with_output = command;
  with_output.insert(with_output.end(), {"-o", s.output});
  const int rc = spawn_child(with_output, &actions, &s.pid, preloading_settings());
  posix_spawn_file_actions_destroy(&actions);
  close(input[0]);
  close(messages[1]);
  s.input = input[1];
  s.messages = messages[0];
  hold(s.input);
  hold(s.messages);
  if (rc != 0) {
    close_fd(s.input);
    close_fd(s.messages);
    throw CompileError("could not run the host compiler " + command.at(0) + ": " + std::strerror(rc));
  }
  return s;
}

// Writes the kernel's text; false where the compiler had ended before
// reading all of it. SIGPIPE is held back meanwhile: a compiler that ended
// (a Ctrl-C reaches it too) then fails the write instead of ending the
// process.
bool feed(Standby& s, const std::string& text) {
  sigset_t pipe_signal, before;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &before);
  const std::string all = text + kFed;
  size_t written = 0;
  while (written < all.size()) {
    const ssize_t n = write(s.input, all.data() + written, all.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  if (written < all.size()) {
    const timespec now{};
    sigtimedwait(&pipe_signal, nullptr, &now);  // the SIGPIPE the failed write raised
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  close_fd(s.input);
  return written == all.size();
}

std::string read_to_end(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, static_cast<size_t>(n));
  }
}

// The compiler names the main file above each message from the kernel's
// text, which it includes: "In file included from <main>:1:" on a line of
// its own, or "                 from <main>:1:" at the end of a chain of
// includes, whose line before then ends in ',' instead of ':'.
std::string without_main_file(const std::string& log, const std::string& main_file) {
  const std::string tail = main_file + ":1:";
  std::string out;
  for (size_t begin = 0; begin < log.size();) {
    size_t end = log.find('\n', begin);
    end = end == std::string::npos ? log.size() : end + 1;
    std::string line = log.substr(begin, end - begin);
    begin = end;
    const size_t text_end = line.find_last_not_of('\n') + 1;
    if (text_end >= tail.size() && line.compare(text_end - tail.size(), tail.size(), tail) == 0) {
      if (line.compare(0, 22, "In file included from ") != 0 && out.size() >= 2 && out[out.size() - 2] == ',') out[out.size() - 2] = ':';
      continue;
    }
    out += line;
  }
  return out;
}

CompilerOutput collect(Standby& s, const std::string& main_file) {
  CompilerOutput result;
  result.log = without_main_file(read_to_end(s.messages), main_file);
  close_fd(s.messages);
  result.status = wait_for_child(s.pid);
  if (WIFSIGNALED(result.status))
    result.log += "the host compiler " + s.command.at(0) + " was killed by signal " +
                  std::to_string(WTERMSIG(result.status)) + "\n";
  if (exited_cleanly(result.status)) result.path = s.output;
  else unlink(s.output.c_str());
  return result;
}

// Starts the compiler the next call with this command will use.
void start_next(const std::vector<std::string>& command, const std::string& main_file) {
  Standbys* all = standbys();
  {
    std::lock_guard<std::mutex> lock(all->mutex);
    if (auto it = all->waiting.find(main_file); it != all->waiting.end() && it->second.command == command) return;
  }
  Standby next;
  try {
    next = start(command);
  } catch (const CompileError&) {
    return;  // the next call starts its own, and says why it cannot
  }
  std::lock_guard<std::mutex> lock(all->mutex);
  Standby& slot = all->waiting[main_file];
  if (slot.pid >= 0) {
    close_fd(slot.input);
    all->retired.push_back(std::move(slot));
  }
  slot = std::move(next);
}

void reap_retired(Standbys* all) {
  for (auto it = all->retired.begin(); it != all->retired.end();) {
    int status = 0;
    if (waitpid(it->pid, &status, WNOHANG) == 0) {
      ++it;
      continue;
    }
    close_fd(it->messages);
    it = all->retired.erase(it);
  }
}

// At load: the process that loaded libkiln, not a child forked later.
const pid_t loaded_in = getpid();

}  // namespace

bool compiles_ahead() { return getpid() == loaded_in; }

CompilerOutput compile_ahead(const std::vector<std::string>& args, const std::string& main_file,
                             const std::vector<std::string>& after, const std::string& text) {
  const std::vector<std::string> command = command_of(args, main_file, after);
  Standby s;
  {
    Standbys* all = standbys();
    std::lock_guard<std::mutex> lock(all->mutex);
    reap_retired(all);
    if (auto it = all->waiting.find(main_file); it != all->waiting.end() && it->second.command == command) {
      s = std::move(it->second);
      all->waiting.erase(it);
    }
  }
  for (bool waited = s.pid >= 0;; waited = false) {
    if (!waited) s = start(command);
    const bool fed = feed(s, text);
    // Started while this one compiles, on the other core
    start_next(command, main_file);
    CompilerOutput result = collect(s, main_file);
    // One that was killed while it waited (a Ctrl-C at a terminal reaches
    // it too) is replaced by a fresh one.
    if (!waited || (fed && !WIFSIGNALED(result.status))) return result;
    if (!result.path.empty()) unlink(result.path.c_str());
  }
}

}  // namespace kiln::cpu
