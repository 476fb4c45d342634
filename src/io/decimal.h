/* The one decimal number reader of the assets layer (not installed): OBJ
 * numbers and indices, animation.cfg whole numbers and glTF JSON numbers all
 * go through mk_decimal_scan, then one of the conversions below.
 *
 * Hand-written because strtod/strtof are slow on the OBJ hot path and follow
 * the C locale (a German locale reads "1,5"). The scan stops at `end` and
 * never reads past it; the text needs no terminator. What follows the number
 * (a blank, a '/', the end of a JSON token) is the caller's to check.
 *
 * Grammar, by flags (each consumer passes one of the MK_DECIMAL_* sets):
 *   [sign] digits [. digits] [(e|E) [+-] digits]
 * with at least one mantissa digit. Without MK_DECIMAL_FRACTION or
 * MK_DECIMAL_EXPONENT the scan stops before a '.' or 'e'. MK_DECIMAL_STRICT
 * is JSON's (RFC 8259 section 6): no leading zeros ("01" stops after the
 * "0"), and a '.' needs digits on both sides (".5" and "5." fail); without
 * it ".5" and "5." are numbers, as OBJ exporters and strtod accept them.
 *
 * The scanned value is digits * 10^exponent: the first 19 significant digits
 * are kept exactly, later ones only move the exponent (an error below 1e-18
 * relative, far under a float ulp and a double's 15 exact digits), and the
 * exponent is capped at +-MK_DECIMAL_EXP_CAP (far beyond every range). */
#ifndef MORPHKIT_DECIMAL_H
#define MORPHKIT_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    MK_DECIMAL_MINUS = 1,    /* a leading '-' */
    MK_DECIMAL_PLUS = 2,     /* a leading '+' */
    MK_DECIMAL_FRACTION = 4, /* '.' digits */
    MK_DECIMAL_EXPONENT = 8, /* (e|E) [+-] digits */
    MK_DECIMAL_STRICT = 16,  /* JSON: no leading zeros, digits around '.' */
};

/* OBJ `v`/`vt`/`vn` numbers. */
#define MK_DECIMAL_OBJ (MK_DECIMAL_MINUS | MK_DECIMAL_PLUS | MK_DECIMAL_FRACTION | MK_DECIMAL_EXPONENT)
/* OBJ face indices: [+-] digits. */
#define MK_DECIMAL_INDEX (MK_DECIMAL_MINUS | MK_DECIMAL_PLUS)
/* animation.cfg milliseconds and frame numbers: digits only. */
#define MK_DECIMAL_WHOLE 0
/* JSON numbers. */
#define MK_DECIMAL_JSON (MK_DECIMAL_MINUS | MK_DECIMAL_FRACTION | MK_DECIMAL_EXPONENT | MK_DECIMAL_STRICT)

#define MK_DECIMAL_EXP_CAP 100000

typedef struct mk_decimal {
    uint64_t digits; /* the first 19 significant digits */
    int32_t exponent;
    bool negative;
} mk_decimal;

/* Below 10^18 one more digit still fits in the 19 kept. */
#define MK_DECIMAL_KEEP UINT64_C(1000000000000000000)

/* Parses a number of the given grammar at p. Returns the first character
 * after it, or NULL when p does not start with one (then *d is unspecified). */
static inline const char *mk_decimal_scan(const char *p, const char *end, unsigned grammar,
                                          mk_decimal *d)
{
    /* Every field is set even when the scan fails: the callers read d only
     * after a success, but gcc -O2/-Os cannot always see that. */
    d->negative = false;
    d->digits = 0;
    d->exponent = 0;
    if (p < end && (((grammar & MK_DECIMAL_MINUS) && *p == '-') ||
                    ((grammar & MK_DECIMAL_PLUS) && *p == '+')))
        d->negative = *p++ == '-';
    uint64_t m = 0;
    int32_t e10 = 0;
    bool any = false;
    if ((grammar & MK_DECIMAL_STRICT) && p < end && *p == '0') {
        p++; /* "01": the number is "0" and the caller sees the '1' */
        any = true;
    } else {
        for (; p < end && (unsigned)(*p - '0') < 10; p++, any = true) {
            if (m < MK_DECIMAL_KEEP)
                m = m * 10 + (unsigned)(*p - '0');
            else if (e10 < MK_DECIMAL_EXP_CAP)
                e10++;
        }
    }
    if ((grammar & MK_DECIMAL_FRACTION) && p < end && *p == '.') {
        const char *digits = ++p;
        if ((grammar & MK_DECIMAL_STRICT) && !any)
            return NULL; /* ".5" */
        for (; p < end && (unsigned)(*p - '0') < 10; p++, any = true) {
            if (m < MK_DECIMAL_KEEP) {
                m = m * 10 + (unsigned)(*p - '0');
                e10--; /* at most 19 times: no cap needed */
            }
        }
        if ((grammar & MK_DECIMAL_STRICT) && p == digits)
            return NULL; /* "5." */
    }
    if (!any)
        return NULL;
    if ((grammar & MK_DECIMAL_EXPONENT) && p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = false;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (p == end || (unsigned)(*p - '0') >= 10)
            return NULL; /* "1e", "1e+" */
        int32_t x = 0;
        for (; p < end && (unsigned)(*p - '0') < 10; p++)
            if (x < MK_DECIMAL_EXP_CAP)
                x = x * 10 + (*p - '0');
        e10 += eneg ? -x : x;
    }
    d->digits = m;
    d->exponent = e10;
    return p;
}

/* The value as a float, within one float ulp of the exact value (almost
 * always the nearest float; measured against strtof in the tests); beyond
 * the float range +-inf, below it +-0 (subnormals are kept). */
float mk_decimal_float_slow(const mk_decimal *d);
static inline float mk_decimal_float(const mk_decimal *d)
{
    /* Exporter output (say 0.123456): m and 10^k are exact floats, so one
     * float division is correctly rounded, and cheaper than the double one. */
    static const float p10f[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    if (d->digits <= (UINT64_C(1) << 24) && d->exponent <= 0 && d->exponent >= -10) {
        float f = (float)d->digits / p10f[-d->exponent];
        return d->negative ? -f : f;
    }
    return mk_decimal_float_slow(d);
}

/* The value as a double: exact for integers up to 2^53, correctly rounded
 * for up to 15 significant digits and powers of ten up to 22 (all that glTF
 * exporters write), within a few ulp otherwise; +-HUGE_VAL beyond the
 * double range, +-0 below it. */
double mk_decimal_double_slow(const mk_decimal *d);
static inline double mk_decimal_double(const mk_decimal *d)
{
    if (d->exponent == 0 && d->digits <= (UINT64_C(1) << 53)) { /* integers: exact */
        double v = (double)d->digits;
        return d->negative ? -v : v;
    }
    return mk_decimal_double_slow(d);
}

/* The value as a whole number in [0, max]: false when it is negative (but
 * "-0" is 0), has a nonzero fraction among its kept digits, is above max,
 * or is 10^19 or more (digits beyond the 19th may have been dropped). */
bool mk_decimal_uint(const mk_decimal *d, uint64_t max, uint64_t *out);

/* An OBJ index: the value with its sign, capped at +-MK_DECIMAL_INDEX_CAP
 * (never wrapped), which is out of range for any caller. Expects
 * MK_DECIMAL_INDEX. */
#define MK_DECIMAL_INDEX_CAP (INT64_C(1) << 40)
static inline int64_t mk_decimal_index(const mk_decimal *d)
{
    const int64_t cap = MK_DECIMAL_INDEX_CAP;
    int64_t v = d->exponent > 0 || d->digits > (uint64_t)cap ? cap : (int64_t)d->digits;
    return d->negative ? -v : v;
}

#endif
