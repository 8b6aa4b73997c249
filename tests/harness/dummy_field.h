/*
 * tests/harness/dummy_field.h: one extra row for the field table, the only
 * place test_harness_dummy_field's field is declared: the s16 the skeleton
 * header keeps unread at +4 (docs/engine.md section 3), as "skel.unk4".
 */
#define FIELD_MAP_EXTRA(XX) XX(DUMMY, "skel.unk4", FRAME, SKEL, 4, S16, 0, "unk4", NULL, -1)
