#define _GNU_SOURCE
#include "gallery_system.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <spawn.h>
#include <unistd.h>

extern char **environ;

int ig_spawn(const char *path, char *const argv[], int input, int output, int error_output, pid_t *child) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int error = posix_spawn_file_actions_init(&actions);
    if (error != 0) return error;
    error = posix_spawnattr_init(&attributes);
    if (error != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (input >= 0 && error == 0) error = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (output >= 0 && error == 0) error = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (error_output >= 0 && error == 0) error = posix_spawn_file_actions_adddup2(&actions, error_output, 2);
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (error == 0) error = posix_spawnattr_setsigmask(&attributes, &none);
    if (error == 0) error = posix_spawnattr_setsigdefault(&attributes, &all);
    if (error == 0) error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (error == 0) error = posix_spawn(child, path, &actions, &attributes, argv, environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

int ig_pipe(int descriptors[2]) { return pipe2(descriptors, O_CLOEXEC); }

ssize_t ig_write_without_sigpipe(int fd, const void *bytes, size_t count) {
    sigset_t pipe_signal, previous, pending;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
    /* One already pending (from elsewhere) is not ours to take. */
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    ssize_t written = write(fd, bytes, count);
    int error = errno;
    /* The kernel raises SIGPIPE also when the reader goes during a write that then returns a
     * partial count, so what is pending decides, not the result. */
    sigpending(&pending);
    if (!was_pending && sigismember(&pending, SIGPIPE)) {
        struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_signal, NULL, &now) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = error;
    return written;
}
