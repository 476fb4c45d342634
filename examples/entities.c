/* A minimal entity system in which the blend-animation player is a
 * property, as the seed engine does it: an entity is a model, a transform,
 * children and properties; a property has an update function that sees its
 * entity. 100 knights walk, idle and attack with scripted switches; each
 * frame advances every player, evaluates every pose on the CPU and reports
 * the update cost.
 * usage: example_entities UNIT_DIR [--units N] [--frames N] */
#include <morphkit/morphkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct entity entity;

typedef struct property {
    const char *name;
    void (*update)(struct property *self, entity *owner, int64_t dt_us);
    void *data;
} property;

#define MAX_PROPERTIES 4
#define MAX_CHILDREN 2

struct entity {
    const mk_unit *model;   /* shared, immutable */
    float position[3];
    float yaw;
    entity *children[MAX_CHILDREN];
    uint32_t child_count;
    property properties[MAX_PROPERTIES];
    uint32_t property_count;
    float *positions;       /* this entity's posed mesh (render vertices) */
    float *normals;
};

/* ---- the blend-animation property ---------------------------------------- */

typedef struct anim_state {
    mk_player player;       /* 56 bytes, owned here; no allocation while playing */
    uint32_t footsteps;
    uint32_t hits;
} anim_state;

static void on_event(void *user, const mk_player_event *ev)
{
    anim_state *s = user;
    /* repeat > 1 when one long advance skipped whole loops */
    if (strcmp(ev->name, "footstep") == 0)
        s->footsteps += (uint32_t)ev->repeat;
    else if (strcmp(ev->name, "hit") == 0)
        s->hits += (uint32_t)ev->repeat;
}

static void anim_update(property *self, entity *e, int64_t dt_us)
{
    anim_state *s = self->data;
    mk_event_sink sink = {on_event, s};
    mk_player_advance(&s->player, dt_us, &sink);
    mk_pose pose;
    mk_player_pose(&s->player, &pose);
    const mk_frame_set *fs = e->model->frames;
    mk_pose_eval(fs, &pose, e->positions, e->normals, fs->vertex_count, NULL);
}

/* ---- a scripted "AI" property that requests animations ------------------- */

typedef struct script_state {
    anim_state *anim;
    int64_t clock_us;
    int64_t next_decision_us;
    uint32_t seed;
} script_state;

static void script_update(property *self, entity *e, int64_t dt_us)
{
    script_state *s = self->data;
    s->clock_us += dt_us;
    if (s->clock_us < s->next_decision_us)
        return;
    s->seed = s->seed * 1664525u + 1013904223u;
    static const char *const choices[] = {"Walk", "Attack", "Idle", "Walk"};
    /* a request while a clip plays takes effect when its segment ends */
    mk_player_play_name(&s->anim->player, choices[(s->seed >> 16) % 4], NULL);
    s->next_decision_us = s->clock_us + 400000 + (int64_t)((s->seed >> 8) % 1200000);
    e->yaw += 0.1f;
}

static void entity_update(entity *e, int64_t dt_us)
{
    for (uint32_t i = 0; i < e->property_count; i++)
        e->properties[i].update(&e->properties[i], e, dt_us);
    for (uint32_t i = 0; i < e->child_count; i++)
        entity_update(e->children[i], dt_us);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s UNIT_DIR [--units N] [--frames N]\n", argv[0]);
        return 2;
    }
    uint32_t units = 100, frames = 600;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--units") == 0)
            units = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--frames") == 0)
            frames = (uint32_t)strtoul(argv[i + 1], NULL, 10);
    }
    mk_unit *model;
    mk_error err;
    if (mk_unit_load(argv[1], NULL, NULL, &model, NULL, &err) != MK_OK) {
        char msg[1200];
        mk_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    size_t floats = (size_t)model->frames->vertex_count * 3;
    entity *ents = calloc(units, sizeof *ents);
    anim_state *anims = calloc(units, sizeof *anims);
    script_state *scripts = calloc(units, sizeof *scripts);
    float *buffers = malloc(2 * floats * units * sizeof(float));
    if (!ents || !anims || !scripts || !buffers)
        return 1;
    static const char *const starts[] = {"Idle", "Walk", "Attack"};
    for (uint32_t i = 0; i < units; i++) {
        entity *e = &ents[i];
        e->model = model;
        e->position[0] = (float)(i % 10) * 2.0f;
        e->position[2] = (float)(i / 10) * 2.0f;
        e->positions = buffers + 2 * floats * i;
        e->normals = e->positions + floats;
        mk_player_init(&anims[i].player, model->clips);
        mk_player_play_name(&anims[i].player, starts[i % 3], NULL);
        scripts[i] = (script_state){&anims[i], 0, 100000 * (int64_t)(i % 7), 12345u + i};
        e->properties[e->property_count++] = (property){"script", script_update, &scripts[i]};
        e->properties[e->property_count++] = (property){"blend animation", anim_update, &anims[i]};
    }
    /* a tiny hierarchy: the first knight carries the second as a child */
    if (units > 1) {
        ents[0].children[ents[0].child_count++] = &ents[1];
    }

    const int64_t frame_us = 16667; /* 60 Hz */
    double worst = 0, total = 0;
    for (uint32_t f = 0; f < frames; f++) {
        double t0 = now_seconds();
        for (uint32_t i = 0; i < units; i++)
            if (!(units > 1 && i == 1)) /* the child is updated through its parent */
                entity_update(&ents[i], frame_us);
        double dt = now_seconds() - t0;
        total += dt;
        worst = dt > worst ? dt : worst;
    }
    uint32_t steps = 0, hits = 0, in_attack = 0;
    uint32_t attack = mk_clip_set_find(model->clips, "Attack");
    for (uint32_t i = 0; i < units; i++) {
        steps += anims[i].footsteps;
        hits += anims[i].hits;
        in_attack += mk_player_clip(&anims[i].player) == attack;
    }
    printf("%u units of %s (%u vertices), %u frames at 60 Hz\n", units, model->name,
           model->frames->vertex_count, frames);
    printf("update cost per frame: %.1f us mean, %.1f us worst (player + CPU pose for every unit)\n",
           frames ? 1e6 * total / frames : 0.0, 1e6 * worst);
    printf("events: %u footsteps, %u hits; %u units attacking at the end\n", steps, hits,
           in_attack);
    free(ents), free(anims), free(scripts), free(buffers);
    mk_unit_destroy(model);
    return steps > 0 ? 0 : 1; /* a run without a single footstep means the events broke */
}
