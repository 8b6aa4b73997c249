/*
 * harness/core/readcmp.h: the first differing read of one engine call. Two
 * read logs of the same call (the reference's and the original's, ref/
 * readlog.h: a value reader at depth 0 followed by its bitReader calls at
 * depth 1) are aligned record by record; the first record that differs is
 * named, with what differs and the routine that answers for it. A reader
 * whose own bitReader call differs is explained by that call (the deepest
 * difference), so a wrong bit count is blamed on the reader that asked for
 * it, a wrong value read with the right count on bitReader.
 *
 * Records are routine calls with inputs (bit count, cursor) and outputs
 * (value, cursor after): pose helpers can join as further routines with
 * their own inputs and outputs without changing the alignment. Pure: no
 * allocation, no state, no printing.
 */
#ifndef FF8_HARNESS_CORE_READCMP_H
#define FF8_HARNESS_CORE_READCMP_H

#include <stddef.h>
#include <stdint.h>

#include "ref/readlog.h"

/* What differs at the first differing read, JSON name, sentence fragment. */
#define READCMP_DIFF_MAP(XX)                                                                       \
    XX(NONE, "none", "every read agrees")                                                          \
    XX(SEQUENCE, "sequence", "a different call")                                                   \
    XX(WIDTH, "width", "a different bit count")                                                    \
    XX(CURSOR, "cursor", "a different cursor")                                                     \
    XX(VALUE, "value", "a different value")                                                        \
    XX(ADVANCE, "advance", "the cursor left elsewhere")

typedef enum readcmp_diff {
#define READCMP_DIFF_ENUM(id, name, text) READCMP_##id,
    READCMP_DIFF_MAP(READCMP_DIFF_ENUM)
#undef READCMP_DIFF_ENUM
        READCMP__COUNT
} readcmp_diff;

typedef struct readcmp_first {
    readcmp_diff diff;
    size_t index;          /* of the first differing record (NONE: the common length) */
    int have_ref, have_orig; /* a side that made fewer calls has no record there */
    ref_read ref, orig;    /* the records at index */
    char routine[32];      /* the differing read's routine (the side that has one) */
    char caller[32];       /* the routine that called it: a value reader, or the decoder */
    char responsible[32];  /* the routine that answers for the difference */
    char cls[32];          /* the reader's input class: "rotation type 3", "scale absent", ... */
} readcmp_first;

/*
 * Aligns ref and orig (their kept records) and fills *out. decoder names
 * the routine that calls the depth-0 reads ("Battle_ReadAnimation").
 * Returns 1 when a read differs, 0 when every read agrees.
 */
int readcmp_compare(const ref_read_log *ref, const ref_read_log *orig, const char *decoder,
                    readcmp_first *out);

/*
 * The input class of the reader whose record is at index i of log (a
 * depth-1 record: its parent's), from the bits it read: "position type T",
 * "rotation absent", "rotation type T", "scale absent", "scale present",
 * "N bits" for a bitReader called by the decoder. Writes "" when unknown.
 */
void readcmp_class(const ref_read_log *log, size_t i, char *out, size_t n);

/* "value", "width", ... and a sentence fragment; "?" out of range. */
const char *readcmp_diff_name(readcmp_diff d);
const char *readcmp_diff_text(readcmp_diff d);

#endif
