/* PNG (libpng's simplified API) and GIF (giflib) writers, and the label font. */
#include <gif_lib.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "morphkit/file.h"

/* ---- whole-or-nothing files -------------------------------------------------- */

/* Both formats are encoded into memory and then written by the library's
 * atomic writer (morphkit/file.h): a temporary file in the same folder,
 * flushed and renamed over path, removed on any failure. */
static bool write_whole(const char *path, const void *data, size_t size, char *why,
                        size_t why_size)
{
    mk_error err;
    if (mk_file_write(NULL, path, data, size, &err) != MK_OK) {
        snprintf(why, why_size, "%s", err.message);
        return false;
    }
    return true;
}

bool mk_image_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                        char *why, size_t why_size)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    void *buf = NULL;
    /* the first call (no memory) asks for the size */
    int ok = png_image_write_to_memory(&image, NULL, &size, 0, rgba, (png_int_32)(width * 4),
                                       NULL);
    if (ok) {
        buf = malloc(size);
        ok = buf && png_image_write_to_memory(&image, buf, &size, 0, rgba,
                                              (png_int_32)(width * 4), NULL);
    }
    if (!ok)
        snprintf(why, why_size, "libpng: %s", image.message[0] ? image.message : "out of memory");
    png_image_free(&image);
    ok = ok && write_whole(path, buf, size, why, why_size);
    free(buf);
    return ok;
}

/* ---- GIF ---------------------------------------------------------------------------- */

static uint32_t rgb555(const uint8_t *p)
{
    return ((uint32_t)(p[0] >> 3) << 10) | ((uint32_t)(p[1] >> 3) << 5) | (uint32_t)(p[2] >> 3);
}

typedef struct bucket {
    uint32_t color, count;
} bucket;

static int by_count(const void *a, const void *b)
{
    const bucket *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : (x->color > y->color) - (x->color < y->color);
}

/* Popularity palette: the 256 most used 15-bit colours; every 15-bit colour
 * then maps to its nearest palette entry (a 32 K lookup table). */
static bool build_palette(const uint8_t *const *frames, uint32_t n, size_t pixels,
                          GifColorType palette[256], uint8_t *lookup)
{
    bucket *hist = calloc(32768, sizeof *hist);
    if (!hist)
        return false;
    for (uint32_t c = 0; c < 32768; c++)
        hist[c].color = c;
    for (uint32_t f = 0; f < n; f++)
        for (size_t i = 0; i < pixels; i++)
            hist[rgb555(frames[f] + 4 * i)].count++;
    qsort(hist, 32768, sizeof *hist, by_count);
    int used = 0;
    for (; used < 256 && hist[used].count; used++) {
        uint32_t c = hist[used].color;
        /* Centre of the 8-wide bucket, so rounding errors cancel. */
        palette[used].Red = (GifByteType)(((c >> 10) & 31) * 8 + 4);
        palette[used].Green = (GifByteType)(((c >> 5) & 31) * 8 + 4);
        palette[used].Blue = (GifByteType)((c & 31) * 8 + 4);
    }
    for (int i = used; i < 256; i++)
        palette[i] = palette[0];
    free(hist);
    for (uint32_t c = 0; c < 32768; c++) {
        int r = (int)((c >> 10) & 31) * 8 + 4, g = (int)((c >> 5) & 31) * 8 + 4,
            b = (int)(c & 31) * 8 + 4;
        int best = 0, best_d = 1 << 30;
        for (int i = 0; i < used; i++) {
            int dr = r - palette[i].Red, dg = g - palette[i].Green, db = b - palette[i].Blue;
            /* Weighted like the eye: green matters most. */
            int d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
            if (d < best_d) {
                best_d = d;
                best = i;
            }
        }
        lookup[c] = (uint8_t)best;
    }
    return true;
}

/* giflib's output function: appends to a growing block. */
typedef struct gif_out {
    uint8_t *data;
    size_t size, capacity;
} gif_out;

static int gif_append(GifFileType *gif, const GifByteType *bytes, int n)
{
    gif_out *o = gif->UserData;
    if (o->size + (size_t)n > o->capacity) {
        size_t cap = o->capacity ? o->capacity * 2 : 65536;
        while (cap < o->size + (size_t)n)
            cap *= 2;
        uint8_t *p = realloc(o->data, cap);
        if (!p)
            return 0;
        o->data = p;
        o->capacity = cap;
    }
    memcpy(o->data + o->size, bytes, (size_t)n);
    o->size += (size_t)n;
    return n;
}

bool mk_image_write_gif(const char *path, const uint8_t *const *frames, uint32_t frame_count,
                        uint32_t width, uint32_t height, const uint32_t *delays_cs, char *why,
                        size_t why_size)
{
    size_t pixels = (size_t)width * height;
    GifColorType colors[256];
    uint8_t *lookup = malloc(32768);
    GifByteType *line = malloc(width);
    if (!lookup || !line || !build_palette(frames, frame_count, pixels, colors, lookup)) {
        free(lookup), free(line);
        snprintf(why, why_size, "out of memory");
        return false;
    }
    int error = 0;
    gif_out out = {NULL, 0, 0};
    GifFileType *gif = EGifOpen(&out, gif_append, &error);
    ColorMapObject *map = GifMakeMapObject(256, colors);
    bool ok = gif && map;
    if (ok) {
        EGifSetGifVersion(gif, true);
        ok = EGifPutScreenDesc(gif, (int)width, (int)height, 8, 0, map) == GIF_OK;
    }
    /* NETSCAPE2.0 application extension: loop forever. */
    static const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0', '.'};
    static const GifByteType loop[] = {1, 0, 0};
    if (ok)
        ok = EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
             EGifPutExtensionBlock(gif, 11, app) == GIF_OK &&
             EGifPutExtensionBlock(gif, 3, loop) == GIF_OK &&
             EGifPutExtensionTrailer(gif) == GIF_OK;
    for (uint32_t f = 0; ok && f < frame_count; f++) {
        GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, (int)delays_cs[f],
                                   NO_TRANSPARENT_COLOR};
        GifByteType ext[4];
        EGifGCBToExtension(&gcb, ext);
        ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_OK &&
             EGifPutImageDesc(gif, 0, 0, (int)width, (int)height, false, NULL) == GIF_OK;
        for (uint32_t y = 0; ok && y < height; y++) {
            const uint8_t *row = frames[f] + (size_t)y * width * 4;
            for (uint32_t x = 0; x < width; x++)
                line[x] = lookup[rgb555(row + 4 * x)];
            ok = EGifPutLine(gif, line, (int)width) == GIF_OK;
        }
    }
    if (!ok)
        snprintf(why, why_size, "giflib: %s",
                 GifErrorString(gif ? gif->Error : error) ? GifErrorString(gif ? gif->Error : error)
                                                          : "write failed");
    if (gif && EGifCloseFile(gif, &error) != GIF_OK && ok) {
        snprintf(why, why_size, "giflib: %s", GifErrorString(error));
        ok = false;
    }
    GifFreeMapObject(map);
    free(lookup), free(line);
    ok = ok && write_whole(path, out.data, out.size, why, why_size);
    free(out.data);
    return ok;
}

/* ---- 5x7 font --------------------------------------------------------------------- */

/* Each glyph: 7 rows of 5 pixels, '#' set, top row first. Drawn for this
 * tool. */
typedef struct glyph {
    char c;
    const char *rows; /* 35 characters */
} glyph;

static const glyph font[] = {
    {'0', ".###.#...##..###.#.###..##...#.###."},
    {'1', "..#...##....#....#....#....#...###."},
    {'2', ".###.#...#....#...#...#...#...#####"},
    {'3', "####.....#....#.###.....#....#####."},
    {'4', "...#...##..#.#.#..#.#####...#....#."},
    {'5', "######....####.....#....##...#.###."},
    {'6', "..##..#...#....####.#...##...#.###."},
    {'7', "#####....#...#...#...#....#....#..."},
    {'8', ".###.#...##...#.###.#...##...#.###."},
    {'9', ".###.#...##...#.####....#...#..##.."},
    {'A', ".###.#...##...#######...##...##...#"},
    {'B', "####.#...##...#####.#...##...#####."},
    {'C', ".###.#...##....#....#....#...#.###."},
    {'D', "###..#..#.#...##...##...##..#.###.."},
    {'E', "######....#....####.#....#....#####"},
    {'F', "######....#....####.#....#....#...."},
    {'G', ".###.#...##....#.####...##...#.####"},
    {'H', "#...##...##...#######...##...##...#"},
    {'I', ".###...#....#....#....#....#...###."},
    {'J', "..###...#....#....#.#..#.#..#..##.."},
    {'K', "#...##..#.#.#..##...#.#..#..#.#...#"},
    {'L', "#....#....#....#....#....#....#####"},
    {'M', "#...###.###.#.##...##...##...##...#"},
    {'N', "#...##...###..##.#.##..###...##...#"},
    {'O', ".###.#...##...##...##...##...#.###."},
    {'P', "####.#...##...#####.#....#....#...."},
    {'Q', ".###.#...##...##...##.#.##..#..##.#"},
    {'R', "####.#...##...#####.#.#..#..#.#...#"},
    {'S', ".#####....#.....###.....#....#####."},
    {'T', "#####..#....#....#....#....#....#.."},
    {'U', "#...##...##...##...##...##...#.###."},
    {'V', "#...##...##...##...##...#.#.#...#.."},
    {'W', "#...##...##...##.#.##.#.##.#.#.#.#."},
    {'X', "#...##...#.#.#...#...#.#.#...##...#"},
    {'Y', "#...##...#.#.#...#....#....#....#.."},
    {'Z', "#####....#...#...#...#...#....#####"},
    {'.', "..........................##...##.."},
    {',', ".....................##....#...#..."},
    {':', ".....##...##.........##...##......."},
    {'-', "...............###................."},
    {'+', ".......#....#..#####..#....#......."},
    {'>', ".#.....#.....#.....#...#...#...#..."},
    {'/', "....#...#....#...#...#....#...#...."},
    {'=', "..........#####.....#####.........."},
    {'_', "..............................#####"},
    {'%', "##..###..#...#...#...#...#..###..##"},
    {'!', "..#....#....#....#....#.........#.."},
    {'|', "..#....#....#....#....#....#....#.."},
    {'(', "...#...#...#....#....#.....#.....#."},
    {')', ".#.....#.....#....#....#...#...#..."},
    {'\'', "..#....#...#......................."},
    {'?', ".###.#...#....#...#...#.........#.."},
    {'<', "...#...#...#...#.....#.....#.....#."},
    {'[', ".###..#....#....#....#....#....###."},
    {']', ".###....#....#....#....#....#..###."},
    {'*', ".......#..#.#.#.###.#.#.#..#......."},
    {'#', ".#.#..#.#.#####.#.#.#####.#.#..#.#."},
};

static const char *glyph_rows(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].c == c)
            return font[i].rows;
    return NULL; /* space and unknown characters: blank */
}

void mk_image_fill(uint8_t *rgba, uint32_t width, uint32_t height, int x, int y, int w, int h,
                   const uint8_t color[4])
{
    for (int j = y < 0 ? 0 : y; j < y + h && j < (int)height; j++)
        for (int i = x < 0 ? 0 : x; i < x + w && i < (int)width; i++)
            memcpy(rgba + ((size_t)j * width + (size_t)i) * 4, color, 4);
}

void mk_image_draw_text(uint8_t *rgba, uint32_t width, uint32_t height, int x, int y, int scale,
                        const char *text, const uint8_t color[4])
{
    for (; *text; text++, x += 6 * scale) {
        const char *rows = glyph_rows(*text);
        if (!rows)
            continue;
        for (int r = 0; r < 7; r++)
            for (int c = 0; c < 5; c++)
                if (rows[r * 5 + c] == '#')
                    mk_image_fill(rgba, width, height, x + c * scale, y + r * scale, scale, scale,
                                  color);
    }
}

int mk_image_text_width(const char *text, int scale)
{
    return (int)strlen(text) * 6 * scale;
}
