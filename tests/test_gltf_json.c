/* The glTF reader's JSON layer (gltf_json.c): escapes in keys and
 * strings, the grammar (what a tokenizer alone lets through), how numbers
 * that must be integers are read, value arrays that grow, and every byte
 * going through the caller's allocator. */
#include <stdint.h>
#include <string.h>

#include "mk_test.h"
#include "morphkit/gltf.h"

/* 40 bytes: 9 zero floats (3 positions) then u16 index 5 and 2 pad bytes. */
#define B64_40                                                                                     \
    "data:application/octet-stream;base64,"                                                        \
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABQAAAA=="

static mk_status parse(const char *text, mk_gltf **g, mk_error *err)
{
    *g = NULL;
    return mk_gltf_parse(text, strlen(text), NULL, "j.gltf", NULL, NULL, g, err);
}

/* Parses text, which must fail with `want` and a message containing `where`. */
static void expect_fail(const char *text, mk_status want, const char *where)
{
    mk_gltf *g;
    mk_error err;
    mk_status s = parse(text, &g, &err);
    CHECK_EQ_INT(s, want);
    CHECK(g == NULL);
    CHECK_CONTAINS(err.message, where);
    if (s != want)
        fprintf(stderr, "  text: %s\n  message: %s\n", text, err.message);
    mk_gltf_destroy(g);
}

static void expect_ok(const char *text)
{
    mk_gltf *g;
    mk_error err;
    mk_status s = parse(text, &g, &err);
    CHECK_EQ_INT(s, MK_OK);
    if (s != MK_OK)
        fprintf(stderr, "  text: %s\n  message: %s\n", text, err.message);
    mk_gltf_destroy(g);
}

/* Keys are compared by their decoded text: every key below is escaped
 * somewhere (\u, \/), and still found. */
static void test_escaped_keys(void)
{
    const char *t =
        "{\"asset\":{\"\\u0076ersion\":\"2.0\",\"gen\\u0065rator\":\"g\"},"
        "\"buff\\u0065rs\":[{\"byteLength\":40,\"uri\":\"" B64_40 "\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byte\\u004Cength\":36}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"\\u0074ype\":\"VEC\\u0033\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSI\\u0054ION\":0},"
        "\"targets\":[{\"POSITION\":0}]}],"
        "\"extras\":{\"target\\u004eames\":[\"a\"]}}]}";
    mk_gltf *g;
    mk_error err;
    CHECK(parse(t, &g, &err) == MK_OK);
    if (!g) {
        fprintf(stderr, "  message: %s\n", err.message);
        return;
    }
    CHECK_EQ_INT(g->buffer_count, 1);
    CHECK_EQ_INT(g->buffer_views[0].byte_length, 36);
    CHECK_EQ_INT(g->accessors[0].type, MK_GLTF_VEC3);
    CHECK_EQ_INT(g->meshes[0].primitives[0].position, 0);
    CHECK(g->meshes[0].target_names && strcmp(g->meshes[0].target_names[0], "a") == 0);
    CHECK(g->generator && strcmp(g->generator, "g") == 0);
    mk_gltf_destroy(g);

    /* A key whose decoded text differs is not the key: "na\"me" is not
     * "name", "nam" + NUL + "e" is not either, "versio" is no prefix match. */
    t = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"na\\\"me\":\"x\",\"nam\\u0000e\":\"y\","
        "\"nam\":\"z\"}],\"scenes\":[{\"nodes\":[0]}]}";
    CHECK(parse(t, &g, &err) == MK_OK);
    if (g) {
        CHECK(g->nodes[0].name == NULL);
        mk_gltf_destroy(g);
    }
    expect_fail("{\"asset\":{\"versio\":\"2.0\"}}", MK_ERR_PARSE,
                "asset: missing required string 'version'");
    /* Duplicate keys: the first one counts (as before). */
    t = "{\"asset\":{\"version\":\"2.0\"},"
        "\"nodes\":[{\"name\":\"first\",\"n\\u0061me\":\"second\"}]}";
    CHECK(parse(t, &g, &err) == MK_OK);
    if (g) {
        CHECK(g->nodes[0].name && strcmp(g->nodes[0].name, "first") == 0);
        mk_gltf_destroy(g);
    }
}

/* Strings the model keeps are decoded once: every JSON escape, \u as UTF-8,
 * surrogate pairs as one code point, a lone surrogate as U+FFFD. */
static void test_escaped_strings(void)
{
    const char *t =
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"},"
        "\"nodes\":[{\"name\":\"caf\\u00e9 \\u20AC \\ud83d\\ude00\"},"
        "{\"name\":\"lone \\ud800 x \\udc00\"},{\"name\":\"caf\xc3\xa9 raw\"},{\"name\":\"\"}],"
        "\"scenes\":[{\"name\":\"\\u0041\\u0042\",\"nodes\":[0,1,2,3]}],"
        "\"animations\":[]}";
    mk_gltf *g;
    mk_error err;
    CHECK(parse(t, &g, &err) == MK_OK);
    if (!g) {
        fprintf(stderr, "  message: %s\n", err.message);
        return;
    }
    CHECK(strcmp(g->generator, "a\"b\\c/d\be\ff\ng\rh\ti") == 0);
    CHECK(strcmp(g->nodes[0].name, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == 0);
    CHECK(strcmp(g->nodes[1].name, "lone \xef\xbf\xbd x \xef\xbf\xbd") == 0);
    CHECK(strcmp(g->nodes[2].name, "caf\xc3\xa9 raw") == 0); /* UTF-8 as it is */
    CHECK(strcmp(g->nodes[3].name, "") == 0);
    CHECK(strcmp(g->scenes[0].name, "AB") == 0);
    mk_gltf_destroy(g);

    /* Escaped enum strings compare by their text too. */
    const char *acc = "{\"asset\":{\"version\":\"2.0\"},"
                      "\"buffers\":[{\"byteLength\":40,\"uri\":\"" B64_40 "\"}],"
                      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
                      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
                      "\"type\":\"SCALAR\"},{\"bufferView\":0,\"componentType\":5126,"
                      "\"count\":3,\"type\":\"SCALAR\"}],"
                      "\"nodes\":[{}],"
                      "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1,"
                      "\"interpolation\":\"ST\\u0045P\"}],\"channels\":[{\"sampler\":0,"
                      "\"target\":{\"node\":0,\"path\":\"tr\\u0061nslation\"}}]}]}";
    CHECK(parse(acc, &g, &err) == MK_ERR_PARSE); /* SCALAR output for translation */
    CHECK_CONTAINS(err.message, "animations[0].channels[0]: output accessor 1 has type SCALAR, "
                                "expected VEC3");
    /* A value printed in a message is decoded as well. */
    expect_fail("{\"asset\":{\"version\":\"\\u0031.0\"}}", MK_ERR_UNSUPPORTED,
                "asset.version: glTF version '1.0' is not supported");
    expect_fail("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"KHR_\\u00e9\"]}",
                MK_ERR_UNSUPPORTED, "required extension 'KHR_\xc3\xa9' is not supported");
    expect_ok("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":"
              "[\"KHR_mesh_\\u0071uantization\"]}");
}

/* A tokenizer alone (jsmn, which the reader used before) accepts these;
 * the reader must not. Each is "invalid JSON"
 * with the byte (and line) of the problem. */
static void test_grammar_errors(void)
{
    static const char *const bad[] = {
        "{\"asset\":{\"version\":\"2.0\"} \"nodes\":[]}", /* missing comma */
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{} {}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},]}", /* trailing commas */
        "{\"asset\":{\"version\":\"2.0\"},}",
        "{,\"asset\":{\"version\":\"2.0\"}}",
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[,{}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},,{}]}",
        "{\"asset\":{\"version\" \"2.0\"}}", /* missing colon */
        "{\"asset\":{\"version\"::\"2.0\"}}",
        "{\"asset\":{\"version\"}}", /* a key without value */
        "{\"asset\":{\"version\":\"2.0\",\"x\"}}",
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[\"a\":1]}", /* key in an array */
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":1:2}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0 1}",
        "{\"asset\":{\"version\":\"2.0\"}} {}", /* two documents */
        "{\"asset\":{\"version\":\"2.0\"}} x",
        "{\"asset\":{\"version\":\"2.0\"}}]",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":tru}", /* bad literals and numbers */
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":nulll}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":01}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":1.}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":-}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":1e}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":1e+}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0x1}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":1-2}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":.5}",
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":+1}",
        "{\"asset\":{\"version\":\"2.\\x\"}}", /* bad escapes */
        "{\"asset\":{\"version\":\"2.\\u00g0\"}}",
        "{\"asset\":{\"version\":\"2.0\"}", /* unclosed */
        "{\"asset\":{\"version\":\"2.0}}",
        "{\"asset\":[{\"version\":\"2.0\"}}]}",
        "",
        "   ",
        "\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_fail(bad[i], MK_ERR_PARSE, "invalid JSON");
    /* The line of the problem: the missing comma is on line 3. */
    mk_gltf *g;
    mk_error err;
    const char *t = "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [{} {}]\n}";
    CHECK(parse(t, &g, &err) == MK_ERR_PARSE);
    CHECK_EQ_INT(err.line, 3);
    CHECK_CONTAINS(err.message, "invalid JSON near byte 48");
    /* and a trailing comma on line 4 */
    t = "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [\n    {},\n  ]\n}";
    CHECK(parse(t, &g, &err) == MK_ERR_PARSE);
    CHECK_EQ_INT(err.line, 4);
}

/* Blanks of every kind, a byte order mark, GLB-style padding. */
static void test_blanks_and_padding(void)
{
    expect_ok(" \t\r\n{ \"asset\" :\t{ \"version\"\r\n:\n\"2.0\" } ,\n\"nodes\" : [ { } , "
              "{ \"name\" : \"n\" } ] , \"scene\" : 0 , \"scenes\" : [ { \"nodes\" : [ 0 , 1 ] } "
              "] }\r\n  ");
    expect_ok("\xEF\xBB\xBF{\"asset\":{\"version\":\"2.0\"}}");
    /* A JSON chunk padded with NULs (some exporters do): the text ends at
     * the first NUL. */
    static const char padded[] = "{\"asset\":{\"version\":\"2.0\"}}  \0\0\0";
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(padded, sizeof padded - 1, NULL, "p.gltf", NULL, NULL, &g, &err) == MK_OK);
    mk_gltf_destroy(g);
    /* Values of every JSON type where glTF allows anything (extras). */
    expect_ok("{\"asset\":{\"version\":\"2.0\",\"extras\":{\"a\":[true,false,null,-0,1.5e-3,"
              "-2E+2,0.0,\"s\",{},[],[[[]]],{\"b\":{\"c\":null}}]}}}");
}

/* Strings longer than 64 bytes are scanned in bulk (memchr to the quote):
 * an escape or a NUL past the first 64 bytes is still seen, at any
 * distance from the quote. */
static void test_long_strings(void)
{
    char t[1024], want[512];
    for (int at = 60; at < 200; at += 7) {
        /* "xxxx...\"yyy" as the generator: the escape at byte `at` */
        int n = snprintf(t, sizeof t, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"");
        int w = 0;
        for (int i = 0; i < at; i++)
            t[n++] = want[w++] = (char)('a' + i % 26);
        t[n++] = '\\';
        t[n++] = '"';
        want[w++] = '"';
        for (int i = 0; i < 90; i++)
            t[n++] = want[w++] = 'z';
        want[w] = '\0';
        memcpy(t + n, "\"}}", 4);
        mk_gltf *g;
        mk_error err;
        CHECK(parse(t, &g, &err) == MK_OK);
        CHECK(g && g->generator && strcmp(g->generator, want) == 0);
        mk_gltf_destroy(g);
        /* a NUL in its place ends the text inside the string */
        t[n - 92] = '\0';
        CHECK(mk_gltf_parse(t, (size_t)n + 3, NULL, "j.gltf", NULL, NULL, &g, &err) ==
              MK_ERR_PARSE);
        CHECK(g == NULL);
        /* a bad escape there, and no closing quote at all */
        t[n - 92] = '\\';
        t[n - 91] = 'x';
        expect_fail(t, MK_ERR_PARSE, "invalid JSON");
        t[n - 91] = '"';
        t[n] = '\0'; /* cut before the closing quote */
        expect_fail(t, MK_ERR_PARSE, "invalid JSON");
    }
}

/* Integers are read exactly; fractions, negatives and values out of range
 * fail with the same messages as ever. */
static void test_integers(void)
{
    char t[512];
    const char *fmt = "{\"asset\":{\"version\":\"2.0\"},"
                      "\"buffers\":[{\"byteLength\":40,\"uri\":\"" B64_40 "\"}],"
                      "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%s,\"byteLength\":4}]}";
    static const char *const ok[] = {"0", "36", "36.0", "3.6e1", "360e-1", "-0", "0e5"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        snprintf(t, sizeof t, fmt, ok[i]);
        mk_gltf *g;
        mk_error err;
        CHECK(parse(t, &g, &err) == MK_OK);
        if (g) {
            CHECK_EQ_INT(g->buffer_views[0].byte_offset, strcmp(ok[i], "0") == 0 ||
                                                                 strcmp(ok[i], "-0") == 0 ||
                                                                 strcmp(ok[i], "0e5") == 0
                                                             ? 0
                                                             : 36);
            mk_gltf_destroy(g);
        }
    }
    snprintf(t, sizeof t, fmt, "1.5");
    expect_fail(t, MK_ERR_PARSE,
                "bufferViews[0]: byteOffset must be a non-negative integer below "
                "9007199254740992, not 1.5");
    snprintf(t, sizeof t, fmt, "-4");
    expect_fail(t, MK_ERR_PARSE, "not -4");
    snprintf(t, sizeof t, fmt, "9007199254740992");
    expect_fail(t, MK_ERR_RANGE, "not 9007199254740992");
    snprintf(t, sizeof t, fmt, "9007199254740991"); /* exact, then past the buffer */
    expect_fail(t, MK_ERR_RANGE, "byteOffset 9007199254740991 + byteLength 4 exceeds buffer 0");
    snprintf(t, sizeof t, fmt, "123456789012345678901234567890");
    expect_fail(t, MK_ERR_RANGE, "not 1.234567890123456");
    snprintf(t, sizeof t, fmt, "\"4\"");
    expect_fail(t, MK_ERR_PARSE, "byteOffset must be a non-negative integer, not a string");
    snprintf(t, sizeof t, fmt, "true");
    expect_fail(t, MK_ERR_PARSE, "not a boolean");
    snprintf(t, sizeof t, fmt, "null");
    expect_fail(t, MK_ERR_PARSE, "not null");
    expect_fail("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":4294967295}]}",
                MK_ERR_RANGE, "nodes[0]: mesh must be a non-negative integer below 4294967295");
    expect_fail("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0.5}]}", MK_ERR_PARSE,
                "not 0.5");
    /* the tokenizer keeps the value of plain digits below 65536; the
       others are read from the text: both sides of that edge */
    static const char *const edge[] = {"7", "12345", "65535", "65536", "99999", "100000"};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        char want[64];
        snprintf(t, sizeof t, "{\"asset\":{\"version\":\"2.0\"},\"scene\":%s}", edge[i]);
        snprintf(want, sizeof want, "scene %s out of range (0 scenes)", edge[i]);
        expect_fail(t, MK_ERR_RANGE, want);
        snprintf(t, sizeof t, "{\"asset\":{\"version\":\"2.0\"},\"scene\":%s.0}", edge[i]);
        expect_fail(t, MK_ERR_RANGE, want);
    }
    expect_fail("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[0.5]}]}",
                MK_ERR_RANGE, "nodes[0]: children[0] is not one of the 1 nodes");
    /* Floats: the nearest float, and out of float range fails. */
    mk_gltf *g;
    mk_error err;
    CHECK(parse("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[0.1,-2.5e-3,"
                "3.4e38],\"scale\":[1E0,2,3]}]}",
                &g, &err) == MK_OK);
    if (g) {
        CHECK(g->nodes[0].translation[0] == 0.1f);
        CHECK(g->nodes[0].translation[1] == -2.5e-3f);
        CHECK(g->nodes[0].translation[2] == 3.4e38f);
        CHECK(g->nodes[0].scale[2] == 3.0f);
        mk_gltf_destroy(g);
    }
    expect_fail("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1,1e39,1]}]}",
                MK_ERR_PARSE, "nodes[0]: scale[1] must be a number in float range");
    expect_fail("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1,\"1\",1]}]}",
                MK_ERR_PARSE, "nodes[0]: scale[1] must be a number in float range");
}

/* Nesting: 256 levels read, 257 refused before the tokenizer (whose cost
 * grows with the square of the depth); brackets in strings do not count. */
static void test_nesting(void)
{
    char t[2048];
    for (int depth = 256; depth <= 257; depth++) {
        /* the root object is one level, extras.a's arrays the rest */
        size_t n = (size_t)snprintf(t, sizeof t,
                                    "{\"asset\":{\"version\":\"2.0\"},\"extras\":{\"s\":"
                                    "\"[[{{\\\"[[[\",\"a\":");
        for (int i = 0; i < depth - 2; i++)
            t[n++] = '[';
        for (int i = 0; i < depth - 2; i++)
            t[n++] = ']';
        memcpy(t + n, "}}", 3);
        mk_gltf *g;
        mk_error err;
        mk_status s = parse(t, &g, &err);
        CHECK_EQ_INT(s, depth <= 256 ? MK_OK : MK_ERR_LIMIT);
        mk_gltf_destroy(g);
    }
    memset(t, '[', 300);
    memset(t + 300, ']', 300);
    t[600] = '\0';
    expect_fail(t, MK_ERR_LIMIT, "JSON nested deeper than 256 levels at byte 256");
    memcpy(t, "{\"asset\":", 9);
    memcpy(t + 591, "}", 2);
    expect_fail(t, MK_ERR_LIMIT, "at byte 264");
    /* A large text is checked before tokenizing: the same limit, the same
     * byte. The padding string holds brackets and escaped quotes. */
    enum { PAD = 40000 };
    char *big = (char *)malloc(PAD + 2048);
    CHECK(big != NULL);
    if (!big)
        return;
    size_t n = (size_t)snprintf(big, 64, "{\"asset\":{\"version\":\"2.0\"},\"pad\":\"");
    for (int i = 0; i < PAD; i++) /* [{\"x again and again */
        big[n++] = "[{\\\"x"[i % 5];
    n += (size_t)snprintf(big + n, 64, "\",\"a\":");
    size_t deep_at = n + 255; /* the root object is level 1 */
    for (int i = 0; i < 300; i++)
        big[n++] = '[';
    for (int i = 0; i < 300; i++)
        big[n++] = ']';
    memcpy(big + n, "}", 2);
    char want[64];
    snprintf(want, sizeof want, "nested deeper than 256 levels at byte %zu", deep_at);
    expect_fail(big, MK_ERR_LIMIT, want);
    free(big);
}

/* More tokens than the first guess: the token array grows (and a 1-byte
 * JSON token per 3 bytes of text is about the densest there is). */
static void test_many_tokens(void)
{
    enum { N = 20000 };
    size_t cap = 64 + (size_t)N * 3 + 64;
    char *t = (char *)malloc(cap);
    CHECK(t != NULL);
    if (!t)
        return;
    size_t n = (size_t)snprintf(t, cap, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
    for (int i = 0; i < N; i++) {
        memcpy(t + n, i ? ",{}" : "{}", i ? 3 : 2);
        n += i ? 3 : 2;
    }
    memcpy(t + n, "]}", 3);
    mk_gltf *g;
    mk_error err;
    CHECK(parse(t, &g, &err) == MK_OK);
    if (g) {
        CHECK_EQ_INT(g->node_count, N);
        mk_gltf_destroy(g);
    }
    free(t);
}

/* Every block (the token array included) comes from the caller's allocator
 * and goes back to it; a failing allocator gives MK_ERR_OUT_OF_MEMORY at
 * any point, never a crash or a leak. */
typedef struct counter {
    size_t live_blocks, live_bytes, calls, fail_at;
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = (counter *)user;
    if (++c->calls == c->fail_at)
        return NULL;
    c->live_blocks++;
    c->live_bytes += size;
    return malloc(size);
}

static void count_free(void *user, void *p, size_t size)
{
    counter *c = (counter *)user;
    if (!p)
        return;
    c->live_blocks--;
    c->live_bytes -= size;
    free(p);
}

static void test_allocator(void)
{
    const char *t = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"\\u0067en\"},"
                    "\"buffers\":[{\"byteLength\":40,\"uri\":\"" B64_40 "\"}],"
                    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
                    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
                    "\"type\":\"VEC3\",\"name\":\"\\u00e9\"}],"
                    "\"nodes\":[{\"name\":\"n\"},{},{},{},{},{},{},{},{},{},{},{},{},{}]}";
    size_t calls_ok = 0;
    for (size_t fail_at = 0; fail_at < 64; fail_at++) {
        counter c = {0, 0, 0, fail_at};
        mk_allocator a = {count_alloc, NULL, count_free, &c};
        mk_gltf *g = NULL;
        mk_error err;
        mk_status s = mk_gltf_parse(t, strlen(t), NULL, "a.gltf", NULL, &a, &g, &err);
        if (fail_at == 0) {
            CHECK_EQ_INT(s, MK_OK);
            calls_ok = c.calls;
        } else if (fail_at <= calls_ok) {
            CHECK_EQ_INT(s, MK_ERR_OUT_OF_MEMORY);
            CHECK(g == NULL);
        }
        if (g) {
            CHECK(strcmp(g->generator, "gen") == 0);
            CHECK(strcmp(g->accessors[0].name, "\xc3\xa9") == 0);
        }
        mk_gltf_destroy(g);
        CHECK_EQ_INT(c.live_blocks, 0);
        CHECK_EQ_INT(c.live_bytes, 0);
    }
    CHECK(calls_ok >= 3); /* storage, arena, tokens at least */
}

MK_TEST_MAIN(MK_TEST(test_escaped_keys), MK_TEST(test_escaped_strings),
             MK_TEST(test_grammar_errors), MK_TEST(test_blanks_and_padding), MK_TEST(test_long_strings),
             MK_TEST(test_integers), MK_TEST(test_nesting), MK_TEST(test_many_tokens),
             MK_TEST(test_allocator))
