/*
 * emu/image/locate.h: finds the routines, tables and globals of a profile in a
 * build whose addresses differ (another language build, another release),
 * by structure, and writes the profile of that build.
 *
 * Evidence, from the strongest:
 *   - table references: a table of the profile (its bytes are known) found
 *     in the image, and the code that refers to it: the routines the
 *     profile says read it;
 *   - call edges: the profile's "callees" are each routine's exact direct
 *     calls, so a located routine narrows its callees to its own call
 *     targets and its callers to the routines that call it, and every
 *     candidate must make as many distinct direct calls as the profile
 *     lists; a routine found for one name is no candidate for another;
 *   - patterns: the routine's normalised instructions (emu/image/walk.h), from
 *     the profile or learned from a known build, tell apart candidates the
 *     structure leaves together (such as two allocator routines of the same
 *     shape), and find a routine no edge reaches;
 *   - evidence bytes and size (the profile's "evidence" inside a routine,
 *     its "size" and "insns"): keep, among several candidates, those with
 *     those bytes at the same offset, then those of that size; a routine no
 *     edge reaches and no pattern describes is searched by its size
 *     (emu/image/locate_evidence.c);
 *   - call order: the profile lists callees in call order, so a found
 *     caller's first and last call targets are its first and last callees
 *     (Battle_ReadAnimation calls Field_Alloc first and Field_Free last),
 *     which tells callees of one shape apart with no pattern.
 * The call structure (the number of distinct calls, the call edges) is the
 * profile's, which may describe another build (with --from, it is learned
 * from that build): evidence of structure that would rule out every
 * candidate left does not, it is recorded as disagreeing and the
 * candidates stay. A routine whose evidence disagreed, or that stays
 * ambiguous or unreached, is then weighed by pattern: found when one
 * candidate is clearly the closest (LOCATE_CLEAR_SCORE percent or more,
 * LOCATE_CLEAR_MARGIN points ahead of the next), otherwise reported with
 * its best candidate and score. Each routine, table and global ends found,
 * not found (with what ruled the last candidates out) or ambiguous
 * (several, listed). Anything short of all found is a refusal naming them,
 * except a pose helper row (its "helper"), which the located profile then
 * leaves out. Routines marked "test" are skipped (not engine routines).
 *
 * Nothing here knows a routine name or an address of any build: all of it
 * comes from the profile. Reads only; never prints, never exits.
 */
#ifndef FF8_EMU_IMAGE_LOCATE_H
#define FF8_EMU_IMAGE_LOCATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/image/profile.h"

#define LOCATE_MAX_CANDIDATES 16
#define LOCATE_WHY_MAX 400
#define LOCATE_CLEAR_SCORE 70  /* pattern similarity a best candidate needs, percent */
#define LOCATE_CLEAR_MARGIN 15 /* and its lead over the next candidate, points */

/* status, JSON name, word for people */
#define LOCATE_STATUS_MAP(XX)                                                                      \
    XX(FOUND, "found", "found")                                                                    \
    XX(NOT_FOUND, "not_found", "NOT FOUND")                                                        \
    XX(AMBIGUOUS, "ambiguous", "AMBIGUOUS")                                                        \
    XX(SKIPPED, "skipped", "skipped")

typedef enum locate_status {
#define LOCATE_STATUS_ENUM(name, json, word) LOCATE_##name,
    LOCATE_STATUS_MAP(LOCATE_STATUS_ENUM)
#undef LOCATE_STATUS_ENUM
        LOCATE__COUNT
} locate_status;

typedef struct locate_item {
    char name[64];
    locate_status status;
    uint32_t known_address;                     /* where the profile has it */
    uint32_t address;                           /* where it is in this build (FOUND) */
    unsigned ncandidates;                       /* candidates left (AMBIGUOUS: more than 1) */
    uint32_t candidates[LOCATE_MAX_CANDIDATES]; /* the first of them */
    unsigned first_candidates;                  /* candidates when the first evidence narrowed it */
    int pattern;              /* -1 no pattern to compare; else similarity 0..100 */
    char how[256];            /* the evidence, in the order it applied */
    char why[LOCATE_WHY_MAX]; /* NOT_FOUND / AMBIGUOUS / SKIPPED: the reason */
    char disagreed[LOCATE_WHY_MAX]; /* evidence that disagreed with the candidates kept */
    /* The candidate closest to the profile's pattern, when patterns were weighed (best 0:
     * none): its similarity and the next candidate's (-1: no other). */
    uint32_t best;
    int best_score, next_score;
} locate_item;

typedef struct locate_opts {
    const char *exe_name; /* recorded in the located profile */
    const char *patterns; /* where the profile's patterns come from, for the record */
    const char *tool;     /* "ff8diff 0.1.0" */
    const char *name;     /* the located profile's name; NULL: "<profile>_located_<sha8>" */
} locate_opts;

typedef struct locate_result {
    char profile[64];
    char sha256[65];
    unsigned nroutines, ntables, nglobals;
    locate_item routines[PROFILE_MAX_ROUTINES];
    locate_item tables[PROFILE_MAX_TABLES];
    locate_item globals[PROFILE_MAX_GLOBALS];
    unsigned nfound, nnot_found, nambiguous, nskipped;
    unsigned nhelpers_left; /* pose helper rows not found once: left out, refusing nothing */
    int complete;                    /* everything found: located is the build's profile */
    char refusal[FF_ERR_REASON_MAX]; /* otherwise: names what is missing or doubled */
    emu_profile located;             /* complete only */
    /* the code index, for the figures */
    uint64_t code_bytes, insns;
    size_t edges, entries, walks;
} locate_result;

/*
 * Locates p's routines, tables and globals in data (a PE32) into *out
 * (large: allocate it on the heap). A build where something is not found
 * or found twice is not an error: out->complete is 0 and out->refusal
 * names them. Fails (-1) when data is not a PE32 (FF_E_EXE with the
 * parser's reason) or memory runs out.
 */
int locate_buffer(const uint8_t *data, size_t size, const emu_profile *p, const locate_opts *opts,
                  locate_result *out, ff_error *err);

/*
 * Learns from a known build (data, which p describes: its addresses hold):
 * each routine's pattern, size and instruction count, and its callees in
 * call order (by their first call site; a profile routine's name, else
 * "0xADDRESS"). Replaces the patterns, sizes and callees p has (a routine
 * whose walk was cut short keeps the profile's callees and has no size).
 * Fails when data is not a PE32 or memory runs out.
 */
int locate_learn(const uint8_t *data, size_t size, emu_profile *p, ff_error *err);

const char *locate_status_name(locate_status s);
const char *locate_status_word(locate_status s);

#endif
