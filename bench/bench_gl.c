/* Frame time of the three GPU ways to draw N animated units, each showing
 * its own blend of two frames:
 *   pair      one mk_gl_draw_pose per unit (frames resident, 2 streams)
 *   crowd     one mk_gl_draw_crowd call (instanced, vertex pulling)
 *   qcrowd    the same over quantized frames (mk_gl_frames_create_quantized:
 *             10 bytes per vertex and frame instead of 24)
 *   compute   mk_gl_draw_crowd_compute (GL 4.3: a compute shader blends every
 *             pose into a buffer, the draw only reads it); "-" below 4.3
 *   cpu       mk_blend_frames per unit on the CPU, transformed into one big
 *             vertex stream, uploaded and drawn with one call
 * Each frame is rendered into a 512x512 offscreen target and waited for
 * (glFinish), so the time is the whole frame. Prints a markdown table.
 * `--quick`: tiny sizes (CTest smoke test). `--large`: a 2 009-vertex unit
 * at 1920x1080, with the unit counts given after it (default 1000 10000;
 * e.g. `--large 1000 10000 50000 100000` on a GPU). Exits 77 without EGL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"
#include "sphere_fixture.h"

typedef struct bench {
    mk_gl_renderer *r;
    mk_gl_target *target;
    mk_frame_set *set;
    mk_gl_frames *frames, *qframes;
    mk_gl_instance *inst;
    uint32_t n;
    mk_gl_draw_params params;
    /* cpu path */
    mk_gl_mesh *mesh;
    float *pos, *nrm, *tmp_p, *tmp_n;
    mk_status status; /* the first failure of a frame, with its error */
    mk_error err;
} bench;

/* Keeps the first failure so main can report it after timing. */
static void note(bench *b, mk_status s, const mk_error *err)
{
    if (s != MK_OK && b->status == MK_OK) {
        b->status = s;
        b->err = *err;
    }
}

static const float clear[4] = {0.1f, 0.1f, 0.1f, 1};

static void frame_pair(bench *b)
{
    mk_error err;
    note(b, mk_gl_target_begin(b->target, clear, &err), &err);
    mk_gl_draw_params p = b->params;
    for (uint32_t i = 0; i < b->n; i++) {
        mk_pose pose = {2, {b->inst[i].frame_a, b->inst[i].frame_b},
                        {1 - b->inst[i].weight, b->inst[i].weight}};
        memcpy(p.model, b->inst[i].model, sizeof p.model);
        note(b, mk_gl_draw_pose(b->r, b->frames, &pose, &p, &err), &err);
    }
    note(b, mk_gl_check("pair frame", &err), &err);
}

static void frame_qcrowd(bench *b)
{
    mk_error err;
    note(b, mk_gl_target_begin(b->target, clear, &err), &err);
    note(b, mk_gl_draw_crowd(b->r, b->qframes, b->inst, b->n, &b->params, &err), &err);
    note(b, mk_gl_check("quantized crowd frame", &err), &err);
}

static void frame_compute(bench *b)
{
    mk_error err;
    note(b, mk_gl_target_begin(b->target, clear, &err), &err);
    note(b, mk_gl_draw_crowd_compute(b->r, b->frames, b->inst, b->n, &b->params, &err), &err);
    note(b, mk_gl_check("compute frame", &err), &err);
}

static void frame_crowd(bench *b)
{
    mk_error err;
    note(b, mk_gl_target_begin(b->target, clear, &err), &err);
    note(b, mk_gl_draw_crowd(b->r, b->frames, b->inst, b->n, &b->params, &err), &err);
    note(b, mk_gl_check("crowd frame", &err), &err);
}

static void frame_cpu(bench *b)
{
    mk_error err;
    uint32_t V = b->set->vertex_count;
    for (uint32_t i = 0; i < b->n; i++) {
        const mk_gl_instance *in = &b->inst[i];
        mk_blend_frames(b->set, in->frame_a, in->frame_b, in->weight, b->tmp_p, b->tmp_n, V, NULL);
        /* The instance transform is scale + translation here. */
        float *p = b->pos + (size_t)i * V * 3, *n = b->nrm + (size_t)i * V * 3;
        for (uint32_t v = 0; v < 3 * V; v += 3)
            for (int c = 0; c < 3; c++) {
                p[v + c] = b->tmp_p[v + c] * in->model[0] + in->model[12 + c];
                n[v + c] = b->tmp_n[v + c];
            }
    }
    note(b, mk_gl_target_begin(b->target, clear, &err), &err);
    note(b, mk_gl_mesh_update(b->mesh, b->pos, b->nrm, &err), &err);
    note(b, mk_gl_draw_mesh(b->r, b->mesh, &b->params, &err), &err);
    note(b, mk_gl_check("cpu frame", &err), &err);
}

int main(int argc, char **argv)
{
    int quick = mk_bench_quick(argc, argv), large = 0;
    uint32_t large_sizes[16] = {1000, 10000}, large_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--large") == 0)
            large = 1;
        else if (large && large_count < 16 && atoi(argv[i]) > 0)
            large_sizes[large_count++] = (uint32_t)atoi(argv[i]);
    }
    if (large && large_count == 0)
        large_count = 2;
    mk_gl_context *ctx = NULL;
    mk_error err;
    if (mk_gl_context_create(NULL, NULL, &ctx, &err) != MK_OK) {
        fprintf(stderr, "bench_gl: skipped: %s\n", err.message);
        return err.code == MK_ERR_UNSUPPORTED ? 77 : 1;
    }
    bench b;
    memset(&b, 0, sizeof b);
    mk_gl_target_desc td = {large ? 1920 : 512, large ? 1080 : 512, 0};
    if (mk_gl_renderer_create(NULL, &b.r, &err) != MK_OK ||
        mk_gl_target_create(&td, NULL, &b.target, &err) != MK_OK ||
        !(b.set = large ? mk_fx_blob(6, 40, 48) : mk_fx_blob(6, 10, 16)) ||
        mk_gl_frames_create(b.r, b.set, &b.frames, &err) != MK_OK) {
        fprintf(stderr, "bench_gl: %s\n", err.message);
        return 1;
    }
    mk_qframe_set *qset = NULL;
    if (mk_qframe_set_quantize(b.set, NULL, &qset, &err) != MK_OK ||
        mk_gl_frames_create_quantized(b.r, qset, &b.qframes, &err) != MK_OK) {
        fprintf(stderr, "bench_gl: %s\n", err.message);
        return 1;
    }
    mk_qframe_set_destroy(qset); /* the GPU keeps its copy */
    printf("GL: %s\n", mk_gl_context_description(ctx));
    printf("unit: %u vertices, %u triangles, %u frames; %ux%u target; ms per frame "
           "(best of %d)\n\n",
           b.set->vertex_count, b.set->index_count / 3, b.set->frame_count, td.width, td.height,
           quick || large ? 1 : 3);
    printf("| units | pair draws, one by one | crowd, one instanced call | crowd, quantized frames "
           "| compute blend + draw | CPU blend + upload |\n");
    printf("|------:|-----------------------:|--------------------------:|------------------------:"
           "|---------------------:|-------------------:|\n");
    const uint32_t sizes[] = {100, 1000, 10000};
    const uint32_t quick_sizes[] = {10};
    const uint32_t *ns = quick ? quick_sizes : large ? large_sizes : sizes;
    uint32_t count = quick ? 1 : large ? large_count : 3;
    for (uint32_t s = 0; s < count; s++) {
        uint32_t n = ns[s], side = (uint32_t)ceil(sqrt((double)n));
        uint32_t V = b.set->vertex_count;
        b.n = n;
        b.inst = calloc(n, sizeof *b.inst);
        b.pos = malloc((size_t)n * V * 3 * sizeof(float));
        b.nrm = malloc((size_t)n * V * 3 * sizeof(float));
        b.tmp_p = malloc((size_t)V * 3 * sizeof(float));
        b.tmp_n = malloc((size_t)V * 3 * sizeof(float));
        uint32_t *idx = malloc((size_t)n * b.set->index_count * sizeof(uint32_t));
        if (!b.inst || !b.pos || !b.nrm || !b.tmp_p || !b.tmp_n || !idx) {
            fprintf(stderr, "bench_gl: out of memory\n");
            return 1;
        }
        for (uint32_t i = 0; i < n; i++) {
            b.inst[i].frame_a = i % 6;
            b.inst[i].frame_b = (i + 1) % 6;
            b.inst[i].weight = (float)(i % 10) / 10.0f;
            float *m = b.inst[i].model;
            m[0] = m[5] = m[10] = 0.4f;
            m[15] = 1;
            m[12] = (float)(i % side) - 0.5f * (float)side;
            m[13] = (float)(i / side) - 0.5f * (float)side;
            for (uint32_t k = 0; k < b.set->index_count; k++)
                idx[(size_t)i * b.set->index_count + k] = b.set->indices[k] + i * V;
        }
        memset(&b.params, 0, sizeof b.params);
        const float center[3] = {-0.5f, -0.5f, 0};
        mk_gl_orbit_camera(center, 0.72f * (float)side, 0, 0, 0.8f, 1, b.params.view_projection);
        if (mk_gl_mesh_create(b.r, n * V, idx, n * b.set->index_count, true, &b.mesh, &err) !=
            MK_OK) {
            fprintf(stderr, "bench_gl: %s\n", err.message);
            return 1;
        }
        double rounds_s = quick || large ? 0.0 : 0.3;
        int rounds = quick || large ? 1 : 3;
        double t_pair, t_crowd, t_qcrowd, t_compute = -1, t_cpu;
        MK_BENCH_BEST(t_pair, rounds, rounds_s, frame_pair(&b));
        MK_BENCH_BEST(t_crowd, rounds, rounds_s, frame_crowd(&b));
        MK_BENCH_BEST(t_qcrowd, rounds, rounds_s, frame_qcrowd(&b));
        if (mk_gl_renderer_has_compute(b.r))
            MK_BENCH_BEST(t_compute, rounds, rounds_s, frame_compute(&b));
        MK_BENCH_BEST(t_cpu, rounds, rounds_s, frame_cpu(&b));
        if (b.status != MK_OK) {
            fprintf(stderr, "bench_gl: %s\n", b.err.message);
            return 1;
        }
        char compute[32] = "-";
        if (t_compute >= 0)
            snprintf(compute, sizeof compute, "%.2f", t_compute * 1e3);
        printf("| %5u | %22.2f | %25.2f | %23.2f | %20s | %18.2f |\n", n, t_pair * 1e3,
               t_crowd * 1e3, t_qcrowd * 1e3, compute, t_cpu * 1e3);
        fflush(stdout);
        mk_gl_mesh_destroy(b.mesh);
        free(b.inst), free(b.pos), free(b.nrm), free(b.tmp_p), free(b.tmp_n), free(idx);
    }
    mk_gl_frames_destroy(b.frames);
    mk_gl_frames_destroy(b.qframes);
    mk_frame_set_destroy(b.set);
    mk_gl_target_destroy(b.target);
    mk_gl_renderer_destroy(b.r);
    mk_gl_context_destroy(ctx);
    return 0;
}
