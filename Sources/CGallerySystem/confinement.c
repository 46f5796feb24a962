/* The thumbnailer's confinement (Specs/security.md, "The confined thumbnailer"): Landlock for
 * the files it may touch, seccomp-bpf for the calls it may make, both under no_new_privs.
 * Constants are written out because Debian 12's kernel headers (6.1) predate the newer
 * Landlock rights, which a newer kernel still enforces when asked. */
#define _GNU_SOURCE
#include "gallery_system.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_TRUNCATE (1ULL << 14)
#define FS_IOCTL_DEV (1ULL << 15)
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)

struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define RULE_PATH_BENEATH 1
#define CREATE_RULESET_VERSION (1U << 0)

int ig_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

static uint64_t handled_fs(int abi) {
    uint64_t rights = (1ULL << 13) - 1;         /* ABI 1: execute to make_sym */
    if (abi >= 2) rights |= 1ULL << 13;         /* refer */
    if (abi >= 3) rights |= FS_TRUNCATE;
    if (abi >= 5) rights |= FS_IOCTL_DEV;
    return rights;
}

static int add_rule(int ruleset, const char *path, uint64_t access) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : -1;  /* a library folder this system lacks */
    struct stat status;
    if (fstat(fd, &status) != 0) {
        close(fd);
        return -1;
    }
    /* A file takes only the rights that apply to files. */
    if (!S_ISDIR(status.st_mode)) access &= FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV;
    struct path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
    long added = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return added < 0 ? -1 : 0;
}

int ig_landlock_confine(const char *input, const char *output, const char *const *library_folders, int folder_count) {
    int abi = ig_landlock_abi();
    if (abi < 1) return 0;
    struct ruleset_attr attributes = {.handled_access_fs = handled_fs(abi)};
    /* TCP and abstract sockets and signals too where the kernel can: seccomp refuses sockets
     * already, this is the second wall. */
    if (abi >= 4) attributes.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
    if (abi >= 6) attributes.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
    size_t size = abi >= 6 ? sizeof attributes : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) return -1;
    uint64_t write = FS_WRITE_FILE | (abi >= 3 ? FS_TRUNCATE : 0);
    int failed = add_rule(ruleset, input, FS_READ_FILE) || add_rule(ruleset, output, write);
    for (int i = 0; !failed && i < folder_count; i++)
        failed = add_rule(ruleset, library_folders[i], FS_READ_FILE | FS_READ_DIR | FS_EXECUTE);
    if (!failed) failed = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0;
    if (!failed) failed = syscall(SYS_landlock_restrict_self, ruleset, 0) != 0;
    int saved = errno;
    close(ruleset);
    errno = saved;
    return failed ? -1 : abi;
}

/* The calls a thumbnail needs once its files are open: reading and writing open descriptors,
 * memory, threads (the filter's), time, signals to itself, exit. Found with strace -f over the
 * test images of every type (Tests/IntegrationTests/ThumbnailerProgramTests.swift checks
 * that a real run makes no other). */
static const int allowed[] = {
    SYS_read, SYS_pread64, SYS_readv, SYS_preadv, SYS_write, SYS_pwrite64, SYS_writev, SYS_lseek,
    SYS_fstat, SYS_newfstatat, SYS_statx, SYS_ftruncate, SYS_fsync, SYS_fdatasync, SYS_close,
    SYS_fcntl, SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect, SYS_brk, SYS_madvise,
    SYS_futex, SYS_set_robust_list, SYS_get_robust_list, SYS_rseq, SYS_set_tid_address,
    SYS_sched_yield, SYS_sched_getaffinity, SYS_gettid, SYS_getpid, SYS_tgkill,
    SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_sigaltstack,
    SYS_clock_gettime, SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday, SYS_getrandom,
    SYS_prlimit64, SYS_getrlimit, SYS_membarrier, SYS_exit, SYS_exit_group, SYS_seccomp,
};

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, field))
#define RETURN(action) BPF_STMT(BPF_RET | BPF_K, (action))
#define REFUSE (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int ig_seccomp_confine(int allow_open) {
    enum { allowed_count = sizeof allowed / sizeof allowed[0] };
    struct sock_filter program[allowed_count * 2 + 40];
    int n = 0;
    program[n++] = (struct sock_filter)LOAD(arch);
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    program[n++] = (struct sock_filter)RETURN(SECCOMP_RET_KILL_PROCESS);
    program[n++] = (struct sock_filter)LOAD(nr);
    /* The x32 calls alias the same numbers with a high bit: refused outright. */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
    program[n++] = (struct sock_filter)RETURN(SECCOMP_RET_KILL_PROCESS);
    for (int i = 0; i < allowed_count; i++) {
        program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)allowed[i], 0, 1);
        program[n++] = (struct sock_filter)RETURN(SECCOMP_RET_ALLOW);
    }
    /* Only before the decoders run: Landlock keeps these opens to the input, the output and
     * the library folders (a decoder library loaded when first needed). */
    if (allow_open) {
        program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1);
        program[n++] = (struct sock_filter)RETURN(SECCOMP_RET_ALLOW);
    }
    /* clone3 passes its flags in memory, which a filter cannot read: glibc falls back to clone. */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
    program[n++] = (struct sock_filter)RETURN(SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
    /* clone only for a thread (CLONE_THREAD): never a new process. */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
    program[n++] = (struct sock_filter)LOAD(args[0]);
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
    program[n++] = (struct sock_filter)RETURN(SECCOMP_RET_ALLOW);
    program[n++] = (struct sock_filter)RETURN(REFUSE);
    program[n++] = (struct sock_filter)RETURN(REFUSE);
    struct sock_fprog filter = {.len = (unsigned short)n, .filter = program};
    /* no_new_privs is set once, before the first filter, which refuses prctl; later filters
     * come through seccomp(2), which the filters allow since a filter can only take away. */
    if (allow_open && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter) == 0 ? 0 : -1;
}

/* What the probe of the tests tries once confined; each returns 0 when it worked, else errno. */
int ig_probe_open_for_reading(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

int ig_probe_create(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    close(fd);
    unlink(path);
    return 0;
}

int ig_probe_connect(uint16_t port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int connected = connect(fd, (struct sockaddr *)&address, sizeof address);
    int saved = errno;
    close(fd);
    return connected == 0 ? 0 : saved;
}

int ig_probe_exec(const char *path) {
    char *const arguments[] = {(char *)path, NULL};
    char *const environment[] = {NULL};
    execve(path, arguments, environment);
    return errno;
}

int ig_probe_fork(void) {
    pid_t child = fork();
    if (child < 0) return errno;
    if (child == 0) _exit(0);
    return 0;
}
