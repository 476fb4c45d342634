/* A unit animated in a window: GLFW makes the window and the OpenGL 3.3
 * context, the GL layer draws the player's pose through the pair path (both
 * frames of the blend in one vertex buffer, blended in the vertex shader).
 * This is all an engine needs to show a unit: load, upload once, then per
 * frame advance the player, take the pose and draw it.
 * usage: example_glfw_window UNIT_DIR [ANIMATION] [--frames N]
 * With --frames N it quits after N frames (a fixed 1/60 s each) and checks
 * that the middle of the last frame is not the background (for CTest, run
 * under Xvfb); without, it runs until the window is closed or Esc. */
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <morphkit/gl.h>
#include <morphkit/morphkit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    if (key == GLFW_KEY_ESCAPE && action == GLFW_PRESS)
        glfwSetWindowShouldClose(window, GLFW_TRUE);
}

static int fail(const mk_error *err)
{
    char text[600];
    mk_error_format(err, text, sizeof text);
    fprintf(stderr, "example_glfw_window: %s\n", text);
    return 1;
}

/* The bounding sphere of every frame of the unit: the camera looks at it. */
static void bounds(const mk_frame_set *set, float center[3], float *radius)
{
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (size_t i = 0; i < (size_t)set->frame_count * set->vertex_count; i++)
        for (int c = 0; c < 3; c++) {
            float v = set->positions[3 * i + (size_t)c];
            lo[c] = v < lo[c] ? v : lo[c];
            hi[c] = v > hi[c] ? v : hi[c];
        }
    float r2 = 0;
    for (int c = 0; c < 3; c++) {
        center[c] = 0.5f * (lo[c] + hi[c]);
        r2 += 0.25f * (hi[c] - lo[c]) * (hi[c] - lo[c]);
    }
    *radius = r2 > 0 ? sqrtf(r2) : 1.0f;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *anim = NULL;
    long frames_to_run = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames_to_run = strtol(argv[++i], NULL, 10);
        else if (!dir)
            dir = argv[i];
        else
            anim = argv[i];
    }
    if (!dir) {
        fprintf(stderr, "usage: example_glfw_window UNIT_DIR [ANIMATION] [--frames N]\n");
        return 2;
    }
    mk_error err;
    mk_unit *unit = NULL;
    if (mk_unit_load(dir, NULL, NULL, &unit, NULL, &err) != MK_OK)
        return fail(&err);

    if (!glfwInit()) {
        fprintf(stderr, "example_glfw_window: no window system\n");
        mk_unit_destroy(unit);
        return 77; /* CTest: skipped */
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    GLFWwindow *window = glfwCreateWindow(320, 240, "morphkit example", NULL, NULL);
    if (!window) {
        fprintf(stderr, "example_glfw_window: no OpenGL 3.3 core window\n");
        glfwTerminate();
        mk_unit_destroy(unit);
        return 77;
    }
    glfwMakeContextCurrent(window);
    glfwSetKeyCallback(window, on_key);

    /* upload once: the renderer's shaders and the unit's frames */
    mk_gl_renderer *renderer = NULL;
    mk_gl_frames *gpu_frames = NULL;
    int rc = 0;
    if (mk_gl_renderer_create(NULL, &renderer, &err) != MK_OK ||
        mk_gl_frames_create(renderer, unit->frames, &gpu_frames, &err) != MK_OK) {
        rc = fail(&err);
        goto done;
    }
    mk_player player;
    mk_player_init(&player, unit->clips);
    uint32_t clip = anim ? mk_clip_set_find(unit->clips, anim) : 0;
    if (clip == MK_NONE) {
        fprintf(stderr, "example_glfw_window: no animation '%s'\n", anim);
        rc = 2;
        goto done;
    }
    mk_player_play(&player, clip, NULL);

    float center[3], radius;
    bounds(unit->frames, center, &radius);
    double last = glfwGetTime();
    long frame = 0;
    uint8_t middle[4] = {0, 0, 0, 0};
    while (!glfwWindowShouldClose(window)) {
        double now = glfwGetTime();
        int64_t dt_us = frames_to_run ? 16667 : (int64_t)((now - last) * 1e6);
        last = now;
        mk_player_advance(&player, dt_us, NULL);
        mk_pose pose;
        mk_player_pose(&player, &pose);

        int width, height;
        glfwGetFramebufferSize(window, &width, &height);
        glViewport(0, 0, width, height);
        glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        mk_gl_draw_params params;
        memset(&params, 0, sizeof params);
        mk_gl_orbit_camera(center, radius, 0.5f, 0.2f, 0.7f,
                           height > 0 ? (float)width / (float)height : 1.0f,
                           params.view_projection);
        if (mk_gl_draw_pose(renderer, gpu_frames, &pose, &params, &err) != MK_OK) {
            rc = fail(&err);
            break;
        }
        if (++frame == frames_to_run) {
            glReadPixels(width / 2, height / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, middle);
            break;
        }
        glfwSwapBuffers(window);
        glfwPollEvents();
    }
    if (frames_to_run && rc == 0) {
        /* the unit stands in the middle: lit, not the 26-ish grey background */
        printf("%ld frames, middle pixel %u %u %u\n", frame, middle[0], middle[1], middle[2]);
        if (middle[0] < 60 && middle[1] < 60 && middle[2] < 60) {
            fprintf(stderr, "example_glfw_window: nothing was drawn\n");
            rc = 1;
        }
    }
done:
    mk_gl_frames_destroy(gpu_frames);
    mk_gl_renderer_destroy(renderer);
    glfwDestroyWindow(window);
    glfwTerminate();
    mk_unit_destroy(unit);
    return rc;
}
