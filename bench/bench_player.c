/* Player update cost for many instances, and pose evaluation cost per
 * vertex (linear and smooth) beside a memcpy of the same output bytes.
 *
 *   bench_player [--quick]
 *
 * --quick runs tiny sizes (a CTest smoke test; nothing about time is
 * asserted). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "morphkit/clip.h"
#include "morphkit/player.h"
#include "morphkit/pose.h"

static double now_s(void)
{
    struct timespec ts;
    /* CPU time, not wall time: on a shared machine this ignores the time the
     * process is descheduled (single-threaded, so the two agree otherwise) */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile float sink_value; /* keeps results alive */

int main(int argc, char **argv)
{
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    const uint32_t instances = quick ? 1000 : 100000;
    const int updates = quick ? 5 : 600; /* 10 s of 60 Hz */
    const uint32_t vertices = quick ? 1000 : 20000;
    const int evals = quick ? 3 : 500;

    /* a unit like the demo: 4 clips of 3..8 frames, mixed settings */
    static const int64_t walk_dur[8] = {90000, 110000, 80000, 120000, 95000, 105000, 70000, 130000};
    static const bool attack_nb[4] = {false, false, true, false};
    static const mk_clip_event_desc walk_ev[2] = {{0, "step_l"}, {4, "step_r"}};
    mk_clip_desc d[4] = {
        {.name = "Idle", .frame_count = 3, .frame_time_us = 400000},
        {.name = "Walk", .frame_count = 8, .first_frame = 3, .durations_us = walk_dur,
         .events = walk_ev, .event_count = 2},
        {.name = "Attack", .frame_count = 4, .first_frame = 11, .no_blend = attack_nb,
         .once = true, .next = "Idle"},
        {.name = "Fly", .frame_count = 3, .first_frame = 15, .loop_frame = 0,
         .interpolation = MK_INTERPOLATION_SMOOTH},
    };
    mk_clip_set_desc sd = {d, 4, 18};
    mk_clip_set *set = NULL;
    mk_error err;
    if (mk_clip_set_create(&sd, NULL, &set, &err) != MK_OK) {
        fprintf(stderr, "bench_player: %s\n", err.message);
        return 1;
    }

    mk_player *players = malloc(sizeof(mk_player) * instances);
    if (!players)
        return 1;
    uint32_t seed = 1;
    for (uint32_t i = 0; i < instances; i++) {
        mk_player_init(&players[i], set);
        mk_player_play(&players[i], i % 4, NULL);
        seed = seed * 1664525u + 1013904223u;
        mk_player_advance(&players[i], seed % 1000000, NULL); /* spread the phases */
    }
    const int64_t dt = 16667;
    double t0 = now_s();
    for (int u = 0; u < updates; u++) {
        for (uint32_t i = 0; i < instances; i++)
            mk_player_advance(&players[i], dt, NULL);
        /* a few switch requests per update, as a game makes them */
        for (uint32_t i = (uint32_t)u; i < instances; i += 997)
            mk_player_play(&players[i], (uint32_t)(u + i) % 4, NULL);
    }
    double t1 = now_s();
    mk_pose pose;
    double t2 = now_s();
    float acc = 0;
    for (uint32_t i = 0; i < instances; i++) {
        mk_player_pose(&players[i], &pose);
        acc += pose.weights[0];
    }
    double t3 = now_s();
    sink_value = acc;
    printf("player: sizeof(mk_player) = %zu bytes\n", sizeof(mk_player));
    printf("player advance: %u instances x %d updates: %.2f ns per instance per update\n",
           instances, updates, (t1 - t0) * 1e9 / ((double)instances * updates));
    printf("player pose:    %.2f ns per instance\n", (t3 - t2) * 1e9 / instances);

    /* pose evaluation over one frame set with normals */
    mk_frame_set_desc fd = {18, vertices, 0, true, false};
    mk_frame_set *fs = NULL;
    if (mk_frame_set_create(&fd, NULL, &fs, &err) != MK_OK) {
        fprintf(stderr, "bench_player: %s\n", err.message);
        return 1;
    }
    for (size_t i = 0; i < (size_t)18 * vertices * 3; i++) {
        fs->positions[i] = (float)(i % 97) * 0.01f;
        fs->normals[i] = (float)((i * 7) % 13) * 0.1f - 0.6f;
    }
    float *pos = malloc((size_t)vertices * 12), *nrm = malloc((size_t)vertices * 12);
    if (!pos || !nrm)
        return 1;
    const mk_pose linear = {2, {3, 4}, {0.625f, 0.375f}};
    const mk_pose smooth = {4, {15, 16, 17, 15}, {-0.05f, 0.8f, 0.3f, -0.05f}};
    const mk_pose *poses[2] = {&linear, &smooth};
    const char *names[2] = {"linear", "smooth"};
    for (int k = 0; k < 2; k++) {
        double a = now_s();
        for (int e = 0; e < evals; e++)
            mk_pose_eval(fs, poses[k], pos, nrm, fs->vertex_count, NULL);
        double b = now_s();
        sink_value = pos[vertices / 2] + nrm[vertices / 3];
        printf("pose eval %-6s (positions + normals): %.3f ns per vertex\n", names[k],
               (b - a) * 1e9 / ((double)evals * vertices));
    }
    double a = now_s();
    for (int e = 0; e < evals; e++) {
        memcpy(pos, mk_frame_set_positions(fs, (uint32_t)e % 18), (size_t)vertices * 12);
        memcpy(nrm, mk_frame_set_normals(fs, (uint32_t)e % 18), (size_t)vertices * 12);
    }
    double b = now_s();
    sink_value = pos[1] + nrm[2];
    printf("memcpy baseline (24 bytes per vertex):     %.3f ns per vertex\n",
           (b - a) * 1e9 / ((double)evals * vertices));

    free(pos);
    free(nrm);
    mk_frame_set_destroy(fs);
    free(players);
    mk_clip_set_destroy(set);
    return 0;
}
