#include "child_process.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>

extern char** environ;

namespace kiln::cpu {

int spawn_child(const std::vector<std::string>& args, const posix_spawn_file_actions_t* actions, pid_t* pid,
                const std::vector<std::string>& settings) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The child reads its environment until it execs, while the other threads
  // run on: a setenv there (os.environ, a test's monkeypatch) can free the
  // array `environ` pointed to, and the spawn then fails with EFAULT. So it
  // gets a copy of its own, taken again if that happened anyway.
  int rc = 0;
  for (int attempt = 0;; ++attempt) {
    std::vector<std::string> variables;
    for (char** e = environ; e && *e; ++e) {
      const std::string variable = *e;
      const std::string name = variable.substr(0, variable.find('=') + 1);
      const bool replaced = std::any_of(settings.begin(), settings.end(),
                                        [&](const std::string& s) { return s.compare(0, name.size(), name) == 0; });
      if (!replaced) variables.push_back(variable);
    }
    variables.insert(variables.end(), settings.begin(), settings.end());
    std::vector<char*> envp;
    for (std::string& v : variables) envp.push_back(v.data());
    envp.push_back(nullptr);
    rc = posix_spawnp(pid, argv[0], actions, nullptr, argv.data(), envp.data());
    if (rc != EFAULT || attempt == 2) return rc;
  }
}

int wait_for_child(pid_t pid) {
  // A signal that lands while we wait (a Python handler, a profiler's timer)
  // interrupts waitpid; returning then would read a half-written log and no
  // library.
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace kiln::cpu
