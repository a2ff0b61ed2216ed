#ifndef FACEOFF_CSPAWN_H
#define FACEOFF_CSPAWN_H

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up
/// (glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does
/// not show). Returns 0 or an errno value.
int faceoff_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// A pipe whose two ends are close-on-exec from the start (pipe2 with O_CLOEXEC), so a
/// program another thread starts at that moment cannot inherit them. Returns 0 or -1 (errno).
int faceoff_pipe_cloexec(int ends[2]);

#endif
