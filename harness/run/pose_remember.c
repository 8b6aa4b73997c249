/*
 * harness/run/pose_remember.c: the convention search's choice for an
 * executable, kept in the results cache (pose_search.h): one entry per
 * executable, its key the executable's and "pose-search", its payload a
 * line naming the format and the convention's text. The cache verifies
 * the entry (cache.h); the text is parsed again on the way out, so an
 * entry of another build's convention keys is refused, not guessed at.
 * What this module must not do: print, exit, search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/cache.h"
#include "harness/run/pose_search.h"

#define REMEMBER_HEAD "ff8diff-pose-convention/1\n"

static int key_of(const char *exe_id, cache_key *k, ff_error *err)
{
    /* Whatever the budget and the engine: the convention is the executable's. */
    cache_key_in in = {exe_id, "pose-search", MODE_NORMAL, "pose-search", 0, NULL};
    return cache_key_make(k, &in, err);
}

int pose_search_remember(struct cache *c, const char *exe_id, const char *chosen, ff_error *err)
{
    cache_key k;
    char payload[REF_POSE_OPTS_TEXT_MAX + 64];
    int n = snprintf(payload, sizeof payload, "%s%s", REMEMBER_HEAD, chosen);
    if (n < 0 || (size_t)n >= sizeof payload)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "pose convention text too long");
    if (key_of(exe_id, &k, err) < 0) return -1;
    return cache_put(c, &k, (const uint8_t *)payload, (size_t)n, err);
}

int pose_search_recall(struct cache *c, const char *exe_id, ref_pose_opts *out, char *text,
                       size_t n, ff_error *err)
{
    cache_key k;
    if (key_of(exe_id, &k, err) < 0) return -1;
    uint8_t *data = NULL;
    size_t len = 0;
    int rc = cache_get(c, &k, &data, &len, err);
    if (rc <= 0) return rc;
    size_t hl = strlen(REMEMBER_HEAD);
    char body[REF_POSE_OPTS_TEXT_MAX];
    if (len < hl || len - hl >= sizeof body || memcmp(data, REMEMBER_HEAD, hl) != 0) {
        free(data);
        return ff_error_set(err, FF_E_FORMAT, NULL, -1,
                            "the remembered pose convention is not in this build's format");
    }
    memcpy(body, data + hl, len - hl);
    body[len - hl] = '\0';
    free(data);
    if (ref_pose_opts_parse(body, out, err) < 0) return -1;
    if (text) snprintf(text, n, "%s", body);
    return 1;
}
