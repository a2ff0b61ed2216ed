// Two calls glibc declares only under _GNU_SOURCE, out of Swift's reach otherwise.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "CSpawn.h"

int faceoff_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int faceoff_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
