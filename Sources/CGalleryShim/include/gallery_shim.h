#ifndef GALLERY_SHIM_H
#define GALLERY_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* copy_file_range(2), which glibc declares only under _GNU_SOURCE. Copies inside the
 * kernel, so blob bytes never pass through user space. Returns -1 with errno set. */
ssize_t ig_copy_file_range(int fd_in, int64_t offset_in, int fd_out, int64_t offset_out, size_t length);

/* sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a range back to disk
 * without waiting, so the fsync that ends a save has less left to do. */
int ig_start_writeback(int fd, int64_t offset, int64_t length);

/* CRC-32 as zlib's crc32(): continue `crc` over `len` bytes. Uses PCLMULQDQ where the CPU has
 * it (25 GB/s in cache with VPCLMULQDQ, 12 without, against about 3 for zlib), zlib otherwise.
 * `len` may be any size. */
uint32_t ig_crc32(uint32_t crc, const unsigned char *buf, size_t len);

/* A nameless file in `directory` (O_TMPFILE): it vanishes when closed and can never be
 * left behind. Returns a descriptor open for reading and writing, or -1 with errno set. */
int ig_open_anonymous(const char *directory);

/* renameat2(RENAME_EXCHANGE): swaps two names atomically, so a save can check the file it
 * replaced after the swap. -1 with errno EINVAL or ENOSYS where the file system cannot. */
int ig_rename_exchange(const char *a, const char *b);

/* Gives a nameless file (ig_open_anonymous) the name `path`, through /proc/self/fd. */
int ig_link_descriptor(int fd, const char *path);

/* Copies the extended attributes of `source` onto the open file `destination`. */
int ig_copy_xattrs(const char *source, int destination);

/* Under an address-space limit (RLIMIT_AS: `ulimit -v`, thumbnailer sandboxes), glibc's malloc
 * reserves 64 MiB of address space for each thread's arena, which a 256 MiB limit cannot afford
 * beside the binary and the thread stacks: with a limit set, every thread allocates from the one
 * main arena (M_ARENA_MAX 1). Call before any thread starts. Returns 1 when it did so, else 0. */
int ig_fit_malloc_to_address_limit(void);

/* syncfs(2): flushes the file system holding `fd`, in one journal commit where an fsync per file
 * would make one each. Returns 0, or -1 with errno. */
int ig_syncfs(int fd);

#endif
