/* `morphkit validate` for glTF files. The loader enforces the glTF morph
 * rules (target counts per mesh, accessor counts, weights lengths, output
 * counts per interpolation, ...) and names the JSON path of what breaks one;
 * building every primitive's morph set and every animation's clip then
 * checks the data itself (finite values, key times strictly increasing).
 * Skins: see check_skins. Errors from either make the file invalid. On top,
 * a few cheap warnings
 * about things that load but are likely mistakes. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"

#define MAX_DIAGNOSTICS 200

typedef struct diagnostic {
    bool error;
    const char *check;
    char message[MK_ERROR_MESSAGE_MAX + 64];
} diagnostic;

typedef struct report {
    const char *file;
    diagnostic items[MAX_DIAGNOSTICS];
    uint32_t count, errors, warnings, dropped;
} report;

static void add(report *r, bool error, const char *check, const char *format, ...)
    MK_PRINTF(4, 5);
static void add(report *r, bool error, const char *check, const char *format, ...)
{
    if (error)
        r->errors++;
    else
        r->warnings++;
    if (r->count == MAX_DIAGNOSTICS) {
        r->dropped++;
        return;
    }
    diagnostic *d = &r->items[r->count++];
    d->error = error;
    d->check = check;
    va_list args;
    va_start(args, format);
    vsnprintf(d->message, sizeof d->message, format, args);
    va_end(args);
}

/* Errors of building every primitive's morph set; warnings for targets that
 * move nothing in any primitive of their mesh (skipped when a set could not
 * be built) and for meshes no node uses. */
static void check_meshes(const mk_gltf *g, report *r)
{
    for (uint32_t m = 0; m < g->mesh_count; m++) {
        const mk_gltf_mesh *mesh = &g->meshes[m];
        bool *moves = calloc(mesh->target_count ? mesh->target_count : 1, sizeof(bool));
        bool built = moves != NULL;
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            mk_morph_set *set = NULL;
            mk_error err;
            if (mk_gltf_build_morph_set(g, m, p, NULL, &set, &err) != MK_OK) {
                add(r, true, "morph", "%s", err.message);
                built = false;
                continue;
            }
            for (uint32_t t = 0; moves && t < set->target_count; t++)
                for (int a = 0; a < MK_MORPH_ATTRIBUTE_COUNT; a++)
                    moves[t] = moves[t] || set->targets[t].delta[a].entry_count != 0;
            mk_morph_set_destroy(set);
        }
        for (uint32_t t = 0; built && t < mesh->target_count; t++) {
            if (moves[t])
                continue;
            const char *name = mesh->target_names ? mesh->target_names[t] : NULL;
            add(r, false, "zero-target",
                "meshes[%u].targets[%u]%s%s%s: all its deltas are zero in every primitive (the "
                "target moves nothing)",
                m, t, name ? " ('" : "", name ? name : "", name ? "')" : "");
        }
        free(moves);
        bool used = false;
        for (uint32_t n = 0; n < g->node_count && !used; n++)
            used = g->nodes[n].mesh == m;
        if (!used)
            add(r, false, "unused-mesh",
                "meshes[%u]: no node uses it (sample and viewers never show it)", m);
    }
}

/* Skins: the loader checked every index (joints, JOINTS values, accessor
 * types); here the data: inverse bind matrices invertible (|det| of the
 * 3x3 part above 1e-12), weights non-negative (building each skinned
 * primitive's runtime skin fails otherwise) and summing to 1 within 1e-3
 * (a warning: morphkit normalizes them), skins no node uses. */
static void check_skins(const mk_gltf *g, report *r)
{
    for (uint32_t k = 0; k < g->skin_count; k++) {
        const mk_gltf_skin *sk = &g->skins[k];
        uint32_t ibm = sk->inverse_bind_matrices;
        size_t n = ibm != MK_NONE ? (size_t)g->accessors[ibm].count * 16 : 0;
        float *m = n ? malloc(n * sizeof(float)) : NULL;
        mk_error err;
        if (m && mk_gltf_accessor_read_float(g, ibm, m, n, &err) == MK_OK) {
            for (uint32_t j = 0; j < sk->joint_count; j++) {
                const float *a = m + (size_t)j * 16;
                double det = (double)a[0] * ((double)a[5] * a[10] - (double)a[9] * a[6]) -
                             (double)a[4] * ((double)a[1] * a[10] - (double)a[9] * a[2]) +
                             (double)a[8] * ((double)a[1] * a[6] - (double)a[5] * a[2]);
                if (!(fabs(det) > 1e-12)) {
                    add(r, true, "skin",
                        "skins[%u]: inverse bind matrix %u (joint node %u) is not invertible "
                        "(determinant %g)",
                        k, j, sk->joints[j], det);
                    break;
                }
            }
        }
        free(m);
        bool used = false;
        for (uint32_t i = 0; i < g->node_count && !used; i++)
            used = g->nodes[i].skin == k;
        if (!used)
            add(r, false, "unused-skin", "skins[%u]: no node uses it", k);
    }
    for (uint32_t i = 0; i < g->node_count; i++) {
        const mk_gltf_node *node = &g->nodes[i];
        if (node->skin == MK_NONE)
            continue;
        const mk_gltf_mesh *mesh = &g->meshes[node->mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const mk_gltf_primitive *pr = &mesh->primitives[p];
            mk_skin *skin = NULL;
            mk_error err;
            if (mk_gltf_build_skin(g, node->skin, node->mesh, p, NULL, &skin, &err) != MK_OK) {
                add(r, true, "skin", "nodes[%u]: %s", i, err.message);
                continue;
            }
            mk_skin_destroy(skin);
            /* The sums as the file gives them (the runtime skin is normalized). */
            uint32_t vc = g->accessors[pr->weights[0]].count, off = 0;
            double *sum = calloc(vc, sizeof(double));
            float *w = malloc((size_t)vc * 4 * sizeof(float));
            for (uint32_t s = 0; sum && w && s < pr->joint_set_count; s++)
                if (mk_gltf_accessor_read_float(g, pr->weights[s], w, (size_t)vc * 4, &err) ==
                    MK_OK)
                    for (uint32_t v = 0; v < vc; v++)
                        sum[v] += (double)w[4 * v] + w[4 * v + 1] + w[4 * v + 2] + w[4 * v + 3];
            for (uint32_t v = 0; sum && w && v < vc; v++)
                off += fabs(sum[v] - 1.0) > 1e-3;
            if (off)
                add(r, false, "weight-sum",
                    "meshes[%u].primitives[%u]: the skin weights of %u of %u vertices do not "
                    "sum to 1 (within 1e-3); morphkit normalizes them",
                    node->mesh, p, off, vc);
            free(sum);
            free(w);
        }
    }
}

static void check_animations(const mk_gltf *g, report *r)
{
    for (uint32_t a = 0; a < g->animation_count; a++) {
        const mk_gltf_animation *an = &g->animations[a];
        mk_track_clip *clip = NULL;
        mk_error err;
        if (mk_gltf_build_track_clip(g, a, NULL, &clip, &err) != MK_OK)
            add(r, true, "animation", "%s", err.message);
        mk_track_clip_destroy(clip);
        for (uint32_t s = 0; s < an->sampler_count; s++) {
            bool used = false;
            for (uint32_t c = 0; c < an->channel_count && !used; c++)
                used = an->channels[c].sampler == s;
            if (!used)
                add(r, false, "unused-sampler",
                    "animations[%u].samplers[%u]: no channel uses it", a, s);
        }
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const mk_gltf_channel *ch = &an->channels[c];
            if (ch->node == MK_NONE || !ch->supported) {
                add(r, false, "ignored-channel",
                    "animations[%u].channels[%u]: %s; the channel is ignored", a, c,
                    ch->node == MK_NONE ? "target.node is not given"
                                             : "its target.path is not one morphkit knows");
                continue;
            }
            /* glTF 2.0 §3.11: a node and path must not be targeted twice. */
            for (uint32_t k = 0; k < c; k++) {
                const mk_gltf_channel *o = &an->channels[k];
                if (o->supported && o->node == ch->node && o->path == ch->path) {
                    add(r, false, "duplicate-target",
                        "animations[%u].channels[%u]: animates the %s of node %u like "
                        "channels[%u] (glTF forbids this; the later channel wins here)",
                        a, c, mk_track_path_name(ch->path), ch->node, k);
                    break;
                }
            }
        }
    }
}

static void totals(const mk_gltf *g, uint32_t *primitives, uint32_t *vertices, uint32_t *targets)
{
    *primitives = *vertices = *targets = 0;
    for (uint32_t m = 0; m < g->mesh_count; m++) {
        *targets += g->meshes[m].target_count;
        for (uint32_t p = 0; p < g->meshes[m].primitive_count; p++) {
            uint32_t pos = g->meshes[m].primitives[p].position;
            (*primitives)++;
            *vertices += pos != MK_NONE ? g->accessors[pos].count : 0;
        }
    }
}

static const char *plural(uint32_t n)
{
    return n == 1 ? "" : "s";
}

static void print_text(const char *path, const mk_gltf *g, const report *r, bool quiet)
{
    if (r->errors == 0 && !quiet) {
        uint32_t prims, verts, targets;
        totals(g, &prims, &verts, &targets);
        printf("%s: ok: %u mesh%s, %u primitive%s, %u vertices, %u morph target%s, %u "
               "animation%s, %u warning%s\n",
               path, g->mesh_count, g->mesh_count == 1 ? "" : "es", prims, plural(prims), verts,
               targets, plural(targets), g->animation_count, plural(g->animation_count),
               r->warnings, plural(r->warnings));
    } else if (r->errors) {
        printf("%s: INVALID: %u error%s, %u warning%s\n", path, r->errors, plural(r->errors),
               r->warnings, plural(r->warnings));
    }
    for (uint32_t i = 0; i < r->count; i++)
        printf("  %s[%s]: %s: %s\n", r->items[i].error ? "error" : "warning", r->items[i].check,
               r->file, r->items[i].message);
    if (r->dropped)
        printf("  ... and %u more\n", r->dropped);
}

static void print_json(const char *path, const mk_gltf *g, const report *r, bool first)
{
    printf("%s\n  {\"path\": ", first ? "" : ",");
    mk_cli_json_string(stdout, path);
    printf(", \"format\": \"gltf\", \"valid\": %s, \"errors\": %u, \"warnings\": %u",
           r->errors ? "false" : "true", r->errors, r->warnings);
    if (g) {
        uint32_t prims, verts, targets;
        totals(g, &prims, &verts, &targets);
        printf(", \"meshes\": %u, \"primitives\": %u, \"vertices\": %u, \"targets\": %u, "
               "\"animations\": [",
               g->mesh_count, prims, verts, targets);
        for (uint32_t a = 0; a < g->animation_count; a++) {
            printf("%s{\"name\": ", a ? ", " : "");
            if (g->animations[a].name)
                mk_cli_json_string(stdout, g->animations[a].name);
            else
                printf("null");
            printf(", \"channels\": %u}", g->animations[a].channel_count);
        }
        printf("]");
    }
    printf(", \"diagnostics\": [");
    for (uint32_t i = 0; i < r->count; i++) {
        printf("%s\n    {\"severity\": \"%s\", \"check\": \"%s\", \"file\": ", i ? "," : "",
               r->items[i].error ? "error" : "warning", r->items[i].check);
        mk_cli_json_string(stdout, r->file);
        printf(", \"line\": 0, \"message\": ");
        mk_cli_json_string(stdout, r->items[i].message);
        printf("}");
    }
    printf("]}");
}

int mk_cli_validate_gltf(const char *path, bool json, bool quiet, bool first)
{
    report *r = calloc(1, sizeof *r);
    if (!r) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    r->file = path;
    mk_gltf *g = NULL;
    mk_error err;
    if (mk_gltf_load(path, NULL, NULL, &g, &err) != MK_OK) {
        /* The message already starts with the JSON path of the object. */
        add(r, true, "gltf", "%s", err.message);
    } else {
        check_meshes(g, r);
        check_skins(g, r);
        check_animations(g, r);
    }
    if (json)
        print_json(path, g, r, first);
    else
        print_text(path, g, r, quiet);
    int code = r->errors ? MK_EXIT_INVALID : MK_EXIT_OK;
    mk_gltf_destroy(g);
    free(r);
    return code;
}
