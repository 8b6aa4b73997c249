/*
 * emu/engine/native/nat_ops.c: the native engine's emu_ops table
 * (emu/engine/emu_impl.h), what it says about itself, and whether this
 * process can run it: x86-64 Linux with 32-bit code segments (IA32
 * emulation), the host's own mappings all above 4 GiB, and, for the deep
 * probe, one call of a tiny 32-bit routine made in a child process (a
 * kernel without IA32 emulation ends that child, not the run). It has none
 * of the hooks (no instruction budget, stub, watch, read log, coverage or
 * exact-fault replay): levels that need one keep the Unicorn engine.
 * Nothing here prints or exits.
 */
#define _GNU_SOURCE
#include "emu/engine/native/nat_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* Instructions per nanosecond the budget assumes (a slow CPU's): the timer's period. */
#define NAT_BUDGET_NS_PER_INSN 2u
#define NAT_BUDGET_MIN_NS 20000000ull

int nat_check_maps(const emu_nat *e, char *why, size_t n)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f) {
        snprintf(why, n, "cannot read /proc/self/maps to check the address space: %s",
                 strerror(errno));
        return -1;
    }
    char line[512];
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        if (sscanf(line, "%llx-%llx", &lo, &hi) != 2 || lo >= 0x100000000ull) continue;
        int guest = 0;
        for (unsigned k = 0; e && k < e->nregions; k++)
            guest |= lo >= e->regions[k].addr &&
                     hi <= (unsigned long long)e->regions[k].addr + e->regions[k].size;
        if (guest) continue;
        line[strcspn(line, "\n")] = 0;
        const char *name = strrchr(line, ' ');
        snprintf(why, n,
                 "the host has memory below 4 GiB (0x%llx-0x%llx%s%s), where the original's "
                 "code could reach it; native code runs only in a position-independent build "
                 "without AddressSanitizer",
                 lo, hi, name && name[1] ? " " : "", name && name[1] ? name + 1 : "");
        rc = -1;
        break;
    }
    fclose(f);
    return rc;
}

#if defined(__x86_64__) && defined(__linux__)

/*
 * The probe, in a child: a one-page image of code, "mov eax, 0x2A; ret",
 * opened and called; why it failed (or "") goes to fd.
 */
static void probe_child(int fd)
{
    static uint8_t code[NAT_PAGE] = {0xB8, 0x2A, 0x00, 0x00, 0x00, 0xC3};
    signal(SIGXFSZ, SIG_IGN); /* a file-size limit: an error to report, not an end */
    pe_image pe;
    memset(&pe, 0, sizeof pe);
    pe.image_base = 0x00400000;
    pe.size_of_image = NAT_PAGE;
    pe.size_of_headers = NAT_PAGE;
    pe.nsections = 1;
    pe.sections[0].vsize = NAT_PAGE;
    pe.sections[0].characteristics = PE_SCN_MEM_EXECUTE | PE_SCN_CNT_CODE;
    emu_profile prof;
    memset(&prof, 0, sizeof prof);
    prof.image_base = pe.image_base;
    prof.scratch_size = NAT_PAGE;
    prof.field_alloc_cursor = -1;
    prof.x87_control = 0x27F;
    emu_config cfg = {.pe = &pe, .image = code, .profile = &prof};
    emu *e = NULL;
    ff_error err;
    char why[FF_ERR_REASON_MAX] = "";
    uint32_t eax = 0;
    emu_fault fault;
    if (emu_native_ops.open(&cfg, &e, &err) != 0)
        snprintf(why, sizeof why, "%s", err.reason);
    else if (nat_call(emu_nat_of(e), pe.image_base, NULL, 0, &eax, &fault) != 0)
        snprintf(why, sizeof why, "a probe call of 32-bit code faulted: %s", fault.detail);
    else if (eax != 0x2A)
        snprintf(why, sizeof why, "a probe call of 32-bit code came back with 0x%x, not 0x2a",
                 eax);
    ssize_t w = write(fd, why, strlen(why));
    _exit(w < 0 || why[0] ? 1 : 0);
}

int nat_cpu_probe(char *why, size_t n, int deep)
{
    why[0] = 0;
    if (nat_check_maps(NULL, why, n) < 0) return -1;
    if (!deep) return 0;
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(why, n, "cannot start the probe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        snprintf(why, n, "cannot start the probe process: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        probe_child(fd[1]);
    }
    close(fd[1]);
    char said[FF_ERR_REASON_MAX] = "";
    size_t got = 0;
    for (ssize_t r; got + 1 < sizeof said && (r = read(fd[0], said + got, sizeof said - 1 - got));) {
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        got += (size_t)r;
    }
    said[got] = 0;
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
    if (said[0])
        snprintf(why, n, "%s", said);
    else if (WIFSIGNALED(st))
        snprintf(why, n,
                 "a probe call of 32-bit code ended its process (signal %d): this kernel does "
                 "not run 32-bit code in a 64-bit process (IA32 emulation off, or a hypervisor "
                 "that gives user code no 32-bit code segment)",
                 WTERMSIG(st));
    else
        snprintf(why, n, "the probe process failed without saying why");
    return -1;
}

#else

int nat_cpu_probe(char *why, size_t n, int deep)
{
    (void)deep;
    snprintf(why, n, "the native engine runs on x86-64 Linux only");
    return -1;
}

#endif

static int nat_info(emu_engine_info *out, int probe, ff_error *err)
{
    struct utsname u;
    if (uname(&u) == 0) snprintf(out->version, sizeof out->version, "%.31s", u.release);
    char why[256];
    int rc = nat_cpu_probe(why, sizeof why, probe);
    snprintf(out->summary, sizeof out->summary, "%s", rc == 0 ? "on the CPU" : "unavailable");
    snprintf(out->limits, sizeof out->limits,
             "code of the executable that jumps far to 64-bit code and comes back within one "
             "CPU-time tick, without a fault or a system call (it may rewrite the results its "
             "engine process sends, which the worker compares with the reference: a clip "
             "passes only on the reference's own results; docs/engine.md section 9); "
             "--engine both sees it");
    if (rc < 0) {
        snprintf(out->warning, sizeof out->warning, "the native engine cannot run here: %s", why);
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1, "%s", why);
    }
    return 0;
}

static int nat_room(unsigned engines, ff_error *err)
{
    if (engines <= 1) return 0;
    return ff_error_set(err, FF_E_USAGE, NULL, -1,
                        "one native engine per process (its guest memory lies at fixed "
                        "addresses): %u asked for",
                        engines);
}

static int nat_open_op(const emu_config *cfg, emu **out, ff_error *err)
{
    *out = NULL;
    emu_nat *e = calloc(1, sizeof *e);
    if (!e) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    e->budget = cfg->budget ? cfg->budget : EMU_DEFAULT_BUDGET;
    uint64_t ns = e->budget * NAT_BUDGET_NS_PER_INSN;
    if (ns < NAT_BUDGET_MIN_NS) ns = NAT_BUDGET_MIN_NS;
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &e->cs) != CS_ERR_OK) {
        free(e);
        return ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
    }
    e->insn = cs_malloc(e->cs);
    if (!e->insn) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        goto fail;
    }
    if (nat_mem_open(e, cfg, err) < 0 || nat_cpu_open(e, ns, err) < 0) goto fail;
    *out = &e->base;
    return 0;
fail:
    nat_mem_close(e);
    if (e->insn) cs_free(e->insn, 1);
    cs_close(&e->cs);
    free(e);
    return -1;
}

static void nat_close_op(emu *b)
{
    emu_nat *e = emu_nat_of(b);
    nat_cpu_close(e);
    nat_mem_close(e);
    if (e->insn) cs_free(e->insn, 1);
    cs_close(&e->cs);
    free(e);
}

static int nat_call_op(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                       emu_fault *fault, const emu_rewind *rw)
{
    (void)rw; /* the CPU names the faulting instruction itself: nothing to replay */
    return nat_call(emu_nat_of(e), addr, args, nargs, eax, fault);
}

static int nat_x87_op(emu *e, double *value, uint8_t *raw)
{
    return nat_x87_st0(emu_nat_of(e), value, raw);
}

static int nat_map_op(emu *e, uint32_t addr, uint32_t size, int prot, uint32_t guard,
                      uint8_t **host, ff_error *err)
{
    return nat_map_area(emu_nat_of(e), addr, size, prot, guard, host, err);
}

static int nat_unmap_op(emu *e, uint32_t addr, ff_error *err)
{
    return nat_unmap_area(emu_nat_of(e), addr, err);
}

static uint8_t *nat_host_op(emu *e, uint32_t addr, uint32_t len)
{
    return nat_host(emu_nat_of(e), addr, len);
}

static int nat_patch_op(emu *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err)
{
    return nat_patch_code(emu_nat_of(e), addr, bytes, len, err);
}

static int nat_unpatch_op(emu *e, uint32_t addr, ff_error *err)
{
    return nat_unpatch(emu_nat_of(e), addr, err);
}

static uint32_t nat_stack_hot_op(const emu *e)
{
    return emu_nat_of_c(e)->stack_hot;
}

static uint32_t nat_scratch_hot_op(const emu *e)
{
    return emu_nat_of_c(e)->scratch_hot;
}

const emu_ops emu_native_ops = {
    .kind = EMU_ENGINE_NATIVE,
    .caps = 0,
    .one_per_process = 1,
    .info = nat_info,
    .room = nat_room,
    .open = nat_open_op,
    .close = nat_close_op,
    .call = nat_call_op,
    .x87_st0 = nat_x87_op,
    .map_area = nat_map_op,
    .unmap_area = nat_unmap_op,
    .host = nat_host_op,
    .patch = nat_patch_op,
    .unpatch = nat_unpatch_op,
    .stack_hot = nat_stack_hot_op,
    .scratch_hot = nat_scratch_hot_op,
};
