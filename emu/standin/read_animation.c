/*
 * emu/standin/read_animation.c: Battle_ReadAnimation (0x508F90), one tick
 * of animation decoding (docs/engine.md section 4): one frame, two under FAST,
 * each frame halved under SLOW after frame 0, the cursor saved back into
 * the AnimCmd except on a SLOW half-step, then the bone matrices rebuilt.
 *
 * Reads the stream only through the leaf routines, so every read is a real
 * call the emulator can see. Checks nothing the engine does not check.
 *
 * Mutants: B halves with an arithmetic shift, D accumulates scales,
 * F saves the cursor on the SLOW half-step too, G decodes one frame per
 * call under FAST, H ORs the mode bit into the skeleton flags.
 * Faulty variant: loops forever on clip 1, reads unmapped memory on clip 2.
 * Hostile variants (one macro each, clip 1 only, every other clip correct):
 * FF_HOSTILE_LOOP loops forever, FF_HOSTILE_INT80 executes `int 0x80`,
 * FF_HOSTILE_SYSENTER `sysenter` (EBP 0), SYSENTER_EBP `sysenter` with EBP
 * on its stack, FF_HOSTILE_SYSCALL `syscall`,
 * FF_HOSTILE_NULL_WRITE stores to address 0, FF_HOSTILE_WILD_JUMP calls
 * address 0x10, FF_HOSTILE_SELF_WRITE stores into its own first byte.
 * FF_HOSTILE_ESCAPE_WRITE jumps far to 64-bit code (0x33) and writes a
 * forged line to stderr there, then exits the process; ESCAPE_UD2,
 * ESCAPE_RETF (a far return to 0x33) and ESCAPE_LOOP end in `ud2` or a loop
 * in 64-bit code; ALIGN_CHECK leaves EFLAGS.AC set; FAR_SAME jumps far to its
 * own selector 0x23 (legal); NULL_DS loads DS with 0 and reads through it;
 * HLT, ICEBP and INT2E execute `hlt`, `icebp` (F1) and `int 0x2e`; PAD_JUMP
 * jumps into the return sentinel's page, to the native engine's 64-bit pad,
 * PAD_MID into that pad's middle.
 * The system-call builds load EAX with 20 (getpid in the i386 table, a
 * harmless call) so nothing depends on what EAX held.
 */
#include "emu/standin/standin.h"

/* A delta as applied on a SLOW half-step (C division: toward zero). */
SA_INLINE int sa_halved(int delta, int half)
{
#if defined(FF_VARIANT_CALLS)
    /* standin_calls.exe: one more direct call than the profile lists. */
    return half ? Anim_Halve(delta) : delta;
#elif defined(FF_MUTANT_B)
    return half ? delta >> 1 : delta;
#else
    return half ? delta / 2 : delta;
#endif
}

/* First byte (the frame count) of clip number `clip` of a section. */
SA_INLINE const u8 *sa_clip_start(const u8 *section, unsigned clip)
{
    const u32 *offsets = (const u32 *)section + 1;

    return section + offsets[clip];
}

/* Decodes one frame's deltas and scales into the skeleton. */
SA_INLINE void sa_decode_frame(sa_cursor *rd, sa_skeleton *sk, int half)
{
    sa_bone *bone = sk->bones;
    sa_bone *end = bone + sk->count;
    int axis;

    for (axis = 0; axis < 3; axis++)
        sk->root[axis] = (s16)(sk->root[axis] + sa_halved(ReadPositionType(rd), half));
#ifdef FF_MUTANT_H
    sk->flags |= (u8)(bitReader(rd, 1) & 1);
#else
    sk->flags = (u8)((sk->flags & ~SA_SKEL_SCALED) | (bitReader(rd, 1) & 1));
#endif
    for (; bone != end; bone++) {
        for (axis = 0; axis < 3; axis++)
            bone->rot[axis] = (s16)(bone->rot[axis] + sa_halved(ReadRotationType(rd), half));
        if (sk->flags & SA_SKEL_SCALED) {
            for (axis = 0; axis < 3; axis++) {
#ifdef FF_MUTANT_D
                bone->scale[axis] = (s16)(bone->scale[axis] + ReadBoneScale(rd));
#else
                bone->scale[axis] = ReadBoneScale(rd);
#endif
            }
        }
    }
}

/*
 * Returns 1 without touching anything once the clip is over, else decodes
 * this tick into the skeleton, updates the AnimCmd, rebuilds the bone
 * matrices and returns 0. Takes and releases 8 bytes of scratch.
 */
int Battle_ReadAnimation(sa_model *m, sa_cmd *cmd)
{
    sa_skeleton *sk;
    const u8 *clip;
    sa_cursor *rd;
    int slow, frames, half_step;

#ifdef FF_FAULTY
    if (cmd->clip == 1)
        for (;;) {
        }
    if (cmd->clip == 2) return (int)standin_unmapped;
#endif
#if defined(FF_HOSTILE_LOOP)
    if (cmd->clip == 1)
        for (;;) {
        }
#elif defined(FF_HOSTILE_INT80)
    if (cmd->clip == 1) __asm__ volatile("int $0x80" : : "a"(20) : "memory");
#elif defined(FF_HOSTILE_SYSENTER)
    if (cmd->clip == 1) __asm__ volatile("sysenter" : : "a"(20) : "ecx", "edx", "memory");
#elif defined(FF_HOSTILE_SYSENTER_EBP)
    /* EBP on the stack, as a system library's caller of `sysenter` leaves it. */
    if (cmd->clip == 1)
        __asm__ volatile("push %%ebp\n mov %%esp, %%ebp\n sysenter\n pop %%ebp"
                         :
                         : "a"(20)
                         : "ecx", "edx", "memory");
#elif defined(FF_HOSTILE_SYSCALL)
    if (cmd->clip == 1) __asm__ volatile("syscall" : : "a"(20) : "ecx", "edx", "memory");
#elif defined(FF_HOSTILE_NULL_WRITE)
    /* In assembly: C's store through a null pointer is undefined, and gcc may
     * turn it into a trap instruction. */
    if (cmd->clip == 1) __asm__ volatile("movl $0, 0" : : : "memory");
#elif defined(FF_HOSTILE_WILD_JUMP)
    /* Indirect: the profile's direct callees stay as they are. */
    if (cmd->clip == 1) __asm__ volatile("call *%0" : : "r"(0x10) : "eax", "ecx", "edx", "memory");
#elif defined(FF_HOSTILE_SELF_WRITE)
    if (cmd->clip == 1) *(volatile u8 *)(void *)Battle_ReadAnimation = 0xC3;
#elif defined(FF_HOSTILE_ESCAPE_WRITE)
    /* Far jump to 64-bit code (0x33), write(2, "FORGED!!\n", 9) thirty times, then
     * exit_group(0). Encoded by hand: the assembler is in 32-bit mode. */
    if (cmd->clip == 1)
        __asm__ volatile("ljmp $0x33, $1f\n"
                         "1: .byte 0x41, 0xB8, 30, 0, 0, 0\n"  /* mov r8d, 30 */
                         "2: .byte 0xB8, 1, 0, 0, 0\n"         /* mov eax, 1 (write) */
                         ".byte 0xBF, 2, 0, 0, 0\n"            /* mov edi, 2 */
                         ".byte 0x48, 0x8D, 0x35, 0x15, 0, 0, 0\n" /* lea rsi, [rip + 21] */
                         ".byte 0xBA, 9, 0, 0, 0\n"            /* mov edx, 9 */
                         ".byte 0x0F, 0x05\n"                  /* syscall */
                         ".byte 0x41, 0xFF, 0xC8\n"            /* dec r8d */
                         ".byte 0x75, 0xE3\n"                  /* jnz 2b */
                         ".byte 0xB8, 0xE7, 0, 0, 0\n"         /* mov eax, 231 (exit_group) */
                         ".byte 0x31, 0xFF\n"                  /* xor edi, edi */
                         ".byte 0x0F, 0x05\n"                  /* syscall */
                         ".ascii \"FORGED!!\\n\"\n"
                         :
                         :
                         : "memory");
#elif defined(FF_HOSTILE_ESCAPE_UD2)
    if (cmd->clip == 1) __asm__ volatile("ljmp $0x33, $1f\n 1: ud2" : : : "memory");
#elif defined(FF_HOSTILE_ESCAPE_RETF)
    if (cmd->clip == 1)
        __asm__ volatile("push $0x33\n push $1f\n lret\n 1: ud2" : : : "memory");
#elif defined(FF_HOSTILE_ESCAPE_LOOP)
    if (cmd->clip == 1) __asm__ volatile("ljmp $0x33, $1f\n 1: jmp 1b" : : : "memory");
#elif defined(FF_HOSTILE_ALIGN_CHECK)
    /* EFLAGS.AC left set: the host's unaligned accesses must not fault after the call. */
    if (cmd->clip == 1) __asm__ volatile("pushf\n orl $0x40000, (%%esp)\n popf" : : : "memory");
#elif defined(FF_HOSTILE_FAR_SAME)
    /* A far jump to the guest's own code selector: legal on the hardware. */
    if (cmd->clip == 1) __asm__ volatile("ljmp $0x23, $1f\n 1:" : : : "memory");
#elif defined(FF_HOSTILE_NULL_DS)
    if (cmd->clip == 1)
        __asm__ volatile("push $0\n pop %%ds\n movl (%%esp), %%eax" : : : "eax", "memory");
#elif defined(FF_HOSTILE_HLT)
    if (cmd->clip == 1) __asm__ volatile("hlt" : : : "memory");
#elif defined(FF_HOSTILE_ICEBP)
    if (cmd->clip == 1) __asm__ volatile(".byte 0xF1" : : : "memory");
#elif defined(FF_HOSTILE_INT2E)
    if (cmd->clip == 1) __asm__ volatile("int $0x2e" : : : "memory");
#elif defined(FF_HOSTILE_PAD_JUMP)
    /* Into the engines' return page, where the native engine's pad lies (0x7FF00800). */
    if (cmd->clip == 1) __asm__ volatile("jmp *%0" : : "r"(0x7FF00800) : "memory");
#elif defined(FF_HOSTILE_PAD_MID)
    /* Into the middle of the native engine's pad (0x7FF00807, the last bytes of its first
     * instruction's immediate), whatever 32-bit code they read as. */
    if (cmd->clip == 1) __asm__ volatile("jmp *%0" : : "r"(0x7FF00807) : "memory");
#endif
    if (cmd->frame >= cmd->total) return 1;
    sk = m->files->skeleton;
    clip = sa_clip_start(m->files->animation, cmd->clip);
    rd = (sa_cursor *)Field_Alloc(sizeof *rd);
    rd->ptr = clip + cmd->off;
    rd->bit = cmd->bit;

    slow = cmd->flags & SA_FLAG_SLOW;
#ifdef FF_MUTANT_G
    frames = 1;
#else
    frames = (cmd->flags & SA_FLAG_FAST) ? 2 : 1;
#endif
    do {
        sa_decode_frame(rd, sk, slow && cmd->frame != 0);
        cmd->frame++;
    } while (--frames > 0 && cmd->frame < cmd->total);

    half_step = (cmd->flags & SA_FLAG_HALF_MASK) >> SA_FLAG_HALF_SHIFT;
#ifndef FF_MUTANT_F
    if (!slow || half_step == 0)
#endif
    {
        cmd->off = (s16)(rd->ptr - clip);
        cmd->bit = (s16)rd->bit;
    }
    cmd->flags =
        (u8)((cmd->flags & ~SA_FLAG_HALF_MASK) | ((half_step + 1) % 2) << SA_FLAG_HALF_SHIFT);

    BuildBoneMatrices(m);
    Field_Free(sizeof *rd);
    return 0;
}
