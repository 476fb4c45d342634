/* The kernel benchmark suite behind `morphkit bench` and bench/bench_kernels:
 * every kernel beside a memcpy that moves the same bytes, measured in the
 * same run (rounds interleaved, best of N), in cache and from memory.
 *
 * "The same bytes": a kernel that reads R and writes W bytes per vertex is
 * compared with memcpy of (R + W) / 2 bytes per vertex, which also reads
 * and writes R + W bytes in total. The ratio kernel / copy is what the
 * goals state; 1.0 means the kernel runs at the speed of memory traffic. */
#ifndef MK_BENCH_SUITE_H
#define MK_BENCH_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MK_BENCH_MAX_ROWS 24

typedef struct mk_bench_row {
    const char *kernel;     /* stable id: "blend", "qblend", "morph_dense", ... */
    const char *what;       /* a human description */
    uint32_t vertices;
    double read_bytes;      /* per vertex */
    double write_bytes;     /* per vertex */
    double ns_per_vertex;   /* best of the rounds */
    double copy_ns_per_vertex;
    double ratio;           /* ns_per_vertex / copy_ns_per_vertex */
    double goal;            /* the ratio the goal allows; 0: no goal */
} mk_bench_row;

typedef struct mk_bench_options {
    bool quick;       /* tiny sizes, one short round: a smoke test */
    int rounds;       /* 0: 5 (1 with quick) */
    uint32_t threads; /* for the threaded row; 0: 2 */
} mk_bench_options;

typedef struct mk_bench_result {
    const char *simd;          /* the kernel variant in use */
    double bandwidth_gbs;      /* memcpy from memory, (read + written) bytes / s */
    mk_bench_row rows[MK_BENCH_MAX_ROWS];
    uint32_t row_count;
    uint32_t thread_vertices;  /* the threaded blend (float, from memory) */
    uint32_t threads;
    double one_thread_ms, n_threads_ms, thread_speedup;
    uint32_t players;
    double player_ns;          /* per player per update, mk_player_advance */
} mk_bench_result;

/* Runs everything; false (with a message on stderr) when memory runs out. */
bool mk_bench_run(const mk_bench_options *options, mk_bench_result *out);
void mk_bench_print_text(FILE *out, const mk_bench_result *r);
/* The --json document ("version": 1; docs/json.md). */
void mk_bench_print_json(FILE *out, const mk_bench_result *r);

#endif
