/* OBJ corners to a render mesh: one vertex per distinct (v, vt, vn) triple,
 * found with an open-addressing hash table (linear probing). */
#include <string.h>

#include "internal.h"
#include "morphkit/obj.h"

#define EMPTY UINT32_MAX

static bool all_present(const uint32_t *c, size_t n)
{
    if (!c || n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (c[i] == MK_NONE)
            return false;
    return true;
}

static inline uint32_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ b * 0x85EBCA77u ^ c * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    return h;
}

typedef struct scratch {
    uint32_t *table;   /* slot -> vertex or EMPTY */
    uint32_t *keys;    /* vertex -> (v, vt, vn), 3 each */
    uint32_t *indices; /* corner -> vertex */
    size_t table_bytes, keys_bytes, indices_bytes;
} scratch;

static void scratch_free(const mk_allocator *a, scratch *s)
{
    mk_free(a, s->table, s->table_bytes);
    mk_free(a, s->keys, s->keys_bytes);
    mk_free(a, s->indices, s->indices_bytes);
}

mk_status mk_obj_build_mesh(const mk_obj *obj, const mk_allocator *allocator, mk_mesh **out,
                            uint32_t **source_index, mk_error *err)
{
    *out = NULL;
    if (source_index)
        *source_index = NULL;
    size_t corners = (size_t)obj->triangle_count * 3;
    if (corners > UINT32_MAX - 1 || corners > SIZE_MAX / 16)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "%u triangles are too many for one mesh",
                            obj->triangle_count);
    bool has_t = all_present(obj->corner_texcoord, corners);
    bool has_n = all_present(obj->corner_normal, corners);

    /* At most one vertex per corner; the table stays at most half full. */
    size_t slots = 16;
    while (slots < corners * 2)
        slots *= 2;
    scratch s = {0};
    if (!mk_size_mul(slots, 4, &s.table_bytes) || !mk_size_mul(corners, 12, &s.keys_bytes) ||
        !mk_size_mul(corners, 4, &s.indices_bytes))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "mesh size overflows");
    s.table = mk_alloc(allocator, s.table_bytes);
    s.keys = mk_alloc(allocator, s.keys_bytes);
    s.indices = mk_alloc(allocator, s.indices_bytes);
    if (!s.table || (corners && (!s.keys || !s.indices))) {
        scratch_free(allocator, &s);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory building a mesh");
    }
    memset(s.table, 0xFF, s.table_bytes);

    uint32_t count = 0;
    size_t mask = slots - 1;
    for (size_t i = 0; i < corners; i++) {
        uint32_t v = obj->corner_position[i];
        uint32_t t = has_t ? obj->corner_texcoord[i] : 0;
        uint32_t n = has_n ? obj->corner_normal[i] : 0;
        if (v >= obj->position_count || (has_t && t >= obj->texcoord_count) ||
            (has_n && n >= obj->normal_count)) {
            scratch_free(allocator, &s);
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                "triangle %zu has a corner index out of range", i / 3);
        }
        size_t slot = hash3(v, t, n) & mask;
        for (;;) {
            uint32_t id = s.table[slot];
            if (id == EMPTY) {
                id = count++;
                s.table[slot] = id;
                s.keys[(size_t)id * 3 + 0] = v;
                s.keys[(size_t)id * 3 + 1] = t;
                s.keys[(size_t)id * 3 + 2] = n;
                s.indices[i] = id;
                break;
            }
            const uint32_t *k = &s.keys[(size_t)id * 3];
            if (k[0] == v && k[1] == t && k[2] == n) {
                s.indices[i] = id;
                break;
            }
            slot = (slot + 1) & mask;
        }
    }

    mk_mesh_desc desc = {count, (uint32_t)corners, has_n, has_t};
    mk_mesh *m;
    mk_status st = mk_mesh_create(&desc, allocator, &m, err);
    if (st != MK_OK) {
        scratch_free(allocator, &s);
        return st;
    }
    uint32_t *src = NULL;
    if (source_index && count) {
        src = mk_alloc(allocator, (size_t)count * 4);
        if (!src) {
            mk_mesh_destroy(m);
            scratch_free(allocator, &s);
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0,
                                "out of memory building a mesh");
        }
    }
    for (size_t id = 0; id < count; id++) {
        const uint32_t *k = &s.keys[id * 3];
        memcpy(&m->positions[id * 3], &obj->positions[(size_t)k[0] * 3], 12);
        if (has_t)
            memcpy(&m->texcoords[id * 2], &obj->texcoords[(size_t)k[1] * 2], 8);
        if (has_n)
            memcpy(&m->normals[id * 3], &obj->normals[(size_t)k[2] * 3], 12);
        if (src)
            src[id] = k[0];
    }
    if (corners)
        memcpy(m->indices, s.indices, corners * 4);
    scratch_free(allocator, &s);
    *out = m;
    if (source_index)
        *source_index = src;
    return MK_OK;
}
