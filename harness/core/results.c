/*
 * harness/core/results.c: names of result statuses and sources.
 */
#include "harness/core/results.h"

static const char *const status_names[] = {
#define RES_STATUS_NAME(id, name) name,
    RES_STATUS_MAP(RES_STATUS_NAME)
#undef RES_STATUS_NAME
};

static const char *const source_names[] = {
#define RES_SOURCE_NAME(id, name) name,
    RES_SOURCE_MAP(RES_SOURCE_NAME)
#undef RES_SOURCE_NAME
};

const char *res_status_name(res_status s)
{
    return (unsigned)s < RES__COUNT ? status_names[s] : "?";
}

const char *res_source_name(res_source s)
{
    return (unsigned)s < RES_SRC__COUNT ? source_names[s] : "?";
}

const char *pose_conv_source_name(pose_conv_source s)
{
    static const char *const names[] = {"none", "given", "profile", "search"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

const char *pose_basis_name(pose_basis b)
{
#define NAME_(name, text) text,
    static const char *const names[] = {POSE_BASIS_MAP(NAME_)};
#undef NAME_
    return (unsigned)b < POSE_BASIS__COUNT ? names[b] : "?";
}
