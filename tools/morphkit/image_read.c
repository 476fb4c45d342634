/* Textures for preview and view: PNG files decoded to RGBA8 through
 * libpng's simplified API (any PNG colour type, 16-bit channels reduced,
 * palettes and grey expanded). Other formats are named, not drawn. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

bool mk_image_read_png(const void *data, size_t size, uint8_t **rgba, uint32_t *width,
                       uint32_t *height, char *why, size_t why_size)
{
    *rgba = NULL;
    const uint8_t *p = data;
    if (size >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) {
        snprintf(why, why_size, "a JPEG image (only PNG textures are drawn)");
        return false;
    }
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, data, size)) {
        snprintf(why, why_size, "not a PNG image (%s)", img.message);
        return false;
    }
    img.format = PNG_FORMAT_RGBA;
    /* 16384 on a side is more than any texture a preview needs */
    if (img.width == 0 || img.height == 0 || img.width > 16384 || img.height > 16384) {
        snprintf(why, why_size, "a PNG of %ux%u pixels", img.width, img.height);
        png_image_free(&img);
        return false;
    }
    uint8_t *out = malloc(PNG_IMAGE_SIZE(img));
    if (!out) {
        snprintf(why, why_size, "out of memory");
        png_image_free(&img);
        return false;
    }
    if (!png_image_finish_read(&img, NULL, out, 0, NULL)) {
        snprintf(why, why_size, "a broken PNG image (%s)", img.message);
        free(out);
        png_image_free(&img);
        return false;
    }
    *rgba = out;
    *width = img.width;
    *height = img.height;
    return true;
}
