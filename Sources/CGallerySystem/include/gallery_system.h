#ifndef GALLERY_SYSTEM_H
#define GALLERY_SYSTEM_H

/* The Linux calls GallerySystem cannot make from Swift: glibc declares them only under
 * _GNU_SOURCE, which Swift's Glibc module is not built with, or their flags are macros Swift
 * does not import. Each returns as the system call does: -1 with errno set on failure.
 * Nothing else in the package includes this header. */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* copy_file_range(2): copies inside the kernel, so blob bytes never pass through user space. */
ssize_t ig_copy_file_range(int fd_in, int64_t offset_in, int fd_out, int64_t offset_out, size_t length);

/* sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a range back to disk
 * without waiting, so the fsync that ends a save has less left to do. */
int ig_start_writeback(int fd, int64_t offset, int64_t length);

/* open(2) with O_TMPFILE: a nameless file in `directory`, open for reading and writing, mode
 * 0600; it vanishes when closed and can never be left behind. */
int ig_open_anonymous(const char *directory);

/* renameat2(2) with RENAME_EXCHANGE: swaps two names atomically, so a save can check the file
 * it replaced after the swap. EINVAL or ENOSYS where the file system or kernel cannot. */
int ig_rename_exchange(const char *a, const char *b);

/* renameat2(2) with RENAME_NOREPLACE: moves `source` to `destination`, failing with EEXIST if
 * it exists. EINVAL or ENOSYS where the file system or kernel cannot. */
int ig_rename_no_replace(const char *source, const char *destination);

/* listxattr(2), getxattr(2) and fsetxattr(2), from <sys/xattr.h>, which Swift's Glibc module
 * leaves out. */
ssize_t ig_listxattr(const char *path, char *list, size_t size);
ssize_t ig_getxattr(const char *path, const char *name, void *value, size_t size);
int ig_fsetxattr(int fd, const char *name, const void *value, size_t size);

/* Under an address-space limit (RLIMIT_AS: `ulimit -v`, thumbnailer sandboxes), glibc's malloc
 * reserves 64 MiB of address space for each thread's arena, which a 256 MiB limit cannot afford
 * beside the binary and the thread stacks: with a limit set, every thread allocates from the one
 * main arena (M_ARENA_MAX 1). Call before any thread starts. Returns 1 when it did so, else 0. */
int ig_fit_malloc_to_address_limit(void);

/* mallopt(3), from <malloc.h>, which Swift's Glibc module leaves out: a fixed mmap threshold of
 * 128 KiB (which also fixes the trim threshold, at twice it: blocks from 128 KiB up are mapped on
 * their own and unmapped when freed) and at most two arenas. A value glibc refuses leaves its
 * default, which works too. Call before threads start where it can be. */
void ig_return_freed_memory_promptly(void);

/* For a command that runs and ends: every thread allocates from glibc's main heap (M_ARENA_MAX
 * 1), blocks of up to 32 MiB come from it, it grows `pad` bytes at a time and keeps them, and
 * the memory it has just grown by is advised for transparent huge pages (MADV_HUGEPAGE). Call
 * before threads start. Returns 1 when the heap was advised, else 0 (any setting glibc refused
 * leaves its default, which works too). */
int ig_grow_heap_in_huge_pages(size_t pad);

/* O_NOATIME, which Swift's Glibc module leaves out (it needs _GNU_SOURCE). */
int ig_open_flag_no_access_time(void);

/* syncfs(2): flushes the file system holding `fd`, in one journal commit where an fsync per file
 * would make one each. */
int ig_syncfs(int fd);

/* posix_spawn(3) of `path` with `argv` (NULL-terminated) and this environment. `input`,
 * `output` and `error` become the child's descriptors 0, 1 and 2 (-1 leaves the parent's).
 * Every descriptor above 2 is closed in the child (closefrom, which glibc offers only under
 * _GNU_SOURCE), so that one opened without O_CLOEXEC never reaches a helper; signals are
 * unblocked and at their defaults. Returns 0 with the child's pid, or the error number (posix_spawn sets no errno). */
int ig_spawn(const char *path, char *const argv[], int input, int output, int error, pid_t *child);

/* pipe2(2) with O_CLOEXEC: neither end reaches a program another thread starts meanwhile
 * (posix_spawn's dup2 clears the flag on the copy a child is meant to have). */
int ig_pipe(int descriptors[2]);

/* write(2) to a pipe whose reader may have gone: EPIPE comes back as an error, and the SIGPIPE
 * it raises is blocked on this thread and taken, so that it neither kills the process nor
 * reaches another thread. The process's own SIGPIPE disposition is left alone, so that
 * `imagegallery list | head` still ends quietly when head does. */
ssize_t ig_write_without_sigpipe(int fd, const void *bytes, size_t count);

/* The Landlock ABI version the kernel offers; 0 when it has none (or has it turned off). */
int ig_landlock_abi(void);

/* Sets no_new_privs and restricts this process, for good, to reading `input`, writing
 * `output` (both exist already) and reading and mapping the files under `library_folders`.
 * Returns the ABI used, 0 when the kernel has no Landlock (nothing is restricted), -1 on error. */
int ig_landlock_confine(const char *input, const char *output, const char *const *library_folders, int folder_count);

/* Sets no_new_privs and installs a seccomp filter allowing only the calls a thumbnail needs,
 * threads but no process, and openat only when `allow_open` (a second filter without it may
 * follow: filters stack, and the strictest answer wins). Other calls fail with EPERM. */
int ig_seccomp_confine(int allow_open);

/* For the confinement tests only (the thumbnailer's hidden --probe-confinement): each tries one
 * thing a confined thumbnailer must not be able to do, and returns 0 if it could, else errno. */
int ig_probe_open_for_reading(const char *path);
int ig_probe_create(const char *path);
int ig_probe_connect(uint16_t port);
int ig_probe_exec(const char *path);
int ig_probe_fork(void);

#endif
