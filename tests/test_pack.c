/* Packed units (pack.h): folder -> .glb -> unit round trips on the demo
 * units and on a generated unit with every animation.cfg feature; the
 * glTF animations evaluated by the glTF track sampler (an independent
 * evaluation of the keys) against the player; malformed extras; every
 * prefix of a packed file; failing allocators (both also with --compress and
 * its `v` order). */
#include <math.h>
#include <stdint.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

/* ---- a generated unit ------------------------------------------------------- */

/* Animations in name order: End (2 frames), Lin (4), One (3), Smo (5),
 * Stp (3); the base is End_1. Each frame shows a pose; equal pose numbers
 * are equal frames (pose 0: the base). */
static const struct {
    const char *name;
    int frames;
    int poses[5];
} GEN[] = {
    {"End", 2, {0, 12}},
    {"Lin", 4, {1, 2, 1, 3}},
    {"One", 3, {4, 5, 6}},
    {"Smo", 5, {7, 0, 8, 2, 9}},
    {"Stp", 3, {10, 11, 12}},
};

static const char GEN_CFG[] = "FrameTime Lin 100\n"
                              "Duration Lin 2 250\n"
                              "NoBlend Lin 3\n"
                              "Loop Lin 2\n"
                              "Event Lin 1 start\n"
                              "Event Lin 3 mid\n"
                              "Event Lin 3 mid2\n"
                              "Interpolation Smo smooth\n"
                              "FrameTime Smo 120\n"
                              "Duration Smo 3 300\n"
                              "NoBlend Smo 4\n"
                              "Loop Smo 2\n"
                              "Interpolation One smooth\n"
                              "CycleTime One 500\n"
                              "Once One\n"
                              "Next One Smo\n"
                              "Interpolation Stp step\n"
                              "Once Stp\n"
                              "Next Stp Lin\n"
                              "Once End\n"
                              "FrameTime End 70\n";

/* A 3 x 2 grid of `v` (plus a 7th no face uses), 4 triangles, a vt per v,
 * two vn whose numbering swaps in odd poses. */
static void write_frame(const char *dir, const char *file, int pose)
{
    char text[4096];
    int n = 0;
    for (int i = 0; i < 7; i++) {
        double x = i % 3 + 0.1 * sin(pose + i), y = i / 3 + 0.05 * cos(2.0 * pose + i);
        double z = pose ? 0.2 * sin(0.5 * pose * (i + 1)) : 0.0;
        n += snprintf(text + n, sizeof text - (size_t)n, "v %.6f %.6f %.6f\n", x, y, z);
    }
    for (int i = 0; i < 6; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "vt %.3f %.3f\n", (i % 3) / 2.0, i / 3 * 1.0);
    double a[3] = {sin(pose), cos(pose), 1.0}, b[3] = {0.3, -0.2 * pose, 1.0};
    const double *first = pose % 2 ? b : a, *second = pose % 2 ? a : b;
    n += snprintf(text + n, sizeof text - (size_t)n, "vn %.5f %.5f %.5f\nvn %.5f %.5f %.5f\n",
                  first[0], first[1], first[2], second[0], second[1], second[2]);
    int na = pose % 2 ? 2 : 1, nb = pose % 2 ? 1 : 2; /* vn of normal a, of normal b */
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "f 1/1/%d 2/2/%d 5/5/%d\nf 1/1/%d 5/5/%d 4/4/%d\n"
                  "f 2/2/%d 3/3/%d 6/6/%d\nf 2/2/%d 6/6/%d 5/5/%d\n",
                  na, na, na, na, na, na, nb, nb, nb, nb, nb, nb);
    mk_fx_write(dir, file, text);
}

static const char *make_gen_unit(const char *name, bool all_same)
{
    const char *d = mk_fx_dir(name);
    for (size_t a = 0; a < sizeof GEN / sizeof GEN[0]; a++)
        for (int k = 0; k < GEN[a].frames; k++) {
            char file[64];
            snprintf(file, sizeof file, "%s_%d.obj", GEN[a].name, k + 1);
            write_frame(d, file, all_same ? 3 : GEN[a].poses[k]);
        }
    mk_fx_write(d, "animation.cfg", GEN_CFG);
    return d;
}

/* ---- helpers -------------------------------------------------------------------- */

static mk_unit *load(const char *path)
{
    mk_unit *u = NULL;
    mk_error e;
    mk_unit_options o = {0};
    o.skip_heuristics = true;
    if (mk_unit_load(path, &o, NULL, &u, NULL, &e) != MK_OK)
        fprintf(stderr, "load %s: %s\n", path, e.message);
    return u;
}

static mk_unit *pack_and_read(const mk_unit *u, const mk_pack_options *o, void **data,
                              size_t *size, mk_pack_stats *stats)
{
    mk_error e;
    mk_unit *back = NULL;
    CHECK(mk_unit_pack(u, o, NULL, data, size, stats, NULL, &e) == MK_OK);
    if (!*data)
        return NULL;
    CHECK(mk_pack_is_unit(*data, *size));
    if (mk_unit_parse_packed(*data, *size, "mem.glb", NULL, &back, &e) != MK_OK)
        fprintf(stderr, "parse: %s\n", e.message);
    CHECK(back != NULL);
    return back;
}

static double max_abs_diff(const float *a, const float *b, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        m = d > m ? d : m;
    }
    return m;
}

/* a and b agree: positions within tol, normals within ntol, texture
 * coordinates within ttol, everything else exactly. */
static void check_same_unit(const mk_unit *a, const mk_unit *b, double tol, double ntol,
                            double ttol)
{
    const mk_frame_set *fa = a->frames, *fb = b->frames;
    CHECK(strcmp(a->name, b->name) == 0);
    CHECK_EQ_INT(a->position_count, b->position_count);
    CHECK_EQ_INT(a->normal_count, b->normal_count);
    CHECK_EQ_INT(fa->frame_count, fb->frame_count);
    CHECK_EQ_INT(fa->vertex_count, fb->vertex_count);
    CHECK_EQ_INT(fa->index_count, fb->index_count);
    if (fa->frame_count != fb->frame_count || fa->vertex_count != fb->vertex_count ||
        fa->index_count != fb->index_count)
        return;
    size_t n = (size_t)fa->frame_count * fa->vertex_count * 3;
    CHECK(max_abs_diff(fa->positions, fb->positions, n) <= tol);
    CHECK(!fa->normals == !fb->normals);
    if (fa->normals && fb->normals)
        CHECK(max_abs_diff(fa->normals, fb->normals, n) <= ntol);
    CHECK(!fa->texcoords == !fb->texcoords);
    if (fa->texcoords && fb->texcoords)
        CHECK(max_abs_diff(fa->texcoords, fb->texcoords, 2 * (size_t)fa->vertex_count) <= ttol);
    CHECK(memcmp(fa->indices, fb->indices, (size_t)fa->index_count * 4) == 0);
    CHECK(memcmp(a->source_index, b->source_index, (size_t)fa->vertex_count * 4) == 0);
    if (a->normal_count)
        CHECK(memcmp(a->normal_vertex, b->normal_vertex, (size_t)a->normal_count * 4) == 0);
    const mk_unit_files *ia = a->files, *ib = b->files;
    CHECK_EQ_INT(ia->animation_count, ib->animation_count);
    CHECK_EQ_INT(ia->frame_count, ib->frame_count);
    CHECK(ia->has_config == ib->has_config);
    for (uint32_t i = 0; i < ia->animation_count && i < ib->animation_count; i++) {
        CHECK(strcmp(ia->animations[i].name, ib->animations[i].name) == 0);
        CHECK_EQ_INT(ia->animations[i].first_number, ib->animations[i].first_number);
        CHECK_EQ_INT(ia->animations[i].frame_count, ib->animations[i].frame_count);
        CHECK_EQ_INT(ia->animations[i].first_frame, ib->animations[i].first_frame);
    }
    for (uint32_t f = 0; f < ia->frame_count && f < ib->frame_count; f++)
        CHECK(strcmp(ia->frame_files[f], ib->frame_files[f]) == 0);
    const mk_clip_set *ca = a->clips, *cb = b->clips;
    CHECK_EQ_INT(ca->clip_count, cb->clip_count);
    for (uint32_t i = 0; i < ca->clip_count && i < cb->clip_count; i++) {
        const mk_clip *x = &ca->clips[i], *y = &cb->clips[i];
        CHECK(strcmp(x->name, y->name) == 0);
        CHECK_EQ_INT(x->frame_count, y->frame_count);
        CHECK_EQ_INT(x->loop_frame, y->loop_frame);
        CHECK_EQ_INT(x->next_clip, y->next_clip);
        CHECK(x->once == y->once);
        CHECK_EQ_INT(x->interpolation, y->interpolation);
        CHECK_EQ_INT(x->event_count, y->event_count);
        CHECK_EQ_INT(x->cycle_us, y->cycle_us);
        CHECK_EQ_INT(x->length_us, y->length_us);
        if (x->frame_count != y->frame_count || x->event_count != y->event_count)
            continue;
        CHECK(memcmp(x->frames, y->frames, x->frame_count * 4) == 0);
        CHECK(memcmp(x->durations_us, y->durations_us, x->frame_count * 8) == 0);
        CHECK(memcmp(x->frame_flags, y->frame_flags, x->frame_count) == 0);
        for (uint32_t e = 0; e < x->event_count; e++) {
            CHECK_EQ_INT(x->events[e].frame, y->events[e].frame);
            CHECK(strcmp(x->events[e].name, y->events[e].name) == 0);
        }
    }
}

/* The player on both units at many times, with switches: the same state and
 * poses within tol, in `v` order (what `sample` prints). */
static void check_same_playback(const mk_unit *a, const mk_unit *b, double tol, double ntol)
{
    uint32_t nv = a->frames->vertex_count;
    float *pa = malloc(nv * 12), *pb = malloc(nv * 12), *na = malloc(nv * 12), *nb = malloc(nv * 12);
    float *oa = malloc(a->position_count * 12), *ob = malloc(a->position_count * 12);
    for (uint32_t start = 0; start < a->clips->clip_count; start++) {
        for (int64_t t = 0; t < 3000000; t += 37003) {
            mk_player p, q;
            mk_player_init(&p, a->clips);
            mk_player_init(&q, b->clips);
            mk_player_play(&p, start, NULL);
            mk_player_play(&q, start, NULL);
            /* a switch to the next clip at 0.9 s */
            int64_t sw = 900000, first = t < sw ? t : sw;
            mk_player_advance(&p, first, NULL);
            mk_player_advance(&q, first, NULL);
            if (t > sw) {
                uint32_t other = (start + 1) % a->clips->clip_count;
                mk_player_play(&p, other, NULL);
                mk_player_play(&q, other, NULL);
                mk_player_advance(&p, t - sw, NULL);
                mk_player_advance(&q, t - sw, NULL);
            }
            mk_player_state sa, sb;
            mk_player_get_state(&p, &sa);
            mk_player_get_state(&q, &sb);
            CHECK(sa.clip == sb.clip && sa.frame == sb.frame && sa.next_clip == sb.next_clip &&
                  sa.next_frame == sb.next_frame && sa.pending == sb.pending &&
                  sa.finished == sb.finished && sa.weight == sb.weight &&
                  sa.time_us == sb.time_us && sa.duration_us == sb.duration_us);
            mk_pose xa, xb;
            mk_player_pose(&p, &xa);
            mk_player_pose(&q, &xb);
            CHECK(mk_pose_eval(a->frames, &xa, pa, a->frames->normals ? na : NULL, a->frames->vertex_count, NULL) == MK_OK);
            CHECK(mk_pose_eval(b->frames, &xb, pb, b->frames->normals ? nb : NULL, b->frames->vertex_count, NULL) == MK_OK);
            mk_unit_to_source_order(a, pa, oa);
            mk_unit_to_source_order(b, pb, ob);
            double d = max_abs_diff(oa, ob, 3 * (size_t)a->position_count);
            if (d > tol)
                fprintf(stderr, "clip %u t %lld: positions differ by %g\n", start, (long long)t, d);
            CHECK(d <= tol);
            if (a->frames->normals)
                CHECK(max_abs_diff(na, nb, 3 * (size_t)nv) <= ntol);
        }
    }
    free(pa), free(pb), free(na), free(nb), free(oa), free(ob);
}

/* ---- round trips ------------------------------------------------------------------- */

/* The forms a unit is packed in by the tests. */
static const mk_pack_options MODES[] = {
    {true, 0, 0, 0, false, false, NULL, false, false},     /* plain float */
    {false, 0, 0, 0, false, false, NULL, false, false},    /* the default: quantized within 1e-4 of the size, sparse */
    {false, 15, 0, 16, false, false, NULL, false, false},  /* finest grid, 16-bit normals */
    {false, 0, 1e-3, 0, false, false, NULL, false, false}, /* a coarser bound */
    {false, 0, 0, 0, false, true, NULL, false, false},     /* the default, meshopt-compressed */
    {true, 0, 0, 0, false, true, NULL, false, false},      /* plain float, meshopt-compressed */
    {true, 0, 0, 0, true, false, NULL, false, false},      /* plain, one target per frame */
    {false, 0, 0, 0, false, false, NULL, false, true},     /* the default, flat normals */
    {false, 0, 0, 0, false, true, NULL, false, true},      /* flat normals, compressed */
};
#define MODE_COUNT (sizeof MODES / sizeof MODES[0])

static void round_trip_mode(const mk_unit *u, const mk_pack_options *o, uint32_t want_targets)
{
    void *data = NULL;
    size_t size = 0;
    mk_pack_stats st;
    mk_unit *b = pack_and_read(u, o, &data, &size, &st);
    if (b) {
        CHECK_EQ_INT(st.frame_count, u->frames->frame_count);
        if (want_targets != MK_NONE && !o->every_frame)
            CHECK_EQ_INT(st.target_count, want_targets);
        if (o->every_frame)
            CHECK_EQ_INT(st.target_count, u->frames->frame_count - 1);
        CHECK_EQ_INT(st.bytes, size);
        double bound = o->plain ? 1e-6 : (o->max_position_error ? o->max_position_error : 1e-4) * st.unit_size;
        if (o->position_bits)
            bound = st.unit_size / ((1u << o->position_bits) - 1);
        CHECK(st.max_position_error <= bound);
        CHECK_EQ_INT(st.position_bits, o->plain ? 0 : st.position_bits);
        CHECK(o->plain || st.position_bits >= 1);
        if (o->position_bits)
            CHECK_EQ_INT(st.position_bits, o->position_bits);
        /* flat normals (computed on reading): within 1 degree of the folder's */
        CHECK(st.max_normal_error <= (o->plain ? 1e-6 : o->normal_bits == 16 ? 1e-4
                                                       : st.flat_normals ? 0.01746 : 1.5e-2));
        CHECK(!st.flat_normals || (!o->plain && o->normal_bits != 16));
        CHECK_EQ_INT(b->bytes_on_disk, size);
        /* the reported errors bound what is read back */
        check_same_unit(u, b, st.max_position_error, st.max_normal_error + 1e-7,
                        o->plain ? 1.2e-7 : 0.5 / 65535 + 1.2e-7); /* v' = 1 - v in the file */
        check_same_playback(u, b, 2 * st.max_position_error + 1e-6, 2 * st.max_normal_error + 1e-5);
        /* packing the read-back unit gives a file of about the same size */
        void *again = NULL;
        size_t again_size = 0;
        mk_error e;
        CHECK(mk_unit_pack(b, o, NULL, &again, &again_size, NULL, NULL, &e) == MK_OK);
        if (o->plain) /* the same but for extras.source_bytes, which is now the .glb's */
            CHECK(again_size + 16 >= size && again_size <= size + 16);
        mk_free(NULL, again, again_size);
    }
    mk_unit_destroy(b);
    mk_free(NULL, data, size);
}

static void round_trip(const char *path, uint32_t want_targets)
{
    mk_unit *u = load(path);
    CHECK(u != NULL);
    for (size_t m = 0; u && m < MODE_COUNT; m++)
        round_trip_mode(u, &MODES[m], want_targets);
    mk_unit_destroy(u);
}

static void test_round_trip_demo_knight(void)
{
    round_trip(MK_TEST_SOURCE_DIR "/assets/demo/knight", 14);
}

static void test_round_trip_demo_wing(void)
{
    /* Beat_1 = Flap_1 (up) and Beat_2 = Flap_3 (down) are the same poses */
    round_trip(MK_TEST_SOURCE_DIR "/assets/demo/wing", MK_NONE);
    /* quantized, the base pose is the frame whose deltas take the fewest
     * bytes (the wing's 4th: its normal deltas to the up and down poses stay
     * within [-1, 1] and are bytes; from frame 0 one target's leave it and
     * would be floats), so frame 0 has a target; plain packs keep frame 0
     * (round_trip above reads both back) */
    mk_unit *u = load(MK_TEST_SOURCE_DIR "/assets/demo/wing");
    mk_pack_options plain = {0};
    plain.plain = true;
    for (int k = 0; u && k < 2; k++) {
        void *data = NULL;
        size_t size = 0;
        mk_error e;
        CHECK(mk_unit_pack(u, k ? &plain : NULL, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
        const char *key = "\"frame_targets\":[", *hit = NULL;
        for (size_t i = 0; data && i + strlen(key) < size && !hit; i++)
            if (memcmp((const char *)data + i, key, strlen(key)) == 0)
                hit = (const char *)data + i + strlen(key);
        CHECK(hit != NULL);
        if (hit)
            CHECK_EQ_INT(hit[0] == '-', k == 1);
        mk_free(NULL, data, size);
    }
    mk_unit_destroy(u);
}

/* Files of version 1 (`_OBJ_V` / `_OBJ_VN` vertex attributes, base frame 0)
 * still read; packed again (version 2: maps in the extras) they read back
 * with the same maps and frames. */
/* Files written by earlier versions of the format (1: the base is frame 0;
 * 2: every extras member written) read as the same unit as their repack. */
static void test_reads_older_versions(void)
{
    static const char *const seeds[] = {"pack_tiny.glb", "pack_tiny_plain.glb",
                                         "pack_tiny_meshopt.glb", "pack_materials.glb",
                                         "pack_v2_tiny.glb", "pack_v2_tiny_meshopt.glb",
                                         "pack_v2_wing.glb"};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/fuzz/seeds/%s", MK_TEST_SOURCE_DIR, seeds[i]);
        mk_unit *u = NULL;
        mk_error e;
        CHECK_EQ_INT(mk_unit_load_packed(path, NULL, NULL, &u, &e), MK_OK);
        if (!u)
            continue;
        void *data = NULL;
        size_t size = 0;
        mk_pack_stats st;
        mk_unit *b = pack_and_read(u, NULL, &data, &size, &st);
        if (b) {
            CHECK_EQ_INT(b->position_count, u->position_count);
            CHECK_EQ_INT(b->normal_count, u->normal_count);
            CHECK_EQ_INT(b->frames->vertex_count, u->frames->vertex_count);
            CHECK(memcmp(b->source_index, u->source_index,
                         u->frames->vertex_count * sizeof(uint32_t)) == 0);
            CHECK(u->normal_count == 0 ||
                  memcmp(b->normal_vertex, u->normal_vertex, u->normal_count * sizeof(uint32_t)) == 0);
            check_same_unit(u, b, st.max_position_error, st.max_normal_error + 1e-7, 0.5 / 65535 + 1.2e-7);
        }
        mk_unit_destroy(b);
        mk_free(NULL, data, size);
        mk_unit_destroy(u);
    }
}

static void test_round_trip_generated(void)
{
    /* 17 frames, poses 0..12: 12 targets (pose 0 is the base) */
    round_trip(make_gen_unit("pack_gen", false), 12);
}

static void test_all_frames_identical(void)
{
    const char *d = make_gen_unit("pack_same", true);
    round_trip(d, 0);
    mk_unit *u = load(d);
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
    /* no targets: no glTF animations (a weights channel needs targets) */
    mk_gltf *g = NULL;
    CHECK(data && mk_gltf_parse(data, size, NULL, "same", NULL, NULL, &g, &e) == MK_OK);
    if (g) {
        CHECK_EQ_INT(g->animation_count, 0);
        CHECK_EQ_INT(g->meshes[0].target_count, 0);
    }
    mk_gltf_destroy(g);
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

static const char *json_find(const void *glb, size_t size, const char *what)
{
    const uint8_t *p = glb;
    size_t jlen = size >= 20 ? (size_t)(p[12] | p[13] << 8 | p[14] << 16 | (uint32_t)p[15] << 24) : 0;
    for (size_t i = 0; jlen <= size - 20 && i + strlen(what) <= jlen; i++)
        if (memcmp(p + 20 + i, what, strlen(what)) == 0)
            return (const char *)p + 20 + i;
    return NULL;
}

static bool json_has(const void *glb, size_t size, const char *what)
{
    return json_find(glb, size, what) != NULL;
}

/* unit_of_file[i]: the unit vertex that the packed file's vertex i is
 * (g: the file as the glTF reader reads it, one primitive). Found from
 * the triangles alone, as the file stores them and as the unit has them
 * (the same triangle order; each file triangle turned by its
 * extras.morphkit.index_turns), independently of the reader's own
 * renumbering: every file vertex must stand for one unit vertex. Without
 * first_use_order it must be the identity. */
static bool file_vertices(const mk_gltf *g, const void *glb, size_t size, const mk_unit *u,
                          uint32_t *unit_of_file)
{
    const mk_frame_set *s = u->frames;
    uint32_t n = s->vertex_count, count = s->index_count;
    CHECK_EQ_INT(g->meshes[0].primitive_count, 1);
    uint32_t *idx = malloc((size_t)count * 4), *turn = calloc(count / 3 + 1, 4);
    mk_error e;
    CHECK(mk_gltf_accessor_read_index(g, g->meshes[0].primitives[0].indices, idx, count, &e) ==
          MK_OK);
    const char *t = json_find(glb, size, "\"index_turns\":");
    unsigned at = 0;
    if (t && sscanf(t, "\"index_turns\":%u", &at) == 1)
        CHECK(mk_gltf_accessor_read_index(g, at, turn, count / 3, &e) == MK_OK);
    for (uint32_t i = 0; i < n; i++)
        unit_of_file[i] = MK_NONE;
    bool ok = true;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t tri = k / 3, c = k % 3, f = idx[k];
        uint32_t v = s->indices[3 * tri + (c + turn[tri]) % 3]; /* file corner c: unit's c + turn */
        ok &= f < n && (unit_of_file[f] == MK_NONE || unit_of_file[f] == v);
        if (f < n)
            unit_of_file[f] = v;
    }
    /* vertices no triangle uses: after the others, in order, both ways */
    bool *used = calloc(n, sizeof *used);
    for (uint32_t k = 0; k < count; k++)
        used[s->indices[k]] = true;
    uint32_t next_file = 0;
    for (uint32_t v = 0; v < n; v++) {
        if (used[v])
            continue;
        while (next_file < n && unit_of_file[next_file] != MK_NONE)
            next_file++;
        if (next_file < n)
            unit_of_file[next_file] = v;
    }
    free(used);
    bool identity = true;
    for (uint32_t i = 0; i < n; i++) {
        ok &= unit_of_file[i] != MK_NONE;
        identity &= unit_of_file[i] == i;
    }
    CHECK(ok);
    if (!json_has(glb, size, "\"first_use_order\":true"))
        CHECK(identity);
    free(idx), free(turn);
    return identity;
}

/* The integers of the JSON array after `key` (e.g. "\"frame_targets\":[")
 * into out; their count (0 when absent). */
static int json_ints(const void *glb, size_t size, const char *key, int *out, int max)
{
    const char *p = json_find(glb, size, key);
    if (!p)
        return 0;
    p += strlen(key);
    int n = 0;
    while (n < max && *p != ']') {
        char *end;
        out[n++] = (int)strtol(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* "\"key\":[v0,v1,...]" into out (entry `at`, when not -1, replaced by
 * `value`). */
static void int_array_json(char out[256], const char *key, const int *v, int n, int at, int value)
{
    int k = snprintf(out, 256, "\"%s\":[", key);
    for (int i = 0; i < n && k < 240; i++)
        k += snprintf(out + k, (size_t)(256 - k), "%s%d", i ? "," : "", i == at ? value : v[i]);
    snprintf(out + k, (size_t)(256 - k), "]");
}

/* The base pose is the frame that makes the smallest file, tried frame by
 * frame: a strip of 1 000 vertices whose 9 frames each move 10 more of
 * them far (SHORT deltas). Every base needs SHORT targets, so an estimate
 * by delta type ties (and takes frame 0). A target's deltas may be taken
 * from another target's pose, at most 4 deep (pack format 7): from the
 * middle frame every target is 10 vertices from its parent (4 deep each
 * way), from any other frame some target is 5 or more steps away and
 * moves 20 or more. Sparse, the middle frame makes the smallest file. The
 * unit reads back the same. */
static void test_base_frame_search(void)
{
    enum { N = 500, FRAMES = 9, MIDDLE = 4 };
    const char *d = mk_fx_dir("pack_base_search");
    for (int k = 1; k <= FRAMES; k++) {
        char file[32], *text = malloc(40 * 2 * N + 40 * 2 * N + 64), *t = text;
        snprintf(file, sizeof file, "Move_%d.obj", k);
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < N; c++) {
                int i = r * N + c; /* frame k has moved vertices 0 .. 10 (k - 1) - 1 */
                double z = i < 10 * (k - 1) ? 0.5 : 0.0;
                t += sprintf(t, "v %d %d %.2f\n", c, r, z);
            }
        for (int c = 0; c + 1 < N; c++)
            t += sprintf(t, "f %d %d %d\nf %d %d %d\n", c + 1, c + 2, N + c + 2, c + 1,
                         N + c + 2, N + c + 1);
        mk_fx_write(d, file, text);
        free(text);
    }
    mk_unit *u = load(d);
    void *data = NULL;
    size_t size = 0;
    mk_pack_stats st;
    mk_unit *b = u ? pack_and_read(u, NULL, &data, &size, &st) : NULL;
    int ft[FRAMES] = {0}, parents[FRAMES] = {0};
    CHECK(data && json_ints(data, size, "\"frame_targets\":[", ft, FRAMES) == FRAMES);
    CHECK_EQ_INT(ft[MIDDLE], -1); /* the middle frame is the base */
    /* each target's parent: the base or the target next to it towards it */
    CHECK(data && json_ints(data, size, "\"target_parents\":[", parents, FRAMES) == FRAMES - 1);
    for (int f = 0; f < FRAMES; f++) {
        if (f == MIDDLE || ft[f] < 0 || ft[f] >= FRAMES - 1)
            continue;
        const int toward = f < MIDDLE ? f + 1 : f - 1;
        CHECK_EQ_INT(parents[ft[f]], toward == MIDDLE ? -1 : ft[toward]);
    }
    if (u && b)
        check_same_unit(u, b, st.max_position_error, 0, 0);
    mk_unit_destroy(b);
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

/* The `v` map told by the base pose (obj_v_order) only when the base
 * positions name the `v`s exactly: two `v`s at the same place in every
 * frame keep the map itself; the demo knight's is told. Either way the
 * unit reads back with the same maps. */

static void test_maps_told_by_base_pose(void)
{
    const char *d = mk_fx_dir("pack_twin_v");
    for (int k = 1; k <= 3; k++) {
        char file[32], text[512];
        snprintf(file, sizeof file, "Walk_%d.obj", k);
        snprintf(text, sizeof text,
                 "v 0 0 0\nv 1 0 0\nv 1 0 0\nv 0 1 %.1f\nvt 0 0\nvt 1 0\nvt 0 1\nvt 1 1\nvn 0 0 1\n"
                 "f 1/1/1 2/2/1 4/3/1\nf 3/4/1 4/3/1 1/1/1\nf 2/4/1 3/2/1 4/1/1\n",
                 0.1 * k);
        mk_fx_write(d, file, text);
    }
    const char *units[] = {d, MK_TEST_SOURCE_DIR "/assets/demo/knight"};
    for (int i = 0; i < 2; i++) {
        mk_unit *u = load(units[i]);
        void *data = NULL;
        size_t size = 0;
        mk_pack_stats st;
        mk_unit *b = u ? pack_and_read(u, NULL, &data, &size, &st) : NULL;
        CHECK(data && json_has(data, size, "\"obj_v_order\":") == (i == 1));
        CHECK(data && json_has(data, size, "\"obj_v\":") == (i == 0));
        if (b) {
            CHECK_EQ_INT(b->position_count, u->position_count);
            CHECK(memcmp(b->source_index, u->source_index, u->frames->vertex_count * sizeof(uint32_t)) == 0);
        }
        mk_unit_destroy(b);
        mk_free(NULL, data, size);
        mk_unit_destroy(u);
    }
}

/* A regular grid (quads row by row, a normal per vertex): its vertices'
 * first-use order is the `v` order but in the first two rows, so the maps
 * are stored as deltas from the identity (map_deltas): sparse, with just the
 * entries of those rows, in the uncompressed form; dense (mostly zeros)
 * under --compress. Both read back with the unit's own maps. A permutation
 * far from the identity (the knight) keeps its maps as they are. */
/* A 12 x 12 grid (normals too) in three waves, named `name`: its faces
 * use the `v`s row by row, so its first-use order differs from the `v`
 * order in every row's first vertices. */
static const char *make_grid_unit(const char *name)
{
    enum { N = 12 };
    const char *d = mk_fx_dir(name);
    for (int k = 1; k <= 3; k++) {
        char file[32], *text = malloc(64 * N * N * 3 + 64), *t = text;
        snprintf(file, sizeof file, "Wave_%d.obj", k);
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++)
                t += sprintf(t, "v %d %d %.4f\n", c, r, 0.1 * k * sin(c + r));
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++)
                t += sprintf(t, "vn 0 %.4f 1\n", 0.1 * k * cos(c + 2 * r));
        for (int r = 0; r + 1 < N; r++)
            for (int c = 0; c + 1 < N; c++) {
                int a = r * N + c + 1, b = a + N;
                t += sprintf(t, "f %d//%d %d//%d %d//%d %d//%d\n", a, a, b, b, b + 1, b + 1, a + 1, a + 1);
            }
        mk_fx_write(d, file, text);
        free(text);
    }
    return d;
}

static void test_map_deltas(void)
{
    const char *d = make_grid_unit("pack_grid_maps");
    const char *units[] = {d, MK_TEST_SOURCE_DIR "/assets/demo/knight"};
    for (int i = 0; i < 2; i++)
        for (int compress = 0; compress < 2; compress++) {
            mk_unit *u = load(units[i]);
            mk_pack_options o = {0};
            o.compress = compress;
            void *data = NULL;
            size_t size = 0;
            mk_pack_stats st;
            mk_unit *b = u ? pack_and_read(u, &o, &data, &size, &st) : NULL;
            /* compressed, the grid's vertices are stored in `v` order: no maps at all */
            CHECK(data && json_has(data, size, "\"map_deltas\":true") == (i == 0 && !compress));
            if (i == 0 && compress)
                CHECK(data && json_has(data, size, "\"first_use_order\":true") &&
                      !json_has(data, size, "\"obj_v\"") && !json_has(data, size, "\"obj_vn\""));
            /* uncompressed: the grid's maps sparse (2 N of N * N entries differ) */
            if (i == 0 && !compress)
                CHECK(data && json_has(data, size, "\"type\":\"SCALAR\",\"sparse\":{\"count\":"));
            if (b && u) {
                CHECK(memcmp(b->source_index, u->source_index,
                             u->frames->vertex_count * sizeof(uint32_t)) == 0);
                CHECK_EQ_INT(b->normal_count, u->normal_count);
                CHECK(u->normal_count == 0 || memcmp(b->normal_vertex, u->normal_vertex,
                                                     u->normal_count * sizeof(uint32_t)) == 0);
            }
            mk_unit_destroy(b);
            mk_free(NULL, data, size);
            mk_unit_destroy(u);
        }
}

/* Normals that never move (a limb that bends at flat faces, a unit moved
 * whole): no target carries NORMAL, in every form, and the frames read
 * back with the folder's normals; with normals that move, every target
 * has NORMAL (all or nothing). The small unit's second triangle is one
 * meshopt's triangle codec would start at another corner: compressed, its
 * indices go through the sequence codec and read back as they were. */
static void test_static_normals_no_normal_targets(void)
{
    const char *d = mk_fx_dir("pack_static_normals");
    for (int k = 1; k <= 3; k++) {
        char file[32], text[512];
        snprintf(file, sizeof file, "Slide_%d.obj", k);
        snprintf(text, sizeof text,
                 "v %.1f 0 0\nv %.1f 0 0\nv %.1f 1 0\nv %.1f 1 0\nvn 0 0.6 0.8\n"
                 "f 1//1 2//1 3//1\nf 2//1 4//1 3//1\n",
                 0.1 * k, 1 + 0.1 * k, 0.1 * k, 1 + 0.2 * k);
        mk_fx_write(d, file, text);
    }
    const char *units[] = {d, MK_TEST_SOURCE_DIR "/assets/demo/knight"};
    for (int i = 0; i < 2; i++)
        for (int form = 0; form < 3; form++) {
            mk_unit *u = load(units[i]);
            mk_pack_options o = {0};
            o.plain = form == 1;
            o.compress = form == 2;
            void *data = NULL;
            size_t size = 0;
            mk_pack_stats st;
            mk_unit *b = u ? pack_and_read(u, &o, &data, &size, &st) : NULL;
            CHECK(!st.flat_normals);
            CHECK(data && json_has(data, size, "{\"POSITION\":") &&
                  json_has(data, size, ",\"NORMAL\":") /* the base's */);
            /* a target's NORMAL follows its POSITION: `{"POSITION":5,"NORMAL":6}` */
            bool target_normal = false;
            for (uint32_t a = 0; data && a < 64 && !target_normal; a++) {
                char key[48];
                snprintf(key, sizeof key, "{\"POSITION\":%u,\"NORMAL\":", a);
                target_normal = json_has(data, size, key) && a > 0;
            }
            CHECK(target_normal == (i == 1));
            /* its second triangle turned by the codec, and turned back */
            if (i == 0)
                CHECK(data && json_has(data, size, "\"index_turns\":") == (form == 2));
            if (u && b) /* within the errors pack reports; the same indices (corners too) */
                check_same_unit(u, b, st.max_position_error, st.max_normal_error + 1e-7,
                                o.plain ? 1.2e-7 : 0.5 / 65535 + 1.2e-7);
            mk_unit_destroy(b);
            mk_free(NULL, data, size);
            mk_unit_destroy(u);
        }
}

static const char *make_material_unit(const char *name, const char *mtl);

/* no_texcoords: the same unit without texture coordinates, and smaller by
 * them; refused for a unit whose material has a texture. */
static void test_no_texcoords(void)
{
    mk_unit *u = load(MK_TEST_SOURCE_DIR "/assets/demo/knight");
    void *with = NULL, *without = NULL;
    size_t with_size = 0, without_size = 0;
    mk_pack_stats st;
    mk_pack_options o = {0};
    o.no_texcoords = true;
    mk_unit *a = u ? pack_and_read(u, NULL, &with, &with_size, &st) : NULL;
    mk_unit *b = u ? pack_and_read(u, &o, &without, &without_size, &st) : NULL;
    CHECK(u && u->frames->texcoords && a && a->frames->texcoords);
    if (a && b) {
        CHECK(b->frames->texcoords == NULL);
        size_t n = (size_t)u->frames->frame_count * u->frames->vertex_count * 3;
        CHECK(max_abs_diff(a->frames->positions, b->frames->positions, n) == 0.0);
        CHECK(max_abs_diff(a->frames->normals, b->frames->normals, n) == 0.0);
        CHECK(memcmp(a->source_index, b->source_index, u->frames->vertex_count * sizeof(uint32_t)) == 0);
        /* 4 bytes a vertex (two normalized UNSIGNED_SHORT) and the accessor */
        CHECK(without_size + 4 * (size_t)u->frames->vertex_count <= with_size);
    }
    mk_unit_destroy(a);
    mk_unit_destroy(b);
    mk_free(NULL, with, with_size);
    mk_free(NULL, without, without_size);
    mk_unit_destroy(u);

    const char *d = make_material_unit("pack_mat_uv", "newmtl tex\nKd 1 1 1\nmap_Kd skin.png\n");
    mk_unit *t = load(d);
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    CHECK(t && mk_unit_pack(t, &o, NULL, &data, &size, NULL, NULL, &e) == MK_ERR_INVALID_ARGUMENT);
    CHECK(data == NULL);
    CHECK_CONTAINS(e.message, "material 'tex' has a texture");
    mk_unit_destroy(t);
}

/* A 3 x 2 grid of `v` with a texture seam down its middle column: the
 * right quad gives v2 and v5 texture coordinates of their own. v5 keeps
 * its `vn` there, v2 takes vn 7, equal to vn 2 in pose 0 only. */
static void write_seam_frame(const char *dir, const char *file, int pose)
{
    char text[2048];
    int n = 0;
    for (int i = 0; i < 6; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "v %.6f %.6f %.6f\n", (double)(i % 3),
                      (double)(i / 3), 0.1 * pose * sin(i + 1.0));
    for (int i = 0; i < 8; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "vt %.3f %.3f\n", 0.1 * i, 0.05 * i);
    for (int i = 0; i < 7; i++) {
        double x = i < 6 ? 0.1 * i : 0.1 + 0.2 * pose, y = 0.05 * pose;
        n += snprintf(text + n, sizeof text - (size_t)n, "vn %.5f %.5f 1\n", x, y);
    }
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "f 1/1/1 2/2/2 5/5/5\nf 1/1/1 5/5/5 4/4/4\n"
                  "f 2/7/7 3/3/3 6/6/6\nf 2/7/7 6/6/6 5/8/5\n");
    mk_fx_write(dir, file, text);
}

/* A unit of three seam frames. */
static const char *make_seam_unit(const char *name)
{
    const char *d = mk_fx_dir(name);
    write_seam_frame(d, "walk_1.obj", 0);
    write_seam_frame(d, "walk_2.obj", 1);
    write_seam_frame(d, "walk_3.obj", 2);
    return d;
}

/* no_texcoords: vertices split only by texture coordinates (a seam) are
 * one vertex again; those whose normals differ in any frame stay apart.
 * The unit reads back with the folder's `v`s, `vn`s and corners. */
static void test_no_texcoords_welds_seams(void)
{
    mk_unit *u = load(make_seam_unit("pack_seam"));
    CHECK(u != NULL);
    if (!u)
        return;
    /* the folder: 6 `v` + v2 and v5 again for the right quad's corners */
    CHECK_EQ_INT(u->frames->vertex_count, 8);
    mk_pack_options o = {0};
    o.no_texcoords = true;
    for (int compress = 0; compress < 2; compress++) {
        o.compress = compress;
        void *data = NULL;
        size_t size = 0;
        mk_pack_stats st;
        mk_unit *b = pack_and_read(u, &o, &data, &size, &st);
        if (b) {
            const mk_frame_set *fa = u->frames, *fb = b->frames;
            CHECK(fb->texcoords == NULL);
            CHECK_EQ_INT(fb->vertex_count, 7); /* v5's two are one; v2's stay two */
            CHECK_EQ_INT(fb->index_count, fa->index_count);
            CHECK_EQ_INT(b->position_count, 6);
            CHECK_EQ_INT(b->normal_count, 7);
            float oa[3 * 7], ob[3 * 7];
            for (uint32_t f = 0; f < fa->frame_count && fb->vertex_count == 7; f++) {
                const float *pa = mk_frame_set_positions(fa, f), *pb = mk_frame_set_positions(fb, f);
                const float *na = mk_frame_set_normals(fa, f), *nb = mk_frame_set_normals(fb, f);
                mk_unit_to_source_order(u, pa, oa);
                mk_unit_to_source_order(b, pb, ob);
                CHECK(max_abs_diff(oa, ob, 3 * 6) <= st.max_position_error);
                mk_unit_normals_to_source_order(u, na, oa);
                mk_unit_normals_to_source_order(b, nb, ob);
                CHECK(max_abs_diff(oa, ob, 3 * 7) <= st.max_normal_error + 1e-7);
                for (uint32_t i = 0; i < fa->index_count; i++) { /* every corner */
                    uint32_t x = fa->indices[i], y = fb->indices[i];
                    CHECK_EQ_INT(u->source_index[x], b->source_index[y]);
                    CHECK(max_abs_diff(pa + 3 * x, pb + 3 * y, 3) <= st.max_position_error);
                    CHECK(max_abs_diff(na + 3 * x, nb + 3 * y, 3) <= st.max_normal_error + 1e-7);
                }
            }
            /* the seam's corners share a vertex, the hard edge's do not */
            CHECK(fb->indices[4] == fb->indices[11]); /* v5 on the left and the right */
            CHECK(fb->indices[1] != fb->indices[6]);  /* v2: vn 2, vn 7 */
        }
        mk_unit_destroy(b);
        mk_free(NULL, data, size);
    }
    mk_unit_destroy(u);

    /* two `vn` of equal values, each first used at v1 (found by fuzzing):
     * the `vn` map names one vertex for each, so v1's two stay apart; v3's
     * two (neither named by the map) become one: 6 render vertices -> 5 */
    const char *d = mk_fx_dir("pack_seam_twin_vn");
    const char *obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                      "vt 0 0\nvt 1 0\nvt 1 1\nvt 0.5 0\nvt 0.5 1\nvt 0 1\n"
                      "vn 0 0 1\nvn 0 0 1\nf 1/1/1 2/2/1 3/3/1\nf 1/4/2 3/5/2 4/6/2\n";
    mk_fx_write(d, "still_1.obj", obj);
    u = load(d);
    CHECK(u && u->frames->vertex_count == 6);
    void *data = NULL;
    size_t size = 0;
    mk_pack_stats st;
    mk_unit *b = u ? pack_and_read(u, &o, &data, &size, &st) : NULL;
    if (b) {
        CHECK_EQ_INT(b->frames->vertex_count, 5);
        CHECK_EQ_INT(b->normal_count, 2);
        CHECK(b->normal_vertex[0] != b->normal_vertex[1]);
        CHECK_EQ_INT(b->source_index[b->normal_vertex[0]], 0);
        CHECK_EQ_INT(b->source_index[b->normal_vertex[1]], 0);
    }
    mk_unit_destroy(b);
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

static void test_padded_file_names(void)
{
    /* Blender's walk_000001.obj: the names are stored (and come back) */
    const char *d = mk_fx_dir("pack_padded");
    write_frame(d, "walk_000001.obj", 0);
    write_frame(d, "walk_000002.obj", 5);
    write_frame(d, "walk_000003.obj", 0);
    round_trip(d, 1);
}

static void test_load_detects_file(void)
{
    mk_unit *u = load(MK_TEST_SOURCE_DIR "/assets/demo/wing");
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
    const char *d = mk_fx_dir("pack_file");
    const char *path = mk_fx_path(d, "wing.glb");
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size);
    if (f)
        fclose(f);
    CHECK(mk_pack_is_unit_file(path, NULL));
    CHECK(!mk_pack_is_unit_file(MK_TEST_SOURCE_DIR
                                "/tests/data/gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb",
                                NULL));
    mk_unit *b = load(path); /* mk_unit_load takes the file too */
    CHECK(b != NULL);
    if (b && u)
        check_same_unit(u, b, 1e-3, 2e-2, 1e-5);
    mk_unit_destroy(b);
    mk_unit_destroy(u);
    mk_free(NULL, data, size);
}

/* ---- the glTF animation against the player ------------------------------------- */

/* At times inside the first pass of each clip (away from the 1 us of a
 * cut), base + sum w_t delta_t with the weights of the glTF track sampler
 * equals the player's pose. */
static void check_gltf_animation(const char *path, const mk_pack_options *o)
{
    mk_unit *u = load(path);
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    mk_pack_stats st = {0};
    CHECK(u && mk_unit_pack(u, o, NULL, &data, &size, &st, NULL, &e) == MK_OK);
    mk_gltf *g = NULL;
    CHECK(data && mk_gltf_parse(data, size, NULL, "anim", NULL, NULL, &g, &e) == MK_OK);
    if (!g || !u) {
        mk_gltf_destroy(g);
        mk_free(NULL, data, size);
        mk_unit_destroy(u);
        return;
    }
    mk_morph_set *m = NULL;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &m, &e) == MK_OK);
    CHECK_EQ_INT(g->animation_count, u->clips->clip_count);
    uint32_t nv = u->frames->vertex_count, targets = g->meshes[0].target_count;
    float *want = malloc(nv * 12), *got = malloc(nv * 12), *w = malloc((targets + 1) * 4);
    float *got_file = malloc(nv * 12);
    uint32_t *unit_of_file = malloc(nv * 4);
    file_vertices(g, data, size, u, unit_of_file);
    for (uint32_t c = 0; m && c < g->animation_count; c++) {
        const mk_clip *clip = &u->clips->clips[c];
        CHECK(strcmp(g->animations[c].name, clip->name) == 0);
        mk_track_clip *tc = NULL;
        CHECK(mk_gltf_build_track_clip(g, c, NULL, &tc, &e) == MK_OK);
        if (!tc)
            continue;
        /* the first pass: to the loop frame / next clip, or the held last frame */
        int64_t end = clip->length_us;
        CHECK_EQ_INT(mk_track_clip_duration(tc), end);
        for (int64_t t = 0; t <= end; t += 997) {
            /* skip the microseconds around a cut */
            int64_t b = 0;
            bool near_cut = false;
            for (uint32_t k = 0; k < clip->frame_count; k++) {
                b += clip->durations_us[k];
                if (t > b - 3 && t < b + 3)
                    near_cut = true;
            }
            if (near_cut)
                continue;
            mk_player p;
            mk_player_init(&p, u->clips);
            mk_player_play(&p, c, NULL);
            mk_player_advance(&p, t, NULL);
            mk_pose pose;
            mk_player_pose(&p, &pose);
            CHECK(mk_pose_eval(u->frames, &pose, want, NULL, u->frames->vertex_count, NULL) == MK_OK);
            mk_track_sample(&tc->tracks[0], t, w);
            CHECK(mk_morph_evaluate(m, w, got_file, NULL, NULL, m->vertex_count, NULL) == MK_OK);
            /* the node places quantized positions: translation + scale * q */
            for (size_t i = 0; i < 3 * (size_t)nv; i++)
                got[3 * (size_t)unit_of_file[i / 3] + i % 3] =
                    g->nodes[0].translation[i % 3] + g->nodes[0].scale[i % 3] * got_file[i];
            double d = max_abs_diff(want, got, 3 * (size_t)nv), tol = 2 * st.max_position_error + 2e-5;
            if (d > tol)
                fprintf(stderr, "%s clip %s t %lld: differs by %g\n", path, clip->name,
                        (long long)t, d);
            CHECK(d <= tol);
        }
        mk_track_clip_destroy(tc);
    }
    free(want), free(got), free(w), free(got_file), free(unit_of_file);
    mk_morph_set_destroy(m);
    mk_gltf_destroy(g);
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

static void test_gltf_animation_matches_player(void)
{
    for (size_t m = 0; m < MODE_COUNT; m++) {
        check_gltf_animation(make_gen_unit("pack_anim", false), &MODES[m]);
        check_gltf_animation(MK_TEST_SOURCE_DIR "/assets/demo/knight", &MODES[m]);
        check_gltf_animation(MK_TEST_SOURCE_DIR "/assets/demo/wing", &MODES[m]);
    }
}

static void test_single_frame_clips(void)
{
    /* a looping smooth clip of one frame (blends into itself) and a once
     * clip of one frame (a single key) */
    const char *d = mk_fx_dir("pack_single");
    write_frame(d, "Hold_1.obj", 3);
    write_frame(d, "Pose_1.obj", 5);
    write_frame(d, "Walk_1.obj", 0);
    write_frame(d, "Walk_2.obj", 5);
    mk_fx_write(d, "animation.cfg", "Once Pose\nInterpolation Hold smooth\n");
    round_trip(d, 2); /* Hold_1 is the base; Pose_1 = Walk_2 */
    for (size_t m = 0; m < MODE_COUNT; m++)
        check_gltf_animation(d, &MODES[m]);
}

/* ---- materials ---------------------------------------------------------------- */

static const unsigned char PNG_1X1[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
    0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00,
    0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78,
    0xda, 0x63, 0xfc, 0xcf, 0xc0, 0x50, 0x0f, 0x00, 0x04, 0x85, 0x01, 0x80, 0x84, 0xa9,
    0x8c, 0x21, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

/* Faces before any usemtl, then red, tex (a quad: 2 triangles), red again:
 * triangles (none, red, tex, tex, red) -> primitives none, red, tex. */
static const char *make_material_unit(const char *name, const char *mtl)
{
    const char *d = mk_fx_dir(name);
    for (int k = 1; k <= 3; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "mtllib unit.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0.%d\nv 0 1 0\nv 2 0 0\n"
                 "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n"
                 "f 1/1/1 2/2/1 3/3/1\nusemtl red\nf 1/1/1 3/3/1 4/4/1\n"
                 "usemtl tex\nf 2/2/1 5/1/1 3/3/1 4/4/1\nusemtl red\nf 2/2/1 5/2/1 3/3/1\n",
                 k);
        char file[32];
        snprintf(file, sizeof file, "Walk_%d.obj", k);
        mk_fx_write(d, file, text);
    }
    mk_fx_write(d, "unit.mtl", mtl);
    FILE *f = fopen(mk_fx_path(d, "skin.png"), "wb");
    CHECK(f && fwrite(PNG_1X1, 1, sizeof PNG_1X1, f) == sizeof PNG_1X1);
    if (f)
        fclose(f);
    return d;
}

static bool contains(const void *data, size_t size, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp((const char *)data + i, s, n) == 0)
            return true;
    return false;
}

static void test_materials(void)
{
    const char *d = make_material_unit(
        "pack_mat", "newmtl red\nKd 1 0 0\nd 0.5\nnewmtl tex\nKd 0.5 0.25 1\nmap_Kd skin.png\n");
    mk_unit *u = load(d);
    for (size_t m = 0; u && m < MODE_COUNT; m++) {
        void *data = NULL;
        size_t size = 0;
        mk_error e;
        mk_report *rep = mk_fx_report();
        CHECK(mk_unit_pack(u, &MODES[m], NULL, &data, &size, NULL, rep, &e) == MK_OK);
        CHECK_EQ_INT(mk_report_warning_count(rep), 0);
        mk_report_destroy(rep);
        mk_gltf *g = NULL;
        CHECK(data && mk_gltf_parse(data, size, NULL, "mat", NULL, NULL, &g, &e) == MK_OK);
        if (g) {
            CHECK_EQ_INT(g->meshes[0].primitive_count, 3);
            CHECK_EQ_INT(g->meshes[0].primitives[0].material, MK_NONE);
            CHECK_EQ_INT(g->meshes[0].primitives[1].material, 0);
            CHECK_EQ_INT(g->meshes[0].primitives[2].material, 1);
            CHECK_EQ_INT(g->accessors[g->meshes[0].primitives[1].indices].count, 6);
            CHECK_EQ_INT(g->accessors[g->meshes[0].primitives[2].indices].count, 6);
        }
        mk_gltf_destroy(g);
        CHECK(contains(data, size, "\"baseColorFactor\":[1,0,0,0.5]"));
        CHECK(contains(data, size, "\"alphaMode\":\"BLEND\""));
        CHECK(contains(data, size, "\"mimeType\":\"image/png\""));
        CHECK(contains(data, size, "\"material_runs\":[[0,1],[1,1],[2,2],[1,1]]"));
        CHECK(contains(data, size, "IHDR")); /* the image is embedded as it is */
        /* read back: the unit's triangle order */
        mk_unit *b = NULL;
        CHECK(mk_unit_parse_packed(data, size, "mat.glb", NULL, &b, &e) == MK_OK);
        if (b)
            check_same_unit(u, b, 3e-3, 2e-2, 1e-4);
        /* a packed unit has no frame files: its materials are glTF's, and
           the .mtl lookup says so instead of failing to open "mat.glb/..." */
        float rgba[4];
        if (b) {
            CHECK_EQ_INT(mk_unit_diffuse(b, NULL, NULL, rgba, &e), MK_ERR_NOT_FOUND);
            CHECK_CONTAINS(e.message, "a packed unit: its materials are glTF materials");
        }
        mk_unit_destroy(b);
        mk_free(NULL, data, size);
    }
    mk_unit_destroy(u);
}

static void test_material_problems_are_warnings(void)
{
    /* a missing texture, a material no .mtl defines */
    const char *d = make_material_unit("pack_mat_warn", "newmtl red\nKd 1 0 0\nmap_Kd gone.png\n");
    mk_unit *u = load(d);
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    mk_report *rep = mk_fx_report();
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, rep, &e) == MK_OK);
    CHECK_EQ_INT(mk_report_warning_count(rep), 2);
    CHECK_EQ_INT(mk_report_error_count(rep), 0);
    for (uint32_t i = 0; i < mk_report_count(rep); i++)
        CHECK(strstr(mk_report_item(rep, i)->message, "gone.png") || strstr(mk_report_item(rep, i)->message, "tex"));
    mk_report_clear(rep);
    CHECK(data && !contains(data, size, "\"images\""));
    mk_free(NULL, data, size);
    /* no .mtl at all */
    remove(mk_fx_path(d, "unit.mtl"));
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, rep, &e) == MK_OK);
    CHECK_EQ_INT(mk_report_warning_count(rep), 1);
    CHECK(mk_report_count(rep) && strstr(mk_report_item(rep, 0)->message, "unit.mtl"));
    mk_report_destroy(rep);
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

static void test_gltf_keys_by_hand(void)
{
    /* Lin: frames 100, 250, 100 (no-blend), 100 ms, loop to frame 2. Keys:
     * 0, 0.1, 0.35, 0.449999 (hold), 0.45, 0.55 (= frame 2 again). */
    mk_unit *u = load(make_gen_unit("pack_keys", false));
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
    mk_gltf *g = NULL;
    CHECK(data && mk_gltf_parse(data, size, NULL, "keys", NULL, NULL, &g, &e) == MK_OK);
    if (g) {
        const mk_gltf_sampler *s = &g->animations[1].samplers[0];
        CHECK(strcmp(g->animations[1].name, "Lin") == 0);
        CHECK_EQ_INT(s->interpolation, MK_INTERPOLATION_LINEAR);
        const mk_gltf_accessor *in = &g->accessors[s->input];
        CHECK_EQ_INT(in->count, 6);
        float t[6];
        CHECK(mk_gltf_accessor_read_float(g, s->input, t, 6, &e) == MK_OK);
        CHECK_NEAR(t[1], 0.1, 1e-7);
        CHECK_NEAR(t[2], 0.35, 1e-7);
        CHECK_NEAR(t[3], 0.449999, 1e-7);
        CHECK_NEAR(t[4], 0.45, 1e-7);
        CHECK_NEAR(t[5], 0.55, 1e-7);
        /* Smo (smooth) is CUBICSPLINE, Stp (step) STEP */
        CHECK_EQ_INT(g->animations[3].samplers[0].interpolation, MK_INTERPOLATION_CUBICSPLINE);
        CHECK_EQ_INT(g->animations[4].samplers[0].interpolation, MK_INTERPOLATION_STEP);
    }
    mk_gltf_destroy(g);
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

/* ---- bad input --------------------------------------------------------------------- */

/* The GLB with its JSON chunk's `from` replaced by `to` (re-wrapped). */
static uint8_t *edit_json(const uint8_t *glb, size_t size, const char *from, const char *to,
                          size_t *out_size)
{
    uint32_t jlen = (uint32_t)glb[12] | (uint32_t)glb[13] << 8 | (uint32_t)glb[14] << 16 |
                    (uint32_t)glb[15] << 24;
    const char *json = (const char *)glb + 20;
    char *hit = NULL;
    for (size_t i = 0; i + strlen(from) <= jlen && !hit; i++)
        if (memcmp(json + i, from, strlen(from)) == 0)
            hit = (char *)json + i;
    CHECK(hit != NULL);
    if (!hit)
        return NULL;
    size_t head = (size_t)(hit - json), tail = jlen - head - strlen(from);
    size_t nj = head + strlen(to) + tail;
    size_t pj = (nj + 3) & ~(size_t)3, rest = size - 20 - jlen;
    *out_size = 20 + pj + rest;
    uint8_t *o = calloc(1, *out_size);
    memcpy(o, glb, 20);
    memcpy(o + 20, json, head);
    memcpy(o + 20 + head, to, strlen(to));
    memcpy(o + 20 + head + strlen(to), hit + strlen(from), tail);
    memset(o + 20 + nj, ' ', pj - nj);
    memcpy(o + 20 + pj, glb + 20 + jlen, rest);
    uint32_t total = (uint32_t)*out_size, pj32 = (uint32_t)pj;
    for (int i = 0; i < 4; i++) {
        o[8 + i] = (uint8_t)(total >> (8 * i));
        o[12 + i] = (uint8_t)(pj32 >> (8 * i));
    }
    return o;
}

/* One edit of a packed file's JSON and the error it must give. */
typedef struct bad_case {
    const char *from, *to;
    mk_status code;
    const char *message;
} bad_case;

/* Each case applied to glb alone: the reader fails with its status and a
 * message naming the member, and returns no unit. */
static void check_bad_cases(const void *glb, size_t size, const bad_case *cases, size_t count)
{
    mk_error e;
    for (size_t i = 0; i < count; i++) {
        size_t n = 0;
        uint8_t *bad = edit_json(glb, size, cases[i].from, cases[i].to, &n);
        if (!bad)
            continue;
        mk_unit *b = NULL;
        mk_status s = mk_unit_parse_packed(bad, n, "bad.glb", NULL, &b, &e);
        if (s != cases[i].code || !strstr(e.message, cases[i].message))
            fprintf(stderr, "case %zu (%s): status %d, '%s'\n", i, cases[i].to, s, e.message);
        CHECK_EQ_INT(s, cases[i].code);
        CHECK_CONTAINS(e.message, cases[i].message);
        CHECK(b == NULL);
        CHECK_EQ_INT(strcmp(e.file, "bad.glb"), 0);
        free(bad);
    }
}

/* Swaps render vertices a and b of u everywhere (frames, texture
 * coordinates, indices, maps): the same unit, numbered otherwise. */
static void swap_vertices(mk_unit *u, uint32_t a, uint32_t b)
{
    mk_frame_set *s = u->frames;
    for (uint32_t f = 0; f < s->frame_count; f++)
        for (int k = 0; k < 2; k++) {
            float *p = k ? mk_frame_set_normals_to_fill(s, f) : mk_frame_set_positions_to_fill(s, f);
            for (int c = 0; p && c < 3; c++) {
                float t = p[3 * a + c];
                p[3 * a + c] = p[3 * b + c];
                p[3 * b + c] = t;
            }
        }
    for (int c = 0; s->texcoords && c < 2; c++) {
        float t = s->texcoords[2 * a + c];
        s->texcoords[2 * a + c] = s->texcoords[2 * b + c];
        s->texcoords[2 * b + c] = t;
    }
    for (uint32_t i = 0; i < s->index_count; i++)
        s->indices[i] = s->indices[i] == a ? b : s->indices[i] == b ? a : s->indices[i];
    uint32_t t = u->source_index[a];
    u->source_index[a] = u->source_index[b];
    u->source_index[b] = t;
    for (uint32_t j = 0; j < u->normal_count; j++)
        u->normal_vertex[j] = u->normal_vertex[j] == a   ? b
                              : u->normal_vertex[j] == b ? a
                                                         : u->normal_vertex[j];
}

/* --compress may store the vertices in `v` order, which the file says
 * (first_use_order); the reader numbers them again in order of first use
 * by the triangles, as the folder does: the knight's flat-shaded boxes
 * (three vertices a corner) read back as the same unit, and the file's
 * vertices are in `v` order; so does a grid of two materials whose
 * triangles interleave. A unit numbered otherwise than by first use
 * (no folder makes one) keeps its order in the file and reads back as it
 * was. A first_use_order that is not true/false, or in a version 5 file,
 * is refused. */
static void test_first_use_order(void)
{
    mk_unit *u = load(MK_TEST_SOURCE_DIR "/assets/demo/knight");
    mk_pack_options o = {0};
    o.compress = true;
    o.flat_normals = true;
    void *data = NULL;
    size_t size = 0;
    mk_pack_stats st;
    mk_unit *b = u ? pack_and_read(u, &o, &data, &size, &st) : NULL;
    CHECK(st.flat_normals);
    CHECK(data && json_has(data, size, "\"first_use_order\":true"));
    mk_gltf *g = NULL;
    mk_error e;
    CHECK(data && mk_gltf_parse(data, size, NULL, "k.glb", NULL, NULL, &g, &e) == MK_OK);
    if (u && b && g) {
        uint32_t n = u->frames->vertex_count, *unit_of_file = malloc(n * 4);
        CHECK(!file_vertices(g, data, size, u, unit_of_file));
        for (uint32_t i = 1; i < n; i++)
            CHECK(u->source_index[unit_of_file[i - 1]] <= u->source_index[unit_of_file[i]]);
        free(unit_of_file);
        check_same_unit(u, b, st.max_position_error, st.max_normal_error + 1e-7,
                        0.5 / 65535 + 1.2e-7);
    }
    static const bad_case cases[] = {
        {"\"first_use_order\":true", "\"first_use_order\":1", MK_ERR_PARSE,
         "extras.morphkit.first_use_order: not true/false (version 6)"},
        {"\"version\":7", "\"version\":5", MK_ERR_PARSE, "first_use_order"},
    };
    if (data)
        check_bad_cases(data, size, cases, 2);
    mk_gltf_destroy(g);
    mk_unit_destroy(b);
    mk_free(NULL, data, size);

    /* with materials: a grid whose faces go column by column, each column
       another material (two primitives, their triangles interleaved by
       material_runs); the `v` order needs no maps and is kept */
    enum { N = 12 };
    const char *d = mk_fx_dir("pack_first_use_mat");
    mk_fx_write(d, "grid.mtl", "newmtl a\nKd 1 0 0\nnewmtl b\nKd 0 0 1\n");
    for (int k = 1; k <= 3; k++) {
        char file[32], *text = malloc(64 * N * N * 2 + 64), *t = text;
        snprintf(file, sizeof file, "Wave_%d.obj", k);
        t += sprintf(t, "mtllib grid.mtl\n");
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++)
                t += sprintf(t, "v %d %d %.4f\n", c, r, 0.1 * k * sin(c + r));
        for (int c = 0; c + 1 < N; c++) {
            t += sprintf(t, "usemtl %s\n", c % 2 ? "b" : "a");
            for (int r = 0; r + 1 < N; r++) {
                int v = r * N + c + 1;
                t += sprintf(t, "f %d %d %d %d\n", v, v + 1, v + N + 1, v + N);
            }
        }
        mk_fx_write(d, file, text);
        free(text);
    }
    mk_unit *m = load(d);
    o.flat_normals = false;
    b = m ? pack_and_read(m, &o, &data, &size, &st) : NULL;
    CHECK(data && json_has(data, size, "\"first_use_order\":true") &&
          json_has(data, size, "\"material_runs\":[[0,22],[1,22],[0,22]") &&
          !json_has(data, size, "\"obj_v\""));
    if (m && b)
        check_same_unit(m, b, st.max_position_error, 0, 0);
    mk_unit_destroy(b);
    mk_free(NULL, data, size);
    mk_unit_destroy(m);

    /* numbered otherwise: its first two vertices swapped */
    if (u) {
        swap_vertices(u, 0, 1);
        o.flat_normals = false;
        b = pack_and_read(u, &o, &data, &size, &st);
        CHECK(data && !json_has(data, size, "first_use_order"));
        if (b)
            check_same_unit(u, b, st.max_position_error, st.max_normal_error + 1e-7,
                            0.5 / 65535 + 1.2e-7);
        mk_unit_destroy(b);
        mk_free(NULL, data, size);
    }
    mk_unit_destroy(u);
}

/* A unit cube turning about z (frame k by 30 k degrees, moved along x),
 * flat shaded: a vn per face, the face's axis turned by hand. shading 1:
 * frame 3's top normal tilted by 3 degrees; 2: smooth (a vn per corner,
 * its direction from the centre). */
static const char *make_cube_unit(const char *name, int shading)
{
    const char *d = mk_fx_dir(name);
    static const int face[6][4] = {{1, 3, 7, 5}, {2, 6, 8, 4}, {1, 5, 6, 2},
                                   {3, 4, 8, 7}, {1, 2, 4, 3}, {5, 7, 8, 6}};
    static const double axis[6][3] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0},
                                      {0, 1, 0},  {-1, 0, 0}, {1, 0, 0}};
    for (int k = 1; k <= 3; k++) {
        const double pi = 3.14159265358979324, a = (k - 1) * pi / 6, c = cos(a), sn = sin(a);
        char text[4096], file[32];
        int n = 0;
        for (int i = 0; i < 8; i++) { /* corner i: x = bit 2, y = bit 1, z = bit 0 */
            double x = (i >> 2 & 1) - 0.5, y = (i >> 1 & 1) - 0.5, z = (i & 1) - 0.5;
            n += snprintf(text + n, sizeof text - (size_t)n, "v %.6f %.6f %.6f\n",
                          c * x - sn * y + 0.2 * k, sn * x + c * y, z);
        }
        for (int f = 0; f < 6; f++) {
            double x = axis[f][0], y = axis[f][1], z = axis[f][2];
            if (shading == 1 && k == 3 && f == 1) { /* tilted by 3 degrees about x */
                y = -sin(3 * pi / 180);
                z = cos(3 * pi / 180);
            }
            n += snprintf(text + n, sizeof text - (size_t)n, "vn %.6f %.6f %.6f\n",
                          c * x - sn * y, sn * x + c * y, z);
        }
        for (int i = 0; shading == 2 && i < 8; i++) {
            double x = (i >> 2 & 1) - 0.5, y = (i >> 1 & 1) - 0.5, z = (i & 1) - 0.5, l = sqrt(0.75);
            n += snprintf(text + n, sizeof text - (size_t)n, "vn %.6f %.6f %.6f\n",
                          (c * x - sn * y) / l, (sn * x + c * y) / l, z / l);
        }
        for (int f = 0; f < 6; f++) {
            n += snprintf(text + n, sizeof text - (size_t)n, "f");
            for (int j = 0; j < 4; j++)
                n += snprintf(text + n, sizeof text - (size_t)n, " %d//%d", face[f][j],
                              shading == 2 ? 6 + face[f][j] : f + 1);
            n += snprintf(text + n, sizeof text - (size_t)n, "\n");
        }
        snprintf(file, sizeof file, "Turn_%d.obj", k);
        mk_fx_write(d, file, text);
    }
    return d;
}

/* flat_normals: a unit flat shaded in every frame is packed without
 * normals (quantized, 8-bit normals) and reads back with the faces' own
 * normals: the cube's turned by hand, the demo units' as written. A unit
 * with one normal 3 degrees off, a smooth one, the plain and 16-bit forms
 * and packs without the option keep NORMAL. Without normals the file is
 * smaller: the knight's small faces need a grid a quarter as fine, and it
 * still is. */
static void test_flat_normals(void)
{
    char cube[1024], tilted[1024], smooth[1024]; /* mk_fx_dir's buffer is reused */
    snprintf(cube, sizeof cube, "%s", make_cube_unit("pack_flat_cube", 0));
    snprintf(tilted, sizeof tilted, "%s", make_cube_unit("pack_flat_tilted", 1));
    snprintf(smooth, sizeof smooth, "%s", make_cube_unit("pack_flat_smooth", 2));
    const char *units[] = {cube, tilted, smooth, MK_TEST_SOURCE_DIR "/assets/demo/wing",
                           MK_TEST_SOURCE_DIR "/assets/demo/knight"};
    const bool flat_unit[] = {true, false, false, true, true};
    for (int i = 0; i < 5; i++)
        for (int form = 0; form < 5; form++) {
            mk_unit *u = load(units[i]);
            mk_pack_options o = {0};
            o.compress = form == 1;
            o.flat_normals = form != 2;
            o.plain = form == 3;
            o.normal_bits = form == 4 ? 16 : 0;
            void *data = NULL;
            size_t size = 0;
            mk_pack_stats st;
            mk_unit *b = u ? pack_and_read(u, &o, &data, &size, &st) : NULL;
            const bool flat = flat_unit[i] && form < 2;
            CHECK(st.flat_normals == flat);
            CHECK(data && json_has(data, size, "\"NORMAL\"") == !flat);
            CHECK(data && json_has(data, size, "\"flat_normals\":true") == flat);
            if (u && b) {
                CHECK(b->frames->normals != NULL);
                check_same_unit(u, b, st.max_position_error, st.max_normal_error + 1e-7,
                                o.plain ? 1.2e-7 : 0.5 / 65535 + 1.2e-7);
                check_same_playback(u, b, 2 * st.max_position_error + 1e-6,
                                    2 * st.max_normal_error + 1e-5);
            }
            if (flat) {
                CHECK(st.max_normal_error <= 0.01746); /* 1 degree */
                /* the cube's normals are its faces' axes, turned */
                if (i == 0 && b)
                    CHECK(max_abs_diff(b->frames->normals, u->frames->normals,
                                       3 * (size_t)u->frames->frame_count * u->frames->vertex_count) <= 1e-3);
                /* smaller than the same form with normals */
                mk_pack_options k = o;
                k.flat_normals = false;
                void *kept = NULL;
                size_t kept_size = 0;
                mk_pack_stats ks;
                mk_error e;
                CHECK(mk_unit_pack(u, &k, NULL, &kept, &kept_size, &ks, NULL, &e) == MK_OK);
                CHECK(size < kept_size);
                /* the knight's grid: two bits finer (a quarter of the step) */
                CHECK_EQ_INT(st.position_bits, ks.position_bits + (i == 4 ? 2 : 0));
                mk_free(NULL, kept, kept_size);
            }
            mk_unit_destroy(b);
            mk_free(NULL, data, size);
            mk_unit_destroy(u);
        }
    /* malformed: the member's type, its version, and normals stored beside it */
    mk_unit *u = load(cube);
    void *data = NULL, *kept = NULL;
    size_t size = 0, kept_size = 0;
    mk_pack_options flat = {0};
    flat.flat_normals = true;
    mk_error e;
    CHECK(u && mk_unit_pack(u, &flat, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
    CHECK(u && mk_unit_pack(u, NULL, NULL, &kept, &kept_size, NULL, NULL, &e) == MK_OK);
    static const bad_case cases[] = {
        {"\"flat_normals\":true", "\"flat_normals\":1", MK_ERR_PARSE,
         "extras.morphkit.flat_normals: not true/false (version 5)"},
        {"\"version\":7", "\"version\":4", MK_ERR_PARSE, "flat_normals"},
    };
    static const bad_case kept_cases[] = {
        {"\"unit\":", "\"flat_normals\":true,\"unit\":", MK_ERR_PARSE,
         "flat_normals: true, but the mesh stores normals"},
    };
    if (data)
        check_bad_cases(data, size, cases, 2);
    if (kept)
        check_bad_cases(kept, kept_size, kept_cases, 1);
    mk_free(NULL, data, size);
    mk_free(NULL, kept, kept_size);
    mk_unit_destroy(u);
}

/* An index list may be a sparse accessor: one pointing past the vertices
 * is refused by the glTF reader, as a dense one is, before the pack reader
 * uses it. Found by fuzzing: a primitive's indices swapped for a sparse map
 * accessor. */
static void test_sparse_index_list(void)
{
    const char *d = mk_fx_dir("pack_sparse_indices");
    for (int k = 1; k <= 2; k++) {
        char file[32], text[4096], *t = text;
        snprintf(file, sizeof file, "Wave_%d.obj", k);
        for (int r = 0; r < 12; r++)
            for (int c = 0; c < 12; c++)
                t += sprintf(t, "v %d %d %.2f\n", c, r, 0.1 * k * ((c + r) % 3));
        for (int r = 0; r < 11; r++)
            for (int c = 0; c < 11; c++) {
                int a = r * 12 + c + 1, b = a + 12;
                t += sprintf(t, "f %d %d %d %d\n", a, b, b + 1, a + 1);
            }
        mk_fx_write(d, file, text);
    }
    mk_unit *u = load(d);
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
    /* accessor 1 is the `v` map, sparse (its deltas from the identity) */
    CHECK(data && json_has(data, size, "\"indices\":2"));
    CHECK(data && json_has(data, size, "\"map_deltas\":true"));
    size_t n = 0;
    uint8_t *bad = data ? edit_json(data, size, "\"indices\":2", "\"indices\":1", &n) : NULL;
    mk_unit *b = NULL;
    if (bad) {
        CHECK_EQ_INT(mk_unit_parse_packed(bad, n, "bad.glb", NULL, &b, &e), MK_ERR_RANGE);
        CHECK_CONTAINS(e.message, "not below the vertex count");
        CHECK(b == NULL);
    }
    free(bad);
    /* index_turns that is not one byte per triangle, or not an accessor */
    if (data) {
        static const bad_case turns[] = {
            {"\"map_deltas\":true", "\"map_deltas\":true,\"index_turns\":0", MK_ERR_PARSE,
             "index_turns: not one unsigned byte per triangle"},
            {"\"map_deltas\":true", "\"map_deltas\":true,\"index_turns\":-1", MK_ERR_PARSE,
             "index_turns: not an accessor"},
            {"\"map_deltas\":true", "\"map_deltas\":1", MK_ERR_PARSE, "map_deltas: not true/false"},
        };
        check_bad_cases(data, size, turns, sizeof turns / sizeof turns[0]);
    }
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

static void test_malformed_extras(void)
{
    mk_unit *u = load(make_gen_unit("pack_bad", false));
    void *data = NULL;
    size_t size = 0;
    mk_error e;
    CHECK(u && mk_unit_pack(u, NULL, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
    if (!data) {
        mk_unit_destroy(u);
        return;
    }
    static const bad_case cases[] = {
        {"\"version\":7", "\"version\":8", MK_ERR_UNSUPPORTED, "version 8"},
        {"\"version\":7", "\"version\":\"7\"", MK_ERR_PARSE, "extras.morphkit.version"},
        {"\"morphkit\":{", "\"other\":{", MK_ERR_PARSE, "no extras.morphkit"},
        {"\"durations_us\":70000", "\"durations_us\":0", MK_ERR_PARSE, "durations_us"},
        {"\"durations_us\":70000", "\"durations_us\":7e99", MK_ERR_PARSE, "durations_us"},
        {"\"durations_us\":70000", "\"durations_us\":\"70000\"", MK_ERR_PARSE, "durations_us"},
        {"\"durations_us\":[100000", "\"durations_us\":[0", MK_ERR_PARSE, "durations_us"},
        {"\"durations_us\":[100000,", "\"durations_us\":[", MK_ERR_PARSE, "one per frame"},
        {"\"frame_targets\":[-1,", "\"frame_targets\":[-1,99,", MK_ERR_PARSE, "frame_targets"},
        {"\"frame_targets\":[-1,0,1,2,1,3,4,5,6,7,-1,", "\"frame_targets\":[0,0,1,2,1,3,4,5,6,7,0,",
         MK_ERR_PARSE, "frame_targets: no frame is the base"},
        {"\"frame_targets\":[-1,0,1,2,1,3,4,5,6,7,-1,8,2,9,10,11,0],", "", MK_ERR_PARSE,
         "frame_targets: absent, but"},
        {"{\"durations_us\":70000", "{\"frames\":[99,0],\"durations_us\":70000", MK_ERR_RANGE, "clips"},
        {"{\"durations_us\":70000", "{\"frames\":5,\"durations_us\":70000", MK_ERR_PARSE, "frames"},
        {"{\"durations_us\":70000", "{\"name\":\"Lin\",\"durations_us\":70000", MK_ERR_PARSE,
         "name differs"},
        {"\"loop_frame\":1", "\"loop_frame\":9", MK_ERR_INVALID_ARGUMENT, "clips"},
        {"\"loop_frame\":1", "\"loop_frame\":-1", MK_ERR_PARSE, "loop_frame"},
        {"\"once\":true", "\"once\":1", MK_ERR_PARSE, "clips[0].once"},
        {"\"next\":\"Smo\"", "\"next\":\"Nope\"", MK_ERR_NOT_FOUND, "clips"},
        {"\"interpolation\":\"step\"", "\"interpolation\":\"cubic\"", MK_ERR_PARSE, "interpolation"},
        {"\"events\":[[0,\"start\"]", "\"events\":{\"0\":\"start\"},\"x\":[[0,\"start\"]", MK_ERR_PARSE,
         "events is not an array"},
        {"\"events\":[[0,\"start\"]", "\"events\":[[0]", MK_ERR_PARSE, "events"},
        {"\"no_blend\":[2]", "\"no_blend\":[7]", MK_ERR_PARSE, "no_blend"},
        /* the `v` map told by the base pose (obj_v_order; the `vn` map is an accessor) */
        {"\"position_count\":7", "\"position_count\":8", MK_ERR_MISMATCH,
         "obj_v_order: the base pose has 7 distinct positions, not 8"},
        {"\"normal_count\":2", "\"normal_count\":1", MK_ERR_MISMATCH, "obj_vn has 2 entries, not 1"},
        {"\"obj_v_order\":", "\"obj_v\":3,\"obj_v_order\":", MK_ERR_PARSE, "together with the map"},
        {"\"obj_v_order\":", "\"obj_v_order\":\"3\",\"x\":", MK_ERR_PARSE, "obj_v_order: not an accessor"},
        {"\"obj_vn\":", "\"obj_vn_order\":true,\"x\":", MK_ERR_MISMATCH,
         "obj_vn_order: the base pose has"},
        {"\"frame_targets\":[", "\"files\":[\"a\"],\"frame_targets\":[", MK_ERR_PARSE, "files"},
        {"\"End\",\"frame_count\":2}", "\"End\",\"frame_count\":0}", MK_ERR_PARSE,
         "extras.morphkit.animations[0]"},
        {"\"End\",\"frame_count\":2}", "\"End\",\"first_number\":true,\"frame_count\":2}",
         MK_ERR_PARSE, "animations[0].first_number"},
        {"\"config\":true", "\"config\":1", MK_ERR_PARSE, "config"},
        {"\"unit\":\"pack_bad\"", "\"unit\":\"a\\u0000b\"", MK_ERR_PARSE, "NUL"},
    };
    check_bad_cases(data, size, cases, sizeof cases / sizeof cases[0]);
    /* The reader checks the frames for inf and NaN only where they could
     * hold any: the wing's default form is all 8- and 16-bit integers, on a
     * grid whose step is checked instead (this one overflows); float data
     * is always checked. The error names the file. */
    mk_unit *wing_unit = load(MK_TEST_SOURCE_DIR "/assets/demo/wing");
    void *idata = NULL;
    size_t isize = 0;
    CHECK(wing_unit && mk_unit_pack(wing_unit, NULL, NULL, &idata, &isize, NULL, NULL, &e) == MK_OK);
    static const bad_case huge_step[] = {
        {"\"scale\":[", "\"scale\":[3e38,3e38,3e38],\"x\":[", MK_ERR_RANGE, "is not finite"},
    };
    if (idata)
        check_bad_cases(idata, isize, huge_step, 1);
    mk_free(NULL, idata, isize);
    mk_unit_destroy(wing_unit);
    /* target_parents (version 7), on the knight's default pack: the cases
     * are made from its own arrays (a target whose parent is another
     * target made its own parent; that parent shown by no frame) */
    mk_unit *knight = load(MK_TEST_SOURCE_DIR "/assets/demo/knight");
    void *kdata = NULL;
    size_t ksize = 0;
    CHECK(knight && mk_unit_pack(knight, NULL, NULL, &kdata, &ksize, NULL, NULL, &e) == MK_OK);
    enum { KF = 15, KT = 14 };
    int ft[KF] = {0}, tp[KT] = {0};
    CHECK(kdata && json_ints(kdata, ksize, "\"frame_targets\":[", ft, KF) == KF);
    CHECK(kdata && json_ints(kdata, ksize, "\"target_parents\":[", tp, KT) == KT);
    int child = -1; /* a target whose parent is another target: the knight's pack is a tree */
    for (int k = 0; k < KT && child < 0; k++)
        child = tp[k] >= 0 ? k : -1;
    CHECK(child > 0);
    if (kdata && child > 0) {
        const int parent = tp[child]; /* child is the first target with a parent */
        char tp_text[256], tp_self[256], ft_text[256], ft_hidden[256];
        char self_msg[64], hidden_msg[64];
        int_array_json(tp_text, "target_parents", tp, KT, -1, 0);
        int_array_json(tp_self, "target_parents", tp, KT, child, child);
        int_array_json(ft_text, "frame_targets", ft, KF, -1, 0);
        int hidden[KF];
        for (int f = 0; f < KF; f++)
            hidden[f] = ft[f] == parent ? child : ft[f];
        int_array_json(ft_hidden, "frame_targets", hidden, KF, -1, 0);
        snprintf(self_msg, sizeof self_msg, "target_parents[%d]: not -1 or an earlier target",
                 child);
        snprintf(hidden_msg, sizeof hidden_msg, "target_parents[%d]: a target no frame shows",
                 child);
        const bad_case parents[] = {
            /* the first target's parent can only be the base */
            {"\"target_parents\":[-1,", "\"target_parents\":[5,", MK_ERR_PARSE,
             "target_parents[0]: not -1 or an earlier target"},
            {tp_text, tp_self, MK_ERR_PARSE, self_msg},
            {"\"target_parents\":[", "\"target_parents\":[-1,", MK_ERR_PARSE,
             "target_parents: not one entry per morph target"},
            {"\"target_parents\":[", "\"target_parents\":7,\"x\":[", MK_ERR_PARSE,
             "target_parents: not one entry"},
            {"\"version\":7", "\"version\":6", MK_ERR_PARSE, "(version 7)"},
            {ft_text, ft_hidden, MK_ERR_PARSE, hidden_msg},
        };
        check_bad_cases(kdata, ksize, parents, sizeof parents / sizeof parents[0]);
    }
    mk_free(NULL, kdata, ksize);
    mk_unit_destroy(knight);
    static const mk_pack_options plain = {.plain = true};
    void *fdata = NULL;
    size_t fsize = 0;
    CHECK(mk_unit_pack(u, &plain, NULL, &fdata, &fsize, NULL, NULL, &e) == MK_OK);
    static const bad_case floats[] = {
        {"\"mesh\":0", "\"mesh\":0,\"scale\":[3e38,3e38,3e38]", MK_ERR_RANGE, "is not finite"},
    };
    if (fdata) {
        check_bad_cases(fdata, fsize, floats, 1);
        /* a NaN in the binary chunk, where the first vertex's x is */
        uint8_t *b = fdata;
        const size_t bin = 20 + ((size_t)b[12] | (size_t)b[13] << 8 | (size_t)b[14] << 16) + 8;
        const float x = mk_frame_set_positions(u->frames, 0)[0];
        size_t at = bin;
        while (at + 4 <= fsize && memcmp(b + at, &x, 4) != 0)
            at += 4;
        CHECK(at + 4 <= fsize);
        if (at + 4 <= fsize) {
            const uint32_t nan_bits = 0x7FC00000u;
            memcpy(b + at, &nan_bits, 4);
            mk_unit *bad = NULL;
            CHECK_EQ_INT(mk_unit_parse_packed(fdata, fsize, "nan.glb", NULL, &bad, &e), MK_ERR_RANGE);
            CHECK_CONTAINS(e.message, "is not finite");
            CHECK_EQ_INT(strcmp(e.file, "nan.glb"), 0);
            CHECK(bad == NULL);
        }
    }
    mk_free(NULL, fdata, fsize);
    /* explicit `v` / `vn` maps (a version 2 file of the wing) */
    static const bad_case maps[] = {
        {"\"position_count\":64", "\"position_count\":65", MK_ERR_MISMATCH, "obj_v has no vertex for `v` 65"},
        {"\"position_count\":64", "\"position_count\":63", MK_ERR_RANGE, "is not below position_count 63"},
        {"\"normal_count\":56", "\"normal_count\":55", MK_ERR_MISMATCH, "obj_vn has 56 entries, not 55"},
        {"\"obj_v\":", "\"obj_v\":true,\"x\":", MK_ERR_PARSE, "extras.morphkit.obj_v"},
    };
    void *wing = NULL;
    size_t wing_size = 0;
    CHECK(mk_file_read(NULL, MK_TEST_SOURCE_DIR "/tests/fuzz/seeds/pack_v2_wing.glb", NULL, 1 << 20,
                       &wing, &wing_size, &e) == MK_OK);
    if (wing)
        check_bad_cases(wing, wing_size, maps, sizeof maps / sizeof maps[0]);
    mk_file_release(NULL, NULL, wing, wing_size);
    /* a plain glTF file is no packed unit */
    mk_unit *b = NULL;
    CHECK_EQ_INT(mk_unit_load_packed(MK_TEST_SOURCE_DIR
                                     "/tests/data/gltf/AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb",
                                     NULL, NULL, &b, &e),
                 MK_ERR_PARSE);
    CHECK_CONTAINS(e.message, "not a packed unit");
    mk_free(NULL, data, size);
    mk_unit_destroy(u);
}

/* The default form, and --compress (for the grid: its vertices in `v`
 * order). */
static const mk_pack_options *clean_forms(int k)
{
    static const mk_pack_options compress = {.compress = true};
    return k ? &compress : NULL;
}

static void test_every_prefix_fails_cleanly(void)
{
    for (int k = 0; k < 2; k++) {
        mk_unit *u = load(k ? make_grid_unit("pack_prefix_grid") : make_gen_unit("pack_prefix", false));
        void *data = NULL;
        size_t size = 0;
        mk_error e;
        CHECK(u && mk_unit_pack(u, clean_forms(k), NULL, &data, &size, NULL, NULL, &e) == MK_OK);
        CHECK(data && json_has(data, size, "\"first_use_order\":true") == (k == 1));
        for (size_t n = 0; data && n < size; n++) {
            /* a copy of exactly n bytes, so ASan sees any read past it */
            uint8_t *p = malloc(n ? n : 1);
            memcpy(p, data, n);
            mk_unit *b = NULL;
            CHECK(mk_unit_parse_packed(p, n, "prefix", NULL, &b, &e) != MK_OK);
            CHECK(b == NULL);
            CHECK(!mk_pack_is_unit(p, n) || n >= 20);
            free(p);
        }
        mk_free(NULL, data, size);
        mk_unit_destroy(u);
    }
}

/* A GLB header whose total length (0 here) is below its own 20 header
 * bytes once let the JSON chunk length pass the bounds check (length - 20
 * wrapped around), so the JSON was read past the end (found by fuzz_pack). */
static void test_glb_length_below_header(void)
{
    static const char json[] = "{\"asset\":{\"version\":\"2.0\"},\"extras\":{\"morphkit\":{}}}";
    size_t n = 20 + sizeof json - 1;
    uint8_t *p = malloc(n);
    const uint32_t head[5] = {0x46546C67u, 2, 0, 0x8000u, 0x4E4F534Au};
    for (int i = 0; i < 5; i++)
        for (int b = 0; b < 4; b++)
            p[i * 4 + b] = (uint8_t)(head[i] >> (8 * b));
    memcpy(p + 20, json, sizeof json - 1);
    CHECK(!mk_pack_is_unit(p, n));
    mk_unit *u = NULL;
    mk_error e;
    CHECK(mk_unit_parse_packed(p, n, "short.glb", NULL, &u, &e) != MK_OK);
    CHECK(u == NULL);
    /* the same header with honest lengths is recognised */
    const uint32_t ok[5] = {0x46546C67u, 2, (uint32_t)n, (uint32_t)(sizeof json - 1), 0x4E4F534Au};
    for (int i = 0; i < 5; i++)
        for (int b = 0; b < 4; b++)
            p[i * 4 + b] = (uint8_t)(ok[i] >> (8 * b));
    CHECK(mk_pack_is_unit(p, n));
    free(p);
}

/* An allocator that fails from the n-th allocation on. */
typedef struct failing {
    int left;
    long live;
} failing;

static void *f_alloc(void *user, size_t size)
{
    failing *f = user;
    if (f->left-- <= 0)
        return NULL;
    f->live++;
    return malloc(size);
}

static void *f_realloc(void *user, void *p, size_t old, size_t size)
{
    (void)old;
    failing *f = user;
    if (f->left-- <= 0)
        return NULL;
    if (!p)
        f->live++;
    return realloc(p, size);
}

static void f_free(void *user, void *p, size_t size)
{
    (void)size;
    if (p)
        ((failing *)user)->live--;
    free(p);
}

static void test_out_of_memory_everywhere(void)
{
    /* k 2: the seam unit welded (no_texcoords) and compressed: both copies */
    static const mk_pack_options welded = {.compress = true, .no_texcoords = true};
    for (int k = 0; k < 3; k++) {
        mk_unit *u = load(k == 2   ? make_seam_unit("pack_oom_seam")
                          : k == 1 ? make_grid_unit("pack_oom_grid")
                                   : make_gen_unit("pack_oom", false));
        const mk_pack_options *o = k == 2 ? &welded : clean_forms(k);
        void *data = NULL;
        size_t size = 0;
        mk_error e;
        CHECK(u && mk_unit_pack(u, o, NULL, &data, &size, NULL, NULL, &e) == MK_OK);
        CHECK(data && json_has(data, size, "\"first_use_order\":true") == (k >= 1));
        bool packed = false, parsed = false;
        for (int n = 0; u && n < 4000 && !(packed && parsed); n++) {
            failing f = {n, 0};
            mk_allocator a = {f_alloc, f_realloc, f_free, &f};
            void *out = NULL;
            size_t out_size = 0;
            mk_status s = mk_unit_pack(u, o, &a, &out, &out_size, NULL, NULL, &e);
            CHECK(s == MK_OK || s == MK_ERR_OUT_OF_MEMORY);
            if (s == MK_OK) {
                packed = true;
                CHECK_EQ_INT(out_size, size);
                mk_free(&a, out, out_size);
            }
            CHECK_EQ_INT(f.live, 0);
            failing g = {n, 0};
            mk_allocator b = {f_alloc, f_realloc, f_free, &g};
            mk_unit *r = NULL;
            s = mk_unit_parse_packed(data, size, "oom", &b, &r, &e);
            CHECK(s == MK_OK || s == MK_ERR_OUT_OF_MEMORY);
            if (s == MK_OK) {
                parsed = true;
                mk_unit_destroy(r);
            }
            CHECK_EQ_INT(g.live, 0);
        }
        CHECK(packed && parsed);
        mk_free(NULL, data, size);
        mk_unit_destroy(u);
    }
}

static void test_misuse(void)
{
    mk_error e;
    void *data = (void *)1;
    size_t size = 1;
    CHECK_EQ_INT(mk_unit_pack(NULL, NULL, NULL, &data, &size, NULL, NULL, &e), MK_ERR_INVALID_ARGUMENT);
    CHECK(data == NULL && size == 0);
    mk_unit *u = load(MK_TEST_SOURCE_DIR "/assets/demo/wing");
    mk_pack_options o = {0};
    o.position_bits = 16;
    CHECK_EQ_INT(mk_unit_pack(u, &o, NULL, &data, &size, NULL, NULL, &e), MK_ERR_INVALID_ARGUMENT);
    o.position_bits = 0;
    o.normal_bits = 12;
    CHECK_EQ_INT(mk_unit_pack(u, &o, NULL, &data, &size, NULL, NULL, &e), MK_ERR_INVALID_ARGUMENT);
    o.normal_bits = 0;
    o.max_position_error = -1;
    CHECK_EQ_INT(mk_unit_pack(u, &o, NULL, &data, &size, NULL, NULL, &e), MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(mk_unit_pack(u, NULL, NULL, NULL, &size, NULL, NULL, &e), MK_ERR_INVALID_ARGUMENT);
    if (u) {
        /* files and frames that disagree */
        u->files->frame_count--;
        CHECK_EQ_INT(mk_unit_pack(u, NULL, NULL, &data, &size, NULL, NULL, &e), MK_ERR_INVALID_ARGUMENT);
        u->files->frame_count++;
    }
    CHECK_EQ_INT(mk_unit_parse_packed(NULL, 5, NULL, NULL, &u, &e), MK_ERR_INVALID_ARGUMENT);
    mk_unit_destroy(u);
}

MK_TEST_MAIN(MK_TEST(test_round_trip_demo_knight), MK_TEST(test_round_trip_demo_wing),
             MK_TEST(test_round_trip_generated), MK_TEST(test_reads_older_versions),
             MK_TEST(test_base_frame_search), MK_TEST(test_all_frames_identical), MK_TEST(test_maps_told_by_base_pose), MK_TEST(test_map_deltas), MK_TEST(test_static_normals_no_normal_targets), MK_TEST(test_flat_normals), MK_TEST(test_first_use_order), MK_TEST(test_sparse_index_list), MK_TEST(test_no_texcoords), MK_TEST(test_no_texcoords_welds_seams),
             MK_TEST(test_load_detects_file), MK_TEST(test_padded_file_names), MK_TEST(test_gltf_animation_matches_player),
             MK_TEST(test_gltf_keys_by_hand), MK_TEST(test_materials),
             MK_TEST(test_material_problems_are_warnings), MK_TEST(test_single_frame_clips), MK_TEST(test_malformed_extras),
             MK_TEST(test_every_prefix_fails_cleanly), MK_TEST(test_glb_length_below_header),
             MK_TEST(test_out_of_memory_everywhere),
             MK_TEST(test_misuse))
