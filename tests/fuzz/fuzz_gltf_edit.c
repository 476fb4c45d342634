/* Fuzz target, structure-aware: edits the JSON values of valid glTF
 * documents instead of their raw bytes, so the input reaches the checks
 * deep inside the reader (accessor ranges, strides, sparse parts, morph
 * targets, animation samplers, the node hierarchy) and the pipeline after
 * it (fuzz_pipeline.h) with documents that are valid but for the edits.
 *
 * The documents are the seeds/<name>.vfs files listed in DOCS (built into
 * the harness by tests/CMakeLists.txt): a glTF document plus its .bin
 * files (fuzz_vfs.h). The input is a list of edits:
 *   byte 0: which document (mod the document count);
 *   then 4-byte edits: op, value index (16 bits, little endian, mod the
 *   number of candidates), argument; ops (op mod 8):
 *     0 a number := the argument (0..255)
 *     1 a number := an interesting constant (component types, targets,
 *       -1, 2^31, 2^32 - 1, 2^32, 1e300, 0.5, -0, ...)
 *     2 a value := a copy of another value (index = argument * 257)
 *     3 a number += the argument as a signed byte
 *     4 a string := a name from the glTF vocabulary ("VEC3", "STEP",
 *       "weights", ...)
 *     5 a value := a literal (null, true, [], {}, [0], "", -1, ...)
 *     6 an object key := another key of the vocabulary (drops the old
 *       member, may duplicate one)
 *     7 a number := 4 more bytes as a uint32 (the edit is 8 bytes long)
 * Values are found by a small scanner (strings, numbers, true/false/null;
 * a string followed by ':' is a key). The last edit of a value wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_gltf_edit_docs.h" /* DOCS, DOC_SIZES, DOC_COUNT: generated */
#include "fuzz_pipeline.h"
#include "fuzz_vfs.h"
#include "morphkit/morphkit.h"

#define MAX_TOKENS 16384
#define MAX_EDITS 64

typedef enum { TOKEN_NUMBER, TOKEN_STRING, TOKEN_KEY, TOKEN_LITERAL } token_kind;

typedef struct token {
    uint32_t start, length;
    token_kind kind;
    const char *text; /* replacement, or NULL */
    uint32_t text_length;
} token;

static const char *const constants[] = {
    "5120", "5121", "5122", "5123", "5125", "5126", "5124", "34962", "34963", "-1", "4294967295",
    "4294967296", "2147483647", "2147483648", "65535", "65536", "1e300", "-1e300", "0.5", "-0",
    "1e-300", "3", "4", "12", "16", "252", "256", "18446744073709551616", "1.5", "0", "1", "2"};
static const char *const names[] = {
    "SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4", "LINEAR", "STEP", "CUBICSPLINE",
    "weights", "translation", "rotation", "scale", "pointer", "", "2.0", "1.0", "3.0",
    "KHR_mesh_quantization", "EXT_meshopt_compression", "data:application/octet-stream;base64,",
    "data:application/octet-stream;base64,AAAA", "../x.bin", "/etc/passwd", "a%20b.bin", "x"};
static const char *const literals[] = {"null", "true", "false", "[]", "{}", "[0]", "\"\"",
                                       "-1", "[1,2,3]", "{\"a\":1}", "[null]", "0"};
static const char *const keys[] = {
    "bufferView", "byteOffset", "byteLength", "byteStride", "componentType", "count", "type",
    "sparse", "indices", "values", "min", "max", "normalized", "buffer", "uri", "accessors",
    "buffers", "bufferViews", "meshes", "primitives", "attributes", "POSITION", "NORMAL",
    "TANGENT", "TEXCOORD_0", "targets", "weights", "mode", "nodes", "children", "mesh",
    "matrix", "translation", "rotation", "scale", "animations", "samplers", "channels",
    "sampler", "target", "node", "path", "input", "output", "interpolation", "scene", "scenes",
    "extras", "targetNames", "extensionsRequired", "extensionsUsed", "asset", "version", "zz"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t scan(const uint8_t *s, uint32_t n, token *tokens)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < n && count < MAX_TOKENS;) {
        uint8_t c = s[i];
        token t = {i, 0, TOKEN_NUMBER, NULL, 0};
        if (c == '"') {
            uint32_t j = i + 1;
            while (j < n && s[j] != '"')
                j += s[j] == '\\' ? 2 : 1;
            j = j < n ? j + 1 : n;
            uint32_t k = j;
            while (k < n && (s[k] == ' ' || s[k] == '\n' || s[k] == '\r' || s[k] == '\t'))
                k++;
            t.kind = k < n && s[k] == ':' ? TOKEN_KEY : TOKEN_STRING;
            t.length = j - i;
            i = j;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            uint32_t j = i + 1;
            while (j < n && strchr("0123456789.eE+-", s[j]))
                j++;
            t.length = j - i;
            i = j;
        } else if (c == 't' || c == 'f' || c == 'n') {
            uint32_t j = i;
            while (j < n && s[j] >= 'a' && s[j] <= 'z')
                j++;
            t.kind = TOKEN_LITERAL;
            t.length = j - i;
            i = j;
        } else {
            i++;
            continue;
        }
        tokens[count++] = t;
    }
    return count;
}

/* The index-th token of a kind (any value kind for TOKEN_LITERAL), or NULL. */
static token *pick(token *tokens, uint32_t count, int kind, uint32_t index)
{
    uint32_t matching = 0;
    for (uint32_t i = 0; i < count; i++)
        matching += kind < 0 ? tokens[i].kind != TOKEN_KEY : tokens[i].kind == (token_kind)kind;
    if (matching == 0)
        return NULL;
    index %= matching;
    for (uint32_t i = 0; i < count; i++)
        if (kind < 0 ? tokens[i].kind != TOKEN_KEY : tokens[i].kind == (token_kind)kind)
            if (index-- == 0)
                return &tokens[i];
    return NULL;
}

static void set_text(token *t, const char *text)
{
    t->text = text;
    t->text_length = (uint32_t)strlen(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static token tokens[MAX_TOKENS];
    static char numbers[MAX_EDITS][48]; /* texts made per edit */
    static char quoted[MAX_EDITS][96];
    static fz_vfs vfs;
    if (size == 0)
        return 0;
    uint32_t doc = data[0] % DOC_COUNT;
    fz_vfs_init(&vfs, "g", DOCS[doc], DOC_SIZES[doc]);
    const uint8_t *json = vfs.main;
    uint32_t json_size = (uint32_t)vfs.main_size;
    uint32_t count = scan(json, json_size, tokens);
    size_t at = 1;
    for (int e = 0; e < MAX_EDITS && at + 4 <= size; e++) {
        uint8_t op = data[at] % 8, arg = data[at + 3];
        uint32_t index = data[at + 1] | (uint32_t)data[at + 2] << 8;
        at += 4;
        token *t = NULL;
        switch (op) {
        case 0:
            if ((t = pick(tokens, count, TOKEN_NUMBER, index))) {
                snprintf(numbers[e], sizeof numbers[e], "%u", arg);
                set_text(t, numbers[e]);
            }
            break;
        case 1:
            if ((t = pick(tokens, count, TOKEN_NUMBER, index)))
                set_text(t, constants[arg % COUNT(constants)]);
            break;
        case 2: {
            token *from = pick(tokens, count, -1, (uint32_t)arg * 257u);
            if ((t = pick(tokens, count, -1, index)) && from) {
                t->text = (const char *)json + from->start;
                t->text_length = from->length;
            }
            break;
        }
        case 3:
            if ((t = pick(tokens, count, TOKEN_NUMBER, index))) {
                long long v = strtoll((const char *)json + t->start, NULL, 10);
                snprintf(numbers[e], sizeof numbers[e], "%lld", v + (int8_t)arg);
                set_text(t, numbers[e]);
            }
            break;
        case 4:
            if ((t = pick(tokens, count, TOKEN_STRING, index))) {
                snprintf(quoted[e], sizeof quoted[e], "\"%s\"", names[arg % COUNT(names)]);
                set_text(t, quoted[e]);
            }
            break;
        case 5:
            if ((t = pick(tokens, count, -1, index)))
                set_text(t, literals[arg % COUNT(literals)]);
            break;
        case 6:
            if ((t = pick(tokens, count, TOKEN_KEY, index))) {
                snprintf(quoted[e], sizeof quoted[e], "\"%s\"", keys[arg % COUNT(keys)]);
                set_text(t, quoted[e]);
            }
            break;
        default:
            if (at + 4 <= size && (t = pick(tokens, count, TOKEN_NUMBER, index))) {
                uint32_t v = data[at] | (uint32_t)data[at + 1] << 8 |
                             (uint32_t)data[at + 2] << 16 | (uint32_t)data[at + 3] << 24;
                snprintf(numbers[e], sizeof numbers[e], "%u", v);
                set_text(t, numbers[e]);
            }
            at += 4;
            break;
        }
    }
    /* the edited document: replaced tokens, everything else as it was */
    size_t cap = json_size + 1;
    for (uint32_t i = 0; i < count; i++)
        if (tokens[i].text)
            cap += tokens[i].text_length;
    char *out = malloc(cap);
    if (out) {
        size_t n = 0, from = 0;
        for (uint32_t i = 0; i < count; i++) {
            if (!tokens[i].text)
                continue;
            memcpy(out + n, json + from, tokens[i].start - from);
            n += tokens[i].start - from;
            memcpy(out + n, tokens[i].text, tokens[i].text_length);
            n += tokens[i].text_length;
            from = tokens[i].start + tokens[i].length;
        }
        memcpy(out + n, json + from, json_size - from);
        n += json_size - from;
        mk_gltf_options opt = {0};
        opt.max_buffer_size = 1u << 24;
        opt.max_count = 1u << 16;
        opt.files = &vfs.callbacks;
        mk_gltf *g;
        mk_error err;
        mk_status st = mk_gltf_parse(out, n, "g", "<fuzz>", &opt, NULL, &g, &err);
        fz_note("gltf", st, &err);
        if (st == MK_OK) {
            fz_exercise_gltf(g);
            mk_gltf_destroy(g);
        }
        free(out);
    }
    for (uint32_t i = 0; i < count; i++)
        tokens[i].text = NULL;
    if (vfs.open_blocks != 0)
        __builtin_trap(); /* every block read is given back */
    return 0;
}
