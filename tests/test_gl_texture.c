/* Base colour textures on the pair path (frame-set texcoords, OBJ's v up)
 * and the target path (glTF TEXCOORD_0, v down): a quad filling most of the
 * picture with a 2x2 checker shows each texel in its quadrant, and a grey
 * texel is decoded from sRGB before it is lit. Headless EGL; exits 77
 * (skipped) where no EGL display gives an OpenGL 3.3 core context. */
#include <math.h>
#include <stdint.h>

#include "mk_test.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"

#define SIDE 64

static mk_gl_renderer *renderer;

/* Top row red, blue; bottom row blue, red (RGBA8, top row first). */
static const uint8_t checker[16] = {255, 0, 0, 255, 0, 0, 255, 255,
                                    0, 0, 255, 255, 255, 0, 0, 255};

/* Quad corners in clip space (identity camera), counter-clockwise. */
static const float corners[4][2] = {{-0.9f, -0.9f}, {0.9f, -0.9f}, {0.9f, 0.9f}, {-0.9f, 0.9f}};
static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};

static void draw_and_read(void (*draw)(const mk_gl_draw_params *), const mk_gl_draw_params *p,
                          uint8_t *img)
{
    mk_gl_target *target = NULL;
    mk_gl_target_desc desc = {SIDE, SIDE, 0};
    mk_error err;
    CHECK(mk_gl_target_create(&desc, NULL, &target, &err) == MK_OK);
    if (!target)
        return;
    CHECK(mk_gl_target_begin(target, NULL, &err) == MK_OK);
    draw(p);
    CHECK(mk_gl_target_read(target, img, &err) == MK_OK);
    mk_gl_target_destroy(target);
}

/* Pixel (x, y), y from the top. */
static const uint8_t *px(const uint8_t *img, int x, int y)
{
    return img + 4 * ((size_t)y * SIDE + (size_t)x);
}

/* Linear filtering mixes a little of the neighbouring texel in away from
 * texel centres (and the display curve lifts it), so: dominant, not pure. */
static bool reddish(const uint8_t *p)
{
    return p[0] > 60 && p[2] < p[0] / 4 && p[1] < 10;
}

static bool bluish(const uint8_t *p)
{
    return p[2] > 60 && p[0] < p[2] / 4 && p[1] < 10;
}

/* Texel centres: u = 0.25 and 0.75 of a quad from pixel 3.2 to 60.8 are
 * pixels 17 and 46. Top-left and bottom-right red, the other two blue. */
static void check_checker(const uint8_t *img, const char *what)
{
    int a = 17, b = 46;
    bool ok = reddish(px(img, a, a)) && bluish(px(img, b, a)) && bluish(px(img, a, b)) &&
              reddish(px(img, b, b));
    if (!ok)
        fprintf(stderr, "%s: quadrants %u,%u,%u %u,%u,%u %u,%u,%u %u,%u,%u\n", what,
                px(img, a, a)[0], px(img, a, a)[1], px(img, a, a)[2], px(img, b, a)[0],
                px(img, b, a)[1], px(img, b, a)[2], px(img, a, b)[0], px(img, a, b)[1],
                px(img, a, b)[2], px(img, b, b)[0], px(img, b, b)[1], px(img, b, b)[2]);
    CHECK(ok);
}

static mk_gl_frames *frames;
static mk_gl_morph *morph;

static void draw_frames(const mk_gl_draw_params *p)
{
    mk_pose pose = {1, {0}, {1.0f}};
    mk_error err;
    CHECK(mk_gl_draw_pose(renderer, frames, &pose, p, &err) == MK_OK);
}

static void draw_morph(const mk_gl_draw_params *p)
{
    mk_error err;
    CHECK(mk_gl_draw_morph(renderer, morph, NULL, p, &err) == MK_OK);
}

static void test_pair_path(void)
{
    mk_frame_set_desc desc = {1, 4, 6, false, true};
    mk_frame_set *set = NULL;
    mk_error err;
    CHECK(mk_frame_set_create(&desc, NULL, &set, &err) == MK_OK);
    if (!set)
        return;
    for (int v = 0; v < 4; v++) {
        set->positions[3 * v] = corners[v][0];
        set->positions[3 * v + 1] = corners[v][1];
        /* OBJ convention: v = 0 at the image's bottom, so the top of the
         * quad (y = 0.9) shows the image's top row */
        set->texcoords[2 * v] = corners[v][0] > 0 ? 1.0f : 0.0f;
        set->texcoords[2 * v + 1] = corners[v][1] > 0 ? 1.0f : 0.0f;
    }
    memcpy(set->indices, quad, sizeof quad);
    CHECK(mk_gl_frames_create(renderer, set, &frames, &err) == MK_OK);
    mk_frame_set_destroy(set);
    mk_gl_texture *tex = NULL;
    CHECK(mk_gl_texture_create(renderer, 2, 2, checker, NULL, &tex, &err) == MK_OK);
    static uint8_t img[SIDE * SIDE * 4];
    mk_gl_draw_params p = {0};
    p.color[0] = p.color[1] = p.color[2] = p.color[3] = 1.0f;
    p.texture = tex;
    draw_and_read(draw_frames, &p, img);
    check_checker(img, "pair path");
    /* without the texture: white everywhere, no checker */
    p.texture = NULL;
    draw_and_read(draw_frames, &p, img);
    CHECK(!reddish(px(img, SIDE / 4, SIDE / 4)) && !bluish(px(img, 3 * SIDE / 4, SIDE / 4)));
    CHECK(px(img, SIDE / 4, SIDE / 4)[0] == px(img, SIDE / 4, SIDE / 4)[2]);
    mk_gl_texture_destroy(tex);
    mk_gl_frames_destroy(frames);
    frames = NULL;
}

static void test_target_path(void)
{
    mk_morph_set_desc desc = {4, 0, false, false, NULL};
    mk_morph_set *set = NULL;
    mk_error err;
    CHECK(mk_morph_set_create(&desc, NULL, &set, &err) == MK_OK);
    if (!set)
        return;
    float uv[8];
    for (int v = 0; v < 4; v++) {
        set->base_positions[3 * v] = corners[v][0];
        set->base_positions[3 * v + 1] = corners[v][1];
        /* glTF convention: v = 0 at the image's top */
        uv[2 * v] = corners[v][0] > 0 ? 1.0f : 0.0f;
        uv[2 * v + 1] = corners[v][1] > 0 ? 0.0f : 1.0f;
    }
    CHECK(mk_gl_morph_create(renderer, set, quad, 6, &morph, &err) == MK_OK);
    mk_morph_set_destroy(set);
    if (!morph)
        return;
    CHECK(mk_gl_morph_set_texcoords(morph, uv, &err) == MK_OK);
    mk_gl_texture *tex = NULL;
    CHECK(mk_gl_texture_create(renderer, 2, 2, checker, NULL, &tex, &err) == MK_OK);
    static uint8_t img[SIDE * SIDE * 4];
    mk_gl_draw_params p = {0};
    p.color[0] = p.color[1] = p.color[2] = p.color[3] = 1.0f;
    p.texture = tex;
    draw_and_read(draw_morph, &p, img);
    check_checker(img, "target path");
    mk_gl_texture_destroy(tex);

    /* sRGB decode: texel 128 is 0.2158 linear (IEC 61966-2-1); with ambient
     * 1 and a face normal with y = 0 the lit colour is 0.8 * that, shown as
     * (0.1727)^(1/2.2) * 255 = 114.8. Without the decode it would be
     * (0.8 * 128 / 255)^(1/2.2) * 255 = 168.4. */
    const uint8_t grey[4] = {128, 128, 128, 255};
    CHECK(mk_gl_texture_create(renderer, 1, 1, grey, NULL, &tex, &err) == MK_OK);
    p.texture = tex;
    p.ambient = 1.0f;
    draw_and_read(draw_morph, &p, img);
    const uint8_t *c = px(img, SIDE / 2, SIDE / 2);
    CHECK(abs((int)c[0] - 115) <= 3 && c[0] == c[1] && c[1] == c[2]);
    mk_gl_texture_destroy(tex);

    /* misuse */
    float bad[8] = {0, 0, NAN, 0, 0, 0, 0, 0};
    CHECK(mk_gl_morph_set_texcoords(morph, bad, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_morph_set_texcoords(NULL, uv, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_texture_create(renderer, 0, 2, checker, NULL, &tex, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(tex == NULL);
    CHECK(mk_gl_texture_create(renderer, 2, 2, NULL, NULL, &tex, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_texture_create(NULL, 2, 2, checker, NULL, &tex, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    mk_gl_texture_destroy(NULL);
    mk_gl_morph_destroy(morph);
    morph = NULL;
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {MK_TEST(test_pair_path), MK_TEST(test_target_path)};
    mk_gl_context *context = NULL;
    mk_error err;
    if (mk_gl_context_create(NULL, NULL, &context, &err) != MK_OK) {
        fprintf(stderr, "skipped: %s\n", err.message);
        return err.code == MK_ERR_UNSUPPORTED ? 77 : 1;
    }
    if (mk_gl_renderer_create(NULL, &renderer, &err) != MK_OK) {
        fprintf(stderr, "renderer: %s: %s\n", err.file, err.message);
        mk_gl_context_destroy(context);
        return 1;
    }
    int rc = mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
    mk_gl_renderer_destroy(renderer);
    mk_gl_context_destroy(context);
    return rc;
}
