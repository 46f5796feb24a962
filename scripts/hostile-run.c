/* hostile-run: the exec chain of one run of check-hostile-commands.py, in place of
   prlimit(1) and GNU time(1) (one exec fewer, and no dynamic loading: a millisecond of CPU a run).

   Usage: hostile-run AS_BYTES CPU_SECONDS REPORT -- COMMAND [ARG...]

   Sets RLIMIT_AS to AS_BYTES (soft and hard, as prlimit --as), RLIMIT_CORE to 0 and RLIMIT_CPU to
   CPU_SECONDS soft, one more hard; forks and runs COMMAND; waits for it and writes REPORT as GNU
   time -f "%M %U %S" does: "Command terminated by signal N" or "Command exited with non-zero
   status N" first when so, then "MAXRSS_KB USER_S SYSTEM_S". It must fork rather than exec
   COMMAND itself: a process keeps its parent's peak RSS across exec as the floor of ru_maxrss,
   and the parent here is small, where Python's would hide the binary's. Exits as GNU time does:
   COMMAND's code, or 128 + its signal; 127 or 126 when it cannot run; 125 on its own failure. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 6 || strcmp(argv[4], "--") != 0) {
        fprintf(stderr, "usage: hostile-run AS_BYTES CPU_SECONDS REPORT -- COMMAND [ARG...]\n");
        return 125;
    }
    rlim_t as = strtoull(argv[1], NULL, 10), cpu = strtoull(argv[2], NULL, 10);
    struct rlimit as_limit = {as, as}, cpu_limit = {cpu, cpu + 1}, no_core = {0, 0};
    if (setrlimit(RLIMIT_AS, &as_limit) || setrlimit(RLIMIT_CORE, &no_core) || setrlimit(RLIMIT_CPU, &cpu_limit)) {
        perror("hostile-run: setrlimit");
        return 125;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("hostile-run: fork");
        return 125;
    }
    if (pid == 0) {
        execvp(argv[5], argv + 5);
        fprintf(stderr, "hostile-run: cannot run %s: %s\n", argv[5], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    /* As GNU time: the signals a terminal sends go to the command, not to the one waiting. */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            perror("hostile-run: wait4");
            return 125;
        }
    }
    FILE *report = fopen(argv[3], "w");
    if (report == NULL) {
        perror("hostile-run: report");
        return 125;
    }
    if (WIFSIGNALED(status))
        fprintf(report, "Command terminated by signal %d\n", WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        fprintf(report, "Command exited with non-zero status %d\n", WEXITSTATUS(status));
    fprintf(report, "%ld %ld.%02ld %ld.%02ld\n", ru.ru_maxrss, (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec / 10000,
            (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec / 10000);
    if (fclose(report) != 0)
        return 125;
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
