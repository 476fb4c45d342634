/* Conversions of scanned decimals (see decimal.h): the float slow path, the
 * double, and whole numbers. */
#include "decimal.h"

#include <math.h>

/* Powers of ten: exact up to 10^22, correctly rounded doubles above (the
 * float path reaches 10^38 up and 10^22 * 10^43 down). */
static const double p10[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14,
    1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
    1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43,
};

_Static_assert(sizeof p10 / sizeof p10[0] == 44, "10^0 .. 10^43");

float mk_decimal_float_slow(const mk_decimal *d)
{
    /* Up to 19 digits and small exponents: one correctly rounded double
     * operation before the rounding to float. */
    uint64_t m = d->digits;
    int32_t e10 = d->exponent;
    double v;
    if (m == 0 || e10 < -65) /* m < 1e19: below 1e-46, which rounds to 0 */
        v = 0.0;
    else if (e10 > 38) /* m >= 1: at least 1e39 */
        v = HUGE_VAL;
    else if (e10 >= 0)
        v = (double)m * p10[e10];
    else if (e10 >= -22)
        v = (double)m / p10[-e10];
    else /* -65 <= e10 < -22 */
        v = (double)m / 1e22 / p10[-e10 - 22];
    return (float)(d->negative ? -v : v);
}

double mk_decimal_double_slow(const mk_decimal *d)
{
    uint64_t m = d->digits;
    int32_t e10 = d->exponent;
    double v = (double)m; /* exact up to 2^53 */
    if (m == 0 || e10 == 0) {
    } else if (m <= (UINT64_C(1) << 53) && e10 > 0 && e10 <= 22) {
        v *= p10[e10]; /* both exact: one correctly rounded step */
    } else if (m <= (UINT64_C(1) << 53) && e10 < 0 && e10 >= -22) {
        v /= p10[-e10];
    } else if (e10 > 330) {
        v = HUGE_VAL;
    } else if (e10 < -360) {
        v = 0.0;
    } else {
        for (; e10 > 22; e10 -= 22)
            v *= 1e22;
        for (; e10 < -22; e10 += 22)
            v /= 1e22;
        v = e10 >= 0 ? v * p10[e10] : v / p10[-e10];
    }
    return d->negative ? -v : v;
}

bool mk_decimal_uint(const mk_decimal *d, uint64_t max, uint64_t *out)
{
    uint64_t v = d->digits;
    int32_t e10 = d->exponent;
    if (v == 0) {
        *out = 0;
        return true;
    }
    if (d->negative)
        return false;
    for (; e10 < 0; e10++) { /* "3.0", "30e-1": trailing zeros only */
        if (v % 10 != 0)
            return false;
        v /= 10;
    }
    for (; e10 > 0; e10--) {
        /* from 10^19 up digits may have been dropped: refused whatever max */
        if (v > max / 10 || v >= MK_DECIMAL_KEEP)
            return false;
        v *= 10;
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}
