/*
 * harness/core/causes_internal.h: what harness/core/causes.c and
 * harness/core/causes_text.c share: the sentences of a cause and the value
 * differences listed under it. Not for use outside harness/core/causes*.c.
 */
#ifndef FF8_HARNESS_CORE_CAUSES_INTERNAL_H
#define FF8_HARNESS_CORE_CAUSES_INTERNAL_H

#include <stddef.h>

#include "harness/core/results.h"

/* snprintf for texts that may be cut (names from files and disassembly). */
__attribute__((format(printf, 3, 4))) void causes_put(char *out, size_t n, const char *fmt, ...);

/* The input class of a leaf case of routine ("rotation type 3", "12 bits"), "" if none. */
void causes_leaf_class(const char *routine, const leaf_case *c, char *out, size_t n);

/* The statement of a first differing read (e->state READ), into out. */
void causes_read_statement(const res_explain *e, char *out, size_t n);
/* The statement of a combination (every read agrees) behind result r, into out. */
void causes_combine_statement(const res_explain *e, const clip_result *r, char *out, size_t n);

/*
 * How one explained mismatch's values differ, original vs reference, after its input
 * class or field: "rotation type 3: 16 vs 12 bits", "root.y: -2 vs -1". e is its
 * explanation (NULL for a leaf group, whose first case l gives the values); r the clip
 * result of a combination. *cls_len is the length of the class part (what makes two
 * entries the same). Writes "" when nothing is known.
 */
void causes_value_text(const res_explain *e, const leaf_result *l, const clip_result *r, char *out,
                       size_t n, size_t *cls_len);
/*
 * Adds the value text v (causes_value_text's form, its class the first cls_len bytes) to
 * cause k unless an entry of the same class is listed; past RES_CAUSE_VALUES, counted.
 */
void causes_add_value(res_cause *k, const char *v, size_t cls_len);

#endif
