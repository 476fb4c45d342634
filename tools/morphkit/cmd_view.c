/* morphkit view PATH [--anim NAME|N] [--size WxH] [--interpolation MODE]
 *                    [--frames N] [--screenshot FILE.png]
 * An interactive window (GLFW): orbit camera, animation switching, pause,
 * frame stepping and speed; the player's state in the title. */
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "image.h"
#include "preview_scene.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit view PATH [--anim NAME|N] [--size WxH]\n"
            "                     [--interpolation linear|step|smooth]\n"
            "                     [--frames N] [--screenshot FILE.png] [--watch]\n\n"
            "Opens a window on a unit folder or a .gltf/.glb file, drawn with its\n"
            "material colours and PNG textures as preview draws them.\n\n"
            "  mouse drag      orbit the camera; wheel: zoom\n"
            "  1-9, Tab        switch animation (Tab: the next one)\n"
            "  Space           pause / resume\n"
            "  .  ,            step one frame forward / back (pauses)\n"
            "  +  -            faster / slower\n"
            "  Esc, Q          quit\n\n"
            "  --watch            reload when a file changes (within a second, after a\n"
            "                     burst of writes settles), keeping the camera, the\n"
            "                     animation and its time; a broken or half-written\n"
            "                     file keeps the old frames and shows the error\n"
            "  --frames N         quit after N rendered frames (for scripts and tests);\n"
            "                     time then advances 1/60 s a frame, not by the clock,\n"
            "                     so the same run gives the same screenshot\n"
            "  --screenshot FILE  save the last frame shown as a PNG\n\n"
            "The title shows: animation, frame, next frame, weight, speed, and a\n"
            "problem (an ignored animation.cfg line, a reload error), which also\n"
            "shows in a red band at the top of the window.\n"
            "exit codes: 0 success, 1 invalid input or no window, 2 usage error\n");
}

typedef struct viewer {
    mk_preview *scene;
    const char *path;
    mk_preview_options options;
    /* --watch: a stamp of the files polled every 100 ms; a reload once it
     * has held still for 250 ms (editors write in bursts) */
    bool watch, pending;
    uint64_t stamp;
    double last_poll, changed_at;
    char problem[400]; /* shown in the title and on screen until fixed */
    bool paused;
    double speed;
    float yaw, pitch, zoom;
    bool dragging;
    double last_x, last_y;
    int64_t time_us;
} viewer;

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    if (action != GLFW_PRESS && action != GLFW_REPEAT)
        return;
    viewer *v = glfwGetWindowUserPointer(w);
    uint32_t count = mk_preview_anim_count(v->scene);
    if (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_Q) {
        glfwSetWindowShouldClose(w, GLFW_TRUE);
    } else if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9) {
        if ((uint32_t)(key - GLFW_KEY_1) < count) {
            mk_preview_set_anim(v->scene, (uint32_t)(key - GLFW_KEY_1));
            v->time_us = 0;
        }
    } else if (key == GLFW_KEY_TAB && count > 0) {
        mk_preview_set_anim(v->scene, (mk_preview_anim(v->scene) + 1) % count);
        v->time_us = 0;
    } else if (key == GLFW_KEY_SPACE) {
        v->paused = !v->paused;
    } else if (key == GLFW_KEY_PERIOD || key == GLFW_KEY_COMMA) {
        v->paused = true;
        mk_preview_step(v->scene, key == GLFW_KEY_PERIOD ? 1 : -1);
        v->time_us = mk_preview_time(v->scene);
    } else if (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD) {
        v->speed = fmin(v->speed * 1.5, 64.0);
    } else if (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT) {
        v->speed = fmax(v->speed / 1.5, 1.0 / 64);
    }
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    viewer *v = glfwGetWindowUserPointer(w);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        v->dragging = action == GLFW_PRESS;
        glfwGetCursorPos(w, &v->last_x, &v->last_y);
    }
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    viewer *v = glfwGetWindowUserPointer(w);
    if (!v->dragging)
        return;
    v->yaw -= (float)(x - v->last_x) * 0.01f;
    v->pitch += (float)(y - v->last_y) * 0.01f;
    v->pitch = fmaxf(-1.5f, fminf(1.5f, v->pitch));
    v->last_x = x, v->last_y = y;
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(w);
    v->zoom = fmaxf(0.1f, fminf(10.0f, v->zoom * (dy > 0 ? 0.9f : 1.1f)));
}

/* FNV-1a over what changes when a file is written, renamed or removed: the
 * names, sizes, modification times and inodes of the unit folder's entries,
 * or of a glTF file and the .bin files beside it (not the whole folder: a
 * log written there must not trigger reloads). */
static uint64_t files_stamp(const char *path)
{
    char dir[4096];
    const char *only = NULL; /* glTF: the file's own name */
    snprintf(dir, sizeof dir, "%s", path);
    if (!mk_cli_is_dir(dir)) {
        char *slash = strrchr(dir, '/');
        only = slash ? path + (slash - dir) + 1 : path;
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
    }
    uint64_t h = 1469598103934665603ull;
    struct dirent **list = NULL;
    int n = scandir(dir, &list, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(list[i]->d_name);
        if (only && strcmp(list[i]->d_name, only) != 0 &&
            (len < 4 || strcasecmp(list[i]->d_name + len - 4, ".bin") != 0)) {
            free(list[i]);
            continue;
        }
        char full[8192];
        struct stat st;
        snprintf(full, sizeof full, "%s/%s", dir, list[i]->d_name);
        uint64_t v[4] = {0, 0, 0, 0};
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
            v[0] = (uint64_t)st.st_size, v[1] = (uint64_t)st.st_mtim.tv_sec,
            v[2] = (uint64_t)st.st_mtim.tv_nsec, v[3] = (uint64_t)st.st_ino;
        for (const char *c = list[i]->d_name; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        for (int k = 0; k < 4; k++)
            h = (h ^ v[k]) * 1099511628211ull;
        free(list[i]);
    }
    free(list);
    return h;
}

/* Loads the files again; the old scene stays on any failure (its frames keep
 * playing and the error is shown until a later save fixes it). */
static void reload(viewer *v, mk_gl_renderer *r)
{
    char anim[256];
    snprintf(anim, sizeof anim, "%s", mk_preview_anim_name(v->scene, mk_preview_anim(v->scene)));
    mk_preview_options o = v->options;
    o.anim = anim;
    mk_preview *fresh = NULL;
    int rc = mk_preview_reload(v->scene, v->path, &o, &fresh, v->problem, sizeof v->problem);
    if (rc > 0 && !mk_preview_upload(fresh, r)) {
        mk_preview_destroy(fresh);
        snprintf(v->problem, sizeof v->problem, "%s: could not upload the reloaded frames",
                 v->path);
        rc = -1;
    }
    if (rc > 0) {
        mk_preview_release(v->scene);
        mk_preview_destroy(v->scene);
        v->scene = fresh;
    }
    fprintf(stderr, "morphkit: view: %s: %s\n", v->path,
            rc > 0 ? "reloaded" : rc == 0 ? "unchanged" : "not reloaded, the old frames stay");
}

/* The problem in a red band along the top of the window (the 5x7 font). */
static void draw_banner(const char *text, int width, int height)
{
    int scale = height >= 400 ? 2 : 1, band = 11 * scale;
    if (width < 16 || height < band)
        return;
    uint8_t *px = malloc((size_t)width * band * 4);
    if (!px)
        return;
    const uint8_t red[4] = {140, 20, 20, 255}, white[4] = {255, 255, 255, 255};
    mk_image_fill(px, (uint32_t)width, (uint32_t)band, 0, 0, width, band, red);
    mk_image_draw_text(px, (uint32_t)width, (uint32_t)band, 3 * scale, 2 * scale, scale, text,
                       white);
    GLuint tex = 0, fbo = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, band, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    /* rows are top first: flip while copying to the window's top edge */
    glBlitFramebuffer(0, 0, width, band, 0, height, width, height - band, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    free(px);
}

static bool save_screenshot(const char *path, int width, int height)
{
    size_t bytes = (size_t)width * (size_t)height * 4;
    uint8_t *px = malloc(bytes), *flipped = malloc(bytes);
    bool ok = px && flipped;
    char why[300] = "out of memory";
    if (ok) {
        glReadBuffer(GL_BACK);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (int y = 0; y < height; y++)
            memcpy(flipped + (size_t)y * width * 4, px + (size_t)(height - 1 - y) * width * 4,
                   (size_t)width * 4);
        ok = mk_image_write_png(path, flipped, (uint32_t)width, (uint32_t)height, why, sizeof why);
    }
    if (!ok)
        mk_cli_fail("%s: %s", path, why);
    free(px), free(flipped);
    return ok;
}

static int loop(GLFWwindow *window, viewer *v, mk_gl_renderer *r, long max_frames,
                const char *screenshot)
{
    float center[3], radius;
    mk_preview_bounds(v->scene, center, &radius);
    uint32_t bounds_anim = mk_preview_anim(v->scene);
    double last = glfwGetTime();
    char title[1024] = "", text[400];
    long frames = 0;
    int rc = MK_EXIT_OK;
    while (!glfwWindowShouldClose(window)) {
        double now = glfwGetTime();
        /* scripted (--frames): a fixed 1/60 s a frame, so two runs give the
         * same pictures; interactive: the wall clock */
        double step = max_frames > 0 ? (frames > 0 ? 1.0 / 60 : 0.0) : now - last;
        if (!v->paused)
            v->time_us += (int64_t)llround(step * 1e6 * v->speed);
        last = now;
        mk_preview_seek(v->scene, v->time_us);
        if (mk_preview_anim(v->scene) != bounds_anim) {
            bounds_anim = mk_preview_anim(v->scene);
            mk_preview_bounds(v->scene, center, &radius);
        }
        int width, height;
        glfwGetFramebufferSize(window, &width, &height);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, width, height);
        glClearColor(0.16f, 0.18f, 0.22f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        mk_gl_draw_params params;
        memset(&params, 0, sizeof params);
        mk_gl_orbit_camera(center, radius * v->zoom, v->yaw, v->pitch, 0.7f,
                           height > 0 ? (float)width / (float)height : 1.0f,
                           params.view_projection);
        mk_preview_draw(v->scene, r, &params);
        if (v->problem[0])
            draw_banner(v->problem, width, height);
        mk_preview_state_text(v->scene, text, sizeof text);
        char next_title[1024];
        snprintf(next_title, sizeof next_title, "morphkit view - %s  speed %.2fx%s%s%s", text,
                 v->speed, v->paused ? "  (paused)" : "", v->problem[0] ? "  PROBLEM: " : "",
                 v->problem);
        if (strcmp(next_title, title) != 0) {
            memcpy(title, next_title, sizeof title);
            glfwSetWindowTitle(window, title);
        }
        frames++;
        bool last_frame = max_frames > 0 && frames >= max_frames;
        if (last_frame && screenshot && !save_screenshot(screenshot, width, height))
            rc = MK_EXIT_INVALID;
        glfwSwapBuffers(window);
        glfwPollEvents();
        if (v->watch && now - v->last_poll >= 0.1) {
            v->last_poll = now;
            uint64_t stamp = files_stamp(v->path);
            if (stamp != v->stamp) {
                v->stamp = stamp;
                v->changed_at = now;
                v->pending = true;
            } else if (v->pending && now - v->changed_at >= 0.25) {
                v->pending = false;
                reload(v, r);
            }
        }
        if (last_frame)
            break;
    }
    return rc;
}

int mk_cmd_view(int argc, char **argv)
{
    const char *path = NULL, *screenshot = NULL;
    mk_preview_options so = {NULL, -1};
    long max_frames = 0;
    int width = 800, height = 600;
    bool options_done = false, watch = false; /* after "--" every word is a PATH */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has = i + 1 < argc;
        if (strcmp(arg, "--") == 0 && !options_done) {
            options_done = true;
        } else if (options_done && !path) {
            path = arg;
        } else if (options_done) {
            mk_cli_fail("view: one PATH only, '%s' is extra", arg);
            return MK_EXIT_USAGE;
        } else if (mk_cli_is_help(arg)) {
            help(stdout);
            return MK_EXIT_OK;
        } else if (strcmp(arg, "--anim") == 0 && has) {
            so.anim = argv[++i];
        } else if (strcmp(arg, "--watch") == 0) {
            watch = true;
        } else if (strcmp(arg, "--screenshot") == 0 && has) {
            screenshot = argv[++i];
        } else if (strcmp(arg, "--frames") == 0 && has) {
            char *end;
            max_frames = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || max_frames < 1) {
                mk_cli_fail("view: --frames wants a count >= 1, not '%s'", argv[i]);
                return MK_EXIT_USAGE;
            }
        } else if (strcmp(arg, "--size") == 0 && has) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width < 16 || height < 16 ||
                width > 8192 || height > 8192) {
                mk_cli_fail("view: --size wants WxH, each 16..8192, not '%s'", argv[i]);
                return MK_EXIT_USAGE;
            }
        } else if (strcmp(arg, "--interpolation") == 0 && has) {
            const char *m = argv[++i];
            so.interpolation = strcmp(m, "linear") == 0   ? MK_INTERPOLATION_LINEAR
                               : strcmp(m, "step") == 0   ? MK_INTERPOLATION_STEP
                               : strcmp(m, "smooth") == 0 ? MK_INTERPOLATION_SMOOTH
                                                          : -2;
            if (so.interpolation == -2) {
                mk_cli_fail("view: --interpolation wants linear, step or smooth, not '%s'", m);
                return MK_EXIT_USAGE;
            }
        } else if (arg[0] == '-' || path) {
            mk_cli_fail("view: unknown option, missing value or extra PATH '%s' (see morphkit "
                        "view --help)",
                        arg);
            return MK_EXIT_USAGE;
        } else {
            path = arg;
        }
    }
    if (!path) {
        mk_cli_fail("view: PATH is missing (see morphkit view --help)");
        return MK_EXIT_USAGE;
    }
    size_t sn = screenshot ? strlen(screenshot) : 0;
    if (screenshot && (sn < 4 || strcasecmp(screenshot + sn - 4, ".png") != 0)) {
        mk_cli_fail("view: --screenshot writes a PNG; the name must end in .png, not '%s'",
                    screenshot);
        return MK_EXIT_USAGE;
    }
    if (screenshot && max_frames == 0)
        max_frames = 1 << 30; /* saved when the window closes after the last frame */
    viewer v = {0};
    v.speed = 1.0;
    v.yaw = 0.55f, v.pitch = 0.25f, v.zoom = 1.0f;
    int rc = mk_preview_load(path, &so, &v.scene);
    if (rc != MK_EXIT_OK)
        return rc;
    v.path = path;
    v.options = so;
    v.watch = watch;
    snprintf(v.problem, sizeof v.problem, "%s", mk_preview_problem(v.scene));
    if (watch) {
        v.stamp = files_stamp(path);
        fprintf(stderr, "morphkit: view: watching %s\n", path);
    }
    if (!glfwInit()) {
        const char *why = NULL;
        glfwGetError(&why);
        mk_cli_fail("view: no window system (%s); try `morphkit preview`",
                    why ? why : "glfwInit failed");
        mk_preview_destroy(v.scene);
        return MK_EXIT_INVALID;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, 4);
    GLFWwindow *window = glfwCreateWindow(width, height, "morphkit view", NULL, NULL);
    if (!window) {
        const char *why = NULL;
        glfwGetError(&why);
        mk_cli_fail("view: no OpenGL 3.3 core window (%s)", why ? why : "unknown reason");
        glfwTerminate();
        mk_preview_destroy(v.scene);
        return MK_EXIT_INVALID;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    glfwSetWindowUserPointer(window, &v);
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetCursorPosCallback(window, on_cursor);
    glfwSetScrollCallback(window, on_scroll);
    mk_error err;
    mk_gl_renderer *renderer = NULL;
    if (mk_gl_renderer_create(NULL, &renderer, &err) != MK_OK) {
        mk_cli_print_error(&err);
        rc = MK_EXIT_INVALID;
    } else if (!mk_preview_upload(v.scene, renderer)) {
        rc = MK_EXIT_INVALID;
    } else {
        glEnable(GL_MULTISAMPLE);
        rc = loop(window, &v, renderer, max_frames, screenshot);
    }
    mk_preview_release(v.scene);
    mk_gl_renderer_destroy(renderer);
    glfwDestroyWindow(window);
    glfwTerminate();
    mk_preview_destroy(v.scene);
    return rc;
}
