/*
 * emu/image/pe.h: a PE32 (i386) parser working on a byte buffer: DOS header,
 * COFF header, optional header, section table and import directory, all
 * validated with checked arithmetic. Hostile input must produce an error,
 * never a crash: pe_parse is a fuzz target.
 *
 * This module knows nothing of Unicorn: it only reads the file and can lay
 * the image out in a host buffer the way the Windows loader would (headers
 * and sections at their RVAs, virtual size beyond raw size zeroed). Section
 * data follows the Windows loader's rules for PE32 i386:
 *   - PointerToRawData 0: uninitialised (zero) whatever SizeOfRawData says
 *     (GNU ld writes NOLOAD .bss sections this way);
 *   - raw data longer than the virtual size is cut to it;
 *   - PointerToRawData is rounded down to a multiple of 0x200;
 *   - raw data running past the end of the file maps what the file holds,
 *     the rest is zero, and pe_image.warning says so.
 * Headers the Windows loader refuses (no signature, another machine,
 * PE32+, sections overlapping each other or the headers or running past
 * SizeOfImage, bad alignments, a file ending inside the headers) are
 * refused with the reason. It never prints or exits.
 */
#ifndef FF8_EMU_IMAGE_PE_H
#define FF8_EMU_IMAGE_PE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define PE_MAX_SECTIONS 96
#define PE_MAX_IMPORTS 65536
#define PE_MAX_IMAGE_SIZE 0x20000000u /* 512 MiB: anything larger is absurd */
#define PE_DLL_NAME_MAX 64
#define PE_FUNC_NAME_MAX 128

/* Section characteristics the mapper reads. */
#define PE_SCN_CNT_CODE 0x00000020u
#define PE_SCN_MEM_EXECUTE 0x20000000u
#define PE_SCN_MEM_READ 0x40000000u
#define PE_SCN_MEM_WRITE 0x80000000u

/* COFF header characteristics read here. */
#define PE_FILE_DLL 0x2000u /* IMAGE_FILE_DLL: a library, not a program */

typedef struct pe_section {
    char name[9];      /* NUL-terminated copy of the 8-byte name */
    uint32_t rva;      /* VirtualAddress */
    uint32_t vsize;    /* mapped size: VirtualSize, or SizeOfRawData when 0 */
    uint32_t raw_off;     /* PointerToRawData rounded down to 0x200 (0 when raw_size is 0) */
    uint32_t raw_size;    /* bytes copied from the file: min(SizeOfRawData, vsize), cut at EOF */
    uint32_t raw_missing; /* raw bytes the headers promise past the end of the file (zeros) */
    uint32_t characteristics;
} pe_section;

typedef struct pe_import {
    char dll[PE_DLL_NAME_MAX];   /* "KERNEL32.dll" as written in the file */
    char name[PE_FUNC_NAME_MAX]; /* "GetTickCount", or "#12" for an ordinal */
    uint16_t ordinal;            /* valid when by_ordinal */
    int by_ordinal;
    uint32_t slot; /* absolute address of the IAT slot (image base + RVA) */
} pe_import;

typedef struct pe_image {
    uint32_t image_base;
    uint32_t size_of_image;   /* SizeOfImage */
    uint32_t size_of_headers; /* SizeOfHeaders, at most the file size */
    uint32_t entry_rva;
    uint16_t file_characteristics; /* the COFF header's Characteristics (PE_FILE_DLL) */
    uint32_t section_alignment;
    uint32_t file_alignment;
    unsigned nsections;
    pe_section sections[PE_MAX_SECTIONS];
    unsigned nimports;
    pe_import *imports; /* owned; released by pe_free */
    unsigned nwarnings;
    char warning[512]; /* "" or sentences joined by "; ": what was mapped leniently */
} pe_image;

/*
 * Parses and validates data[0..size) as a PE32 i386 image. On success fills
 * *out (which the caller releases with pe_free) and returns 0; out->warning
 * then says what was mapped leniently (raw data cut at the end of the file). On failure
 * returns -1 with err->offset at the offending field and the reason
 * (FF_E_TRUNCATED, FF_E_FORMAT, FF_E_UNSUPPORTED for PE32+ or another
 * machine, FF_E_NOMEM); *out then owns nothing. err->file is left empty:
 * callers name the file.
 */
int pe_parse(const uint8_t *data, size_t size, pe_image *out, ff_error *err);

/* Releases what pe_parse allocated; safe on a zeroed or freed image. */
void pe_free(pe_image *img);

/*
 * Lays the image out in a new buffer of size_of_image bytes (*out; free()
 * it): headers, then each section's raw bytes at its RVA, everything else
 * zero. The buffer comes zeroed from calloc and only the filled bytes are
 * written, so the zero pages of a large image (a big .bss) are not touched.
 * data/size must be the buffer pe_parse validated. Returns 0, or -1 with
 * err set.
 */
int pe_build_image(const pe_image *img, const uint8_t *data, size_t size, uint8_t **out,
                   ff_error *err);

/*
 * Copies what pe_build_image filled (the headers and each section's raw
 * bytes) from layout into dst, which holds size_of_image zero bytes: the
 * same bytes as copying the whole layout, without touching its zero pages.
 */
void pe_copy_image(const pe_image *img, const uint8_t *layout, uint8_t *dst);

/*
 * Copies len bytes at absolute address va as the loader would map them
 * (zero in a section's virtual tail). Fails (FF_E_RANGE) when any byte lies
 * outside the headers and every section.
 */
int pe_read_va(const pe_image *img, const uint8_t *data, size_t size, uint32_t va, uint8_t *out,
               size_t len, ff_error *err);

/* The section holding absolute address va, or NULL. */
const pe_section *pe_section_at(const pe_image *img, uint32_t va);

/* The import whose IAT slot is at absolute address slot, or NULL. */
const pe_import *pe_import_at_slot(const pe_image *img, uint32_t slot);

#endif
