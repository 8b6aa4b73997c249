/*
 * harness/core/results.c: names of result statuses (and how each counts in the
 * verdict) and sources.
 */
#include "harness/core/results.h"

static const struct {
    const char *name, *label;
    res_share share;
} statuses[RES__COUNT] = {
#define RES_STATUS_ROW(id, name, label, share) {name, label, RES_SHARE_##share},
    RES_STATUS_MAP(RES_STATUS_ROW)
#undef RES_STATUS_ROW
};

static const char *const source_names[] = {
#define RES_SOURCE_NAME(id, name) name,
    RES_SOURCE_MAP(RES_SOURCE_NAME)
#undef RES_SOURCE_NAME
};

const char *res_status_name(res_status s)
{
    return (unsigned)s < RES__COUNT ? statuses[s].name : "?";
}

const char *res_status_label(res_status s)
{
    return (unsigned)s < RES__COUNT ? statuses[s].label : "?";
}

res_share res_status_share(res_status s)
{
    return (unsigned)s < RES__COUNT ? statuses[s].share : RES_SHARE_NOT_RUN;
}

uint64_t res_status_sum(const uint64_t n[RES__COUNT], res_share share)
{
    uint64_t sum = 0;
    for (int s = 0; s < RES__COUNT; s++)
        if (statuses[s].share == share) sum += n[s];
    return sum;
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

static const char *const eng_names[] = {
#define RES_ENG_NAME(id, name, what) name,
    RES_ENG_MAP(RES_ENG_NAME)
#undef RES_ENG_NAME
};

static const char *const eng_whats[] = {
#define RES_ENG_WHAT(id, name, what) what,
    RES_ENG_MAP(RES_ENG_WHAT)
#undef RES_ENG_WHAT
};

const char *res_eng_name(res_eng e)
{
    return (unsigned)e < RES_ENG__COUNT ? eng_names[e] : "?";
}

const char *res_eng_what(res_eng e)
{
    return (unsigned)e < RES_ENG__COUNT ? eng_whats[e] : "?";
}
