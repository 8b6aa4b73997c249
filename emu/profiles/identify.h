/*
 * emu/profiles/identify.h: which build an executable is, against the built-in
 * profiles or a given one: known hash -> accepted; unknown hash with every
 * fingerprint holding -> accepted with a warning; anything else -> refused
 * with the reason (failed fingerprints with the bytes expected and found,
 * or not a PE32/i386 at all). Plus a structural check of the profile's
 * routines: their direct calls and absolute memory references, found by
 * following each routine's own control flow with Capstone, compared with
 * the callees the profile expects.
 *
 * Evidence kept apart from the verdict (emu/profiles/evidence.c): the
 * profile's "evidence" bytes and "versions" dwords, each held or not, the
 * build the dwords name, and what a file of the 2019 Remaster is (its host
 * FFVIII.exe or its FFVIII_EFIGS.dll / FFVIII_JP.dll), said instead of a
 * bare refusal; per routine, its size and instruction count against the
 * profile's (identify_routines).
 *
 * Results are plain structs for the CLI to print; nothing here prints or
 * exits. The executable is only read, never run.
 */
#ifndef FF8_EMU_PROFILES_IDENTIFY_H
#define FF8_EMU_PROFILES_IDENTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/image/pe.h"
#include "emu/image/profile.h"

/* verdict, JSON name, message */
#define IDENTIFY_VERDICT_MAP(XX)                                                                   \
    XX(KNOWN, "known", "known build: the SHA-256 matches")                                         \
    XX(UNKNOWN, "unknown_build", "unknown build, fingerprints hold: runs with a warning")          \
    XX(REFUSED, "refused", "refused")

typedef enum identify_verdict {
#define IDENTIFY_VERDICT_ENUM(name, json, msg) IDENTIFY_##name,
    IDENTIFY_VERDICT_MAP(IDENTIFY_VERDICT_ENUM)
#undef IDENTIFY_VERDICT_ENUM
        IDENTIFY__COUNT
} identify_verdict;

#define IDENTIFY_MAX_PROFILES 8

/* kind, JSON name, what the file is */
#define IDENTIFY_REMASTER_MAP(XX)                                                                  \
    XX(NONE, "none", "")                                                                           \
    XX(HOST, "remaster_host", "the host program of FINAL FANTASY VIII Remastered (2019)")         \
    XX(CODE, "remaster_code", "the game code of FINAL FANTASY VIII Remastered (2019)")

typedef enum identify_remaster_kind {
#define IDENTIFY_REMASTER_ENUM(name, json, what) IDENTIFY_REMASTER_##name,
    IDENTIFY_REMASTER_MAP(IDENTIFY_REMASTER_ENUM)
#undef IDENTIFY_REMASTER_ENUM
        IDENTIFY_REMASTER__COUNT
} identify_remaster_kind;

typedef struct identify_fp {
    uint32_t address;
    unsigned len;
    uint8_t expected[PROFILE_FP_MAX_BYTES];
    uint8_t found[PROFILE_FP_MAX_BYTES];
    unsigned found_len; /* bytes readable at address (< len when outside the image) */
    int held;
} identify_fp;

/* One "evidence" entry of the profile, as found. */
typedef struct identify_evidence {
    char what[96];
    identify_fp bytes;
} identify_evidence;

/* The profile's "versions", read in this file. */
typedef struct identify_version {
    unsigned nchecked; /* the profile's entries (0: nothing to check) */
    int match;         /* index of the first entry whose dwords all hold, -1: none */
    int own;           /* index of the profile's own build, -1: none */
    char build[96], language[32]; /* the matching entry's, "" when none */
    /* The dwords at the addresses of the own entry (else the first), as found. */
    unsigned ndwords;
    uint32_t address[PROFILE_VERSION_DWORDS], found[PROFILE_VERSION_DWORDS];
    int readable[PROFILE_VERSION_DWORDS];
} identify_version;

typedef struct identify_match {
    char profile[64];
    int hash_match;
    unsigned nfp;
    identify_fp fp[PROFILE_MAX_FINGERPRINTS];
    unsigned nevidence; /* evidence: never part of the verdict */
    identify_evidence evidence[PROFILE_MAX_EVIDENCE];
    identify_version version;
    identify_verdict verdict;
    char reason[FF_ERR_REASON_MAX]; /* one sentence */
} identify_match;

typedef struct identify_result {
    char sha256[65];
    size_t size;
    int is_pe; /* 1 when the file parsed as PE32 i386 */
    char pe_reason[FF_ERR_REASON_MAX];
    char pe_warning[512]; /* "" or what was mapped leniently (pe_image.warning) */
    unsigned nmatches;
    identify_match matches[IDENTIFY_MAX_PROFILES];
    int accepted; /* index into matches of the profile to use (known first), or -1 */
    /* A file of the 2019 Remaster (see identify_remaster): what it is, "" otherwise. */
    identify_remaster_kind remaster;
    char remaster_note[1024];
} identify_result;

/*
 * Checks data against profiles[0..n) (n <= IDENTIFY_MAX_PROFILES). A file
 * that is not a PE32 is not an error: every match is then REFUSED with the
 * reason. Returns -1 only on internal failure.
 */
int identify_buffer(const uint8_t *data, size_t size, const emu_profile *profiles, unsigned n,
                    identify_result *out, ff_error *err);

/*
 * identify_buffer for a file named name (its path: only the last
 * component is looked at; NULL: no name), which also tells a file of the
 * Remaster by its name and PE traits (identify_remaster).
 */
int identify_buffer_named(const uint8_t *data, size_t size, const char *name,
                          const emu_profile *profiles, unsigned n, identify_result *out,
                          ff_error *err);

/*
 * Reads path and checks it against profile, or every built-in profile when
 * profile is NULL. Returns -1 (FF_E_IO) when the file cannot be read.
 */
int identify_file(const char *path, const emu_profile *profile, identify_result *out,
                  ff_error *err);

/*
 * The profile for a --profile argument: a built-in name, else a path to a
 * profile file.
 */
int identify_profile_arg(const char *name_or_path, emu_profile *out, ff_error *err);

/*
 * Reads an executable: a whole regular file of at most 512 MiB
 * (IDENTIFY_MAX_FILE) into a malloc'd buffer, with common/file.h's checks
 * (a FIFO, a device or a folder refused without blocking, FF_E_IO; a
 * larger file from its size alone, FF_E_RANGE).
 */
int identify_read_file(const char *path, uint8_t **data, size_t *size, ff_error *err);

/*
 * What a file of the 2019 Remaster is, from traits a reader can check
 * (docs/engine.md section 1): named FFVIII.exe (a 32-bit program, not a DLL) or
 * FFVIII_EFIGS.dll / FFVIII_JP.dll (a 32-bit DLL), case ignored, and no
 * profile accepting it (the 2013 routines are not at their addresses: the
 * game's code is statically translated to C there). Called by
 * identify_buffer_named with pe the parsed file (NULL: not a PE32 i386,
 * never the Remaster); sets out->remaster and out->remaster_note.
 */
void identify_remaster(const char *name, const pe_image *pe, identify_result *out);

const char *identify_remaster_name(identify_remaster_kind k);
const char *identify_verdict_name(identify_verdict v);
const char *identify_verdict_message(identify_verdict v);

/* ---- structural check -------------------------------------------------- */

#define IDENTIFY_MAX_CALLS 32
#define IDENTIFY_MAX_REFS 32

typedef struct identify_target {
    uint32_t address;
    char name[200]; /* routine or global name, "DLL!function" for IAT slots, "" */
    int tail;       /* reached by a jmp (tail call) rather than a call */
} identify_target;

typedef struct identify_routine {
    char name[64];
    uint32_t address;
    int decoded; /* 0: the entry could not be read or decoded (see error) */
    char error[160];
    unsigned insns;  /* instructions on the routine's own paths */
    int truncated;   /* a limit was hit: lists may be incomplete */
    unsigned ncalls; /* direct call and tail-call targets, unique, in order found */
    identify_target calls[IDENTIFY_MAX_CALLS];
    unsigned nindirect; /* calls and jumps through a register or memory */
    unsigned nrefs;     /* absolute memory references into the image or at globals */
    identify_target refs[IDENTIFY_MAX_REFS];
    /* Size evidence (never a problem): the profile's "size" and "insns" (0: not given),
     * the routine's as walked (walk_extent, insns above), and whether each holds. */
    uint32_t want_size, size;
    unsigned want_insns;
    int size_held, insns_held;
    int callees_checked; /* the profile lists its callees */
    unsigned nmissing;   /* expected callees never called */
    char missing[PROFILE_MAX_CALLEES][64];
    unsigned nunexpected; /* calls the profile does not expect */
    identify_target unexpected[IDENTIFY_MAX_CALLS];
} identify_routine;

typedef struct identify_structure {
    char profile[64];
    unsigned nroutines;
    identify_routine routines[PROFILE_MAX_ROUTINES];
    unsigned nproblems; /* routines not decoded, or with missing/unexpected calls */
    unsigned nsized;    /* routines with a size or instruction count to check */
    unsigned nsize_differ; /* of them, those whose size or count differs */
} identify_structure;

/*
 * Disassembles every routine of p in data (a PE32 validated here) and
 * fills *out (large: allocate it on the heap). Fails when data is not a
 * PE32 or memory runs out; a routine that cannot be decoded is recorded in
 * its entry, not an error.
 */
int identify_routines(const uint8_t *data, size_t size, const emu_profile *p,
                      identify_structure *out, ff_error *err);

#endif
