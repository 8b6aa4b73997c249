/*
 * harness/traces/json_keys.c: finding a key written twice in one JSON object.
 *
 * Must not print or exit; allocates only to sort the keys of a large object;
 * recursion depth is bounded by cJSON's own nesting limit.
 */
#include "harness/traces/json_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Objects up to this many members are checked pairwise, larger ones sorted. */
#define JK_SMALL 64

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first key of o that some later member repeats, or NULL. */
static const char *repeated(const cJSON *o)
{
    const cJSON *a, *b;
    size_t k = 0;
    for (a = o->child; a; a = a->next) k++;
    if (k <= JK_SMALL) {
        for (a = o->child; a; a = a->next)
            for (b = a->next; b; b = b->next)
                if (a->string && b->string && strcmp(a->string, b->string) == 0) return a->string;
        return NULL;
    }
    /* Many keys: sort their pointers. */
    const char **keys = malloc(k * sizeof *keys);
    if (!keys) return "?"; /* cannot check: refuse rather than trust */
    size_t i = 0;
    for (a = o->child; a; a = a->next) keys[i++] = a->string ? a->string : "";
    qsort(keys, k, sizeof *keys, cmp_key);
    const char *dup = NULL;
    for (i = 1; i < k && !dup; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0) dup = keys[i];
    free((void *)keys);
    return dup;
}

static int walk(const cJSON *item, char *where, size_t n, size_t used)
{
    if (!item) return 0;
    if (cJSON_IsObject(item)) {
        const char *dup = repeated(item);
        if (dup) {
            snprintf(where + used, n - used, "%s%s", used ? "." : "", dup);
            return 1;
        }
        for (const cJSON *c = item->child; c; c = c->next) {
            int k = snprintf(where + used, n - used, "%s%s", used ? "." : "", c->string);
            size_t next = k < 0 ? used : used + (size_t)k < n ? used + (size_t)k : n - 1;
            if (walk(c, where, n, next)) return 1;
        }
    } else if (cJSON_IsArray(item)) {
        size_t i = 0;
        for (const cJSON *c = item->child; c; c = c->next, i++) {
            int k = snprintf(where + used, n - used, "[%zu]", i);
            size_t next = k < 0 ? used : used + (size_t)k < n ? used + (size_t)k : n - 1;
            if (walk(c, where, n, next)) return 1;
        }
    }
    where[used] = '\0';
    return 0;
}

int json_keys_duplicate(const cJSON *item, char *where, size_t n)
{
    if (!where || n == 0) {
        char none[1];
        return walk(item, none, 1, 0);
    }
    where[0] = '\0';
    return walk(item, where, n, 0);
}
