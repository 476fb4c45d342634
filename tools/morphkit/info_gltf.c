/* `morphkit info` for glTF files: meshes and primitives (vertex count,
 * attributes, mode), morph targets (count, names from mesh.extras.targetNames,
 * default weights), the nodes that use meshes, skins (joints, influence
 * slots per vertex, the nodes they deform), and animations with their
 * channels, durations and what they drive (joints, other nodes, weights). */
#include <string.h>

#include "cli.h"

static const char *mode_name(mk_gltf_mode mode)
{
    static const char *const names[] = {"POINTS",    "LINES",          "LINE_LOOP",     "LINE_STRIP",
                                        "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};
    return (unsigned)mode < sizeof names / sizeof names[0] ? names[mode] : "?";
}

/* The base attributes a primitive has, as "POSITION NORMAL ..." (sep between). */
static void attributes(const mk_gltf_primitive *p, char *buf, size_t size, const char *sep)
{
    const uint32_t acc[] = {p->position, p->normal, p->tangent, p->texcoord0, p->color0};
    static const char *const names[] = {"POSITION", "NORMAL", "TANGENT", "TEXCOORD_0", "COLOR_0"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof acc / sizeof acc[0]; i++) {
        if (acc[i] == MK_NONE)
            continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? sep : "", names[i]);
        if (n < 0 || (size_t)n >= size - used)
            return;
        used += (size_t)n;
    }
}

/* Which attributes any target of the primitive moves: bit 0 POSITION, 1 NORMAL, 2 TANGENT. */
static unsigned target_attributes(const mk_gltf_primitive *p)
{
    unsigned bits = 0;
    for (uint32_t t = 0; t < p->target_count; t++)
        bits |= (p->targets[t].position != MK_NONE ? 1u : 0u) |
                (p->targets[t].normal != MK_NONE ? 2u : 0u) |
                (p->targets[t].tangent != MK_NONE ? 4u : 0u);
    return bits;
}

static uint32_t vertex_count(const mk_gltf *g, const mk_gltf_primitive *p)
{
    return p->position != MK_NONE ? g->accessors[p->position].count : 0;
}

/* The largest key time of the sampler's input, in seconds, read from the
 * data (not accessor.max, which a file may get wrong). -1 when unreadable. */
static double input_end(const mk_gltf *g, uint32_t input)
{
    const mk_gltf_accessor *a = &g->accessors[input];
    float *t = malloc((a->count ? a->count : 1) * sizeof(float));
    mk_error err;
    double end = -1;
    if (t && mk_gltf_accessor_read_float(g, input, t, a->count, &err) == MK_OK)
        for (uint32_t k = 0; k < a->count; k++)
            end = (double)t[k] > end ? (double)t[k] : end;
    free(t);
    return end;
}

static double animation_duration(const mk_gltf *g, const mk_gltf_animation *an)
{
    double d = 0;
    for (uint32_t c = 0; c < an->channel_count; c++) {
        double e = input_end(g, an->samplers[an->channels[c].sampler].input);
        d = e > d ? e : d;
    }
    return d;
}

static const char *weights_source(const mk_gltf *g, const mk_gltf_node *n)
{
    return n->weights ? "node.weights" : g->meshes[n->mesh].weights ? "mesh.weights" : "zeros";
}

static void print_weights(const float *w, uint32_t n, const char *sep)
{
    for (uint32_t i = 0; i < n; i++)
    {
        printf("%s", i ? sep : "");
        mk_cli_json_number(stdout, w ? (double)w[i] : 0.0, true);
    }
}

static const char *channel_path(const mk_gltf_channel *ch)
{
    return ch->supported ? mk_track_path_name(ch->path) : "(other)";
}

/* Influence slots per vertex (4 per JOINTS_n set) of the primitives that
 * skin `skin` deforms: the largest over them. */
static uint32_t skin_influences(const mk_gltf *g, uint32_t skin)
{
    uint32_t most = 0;
    for (uint32_t n = 0; n < g->node_count; n++) {
        if (g->nodes[n].skin != skin)
            continue;
        const mk_gltf_mesh *m = &g->meshes[g->nodes[n].mesh];
        for (uint32_t p = 0; p < m->primitive_count; p++)
            most = m->primitives[p].joint_set_count * 4 > most ? m->primitives[p].joint_set_count * 4
                                                               : most;
    }
    return most;
}

static bool is_joint(const mk_gltf *g, uint32_t node)
{
    for (uint32_t k = 0; k < g->skin_count; k++)
        for (uint32_t j = 0; j < g->skins[k].joint_count; j++)
            if (g->skins[k].joints[j] == node)
                return true;
    return false;
}

/* What an animation drives: bit 0 joints (TRS of a skin's joint), 1 other
 * nodes (TRS), 2 morph weights. */
static unsigned animation_drives(const mk_gltf *g, const mk_gltf_animation *an)
{
    unsigned bits = 0;
    for (uint32_t c = 0; c < an->channel_count; c++) {
        const mk_gltf_channel *ch = &an->channels[c];
        if (!ch->supported || ch->node == MK_NONE)
            continue;
        if (ch->path == MK_TRACK_WEIGHTS)
            bits |= 4u;
        else
            bits |= is_joint(g, ch->node) ? 1u : 2u;
    }
    return bits;
}

static void print_drives(unsigned bits, const char *quote, const char *sep)
{
    static const char *const names[] = {"joints", "nodes", "weights"};
    const char *s = "";
    for (int b = 0; b < 3; b++)
        if (bits & (1u << b)) {
            printf("%s%s%s%s", s, quote, names[b], quote);
            s = sep;
        }
}

static uint64_t buffer_bytes(const mk_gltf *g)
{
    uint64_t total = 0;
    for (uint32_t b = 0; b < g->buffer_count; b++)
        total += g->buffers[b].byte_length;
    return total;
}

static void print_sizes(const mk_gltf *g)
{
    char disk[32], buffers[32];
    printf("  size:       %s on disk, %s of buffers\n",
           mk_cli_bytes_text(mk_cli_gltf_disk_bytes(g, g->path), disk, sizeof disk),
           mk_cli_bytes_text(buffer_bytes(g), buffers, sizeof buffers));
}

static void print_text(const mk_gltf *g)
{
    uint32_t vertices = 0, primitives = 0;
    for (uint32_t m = 0; m < g->mesh_count; m++)
        for (uint32_t p = 0; p < g->meshes[m].primitive_count; p++, primitives++)
            vertices += vertex_count(g, &g->meshes[m].primitives[p]);
    printf("glTF %s (%s, %u buffer%s%s%s%s)\n", g->path, g->is_glb ? "GLB" : "JSON",
           g->buffer_count, g->buffer_count == 1 ? "" : "s",
           g->uses_quantization ? ", KHR_mesh_quantization" : "",
           g->generator ? ", generator: " : "", g->generator ? g->generator : "");
    print_sizes(g);
    printf("  meshes:     %u (%u primitive%s, %u vertices)\n", g->mesh_count, primitives,
           primitives == 1 ? "" : "s", vertices);
    for (uint32_t m = 0; m < g->mesh_count; m++) {
        const mk_gltf_mesh *mesh = &g->meshes[m];
        printf("    mesh %u %s%s%s: %u primitive%s, %u target%s", m, mesh->name ? "\"" : "",
               mesh->name ? mesh->name : "(unnamed)", mesh->name ? "\"" : "", mesh->primitive_count,
               mesh->primitive_count == 1 ? "" : "s", mesh->target_count,
               mesh->target_count == 1 ? "" : "s");
        if (mesh->target_count) {
            printf(", default weights [");
            print_weights(mesh->weights, mesh->target_count, " ");
            printf("]%s", mesh->weights ? "" : " (none given: zeros)");
        }
        printf("\n");
        if (mesh->target_names) {
            printf("      target names:");
            for (uint32_t t = 0; t < mesh->target_count; t++)
                printf(" %u:%s", t, mesh->target_names[t] ? mesh->target_names[t] : "?");
            printf("\n");
        }
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const mk_gltf_primitive *pr = &mesh->primitives[p];
            char attrs[96];
            attributes(pr, attrs, sizeof attrs, " ");
            unsigned tb = target_attributes(pr);
            printf("      primitive %u: %u vertices, %s", p, vertex_count(g, pr), mode_name(pr->mode));
            if (pr->indices != MK_NONE)
                printf(", %u indices", g->accessors[pr->indices].count);
            printf(", %s", attrs);
            if (pr->target_count)
                printf("; targets move%s%s%s", tb & 1 ? " POSITION" : "", tb & 2 ? " NORMAL" : "",
                       tb & 4 ? " TANGENT" : "");
            printf("\n");
        }
    }
    uint32_t with_mesh = 0;
    for (uint32_t n = 0; n < g->node_count; n++)
        with_mesh += g->nodes[n].mesh != MK_NONE;
    printf("  nodes:      %u (%u with a mesh)\n", g->node_count, with_mesh);
    for (uint32_t n = 0; n < g->node_count; n++) {
        const mk_gltf_node *node = &g->nodes[n];
        if (node->mesh == MK_NONE)
            continue;
        printf("    node %u %s%s%s: mesh %u", n, node->name ? "\"" : "",
               node->name ? node->name : "(unnamed)", node->name ? "\"" : "", node->mesh);
        uint32_t tc = g->meshes[node->mesh].target_count;
        if (tc) {
            float *w = malloc(tc * sizeof(float));
            if (w) {
                mk_gltf_node_default_weights(g, n, w, tc);
                printf(", weights [");
                print_weights(w, tc, " ");
                printf("] (%s)", weights_source(g, node));
            }
            free(w);
        }
        printf("\n");
    }
    printf("  skins:      %u\n", g->skin_count);
    for (uint32_t k = 0; k < g->skin_count; k++) {
        const mk_gltf_skin *sk = &g->skins[k];
        printf("    skin %u %s%s%s: %u joint%s, %u influences per vertex, inverse binds %s", k,
               sk->name ? "\"" : "", sk->name ? sk->name : "(unnamed)", sk->name ? "\"" : "",
               sk->joint_count, sk->joint_count == 1 ? "" : "s", skin_influences(g, k),
               sk->inverse_bind_matrices != MK_NONE ? "given" : "identity");
        printf(", used by node");
        for (uint32_t n = 0; n < g->node_count; n++)
            if (g->nodes[n].skin == k)
                printf(" %u", n);
        printf("\n");
    }
    printf("  animations: %u\n", g->animation_count);
    for (uint32_t a = 0; a < g->animation_count; a++) {
        const mk_gltf_animation *an = &g->animations[a];
        printf("    animation %u %s%s%s: %.6g s, %u channel%s, %u sampler%s, drives ", a,
               an->name ? "\"" : "", an->name ? an->name : "(unnamed)", an->name ? "\"" : "",
               animation_duration(g, an), an->channel_count, an->channel_count == 1 ? "" : "s",
               an->sampler_count, an->sampler_count == 1 ? "" : "s");
        unsigned drives = animation_drives(g, an);
        if (drives)
            print_drives(drives, "", " + ");
        else
            printf("nothing");
        printf("\n");
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const mk_gltf_channel *ch = &an->channels[c];
            const mk_gltf_sampler *sm = &an->samplers[ch->sampler];
            char node[32] = "(no node)";
            if (ch->node != MK_NONE)
                snprintf(node, sizeof node, "node %u", ch->node);
            printf("      channel %u: %-10s %-11s %-11s %u keys, ends at %.6g s\n", c, node,
                   channel_path(ch), mk_interpolation_name(sm->interpolation),
                   g->accessors[sm->input].count, input_end(g, sm->input));
        }
    }
}

static void json_name(const char *s)
{
    if (s)
        mk_cli_json_string(stdout, s);
    else
        printf("null");
}

static void print_json(const mk_gltf *g)
{
    printf("{\"version\": %d, \"gltf\": {\"path\": ", MK_CLI_JSON_VERSION);
    mk_cli_json_string(stdout, g->path);
    printf(", \"format\": \"%s\", \"generator\": ", g->is_glb ? "glb" : "gltf");
    json_name(g->generator);
    printf(", \"disk_bytes\": %llu, \"buffer_bytes\": %llu",
           (unsigned long long)mk_cli_gltf_disk_bytes(g, g->path),
           (unsigned long long)buffer_bytes(g));
    printf(", \"buffers\": %u, \"quantized\": %s,\n \"meshes\": [", g->buffer_count,
           g->uses_quantization ? "true" : "false");
    for (uint32_t m = 0; m < g->mesh_count; m++) {
        const mk_gltf_mesh *mesh = &g->meshes[m];
        printf("%s\n  {\"mesh\": %u, \"name\": ", m ? "," : "", m);
        json_name(mesh->name);
        printf(", \"targets\": %u, \"target_names\": ", mesh->target_count);
        if (mesh->target_names) {
            printf("[");
            for (uint32_t t = 0; t < mesh->target_count; t++) {
                printf("%s", t ? ", " : "");
                json_name(mesh->target_names[t]);
            }
            printf("]");
        } else {
            printf("null");
        }
        printf(", \"weights\": [");
        print_weights(mesh->weights, mesh->target_count, ", ");
        printf("], \"weights_given\": %s, \"primitives\": [", mesh->weights ? "true" : "false");
        for (uint32_t p = 0; p < mesh->primitive_count; p++) {
            const mk_gltf_primitive *pr = &mesh->primitives[p];
            char attrs[128];
            attributes(pr, attrs, sizeof attrs, "\", \"");
            unsigned tb = target_attributes(pr);
            printf("%s\n    {\"primitive\": %u, \"vertices\": %u, \"mode\": \"%s\", \"indices\": ",
                   p ? "," : "", p, vertex_count(g, pr), mode_name(pr->mode));
            if (pr->indices != MK_NONE)
                printf("%u", g->accessors[pr->indices].count);
            else
                printf("null");
            printf(", \"attributes\": [%s%s%s], \"target_attributes\": [", attrs[0] ? "\"" : "",
                   attrs, attrs[0] ? "\"" : "");
            const char *sep = "";
            static const char *const tn[] = {"POSITION", "NORMAL", "TANGENT"};
            for (int b = 0; b < 3; b++)
                if (tb & (1u << b)) {
                    printf("%s\"%s\"", sep, tn[b]);
                    sep = ", ";
                }
            printf("]}");
        }
        printf("]}");
    }
    printf("],\n \"nodes\": [");
    bool first = true;
    for (uint32_t n = 0; n < g->node_count; n++) {
        const mk_gltf_node *node = &g->nodes[n];
        if (node->mesh == MK_NONE)
            continue;
        uint32_t tc = g->meshes[node->mesh].target_count;
        float *w = calloc(tc ? tc : 1, sizeof(float));
        if (w)
            mk_gltf_node_default_weights(g, n, w, tc);
        printf("%s\n  {\"node\": %u, \"name\": ", first ? "" : ",", n);
        json_name(node->name);
        printf(", \"mesh\": %u, \"weights\": [", node->mesh);
        print_weights(w, tc, ", ");
        printf("], \"weights_from\": \"%s\"}", weights_source(g, node));
        free(w);
        first = false;
    }
    printf("],\n \"animations\": [");
    for (uint32_t a = 0; a < g->animation_count; a++) {
        const mk_gltf_animation *an = &g->animations[a];
        printf("%s\n  {\"animation\": %u, \"name\": ", a ? "," : "", a);
        json_name(an->name);
        printf(", \"duration\": ");
        mk_cli_json_number(stdout, animation_duration(g, an), true);
        printf(", \"samplers\": %u, \"drives\": [", an->sampler_count);
        print_drives(animation_drives(g, an), "\"", ", ");
        printf("], \"channels\": [");
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const mk_gltf_channel *ch = &an->channels[c];
            const mk_gltf_sampler *sm = &an->samplers[ch->sampler];
            printf("%s\n    {\"node\": ", c ? "," : "");
            if (ch->node != MK_NONE)
                printf("%u", ch->node);
            else
                printf("null");
            printf(", \"path\": ");
            json_name(ch->supported ? mk_track_path_name(ch->path) : NULL);
            printf(", \"interpolation\": \"%s\", \"sampler\": %u, \"keys\": %u, \"end\": ",
                   mk_interpolation_name(sm->interpolation), ch->sampler,
                   g->accessors[sm->input].count);
            mk_cli_json_number(stdout, input_end(g, sm->input), true);
            printf("}");
        }
        printf("]}");
    }
    printf("],\n \"skins\": [");
    for (uint32_t k = 0; k < g->skin_count; k++) {
        const mk_gltf_skin *sk = &g->skins[k];
        printf("%s\n  {\"skin\": %u, \"name\": ", k ? "," : "", k);
        json_name(sk->name);
        printf(", \"joints\": %u, \"influences\": %u, \"inverse_bind_matrices\": %s, "
               "\"skeleton\": ",
               sk->joint_count, skin_influences(g, k),
               sk->inverse_bind_matrices != MK_NONE ? "true" : "false");
        if (sk->skeleton != MK_NONE)
            printf("%u", sk->skeleton);
        else
            printf("null");
        printf(", \"nodes\": [");
        const char *sep = "";
        for (uint32_t n = 0; n < g->node_count; n++)
            if (g->nodes[n].skin == k) {
                printf("%s%u", sep, n);
                sep = ", ";
            }
        printf("]}");
    }
    printf("]}}\n");
}

int mk_cli_info_gltf(const char *path, bool json)
{
    mk_gltf *g = NULL;
    mk_error err;
    if (mk_gltf_load(path, NULL, NULL, &g, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    if (json)
        print_json(g);
    else
        print_text(g);
    mk_gltf_destroy(g);
    return MK_EXIT_OK;
}
