/* The kernel benchmark suite (suite.h). Each row builds its inputs once,
 * then alternates rounds of the kernel and of its copy baseline so both
 * see the same machine load, and keeps the best round of each. */
#include "suite.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "morphkit/morphkit.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile float sink;

typedef void (*bench_fn)(void *ctx);

/* Seconds per call of one sample: the calls of a sample last at least
 * 20 us together (timer overhead), so tiny sizes repeat. */
static double sample_time(bench_fn fn, void *ctx, long reps)
{
    double t0 = now_s();
    for (long i = 0; i < reps; i++)
        fn(ctx);
    return (now_s() - t0) / (double)reps;
}

static long calibrate(bench_fn fn, void *ctx)
{
    long reps = 1;
    while (reps < (1L << 20) && sample_time(fn, ctx, reps) * (double)reps < 20e-6)
        reps *= 2;
    return reps;
}

typedef struct copy_ctx {
    void *dst;
    const void *src;
    size_t bytes;
} copy_ctx;

static void run_copy(void *p)
{
    copy_ctx *c = p;
    memcpy(c->dst, c->src, c->bytes);
    sink = ((const float *)c->dst)[c->bytes / 8];
}

typedef struct runner {
    const mk_bench_options *o;
    mk_bench_result *r;
    int rounds;   /* samples of each timing (best kept) */
    double min_s; /* and at least this long on each */
    bool failed;
} runner;

static void *xmalloc(runner *run, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "morphkit: bench: out of memory (%zu bytes)\n", bytes);
        run->failed = true;
    } else {
        memset(p, 1, bytes); /* touch every page before timing */
    }
    return p;
}

/* Times fn against memcpy of (read + write) / 2 bytes per vertex and adds
 * a row. Returns the row (NULL when memory ran out). */
static mk_bench_row *measure(runner *run, const char *kernel, const char *what, uint32_t vertices,
                             double read_bytes, double write_bytes, double goal, bench_fn fn,
                             void *ctx)
{
    if (run->failed || run->r->row_count >= MK_BENCH_MAX_ROWS)
        return NULL;
    size_t bytes = (size_t)((read_bytes + write_bytes) / 2 * vertices);
    copy_ctx c = {xmalloc(run, bytes + 64), NULL, bytes};
    void *src = xmalloc(run, bytes + 64);
    if (run->failed) {
        free(c.dst);
        free(src);
        return NULL;
    }
    c.src = src;
    /* short samples, alternating, best of each: on a shared machine the
     * best sample is the one no other process interrupted */
    double best_k = 1e30, best_c = 1e30, spent = 0;
    long rk = calibrate(fn, ctx), rc = calibrate(run_copy, &c);
    for (int i = 0; i < run->rounds || spent < run->min_s; i++) {
        double t0 = now_s();
        double tk = sample_time(fn, ctx, rk), tc = sample_time(run_copy, &c, rc);
        best_k = tk < best_k ? tk : best_k;
        best_c = tc < best_c ? tc : best_c;
        spent += now_s() - t0;
    }
    free(c.dst);
    free(src);
    mk_bench_row *row = &run->r->rows[run->r->row_count++];
    *row = (mk_bench_row){kernel, what, vertices, read_bytes, write_bytes,
                          best_k * 1e9 / vertices, best_c * 1e9 / vertices, best_k / best_c, goal};
    return row;
}

static uint32_t rng = 1;
static float frand(void) /* [-0.5, 0.5) */
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f - 0.5f;
}

static mk_frame_set *make_frames(runner *run, uint32_t frames, uint32_t vertices)
{
    mk_frame_set_desc d = {frames, vertices, 3, true, false};
    mk_frame_set *s = NULL;
    mk_error err;
    if (mk_frame_set_create(&d, NULL, &s, &err) != MK_OK) {
        fprintf(stderr, "morphkit: bench: %s\n", err.message);
        run->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < (size_t)frames * vertices * 3; i++) {
        s->positions[i] = frand() * 4.0f;
        s->normals[i] = frand();
    }
    return s;
}

typedef struct blend_ctx {
    const mk_frame_set *set;
    const mk_qframe_set *qset;
    const mk_morph_set *morph;
    const void *qmorph; /* mk_qmorph_set */
    const float *weights;
    mk_pose pose;
    float *pos, *nrm;
    uint32_t begin, end;
} blend_ctx;

static void run_blend(void *p)
{
    blend_ctx *c = p;
    mk_blend_frames(c->set, 0, 1, 0.375f, c->pos, c->nrm, c->set->vertex_count, NULL);
    sink = c->nrm[c->set->vertex_count];
}

static void run_qblend(void *p)
{
    blend_ctx *c = p;
    mk_blend_qframes(c->qset, 0, 1, 0.375f, c->pos, c->nrm, c->qset->vertex_count, NULL);
    sink = c->nrm[c->qset->vertex_count];
}

static void run_pose(void *p)
{
    blend_ctx *c = p;
    mk_pose_eval(c->set, &c->pose, c->pos, c->nrm, c->set->vertex_count, NULL);
    sink = c->nrm[c->set->vertex_count];
}

static void run_qmorph(void *p)
{
    blend_ctx *c = p;
    const mk_qmorph_set *q = (const mk_qmorph_set *)c->qmorph;
    mk_qmorph_evaluate(q, c->weights, c->pos, c->nrm, q->vertex_count, NULL);
    sink = c->nrm[q->vertex_count];
}

static void run_morph(void *p)
{
    blend_ctx *c = p;
    mk_morph_evaluate(c->morph, c->weights, c->pos, c->nrm, NULL, c->morph->vertex_count, NULL);
    sink = c->nrm[c->morph->vertex_count];
}

/* 64 targets, 4 active: dense (every vertex) or sparse (every 10th vertex
 * moves); the 60 inactive targets are small and never read (weight 0). */
static mk_morph_set *make_morph(runner *run, uint32_t vc, bool sparse, float *weights)
{
    enum { T = 64 };
    uint32_t counts[T * 3] = {0};
    uint32_t entries = (vc + 9) / 10;
    for (uint32_t t = 0; t < T; t++) {
        bool active = t % 16 == 5;
        uint32_t n = !active ? (vc < 16 ? vc : 16) : sparse ? entries : MK_MORPH_DENSE;
        counts[3 * t] = counts[3 * t + 1] = n;
        weights[t] = active ? 0.25f + 0.125f * (float)(t / 16) : 0.0f;
    }
    mk_morph_set_desc d = {vc, T, true, false, counts};
    mk_morph_set *s = NULL;
    mk_error err;
    if (mk_morph_set_create(&d, NULL, &s, &err) != MK_OK) {
        fprintf(stderr, "morphkit: bench: %s\n", err.message);
        run->failed = true;
        return NULL;
    }
    for (size_t i = 0; i < (size_t)vc * 3; i++) {
        s->base_positions[i] = frand();
        s->base_normals[i] = frand();
    }
    for (uint32_t t = 0; t < T; t++)
        for (int a = 0; a < 2; a++) {
            mk_morph_delta *dl = &s->targets[t].delta[a];
            uint32_t n = dl->entry_count == MK_MORPH_DENSE ? vc : dl->entry_count;
            if (dl->indices) {
                uint32_t step = vc / n;
                for (uint32_t e = 0; e < n; e++)
                    dl->indices[e] = e * step;
            }
            for (size_t i = 0; i < (size_t)n * 3; i++)
                dl->values[i] = frand() * 0.1f;
        }
    return s;
}

static void kernel_rows(runner *run, uint32_t vc)
{
    const bool mem = vc > 100000;
    float *pos = xmalloc(run, (size_t)vc * 12 + 64), *nrm = xmalloc(run, (size_t)vc * 12 + 64);
    mk_frame_set *fs = make_frames(run, 4, vc);
    mk_qframe_set *qs = NULL;
    if (!run->failed && mk_qframe_set_quantize(fs, NULL, &qs, NULL) != MK_OK)
        run->failed = true;
    if (run->failed)
        goto done;
    blend_ctx c = {fs, qs, NULL, NULL, NULL,
                   {4, {0, 1, 2, 3}, {-0.0625f, 0.5625f, 0.5625f, -0.0625f}}, pos, nrm, 0, vc};
    const char *where = mem ? "from memory" : "in cache";
    (void)where;
    mk_bench_row *f = measure(run, "blend", "float frames, positions + normals", vc, 48, 24, 1.15,
                              run_blend, &c);
    measure(run, "qblend", "quantized frames, positions + normals", vc, 20, 24, 0, run_qblend,
            &c);
    if (f && run->r->row_count < MK_BENCH_MAX_ROWS) {
        /* the same measurement against the float blend's copy (72 B) */
        mk_bench_row q = run->r->rows[run->r->row_count - 1];
        q.kernel = "qblend_vs_float_copy";
        q.what = "quantized blend / the float blend's copy";
        q.copy_ns_per_vertex = f->copy_ns_per_vertex;
        q.ratio = q.ns_per_vertex / q.copy_ns_per_vertex;
        q.goal = 0.6;
        run->r->rows[run->r->row_count++] = q;
    }
    measure(run, "pose_smooth", "smooth pose, 4 frames, positions + normals", vc, 96, 24, 1.3,
            run_pose, &c);
    float w[64];
    for (int sparse = 0; sparse < 2 && !run->failed; sparse++) {
        mk_morph_set *m = make_morph(run, vc, sparse != 0, w);
        if (!m)
            break;
        c.morph = m;
        c.weights = w;
        /* dense: base + 4 deltas read; sparse: base + 10% of 4 deltas with
         * their indices (4 bytes each, positions and normals) */
        double read = sparse ? 24.0 + 4 * 0.1 * (24.0 + 8.0) : 24.0 + 4 * 24.0;
        measure(run, sparse ? "morph_sparse" : "morph_dense",
                sparse ? "glTF morph, 4 of 64 targets, sparse 10%"
                       : "glTF morph, 4 of 64 targets, dense",
                vc, read, 24, 1.3, run_morph, &c);
        mk_qmorph_set *q = NULL;
        if (!sparse && mk_qmorph_set_quantize(m, NULL, &q, NULL) == MK_OK) {
            c.qmorph = q;
            measure(run, "qmorph_dense", "quantized glTF morph, 4 of 64 targets, dense", vc,
                    24.0 + 4 * 12.0, 24, 0, run_qmorph, &c);
            mk_qmorph_set_destroy(q);
        }
        mk_morph_set_destroy(m);
    }
done:
    mk_qframe_set_destroy(qs);
    mk_frame_set_destroy(fs);
    free(pos);
    free(nrm);
}

/* ---- threads: one blend split into ranges, one range per thread ---- */

typedef struct pool {
    pthread_barrier_t start, end;
    blend_ctx *jobs;
    uint32_t count;
    bool quit;
} pool;

typedef struct worker_arg {
    pool *p;
    uint32_t index;
} worker_arg;

static void run_range(blend_ctx *c)
{
    mk_blend_frames_range(c->set, 0, 1, 0.375f, c->begin, c->end, c->pos, c->nrm,
                          c->set->vertex_count, NULL);
}

static void *worker(void *arg)
{
    worker_arg *a = arg;
    for (;;) {
        pthread_barrier_wait(&a->p->start);
        if (a->p->quit)
            return NULL;
        run_range(&a->p->jobs[a->index]);
        pthread_barrier_wait(&a->p->end);
    }
}

static void run_pool(void *arg) /* the calling thread takes job 0 */
{
    pool *p = arg;
    pthread_barrier_wait(&p->start);
    run_range(&p->jobs[0]);
    pthread_barrier_wait(&p->end);
}

static void run_single(void *arg)
{
    run_range(arg);
}

static void thread_rows(runner *run, uint32_t vc, uint32_t threads)
{
    enum { MAX_THREADS = 16 };
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    float *pos = xmalloc(run, (size_t)vc * 12), *nrm = xmalloc(run, (size_t)vc * 12);
    mk_frame_set *fs = make_frames(run, 2, vc);
    if (run->failed) {
        free(pos), free(nrm), mk_frame_set_destroy(fs);
        return;
    }
    blend_ctx jobs[MAX_THREADS];
    for (uint32_t t = 0; t < threads; t++) /* ranges of whole 64-vertex blocks */
        jobs[t] = (blend_ctx){fs, NULL, NULL, NULL, NULL, {0, {0}, {0}}, pos, nrm,
                              (uint32_t)((uint64_t)vc * t / threads) & ~63u,
                              t + 1 == threads ? vc
                                               : (uint32_t)((uint64_t)vc * (t + 1) / threads) & ~63u};
    blend_ctx whole = jobs[0];
    whole.begin = 0, whole.end = vc;
    pool p;
    p.jobs = jobs, p.count = threads, p.quit = false;
    pthread_barrier_init(&p.start, NULL, threads);
    pthread_barrier_init(&p.end, NULL, threads);
    pthread_t tid[MAX_THREADS];
    worker_arg args[MAX_THREADS];
    uint32_t started = 1;
    for (uint32_t t = 1; t < threads; t++) {
        args[t] = (worker_arg){&p, t};
        if (pthread_create(&tid[t], NULL, worker, &args[t]) != 0)
            break;
        started++;
    }
    double best1 = 1e30, bestn = 1e30, spent = 0;
    if (started == threads)
        for (int i = 0; i < run->rounds || spent < run->min_s; i++) {
            double t0 = now_s();
            double t1 = sample_time(run_single, &whole, 1), tn = sample_time(run_pool, &p, 1);
            best1 = t1 < best1 ? t1 : best1;
            bestn = tn < bestn ? tn : bestn;
            spent += now_s() - t0;
        }
    p.quit = true;
    if (started == threads)
        pthread_barrier_wait(&p.start);
    for (uint32_t t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&p.start);
    pthread_barrier_destroy(&p.end);
    run->r->thread_vertices = vc;
    run->r->threads = threads;
    run->r->one_thread_ms = best1 * 1e3;
    run->r->n_threads_ms = bestn * 1e3;
    run->r->thread_speedup = started == threads ? best1 / bestn : 0;
    mk_frame_set_destroy(fs);
    free(pos);
    free(nrm);
}

/* ---- players: a unit like the demo, many instances, 60 Hz updates ---- */

static void player_row(runner *run, uint32_t instances, int updates)
{
    static const int64_t walk[8] = {90000, 110000, 80000, 120000, 95000, 105000, 70000, 130000};
    mk_clip_desc d[4] = {
        {.name = "Idle", .frame_count = 3, .frame_time_us = 400000},
        {.name = "Walk", .frame_count = 8, .first_frame = 3, .durations_us = walk},
        {.name = "Attack", .frame_count = 4, .first_frame = 11, .once = true, .next = "Idle"},
        {.name = "Fly", .frame_count = 3, .first_frame = 15, .loop_frame = 0,
         .interpolation = MK_INTERPOLATION_SMOOTH},
    };
    mk_clip_set_desc sd = {d, 4, 18};
    mk_clip_set *set = NULL;
    mk_player *players = xmalloc(run, sizeof(mk_player) * instances);
    if (!players || mk_clip_set_create(&sd, NULL, &set, NULL) != MK_OK) {
        free(players);
        run->failed = true;
        return;
    }
    for (uint32_t i = 0; i < instances; i++) {
        mk_player_init(&players[i], set);
        mk_player_play(&players[i], i % 4, NULL);
        mk_player_advance(&players[i], (int64_t)(i * 7919u % 1000000u), NULL);
    }
    double best = 1e30;
    for (int r = 0; r < run->rounds; r++) {
        double t0 = now_s();
        for (int u = 0; u < updates; u++)
            for (uint32_t i = 0; i < instances; i++)
                mk_player_advance(&players[i], 16667, NULL);
        double t = (now_s() - t0) / ((double)updates * instances);
        best = t < best ? t : best;
    }
    run->r->players = instances;
    run->r->player_ns = best * 1e9;
    free(players);
    mk_clip_set_destroy(set);
}

static double bandwidth(runner *run, size_t bytes)
{
    copy_ctx c = {xmalloc(run, bytes + 64), NULL, bytes};
    void *src = xmalloc(run, bytes + 64);
    double best = 1e30;
    if (!run->failed) {
        c.src = src;
        long reps = calibrate(run_copy, &c);
        for (int i = 0; i < 3 * run->rounds; i++) {
            double t = sample_time(run_copy, &c, reps);
            best = t < best ? t : best;
        }
    }
    free(c.dst);
    free(src);
    return run->failed ? 0 : 2.0 * (double)bytes / best * 1e-9;
}

bool mk_bench_run(const mk_bench_options *o, mk_bench_result *r)
{
    memset(r, 0, sizeof *r);
    runner run = {o, r, o->rounds > 0 ? o->rounds : o->quick ? 1 : 20, o->quick ? 0.0 : 0.4,
                  false};
    r->simd = mk_blend_kernel_name();
    r->bandwidth_gbs = bandwidth(&run, o->quick ? (size_t)1 << 20 : (size_t)64 << 20);
    kernel_rows(&run, o->quick ? 2000 : 20000);
    kernel_rows(&run, o->quick ? 20000 : 2000000);
    thread_rows(&run, o->quick ? 20000 : 2000000, o->threads ? o->threads : 2);
    player_row(&run, o->quick ? 1000 : 100000, o->quick ? 3 : 60);
    return !run.failed;
}

static const char *verdict(double ratio, double goal)
{
    return goal <= 0 ? "" : ratio <= goal ? "met" : "not met";
}

void mk_bench_print_text(FILE *out, const mk_bench_result *r)
{
    fprintf(out, "kernels: %s; memcpy from memory: %.1f GB/s (read + written)\n", r->simd,
            r->bandwidth_gbs);
    fprintf(out, "each kernel beside memcpy of the same bytes ((read + written) / 2 per vertex)\n\n");
    fprintf(out, "| kernel | vertices | bytes/vertex (r+w) | ns/vertex | copy ns/vertex | ratio | goal |\n");
    fprintf(out, "|---|---:|---:|---:|---:|---:|---|\n");
    for (uint32_t i = 0; i < r->row_count; i++) {
        const mk_bench_row *w = &r->rows[i];
        char goal[32] = "";
        if (w->goal > 0)
            snprintf(goal, sizeof goal, "<= %.2f %s", w->goal, verdict(w->ratio, w->goal));
        fprintf(out, "| %s | %u | %.1f + %.1f | %.3f | %.3f | %.2f | %s |\n", w->what,
                w->vertices, w->read_bytes, w->write_bytes, w->ns_per_vertex,
                w->copy_ns_per_vertex, w->ratio, goal);
    }
    fprintf(out, "\nfloat blend of %u vertices, split into ranges: 1 thread %.3f ms, %u threads "
                 "%.3f ms: %.2fx (goal >= 1.6: %s)\n",
            r->thread_vertices, r->one_thread_ms, r->threads, r->n_threads_ms, r->thread_speedup,
            r->thread_speedup >= 1.6 ? "met" : "not met");
    fprintf(out, "players: %u updated at 60 Hz: %.2f ns per update (goal <= 5: %s)\n",
            r->players, r->player_ns, r->player_ns <= 5.0 ? "met" : "not met");
}

void mk_bench_print_json(FILE *out, const mk_bench_result *r)
{
    fprintf(out, "{\"version\": 1, \"simd\": \"%s\", \"bandwidth_gbs\": %.4g, \"rows\": [", r->simd,
            r->bandwidth_gbs);
    for (uint32_t i = 0; i < r->row_count; i++) {
        const mk_bench_row *w = &r->rows[i];
        fprintf(out,
                "%s\n  {\"kernel\": \"%s\", \"vertices\": %u, \"read_bytes\": %.4g, "
                "\"write_bytes\": %.4g, \"ns_per_vertex\": %.4g, \"copy_ns_per_vertex\": %.4g, "
                "\"ratio\": %.4g, \"goal\": ",
                i ? "," : "", w->kernel, w->vertices, w->read_bytes, w->write_bytes,
                w->ns_per_vertex, w->copy_ns_per_vertex, w->ratio);
        if (w->goal > 0)
            fprintf(out, "%.4g, \"met\": %s}", w->goal, w->ratio <= w->goal ? "true" : "false");
        else
            fprintf(out, "null, \"met\": null}");
    }
    fprintf(out,
            "],\n \"threads\": {\"vertices\": %u, \"threads\": %u, \"one_thread_ms\": %.4g, "
            "\"threads_ms\": %.4g, \"speedup\": %.4g, \"goal\": 1.6, \"met\": %s},\n",
            r->thread_vertices, r->threads, r->one_thread_ms, r->n_threads_ms, r->thread_speedup,
            r->thread_speedup >= 1.6 ? "true" : "false");
    fprintf(out, " \"player\": {\"players\": %u, \"ns_per_update\": %.4g, \"goal\": 5, \"met\": %s}}\n",
            r->players, r->player_ns, r->player_ns <= 5.0 ? "true" : "false");
}
