#define _GNU_SOURCE
#include "gallery_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/resource.h>
#endif

ssize_t ig_copy_file_range(int fd_in, int64_t offset_in, int fd_out, int64_t offset_out, size_t length) {
#if defined(__linux__)
    loff_t in = (loff_t)offset_in;
    loff_t out = (loff_t)offset_out;
    return copy_file_range(fd_in, &in, fd_out, &out, length, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int ig_start_writeback(int fd, int64_t offset, int64_t length) {
#if defined(__linux__)
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd; (void)offset; (void)length;
    return 0;
#endif
}

int ig_open_anonymous(const char *directory) {
#if defined(__linux__) && defined(O_TMPFILE)
    return open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
    (void)directory;
    errno = ENOSYS;
    return -1;
#endif
}

int ig_fit_malloc_to_address_limit(void) {
#if defined(__GLIBC__)
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return mallopt(M_ARENA_MAX, 1) == 1;
#else
    return 0;
#endif
}

int ig_syncfs(int fd) {
#if defined(__linux__)
    return syncfs(fd);
#else
    return fsync(fd);
#endif
}
