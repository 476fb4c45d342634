/* `morphkit sample` for unit folders: replay the player, evaluate the pose. */
#include <string.h>

#include "cli.h"

typedef struct unit_sampler {
    const mk_unit *unit;
    uint32_t start_clip;
    uint32_t then_clip[MK_SAMPLE_MAX];
    uint32_t then_order[MK_SAMPLE_MAX]; /* --then requests sorted by time, stable */
} unit_sampler;

/* Events of one sample: those fired in (since, t]; since < 0 also takes the
 * ones fired at time 0 (the first frame's, when the start clip plays). */
#define MK_SAMPLE_EVENTS 64
typedef struct sample_events {
    mk_player_event items[MK_SAMPLE_EVENTS];
    mk_event_buffer buffer;
} sample_events;

/* Advances from *now to target, reporting only what happens after since. */
static void advance_to(mk_player *p, int64_t *now, int64_t target, int64_t since,
                       const mk_event_sink *sink)
{
    if (*now < since && since < target) {
        mk_player_advance(p, since - *now, NULL);
        *now = since;
    }
    mk_player_advance(p, target - *now, *now >= since ? sink : NULL);
    *now = target;
}

/* The state at exactly t: play the start clip, apply the requests made at or
 * before t in time order, advance to t; events fired after `since` go to ev
 * (may be NULL). */
static void replay(const unit_sampler *s, const mk_sample_args *a, int64_t t, int64_t since,
                   mk_player *p, sample_events *ev)
{
    mk_event_sink sink = {mk_event_buffer_push, NULL};
    const mk_event_sink *use = NULL;
    if (ev) {
        ev->buffer = (mk_event_buffer){ev->items, MK_SAMPLE_EVENTS, 0, 0};
        sink.user = &ev->buffer;
        use = &sink;
    }
    mk_player_init(p, s->unit->clips);
    mk_player_play(p, s->start_clip, since < 0 ? use : NULL);
    int64_t now = 0;
    for (uint32_t k = 0; k < a->then_count; k++) {
        uint32_t r = s->then_order[k];
        if (a->then_us[r] > t)
            break;
        advance_to(p, &now, a->then_us[r], since, use);
        mk_player_play(p, s->then_clip[r], now > since ? use : NULL);
    }
    advance_to(p, &now, t, since, use);
}

static void print_floats(const float *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
    {
        printf("%s", i ? ", " : "");
        mk_cli_json_number(stdout, (double)v[i], true);
    }
}

static uint32_t frame_number(const mk_unit *u, uint32_t clip, uint32_t frame)
{
    return u->files->animations[clip].first_number + frame;
}

/* Frame-set index -> its file name without `.obj`, for the pose listing. */
static void frame_label(const mk_unit *u, uint32_t set_index, char *buf, size_t size)
{
    if (set_index >= u->files->frame_count) {
        snprintf(buf, size, "?");
        return;
    }
    const char *file = u->files->frame_files[set_index];
    size_t stem = strlen(file) - 4; /* discovery only lists names ending in .obj */
    snprintf(buf, size, "%.*s", (int)stem, file);
}

static void print_json_sample(const unit_sampler *s, const mk_sample_args *a, uint32_t i,
                              const mk_player_state *st, const mk_pose *pose,
                              const sample_events *ev, float *render_pos,
                              float *render_nrm, float *out)
{
    const mk_unit *u = s->unit;
    const mk_clip_set *clips = u->clips;
    printf("%s\n  {\"time\": %s, \"animation\": ", i ? "," : "", a->time_text[i]);
    mk_cli_json_string(stdout, clips->clips[st->clip].name);
    printf(", \"frame\": %u, \"next\": %u, ", frame_number(u, st->clip, st->frame),
           frame_number(u, st->next_clip, st->next_frame));
    if (st->next_clip != st->clip) {
        printf("\"next_animation\": ");
        mk_cli_json_string(stdout, clips->clips[st->next_clip].name);
        printf(", ");
    }
    printf("\"weight\": ");
    mk_cli_json_number(stdout, (double)st->weight, true);
    printf(", \"events\": [");
    for (uint32_t e = 0; e < ev->buffer.count; e++) {
        const mk_player_event *x = &ev->items[e];
        printf("%s{\"name\": ", e ? ", " : "");
        mk_cli_json_string(stdout, x->name);
        printf(", \"animation\": ");
        mk_cli_json_string(stdout, clips->clips[x->clip].name);
        printf(", \"frame\": %u}", frame_number(u, x->clip, x->frame));
    }
    printf("]");
    if (ev->buffer.lost)
        printf(", \"events_lost\": %u", ev->buffer.lost);
    printf(",\n   \"meshes\": [{\"name\": ");
    mk_cli_json_string(stdout, u->name);
    printf(", \"frames\": [");
    for (uint32_t k = 0; k < pose->count; k++) {
        char label[160];
        frame_label(u, pose->frames[k], label, sizeof label);
        printf("%s", k ? ", " : "");
        mk_cli_json_string(stdout, label);
    }
    printf("], \"weights\": [");
    print_floats(pose->weights, pose->count);
    mk_pose_eval(u->frames, pose, render_pos, render_nrm, u->frames->vertex_count, NULL);
    mk_unit_to_source_order(u, render_pos, out);
    printf("],\n    \"positions\": [");
    print_floats(out, 3 * u->position_count);
    printf("]");
    if (render_nrm) {
        mk_unit_normals_to_source_order(u, render_nrm, out);
        printf(",\n    \"normals\": [");
        print_floats(out, 3 * u->normal_count);
        printf("]");
    }
    printf("}]}");
}

static int run(unit_sampler *s, const mk_sample_args *a)
{
    const mk_unit *u = s->unit;
    size_t vn = (size_t)u->frames->vertex_count * 3;
    size_t on = 3 * (size_t)(u->position_count > u->normal_count ? u->position_count : u->normal_count);
    float *render_pos = malloc(vn * sizeof(float));
    float *render_nrm = u->frames->normals ? malloc(vn * sizeof(float)) : NULL;
    float *out = malloc((on ? on : 1) * sizeof(float));
    if (!render_pos || !out || (u->frames->normals && !render_nrm)) {
        mk_cli_fail("out of memory");
        free(render_pos), free(render_nrm), free(out);
        return MK_EXIT_INVALID;
    }
    if (a->json)
        printf("{\"version\": %d, \"samples\": [", MK_CLI_JSON_VERSION);
    else
        printf("%-12s %-16s %6s %6s %9s  %s\n", "time", "animation", "frame", "next", "weight",
               "events since the previous sample");
    for (uint32_t i = 0; i < a->time_count; i++) {
        mk_player p;
        mk_player_state st;
        mk_pose pose;
        sample_events ev;
        replay(s, a, a->times_us[i], i ? a->times_us[i - 1] : -1, &p, &ev);
        mk_player_get_state(&p, &st);
        mk_player_pose(&p, &pose);
        if (a->json) {
            print_json_sample(s, a, i, &st, &pose, &ev, render_pos, render_nrm, out);
        } else {
            char next[160];
            snprintf(next, sizeof next, "%u", frame_number(u, st.next_clip, st.next_frame));
            if (st.next_clip != st.clip)
                snprintf(next, sizeof next, "%s_%u", u->clips->clips[st.next_clip].name,
                         frame_number(u, st.next_clip, st.next_frame));
            printf("%-12s %-16s %6u %6s %9.6f", a->time_text[i], u->clips->clips[st.clip].name,
                   frame_number(u, st.clip, st.frame), next, (double)st.weight);
            for (uint32_t e = 0; e < ev.buffer.count; e++) {
                const mk_player_event *x = &ev.items[e];
                printf("%s%s@%s_%u", e ? " " : "  ", x->name, u->clips->clips[x->clip].name,
                       frame_number(u, x->clip, x->frame));
            }
            if (ev.buffer.lost)
                printf(" (+%u more)", ev.buffer.lost);
            printf("\n");
        }
    }
    if (a->json)
        printf("\n]}\n");
    free(render_pos), free(render_nrm), free(out);
    return MK_EXIT_OK;
}

static uint32_t find_clip(const mk_unit *u, const char *name)
{
    uint32_t id = mk_clip_set_find(u->clips, name);
    /* a name first, then an index, as everywhere --anim is taken */
    char *end;
    unsigned long n = strtoul(name, &end, 10);
    if (id == MK_NONE && end != name && !*end && n < u->clips->clip_count)
        id = (uint32_t)n;
    if (id == MK_NONE) {
        fprintf(stderr, "morphkit: %s has no animation '%s'; it has:", u->name, name);
        for (uint32_t i = 0; i < u->clips->clip_count; i++)
            fprintf(stderr, " %s", u->clips->clips[i].name);
        fprintf(stderr, "\n");
    }
    return id;
}

int mk_cli_sample_unit(const mk_sample_args *a)
{
    mk_unit *unit;
    /* strict: sampled numbers must be the ones a game loading the unit gets */
    if (mk_cli_load_unit(a->path, false, &unit, NULL, 0) != MK_EXIT_OK)
        return MK_EXIT_INVALID;
    /* --interpolation: the unit's clips swapped for a forced copy while sampling */
    mk_clip_set *own_clips = unit->clips, *forced = NULL;
    if (a->interpolation >= 0) {
        if (!mk_cli_force_interpolation(unit->clips, (mk_interpolation)a->interpolation,
                                        &forced)) {
            mk_unit_destroy(unit);
            return MK_EXIT_INVALID;
        }
        unit->clips = forced;
    }
    unit_sampler s = {unit, 0, {0}, {0}};
    int code = MK_EXIT_OK;
    /* default: Idle if there is one, else the first name in sorted order (clip 0) */
    const char *start = a->anim ? a->anim : (mk_clip_set_find(unit->clips, "Idle") != MK_NONE ? "Idle" : NULL);
    if (start && (s.start_clip = find_clip(unit, start)) == MK_NONE)
        code = MK_EXIT_USAGE;
    for (uint32_t r = 0; code == MK_EXIT_OK && r < a->then_count; r++)
        if ((s.then_clip[r] = find_clip(unit, a->then_name[r])) == MK_NONE)
            code = MK_EXIT_USAGE;
    /* insertion sort keeps equal times in command-line order */
    for (uint32_t r = 0; r < a->then_count; r++) {
        uint32_t k = r;
        while (k > 0 && a->then_us[s.then_order[k - 1]] > a->then_us[r]) {
            s.then_order[k] = s.then_order[k - 1];
            k--;
        }
        s.then_order[k] = r;
    }
    if (code == MK_EXIT_OK)
        code = run(&s, a);
    unit->clips = own_clips;
    mk_clip_set_destroy(forced);
    mk_unit_destroy(unit);
    return code;
}
