/* Private to the unit packer (src/io/pack_*.c); not installed. */
#ifndef MK_PACK_INTERNAL_H
#define MK_PACK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "morphkit/clip.h"
#include "morphkit/pack.h"

/* A growing byte block; after a failed growth every append is a no-op and
 * `failed` stays set, so writers check once at the end. */
typedef struct mk_pack_buf {
    uint8_t *data;
    size_t size, cap;
    const mk_allocator *allocator;
    bool failed;
} mk_pack_buf;

void mk_pack_buf_append(mk_pack_buf *b, const void *data, size_t n);
void mk_pack_buf_printf(mk_pack_buf *b, const char *format, ...) MK_PRINTF(2, 3);
/* Appends `fill` bytes until size is a multiple of `align`. */
void mk_pack_buf_align(mk_pack_buf *b, size_t align, uint8_t fill);
/* A JSON string literal (quotes, escapes). */
void mk_pack_buf_json_string(mk_pack_buf *b, const char *s);
/* A float as the shortest text that reads back to the same double. */
void mk_pack_buf_number(mk_pack_buf *b, double v);
void mk_pack_buf_free(mk_pack_buf *b);

/* One clip's keys for a glTF weights sampler: key_count times (seconds,
 * strictly increasing as floats) and key_count * target_count values, or
 * 3 * key_count * target_count for CUBICSPLINE (in-tangent, value,
 * out-tangent per key, as glTF stores them). */
typedef struct mk_pack_keys {
    mk_interpolation interpolation; /* LINEAR, STEP or CUBICSPLINE */
    uint32_t key_count;
    uint32_t times_cap; /* entries allocated for times */
    float *times;
    float *values;
    size_t values_count;
} mk_pack_keys;

/* Keys clip `clip` of set for a viewer (pack.h describes the keying).
 * frame_target maps frame-set indices to morph targets (MK_NONE: the
 * base). MK_ERR_UNSUPPORTED when two key times coincide as floats. */
mk_status mk_pack_key_clip(const mk_clip_set *set, uint32_t clip, const uint32_t *frame_target,
                           uint32_t target_count, const mk_allocator *allocator,
                           mk_pack_keys *out, mk_error *err);
void mk_pack_keys_free(mk_pack_keys *keys, uint32_t target_count, const mk_allocator *allocator);

#endif
