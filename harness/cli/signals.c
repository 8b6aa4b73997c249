/*
 * harness/cli/signals.c: SIGINT and SIGTERM during a run, and the guard
 * against an exit from inside the emulator.
 *
 * Process-wide state, the only mutable globals of ff8diff, because a signal
 * handler and an atexit handler can reach nothing else: the stop flag and
 * the previous handlers; whether the emulator may be running.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cli/cli.h"
#include "harness/cli/session.h"

static volatile sig_atomic_t *stop_flag;
static struct sigaction old_int, old_term;
static volatile sig_atomic_t guard_on;
static int guard_registered;

static void on_stop(int sig)
{
    if (stop_flag) *stop_flag = sig;
    /* A second signal ends the process the usual way. */
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

void cli_signals_install(volatile sig_atomic_t *flag)
{
    stop_flag = flag;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    /* On the native engine's alternate stack when it interrupts the original's code, whose
     * 32-bit stack may not have room for a signal frame (emu/engine/native/nat_cpu.c). */
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
}

void cli_signals_restore(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    stop_flag = NULL;
}

int cli_interrupted_exit(int sig)
{
    return sig == SIGTERM ? CLI_EXIT_TERMINATED : CLI_EXIT_INTERRUPTED;
}

/* Unicorn and QEMU end the process with exit(1) on some allocation failures. */
static void exit_guard(void)
{
    if (!guard_on) return;
    static const char msg[] = "ff8diff: the emulator ended the process (out of memory or "
                              "address space): internal or resource error\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(CLI_EXIT_INTERNAL);
}

void cli_exit_guard(int on)
{
    if (on && !guard_registered) guard_registered = atexit(exit_guard) == 0;
    guard_on = on;
}
