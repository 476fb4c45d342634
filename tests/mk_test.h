/* A minimal test harness: each test file defines test functions, lists them
 * in MK_TEST_MAIN, and CTest runs the executable. Checks keep going after a
 * failure so one run shows every broken expectation. */
#ifndef MK_TEST_H
#define MK_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mk_test_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            mk_test_failures++;                                                      \
        }                                                                            \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                             \
    do {                                                                                  \
        double mk_a_ = (double)(a), mk_b_ = (double)(b);                                  \
        if (!(fabs(mk_a_ - mk_b_) <= (tol))) {                                            \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g (tol %g)\n", \
                    __FILE__, __LINE__, #a, mk_a_, #b, mk_b_, (double)(tol));              \
            mk_test_failures++;                                                           \
        }                                                                                 \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                 \
    do {                                                                                   \
        long long mk_a_ = (long long)(a), mk_b_ = (long long)(b);                          \
        if (mk_a_ != mk_b_) {                                                              \
            fprintf(stderr, "%s:%d: CHECK_EQ_INT failed: %s = %lld, %s = %lld\n", __FILE__, \
                    __LINE__, #a, mk_a_, #b, mk_b_);                                       \
            mk_test_failures++;                                                            \
        }                                                                                  \
    } while (0)

/* Substring check, for error messages. */
#define CHECK_CONTAINS(haystack, needle)                                                   \
    do {                                                                                   \
        const char *mk_h_ = (haystack), *mk_n_ = (needle);                                 \
        if (!mk_h_ || !strstr(mk_h_, mk_n_)) {                                             \
            fprintf(stderr, "%s:%d: CHECK_CONTAINS failed: \"%s\" does not contain \"%s\"\n", \
                    __FILE__, __LINE__, mk_h_ ? mk_h_ : "(null)", mk_n_);                  \
            mk_test_failures++;                                                            \
        }                                                                                  \
    } while (0)

typedef struct mk_test_case {
    const char *name;
    void (*fn)(void);
} mk_test_case;

#define MK_TEST(fn) {#fn, fn}

/* Runs every case (or the one named in argv[1]) and returns the exit code. */
static inline int mk_test_run(const mk_test_case *cases, size_t n, int argc, char **argv)
{
    int ran = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
            continue;
        int before = mk_test_failures;
        cases[i].fn();
        ran++;
        failed += mk_test_failures != before;
        printf("%s %s\n", mk_test_failures == before ? "ok  " : "FAIL", cases[i].name);
    }
    if (ran == 0) {
        fprintf(stderr, "no test matched\n");
        return 1;
    }
    printf("%d passed, %d failed\n", ran - failed, failed);
    return mk_test_failures ? 1 : 0;
}

#define MK_TEST_MAIN(...)                                                          \
    int main(int argc, char **argv)                                                \
    {                                                                              \
        static const mk_test_case cases[] = {__VA_ARGS__};                         \
        return mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);      \
    }

#endif
