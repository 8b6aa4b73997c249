/*
 * harness/gltf/gjson.c: cJSON building with every allocation checked
 * (gjson.h).
 */
#include "harness/gltf/gjson.h"

cJSON *gj_put(gj *g, cJSON *parent, const char *key, cJSON *item)
{
    cJSON_bool ok = parent && item &&
                    (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
    if (ok) return item;
    cJSON_Delete(item);
    g->failed = 1;
    return NULL;
}

cJSON *gj_obj(gj *g, cJSON *parent, const char *key)
{
    return gj_put(g, parent, key, cJSON_CreateObject());
}

cJSON *gj_arr(gj *g, cJSON *parent, const char *key)
{
    return gj_put(g, parent, key, cJSON_CreateArray());
}

void gj_num(gj *g, cJSON *parent, const char *key, double v)
{
    gj_put(g, parent, key, cJSON_CreateNumber(v));
}

void gj_str(gj *g, cJSON *parent, const char *key, const char *s)
{
    gj_put(g, parent, key, cJSON_CreateString(s ? s : ""));
}

void gj_bool(gj *g, cJSON *parent, const char *key, int v)
{
    gj_put(g, parent, key, cJSON_CreateBool(v));
}

void gj_null(gj *g, cJSON *parent, const char *key)
{
    gj_put(g, parent, key, cJSON_CreateNull());
}

cJSON *gj_root(gj *g)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) g->failed = 1;
    return o;
}
