/* Fuzz target: the GLB container (glTF 2.0 §4.4) and the model in it, then
 * the whole pipeline that follows a load (fuzz_pipeline.h). Each input is
 * parsed as it is; when it starts with the GLB magic it is parsed a second
 * time with the header's total length and the JSON chunk's length repaired
 * to fit the input, so mutations behind the header reach the JSON and BIN
 * chunks instead of stopping at the length checks. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "morphkit/morphkit.h"

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void parse(const uint8_t *data, size_t size)
{
    mk_gltf_options opt = {0};
    opt.max_buffer_size = 1u << 24;
    opt.max_count = 1u << 16;
    mk_gltf *g;
    mk_error err;
    mk_status st = mk_gltf_parse(data, size, NULL, "<fuzz>", &opt, NULL, &g, &err);
    fz_note("glb", st, &err);
    if (st != MK_OK)
        return;
    /* told apart by the magic: a text without it is glTF JSON, which a
       mutation can make valid (a JSON chunk cut loose from its header,
       ended by the NUL padding after it) */
    if (g->is_glb != (size >= 4 && memcmp(data, "glTF", 4) == 0))
        __builtin_trap();
    fz_exercise_gltf(g);
    mk_gltf_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse(data, size);
    if (size < 20 || memcmp(data, "glTF", 4) != 0 || size > (1u << 24))
        return 0;
    uint8_t *fixed = malloc(size);
    if (!fixed)
        return 0;
    memcpy(fixed, data, size);
    put_u32(fixed + 8, (uint32_t)size);
    uint32_t json = get_u32(fixed + 12);
    if (json > size - 20)
        json = (uint32_t)(size - 20) & ~3u;
    put_u32(fixed + 12, json);
    if (memcmp(fixed, data, size) != 0)
        parse(fixed, size);
    free(fixed);
    return 0;
}
