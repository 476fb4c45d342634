/* Pictures for `morphkit preview` and `view`: RGBA8 images (top row first),
 * PNG and animated GIF files written whole or not at all, a tiny 5x7 font
 * for labels. */
#ifndef MK_TOOL_IMAGE_H
#define MK_TOOL_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes an RGBA8 picture as PNG. The file is written to a temporary name in
 * the same folder and renamed over `path` only when complete. Returns false
 * (with errno-style text in why) on failure; nothing is left behind. */
bool mk_image_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                        char *why, size_t why_size);

/* Decodes a PNG file held in memory to RGBA8 (top row first) in *rgba
 * (malloc'ed; free it). False, with the reason in why (a JPEG is named as
 * such), when it is not a PNG this can decode. */
bool mk_image_read_png(const void *data, size_t size, uint8_t **rgba, uint32_t *width,
                       uint32_t *height, char *why, size_t why_size);

/* Writes frame_count RGBA8 frames as a looping GIF, frame f shown for
 * delays_cs[f] hundredths of a second. Colours: one global 256-entry palette of
 * the most used 15-bit colours over all frames (ordinary previews have a
 * background and a few shading ramps, which this keeps smooth). Written whole
 * or not at all, like mk_image_write_png. */
bool mk_image_write_gif(const char *path, const uint8_t *const *frames, uint32_t frame_count,
                        uint32_t width, uint32_t height, const uint32_t *delays_cs, char *why,
                        size_t why_size);

/* Draws text with the built-in 5x7 font (digits, letters shown upper-case,
 * and . , : - + > / = _ % ! | ( ) ' ? < [ ] * #), each font pixel a scale x scale block, with its
 * top-left corner at (x, y); pixels outside the image are clipped. */
void mk_image_draw_text(uint8_t *rgba, uint32_t width, uint32_t height, int x, int y, int scale,
                        const char *text, const uint8_t color[4]);
/* Width in pixels of text at scale (6 font pixels per character). */
int mk_image_text_width(const char *text, int scale);

/* Fills a rectangle (clipped). */
void mk_image_fill(uint8_t *rgba, uint32_t width, uint32_t height, int x, int y, int w, int h,
                   const uint8_t color[4]);

#endif
