/* Unit packer: the mesh - base attributes, one morph target per distinct
 * frame, the `v` / `vn` maps - plain (float, dense) or quantized with
 * sparse targets (pack.h describes both).
 *
 * Every error the stats report is measured with the reader's own
 * arithmetic (mk_pack_dequantize, the glTF reader's normalized-integer
 * decoding, mk_pack_normalize3), so it is the error a morphkit reader gets. */
#include <math.h>
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack_internal.h"

typedef struct mesh_ctx {
    mk_pack_writer *w;
    const mk_unit *u;
    const mk_frame_set *s;
    uint32_t n;
    uint32_t base;      /* the frame written as the base pose */
    bool plain;
    bool qpos;          /* positions on the integer grid */
    float origin[3], step;
    uint32_t bits;
    float nmax;         /* normals: 127 or 32767 (plain: 0) */
    uint8_t *bytes;     /* encoding scratch */
    size_t bytes_size;
    int32_t *qa, *qb;   /* qa: 2 n 3 (base normal grid, then scratch), qb: n 3 */
    int32_t *qp;        /* n 3: a target's parent frame on the grid */
    float *fa, *fb;     /* n * 3 each */
    uint8_t *used;      /* n: a face uses the vertex */
    bool failed;        /* out of memory while encoding */
    bool compress;      /* the views will be meshopt-compressed */
    bool no_texcoords;  /* leave the texture coordinates out */
    bool normal_targets; /* the targets carry NORMAL deltas (some normal moves) */
    bool flat;          /* no normals stored: the reader computes them (pack_flat.c) */
    uint8_t *turns;     /* compressed: per triangle (primitives in order), how far
                           meshopt's triangle codec turns its corners (0-2) */
    uint32_t turned;    /* triangles written so far; any turn: turns are kept */
    bool any_turn;
    mk_pack_stats *st;
} mesh_ctx;

/* The delta d with base + d == frame exactly in float when one is near
 * F - B (almost always: within a few ulps), so readers that add it back
 * (morphkit, and a viewer at weight 1) get the frame bit for bit. */
static float exact_delta(float base, float frame)
{
    float d = frame - base;
    if (base + d == frame)
        return d;
    float up = d, down = d;
    for (int i = 0; i < 4; i++) {
        up = nextafterf(up, INFINITY);
        down = nextafterf(down, -INFINITY);
        if (base + up == frame)
            return up;
        if (base + down == frame)
            return down;
    }
    return d;
}

/* glTF wants unit normals: a zero normal (a `v` no face uses, a degenerate
 * `vn`) is written as +Z; the reader restores zeros where no face reaches. */
static void fix_normal(const float *in, float *out)
{
    if (in[0] == 0.0f && in[1] == 0.0f && in[2] == 0.0f) {
        out[0] = out[1] = 0.0f;
        out[2] = 1.0f;
    } else {
        memcpy(out, in, 3 * sizeof(float));
    }
}

/* What the glTF reader makes of a normalized signed integer (§3.11). */
static float snorm(int32_t q, float max)
{
    float x = (float)q / max;
    return x < -1.0f ? -1.0f : x;
}

static uint32_t component_size(uint32_t ct)
{
    return ct == MK_PACK_BYTE || ct == MK_PACK_UNSIGNED_BYTE    ? 1
           : ct == MK_PACK_SHORT || ct == MK_PACK_UNSIGNED_SHORT ? 2
                                                                 : 4;
}

static void put_component(uint8_t *dst, uint32_t ct, int32_t i, float f)
{
    switch (component_size(ct)) {
    case 1:
        dst[0] = (uint8_t)i;
        break;
    case 2:
        dst[0] = (uint8_t)i;
        dst[1] = (uint8_t)((uint32_t)i >> 8);
        break;
    default:
        memcpy(dst, &f, 4);
        break;
    }
}

static bool ensure_bytes(mesh_ctx *m, size_t n)
{
    if (n <= m->bytes_size)
        return true;
    uint8_t *p = mk_realloc(m->w->allocator, m->bytes, m->bytes_size, n);
    if (!p) {
        m->failed = true;
        return false;
    }
    m->bytes = p;
    m->bytes_size = n;
    return true;
}

static const char *type_name(uint32_t comps)
{
    return comps == 1 ? "SCALAR" : comps == 2 ? "VEC2" : "VEC3";
}

/* Writes one vertex attribute of comps components per vertex: integers iv
 * (component type ct, normalized or not) or floats fv (ct FLOAT). With
 * sparse_ok it is written sparse when that is smaller (or with no data when
 * all zero); bounds adds min/max. Returns the accessor, MK_NONE for out of
 * memory. */
static uint32_t put_attr(mesh_ctx *m, uint32_t kind, const int32_t *iv, const float *fv,
                         uint32_t comps, uint32_t ct, bool normalized, bool sparse_ok, bool bounds)
{
    const uint32_t n = m->n, csize = component_size(ct), esize = comps * csize;
    const uint32_t stride = (esize + 3) & ~3u;
    double min[3], max[3];
    uint32_t nnz = 0;
    for (uint32_t c = 0; c < comps; c++) {
        min[c] = HUGE_VAL;
        max[c] = -HUGE_VAL;
    }
    for (uint32_t v = 0; v < n; v++) {
        bool nz = false;
        for (uint32_t c = 0; c < comps; c++) {
            double x = iv ? (double)iv[comps * (size_t)v + c] : (double)fv[comps * (size_t)v + c];
            min[c] = x < min[c] ? x : min[c];
            max[c] = x > max[c] ? x : max[c];
            nz |= x != 0.0;
        }
        nnz += nz;
    }
    const uint32_t itype = n <= 65536 ? MK_PACK_UNSIGNED_SHORT : MK_PACK_UNSIGNED_INT;
    const size_t isize = itype == MK_PACK_UNSIGNED_SHORT ? 2 : 4;
    /* sparse: its data (+ padding) and the "sparse" JSON object, about 80
     * bytes more than a dense accessor's */
    const size_t dense = (size_t)n * stride, sparse = (size_t)nnz * (isize + esize) + 3 + 80;
    mk_pack_accessor a = {MK_NONE, 0, ct, normalized, n, type_name(comps), comps,
                          bounds ? min : NULL, bounds ? max : NULL, 0, 0, 0, 0, 0, 0};
    const uint32_t sparse_kind =
        kind == MK_PACK_KIND_NORMAL ? MK_PACK_KIND_SPARSE_NORMAL : MK_PACK_KIND_SPARSE_POSITION;
    /* compressed, runs of zeros cost next to nothing while sparse indices
     * do not, and a sparse accessor's two views carry the extension's JSON
     * (about 400 bytes): then sparse only when it is far smaller (at 3x the
     * limb of bench_pack, one moving limb, was 5% larger; at 6x the demo
     * units and the sphere do not change) */
    if (sparse_ok &&
        (nnz == 0 || (m->compress ? 6 * (sparse + 400) < dense : sparse < dense))) {
        if (nnz) {
            if (!ensure_bytes(m, (size_t)nnz * (isize > esize ? isize : esize)))
                return MK_NONE;
            uint32_t k = 0;
            for (uint32_t v = 0; v < n; v++) {
                bool nz = false;
                for (uint32_t c = 0; c < comps; c++)
                    nz |= iv ? iv[comps * (size_t)v + c] != 0 : fv[comps * (size_t)v + c] != 0.0f;
                if (nz)
                    put_component(m->bytes + isize * k++, (uint32_t)itype, (int32_t)v, 0.0f);
            }
            a.sparse_indices_view =
                mk_pack_add_view(m->w, MK_PACK_KIND_SPARSE_INDEX, m->bytes, isize * nnz, 0, 0,
                                 (uint32_t)isize, &a.sparse_indices_offset);
            k = 0;
            for (uint32_t v = 0; v < n; v++) {
                bool nz = false;
                for (uint32_t c = 0; c < comps; c++)
                    nz |= iv ? iv[comps * (size_t)v + c] != 0 : fv[comps * (size_t)v + c] != 0.0f;
                if (!nz)
                    continue;
                for (uint32_t c = 0; c < comps; c++) {
                    size_t i = comps * (size_t)v + c;
                    put_component(m->bytes + esize * (size_t)k + csize * c, ct, iv ? iv[i] : 0,
                                  fv ? fv[i] : 0.0f);
                }
                k++;
            }
            a.sparse_values_view = mk_pack_add_view(m->w, sparse_kind, m->bytes,
                                                    (size_t)esize * nnz, 0, 0, esize,
                                                    &a.sparse_values_offset);
            a.sparse_count = nnz;
            a.sparse_index_type = itype;
        }
        m->st->sparse_count++;
        return mk_pack_add_accessor(m->w, &a);
    }
    if (!ensure_bytes(m, dense))
        return MK_NONE;
    memset(m->bytes, 0, dense);
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t c = 0; c < comps; c++) {
            size_t i = comps * (size_t)v + c;
            put_component(m->bytes + (size_t)stride * v + csize * c, ct, iv ? iv[i] : 0,
                          fv ? fv[i] : 0.0f);
        }
    /* byteStride always: views are shared by accessors (glTF then requires it) */
    a.view = mk_pack_add_view(m->w, kind, m->bytes, dense, stride,
                              MK_PACK_ARRAY_BUFFER, stride, &a.byte_offset);
    return mk_pack_add_accessor(m->w, &a);
}

/* ---- positions --------------------------------------------------------------- */

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The unit's size as unit.h defines it: the median of the frames' bounding
 * box diagonals (the upper one for an even count). */
static double unit_size(mesh_ctx *m)
{
    const mk_frame_set *s = m->s;
    double *d = mk_alloc(m->w->allocator, s->frame_count * sizeof *d);
    if (!d) {
        m->failed = true;
        return 0;
    }
    for (uint32_t f = 0; f < s->frame_count; f++) {
        const float *p = mk_frame_set_positions(s, f);
        float lo[3] = {p[0], p[1], p[2]}, hi[3] = {p[0], p[1], p[2]};
        for (size_t i = 0; i < 3 * (size_t)s->vertex_count; i++) {
            lo[i % 3] = p[i] < lo[i % 3] ? p[i] : lo[i % 3];
            hi[i % 3] = p[i] > hi[i % 3] ? p[i] : hi[i % 3];
        }
        double d2 = 0;
        for (int c = 0; c < 3; c++)
            d2 += ((double)hi[c] - lo[c]) * ((double)hi[c] - lo[c]);
        d[f] = sqrt(d2);
    }
    qsort(d, s->frame_count, sizeof *d, compare_double);
    double size = d[s->frame_count / 2];
    mk_free(m->w->allocator, d, s->frame_count * sizeof *d);
    return size;
}

/* Picks the grid over the bounding box of all frames. By default its step
 * is just under twice the error bound (rounding to the nearest grid value
 * errs by at most half a step), however many values the largest extent E
 * then needs, and bits is the fewest that hold them: a grid of 2^bits - 1
 * steps over E would be up to twice as fine as the bound asks, which costs
 * bytes (about half a bit per value) and buys nothing the user asked for.
 * With position_bits given, E is cut into 2^bits - 1 steps. */
static void choose_grid(mesh_ctx *m, const mk_pack_options *o)
{
    const mk_frame_set *s = m->s;
    const float *p = s->positions;
    float lo[3], hi[3];
    for (int c = 0; c < 3; c++)
        lo[c] = hi[c] = p[c];
    for (size_t i = 0; i < (size_t)s->frame_count * s->vertex_count; i++)
        for (int c = 0; c < 3; c++) {
            float x = p[3 * i + c];
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    double extent = 0;
    for (int c = 0; c < 3; c++) {
        double e = (double)hi[c] - (double)lo[c];
        extent = e > extent ? e : extent;
        m->origin[c] = lo[c];
    }
    m->st->unit_size = unit_size(m);
    if (m->plain)
        return;
    double bound = (o && o->max_position_error > 0 ? o->max_position_error : 1e-4) * m->st->unit_size;
    uint32_t bits = o ? o->position_bits : 0;
    float step;
    if (bits) {
        step = (float)(extent / ((1u << bits) - 1));
        if ((double)step * ((1u << bits) - 1) < extent)
            step = nextafterf(step, INFINITY);
    } else {
        /* 1% under twice the bound: room for the reader's float arithmetic */
        step = (float)(2.0 * bound * 0.99);
        double values = step > 0 ? ceil(extent / step) : INFINITY;
        for (uint32_t b = 1; !bits && b <= 15; b++)
            if (values <= (double)((1u << b) - 1))
                bits = b;
        if (!bits)
            return; /* 15 bits cannot hold the grid: float positions */
    }
    m->qpos = true;
    m->bits = bits;
    m->step = extent > 0 ? step : 1.0f;
}

static void quantize_positions(const mesh_ctx *m, uint32_t frame, int32_t *q)
{
    const float *p = mk_frame_set_positions(m->s, frame);
    const double top = (double)((1u << m->bits) - 1);
    for (size_t i = 0; i < 3 * (size_t)m->n; i++) {
        double x = floor(((double)p[i] - m->origin[i % 3]) / m->step + 0.5);
        q[i] = (int32_t)(x < 0 ? 0 : x > top ? top : x);
    }
}

/* Largest |read back - frame| of frame f's positions given its grid values q. */
static double position_error(const mesh_ctx *m, uint32_t f, const int32_t *q, const float *fl)
{
    const float *p = mk_frame_set_positions(m->s, f);
    double e = 0;
    for (size_t i = 0; i < 3 * (size_t)m->n; i++) {
        float r = q ? mk_pack_dequantize(m->origin[i % 3], m->step, (float)q[i]) : fl[i];
        double d = fabs((double)r - (double)p[i]);
        e = d > e ? d : e;
    }
    return e;
}

/* ---- normals ------------------------------------------------------------------- */

/* m->used: the vertices a face uses (the only ones whose normals count). */
static void mark_used(mesh_ctx *m)
{
    memset(m->used, 0, m->n);
    for (uint32_t i = 0; i < m->s->index_count; i++)
        m->used[m->s->indices[i]] = 1;
}

/* Largest distance |a - b| between frame f's normals and the flat normals
 * a reader computes (pack_flat.c) from the positions it reads back (flat:
 * m->fa, positions: m->fb), over the vertices a face uses, and between each
 * triangle's own normal, which a viewer shades it with, and its corners'
 * normals (a zero-area triangle shows nothing and is skipped). *component:
 * the largest difference in one component of the reader's normals. */
static double flat_error(mesh_ctx *m, uint32_t f, double *component)
{
    const mk_frame_set *s = m->s;
    const float *nf = mk_frame_set_normals(s, f);
    const size_t n3 = 3 * (size_t)m->n;
    if (m->qpos) {
        quantize_positions(m, f, m->qa);
        for (size_t i = 0; i < n3; i++)
            m->fb[i] = mk_pack_dequantize(m->origin[i % 3], m->step, (float)m->qa[i]);
    } else { /* float deltas read back as the frame (exact_delta), to a rounding */
        memcpy(m->fb, mk_frame_set_positions(s, f), n3 * sizeof(float));
    }
    mk_pack_flat_normals(m->fb, s->indices, s->index_count, m->n, m->fa, (float *)(void *)m->qa);
    double e = 0, ec = 0;
    for (uint32_t v = 0; v < m->n; v++) {
        if (!m->used[v])
            continue;
        double d2 = 0;
        for (int c = 0; c < 3; c++) {
            double d = fabs((double)m->fa[3 * (size_t)v + c] - (double)nf[3 * (size_t)v + c]);
            ec = d > ec ? d : ec;
            d2 += d * d;
        }
        e = d2 > e * e ? sqrt(d2) : e;
    }
    *component = ec > *component ? ec : *component;
    for (uint32_t i = 0; i + 2 < s->index_count; i += 3) {
        const float *a = m->fb + 3 * (size_t)s->indices[i], *b = m->fb + 3 * (size_t)s->indices[i + 1],
                    *c = m->fb + 3 * (size_t)s->indices[i + 2];
        const double u[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
        const double w[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
        double x[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        double len = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        if (!(len > 0))
            continue;
        for (int k = 0; k < 3; k++) {
            const float *nv = nf + 3 * (size_t)s->indices[i + k];
            double d2 = 0;
            for (int c3 = 0; c3 < 3; c3++)
                d2 += (x[c3] / len - (double)nv[c3]) * (x[c3] / len - (double)nv[c3]);
            e = d2 > e * e ? sqrt(d2) : e;
        }
    }
    return e;
}

static void quantize_normals(const mesh_ctx *m, uint32_t frame, int32_t *q)
{
    const float *nf = mk_frame_set_normals(m->s, frame);
    for (uint32_t v = 0; v < m->n; v++) {
        float a[3];
        fix_normal(nf + 3 * (size_t)v, a);
        for (int c = 0; c < 3; c++)
            q[3 * (size_t)v + c] = (int32_t)lroundf(a[c] * m->nmax);
    }
}

/* Largest |read back - frame| of frame f's normals (reader: base + delta,
 * normalized when quantized), over the vertices a face uses. */
static double normal_error(const mesh_ctx *m, uint32_t f, const float *base, const float *delta)
{
    const float *nf = mk_frame_set_normals(m->s, f);
    double e = 0;
    for (uint32_t v = 0; v < m->n; v++) {
        if (!m->used[v])
            continue;
        float r[3];
        for (int c = 0; c < 3; c++)
            r[c] = base[3 * (size_t)v + c] + (delta ? delta[3 * (size_t)v + c] : 0.0f);
        if (!m->plain)
            mk_pack_normalize3(r);
        for (int c = 0; c < 3; c++) {
            double d = fabs((double)r[c] - (double)nf[3 * (size_t)v + c]);
            e = d > e ? d : e;
        }
    }
    return e;
}

/* ---- the mesh ------------------------------------------------------------------------ */

typedef struct mesh_ids {
    uint32_t position, normal, texcoord;
} mesh_ids;

/* Writes x (cs bytes, little-endian) at d. */
static void put_uint(uint8_t *d, uint32_t cs, uint32_t x)
{
    for (uint32_t b = 0; b < cs; b++)
        d[b] = (uint8_t)(x >> (8 * b));
}

/* A map of count numbers (MK_NONE: the type's largest code; the type the
 * narrowest that holds top and that code). With the writer's map_deltas
 * (version 4) entry i holds (x_i - i) modulo the type's range, so a map
 * that is mostly the identity is mostly zeros: those are written sparse
 * (the entries that are not zero) when that is smaller, except under
 * --compress, where runs of zeros already cost next to nothing. */
static uint32_t put_map(mesh_ctx *m, const uint32_t *values, uint32_t count, uint32_t top)
{
#define MK_MAP_ENTRY(i) (((values[i] == MK_NONE ? none : values[i]) - rel * (i)) & none)
    const uint32_t ct = top < 255 ? MK_PACK_UNSIGNED_BYTE
                        : top < 65535 ? MK_PACK_UNSIGNED_SHORT
                                      : MK_PACK_UNSIGNED_INT;
    const uint32_t cs = component_size(ct);
    const uint32_t none = ct == MK_PACK_UNSIGNED_BYTE    ? 255u
                          : ct == MK_PACK_UNSIGNED_SHORT ? 65535u
                                                         : UINT32_MAX;
    const uint32_t rel = m->w->map_deltas ? 1 : 0; /* subtract i, or not */
    uint32_t nnz = 0;
    for (uint32_t i = 0; i < count; i++)
        nnz += MK_MAP_ENTRY(i) != 0;
    const uint32_t itype = count <= 256 ? MK_PACK_UNSIGNED_BYTE
                           : count <= 65536 ? MK_PACK_UNSIGNED_SHORT
                                            : MK_PACK_UNSIGNED_INT;
    const uint32_t isize = component_size(itype);
    mk_pack_accessor a = {MK_NONE, 0, ct, false, count, "SCALAR", 1, NULL, NULL, 0, 0, 0, 0, 0, 0};
    /* a sparse object costs about 80 bytes of JSON more than a dense one */
    const bool sparse = rel && !m->compress && (size_t)nnz * (isize + cs) + 80 < (size_t)count * cs;
    if (!ensure_bytes(m, sparse ? (size_t)nnz * (isize > cs ? isize : cs) : (size_t)count * cs)) {
        m->failed = true;
        return MK_NONE;
    }
    if (sparse) {
        if (nnz) {
            uint32_t k = 0;
            for (uint32_t i = 0; i < count; i++)
                if (MK_MAP_ENTRY(i) != 0)
                    put_uint(m->bytes + (size_t)isize * k++, isize, i);
            a.sparse_indices_view = mk_pack_add_view(m->w, MK_PACK_KIND_SPARSE_INDEX, m->bytes,
                                                     (size_t)isize * nnz, 0, 0, isize,
                                                     &a.sparse_indices_offset);
            k = 0;
            for (uint32_t i = 0; i < count; i++) {
                uint32_t d = MK_MAP_ENTRY(i);
                if (d)
                    put_uint(m->bytes + (size_t)cs * k++, cs, d);
            }
            a.sparse_values_view = mk_pack_add_view(m->w, MK_PACK_KIND_MAP, m->bytes,
                                                    (size_t)cs * nnz, 0, 0, cs,
                                                    &a.sparse_values_offset);
            a.sparse_count = nnz;
            a.sparse_index_type = itype;
        }
        return mk_pack_add_accessor(m->w, &a);
    }
    for (uint32_t i = 0; i < count; i++)
        put_uint(m->bytes + (size_t)i * cs, cs, MK_MAP_ENTRY(i));
    a.view = mk_pack_add_view(m->w, MK_PACK_KIND_MAP, m->bytes, (size_t)count * cs, 0, 0, cs,
                              &a.byte_offset);
    return mk_pack_add_accessor(m->w, &a);
#undef MK_MAP_ENTRY
}

/* A `v` map (per vertex: its `v`; count `v`s) or a `vn` map (per `vn`:
 * its first vertex; by_first) as the cheaper of: the map itself (*map), or
 * the permutation of the base elements' first-use classes (*order;
 * pack_order.c), when those classes are exactly the OBJ indices. base: the
 * 3 n elements as written, 32 bits each. */
static void write_map(mesh_ctx *m, const void *base, const uint32_t *values, uint32_t n,
                      uint32_t count, bool by_first, uint32_t top, uint32_t *map, uint32_t *order)
{
    const mk_allocator *al = m->w->allocator;
    const size_t e3 = 3 * (size_t)n;
    uint32_t *elements = mk_alloc(al, (e3 + 3 * (size_t)n) * sizeof(uint32_t));
    uint32_t classes = 0;
    bool told = false;
    if (elements) {
        memcpy(elements, base, e3 * sizeof(uint32_t)); /* int32 or float: their bits */
        uint32_t *class_of = elements + e3, *first = class_of + n, *perm = first + n;
        told = mk_pack_first_uses(elements, n, al, class_of, first, &classes) == MK_OK &&
               classes == count;
        for (uint32_t c = 0; told && c < count; c++)
            perm[c] = MK_NONE;
        if (by_first) { /* vn j's vertex is the first of its class */
            for (uint32_t j = 0; told && j < count; j++) {
                uint32_t v = values[j], c = v < n ? class_of[v] : 0;
                told = v < n && first[c] == v && perm[c] == MK_NONE;
                if (told)
                    perm[c] = j;
            }
        } else { /* every vertex of a class has the class's `v` */
            for (uint32_t v = 0; told && v < n; v++) {
                uint32_t c = class_of[v];
                if (perm[c] == MK_NONE)
                    perm[c] = values[v];
                told = perm[c] == values[v];
            }
        }
        bool in_order = told;
        for (uint32_t c = 0; in_order && c < count; c++)
            in_order = perm[c] == c;
        /* never longer than the map: the same type, count entries, or none */
        if (in_order)
            *order = MK_PACK_ORDER_IDENTITY;
        else if (told)
            *order = put_map(m, perm, count, top);
    } else {
        m->failed = true;
    }
    mk_free(al, elements, (e3 + 3 * (size_t)n) * sizeof(uint32_t));
    if (!told && !m->failed)
        *map = put_map(m, values, by_first ? count : n, top);
}

static mk_status write_base(mesh_ctx *m, mesh_ids *id, float *nbase)
{
    const mk_frame_set *s = m->s;
    const uint32_t n = m->n;
    if (m->qpos) {
        quantize_positions(m, m->base, m->qb); /* qb keeps the base grid values */
        id->position = put_attr(m, MK_PACK_KIND_POSITION, m->qb, NULL, 3, MK_PACK_SHORT, false, false, true);
        m->st->max_position_error = position_error(m, m->base, m->qb, NULL);
    } else {
        id->position = put_attr(m, MK_PACK_KIND_POSITION, NULL, mk_frame_set_positions(s, m->base),
                                3, MK_PACK_FLOAT, false, false, true);
    }
    if (s->normals && !m->flat) {
        if (m->plain) {
            for (uint32_t v = 0; v < n; v++)
                fix_normal(mk_frame_set_normals(s, m->base) + 3 * (size_t)v, nbase + 3 * (size_t)v);
            id->normal = put_attr(m, MK_PACK_KIND_NORMAL, NULL, nbase, 3, MK_PACK_FLOAT, false, false, false);
        } else {
            /* qa: the base normal grid values, kept for the targets */
            quantize_normals(m, m->base, m->qa);
            for (size_t i = 0; i < 3 * (size_t)n; i++)
                nbase[i] = snorm(m->qa[i], m->nmax);
            uint32_t ct = m->nmax > 127 ? MK_PACK_SHORT : MK_PACK_BYTE;
            id->normal = put_attr(m, MK_PACK_KIND_NORMAL, m->qa, NULL, 3, ct, true, false, false);
        }
        double e = normal_error(m, m->base, nbase, NULL);
        m->st->max_normal_error = e > m->st->max_normal_error ? e : m->st->max_normal_error;
    }
    if (s->texcoords && !m->no_texcoords) {
        /* glTF's texture origin is the top left, OBJ's the bottom left: v' = 1 - v */
        float *uv = m->fa;
        for (size_t i = 0; i < 2 * (size_t)n; i++)
            uv[i] = i % 2 ? 1.0f - s->texcoords[i] : s->texcoords[i];
        bool unit = !m->plain;
        for (size_t i = 0; unit && i < 2 * (size_t)n; i++)
            unit = uv[i] >= 0.0f && uv[i] <= 1.0f;
        if (unit) {
            int32_t *ti = m->qa + 3 * (size_t)n; /* the half the targets use later */
            for (size_t i = 0; i < 2 * (size_t)n; i++)
                ti[i] = (int32_t)lroundf(uv[i] * 65535.0f);
            id->texcoord = put_attr(m, MK_PACK_KIND_TEXCOORD, ti, NULL, 2, MK_PACK_UNSIGNED_SHORT, true, false, false);
        } else {
            id->texcoord = put_attr(m, MK_PACK_KIND_TEXCOORD, NULL, uv, 2, MK_PACK_FLOAT, false,
                                    false, false);
        }
    }
    /* the `v` / `vn` maps: not vertex attributes (those would be padded to
     * 4 bytes a vertex) but tight unsigned accessors named in the extras,
     * left out when they are the identity */
    const mk_unit *u = m->u;
    /* compressed: UNSIGNED_INT for both, so that they share one bufferView
     * (its JSON costs more than narrow types save) and each number is one
     * element for the meshopt codec's delta coding (four to an element
     * code worse); the zero upper bytes cost next to nothing */
    uint32_t top_v = u->position_count - 1, top_vn = n;
    if (m->compress)
        top_v = top_vn = UINT32_MAX - 1;
    /* entries that are their own index: all of them, the identity (left
     * out); most of them (the first-use order of a regular mesh: all but its
     * first rows), stored as deltas from it; fewer, a permutation the codec's
     * own delta coding handles better, as they are */
    uint32_t fixed_v = 0, fixed_vn = 0;
    const uint32_t vns = s->normals ? u->normal_count : 0;
    for (uint32_t v = 0; v < n; v++)
        fixed_v += u->source_index[v] == v;
    for (uint32_t j = 0; j < vns; j++)
        fixed_vn += u->normal_vertex[j] == j;
    m->w->obj_v = m->w->obj_vn = m->w->obj_v_order = m->w->obj_vn_order = MK_NONE;
    m->w->map_deltas = 2 * ((size_t)fixed_v + fixed_vn) >= (size_t)n + vns;
    if (!(n == u->position_count && fixed_v == n)) {
        /* the base positions as written: grid values or float bits */
        const void *pos = m->qpos ? (const void *)m->qb : (const void *)mk_frame_set_positions(s, m->base);
        write_map(m, pos, u->source_index, n, u->position_count, false, top_v, &m->w->obj_v,
                  &m->w->obj_v_order);
    }
    if (vns && !(vns <= n && fixed_vn == vns) && m->flat) /* no normals to tell it */
        m->w->obj_vn = put_map(m, u->normal_vertex, vns, top_vn);
    else if (vns && !(vns <= n && fixed_vn == vns))
        write_map(m, m->plain ? (const void *)nbase : (const void *)m->qa, u->normal_vertex, n,
                  vns, true, top_vn, &m->w->obj_vn, &m->w->obj_vn_order);
    if (m->failed)
        return MK_ERR_OUT_OF_MEMORY;
    return MK_OK;
}

/* meshopt's triangle codec may start a triangle at another corner (the same
 * triangle, facing the same way). Under --compress each index list is
 * stored as the codec gives it back, and how far each triangle turned goes
 * to m->turns (0-2; kept in extras.morphkit.index_turns when any is not 0),
 * so the reader puts the unit's own corners back whatever mode then stores
 * the list (pack_compress.c keeps TRIANGLES when the stored list comes back
 * as it is, else uses the order-keeping INDICES). idx is replaced by the
 * turned list; left as it is (turns 0) if the codec fails. */
static void settle_turns(mesh_ctx *m, uint32_t *idx, size_t count)
{
    const mk_allocator *al = m->w->allocator;
    size_t bound = meshopt_encodeIndexBufferBound(count, m->n);
    uint8_t *code = mk_alloc(al, bound);
    uint32_t *back = mk_alloc(al, count * sizeof *back + 4);
    meshopt_encodeIndexVersion(1); /* pack_compress.c: the version the extension names */
    size_t n = code && back ? meshopt_encodeIndexBuffer(code, bound, idx, count) : 0;
    bool ok = n && meshopt_decodeIndexBuffer(back, count, 4, code, n) == 0;
    for (size_t t = 0; ok && t < count / 3; t++) {
        const uint32_t *a = idx + 3 * t, *b = back + 3 * t;
        int turn = 0;
        while (turn < 3 && !(b[0] == a[turn] && b[1] == a[(turn + 1) % 3] && b[2] == a[(turn + 2) % 3]))
            turn++;
        ok = turn < 3;
        m->turns[m->turned + t] = (uint8_t)turn;
        m->any_turn |= turn != 0;
    }
    if (ok)
        memcpy(idx, back, count * sizeof *idx);
    else
        memset(m->turns + m->turned, 0, count / 3);
    m->turned += (uint32_t)(count / 3);
    m->failed |= !code || !back;
    mk_free(al, code, bound);
    mk_free(al, back, count * sizeof *back + 4);
}

/* An index accessor over count indices (16-bit below 65537 vertices), in a
 * view of its own (kind); under --compress turned as the codec turns it
 * (settle_turns: idx is then changed). */
static uint32_t put_indices(mesh_ctx *m, uint32_t kind, uint32_t *idx, size_t count)
{
    if (m->turns)
        settle_turns(m, idx, count);
    const bool small = m->n <= 65536;
    size_t ib = count * (small ? 2 : 4);
    if (!ensure_bytes(m, ib ? ib : 1))
        return MK_NONE;
    if (!small)
        memcpy(m->bytes, idx, ib);
    else
        for (size_t i = 0; i < count; i++)
            put_component(m->bytes + 2 * i, MK_PACK_UNSIGNED_SHORT, (int32_t)idx[i], 0.0f);
    mk_pack_accessor a = {0, 0, small ? MK_PACK_UNSIGNED_SHORT : MK_PACK_UNSIGNED_INT, false,
                          (uint32_t)count, "SCALAR", 1, NULL, NULL, 0, 0, 0, 0, 0, 0};
    a.view = mk_pack_add_view(m->w, kind, m->bytes, ib, 0,
                              MK_PACK_ELEMENT_ARRAY_BUFFER, small ? 2 : 4, &a.byte_offset);
    return mk_pack_add_accessor(m->w, &a);
}

/* One index accessor per primitive: the triangles of its runs, in order. */
static mk_status put_primitive_indices(mesh_ctx *m, const mk_pack_materials *mats,
                                       uint32_t *ids)
{
    const mk_frame_set *s = m->s;
    uint32_t *idx = mk_alloc(m->w->allocator, (size_t)s->index_count * sizeof *idx);
    if (!idx)
        return MK_ERR_OUT_OF_MEMORY;
    if (!mats || !mats->count) {
        memcpy(idx, s->indices, (size_t)s->index_count * sizeof *idx);
        ids[0] = put_indices(m, MK_PACK_KIND_INDEX, idx, s->index_count);
        mk_free(m->w->allocator, idx, (size_t)s->index_count * sizeof *idx);
        return m->failed ? MK_ERR_OUT_OF_MEMORY : MK_OK;
    }
    for (uint32_t p = 0; p < mats->prim_count; p++) {
        size_t n = 0, t = 0;
        for (uint32_t r = 0; r < mats->run_count; r++) {
            size_t tris = mats->runs[2 * r + 1];
            if (mats->run_prim[r] == p) {
                memcpy(idx + n, s->indices + 3 * t, 3 * tris * sizeof *idx);
                n += 3 * tris;
            }
            t += tris;
        }
        ids[p] = put_indices(m, MK_PACK_KIND_PRIMITIVE_INDEX + p, idx, n);
    }
    mk_free(m->w->allocator, idx, (size_t)s->index_count * sizeof *idx);
    return m->failed ? MK_ERR_OUT_OF_MEMORY : MK_OK;
}

/* Whether any of the target frames' normals differs from the base's as
 * stored (the grid values, or the exact float delta's bits). When none
 * does, the targets carry no NORMAL at all: a viewer keeps the base
 * normals, morphkit adds a zero delta (the same sums). Left out of only
 * some targets, a NORMAL would be read by three.js as the base normal
 * itself instead of a zero delta, so it is all or nothing. */
static bool normals_move(mesh_ctx *m, const uint32_t *target_frame, uint32_t targets,
                         const float *nbase)
{
    const size_t n3 = 3 * (size_t)m->n;
    for (uint32_t t = 0; m->s->normals && !m->flat && t < targets; t++) {
        uint32_t f = target_frame[t];
        if (m->plain) {
            const float *nf = mk_frame_set_normals(m->s, f);
            for (uint32_t v = 0; v < m->n; v++) {
                float a[3];
                fix_normal(nf + 3 * (size_t)v, a);
                for (int c = 0; c < 3; c++) {
                    float d = exact_delta(nbase[3 * (size_t)v + c], a[c]);
                    if (d != 0.0f || signbit(d))
                        return true;
                }
            }
        } else {
            int32_t *q = m->qa + n3; /* qa: the base grid values */
            quantize_normals(m, f, q);
            for (size_t i = 0; i < n3; i++)
                if (q[i] != m->qa[i])
                    return true;
        }
    }
    return false;
}

/* Target t (frame f), its deltas taken from frame pf (the base or its
 * parent's frame; pf is the base unless positions are on the grid):
 * POSITION and NORMAL deltas. Returns the accessors. */
static void write_target(mesh_ctx *m, uint32_t f, uint32_t pf, const float *nbase,
                         uint32_t *pos, uint32_t *nrm)
{
    const mk_frame_set *s = m->s;
    const size_t n3 = 3 * (size_t)m->n;
    const float *p = mk_frame_set_positions(s, f), *base = mk_frame_set_positions(s, m->base);
    double e;
    if (m->qpos) {
        int32_t *q = m->qa + n3; /* qa's second half: this frame's grid values */
        const int32_t *from = m->qb;
        if (pf != m->base) {
            quantize_positions(m, pf, m->qp);
            from = m->qp;
        }
        quantize_positions(m, f, q);
        int32_t big = 0;
        for (size_t i = 0; i < n3; i++) {
            int32_t d = q[i] - from[i];
            big = abs(d) > big ? abs(d) : big;
        }
        e = position_error(m, f, q, NULL);
        for (size_t i = 0; i < n3; i++)
            q[i] -= from[i];
        *pos = put_attr(m, MK_PACK_KIND_POSITION, q, NULL, 3, big <= 127 ? MK_PACK_BYTE : MK_PACK_SHORT, false, true,
                        true);
    } else {
        float *d = m->fa;
        for (size_t i = 0; i < n3; i++) {
            d[i] = exact_delta(base[i], p[i]);
            m->fb[i] = base[i] + d[i];
        }
        e = position_error(m, f, NULL, m->fb);
        *pos = put_attr(m, MK_PACK_KIND_POSITION, NULL, d, 3, MK_PACK_FLOAT, false, !m->plain, true);
    }
    m->st->max_position_error = e > m->st->max_position_error ? e : m->st->max_position_error;
    *nrm = MK_NONE;
    if (!s->normals || m->flat)
        return;
    float *d = m->fa;
    if (!m->normal_targets) {
        memset(d, 0, n3 * sizeof *d);
    } else if (m->plain) {
        const float *nf = mk_frame_set_normals(s, f);
        for (uint32_t v = 0; v < m->n; v++) {
            float a[3];
            fix_normal(nf + 3 * (size_t)v, a);
            for (int c = 0; c < 3; c++)
                d[3 * (size_t)v + c] = exact_delta(nbase[3 * (size_t)v + c], a[c]);
        }
        *nrm = put_attr(m, MK_PACK_KIND_NORMAL, NULL, d, 3, MK_PACK_FLOAT, false, false, false);
    } else {
        int32_t *q = m->qa + n3, big = 0;
        const int32_t *from = m->qa; /* qa's first half: the base's normal grid values */
        if (pf != m->base) {
            quantize_normals(m, pf, m->qp);
            from = m->qp;
        }
        quantize_normals(m, f, q);
        for (size_t i = 0; i < n3; i++) {
            q[i] -= from[i];
            big = abs(q[i]) > big ? abs(q[i]) : big;
        }
        if ((float)big <= m->nmax) {
            for (size_t i = 0; i < n3; i++)
                d[i] = snorm(q[i], m->nmax);
            *nrm = put_attr(m, MK_PACK_KIND_NORMAL, q, NULL, 3, m->nmax > 127 ? MK_PACK_SHORT : MK_PACK_BYTE, true,
                            true, false);
        } else {
            /* a delta beyond [-1, 1] (a normal turned more than 90 degrees) */
            /* whole steps of the normal grid: regular floats compress well */
            for (size_t i = 0; i < n3; i++)
                d[i] = (float)q[i] / m->nmax;
            *nrm = put_attr(m, MK_PACK_KIND_NORMAL, NULL, d, 3, MK_PACK_FLOAT, false, true, false);
        }
        if (pf != m->base) /* the error of the whole path's sum: base to f */
            for (size_t i = 0; i < n3; i++)
                d[i] = (float)(q[i] + from[i] - m->qa[i]) / m->nmax;
    }
    e = normal_error(m, f, nbase, d);
    m->st->max_normal_error = e > m->st->max_normal_error ? e : m->st->max_normal_error;
}

/* ---- the base pose ------------------------------------------------------------ */

/* A context with only the position grid of options o (m->failed: out of
 * memory), for the searches made before the mesh is written. */
static void grid_only(mesh_ctx *m, mk_pack_writer *w, mk_pack_stats *st, const mk_unit *u,
                      const mk_pack_options *o, const mk_allocator *al)
{
    memset(w, 0, sizeof *w);
    w->allocator = al;
    memset(st, 0, sizeof *st);
    memset(m, 0, sizeof *m);
    m->w = w;
    m->u = u;
    m->s = u->frames;
    m->n = u->frames->vertex_count;
    m->st = st;
    m->nmax = o && o->normal_bits == 16 ? 32767.0f : 127.0f;
    choose_grid(m, o);
}

/* Bytes per vertex of the dense POSITION and NORMAL deltas from frame b to
 * frame f (q: every frame's grid values, qn: normal grid values or NULL). */
static uint32_t delta_cost(const int32_t *q, const int32_t *qn, size_t n3, uint32_t b, uint32_t f,
                           int32_t nmax)
{
    const int32_t *x = q + n3 * b, *y = q + n3 * f;
    int32_t big = 0;
    for (size_t i = 0; i < n3; i++) {
        int32_t d = abs(y[i] - x[i]);
        big = d > big ? d : big;
    }
    uint32_t cost = big == 0 ? 0 : big <= 127 ? 4 : 8;
    if (qn) {
        x = qn + n3 * b, y = qn + n3 * f;
        big = 0;
        for (size_t i = 0; i < n3; i++) {
            int32_t d = abs(y[i] - x[i]);
            big = d > big ? d : big;
        }
        cost += big == 0 ? 0 : big <= nmax ? (nmax > 127 ? 8 : 4) : 12;
    }
    return cost;
}

mk_status mk_pack_choose_base(const mk_unit *u, const mk_pack_options *o, bool flat,
                              const mk_allocator *al, uint32_t *base)
{
    const mk_frame_set *s = u->frames;
    const uint32_t frames = s->frame_count;
    const size_t n3 = 3 * (size_t)s->vertex_count;
    *base = 0;
    /* float deltas cost the same from any frame; every_frame keeps frame 0;
     * the search costs frames^2 * vertices: skipped where that is large */
    if ((o && (o->plain || o->every_frame)) || frames < 3 ||
        (double)frames * frames * (double)n3 > 3e8)
        return MK_OK;
    mk_pack_writer w;
    mk_pack_stats st;
    mesh_ctx m;
    grid_only(&m, &w, &st, u, o, al);
    if (m.failed)
        return MK_ERR_OUT_OF_MEMORY;
    if (!m.qpos)
        return MK_OK;
    const size_t all = n3 * frames;
    int32_t *q = mk_alloc(al, all * sizeof *q);
    const bool stored_normals = s->normals && !flat;
    int32_t *qn = stored_normals ? mk_alloc(al, all * sizeof *qn) : NULL;
    if (!q || (stored_normals && !qn)) {
        mk_free(al, q, all * sizeof *q);
        mk_free(al, qn, all * sizeof *qn);
        return MK_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t f = 0; f < frames; f++) {
        quantize_positions(&m, f, q + n3 * f);
        if (qn)
            quantize_normals(&m, f, qn + n3 * f);
    }
    /* the frame whose deltas to all others are smallest (frame 0 on ties);
     * equal frames are counted once per frame, as near enough */
    uint64_t best = UINT64_MAX;
    for (uint32_t b = 0; b < frames; b++) {
        uint64_t cost = 0;
        for (uint32_t f = 0; f < frames && cost < best; f++)
            cost += delta_cost(q, qn, n3, b, f, (int32_t)m.nmax);
        if (cost < best) {
            best = cost;
            *base = b;
        }
    }
    mk_free(al, q, all * sizeof *q);
    mk_free(al, qn, all * sizeof *qn);
    return MK_OK;
}

/* Whether frame after frame the flat normals fit (*error: see flat_error). */
static mk_status flat_fits_grid(const mk_unit *u, const mk_pack_options *o,
                                const mk_allocator *al, bool *flat, double *error)
{
    const mk_frame_set *s = u->frames;
    *flat = false;
    *error = 0;
    mk_pack_writer w;
    mk_pack_stats st;
    mesh_ctx m;
    grid_only(&m, &w, &st, u, o, al);
    const size_t n3 = 3 * (size_t)m.n;
    m.qa = mk_alloc(al, n3 * sizeof(int32_t));
    m.fa = mk_alloc(al, n3 * sizeof(float));
    m.fb = mk_alloc(al, n3 * sizeof(float));
    m.used = mk_alloc(al, m.n);
    mk_status status = MK_OK;
    if (m.failed || !m.qa || !m.fa || !m.fb || !m.used) {
        status = MK_ERR_OUT_OF_MEMORY;
    } else {
        mark_used(&m);
        double e = 0;
        for (uint32_t f = 0; f < s->frame_count && e <= MK_PACK_FLAT_TOLERANCE; f++) {
            double ef = flat_error(&m, f, error);
            e = ef > e ? ef : e;
        }
        *flat = e <= MK_PACK_FLAT_TOLERANCE;
    }
    mk_free(al, m.qa, n3 * sizeof(int32_t));
    mk_free(al, m.fa, n3 * sizeof(float));
    mk_free(al, m.fb, n3 * sizeof(float));
    mk_free(al, m.used, m.n);
    return status;
}

mk_status mk_pack_flat_fits(const mk_unit *u, const mk_pack_options *o, const mk_allocator *al,
                            bool *flat, double *error, mk_pack_options *flat_options)
{
    memset(flat_options, 0, sizeof *flat_options);
    if (o)
        *flat_options = *o;
    *flat = false;
    *error = 0;
    if (!u->frames->normals || !o || !o->flat_normals || o->plain || o->normal_bits == 16)
        return MK_OK;
    mk_status s = flat_fits_grid(u, o, al, flat, error);
    if (s != MK_OK || *flat || flat_options->position_bits)
        return s;
    /* a grid of half or a quarter of the step, when that is what the small
     * faces need (a position error of e moves the normal of a face whose
     * edge is L long by up to about e / L) */
    double e = flat_options->max_position_error > 0 ? flat_options->max_position_error : 1e-4;
    for (int k = 0; s == MK_OK && !*flat && k < 2; k++) {
        e /= 2;
        flat_options->max_position_error = e;
        s = flat_fits_grid(u, flat_options, al, flat, error);
    }
    return s;
}

/* With tree, the targets as a tree (pack_tree.c) when positions are on
 * the grid and the unit is small enough, numbered parents first
 * (target_frame and frame_target renumbered); otherwise every parent is
 * the base. *possible: whether this unit can have a tree at all. */
static mk_status target_tree(mesh_ctx *m, bool tree, bool *possible, uint32_t *frame_target,
                             uint32_t *target_frame, uint32_t targets, uint32_t *parent)
{
    const mk_allocator *al = m->w->allocator;
    const size_t n3 = 3 * (size_t)m->n;
    for (uint32_t t = 0; t < targets; t++)
        parent[t] = MK_NONE;
    *possible = m->qpos && targets >= 2 &&
                (double)(targets + 1) * (targets + 1) * (double)n3 <= MK_PACK_TREE_WORK;
    if (!tree || !*possible)
        return MK_OK;
    const size_t rows = (size_t)targets + 1;
    int32_t *grid = mk_alloc(al, rows * n3 * sizeof(int32_t));
    uint32_t *order = mk_alloc(al, 3 * (size_t)targets * sizeof(uint32_t));
    mk_status st = grid && order ? MK_OK : MK_ERR_OUT_OF_MEMORY;
    if (st == MK_OK) {
        memcpy(grid, m->qb, n3 * sizeof(int32_t));
        for (uint32_t t = 0; t < targets; t++)
            quantize_positions(m, target_frame[t], grid + n3 * (t + 1));
        st = mk_pack_target_tree(grid, targets, n3, m->compress, al, parent, order);
    }
    if (st == MK_OK) {
        uint32_t *new_of = order + targets, *old_parent = new_of + targets;
        for (uint32_t k = 0; k < targets; k++)
            new_of[order[k]] = k;
        memcpy(old_parent, parent, (size_t)targets * sizeof(uint32_t));
        for (uint32_t k = 0; k < targets; k++) {
            const uint32_t p = old_parent[order[k]];
            parent[k] = p == MK_NONE ? MK_NONE : new_of[p];
        }
        /* grid's rows are free now: the renumbered target_frame through them */
        uint32_t *frames = (uint32_t *)grid;
        for (uint32_t k = 0; k < targets; k++)
            frames[k] = target_frame[order[k]];
        memcpy(target_frame, frames, (size_t)targets * sizeof(uint32_t));
        for (uint32_t f = 0; f < m->s->frame_count; f++)
            if (frame_target[f] != MK_NONE)
                frame_target[f] = new_of[frame_target[f]];
    }
    mk_free(al, grid, rows * n3 * sizeof(int32_t));
    mk_free(al, order, 3 * (size_t)targets * sizeof(uint32_t));
    return st;
}

mk_status mk_pack_write_mesh(mk_pack_writer *w, const mk_unit *u, const mk_pack_options *o,
                             const mk_pack_materials *mats, uint32_t base_frame, bool flat,
                             bool tree, bool *tree_possible, uint32_t *frame_target,
                             uint32_t *target_frame, uint32_t targets, uint32_t *target_parent,
                             float translation[3], float *scale, mk_pack_stats *stats,
                             mk_error *err)
{
    const mk_frame_set *s = u->frames;
    const mk_allocator *al = w->allocator;
    mesh_ctx m;
    memset(&m, 0, sizeof m);
    m.w = w;
    m.u = u;
    m.s = s;
    m.n = s->vertex_count;
    m.base = base_frame;
    m.plain = o && o->plain;
    m.compress = o && o->compress;
    m.no_texcoords = o && o->no_texcoords;
    m.nmax = m.plain ? 0.0f : o && o->normal_bits == 16 ? 32767.0f : 127.0f;
    m.flat = flat && s->normals;
    w->flat_normals = m.flat;
    m.st = stats;
    const size_t n3 = 3 * (size_t)m.n;
    m.qa = mk_alloc(al, 2 * n3 * sizeof(int32_t));
    m.qb = mk_alloc(al, n3 * sizeof(int32_t));
    m.qp = mk_alloc(al, n3 * sizeof(int32_t));
    m.fa = mk_alloc(al, n3 * sizeof(float));
    m.fb = mk_alloc(al, n3 * sizeof(float));
    m.used = mk_alloc(al, m.n);
    float *nbase = mk_alloc(al, n3 * sizeof(float));
    mk_status st = MK_OK;
    mesh_ids id = {MK_NONE, MK_NONE, MK_NONE};
    if (!m.qa || !m.qb || !m.qp || !m.fa || !m.fb || !m.used || !nbase) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    mark_used(&m);
    choose_grid(&m, o);
    if (m.failed) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    translation[0] = translation[1] = translation[2] = 0.0f;
    *scale = 1.0f;
    if (m.qpos) {
        memcpy(translation, m.origin, sizeof m.origin);
        *scale = m.step;
    }
    stats->position_bits = m.qpos ? m.bits : 0;
    if ((st = write_base(&m, &id, nbase)) != MK_OK ||
        (st = target_tree(&m, tree, tree_possible, frame_target, target_frame, targets,
                          target_parent)) != MK_OK) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }

    uint32_t prim_ids[MK_PACK_MAX_MATERIALS + 1];
    const size_t tri_count = s->index_count / 3;
    w->index_turns = MK_NONE;
    if (m.compress && !(m.turns = mk_alloc(al, tri_count + 1))) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    if (put_primitive_indices(&m, mats, prim_ids) != MK_OK) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    if (m.any_turn) { /* the corners' turns, one byte a triangle (nearly all 0) */
        mk_pack_accessor a = {0, 0, MK_PACK_UNSIGNED_BYTE, false, (uint32_t)tri_count, "SCALAR",
                              1, NULL, NULL, 0, 0, 0, 0, 0, 0};
        a.view = mk_pack_add_view(w, MK_PACK_KIND_MAP, m.turns, tri_count, 0, 0, 1, &a.byte_offset);
        w->index_turns = mk_pack_add_accessor(w, &a);
    }
    /* every primitive shares the attributes and targets: written once here */
    mk_buf shared = {NULL, 0, 0, al, false};
    mk_buf_printf(&shared, "{\"attributes\":{\"POSITION\":%u", id.position);
    if (id.normal != MK_NONE)
        mk_buf_printf(&shared, ",\"NORMAL\":%u", id.normal);
    if (id.texcoord != MK_NONE)
        mk_buf_printf(&shared, ",\"TEXCOORD_0\":%u", id.texcoord);
    mk_buf_append(&shared, "}", 1);
    size_t attributes_end = shared.size;
    m.normal_targets = normals_move(&m, target_frame, targets, nbase);
    for (uint32_t t = 0; t < targets; t++) {
        uint32_t pos, nrm;
        const uint32_t p = target_parent[t];
        write_target(&m, target_frame[t], p == MK_NONE ? m.base : target_frame[p], nbase, &pos,
                     &nrm);
        mk_buf_printf(&shared, "%s{\"POSITION\":%u", t ? "," : ",\"targets\":[", pos);
        if (nrm != MK_NONE)
            mk_buf_printf(&shared, ",\"NORMAL\":%u", nrm);
        mk_buf_append(&shared, "}", 1);
    }
    if (targets)
        mk_buf_append(&shared, "]", 1);
    mk_buf *b = &w->meshes;
    mk_buf_append(b, "{\"primitives\":[", 15); /* the unit's name is the node's */
    const uint32_t prims = mats && mats->count ? mats->prim_count : 1;
    for (uint32_t p = 0; p < prims; p++) {
        mk_buf_append(b, ",", p ? 1 : 0);
        mk_buf_append(b, shared.data, attributes_end);
        mk_buf_printf(b, ",\"indices\":%u", prim_ids[p]); /* mode: 4 (triangles), the default */
        if (mats && mats->count && mats->prim_material[p] != MK_NONE)
            mk_buf_printf(b, ",\"material\":%u", mats->prim_material[p]);
        mk_buf_append(b, shared.data + attributes_end, shared.size - attributes_end);
        mk_buf_append(b, "}", 1);
    }
    if (shared.failed)
        m.failed = true;
    mk_buf_free(&shared);
    mk_buf_append(b, "]", 1);
    if (targets) {
        /* no mesh.weights: absent, they are zero (the base pose); target
         * names = the first frame using each */
        mk_buf_append(b, ",\"extras\":{\"targetNames\":[", 26);
        for (uint32_t t = 0; t < targets; t++) {
            const char *file = u->files->frame_files[target_frame[t]];
            const char *dot = strrchr(file, '.');
            char name[256];
            snprintf(name, sizeof name, "%.*s", dot ? (int)(dot - file) : (int)strlen(file), file);
            if (t)
                mk_buf_append(b, ",", 1);
            mk_buf_json_string(b, name);
        }
        mk_buf_append(b, "]}", 2);
    }
    mk_buf_append(b, "}", 1);
    if (m.failed)
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
done:
    mk_free(al, m.qa, 2 * n3 * sizeof(int32_t));
    mk_free(al, m.qb, n3 * sizeof(int32_t));
    mk_free(al, m.qp, n3 * sizeof(int32_t));
    mk_free(al, m.fa, n3 * sizeof(float));
    mk_free(al, m.fb, n3 * sizeof(float));
    mk_free(al, m.used, m.n);
    mk_free(al, nbase, n3 * sizeof(float));
    mk_free(al, m.bytes, m.bytes_size);
    mk_free(al, m.turns, (size_t)u->frames->index_count / 3 + 1);
    return st;
}
