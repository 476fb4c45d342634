/* Core: errors, allocator, frame sets, blend kernels (hand-computed values). */
#include <stdint.h>

#include "internal.h"
#include "kernels.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

static void test_error_format(void)
{
    mk_error e;
    char buf[128];
    mk_error_set(&e, MK_ERR_PARSE, "a/b.obj", 12, "bad number '%s'", "1.2.3");
    CHECK_EQ_INT(e.code, MK_ERR_PARSE);
    mk_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "a/b.obj:12: bad number '1.2.3'") == 0);
    e.column = 7;
    mk_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "a/b.obj:12:7: bad number '1.2.3'") == 0);
    mk_error_set(&e, MK_ERR_IO, "x", 0, "gone");
    mk_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "x: gone") == 0);
    mk_error_set(&e, MK_ERR_IO, NULL, 0, "plain");
    mk_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "plain") == 0);
    CHECK(mk_error_set(NULL, MK_ERR_RANGE, NULL, 0, "x") == MK_ERR_RANGE);
    CHECK(strcmp(mk_status_string(MK_ERR_MISMATCH), "mismatch") == 0);
    CHECK(strcmp(mk_status_string((mk_status)999), "unknown status") == 0);
    mk_error_clear(&e);
    CHECK(e.code == MK_OK && e.file[0] == 0 && e.message[0] == 0);
}

/* An allocator that counts blocks and bytes and checks sizes on free. */
typedef struct counting {
    long blocks;
    long long bytes;
    int size_mismatch;
} counting;

static void *count_alloc(void *user, size_t size)
{
    counting *c = user;
    if (size > ((size_t)1 << 30)) /* stands in for a failing allocator */
        return NULL;
    size_t *p = malloc(size + 16);
    if (!p)
        return NULL;
    p[0] = size;
    c->blocks++;
    c->bytes += (long long)size;
    return (char *)p + 16;
}

static void count_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    size_t *p = (size_t *)((char *)ptr - 16);
    if (p[0] != size)
        c->size_mismatch++;
    c->blocks--;
    c->bytes -= (long long)size;
    free(p);
}

static void test_frame_set_layout(void)
{
    counting c = {0, 0, 0};
    mk_allocator a = {count_alloc, NULL, count_free, &c};
    mk_frame_set_desc d = {3, 5, 6, true, true};
    mk_frame_set *s = NULL;
    mk_error e;
    CHECK(mk_frame_set_create(&d, &a, &s, &e) == MK_OK);
    CHECK_EQ_INT(c.blocks, 1); /* one allocation */
    CHECK_EQ_INT(s->byte_size, mk_frame_set_byte_size(&d));
    CHECK(((uintptr_t)s->positions & 15) == 0 && ((uintptr_t)s->normals & 15) == 0);
    CHECK(mk_frame_set_positions(s, 2) == s->positions + 2 * 5 * 3);
    CHECK(mk_frame_set_normals(s, 1) == s->normals + 15);
    /* the arrays do not overlap: write every element and read back */
    for (int i = 0; i < 45; i++)
        s->positions[i] = (float)i, s->normals[i] = (float)-i;
    for (int i = 0; i < 10; i++)
        s->texcoords[i] = 100.0f + (float)i;
    for (int i = 0; i < 6; i++)
        s->indices[i] = (uint32_t)(i % 5);
    CHECK(s->positions[44] == 44.0f && s->normals[44] == -44.0f && s->texcoords[9] == 109.0f);
    CHECK(mk_frame_set_validate(s, &e) == MK_OK);
    s->indices[4] = 5;
    CHECK(mk_frame_set_validate(s, &e) == MK_ERR_RANGE);
    CHECK_CONTAINS(e.message, "index 4 is 5 but there are 5 vertices");
    s->indices[4] = 0;
    s->normals[7] = NAN;
    CHECK(mk_frame_set_validate(s, &e) == MK_ERR_RANGE);
    CHECK_CONTAINS(e.message, "normal value 7 is not finite");
    mk_frame_set_destroy(s);

    /* values are checked a block of 1024 at a time: an inf or NaN past the
     * first block, at a block's end and at the very end is still named */
    mk_frame_set_desc big = {3, 400, 3, false, false}; /* 3600 position values */
    CHECK(mk_frame_set_create(&big, NULL, &s, &e) == MK_OK);
    for (int i = 0; i < 3600; i++)
        s->positions[i] = (float)i;
    s->indices[0] = 0, s->indices[1] = 1, s->indices[2] = 2;
    CHECK(mk_frame_set_validate(s, &e) == MK_OK);
    const size_t at[] = {1023, 1500, 3599};
    for (int k = 0; k < 3; k++) {
        char want[64];
        s->positions[at[k]] = k == 1 ? -INFINITY : NAN;
        CHECK(mk_frame_set_validate(s, &e) == MK_ERR_RANGE);
        snprintf(want, sizeof want, "position value %zu is not finite", at[k]);
        CHECK_CONTAINS(e.message, want);
        s->positions[at[k]] = 1.0f;
    }
    s->positions[2048] = -NAN;
    s->positions[3000] = INFINITY;
    CHECK(mk_frame_set_validate(s, &e) == MK_ERR_RANGE);
    CHECK_CONTAINS(e.message, "position value 2048 is not finite");
    mk_frame_set_destroy(s);
    CHECK_EQ_INT(c.blocks, 0);
    CHECK_EQ_INT(c.size_mismatch, 0);

    mk_frame_set_desc none = {2, 4, 3, false, false};
    CHECK(mk_frame_set_create(&none, NULL, &s, &e) == MK_OK);
    CHECK(s->normals == NULL && s->texcoords == NULL && mk_frame_set_normals(s, 1) == NULL);
    mk_frame_set_destroy(s);
}

static void test_frame_set_bad_sizes(void)
{
    mk_frame_set *s = (mk_frame_set *)1;
    mk_error e;
    mk_frame_set_desc zero = {0, 4, 3, false, false};
    CHECK(mk_frame_set_create(&zero, NULL, &s, &e) == MK_ERR_INVALID_ARGUMENT && s == NULL);
    mk_frame_set_desc partial = {1, 4, 4, false, false};
    CHECK(mk_frame_set_create(&partial, NULL, &s, &e) == MK_ERR_INVALID_ARGUMENT);
#if SIZE_MAX == UINT64_MAX
    /* 2^32 frames x 2^32 vertices x 12 bytes does not fit in 64 bits */
    mk_frame_set_desc huge = {UINT32_MAX, UINT32_MAX, 3, true, false};
    CHECK(mk_frame_set_byte_size(&huge) == 0);
    CHECK(mk_frame_set_create(&huge, NULL, &s, &e) == MK_ERR_LIMIT);
#endif
    /* allocator failure is reported, not fatal */
    counting c = {0, 0, 0};
    mk_allocator fail = {count_alloc, NULL, count_free, &c};
    mk_frame_set_desc big = {1u << 20, 1u << 20, 3, true, true}; /* 12 TiB */
    CHECK(mk_frame_set_create(&big, &fail, &s, &e) == MK_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(c.blocks, 0);
}

static void test_mesh(void)
{
    mk_mesh_desc d = {4, 6, true, false};
    mk_mesh *m;
    mk_error e;
    CHECK(mk_mesh_create(&d, NULL, &m, &e) == MK_OK);
    CHECK(m->normals && !m->texcoords && m->vertex_count == 4 && m->index_count == 6);
    CHECK(mk_mesh_validate(m, &e) == MK_OK);
    m->indices[5] = 9;
    CHECK(mk_mesh_validate(m, &e) == MK_ERR_RANGE);
    mk_mesh_destroy(m);
    mk_mesh_desc bad = {4, 5, false, false};
    CHECK(mk_mesh_create(&bad, NULL, &m, &e) == MK_ERR_INVALID_ARGUMENT);
}

static void test_blend_positions_hand_values(void)
{
    const float a[6] = {0, 0, 0, 1, 2, 3}, b[6] = {2, 4, -6, 1, 2, 3};
    float out[6];
    mk_blend_positions(out, a, b, 0.0f, 2);
    CHECK(memcmp(out, a, sizeof a) == 0); /* exact at w = 0 */
    mk_blend_positions(out, a, b, 1.0f, 2);
    CHECK(memcmp(out, b, sizeof b) == 0); /* exact at w = 1 */
    mk_blend_positions(out, a, b, 0.5f, 2);
    CHECK(out[0] == 1 && out[1] == 2 && out[2] == -3 && out[3] == 1 && out[4] == 2 && out[5] == 3);
    mk_blend_positions(out, a, b, 0.25f, 1);
    CHECK_NEAR(out[0], 0.5, 1e-7);
    CHECK_NEAR(out[1], 1.0, 1e-7);
    CHECK_NEAR(out[2], -1.5, 1e-7);
    /* outside [0, 1]: extrapolation along the same line, as documented */
    mk_blend_positions(out, a, b, 2.0f, 1);
    CHECK(out[0] == 4 && out[1] == 8 && out[2] == -12);
    mk_blend_positions(out, a, b, -1.0f, 1);
    CHECK(out[0] == -2 && out[1] == -4 && out[2] == 6);
}

static void test_blend_normals_hand_values(void)
{
    /* 5 vertices so the SSE2 path runs one block of 4 and a scalar tail */
    const float a[15] = {1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};
    const float b[15] = {0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0};
    float out[15];
    mk_blend_normals(out, a, b, 0.5f, 5);
    const float r = 0.70710678f;
    CHECK_NEAR(out[0], r, 1e-7);
    CHECK_NEAR(out[1], r, 1e-7);
    CHECK_NEAR(out[2], 0, 1e-7);
    /* opposite normals cancel: written as zero, never NaN */
    CHECK(out[3] == 0 && out[4] == 0 && out[5] == 0);
    CHECK(out[6] == 0 && out[7] == 0 && out[8] == 1);
    CHECK_NEAR(out[9], r, 1e-7);
    CHECK(out[12] == 0 && out[13] == 0 && out[14] == 0); /* zero inputs */
    /* w = 0.25: (0.75, 0.25, 0) / 0.7905694 */
    mk_blend_normals(out, a, b, 0.25f, 1);
    CHECK_NEAR(out[0], 0.9486833, 1e-6);
    CHECK_NEAR(out[1], 0.3162278, 1e-6);
    /* inputs that are not unit length come out unit length */
    const float la[3] = {3, 0, 0}, lb[3] = {3, 0, 0};
    mk_blend_normals(out, la, lb, 0.5f, 1);
    CHECK_NEAR(out[0], 1, 1e-7);
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_blend_variants_match_reference(void)
{
    enum { N = 1003 };
    static float a[3 * N], b[3 * N], ref[3 * N], out[3 * N];
    uint32_t seed = 42;
    for (int i = 0; i < 3 * N; i++) {
        a[i] = (float)lcg(&seed) / (1 << 23) - 1.0f;
        b[i] = (float)lcg(&seed) / (1 << 23) - 1.0f;
    }
    const float ws[] = {0.0f, 0.1f, 0.5f, 0.9f, 1.0f, -0.5f, 1.5f};
    for (size_t k = 0; k < sizeof ws / sizeof ws[0]; k++) {
        mk_blend_normals_scalar(ref, a, b, ws[k], N);
        mk_blend_normals(out, a, b, ws[k], N);
        float worst = 0;
        for (int i = 0; i < 3 * N; i++)
            worst = fmaxf(worst, fabsf(out[i] - ref[i]));
        CHECK(worst <= 2e-7f);
        /* and the reference itself is unit length */
        for (int i = 0; i < N; i++) {
            float l = sqrtf(ref[3 * i] * ref[3 * i] + ref[3 * i + 1] * ref[3 * i + 1] +
                            ref[3 * i + 2] * ref[3 * i + 2]);
            CHECK_NEAR(l, 1.0, 1e-6);
        }
        mk_blend_positions_scalar(ref, a, b, ws[k], N);
        mk_blend_positions(out, a, b, ws[k], N);
        CHECK(memcmp(out, ref, sizeof ref) == 0);
    }
    CHECK(strcmp(mk_blend_kernel_name(), "scalar") == 0 ||
          strcmp(mk_blend_kernel_name(), "sse2") == 0 ||
          strcmp(mk_blend_kernel_name(), "avx2") == 0 ||
          strcmp(mk_blend_kernel_name(), "avx512") == 0);
}

static void test_blend_in_place_and_frames(void)
{
    mk_frame_set_desc d = {2, 2, 3, true, false};
    mk_frame_set *s;
    mk_error e;
    CHECK(mk_frame_set_create(&d, NULL, &s, &e) == MK_OK);
    const float p0[6] = {0, 0, 0, 10, 0, 0}, p1[6] = {0, 4, 0, 10, 8, 0};
    const float n0[6] = {0, 0, 1, 0, 0, 1}, n1[6] = {0, 1, 0, 0, 1, 0};
    memcpy(mk_frame_set_positions_to_fill(s, 0), p0, sizeof p0);
    memcpy(mk_frame_set_positions_to_fill(s, 1), p1, sizeof p1);
    memcpy(mk_frame_set_normals_to_fill(s, 0), n0, sizeof n0);
    memcpy(mk_frame_set_normals_to_fill(s, 1), n1, sizeof n1);
    float pos[6], nrm[6];
    CHECK(mk_blend_frames(s, 0, 1, 0.75f, pos, nrm, s->vertex_count, NULL) == MK_OK);
    CHECK(pos[1] == 3 && pos[3] == 10 && pos[4] == 6);
    /* (0, 0.75, 0.25) normalized */
    CHECK_NEAR(nrm[1], 0.75 / sqrt(0.625), 1e-6);
    CHECK_NEAR(nrm[2], 0.25 / sqrt(0.625), 1e-6);
    /* normals skipped */
    CHECK(mk_blend_frames(s, 0, 1, 0.5f, pos, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK(pos[4] == 4);
    float inplace[6];
    memcpy(inplace, p0, sizeof p0);
    mk_blend_positions(inplace, inplace, p1, 0.5f, 2);
    CHECK(inplace[1] == 2 && inplace[4] == 4);
    mk_frame_set_destroy(s);
}

/* Misuse is answered in every build type (this file is built with NDEBUG in
 * RelWithDebInfo too): an error, and not one float written. */
static void test_blend_frames_rejects_misuse(void)
{
    mk_frame_set_desc d = {2, 2, 0, true, false};
    mk_frame_set *s = NULL;
    mk_error err;
    CHECK(mk_frame_set_create(&d, NULL, &s, &err) == MK_OK);
    if (!s)
        return;
    float pos[6], nrm[6];
    for (int i = 0; i < 6; i++)
        pos[i] = nrm[i] = 42.0f;
    CHECK(mk_blend_frames(s, 2, 0, 0.5f, pos, nrm, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "frame");
    CHECK(mk_blend_frames(s, 0, 7, 0.5f, pos, nrm, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_frames(s, 0, 1, NAN, pos, nrm, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_frames(s, 0, 1, INFINITY, pos, nrm, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_frames(s, 0, 1, 0.5f, pos, nrm, 1, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "holds 1 vertices");
    CHECK(mk_blend_frames(NULL, 0, 1, 0.5f, pos, nrm, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_frames(s, 0, 1, 0.5f, NULL, nrm, 2, NULL) == MK_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 6; i++)
        CHECK(pos[i] == 42.0f && nrm[i] == 42.0f);
    CHECK(mk_blend_frames(s, 0, 1, 0.5f, pos, nrm, 2, &err) == MK_OK);
    CHECK(pos[0] == 0.0f);
    /* the const accessors answer NULL out of range instead of reading past */
    CHECK(mk_frame_set_positions(s, 2) == NULL && mk_frame_set_normals(s, 2) == NULL);
    CHECK(mk_frame_set_positions(NULL, 0) == NULL);
    CHECK(mk_frame_set_validate(NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_frame_set_positions_to_fill(s, 1) == s->positions + 6);
    mk_frame_set_destroy(s);
}

/* ---- the single-block layout cursor ---------------------------------------- */

static void test_block_offsets(void)
{
    counting c = {0, 0, 0};
    mk_allocator a = {count_alloc, NULL, count_free, &c};
    mk_block b;
    /* head 20; 3 x 4 bytes at 32 (44); 1 byte at 48 (49); 0 bytes at 64 (64) */
    mk_block_begin(&b, 20);
    CHECK(mk_block_take(&b, 3, 4) == NULL); /* sizing pass: no pointers */
    CHECK(mk_block_take(&b, 1, 1) == NULL);
    CHECK(mk_block_take(&b, 0, 8) == NULL);
    CHECK_EQ_INT(mk_block_size(&b), 64);
    void *block = NULL;
    mk_error e;
    CHECK(mk_block_alloc(&b, &a, "thing", &block, &e) == MK_OK);
    CHECK(block != NULL && c.blocks == 1 && c.bytes == 64);
    unsigned char *base = block;
    CHECK(base[0] == 0 && base[63] == 0); /* zeroed */
    CHECK(mk_block_take(&b, 3, 4) == base + 32);
    CHECK(mk_block_take(&b, 1, 1) == base + 48);
    CHECK(mk_block_take(&b, 0, 8) == base + 64);
    CHECK_EQ_INT(mk_block_size(&b), 64); /* the filling pass ends where sizing did */
    count_free(&c, block, 64);
    CHECK_EQ_INT(c.blocks, 0);
    CHECK_EQ_INT(c.size_mismatch, 0);
}

static void test_block_overflow_and_oom(void)
{
    counting c = {0, 0, 0};
    mk_allocator a = {count_alloc, NULL, count_free, &c};
    mk_block b;
    mk_error e;
    void *block = (void *)1;
    /* count * elem overflows */
    mk_block_begin(&b, 16);
    mk_block_take(&b, SIZE_MAX / 2, 4);
    CHECK_EQ_INT(mk_block_size(&b), 0);
    mk_block_take(&b, 1, 1); /* sticky */
    CHECK_EQ_INT(mk_block_size(&b), 0);
    CHECK(mk_block_alloc(&b, &a, "thing", &block, &e) == MK_ERR_LIMIT);
    CHECK(block == NULL && c.blocks == 0);
    CHECK_CONTAINS(e.message, "thing: size overflows");
    /* each product fits, the running sum does not */
    mk_block_begin(&b, 16);
    mk_block_take(&b, SIZE_MAX / 2, 1);
    CHECK(mk_block_size(&b) != 0);
    mk_block_take(&b, SIZE_MAX / 2, 1);
    CHECK_EQ_INT(mk_block_size(&b), 0);
    /* aligning the end past SIZE_MAX */
    mk_block_begin(&b, SIZE_MAX - 3);
    mk_block_take(&b, 0, 1);
    CHECK_EQ_INT(mk_block_size(&b), 0);
    /* a fitting size the allocator refuses (count_alloc fails above 1 GiB) */
    mk_block_begin(&b, 16);
    mk_block_take(&b, (size_t)1 << 31, 1);
    CHECK(mk_block_alloc(&b, &a, "thing", &block, &e) == MK_ERR_OUT_OF_MEMORY);
    CHECK(block == NULL && c.blocks == 0);

    /* through the public create functions: huge counts give MK_ERR_LIMIT, 0 */
    mk_track_desc t = {MK_TRACK_WEIGHTS, MK_INTERPOLATION_CUBICSPLINE, 0, UINT32_MAX,
                       UINT32_MAX / 3u};
    mk_track_clip *clip = (mk_track_clip *)1;
    CHECK(mk_track_clip_create(&t, 1, &a, &clip, &e) == MK_ERR_LIMIT);
    CHECK(clip == NULL && c.blocks == 0);
    mk_frame_set_desc fd = {UINT32_MAX, UINT32_MAX, 3, true, false};
    CHECK(mk_frame_set_byte_size(&fd) == 0);
    mk_frame_set *fs = (mk_frame_set *)1;
    CHECK(mk_frame_set_create(&fd, &a, &fs, &e) == MK_ERR_LIMIT && fs == NULL);
    CHECK_EQ_INT(c.blocks, 0);
}

MK_TEST_MAIN(MK_TEST(test_error_format), MK_TEST(test_frame_set_layout),
             MK_TEST(test_frame_set_bad_sizes), MK_TEST(test_mesh),
             MK_TEST(test_blend_positions_hand_values), MK_TEST(test_blend_normals_hand_values),
             MK_TEST(test_blend_variants_match_reference), MK_TEST(test_blend_in_place_and_frames),
             MK_TEST(test_blend_frames_rejects_misuse), MK_TEST(test_block_offsets),
             MK_TEST(test_block_overflow_and_oom))
