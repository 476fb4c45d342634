/* morphkit preview PATH [--anim NAME|N] [--out FILE.gif|FILE.png] [--size WxH]
 *                       [--fps N] [--seconds S] [--time T] [--sheet]
 *                       [--interpolation linear|step|smooth] [--beside MODE]
 * Renders headless (EGL): an animated GIF, one PNG frame, or a PNG contact
 * sheet of the animation's frames labelled with frame numbers and weights. */
#include <math.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "image.h"
#include "preview_scene.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit preview PATH [--anim NAME|N] [--out FILE.gif|FILE.png]\n"
            "                        [--size WxH] [--fps N] [--seconds S] [--time T]\n"
            "                        [--sheet] [--interpolation linear|step|smooth]\n"
            "                        [--beside linear|step|smooth] [--camera YAW,PITCH]\n"
            "                        [--zoom Z] [--grid]\n\n"
            "Renders a unit folder or a .gltf/.glb file without a window (EGL; Mesa's\n"
            "llvmpipe where there is no GPU). The camera frames the bounding box of the\n"
            "whole animation; one directional light. Materials are drawn as the game\n"
            "shows them: .mtl Kd and map_Kd, glTF baseColorFactor and baseColorTexture\n"
            "(PNG textures; another format is a warning and drawn without).\n\n"
            "  --anim NAME|N   the animation (default: Idle, else the first; glTF: 0)\n"
            "  --out FILE      .gif: the animation; .png: one frame (at --time), or with\n"
            "                  --sheet a contact sheet (default: NAME_ANIM.gif or .png in\n"
            "                  the current folder, NAME the unit's folder or file name);\n"
            "                  a glTF file without animations gives a GIF of one frame\n"
            "  --size WxH      picture size, or one sheet cell's (default 320x320,\n"
            "                  sheet cells 240x240)\n"
            "  --fps N         GIF frames per second, 1..100 (default 20); with --sheet,\n"
            "                  cells at this rate instead of one per frame and mid-blend\n"
            "  --seconds S     GIF length (default: one run of the animation, at most 60)\n"
            "  --time T        the time shown in a single PNG, or where a GIF starts\n"
            "                  (default 0)\n"
            "  --sheet         PNG contact sheet: the model framed tightly in each cell,\n"
            "                  labelled below it 'Anim frame>next wWEIGHT' (glTF: the\n"
            "                  time and the first mesh's weights); a glTF file without\n"
            "                  animations gives one cell\n"
            "  --camera Y,P    camera yaw and pitch in degrees (default 31.5,14.3)\n"
            "  --zoom Z        larger (> 1) or smaller (< 1) than the default framing\n"
            "  --grid          a ground grid under the animation's lowest point\n"
            "  --interpolation linear|step|smooth\n"
            "                  force how a unit's frames blend\n"
            "  --beside linear|step|smooth\n"
            "                  render the same times a second time with this\n"
            "                  interpolation, to the right of each picture (e.g. the\n"
            "                  wing's Flap: --interpolation linear --beside smooth)\n\n"
            "The output file is written whole or not at all.\n"
            "exit codes: 0 success, 1 invalid input or no OpenGL, 2 usage error\n");
}

#define MK_PI 3.14159265358979323846

typedef struct preview_args {
    const char *path, *anim, *out;
    uint32_t width, height;
    uint32_t fps;
    double seconds; /* 0: one run */
    double time;
    bool sheet, gif, grid;
    int interpolation;
    int beside; /* -1, or a second interpolation rendered to the right */
    float yaw, pitch; /* radians (--camera takes degrees) */
    float zoom;       /* 1: the default framing */
    char (*labels)[200]; /* sheets: each cell's label, drawn in its own band */
} preview_args;

static bool parse_size(const char *s, uint32_t *w, uint32_t *h)
{
    char *end;
    unsigned long a = strtoul(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return false;
    const char *t = end + 1;
    unsigned long b = strtoul(t, &end, 10);
    if (end == t || *end || a < 16 || b < 16 || a > 4096 || b > 4096)
        return false;
    *w = (uint32_t)a, *h = (uint32_t)b;
    return true;
}

static bool parse_number(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static int usage_error(const char *format, const char *arg)
{
    fprintf(stderr, "morphkit: preview: ");
    fprintf(stderr, format, arg);
    fprintf(stderr, " (see morphkit preview --help)\n");
    return MK_EXIT_USAGE;
}

static int parse_interpolation(const char *m)
{
    return strcmp(m, "linear") == 0   ? MK_INTERPOLATION_LINEAR
           : strcmp(m, "step") == 0   ? MK_INTERPOLATION_STEP
           : strcmp(m, "smooth") == 0 ? MK_INTERPOLATION_SMOOTH
                                      : -2;
}

static int parse(int argc, char **argv, preview_args *a)
{
    memset(a, 0, sizeof *a);
    a->fps = 0;
    a->interpolation = -1;
    a->beside = -1;
    a->yaw = 0.55f, a->pitch = 0.25f, a->zoom = 1.0f;
    bool options_done = false; /* after "--" every word is a PATH */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool v = i + 1 < argc;
        double d;
        if (strcmp(arg, "--") == 0 && !options_done) {
            options_done = true;
        } else if (options_done) {
            if (a->path)
                return usage_error("one PATH only, '%s' is extra", arg);
            a->path = arg;
        } else if (mk_cli_is_help(arg)) {
            help(stdout);
            return -1;
        } else if (strcmp(arg, "--sheet") == 0) {
            a->sheet = true;
        } else if (strcmp(arg, "--grid") == 0) {
            a->grid = true;
        } else if (strcmp(arg, "--anim") == 0 && v) {
            a->anim = argv[++i];
        } else if (strcmp(arg, "--out") == 0 && v) {
            a->out = argv[++i];
        } else if (strcmp(arg, "--size") == 0 && v) {
            if (!parse_size(argv[++i], &a->width, &a->height))
                return usage_error("--size wants WxH, each 16..4096, not '%s'", argv[i]);
        } else if (strcmp(arg, "--fps") == 0 && v) {
            if (!parse_number(argv[++i], 1, 100, &d) || d != floor(d))
                return usage_error("--fps wants a whole number 1..100, not '%s'", argv[i]);
            a->fps = (uint32_t)d;
        } else if (strcmp(arg, "--seconds") == 0 && v) {
            if (!parse_number(argv[++i], 0.01, 60, &a->seconds))
                return usage_error("--seconds wants 0.01..60, not '%s'", argv[i]);
        } else if (strcmp(arg, "--time") == 0 && v) {
            if (!parse_number(argv[++i], 0, 1e6, &a->time))
                return usage_error("--time wants seconds >= 0, not '%s'", argv[i]);
        } else if (strcmp(arg, "--interpolation") == 0 && v) {
            const char *m = argv[++i];
            if ((a->interpolation = parse_interpolation(m)) == -2)
                return usage_error("--interpolation wants linear, step or smooth, not '%s'", m);
        } else if (strcmp(arg, "--camera") == 0 && v) {
            double yaw, pitch;
            char end;
            if (sscanf(argv[++i], "%lf,%lf%c", &yaw, &pitch, &end) != 2 || !(fabs(pitch) <= 89) ||
                !(fabs(yaw) <= 3600))
                return usage_error("--camera wants YAW,PITCH in degrees (pitch -89..89), not '%s'",
                                   argv[i]);
            a->yaw = (float)(yaw * MK_PI / 180), a->pitch = (float)(pitch * MK_PI / 180);
        } else if (strcmp(arg, "--zoom") == 0 && v) {
            if (!parse_number(argv[++i], 0.1, 10, &d))
                return usage_error("--zoom wants 0.1..10, not '%s'", argv[i]);
            a->zoom = (float)d;
        } else if (strcmp(arg, "--beside") == 0 && v) {
            const char *m = argv[++i];
            if ((a->beside = parse_interpolation(m)) == -2)
                return usage_error("--beside wants linear, step or smooth, not '%s'", m);
        } else if (arg[0] == '-') {
            return usage_error("unknown option or missing value '%s'", arg);
        } else if (a->path) {
            return usage_error("one PATH only, '%s' is extra", arg);
        } else {
            a->path = arg;
        }
    }
    if (!a->path)
        return usage_error("PATH is missing%s", "");
    if (a->out && !ends_with(a->out, ".gif") && !ends_with(a->out, ".png"))
        return usage_error("--out must end in .gif or .png: '%s'", a->out);
    if (a->sheet && a->out && ends_with(a->out, ".gif"))
        return usage_error("--sheet writes a PNG, not '%s'", a->out);
    a->gif = !a->sheet && (!a->out || ends_with(a->out, ".gif"));
    if (!a->width)
        a->width = a->height = a->sheet ? 240 : 320;
    return 0;
}

/* A ground grid under the animation: 11 x 11 thin flat strips on the plane
 * of its lowest point, spanning twice its bounding radius; NULL on failure
 * (printed). */
static mk_gl_mesh *make_grid(mk_preview *scene, mk_gl_renderer *r)
{
    enum { LINES = 11, STRIPS = 2 * LINES };
    float lo[3], hi[3], center[3], radius;
    mk_preview_box(scene, lo, hi);
    mk_preview_bounds(scene, center, &radius);
    float pos[STRIPS * 4 * 3], nrm[STRIPS * 4 * 3];
    uint32_t idx[STRIPS * 6];
    float half = radius, w = radius * 0.004f, y = lo[1] - radius * 0.002f;
    for (int k = 0; k < STRIPS; k++) {
        float t = -half + 2 * half * (float)(k % LINES) / (LINES - 1);
        bool along_z = k < LINES; /* first the lines of constant x */
        for (int c = 0; c < 4; c++) {
            float u = (c & 1) ? half : -half, v = (c & 2) ? w : -w;
            float *p = pos + 3 * (4 * k + c), *n = nrm + 3 * (4 * k + c);
            p[0] = center[0] + (along_z ? t + v : u);
            p[1] = y;
            p[2] = center[2] + (along_z ? u : t + v);
            n[0] = 0, n[1] = 1, n[2] = 0;
        }
        const uint32_t q[6] = {0, 1, 2, 2, 1, 3};
        for (int e = 0; e < 6; e++)
            idx[6 * k + e] = 4 * (uint32_t)k + q[e];
    }
    mk_error err;
    mk_gl_mesh *mesh = NULL;
    if (mk_gl_mesh_create(r, STRIPS * 4, idx, STRIPS * 6, true, &mesh, &err) != MK_OK ||
        mk_gl_mesh_update(mesh, pos, nrm, &err) != MK_OK) {
        mk_cli_print_error(&err);
        mk_gl_mesh_destroy(mesh);
        return NULL;
    }
    return mesh;
}

/* Renders the scene at each time into frames[i] (width * height RGBA8). */
static bool render(mk_preview *scene, mk_gl_renderer *r, const preview_args *a,
                   const int64_t *times, uint32_t n, uint8_t **frames, bool label,
                   const char *tag)
{
    mk_error err;
    mk_gl_target *target = NULL;
    mk_gl_target_desc td = {a->width, a->height, 4};
    if (mk_gl_target_create(&td, NULL, &target, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return false;
    }
    float center[3], radius;
    mk_preview_bounds(scene, center, &radius);
    mk_gl_draw_params params;
    memset(&params, 0, sizeof params);
    mk_gl_orbit_camera(center, radius * 1.02f / (a->sheet ? 1.0f : a->zoom), a->yaw, a->pitch,
                       0.6f, (float)a->width / (float)a->height, params.view_projection);
    /* a sheet's cells are small: the model as large as the cell allows */
    if (a->sheet)
        mk_preview_frame_tightly(scene, params.view_projection, 0.88f * a->zoom);
    mk_gl_mesh *grid = a->grid ? make_grid(scene, r) : NULL;
    if (a->grid && !grid) {
        mk_gl_target_destroy(target);
        return false;
    }
    mk_gl_draw_params grid_params = params;
    const float grid_color[4] = {0.45f, 0.48f, 0.55f, 1.0f};
    memcpy(grid_params.color, grid_color, sizeof grid_color);
    const float clear[4] = {0.16f, 0.18f, 0.22f, 1.0f};
    const uint8_t ink[4] = {235, 235, 200, 255};
    int scale = a->height >= 200 ? 2 : 1;
    bool tty = isatty(2) && n >= 24;
    for (uint32_t i = 0; i < n; i++) {
        mk_preview_seek(scene, times[i]);
        mk_gl_target_begin(target, clear, &err);
        if (grid)
            mk_gl_draw_mesh(r, grid, &grid_params, &err);
        mk_preview_draw(scene, r, &params);
        if (mk_gl_target_read(target, frames[i], &err) != MK_OK) {
            mk_cli_print_error(&err);
            mk_gl_mesh_destroy(grid);
            mk_gl_target_destroy(target);
            return false;
        }
        if (label) {
            char text[200];
            mk_preview_label(scene, text, sizeof text);
            if (tag) /* with --beside: which interpolation this half shows */
                snprintf(text + strlen(text), sizeof text - strlen(text), " %s", tag);
            if (a->labels) /* a sheet: drawn below the picture, never over it */
            {
                size_t at = strlen(a->labels[i]); /* --beside: "left | right" */
                snprintf(a->labels[i] + at, sizeof a->labels[i] - at, "%s%s", at ? " | " : "",
                         text);
            }
            else
                mk_image_draw_text(frames[i], a->width, a->height, 4 * scale,
                                   (int)a->height - 11 * scale, scale, text, ink);
        }
        if (tty)
            fprintf(stderr, "\rmorphkit: preview: frame %u/%u", i + 1, n);
    }
    if (tty)
        fprintf(stderr, "\n");
    mk_gl_mesh_destroy(grid);
    mk_gl_target_destroy(target);
    return true;
}

/* Puts right[i] beside left[i] into a picture twice as wide (in left[i]'s
 * place; the old buffers are freed). False when out of memory. */
static bool compose_beside(uint8_t **left, uint8_t **right, uint32_t n, uint32_t w, uint32_t h)
{
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *both = malloc((size_t)2 * w * h * 4);
        if (!both)
            return false;
        for (uint32_t y = 0; y < h; y++) {
            memcpy(both + (size_t)y * 2 * w * 4, left[i] + (size_t)y * w * 4, (size_t)w * 4);
            memcpy(both + ((size_t)y * 2 + 1) * w * 4, right[i] + (size_t)y * w * 4, (size_t)w * 4);
        }
        free(left[i]);
        left[i] = both;
    }
    return true;
}

/* Splits text into lines of at most `fit` characters at spaces (a longer
 * word is cut); returns the line count, lines written to out separated by
 * '\n'. */
static int wrap_label(const char *text, int fit, char *out, size_t size)
{
    int lines = 1, col = 0;
    size_t at = 0;
    for (const char *p = text; *p && at + 2 < size;) {
        const char *end = strchr(p, ' ');
        int word = end ? (int)(end - p) : (int)strlen(p);
        if (col > 0 && col + 1 + word > fit) {
            out[at++] = '\n', lines++, col = 0;
        } else if (col > 0) {
            out[at++] = ' ', col++;
        }
        for (int k = 0; k < word && at + 2 < size; k++) {
            if (col == fit)
                out[at++] = '\n', lines++, col = 0;
            out[at++] = p[k], col++;
        }
        p += word;
        while (*p == ' ')
            p++;
    }
    out[at] = '\0';
    return lines;
}

/* The contact sheet: cells in a near-square grid, each picture with its
 * label in a band of its own below it, wrapped, never cut. */
static bool write_sheet(const char *out, const preview_args *a, uint8_t **frames, uint32_t n,
                        char *why, size_t why_size)
{
    uint32_t cols = (uint32_t)ceil(sqrt((double)n)), rows = (n + cols - 1) / cols;
    int scale = a->width >= 200 ? 2 : 1, fit = ((int)a->width - 4) / (6 * scale);
    int lines = 1;
    char wrapped[600];
    for (uint32_t i = 0; i < n; i++) {
        int l = wrap_label(a->labels[i], fit > 0 ? fit : 1, wrapped, sizeof wrapped);
        lines = l > lines ? l : lines;
    }
    uint32_t band = (uint32_t)(lines * 9 * scale + 4), cell_h = a->height + band;
    uint32_t sw = cols * a->width, sh = rows * cell_h;
    uint8_t *sheet = malloc((size_t)sw * sh * 4);
    if (!sheet) {
        snprintf(why, why_size, "out of memory for a %ux%u sheet", sw, sh);
        return false;
    }
    const uint8_t bg[4] = {30, 32, 38, 255}, line[4] = {90, 90, 100, 255},
                  ink[4] = {235, 235, 200, 255};
    mk_image_fill(sheet, sw, sh, 0, 0, (int)sw, (int)sh, bg);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x0 = (i % cols) * a->width, y0 = (i / cols) * cell_h;
        for (uint32_t y = 0; y < a->height; y++)
            memcpy(sheet + (((size_t)y0 + y) * sw + x0) * 4, frames[i] + (size_t)y * a->width * 4,
                   (size_t)a->width * 4);
        wrap_label(a->labels[i], fit > 0 ? fit : 1, wrapped, sizeof wrapped);
        int ty = (int)(y0 + a->height) + 3;
        for (char *l = wrapped; l; ty += 9 * scale) {
            char *next = strchr(l, '\n');
            if (next)
                *next++ = '\0';
            mk_image_draw_text(sheet, sw, sh, (int)x0 + 3, ty, scale, l, ink);
            l = next;
        }
        mk_image_fill(sheet, sw, sh, (int)x0, (int)y0, (int)a->width, 1, line);
        mk_image_fill(sheet, sw, sh, (int)x0, (int)y0, 1, (int)cell_h, line);
    }
    bool ok = mk_image_write_png(out, sheet, sw, sh, why, why_size);
    free(sheet);
    return ok;
}

static int run(const preview_args *args, mk_preview *scene, mk_preview *beside, mk_gl_renderer *r,
               const char *out)
{
    preview_args own = *args;  /* with this run's label buffer */
    preview_args wide = *args; /* what is written: twice as wide with --beside */
    const preview_args *a = &own;
    int64_t times[4096];
    uint32_t delays[4096];
    int64_t cs_before = 0;
    uint32_t n;
    if (a->sheet) {
        if (a->fps) {
            double secs = a->seconds > 0 ? a->seconds : (double)mk_preview_length_us(scene) / 1e6;
            n = (uint32_t)fmin(ceil(secs * a->fps - 1e-9), 256);
            for (uint32_t i = 0; i < n; i++)
                times[i] = (int64_t)llround(i * 1e6 / a->fps);
        } else {
            n = mk_preview_sheet_times(scene, times, 256);
        }
    } else if (a->gif) {
        uint32_t fps = a->fps ? a->fps : 20;
        double secs = a->seconds > 0 ? a->seconds
                                     : fmin((double)mk_preview_length_us(scene) / 1e6, 60.0);
        n = (uint32_t)fmax(1, fmin(ceil(secs * fps - 1e-9), 4096));
        /* --time: where the GIF starts; the delays, rounded to the GIF's
         * hundredths cumulatively, add up to exactly `secs` (a 720 ms cycle
         * at 20 fps is 14 frames of 50 ms and one of 20, not 750 ms) */
        int64_t start = (int64_t)llround(a->time * 1e6);
        for (uint32_t i = 0; i <= n; i++) {
            double t = i < n ? i / (double)fps : secs;
            if (i < n)
                times[i] = start + (int64_t)llround(t * 1e6);
            int64_t cs = llround(t * 100);
            if (i > 0)
                delays[i - 1] = (uint32_t)(cs - cs_before);
            cs_before = cs;
        }
        if (n > 1 && delays[n - 1] == 0) /* a sliver under 5 ms: no 0-delay frame */
            n--;
        if (mk_preview_is_still(scene)) { /* nothing moves: one frame, not n equal ones */
            n = 1;
            delays[0] = (uint32_t)llround(secs * 100);
        }
    } else {
        n = 1;
        times[0] = (int64_t)llround(a->time * 1e6);
    }
    if (n == 0)
        n = 1, times[0] = 0;
    char(*labels)[200] = a->sheet ? calloc(n, sizeof *labels) : NULL;
    if (a->sheet && !labels) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    wide.labels = own.labels = labels;
    size_t bytes = (size_t)a->width * a->height * 4;
    uint8_t **frames = calloc(n, sizeof *frames);
    bool ok = frames != NULL;
    for (uint32_t i = 0; ok && i < n; i++)
        ok = (frames[i] = malloc(bytes)) != NULL;
    if (!ok) {
        mk_cli_fail("out of memory for %u frames of %ux%u", n, a->width, a->height);
    } else {
        const char *left = !beside ? NULL
                           : a->interpolation >= 0
                               ? mk_interpolation_name((mk_interpolation)a->interpolation)
                               : "cfg";
        ok = render(scene, r, a, times, n, frames, true, left);
    }
    if (ok && beside) {
        uint8_t **right = calloc(n, sizeof *right);
        ok = right != NULL;
        for (uint32_t i = 0; ok && i < n; i++)
            ok = (right[i] = malloc(bytes)) != NULL;
        ok = ok && render(beside, r, a, times, n, right, true,
                          mk_interpolation_name((mk_interpolation)a->beside));
        ok = ok && compose_beside(frames, right, n, a->width, a->height);
        for (uint32_t i = 0; right && i < n; i++)
            free(right[i]);
        free(right);
        if (!ok)
            mk_cli_fail("could not render the --beside half");
        wide.width *= 2;
        a = &wide;
    }
    char why[300] = "";
    if (ok && a->gif) {
        ok = mk_image_write_gif(out, (const uint8_t *const *)frames, n, a->width, a->height,
                                delays, why, sizeof why);
    } else if (ok && !a->sheet) {
        ok = mk_image_write_png(out, frames[0], a->width, a->height, why, sizeof why);
    } else if (ok) {
        ok = write_sheet(out, a, frames, n, why, sizeof why);
    }
    if (!ok && why[0])
        mk_cli_fail("%s: %s", out, why);
    if (ok)
        printf("%s\n", out);
    for (uint32_t i = 0; frames && i < n; i++)
        free(frames[i]);
    free(frames);
    free(labels);
    return ok ? MK_EXIT_OK : MK_EXIT_INVALID;
}

int mk_cmd_preview(int argc, char **argv)
{
    preview_args a;
    int rc = parse(argc, argv, &a);
    if (rc != 0)
        return rc < 0 ? MK_EXIT_OK : rc;
    if ((a.interpolation >= 0 || a.beside >= 0) && mk_cli_is_gltf_file(a.path))
        return usage_error("--interpolation and --beside are for unit folders, not '%s'", a.path);
    mk_preview_options so = {a.anim, a.interpolation};
    mk_preview *scene = NULL, *beside = NULL;
    rc = mk_preview_load(a.path, &so, &scene);
    if (rc != MK_EXIT_OK)
        return rc;
    if (a.beside >= 0) {
        mk_preview_options bo = {a.anim, a.beside};
        if ((rc = mk_preview_load(a.path, &bo, &beside)) != MK_EXIT_OK) {
            mk_preview_destroy(scene);
            return rc;
        }
    }
    char out[4096];
    if (a.out) {
        snprintf(out, sizeof out, "%s", a.out);
    } else {
        /* NAME_ANIM.gif/.png in the current folder, NAME the unit's real name */
        char stem[256];
        mk_cli_real_name(a.path, stem, sizeof stem);
        snprintf(out, sizeof out, "%s_%s%s.%s", stem,
                 mk_preview_anim_name(scene, mk_preview_anim(scene)), a.sheet ? "_sheet" : "",
                 a.gif ? "gif" : "png");
    }
    mk_error err;
    mk_gl_context *context = NULL;
    mk_gl_renderer *renderer = NULL;
    if (mk_gl_context_create(NULL, NULL, &context, &err) != MK_OK) {
        mk_cli_print_error(&err);
        mk_preview_destroy(scene);
        mk_preview_destroy(beside);
        return MK_EXIT_INVALID;
    }
    if (mk_gl_renderer_create(NULL, &renderer, &err) != MK_OK) {
        mk_cli_print_error(&err);
        rc = MK_EXIT_INVALID;
    } else if (!mk_preview_upload(scene, renderer) ||
               (beside && !mk_preview_upload(beside, renderer))) {
        rc = MK_EXIT_INVALID;
    } else {
        rc = run(&a, scene, beside, renderer, out);
    }
    mk_preview_release(scene);
    if (beside)
        mk_preview_release(beside);
    mk_gl_renderer_destroy(renderer);
    mk_gl_context_destroy(context);
    mk_preview_destroy(scene);
    mk_preview_destroy(beside);
    return rc;
}
