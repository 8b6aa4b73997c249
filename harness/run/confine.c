/*
 * harness/run/confine.c: what an engine process gives up before it runs a
 * single instruction of the executable's (docs/engine.md section 9, "The
 * threat model"): it dies with its parent, ignores the terminal's signals,
 * holds no descriptor but its own (stdin, stdout and stderr on /dev/null),
 * and under a seccomp filter may make only the few system calls an engine
 * process needs (confine_filter's list); any other kills it. Nothing here
 * prints; the caller _exits on failure.
 */
#define _GNU_SOURCE
#include "harness/run/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#define CONFINE_BUILT 1
#else
#define CONFINE_BUILT 0
#endif

int confine_process(pid_t parent, int *fds, int nfds, ff_error *err)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot tie the engine process to "
                                                          "its parent: %s", strerror(errno));
    if (getppid() != parent) /* the parent died before the line above */
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "the run ended before its engine "
                                                          "process started");
    /* The run, not its engine processes, answers the terminal: it ends them itself. */
    static const int quiet[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGUSR1,
                                SIGUSR2, SIGALRM};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
        signal(quiet[i], SIG_IGN);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot open /dev/null: %s",
                            strerror(errno));
    /* The kept descriptors above every number they move to, then to 3, 4, ... */
    for (int i = 0; i < nfds; i++) {
        int high = fcntl(fds[i], F_DUPFD_CLOEXEC, 64 + nfds);
        if (high < 0)
            return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot keep a descriptor: %s",
                                strerror(errno));
        fds[i] = high;
    }
    for (int k = 0; k < 3; k++)
        if (dup2(null, k) < 0)
            return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot put /dev/null on %d: %s",
                                k, strerror(errno));
    for (int i = 0; i < nfds; i++) {
        if (dup3(fds[i], 3 + i, O_CLOEXEC) < 0)
            return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot keep a descriptor: %s",
                                strerror(errno));
        fds[i] = 3 + i;
    }
    /* Everything else: the terminal's copies, report, cache and corpus files, the
     * siblings' sockets. */
    if (syscall(SYS_close_range, 3 + nfds, ~0u, 0) != 0) {
        for (int k = 3 + nfds; k < 65536; k++)
            close(k);
    }
    return 0;
}

#if CONFINE_BUILT

/* The x86-64 system calls an engine process makes once its engine is open: the
 * socket and answer areas (read, sendto, ftruncate, mmap), memory (brk, mmap,
 * mremap, munmap, mprotect, madvise), the native engine's guest memory (memfd_create,
 * ftruncate, fallocate, pwrite64, close), its signals and timer (rt_sigreturn,
 * rt_sigprocmask, timer_settime, arch_prctl for the FS base without FSGSBASE),
 * locks and time (futex, clock_gettime, sched_yield), the memory size (sysinfo, the pose
 * memo sizes itself by it), and its end. */
/* AddressSanitizer, as gcc says it (__SANITIZE_ADDRESS__) and as clang does. */
#if defined(__SANITIZE_ADDRESS__)
#define CONFINE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONFINE_ASAN 1
#endif
#endif
#ifndef CONFINE_ASAN
#define CONFINE_ASAN 0
#endif

static const unsigned allowed[] = {
    SYS_read,          SYS_sendto,        SYS_recvfrom,     SYS_close,
    SYS_fstat,         SYS_newfstatat,    SYS_lseek,        SYS_mmap,
    SYS_munmap,        SYS_mremap,        SYS_mprotect,     SYS_madvise,
    SYS_brk,           SYS_ftruncate,     SYS_fallocate,    SYS_pwrite64,
    SYS_pread64,       SYS_memfd_create,  SYS_rt_sigreturn, SYS_rt_sigprocmask,
    SYS_futex,         SYS_sched_yield,   SYS_exit,         SYS_exit_group,
    SYS_getpid,        SYS_gettid,        SYS_getppid,      SYS_arch_prctl,
    SYS_clock_gettime, SYS_timer_settime, SYS_timer_gettime, SYS_restart_syscall,
    SYS_sysinfo,
#if CONFINE_ASAN
    /* AddressSanitizer's runtime on its own allocations and deadly signals. */
    SYS_sigaltstack,    SYS_getrlimit,     SYS_prlimit64,    SYS_sched_getaffinity,
    SYS_readlink,       SYS_openat,        SYS_write,        SYS_rt_sigaction,
#endif
};

#define NALLOWED (sizeof allowed / sizeof allowed[0])

int confine_filter(ff_error *err)
{
    /* arch; i386 traps (as the native engine's own filter does: a fault of the call);
     * an x86-64 call from below 4 GiB (guest memory only) traps too; the list passes;
     * anything else kills the process. */
    struct sock_filter f[8 + NALLOWED + 2];
    unsigned n = 0;
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                          offsetof(struct seccomp_data, arch));
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    f[n++] = (struct sock_filter)BPF_STMT(
        BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                          offsetof(struct seccomp_data, nr));
    for (unsigned i = 0; i < NALLOWED; i++)
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, allowed[i],
                                              (unsigned char)(NALLOWED - i), 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {(unsigned short)n, f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1,
                            "the kernel refused the engine process's system-call filter "
                            "(seccomp: %s)",
                            strerror(errno));
    return 0;
}

#else

int confine_filter(ff_error *err)
{
    return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1,
                        "engine processes are confined on x86-64 Linux only");
}

#endif

void confine_describe(int wstatus, char *buf, size_t n)
{
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        snprintf(buf, n, "killed by signal %d (%s%s)", sig, sigabbrev_np(sig) ? "SIG" : "",
                 sigabbrev_np(sig) ? sigabbrev_np(sig) : "unknown");
        if (sig == SIGSYS)
            snprintf(buf + strlen(buf), n - strlen(buf),
                     ": a system call its filter refuses");
    } else if (WIFEXITED(wstatus)) {
        snprintf(buf, n, "ended with status %d", WEXITSTATUS(wstatus));
    } else {
        snprintf(buf, n, "ended (wait status 0x%x)", (unsigned)wstatus);
    }
}
