#define _GNU_SOURCE
#include "gallery_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

int ig_rename_exchange(const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    (void)a; (void)b;
    errno = ENOSYS;
    return -1;
#endif
}

int ig_link_descriptor(int fd, const char *path) {
    char source[64];
    snprintf(source, sizeof source, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

/* Extended attributes are copied one by one; names the destination's file system refuses
 * (ENOTSUP, or EPERM for trusted.* and security.* without privilege) are skipped, because a
 * save must not fail over metadata it cannot carry. Anything else is an error. */
int ig_copy_xattrs(const char *source, int destination) {
    ssize_t size = listxattr(source, NULL, 0);
    if (size < 0) return (errno == ENOTSUP || errno == ENODATA) ? 0 : -1;
    if (size == 0) return 0;
    char *names = malloc((size_t)size);
    if (!names) return -1;
    size = listxattr(source, names, (size_t)size);
    if (size < 0) { free(names); return (errno == ENOTSUP) ? 0 : -1; }
    int result = 0;
    for (char *name = names; name < names + size; name += strlen(name) + 1) {
        ssize_t length = getxattr(source, name, NULL, 0);
        if (length < 0) continue;
        char *value = malloc(length > 0 ? (size_t)length : 1);
        if (!value) { result = -1; break; }
        length = getxattr(source, name, value, (size_t)length);
        if (length >= 0 && fsetxattr(destination, name, value, (size_t)length, 0) != 0
            && errno != ENOTSUP && errno != EPERM) {
            free(value);
            result = -1;
            break;
        }
        free(value);
    }
    free(names);
    return result;
}
