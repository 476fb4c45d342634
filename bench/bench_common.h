/* Timing helpers shared by the benchmarks (header-only). */
#ifndef MK_BENCH_COMMON_H
#define MK_BENCH_COMMON_H

#include <string.h>
#include <time.h>

static inline double mk_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int mk_bench_quick(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--quick") == 0)
            return 1;
    return 0;
}

/* Best time of `rounds` rounds, each repeating fn until `min_seconds`
 * have passed; returns seconds per call. */
#define MK_BENCH_BEST(result, rounds, min_seconds, call)              \
    do {                                                             \
        double best_ = 1e30;                                         \
        for (int r_ = 0; r_ < (rounds); r_++) {                      \
            long n_ = 0;                                             \
            double t0_ = mk_bench_now(), t1_;                        \
            do {                                                     \
                call;                                                \
                n_++;                                                \
                t1_ = mk_bench_now();                                \
            } while (t1_ - t0_ < (min_seconds));                     \
            double per_ = (t1_ - t0_) / (double)n_;                  \
            best_ = per_ < best_ ? per_ : best_;                     \
        }                                                            \
        (result) = best_;                                            \
    } while (0)

#endif
