/*
 * emu/engine/native/nat_cpu.c: the switch between the host's 64-bit code and
 * the original's 32-bit code on the CPU itself, and what keeps the host safe
 * from it (docs/engine.md section 8):
 *
 * - nat_cpu_enter (assembly below) saves the host's callee-saved registers,
 *   x87 control word, MXCSR and FS base, loads DS and ES with the user data
 *   selector 0x2B (null in a 64-bit process, and a 32-bit access through a
 *   null selector faults), FS with an LDT segment based at the TEB, the
 *   profile's x87 control word on an empty x87 stack and MXCSR 0x1F80, the
 *   guest's ESP and zeroed registers, then jumps far to 0x23:entry.
 * - The guest's `ret` lands on the sentinel page, which jumps far to 0x33
 *   (64-bit) at a pad in the same page, which jumps to nat_pad_target through
 *   the slot page above 4 GiB that holds its address (nat_mem.c): the
 *   guest's registers are saved and the host's state comes back.
 * - SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP and SIGSYS raised by guest code
 *   (CS 0x23) are caught on an alternate stack: the handler first puts the
 *   host's FS base back (the C code and libc use TLS through it), records the
 *   fault, and resumes the host at nat_cpu_back. A fault outside guest code
 *   is the host's own: the previous handler is put back and the fault
 *   happens again under it.
 * - An alignment check (#AC) of guest code that set EFLAGS.AC is undone: AC
 *   off, the access made again, as under Unicorn, which checks no alignment.
 * - A seccomp filter on the engine's thread turns every i386-ABI system call
 *   (int 0x80, sysenter, syscall from 32-bit code) into SIGSYS: guest code
 *   can make none. The host's own (x86-64) calls pass.
 * - A CPU-time timer of the thread fires every budget period; a call still
 *   running at two ticks in a row is stopped as over budget (where it stops
 *   is not exact, and the fault record says so).
 *
 * Process-wide state, because a signal handler can reach nothing else and
 * the guest's memory is the process's own: one native engine per process
 * (nat_cpu_state). Nothing here prints or exits.
 */
#define _GNU_SOURCE
#include "emu/engine/native/nat_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__linux__)
#include <asm/ldt.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/auxv.h>
#define NAT_BUILT 1
#else
#define NAT_BUILT 0
#endif

#if NAT_BUILT

/* The part the assembly reaches by fixed offsets (checked below). */
struct nat_cpu {
    uint64_t host_rsp;    /* 0 */
    uint64_t host_fsbase; /* 8 */
    uint32_t far_off;     /* 16: m16:32 far pointer of the entry */
    uint16_t far_sel;     /* 20 */
    uint16_t guest_fcw;   /* 22 */
    uint16_t host_fcw;    /* 24 */
    uint16_t teb_sel;     /* 26 */
    uint32_t guest_mxcsr; /* 28 */
    uint32_t host_mxcsr;  /* 32 */
    uint32_t entry_esp;   /* 36 */
    uint32_t g[8];        /* 40: eax ecx edx ebx esp ebp esi edi at the pad */
    uint32_t use_wrfsbase; /* 72 */
    volatile uint32_t in_guest; /* 76: 1 from just before the far jump in to the pad */
    uint8_t fx[512] __attribute__((aligned(16))); /* 80: fxsave at the end of a run */
    uint16_t seg_at_pad[4]; /* 592: DS ES SS GS as the guest left them at the pad */
    uint32_t have_avx;      /* 600: vzeroall clears the vector registers' upper halves */
    /* C only from here. */
    emu_nat *engine;      /* the process's engine, NULL: none */
    nat_exit *x;          /* the running call's record */
    volatile sig_atomic_t active; /* a call is running */
    volatile sig_atomic_t faulted;
    volatile uint64_t seq, seq_tick; /* calls begun; the count the timer saw last */
    int timer_sig;
    int have_timer;
    timer_t timer;
    pthread_t owner;      /* the thread the per-thread set-up was made for */
    int owned;
    void *altstack;
    struct sigaction old[8];
    int handlers;
};

__attribute__((visibility("hidden"))) struct nat_cpu nat_cpu_state;

_Static_assert(offsetof(struct nat_cpu, far_off) == 16 && offsetof(struct nat_cpu, guest_fcw) == 22 &&
                   offsetof(struct nat_cpu, teb_sel) == 26 &&
                   offsetof(struct nat_cpu, entry_esp) == 36 && offsetof(struct nat_cpu, g) == 40 &&
                   offsetof(struct nat_cpu, use_wrfsbase) == 72 &&
                   offsetof(struct nat_cpu, in_guest) == 76 && offsetof(struct nat_cpu, fx) == 80 &&
                   offsetof(struct nat_cpu, seg_at_pad) == 592 &&
                   offsetof(struct nat_cpu, have_avx) == 600,
               "nat_cpu offsets used by the assembly");

void nat_cpu_enter(void);
void nat_cpu_back(void);
void nat_sig_entry(int, siginfo_t *, void *);
__attribute__((visibility("hidden"))) int nat_sig_c(int sig, siginfo_t *si, void *ucv);

__asm__(".text\n"
        ".globl nat_cpu_enter\n .hidden nat_cpu_enter\n .type nat_cpu_enter,@function\n"
        "nat_cpu_enter:\n"
        "  push %rbx\n push %rbp\n push %r12\n push %r13\n push %r14\n push %r15\n"
        "  sub $8, %rsp\n"
        "  mov %rsp, nat_cpu_state+0(%rip)\n"
        "  fnstcw nat_cpu_state+24(%rip)\n"
        "  stmxcsr nat_cpu_state+32(%rip)\n"
        "  fninit\n"
        "  fldcw nat_cpu_state+22(%rip)\n"
        "  ldmxcsr nat_cpu_state+28(%rip)\n"
        "  pushq $0x202\n popfq\n"
        "  mov $0x2b, %eax\n mov %eax, %ds\n mov %eax, %es\n"
        "  movzwl nat_cpu_state+26(%rip), %eax\n mov %eax, %fs\n"
        /* Nothing of the host's in a register the guest could read after a far jump to
         * 64-bit code: r8-r15 and every vector register zeroed. */
        "  xor %r8d, %r8d\n xor %r9d, %r9d\n xor %r10d, %r10d\n xor %r11d, %r11d\n"
        "  xor %r12d, %r12d\n xor %r13d, %r13d\n xor %r14d, %r14d\n xor %r15d, %r15d\n"
        "  cmpl $0, nat_cpu_state+600(%rip)\n je 4f\n vzeroall\n jmp 5f\n"
        "4: pxor %xmm0, %xmm0\n pxor %xmm1, %xmm1\n pxor %xmm2, %xmm2\n pxor %xmm3, %xmm3\n"
        "  pxor %xmm4, %xmm4\n pxor %xmm5, %xmm5\n pxor %xmm6, %xmm6\n pxor %xmm7, %xmm7\n"
        "  pxor %xmm8, %xmm8\n pxor %xmm9, %xmm9\n pxor %xmm10, %xmm10\n pxor %xmm11, %xmm11\n"
        "  pxor %xmm12, %xmm12\n pxor %xmm13, %xmm13\n pxor %xmm14, %xmm14\n pxor %xmm15, %xmm15\n"
        "5: movl $1, nat_cpu_state+76(%rip)\n"
        "  mov nat_cpu_state+36(%rip), %esp\n"
        "  mov $0, %eax\n mov $0, %ecx\n mov $0, %edx\n mov $0, %ebx\n"
        "  mov $0, %ebp\n mov $0, %esi\n mov $0, %edi\n"
        "  ljmpl *nat_cpu_state+16(%rip)\n"
        ".size nat_cpu_enter, .-nat_cpu_enter\n"

        /* The pad's target: 64-bit again, on the guest's stack and FS. */
        ".globl nat_pad_target\n .hidden nat_pad_target\n"
        "nat_pad_target:\n"
        "  movl $0, nat_cpu_state+76(%rip)\n"
        "  mov %eax, nat_cpu_state+40(%rip)\n mov %ecx, nat_cpu_state+44(%rip)\n"
        "  mov %edx, nat_cpu_state+48(%rip)\n mov %ebx, nat_cpu_state+52(%rip)\n"
        "  mov %esp, nat_cpu_state+56(%rip)\n mov %ebp, nat_cpu_state+60(%rip)\n"
        "  mov %esi, nat_cpu_state+64(%rip)\n mov %edi, nat_cpu_state+68(%rip)\n"
        "  mov %ds, %eax\n mov %ax, nat_cpu_state+592(%rip)\n"
        "  mov %es, %eax\n mov %ax, nat_cpu_state+594(%rip)\n"
        "  mov %ss, %eax\n mov %ax, nat_cpu_state+596(%rip)\n"
        "  mov %gs, %eax\n mov %ax, nat_cpu_state+598(%rip)\n"
        /* The host's state back (also where a caught fault resumes): its stack, flags
         * (AC, DF, TF and NT clear), SS, FS, null DS, ES and GS (GS's base 0 again when
         * the guest loaded it), x87 and SSE control words. */
        ".globl nat_cpu_back\n .hidden nat_cpu_back\n"
        "nat_cpu_back:\n"
        "  movl $0, nat_cpu_state+76(%rip)\n"
        "  mov nat_cpu_state+0(%rip), %rsp\n"
        "  pushq $0x202\n popfq\n"
        "  mov $0x2b, %eax\n mov %eax, %ss\n"
        "  call nat_fs_host\n"
        "  xor %eax, %eax\n mov %eax, %ds\n mov %eax, %es\n"
        "  mov %gs, %eax\n test %eax, %eax\n jz 6f\n"
        "  xor %eax, %eax\n mov %eax, %gs\n call nat_gs_host\n"
        "6:\n"
        "  fxsave nat_cpu_state+80(%rip)\n"
        "  fninit\n"
        "  fldcw nat_cpu_state+24(%rip)\n"
        "  ldmxcsr nat_cpu_state+32(%rip)\n"
        "  cld\n"
        "  add $8, %rsp\n"
        "  pop %r15\n pop %r14\n pop %r13\n pop %r12\n pop %rbp\n pop %rbx\n"
        "  ret\n"

        /* FS: null selector, the host's base (clobbers rax, rcx, rdi, rsi, r11). */
        "nat_fs_host:\n"
        "  xor %eax, %eax\n mov %eax, %fs\n"
        "  cmpl $0, nat_cpu_state+72(%rip)\n je 1f\n"
        "  mov nat_cpu_state+8(%rip), %rax\n wrfsbase %rax\n ret\n"
        "1: mov $158, %eax\n mov $0x1002, %edi\n mov nat_cpu_state+8(%rip), %rsi\n syscall\n ret\n"

        /* GS base 0, the host's (clobbers rax, rcx, rdi, rsi, r11). */
        "nat_gs_host:\n"
        "  cmpl $0, nat_cpu_state+72(%rip)\n je 7f\n"
        "  xor %eax, %eax\n wrgsbase %rax\n ret\n"
        "7: mov $158, %eax\n mov $0x1001, %edi\n xor %esi, %esi\n syscall\n ret\n"

        /* Signal entry: the host's FS first when the guest's is loaded, then C,
         * then the FS selector as it was (its base comes with it from the LDT). */
        ".globl nat_sig_entry\n .hidden nat_sig_entry\n .type nat_sig_entry,@function\n"
        "nat_sig_entry:\n"
        /* AC off first: the kernel delivers a signal with the interrupted code's AC. */
        "  pushfq\n andl $0xfffbffff, (%rsp)\n popfq\n"
        "  mov %fs, %eax\n"
        "  push %rax\n"
        "  cmpl $0, nat_cpu_state+76(%rip)\n jne 8f\n"
        "  test %eax, %eax\n jz 2f\n"
        "8:\n"
        "  push %rdi\n push %rsi\n push %rdx\n sub $8, %rsp\n"
        "  call nat_fs_host\n"
        "  add $8, %rsp\n pop %rdx\n pop %rsi\n pop %rdi\n"
        "2: call nat_sig_c\n"
        "  pop %rax\n"
        "  test %eax, %eax\n jz 3f\n"
        "  mov %eax, %fs\n"
        "3: ret\n"
        ".size nat_sig_entry, .-nat_sig_entry\n");



static const int caught[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS};
#define NCAUGHT ((int)(sizeof caught / sizeof caught[0]))

static int caught_index(int sig)
{
    for (int i = 0; i < NCAUGHT; i++)
        if (caught[i] == sig) return i;
    return -1;
}

/* Sends the running call back to the host as faulted. */
static void to_host(struct nat_cpu *c, ucontext_t *uc)
{
    greg_t *g = uc->uc_mcontext.gregs;
    g[REG_RIP] = (greg_t)(uintptr_t)nat_cpu_back;
    g[REG_CSGSFS] = (g[REG_CSGSFS] & ~(greg_t)0xFFFF) | NAT_SEL_CODE64;
    g[REG_EFL] = 0x202;
    c->faulted = 1;
    c->active = 0;
}

static void keep_regs(nat_exit *x, const greg_t *g)
{
    x->regs[EMU_EAX] = (uint32_t)g[REG_RAX];
    x->regs[EMU_ECX] = (uint32_t)g[REG_RCX];
    x->regs[EMU_EDX] = (uint32_t)g[REG_RDX];
    x->regs[EMU_EBX] = (uint32_t)g[REG_RBX];
    x->regs[EMU_ESP] = (uint32_t)g[REG_RSP];
    x->regs[EMU_EBP] = (uint32_t)g[REG_RBP];
    x->regs[EMU_ESI] = (uint32_t)g[REG_RSI];
    x->regs[EMU_EDI] = (uint32_t)g[REG_RDI];
    x->regs[EMU_EIP] = (uint32_t)g[REG_RIP];
    x->rip = (uint64_t)g[REG_RIP];
    x->regs[EMU_EFLAGS] = (uint32_t)g[REG_EFL];
}

/* 1 when rip lies on the return pad (64-bit code of ours in the sentinel page). */
static int on_pad(uint64_t rip)
{
    return rip >= EMU_SENTINEL + NAT_PAD_OFF && rip < EMU_SENTINEL + NAT_PAGE;
}

int nat_sig_c(int sig, siginfo_t *si, void *ucv)
{
    struct nat_cpu *c = &nat_cpu_state;
    ucontext_t *uc = ucv;
    greg_t *g = uc->uc_mcontext.gregs;
    int cs = (int)(g[REG_CSGSFS] & 0xFFFF);
    uint64_t rip = (uint64_t)g[REG_RIP];
    /* The guest's from the far jump in to the pad, in whatever segment it runs by then: a
     * far jump to 64-bit code (0x33) is still the guest's, never taken for the host's. */
    int in_guest = c->active && (c->in_guest || cs == NAT_SEL_CODE32);
    int escaped = in_guest && cs != NAT_SEL_CODE32 && !on_pad(rip);
    if (sig == SIGBUS && si->si_code == BUS_ADRALN && in_guest && !escaped) {
        /* An alignment check the guest turned on (EFLAGS.AC): off again and the access
         * made once more, as under Unicorn, which checks no alignment. */
        g[REG_EFL] &= ~(greg_t)0x40000;
        return 0;
    }
    if (sig == c->timer_sig && c->have_timer) {
        if (!in_guest) return 0;
        /* Guest code under another code segment is stopped at once; the budget counts
         * every tick of a call, whatever it runs. */
        if (!(escaped && rip < ((uint64_t)1 << 32)) && c->seq != c->seq_tick) {
            c->seq_tick = c->seq;
            return 0;
        }
        nat_exit *x = c->x;
        x->budget = !escaped;
        x->segment = escaped ? cs : 0;
        x->signo = sig;
        keep_regs(x, g);
        to_host(c, uc);
        return 0;
    }
    int k = caught_index(sig);
    if (!in_guest || k < 0) {
        /* The host's own fault: under the previous handler when it happens again. */
        if (k >= 0) sigaction(sig, &c->old[k], NULL);
        return 0;
    }
    uint32_t addr = (uint32_t)(uintptr_t)si->si_addr;
    if (!escaped && sig == SIGSEGV && si->si_code == SEGV_MAPERR && c->engine &&
        nat_grow(c->engine, addr) == 0)
        return 0; /* the stack or scratch reached a new page: mapped, the access again */
    nat_exit *x = c->x;
    x->signo = sig;
    x->code = si->si_code;
    x->trapno = (int)g[REG_TRAPNO];
    x->err = (unsigned long)g[REG_ERR];
    x->addr = addr;
    x->segment = escaped ? cs : 0;
    /* The guest's data segments: the kernel's entry and the signal keep DS and ES. */
    unsigned ds, es;
    __asm__ volatile("mov %%ds, %0\n mov %%es, %1" : "=r"(ds), "=r"(es));
    x->ds = ds & 0xFFFF;
    x->es = es & 0xFFFF;
#ifdef si_syscall
    if (sig == SIGSYS) x->syscall_nr = si->si_syscall;
    if (sig == SIGSYS) x->syscall_arch = si->si_arch;
#endif
    keep_regs(x, g);
    to_host(c, uc);
    return 0;
}

static int install_handlers(struct nat_cpu *c, ff_error *err)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = nat_sig_entry;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, c->timer_sig);
    for (int i = 0; i < NCAUGHT; i++)
        if (sigaction(caught[i], &sa, &c->old[i]) != 0)
            return ff_error_set(err, FF_E_EMU, NULL, -1, "installing a signal handler: %s",
                                strerror(errno));
    if (sigaction(c->timer_sig, &sa, &c->old[NCAUGHT]) != 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "installing the timer's handler: %s",
                            strerror(errno));
    c->handlers = 1;
    return 0;
}

static void remove_handlers(struct nat_cpu *c)
{
    if (!c->handlers) return;
    for (int i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &c->old[i], NULL);
    sigaction(c->timer_sig, &c->old[NCAUGHT], NULL);
    c->handlers = 0;
}

/* The TEB's data segment in this process's LDT. */
static int ldt_teb(ff_error *err)
{
    struct user_desc d;
    memset(&d, 0, sizeof d);
    d.entry_number = NAT_LDT_TEB;
    d.base_addr = EMU_TEB;
    d.limit = 0xFFF;
    d.seg_32bit = 1;
    d.contents = 0; /* data, expand-up */
    d.useable = 1;
    if (syscall(SYS_modify_ldt, 1, &d, sizeof d) != 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1,
                            "the kernel refused an LDT segment for the TEB (modify_ldt: %s)",
                            strerror(errno));
    return 0;
}

/*
 * Every i386-ABI system call of this thread traps (SIGSYS), and so does every
 * x86-64 one made from below 4 GiB, where only guest memory lies (the maps
 * check): guest code that jumped far into 64-bit code can make none either.
 * The host's own calls (x86-64, from its code above 4 GiB) pass.
 */
static int seccomp_filter(ff_error *err)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1,
                            "the kernel refused the system-call filter (seccomp: %s)",
                            strerror(errno));
    return 0;
}

/* The calling thread's part: FS base, alternate stack, filter, timer. */
static int own_thread(struct nat_cpu *c, emu_nat *e, ff_error *err)
{
    if (c->owned && pthread_equal(c->owner, pthread_self())) return 0;
    unsigned long fsbase = 0;
    if (syscall(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &fsbase) != 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "reading the FS base: %s", strerror(errno));
    c->host_fsbase = fsbase;
    stack_t ss = {.ss_sp = c->altstack, .ss_size = 64 * 1024, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "setting an alternate signal stack: %s",
                            strerror(errno));
    if (seccomp_filter(err) < 0) return -1;
    if (c->have_timer) {
        timer_delete(c->timer);
        c->have_timer = 0;
    }
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = c->timer_sig;
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &c->timer) != 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "creating the CPU-time timer: %s",
                            strerror(errno));
    c->have_timer = 1;
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = (time_t)(e->budget_ns / 1000000000u);
    its.it_value.tv_nsec = (long)(e->budget_ns % 1000000000u);
    its.it_interval = its.it_value;
    if (timer_settime(c->timer, 0, &its, NULL) != 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "arming the CPU-time timer: %s",
                            strerror(errno));
    c->owner = pthread_self();
    c->owned = 1;
    return 0;
}

int nat_cpu_open(emu_nat *e, uint64_t budget_ns, ff_error *err)
{
    struct nat_cpu *c = &nat_cpu_state;
    if (c->engine)
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "this process already holds a native engine (one per process: its "
                            "guest memory lies at fixed addresses)");
    char why[256];
    if (nat_check_maps(e, why, sizeof why) < 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1, "%s", why);
    if (ldt_teb(err) < 0) return -1;
    memset(c, 0, sizeof *c);
    c->teb_sel = NAT_SEL_TEB;
    c->far_sel = NAT_SEL_CODE32;
    c->guest_mxcsr = 0x1F80;
    c->use_wrfsbase = (getauxval(AT_HWCAP2) & 2 /* HWCAP2_FSGSBASE */) != 0;
    __builtin_cpu_init();
    c->have_avx = __builtin_cpu_supports("avx") != 0;
    c->timer_sig = SIGRTMIN + 6;
    e->budget_ns = budget_ns;
    if (!(c->altstack = malloc(64 * 1024)))
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    c->engine = e;
    if (install_handlers(c, err) < 0 || own_thread(c, e, err) < 0) {
        nat_cpu_close(e);
        return -1;
    }
    return 0;
}

void nat_cpu_close(emu_nat *e)
{
    struct nat_cpu *c = &nat_cpu_state;
    if (c->engine != e) return;
    if (c->have_timer) timer_delete(c->timer);
    remove_handlers(c);
    if (c->owned && pthread_equal(c->owner, pthread_self())) {
        stack_t ss = {.ss_flags = SS_DISABLE};
        sigaltstack(&ss, NULL);
    }
    free(c->altstack);
    memset(c, 0, sizeof *c);
}

void nat_cpu_run(uint32_t entry, uint32_t esp, uint16_t fcw, nat_exit *x)
{
    struct nat_cpu *c = &nat_cpu_state;
    ff_error err;
    memset(x, 0, offsetof(nat_exit, fx));
    if (own_thread(c, c->engine, &err) < 0) {
        x->faulted = 1;
        x->signo = -1;
        return;
    }
    c->far_off = entry;
    c->entry_esp = esp;
    c->guest_fcw = fcw;
    c->x = x;
    c->faulted = 0;
    c->seq++;
    c->active = 1;
    nat_cpu_enter();
    c->active = 0;
    x->faulted = c->faulted;
    if (!x->faulted) {
        static const int order[8] = {EMU_EAX, EMU_ECX, EMU_EDX, EMU_EBX,
                                     EMU_ESP, EMU_EBP, EMU_ESI, EMU_EDI};
        for (int i = 0; i < 8; i++)
            x->regs[order[i]] = c->g[i];
        x->regs[EMU_EIP] = EMU_SENTINEL + 7;
        /* Segment registers the guest changed are its own business on the hardware but
         * not under an emulator: a fault on both engines alike. GS may be 0 or flat. */
        static const uint16_t want[4] = {NAT_SEL_DATA, NAT_SEL_DATA, NAT_SEL_DATA, 0};
        for (int i = 0; i < 4; i++)
            if (c->seg_at_pad[i] != want[i] && !(i == 3 && c->seg_at_pad[i] == NAT_SEL_DATA)) {
                x->segreg = i + 1;
                x->segval = c->seg_at_pad[i];
            }
    }
    memcpy(x->fx, c->fx, sizeof x->fx);
}

int nat_kernel_landing(uint32_t addr)
{
    /* The 32-bit vDSO's landing pad lies within its first pages; 16 KiB spans them. */
    uint32_t vdso = (uint32_t)getauxval(AT_SYSINFO_EHDR);
    return vdso != 0 && addr - vdso < 0x4000u;
}

#else /* not x86-64 Linux */

int nat_kernel_landing(uint32_t addr)
{
    (void)addr;
    return 0;
}

int nat_cpu_open(emu_nat *e, uint64_t budget_ns, ff_error *err)
{
    (void)e;
    (void)budget_ns;
    return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1,
                        "the native engine runs on x86-64 Linux only");
}

void nat_cpu_close(emu_nat *e)
{
    (void)e;
}

void nat_cpu_run(uint32_t entry, uint32_t esp, uint16_t fcw, nat_exit *x)
{
    (void)entry;
    (void)esp;
    (void)fcw;
    memset(x, 0, sizeof *x);
    x->faulted = 1;
    x->signo = -1;
}

#endif
