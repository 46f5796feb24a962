#define _GNU_SOURCE
#include "gallery_system.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
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

int ig_grow_heap_in_huge_pages(size_t pad) {
    const uintptr_t huge = 2u << 20;
    if (pad < 4 * huge || pad > (1u << 30)) return 0;
    if (mallopt(M_ARENA_MAX, 1) != 1) return 0;
    // The largest fixed threshold glibc takes: blocks below it come from the heap.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, (int)(pad * 2));
    mallopt(M_TOP_PAD, (int)pad);
    // A block larger than what the heap has left at its top (keepcost) grows it, by the pad
    // too.
    size_t probe_size = mallinfo2().keepcost + (1u << 20);
    if (probe_size > (8u << 20)) return 0;
    void *probe = malloc(probe_size);
    if (probe == NULL) return 0;
    uintptr_t low = (uintptr_t)probe;
    uintptr_t top = (uintptr_t)sbrk(0);
    free(probe);
    // A heap glibc could not grow by brk lies elsewhere: nothing here to advise.
    if (top == (uintptr_t)-1 || top <= low || top - low > ((uintptr_t)pad << 1)) return 0;
    // From the first huge page past the probe's end, where malloc wrote the next block's
    // header: a 2 MiB page with a small page already in it stays small pages.
    uintptr_t first = (low + probe_size + 64 + huge - 1) & ~(huge - 1);
    uintptr_t end = top & ~(huge - 1);
    if (end <= first) return 0;
    if (madvise((void *)first, end - first, MADV_HUGEPAGE) != 0) return 0;
    // The freed probe went back to the heap's top, where the next blocks would start, below
    // the advised memory. A block up to it, kept and never written past its header (so never
    // in memory but for a page), makes the heap's work start there. Kept where the compiler
    // cannot drop the allocation as unused.
    static void *volatile below_huge_pages;
    below_huge_pages = malloc(first - low - 64);
    return 1;
}

int ig_open_flag_no_access_time(void) { return O_NOATIME; }

int ig_syncfs(int fd) { return syncfs(fd); }
