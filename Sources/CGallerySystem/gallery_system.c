#define _GNU_SOURCE
#include "gallery_system.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

ssize_t ig_copy_file_range(int fd_in, int64_t offset_in, int fd_out, int64_t offset_out, size_t length) {
    loff_t in = (loff_t)offset_in;
    loff_t out = (loff_t)offset_out;
    return copy_file_range(fd_in, &in, fd_out, &out, length, 0);
}

int ig_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}

int ig_open_anonymous(const char *directory) {
    return open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}

/* Through syscall(2), not glibc's renameat2 wrapper, which older glibc lacks. */
static int rename_with_flags(const char *a, const char *b, unsigned int flags) {
#if defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, flags);
#else
    (void)a; (void)b; (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

int ig_rename_exchange(const char *a, const char *b) { return rename_with_flags(a, b, RENAME_EXCHANGE); }

int ig_rename_no_replace(const char *source, const char *destination) {
    return rename_with_flags(source, destination, RENAME_NOREPLACE);
}

ssize_t ig_listxattr(const char *path, char *list, size_t size) { return listxattr(path, list, size); }

ssize_t ig_getxattr(const char *path, const char *name, void *value, size_t size) {
    return getxattr(path, name, value, size);
}

int ig_fsetxattr(int fd, const char *name, const void *value, size_t size) {
    return fsetxattr(fd, name, value, size, 0);
}

int ig_fit_malloc_to_address_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return mallopt(M_ARENA_MAX, 1) == 1;
}

void ig_return_freed_memory_promptly(void) {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_ARENA_MAX, 2);
}

int ig_syncfs(int fd) { return syncfs(fd); }
