/* Private to the glTF reader (src/io/gltf_*.c); not installed. */
#ifndef MK_GLTF_INTERNAL_H
#define MK_GLTF_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* A block from the file callbacks, given back when the model is freed. */
typedef struct mk_gltf_file {
    struct mk_gltf_file *next;
    void *data;
    size_t size;
} mk_gltf_file;

struct mk_gltf_storage {
    mk_allocator allocator;
    mk_gltf_block *head;
    mk_file_callbacks files; /* a copy of the options' (zero: the default) */
    mk_gltf_file *file_head; /* the records live in the arena */
};

/* Arena allocation (zero-filled, 16-aligned); NULL for out of memory. */
void *mk_gltf_arena_alloc(struct mk_gltf_storage *st, size_t size);
/* The same without zero-filling, for file contents about to be read in. */
void *mk_gltf_arena_alloc_uninit(struct mk_gltf_storage *st, size_t size);
/* Arena allocation of count * size with overflow check. */
void *mk_gltf_arena_array(struct mk_gltf_storage *st, size_t count, size_t size);
char *mk_gltf_arena_strdup(struct mk_gltf_storage *st, const char *s);
/* Releases the file blocks, then frees the arena blocks. */
void mk_gltf_storage_free(struct mk_gltf_storage *st);
/* Gives one file block back early (data from mk_gltf_read_file). */
void mk_gltf_storage_release_file(struct mk_gltf_storage *st, const void *data);

/* ---- JSON (gltf_json.c): a read-only view over the document's values ----
 * One pass over the text checks the grammar (RFC 8259: separators,
 * literals, number syntax, string escapes, one root value) and writes the
 * values below in document order. Nothing is allocated per value: one
 * array for the whole document, strings and numbers read from the text
 * when asked for (but for plain integers below 65536, the indices and
 * counts of a glTF document, which the tokenizer reads as it goes). */
typedef enum mk_gltf_json_type {
    MK_GLTF_JSON_OBJECT,
    MK_GLTF_JSON_ARRAY,
    MK_GLTF_JSON_STRING,
    MK_GLTF_JSON_NUMBER,
    MK_GLTF_JSON_TRUE,
    MK_GLTF_JSON_FALSE,
    MK_GLTF_JSON_NULL
} mk_gltf_json_type;

/* 16 bytes: a walk over an object's members steps by `next` through an
 * array indexed by a shift. */
typedef struct mk_gltf_json_value {
    uint8_t type; /* mk_gltf_json_type */
    union {
        uint8_t escaped; /* a string: it has a backslash escape in it */
        uint8_t small;   /* a number: plain digits below 65536, read into `value` */
    };
    union {
        uint16_t tag;   /* a key without escapes: mk_gltf_json_tag of its text */
        uint16_t value; /* a number with `small` set (most indices and counts) */
    };
    uint32_t start; /* its first byte in the text (a string's after the quote) */
    union {
        uint32_t end; /* a string, number or literal: the byte after it (a string's quote) */
        uint32_t size; /* an object's members, an array's elements */
    };
    uint32_t next; /* index of the first value after this one and all inside it */
} mk_gltf_json_value;

typedef struct mk_gltf_json {
    const char *text; /* the parser's copy of the text (NULs after it) */
    size_t text_bytes; /* of its allocation */
    mk_gltf_json_value *values; /* document order; values[0] is the root */
    uint32_t count;
    size_t bytes; /* of the allocation */
} mk_gltf_json;

/* Deepest nesting of arrays and objects read (glTF itself needs < 10). */
#define MK_GLTF_JSON_DEPTH 256

/* Tokenizes and checks size bytes of text (no terminator needed) into two
 * allocations through `a`: a copy of the text, and the values. Failures
 * leave doc empty: MK_ERR_PARSE (broken
 * JSON; *error_offset: the byte the problem is at), MK_ERR_LIMIT (text of
 * 2 GiB or more, or nested deeper than MK_GLTF_JSON_DEPTH at byte
 * *error_offset), MK_ERR_OUT_OF_MEMORY. */
mk_status mk_gltf_json_parse(mk_gltf_json *doc, const char *text, size_t size,
                             const mk_allocator *a, size_t *error_offset);
void mk_gltf_json_free(mk_gltf_json *doc, const mk_allocator *a);

/* A key's tag: its length and first byte, compared before its text (most
 * keys of an object differ in one of them). */
static inline uint16_t mk_gltf_json_tag(const char *s, size_t n)
{
    return (uint16_t)((n & 0xFF) << 8 | (n ? (unsigned char)s[0] : 0));
}
/* Member `key` (n bytes) of obj (the first one of that name), NULL when
 * obj is NULL, not an object or has no such member. Keys with escapes
 * compare by their decoded text. */
const mk_gltf_json_value *mk_gltf_json_get_n(const mk_gltf_json *doc,
                                             const mk_gltf_json_value *obj, const char *key,
                                             size_t n);
/* The same for a NUL-terminated key: inline, so that a literal key's
 * length is known when compiling (a packed unit's load makes hundreds of
 * these lookups). */
static inline const mk_gltf_json_value *mk_gltf_json_get(const mk_gltf_json *doc,
                                                         const mk_gltf_json_value *obj,
                                                         const char *key)
{
    return mk_gltf_json_get_n(doc, obj, key, strlen(key));
}
/* A key for mk_gltf_json_pick: MK_GLTF_KEY("count"). */
typedef struct mk_gltf_json_key {
    const char *s;
    uint32_t n; /* strlen(s), below 256 */
} mk_gltf_json_key;
#define MK_GLTF_KEY(literal) {literal, sizeof(literal) - 1}
/* Up to 16 keys, with a table that finds one by a member's tag. */
typedef struct mk_gltf_json_key_set {
    const mk_gltf_json_key *keys;
    uint32_t count;
    uint16_t tags[16];
    uint8_t slot[64]; /* by tag hash: key index + 1; 0: free */
} mk_gltf_json_key_set;
void mk_gltf_json_key_set_init(mk_gltf_json_key_set *set, const mk_gltf_json_key *keys,
                               uint32_t count);
/* Several members of obj in one pass over it: out[j] (set->count values)
 * is the value of key j as mk_gltf_json_get finds it (the first of
 * repeated keys; NULL when absent or obj is not an object). For the
 * objects of an array: the set is made once, each member found by its tag
 * in one or two steps. */
void mk_gltf_json_pick(const mk_gltf_json *doc, const mk_gltf_json_value *obj,
                       const mk_gltf_json_key_set *set, const mk_gltf_json_value **out);
/* Whether string v decodes to exactly s (s shorter than 256 bytes). */
bool mk_gltf_json_string_is_n(const mk_gltf_json *doc, const mk_gltf_json_value *v, const char *s,
                              size_t n);
static inline bool mk_gltf_json_string_is(const mk_gltf_json *doc, const mk_gltf_json_value *v,
                                          const char *s)
{
    return mk_gltf_json_string_is_n(doc, v, s, strlen(s)); /* a literal's length is known */
}
/* Decodes string v (escapes, \u as UTF-8) into out, cut to cap - 1 bytes
 * and NUL-terminated; returns the decoded length before cutting. */
size_t mk_gltf_json_string_copy(const mk_gltf_json *doc, const mk_gltf_json_value *v, char *out,
                                size_t cap);
/* Number v as a double: exact for integers up to 2^53 and for decimals of
 * up to 15 digits and 22 powers of ten (all that glTF exporters write),
 * otherwise within a few ulps. */
double mk_gltf_json_double(const mk_gltf_json *doc, const mk_gltf_json_value *v);

static inline bool mk_gltf_json_is(const mk_gltf_json_value *v, mk_gltf_json_type t)
{
    return v && v->type == t;
}

/* Every element of array arr in order (of an object: every key, its value
 * being the next value); nothing for NULL or a scalar. O(1) a step: `next`
 * skips whatever the element holds. */
#define MK_GLTF_JSON_EACH(doc, e, arr)                                                             \
    for ((e) = (arr) ? (arr) + 1 : NULL; (e) && (e) < (doc)->values + (arr)->next;                \
         (e) = (doc)->values + (e)->next)

/* A glTF path for messages ("meshes[0].primitives[1].targets[2].POSITION"):
 * one node per level on the caller's stack, turned into text only when an
 * error names it. */
typedef struct mk_gltf_path {
    const struct mk_gltf_path *parent; /* NULL: the top level */
    const char *name; /* "meshes", "attributes", "POSITION", "" for the document */
    uint32_t index; /* "[index]" after the name; MK_NONE: none */
} mk_gltf_path;

#define MK_GLTF_PATH(name) (&(const mk_gltf_path){NULL, (name), MK_NONE})

/* Writes the path as text into out (cap bytes, cut to fit). */
void mk_gltf_path_format(const mk_gltf_path *path, char *out, size_t cap);

/* State of one load. */
typedef struct mk_gltf_ctx {
    mk_gltf *g;
    struct mk_gltf_storage *st;
    const mk_gltf_json *json; /* the document being read */
    mk_gltf_json *keep_json;  /* non-NULL: receives the parsed document on success */
    const char *file; /* for mk_error.file */
    const char *base_dir; /* NULL: external URIs are an error */
    size_t max_buffer;
    uint32_t max_count;
    const uint8_t *glb_bin; /* GLB BIN chunk, or NULL */
    size_t glb_bin_size;
    mk_error *err;
} mk_gltf_ctx;

/* mk_gltf_parse that also hands over its parsed JSON (on success only;
 * free it with mk_gltf_json_free and the same allocator), so a caller
 * reading more of the document (extras) does not parse it twice. The model
 * and the JSON use data in place, without a copy: data must stay valid
 * until both are freed. */
mk_status mk_gltf_parse_keep_json(const void *data, size_t size, const char *base_dir,
                                  const char *name, const mk_gltf_options *options,
                                  const mk_allocator *allocator, mk_gltf **out,
                                  mk_gltf_json *json, mk_error *err);

/* Fills the error with "path: message" (just the message for a NULL or
 * empty path) and returns code. */
mk_status mk_gltf_fail(mk_gltf_ctx *c, mk_status code, const mk_gltf_path *path, const char *fmt,
                       ...) MK_PRINTF(4, 5);

/* Checked JSON access. Each checks the JSON type and range and fails with
 * the path of obj and the key in the message. A missing optional member
 * leaves *out = def. The lookup is inline (a literal key's length is known
 * when compiling: a load makes hundreds of lookups), the checks are the
 * _value functions' (v: the member, NULL when absent). */
mk_status mk_gltf_json_uint_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                  const mk_gltf_path *path, bool required, uint32_t def,
                                  uint32_t *out);
mk_status mk_gltf_json_size_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                  const mk_gltf_path *path, bool required, size_t *out);
mk_status mk_gltf_json_index_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                   const mk_gltf_path *path, bool required, uint32_t limit,
                                   const char *what, uint32_t *out);
mk_status mk_gltf_json_floats_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                    const mk_gltf_path *path, float *out, size_t n,
                                    bool *present);
mk_status mk_gltf_json_array_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                   const mk_gltf_path *path, const mk_gltf_json_value **arr,
                                   uint32_t *count);
mk_status mk_gltf_json_string_value(mk_gltf_ctx *c, const mk_gltf_json_value *v,
                                    const char *key, const mk_gltf_path *path, char **out);

static inline mk_status mk_gltf_json_uint(mk_gltf_ctx *c, const mk_gltf_json_value *obj,
                                          const char *key, const mk_gltf_path *path,
                                          bool required, uint32_t def, uint32_t *out)
{
    return mk_gltf_json_uint_value(c, mk_gltf_json_get(c->json, obj, key), key, path, required,
                                   def, out);
}
static inline mk_status mk_gltf_json_size(mk_gltf_ctx *c, const mk_gltf_json_value *obj,
                                          const char *key, const mk_gltf_path *path,
                                          bool required, size_t *out)
{
    return mk_gltf_json_size_value(c, mk_gltf_json_get(c->json, obj, key), key, path, required,
                                   out);
}
/* An index into an array of `limit` objects called `what` ("accessors"). */
static inline mk_status mk_gltf_json_index(mk_gltf_ctx *c, const mk_gltf_json_value *obj,
                                           const char *key, const mk_gltf_path *path,
                                           bool required, uint32_t limit, const char *what,
                                           uint32_t *out)
{
    return mk_gltf_json_index_value(c, mk_gltf_json_get(c->json, obj, key), key, path, required,
                                    limit, what, out);
}
/* Exactly n numbers (as float) into out; absent leaves out untouched. */
static inline mk_status mk_gltf_json_floats(mk_gltf_ctx *c, const mk_gltf_json_value *obj,
                                            const char *key, const mk_gltf_path *path, float *out,
                                            size_t n, bool *present)
{
    return mk_gltf_json_floats_value(c, mk_gltf_json_get(c->json, obj, key), key, path, out, n,
                                     present);
}
/* An optional array member: *arr NULL and *count 0 when absent. */
static inline mk_status mk_gltf_json_array(mk_gltf_ctx *c, const mk_gltf_json_value *obj,
                                           const char *key, const mk_gltf_path *path,
                                           const mk_gltf_json_value **arr, uint32_t *count)
{
    return mk_gltf_json_array_value(c, mk_gltf_json_get(c->json, obj, key), key, path, arr,
                                    count);
}
/* An optional string member decoded into the arena (NULL when absent). */
static inline mk_status mk_gltf_json_string(mk_gltf_ctx *c, const mk_gltf_json_value *obj,
                                            const char *key, const mk_gltf_path *path, char **out)
{
    return mk_gltf_json_string_value(c, mk_gltf_json_get(c->json, obj, key), key, path, out);
}
/* String v decoded into the arena; NULL for out of memory. */
char *mk_gltf_json_strdup(mk_gltf_ctx *c, const mk_gltf_json_value *v);
/* An object member or array element must be a JSON object. */
mk_status mk_gltf_json_object(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                              const mk_gltf_path *path);
/* "a number", "a string", "an array", ... for messages. */
const char *mk_gltf_json_kind(const mk_gltf_json_value *v);

/* Parses the JSON document (text not NUL-terminated) into c->g. The GLB BIN
 * chunk, if any, is in c->glb_bin. */
mk_status mk_gltf_parse_document(mk_gltf_ctx *c, const char *json, size_t size);

/* Buffers (gltf_buffer.c): loads every buffer's bytes. */
mk_status mk_gltf_parse_buffers(mk_gltf_ctx *c, const mk_gltf_json_value *root);

/* Reads a whole file (at most max bytes, else MK_ERR_LIMIT) through the
 * storage's file callbacks; the block belongs to the storage from then on.
 * `what` names it in messages ("buffers[0].uri: 'a.bin': ..."; the error
 * file stays c->file); NULL: the error is the file layer's own (naming
 * path). min_size: fail with MK_ERR_RANGE when shorter. */
mk_status mk_gltf_read_file(mk_gltf_ctx *c, const char *path, const mk_gltf_path *what, size_t max,
                            size_t min_size, uint8_t **data, size_t *size);

/* Objects (gltf_accessors.c, gltf_meshes.c, gltf_nodes.c). */
mk_status mk_gltf_parse_buffer_views(mk_gltf_ctx *c, const mk_gltf_json_value *root);
/* EXT_meshopt_compression (gltf_meshopt.c): decodes every compressed view
 * into its own block (view->data), then checks that every view has data. */
mk_status mk_gltf_decode_meshopt(mk_gltf_ctx *c, const mk_gltf_json_value *root);
mk_status mk_gltf_parse_accessors(mk_gltf_ctx *c, const mk_gltf_json_value *root);
mk_status mk_gltf_parse_meshes(mk_gltf_ctx *c, const mk_gltf_json_value *root);
mk_status mk_gltf_parse_nodes(mk_gltf_ctx *c, const mk_gltf_json_value *root);
mk_status mk_gltf_parse_materials(mk_gltf_ctx *c, const mk_gltf_json_value *root);
/* textures[] and images[] (gltf_materials.c), after the buffer views. */
mk_status mk_gltf_parse_textures(mk_gltf_ctx *c, const mk_gltf_json_value *root);
/* Base64 digit value (both alphabets), -1 for another byte (gltf_buffer.c). */
int mk_gltf_base64_value(unsigned char ch);
/* Percent-decodes a relative URI into out (strlen(uri) + 1 bytes) and
 * checks that it stays in the asset's folder (gltf_buffer.c). */
mk_status mk_gltf_check_relative_uri(mk_gltf_ctx *c, const mk_gltf_path *path, const char *uri,
                                     char *out);
mk_status mk_gltf_parse_scenes(mk_gltf_ctx *c, const mk_gltf_json_value *root);
mk_status mk_gltf_parse_animations(mk_gltf_ctx *c, const mk_gltf_json_value *root);
/* Skins (gltf_skins.c): after nodes; also checks every node.skin. */
mk_status mk_gltf_parse_skins(mk_gltf_ctx *c, const mk_gltf_json_value *root);
/* A primitive's JOINTS_n / WEIGHTS_n pairs (gltf_skins.c). */
mk_status mk_gltf_parse_skin_attributes(mk_gltf_ctx *c, const mk_gltf_json_value *attrs,
                                        const mk_gltf_path *apath, mk_gltf_primitive *p,
                                        uint32_t vertex_count);

/* Where a (checked) accessor's first element starts in its buffer, or NULL
 * when it has no bufferView. */
const uint8_t *mk_gltf_accessor_base(const mk_gltf *g, const mk_gltf_accessor *a);

/* Reads one component of the given type at p as float (normalized or not). */
float mk_gltf_read_component(const uint8_t *p, mk_gltf_component_type type, bool normalized);
/* Reads an unsigned index component (UNSIGNED_BYTE/SHORT/INT) at p. */
uint32_t mk_gltf_read_uindex(const uint8_t *p, mk_gltf_component_type type);
/* n unsigned integers of `type`, stride bytes apart from p, into out. */
void mk_gltf_read_uindices(const uint8_t *p, size_t stride, mk_gltf_component_type type,
                           uint32_t n, uint32_t *out);

#endif
