/* Helpers shared by the assets layer (src/io); not installed. */
#ifndef MORPHKIT_IO_INTERNAL_H
#define MORPHKIT_IO_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"

/* ---- number scanning, shared by the text parsers ----------------------
 * Hand-written because strtod/strtof are slow on the hot path and follow the
 * C locale (a German locale reads "1,5"). Both stop at `end` and never read
 * past it; the text needs no terminator. */

#define MK_SCAN_EXP_CAP 100000 /* far beyond float range; keeps int math safe */

/* Parses [+-] digits [. digits] [(e|E) [+-] digits] (at least one mantissa
 * digit) at p. Returns the first character after it, or NULL when p does not
 * start with such a number. The result is within one float ulp of the exact
 * value (almost always the nearest float); beyond the float range it is
 * +-inf, below it 0. The caller checks what follows (a blank, a '/'). */
static inline const char *mk_scan_float(const char *p, const char *end, float *out)
{
    /* Exact powers of ten up to 1e22 make the usual case (<= 19 digits, small
     * exponent) one correctly rounded double operation before the rounding
     * to float. */
    static const double p10[] = {
        1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14,
        1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
        1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43,
    };
    bool neg = false;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    uint64_t m = 0;
    int e10 = 0;
    bool any = false;
    /* 19 significant digits fit in m; later ones only move the exponent
     * (a truncation error below 1e-18, far under a float ulp). */
    for (; p < end && (unsigned)(*p - '0') < 10; p++, any = true) {
        if (m < UINT64_C(1000000000000000000))
            m = m * 10 + (unsigned)(*p - '0');
        else if (e10 < MK_SCAN_EXP_CAP)
            e10++;
    }
    if (p < end && *p == '.') {
        for (p++; p < end && (unsigned)(*p - '0') < 10; p++, any = true) {
            if (m < UINT64_C(1000000000000000000)) {
                m = m * 10 + (unsigned)(*p - '0');
                if (e10 > -MK_SCAN_EXP_CAP)
                    e10--;
            }
        }
    }
    if (!any)
        return NULL;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = false;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (p == end || (unsigned)(*p - '0') >= 10)
            return NULL;
        int x = 0;
        for (; p < end && (unsigned)(*p - '0') < 10; p++)
            if (x < MK_SCAN_EXP_CAP)
                x = x * 10 + (*p - '0');
        e10 += eneg ? -x : x;
    }
    /* Exporter output (say 0.123456): m and 10^k are exact floats, so one
     * float division is correctly rounded, and cheaper than the double one. */
    static const float p10f[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    if (m <= (UINT64_C(1) << 24) && e10 <= 0 && e10 >= -10) {
        float f = (float)m / p10f[-e10];
        *out = neg ? -f : f;
        return p;
    }
    double d;
    if (m == 0 || e10 < -65) /* m < 1e19: below 1e-46, which rounds to 0 */
        d = 0.0;
    else if (e10 > 38) /* m >= 1: at least 1e39 */
        d = HUGE_VAL;
    else if (e10 >= 0)
        d = (double)m * p10[e10];
    else if (e10 >= -22)
        d = (double)m / p10[-e10];
    else
        d = (double)m / 1e22 / p10[-e10 - 22];
    *out = (float)(neg ? -d : d);
    return p;
}

/* Parses [+-] digits at p; returns the end or NULL. Values beyond 2^40 are
 * capped there (never wrapped), which is out of range for any caller. */
static inline const char *mk_scan_int(const char *p, const char *end, int64_t *out)
{
    bool neg = false;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    if (p == end || (unsigned)(*p - '0') >= 10)
        return NULL;
    int64_t v = 0;
    for (; p < end && (unsigned)(*p - '0') < 10; p++)
        if (v < (INT64_C(1) << 40))
            v = v * 10 + (*p - '0');
    *out = neg ? -v : v;
    return p;
}

#endif
