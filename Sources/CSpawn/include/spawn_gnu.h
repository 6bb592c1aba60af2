#ifndef CARDFEED_SPAWN_GNU_H
#define CARDFEED_SPAWN_GNU_H

#include <spawn.h>

/// pipe2(fds, O_CLOEXEC): a pipe whose ends no program started meanwhile by another thread
/// inherits. Returns 0, or -1 with errno set.
int cardfeed_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np (glibc 2.29): the child starts in `folder`. Returns 0
/// or an error number; ENOSYS where the C library has no such action.
int cardfeed_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *folder);

#endif
