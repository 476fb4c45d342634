/* Private to the glTF reader (src/io/gltf_*.c); not installed. */
#ifndef MK_GLTF_INTERNAL_H
#define MK_GLTF_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "internal.h"
#include "morphkit/gltf.h"

/* Everything an mk_gltf owns is a chain of blocks: small objects (arrays,
 * names) are carved from shared arena blocks, file contents get a block of
 * their own. Destroying the model frees the chain; nothing is freed alone. */
typedef struct mk_gltf_block {
    struct mk_gltf_block *next;
    size_t size; /* bytes after the header */
    size_t used;
    size_t pad_; /* keeps the payload 16-aligned on 32- and 64-bit */
} mk_gltf_block;

struct mk_gltf_storage {
    mk_allocator allocator;
    mk_gltf_block *head;
};

/* Arena allocation (zero-filled, 16-aligned); NULL for out of memory. */
void *mk_gltf_arena_alloc(struct mk_gltf_storage *st, size_t size);
/* The same without zero-filling, for file contents about to be read in. */
void *mk_gltf_arena_alloc_uninit(struct mk_gltf_storage *st, size_t size);
/* Arena allocation of count * size with overflow check. */
void *mk_gltf_arena_array(struct mk_gltf_storage *st, size_t count, size_t size);
char *mk_gltf_arena_strdup(struct mk_gltf_storage *st, const char *s);
void mk_gltf_storage_free(struct mk_gltf_storage *st);

/* State of one load. */
typedef struct mk_gltf_ctx {
    mk_gltf *g;
    struct mk_gltf_storage *st;
    const char *file; /* for mk_error.file */
    const char *base_dir; /* NULL: external URIs are an error */
    size_t max_buffer;
    uint32_t max_count;
    const uint8_t *glb_bin; /* GLB BIN chunk, or NULL */
    size_t glb_bin_size;
    mk_error *err;
} mk_gltf_ctx;

/* Fills the error with "path: message" and returns code. */
mk_status mk_gltf_fail(mk_gltf_ctx *c, mk_status code, const char *path, const char *fmt, ...)
    MK_PRINTF(4, 5);

/* JSON helpers. Each checks the JSON type and range and fails with the
 * path "path.key". A missing optional member leaves *out = def. */
mk_status mk_gltf_json_uint(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                            bool required, uint32_t def, uint32_t *out);
mk_status mk_gltf_json_size(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                            bool required, size_t *out);
/* An index into an array of `limit` objects called `what` ("accessors"). */
mk_status mk_gltf_json_index(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                             bool required, uint32_t limit, const char *what, uint32_t *out);
/* Exactly n numbers (as float) into out; absent leaves out untouched. */
mk_status mk_gltf_json_floats(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                              float *out, size_t n, bool *present);
/* An optional array member: *arr NULL and *count 0 when absent. */
mk_status mk_gltf_json_array(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                             const cJSON **arr, uint32_t *count);
/* An optional string member copied into the arena (NULL when absent). */
mk_status mk_gltf_json_string(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                              char **out);
/* An object member or array element must be a JSON object. */
mk_status mk_gltf_json_object(mk_gltf_ctx *c, const cJSON *item, const char *path);

/* Parses the JSON document (text not NUL-terminated) into c->g. The GLB BIN
 * chunk, if any, is in c->glb_bin. */
mk_status mk_gltf_parse_document(mk_gltf_ctx *c, const char *json, size_t size);

/* Buffers (gltf_buffer.c): loads every buffer's bytes. */
mk_status mk_gltf_parse_buffers(mk_gltf_ctx *c, const cJSON *root);

/* Reads a whole file (at most max bytes, else MK_ERR_LIMIT) into an arena
 * block. `what` names it in messages ("buffers[0].uri 'a.bin'"); the error
 * file stays c->file. min_size: fail with MK_ERR_RANGE when shorter. */
mk_status mk_gltf_read_file(mk_gltf_ctx *c, const char *path, const char *what, size_t max,
                            size_t min_size, uint8_t **data, size_t *size);

/* Objects (gltf_objects.c). */
mk_status mk_gltf_parse_buffer_views(mk_gltf_ctx *c, const cJSON *root);
mk_status mk_gltf_parse_accessors(mk_gltf_ctx *c, const cJSON *root);
mk_status mk_gltf_parse_meshes(mk_gltf_ctx *c, const cJSON *root);
mk_status mk_gltf_parse_nodes(mk_gltf_ctx *c, const cJSON *root);
mk_status mk_gltf_parse_scenes(mk_gltf_ctx *c, const cJSON *root);
mk_status mk_gltf_parse_animations(mk_gltf_ctx *c, const cJSON *root);

/* Where a (checked) accessor's first element starts in its buffer, or NULL
 * when it has no bufferView. */
const uint8_t *mk_gltf_accessor_base(const mk_gltf *g, const mk_gltf_accessor *a);

/* Reads one component of the given type at p as float (normalized or not). */
float mk_gltf_read_component(const uint8_t *p, mk_gltf_component_type type, bool normalized);
/* Reads an unsigned index component (UNSIGNED_BYTE/SHORT/INT) at p. */
uint32_t mk_gltf_read_uindex(const uint8_t *p, mk_gltf_component_type type);

#endif
