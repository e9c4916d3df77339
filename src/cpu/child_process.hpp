#pragma once
// Programs kiln runs as child processes: the host compiler and its linker.
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <string>
#include <vector>

namespace kiln::cpu {

// posix_spawnp of `args` with `actions`, into `*pid`, in this process's
// environment with `settings` ("NAME=value") in place of those variables;
// returns posix_spawnp's error number (0 when it started).
int spawn_child(const std::vector<std::string>& args, const posix_spawn_file_actions_t* actions, pid_t* pid,
                const std::vector<std::string>& settings = {});

// Whether a waitpid status is a clean exit (status 0).
inline bool exited_cleanly(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

// The child's exit status as waitpid gives it (0 where it was reaped by
// someone else).
int wait_for_child(pid_t pid);

}  // namespace kiln::cpu
