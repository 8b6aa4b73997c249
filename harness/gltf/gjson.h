/*
 * harness/gltf/gjson.h: building a cJSON document where any allocation may
 * fail. Every call records a failure in the builder (gj.failed) instead of
 * dropping a member silently; a call on a NULL parent (one whose making
 * failed) does nothing but record it. A document is used only when failed
 * stayed 0: its writer then reports "out of memory" rather than a file
 * with members missing.
 *
 * What this module must not do: print, exit, or keep state beyond the
 * builder it is given.
 */
#ifndef FF8_HARNESS_GLTF_GJSON_H
#define FF8_HARNESS_GLTF_GJSON_H

#include <cjson/cJSON.h>

typedef struct gj {
    int failed;
} gj;

/*
 * Puts item into parent under key (key NULL: appended to an array) and
 * returns it; parent takes it over. On a NULL item or parent, or when the
 * key cannot be copied, item is deleted, failed set, and NULL returned.
 */
cJSON *gj_put(gj *g, cJSON *parent, const char *key, cJSON *item);
/* A new object / array put into parent as gj_put does; NULL when it failed. */
cJSON *gj_obj(gj *g, cJSON *parent, const char *key);
cJSON *gj_arr(gj *g, cJSON *parent, const char *key);
/* A number, a string ("" for NULL), a boolean, a null put into parent. */
void gj_num(gj *g, cJSON *parent, const char *key, double v);
void gj_str(gj *g, cJSON *parent, const char *key, const char *s);
void gj_bool(gj *g, cJSON *parent, const char *key, int v);
void gj_null(gj *g, cJSON *parent, const char *key);
/* A new root object; NULL (failed set) when memory runs out. */
cJSON *gj_root(gj *g);

#endif
