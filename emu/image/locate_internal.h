/*
 * emu/image/locate_internal.h: what emu/image/locate.c and emu/image/locate_profile.c share:
 * a routine's pattern from its walk, and the located profile built from a
 * complete result. Not for use outside emu/locate*.c.
 */
#ifndef FF8_EMU_IMAGE_LOCATE_INTERNAL_H
#define FF8_EMU_IMAGE_LOCATE_INTERNAL_H

#include "emu/image/locate.h"
#include "emu/image/scan.h"
#include "emu/image/walk.h"

#define LOCATE_MAX_HITS 256 /* occurrences of a table's bytes looked at */
#define LOCATE_ROUTINE_HEAD 64 /* bytes after an entry that belong to it when its size is unknown */

/* A routine's candidates: "anything" until evidence narrows them. */
typedef struct dom {
    int any;     /* no evidence yet */
    uint32_t *v; /* ascending */
    size_t n;
    size_t first;              /* size after the first evidence */
    char how[256];             /* evidence that narrowed it */
    char lost[LOCATE_WHY_MAX]; /* what ruled out the last candidates */
    /* Evidence that would have ruled out every candidate left (a call count, a call
     * edge): the profile's structure may not be this build's, so it lowers their rank
     * instead (locate_items.c weighs them by pattern). */
    char disagreed[LOCATE_WHY_MAX];
} dom;

/* The state of one locate_buffer call. */
typedef struct solver {
    scan *sc;
    const pe_image *pe;
    const uint8_t *layout; /* the image as laid out (pe_build_image) */
    const emu_profile *p;
    dom d[PROFILE_MAX_ROUTINES];
    int skip[PROFILE_MAX_ROUTINES];
    int changed;
    ff_error *err;
    int failed; /* out of memory */
    /* Patterns weighed (emu/image/locate_weigh.c): per routine, 1 once weighed, its candidate
     * closest to the profile's pattern (0: none), that similarity and the next one's. */
    int weighed[PROFILE_MAX_ROUTINES];
    uint32_t best[PROFILE_MAX_ROUTINES];
    int best_score[PROFILE_MAX_ROUTINES], next_score[PROFILE_MAX_ROUTINES];
} solver;

/*
 * Narrows routine i to vals (n entries, any order; taken over) because of evidence: keeps
 * the entries in both and records the evidence. Soft evidence (the profile's structure)
 * that would leave none keeps every candidate and is recorded as disagreeing instead.
 */
void locate_narrow(solver *sv, unsigned i, uint32_t *vals, size_t n, const char *evidence,
                   int soft);
/* Among routine i's candidates, those whose walk ok() accepts, when some but not all are. */
void locate_keep_where(solver *sv, unsigned i,
                       int (*ok)(const solver *sv, const profile_routine *r, const walk_routine *w),
                       const char *evidence);
/* Evidence of emu/image/locate_evidence.c, each one step of the solver (sv->changed). */
/* Among several candidates, those with the profile's evidence bytes inside the routine. */
void locate_bytes(solver *sv);
/* Among several candidates, those of the profile's size and instruction count. */
void locate_sizes(solver *sv);
/* A routine's first and last callees: the targets its found candidates call first and last. */
void locate_callee_order(solver *sv);
/* A routine nothing reached and without a pattern, searched by its size among every entry. */
void locate_search_size(solver *sv);

/*
 * 1 when evidence from routine `from` must not narrow routine `to`: a pose helper row
 * (optional, left out of the located profile when not found) never narrows a routine the
 * harness needs, so a helper located wrongly cannot mislocate one.
 */
int locate_weak_into(const solver *sv, unsigned from, unsigned to);

/* Appends "; text" to buf (unless already there). */
void locate_append(char *buf, size_t cap, const char *text);
/* Appends up to 8 addresses "0x.., 0x.." (then ", ...") to buf. */
void locate_list_addresses(char *buf, size_t cap, const uint32_t *v, size_t n);
/* The cached walk of entry; NULL (sv->failed set) when memory runs out. */
const walk_routine *locate_walk_of(solver *sv, uint32_t entry);
/*
 * Weighs routine i's candidates by pattern (its domain, or every entry of about its size
 * that no other routine holds when it has none) into sv->best etc. Returns 1 when one is
 * clearly the closest (LOCATE_CLEAR_SCORE, LOCATE_CLEAR_MARGIN), 0 when not or when the
 * profile has no pattern for it; sv->failed set when memory runs out.
 */
int locate_weigh(solver *sv, unsigned i);
/*
 * One step of the solver once nothing else narrows: the first routine whose evidence
 * disagreed, or that is ambiguous or unreached, is weighed; a clear best becomes its one
 * candidate. Sets sv->changed when a domain changed.
 */
void locate_weigh_step(solver *sv);
/* Fills out's items, counts and refusal from the solved domains; -1 when memory ran out. */
int locate_items(solver *sv, locate_result *out);

/* The walk's tokens in address order, at most PROFILE_PATTERN_MAX; returns how many. */
unsigned locate_pattern_of(const walk_routine *w, uint16_t *out);

/* 1 when the walk's pattern is the routine's pattern (which must be present). */
int locate_pattern_equal(const walk_routine *w, const profile_routine *r);

/*
 * Builds r->located from the complete result r: src with every routine,
 * table and global at its new address, the fingerprints that still hold,
 * the patterns and callees read from this build. Fails only when memory
 * runs out.
 */
int locate_build_profile(locate_result *r, const emu_profile *src, scan *sc, const pe_image *pe,
                         const uint8_t *layout, const locate_opts *opts, ff_error *err);

#endif
