/* The growing byte block (io_internal.h) the packer's JSON and binary parts
 * and repair's rewritten frames are built in. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "io_internal.h"

static bool reserve(mk_buf *b, size_t n)
{
    if (b->failed)
        return false;
    size_t need;
    if (!mk_size_add(b->size, n, &need)) {
        b->failed = true;
        return false;
    }
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    uint8_t *p = mk_realloc(b->allocator, b->data, b->cap, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void mk_buf_append(mk_buf *b, const void *data, size_t n)
{
    if (n && reserve(b, n)) {
        memcpy(b->data + b->size, data, n);
        b->size += n;
    }
}

void mk_buf_printf(mk_buf *b, const char *format, ...)
{
    char small[256];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(small, sizeof small, format, args);
    va_end(args);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        mk_buf_append(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n + 1))
        return;
    va_start(args, format);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, format, args);
    va_end(args);
    b->size += (size_t)n;
}

void mk_buf_align(mk_buf *b, size_t align, uint8_t fill)
{
    while (!b->failed && b->size % align)
        mk_buf_append(b, &fill, 1);
}

void mk_buf_json_string(mk_buf *b, const char *s)
{
    mk_buf_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            mk_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            mk_buf_printf(b, "\\u%04x", *p);
        else
            mk_buf_append(b, p, 1);
    }
    mk_buf_append(b, "\"", 1);
}

void mk_buf_number(mk_buf *b, double v)
{
    char text[40];
    if (v == floor(v) && fabs(v) < 1e15) { /* a whole number: its digits ("90", not "9e+01") */
        mk_buf_printf(b, "%.0f", v);
        return;
    }
    /* The shortest text that reads back as the same number, so min/max
     * equal the data exactly (the validator compares them): a value that is
     * a float (times, the node's grid, colours) needs at most 9 digits, as
     * readers parse it into a float; any other double at most 17. */
    int digits = 1;
    if ((double)(float)v == v) {
        for (; digits < 9; digits++) {
            snprintf(text, sizeof text, "%.*g", digits, v);
            if ((float)strtod(text, NULL) == (float)v && strtof(text, NULL) == (float)v)
                break;
        }
    } else {
        digits = 15;
    }
    for (; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if ((double)(float)v == v ? (float)strtod(text, NULL) == (float)v : strtod(text, NULL) == v)
            break;
    }
    mk_buf_printf(b, "%s", text);
}

void mk_buf_free(mk_buf *b)
{
    mk_free(b->allocator, b->data, b->cap);
    b->data = NULL;
    b->size = b->cap = 0;
}
