/* Generated animations for the vertex-order tests and bench: a waving grid,
 * a pulsing sphere and a bending limb, as frames of float3 positions over
 * one triangle list, plus faults (scramble, renumbering) made from them.
 * Header-only so a test and a bench can share it. */
#ifndef MK_VORDER_GEN_H
#define MK_VORDER_GEN_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen_anim {
    uint32_t vertex_count, triangle_count, frame_count;
    float **frames;      /* frame_count x vertex_count float3 */
    uint32_t *triangles; /* 3 per triangle */
} gen_anim;

typedef enum gen_shape { GEN_GRID, GEN_SPHERE, GEN_LIMB } gen_shape;

static inline uint32_t gen_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static inline void gen_alloc(gen_anim *a, uint32_t verts, uint32_t tris, uint32_t frames)
{
    a->vertex_count = verts;
    a->triangle_count = tris;
    a->frame_count = frames;
    a->frames = calloc(frames, sizeof *a->frames);
    for (uint32_t f = 0; f < frames; f++)
        a->frames[f] = calloc(3 * (size_t)verts, sizeof(float));
    a->triangles = calloc(3 * (size_t)tris, sizeof(uint32_t));
}

static inline void gen_free(gen_anim *a)
{
    for (uint32_t f = 0; f < a->frame_count; f++)
        free(a->frames[f]);
    free(a->frames);
    free(a->triangles);
}

/* A (w x h)-vertex sheet made of quads split in two, as rows of `cols`. */
static inline void gen_quads(gen_anim *a, uint32_t w, uint32_t h, int wrap_x)
{
    uint32_t t = 0, cols = wrap_x ? w : w - 1;
    for (uint32_t y = 0; y + 1 < h; y++)
        for (uint32_t x = 0; x < cols; x++) {
            uint32_t x1 = (x + 1) % w;
            uint32_t p = y * w + x, q = y * w + x1, r = (y + 1) * w + x1, s = (y + 1) * w + x;
            uint32_t *T = a->triangles + 6 * (size_t)t++;
            T[0] = p, T[1] = q, T[2] = r, T[3] = p, T[4] = r, T[5] = s;
        }
}

/* motion: 1 = gentle, larger = faster (per-frame change grows with it) */
static inline void gen_make(gen_anim *a, gen_shape shape, uint32_t n, uint32_t frames, float motion)
{
    if (shape == GEN_GRID) { /* n x n, a travelling wave and a slide */
        gen_alloc(a, n * n, 2 * (n - 1) * (n - 1), frames);
        gen_quads(a, n, n, 0);
        for (uint32_t f = 0; f < frames; f++)
            for (uint32_t i = 0; i < n * n; i++) {
                float x = (float)(i % n) / (float)(n - 1), y = (float)(i / n) / (float)(n - 1);
                float ph = 0.6f * motion * (float)f;
                float *p = a->frames[f] + 3 * (size_t)i;
                p[0] = x + 0.05f * motion * (float)f;
                p[1] = y;
                p[2] = 0.15f * sinf(6.0f * x + ph) * cosf(4.0f * y - ph);
            }
    } else if (shape == GEN_SPHERE) { /* n rings x 2n segments, squashing */
        uint32_t seg = 2 * n;
        gen_alloc(a, n * seg, 2 * seg * (n - 1), frames);
        gen_quads(a, seg, n, 1);
        for (uint32_t f = 0; f < frames; f++) {
            float squash = 1.0f + 0.25f * motion * sinf(0.9f * (float)f);
            for (uint32_t i = 0; i < n * seg; i++) {
                float th = 3.14159265f * ((float)(i / seg) + 0.5f) / (float)n;
                float ph = 6.2831853f * (float)(i % seg) / (float)seg;
                float *p = a->frames[f] + 3 * (size_t)i;
                p[0] = sinf(th) * cosf(ph) / sqrtf(squash);
                p[1] = sinf(th) * sinf(ph) / sqrtf(squash);
                p[2] = cosf(th) * squash + 0.1f * motion * (float)f;
            }
        }
    } else { /* a tube of n rings x 12 along x, bending at the middle */
        uint32_t seg = 12;
        gen_alloc(a, n * seg, 2 * seg * (n - 1), frames);
        gen_quads(a, seg, n, 1);
        for (uint32_t f = 0; f < frames; f++) {
            float bend = 0.35f * motion * (float)f; /* radians at the joint */
            for (uint32_t i = 0; i < n * seg; i++) {
                float x = 4.0f * (float)(i / seg) / (float)(n - 1) - 2.0f;
                float ang = 6.2831853f * (float)(i % seg) / (float)seg;
                float y = 0.3f * cosf(ang), z = 0.3f * sinf(ang);
                /* smooth weight of the bend around x = 0 */
                float w = x < -0.4f ? 0.0f : x > 0.4f ? 1.0f : (x + 0.4f) / 0.8f;
                float c = cosf(bend * w), s = sinf(bend * w);
                float *p = a->frames[f] + 3 * (size_t)i;
                p[0] = x * c - y * s;
                p[1] = x * s + y * c;
                p[2] = z;
            }
        }
    }
}

/* Shuffles the positions of `count` vertices of one frame (a derangement:
 * every chosen vertex gets another chosen vertex's position). Writes the
 * chosen vertices to chosen (when not NULL). */
static inline void gen_scramble(gen_anim *a, uint32_t frame, uint32_t count, uint64_t seed, uint32_t *chosen)
{
    uint32_t n = a->vertex_count;
    uint32_t *idx = malloc(n * sizeof *idx);
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    for (uint32_t i = 0; i < count; i++) { /* partial Fisher-Yates */
        uint32_t j = i + gen_rand(&seed) % (n - i), t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    float *p = a->frames[frame], *old = malloc(3 * (size_t)n * sizeof *old);
    memcpy(old, p, 3 * (size_t)n * sizeof *old);
    for (uint32_t i = 0; i < count; i++) /* a cycle through the chosen ones */
        memcpy(p + 3 * (size_t)idx[i], old + 3 * (size_t)idx[(i + 1) % count], 3 * sizeof(float));
    if (chosen)
        memcpy(chosen, idx, count * sizeof *idx);
    free(old);
    free(idx);
}

/* A random permutation of 0..n-1. */
static inline uint32_t *gen_permutation(uint32_t n, uint64_t seed)
{
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = gen_rand(&seed) % i, t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    return p;
}

/* OBJ text of one frame. When perm is not NULL the frame is renumbered:
 * new vertex perm[i] holds old vertex i, the faces follow, and the face
 * order and each face's starting corner change too. flags: GEN_NORMALS
 * writes one `vn` per vertex (the direction from the origin), GEN_UVS one
 * `vt` per vertex (from its original index, so UVs follow the vertex);
 * corners are v, v/vt, v//vn or v/vt/vn accordingly. */
enum { GEN_NORMALS = 1, GEN_UVS = 2 };
static inline char *gen_obj(const gen_anim *a, uint32_t frame, const uint32_t *perm, int flags)
{
    size_t cap = 128 * ((size_t)a->vertex_count * 3 + a->triangle_count) + 64, n = 0;
    char *s = malloc(cap);
    uint32_t nv = a->vertex_count;
    float *pos = malloc(3 * (size_t)nv * sizeof *pos), *uv = malloc(2 * (size_t)nv * sizeof *uv);
    for (uint32_t i = 0; i < nv; i++) {
        uint32_t j = perm ? perm[i] : i;
        memcpy(pos + 3 * (size_t)j, a->frames[frame] + 3 * (size_t)i, 12);
        uv[2 * j] = (float)(i % 61) / 61.0f;
        uv[2 * j + 1] = (float)(i / 61) / (float)(nv / 61 + 1);
    }
    n += (size_t)snprintf(s + n, cap - n, "# generated frame %u\no mesh\n", frame);
    for (uint32_t i = 0; i < nv; i++)
        n += (size_t)snprintf(s + n, cap - n, "v %.9g %.9g %.9g\n", pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
    for (uint32_t i = 0; (flags & GEN_UVS) && i < nv; i++)
        n += (size_t)snprintf(s + n, cap - n, "vt %.9g %.9g\n", uv[2 * i], uv[2 * i + 1]);
    for (uint32_t i = 0; (flags & GEN_NORMALS) && i < nv; i++) {
        const float *p = pos + 3 * (size_t)i;
        float l = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) + 1e-6f;
        n += (size_t)snprintf(s + n, cap - n, "vn %.6f %.6f %.6f\n", p[0] / l, p[1] / l, p[2] / l + 1e-3f);
    }
    for (uint32_t k = 0; k < a->triangle_count; k++) {
        uint32_t t = perm ? a->triangle_count - 1 - k : k, r = perm ? k % 3 : 0;
        n += (size_t)snprintf(s + n, cap - n, "f");
        for (int j = 0; j < 3; j++) {
            uint32_t v = a->triangles[3 * (size_t)t + (j + r) % 3];
            uint32_t c = (perm ? perm[v] : v) + 1;
            if ((flags & GEN_UVS) && (flags & GEN_NORMALS))
                n += (size_t)snprintf(s + n, cap - n, " %u/%u/%u", c, c, c);
            else if (flags & GEN_UVS)
                n += (size_t)snprintf(s + n, cap - n, " %u/%u", c, c);
            else if (flags & GEN_NORMALS)
                n += (size_t)snprintf(s + n, cap - n, " %u//%u", c, c);
            else
                n += (size_t)snprintf(s + n, cap - n, " %u", c);
        }
        n += (size_t)snprintf(s + n, cap - n, "\n");
    }
    free(pos);
    free(uv);
    return s;
}

#endif
