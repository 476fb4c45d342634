/* The shared decimal reader (src/io/decimal.h): each consumer's grammar
 * (OBJ numbers, OBJ indices, animation.cfg whole numbers, JSON numbers) and
 * the float, double and whole-number conversions, on hand-picked edge cases.
 * Expected values are C literals (rounded by the compiler) or hand-computed.
 * The strtof comparison over 14 000 numbers is in test_obj.c. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../src/io/decimal.h"
#include "mk_test.h"

/* Scans all of s with grammar g; returns how many characters were taken, -1
 * for NULL. */
static int scan(const char *s, unsigned g, mk_decimal *d)
{
    const char *q = mk_decimal_scan(s, s + strlen(s), g, d);
    return q ? (int)(q - s) : -1;
}

static float obj_float(const char *s)
{
    mk_decimal d;
    CHECK_EQ_INT(scan(s, MK_DECIMAL_OBJ, &d), (int)strlen(s));
    return mk_decimal_float(&d);
}

static double json_double(const char *s)
{
    mk_decimal d;
    CHECK_EQ_INT(scan(s, MK_DECIMAL_JSON, &d), (int)strlen(s));
    return mk_decimal_double(&d);
}

static void test_obj_grammar(void)
{
    mk_decimal d;
    CHECK(obj_float("1.5e3") == 1500.0f);
    CHECK(obj_float("1E-2") == 0.01f);
    CHECK(obj_float("+2.25") == 2.25f);
    CHECK(obj_float("007.5") == 7.5f); /* leading zeros are fine in OBJ */
    CHECK(obj_float(".5") == 0.5f);
    CHECK(obj_float("5.") == 5.0f);
    float z = obj_float("-0");
    CHECK(z == 0.0f && signbit(z));
    CHECK(obj_float("-0.000") == 0.0f);
    /* 20+ digit mantissas: digits beyond 19 only move the exponent */
    CHECK(obj_float("12345678901234567890123") == 12345678901234567890123.0f);
    CHECK(obj_float("0.100000000000000000000000001") == 0.1f);
    CHECK(obj_float("0.000000000000000000000000000000123456789") == 1.23456789e-31f);
    /* range ends */
    CHECK(obj_float("3.4028234e38") == FLT_MAX);
    CHECK(isinf(obj_float("3.5e38")));
    CHECK(isinf(obj_float("-1e400")) && obj_float("-1e400") < 0);
    CHECK(isinf(obj_float("1e99999999999999"))); /* exponent digits are capped */
    CHECK(obj_float("1.17549435e-38") == FLT_MIN);
    CHECK(obj_float("3e-44") == 3e-44f);      /* subnormal */
    CHECK(obj_float("1.4e-45") == 0x1p-149f); /* the smallest subnormal */
    CHECK(obj_float("1e-46") == 0.0f);        /* below half of it: zero */
    CHECK(obj_float("1e-99999999999") == 0.0f);
    /* not numbers */
    CHECK_EQ_INT(scan("", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan(".", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("-", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("+-1", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("1e", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("1e+", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("e5", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("nan", MK_DECIMAL_OBJ, &d), -1);
    CHECK_EQ_INT(scan("inf", MK_DECIMAL_OBJ, &d), -1);
    /* stops where the number ends; the caller checks what follows */
    CHECK_EQ_INT(scan("1.5/2", MK_DECIMAL_OBJ, &d), 3);
    CHECK_EQ_INT(scan("2,5", MK_DECIMAL_OBJ, &d), 1);
    /* never reads past end */
    const char *t = "25";
    CHECK(mk_decimal_scan(t, t + 1, MK_DECIMAL_OBJ, &d) == t + 1 && d.digits == 2);
    t = "1e5";
    CHECK(mk_decimal_scan(t, t + 2, MK_DECIMAL_OBJ, &d) == NULL);
}

static void test_index_grammar(void)
{
    mk_decimal d;
    CHECK_EQ_INT(scan("-12", MK_DECIMAL_INDEX, &d), 3);
    CHECK_EQ_INT(mk_decimal_index(&d), -12);
    CHECK_EQ_INT(scan("+3", MK_DECIMAL_INDEX, &d), 2);
    CHECK_EQ_INT(mk_decimal_index(&d), 3);
    CHECK_EQ_INT(scan("0", MK_DECIMAL_INDEX, &d), 1);
    CHECK_EQ_INT(mk_decimal_index(&d), 0);
    CHECK_EQ_INT(scan("1.5", MK_DECIMAL_INDEX, &d), 1); /* no fraction */
    CHECK_EQ_INT(scan("1e3", MK_DECIMAL_INDEX, &d), 1); /* no exponent */
    CHECK_EQ_INT(scan("/1", MK_DECIMAL_INDEX, &d), -1);
    CHECK_EQ_INT(scan("+-1", MK_DECIMAL_INDEX, &d), -1);
    /* huge values are capped at 2^40, never wrapped */
    CHECK_EQ_INT(scan("1099511627776", MK_DECIMAL_INDEX, &d), 13);
    CHECK_EQ_INT(mk_decimal_index(&d), INT64_C(1) << 40);
    CHECK_EQ_INT(scan("1099511627777", MK_DECIMAL_INDEX, &d), 13);
    CHECK_EQ_INT(mk_decimal_index(&d), INT64_C(1) << 40);
    CHECK_EQ_INT(scan("-123456789012345678901234567890", MK_DECIMAL_INDEX, &d), 31);
    CHECK_EQ_INT(mk_decimal_index(&d), -(INT64_C(1) << 40));
}

static void test_whole_grammar(void)
{
    mk_decimal d;
    uint64_t v = 99;
    CHECK(scan("007", MK_DECIMAL_WHOLE, &d) == 3 && mk_decimal_uint(&d, 1000, &v) && v == 7);
    CHECK(scan("4294967295", MK_DECIMAL_WHOLE, &d) == 10 && mk_decimal_uint(&d, 0xffffffffu, &v) &&
          v == 0xffffffffu);
    CHECK(scan("4294967296", MK_DECIMAL_WHOLE, &d) == 10 && !mk_decimal_uint(&d, 0xffffffffu, &v));
    CHECK(scan("99999999999999999999", MK_DECIMAL_WHOLE, &d) == 20 &&
          !mk_decimal_uint(&d, UINT64_MAX, &v)); /* 10^19 and up: refused */
    CHECK(scan("9999999999999999999", MK_DECIMAL_WHOLE, &d) == 19 &&
          mk_decimal_uint(&d, UINT64_MAX, &v) && v == UINT64_C(9999999999999999999));
    CHECK_EQ_INT(scan("+1", MK_DECIMAL_WHOLE, &d), -1);
    CHECK_EQ_INT(scan("-1", MK_DECIMAL_WHOLE, &d), -1);
    CHECK_EQ_INT(scan("1.5", MK_DECIMAL_WHOLE, &d), 1);
    CHECK_EQ_INT(scan("1e3", MK_DECIMAL_WHOLE, &d), 1);
    CHECK_EQ_INT(scan("", MK_DECIMAL_WHOLE, &d), -1);
}

static void test_json_grammar(void)
{
    mk_decimal d;
    CHECK(json_double("0") == 0.0);
    double z = json_double("-0");
    CHECK(z == 0.0 && signbit(z));
    CHECK(json_double("0.1") == 0.1);
    CHECK(json_double("-12.5e-1") == -1.25);
    CHECK(json_double("1E+2") == 100.0);
    CHECK(json_double("123456.789") == 123456.789);
    CHECK(json_double("9007199254740992") == 9007199254740992.0);
    CHECK(json_double("9007199254740993") == 9007199254740992.0); /* ties to even */
    CHECK_NEAR(json_double("123456789012345678901234567890") / 1.2345678901234568e29, 1.0, 1e-15);
    CHECK_NEAR(json_double("1.5e300") / 1.5e300, 1.0, 1e-15);
    CHECK(json_double("1e400") == HUGE_VAL);
    CHECK(json_double("-1e400") == -HUGE_VAL);
    CHECK(json_double("1e-400") == 0.0);
    double tiny = json_double("5e-324"); /* the smallest subnormal double */
    CHECK(tiny > 0.0 && tiny < 1e-323);
    /* JSON is stricter than OBJ */
    CHECK_EQ_INT(scan("01", MK_DECIMAL_JSON, &d), 1);
    CHECK_EQ_INT(scan("-01.5", MK_DECIMAL_JSON, &d), 2);
    CHECK_EQ_INT(scan(".5", MK_DECIMAL_JSON, &d), -1);
    CHECK_EQ_INT(scan("5.", MK_DECIMAL_JSON, &d), -1);
    CHECK_EQ_INT(scan("5.e3", MK_DECIMAL_JSON, &d), -1);
    CHECK_EQ_INT(scan("+1", MK_DECIMAL_JSON, &d), -1);
    CHECK_EQ_INT(scan("-", MK_DECIMAL_JSON, &d), -1);
    CHECK_EQ_INT(scan("1e", MK_DECIMAL_JSON, &d), -1);
    CHECK_EQ_INT(scan("0.5e+07", MK_DECIMAL_JSON, &d), 7);
    /* whole numbers through JSON: glTF counts and indices */
    uint64_t v = 0;
    CHECK(scan("3.0", MK_DECIMAL_JSON, &d) == 3 && mk_decimal_uint(&d, 10, &v) && v == 3);
    CHECK(scan("1e2", MK_DECIMAL_JSON, &d) == 3 && mk_decimal_uint(&d, 1000, &v) && v == 100);
    CHECK(scan("1e2", MK_DECIMAL_JSON, &d) == 3 && !mk_decimal_uint(&d, 99, &v));
    CHECK(scan("-0", MK_DECIMAL_JSON, &d) == 2 && mk_decimal_uint(&d, 10, &v) && v == 0);
    CHECK(scan("-1", MK_DECIMAL_JSON, &d) == 2 && !mk_decimal_uint(&d, 10, &v));
    CHECK(scan("0.5", MK_DECIMAL_JSON, &d) == 3 && !mk_decimal_uint(&d, 10, &v));
    CHECK(scan("1e400", MK_DECIMAL_JSON, &d) == 5 && !mk_decimal_uint(&d, UINT64_MAX, &v));
    /* JSON numbers as floats (glTF vectors) */
    CHECK(scan("0.70710677", MK_DECIMAL_JSON, &d) == 10 && mk_decimal_float(&d) == 0.70710677f);
    CHECK(scan("1e39", MK_DECIMAL_JSON, &d) == 4 && isinf(mk_decimal_float(&d)));
}

MK_TEST_MAIN(MK_TEST(test_obj_grammar), MK_TEST(test_index_grammar), MK_TEST(test_whole_grammar),
             MK_TEST(test_json_grammar))
